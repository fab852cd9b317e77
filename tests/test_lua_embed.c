// The host side of the Lua binding (gt_lua.h), as a program that compiles it in uses it: a script
// makes a map and a world, and C reaches the very objects behind them (not copies), gets NULL for
// anything else or anything closed, and shares one index with the script.
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <string.h>

#include "gridtree/gt_lua.h"
#include "test_support.h"

// A Lua state with the module preloaded (the opener comes from gt_lua.h).
static lua_State* new_state(void)
{
	lua_State* L = luaL_newstate();
	assert_non_null(L);
	luaL_openlibs(L);
	luaL_requiref(L, "gridtree", luaopen_gridtree, 0);
	lua_pop(L, 1);
	return L;
}

// Runs `code`, which must succeed, leaving `results` values on the stack.
static void run(lua_State* L, const char* code, int results)
{
	if (luaL_loadstring(L, code) != LUA_OK || lua_pcall(L, 0, results, 0) != LUA_OK)
		fail_msg("%s", lua_tostring(L, -1));
}

// The map, world, an object's id and its position, as the script made them: stack 1..5.
static const char SCENE[] = "local gridtree = require 'gridtree'\n"
                            "map = assert(gridtree.load_map('assets/maps/small.map'))\n"
                            "world = gridtree.new_world(map, {leaf = 4})\n"
                            "local x, y = map:random_point(gridtree.random(5))\n"
                            "id = assert(world:add(x, y, 'healer elf'))\n"
                            "return map, world, id, x, y\n";

static void test_accessors_reach_the_scripts_objects(void** state)
{
	(void)state;
	lua_State* L = new_state();
	run(L, SCENE, 5);
	int top = lua_gettop(L);
	const gtMap* map = gtLua_ToMap(L, 1);
	gtNav* nav = gtLua_ToNav(L, 1);
	gtNavQuery* query = gtLua_ToNavQuery(L, 1);
	gtWorld* world = gtLua_ToWorld(L, 2);
	assert_non_null(map);
	assert_non_null(nav);
	assert_non_null(query);
	assert_non_null(world);
	assert_int_equal(lua_gettop(L), top); // the stack as it was
	assert_ptr_equal(gtNav_Map(nav), map);
	assert_ptr_equal(gtLua_ToMap(L, -5), map); // relative indices too
	assert_ptr_equal(gtLua_ToWorld(L, -4), world);
	run(L, "return map:size()", 2);
	assert_int_equal(gtMap_Width(map), lua_tointeger(L, -2));
	assert_int_equal(gtMap_Height(map), lua_tointeger(L, -1));
	lua_pop(L, 2);

	// The world is the script's own: what it holds, and changes made on either side.
	gtObjectId id = (gtObjectId)lua_tointeger(L, 3);
	assert_int_equal(gtWorld_Count(world), 1);
	assert_true(gtWorld_IsValid(world, id));
	gtVec2 at;
	assert_int_equal(gtWorld_GetPosition(world, id, &at, NULL), GT_OK);
	assert_true(at.x == lua_tonumber(L, 4) && at.y == lua_tonumber(L, 5));
	assert_true(gtWorld_FindKeyword(world, "healer") >= 0);
	run(L, "local x, y = world:position(id); assert(world:move(id, x, y)); return world:add(x, y, 'orc')", 1);
	assert_int_equal(gtWorld_Count(world), 2);
	assert_int_equal(gtWorld_Move(world, id, at, NULL), GT_OK);
	run(L, "return world:position(id)", 2);
	assert_true(lua_tonumber(L, -2) == at.x && lua_tonumber(L, -1) == at.y);
	lua_pop(L, 3);
	assert_int_equal(lua_gettop(L), top);
	lua_close(L);
}

// An index the host attaches to the script's map is the one the script then uses: loaded once.
static void test_host_attaches_the_index(void** state)
{
	(void)state;
	lua_State* L = new_state();
	run(L, SCENE, 5);
	gtNav* nav = gtLua_ToNav(L, 1);
	run(L, "return map:method(), tostring(map)", 2);
	assert_string_equal(lua_tostring(L, -2), "oracle");
	assert_null(strstr(lua_tostring(L, -1), "indexed"));
	lua_pop(L, 2);
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 2;
	def.threads = 1;
	gtError err;
	if (gtNav_BuildIndex(nav, &def, &err)) fail_msg("%s", err.message);
	run(L,
	    "local x, y = map:random_point(require('gridtree').random(9))\n"
	    "return map:method(), tostring(map), x, y, map:distance(x, y, world:position(id))",
	    5);
	assert_string_equal(lua_tostring(L, -5), "ehl");
	assert_non_null(strstr(lua_tostring(L, -4), "indexed"));
	gtVec2 from = {lua_tonumber(L, -3), lua_tonumber(L, -2)}, to;
	double script = lua_tonumber(L, -1), host;
	lua_pop(L, 5);
	assert_int_equal(gtWorld_GetPosition(gtLua_ToWorld(L, 2), (gtObjectId)lua_tointeger(L, 3), &to, NULL), GT_OK);
	assert_int_equal(gtNavQuery_Distance(gtLua_ToNavQuery(L, 1), from, to, &host, &err), GT_OK);
	assert_true(isfinite(host) && host == script);
	lua_close(L); // frees the index with the map: nothing to destroy here (the sanitizer checks)
}

static int not_a_gridtree_function(lua_State* L)
{
	(void)L;
	return 0;
}

// NULL, never a Lua error, for every other kind of value and for indices past the top.
static void test_wrong_values_give_null(void** state)
{
	(void)state;
	lua_State* L = new_state();
	run(L, SCENE, 2);                                                                                 // 1 map, 2 world
	run(L, "return require('gridtree').random(1), setmetatable({}, {__name = 'gridtree.World'})", 2); // 3, 4
	lua_pushnil(L);                                                                                   // 5
	lua_pushinteger(L, 7);                                                                            // 6
	lua_pushstring(L, "gridtree.Map");                                                                // 7
	lua_newtable(L);                                                                                  // 8
	lua_pushcfunction(L, not_a_gridtree_function);                                                    // 9
	lua_pushlightuserdata(L, (void*)L);                                                               // 10
	memset(lua_newuserdatauv(L, 64, 0), 0, 64); // 11, no metatable
	memset(lua_newuserdatauv(L, 64, 0), 0, 64); // 12, a foreign type's
	luaL_newmetatable(L, "someone.Else");
	lua_setmetatable(L, -2);
	int top = lua_gettop(L);
	assert_null(gtLua_ToMap(L, 2)); // each type only as itself
	assert_null(gtLua_ToNav(L, 2));
	assert_null(gtLua_ToNavQuery(L, 2));
	assert_null(gtLua_ToWorld(L, 1));
	for (int i = 3; i <= top + 2; i++) { // up to past the top
		assert_null(gtLua_ToMap(L, i));
		assert_null(gtLua_ToNav(L, i));
		assert_null(gtLua_ToNavQuery(L, i));
		assert_null(gtLua_ToWorld(L, i));
	}
	assert_null(gtLua_ToMap(L, LUA_REGISTRYINDEX));
	assert_null(gtLua_ToWorld(NULL, 1));
	assert_int_equal(lua_gettop(L), top);
	lua_close(L);
}

// Closed objects give NULL. A world outlives its closed map (the binding frees the map after the
// last world), so the host still reaches the world; a world made to replace another is reached
// once fetched again.
static void test_closed_objects_give_null(void** state)
{
	(void)state;
	lua_State* L = new_state();
	run(L, SCENE, 2);
	gtWorld* first = gtLua_ToWorld(L, 2);
	assert_non_null(first);
	run(L, "map:close()", 0);
	assert_null(gtLua_ToMap(L, 1));
	assert_null(gtLua_ToNav(L, 1));
	assert_null(gtLua_ToNavQuery(L, 1));
	assert_ptr_equal(gtLua_ToWorld(L, 2), first);
	assert_int_equal(gtWorld_Count(first), 1);
	run(L, "local x, y = world:position(id); assert(world:nearest(x, y, 1)[1] == id)",
	    0); // still usable from the script
	run(L, "world:close()", 0);
	assert_null(gtLua_ToWorld(L, 2));
	lua_pop(L, 2);

	run(L,
	    "local gridtree = require 'gridtree'\n"
	    "local m = assert(gridtree.load_map('assets/maps/small.map'))\n"
	    "local a = gridtree.new_world(m)\n"
	    "local b = gridtree.new_world(m, {leaf = 8})\n"
	    "a:close()\n"
	    "do local c <close> = gridtree.new_world(m) end\n" // closed by scope
	    "return a, b, m",
	    3);
	assert_null(gtLua_ToWorld(L, 1));
	assert_non_null(gtLua_ToWorld(L, 2));
	assert_non_null(gtLua_ToMap(L, 3));
	lua_close(L);
}

// lua/README.md's defaults, read through the C objects behind the script's: new_world(map) has
// 16-cell leaves (the same tree as gtWorld_DefaultDef), build_index{} builds at cell size 4, and a
// map answers with the oracle until it has an index ("auto").
static void test_script_defaults(void** state)
{
	(void)state;
	lua_State* L = new_state();
	run(L,
	    "local gridtree = require 'gridtree'\n"
	    "local map = assert(gridtree.load_map('assets/maps/small.map'))\n"
	    "return map, gridtree.new_world(map), gridtree.new_world(map, {leaf = 8}), map:method()",
	    4);
	assert_string_equal(lua_tostring(L, 4), "oracle");
	const gtMap* map = gtLua_ToMap(L, 1);
	int height, height8;
	int64_t nodes, nodes8;
	gtWorld_TreeSize(gtLua_ToWorld(L, 2), &height, &nodes);
	gtWorld_TreeSize(gtLua_ToWorld(L, 3), &height8, &nodes8);
	assert_int_equal(height, 2); // 48x32 cells: 4x4 leaves of 12x8 (at most 16), not 2x2 of 24x16
	assert_int_equal(height8, 3);
	gtWorld* c_world = test_make_world(map, gtWorld_DefaultDef().leaf_size);
	int c_height;
	int64_t c_nodes;
	gtWorld_TreeSize(c_world, &c_height, &c_nodes);
	assert_true(c_height == height && c_nodes == nodes);
	gtWorld_Destroy(c_world);
	lua_pop(L, 3);
	lua_getglobal(L, "load");
	lua_pushstring(L, "local map = ...; assert(map:build_index{}); return map:method()");
	lua_call(L, 1, 1);
	lua_pushvalue(L, 1);
	lua_call(L, 1, 1);
	assert_string_equal(lua_tostring(L, -1), "ehl");
	lua_pop(L, 1);
	const gtEhl* index = gtNav_Index(gtLua_ToNav(L, 1));
	assert_non_null(index);
	assert_int_equal(gtEhl_GetStats(index).cell_size, 4);
	lua_close(L);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_accessors_reach_the_scripts_objects),
	    cmocka_unit_test(test_host_attaches_the_index),
	    cmocka_unit_test(test_wrong_values_give_null),
	    cmocka_unit_test(test_closed_objects_give_null),
	    cmocka_unit_test(test_script_defaults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
