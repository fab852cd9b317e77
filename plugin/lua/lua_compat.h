/* The Lua API the binding's files use, from Lua 5.4 or LuaJIT. Internal to plugin/lua. */
#ifndef GRIDTREE_LUA_COMPAT_H
#define GRIDTREE_LUA_COMPAT_H

#include <lauxlib.h>
#include <lua.h>

/* LuaJIT (5.1 API with 5.2 extensions): the few 5.4 calls used here, from one source. */
#if LUA_VERSION_NUM < 502
#ifndef LUA_OK
#define LUA_OK 0
#endif
#define LUAMOD_API LUALIB_API
#define luaL_pushfail(L) lua_pushnil(L)
#define lua_rawlen(L, i) lua_objlen(L, i)
#define luaL_checkversion(L) ((void)0)
#define lua_newuserdatauv(L, size, nuv) lua_newuserdata(L, size)
/* A userdata's user value is its environment table: {value}. Pops the value. */
static inline void lua_setiuservalue_compat(lua_State* L, int index)
{
	index = index < 0 ? lua_gettop(L) + index + 1 : index;
	lua_createtable(L, 1, 0);  /* ..., value, env */
	lua_insert(L, -2);         /* ..., env, value */
	lua_rawseti(L, -2, 1);     /* ..., env */
	lua_setfenv(L, index);     /* ... */
}
#define lua_setiuservalue(L, index, n) lua_setiuservalue_compat(L, index)
#endif

#endif
