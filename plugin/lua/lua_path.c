/* Paths: map:path and gridtree.advance, which walks one. */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"

/* Points first .. first + count - 1 (0-based) of the flat {x1, y1, x2, y2, ...} table at index 1,
** and when `costs` is given, the cost of the link each of them starts (NAN where the path walks) from
** the table at index `costs_at` (map:path's links.costs, read raw). */
static void read_points(lua_State* L, lua_Integer first, int count, gtVec2* out, double* costs, int costs_at)
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
		if (!costs) continue;
		lua_rawgeti(L, costs_at, first + k + 1);
		int ok;
		costs[k] = lua_tonumberx(L, -1, &ok);
		lua_pop(L, 1);
		if (!ok) costs[k] = NAN;
		else if (!(costs[k] >= 0) || isinf(costs[k])) luaL_argerror(L, 6, "link costs must be finite numbers >= 0");
	}
}

/* gridtree.advance(path, segment, x, y, step [, links]) -> x, y, segment, arrived. With map:path's
** third value `links`, step is spent in cost units along links (links.costs). gtPath_Advance needs the
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
	bool linked = false; /* the path came with links: their costs are at index 7 */
	if (!lua_isnoneornil(L, 6)) {
		luaL_checktype(L, 6, LUA_TTABLE);
		lua_settop(L, 6);
		lua_pushliteral(L, "costs");
		lua_rawget(L, 6);
		if (!lua_isnil(L, 7)) luaL_argcheck(L, lua_type(L, 7) == LUA_TTABLE, 6, "links.costs must be a table");
		linked = lua_type(L, 7) == LUA_TTABLE;
	}
	lua_Integer first = segment - 1, left = count - first;
	gtVec2 window[ADVANCE_WINDOW];
	double window_costs[ADVANCE_WINDOW];
	double* costs = linked ? window_costs : NULL;
	int size = left < ADVANCE_WINDOW ? (int)left : ADVANCE_WINDOW, s = 0;
	gtVec2 p = at;
	const size_t each = sizeof(gtVec2) + sizeof(double); /* scratch: points, then costs */
	if (count > 0) {
		read_points(L, first, size, window, costs, 7);
		p = gtPath_AdvanceCosts(window, costs, size, &s, at, step);
		int have = 0;                          /* points of the rest already in scratch */
		while (s == size - 1 && size < left) { /* reached the batch's end: walk a batch twice as long */
			size = left < 2 * (lua_Integer)size ? (int)left : 2 * size;
			gtVec2* scratch = lua_touserdata(L, lua_upvalueindex(1));
			if (!scratch || lua_rawlen(L, lua_upvalueindex(1)) < (size_t)size * each) {
				/* Allocating may run a finalizer that calls advance, which writes the old scratch:
				** the new one is filled from the path table, not copied. */
				scratch = lua_newuserdatauv(L, (size_t)size * each, 0);
				lua_replace(L, lua_upvalueindex(1));
				have = 0;
			}
			double* scratch_costs = linked ? (double*)(scratch + lua_rawlen(L, lua_upvalueindex(1)) / each) : NULL;
			read_points(L, first + have, size - have, scratch + have, scratch_costs ? scratch_costs + have : NULL, 7);
			have = size;
			s = 0;
			p = gtPath_AdvanceCosts(scratch, scratch_costs, size, &s, at, step);
		}
	}
	lua_pushnumber(L, p.x);
	lua_pushnumber(L, p.y);
	lua_pushinteger(L, first + s + 1);
	lua_pushboolean(L, first + s + 1 >= count); /* an empty path has nothing left to walk */
	return 4;
}

/* map:path(x1, y1, x2, y2) -> path, length, links: links[i] is the id of the link segment i takes
** (nil where the path walks) and links.costs[i] its cost in map units, for gridtree.advance. */
int lgt_map_path(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtVec2 a = lgt_check_point(L, m, 2), b = lgt_check_point(L, m, 4);
	lua_settop(L, 5);
	lgt_take_buffer(L, 1, MAP_SLOT_BUFFER); /* ..., buffer (rule 3) */
	m = lgt_check_map(L, 1);                /* taking may have run a finalizer (rule 4) */
	int capacity = gtNav_PathCapacity(m->nav);
	const size_t each = sizeof(gtVec2) + sizeof(double) + sizeof(gtLinkId); /* points, costs, links */
	gtVec2* points = lgt_buffer_reserve(L, 6, 0, (size_t)capacity * each);
	m = lgt_check_map(L, 1);
	if (gtNav_PathCapacity(m->nav) > capacity) { /* a finalizer's edits added corners meanwhile */
		capacity = gtNav_PathCapacity(m->nav);
		points = lgt_buffer_reserve(L, 6, 0, (size_t)capacity * each);
		m = lgt_check_map(L, 1);
	}
	double* costs = (double*)(points + capacity);
	gtLinkId* links = (gtLinkId*)(costs + capacity);
	int count;
	double d;
	gtError err;
	gtStatus st = gtNavQuery_PathLinks(m->query, a, b, points, links, capacity, &count, &d, &err);
	if (st) {
		lgt_give_buffer(L, 1, MAP_SLOT_BUFFER, 6);
		return lgt_fail(L, err.message);
	}
	/* The links' costs now, read before any table is made (a finalizer may remove a link). */
	double scale = m->unit_scale, x0 = m->unit_x, y0 = m->unit_y; /* the map may close while the table grows */
	int taken = 0;
	for (int i = 0; i + 1 < count; i++) {
		gtLinkInfo info;
		if (links[i] == GT_LINK_NONE || gtNav_GetLink(m->nav, links[i], &info, &err)) {
			links[i] = GT_LINK_NONE;
		} else {
			costs[i] = info.cost * scale;
			taken++;
		}
	}
	lua_createtable(L, 2 * count, 0); /* path */
	for (int i = 0; i < count; i++) {
		lgt_push_point(L, scale, x0, y0, points[i]); /* path, x, y */
		lua_rawseti(L, -3, 2 * i + 2);
		lua_rawseti(L, -2, 2 * i + 1);
	}
	lua_pushnumber(L, d * scale);     /* buffer, path, length */
	lua_createtable(L, 0, taken + 1); /* ..., links */
	lua_createtable(L, 0, taken);     /* ..., links, costs */
	for (int i = 0; i + 1 < count; i++) {
		if (links[i] == GT_LINK_NONE) continue;
		lua_pushinteger(L, (lua_Integer)links[i]);
		lua_rawseti(L, -3, i + 1);
		lua_pushnumber(L, costs[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "costs");
	lgt_give_buffer(L, 1, MAP_SLOT_BUFFER, 6); /* only now: a nested call would have written it */
	return 3;
}
