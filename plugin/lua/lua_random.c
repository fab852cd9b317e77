/* Random numbers (gridtree.Random): the library's generator, so a seed gives the same sequence
** under Lua 5.4 and LuaJIT. */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"

/* A seed as 64 bits. LuaJIT numbers are doubles: only integers they hold exactly are accepted, so
** a seed gives the same sequence under both interpreters. */
static uint64_t check_seed(lua_State* L, int i)
{
#if LUA_VERSION_NUM >= 503
	return (uint64_t)luaL_checkinteger(L, i);
#else
	double v = luaL_checknumber(L, i);
	if (!(v == floor(v) && fabs(v) <= 9007199254740992.0))
		luaL_argerror(L, i, "seed must be an integer of at most 2^53");
	return (uint64_t)(int64_t)v;
#endif
}

int lgt_random(lua_State* L)
{
	uint64_t seed = check_seed(L, 1);
	gtRandom* r = lua_newuserdatauv(L, sizeof *r, 0);
	r->state = seed;
	luaL_setmetatable(L, RANDOM_TYPE);
	return 1;
}

static int random_next(lua_State* L)
{
	gtRandom* r = luaL_checkudata(L, 1, RANDOM_TYPE);
	lua_pushnumber(L, gtRandom_Unit(r));
	return 1;
}

static int random_below(lua_State* L)
{
	gtRandom* r = luaL_checkudata(L, 1, RANDOM_TYPE);
	lua_Integer n = luaL_checkinteger(L, 2);
	if (n < 1 || n > INT_MAX) lgt_arg_errorf(L, 2, "n must be an integer from 1 to %d", INT_MAX);
	lua_pushinteger(L, gtRandom_Below(r, (int)n));
	return 1;
}

int lgt_random_tostring(lua_State* L)
{
	luaL_checkudata(L, 1, RANDOM_TYPE);
	lua_pushstring(L, RANDOM_TYPE);
	return 1;
}

const luaL_Reg lgt_random_methods[] = {
    {"next", random_next},
    {"below", random_below},
    {NULL, NULL},
};
