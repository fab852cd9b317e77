// The demo's controls: keys, mouse and scripted input; map edits (walls and doors, clicked or
// keyed) and the switch between the EHL index and the navigation mesh.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

// After any edit at cell (cx, cy): the picture, the script's agents (demo.edited re-plans them),
// the mesh (made again when it answers), and a query point that may now be in a wall.
static void edited(Demo* d, int cx, int cy)
{
	d->edits++;
	d->map_dirty = true;
	d->backend.mesh_current = false;
	if (gtNav_Method(d->nav) == GT_NAV_POLYANYA) set_backend(d, true);
	lua_rawgeti(d->L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(d->L, -1, "edited");
	bool hook = lua_isfunction(d->L, -1);
	lua_pop(d->L, 2);
	if (hook && !call_demo(d->L, d->demo_ref, "edited", 0, 0)) d->failed = true;
	free_query_point(d->map, cx, cy, &d->qx, &d->qy);
}

// A click: the door there, else a 3x3 wall (controls.c).
static void click_at(Demo* d, double x, double y)
{
	int cx, cy;
	if (toggle_at(d->nav, d->doors, d->door_count, x, y, &cx, &cy)) edited(d, cx, cy);
}

bool set_backend(Demo* d, bool mesh)
{
	gtError err;
	if (choose_backend(d->nav, &d->backend, mesh, d->edits, &err)) return true;
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

static void key(Demo* d, SDL_Keycode k, bool shift, bool* running, bool* paused, bool* step, int* speed)
{
	int c = k == SDLK_ESCAPE ? 27 : k == SDLK_KP_PLUS ? '+' : k == SDLK_KP_MINUS ? '-' : k < 128 ? (int)k : 0;
	DemoKey action = demo_key(c, shift);
	if (action == KEY_QUIT) *running = false;
	else if (action == KEY_PAUSE) *paused = !*paused;
	else if (action == KEY_STEP) *step = true;
	else if (action == KEY_SPEED) *speed = *speed == 1 ? 4 : 1;
	else if (action == KEY_HELP) d->help = !d->help;
	else if (action == KEY_WHOLE_MAP) fit_whole_map(d);
	else if (action == KEY_PIN) d->pinned = !d->pinned;
	else if (action == KEY_CROWD) d->crowd = !d->crowd;
	else if (action == KEY_APART) toggle_separation(d);
	else if (action == KEY_BACKEND) set_backend(d, gtNav_Method(d->nav) != GT_NAV_POLYANYA);
	else if (action == KEY_KIND) d->kind = (d->kind + 1) % 3;
	else if (action == KEY_FILTER) d->filter = (d->filter + 1) % FILTER_COUNT;
	else if (action == KEY_MORE) d->o.k = d->o.k < MAX_K ? d->o.k + 1 : MAX_K;
	else if (action == KEY_FEWER) d->o.k = d->o.k > 1 ? d->o.k - 1 : 1;
	else if (action >= KEY_LAYER_1 && action < KEY_LAYER_1 + LAYERS)
		d->layers[action - KEY_LAYER_1] = !d->layers[action - KEY_LAYER_1];
	else if (action == KEY_WALL) click_at(d, d->qx, d->qy);
	else if (action == KEY_DOOR) {
		int i = nearest_door(d->doors, d->door_count, d->qx, d->qy);
		if (i >= 0 && toggle_door(d->nav, &d->doors[i])) edited(d, d->doors[i].x0, d->doors[i].y0);
	} else if (action == KEY_LEAF_SMALLER ||
	           action == KEY_LEAF_LARGER) { // rebuild the tree live with another leaf size
		int leaf = action == KEY_LEAF_LARGER ? d->o.leaf * 2 : d->o.leaf / 2;
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
	if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) click_at(d, mx, my);
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
