// gridtree-demo: agents scripted in Lua walk a map; the query under the mouse shows its k nearest
// agents by walking distance, their EHL paths and the search's circle. Headless mode renders
// without a window and writes a PNG (see README).
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <SDL.h>
#include <SDL_image.h>

#include "draw.h"
#include "gridtree/gridtree.h"

int luaopen_gridtree(lua_State* L); // the module, linked in and preloaded

typedef struct Options {
	const char *map, *index, *script, *screenshot, *layers, *keys;
	int agents, leaf, cell, frames, k;
	long seed;
	bool headless;
} Options;

static const Uint32 KIND_COLOURS[] = {0xFFE8C547, 0xFF6FD36F, 0xFF58B4FF, 0xFFE05A4F, 0xFFB26BE0, 0xFFFFFFFF};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char* default_map(void)
{
	static char path[1024];
	const char* data = getenv("GRIDTREE_DATA");
	snprintf(path, sizeof path, "%s/maps/bgmaps/AR0602SR.map", data && *data ? data : "../shared/data");
	struct stat st;
	return stat(path, &st) == 0 ? path : "assets/maps/keep.map";
}

static bool parse(int argc, char** argv, Options* o)
{
	*o = (Options){NULL, NULL, "lua/demo/agents.lua", NULL, "123", "", 2000, 16, 4, 0, 5, 1, false};
	for (int i = 1; i < argc; i++) {
		const char* a = argv[i];
		const char* v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--headless") == 0) { o->headless = true; continue; }
		if (a[0] != '-') { o->map = a; continue; }
		if (!v) { fprintf(stderr, "gridtree-demo: %s needs a value\n", a); return false; }
		i++;
		if (strcmp(a, "--index") == 0) o->index = v;
		else if (strcmp(a, "--script") == 0) o->script = v;
		else if (strcmp(a, "--screenshot") == 0) o->screenshot = v;
		else if (strcmp(a, "--layers") == 0) o->layers = v; // digits of the layers shown at start
		else if (strcmp(a, "--keys") == 0) o->keys = v;     // scripted input, one event per frame
		else if (strcmp(a, "--agents") == 0) o->agents = atoi(v);
		else if (strcmp(a, "--leaf") == 0) o->leaf = atoi(v);
		else if (strcmp(a, "--cell") == 0) o->cell = atoi(v);
		else if (strcmp(a, "--frames") == 0) o->frames = atoi(v);
		else if (strcmp(a, "--seed") == 0) o->seed = atol(v);
		else { fprintf(stderr, "gridtree-demo: unknown option %s\n", a); return false; }
	}
	if (!o->map) o->map = default_map();
	if (o->agents < 1 || o->agents > 1000000 || o->leaf < 1 || o->cell < 1 || o->frames < 0) {
		fprintf(stderr, "gridtree-demo: --agents, --leaf and --cell must be positive, --frames >= 0\n");
		return false;
	}
	if (o->headless && o->frames == 0) o->frames = 60;
	return true;
}

// Loads the map, its cached index (built with a progress bar when missing), the world and the
// script; leaves the script's `demo` table in the registry under `demo_ref`.
static bool start_lua(lua_State* L, const Options* o, int* demo_ref)
{
	luaL_openlibs(L);
	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE); // preload
	lua_pushcfunction(L, luaopen_gridtree);
	lua_setfield(L, -2, "gridtree");
	lua_pop(L, 1);
	if (luaL_dofile(L, o->script) != LUA_OK) {
		fprintf(stderr, "gridtree-demo: %s\n", lua_tostring(L, -1));
		return false;
	}
	*demo_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	static const char* setup =
	    "local demo, map_path, index_path, cell, leaf, agents, seed = ...\n"
	    "local gridtree = require 'gridtree'\n"
	    "local map = assert(gridtree.load_map(map_path))\n"
	    "if not map:load_index(index_path) then\n"
	    "  local shown = -1\n"
	    "  assert(map:build_index{cell = cell, progress = function(f, stage)\n"
	    "    local p = math.floor(f * 20)\n"
	    "    if p ~= shown then shown = p; io.stderr:write(('\\rindex %-16s [%-20s]'):format(stage, ('#'):rep(p))) end\n"
	    "  end})\n"
	    "  io.stderr:write('\\n')\n"
	    "  map:save_index(index_path)\n"
	    "end\n"
	    "local world = gridtree.new_world(map, {leaf = leaf})\n"
	    "demo.init(map, world, {agents = agents, seed = seed})\n";
	if (luaL_loadstring(L, setup) != LUA_OK) return false;
	char index[1200];
	if (o->index) {
		snprintf(index, sizeof index, "%s", o->index);
	} else { // a cache next to the build, named after the map and cell size
		const char* base = strrchr(o->map, '/');
		mkdir("build", 0777);
		snprintf(index, sizeof index, "build/%s-g%d.ehl", base ? base + 1 : o->map, o->cell);
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, *demo_ref);
	lua_pushstring(L, o->map);
	lua_pushstring(L, index);
	lua_pushinteger(L, o->cell);
	lua_pushinteger(L, o->leaf);
	lua_pushinteger(L, o->agents);
	lua_pushinteger(L, o->seed);
	if (lua_pcall(L, 7, 0, 0) != LUA_OK) {
		fprintf(stderr, "gridtree-demo: %s\n", lua_tostring(L, -1));
		return false;
	}
	return true;
}

// Calls demo.<name>(...) with `args` values already pushed; leaves `results` values.
static bool call_demo(lua_State* L, int demo_ref, const char* name, int args, int results)
{
	lua_rawgeti(L, LUA_REGISTRYINDEX, demo_ref);  // args..., demo
	lua_getfield(L, -1, name);                     // args..., demo, fn
	lua_remove(L, -2);                             // args..., fn
	lua_insert(L, -args - 1);                      // fn, args...
	if (lua_pcall(L, args, results, 0) != LUA_OK) {
		fprintf(stderr, "gridtree-demo: demo.%s: %s\n", name, lua_tostring(L, -1));
		lua_pop(L, 1);
		return false;
	}
	return true;
}

enum { LAYER_AGENTS, LAYER_QUERY, LAYER_TREE, LAYER_LEAVES, LAYER_VERTICES, LAYER_CELLS, LAYERS };
static const char* LAYER_NAMES[LAYERS] = {"1 AGENTS", "2 QUERY", "3 TREE NODES", "4 LEAF GRID", "5 VERTICES", "6 EHL CELLS"};
static const char* KINDS[] = {"nearest", "within", "top"};
static const char* FILTERS[] = {"", "healer", "elf", "orc", "enemy", "melee"};
enum { FILTER_COUNT = 6 };

typedef struct Frame {
	double lua_s, move_s, script_query_s, query_s, draw_s;
	int queries;
	lua_Integer distance_calls, nodes;
	double kth; // the k-th distance (or the radius) of the mouse query
} Frame;

typedef struct Demo {
	Options o;
	lua_State* L;
	int demo_ref;
	const gtMap* map;
	View view;
	double qx, qy;
	bool pinned, layers[LAYERS];
	int kind, filter, height; // query kind, keyword filter, tree height for the leaf grid
} Demo;

static void set_colour(SDL_Renderer* r, Uint32 c, Uint8 alpha)
{
	SDL_SetRenderDrawColor(r, (c >> 16) & 255, (c >> 8) & 255, c & 255, alpha);
}

// The agents as coloured squares, one batch per kind.
static void draw_agents(SDL_Renderer* r, Demo* d)
{
	static SDL_FRect rects[6][4096];
	lua_State* L = d->L;
	int counts[6] = {0};
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(L, -1, "xs");
	lua_getfield(L, -2, "ys");
	lua_getfield(L, -3, "kinds");
	lua_Integer n = luaL_len(L, -3);
	float size = d->view.scale < 2 ? 2.0f : (float)d->view.scale;
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, -3, i);
		lua_rawgeti(L, -3, i);
		lua_rawgeti(L, -3, i);
		int kind = (int)lua_tointeger(L, -1) - 1;
		if (kind < 0 || kind > 5) kind = 5;
		SDL_FPoint p = to_screen(&d->view, lua_tonumber(L, -3), lua_tonumber(L, -2));
		lua_pop(L, 3);
		rects[kind][counts[kind]++] = (SDL_FRect){p.x - size / 2, p.y - size / 2, size, size};
		if (counts[kind] == 4096) {
			set_colour(r, KIND_COLOURS[kind], 255);
			SDL_RenderFillRectsF(r, rects[kind], counts[kind]);
			counts[kind] = 0;
		}
	}
	lua_pop(L, 4);
	for (int k = 0; k < 6; k++) {
		set_colour(r, KIND_COLOURS[k], 255);
		SDL_RenderFillRectsF(r, rects[k], counts[k]);
	}
}

// Nodes the last query popped (shaded by level) and pruned (outlined): a flat Lua array of
// {x0, y0, x1, y1, event, level} on top of the stack.
static void draw_trace(SDL_Renderer* r, Demo* d, int height)
{
	lua_State* L = d->L;
	lua_Integer n = luaL_len(L, -1);
	SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
	for (lua_Integer i = 1; i + 5 <= n; i += 6) {
		double v[6];
		for (int k = 0; k < 6; k++) {
			lua_rawgeti(L, -1, i + k);
			v[k] = lua_tonumber(L, -1);
			lua_pop(L, 1);
		}
		SDL_FPoint a = to_screen(&d->view, v[0], v[1]), b = to_screen(&d->view, v[2], v[3]);
		SDL_FRect rect = {a.x, a.y, b.x - a.x, b.y - a.y};
		if (v[4] == GT_TRACE_POPPED) {
			if (v[5] == 0) continue; // the root covers the whole map: shading it says nothing
			SDL_SetRenderDrawColor(r, 90, 170, 255, (Uint8)(20 + 90 * v[5] / (height > 0 ? height : 1)));
			SDL_RenderFillRectF(r, &rect);
		} else if (v[4] == GT_TRACE_PRUNED_KEYWORDS) {
			SDL_SetRenderDrawColor(r, 255, 150, 40, 200);
			SDL_RenderDrawRectF(r, &rect);
		} else {
			SDL_SetRenderDrawColor(r, 140, 140, 170, 160);
			SDL_RenderDrawRectF(r, &rect);
		}
	}
	SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
}

// Runs the query under the mouse; leaves demo.query's 5 results on the Lua stack.
static bool run_query(Demo* d, Frame* f)
{
	lua_State* L = d->L;
	lua_pushnumber(L, d->qx);
	lua_pushnumber(L, d->qy);
	lua_pushinteger(L, d->o.k);
	if (d->filter > 0) lua_pushstring(L, FILTERS[d->filter]);
	else lua_pushnil(L);
	lua_pushstring(L, KINDS[d->kind]);
	lua_pushboolean(L, d->layers[LAYER_TREE]);
	double start = now();
	if (!call_demo(L, d->demo_ref, "query", 6, 5)) return false;
	f->query_s = now() - start;
	return true;
}

// The query's answers (with the 5 results of run_query on the stack, popped here): paths to them
// and the circle of the k-th distance (or the radius within), and the query point.
static void draw_query(SDL_Renderer* r, Demo* d, Frame* f)
{
	lua_State* L = d->L;
	SDL_FPoint q = to_screen(&d->view, d->qx, d->qy);
	if (d->layers[LAYER_QUERY] && lua_istable(L, -3)) { // paths
		lua_Integer n = luaL_len(L, -3);
		SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
		for (lua_Integer i = 1; i <= n; i++) {
			lua_rawgeti(L, -3, i);
			lua_Integer m = luaL_len(L, -1);
			SDL_FPoint pts[512];
			int count = 0;
			for (lua_Integer j = 1; j + 1 <= m && count < 512; j += 2) {
				lua_rawgeti(L, -1, j);
				lua_rawgeti(L, -2, j + 1);
				pts[count++] = to_screen(&d->view, lua_tonumber(L, -2), lua_tonumber(L, -1));
				lua_pop(L, 2);
			}
			SDL_RenderDrawLinesF(r, pts, count);
			lua_pop(L, 1);
		}
		lua_rawgeti(L, -4, n); // dists[n]
		f->kth = d->kind == 1 ? d->o.k * 10.0 : lua_tonumber(L, -1);
		lua_pop(L, 1);
		SDL_SetRenderDrawColor(r, 255, 220, 120, 255);
		if (f->kth > 0 && isfinite(f->kth)) draw_circle(r, q.x, q.y, f->kth * d->view.scale);
	}
	if (lua_istable(L, -2)) {
		lua_getfield(L, -2, "distance_calls");
		lua_getfield(L, -3, "nodes_popped");
		f->distance_calls = lua_tointeger(L, -2);
		f->nodes = lua_tointeger(L, -1);
		lua_pop(L, 2);
	}
	lua_pop(L, 5);
	if (d->layers[LAYER_QUERY]) {
		SDL_SetRenderDrawColor(r, 255, 80, 200, 255);
		SDL_FRect mark = {q.x - 4, q.y - 4, 8, 8};
		SDL_RenderFillRectF(r, &mark);
	}
}

// Grid lines every `step` map units (the leaf grid and the EHL cells).
static void draw_grid(SDL_Renderer* r, const Demo* d, double step_x, double step_y, Uint32 colour)
{
	int w = gtMap_Width(d->map), h = gtMap_Height(d->map);
	set_colour(r, colour, 255);
	for (double x = 0; x <= w + 1e-9; x += step_x) {
		SDL_FPoint a = to_screen(&d->view, x, 0), b = to_screen(&d->view, x, h);
		SDL_RenderDrawLineF(r, a.x, a.y, b.x, b.y);
	}
	for (double y = 0; y <= h + 1e-9; y += step_y) {
		SDL_FPoint a = to_screen(&d->view, 0, y), b = to_screen(&d->view, w, y);
		SDL_RenderDrawLineF(r, a.x, a.y, b.x, b.y);
	}
}

// Convex vertices, and the visibility edges of the one nearest the query point.
static void draw_vertices(SDL_Renderer* r, const Demo* d)
{
	int n;
	const gtVertex* v = gtMap_Vertices(d->map, &n);
	int hovered = -1;
	double best = 9; // within 3 map units
	SDL_SetRenderDrawColor(r, 250, 250, 120, 255);
	for (int i = 0; i < n; i++) {
		SDL_FPoint p = to_screen(&d->view, v[i].x, v[i].y);
		SDL_FRect dot = {p.x - 1, p.y - 1, 3, 3};
		SDL_RenderFillRectF(r, &dot);
		double dx = v[i].x - d->qx, dy = v[i].y - d->qy;
		if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, hovered = i;
	}
	if (hovered < 0) return;
	gtVec2 from = {v[hovered].x, v[hovered].y};
	SDL_FPoint a = to_screen(&d->view, from.x, from.y);
	SDL_SetRenderDrawColor(r, 120, 255, 200, 255);
	for (int i = 0; i < n; i++) {
		gtVec2 to = {v[i].x, v[i].y};
		if (i == hovered || !gtMap_Visible(d->map, from, to)) continue;
		SDL_FPoint b = to_screen(&d->view, to.x, to.y);
		SDL_RenderDrawLineF(r, a.x, a.y, b.x, b.y);
	}
}

static void draw_legend(SDL_Renderer* r, const Demo* d, bool help)
{
	int y = 800 - 16 * (LAYERS + 1);
	for (int i = 0; i < LAYERS; i++, y += 16) {
		SDL_SetRenderDrawColor(r, d->layers[i] ? 240 : 110, d->layers[i] ? 240 : 110, d->layers[i] ? 240 : 110, 255);
		draw_text(r, 8, y, 2, LAYER_NAMES[i]);
	}
	draw_text(r, 8, y, 2, "H HELP");
	if (!help) return;
	static const char* lines[] = {
	    "MOUSE: QUERY POINT    CLICK: PIN    WHEEL: ZOOM    RIGHT DRAG: PAN    R: RESET VIEW",
	    "+/-: K    Q: QUERY KIND    F: KEYWORD FILTER    L/SHIFT+L: LEAF SIZE",
	    "SPACE: PAUSE    N: ONE STEP    S: SPEED 1X/4X    1-6: LAYERS    ESC: QUIT",
	};
	SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
	for (int i = 0; i < 3; i++) draw_text(r, 8, 40 + 14 * i, 2, lines[i]);
}

static int tree_height(const gtMap* map, int leaf)
{
	int h = 0;
	double side = gtMap_Width(map) > gtMap_Height(map) ? gtMap_Width(map) : gtMap_Height(map);
	while ((double)leaf * (double)(1 << h) < side) h++;
	return h;
}

static void fit_view(Demo* d, int size)
{
	int mw = gtMap_Width(d->map), mh = gtMap_Height(d->map);
	d->view.scale = (double)size / (mw > mh ? mw : mh);
	d->view.offset_x = (int)((size - mw * d->view.scale) / 2);
	d->view.offset_y = (int)((size - mh * d->view.scale) / 2);
}

// Distinct colours in an ARGB8888 surface (a cheap "the picture is not trivial" measure).
static int count_colours(SDL_Surface* s)
{
	enum { SLOTS = 4096 };
	Uint32 seen[SLOTS];
	bool used[SLOTS] = {false};
	int distinct = 0;
	for (int y = 0; y < s->h; y++)
		for (int x = 0; x < s->w; x++) {
			Uint32 c = ((Uint32*)((Uint8*)s->pixels + y * s->pitch))[x];
			Uint32 i = (c * 2654435761u) >> 20;
			while (used[i] && seen[i] != c) i = (i + 1) % SLOTS;
			if (!used[i] && distinct < SLOTS / 2) used[i] = true, seen[i] = c, distinct++;
		}
	return distinct;
}

// FNV-1a over the agents' positions: equal for equal seeds (determinism test).
static unsigned long long checksum(lua_State* L, int demo_ref)
{
	unsigned long long h = 1469598103934665603ull;
	lua_rawgeti(L, LUA_REGISTRYINDEX, demo_ref);
	lua_getfield(L, -1, "xs");
	lua_getfield(L, -2, "ys");
	lua_Integer n = luaL_len(L, -2);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, -2, i);
		lua_rawgeti(L, -2, i);
		double xy[2] = {lua_tonumber(L, -2), lua_tonumber(L, -1)};
		lua_pop(L, 2);
		const unsigned char* b = (const unsigned char*)xy;
		for (size_t k = 0; k < sizeof xy; k++) h = (h ^ b[k]) * 1099511628211ull;
	}
	lua_pop(L, 3);
	return h;
}

static void handle_event(Demo* d, const SDL_Event* e, bool* running, bool* paused, bool* step, int* speed, bool* help,
                         bool* dragging)
{
	lua_State* L = d->L;
	if (e->type == SDL_QUIT) *running = false;
	if (e->type == SDL_KEYDOWN) {
		SDL_Keycode k = e->key.keysym.sym;
		bool shift = (e->key.keysym.mod & KMOD_SHIFT) != 0;
		if (k == SDLK_ESCAPE) *running = false;
		else if (k == SDLK_SPACE) *paused = !*paused;
		else if (k == SDLK_n) *step = true;
		else if (k == SDLK_s) *speed = *speed == 1 ? 4 : 1;
		else if (k == SDLK_h) *help = !*help;
		else if (k == SDLK_r) fit_view(d, 800);
		else if (k == SDLK_q) d->kind = (d->kind + 1) % 3;
		else if (k == SDLK_f) d->filter = (d->filter + 1) % FILTER_COUNT;
		else if (k == SDLK_EQUALS || k == SDLK_PLUS || k == SDLK_KP_PLUS) d->o.k = d->o.k < 50 ? d->o.k + 1 : 50;
		else if (k == SDLK_MINUS || k == SDLK_KP_MINUS) d->o.k = d->o.k > 1 ? d->o.k - 1 : 1;
		else if (k >= SDLK_1 && k < SDLK_1 + LAYERS) d->layers[k - SDLK_1] = !d->layers[k - SDLK_1];
		else if (k == SDLK_l) { // rebuild the tree live with another leaf size
			int leaf = shift ? d->o.leaf * 2 : d->o.leaf / 2;
			if (leaf >= 1 && leaf <= 1024) {
				lua_pushinteger(L, leaf);
				if (call_demo(L, d->demo_ref, "set_leaf", 1, 0)) d->o.leaf = leaf, d->height = tree_height(d->map, leaf);
			}
		}
	}
	if (e->type == SDL_MOUSEMOTION) {
		if (*dragging) {
			d->view.offset_x += e->motion.xrel;
			d->view.offset_y += e->motion.yrel;
		} else if (!d->pinned) {
			double mx = (e->motion.x - d->view.offset_x) / d->view.scale, my = (e->motion.y - d->view.offset_y) / d->view.scale;
			if (gtMap_CheckPoint(d->map, (gtVec2){mx, my}) == GT_POINT_VALID) d->qx = mx, d->qy = my;
		}
	}
	if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) d->pinned = !d->pinned;
	if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_RIGHT) *dragging = true;
	if (e->type == SDL_MOUSEBUTTONUP && e->button.button == SDL_BUTTON_RIGHT) *dragging = false;
	if (e->type == SDL_MOUSEWHEEL) { // zoom around the mouse
		int mx, my;
		SDL_GetMouseState(&mx, &my);
		double factor = e->wheel.y > 0 ? 1.25 : 0.8;
		double wx = (mx - d->view.offset_x) / d->view.scale, wy = (my - d->view.offset_y) / d->view.scale;
		d->view.scale *= factor;
		d->view.offset_x = (int)(mx - wx * d->view.scale);
		d->view.offset_y = (int)(my - wy * d->view.scale);
	}
}

// Scripted input (tests, recordings): one character per frame. Letters, digits, '+', '-' and ' '
// are key presses ('L' is shift+l); 'C' clicks, 'W'/'w' turn the wheel, 'D' drags with the right
// button, 'M' moves the mouse.
static void push_scripted_input(char c)
{
	SDL_Event e;
	memset(&e, 0, sizeof e);
	if (c == 'C' || c == 'D') {
		int button = c == 'C' ? SDL_BUTTON_LEFT : SDL_BUTTON_RIGHT;
		e.type = SDL_MOUSEBUTTONDOWN, e.button.button = (Uint8)button;
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
		e.type = SDL_MOUSEMOTION, e.motion.x = 420, e.motion.y = 380;
	} else {
		e.type = SDL_KEYDOWN;
		e.key.keysym.sym = c == '+' ? SDLK_PLUS : c == '-' ? SDLK_MINUS : c == ' ' ? SDLK_SPACE : (SDL_Keycode)(c | 0x20);
		e.key.keysym.mod = (c >= 'A' && c <= 'Z') ? KMOD_LSHIFT : KMOD_NONE;
	}
	SDL_PushEvent(&e);
}

// Pixels of a colour in the picture (the tests check the layers are there).
static long count_colour(SDL_Surface* s, Uint32 colour)
{
	long n = 0;
	for (int y = 0; y < s->h; y++)
		for (int x = 0; x < s->w; x++) n += (((Uint32*)((Uint8*)s->pixels + y * s->pitch))[x] | 0xFF000000u) == colour;
	return n;
}

int main(int argc, char** argv)
{
	Demo d;
	memset(&d, 0, sizeof d);
	if (!parse(argc, argv, &d.o)) return 2;
	if (d.o.headless) {
		SDL_setenv("SDL_VIDEODRIVER", "dummy", 1);
		SDL_setenv("SDL_RENDER_DRIVER", "software", 1);
	}
	gtMap* map;
	gtError err;
	if (gtMap_Load(d.o.map, &map, &err)) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return 1;
	}
	d.map = map;
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "gridtree-demo: SDL: %s (try --headless)\n", SDL_GetError());
		gtMap_Destroy(map);
		return 1;
	}
	const int size = 800;
	SDL_Window* window = SDL_CreateWindow("gridtree demo", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, size, size, 0);
	SDL_Renderer* r = window ? SDL_CreateRenderer(window, -1, d.o.headless ? SDL_RENDERER_SOFTWARE : 0) : NULL;
	d.L = luaL_newstate();
	d.demo_ref = LUA_NOREF;
	int status = 1;
	SDL_Texture* map_texture = NULL;
	if (!r || !d.L) {
		fprintf(stderr, "gridtree-demo: cannot open a window or renderer: %s\n", SDL_GetError());
		goto done;
	}
	if (!start_lua(d.L, &d.o, &d.demo_ref)) goto done;
	map_texture = draw_map_texture(r, map);
	fit_view(&d, size);
	for (int i = 0; i < LAYERS; i++) d.layers[i] = strchr(d.o.layers, '1' + i) != NULL;
	d.height = tree_height(map, d.o.leaf);
	int mw = gtMap_Width(map), mh = gtMap_Height(map);
	d.qx = mw / 2.0, d.qy = mh / 2.0; // the query point: the mouse, or the centre headless
	for (int tries = 0; tries < 1000 && gtMap_CheckPoint(map, (gtVec2){d.qx, d.qy}) != GT_POINT_VALID; tries++)
		d.qx = fmod(d.qx + 7.31, mw), d.qy = fmod(d.qy + 3.17, mh);
	Frame total = {0};
	bool running = true, paused = false, step = false, help = false, dragging = false;
	int speed = 1;
	double start = now();
	int frame = 0, ticks = 0;
	while (running && (d.o.frames == 0 || frame < d.o.frames)) {
		SDL_Event e;
		if (d.o.keys[0]) push_scripted_input(*d.o.keys++);
		while (SDL_PollEvent(&e)) handle_event(&d, &e, &running, &paused, &step, &speed, &help, &dragging);
		Frame f = {0};
		double t0 = now();
		for (int s = 0; s < speed && (!paused || step); s++, ticks++) {
			lua_pushinteger(d.L, ticks);
			if (!call_demo(d.L, d.demo_ref, "update", 1, 1)) goto done;
			f.queries += (int)lua_tointeger(d.L, -1);
			lua_pop(d.L, 1);
			lua_rawgeti(d.L, LUA_REGISTRYINDEX, d.demo_ref);
			lua_getfield(d.L, -1, "move_seconds");
			f.move_s += lua_tonumber(d.L, -1);
			lua_getfield(d.L, -2, "query_seconds");
			f.script_query_s += lua_tonumber(d.L, -1);
			lua_pop(d.L, 3);
		}
		step = false;
		f.lua_s = now() - t0;
		double t1 = now();
		SDL_SetRenderDrawColor(r, 12, 12, 16, 255);
		SDL_RenderClear(r);
		SDL_FRect dst = {(float)d.view.offset_x, (float)d.view.offset_y, (float)(mw * d.view.scale), (float)(mh * d.view.scale)};
		SDL_RenderCopyF(r, map_texture, NULL, &dst);
		if (d.layers[LAYER_CELLS]) draw_grid(r, &d, d.o.cell, d.o.cell, 0xFF2E6B4A);
		if (d.layers[LAYER_LEAVES]) draw_grid(r, &d, mw / (double)(1 << d.height), mh / (double)(1 << d.height), 0xFF5A4A7A);
		if (d.layers[LAYER_VERTICES]) draw_vertices(r, &d);
		bool queried = run_query(&d, &f);
		if (queried && d.layers[LAYER_TREE] && lua_istable(d.L, -1)) draw_trace(r, &d, d.height);
		if (d.layers[LAYER_AGENTS]) draw_agents(r, &d); // agents over the tree shading
		if (queried) draw_query(r, &d, &f);
		char hud[320];
		double elapsed = now() - start;
		snprintf(hud, sizeof hud, "FPS %.0f  UPDATE %.0f US  LUA %.1f MS  QUERY %.0f US  CALLS %lld  NODES %lld", frame > 0 ? frame / elapsed : 0.0,
		         f.move_s * 1e6, f.lua_s * 1e3, f.query_s * 1e6, (long long)f.distance_calls, (long long)f.nodes);
		SDL_SetRenderDrawColor(r, 240, 240, 240, 255);
		draw_text(r, 8, 8, 2, hud);
		snprintf(hud, sizeof hud, "%s K %d  KEYWORDS %s  LEAF %d  AGENTS %d%s%s", KINDS[d.kind], d.o.k,
		         d.filter ? FILTERS[d.filter] : "ANY", d.o.leaf, d.o.agents, paused ? "  PAUSED" : "", speed > 1 ? "  4X" : "");
		draw_text(r, 8, 22, 2, hud);
		draw_legend(r, &d, help);
		f.draw_s = now() - t1 - f.query_s;
		frame++;
		total.lua_s += f.lua_s, total.move_s += f.move_s, total.query_s += f.query_s, total.draw_s += f.draw_s;
		total.script_query_s += f.script_query_s;
		total.queries += f.queries;
		if (d.o.frames > 0 && frame == d.o.frames && d.o.screenshot) { // read back before presenting
			SDL_Surface* shot = SDL_CreateRGBSurfaceWithFormat(0, size, size, 32, SDL_PIXELFORMAT_ARGB8888);
			if (!shot || SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, shot->pixels, shot->pitch) != 0 ||
			    IMG_SavePNG(shot, d.o.screenshot) != 0) {
				fprintf(stderr, "gridtree-demo: cannot write %s: %s\n", d.o.screenshot, SDL_GetError());
				SDL_FreeSurface(shot);
				goto done;
			}
			long agents = 0;
			for (int k = 0; k < 5; k++) agents += count_colour(shot, KIND_COLOURS[k]);
			printf("screenshot %s\ncolours %d\nagent_pixels %ld\nquery_marker_pixels %ld\n", d.o.screenshot,
			       count_colours(shot), agents, count_colour(shot, 0xFFFF50C8u));
			SDL_FreeSurface(shot);
		}
		SDL_RenderPresent(r);
	}
	double elapsed = now() - start, frames = frame ? frame : 1;
	// The split of a frame: script total (of which the bulk index update and the script's queries),
	// the query under the mouse, drawing.
	printf("frames %d\nfps %.1f\nlua_ms_per_frame %.3f\nupdate_ms_per_frame %.3f\nscript_queries_per_frame %.1f\n"
	       "script_queries_ms_per_frame %.3f\nmouse_query_us %.1f\ndraw_ms_per_frame %.3f\nchecksum %016llx\n",
	       frame, frame / elapsed, total.lua_s * 1e3 / frames, total.move_s * 1e3 / frames, total.queries / frames,
	       total.script_query_s * 1e3 / frames, total.query_s * 1e6 / frames, total.draw_s * 1e3 / frames,
	       checksum(d.L, d.demo_ref));
	status = 0;
done:
	if (map_texture) SDL_DestroyTexture(map_texture);
	if (d.L) lua_close(d.L);
	if (r) SDL_DestroyRenderer(r);
	if (window) SDL_DestroyWindow(window);
	SDL_Quit();
	gtMap_Destroy(map);
	return status;
}
