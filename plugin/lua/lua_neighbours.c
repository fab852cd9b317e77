/* Straight-line neighbours (gridtree.Neighbours, gt_neighbours.h): gridtree.neighbours{...},
** points, within and nearest queries, and every point's neighbours at once into reused tables. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lua_binding.h"

typedef struct LNeighbours {
	gtNeighbours* nb;
	int dims;
} LNeighbours;

enum { NB_SLOTS = 1, NB_SLOT_BUFFER = 1 };

static LNeighbours* check_nb(lua_State* L, int i)
{
	LNeighbours* n = luaL_checkudata(L, i, NEIGHBOURS_TYPE);
	if (!n->nb) luaL_argerror(L, i, "neighbour index is closed");
	return n;
}

static gtNeighbourId check_id(lua_State* L, LNeighbours* n, int i)
{
	lua_Integer v = luaL_checkinteger(L, i);
	gtNeighbourId id = (gtNeighbourId)(uint64_t)v;
	if (!gtNeighbours_IsValid(n->nb, id)) luaL_argerror(L, i, "stale point id");
	return id;
}

/* dims coordinates from stack index i on. */
static void check_point(lua_State* L, const LNeighbours* n, int i, double* p)
{
	p[2] = 0;
	for (int a = 0; a < n->dims; a++) p[a] = lgt_check_coord(L, i + a);
}

static gtNeighbourMethod check_method(lua_State* L, int v, int arg)
{
	gtNeighbourMethod m;
	const char* name = lua_type(L, v) == LUA_TSTRING ? lua_tostring(L, v) : NULL;
	if (!gtNeighbourMethod_Parse(name, &m))
		lgt_arg_errorf(L, arg, "method must be one of auto, sphere, cube, nonempty, brute");
	return m;
}

int lgt_new_neighbours(lua_State* L)
{
	gtNeighboursDef def = {.dimensions = 2};
	bool have[3] = {false, false, false};
	const char* key;
	for (int v = lgt_first_option(L, 1, &key); v; v = lgt_next_option(L, 1, v, &key)) {
		int axis = strcmp(key, "width") == 0 ? 0 : strcmp(key, "height") == 0 ? 1 : strcmp(key, "depth") == 0 ? 2 : -1;
		if (axis >= 0) {
			def.size[axis] = lgt_option_number(L, v, 1, key);
			if (!(def.size[axis] > 0) || !isfinite(def.size[axis]))
				lgt_arg_errorf(L, 1, "%s must be a positive finite number", key);
			have[axis] = true;
		} else if (strcmp(key, "cell") == 0) {
			def.cell = lgt_option_number(L, v, 1, key);
			if (!(def.cell > 0) || !isfinite(def.cell)) lgt_arg_errorf(L, 1, "cell must be a positive finite number");
		} else if (strcmp(key, "wrap") == 0) {
			const char* axes = lua_type(L, v) == LUA_TSTRING ? lua_tostring(L, v) : NULL;
			if (!axes) lgt_arg_errorf(L, 1, "wrap must be a string of axes (\"x\", \"xy\", \"xyz\")");
			for (const char* c = axes; *c; c++) {
				const char* at = strchr("xyz", *c);
				if (!at) lgt_arg_errorf(L, 1, "wrap takes the letters x, y and z");
				def.wrap |= 1u << (at - "xyz");
			}
		} else if (strcmp(key, "capacity") == 0) def.capacity = lgt_option_integer(L, v, 1, key, 0, 1 << 24);
		else lgt_unknown_option(L, 1, v - 1);
	}
	if (!have[0] || !have[1]) lgt_arg_errorf(L, 1, "width and height are required");
	def.dimensions = have[2] ? 3 : 2;
	if (def.wrap & ~((1u << def.dimensions) - 1)) lgt_arg_errorf(L, 1, "wrap names z but there is no depth");
	LNeighbours* n = lua_newuserdatauv(L, sizeof *n, NB_SLOTS); /* nb */
	memset(n, 0, sizeof *n);
	lgt_newslots(L, -1, NB_SLOTS);
	luaL_setmetatable(L, NEIGHBOURS_TYPE);
	gtError err;
	if (gtNeighbours_Create(&def, &n->nb, &err)) return lgt_fail(L, err.message);
	n->dims = def.dimensions;
	return 1;
}

static int nb_add(lua_State* L)
{
	LNeighbours* n = check_nb(L, 1);
	double p[3];
	check_point(L, n, 2, p);
	gtNeighbourId id;
	gtError err;
	if (gtNeighbours_Add(n->nb, p, &id, &err)) return lgt_fail(L, err.message);
	lua_pushinteger(L, (lua_Integer)id);
	return 1;
}

static int nb_move(lua_State* L)
{
	LNeighbours* n = check_nb(L, 1);
	gtNeighbourId id = check_id(L, n, 2);
	double p[3];
	check_point(L, n, 3, p);
	gtError err;
	if (gtNeighbours_Move(n->nb, id, p, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int nb_remove(lua_State* L)
{
	LNeighbours* n = check_nb(L, 1);
	gtNeighbours_Remove(n->nb, check_id(L, n, 2), NULL);
	return 0;
}

static int nb_valid(lua_State* L)
{
	LNeighbours* n = check_nb(L, 1);
	lua_Integer v = luaL_checkinteger(L, 2);
	lua_pushboolean(L, gtNeighbours_IsValid(n->nb, (gtNeighbourId)(uint64_t)v));
	return 1;
}

static int nb_position(lua_State* L)
{
	LNeighbours* n = check_nb(L, 1);
	double p[3];
	gtNeighbours_Position(n->nb, check_id(L, n, 2), p, NULL);
	for (int a = 0; a < n->dims; a++) lua_pushnumber(L, p[a]);
	return n->dims;
}

static int nb_count(lua_State* L)
{
	lua_pushinteger(L, gtNeighbours_Count(check_nb(L, 1)->nb));
	return 1;
}

/* A query's options: method and exclude. */
static gtNeighbourMethod query_options(lua_State* L, LNeighbours* n, int arg, gtNeighbourId* exclude)
{
	gtNeighbourMethod method = GT_NEIGHBOURS_AUTO;
	const char* key;
	*exclude = 0;
	for (int v = lgt_first_option(L, arg, &key); v; v = lgt_next_option(L, arg, v, &key)) {
		if (strcmp(key, "method") == 0) method = check_method(L, v, arg);
		else if (strcmp(key, "exclude") == 0) {
			lua_Integer id;
			if (!lgt_tointegerx(L, v, &id)) lgt_arg_errorf(L, arg, "exclude must be a point id");
			*exclude = (gtNeighbourId)(uint64_t)id;
		} else lgt_unknown_option(L, arg, v - 1);
	}
	(void)n;
	return method;
}

/* Runs the query and returns ids, distances and the method's name (rule 3: results copied from a
** buffer this call owns). */
static int run_query(lua_State* L, LNeighbours* n, gtNeighbourQuery* q, gtNeighbourMethod method)
{
	Buffer* buffer = lgt_take_buffer(L, 1, NB_SLOT_BUFFER); /* ..., buffer */
	(void)buffer;
	int at = lua_gettop(L);
	size_t room = (size_t)gtNeighbours_Count(n->nb) + 1;
	gtNeighbour* out = lgt_buffer_reserve(L, at, 0, room * sizeof *out);
	n = check_nb(L, 1); /* allocating may have run a finalizer that closed it (rule 4) */
	int found;
	gtNeighbourStats stats;
	gtError err;
	if (gtNeighbours_Query(n->nb, q, method, out, (int)room, &found, &stats, &err)) {
		lgt_give_buffer(L, 1, NB_SLOT_BUFFER, at);
		return lgt_fail(L, err.message);
	}
	lua_createtable(L, found, 0); /* ..., buffer, ids */
	lua_createtable(L, found, 0); /* ..., buffer, ids, dists */
	for (int i = 0; i < found; i++) {
		lua_pushinteger(L, (lua_Integer)out[i].id);
		lua_rawseti(L, -3, i + 1);
		lua_pushnumber(L, out[i].distance);
		lua_rawseti(L, -2, i + 1);
	}
	lua_pushstring(L, gtNeighbourMethod_Name(stats.method));
	lgt_give_buffer(L, 1, NB_SLOT_BUFFER, at); /* only after the copies (rule 3) */
	return 3;
}

static double check_radius(lua_State* L, int i)
{
	double r = luaL_checknumber(L, i);
	if (!(r >= 0)) luaL_argerror(L, i, "radius must be >= 0 (math.huge: no radius)");
	return r;
}

/* nb:within(x, y, [z,] r [, {method=, exclude=}]) -> ids, dists, method */
static int nb_within(lua_State* L)
{
	LNeighbours* n = check_nb(L, 1);
	gtNeighbourQuery q = {{0, 0, 0}, 0, 0, 0, false};
	check_point(L, n, 2, q.point);
	q.radius = check_radius(L, 2 + n->dims);
	gtNeighbourMethod m = query_options(L, n, 3 + n->dims, &q.exclude);
	return run_query(L, n, &q, m);
}

/* nb:nearest(x, y, [z,] k [, r [, {method=, exclude=}]]) -> ids, dists, method */
static int nb_nearest(lua_State* L)
{
	LNeighbours* n = check_nb(L, 1);
	gtNeighbourQuery q = {{0, 0, 0}, INFINITY, 0, 0, false};
	check_point(L, n, 2, q.point);
	lua_Integer k = luaL_checkinteger(L, 2 + n->dims);
	if (k < 1 || k > MAX_K) lgt_arg_errorf(L, 2 + n->dims, "k must be an integer from 1 to %d", MAX_K);
	q.k = (int)k;
	if (!lua_isnoneornil(L, 3 + n->dims)) q.radius = check_radius(L, 3 + n->dims);
	gtNeighbourMethod m = query_options(L, n, 4 + n->dims, &q.exclude);
	return run_query(L, n, &q, m);
}

/* The table at into[field], made when missing; leaves it on the stack. */
static void reused_table(lua_State* L, int into, const char* field)
{
	if (into) {
		lua_getfield(L, into, field);
		if (lua_istable(L, -1)) return;
		lua_pop(L, 1);
	}
	lua_newtable(L);
	if (into) {
		lua_pushvalue(L, -1);
		lua_setfield(L, into, field);
	}
}

/* Fills list (at stack index t) with n values from get(i) and clears what lay beyond. */
static void fill_list(lua_State* L, int t, const gtNeighbour* row, int count, bool ids)
{
	int old = (int)lua_rawlen(L, t);
	for (int j = 0; j < count; j++) {
		if (ids) lua_pushinteger(L, (lua_Integer)row[j].id);
		else lua_pushnumber(L, row[j].distance);
		lua_rawseti(L, t, j + 1);
	}
	for (int j = count; j < old; j++) {
		lua_pushnil(L);
		lua_rawseti(L, t, j + 1);
	}
}

/* nb:neighbours_many(r [, {k=, stride=, method=, threads=, into=}]) -> asked, near, dists, method.
** Every point's neighbours within r (the k nearest; at most stride, default 32), itself left out.
** With into = {asked = {}, near = {}, dists = {}} the same tables (and their inner lists) are
** refilled call after call, so a frame allocates no Lua tables once they have grown. */
static int nb_neighbours_many(lua_State* L)
{
	LNeighbours* n = check_nb(L, 1);
	gtNeighboursAll all = {.radius = check_radius(L, 2), .stride = 32};
	gtNeighbourMethod method = GT_NEIGHBOURS_AUTO;
	int into = 0;
	const char* key;
	for (int v = lgt_first_option(L, 3, &key); v; v = lgt_next_option(L, 3, v, &key)) {
		if (strcmp(key, "k") == 0) all.k = lgt_option_integer(L, v, 3, key, 0, MAX_K);
		else if (strcmp(key, "stride") == 0) all.stride = lgt_option_integer(L, v, 3, key, 1, 4096);
		else if (strcmp(key, "threads") == 0) all.threads = lgt_option_integer(L, v, 3, key, 0, GT_MAX_THREADS);
		else if (strcmp(key, "method") == 0) method = check_method(L, v, 3);
		else if (strcmp(key, "into") == 0) {
			if (!lua_istable(L, v)) lgt_arg_errorf(L, 3, "into must be a table");
		} else lgt_unknown_option(L, 3, v - 1);
	}
	if (lua_istable(L, 3)) {
		lua_getfield(L, 3, "into"); /* ..., into or nil */
		into = lua_istable(L, -1) ? lua_gettop(L) : 0;
	}
	Buffer* buffer = lgt_take_buffer(L, 1, NB_SLOT_BUFFER);
	(void)buffer;
	int at = lua_gettop(L);
	int32_t count = gtNeighbours_Count(n->nb);
	size_t c = count ? (size_t)count : 1;
	all.out = lgt_buffer_reserve(L, at, 0, c * (size_t)all.stride * sizeof *all.out);
	char* block = lgt_buffer_reserve(L, at, 1, c * (sizeof(gtNeighbourId) + sizeof(int32_t)));
	n = check_nb(L, 1);
	if (gtNeighbours_Count(n->nb) != count) luaL_error(L, "gridtree: the index changed during neighbours_many");
	all.asked = (gtNeighbourId*)block;
	all.counts = (int32_t*)(block + c * sizeof(gtNeighbourId));
	gtNeighbourStats stats;
	gtError err;
	if (gtNeighbours_QueryAll(n->nb, &all, method, &stats, &err)) {
		lgt_give_buffer(L, 1, NB_SLOT_BUFFER, at);
		return lgt_fail(L, err.message);
	}
	reused_table(L, into, "asked"); /* ..., asked */
	reused_table(L, into, "near");  /* ..., asked, near */
	reused_table(L, into, "dists"); /* ..., asked, near, dists */
	int asked = at + 1, near = at + 2, dists = at + 3;
	int old = (int)lua_rawlen(L, asked);
	for (int i = 0; i < count; i++) {
		lua_pushinteger(L, (lua_Integer)all.asked[i]);
		lua_rawseti(L, asked, i + 1);
		const gtNeighbour* row = all.out + (size_t)i * (size_t)all.stride;
		for (int pass = 0; pass < 2; pass++) {
			int list = pass ? dists : near;
			lua_rawgeti(L, list, i + 1);
			if (!lua_istable(L, -1)) {
				lua_pop(L, 1);
				lua_createtable(L, all.counts[i], 0);
				lua_pushvalue(L, -1);
				lua_rawseti(L, list, i + 1);
			}
			fill_list(L, lua_gettop(L), row, all.counts[i], pass == 0);
			lua_pop(L, 1);
		}
	}
	for (int i = count; i < old; i++) {
		lua_pushnil(L);
		lua_rawseti(L, asked, i + 1);
	}
	lua_pushstring(L, gtNeighbourMethod_Name(stats.method));
	lgt_give_buffer(L, 1, NB_SLOT_BUFFER, at);
	return 4;
}

static int nb_close(lua_State* L)
{
	LNeighbours* n = luaL_checkudata(L, 1, NEIGHBOURS_TYPE);
	gtNeighbours_Destroy(n->nb);
	n->nb = NULL;
	return 0;
}

int lgt_neighbours_tostring(lua_State* L)
{
	LNeighbours* n = luaL_checkudata(L, 1, NEIGHBOURS_TYPE);
	if (!n->nb) lua_pushstring(L, "gridtree.Neighbours (closed)");
	else lua_pushfstring(L, "gridtree.Neighbours (%dD, %d points)", n->dims, (int)gtNeighbours_Count(n->nb));
	return 1;
}

const luaL_Reg lgt_neighbours_methods[] = {
    {"add", nb_add},
    {"move", nb_move},
    {"remove", nb_remove},
    {"valid", nb_valid},
    {"position", nb_position},
    {"count", nb_count},
    {"within", nb_within},
    {"nearest", nb_nearest},
    {"neighbours_many", nb_neighbours_many},
    {"close", nb_close},
    {NULL, NULL},
};

int lgt_neighbours_close(lua_State* L)
{
	return nb_close(L);
}
