/*
** gridtree Lua 5.4 module: `local gridtree = require "gridtree"`.
** Not linked against liblua: the host (lua5.4 or an embedding engine) provides the API.
** Error policy (lua/README.md): misuse (wrong types, NaN, negative k, unknown options, stale
** ids, closed handles) raises a Lua error naming the argument; expected failures (files, bad
** data, points in walls) return nil, message.
*/
#include <stddef.h>

#include "gridtree/gridtree.h"
#include "gridtree/gt_lua.h"

#include "lua_binding.h"

/* The module opens here; each object type has its file, as in Lua's own libraries: lua_map.c
** (gridtree.Map), lua_tiled.c (load_map), lua_world.c (gridtree.World), lua_query.c (its queries),
** lua_crowd.c (gridtree.Crowd, nearest_many), lua_path.c (map:path, advance), lua_random.c (gridtree.Random),
** with the shared helpers in lua_util.c and the rules they keep in lua_binding.h. */

static int gridtree_version(lua_State* L)
{
	lua_pushstring(L, gtVersionString());
	return 1;
}

/* Seconds on a monotonic wall clock (os.clock counts the process's CPU time, every thread's). */
static int gridtree_clock(lua_State* L)
{
	lua_pushnumber(L, gtNowSeconds());
	return 1;
}

static const luaL_Reg gridtree_functions[] = {
    {"version", gridtree_version}, {"clock", gridtree_clock},          {"random", lgt_random},
    {"load_map", lgt_load_map},    {"new_map", lgt_new_map},           {"new_world", lgt_new_world},
    {"new_crowd", lgt_new_crowd},  {"neighbours", lgt_new_neighbours}, {NULL, NULL},
};

/* lua_args.h: errors name the function by what it is, however it was called. */
const char* lgt_function_name(lua_CFunction f)
{
	static const luaL_Reg* const lists[] = {lgt_map_methods,    lgt_world_methods,      lgt_crowd_methods,
	                                        lgt_random_methods, lgt_neighbours_methods, gridtree_functions};
	for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
		for (const luaL_Reg* r = lists[i]; r->name; r++)
			if (r->func == f) return r->name;
	if (f == lgt_advance) return "advance";
	return NULL;
}

static void make_type(lua_State* L, const char* name, const luaL_Reg* methods, lua_CFunction close, lua_CFunction gc,
                      lua_CFunction tostring)
{
	luaL_newmetatable(L, name); /* mt */
	lua_newtable(L);            /* mt, methods */
	luaL_setfuncs(L, methods, 0);
	lua_setfield(L, -2, "__index"); /* mt */
	const luaL_Reg owning[] = {{"__gc", gc}, {"__close", close}, {NULL, NULL}};
	if (close) luaL_setfuncs(L, owning, 0); /* a type that owns C memory */
	/* getmetatable(object) returns this name, so scripts cannot reach __gc (rule 3). */
	lua_pushstring(L, name);
	lua_setfield(L, -2, "__metatable");
	lua_pushcfunction(L, tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pop(L, 1); /* */
}

/* ---- host accessors (gt_lua.h) ----------------------------------------------------------------
** For programs that compile the binding in; the module's version script keeps them out of the .so.
** luaL_testudata needs two free stack slots: without them the answer is NULL, never an error. */

static void* to_udata(lua_State* L, int index, const char* type)
{
	if (!L || !lua_checkstack(L, 2)) return NULL;
	return luaL_testudata(L, index, type);
}

static LMap* to_open_map(lua_State* L, int index)
{
	LMap* m = to_udata(L, index, MAP_TYPE);
	return m && !m->closed && m->map ? m : NULL;
}

const gtMap* gtLua_ToMap(lua_State* L, int index)
{
	LMap* m = to_open_map(L, index);
	return m ? m->map : NULL;
}

gtNav* gtLua_ToNav(lua_State* L, int index)
{
	LMap* m = to_open_map(L, index);
	return m ? m->nav : NULL;
}

gtNavQuery* gtLua_ToNavQuery(lua_State* L, int index)
{
	LMap* m = to_open_map(L, index);
	return m ? m->query : NULL;
}

gtWorld* gtLua_ToWorld(lua_State* L, int index)
{
	LWorld* w = to_udata(L, index, WORLD_TYPE);
	return w && !w->closed ? w->world : NULL;
}

typedef struct {
	const char* name;
	lua_Integer value;
} NamedInteger;

static void set_integers(lua_State* L, const NamedInteger* fields, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		lua_pushinteger(L, fields[i].value);
		lua_setfield(L, -2, fields[i].name);
	}
}

LUAMOD_API int luaopen_gridtree(lua_State* L)
{
	luaL_checkversion(L);
	make_type(L, MAP_TYPE, lgt_map_methods, lgt_map_close, lgt_map_gc, lgt_map_tostring);
	make_type(L, WORLD_TYPE, lgt_world_methods, lgt_world_close, lgt_world_gc, lgt_world_tostring);
	make_type(L, CROWD_TYPE, lgt_crowd_methods, lgt_crowd_close, lgt_crowd_close, lgt_crowd_tostring);
	make_type(L, RANDOM_TYPE, lgt_random_methods, NULL, NULL, lgt_random_tostring);
	make_type(L, NEIGHBOURS_TYPE, lgt_neighbours_methods, lgt_neighbours_close, lgt_neighbours_close,
	          lgt_neighbours_tostring);

	luaL_newlib(L, gridtree_functions);  /* module */
	lua_pushnil(L);                      /* module, scratch (none yet) */
	lua_pushcclosure(L, lgt_advance, 1); /* module, advance */
	lua_setfield(L, -2, "advance");
	lua_pushstring(L, gtVersionString());
	lua_setfield(L, -2, "_VERSION");
	static const NamedInteger versions[] = {
	    {"version_major", GT_VERSION_MAJOR},
	    {"version_minor", GT_VERSION_MINOR},
	    {"version_patch", GT_VERSION_PATCH},
	};
	set_integers(L, versions, sizeof versions / sizeof *versions);
	/* The limits the binding checks, from the library's named constants. */
	static const NamedInteger limits[] = {
	    {"max_cell_size", GT_EHL_MAX_CELL_SIZE},
	    {"max_threads", GT_MAX_THREADS},
	    {"max_clearance", GT_MAP_MAX_CLEARANCE},
	    {"max_map_side", GT_MAP_MAX_SIDE},
	    {"max_leaf_size", GT_WORLD_MAX_LEAF_SIZE},
	    {"max_keyword_bytes", GT_KEYWORD_MAX_BYTES},
	    {"max_keywords", MAX_WORDS},
	    {"max_k", MAX_K},
	    {"max_move_many", MAX_MOVE_MANY},
	    {"max_path_points", MAX_PATH_POINTS},
	};
	lua_createtable(L, 0, (int)(sizeof limits / sizeof *limits)); /* module, limits */
	set_integers(L, limits, sizeof limits / sizeof *limits);
	lua_setfield(L, -2, "limits"); /* module */
	return 1;
}
