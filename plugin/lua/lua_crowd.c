/* Crowds: world:nearest_many, every agent's k nearest as one batch. */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"

#define MAX_MANY_K 255 /* nearest_many's k: a target field keeps up to 255 per hub */

/* world:nearest_many(xs, ys, k, keywords, opts): every agent's k nearest, as one batch. */
int lgt_world_nearest_many(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	luaL_checktype(L, 3, LUA_TTABLE);
	size_t raw = (size_t)lua_rawlen(L, 2); /* rule 4: raw, bounded before anything loops */
	if (raw > MAX_MOVE_MANY) lgt_arg_errorf(L, 2, "more than %d agents", MAX_MOVE_MANY);
	if ((size_t)lua_rawlen(L, 3) != raw) luaL_argerror(L, 3, "xs and ys must have the same length");
	lua_Integer k = luaL_checkinteger(L, 4);
	if (k < 1 || k > MAX_MANY_K) lgt_arg_errorf(L, 4, "k must be an integer from 1 to %d", MAX_MANY_K);
	int32_t words[MAX_WORDS];
	Unknown unknown;
	int named = lgt_read_words(L, w, 5, 5, "keywords", words, 0, &unknown, 6);
	gtQuery q = gtQuery_Default((gtVec2){0, 0});
	q.k = (int)k;
	q.keyword_count = lgt_one_per_unknown_word(words, named, unknown.count);
	q.keywords = words;
	int threads = 0, into = 0, has_self = 0;
	gtObjectId exclude[MAX_EXCLUDE];
	double budget_us = 0;
	gtCrowdMethod method = GT_CROWD_AUTO;
	const char* key;
	for (int v = lgt_first_option(L, 6, &key); v; v = lgt_next_option(L, 6, v, &key)) {
		if (strcmp(key, "threads") == 0) threads = lgt_option_integer(L, v, 6, key, 0, GT_MAX_THREADS);
		else if (strcmp(key, "budget_us") == 0) {
			budget_us = lgt_option_number(L, v, 6, key);
			if (!(budget_us > 0 && budget_us < INFINITY)) luaL_argerror(L, 6, "budget_us must be a number > 0");
		} else if (strcmp(key, "method") == 0) {
			gtError err;
			if (lua_type(L, v) != LUA_TSTRING || gtCrowdMethod_Parse(lua_tostring(L, v), &method, &err))
				luaL_argerror(L, 6, "method must be \"auto\", \"each\", \"batch\" or \"field\"");
		} else if (strcmp(key, "into") == 0) {
			if (!lua_istable(L, v)) luaL_argerror(L, 6, "into must be {ids_table, dists_table, counts_table}");
			into = 1;
		} else if (strcmp(key, "exclude") == 0) {
			q.exclude_count = lgt_read_exclude(L, v, 6, exclude);
			q.exclude = exclude;
		} else if (strcmp(key, "self") == 0) {
			if (!lua_istable(L, v)) luaL_argerror(L, 6, "self must be a table of ids, one per agent");
			has_self = 1;
		} else lgt_unknown_option(L, 6, v - 1);
	}
	if (into) { /* the three tables stay on the stack for the answers */
		lua_settop(L, 6);
		lua_pushliteral(L, "into");
		lua_rawget(L, 6);                                      /* ..., into */
		lua_rawgeti(L, -1, 1);                                 /* ..., into, ids */
		lua_rawgeti(L, -2, 2);                                 /* ..., into, ids, dists */
		lua_rawgeti(L, -3, 3);                                 /* ..., into, ids, dists, counts */
		if (!lua_istable(L, -3) || !lua_istable(L, -2) || !lua_istable(L, -1))
			luaL_argerror(L, 6, "into must be {ids_table, dists_table, counts_table}");
		into = lua_gettop(L) - 2;
	}
	if (budget_us > 0 && !into)
		luaL_argerror(L, 6, "budget_us needs into tables: agents not served this frame keep their answers there");
	int self_at = 0;
	if (has_self) { /* the table stays on the stack */
		lua_pushliteral(L, "self");
		lua_rawget(L, 6);                                      /* ..., self */
		self_at = lua_gettop(L);
		if ((size_t)lua_rawlen(L, self_at) != raw) luaL_argerror(L, 6, "self must have one entry per agent (an id, or false)");
	}
	int n = (int)raw;
	size_t slots = (size_t)n * (size_t)k;
	size_t bytes = (size_t)n * (sizeof(gtVec2) + sizeof(int) + sizeof(gtStatus)) + slots * (sizeof(gtObjectId) + sizeof(double));
	lgt_take_buffer(L, 1, WORLD_SLOT_BUFFER);                      /* ..., buffer (rule 3) */
	int buffer_at = lua_gettop(L);
	/* Grows with the largest batch, then stays (a frame allocates nothing). */
	gtObjectId* ids = lgt_buffer_reserve(L, buffer_at, 0, bytes);
	w = lgt_check_world(L, 1); /* rule 4: taking or growing may have run a finalizer that closed it */
	double* dists = (double*)(ids + slots);
	gtVec2* points = (gtVec2*)(dists + slots);
	int* found = (int*)(points + n);
	gtStatus* status = (gtStatus*)(found + n);
	for (int i = 1; i <= n; i++) {
		lua_rawgeti(L, 2, i);                                  /* ..., x */
		lua_rawgeti(L, 3, i);                                  /* ..., x, y */
		int ok_x, ok_y;
		double x = lua_tonumberx(L, -2, &ok_x), y = lua_tonumberx(L, -1, &ok_y);
		if (!ok_x || !ok_y || !isfinite(x) || !isfinite(y))
			luaL_error(L, "bad argument #%d to 'nearest_many' (agent %d: coordinates must be finite numbers)", lgt_arg_number(L, 2), i);
		points[i - 1] = lgt_to_cells(w->map, x, y);
		found[i - 1] = -2; /* not served this frame */
		lua_pop(L, 2);
	}
	gtError err;
	if (!w->crowd || w->crowd_threads != threads) {
		gtCrowd_Destroy(w->crowd);
		w->crowd = NULL;
		gtCrowdDef def = gtCrowd_DefaultDef();
		def.threads = threads;
		if (gtCrowd_Create(w->world, w->map->nav, &def, &w->crowd, &err)) return luaL_error(L, "gridtree: %s", err.message);
		w->crowd_threads = threads;
	}
	if (budget_us > 0 && !w->schedule && gtSchedule_Create(&w->schedule, &err)) return luaL_error(L, "gridtree: %s", err.message);
	gtCrowdQueries batch = {&q, points, n};
	if (self_at) { /* one query per agent: the shared exclude list and the agent's own id */
		int per = q.exclude_count + 1;
		gtQuery* queries = lgt_buffer_reserve(L, buffer_at, 1, (size_t)n * (sizeof(gtQuery) + (size_t)per * sizeof(gtObjectId)));
		w = lgt_check_world(L, 1); /* rule 4 */
		gtObjectId* skip = (gtObjectId*)(queries + n);
		for (int i = 0; i < n; i++) {
			lua_rawgeti(L, self_at, i + 1);                    /* ..., id */
			lua_Integer id = 0;
			if (lua_type(L, -1) != LUA_TBOOLEAN || lua_toboolean(L, -1))
				if (lua_type(L, -1) != LUA_TNUMBER || !lgt_tointegerx(L, -1, &id))
					luaL_error(L, "bad argument #%d to 'nearest_many' (self entry %d: an id, or false)", lgt_arg_number(L, 6), i + 1);
			lua_pop(L, 1);
			gtObjectId* own = skip + (size_t)i * (size_t)per;
			own[0] = (gtObjectId)(uint64_t)id;
			for (int e = 0; e < q.exclude_count; e++) own[e + 1] = exclude[e];
			queries[i] = q;
			queries[i].point = points[i];
			queries[i].exclude = own;
			queries[i].exclude_count = per;
		}
		batch.queries = queries, batch.points = NULL;
	}
	gtCrowdAnswers out = {(int)k, ids, dists, found, status};
	int served = n;
	gtStatus st = budget_us > 0 ? gtCrowd_NearestScheduled(w->crowd, &batch, method, w->schedule, budget_us, &out, &served, NULL, &err)
	                            : gtCrowd_Nearest(w->crowd, &batch, method, &out, NULL, &err);
	if (st) return luaL_error(L, "gridtree: %s", err.message); /* misuse (a field without an index) or memory */
	if (into) {
		lua_pushvalue(L, into);                                /* ..., ids */
		lua_pushvalue(L, into + 1);                            /* ..., ids, dists */
		lua_pushvalue(L, into + 2);                            /* ..., ids, dists, counts */
	} else {
		lua_createtable(L, (int)slots, 0);
		lua_createtable(L, (int)slots, 0);
		lua_createtable(L, n, 0);
	}
	/* The answers are in the call's own buffer (rule 3): nothing below can see the world closed or
	** the answers moved or overwritten. */
	double scale = w->map->unit_scale;
	for (int i = 0; i < n; i++) {
		if (found[i] == -2) continue; /* not served this frame: its entries stay */
		int count = status[i] == GT_OK ? found[i] : -1;
		lua_pushinteger(L, count);
		lua_rawseti(L, -2, i + 1);
		for (int r = 0; r < count; r++) {
			lua_pushinteger(L, (lua_Integer)ids[(size_t)i * (size_t)k + (size_t)r]);
			lua_rawseti(L, -4, (lua_Integer)((size_t)i * (size_t)k + (size_t)r + 1));
			lua_pushnumber(L, dists[(size_t)i * (size_t)k + (size_t)r] * scale);
			lua_rawseti(L, -3, (lua_Integer)((size_t)i * (size_t)k + (size_t)r + 1));
		}
	}
	lua_pushinteger(L, served);
	lgt_give_buffer(L, 1, WORLD_SLOT_BUFFER, buffer_at); /* only after the copies (rule 3) */
	return 4;
}
