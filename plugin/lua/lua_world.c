/* The world object (gridtree.World): gridtree.new_world, objects, their moves and keywords. */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"

LWorld* lgt_check_world(lua_State* L, int i)
{
	LWorld* w = luaL_checkudata(L, i, WORLD_TYPE);
	if (w->closed || !w->world) luaL_argerror(L, i, "world is closed");
	return w;
}

gtObjectId lgt_check_id(lua_State* L, LWorld* w, int i)
{
	lua_Integer v = luaL_checkinteger(L, i);
	gtObjectId id = (gtObjectId)(uint64_t)v;
	if (!gtWorld_IsValid(w->world, id)) luaL_argerror(L, i, "stale object id");
	return id;
}

int lgt_new_world(lua_State* L)
{
	LMap* m = lgt_check_map(L, 1);
	gtWorldDef def = gtWorld_DefaultDef();
	const char* key;
	for (int v = lgt_first_option(L, 2, &key); v; v = lgt_next_option(L, 2, v, &key)) {
		if (strcmp(key, "leaf") == 0) def.leaf_size = lgt_option_integer(L, v, 2, key, 1, GT_WORLD_MAX_LEAF_SIZE);
		else if (strcmp(key, "keyword_bitmap_bytes") == 0) {
			lua_Number n = lgt_option_number(L, v, 2, key);
			if (!(n >= 0 && n <= (lua_Number)GT_WORLD_MAX_BITMAP_BYTES && n == floor(n))) {
				char most[32]; /* Lua's message formats have no 64-bit integer */
				snprintf(most, sizeof most, "%lld", (long long)GT_WORLD_MAX_BITMAP_BYTES);
				lgt_arg_errorf(L, 2, "%s must be an integer from 0 to %s", key, most);
			}
			def.keyword_bitmap_bytes = (int64_t)n;
		} else lgt_unknown_option(L, 2, v - 1);
	}
	LWorld* w = lua_newuserdatauv(L, sizeof *w, WORLD_SLOTS); /* world */
	memset(w, 0, sizeof *w);
	lgt_newslots(L, -1, WORLD_SLOTS);
	luaL_setmetatable(L, WORLD_TYPE);
	m = lgt_check_map(L, 1); /* allocating may have run a finalizer that closed it (rule 4) */
	gtError err;
	if (gtWorld_Create(m->map, &def, &w->world, &err)) return lgt_fail(L, err.message);
	w->map = m;
	m->worlds++;
	lua_pushvalue(L, 1);                /* world, map */
	lgt_setslot(L, -2, WORLD_SLOT_MAP); /* world (keeps the map alive) */
	return 1;
}

static int world_add(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	gtVec2 p = lgt_check_point(L, w->map, 2);
	int32_t words[MAX_WORDS];
	int n = lgt_read_words(L, w, 4, 4, "keywords", words, 1, NULL, 0);
	gtObjectId id;
	gtError err;
	if (gtWorld_Add(w->world, p, words, n, &id, &err)) return lgt_fail(L, err.message);
	lua_pushinteger(L, (lua_Integer)id);
	return 1;
}

static int world_move(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	gtObjectId id = lgt_check_id(L, w, 2);
	gtVec2 p = lgt_check_point(L, w->map, 3);
	gtError err;
	if (gtWorld_Move(w->world, id, p, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int world_set_keywords(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	gtObjectId id = lgt_check_id(L, w, 2);
	int32_t words[MAX_WORDS];
	int n = lgt_read_words(L, w, 3, 3, "keywords", words, 1, NULL, 0);
	gtError err;
	if (gtWorld_SetKeywords(w->world, id, words, n, &err)) return luaL_error(L, "gridtree: %s", err.message);
	return 0;
}

static int world_remove(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	gtObjectId id = lgt_check_id(L, w, 2);
	gtWorld_Remove(w->world, id, NULL);
	return 0;
}

static int world_move_many(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	luaL_checktype(L, 3, LUA_TTABLE);
	luaL_checktype(L, 4, LUA_TTABLE);
	size_t raw = (size_t)lua_rawlen(L, 2); /* rule 4: raw, bounded before anything loops */
	if (raw > MAX_MOVE_MANY) lgt_arg_errorf(L, 2, "more than %d objects", MAX_MOVE_MANY);
	if ((size_t)lua_rawlen(L, 3) != raw || (size_t)lua_rawlen(L, 4) != raw)
		luaL_argerror(L, 3, "ids, xs and ys must have the same length");
	int n = (int)raw;
	lua_settop(L, 4);
	Buffer* buffer = lgt_take_buffer(L, 1, WORLD_SLOT_BUFFER); /* ..., buffer (rule 3) */
	Scratch scratch = lgt_scratch_of(buffer);
	for (int i = 1; i <= n; i++) {
		/* Scratch grows with the entries really read, so a crafted length cannot make it allocate. */
		if (i > scratch.capacity) scratch = lgt_reserve(L, 5, 2 * i < n ? 2 * i : n);
		w = lgt_check_world(L, 1); /* rule 4: taking or growing may have run a finalizer */
		lua_rawgeti(L, 2, i);      /* ..., id */
		lua_rawgeti(L, 3, i);      /* ..., id, x */
		lua_rawgeti(L, 4, i);      /* ..., id, x, y */
		int ok_x, ok_y;
		lua_Integer id;
		int ok_id = lgt_tointegerx(L, -3, &id);
		double x = lua_tonumberx(L, -2, &ok_x), y = lua_tonumberx(L, -1, &ok_y);
		if (!ok_id || !gtWorld_IsValid(w->world, (gtObjectId)(uint64_t)id))
			luaL_error(L, "bad argument #%d to 'move_many' (entry %d: stale object id)", lgt_arg_number(L, 2), i);
		if (!ok_x || !ok_y || !isfinite(x) || !isfinite(y))
			luaL_error(L, "bad argument #%d to 'move_many' (entry %d: coordinates must be finite numbers)",
			           lgt_arg_number(L, 3), i);
		scratch.ids[i - 1] = (gtObjectId)(uint64_t)id;
		scratch.points[i - 1] = lgt_to_cells(w->map, x, y);
		lua_pop(L, 3); /* ... */
	}
	lgt_give_buffer(L, 1, WORLD_SLOT_BUFFER, 5);
	w = lgt_check_world(L, 1); /* rule 4, for n = 0 too */
	gtError err;
	if (gtWorld_MoveMany(w->world, scratch.ids, scratch.points, n, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int world_position(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	gtObjectId id = lgt_check_id(L, w, 2);
	gtVec2 p;
	gtWorld_GetPosition(w->world, id, &p, NULL);
	lgt_push_point(L, w->map->unit_scale, w->map->unit_x, w->map->unit_y, p);
	return 2;
}

static int world_keywords(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	gtObjectId id = lgt_check_id(L, w, 2);
	const int32_t* words;
	int n = gtWorld_GetKeywords(w->world, id, &words);
	lua_createtable(L, n, 0); /* words */
	for (int i = 0; i < n; i++) {
		/* Each allocation may run a finalizer that closes the world or changes the object: the
		** list is fetched again after every one (rule 4), and the name is copied out first
		** (LuaJIT's lua_pushstring may collect before it copies). */
		w = lgt_check_world(L, 1);
		if (gtWorld_GetKeywords(w->world, id, &words) != n)
			luaL_argerror(L, 2, "object changed while its keywords were read");
		char name[GT_KEYWORD_MAX_BYTES + 1];
		snprintf(name, sizeof name, "%s", gtWorld_KeywordName(w->world, words[i]));
		lua_pushstring(L, name);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static int world_count(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	lua_pushinteger(L, gtWorld_Count(w->world));
	return 1;
}

static int world_valid(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	lua_Integer v;
	int ok = lgt_tointegerx(L, 2, &v);
	lua_pushboolean(L, ok && gtWorld_IsValid(w->world, (gtObjectId)(uint64_t)v));
	return 1;
}

static int world_validate(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	gtError err;
	if (gtWorld_Validate(w->world, &err)) return lgt_fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

/* Frees the gtWorld; the buffer stays with the object (rule 3). */
int lgt_world_close(lua_State* L)
{
	LWorld* w = luaL_checkudata(L, 1, WORLD_TYPE);
	w->closed = 1;
	lgt_world_release(w);
	return 0;
}

/* Frees the world once it is closed and no crowd object uses it any more (as lgt_map_release). */
void lgt_world_release(LWorld* w)
{
	if (!w->closed || w->crowds > 0 || !w->world) return;
	gtCrowd_Destroy(w->crowd);
	gtSchedule_Destroy(w->schedule);
	w->crowd = NULL, w->schedule = NULL;
	gtWorld_Destroy(w->world);
	w->world = NULL;
	w->map->worlds--;
	lgt_map_release(w->map);
}

/* The buffer goes with its own userdata (rule 3). */
int lgt_world_gc(lua_State* L)
{
	return lgt_world_close(L);
}

int lgt_world_tostring(lua_State* L)
{
	LWorld* w = luaL_checkudata(L, 1, WORLD_TYPE);
	if (w->closed || !w->world) lua_pushstring(L, "gridtree.World (closed)");
	else lua_pushfstring(L, "gridtree.World (%d objects)", gtWorld_Count(w->world));
	return 1;
}

const luaL_Reg lgt_world_methods[] = {
    {"add", world_add},
    {"move", world_move},
    {"set_keywords", world_set_keywords},
    {"remove", world_remove},
    {"move_many", world_move_many},
    {"position", world_position},
    {"keywords", world_keywords},
    {"count", world_count},
    {"valid", world_valid},
    {"nearest", lgt_world_nearest},
    {"within", lgt_world_within},
    {"top", lgt_world_top},
    {"nearest_many", lgt_world_nearest_many},
    {"validate", world_validate},
    {"close", lgt_world_close},
    {NULL, NULL},
};
