// gridtree-demo: agents scripted in Lua walk a map, chasing, following and fleeing their nearest
// targets; the query under the mouse shows its k nearest agents by walking distance, their paths
// and the search's circle; a side panel explains it all. Headless mode renders without a window
// and writes a PNG or a recording (see docs/demo.md). Every library layer is drawn by the library
// through gt_debug_draw.h; the demo only turns its callbacks into SDL calls (draw.c). This file:
// options, start-up and the frame loop.
#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <SDL.h>
#include <SDL_image.h>

#include "demo.h"
#include "gridtree/gridtree.h"
#include "gridtree/gt_lua.h" // the binding is compiled in: the demo reaches the script's objects

const Uint32 KIND_COLOURS[KIND_COUNT + 1] = {0xFF4F8BFF, 0xFF6FD36F, 0xFFFF8AD8, 0xFFE0453A,
                                             0xFFF0A030, 0xFFB26BE0, 0xFFB0B0B0};
const char* const LAYER_NAMES[LAYERS] = {"1 AGENTS",    "2 QUERY",    "3 TREE NODES",
                                         "4 LEAF GRID", "5 VERTICES", "6 EHL CELLS"};
const char* const QUERY_KINDS[3] = {"NEAREST", "WITHIN", "TOP"};
const char* const FILTERS[FILTER_COUNT] = {"", "healer", "elf", "orc", "enemy", "big"};

static bool exists(const char* path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

// The repository root: the executable's folder's parent (bin/) or grandparent (bin/debug/),
// whichever holds demo/scripts/agents.lua; else the current directory. So the demo finds its script,
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
			snprintf(probe, sizeof probe, "%s/demo/scripts/agents.lua", root[0] ? root : "/");
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
    "usage: gridtree-demo [MAP] [--agents N] [--crowd] [--mesh FILE.mesh] [--size WxH] [--index FILE] [--leaf m]\n"
    "                     [--cell g] [--script FILE.lua] [--seed S] [--layers 123456] [--keys INPUT]\n"
    "                     [--headless --frames N --screenshot out.png] [--record out.png --record-every N]\n"
    "Agents scripted in Lua walk MAP (default: $GRIDTREE_DATA/maps/bgmaps/AR0602SR.map, else the bundled\n"
    "assets/maps/keep.map), chasing, following and fleeing their nearest targets; the query under the mouse\n"
    "shows its k nearest agents, their walking paths and the tree nodes it opened. --crowd draws every\n"
    "agent's chosen target; --mesh is the navigation mesh the b key switches to (default: the map's shared\n"
    "Polyanya mesh, else one made from the map); --record writes an animated PNG of every N-th frame.\n"
    "Until the mouse moves or a key is pressed, the query is one chosen at start (with --seed) whose answers\n"
    "include a path round a wall; the straight-line nearest it passed over are drawn faded and dashed.\n"
    "Without a display, pass --headless (the run's summary then names the map, the index and the answers).\n"
    "The EHL index is cached in build/<map>-g<cell>.ehl of the repository. docs/demo.md says more.\n";

// The shared data's Polyanya mesh of a shared map (.../maps/S/NAME.map -> .../meshes/S/NAME-merged.mesh).
static const char* shared_mesh(const char* map)
{
	static char path[1200];
	const char* at = strstr(map, "/maps/");
	size_t len = strlen(map);
	if (!at || len < 4 || strcmp(map + len - 4, ".map") != 0) return NULL;
	snprintf(path, sizeof path, "%.*s/meshes/%.*s-merged.mesh", (int)(at - map), map,
	         (int)(len - 4 - (size_t)(at + 6 - map)), at + 6);
	return exists(path) ? path : NULL;
}

static bool parse(int argc, char** argv, Options* o, bool* help)
{
	*o = (Options){
	    .layers = "123", .keys = "", .agents = 2000, .leaf = 16, .cell = 4, .k = 5, .record_every = 4, .seed = 1};
	*help = false;
	for (int i = 1; i < argc; i++) {
		const char* a = argv[i];
		const char* v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			*help = true;
			return true;
		}
		if (strcmp(a, "--headless") == 0) {
			o->headless = true;
			continue;
		}
		if (strcmp(a, "--crowd") == 0) {
			o->crowd = true;
			continue;
		}
		if (a[0] != '-') {
			o->map = a;
			continue;
		}
		if (!v) {
			fprintf(stderr, "gridtree-demo: %s needs a value\n", a);
			return false;
		}
		i++;
		if (strcmp(a, "--index") == 0) o->index = v;
		else if (strcmp(a, "--script") == 0) o->script = v;
		else if (strcmp(a, "--screenshot") == 0) o->screenshot = v;
		else if (strcmp(a, "--record") == 0) o->record = v;
		else if (strcmp(a, "--mesh") == 0) o->mesh = v;
		else if (strcmp(a, "--layers") == 0) o->layers = v; // digits of the layers shown at start
		else if (strcmp(a, "--keys") == 0) o->keys = v;     // scripted input, one event per frame
		else if (strcmp(a, "--agents") == 0) o->agents = atoi(v);
		else if (strcmp(a, "--leaf") == 0) o->leaf = atoi(v);
		else if (strcmp(a, "--cell") == 0) o->cell = atoi(v);
		else if (strcmp(a, "--frames") == 0) o->frames = atoi(v);
		else if (strcmp(a, "--record-every") == 0) o->record_every = atoi(v);
		else if (strcmp(a, "--seed") == 0) o->seed = atol(v);
		else if (strcmp(a, "--size") == 0) {
			if (sscanf(v, "%dx%d", &o->width, &o->height) != 2 || o->width < PANEL_WIDTH + 100 || o->height < 300 ||
			    o->width > 16384 || o->height > 16384) {
				fprintf(stderr, "gridtree-demo: --size is WIDTHxHEIGHT, at least %dx300\n", PANEL_WIDTH + 100);
				return false;
			}
		} else {
			fprintf(stderr, "gridtree-demo: unknown option %s\n", a);
			return false;
		}
	}
	if (!o->map) o->map = default_map();
	if (!o->mesh) o->mesh = shared_mesh(o->map);
	static char script[1200];
	if (!o->script) o->script = in_root("demo/scripts/agents.lua", script, sizeof script);
	if (o->agents < 1 || o->agents > MAX_AGENTS || o->leaf < 1 || o->cell < 1 || o->frames < 0 || o->record_every < 1) {
		fprintf(stderr, "gridtree-demo: --agents, --leaf, --cell and --record-every must be positive, --frames >= 0\n");
		return false;
	}
	if ((o->headless || o->record) && o->frames == 0) o->frames = 60;
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
static bool load_or_build_index(gtNav* nav, const Options* o, const char* path, char* source, size_t size)
{
	gtError err;
	if (gtNav_LoadIndex(nav, path, &err) == GT_OK) {
		snprintf(source, size, "%s (EHL file, loaded)", path);
		return true;
	}
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
	if (gtNav_SaveIndex(nav, path, &err)) { // the demo still runs, it only builds again next time
		fprintf(stderr, "gridtree-demo: %s (the index is not cached)\n", err.message);
		snprintf(source, size, "EHL built in memory (not cached)");
	} else {
		snprintf(source, size, "%s (EHL built and saved)", path);
	}
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
	static const char* load = "local gridtree = require 'gridtree'\n"
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
	static const char* setup = "local demo, map, leaf, agents, seed = ...\n"
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
bool call_demo(lua_State* L, int demo_ref, const char* name, int args, int results)
{
	lua_rawgeti(L, LUA_REGISTRYINDEX, demo_ref); // args..., demo
	lua_getfield(L, -1, name);                   // args..., demo, fn
	lua_remove(L, -2);                           // args..., fn
	lua_insert(L, -args - 1);                    // fn, args...
	if (lua_pcall(L, args, results, 0) != LUA_OK) {
		fprintf(stderr, "gridtree-demo: demo.%s: %s\n", name, lua_tostring(L, -1));
		lua_pop(L, 1);
		return false;
	}
	return true;
}


// How many agents the script's position tables (at stack indexes a and b) hold: raw lengths, so no
// __len of the script runs outside a protected call, bounded so a broken script cannot stall a frame;
// 0 when either is not a table.
lua_Integer agent_count(lua_State* L, int a, int b)
{
	if (!lua_istable(L, a) || !lua_istable(L, b)) return 0;
	lua_Unsigned n = lua_rawlen(L, a), m = lua_rawlen(L, b);
	n = m < n ? m : n;
	return n > MAX_AGENTS ? MAX_AGENTS : (lua_Integer)n;
}

// The script's objects once it has run (gt_lua.h): the map it was given and demo.world, its
// current world. False, with a message, when the script closed or dropped them.
bool fetch_objects(Demo* d)
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
		gtStatus st = gtNavQuery_Path(d->nav_query, (gtVec2){d->qx, d->qy}, to, d->path_points + d->path_used,
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

// The straight-line nearest (with the query's keywords) that walking distance did not choose:
// nearer as the crow flies, farther on foot. Only for nearest queries, outside the timed query.
static void find_ghosts(Demo* d, const gtQuery* walked)
{
	d->ghost_count = 0;
	if (d->kind != 0 || d->o.k > MAX_K) return;
	gtQuery q = *walked;
	q.trace = NULL, q.trace_context = NULL;
	int n = 0;
	gtError err;
	if (gtWorld_NearestEuclid(d->world, &q, d->euclid_ids, d->euclid_d, MAX_K, &n, NULL, &err)) return;
	for (int i = 0; i < n && d->ghost_count < MAX_GHOSTS; i++) {
		bool chosen = false;
		for (int j = 0; j < d->found_count && !chosen; j++) chosen = d->found[j] == d->euclid_ids[i];
		gtVec2 at;
		if (chosen || gtWorld_GetPosition(d->world, d->euclid_ids[i], &at, &err)) continue;
		bool stacked = false; // agents on the same spot (a follower on its leader) are one ghost
		for (int g = 0; g < d->ghost_count && !stacked; g++)
			stacked = fabs(d->ghost_at[g].x - at.x) + fabs(d->ghost_at[g].y - at.y) < 1;
		if (stacked) continue;
		int g = d->ghost_count++;
		d->ghost_at[g] = at;
		d->ghost_straight[g] = d->euclid_d[i];
		d->ghost_walk[g] = d->distance.fcn(d->distance.context, (gtVec2){d->qx, d->qy}, at);
	}
}

// The query under the mouse, on the script's world with its map's distances (the backend chosen
// with b), traced into the recorder when the tree layer is on; then the paths to its answers.
static bool run_query(Demo* d, Frame* f)
{
	double start = gtNowSeconds();
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
	if (d->kind == 1) {
		q.radius = d->o.k * 10.0;
		st = gtWorld_Within(d->world, &q, d->distance, d->found, d->found_d, d->found_capacity, &d->found_count, &stats,
		                    &err);
	} else if (d->kind == 2) {
		q.k = d->o.k;
		q.miss_cost = 100; // score = 0.5 * distance + 0.5 * 100 * the share of the words missing
		st = gtWorld_TopWeighted(d->world, &q, 0.5, d->distance, d->found, d->found_d, d->found_capacity,
		                         &d->found_count, &stats, &err);
	} else {
		q.k = d->o.k;
		st = gtWorld_Nearest(d->world, &q, d->distance, d->found, d->found_d, d->found_capacity, &d->found_count,
		                     &stats, &err);
	}
	if (st) {
		fprintf(stderr, "gridtree-demo: query: %s\n", err.message);
		d->found_count = d->ghost_count = 0;
		return false;
	}
	d->path_used = 0;
	for (int i = 0; i < d->found_count; i++) {
		gtVec2 to;
		if (gtWorld_GetPosition(d->world, d->found[i], &to, &err)) to = (gtVec2){d->qx, d->qy};
		find_path(d, i, to);
	}
	f->query_s = gtNowSeconds() - start;
	find_ghosts(d, &q);
	d->backend_query_us[gtNav_Method(d->nav) == GT_NAV_POLYANYA] = f->query_s * 1e6;
	f->distance_calls = (long long)stats.distance_calls, f->nodes = (long long)stats.nodes_popped;
	f->kth = d->kind == 1 ? d->o.k * 10.0 : d->found_count > 0 ? d->found_d[d->found_count - 1] : 0;
	return true;
}

enum { TRACE_CAPACITY = 1 << 16, VIA_CAPACITY = 1 << 13 };

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

// Pixels of a colour in the picture's first `width` columns, the map (the tests check the layers
// are there; the panel's legend uses the same colours).
static long count_colour(SDL_Surface* s, int width, Uint32 colour)
{
	long n = 0;
	for (int y = 0; y < s->h; y++)
		for (int x = 0; x < width && x < s->w; x++)
			n += (((Uint32*)((Uint8*)s->pixels + y * s->pitch))[x] | 0xFF000000u) == colour;
	return n;
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

static double number_field(lua_State* L, int table, const char* name)
{
	lua_getfield(L, table, name);
	double v = lua_tonumber(L, -1);
	lua_pop(L, 1);
	return v;
}

// One script frame: demo.update, and the figures it leaves in demo (move and query time, paths
// planned, the crowd's targeting budget).
static bool script_frame(Demo* d, int tick, Frame* f)
{
	lua_pushinteger(d->L, tick);
	if (!call_demo(d->L, d->demo_ref, "update", 1, 1)) return false;
	f->queries += (int)lua_tointeger(d->L, -1);
	lua_pop(d->L, 1);
	lua_rawgeti(d->L, LUA_REGISTRYINDEX, d->demo_ref);
	f->move_s += number_field(d->L, -1, "move_seconds");
	f->script_query_s += number_field(d->L, -1, "query_seconds");
	f->plan_s += number_field(d->L, -1, "plan_seconds");
	f->plans += (int)number_field(d->L, -1, "plans");
	d->link_crossings = (int)number_field(d->L, -1, "link_crossings");
	d->teleports = (int)number_field(d->L, -1, "teleports");
	d->teleported_elsewhere = (int)number_field(d->L, -1, "teleported_elsewhere");
	lua_getfield(d->L, -1, "crowd");
	if (lua_istable(d->L, -1)) {
		d->retargets = (int)number_field(d->L, -1, "retargets");
		d->served = (int)number_field(d->L, -1, "served");
		d->targeting = (int)number_field(d->L, -1, "agents");
		d->stalest = (int)number_field(d->L, -1, "stalest");
	}
	lua_pop(d->L, 2);
	read_separation(d);
	return true;
}

// The map's file name without folder and extension, for the panel.
static void name_map(Demo* d)
{
	const char* base = strrchr(d->o.map, '/');
	base = base ? base + 1 : d->o.map;
	snprintf(d->map_name, sizeof d->map_name, "%s", base);
	char* dot = strrchr(d->map_name, '.');
	if (dot && dot != d->map_name) *dot = '\0';
}

// The map picture for the current view, made again when the view, the window or the map changed.
static bool refresh_map_picture(Demo* d, SDL_Texture** picture, View* drawn, int* drawn_w, int* drawn_h)
{
	int w = map_view_width(d), h = d->window_h;
	if (*picture && !d->map_dirty && drawn->scale == d->view.scale && drawn->offset_x == d->view.offset_x &&
	    drawn->offset_y == d->view.offset_y && *drawn_w == w && *drawn_h == h)
		return true;
	if (*picture) SDL_DestroyTexture(*picture);
	*picture = draw_map_view(d->renderer, d->map, &d->view, w, h);
	*drawn = d->view, *drawn_w = w, *drawn_h = h;
	d->map_dirty = false;
	if (!*picture) fprintf(stderr, "gridtree-demo: cannot draw the map: %s\n", SDL_GetError());
	return *picture != NULL;
}

static void draw_frame(Demo* d, SDL_Texture* map_texture, Frame* f, double fps, bool paused, int speed)
{
	SDL_Renderer* r = d->renderer;
	SDL_Rect view = {0, 0, map_view_width(d), d->window_h};
	SDL_RenderSetClipRect(r, &view);
	SDL_RenderCopy(r, map_texture, NULL, &view);
	draw_doors(d);
	draw_links(d);
	if (d->layers[LAYER_CELLS]) draw_cells_layer(&d->draw, d->nav, d->qx, d->qy, d->vias, VIA_CAPACITY);
	if (d->layers[LAYER_LEAVES]) gtDebugDraw_WorldLeafGrid(&d->draw, d->world);
	if (d->layers[LAYER_VERTICES]) draw_vertices_layer(&d->draw, d->map, d->qx, d->qy);
	bool queried = run_query(d, f);
	if (queried && d->layers[LAYER_TREE]) {
		int height;
		int64_t nodes;
		gtWorld_TreeSize(d->world, &height, &nodes);
		gtDebugDraw_Trace(&d->draw, &d->trace, height);
	}
	if (d->crowd && d->layers[LAYER_AGENTS]) draw_targets(d);
	if (d->layers[LAYER_AGENTS]) draw_agents(d); // agents over the tree shading
	if (queried) draw_query(d, f);
	SDL_RenderSetClipRect(r, NULL);
	draw_panel(d, f, fps, paused, speed);
}

// SDL's video, or false with a message. Without --headless a display must be there: SDL falls
// back to its offscreen driver when none is, where a window is never seen (unless the user chose
// that driver with SDL_VIDEODRIVER).
static bool start_sdl(const Options* o)
{
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		if (o->headless) fprintf(stderr, "gridtree-demo: SDL: %s\n", SDL_GetError());
		else
			fprintf(stderr, "gridtree-demo: no display (SDL_Init failed: %s); pass --headless to render to a PNG\n",
			        SDL_GetError());
		return false;
	}
	const char* driver = SDL_GetCurrentVideoDriver();
	const char* chosen = SDL_getenv("SDL_VIDEODRIVER");
	bool invisible = driver && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0);
	if (!o->headless && invisible && !(chosen && *chosen)) {
		fprintf(stderr,
		        "gridtree-demo: no display (DISPLAY and WAYLAND_DISPLAY %s; SDL found only its '%s' video driver); "
		        "pass --headless "
		        "to render to a PNG\n",
		        getenv("DISPLAY") || getenv("WAYLAND_DISPLAY") ? "set but not reachable" : "unset", driver);
		SDL_Quit();
		return false;
	}
	return true;
}

// What the run showed: the map and the index (or mesh) the distances came from, and the last
// frame's query: its answers, how many of their paths bend round a wall (have an interior vertex)
// and how many straight-line nearest it passed over.
static void print_query_summary(const Demo* d)
{
	printf("map %s\nindex %s\n", d->o.map, d->index_source);
	if (d->backend.mesh_current) printf("mesh %s\n", d->backend.mesh_source);
	int bent = 0;
	for (int i = 0; i < d->found_count; i++) bent += d->path_count[i] > 2;
	printf("query %s k %d keyword %s at %.2f %.2f (%s)\n",
	       d->kind == 1   ? "within"
	       : d->kind == 2 ? "top"
	                      : "nearest",
	       d->o.k, d->filter ? FILTERS[d->filter] : "any", d->qx, d->qy,
	       d->auto_query
	           ? (d->showcase_level > 0 ? "start query, chosen to bend round a wall" : "start query, no bend found")
	           : "the user's");
	printf("answers %d bent_paths %d\nstraight_line_ghosts %d\nlabels %d overlapping %d\nstart_query_searches %d in "
	       "%.1f ms\n",
	       d->found_count, bent, d->ghost_count, d->labels, d->crowded_labels, d->searches, d->search_ms);
}

// A run's window, map picture and frame loop state, beside the Demo the modules share.
typedef struct Run {
	SDL_Window* window;
	SDL_Texture* map_texture;
	View drawn_view; // the view, and the size, the map picture was drawn for
	int drawn_w, drawn_h;
	Frame total;
	bool running, paused, step, dragging;
	int speed, recorded, record_w, record_h;
	double start, last_draw_s;
	int frame, ticks;
} Run;

// Lua before any window: the script's map is the demo's map, and its nav gets the one index.
static bool start_script(Demo* d)
{
	d->demo_ref = d->map_ref = LUA_NOREF;
	d->L = luaL_newstate();
	if (!d->L) {
		fprintf(stderr, "gridtree-demo: cannot create a Lua state\n");
		return false;
	}
	if (!start_lua(d->L, &d->o, &d->demo_ref, &d->map_ref)) return false;
	lua_rawgeti(d->L, LUA_REGISTRYINDEX, d->map_ref);
	d->nav = gtLua_ToNav(d->L, -1);
	d->map = gtLua_ToMap(d->L, -1);
	lua_pop(d->L, 1);
	char index[1300];
	index_path(&d->o, index, sizeof index);
	if (!d->nav || !d->map || !load_or_build_index(d->nav, &d->o, index, d->index_source, sizeof d->index_source))
		return false;
	d->backend.mesh_file = d->o.mesh;
	d->door_count = find_doors(d->nav,
	                           d->doors); // before the agents: the script plans on the map with its doors declared
	return true;
}

// The window (sized to the display unless --size says) and its renderer.
static bool open_window(Demo* d, Run* run)
{
	int width = d->o.width, height = d->o.height;
	SDL_Rect usable;
	if (!width && !d->o.headless && SDL_GetDisplayUsableBounds(0, &usable) == 0 && usable.w > 800 && usable.h > 600)
		width = usable.w * 9 / 10, height = usable.h * 9 / 10; // sized to the display
	if (!width) width = 1280, height = 800;
	run->window = SDL_CreateWindow("gridtree demo", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height,
	                               SDL_WINDOW_RESIZABLE);
	d->renderer = run->window ? SDL_CreateRenderer(run->window, -1, d->o.headless ? SDL_RENDERER_SOFTWARE : 0) : NULL;
	if (!d->renderer) {
		fprintf(stderr, "gridtree-demo: cannot open a window or renderer: %s\n", SDL_GetError());
		return false;
	}
	SDL_SetWindowMinimumSize(run->window, PANEL_WIDTH + 100, 300);
	SDL_GetRendererOutputSize(d->renderer, &d->window_w, &d->window_h);
	return true;
}

// The agents, the layers, and the start query: a point whose answer is reached round a wall,
// searched for with the run's seed (else a free point near the map's centre).
static bool start_scene(Demo* d)
{
	if (!start_agents(d->L, &d->o, d->demo_ref, d->map_ref) || !demo_setup(d)) return false;
	const gtMap* map = d->map;
	d->sdl = (SdlDebugDraw){d->renderer, &d->view};
	d->draw = sdl_debug_draw(&d->sdl);
	fit_whole_map(d);
	for (int i = 0; i < LAYERS; i++) d->layers[i] = strchr(d->o.layers, '1' + i) != NULL;
	int mw = gtMap_Width(map), mh = gtMap_Height(map);
	d->qx = mw / 2.0, d->qy = mh / 2.0; // the query point: the mouse, else the start query
	for (int tries = 0; tries < 1000 && gtMap_CheckPoint(map, (gtVec2){d->qx, d->qy}) != GT_POINT_VALID; tries++)
		d->qx = fmod(d->qx + 7.31, mw), d->qy = fmod(d->qy + 3.17, mh);
	d->auto_query = true;
	d->showcase_rng = (gtRandom){(uint64_t)d->o.seed ^ 0x5EA5C0DEull};
	if (!showcase_search(d, false))
		fprintf(stderr,
		        "gridtree-demo: no query point on %s has an answer round a wall (open floor, or too few agents): "
		        "starting at the map's centre\n",
		        d->map_name);
	return true;
}

// --record: every record_every-th frame to a PNG, all of one size. False when writing failed.
static bool record_step(Demo* d, Run* run)
{
	if (!d->o.record || run->frame % d->o.record_every != 0) return true;
	if (run->recorded == 0) run->record_w = d->window_w, run->record_h = d->window_h;
	if (d->window_w != run->record_w || d->window_h != run->record_h)
		return true; // an animation has one size: frames of another are left out
	if (!record_frame(d->renderer, d->window_w, d->window_h, d->o.record, run->recorded)) {
		finish_recording(d->o.record, run->recorded, d->o.record_every); // removes the frames written
		return false;
	}
	run->recorded++;
	return true;
}

// --screenshot: the last frame, read back before presenting, with the counts the tests check.
static bool screenshot_step(Demo* d, const Run* run)
{
	if (!(d->o.frames > 0 && run->frame == d->o.frames && d->o.screenshot)) return true;
	SDL_Surface* shot = NULL;
	if (!save_screenshot(d->renderer, d->window_w, d->window_h, d->o.screenshot, &shot)) return false;
	long agents = 0;
	for (int k = 0; k < KIND_COUNT; k++) agents += count_colour(shot, map_view_width(d), KIND_COLOURS[k]);
	printf("screenshot %s\nsize %dx%d\ncolours %d\nagent_pixels %ld\nquery_marker_pixels %ld\n", d->o.screenshot,
	       d->window_w, d->window_h, count_colours(shot), agents,
	       count_colour(shot, map_view_width(d), 0xFF000000u | (QUERY_MARKER >> 8)));
	SDL_FreeSurface(shot);
	return true;
}

// One frame: input, the script's ticks, the query, drawing, recording. False on a failure.
static bool frame_step(Demo* d, Run* run)
{
	SDL_Event e;
	if (d->o.keys[0]) push_scripted_input(d, *d->o.keys++);
	while (SDL_PollEvent(&e)) handle_event(d, &e, &run->running, &run->paused, &run->step, &run->speed, &run->dragging);
	if (!run->running) return true;
	SDL_GetRendererOutputSize(d->renderer, &d->window_w, &d->window_h);
	if ((SDL_GetWindowFlags(run->window) & SDL_WINDOW_MINIMIZED) || d->window_h < 1) { // nothing to draw into
		SDL_Delay(16);
		return true;
	}
	Frame f = {0};
	double t0 = gtNowSeconds();
	bool moved = false;
	for (int s = 0; s < run->speed && (!run->paused || run->step); s++, run->ticks++) {
		if (!script_frame(d, run->ticks, &f)) return false;
		moved = true;
	}
	run->step = false;
	f.lua_s = gtNowSeconds() - t0;
	if (d->nav && gtNav_Update(d->nav)) d->map_dirty = true; // a background rebuild landed
	if (d->failed) return false;
	if ((d->map_dirty || moved) && !fetch_objects(d)) return false; // the script may have replaced its world
	double t1 = gtNowSeconds(), elapsed = gtNowSeconds() - run->start;
	if (showcase_keep(d, run->frame)) d->framed = false; // the agents' moves lost the bend: a new start query, in view
	if (!d->framed && !d->o.record && run_query(d, &f)) frame_query(d); // the start view: the query and its answers
	if (!refresh_map_picture(d, &run->map_texture, &run->drawn_view, &run->drawn_w, &run->drawn_h)) return false;
	f.draw_s = run->last_draw_s; // the panel shows the last frame's drawing time
	draw_frame(d, run->map_texture, &f, run->frame > 0 ? run->frame / elapsed : 0.0, run->paused, run->speed);
	f.draw_s = run->last_draw_s = gtNowSeconds() - t1 - f.query_s;
	run->frame++;
	Frame* total = &run->total;
	total->lua_s += f.lua_s, total->move_s += f.move_s, total->query_s += f.query_s, total->draw_s += f.draw_s;
	total->script_query_s += f.script_query_s, total->plan_s += f.plan_s;
	total->queries += f.queries, total->plans += f.plans;
	if (!record_step(d, run) || !screenshot_step(d, run)) return false;
	SDL_RenderPresent(d->renderer);
	return true;
}

// The split of a frame: script total (of which the bulk index update, the script's targeting
// queries and its path planning), the query under the mouse, drawing; then the query's summary.
static void print_run_summary(Demo* d, const Run* run)
{
	double elapsed = gtNowSeconds() - run->start, frames = run->frame ? run->frame : 1;
	const Frame* total = &run->total;
	printf("frames %d\nfps %.1f\nlua_ms_per_frame %.3f\nupdate_ms_per_frame %.3f\nscript_queries_per_frame %.1f\n"
	       "script_queries_ms_per_frame %.3f\npaths_per_frame %.1f\npaths_ms_per_frame %.3f\nmouse_query_us %.1f\n"
	       "draw_ms_per_frame %.3f\nmap_edits %d\ndoors %d\nbackend %s\nchecksum %016llx\n",
	       run->frame, run->frame / elapsed, total->lua_s * 1e3 / frames, total->move_s * 1e3 / frames,
	       total->queries / frames, total->script_query_s * 1e3 / frames, total->plans / frames,
	       total->plan_s * 1e3 / frames, total->query_s * 1e6 / frames, total->draw_s * 1e3 / frames, d->edits,
	       d->door_count, gtNav_Method(d->nav) == GT_NAV_POLYANYA ? "polyanya" : "ehl", checksum(d->L, d->demo_ref));
	if (d->o.record) printf("recording %s\nrecorded_frames %d\n", d->o.record, run->recorded);
	if (gtNav_LinkCount(d->nav) > 0) // agents crossing floors (a Tiled level of floors, docs/links.md)
		printf("floors %d\nlinks %d\nlink_crossings %d\nteleports %d\nteleported_elsewhere %d\n",
		       gtNav_FloorCount(d->nav), gtNav_LinkCount(d->nav), d->link_crossings, d->teleports,
		       d->teleported_elsewhere);
	print_spacing(d);
	print_query_summary(d);
}

// Frames until --frames, or until the window closes. False on a failure.
static bool run_frames(Demo* d, Run* run)
{
	run->running = true, run->speed = 1;
	run->start = gtNowSeconds();
	while (run->running && (d->o.frames == 0 || run->frame < d->o.frames))
		if (!frame_step(d, run)) return false;
	if (d->o.record && !finish_recording(d->o.record, run->recorded, d->o.record_every)) return false;
	print_run_summary(d, run);
	return !d->failed;
}

static void stop(Demo* d, Run* run)
{
	free_sprites(d);
	if (run->map_texture) SDL_DestroyTexture(run->map_texture);
	if (d->L) lua_close(d->L);
	if (d->renderer) SDL_DestroyRenderer(d->renderer);
	if (run->window) SDL_DestroyWindow(run->window);
	SDL_Quit();
	demo_free(d);
}

int main(int argc, char** argv)
{
	static Demo d;
	Run run;
	memset(&run, 0, sizeof run);
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
	// SDL first: without a display a window would never be seen and the demo would run forever.
	if (!start_sdl(&d.o)) return 1;
	name_map(&d);
	d.crowd = d.o.crowd;
	bool ok = start_script(&d) && open_window(&d, &run) && start_scene(&d) && run_frames(&d, &run);
	stop(&d, &run);
	return ok ? 0 : 1;
}
