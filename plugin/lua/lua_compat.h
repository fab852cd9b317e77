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
#endif

/* Slots of Lua values a userdata keeps (5.4: user values; LuaJIT: its environment table, which
** starts as the globals, so lgt_newslots must run right after the userdata is made). get pushes
** slot n (nil when empty); set pops the value into it. Neither allocates once the slot was set. */
#if LUA_VERSION_NUM < 502
static inline void lgt_newslots(lua_State* L, int index, int n)
{
	index = index < 0 ? lua_gettop(L) + index + 1 : index;
	lua_createtable(L, n, 0); /* ..., slots */
	lua_setfenv(L, index);    /* ... */
}
static inline int lgt_getslot(lua_State* L, int index, int n)
{
	lua_getfenv(L, index); /* ..., slots */
	lua_rawgeti(L, -1, n); /* ..., slots, value */
	lua_remove(L, -2);     /* ..., value */
	return lua_type(L, -1);
}
static inline void lgt_setslot(lua_State* L, int index, int n)
{
	index = index < 0 ? lua_gettop(L) + index + 1 : index;
	lua_getfenv(L, index); /* ..., value, slots */
	lua_insert(L, -2);     /* ..., slots, value */
	lua_rawseti(L, -2, n); /* ..., slots */
	lua_pop(L, 1);         /* ... */
}
#else
#define lgt_newslots(L, index, n) ((void)0)
#define lgt_getslot(L, index, n) lua_getiuservalue(L, index, n)
#define lgt_setslot(L, index, n) ((void)lua_setiuservalue(L, index, n))
#endif

#endif
