// What the demo draws over the map: doors, agents as outlined discs sized to the zoom, each
// agent's chosen target (crowd mode), and the mouse query with its answers, their walking paths
// and distances. Also the view: what part of the map the window shows.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"

#define BIG 1.5f // a big unit's radius against a small one's
enum { MAX_ANSWER_LABELS = 16 };

int map_view_width(const Demo* d)
{
	int w = d->window_w - PANEL_WIDTH;
	return w > 64 ? w : 64;
}

void fit_view(Demo* d, double x0, double y0, double x1, double y1)
{
	int vw = map_view_width(d), vh = d->window_h;
	double sx = vw / (x1 - x0), sy = vh / (y1 - y0);
	d->view.scale = sx < sy ? sx : sy;
	d->view.offset_x = (int)(vw / 2.0 - (x0 + x1) / 2 * d->view.scale);
	d->view.offset_y = (int)(vh / 2.0 - (y0 + y1) / 2 * d->view.scale);
}

void fit_whole_map(Demo* d)
{
	fit_view(d, 0, 0, gtMap_Width(d->map), gtMap_Height(d->map));
}

// The query point and its answers' paths, with a margin, at least 48 cells across (so the walls
// around them are seen), within the map.
void frame_query(Demo* d)
{
	double x0 = d->qx, y0 = d->qy, x1 = d->qx, y1 = d->qy;
	for (int i = 0; i < d->path_used + d->ghost_count; i++) { // the paths, and the ghosts
		gtVec2 p = i < d->path_used ? d->path_points[i] : d->ghost_at[i - d->path_used];
		x0 = fmin(x0, p.x), y0 = fmin(y0, p.y), x1 = fmax(x1, p.x), y1 = fmax(y1, p.y);
	}
	double span = fmax(fmax(x1 - x0, y1 - y0) * 1.3, 72), cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
	double aspect = (double)map_view_width(d) / d->window_h; // fill the view's shape
	double sw = aspect >= 1 ? span * aspect : span, sh = aspect >= 1 ? span : span / aspect;
	fit_view(d, cx - sw / 2, cy - sh / 2, cx + sw / 2, cy + sh / 2);
	d->framed = true;
}

static void fill_rect_map(Demo* d, double x0, double y0, double x1, double y1, Uint32 argb)
{
	SDL_FPoint a = to_screen(&d->view, x0, y0), b = to_screen(&d->view, x1, y1);
	SDL_FRect r = {a.x, a.y, b.x - a.x, b.y - a.y};
	SDL_SetRenderDrawBlendMode(d->renderer, SDL_BLENDMODE_NONE);
	SDL_SetRenderDrawColor(d->renderer, (argb >> 16) & 255, (argb >> 8) & 255, argb & 255, 255);
	SDL_RenderFillRectF(d->renderer, &r);
}

// Closed doors as solid planks, open ones as their frame.
void draw_doors(Demo* d)
{
	for (int i = 0; i < d->door_count; i++) {
		const Door* door = &d->doors[i];
		if (!door->open) {
			fill_rect_map(d, door->x0, door->y0, door->x1 + 1, door->y1 + 1, 0xFFC47A2Cu);
			continue;
		}
		SDL_FPoint a = to_screen(&d->view, door->x0, door->y0), b = to_screen(&d->view, door->x1 + 1, door->y1 + 1);
		SDL_FRect r = {a.x, a.y, b.x - a.x, b.y - a.y};
		SDL_SetRenderDrawColor(d->renderer, 0xC4, 0x7A, 0x2C, 255);
		SDL_RenderDrawRectF(d->renderer, &r);
	}
}

void free_sprites(Demo* d)
{
	for (int k = 0; k <= KIND_COUNT; k++)
		for (int big = 0; big < 2; big++) {
			if (d->sprites[k][big]) SDL_DestroyTexture(d->sprites[k][big]);
			d->sprites[k][big] = NULL;
		}
}

// A disc of the kind's colour with a dark outline (a light one for big units), its fill exactly
// the kind's colour (the tests count those pixels).
static SDL_Texture* make_disc(SDL_Renderer* r, Uint32 fill, float radius, bool big)
{
	int side = (int)ceilf(2 * radius) + 2;
	SDL_Surface* s = SDL_CreateRGBSurfaceWithFormat(0, side, side, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!s) return NULL;
	float c = side / 2.0f, outline = big ? 2.0f : 1.3f;
	Uint32 edge = big ? 0xFFF4F1E8u : 0xFF101116u;
	for (int y = 0; y < side; y++) {
		Uint32* row = (Uint32*)((Uint8*)s->pixels + y * s->pitch);
		for (int x = 0; x < side; x++) {
			float dx = x + 0.5f - c, dy = y + 0.5f - c, dist = sqrtf(dx * dx + dy * dy);
			row[x] = dist <= radius - outline ? fill : dist <= radius ? edge : 0;
		}
	}
	SDL_Texture* t = SDL_CreateTextureFromSurface(r, s);
	SDL_FreeSurface(s);
	if (t) SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
	return t;
}

// The agents' radius on screen: about half a cell, never under 3 pixels nor over 10.
static float agent_radius(const Demo* d)
{
	float r = (float)(d->view.scale * 0.55);
	return r < 3.2f ? 3.2f : r > 10 ? 10 : r;
}

static bool ensure_sprites(Demo* d)
{
	float radius = agent_radius(d);
	if (d->sprites[0][0] && radius == d->sprite_radius) return true;
	free_sprites(d);
	d->sprite_radius = radius;
	for (int k = 0; k <= KIND_COUNT; k++)
		for (int big = 0; big < 2; big++) {
			d->sprites[k][big] = make_disc(d->renderer, KIND_COLOURS[k], big ? radius * BIG : radius, big);
			if (!d->sprites[k][big]) return false;
		}
	return true;
}

// Which kinds are big units (demo.kind_big[k]), read once a frame.
static void read_big_kinds(lua_State* L, bool big[KIND_COUNT + 1])
{
	lua_getfield(L, -1, "kind_big");
	for (int k = 0; k <= KIND_COUNT; k++) {
		big[k] = false;
		if (k < KIND_COUNT && lua_istable(L, -1)) {
			lua_rawgeti(L, -1, k + 1);
			big[k] = lua_toboolean(L, -1);
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
}

static int kind_of(lua_State* L, int table, lua_Integer i)
{
	lua_rawgeti(L, table, i);
	int kind = (int)lua_tointeger(L, -1) - 1;
	lua_pop(L, 1);
	return kind < 0 || kind >= KIND_COUNT ? KIND_COUNT : kind;
}

// An agent's disc centred on screen point p.
static void draw_disc(Demo* d, SDL_FPoint p, int kind, bool big)
{
	float r = big ? d->sprite_radius * BIG : d->sprite_radius;
	int side = (int)ceilf(2 * r) + 2;
	SDL_FRect dst = {p.x - side / 2.0f, p.y - side / 2.0f, (float)side, (float)side};
	SDL_RenderCopyF(d->renderer, d->sprites[kind][big], NULL, &dst);
}

// The answers' discs drawn again over everything else, so a ringed answer is never hidden under
// another agent (the script maps world ids to agents: demo.index_of).
static void draw_answers(Demo* d)
{
	lua_State* L = d->L;
	bool big[KIND_COUNT + 1];
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->demo_ref);
	read_big_kinds(L, big);
	lua_getfield(L, -1, "index_of");
	lua_getfield(L, -2, "kinds");
	if (lua_istable(L, -1) && lua_istable(L, -2))
		for (int i = 0; i < d->found_count; i++) {
			if (d->path_count[i] == 0) continue;
			lua_rawgeti(L, -2, (lua_Integer)d->found[i]);
			lua_Integer agent = lua_tointeger(L, -1);
			lua_pop(L, 1);
			int kind = agent > 0 ? kind_of(L, -1, agent) : KIND_COUNT;
			gtVec2 t = d->path_points[d->path_start[i] + d->path_count[i] - 1];
			draw_disc(d, to_screen(&d->view, t.x, t.y), kind, big[kind]);
		}
	lua_pop(L, 3);
}

void draw_agents(Demo* d)
{
	lua_State* L = d->L;
	if (!ensure_sprites(d)) return;
	bool big[KIND_COUNT + 1];
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->demo_ref);
	read_big_kinds(L, big);
	lua_getfield(L, -1, "xs");
	lua_getfield(L, -2, "ys");
	lua_getfield(L, -3, "kinds");
	lua_Integer n = lua_istable(L, -1) ? agent_count(L, -3, -2) : 0;
	for (lua_Integer i = 1; i <= n; i++) {
		int kind = kind_of(L, -1, i);
		lua_rawgeti(L, -3, i);
		lua_rawgeti(L, -3, i);
		SDL_FPoint p = to_screen(&d->view, lua_tonumber(L, -2), lua_tonumber(L, -1));
		lua_pop(L, 2);
		draw_disc(d, p, kind, big[kind]);
	}
	lua_pop(L, 4);
}

// Crowd mode: a faint line from every agent to the agent it chose (demo.target[i], an agent
// index, 0 for none), in the chooser's colour.
void draw_targets(Demo* d)
{
	lua_State* L = d->L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(L, -1, "xs");
	lua_getfield(L, -2, "ys");
	lua_getfield(L, -3, "kinds");
	lua_getfield(L, -4, "target");
	lua_Integer n = lua_istable(L, -1) && lua_istable(L, -2) ? agent_count(L, -4, -3) : 0;
	SDL_SetRenderDrawBlendMode(d->renderer, SDL_BLENDMODE_BLEND);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, -1, i);
		lua_Integer t = lua_tointeger(L, -1);
		lua_pop(L, 1);
		if (t < 1 || t > n || t == i) continue;
		int kind = kind_of(L, -2, i);
		lua_rawgeti(L, -4, i);
		lua_rawgeti(L, -4, i);
		lua_rawgeti(L, -6, t);
		lua_rawgeti(L, -6, t);
		SDL_FPoint a = to_screen(&d->view, lua_tonumber(L, -4), lua_tonumber(L, -3));
		SDL_FPoint b = to_screen(&d->view, lua_tonumber(L, -2), lua_tonumber(L, -1));
		lua_pop(L, 4);
		Uint32 c = KIND_COLOURS[kind];
		SDL_SetRenderDrawColor(d->renderer, (c >> 16) & 255, (c >> 8) & 255, c & 255, 90);
		SDL_RenderDrawLineF(d->renderer, a.x, a.y, b.x, b.y);
	}
	lua_pop(L, 5);
}

// A segment `width` pixels wide, as two triangles.
static void thick_segment(SDL_Renderer* r, SDL_FPoint a, SDL_FPoint b, float width, SDL_Color c)
{
	float dx = b.x - a.x, dy = b.y - a.y, len = sqrtf(dx * dx + dy * dy);
	if (len < 1e-3f) return;
	float nx = -dy / len * width / 2, ny = dx / len * width / 2;
	SDL_Vertex v[4] = {{{a.x + nx, a.y + ny}, c, {0, 0}},
	                   {{a.x - nx, a.y - ny}, c, {0, 0}},
	                   {{b.x - nx, b.y - ny}, c, {0, 0}},
	                   {{b.x + nx, b.y + ny}, c, {0, 0}}};
	static const int idx[6] = {0, 1, 2, 0, 2, 3};
	SDL_RenderGeometry(r, NULL, v, 4, idx, 6);
}

static void thick_path(Demo* d, const gtVec2* p, int count, float width, SDL_Color c)
{
	for (int i = 0; i + 1 < count; i++) {
		SDL_FPoint a = to_screen(&d->view, p[i].x, p[i].y), b = to_screen(&d->view, p[i + 1].x, p[i + 1].y);
		thick_segment(d->renderer, a, b, width, c);
		SDL_FRect joint = {b.x - width / 2, b.y - width / 2, width, width}; // no gap at the bends
		SDL_SetRenderDrawColor(d->renderer, c.r, c.g, c.b, c.a);
		SDL_RenderFillRectF(d->renderer, &joint);
	}
}

static void ring(Demo* d, SDL_FPoint c, float radius, float width, SDL_Color colour)
{
	enum { SIDES = 24 };
	for (int i = 0; i < SIDES; i++) {
		double a0 = i * 2 * 3.14159265358979 / SIDES, a1 = (i + 1) * 2 * 3.14159265358979 / SIDES;
		SDL_FPoint p = {c.x + (float)cos(a0) * radius, c.y + (float)sin(a0) * radius};
		SDL_FPoint q = {c.x + (float)cos(a1) * radius, c.y + (float)sin(a1) * radius};
		thick_segment(d->renderer, p, q, width, colour);
	}
}

// A dashed line: dashes of `dash` pixels with gaps as long.
static void dashed_segment(SDL_Renderer* r, SDL_FPoint a, SDL_FPoint b, float width, float dash, SDL_Color c)
{
	float dx = b.x - a.x, dy = b.y - a.y, len = sqrtf(dx * dx + dy * dy);
	for (float t = 0; t < len; t += 2 * dash) {
		float u = fminf(t + dash, len);
		thick_segment(r, (SDL_FPoint){a.x + dx * t / len, a.y + dy * t / len},
		              (SDL_FPoint){a.x + dx * u / len, a.y + dy * u / len}, width, c);
	}
}

// Links (docs/links.md) from end to end with a ring at each end: stairs and ladders solid amber,
// teleporters (cost 0) dashed violet, disabled ones grey, one-way ones with an arrowhead at their
// far end; over each floor of a map of floors, its number.
void draw_links(Demo* d)
{
	enum { SHOWN = 256 };
	gtLinkId ids[SHOWN];
	int n = gtNav_Links(d->nav, ids, SHOWN);
	SDL_SetRenderDrawBlendMode(d->renderer, SDL_BLENDMODE_BLEND);
	for (int i = 0; i < n && i < SHOWN; i++) {
		gtLinkInfo l;
		if (gtNav_GetLink(d->nav, ids[i], &l, NULL)) continue;
		SDL_FPoint a = to_screen(&d->view, l.a.x, l.a.y), b = to_screen(&d->view, l.b.x, l.b.y);
		SDL_Color c = !l.enabled    ? (SDL_Color){140, 140, 150, 200}
		              : l.cost == 0 ? (SDL_Color){200, 100, 255, 230}
		                            : (SDL_Color){255, 200, 60, 230};
		if (l.cost == 0) dashed_segment(d->renderer, a, b, 2.5f, 7, c);
		else thick_segment(d->renderer, a, b, 2.5f, c);
		ring(d, a, 5, 2, c);
		ring(d, b, 5, 2, c);
		float dx = b.x - a.x, dy = b.y - a.y, len = sqrtf(dx * dx + dy * dy);
		if ((l.flags & GT_LINK_ONE_WAY) && len > 12) { // two barbs 10 pixels back from b's ring
			float ux = dx / len, uy = dy / len;
			SDL_FPoint tip = {b.x - ux * 5, b.y - uy * 5};
			thick_segment(d->renderer, tip, (SDL_FPoint){tip.x - ux * 10 - uy * 6, tip.y - uy * 10 + ux * 6}, 2.5f, c);
			thick_segment(d->renderer, tip, (SDL_FPoint){tip.x - ux * 10 + uy * 6, tip.y - uy * 10 - ux * 6}, 2.5f, c);
		}
	}
	for (int f = 0; gtNav_FloorCount(d->nav) > 1 && f < gtNav_FloorCount(d->nav); f++) {
		gtVec2 corner = gtNav_FloorPoint(d->nav, f, (gtVec2){0, 0});
		SDL_FPoint at = to_screen(&d->view, corner.x, corner.y);
		char text[32];
		snprintf(text, sizeof text, "FLOOR %d", f);
		SDL_SetRenderDrawColor(d->renderer, 255, 255, 255, 255);
		draw_text(d->renderer, (int)at.x + 4, (int)at.y + 4, 3, text);
	}
}

// The straight-line nearest that walking distance passed over: a faded disc in a dashed ring, a
// dashed straight line from the query point, and (label_ghosts) its two distances.
static void draw_ghosts(Demo* d, Labels* labels, float rr)
{
	SDL_Renderer* r = d->renderer;
	SDL_FPoint q = to_screen(&d->view, d->qx, d->qy);
	const SDL_Color line = {235, 235, 245, 190}, faded = {150, 156, 172, 255};
	SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
	for (int g = 0; g < d->ghost_count; g++) {
		SDL_FPoint s = to_screen(&d->view, d->ghost_at[g].x, d->ghost_at[g].y);
		float dx = s.x - q.x, dy = s.y - q.y, len = sqrtf(dx * dx + dy * dy);
		if (len > 24)
			dashed_segment(r, (SDL_FPoint){q.x + dx / len * 12, q.y + dy / len * 12}, s, 2, 5,
			               line); // from outside the marker
		// The disc greyed out: a dim veil over the agent drawn there, then a dashed ring.
		enum { SIDES = 16 };
		SDL_Vertex fan[SIDES + 1];
		int triangles[3 * SIDES];
		fan[SIDES] = (SDL_Vertex){s, {40, 42, 50, 175}, {0, 0}};
		for (int i = 0; i < SIDES; i++) {
			double a = i * 2 * 3.14159265358979 / SIDES;
			fan[i] = (SDL_Vertex){
			    {s.x + (float)cos(a) * (rr - 2), s.y + (float)sin(a) * (rr - 2)}, {40, 42, 50, 175}, {0, 0}};
			triangles[3 * i] = SIDES, triangles[3 * i + 1] = i, triangles[3 * i + 2] = (i + 1) % SIDES;
		}
		SDL_RenderGeometry(r, NULL, fan, SIDES + 1, triangles, 3 * SIDES);
		for (int i = 0; i < SIDES; i += 2) {
			double a0 = i * 2 * 3.14159265358979 / SIDES, a1 = (i + 1) * 2 * 3.14159265358979 / SIDES;
			thick_segment(r, (SDL_FPoint){s.x + (float)cos(a0) * rr, s.y + (float)sin(a0) * rr},
			              (SDL_FPoint){s.x + (float)cos(a1) * rr, s.y + (float)sin(a1) * rr}, 2.5f, faded);
		}
		labels_keep_clear(labels, s, rr + 1);
	}
}

static void label_ghosts(Demo* d, Labels* labels, float rr)
{
	SDL_Renderer* r = d->renderer;
	for (int g = 0; g < d->ghost_count; g++) {
		// The first in words where there is room for them, the others (and the first where there
		// is not) in short.
		char text[128], short_text[64], walk[32];
		if (isfinite(d->ghost_walk[g])) snprintf(walk, sizeof walk, "%.1f", d->ghost_walk[g]);
		else snprintf(walk, sizeof walk, "NO PATH");
		snprintf(text, sizeof text, "NEARER IN A STRAIGHT LINE: %.1f\nFARTHER ON FOOT: %s", d->ghost_straight[g], walk);
		snprintf(short_text, sizeof short_text, "LINE %.1f\nFOOT %s", d->ghost_straight[g], walk);
		SDL_FPoint s = to_screen(&d->view, d->ghost_at[g].x, d->ghost_at[g].y);
		SDL_Rect box;
		bool far;
		const char* shown = text;
		if (g > 0 || !labels_try(labels, s, rr, text, &box, &far))
			shown = short_text, labels_place(labels, s, rr, short_text, &box, &far);
		draw_label(r, box, shown, (SDL_Color){215, 218, 230, 255}, s, far);
	}
}

// The query's answers: the search circle, each walking path thick and bright on a dark shadow, a
// ring round each answer with its distance, and the query point itself.
void draw_query(Demo* d, const Frame* f)
{
	if (!d->layers[LAYER_QUERY]) return;
	gtVec2 q = {d->qx, d->qy};
	if (f->kth > 0 && isfinite(f->kth)) d->draw.circle(d->draw.context, q, f->kth, false, 0xFFDC78FFu);
	const SDL_Color shadow = {0, 0, 0, 170}, bright = {255, 226, 64, 255};
	SDL_SetRenderDrawBlendMode(d->renderer, SDL_BLENDMODE_BLEND);
	for (int i = 0; i < d->found_count; i++)
		thick_path(d, d->path_points + d->path_start[i], d->path_count[i], 7, shadow);
	for (int i = 0; i < d->found_count; i++)
		thick_path(d, d->path_points + d->path_start[i], d->path_count[i], 3.5f, bright);
	float rr = d->sprite_radius * BIG + 4;
	// Labels go where they cover no other label, no answer's ring and not the query point.
	Labels labels;
	labels_begin(&labels, (SDL_Rect){0, 0, map_view_width(d), d->window_h});
	SDL_FPoint s = to_screen(&d->view, q.x, q.y);
	labels_keep_clear(&labels, s, 12);
	for (int i = 0; i < d->found_count; i++) {
		if (d->path_count[i] == 0) continue;
		gtVec2 t = d->path_points[d->path_start[i] + d->path_count[i] - 1];
		SDL_FPoint a = to_screen(&d->view, t.x, t.y);
		ring(d, a, rr, 3, bright);
		labels_keep_clear(&labels, a, rr + 1);
	}
	if (d->layers[LAYER_AGENTS] && d->sprites[0][0]) draw_answers(d);
	draw_ghosts(d, &labels, rr);
	ring(d, s, 9, 3, (SDL_Color){255, 255, 255, 255});
	d->draw.point(d->draw.context, q, 10, QUERY_MARKER);
	// What is asked, in words: "QUERY: 5 NEAREST HEALER".
	char what[64];
	const char* word = d->filter ? FILTERS[d->filter] : "AGENTS";
	if (d->kind == 1) snprintf(what, sizeof what, "QUERY: %s WITHIN %d", word, d->o.k * 10);
	else snprintf(what, sizeof what, "QUERY: %s %d %s", d->kind == 2 ? "TOP" : "NEAREST", d->o.k, word);
	SDL_Rect box;
	bool far;
	labels_place(&labels, s, 12, what, &box, &far);
	draw_label(d->renderer, box, what, (SDL_Color){0x50, 0xC8, 0xFF, 255}, s, far);
	for (int i = 0; i < d->found_count && i < MAX_ANSWER_LABELS; i++) { // a "within" may find hundreds
		if (d->path_count[i] == 0) continue;
		gtVec2 t = d->path_points[d->path_start[i] + d->path_count[i] - 1];
		SDL_FPoint a = to_screen(&d->view, t.x, t.y);
		char text[32];
		snprintf(text, sizeof text, "%d: %.1f", i + 1, d->found_d[i]);
		labels_place(&labels, a, rr, text, &box, &far);
		draw_label(d->renderer, box, text, bright, a, far);
	}
	label_ghosts(d, &labels, rr);
	d->labels = labels.placed, d->crowded_labels = labels.crowded;
}
