/* Links (docs/links.md): map:add_link{ax, ay, bx, by, cost = c, oneway = true} -> id, map:remove_link(id),
** map:enable_link(id, on), map:link_count(). Positions and costs are in the map's units. */

#include <math.h>
#include <string.h>

#include "lua_binding.h"

/* The link's table, read raw (rule 4): four finite numbers, a cost and maybe oneway. */
static void read_link(lua_State* L, LMap* m, gtVec2* a, gtVec2* b, double* cost, unsigned* flags)
{
	luaL_checktype(L, 2, LUA_TTABLE);
	double v[4];
	for (int k = 0; k < 4; k++) {
		lua_rawgeti(L, 2, k + 1);
		int ok;
		v[k] = lua_tonumberx(L, -1, &ok);
		lua_pop(L, 1);
		if (!ok || !isfinite(v[k]))
			lgt_arg_errorf(L, 2, "a link is {ax, ay, bx, by, cost = c}: four finite numbers first");
	}
	lua_pushnil(L);
	*flags = 0;
	*cost = NAN;
	while (lua_next(L, 2)) { /* key, value */
		if (lua_type(L, -2) == LUA_TNUMBER && lua_tonumber(L, -2) >= 1 && lua_tonumber(L, -2) <= 4) {
			lua_pop(L, 1);
			continue;
		}
		const char* key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
		if (key && strcmp(key, "cost") == 0) {
			*cost = lgt_option_number(L, -1, 2, "cost");
		} else if (key && strcmp(key, "oneway") == 0) {
			if (lua_type(L, -1) != LUA_TBOOLEAN) lgt_arg_errorf(L, 2, "oneway must be a boolean");
			if (lua_toboolean(L, -1)) *flags |= GT_LINK_ONE_WAY;
		} else {
			lgt_unknown_option(L, 2, lua_gettop(L) - 1);
		}
		lua_pop(L, 1);
	}
	if (!(*cost >= 0) || isinf(*cost)) lgt_arg_errorf(L, 2, "cost must be a finite number >= 0");
	*a = lgt_to_cells(m, v[0], v[1]);
	*b = lgt_to_cells(m, v[2], v[3]);
	*cost /= m->unit_scale;
}

/* -> the link's id; nil, message when an end is not in the free space. */
int lgt_map_add_link(lua_State* L)
{
	LMap* m = lgt_check_editable_map(L, 1);
	gtVec2 a, b;
	double cost;
	unsigned flags;
	read_link(L, m, &a, &b, &cost, &flags);
	m = lgt_check_editable_map(L, 1); /* reading may have run a finalizer */
	gtLinkId id;
	gtError err;
	gtStatus st = gtNav_AddLink(m->nav, a, b, cost, flags, &id, &err);
	if (st == GT_ERR_INVALID_POINT) return lgt_fail(L, err.message);
	if (st) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushinteger(L, (lua_Integer)id);
	return 1;
}

static gtLinkId check_link(lua_State* L, int i)
{
	lua_Integer id = luaL_checkinteger(L, i);
	if (id <= 0 || id > (lua_Integer)UINT32_MAX) luaL_argerror(L, i, "no such link");
	return (gtLinkId)id;
}

int lgt_map_remove_link(lua_State* L)
{
	LMap* m = lgt_check_editable_map(L, 1);
	gtError err;
	if (gtNav_RemoveLink(m->nav, check_link(L, 2), &err)) return luaL_argerror(L, 2, "no such link");
	lua_pushboolean(L, 1);
	return 1;
}

int lgt_map_enable_link(lua_State* L)
{
	LMap* m = lgt_check_editable_map(L, 1);
	gtLinkId id = check_link(L, 2);
	luaL_checktype(L, 3, LUA_TBOOLEAN);
	gtError err;
	if (gtNav_EnableLink(m->nav, id, lua_toboolean(L, 3), &err)) return luaL_argerror(L, 2, "no such link");
	lua_pushboolean(L, 1);
	return 1;
}

int lgt_map_link_count(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	lua_pushinteger(L, gtNav_LinkCount(m->nav));
	return 1;
}

/* map:set_floors(count, width): the map is `count` floors of `width` cells side by side
** (gtNav_SetFloors); nil, message when its layout does not fit. */
int lgt_map_set_floors(lua_State* L)
{
	LMap* m = lgt_check_editable_map(L, 1);
	lua_Integer floors = luaL_checkinteger(L, 2), width = luaL_checkinteger(L, 3);
	if (floors < 1 || floors > GT_MAP_MAX_SIDE) luaL_argerror(L, 2, "floors must be from 1 to the map's width");
	if (width < 1 || width > GT_MAP_MAX_SIDE) luaL_argerror(L, 3, "width must be from 1 to the map's width");
	gtError err;
	if (gtNav_SetFloors(m->nav, (int)floors, (int)width, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

/* map:floor_point(floor, x, y) -> the map position of (x, y) on that floor (positions as on floor 0). */
int lgt_map_floor_point(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	lua_Integer floor = luaL_checkinteger(L, 2);
	if (floor < 0 || floor >= gtNav_FloorCount(m->nav))
		lgt_arg_errorf(L, 2, "floors are 0 to %d", gtNav_FloorCount(m->nav) - 1);
	gtVec2 p = gtNav_FloorPoint(m->nav, (int)floor, lgt_check_point(L, m, 3));
	lgt_push_point(L, m->unit_scale, m->unit_x, m->unit_y, p);
	return 2;
}

/* map:point_floor(x, y) -> floor, x, y on it; nil for a position between two floors. */
int lgt_map_point_floor(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtVec2 local;
	int floor = gtNav_PointFloor(m->nav, lgt_check_point(L, m, 2), &local);
	if (floor < 0) {
		luaL_pushfail(L);
		return 1;
	}
	lua_pushinteger(L, floor);
	lgt_push_point(L, m->unit_scale, m->unit_x, m->unit_y, local);
	return 3;
}

/* map:reachable(ax, ay, bx, by) -> whether b can be reached from a, walking and taking links;
** nil, message for a point off the free space. */
int lgt_map_reachable(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtVec2 a = lgt_check_point(L, m, 2), b = lgt_check_point(L, m, 4);
	const char* invalid = lgt_pair_invalid(m, a, b);
	if (invalid) return lgt_fail(L, invalid);
	bool yes;
	gtError err;
	if (gtNavQuery_Reachable(m->query, a, b, &yes, &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushboolean(L, yes);
	return 1;
}

/* map:nearest_reachable(fx, fy, tx, ty) -> x, y: the point reachable from f closest to t (t itself
** when reachable; t may be in a wall); nil, message for an f off the free space. */
int lgt_map_nearest_reachable(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtVec2 from = lgt_check_point(L, m, 2), to = lgt_check_point(L, m, 4);
	gtPointCheck c = gtMap_CheckPoint(m->map, from);
	if (c != GT_POINT_VALID) return lgt_fail(L, gtPointCheckName(c));
	gtVec2 point;
	gtError err;
	if (gtNavQuery_NearestReachable(m->query, from, to, &point, NULL, NULL, 0, NULL, NULL, &err))
		return luaL_error(L, "gridtree: %s", err.message);
	lgt_push_point(L, m->unit_scale, m->unit_x, m->unit_y, point);
	return 2;
}
