// gridtree-demo: agents scripted in Lua walk a map; the query under the mouse shows its k nearest
// agents by walking distance, their EHL paths and the search's circle. Headless mode renders
// without a window and writes a PNG (see README). Every library layer is drawn by the library
// through gt_debug_draw.h; the demo only turns its callbacks into SDL calls (draw.c).
#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <SDL.h>
#include <SDL_image.h>

#include "draw.h"
#include "gridtree/gridtree.h"
#include "gridtree/gt_lua.h" // the binding is compiled in: the demo reaches the script's objects

typedef struct Options {
	const char *map, *index, *script, *screenshot, *layers, *keys;
	int agents, leaf, cell, frames, k;
	long seed;
	bool headless;
} Options;

static const Uint32 KIND_COLOURS[] = {0xFFE8C547, 0xFF6FD36F, 0xFF58B4FF, 0xFFE05A4F, 0xFFB26BE0, 0xFFFFFFFF};
#define QUERY_MARKER 0xFF50C8FFu // 0xRRGGBBAA; the tests count its pixels
#define MAX_AGENTS 1000000      // --agents bound; also bounds the script's position tables

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool exists(const char* path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

// The repository root: the executable's folder's parent (bin/) or grandparent (bin/debug/),
// whichever holds lua/demo/agents.lua; else the current directory. So the demo finds its script,
// maps and index cache from wherever it is started.
static const char* repository_root(void)
{
	static char root[1024];
	char exe[1024];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (int up = 1; up <= 2; up++) {
			char* slash = strrchr(exe, '/');
			if (!slash) break;
			*slash = '\0'; // bin/, then the repository (or bin/ of bin/debug/)
			char probe[1100];
			const char* parent = strrchr(exe, '/');
			if (!parent) break;
			snprintf(root, sizeof root, "%.*s", (int)(parent - exe), exe);
			snprintf(probe, sizeof probe, "%s/lua/demo/agents.lua", root[0] ? root : "/");
			if (exists(probe)) return root;
		}
	}
	return ".";
}

// `relative` inside the repository root, written into out[0..size).
static const char* in_root(const char* relative, char* out, size_t size)
{
	snprintf(out, size, "%s/%s", repository_root(), relative);
	return out;
}

static const char* default_map(void)
{
	static char path[1200];
	const char* data = getenv("GRIDTREE_DATA");
	char shared[1100];
	snprintf(shared, sizeof shared, "%s/../shared/data", repository_root());
	snprintf(path, sizeof path, "%s/maps/bgmaps/AR0602SR.map", data && *data ? data : shared);
	static char bundled[1200];
	return exists(path) ? path : in_root("assets/maps/keep.map", bundled, sizeof bundled);
}

static const char USAGE[] =
    "usage: gridtree-demo [MAP] [--index FILE] [--agents N] [--leaf m] [--cell g] [--script FILE.lua] [--seed S]\n"
    "                     [--layers 123456] [--keys INPUT] [--headless --frames N --screenshot out.png]\n"
    "Agents scripted in Lua walk MAP (default: $GRIDTREE_DATA/maps/bgmaps/AR0602SR.map, else the bundled\n"
    "assets/maps/keep.map); the query under the mouse shows its nearest agents, their paths and the tree\n"
    "nodes it opened. The EHL index is cached in build/<map>-g<cell>.ehl of the repository. Keys: h in the\n"
    "window; README.md, section \"The demo\".\n";

static bool parse(int argc, char** argv, Options* o, bool* help)
{
	*o = (Options){NULL, NULL, NULL, NULL, "123", "", 2000, 16, 4, 0, 5, 1, false};
	*help = false;
	for (int i = 1; i < argc; i++) {
		const char* a = argv[i];
		const char* v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { *help = true; return true; }
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
	static char script[1200];
	if (!o->script) o->script = in_root("lua/demo/agents.lua", script, sizeof script);
	if (o->agents < 1 || o->agents > MAX_AGENTS || o->leaf < 1 || o->cell < 1 || o->frames < 0) {
		fprintf(stderr, "gridtree-demo: --agents, --leaf and --cell must be positive, --frames >= 0\n");
		return false;
	}
	if (o->headless && o->frames == 0) o->frames = 60;
	return true;
}

// The index path: --index, else a cache in the repository's build/ named after map and cell size.
static void index_path(const Options* o, char* out, size_t size)
{
	if (o->index) {
		snprintf(out, size, "%s", o->index);
		return;
	}
	const char* base = strrchr(o->map, '/');
	char build[1200];
	in_root("build", build, sizeof build);
	if (mkdir(build, 0777) != 0 && errno != EEXIST) fprintf(stderr, "gridtree-demo: cannot create %s\n", build);
	snprintf(out, size, "%s/%s-g%d.ehl", build, base ? base + 1 : o->map, o->cell);
}

// The index, loaded once into the nav of the script's own map (gt_lua.h): the cached file, else
// built (with the library's progress printer) and saved. Distances and paths of the script and of
// the mouse query all come from this one index.
static bool load_or_build_index(gtNav* nav, const Options* o, const char* path)
{
	gtError err;
	if (gtNav_LoadIndex(nav, path, &err) == GT_OK) return true;
	gtProgressPrinter progress = gtProgressPrinter_Make(stderr); // a bar on a terminal, lines in logs
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = o->cell;
	def.progress = gtProgressPrinter_Report;
	def.progress_user = &progress;
	gtStatus st = gtNav_BuildIndex(nav, &def, &err);
	gtProgressPrinter_Finish(&progress);
	if (st) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return false;
	}
	if (gtNav_SaveIndex(nav, path, &err)) // the demo still runs, it only builds again next time
		fprintf(stderr, "gridtree-demo: %s (the index is not cached)\n", err.message);
	return true;
}

// Runs the script file (its `demo` table goes to the registry under `demo_ref`), then loads the map
// through the binding, so script and demo share one map and one nav (registry, `map_ref`).
static bool start_lua(lua_State* L, const Options* o, int* demo_ref, int* map_ref)
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
	if (!lua_istable(L, -1)) {
		fprintf(stderr, "gridtree-demo: %s must return the demo table\n", o->script);
		return false;
	}
	*demo_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	static const char* load =
	    "local gridtree = require 'gridtree'\n"
	    "local map, message = gridtree.load_map(...)\n"
	    "if not map then error(message, 0) end\n"
	    "return map\n";
	if (luaL_loadstring(L, load) != LUA_OK) return false;
	lua_pushstring(L, o->map);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		fprintf(stderr, "gridtree-demo: %s\n", lua_tostring(L, -1));
		return false;
	}
	*map_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	return true;
}

// The script's world on its (indexed) map, then demo.init places the agents.
static bool start_agents(lua_State* L, const Options* o, int demo_ref, int map_ref)
{
	static const char* setup =
	    "local demo, map, leaf, agents, seed = ...\n"
	    "local world = require('gridtree').new_world(map, {leaf = leaf})\n"
	    "demo.init(map, world, {agents = agents, seed = seed})\n";
	if (luaL_loadstring(L, setup) != LUA_OK) return false;
	lua_rawgeti(L, LUA_REGISTRYINDEX, demo_ref);
	lua_rawgeti(L, LUA_REGISTRYINDEX, map_ref);
	lua_pushinteger(L, o->leaf);
	lua_pushinteger(L, o->agents);
	lua_pushinteger(L, o->seed);
	if (lua_pcall(L, 5, 0, 0) != LUA_OK) {
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
	long long distance_calls, nodes;
	double kth; // the k-th distance (or the radius) of the mouse query
} Frame;

enum { TRACE_CAPACITY = 1 << 16, VIA_CAPACITY = 1 << 13, MAX_K = 50 /* the + key's limit */ };

typedef struct Demo {
	Options o;
	lua_State* L;
	int demo_ref, map_ref; // the script's demo table and its map, in the registry
	// The script's own objects (gt_lua.h): the mouse query runs on its world with its map's index,
	// and the layers draw them. Fetched again after every script call (demo.set_leaf replaces the
	// world); owned by Lua, never destroyed here.
	const gtMap* map;
	gtNav* nav;
	gtNavQuery* nav_query; // the map's own query object: used between script calls only
	gtWorld* world;
	gtDistance distance;
	int edits;      // walls toggled with `t`
	bool map_dirty; // the map picture is out of date
	// The mouse query's answer and its paths, in buffers that grow only when too small.
	gtObjectId* found;
	double* found_d;
	int found_count, found_capacity;
	gtVec2* path_points;
	int path_used, path_capacity;
	int *path_start, *path_count;
	// Caller-owned debug-draw buffers: nothing allocates per frame.
	gtDebugTraceEntry* trace_storage;
	gtDebugTrace trace;
	gtEhlVia* vias;
	SdlDebugDraw sdl;
	gtDebugDraw draw;
	View view;
	double qx, qy;
	bool pinned, layers[LAYERS];
	bool failed; // stop with an error (the script closed what the demo draws)
	int kind, filter;
} Demo;

static void set_colour(SDL_Renderer* r, Uint32 c, Uint8 alpha)
{
	SDL_SetRenderDrawColor(r, (c >> 16) & 255, (c >> 8) & 255, c & 255, alpha);
}

// How many agents the script's position tables (at stack indexes a and b) hold: raw lengths, so no
// __len of the script runs outside a protected call, bounded so a broken script cannot stall a frame;
// 0 when either is not a table.
static lua_Integer agent_count(lua_State* L, int a, int b)
{
	if (!lua_istable(L, a) || !lua_istable(L, b)) return 0;
	lua_Unsigned n = lua_rawlen(L, a), m = lua_rawlen(L, b);
	n = m < n ? m : n;
	return n > MAX_AGENTS ? MAX_AGENTS : (lua_Integer)n;
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
	lua_Integer n = lua_istable(L, -1) ? agent_count(L, -3, -2) : 0;
	float size = d->view.scale < 2 ? 2.0f : (float)d->view.scale;
	SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
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

// The script's objects once it has run (gt_lua.h): the map it was given and demo.world, its
// current world. False, with a message, when the script closed or dropped them.
static bool fetch_objects(Demo* d)
{
	lua_State* L = d->L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->map_ref);
	d->map = gtLua_ToMap(L, -1);
	d->nav = gtLua_ToNav(L, -1);
	d->nav_query = gtLua_ToNavQuery(L, -1);
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(L, -1, "world");
	d->world = gtLua_ToWorld(L, -1);
	lua_pop(L, 3);
	if (!d->map || !d->nav_query) {
		fprintf(stderr, "gridtree-demo: the script closed its map\n");
		return false;
	}
	if (!d->world) {
		fprintf(stderr, "gridtree-demo: demo.world is not an open gridtree.World\n");
		return false;
	}
	gtError err;
	if (gtNavQuery_WorldDistance(d->nav_query, &d->distance, &err)) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return false;
	}
	return true;
}

// Room for `n` answers of the mouse query; grows only when the world has grown past it.
static bool reserve_answers(Demo* d, int n)
{
	if (n <= d->found_capacity) return true;
	size_t cap = (size_t)n;
	gtObjectId* found = realloc(d->found, cap * sizeof *found);
	if (found) d->found = found;
	double* found_d = realloc(d->found_d, cap * sizeof *found_d);
	if (found_d) d->found_d = found_d;
	int* start = realloc(d->path_start, cap * sizeof *start);
	if (start) d->path_start = start;
	int* count = realloc(d->path_count, cap * sizeof *count);
	if (count) d->path_count = count;
	if (!found || !found_d || !start || !count) {
		fprintf(stderr, "gridtree-demo: out of memory\n");
		return false;
	}
	d->found_capacity = n;
	return true;
}

// Computes the path to answer i into the path buffer (grown when too small).
static void find_path(Demo* d, int i, gtVec2 to)
{
	gtError err;
	for (int attempt = 0; attempt < 2; attempt++) {
		int count = 0;
		gtStatus st = gtNav_Path(d->nav_query, (gtVec2){d->qx, d->qy}, to, d->path_points + d->path_used,
		                         d->path_capacity - d->path_used, &count, NULL, &err);
		if (st == GT_OK) {
			d->path_start[i] = d->path_used, d->path_count[i] = count;
			d->path_used += count;
			return;
		}
		if (st != GT_ERR_BUFFER_TOO_SMALL) break;
		int want = d->path_capacity * 2 > d->path_used + count ? d->path_capacity * 2 : d->path_used + count;
		gtVec2* grown = realloc(d->path_points, sizeof *grown * (size_t)want);
		if (!grown) break;
		d->path_points = grown, d->path_capacity = want;
	}
	d->path_start[i] = d->path_used, d->path_count[i] = 0;
}

// The query under the mouse, on the script's world with its map's distances, traced into the
// recorder when the tree layer is on; then the paths to its answers.
static bool run_query(Demo* d, Frame* f)
{
	double start = now();
	int objects = gtWorld_Count(d->world); // within may find them all; nearest and top want k
	if (!reserve_answers(d, objects > d->o.k ? objects : d->o.k)) return false;
	gtQuery q = gtQuery_Default((gtVec2){d->qx, d->qy});
	int32_t word = -1;
	if (d->filter > 0) {
		word = gtWorld_FindKeyword(d->world, FILTERS[d->filter]);
		q.keywords = &word, q.keyword_count = 1;
	}
	if (d->layers[LAYER_TREE]) gtDebugTrace_Attach(&d->trace, &q);
	else gtDebugTrace_Clear(&d->trace);
	gtQueryStats stats = {0};
	gtError err;
	gtStatus st;
	const double alpha = 0.5; // "top": score = alpha * distance + (1 - alpha) * 100 * missing share
	if (d->kind == 1) {
		q.radius = d->o.k * 10.0;
		st = gtWorld_Within(d->world, &q, d->distance, d->found, d->found_d, d->found_capacity, &d->found_count, &stats, &err);
	} else if (d->kind == 2) {
		q.k = d->o.k;
		q.miss_cost = (1 - alpha) / alpha * 100.0 / (q.keyword_count > 0 ? q.keyword_count : 1);
		st = gtWorld_Top(d->world, &q, d->distance, d->found, d->found_d, d->found_capacity, &d->found_count, &stats, &err);
		for (int i = 0; !st && i < d->found_count; i++) d->found_d[i] *= alpha;
	} else {
		q.k = d->o.k;
		st = gtWorld_Nearest(d->world, &q, d->distance, d->found, d->found_d, d->found_capacity, &d->found_count, &stats, &err);
	}
	if (st) {
		fprintf(stderr, "gridtree-demo: query: %s\n", err.message);
		d->found_count = 0;
		return false;
	}
	d->path_used = 0;
	for (int i = 0; i < d->found_count; i++) {
		gtVec2 to;
		if (gtWorld_GetPosition(d->world, d->found[i], &to, &err)) to = (gtVec2){d->qx, d->qy};
		find_path(d, i, to);
	}
	f->query_s = now() - start;
	f->distance_calls = (long long)stats.distance_calls, f->nodes = (long long)stats.nodes_popped;
	f->kth = d->kind == 1 ? d->o.k * 10.0 : d->found_count > 0 ? d->found_d[d->found_count - 1] : 0;
	return true;
}

// The query's answers: paths to them, the circle of the k-th distance (or the radius of within)
// and the query point.
static void draw_query(Demo* d, const Frame* f)
{
	gtVec2 q = {d->qx, d->qy};
	if (!d->layers[LAYER_QUERY]) return;
	for (int i = 0; i < d->found_count; i++)
		gtDebugDraw_Path(&d->draw, d->path_points + d->path_start[i], d->path_count[i], 0xFFFFFFFFu);
	if (f->kth > 0 && isfinite(f->kth)) d->draw.circle(d->draw.context, q, f->kth, false, 0xFFDC78FFu);
	d->draw.point(d->draw.context, q, 8, QUERY_MARKER);
}

// Convex vertices, and the visibility edges of the one nearest the query point (within 3 units).
static void draw_vertices(Demo* d)
{
	int n;
	const gtVertex* v = gtMap_Vertices(d->map, &n);
	gtDebugDraw_MapVertices(&d->draw, d->map);
	int hovered = -1;
	double best = 9;
	for (int i = 0; i < n; i++) {
		double dx = v[i].x - d->qx, dy = v[i].y - d->qy;
		if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, hovered = i;
	}
	if (hovered >= 0) gtDebugDraw_VisibilityEdges(&d->draw, d->map, hovered);
}

// The EHL cell grid, and the vias of the cell under the query point.
static void draw_cells(Demo* d)
{
	const gtEhl* ehl = gtNav_Index(d->nav);
	if (!ehl) return;
	gtDebugDraw_EhlCells(&d->draw, ehl);
	int columns, rows;
	gtEhl_GridSize(ehl, &columns, &rows);
	int g = gtEhl_GetStats(ehl).cell_size;
	int64_t cell = (int64_t)(d->qy / g) * columns + (int64_t)(d->qx / g);
	gtDebugDraw_EhlCellVias(&d->draw, ehl, cell, d->vias, VIA_CAPACITY);
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
	    "+/-: K    Q: QUERY KIND    F: KEYWORD FILTER    L/SHIFT+L: LEAF SIZE    T: WALL ON/OFF",
	    "SPACE: PAUSE    N: ONE STEP    S: SPEED 1X/4X    1-6: LAYERS    ESC: QUIT",
	};
	SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
	for (int i = 0; i < 3; i++) draw_text(r, 8, 40 + 14 * i, 2, lines[i]);
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
	lua_Integer n = agent_count(L, -2, -1);
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

// The `t` key: a 3x3 wall under the query point built, or the wall there demolished. The script's
// agents re-plan (demo.edited); every answer after it is the edited map's (README, Map edits).
static void toggle_wall(Demo* d)
{
	int w = gtMap_Width(d->map), h = gtMap_Height(d->map);
	int cx = (int)d->qx, cy = (int)d->qy;
	if (cx >= w) cx = w - 1;
	if (cy >= h) cy = h - 1;
	int x0 = cx > 0 ? cx - 1 : 0, y0 = cy > 0 ? cy - 1 : 0, x1 = cx + 1 < w ? cx + 1 : w - 1, y1 = cy + 1 < h ? cy + 1 : h - 1;
	bool build = !gtMap_IsBlocked(d->map, cx, cy);
	gtError err;
	if (gtNav_SetBlocked(d->nav, x0, y0, x1, y1, build, &err)) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return;
	}
	d->edits++;
	d->map_dirty = true;
	lua_rawgeti(d->L, LUA_REGISTRYINDEX, d->demo_ref);
	lua_getfield(d->L, -1, "edited");
	bool hook = lua_isfunction(d->L, -1);
	lua_pop(d->L, 2);
	if (hook && !call_demo(d->L, d->demo_ref, "edited", 0, 0)) d->failed = true;
	// The query point may now be in the wall: move it to the nearest free cell centre around.
	for (int radius = 0; radius < 4 && gtMap_CheckPoint(d->map, (gtVec2){d->qx, d->qy}) != GT_POINT_VALID; radius++)
		for (int j = -radius; j <= radius; j++)
			for (int i = -radius; i <= radius; i++)
				if (cx + i >= 0 && cy + j >= 0 && cx + i < w && cy + j < h && !gtMap_IsBlocked(d->map, cx + i, cy + j) &&
				    gtMap_CheckPoint(d->map, (gtVec2){d->qx, d->qy}) != GT_POINT_VALID)
					d->qx = cx + i + 0.5, d->qy = cy + j + 0.5;
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
		else if (k == SDLK_EQUALS || k == SDLK_PLUS || k == SDLK_KP_PLUS) d->o.k = d->o.k < MAX_K ? d->o.k + 1 : MAX_K;
		else if (k == SDLK_MINUS || k == SDLK_KP_MINUS) d->o.k = d->o.k > 1 ? d->o.k - 1 : 1;
		else if (k >= SDLK_1 && k < SDLK_1 + LAYERS) d->layers[k - SDLK_1] = !d->layers[k - SDLK_1];
		else if (k == SDLK_t) toggle_wall(d);
		else if (k == SDLK_l) { // rebuild the tree live with another leaf size
			int leaf = shift ? d->o.leaf * 2 : d->o.leaf / 2;
			if (leaf >= 1 && leaf <= 1024) {
				lua_pushinteger(L, leaf);
				if (call_demo(L, d->demo_ref, "set_leaf", 1, 0)) d->o.leaf = leaf;
				if (!fetch_objects(d)) d->failed = true, *running = false; // the new world, or none
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

// Everything the demo holds besides SDL and Lua (whose objects Lua frees); safe on a partly set
// up Demo.
static void demo_free(Demo* d)
{
	free(d->found), free(d->found_d);
	free(d->path_points), free(d->path_start), free(d->path_count);
	free(d->trace_storage), free(d->vias);
}

// The C side's buffers, once the script has placed its agents: sized now, so frames allocate
// nothing.
static bool demo_setup(Demo* d)
{
	if (!fetch_objects(d)) return false;
	d->path_capacity = gtNav_PathCapacity(d->nav) * 8;
	d->path_points = calloc((size_t)d->path_capacity, sizeof *d->path_points);
	d->trace_storage = calloc(TRACE_CAPACITY, sizeof *d->trace_storage);
	d->vias = calloc(VIA_CAPACITY, sizeof *d->vias);
	int objects = gtWorld_Count(d->world);
	if (!d->path_points || !d->trace_storage || !d->vias) {
		fprintf(stderr, "gridtree-demo: out of memory\n");
		return false;
	}
	if (!reserve_answers(d, objects > MAX_K ? objects : MAX_K)) return false;
	d->trace = gtDebugTrace_Make(d->trace_storage, TRACE_CAPACITY);
	return true;
}

int main(int argc, char** argv)
{
	Demo d;
	memset(&d, 0, sizeof d);
	bool help;
	if (!parse(argc, argv, &d.o, &help)) {
		fprintf(stderr, "%s", USAGE);
		return 2;
	}
	if (help) {
		printf("%s", USAGE);
		return 0;
	}
	if (d.o.headless) {
		SDL_setenv("SDL_VIDEODRIVER", "dummy", 1);
		SDL_setenv("SDL_RENDER_DRIVER", "software", 1);
	}
	// Lua first: the script's map is the demo's map, and its nav gets the one index.
	int status = 1;
	SDL_Window* window = NULL;
	SDL_Renderer* r = NULL;
	SDL_Texture* map_texture = NULL;
	bool sdl = false;
	d.demo_ref = d.map_ref = LUA_NOREF;
	d.L = luaL_newstate();
	if (!d.L) {
		fprintf(stderr, "gridtree-demo: cannot create a Lua state\n");
		goto done;
	}
	if (!start_lua(d.L, &d.o, &d.demo_ref, &d.map_ref)) goto done;
	lua_rawgeti(d.L, LUA_REGISTRYINDEX, d.map_ref);
	gtNav* nav = gtLua_ToNav(d.L, -1);
	lua_pop(d.L, 1);
	char index[1300];
	index_path(&d.o, index, sizeof index);
	if (!nav || !load_or_build_index(nav, &d.o, index)) goto done;
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "gridtree-demo: SDL: %s (try --headless)\n", SDL_GetError());
		goto done;
	}
	sdl = true;
	const int size = 800;
	window = SDL_CreateWindow("gridtree demo", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, size, size, 0);
	r = window ? SDL_CreateRenderer(window, -1, d.o.headless ? SDL_RENDERER_SOFTWARE : 0) : NULL;
	if (!r) {
		fprintf(stderr, "gridtree-demo: cannot open a window or renderer: %s\n", SDL_GetError());
		goto done;
	}
	if (!start_agents(d.L, &d.o, d.demo_ref, d.map_ref) || !demo_setup(&d)) goto done;
	const gtMap* map = d.map;
	d.sdl = (SdlDebugDraw){r, &d.view};
	d.draw = sdl_debug_draw(&d.sdl);
	map_texture = draw_map_texture(r, map);
	fit_view(&d, size);
	for (int i = 0; i < LAYERS; i++) d.layers[i] = strchr(d.o.layers, '1' + i) != NULL;
	int mw = gtMap_Width(map), mh = gtMap_Height(map);
	d.qx = mw / 2.0, d.qy = mh / 2.0; // the query point: the mouse, or the centre headless
	for (int tries = 0; tries < 1000 && gtMap_CheckPoint(map, (gtVec2){d.qx, d.qy}) != GT_POINT_VALID; tries++)
		d.qx = fmod(d.qx + 7.31, mw), d.qy = fmod(d.qy + 3.17, mh);
	Frame total = {0};
	bool running = true, paused = false, step = false, help_shown = false, dragging = false;
	int speed = 1;
	double start = now();
	int frame = 0, ticks = 0;
	while (running && (d.o.frames == 0 || frame < d.o.frames)) {
		SDL_Event e;
		if (d.o.keys[0]) push_scripted_input(*d.o.keys++);
		while (SDL_PollEvent(&e)) handle_event(&d, &e, &running, &paused, &step, &speed, &help_shown, &dragging);
		if (!running) break;
		Frame f = {0};
		double t0 = now();
		bool moved = false;
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
			moved = true;
		}
		step = false;
		f.lua_s = now() - t0;
		if (d.nav && gtNav_Update(d.nav)) d.map_dirty = true; // a background rebuild landed
		if (d.failed) goto done;
		if (d.map_dirty) {
			SDL_DestroyTexture(map_texture);
			map_texture = draw_map_texture(r, map);
			d.map_dirty = false;
			if (!fetch_objects(&d)) goto done;
		}
		if (moved && !fetch_objects(&d)) goto done; // the script may have replaced its world
		double t1 = now();
		SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
		SDL_SetRenderDrawColor(r, 12, 12, 16, 255);
		SDL_RenderClear(r);
		SDL_FRect dst = {(float)d.view.offset_x, (float)d.view.offset_y, (float)(mw * d.view.scale), (float)(mh * d.view.scale)};
		SDL_RenderCopyF(r, map_texture, NULL, &dst);
		if (d.layers[LAYER_CELLS]) draw_cells(&d);
		if (d.layers[LAYER_LEAVES]) gtDebugDraw_WorldLeafGrid(&d.draw, d.world);
		if (d.layers[LAYER_VERTICES]) draw_vertices(&d);
		bool queried = run_query(&d, &f);
		if (queried && d.layers[LAYER_TREE]) {
			int height;
			int64_t nodes;
			gtWorld_TreeSize(d.world, &height, &nodes);
			gtDebugDraw_Trace(&d.draw, &d.trace, height);
		}
		if (d.layers[LAYER_AGENTS]) draw_agents(r, &d); // agents over the tree shading
		if (queried) draw_query(&d, &f);
		SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
		char hud[320];
		double elapsed = now() - start;
		snprintf(hud, sizeof hud, "FPS %.0f  UPDATE %.0f US  LUA %.1f MS  QUERY %.0f US  CALLS %lld  NODES %lld", frame > 0 ? frame / elapsed : 0.0,
		         f.move_s * 1e6, f.lua_s * 1e3, f.query_s * 1e6, f.distance_calls, f.nodes);
		SDL_SetRenderDrawColor(r, 240, 240, 240, 255);
		draw_text(r, 8, 8, 2, hud);
		snprintf(hud, sizeof hud, "%s K %d  KEYWORDS %s  LEAF %d  AGENTS %d%s%s", KINDS[d.kind], d.o.k,
		         d.filter ? FILTERS[d.filter] : "ANY", d.o.leaf, d.o.agents, paused ? "  PAUSED" : "", speed > 1 ? "  4X" : "");
		draw_text(r, 8, 22, 2, hud);
		draw_legend(r, &d, help_shown);
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
			       count_colours(shot), agents, count_colour(shot, 0xFF000000u | (QUERY_MARKER >> 8)));
			SDL_FreeSurface(shot);
		}
		SDL_RenderPresent(r);
	}
	double elapsed = now() - start, frames = frame ? frame : 1;
	// The split of a frame: script total (of which the bulk index update and the script's queries),
	// the query under the mouse, drawing.
	printf("frames %d\nfps %.1f\nlua_ms_per_frame %.3f\nupdate_ms_per_frame %.3f\nscript_queries_per_frame %.1f\n"
	       "script_queries_ms_per_frame %.3f\nmouse_query_us %.1f\ndraw_ms_per_frame %.3f\nmap_edits %d\nchecksum %016llx\n",
	       frame, frame / elapsed, total.lua_s * 1e3 / frames, total.move_s * 1e3 / frames, total.queries / frames,
	       total.script_query_s * 1e3 / frames, total.query_s * 1e6 / frames, total.draw_s * 1e3 / frames, d.edits,
	       checksum(d.L, d.demo_ref));
	status = d.failed ? 1 : 0;
done:
	if (map_texture) SDL_DestroyTexture(map_texture);
	if (d.L) lua_close(d.L);
	if (r) SDL_DestroyRenderer(r);
	if (window) SDL_DestroyWindow(window);
	if (sdl) SDL_Quit();
	demo_free(&d);
	return status;
}
