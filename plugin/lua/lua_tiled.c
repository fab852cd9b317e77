/* gridtree.load_map: a map from a .map file or a Tiled level, with what the level brings besides
** its cells. */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"

/* Replaces *map by its inflation for agents of half-width `clearance` (nothing for 0). */
static gtStatus apply_clearance(gtMap** map, int clearance, gtError* err)
{
	if (clearance == 0) return GT_OK;
	gtMap* inflated;
	gtStatus st = gtMap_Inflate(*map, clearance, &inflated, err);
	gtMap_Destroy(*map);
	*map = st ? NULL : inflated;
	return st;
}

static void set_field_number(lua_State* L, const char* key, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, key);
}

static void set_field_integer(lua_State* L, const char* key, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, key);
}

static void set_field_string(lua_State* L, const char* key, const char* v)
{
	lua_pushstring(L, v);
	lua_setfield(L, -2, key);
}

/* A Tiled property's value as Lua has it: bools and numbers as such, anything else as text. */
static void push_property_value(lua_State* L, const gtTiledProperty* p)
{
	if (strcmp(p->type, "bool") == 0) lua_pushboolean(L, strcmp(p->value, "true") == 0);
	else if (strcmp(p->type, "int") == 0) lua_pushinteger(L, (lua_Integer)strtoll(p->value, NULL, 10));
	else if (strcmp(p->type, "float") == 0) lua_pushnumber(L, strtod(p->value, NULL));
	else lua_pushstring(L, p->value);
}

/* What a Tiled file brings besides its cells, positions in the map's units:
** {tile_width, tile_height, origin_x, origin_y, blocked_by, objects = {{id, name, type, layer,
** x, y, width, height, properties = {name = value}}, ...}}. */
static void push_tiled_info(lua_State* L, const gtTiled* t, double scale, double x0, double y0)
{
	int ox, oy;
	gtTiled_Origin(t, &ox, &oy);
	lua_createtable(L, 0, 6);
	set_field_integer(L, "tile_width", gtTiled_TileWidth(t));
	set_field_integer(L, "tile_height", gtTiled_TileHeight(t));
	set_field_integer(L, "origin_x", ox);
	set_field_integer(L, "origin_y", oy);
	set_field_string(L, "blocked_by", gtTiled_BlockedBy(t));
	lua_createtable(L, 0, GT_TILED_RULE_COUNT); /* info, walls: cells each wall rule gave */
	for (int rule = 0; rule < GT_TILED_RULE_COUNT; rule++)
		set_field_integer(L, gtTiled_RuleName((gtTiledRule)rule), gtTiled_WallCells(t, (gtTiledRule)rule));
	lua_setfield(L, -2, "walls");
	int n = gtTiled_ObjectCount(t);
	lua_createtable(L, n, 0); /* info, objects */
	for (int i = 0; i < n; i++) {
		const gtTiledObject* o = gtTiled_Object(t, i);
		lua_createtable(L, 0, 9); /* info, objects, object */
		set_field_integer(L, "id", o->id);
		set_field_string(L, "name", o->name);
		set_field_string(L, "type", o->type);
		set_field_string(L, "layer", o->layer);
		set_field_number(L, "x", x0 + o->x * scale);
		set_field_number(L, "y", y0 + o->y * scale);
		set_field_number(L, "width", o->width * scale);
		set_field_number(L, "height", o->height * scale);
		lua_createtable(L, 0, o->property_count); /* ..., object, properties */
		for (int j = 0; j < o->property_count; j++) {
			const gtTiledProperty* p = gtTiled_Property(t, o->first_property + j);
			push_property_value(L, p);
			lua_setfield(L, -2, p->name);
		}
		lua_setfield(L, -2, "properties");
		set_field_integer(L, "floor", o->floor);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "objects"); /* info */
}

/* info.floors, info.floor_width and info.links = {{id, object, ax, ay, bx, by, floor_a, floor_b,
** cost, oneway}, ...}: the level's floors and link objects as the map took them (ids[i] is link i's). */
static void push_floors_and_links(lua_State* L, const gtTiled* t, const gtLinkId* ids, double scale, double x0,
                                  double y0)
{
	set_field_integer(L, "floors", gtTiled_FloorCount(t));
	set_field_number(L, "floor_width", gtTiled_FloorWidth(t) * scale);
	int n = gtTiled_LinkCount(t);
	lua_createtable(L, n, 0); /* info, links */
	for (int i = 0; i < n; i++) {
		const gtTiledLink* l = gtTiled_Link(t, i);
		lua_createtable(L, 0, 10);
		set_field_integer(L, "id", (lua_Integer)ids[i]);
		set_field_integer(L, "object", l->object);
		set_field_number(L, "ax", x0 + l->a.x * scale);
		set_field_number(L, "ay", y0 + l->a.y * scale);
		set_field_number(L, "bx", x0 + l->b.x * scale);
		set_field_number(L, "by", y0 + l->b.y * scale);
		set_field_integer(L, "floor_a", l->floor_a);
		set_field_integer(L, "floor_b", l->floor_b);
		set_field_number(L, "cost", l->cost * scale);
		lua_pushboolean(L, l->one_way);
		lua_setfield(L, -2, "oneway");
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "links");
}

typedef struct TiledInfo {
	const gtTiled* tiled;
	LMap* m;
	gtMap* map;
} TiledInfo;

/* Opens the map object, adds the level's floors and links to its nav and pushes the info table;
** nil, message when a link does not fit the map (an end walled by the clearance). */
static int open_tiled_protected(lua_State* L)
{
	const TiledInfo* info = lua_touserdata(L, 1);
	LMap* m = info->m;
	lgt_open_map(L, m, info->map);
	int n = gtTiled_LinkCount(info->tiled);
	gtLinkId* ids = lua_newuserdatauv(L, sizeof *ids * (size_t)(n > 0 ? n : 1), 0);
	gtError err;
	if (gtNav_AddTiledLinks(m->nav, info->tiled, ids, &err)) {
		luaL_pushfail(L);
		lua_pushstring(L, err.message);
		return 2;
	}
	push_tiled_info(L, info->tiled, m->unit_scale, m->unit_x, m->unit_y);
	push_floors_and_links(L, info->tiled, ids, m->unit_scale, m->unit_x, m->unit_y);
	return 1;
}

/* The gtTiledDef limit a load_map option names, or NULL. */
static int64_t* tiled_limit(gtTiledDef* def, const char* key)
{
	if (strcmp(key, "max_cells") == 0) return &def->max_cells;
	if (strcmp(key, "max_file_bytes") == 0) return &def->max_file_bytes;
	if (strcmp(key, "max_decompressed_bytes") == 0) return &def->max_decompressed_bytes;
	if (strcmp(key, "max_objects") == 0) return &def->max_objects;
	if (strcmp(key, "max_tilesets") == 0) return &def->max_tilesets;
	return NULL;
}

int lgt_load_map(lua_State* L)
{
	const char* path = luaL_checkstring(L, 1);
	int clearance = 0, pixels = 0;
	gtTiledDef def = gtTiled_DefaultDef();
	const char* key;
	for (int v = lgt_first_option(L, 2, &key); v; v = lgt_next_option(L, 2, v, &key)) {
		if (strcmp(key, "clearance") == 0) clearance = lgt_option_integer(L, v, 2, key, 0, GT_MAP_MAX_CLEARANCE);
		else if (strcmp(key, "blocked_layer") == 0 || strcmp(key, "blocked_property") == 0) {
			if (lua_type(L, v) != LUA_TSTRING) lgt_arg_errorf(L, 2, "%s must be a string", key);
			/* The option table holds the string for the rest of the call. */
			if (key[8] == 'l') def.blocked_layer = lua_tostring(L, v);
			else def.blocked_property = lua_tostring(L, v);
		} else if (strcmp(key, "allow_empty") == 0 || strcmp(key, "allow_outside_paths") == 0) {
			if (!lua_isboolean(L, v)) lgt_arg_errorf(L, 2, "%s must be a boolean", key);
			*(key[6] == 'e' ? &def.allow_empty : &def.allow_outside_paths) = lua_toboolean(L, v);
		} else if (tiled_limit(&def, key)) { /* max_cells, max_file_bytes, ...: gtTiledDef's limits */
			*tiled_limit(&def, key) = lgt_option_integer(L, v, 2, key, 0, INT_MAX);
		} else if (strcmp(key, "units") == 0) {
			const char* units = lua_type(L, v) == LUA_TSTRING ? lua_tostring(L, v) : "";
			if (strcmp(units, "pixels") == 0) pixels = 1;
			else if (strcmp(units, "cells") != 0) luaL_argerror(L, 2, "units must be \"cells\" or \"pixels\"");
		} else lgt_unknown_option(L, 2, v - 1);
	}
	if (def.blocked_layer && def.blocked_property)
		luaL_argerror(L, 2, "give blocked_layer or blocked_property, not both");
	bool tiled_path = gtTiled_IsTiledPath(path);
	if ((def.blocked_layer || def.blocked_property || pixels) && !tiled_path)
		luaL_argerror(L, 2,
		              "blocked_layer, blocked_property and units = \"pixels\" are for Tiled maps (.tmx, .tmj, .json)");
	LMap* m = lgt_new_map_object(L);
	gtMap* map;
	gtTiled* tiled = NULL;
	gtError err;
	gtStatus st = tiled_path ? gtMap_LoadTiled(path, &def, &map, &tiled, &err) : gtMap_Load(path, &map, &err);
	if (!st) st = apply_clearance(&map, clearance, &err);
	if (st) {
		gtTiled_Destroy(tiled);
		return lgt_fail(L, err.message);
	}
	if (tiled) {
		int ox, oy, tw = gtTiled_TileWidth(tiled), th = gtTiled_TileHeight(tiled);
		gtTiled_Origin(tiled, &ox, &oy);
		if (pixels && tw != th) {
			gtTiled_Destroy(tiled);
			gtMap_Destroy(map);
			return lgt_fail(
			    L, lua_pushfstring(L, "%s: units = \"pixels\" needs square tiles (these are %dx%d)", path, tw, th));
		}
		if (pixels) m->unit_scale = tw, m->unit_x = (double)ox * tw, m->unit_y = (double)oy * th;
	}
	if (!tiled) {
		lgt_open_map(L, m, map);
		return 1;
	}
	/* Opening, adding the links and the tables allocate, and may raise: done under lua_pcall, so the
	** gtTiled is freed either way (the map is the object's from the start of lgt_open_map). */
	TiledInfo info = {tiled, m, map};
	lua_pushcfunction(L, open_tiled_protected);
	lua_pushlightuserdata(L, &info);
	int failed = lua_pcall(L, 1, 2, 0); /* ..., map, info or nil, message, or error */
	gtTiled_Destroy(tiled);
	if (failed) return lua_error(L);
	if (lua_isnil(L, -2)) return 2; /* nil, message: the map object is closed by its finalizer */
	lua_pop(L, 1);
	return 2;
}
