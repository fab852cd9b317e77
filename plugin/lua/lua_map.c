/* The map object (gridtree.Map): gridtree.new_map, the index, edits, doors, units, distances. */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"
#include "lua_map_cells.h"

void lgt_map_release(LMap* m)
{
	if (!m->closed || m->worlds > 0 || m->building > 0 || !m->map) return;
	gtNavQuery_Destroy(m->query);
	gtNav_Destroy(m->nav);
	gtMap_Destroy(m->map);
	m->query = NULL, m->nav = NULL, m->map = NULL; /* the buffers stay with the object (rule 3) */
}

LMap* lgt_check_map(lua_State* L, int i)
{
	LMap* m = luaL_checkudata(L, i, MAP_TYPE);
	if (m->closed || !m->map) luaL_argerror(L, i, "map is closed");
	return m;
}

/* A new map object, closed until lgt_open_map gives it a map: pushed first, so that running out of
** memory for it leaks nothing. */
LMap* lgt_new_map_object(lua_State* L)
{
	LMap* m = lua_newuserdatauv(L, sizeof *m, MAP_SLOTS); /* map */
	memset(m, 0, sizeof *m);
	m->closed = 1;
	m->unit_scale = 1;
	lgt_newslots(L, -1, MAP_SLOTS);
	luaL_setmetatable(L, MAP_TYPE);
	return m;
}

/* Hands `map` to the object (which then owns it) and opens it. */
void lgt_open_map(lua_State* L, LMap* m, gtMap* map)
{
	m->map = map;
	gtError err;
	if (gtNav_Create(m->map, NULL, &m->nav, &err) || gtNavQuery_Create(m->nav, &m->query, &err)) {
		lgt_map_release(m);
		luaL_error(L, "gridtree: %s", err.message);
	}
	m->closed = 0;
}

/* map:set_units(scale [, x0, y0]): game units; see LMap. */
static bool valid_units(double scale, double x0, double y0)
{
	return scale >= 1e-6 && scale <= 1e9 && isfinite(x0) && isfinite(y0) && fabs(x0) <= 1e15 && fabs(y0) <= 1e15;
}

int lgt_new_map(lua_State* L)
{
	lua_Integer width = luaL_checkinteger(L, 1), height = luaL_checkinteger(L, 2);
	if (width < 1 || width > GT_MAP_MAX_SIDE) lgt_arg_errorf(L, 1, "width must be from 1 to %d", GT_MAP_MAX_SIDE);
	if (height < 1 || height > GT_MAP_MAX_SIDE) lgt_arg_errorf(L, 2, "height must be from 1 to %d", GT_MAP_MAX_SIDE);
	if ((uint64_t)width * (uint64_t)height > GT_MAP_MAX_CELLS)
		lgt_arg_errorf(L, 2, "width * height must be at most %d cells", (int)GT_MAP_MAX_CELLS);
	if (lua_isnoneornil(L, 3)) luaL_argerror(L, 3, "cells expected (a string of rows, a table or a function(x, y))");
	lua_settop(L, 3);
	/* The cells in a userdata: collected with it if reading them raises. */
	unsigned char* cells = lua_newuserdatauv(L, (size_t)width * (size_t)height, 0); /* w, h, cells, buffer */
	lgt_read_cells(L, 3, (int)width, (int)height, cells);
	LMap* m = lgt_new_map_object(L); /* ..., buffer, map */
	gtMap* map;
	gtError err;
	if (gtMap_FromCells((int)width, (int)height, cells, &map, &err)) return luaL_error(L, "gridtree: %s", err.message);
	lgt_open_map(L, m, map);
	return 1;
}

/* ---- map methods ------------------------------------------------------------------------------- */

/* The build runs worker threads: a Lua error must not unwind through it. The callback runs
** protected, and so does everything that may allocate (the stage string): progress_call is
** called through lua_pcall with the callback and the record. The first error is kept and
** raised once the build has returned. */
typedef struct Progress {
	lua_State* L;
	int call_at; /* stack index of progress_call, then the callback above it */
	int failed;
	const char* stage;
	double fraction;
	char message[256];
	gtNav* nav; /* whose build the first error cancels (it keeps the index it had) */
} Progress;

static int progress_call(lua_State* L)
{
	const Progress* p = lua_touserdata(L, 2);
	lua_pushvalue(L, 1); /* fn, p, fn */
	lua_pushnumber(L, p->fraction);
	lua_pushstring(L, p->stage);
	lua_call(L, 2, 0);
	return 0;
}

static void progress_hook(void* user, const char* stage, double fraction)
{
	Progress* p = user;
	lua_State* L = p->L;
	if (p->failed) return;
	p->stage = stage, p->fraction = fraction;
	lua_pushvalue(L, p->call_at);          /* ..., progress_call (no allocation) */
	lua_pushvalue(L, p->call_at + 1);      /* ..., progress_call, fn */
	lua_pushlightuserdata(L, p);           /* ..., progress_call, fn, p */
	if (lua_pcall(L, 2, 0, 0) != LUA_OK) { /* ..., error */
		const char* msg = lua_tostring(L, -1);
		snprintf(p->message, sizeof p->message, "%s", msg ? msg : "error object is not a string");
		p->failed = 1;
		gtNav_CancelBuild(p->nav);
		lua_pop(L, 1); /* ... */
	}
}

static int map_build_index(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtEhlDef def = gtEhl_DefaultDef();
	int has_progress = 0, with_links = 0;
	Progress progress = {L, 0, 0, "", 0, "", m->nav};
	const char* key;
	for (int v = lgt_first_option(L, 2, &key); v; v = lgt_next_option(L, 2, v, &key)) {
		if (strcmp(key, "cell") == 0) {
			def.cell_size = lgt_option_integer(L, v, 2, key, 1, GT_EHL_MAX_CELL_SIZE);
		} else if (strcmp(key, "budget") == 0) {
			def.budget_mb = lgt_option_number(L, v, 2, key);
			if (!(def.budget_mb > 0 && def.budget_mb < INFINITY))
				luaL_argerror(L, 2, "budget must be a positive number of megabytes");
		} else if (strcmp(key, "uniform") == 0) { /* with a budget: one cell size, no regions */
			def.uniform = lua_toboolean(L, v);
		} else if (strcmp(key, "allow_high_peak") == 0) { /* with a budget: build past twice it */
			def.allow_high_peak = lua_toboolean(L, v);
		} else if (strcmp(key, "threads") == 0) {
			def.threads = lgt_option_integer(L, v, 2, key, 0, GT_MAX_THREADS);
		} else if (strcmp(key, "max_vertices") == 0) { /* refuse bigger maps (and their rebuilds) at once */
			def.max_vertices = lgt_option_integer(L, v, 2, key, 0, INT_MAX);
		} else if (strcmp(key, "links") == 0) { /* an index that knows the map's two-way links */
			with_links = lua_toboolean(L, v);
		} else if (strcmp(key, "progress") == 0) {
			if (!lua_isfunction(L, v)) luaL_argerror(L, 2, "progress must be a function");
			has_progress = 1;
		} else {
			lgt_unknown_option(L, 2, v - 1);
		}
	}
	if (has_progress) {
		lua_settop(L, 2);
		lua_pushcfunction(L, progress_call); /* map, opts, progress_call */
		lua_pushliteral(L, "progress");
		lua_rawget(L, 2); /* map, opts, progress_call, fn */
		progress.call_at = 3;
		def.progress = progress_hook;
		def.progress_user = &progress;
	}
	m = lgt_check_map(L, 1); /* pushing the trampoline allocates (LuaJIT): a finalizer may have closed it */
	progress.nav = m->nav;
	gtError err;
	m->building++; /* rule 1: map:close() from the callback raises instead of freeing the map */
	gtStatus st = with_links ? gtNav_BuildIndexWithLinks(m->nav, &def, &err)
	                         : gtNav_BuildIndex(m->nav, &def, &err); /* with every declared door open */
	m->building--;
	if (progress.failed) /* cancelled: the map keeps the index it had */
		return luaL_error(L, "gridtree: progress callback failed: %s", progress.message);
	if (st) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_load_index(lua_State* L)
{
	lgt_check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	LMap* m = lgt_check_map(L, 1); /* converting a number to a string allocates: recheck (rule 4) */
	gtError err;
	if (gtNav_LoadIndex(m->nav, path, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_load_mesh(lua_State* L)
{
	lgt_check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	LMap* m = lgt_check_map(L, 1); /* rule 4 */
	gtError err;
	if (gtNav_LoadMesh(m->nav, path, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

/* A navigation mesh made from the map as it is now (what `gridtree mesh-build` writes). */
static int map_build_mesh(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtError err;
	gtMesh* mesh;
	if (gtMesh_FromMap(gtNav_Map(m->nav), &mesh, &err) || gtNav_SetMesh(m->nav, mesh, &err))
		return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_save_index(lua_State* L)
{
	lgt_check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	LMap* m = lgt_check_map(L, 1); /* rule 4 */
	if (!gtNav_Index(m->nav)) return luaL_error(L, "map has no index (call build_index or load_index first)");
	gtError err;
	if (gtNav_SaveIndex(m->nav, path, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_save(lua_State* L)
{
	lgt_check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	LMap* m = lgt_check_map(L, 1); /* rule 4 */
	gtError err;
	if (gtMap_Save(m->map, path, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_inflate(lua_State* L)
{
	LMap* unit = lgt_check_map(L, 1);
	/* In the map's units, rounded up to whole cells: an agent of that half-width never touches a
	** wall (a whole number of cells within a few units in the last place is that number). */
	lua_Number given = luaL_checknumber(L, 2), clearance = given / unit->unit_scale, whole = nearbyint(clearance);
	if (fabs(clearance - whole) <= 1e-9 * fmax(1, whole)) clearance = whole;
	clearance = ceil(clearance);
	if (!(clearance >= 0 && clearance <= GT_MAP_MAX_CLEARANCE))
		lgt_arg_errorf(L, 2, "clearance must be from 0 to %g units (%d cells of %g units), got %g",
		               GT_MAP_MAX_CLEARANCE * unit->unit_scale, GT_MAP_MAX_CLEARANCE, unit->unit_scale, given);
	LMap* inflated = lgt_new_map_object(L);
	LMap* m = lgt_check_map(L, 1); /* rule 4: the allocation may have run a finalizer */
	gtMap* map;
	gtError err;
	if (gtMap_Inflate(m->map, (int)clearance, &map, &err)) return luaL_error(L, "gridtree: %s", err.message);
	inflated->unit_scale = m->unit_scale, inflated->unit_x = m->unit_x, inflated->unit_y = m->unit_y;
	lgt_open_map(L, inflated, map);
	return 1;
}

static int map_set_units(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	double scale = luaL_checknumber(L, 2), x0 = luaL_optnumber(L, 3, 0), y0 = luaL_optnumber(L, 4, 0);
	if (!valid_units(scale, x0, y0))
		luaL_argerror(L, 2, "units must be a scale from 1e-6 to 1e9 units per cell and an origin of finite numbers");
	m = lgt_check_map(L, 1); /* rule 4 */
	m->unit_scale = scale, m->unit_x = x0, m->unit_y = y0;
	lua_pushboolean(L, 1);
	return 1;
}

static int map_units(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	lua_pushnumber(L, m->unit_scale);
	lua_pushnumber(L, m->unit_x);
	lua_pushnumber(L, m->unit_y);
	return 3;
}

/* Rule 1: the build reads the map, so the map is not edited until it returns. */
LMap* lgt_check_editable_map(lua_State* L, int i)
{
	LMap* m = lgt_check_map(L, i);
	if (m->building > 0) luaL_error(L, "map is being indexed: edit it after build_index returns");
	return m;
}

/* The cell holding a coordinate in the map's units (a point on a border counts in the cell after
** it), so whole numbers in the default units are cell numbers. Within a few units in the last
** place of a border is on it: 0.3 / 0.1 is the border of cell 3, not inside cell 2. */
static double unit_to_cell(double v, double origin, double scale)
{
	double t = (v - origin) / scale, r = nearbyint(t);
	if (fabs(t - r) <= 1e-9 * fmax(1, fabs(t))) t = r;
	return floor(t);
}

/* A rectangle in the map's units, as four numbers from argument i on (or, as before, the table
** {x0, y0, x1, y1} at i), into the inclusive cells c[0..3] holding its corners and every cell
** between. Returns the argument after the rectangle. */
static int check_rect(lua_State* L, LMap* m, int i, int* c)
{
	int w = gtMap_Width(m->map), h = gtMap_Height(m->map), table = lua_istable(L, i);
	double v[4];
	for (int k = 0; k < 4; k++) {
		int ok = 1;
		if (table) {
			lua_rawgeti(L, i, k + 1);
			v[k] = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : (ok = 0, NAN);
			lua_pop(L, 1);
		} else {
			v[k] = lua_tonumberx(L, i + k, &ok);
		}
		if (!ok || !isfinite(v[k]))
			lgt_arg_errorf(L, table ? i : i + k, "a rectangle is x0, y0, x1, y1: four finite numbers");
	}
	if (v[0] > v[2] || v[1] > v[3])
		lgt_arg_errorf(L, i, "the rectangle (%g, %g)-(%g, %g) must have x0 <= x1 and y0 <= y1", v[0], v[1], v[2], v[3]);
	for (int k = 0; k < 4; k++) {
		double cell = unit_to_cell(v[k], k % 2 ? m->unit_y : m->unit_x, m->unit_scale), most = (k % 2 ? h : w) - 1;
		if (!(cell >= 0 && cell <= most)) {
			double scale = m->unit_scale;
			lgt_arg_errorf(
			    L, table ? i : i + k,
			    "the rectangle (%g, %g)-(%g, %g) reaches outside the map, which spans (%g, %g)-(%g, %g) in its units",
			    v[0], v[1], v[2], v[3], m->unit_x, m->unit_y, m->unit_x + w * scale, m->unit_y + h * scale);
		}
		c[k] = (int)cell;
	}
	return table ? i + 1 : i + 4;
}

/* map:set_blocked(x0, y0, x1, y1, blocked), or the old map:set_blocked({x0, y0, x1, y1}, blocked). */
static int map_set_blocked(lua_State* L)
{
	LMap* m = lgt_check_editable_map(L, 1);
	int c[4];
	int at = check_rect(L, m, 2, c);
	luaL_checktype(L, at, LUA_TBOOLEAN);
	gtError err;
	if (gtNav_SetBlocked(m->nav, c[0], c[1], c[2], c[3], lua_toboolean(L, at), &err))
		return luaL_error(L, "gridtree: %s", err.message);
	lua_pushboolean(L, 1);
	return 1;
}

/* map:add_door(x0, y0, x1, y1), or the old map:add_door{x0, y0, x1, y1}. */
static int map_add_door(lua_State* L)
{
	LMap* m = lgt_check_editable_map(L, 1);
	int c[4], id;
	check_rect(L, m, 2, c);
	gtError err;
	if (gtNav_AddDoor(m->nav, c[0], c[1], c[2], c[3], &id, &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushinteger(L, id);
	return 1;
}

static int check_door(lua_State* L, LMap* m, int i)
{
	lua_Integer id = luaL_checkinteger(L, i);
	if (id < 0 || id >= gtNav_DoorCount(m->nav)) luaL_argerror(L, i, "no such door");
	return (int)id;
}

static int map_set_door(lua_State* L)
{
	LMap* m = lgt_check_editable_map(L, 1);
	int id = check_door(L, m, 2);
	luaL_checktype(L, 3, LUA_TBOOLEAN);
	gtError err;
	if (gtNav_SetDoor(m->nav, id, lua_toboolean(L, 3), &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_door_open(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	lua_pushboolean(L, gtNav_DoorOpen(m->nav, check_door(L, m, 2)));
	return 1;
}

static int map_update(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	lua_pushboolean(L, gtNav_Update(m->nav));
	return 1;
}

static int map_index_state(lua_State* L)
{
	static const char* const names[] = {"none", "exact", "lower_bound", "stale"};
	LMap* m = lgt_check_map(L, 1);
	lua_pushstring(L, names[gtNav_IndexState(m->nav)]);
	lua_pushboolean(L, gtNav_Rebuilding(m->nav));
	gtError err;
	if (!gtNav_RebuildStatus(m->nav, &err)) return 2;
	lua_pushstring(L, err.message); /* why the last background rebuild failed */
	return 3;
}

/* map:size(): the map's width and height in its units; map:grid_size(): in cells. */
static int map_size(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	lua_pushnumber(L, gtMap_Width(m->map) * m->unit_scale);
	lua_pushnumber(L, gtMap_Height(m->map) * m->unit_scale);
	return 2;
}

static int map_grid_size(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	lua_pushinteger(L, gtMap_Width(m->map));
	lua_pushinteger(L, gtMap_Height(m->map));
	return 2;
}

static int map_is_free(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtVec2 p = lgt_check_point(L, m, 2);
	lua_pushboolean(L, gtMap_CheckPoint(m->map, p) == GT_POINT_VALID);
	return 1;
}

static int map_visible(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtVec2 a = lgt_check_point(L, m, 2), b = lgt_check_point(L, m, 4);
	lua_pushboolean(L, gtMap_Visible(m->map, a, b));
	return 1;
}

/* The distance function a world's queries use: the navigation backend's (an error only when it
 * cannot start, e.g. out of memory building the oracle). */
gtDistance lgt_map_distance_module(lua_State* L, LMap* m)
{
	gtDistance d;
	gtError err;
	if (gtNavQuery_WorldDistance(m->query, &d, &err)) luaL_error(L, "gridtree: %s", err.message);
	return d;
}

static int map_distance(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtVec2 a = lgt_check_point(L, m, 2), b = lgt_check_point(L, m, 4);
	const char* invalid = lgt_pair_invalid(m, a, b);
	if (invalid) return lgt_fail(L, invalid);
	double d;
	gtError err;
	if (gtNavQuery_Distance(m->query, a, b, &d, &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushnumber(L, d * m->unit_scale); /* math.huge when unreachable */
	return 1;
}

/* map:random_point(rng): every point of the free space equally likely (gtMap_RandomPoint). */
int lgt_map_random_point(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtRandom* r = luaL_checkudata(L, 2, RANDOM_TYPE);
	gtVec2 p;
	gtError err;
	if (gtMap_RandomPoint(m->map, r, &p, &err)) return lgt_fail(L, err.message);
	lgt_push_point(L, m->unit_scale, m->unit_x, m->unit_y, p);
	return 2;
}

static int map_set_method(lua_State* L)
{
	lgt_check_map(L, 1);
	const char* name = luaL_checkstring(L, 2);
	LMap* m = lgt_check_map(L, 1); /* rule 4 */
	gtNavMethod method;
	gtError err;
	if (gtNavMethod_Parse(name, &method, &err)) return luaL_argerror(L, 2, err.message);
	if (gtNav_SetMethod(m->nav, method, &err)) return luaL_argerror(L, 2, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_method(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	lua_pushstring(L, gtNavMethod_Name(gtNav_Method(m->nav)));
	return 1;
}

int lgt_map_close(lua_State* L)
{
	LMap* m = luaL_checkudata(L, 1, MAP_TYPE);
	if (m->building > 0 && !m->closed)
		return luaL_error(L, "map is in use by build_index (close it after the build returns)");
	m->closed = 1;
	lgt_map_release(m);
	return 0;
}

/* __gc: the collector runs it once nothing holds the map. Only lua_close (os.exit(code, true)
** from a progress callback) can get here during a build; the memory is then left to the exit. */
int lgt_map_gc(lua_State* L)
{
	LMap* m = luaL_checkudata(L, 1, MAP_TYPE);
	if (m->building > 0) return 0;
	m->closed = 1;
	lgt_map_release(m);
	return 0;
}

int lgt_map_tostring(lua_State* L)
{
	LMap* m = luaL_checkudata(L, 1, MAP_TYPE);
	if (m->closed || !m->map) lua_pushstring(L, "gridtree.Map (closed)");
	else
		lua_pushfstring(L, "gridtree.Map %dx%d%s", gtMap_Width(m->map), gtMap_Height(m->map),
		                gtNav_Index(m->nav) ? " (indexed)" : "");
	return 1;
}

const luaL_Reg lgt_map_methods[] = {
    {"build_index", map_build_index},
    {"load_index", map_load_index},
    {"save_index", map_save_index},
    {"build_mesh", map_build_mesh},
    {"load_mesh", map_load_mesh},
    {"size", map_size},
    {"grid_size", map_grid_size},
    {"is_free", map_is_free},
    {"visible", map_visible},
    {"save", map_save},
    {"inflate", map_inflate},
    {"set_units", map_set_units},
    {"units", map_units},
    {"set_blocked", map_set_blocked},
    {"add_door", map_add_door},
    {"set_door", map_set_door},
    {"door_open", map_door_open},
    {"add_link", lgt_map_add_link},
    {"remove_link", lgt_map_remove_link},
    {"enable_link", lgt_map_enable_link},
    {"link_count", lgt_map_link_count},
    {"set_floors", lgt_map_set_floors},
    {"floor_point", lgt_map_floor_point},
    {"point_floor", lgt_map_point_floor},
    {"reachable", lgt_map_reachable},
    {"nearest_reachable", lgt_map_nearest_reachable},
    {"update", map_update},
    {"index_state", map_index_state},
    {"distance", map_distance},
    {"path", lgt_map_path},
    {"random_point", lgt_map_random_point},
    {"set_method", map_set_method},
    {"method", map_method},
    {"close", lgt_map_close},
    {NULL, NULL},
};
