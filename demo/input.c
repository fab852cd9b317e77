// The demo's controls: keys, mouse and scripted input; map edits (walls and doors, clicked or
// keyed) and the switch between the EHL index and the navigation mesh.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

// After any edit: the picture, the script's agents (demo.edited re-plans them), the mesh (made
// again when it answers), and a query point that may now be in a wall.
static void edited(Demo* d, int cx, int cy)
{
	d->edits++;
	d->map_dirty = true;
	d->mesh_current = false;
	if (gtNav_Method(d->nav) == GT_NAV_POLYANYA) set_backend(d, true);
	lua_rawgeti(d->L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(d->L, -1, "edited");
	bool hook = lua_isfunction(d->L, -1);
	lua_pop(d->L, 2);
	if (hook && !call_demo(d->L, d->demo_ref, "edited", 0, 0)) d->failed = true;
	int w = gtMap_Width(d->map), h = gtMap_Height(d->map);
	for (int radius = 0; radius < 4 && gtMap_CheckPoint(d->map, (gtVec2){d->qx, d->qy}) != GT_POINT_VALID; radius++)
		for (int j = -radius; j <= radius; j++)
			for (int i = -radius; i <= radius; i++)
				if (cx + i >= 0 && cy + j >= 0 && cx + i < w && cy + j < h &&
				    !gtMap_IsBlocked(d->map, cx + i, cy + j) &&
				    gtMap_CheckPoint(d->map, (gtVec2){d->qx, d->qy}) != GT_POINT_VALID)
					d->qx = cx + i + 0.5, d->qy = cy + j + 0.5;
}

static int door_at(const Demo* d, int x, int y)
{
	for (int i = 0; i < d->door_count; i++)
		if (x >= d->doors[i].x0 && x <= d->doors[i].x1 && y >= d->doors[i].y0 && y <= d->doors[i].y1) return i;
	return -1;
}

static void toggle_door(Demo* d, int i)
{
	Door* door = &d->doors[i];
	gtError err;
	if (gtNav_SetDoor(d->nav, door->id, !door->open, &err)) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return;
	}
	door->open = !door->open;
	edited(d, door->x0, door->y0);
}

// A 3x3 wall built on a free cell, or the wall there demolished; a door there opens or shuts.
static void toggle_at(Demo* d, double x, double y)
{
	int w = gtMap_Width(d->map), h = gtMap_Height(d->map);
	if (!(x >= 0 && y >= 0 && x < w && y < h)) return;
	int cx = (int)x, cy = (int)y;
	int door = door_at(d, cx, cy);
	if (door >= 0) {
		toggle_door(d, door);
		return;
	}
	int x0 = cx > 0 ? cx - 1 : 0, y0 = cy > 0 ? cy - 1 : 0, x1 = cx + 1 < w ? cx + 1 : w - 1,
	    y1 = cy + 1 < h ? cy + 1 : h - 1;
	for (int i = 0; i < d->door_count; i++) // a wall never covers a door: the door is the thing to click
		if (d->doors[i].x0 <= x1 && d->doors[i].x1 >= x0 && d->doors[i].y0 <= y1 && d->doors[i].y1 >= y0) return;
	bool build = !gtMap_IsBlocked(d->map, cx, cy);
	gtError err;
	if (gtNav_SetBlocked(d->nav, x0, y0, x1, y1, build, &err)) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return;
	}
	edited(d, cx, cy);
}

static bool free_run(const gtMap* m, int x, int y, int dx, int dy, int length)
{
	for (int i = 0; i < length; i++)
		if (gtMap_IsBlocked(m, x + i * dx, y + i * dy)) return false;
	return true;
}

static bool is_door_gap(const gtMap* m, int x, int y, int dx, int dy, int* length)
{
	int w = gtMap_Width(m), h = gtMap_Height(m);
	int n = 0;
	while (n < 5 && x + n * dx < w && y + n * dy < h && !gtMap_IsBlocked(m, x + n * dx, y + n * dy)) n++;
	int ex = x + n * dx, ey = y + n * dy;
	if (n < 2 || n > 4 || ex >= w || ey >= h || !gtMap_IsBlocked(m, ex, ey) || !gtMap_IsBlocked(m, x - dx, y - dy))
		return false;
	*length = n;
	return free_run(m, x - dy, y - dx, dx, dy, n) && free_run(m, x + dy, y + dx, dx, dy, n);
}

// Doors where the map narrows: a run of 2 to 4 free cells with walls at both ends and free cells
// on both sides along its whole length (a gap a corridor passes through). Of all such gaps, up to
// MAX_DOORS spread over the map: each the farthest from those already chosen, none nearer than
// 24 cells to another.
void find_doors(Demo* d)
{
	enum { MAX_CANDIDATES = 4096 };
	static Door candidates[MAX_CANDIDATES];
	int count = 0;
	const gtMap* m = d->map;
	int w = gtMap_Width(m), h = gtMap_Height(m);
	for (int y = 1; y + 1 < h && count < MAX_CANDIDATES; y += 2) // every other row and column: plenty
		for (int x = 1; x + 1 < w && count < MAX_CANDIDATES; x += 2)
			for (int across = 0; across < 2 && count < MAX_CANDIDATES; across++) {
				int dx = across ? 0 : 1, dy = across ? 1 : 0, n;
				if (is_door_gap(m, x, y, dx, dy, &n))
					candidates[count++] = (Door){x, y, x + (n - 1) * dx, y + (n - 1) * dy, 0, true};
			}
	double nearest[MAX_CANDIDATES];
	for (int i = 0; i < count; i++) nearest[i] = INFINITY;
	for (int pick = count > 0 ? 0 : -1; pick >= 0 && d->door_count < MAX_DOORS;) {
		Door door = candidates[pick];
		gtError err;
		if (gtNav_AddDoor(d->nav, door.x0, door.y0, door.x1, door.y1, &door.id, &err) == GT_OK)
			d->doors[d->door_count++] = door;
		pick = -1;
		double best = 24 * 24;
		for (int i = 0; i < count; i++) {
			double dx = candidates[i].x0 - door.x0, dy = candidates[i].y0 - door.y0;
			if (dx * dx + dy * dy < nearest[i]) nearest[i] = dx * dx + dy * dy;
			if (nearest[i] >= best) best = nearest[i], pick = i;
		}
	}
}

bool set_backend(Demo* d, bool mesh)
{
	gtError err;
	if (!mesh) {
		if (gtNav_SetMethod(d->nav, gtNav_Index(d->nav) ? GT_NAV_EHL : GT_NAV_AUTO, &err) == GT_OK) return true;
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return false;
	}
	if (!d->mesh_current) { // the shipped mesh while the map is as shipped, else one made from the map now
		gtStatus st = GT_ERR_INVALID_ARG;
		if (d->o.mesh && d->edits == 0) st = gtNav_LoadMesh(d->nav, d->o.mesh, &err);
		if (!st) snprintf(d->mesh_source, sizeof d->mesh_source, "%s (mesh file, loaded)", d->o.mesh);
		if (st) {
			gtMesh* built;
			st = gtMesh_FromMap(d->map, &built, &err);
			if (!st) st = gtNav_SetMesh(d->nav, built, &err);
			if (!st)
				snprintf(d->mesh_source, sizeof d->mesh_source, "built from the map in memory%s",
				         d->edits ? " (after edits)" : "");
		}
		if (st) {
			fprintf(stderr, "gridtree-demo: %s\n", err.message);
			return false;
		}
		d->mesh_current = true;
	}
	if (gtNav_SetMethod(d->nav, GT_NAV_POLYANYA, &err) == GT_OK) return true;
	fprintf(stderr, "gridtree-demo: %s\n", err.message);
	return false;
}

static void zoom_at(Demo* d, int mx, int my, double factor)
{
	double wx = (mx - d->view.offset_x) / d->view.scale, wy = (my - d->view.offset_y) / d->view.scale;
	double scale = d->view.scale * factor;
	if (scale < 0.05 || scale > 200) return; // a whole 16,000-cell map to a 200-pixel cell: enough
	d->view.scale = scale;
	d->view.offset_x = (int)(mx - wx * d->view.scale);
	d->view.offset_y = (int)(my - wy * d->view.scale);
}

static void nearest_door(Demo* d)
{
	int best = -1;
	double best_d = INFINITY;
	for (int i = 0; i < d->door_count; i++) {
		double dx = d->doors[i].x0 - d->qx, dy = d->doors[i].y0 - d->qy;
		if (dx * dx + dy * dy < best_d) best_d = dx * dx + dy * dy, best = i;
	}
	if (best >= 0) toggle_door(d, best);
}

static void key(Demo* d, SDL_Keycode k, bool shift, bool* running, bool* paused, bool* step, int* speed)
{
	if (k == SDLK_ESCAPE) *running = false;
	else if (k == SDLK_SPACE) *paused = !*paused;
	else if (k == SDLK_n) *step = true;
	else if (k == SDLK_s) *speed = *speed == 1 ? 4 : 1;
	else if (k == SDLK_h) d->help = !d->help;
	else if (k == SDLK_r) fit_whole_map(d);
	else if (k == SDLK_p) d->pinned = !d->pinned;
	else if (k == SDLK_c) d->crowd = !d->crowd;
	else if (k == SDLK_a) toggle_separation(d);
	else if (k == SDLK_b) set_backend(d, gtNav_Method(d->nav) != GT_NAV_POLYANYA);
	else if (k == SDLK_o) nearest_door(d);
	else if (k == SDLK_q) d->kind = (d->kind + 1) % 3;
	else if (k == SDLK_f) d->filter = (d->filter + 1) % FILTER_COUNT;
	else if (k == SDLK_EQUALS || k == SDLK_PLUS || k == SDLK_KP_PLUS) d->o.k = d->o.k < MAX_K ? d->o.k + 1 : MAX_K;
	else if (k == SDLK_MINUS || k == SDLK_KP_MINUS) d->o.k = d->o.k > 1 ? d->o.k - 1 : 1;
	else if (k >= SDLK_1 && k < SDLK_1 + LAYERS) d->layers[k - SDLK_1] = !d->layers[k - SDLK_1];
	else if (k == SDLK_t) toggle_at(d, d->qx, d->qy);
	else if (k == SDLK_l) { // rebuild the tree live with another leaf size
		int leaf = shift ? d->o.leaf * 2 : d->o.leaf / 2;
		if (leaf >= 1 && leaf <= 1024) {
			lua_pushinteger(d->L, leaf);
			if (call_demo(d->L, d->demo_ref, "set_leaf", 1, 0)) d->o.leaf = leaf;
			if (!fetch_objects(d)) d->failed = true, *running = false; // the new world, or none
		}
	}
}

void handle_event(Demo* d, const SDL_Event* e, bool* running, bool* paused, bool* step, int* speed, bool* dragging)
{
	if (e->type == SDL_QUIT) *running = false;
	if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
		d->window_w = e->window.data1, d->window_h = e->window.data2;
	}
	// The start query holds until the user acts: a key, a click, the wheel, or moving the mouse
	// over the map (not the motion the system reports when the pointer enters the window).
	if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_ENTER) d->entering = true;
	if (e->type == SDL_KEYDOWN || e->type == SDL_MOUSEBUTTONDOWN || e->type == SDL_MOUSEWHEEL) d->auto_query = false;
	if (e->type == SDL_MOUSEMOTION && d->entering && d->auto_query) {
		d->entering = false;
		return;
	}
	if (e->type == SDL_MOUSEMOTION) d->entering = false;
	if (e->type == SDL_KEYDOWN)
		key(d, e->key.keysym.sym, (e->key.keysym.mod & KMOD_SHIFT) != 0, running, paused, step, speed);
	double mx = 0, my = 0;
	if (e->type == SDL_MOUSEMOTION || e->type == SDL_MOUSEBUTTONDOWN) {
		int sx = e->type == SDL_MOUSEMOTION ? e->motion.x : e->button.x,
		    sy = e->type == SDL_MOUSEMOTION ? e->motion.y : e->button.y;
		mx = (sx - d->view.offset_x) / d->view.scale, my = (sy - d->view.offset_y) / d->view.scale;
		if (sx >= map_view_width(d)) return; // over the panel
	}
	if (e->type == SDL_MOUSEMOTION) {
		if (*dragging) {
			d->view.offset_x += e->motion.xrel;
			d->view.offset_y += e->motion.yrel;
		} else if (!d->pinned) {
			d->auto_query = false; // the mouse is the query now (it stays put over walls)
			if (gtMap_CheckPoint(d->map, (gtVec2){mx, my}) == GT_POINT_VALID) d->qx = mx, d->qy = my;
		}
	}
	if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) toggle_at(d, mx, my);
	if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_MIDDLE) d->pinned = !d->pinned;
	if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_RIGHT) *dragging = true;
	if (e->type == SDL_MOUSEBUTTONUP && e->button.button == SDL_BUTTON_RIGHT) *dragging = false;
	if (e->type == SDL_MOUSEWHEEL) { // zoom around the mouse
		int sx, sy;
		SDL_GetMouseState(&sx, &sy);
		zoom_at(d, sx, sy, e->wheel.y > 0 ? 1.25 : 0.8);
	}
}

// Scripted input (tests, recordings): one character per frame, '.' for none. Letters, digits, '+',
// '-' and ' ' are key presses ('L' is shift+l); 'C' clicks at the query point (toggling a wall or door there),
// 'W'/'w' turn the wheel, 'D' drags with the right button, 'M' moves the mouse, 'Z' resizes the
// window.
void push_scripted_input(const Demo* d, char c)
{
	SDL_Event e;
	memset(&e, 0, sizeof e);
	SDL_FPoint q = to_screen(&d->view, d->qx, d->qy);
	if (c == '.') return; // a frame without input
	if (c == 'C' || c == 'D') {
		e.type = SDL_MOUSEBUTTONDOWN, e.button.button = (Uint8)(c == 'C' ? SDL_BUTTON_LEFT : SDL_BUTTON_RIGHT);
		e.button.x = (int)q.x, e.button.y = (int)q.y;
		SDL_PushEvent(&e);
		if (c == 'D') {
			SDL_Event m;
			memset(&m, 0, sizeof m);
			m.type = SDL_MOUSEMOTION, m.motion.x = 300, m.motion.y = 300, m.motion.xrel = 10, m.motion.yrel = 5;
			SDL_PushEvent(&m);
		}
		e.type = SDL_MOUSEBUTTONUP;
	} else if (c == 'W' || c == 'w') {
		e.type = SDL_MOUSEWHEEL, e.wheel.y = c == 'W' ? 1 : -1;
	} else if (c == 'M') {
		e.type = SDL_MOUSEMOTION, e.motion.x = map_view_width(d) / 2 + 20, e.motion.y = d->window_h / 2 - 20;
	} else if (c == 'Z') {
		SDL_SetWindowSize(SDL_RenderGetWindow(d->renderer), d->window_w * 3 / 4, d->window_h * 3 / 4);
		return;
	} else {
		e.type = SDL_KEYDOWN;
		e.key.keysym.sym = c == '+'   ? SDLK_PLUS
		                   : c == '-' ? SDLK_MINUS
		                   : c == ' ' ? SDLK_SPACE
		                              : (SDL_Keycode)(c | 0x20);
		e.key.keysym.mod = (c >= 'A' && c <= 'Z') ? KMOD_LSHIFT : KMOD_NONE;
	}
	SDL_PushEvent(&e);
}
