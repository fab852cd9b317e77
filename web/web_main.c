// The demo in a browser (docs/web.md): the library, Lua 5.4 and the demo's own script
// (demo/scripts/agents.lua) compiled with Emscripten, drawn on an HTML5 canvas. The library's
// debug-draw callbacks (gt_debug_draw.h) draw the query's paths, the Grid Tree cells it opened and
// the layers through canvas.c; the agents go to the canvas in one call a frame (their positions in
// one array). Mouse and keys act as in the native demo, through its SDL-free demo/controls.c.
// With ?frames=N the page runs N frames of a fixed seed and writes
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
#include "controls.h"

enum { AGENTS = 2000, SEED = 1, LEAF = 16, K = 5, MAX_K = 50, MAX_PATH = 4096, TRACE_CAPACITY = 4096 };
enum { FILTER_COUNT = 6, LAYERS = 6, VIA_CAPACITY = 1 << 13, JOBS = 8 };
enum { LAYER_AGENTS, LAYER_QUERY, LAYER_TREE, LAYER_LEAVES, LAYER_VERTICES, LAYER_CELLS };
// The native demo's keyword filters and query kinds (demo/main.c), cycled by the f and q keys.
static const char* const FILTERS[FILTER_COUNT] = {"", "healer", "elf", "orc", "enemy", "big"};
static const char* const QUERY_KINDS[3] = {"nearest", "within", "top"};

typedef struct Web {
	lua_State* L;
	int demo_ref, map_ref;
	const gtMap* map;
	gtNav* nav;
	gtNavQuery* nav_query;
	gtWorld* world;
	gtDistance distance;
	CanvasView view, fit; // the view (zoomed, panned) and the whole map's (the r key)
	float* agents;        // x, y, kind per agent, for canvas.c
	float* lines;         // crowd lines: x0, y0, x1, y1, kind per agent
	double qx, qy;        // the query point (map units)
	int frame, frames_wanted, mismatches, checked;
	double started;
	gtObjectId found[AGENTS]; // a within query may find every agent
	double found_d[AGENTS];
	int found_count, k, filter, kind, leaf, speed;
	bool paused, step, pinned, crowd, apart, help, map_dirty, layers[LAYERS];
	Door doors[MAX_DOORS];
	int door_count, edits;
	Backend backend;
	char note[200]; // what the last key could not do, for the panel
	gtVec2 path[MAX_PATH];
	gtDebugTraceEntry trace_storage[TRACE_CAPACITY];
	gtDebugTrace trace;
	gtEhlVia vias[VIA_CAPACITY];
	gtDebugDraw draw;
	double query_us, script_ms, draw_ms; // the last frame's; the totals of the run below
	double script_total_ms, draw_total_ms, move_total_ms, targeting_total_ms, plan_total_ms;
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
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.map_ref);
	gtNav* nav = gtLua_ToNav(L, -1);
	lua_pop(L, 1);
	if (!nav) return false;
	web.door_count = find_doors(nav, web.doors); // before the agents, as the native demo
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
	web.nav = gtLua_ToNav(L, -1);
	web.nav_query = gtLua_ToNavQuery(L, -1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.demo_ref);
	lua_getfield(L, -1, "world");
	web.world = gtLua_ToWorld(L, -1);
	lua_pop(L, 3);
	gtError err;
	if (!web.map || !web.nav || !web.nav_query || !web.world) return false;
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

// The page's answers now (after edits, on the backend chosen) against the oracle's (Dijkstra over
// the visibility graph of the map as it is now), for the bundled dist queries: how many differ,
// -1 when the queries are missing. The tests call it after pressing keys that edit the map.
EMSCRIPTEN_KEEPALIVE int web_verify(void)
{
	enum { MAX_CHECKED = 60 };
	FILE* f = fopen("/data/queries.txt", "r");
	if (!f) return -1;
	gtVec2 s[MAX_CHECKED], t[MAX_CHECKED];
	int n = 0;
	char line[256], kind[8];
	while (n < MAX_CHECKED && fgets(line, sizeof line, f))
		if (sscanf(line, "%7s %lf %lf %lf %lf", kind, &s[n].x, &s[n].y, &t[n].x, &t[n].y) == 5 &&
		    strcmp(kind, "dist") == 0)
			n++;
	fclose(f);
	double mine[MAX_CHECKED];
	gtStatus mine_status[MAX_CHECKED];
	gtError err;
	for (int i = 0; i < n; i++) mine_status[i] = gtNavQuery_Distance(web.nav_query, s[i], t[i], &mine[i], &err);
	bool mesh = gtNav_Method(web.nav) == GT_NAV_POLYANYA;
	if (gtNav_SetMethod(web.nav, GT_NAV_ORACLE, &err)) return -1;
	int differ = 0;
	for (int i = 0; i < n; i++) {
		double d;
		gtStatus st = gtNavQuery_Distance(web.nav_query, s[i], t[i], &d, &err);
		bool same = st == mine_status[i] && (st || d == mine[i] || fabs(d - mine[i]) <= 1e-9 * fmax(1, d));
		differ += !same;
	}
	choose_backend(web.nav, &web.backend, mesh, web.edits, &err);
	return differ;
}

// ---- the host's tasks ---------------------------------------------------------------------------

// The page has no threads: the library's background work (the index rebuilt after an edit) is
// queued here and run between frames; a part that waits for its work (finish) runs it then.
typedef struct Job {
	gtTaskFcn* fcn;
	void* context;
	int count;
	bool pending;
} Job;

static Job jobs[JOBS];

static void run_job(Job* j)
{
	if (!j->pending) return;
	j->pending = false;
	for (int i = 0; i < j->count; i++) j->fcn(j->context, i);
}

static void* enqueue_job(gtTaskFcn* fcn, void* context, int count, void* user)
{
	(void)user;
	for (int i = 0; i < JOBS; i++)
		if (!jobs[i].pending) {
			jobs[i] = (Job){fcn, context, count, true};
			return &jobs[i];
		}
	Job now = {fcn, context, count, true}; // no slot left: at once
	run_job(&now);
	return NULL;
}

static void finish_job(void* handle, void* user)
{
	(void)user;
	if (handle) run_job(handle);
}

static void run_jobs(void)
{
	for (int i = 0; i < JOBS; i++) run_job(&jobs[i]);
}

// ---- a frame ----------------------------------------------------------------------------------

static double number_field(int table, const char* name)
{
	lua_getfield(web.L, table, name);
	double v = lua_tonumber(web.L, -1);
	lua_pop(web.L, 1);
	return v;
}

// The agents' positions and kinds (demo.xs, demo.ys, demo.kinds) into web.agents, and with the
// crowd lines on, each agent's line to its target (demo.target) into web.lines.
static int gather_agents(int* lines)
{
	lua_State* L = web.L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, web.demo_ref);
	lua_getfield(L, -1, "xs");
	lua_getfield(L, -2, "ys");
	lua_getfield(L, -3, "kinds");
	lua_getfield(L, -4, "target");
	int n = 0;
	*lines = 0;
	if (lua_istable(L, -4) && lua_istable(L, -3) && lua_istable(L, -2)) {
		lua_Unsigned len = lua_rawlen(L, -4);
		n = len > AGENTS ? AGENTS : (int)len;
		for (int i = 0; i < n; i++) {
			lua_rawgeti(L, -4, i + 1);
			lua_rawgeti(L, -4, i + 1);
			lua_rawgeti(L, -4, i + 1);
			web.agents[3 * i] = (float)lua_tonumber(L, -3);
			web.agents[3 * i + 1] = (float)lua_tonumber(L, -2);
			web.agents[3 * i + 2] = (float)lua_tonumber(L, -1);
			lua_pop(L, 3);
		}
	}
	for (int i = 0; web.crowd && lua_istable(L, -1) && i < n; i++) {
		lua_rawgeti(L, -1, i + 1);
		lua_Integer t = lua_tointeger(L, -1);
		lua_pop(L, 1);
		if (t < 1 || t > n || t == i + 1) continue;
		float* line = web.lines + 5 * (*lines)++;
		line[0] = web.agents[3 * i], line[1] = web.agents[3 * i + 1];
		line[2] = web.agents[3 * (t - 1)], line[3] = web.agents[3 * (t - 1) + 1];
		line[4] = web.agents[3 * i + 2];
	}
	lua_pop(L, 5);
	return n;
}

// The mouse query of the kind chosen (q): the k nearest agents with the filter's keyword by
// walking distance, those within 10 k, or the top k by distance and keywords (as demo/main.c).
static gtStatus run_query(gtQuery* q, gtError* err)
{
	if (web.kind == 1) {
		q->radius = web.k * 10.0;
		return gtWorld_Within(web.world, q, web.distance, web.found, web.found_d, AGENTS, &web.found_count, NULL, err);
	}
	q->k = web.k;
	if (web.kind == 2) {
		q->miss_cost = 100; // score = 0.5 * distance + 0.5 * 100 * the share of the words missing
		return gtWorld_TopWeighted(web.world, q, 0.5, web.distance, web.found, web.found_d, AGENTS, &web.found_count,
		                           NULL, err);
	}
	return gtWorld_Nearest(web.world, q, web.distance, web.found, web.found_d, AGENTS, &web.found_count, NULL, err);
}

// The query, traced for the tree layer, and its answers' paths drawn through the debug-draw
// callbacks (the query layer).
static void draw_query(void)
{
	gtQuery q = gtQuery_Default((gtVec2){web.qx, web.qy});
	int32_t word = web.filter > 0 ? gtWorld_FindKeyword(web.world, FILTERS[web.filter]) : -1;
	if (web.filter > 0) q.keywords = &word, q.keyword_count = 1;
	if (web.layers[LAYER_TREE]) gtDebugTrace_Attach(&web.trace, &q);
	gtError err;
	double start = emscripten_get_now();
	if (run_query(&q, &err)) {
		snprintf(web.note, sizeof web.note, "query: %s", err.message);
		web.found_count = 0;
		return;
	}
	web.query_us = (emscripten_get_now() - start) * 1000;
	int height;
	int64_t nodes;
	gtWorld_TreeSize(web.world, &height, &nodes);
	if (web.layers[LAYER_TREE]) gtDebugDraw_Trace(&web.draw, &web.trace, height);
	if (!web.layers[LAYER_QUERY]) return;
	if (web.kind == 1) web.draw.circle(web.draw.context, (gtVec2){web.qx, web.qy}, web.k * 10.0, false, 0x50C8FF80u);
	for (int i = 0; i < web.found_count; i++) {
		gtVec2 to;
		int count = 0;
		if (gtWorld_GetPosition(web.world, web.found[i], &to, &err)) continue;
		if (gtNavQuery_Path(web.nav_query, (gtVec2){web.qx, web.qy}, to, web.path, MAX_PATH, &count, NULL, &err))
			continue;
		gtDebugDraw_Path(&web.draw, web.path, count, 0xFFD23CFFu);
		web.draw.circle(web.draw.context, to, 1.2, false, 0xFFD23CFFu);
		if (i >= 12) continue; // a within query's many answers: their distances would cover the map
		char label[32];
		snprintf(label, sizeof label, "%.1f", web.found_d[i]);
		web.draw.text(web.draw.context, (gtVec2){to.x + 1.2, to.y - 2.5}, label, 0xFFFFFFFFu);
	}
	web.draw.point(web.draw.context, (gtVec2){web.qx, web.qy}, 10, 0xFF50C8FFu);
}

// Doors: open ones outlined, shut ones filled (the native demo's colour).
static void draw_doors(void)
{
	for (int i = 0; i < web.door_count; i++) {
		const Door* d = &web.doors[i];
		gtVec2 corners[4] = {{d->x0, d->y0}, {d->x1 + 1, d->y0}, {d->x1 + 1, d->y1 + 1}, {d->x0, d->y1 + 1}};
		web.draw.polygon(web.draw.context, corners, 4, !d->open, 0xC47A2CFFu);
	}
}

static void finish_check(void)
{
	double seconds = (emscripten_get_now() - web.started) / 1000;
	double fps = seconds > 0 ? web.frame / seconds : 0;
	char status[128];
	snprintf(status, sizeof status, "frames %d fps %.1f mismatches %d", web.frame, fps, web.mismatches);
	canvas_status(status);
	printf("%s (%d queries checked; per frame: script %.2f ms (moves %.2f, targeting %.2f, paths %.2f), query and "
	       "drawing %.2f ms)\n",
	       status, web.checked, web.script_total_ms / web.frame, web.move_total_ms / web.frame,
	       web.targeting_total_ms / web.frame, web.plan_total_ms / web.frame, web.draw_total_ms / web.frame);
	// The check has run its frames: the page goes on at the display's pace (keys, screenshots).
	emscripten_set_main_loop_timing(EM_TIMING_RAF, 1);
}

// Moves the agents one frame (demo.update; four with the s key), unless paused; false when the
// script failed.
static bool script_step(void)
{
	double t0 = emscripten_get_now();
	for (int s = 0; s < web.speed && (!web.paused || web.step); s++) {
		lua_pushinteger(web.L, web.frame);
		if (!call_demo("update", 1, 1)) return false;
		lua_pop(web.L, 1);
		lua_rawgeti(web.L, LUA_REGISTRYINDEX, web.demo_ref);
		web.move_total_ms += number_field(-1, "move_seconds") * 1e3;
		web.targeting_total_ms += number_field(-1, "query_seconds") * 1e3;
		web.plan_total_ms += number_field(-1, "plan_seconds") * 1e3;
		lua_pop(web.L, 1);
		web.frame++;
	}
	web.step = false;
	bool ok = fetch_objects();
	web.script_ms = emscripten_get_now() - t0;
	web.script_total_ms += web.script_ms;
	return ok;
}

static const char* index_state(void)
{
	switch (gtNav_IndexState(web.nav)) {
	case GT_NAV_INDEX_EXACT: return "exact";
	case GT_NAV_INDEX_LOWER_BOUND: return "checked";
	case GT_NAV_INDEX_STALE: return "rebuilding";
	default: return "none";
	}
}

// The panel, and #state: what the keys changed, one "name value" pair after another.
static void describe(int agents)
{
	int shut = 0;
	for (int i = 0; i < web.door_count; i++) shut += !web.doors[i].open;
	bool mesh = gtNav_Method(web.nav) == GT_NAV_POLYANYA;
	char layers[LAYERS + 1];
	for (int i = 0; i < LAYERS; i++) layers[i] = web.layers[i] ? (char)('1' + i) : '-';
	layers[LAYERS] = '\0';
	lua_rawgeti(web.L, LUA_REGISTRYINDEX, web.demo_ref);
	int plans = (int)number_field(-1, "plans");
	lua_pop(web.L, 1);
	char text[1024];
	snprintf(text, sizeof text,
	         "gridtree in a browser\nmap keep (%dx%d)\nagents %d  leaf %d\nframe %d%s%s\nscript %.2f ms\n"
	         "draw %.2f ms\nplans %d\n\nquery: %s, k %d\n  keyword %s\n  %s%.1f ms, %d found\nbackend %s\nindex %s\n"
	         "edits %d  doors %d (%d shut)\nlayers %s%s%s\n\nmouse: query here\nclick: wall or door\np: pin (%s)\n"
	         "h: help (all keys)\n\n%.100s",
	         gtMap_Width(web.map), gtMap_Height(web.map), agents, web.leaf, web.frame, web.paused ? " paused" : "",
	         web.speed > 1 ? " 4x" : "", web.script_ms, web.draw_ms, plans, QUERY_KINDS[web.kind], web.k,
	         web.filter ? FILTERS[web.filter] : "any", web.query_us < 100 ? "< " : "",
	         web.query_us < 100 ? 0.1 : web.query_us / 1000, web.found_count, mesh ? "mesh" : "ehl", index_state(),
	         web.edits, web.door_count, shut, layers, web.crowd ? " crowd" : "", web.apart ? " apart" : "",
	         web.pinned ? "on" : "off", web.note);
	canvas_panel(text);
	snprintf(text, sizeof text,
	         "frame %d edits %d doors %d shut %d backend %s index %s kind %s k %d keyword %s leaf %d layers %s crowd "
	         "%d apart %d "
	         "help %d speed %d paused %d pinned %d found %d scale %.3f",
	         web.frame, web.edits, web.door_count, shut, mesh ? "mesh" : "ehl", index_state(), QUERY_KINDS[web.kind],
	         web.k, web.filter ? FILTERS[web.filter] : "any", web.leaf, layers, web.crowd, web.apart, web.help,
	         web.speed, web.paused, web.pinned, web.found_count, web.view.scale);
	canvas_state(text);
}

// The help over the panel: the native demo's controls (controls.c), and what differs here.
static void draw_help(void)
{
	char text[1024];
	size_t used = (size_t)snprintf(text, sizeof text, "KEYS (H HIDES THIS)");
	for (int i = 0; i < CONTROL_LINES; i++)
		used += (size_t)snprintf(text + used, sizeof text - used, "\n%s", CONTROL_HELP[i]);
	snprintf(text + used, sizeof text - used,
	         "\nMIDDLE CLICK PIN\n\nIN THE BROWSER:\nESC CANNOT CLOSE A PAGE\nB MAKES THE MESH FROM THE MAP\n"
	         "AFTER AN EDIT THE INDEX IS\nREBUILT BETWEEN FRAMES");
	canvas_overlay(text);
}

static void frame(void)
{
	if (web.frames_wanted > 0 && web.frame == 0) web.started = emscripten_get_now();
	run_jobs(); // an index rebuilt after an edit, then taken
	if (gtNav_Update(web.nav)) web.map_dirty = true;
	if (web.map_dirty) canvas_map(web.map, &web.fit), web.map_dirty = false;
	if (!script_step()) {
		canvas_status("error: the script stopped (see the console)");
		emscripten_cancel_main_loop();
		return;
	}
	double t0 = emscripten_get_now();
	canvas_begin(&web.view);
	draw_doors();
	if (web.layers[LAYER_CELLS]) draw_cells_layer(&web.draw, web.nav, web.qx, web.qy, web.vias, VIA_CAPACITY);
	if (web.layers[LAYER_LEAVES]) gtDebugDraw_WorldLeafGrid(&web.draw, web.world);
	if (web.layers[LAYER_VERTICES]) draw_vertices_layer(&web.draw, web.map, web.qx, web.qy);
	int lines, n = gather_agents(&lines);
	draw_query();
	if (web.layers[LAYER_AGENTS] && web.crowd) canvas_lines(web.lines, lines, &web.view);
	if (web.layers[LAYER_AGENTS]) canvas_agents(web.agents, n, &web.view);
	describe(n);
	if (web.help) draw_help();
	web.draw_ms = emscripten_get_now() - t0;
	web.draw_total_ms += web.draw_ms;
	if (web.frames_wanted > 0 && web.frame >= web.frames_wanted && web.started > 0) {
		finish_check();
		web.started = 0;
	}
}

// ---- entry points called by index.html ----------------------------------------------------------

static gtVec2 to_map(double px, double py)
{
	return (gtVec2){(px - web.view.offset_x) / web.view.scale, (py - web.view.offset_y) / web.view.scale};
}

// The pointer over the canvas, in canvas pixels: the query follows it over free space.
EMSCRIPTEN_KEEPALIVE void web_pointer(double px, double py)
{
	gtVec2 p = to_map(px, py);
	if (!web.pinned && web.map && px < web.view.map_width && gtMap_CheckPoint(web.map, p) == GT_POINT_VALID)
		web.qx = p.x, web.qy = p.y;
}

// After an edit at cell (cx, cy), as the native demo (demo/input.c): the map picture, the mesh,
// the script's agents (demo.edited), a query point now in a wall.
static void edited(int cx, int cy)
{
	web.edits++;
	web.map_dirty = true;
	web.backend.mesh_current = false;
	gtError err;
	if (gtNav_Method(web.nav) == GT_NAV_POLYANYA && !choose_backend(web.nav, &web.backend, true, web.edits, &err))
		snprintf(web.note, sizeof web.note, "mesh: %s", err.message);
	lua_rawgeti(web.L, LUA_REGISTRYINDEX, web.demo_ref);
	lua_getfield(web.L, -1, "edited");
	bool hook = lua_isfunction(web.L, -1);
	lua_pop(web.L, 2);
	if (hook) call_demo("edited", 0, 0);
	free_query_point(web.map, cx, cy, &web.qx, &web.qy);
}

// A click (button 0): the wall or door there, as the native demo's left click; the middle button
// (1) pins the query.
EMSCRIPTEN_KEEPALIVE void web_click(double px, double py, int button)
{
	int cx, cy;
	gtVec2 p = to_map(px, py);
	if (button == 1) web.pinned = !web.pinned;
	else if (button == 0 && px < web.view.map_width &&
	         toggle_at(web.nav, web.doors, web.door_count, p.x, p.y, &cx, &cy))
		edited(cx, cy);
}

// The wheel zooms about the pointer (up: in), as the native demo.
EMSCRIPTEN_KEEPALIVE void web_wheel(double px, double py, int up)
{
	double factor = up ? 1.25 : 0.8, scale = web.view.scale * factor;
	if (scale < web.fit.scale / 4 || scale > 200) return;
	gtVec2 p = to_map(px, py);
	web.view.scale = scale;
	web.view.offset_x = px - p.x * scale, web.view.offset_y = py - p.y * scale;
}

// A drag with the right button pans the view.
EMSCRIPTEN_KEEPALIVE void web_drag(double dx, double dy)
{
	web.view.offset_x += dx, web.view.offset_y += dy;
}

static void set_leaf(int leaf)
{
	if (leaf < 1 || leaf > 1024) return;
	lua_pushinteger(web.L, leaf);
	if (call_demo("set_leaf", 1, 0)) web.leaf = leaf;
	if (!fetch_objects()) {
		canvas_status("error: the script dropped its world (see the console)");
		emscripten_cancel_main_loop();
	}
}

// A key: its character code, as the native demo's keys (demo_key, demo/controls.c).
EMSCRIPTEN_KEEPALIVE void web_key(int c)
{
	DemoKey action = demo_key(c, false);
	gtError err;
	int i, cx, cy;
	web.note[0] = '\0';
	switch (action) {
	case KEY_NONE: break;
	case KEY_QUIT: snprintf(web.note, sizeof web.note, "esc: a page cannot\nclose itself"); break;
	case KEY_PAUSE: web.paused = !web.paused; break;
	case KEY_STEP: web.step = true; break;
	case KEY_SPEED: web.speed = web.speed == 1 ? 4 : 1; break;
	case KEY_HELP: web.help = !web.help; break;
	case KEY_WHOLE_MAP: web.view = web.fit; break;
	case KEY_PIN: web.pinned = !web.pinned; break;
	case KEY_CROWD: web.crowd = !web.crowd; break;
	case KEY_APART: // the script's separation layer (agents.lua), as in the native demo
		lua_pushboolean(web.L, !web.apart);
		if (call_demo("set_separation", 1, 0)) web.apart = !web.apart;
		else snprintf(web.note, sizeof web.note, "a: the script has no separation");
		break;
	case KEY_BACKEND:
		if (!choose_backend(web.nav, &web.backend, gtNav_Method(web.nav) != GT_NAV_POLYANYA, web.edits, &err))
			snprintf(web.note, sizeof web.note, "b: %.90s", err.message);
		break;
	case KEY_DOOR:
		i = nearest_door(web.doors, web.door_count, web.qx, web.qy);
		if (i >= 0 && toggle_door(web.nav, &web.doors[i])) edited(web.doors[i].x0, web.doors[i].y0);
		break;
	case KEY_KIND: web.kind = (web.kind + 1) % 3; break;
	case KEY_FILTER: web.filter = (web.filter + 1) % FILTER_COUNT; break;
	case KEY_MORE: web.k = web.k < MAX_K ? web.k + 1 : MAX_K; break;
	case KEY_FEWER: web.k = web.k > 1 ? web.k - 1 : 1; break;
	case KEY_WALL:
		if (toggle_at(web.nav, web.doors, web.door_count, web.qx, web.qy, &cx, &cy)) edited(cx, cy);
		break;
	case KEY_LEAF_SMALLER: set_leaf(web.leaf / 2); break;
	case KEY_LEAF_LARGER: set_leaf(web.leaf * 2); break;
	default:
		if (action >= KEY_LAYER_1 && action < KEY_LAYER_1 + LAYERS) web.layers[action - KEY_LAYER_1] ^= true;
	}
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
	gtSetTasks(&(gtTaskSystem){enqueue_job, finish_job, NULL}, 1);
	web.frames_wanted = canvas_frames_wanted();
	web.k = K, web.filter = 2, web.leaf = LEAF, web.speed = 1;                          // the 5 nearest elves
	web.layers[LAYER_AGENTS] = web.layers[LAYER_QUERY] = web.layers[LAYER_TREE] = true; // as --layers 123
	web.agents = malloc(sizeof *web.agents * 3 * AGENTS);
	web.lines = malloc(sizeof *web.lines * 5 * AGENTS);
	if (!web.agents || !web.lines || !start_script() || !fetch_objects()) {
		canvas_status("error: the page could not start (see the console)");
		return 1;
	}
	web.mismatches = check_answers(&web.checked);
	web.trace = gtDebugTrace_Make(web.trace_storage, TRACE_CAPACITY);
	web.view = web.fit = canvas_fit(gtMap_Width(web.map), gtMap_Height(web.map));
	web.draw = canvas_debug_draw(&web.view);
	canvas_map(web.map, &web.fit);
	start_query_point();
	// The self-check runs frames back to back (its fps is the page's own speed, not the display's
	// refresh); otherwise frames follow the display.
	emscripten_set_main_loop(frame, 0, 0);
	if (web.frames_wanted > 0) emscripten_set_main_loop_timing(EM_TIMING_SETIMMEDIATE, 0);
	return 0;
}
