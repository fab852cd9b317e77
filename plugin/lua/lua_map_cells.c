/* Map cells given from Lua: rows of text, a flat table, or a function of the cell. */
#include <stdbool.h>
#include <string.h>

#include "lua_map_cells.h"

static int cells_error(lua_State* L, int arg, const char* format, int a, int b)
{
	lua_pushfstring(L, format, a, b);
	return luaL_argerror(L, arg, lua_tostring(L, -1));
}

static void read_rows(lua_State* L, int arg, int width, int height, unsigned char* out)
{
	size_t length;
	const char* text = lua_tolstring(L, arg, &length);
	size_t cells = (size_t)width * (size_t)height;
	bool flat = length == cells && !memchr(text, '\n', length);
	size_t at = 0;
	for (int y = 0; y < height; y++) {
		if (at >= length) cells_error(L, arg, "cells has %d rows, expected %d", y, height);
		size_t end = flat ? at + (size_t)width : at;
		if (!flat)
			while (end < length && text[end] != '\n') end++;
		size_t row = end - at;
		if (!flat && row > 0 && text[end - 1] == '\r') row--; /* files written on Windows */
		if (row != (size_t)width) {
			lua_pushfstring(L, "cells row %d has %d characters, expected %d (the width)", y + 1,
			                (int)(row > 1000000000 ? 1000000000 : row), width);
			luaL_argerror(L, arg, lua_tostring(L, -1));
		}
		for (int x = 0; x < width; x++) {
			char c = text[at + (size_t)x];
			out[(size_t)y * (size_t)width + (size_t)x] = !(c == '.' || c == 'G' || c == 'S');
		}
		at = flat ? end : end + 1;
	}
	while (at < length && (text[at] == '\n' || text[at] == '\r')) at++;
	if (at < length) cells_error(L, arg, "cells has more than %d rows (the height is %d)", height, height);
}

/* A cell's value: a boolean, or a number (non-zero blocked); nil only from a function (free). */
static unsigned char cell_value(lua_State* L, int arg, int v, int allow_nil, int x, int y)
{
	switch (lua_type(L, v)) {
	case LUA_TBOOLEAN: return (unsigned char)lua_toboolean(L, v);
	case LUA_TNUMBER: return lua_tonumber(L, v) != 0;
	case LUA_TNIL:
		if (allow_nil) return 0;
		/* fallthrough */
	default:
		return (unsigned char)cells_error(L, arg,
		                                  allow_nil
		                                      ? "cells function gave neither a boolean nor a number for cell (%d, %d)"
		                                      : "cells entry for cell (%d, %d) is neither a boolean nor a number",
		                                  x, y);
	}
}

void lgt_read_cells(lua_State* L, int arg, int width, int height, unsigned char* out)
{
	size_t cells = (size_t)width * (size_t)height;
	switch (lua_type(L, arg)) {
	case LUA_TSTRING: read_rows(L, arg, width, height, out); return;
	case LUA_TTABLE:
		if ((size_t)lua_rawlen(L, arg) != cells)
			cells_error(L, arg, "cells table must have width * height = %d entries, has %d", (int)cells,
			            (int)lua_rawlen(L, arg));
		for (size_t i = 0; i < cells; i++) {
			lua_rawgeti(L, arg, (int)i + 1); /* ..., value */
			out[i] = cell_value(L, arg, lua_gettop(L), 0, (int)(i % (size_t)width), (int)(i / (size_t)width));
			lua_pop(L, 1);
		}
		return;
	case LUA_TFUNCTION:
		for (int y = 0; y < height; y++)
			for (int x = 0; x < width; x++) {
				lua_pushvalue(L, arg); /* ..., f */
				lua_pushinteger(L, x);
				lua_pushinteger(L, y);
				lua_call(L, 2, 1); /* ..., blocked */
				out[(size_t)y * (size_t)width + (size_t)x] = cell_value(L, arg, lua_gettop(L), 1, x, y);
				lua_pop(L, 1);
			}
		return;
	default:
		luaL_argerror(L, arg, "cells must be a string of rows, a table of booleans or numbers, or a function(x, y)");
	}
}
