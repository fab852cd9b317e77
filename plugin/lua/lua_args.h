/* Argument checks whose errors name the function. Internal to plugin/lua.
** luaL_argerror names a function by how it was called: `pcall(map.build_index, map, ...)` or a
** method kept in a local gives '?'. These checks name the binding's function by what it is, from
** the names the binding registers (lgt_function_name), and number arguments as Lua does (one less
** with colon syntax). The binding's files include this header, which routes the luaL_ checks they
** use here. */
#ifndef GRIDTREE_LUA_ARGS_H
#define GRIDTREE_LUA_ARGS_H

#include "lua_compat.h"

/* The binding's name for a C function it registered ("nearest", "new_world"), or NULL. */
const char* lgt_function_name(lua_CFunction f);

/* The number Lua users see for stack index `arg` of the running function (one less for a call
** written with a colon). */
int lgt_arg_number(lua_State* L, int arg);

int lgt_argerror(lua_State* L, int arg, const char* message);
int lgt_typeerror(lua_State* L, int arg, const char* expected);
/* An integer without loss (under LuaJIT too, whose lua_tointegerx truncates and overflows). */
int lgt_tointegerx(lua_State* L, int i, lua_Integer* out);
lua_Integer lgt_checkinteger(lua_State* L, int arg);
lua_Number lgt_checknumber(lua_State* L, int arg);
lua_Number lgt_optnumber(lua_State* L, int arg, lua_Number fallback);
const char* lgt_checklstring(lua_State* L, int arg, size_t* length);
void lgt_checktype(lua_State* L, int arg, int type);
void* lgt_checkudata(lua_State* L, int arg, const char* type);

#undef luaL_checkstring
#undef luaL_optnumber
#define luaL_argerror lgt_argerror
#define luaL_checkinteger lgt_checkinteger
#define luaL_checknumber lgt_checknumber
#define luaL_optnumber lgt_optnumber
#define luaL_checklstring lgt_checklstring
#define luaL_checkstring(L, arg) lgt_checklstring(L, arg, NULL)
#define luaL_checktype lgt_checktype
#define luaL_checkudata lgt_checkudata

#endif
