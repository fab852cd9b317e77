/* Argument checks whose errors name the function (lua_args.h). */
#include <math.h>
#include <string.h>

#include "lua_args.h"

int lgt_arg_number(lua_State* L, int arg)
{
	lua_Debug ar;
	if (!lua_getstack(L, 0, &ar)) return arg;
	lua_getinfo(L, "n", &ar);
	return ar.namewhat && strcmp(ar.namewhat, "method") == 0 ? arg - 1 : arg;
}

/* The running function's name: the binding's own, else what the call site says, else '?'. */
static const char* function_name(lua_State* L)
{
	lua_Debug ar;
	if (!lua_getstack(L, 0, &ar) || !lua_checkstack(L, 1)) return "?";
	lua_getinfo(L, "nf", &ar); /* ..., f */
	const char* name = lua_iscfunction(L, -1) ? lgt_function_name(lua_tocfunction(L, -1)) : NULL;
	lua_pop(L, 1);
	if (!name) name = ar.name;
	return name ? name : "?";
}

int lgt_argerror(lua_State* L, int arg, const char* message)
{
	const char* name = function_name(L);
	int shown = lgt_arg_number(L, arg);
	if (shown == 0) return luaL_error(L, "calling '%s' on bad self (%s)", name, message);
	return luaL_error(L, "bad argument #%d to '%s' (%s)", shown, name, message);
}

/* What a value is: its type's name (__name, or the binding's __metatable name), else its type. */
static const char* type_of(lua_State* L, int arg)
{
	if (lua_isnone(L, arg)) return "no value";
	static const char* const fields[] = {"__name", "__metatable"};
	for (int i = 0; i < 2; i++) {
		if (!luaL_getmetafield(L, arg, fields[i])) continue; /* ..., field (LuaJIT: pushes only when found) */
		if (lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1); /* left on the stack: it stays valid */
		lua_pop(L, 1);
	}
	return luaL_typename(L, arg);
}

int lgt_typeerror(lua_State* L, int arg, const char* expected)
{
	const char* got = type_of(L, arg);
	return lgt_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s", expected, got));
}

int lgt_tointegerx(lua_State* L, int i, lua_Integer* out)
{
#if LUA_VERSION_NUM >= 503
	int ok;
	*out = lua_tointegerx(L, i, &ok);
	return ok;
#else
	if (!lua_isnumber(L, i)) return 0;
	lua_Number n = lua_tonumber(L, i);
	/* Only integers a double holds exactly, within lua_Integer: converting others is undefined. */
	if (!(n == floor(n) && fabs(n) < 9223372036854775808.0)) return 0;
	*out = (lua_Integer)n;
	return 1;
#endif
}

lua_Integer lgt_checkinteger(lua_State* L, int arg)
{
	lua_Integer v;
	if (lgt_tointegerx(L, arg, &v)) return v;
	if (lua_isnumber(L, arg)) lgt_argerror(L, arg, "number has no integer representation");
	else lgt_typeerror(L, arg, "number");
	return 0;
}

lua_Number lgt_checknumber(lua_State* L, int arg)
{
	int ok;
	lua_Number n = lua_tonumberx(L, arg, &ok);
	if (!ok) lgt_typeerror(L, arg, "number");
	return n;
}

lua_Number lgt_optnumber(lua_State* L, int arg, lua_Number fallback)
{
	return lua_isnoneornil(L, arg) ? fallback : lgt_checknumber(L, arg);
}

const char* lgt_checklstring(lua_State* L, int arg, size_t* length)
{
	const char* s = lua_tolstring(L, arg, length);
	if (!s) lgt_typeerror(L, arg, "string");
	return s;
}

void lgt_checktype(lua_State* L, int arg, int type)
{
	if (lua_type(L, arg) != type) lgt_typeerror(L, arg, lua_typename(L, type));
}

void* lgt_checkudata(lua_State* L, int arg, const char* type)
{
	void* p = luaL_testudata(L, arg, type);
	if (!p) lgt_typeerror(L, arg, type);
	return p;
}
