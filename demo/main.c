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
	const char *map, *index, *script, *screenshot;
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
	*o = (Options){NULL, NULL, "lua/demo/agents.lua", NULL, 2000, 16, 4, 0, 5, 1, false};
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

typedef struct Frame {
	double lua_s, query_s, draw_s;
	int queries;
	lua_Integer distance_calls, nodes;
	double kth; // the k-th distance of the mouse query
} Frame;

// The agents as coloured squares, one batch per kind.
static void draw_agents(SDL_Renderer* r, lua_State* L, int demo_ref, const View* v)
{
	static SDL_FRect rects[6][4096];
	int counts[6] = {0};
	lua_rawgeti(L, LUA_REGISTRYINDEX, demo_ref);
	lua_getfield(L, -1, "xs");
	lua_getfield(L, -2, "ys");
	lua_getfield(L, -3, "kinds");
	lua_Integer n = luaL_len(L, -3);
	float size = v->scale < 2 ? 2.0f : (float)v->scale;
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, -3, i);
		lua_rawgeti(L, -3, i);
		lua_rawgeti(L, -3, i);
		int kind = (int)lua_tointeger(L, -1) - 1;
		if (kind < 0 || kind > 5) kind = 5;
		SDL_FPoint p = to_screen(v, lua_tonumber(L, -3), lua_tonumber(L, -2));
		lua_pop(L, 3);
		rects[kind][counts[kind]++] = (SDL_FRect){p.x - size / 2, p.y - size / 2, size, size};
		if (counts[kind] == 4096) {
			Uint32 c = KIND_COLOURS[kind];
			SDL_SetRenderDrawColor(r, (c >> 16) & 255, (c >> 8) & 255, c & 255, 255);
			SDL_RenderFillRectsF(r, rects[kind], counts[kind]);
			counts[kind] = 0;
		}
	}
	lua_pop(L, 4);
	for (int k = 0; k < 6; k++) {
		Uint32 c = KIND_COLOURS[k];
		SDL_SetRenderDrawColor(r, (c >> 16) & 255, (c >> 8) & 255, c & 255, 255);
		SDL_RenderFillRectsF(r, rects[k], counts[k]);
	}
}

// The query under the mouse: paths to the k nearest agents and the circle of the k-th distance.
static void draw_query(SDL_Renderer* r, lua_State* L, int demo_ref, const View* v, double qx, double qy, int k,
                       Frame* f)
{
	lua_pushnumber(L, qx);
	lua_pushnumber(L, qy);
	lua_pushinteger(L, k);
	double start = now();
	if (!call_demo(L, demo_ref, "query", 3, 4)) return;
	f->query_s += now() - start;
	SDL_FPoint q = to_screen(v, qx, qy);
	if (lua_istable(L, -2)) { // paths
		lua_Integer n = luaL_len(L, -2);
		SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
		for (lua_Integer i = 1; i <= n; i++) {
			lua_rawgeti(L, -2, i);
			lua_Integer m = luaL_len(L, -1);
			SDL_FPoint pts[512];
			int count = 0;
			for (lua_Integer j = 1; j + 1 <= m && count < 512; j += 2) {
				lua_rawgeti(L, -1, j);
				lua_rawgeti(L, -2, j + 1);
				pts[count++] = to_screen(v, lua_tonumber(L, -2), lua_tonumber(L, -1));
				lua_pop(L, 2);
			}
			SDL_RenderDrawLinesF(r, pts, count);
			lua_pop(L, 1);
		}
		lua_rawgeti(L, -3, n); // dists[n]: the k-th distance
		f->kth = lua_tonumber(L, -1);
		lua_pop(L, 1);
		SDL_SetRenderDrawColor(r, 255, 220, 120, 255);
		if (f->kth > 0 && isfinite(f->kth)) draw_circle(r, q.x, q.y, f->kth * v->scale);
	}
	if (lua_istable(L, -1)) {
		lua_getfield(L, -1, "distance_calls");
		lua_getfield(L, -2, "nodes_popped");
		f->distance_calls = lua_tointeger(L, -2);
		f->nodes = lua_tointeger(L, -1);
		lua_pop(L, 2);
	}
	lua_pop(L, 4);
	SDL_SetRenderDrawColor(r, 255, 80, 200, 255);
	SDL_FRect mark = {q.x - 4, q.y - 4, 8, 8};
	SDL_RenderFillRectF(r, &mark);
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

int main(int argc, char** argv)
{
	Options o;
	if (!parse(argc, argv, &o)) return 2;
	if (o.headless) {
		SDL_setenv("SDL_VIDEODRIVER", "dummy", 1);
		SDL_setenv("SDL_RENDER_DRIVER", "software", 1);
	}
	gtMap* map;
	gtError err;
	if (gtMap_Load(o.map, &map, &err)) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return 1;
	}
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "gridtree-demo: SDL: %s (try --headless)\n", SDL_GetError());
		gtMap_Destroy(map);
		return 1;
	}
	const int size = 800;
	SDL_Window* window = SDL_CreateWindow("gridtree demo", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, size, size, 0);
	SDL_Renderer* r = window ? SDL_CreateRenderer(window, -1, o.headless ? SDL_RENDERER_SOFTWARE : 0) : NULL;
	lua_State* L = luaL_newstate();
	int demo_ref = LUA_NOREF, status = 1;
	if (!r || !L) {
		fprintf(stderr, "gridtree-demo: cannot open a window or renderer: %s\n", SDL_GetError());
		goto done;
	}
	if (!start_lua(L, &o, &demo_ref)) goto done;
	SDL_Texture* map_texture = draw_map_texture(r, map);
	View view;
	int mw = gtMap_Width(map), mh = gtMap_Height(map);
	view.scale = (double)size / (mw > mh ? mw : mh);
	view.offset_x = (int)((size - mw * view.scale) / 2);
	view.offset_y = (int)((size - mh * view.scale) / 2);
	double qx = mw / 2.0, qy = mh / 2.0; // the query point: the mouse, or the centre headless
	for (int tries = 0; tries < 1000 && gtMap_CheckPoint(map, (gtVec2){qx, qy}) != GT_POINT_VALID; tries++)
		qx = fmod(qx + 7.31, mw), qy = fmod(qy + 3.17, mh);
	Frame total = {0};
	bool running = true, paused = false, help = false;
	double start = now();
	int frame = 0;
	while (running && (o.frames == 0 || frame < o.frames)) {
		SDL_Event e;
		while (SDL_PollEvent(&e)) {
			if (e.type == SDL_QUIT) running = false;
			if (e.type == SDL_KEYDOWN) {
				SDL_Keycode k = e.key.keysym.sym;
				if (k == SDLK_ESCAPE) running = false;
				else if (k == SDLK_SPACE) paused = !paused;
				else if (k == SDLK_h) help = !help;
				else if (k == SDLK_EQUALS || k == SDLK_PLUS) o.k = o.k < 50 ? o.k + 1 : o.k;
				else if (k == SDLK_MINUS) o.k = o.k > 1 ? o.k - 1 : 1;
			}
			if (e.type == SDL_MOUSEMOTION) {
				double mx = (e.motion.x - view.offset_x) / view.scale, my = (e.motion.y - view.offset_y) / view.scale;
				if (gtMap_CheckPoint(map, (gtVec2){mx, my}) == GT_POINT_VALID) qx = mx, qy = my;
			}
		}
		Frame f = {0};
		double t0 = now();
		if (!paused) {
			lua_pushinteger(L, frame);
			if (!call_demo(L, demo_ref, "update", 1, 1)) goto done;
			f.queries = (int)lua_tointeger(L, -1);
			lua_pop(L, 1);
		}
		f.lua_s = now() - t0;
		double t1 = now();
		SDL_SetRenderDrawColor(r, 12, 12, 16, 255);
		SDL_RenderClear(r);
		SDL_Rect dst = {view.offset_x, view.offset_y, (int)(mw * view.scale), (int)(mh * view.scale)};
		SDL_RenderCopy(r, map_texture, NULL, &dst);
		draw_agents(r, L, demo_ref, &view);
		draw_query(r, L, demo_ref, &view, qx, qy, o.k, &f);
		char hud[256];
		double elapsed = now() - start;
		snprintf(hud, sizeof hud, "FPS %.0f  LUA %.1f MS  QUERY %.0f US  CALLS %lld  NODES %lld  K %d  LEAF %d  AGENTS %d",
		         frame > 0 ? frame / elapsed : 0.0, f.lua_s * 1e3, f.query_s * 1e6, (long long)f.distance_calls,
		         (long long)f.nodes, o.k, o.leaf, o.agents);
		SDL_SetRenderDrawColor(r, 240, 240, 240, 255);
		draw_text(r, 8, 8, 2, hud);
		if (help) draw_text(r, 8, 24, 2, "MOUSE: QUERY  +/-: K  SPACE: PAUSE  H: HELP  ESC: QUIT");
		f.draw_s = now() - t1;
		frame++;
		total.lua_s += f.lua_s, total.query_s += f.query_s, total.draw_s += f.draw_s, total.queries += f.queries;
		bool last = o.frames > 0 && frame == o.frames;
		if (last && o.screenshot) { // read back before presenting
			SDL_Surface* shot = SDL_CreateRGBSurfaceWithFormat(0, size, size, 32, SDL_PIXELFORMAT_ARGB8888);
			if (!shot || SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, shot->pixels, shot->pitch) != 0 ||
			    IMG_SavePNG(shot, o.screenshot) != 0) {
				fprintf(stderr, "gridtree-demo: cannot write %s: %s\n", o.screenshot, SDL_GetError());
				SDL_FreeSurface(shot);
				goto done;
			}
			printf("screenshot %s\ncolours %d\n", o.screenshot, count_colours(shot));
			SDL_FreeSurface(shot);
		}
		SDL_RenderPresent(r);
	}
	double elapsed = now() - start;
	printf("frames %d\nfps %.1f\nlua_ms_per_frame %.3f\nmouse_query_us %.1f\ndraw_ms_per_frame %.3f\n"
	       "script_queries_per_frame %.1f\nchecksum %016llx\n",
	       frame, frame / elapsed, total.lua_s * 1e3 / (frame ? frame : 1), total.query_s * 1e6 / (frame ? frame : 1),
	       total.draw_s * 1e3 / (frame ? frame : 1), (double)total.queries / (frame ? frame : 1), checksum(L, demo_ref));
	status = 0;
done:
	if (L) lua_close(L);
	if (r) SDL_DestroyRenderer(r);
	if (window) SDL_DestroyWindow(window);
	SDL_Quit();
	gtMap_Destroy(map);
	return status;
}
