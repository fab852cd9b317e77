/* Map cells given from Lua (gridtree.new_map). Internal to plugin/lua. */
#ifndef GRIDTREE_LUA_MAP_CELLS_H
#define GRIDTREE_LUA_MAP_CELLS_H

#include "lua_args.h"

/* Reads the cells at stack index `arg` into out[width * height] (row-major, 1 = blocked): a
** string of rows (`.`, `G` and `S` free, as in a .map file, anything else blocked; rows split by
** newlines or not split at all), a flat table of booleans or numbers (non-zero blocked), or a
** function(x, y) returning whether cell (x, y) is blocked. Raises an argument error naming what
** is wrong; a function's own error propagates. */
void lgt_read_cells(lua_State* L, int arg, int width, int height, unsigned char* out);

#endif
