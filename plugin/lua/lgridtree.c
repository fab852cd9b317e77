/*
** gridtree Lua 5.4 module: `local gridtree = require "gridtree"`.
** Not linked against liblua: the host (lua5.4 or an embedding engine) provides the API.
** This first version exposes the version only; the map and world API come with later issues.
*/
#include <lauxlib.h>
#include <lua.h>

#include "gridtree/gridtree.h"

static int gridtree_version(lua_State* L)
{
	lua_pushstring(L, gtVersionString()); /* version string */
	return 1;
}

static const luaL_Reg gridtree_functions[] = {
    {"version", gridtree_version},
    {NULL, NULL},
};

LUAMOD_API int luaopen_gridtree(lua_State* L);

LUAMOD_API int luaopen_gridtree(lua_State* L)
{
	luaL_checkversion(L);
	luaL_newlib(L, gridtree_functions);    /* module table */
	lua_pushstring(L, gtVersionString());  /* module, version */
	lua_setfield(L, -2, "_VERSION");       /* module */
	lua_pushinteger(L, GT_VERSION_MAJOR);  /* module, major */
	lua_setfield(L, -2, "version_major");  /* module */
	lua_pushinteger(L, GT_VERSION_MINOR);
	lua_setfield(L, -2, "version_minor");
	return 1;
}
