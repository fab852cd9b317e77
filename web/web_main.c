// The demo in a browser (docs/web.md): the library, Lua 5.4 and the demo's own script
// (demo/scripts/agents.lua) compiled with Emscripten, drawn on an HTML5 canvas. The library's
// debug-draw callbacks (gt_debug_draw.h) draw the query's paths and the Grid Tree cells it opened
// through canvas.js; the agents go to the canvas in one call a frame (their positions in one
// array). With ?frames=N the page runs N frames of a fixed seed and writes
// "frames N fps F mismatches M" into #status, M counting the answers to the bundled queries
// (queries.txt) that differ from the native CLI's (answers.txt, made by `gridtree dist` and
// `gridtree path` at build time).
#include <emscripten.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridtree/gridtree.h"
#include "gridtree/gt_lua.h"

#include "canvas.h"

enum { AGENTS = 2000, SEED = 1, LEAF = 16, K = 5, MAX_K = 50, MAX_PATH = 4096, TRACE_CAPACITY = 4096 };
enum { FILTER_COUNT = 6 };
// The native demo's keyword filters (demo/main.c), cycled by the f key; "" is any agent.
static const char* const FILTERS[FILTER_COUNT] = {"", "healer", "elf", "orc", "enemy", "big"};

typedef struct Web {
	lua_State* L;
	int demo_ref, map_ref;
	const gtMap* map;
	gtNavQuery* nav_query;
	gtWorld* world;
	gtDistance distance;
	CanvasView view;
	float* agents; // x, y, kind per agent, for canvas.js
	double qx, qy; // the query point (map units)
	int frame, frames_wanted, mismatches, checked;
	double started;
	gtObjectId found[MAX_K];
	double found_d[MAX_K];
	int found_count, k, filter;
	bool paused, step, show_agents, show_tree; // keys: space, n, 1, 3
	gtVec2 path[MAX_PATH];
	gtDebugTraceEntry trace_storage[TRACE_CAPACITY];
	gtDebugTrace trace;
	gtDebugDraw draw;
	double query_us, script_ms, draw_ms; // the last frame's; the totals of the run below
	double script_total_ms, draw_total_ms;
	bool pinned;
} Web;

static Web web;

// Calls demo.<name>(...) with `args` values pushed; leaves `results` values.
static bool call_demo(const char* name, int args, int results)
{
	lua_State* L = web.L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.demo_ref);
	lua_getfield(L, -1, name);
	lua_remove(L, -2);
	lua_insert(L, -args - 1);
	if (lua_pcall(L, args, results, 0) != LUA_OK) {
		fprintf(stderr, "gridtree-web: demo.%s: %s\n", name, lua_tostring(L, -1));
		lua_pop(L, 1);
		return false;
	}
	return true;
}

// Runs a Lua chunk with the values already pushed as its arguments; false with a message.
static bool run_chunk(const char* chunk, int args, int results)
{
	if (luaL_loadstring(web.L, chunk) != LUA_OK) {
		fprintf(stderr, "gridtree-web: %s\n", lua_tostring(web.L, -1));
		return false;
	}
	lua_insert(web.L, -args - 1);
	if (lua_pcall(web.L, args, results, 0) != LUA_OK) {
		fprintf(stderr, "gridtree-web: %s\n", lua_tostring(web.L, -1));
		return false;
	}
	return true;
}

// The script, then its map (with the index built at build time) and its world with the agents,
// as the native demo starts them (demo/main.c).
static bool start_script(void)
{
	lua_State* L = web.L = luaL_newstate();
	if (!L) return false;
	luaL_openlibs(L);
	luaL_requiref(L, "gridtree", luaopen_gridtree, 0);
	lua_pop(L, 1);
	if (luaL_dofile(L, "/data/agents.lua") != LUA_OK || !lua_istable(L, -1)) {
		fprintf(stderr, "gridtree-web: agents.lua: %s\n", lua_tostring(L, -1));
		return false;
	}
	web.demo_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_pushstring(L, "/data/keep.map");
	lua_pushstring(L, "/data/keep.ehl");
	if (!run_chunk("local path, index = ...\n"
	               "local map = assert(require('gridtree').load_map(path))\n"
	               "assert(map:load_index(index))\n"
	               "return map\n",
	               2, 1))
		return false;
	web.map_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.demo_ref);
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.map_ref);
	lua_pushinteger(L, LEAF);
	lua_pushinteger(L, AGENTS);
	lua_pushinteger(L, SEED);
	return run_chunk("local demo, map, leaf, agents, seed = ...\n"
	                 "local world = require('gridtree').new_world(map, {leaf = leaf})\n"
	                 "demo.init(map, world, {agents = agents, seed = seed})\n",
	                 5, 0);
}

// The script's map, nav query and current world (demo.set_leaf may replace the world).
static bool fetch_objects(void)
{
	lua_State* L = web.L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.map_ref);
	web.map = gtLua_ToMap(L, -1);
	web.nav_query = gtLua_ToNavQuery(L, -1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.demo_ref);
	lua_getfield(L, -1, "world");
	web.world = gtLua_ToWorld(L, -1);
	lua_pop(L, 3);
	gtError err;
	if (!web.map || !web.nav_query || !web.world) return false;
	if (gtNavQuery_WorldDistance(web.nav_query, &web.distance, &err)) {
		fprintf(stderr, "gridtree-web: %s\n", err.message);
		return false;
	}
	return true;
}

// ---- the self-check ---------------------------------------------------------------------------

// The page's answer to one "dist" or "path" query line, formatted as the CLI prints it.
static void answer(const char* kind, gtVec2 s, gtVec2 t, char* out, size_t size)
{
	gtError err;
	double d;
	int count = 0;
	bool path = strcmp(kind, "path") == 0;
	gtStatus st = path ? gtNavQuery_Path(web.nav_query, s, t, web.path, MAX_PATH, &count, &d, &err)
	                   : gtNavQuery_Distance(web.nav_query, s, t, &d, &err);
	if (st == GT_ERR_INVALID_POINT) snprintf(out, size, "invalid");
	else if (st) snprintf(out, size, "error %s", err.message);
	else if (isinf(d)) snprintf(out, size, path ? "unreachable" : "inf");
	else if (!path) snprintf(out, size, "%.9f", d);
	else {
		size_t used = 0;
		out[0] = '\0';
		for (int i = 0; i < count && used < size; i++)
			used += (size_t)snprintf(out + used, size - used, i ? " %.9f %.9f" : "%.9f %.9f", web.path[i].x,
			                         web.path[i].y);
	}
}

// Compares the page's answers with the native build's, line by line: "dist|path sx sy tx ty" in
// queries.txt, the CLI's answer on the same line of answers.txt. A missing file or a short answer
// file counts as a mismatch, so the check cannot pass without its data.
static int check_answers(int* checked)
{
	FILE *q = fopen("/data/queries.txt", "r"), *a = fopen("/data/answers.txt", "r");
	int mismatches = 0;
	*checked = 0;
	if (!q || !a) mismatches = 1;
	static char line[256], expected[1 << 16], mine[1 << 16];
	while (q && a && fgets(line, sizeof line, q)) {
		char kind[8];
		gtVec2 s, t;
		if (sscanf(line, "%7s %lf %lf %lf %lf", kind, &s.x, &s.y, &t.x, &t.y) != 5) continue;
		(*checked)++;
		if (!fgets(expected, sizeof expected, a)) {
			mismatches++;
			continue;
		}
		expected[strcspn(expected, "\r\n")] = '\0';
		answer(kind, s, t, mine, sizeof mine);
		if (strcmp(mine, expected) != 0) {
			if (mismatches < 5)
				fprintf(stderr, "gridtree-web: mismatch: %s  native %s\n  page %s\n", line, expected, mine);
			mismatches++;
		}
	}
	if (q) fclose(q);
	if (a) fclose(a);
	return mismatches;
}

// ---- a frame ----------------------------------------------------------------------------------

static double number_field(int table, const char* name)
{
	lua_getfield(web.L, table, name);
	double v = lua_tonumber(web.L, -1);
	lua_pop(web.L, 1);
	return v;
}

// The agents' positions and kinds (demo.xs, demo.ys, demo.kinds) into web.agents.
static int gather_agents(void)
{
	lua_State* L = web.L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.demo_ref);
	lua_getfield(L, -1, "xs");
	lua_getfield(L, -2, "ys");
	lua_getfield(L, -3, "kinds");
	int n = 0;
	if (lua_istable(L, -3) && lua_istable(L, -2) && lua_istable(L, -1)) {
		lua_Unsigned len = lua_rawlen(L, -3);
		n = len > AGENTS ? AGENTS : (int)len;
		for (int i = 0; i < n; i++) {
			lua_rawgeti(L, -3, i + 1);
			lua_rawgeti(L, -3, i + 1);
			lua_rawgeti(L, -3, i + 1);
			web.agents[3 * i] = (float)lua_tonumber(L, -3);
			web.agents[3 * i + 1] = (float)lua_tonumber(L, -2);
			web.agents[3 * i + 2] = (float)lua_tonumber(L, -1);
			lua_pop(L, 3);
		}
	}
	lua_pop(L, 4);
	return n;
}

// The k nearest agents with the filter's keyword from the query point by walking distance,
// traced for the tree layer, and
// their paths drawn through the debug-draw callbacks.
static void draw_query(void)
{
	gtQuery q = gtQuery_Default((gtVec2){web.qx, web.qy});
	int32_t word = web.filter > 0 ? gtWorld_FindKeyword(web.world, FILTERS[web.filter]) : -1;
	if (word >= 0) q.keywords = &word, q.keyword_count = 1;
	q.k = web.k;
	if (web.show_tree) gtDebugTrace_Attach(&web.trace, &q);
	gtError err;
	double start = emscripten_get_now();
	if (gtWorld_Nearest(web.world, &q, web.distance, web.found, web.found_d, MAX_K, &web.found_count, NULL, &err)) {
		web.found_count = 0;
		return;
	}
	web.query_us = (emscripten_get_now() - start) * 1000;
	int height;
	int64_t nodes;
	gtWorld_TreeSize(web.world, &height, &nodes);
	if (web.show_tree) gtDebugDraw_Trace(&web.draw, &web.trace, height);
	for (int i = 0; i < web.found_count; i++) {
		gtVec2 to;
		int count = 0;
		if (gtWorld_GetPosition(web.world, web.found[i], &to, &err)) continue;
		if (gtNavQuery_Path(web.nav_query, (gtVec2){web.qx, web.qy}, to, web.path, MAX_PATH, &count, NULL, &err))
			continue;
		gtDebugDraw_Path(&web.draw, web.path, count, 0xFFD23CFFu);
		web.draw.circle(web.draw.context, to, 1.2, false, 0xFFD23CFFu);
		char label[32];
		snprintf(label, sizeof label, "%.1f", web.found_d[i]);
		web.draw.text(web.draw.context, (gtVec2){to.x + 1.2, to.y - 2.5}, label, 0xFFFFFFFFu);
	}
	web.draw.point(web.draw.context, (gtVec2){web.qx, web.qy}, 10, 0xFF50C8FFu);
}

static void finish_check(void)
{
	double seconds = (emscripten_get_now() - web.started) / 1000;
	double fps = seconds > 0 ? web.frame / seconds : 0;
	char status[128];
	snprintf(status, sizeof status, "frames %d fps %.1f mismatches %d", web.frame, fps, web.mismatches);
	canvas_status(status);
	printf("%s (%d queries checked; per frame: script %.2f ms, query and drawing %.2f ms)\n", status, web.checked,
	       web.script_total_ms / web.frame, web.draw_total_ms / web.frame);
}

// Moves the agents one frame (demo.update), unless paused; false when the script failed.
static bool script_step(void)
{
	double t0 = emscripten_get_now();
	if (web.paused && !web.step) return true;
	web.step = false;
	lua_pushinteger(web.L, web.frame);
	bool ok = call_demo("update", 1, 1) && (lua_pop(web.L, 1), fetch_objects());
	web.script_ms = emscripten_get_now() - t0;
	web.script_total_ms += web.script_ms;
	web.frame++;
	return ok;
}

static void frame(void)
{
	if (web.frames_wanted > 0 && web.frame >= web.frames_wanted) return;
	if (web.frame == 0) web.started = emscripten_get_now();
	if (!script_step()) {
		canvas_status("error: the script stopped (see the console)");
		emscripten_cancel_main_loop();
		return;
	}
	double t0 = emscripten_get_now();
	canvas_begin(&web.view);
	draw_query();
	int n = gather_agents();
	if (web.show_agents) canvas_agents(web.agents, n, &web.view);
	lua_rawgeti(web.L, LUA_REGISTRYINDEX, web.demo_ref);
	char panel[640];
	snprintf(panel, sizeof panel,
	         "gridtree in a browser\nmap keep (%dx%d)\nagents %d\nframe %d%s\nscript %.2f ms\ndraw %.2f ms\n"
	         "query: %d nearest %s\n  %.0f us, %d found\nplans %d\n\nmouse: query here\nclick or p: pin (%s)\n"
	         "f: keyword  + -: k\n1: agents  3: tree nodes\nspace: pause  n: step",
	         gtMap_Width(web.map), gtMap_Height(web.map), n, web.frame, web.paused ? " (paused)" : "", web.script_ms,
	         web.draw_ms, web.k, web.filter ? FILTERS[web.filter] : "agents", web.query_us, web.found_count,
	         (int)number_field(-1, "plans"), web.pinned ? "on" : "off");
	lua_pop(web.L, 1);
	canvas_panel(panel);
	web.draw_ms = emscripten_get_now() - t0;
	web.draw_total_ms += web.draw_ms;
	if (web.frames_wanted > 0 && web.frame == web.frames_wanted) finish_check();
}

// ---- entry points called by canvas.js ---------------------------------------------------------

// The pointer over the canvas, in canvas pixels: the query follows it over free space.
EMSCRIPTEN_KEEPALIVE void web_pointer(double px, double py)
{
	gtVec2 p = {(px - web.view.offset_x) / web.view.scale, (py - web.view.offset_y) / web.view.scale};
	if (!web.pinned && web.map && gtMap_CheckPoint(web.map, p) == GT_POINT_VALID) web.qx = p.x, web.qy = p.y;
}

// A click pins the query where it is (the pointer leaves it there), another unpins it.
EMSCRIPTEN_KEEPALIVE void web_click(double px, double py)
{
	web.pinned = !web.pinned;
	if (!web.pinned) web_pointer(px, py);
}

// A key, as the native demo's (demo/input.c): its character code.
EMSCRIPTEN_KEEPALIVE void web_key(int c)
{
	if (c == ' ') web.paused = !web.paused;
	else if (c == 'n') web.step = true;
	else if (c == 'p') web.pinned = !web.pinned;
	else if (c == 'f') web.filter = (web.filter + 1) % FILTER_COUNT;
	else if (c == '+' || c == '=') web.k = web.k < MAX_K ? web.k + 1 : MAX_K;
	else if (c == '-') web.k = web.k > 1 ? web.k - 1 : 1;
	else if (c == '1') web.show_agents = !web.show_agents;
	else if (c == '3') web.show_tree = !web.show_tree;
}

// A free point near the middle of the map, for the query before the pointer moves.
static void start_query_point(void)
{
	int w = gtMap_Width(web.map), h = gtMap_Height(web.map);
	for (int r = 0; r < w + h; r++)
		for (int dy = -r; dy <= r; dy++)
			for (int dx = -r; dx <= r; dx++) {
				gtVec2 p = {w / 2 + dx + 0.5, h / 2 + dy + 0.5};
				if (gtMap_CheckPoint(web.map, p) == GT_POINT_VALID) {
					web.qx = p.x, web.qy = p.y;
					return;
				}
			}
}

int main(void)
{
	web.frames_wanted = canvas_frames_wanted();
	web.k = K, web.filter = 2, web.show_agents = web.show_tree = true; // the 5 nearest elves
	web.agents = malloc(sizeof *web.agents * 3 * AGENTS);
	if (!web.agents || !start_script() || !fetch_objects()) {
		canvas_status("error: the page could not start (see the console)");
		return 1;
	}
	web.mismatches = check_answers(&web.checked);
	web.trace = gtDebugTrace_Make(web.trace_storage, TRACE_CAPACITY);
	web.view = canvas_fit(gtMap_Width(web.map), gtMap_Height(web.map));
	web.draw = canvas_debug_draw(&web.view);
	canvas_map(web.map, &web.view);
	start_query_point();
	// The self-check runs frames back to back (its fps is the page's own speed, not the display's
	// refresh); otherwise frames follow the display.
	emscripten_set_main_loop(frame, 0, 0);
	if (web.frames_wanted > 0) emscripten_set_main_loop_timing(EM_TIMING_SETIMMEDIATE, 0);
	return 0;
}
