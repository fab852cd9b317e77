/* Paths: map:path and gridtree.advance, which walks one. */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"

/* Points first .. first + count - 1 (0-based) of the flat {x1, y1, x2, y2, ...} table at index 1. */
static void read_points(lua_State* L, lua_Integer first, int count, gtVec2* out)
{
	for (int k = 0; k < count; k++) {
		lua_rawgeti(L, 1, 2 * (first + k) + 1);
		lua_rawgeti(L, 1, 2 * (first + k) + 2);
		int ok_x, ok_y;
		out[k].x = lua_tonumberx(L, -2, &ok_x);
		out[k].y = lua_tonumberx(L, -1, &ok_y);
		if (!ok_x || !ok_y || !isfinite(out[k].x) || !isfinite(out[k].y))
			luaL_argerror(L, 1, "path entries must be finite numbers");
		lua_pop(L, 2);
	}
}

/* gridtree.advance(path, segment, x, y, step) -> x, y, segment, arrived. gtPath_Advance needs the
** points from `segment` on; reading them all every frame would cost the whole path, so the call
** first tries a window of the next few points on the C stack. Only when the step reaches the
** window's end are more points read, in batches that double, into scratch owned by the function
** (upvalue 1, grown, never shrunk): the result is the same as one call over the whole path, with
** no garbage per call, and the scratch never outgrows twice the points the table really holds
** (a crafted length cannot make it allocate). */
int lgt_advance(lua_State* L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	size_t raw = (size_t)lua_rawlen(L, 1); /* rule 4: raw, and bounded before any use */
	if (raw > 2 * (size_t)MAX_PATH_POINTS) lgt_arg_errorf(L, 1, "path longer than %d points", MAX_PATH_POINTS);
	lua_Integer length = (lua_Integer)raw;
	if (length % 2) luaL_argerror(L, 1, "path must be a flat list {x1, y1, x2, y2, ...}");
	lua_Integer count = length / 2;
	lua_Integer segment = luaL_checkinteger(L, 2);
	/* An empty path (unreachable goal, or emptied on arrival) has nothing to walk whatever the
	** segment: arrived. */
	if (count == 0 && segment >= 1) segment = 1;
	else if (segment < 1 || segment > count)
		lgt_arg_errorf(L, 2, "segment must be an integer from 1 to %d (the path's points), got %d", (int)count,
		               (int)(segment < INT_MIN   ? INT_MIN
		                     : segment > INT_MAX ? INT_MAX
		                                         : segment));
	gtVec2 at = {lgt_check_coord(L, 3), lgt_check_coord(L, 4)};
	double step = luaL_checknumber(L, 5);
	if (!(step >= 0)) lgt_arg_errorf(L, 5, "step must be a number >= 0, got %g", step);
	lua_Integer first = segment - 1, left = count - first;
	gtVec2 window[ADVANCE_WINDOW];
	int size = left < ADVANCE_WINDOW ? (int)left : ADVANCE_WINDOW, s = 0;
	gtVec2 p = at;
	if (count > 0) {
		read_points(L, first, size, window);
		p = gtPath_Advance(window, size, &s, at, step);
		int have = 0;                          /* points of the rest already in scratch */
		while (s == size - 1 && size < left) { /* reached the batch's end: walk a batch twice as long */
			size = left < 2 * (lua_Integer)size ? (int)left : 2 * size;
			gtVec2* scratch = lua_touserdata(L, lua_upvalueindex(1));
			if (!scratch || lua_rawlen(L, lua_upvalueindex(1)) < (size_t)size * sizeof(gtVec2)) {
				/* Allocating may run a finalizer that calls advance, which writes the old scratch:
				** the new one is filled from the path table, not copied. */
				scratch = lua_newuserdatauv(L, (size_t)size * sizeof(gtVec2), 0);
				lua_replace(L, lua_upvalueindex(1));
				have = 0;
			}
			read_points(L, first + have, size - have, scratch + have);
			have = size;
			s = 0;
			p = gtPath_Advance(scratch, size, &s, at, step);
		}
	}
	lua_pushnumber(L, p.x);
	lua_pushnumber(L, p.y);
	lua_pushinteger(L, first + s + 1);
	lua_pushboolean(L, first + s + 1 >= count); /* an empty path has nothing left to walk */
	return 4;
}

int lgt_map_path(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtVec2 a = lgt_check_point(L, m, 2), b = lgt_check_point(L, m, 4);
	lua_settop(L, 5);
	lgt_take_buffer(L, 1, MAP_SLOT_BUFFER); /* ..., buffer (rule 3) */
	m = lgt_check_map(L, 1);                /* taking may have run a finalizer (rule 4) */
	int capacity = gtNav_PathCapacity(m->nav);
	gtVec2* points = lgt_buffer_reserve(L, 6, 0, (size_t)capacity * sizeof *points);
	m = lgt_check_map(L, 1);
	if (gtNav_PathCapacity(m->nav) > capacity) { /* a finalizer's edits added corners meanwhile */
		capacity = gtNav_PathCapacity(m->nav);
		points = lgt_buffer_reserve(L, 6, 0, (size_t)capacity * sizeof *points);
		m = lgt_check_map(L, 1);
	}
	int count;
	double d;
	gtError err;
	gtStatus st = gtNavQuery_Path(m->query, a, b, points, capacity, &count, &d, &err);
	if (st) {
		lgt_give_buffer(L, 1, MAP_SLOT_BUFFER, 6);
		return lgt_fail(L, err.message);
	}
	double scale = m->unit_scale, x0 = m->unit_x, y0 = m->unit_y; /* the map may close while the table grows */
	lua_createtable(L, 2 * count, 0);                             /* path */
	for (int i = 0; i < count; i++) {
		lgt_push_point(L, scale, x0, y0, points[i]); /* path, x, y */
		lua_rawseti(L, -3, 2 * i + 2);
		lua_rawseti(L, -2, 2 * i + 1);
	}
	lua_pushnumber(L, d * scale);              /* buffer, path, length */
	lgt_give_buffer(L, 1, MAP_SLOT_BUFFER, 6); /* only now: a nested call would have written it */
	return 2;
}
