/* World queries: world:nearest, world:within and world:top, their options and results. */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"

enum { Q_NEAREST, Q_WITHIN, Q_TOP };

/* Query options at stack index i into q; returns the `into` flag, `stats` and the metric. */
typedef struct QueryOptions {
	int into, stats, euclid, trace;
	int into_at; /* stack index of the `into` ids table, the dists table above it */
	int has_miss_cost;
	double alpha; /* top: 0 unless given; the returned scores are then alpha-weighted */
	double scale; /* the map's units per cell: distances and scores go out in units */
	int32_t any[MAX_WORDS], none[MAX_WORDS];
	gtObjectId exclude[MAX_EXCLUDE];
} QueryOptions;

/* `exclude` at stack index v: one id or a list of ids (any ids: stale ones skip nothing). */
int lgt_read_exclude(lua_State* L, int v, int arg, gtObjectId* out)
{
	lua_Integer id;
	if (lua_type(L, v) == LUA_TNUMBER) {
		if (!lgt_tointegerx(L, v, &id)) luaL_argerror(L, arg, "exclude must be an object id or a list of ids");
		out[0] = (gtObjectId)(uint64_t)id;
		return 1;
	}
	if (!lua_istable(L, v)) luaL_argerror(L, arg, "exclude must be an object id or a list of ids");
	size_t n = (size_t)lua_rawlen(L, v);
	if (n > MAX_EXCLUDE) lgt_arg_errorf(L, arg, "exclude: more than %d ids", MAX_EXCLUDE);
	lgt_check_list(L, v, arg, "exclude", n, 0);
	for (size_t k = 0; k < n; k++) {
		lua_rawgeti(L, v, (lua_Integer)k + 1);
		int ok = lua_type(L, -1) == LUA_TNUMBER && lgt_tointegerx(L, -1, &id);
		lua_pop(L, 1);
		if (!ok) luaL_argerror(L, arg, "exclude must be an object id or a list of ids");
		out[k] = (gtObjectId)(uint64_t)id;
	}
	return (int)n;
}

/* Every error names the options table (argument i) and the option. The `into` tables are left
** on the stack (o->into_at) for push_results. */
static void read_options(lua_State* L, LWorld* w, int i, int kind, gtQuery* q, QueryOptions* o)
{
	memset(o, 0, sizeof *o);
	o->scale = w->map->unit_scale;
	const char* key;
	for (int v = lgt_first_option(L, i, &key); v; v = lgt_next_option(L, i, v, &key)) {
		if (strcmp(key, "min_match") == 0) {
			lua_Number n = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : NAN;
			if (!(n >= 0 && n == floor(n))) luaL_argerror(L, i, "min_match must be an integer >= 0");
			q->min_match = n > MAX_WORDS ? MAX_WORDS + 1 : (int)n;
		} else if (strcmp(key, "any") == 0) {
			q->any_count = lgt_read_words(L, w, v, i, "any", o->any, 0, NULL, 0);
			q->any = o->any;
		} else if (strcmp(key, "none") == 0) {
			q->none_count = lgt_read_words(L, w, v, i, "none", o->none, 0, NULL, 0);
			q->none = o->none;
		} else if (strcmp(key, "region") == 0) {
			if (!lua_istable(L, v)) luaL_argerror(L, i, "region must be {x0, y0, x1, y1} numbers");
			for (int k = 0; k < 4; k++) {
				lua_rawgeti(L, v, k + 1);
				int ok;
				q->region[k] = lua_tonumberx(L, -1, &ok);
				if (!ok || !isfinite(q->region[k])) luaL_argerror(L, i, "region must be {x0, y0, x1, y1} numbers");
				lua_pop(L, 1);
			}
			if (q->region[0] > q->region[2] || q->region[1] > q->region[3])
				luaL_argerror(L, i, "region must have x0 <= x1 and y0 <= y1");
			gtVec2 lo = lgt_to_cells(w->map, q->region[0], q->region[1]),
			       hi = lgt_to_cells(w->map, q->region[2], q->region[3]);
			q->region[0] = lo.x, q->region[1] = lo.y, q->region[2] = hi.x, q->region[3] = hi.y;
			q->use_region = true;
		} else if (strcmp(key, "metric") == 0) {
			const char* metric = lua_type(L, v) == LUA_TSTRING ? lua_tostring(L, v) : "";
			if (strcmp(metric, "euclid") == 0) o->euclid = 1;
			else if (strcmp(metric, "path") != 0) luaL_argerror(L, i, "metric must be \"path\" or \"euclid\"");
		} else if (strcmp(key, "into") == 0) {
			if (!lua_istable(L, v)) luaL_argerror(L, i, "into must be {ids_table, dists_table}");
			o->into = 1;
		} else if (strcmp(key, "exclude") == 0) {
			q->exclude_count = lgt_read_exclude(L, v, i, o->exclude);
			q->exclude = o->exclude;
		} else if (strcmp(key, "stats") == 0) {
			o->stats = lua_toboolean(L, v);
		} else if (strcmp(key, "trace") == 0) {
			o->trace = lua_toboolean(L, v);
		} else if (strcmp(key, "alpha") == 0 && kind == Q_TOP) {
			o->alpha = lgt_option_number(L, v, i, key);
			if (!(o->alpha > 0 && o->alpha <= 1)) luaL_argerror(L, i, "alpha must be in (0, 1]");
		} else if (strcmp(key, "miss_cost") == 0 && kind == Q_TOP) {
			q->miss_cost = lgt_option_number(L, v, i, key);
			if (!(q->miss_cost >= 0 && q->miss_cost < INFINITY))
				luaL_argerror(L, i, "miss_cost must be a finite number >= 0");
			q->miss_cost /= w->map->unit_scale; /* given in units, like the distances it is added to */
			o->has_miss_cost = 1;
		} else {
			lgt_unknown_option(L, i, v - 1);
		}
	}
	/* Both set the price of a missing word; silently preferring one would hide a mistake. */
	if (o->alpha > 0 && o->has_miss_cost) luaL_argerror(L, i, "give alpha or miss_cost, not both");
	if (o->into) {
		lua_pushliteral(L, "into");
		lua_rawget(L, i);      /* ..., into */
		lua_rawgeti(L, -1, 1); /* ..., into, ids */
		lua_rawgeti(L, -2, 2); /* ..., into, ids, dists */
		if (!lua_istable(L, -2) || !lua_istable(L, -1)) luaL_argerror(L, i, "into must be {ids_table, dists_table}");
		lua_remove(L, -3); /* ..., ids, dists */
		o->into_at = lua_gettop(L) - 1;
	}
}

/* trace = true: the nodes the traversal popped or pruned, six numbers each, into block 1 of the
** call's buffer (rule 2: no Lua code inside the query). The block cannot grow inside the query:
** when it was too small, the query is run again with one that fits. */
typedef struct Trace {
	double* at;
	size_t room;  /* numbers block 1 holds */
	size_t count; /* numbers the query gave (more than room: run it again with more) */
} Trace;

static void trace_node(void* context, gtTraceEvent event, int level, const double rect[4])
{
	Trace* t = context;
	if (t->count + 6 <= t->room) {
		double* at = t->at + t->count;
		for (int i = 0; i < 4; i++) at[i] = rect[i];
		at[4] = event, at[5] = level;
	}
	t->count += 6;
}

/* Writes the results into new tables or the caller's `into` tables (refilled, nothing allocated).
** Reads only the call's own scratch, never the gtWorld, which a finalizer may close meanwhile, nor
** anything a nested call can write (rule 3). */
static int push_results(lua_State* L, const Scratch* r, const QueryOptions* o, int count, const gtQueryStats* s)
{
	if (o->into) {
		lua_pushvalue(L, o->into_at);     /* ids */
		lua_pushvalue(L, o->into_at + 1); /* ids, dists */
	} else {
		lua_createtable(L, count, 0); /* ids */
		lua_createtable(L, count, 0); /* ids, dists */
	}
	for (int i = 0; i < count; i++) {
		lua_pushinteger(L, (lua_Integer)r->ids[i]);
		lua_rawseti(L, -3, i + 1);
		lua_pushnumber(L, r->dists[i] * o->scale);
		lua_rawseti(L, -2, i + 1);
	}
	if (o->into) {
		/* Clear what a longer answer left: entries up to the first one that is nil in both tables.
		** No length is read (a table's length may be anything its metatable says), so the cost is
		** the entries really there. */
		for (lua_Integer i = (lua_Integer)count + 1;; i++) {
			lua_rawgeti(L, -2, i);
			lua_rawgeti(L, -2, i);
			int empty = lua_isnil(L, -1) && lua_isnil(L, -2);
			lua_pop(L, 2);
			if (empty) break;
			lua_pushnil(L);
			lua_rawseti(L, -3, i);
			lua_pushnil(L);
			lua_rawseti(L, -2, i);
		}
	}
	if (!o->stats && !o->trace) return 2;
	if (!o->stats) {
		lua_pushnil(L); /* ids, dists, nil */
		return 3;
	}
	lua_createtable(L, 0, 3); /* ids, dists, stats */
	lua_pushinteger(L, s->nodes_popped);
	lua_setfield(L, -2, "nodes_popped");
	lua_pushinteger(L, s->objects_tested);
	lua_setfield(L, -2, "objects_tested");
	lua_pushinteger(L, s->distance_calls);
	lua_setfield(L, -2, "distance_calls");
	return 3;
}

/* The trace as a new flat table (a debugging aid: it allocates), from the call's buffer. */
static void push_trace(lua_State* L, const Trace* t)
{
	size_t n = t->count;
	if (n > INT_MAX) luaL_error(L, "gridtree: trace too long");
	const double* trace = t->at;
	lua_createtable(L, (int)n, 0); /* trace */
	for (size_t i = 0; i < n; i++) {
		if (i % 6 < 4) lua_pushnumber(L, trace[i]);
		else lua_pushinteger(L, (lua_Integer)trace[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

/* The library counts each -1 as one word no object has: keep the known ids and one -1 for each
** distinct unknown text, so a repeated unknown word is charged once, as a repeated known one is. */
int lgt_one_per_unknown_word(int32_t* words, int n, int unknown_words)
{
	int kept = 0;
	for (int i = 0; i < n; i++)
		if (words[i] >= 0) words[kept++] = words[i];
	for (int i = 0; i < unknown_words; i++) words[kept++] = -1;
	return kept;
}

static int world_query(lua_State* L, int kind)
{
	LWorld* w = lgt_check_world(L, 1);
	gtVec2 p = lgt_check_point(L, w->map, 2);
	gtQuery q = gtQuery_Default(p);
	if (kind == Q_WITHIN) {
		q.radius = luaL_checknumber(L, 4);
		if (!(q.radius >= 0)) luaL_argerror(L, 4, "radius must be a number >= 0");
		q.radius /= w->map->unit_scale;
	} else {
		lua_Integer k = luaL_checkinteger(L, 4);
		if (k < 0 || k > MAX_K) lgt_arg_errorf(L, 4, "k must be an integer from 0 to %d", MAX_K);
		q.k = (int)k;
	}
	int32_t words[MAX_WORDS];
	Unknown unknown;
	int named = lgt_read_words(L, w, 5, 5, "keywords", words, 0, &unknown, 6);
	q.keyword_count = lgt_one_per_unknown_word(words, named, unknown.count);
	q.keywords = words;
	QueryOptions o;
	read_options(L, w, 6, kind, &q, &o);
	Buffer* buffer = lgt_take_buffer(L, 1, WORLD_SLOT_BUFFER); /* ..., buffer (rule 3) */
	int buffer_at = lua_gettop(L);
	w = lgt_check_world(L, 1); /* rule 4: the arguments are read; from here on no Lua code runs until the results */
	if (kind == Q_TOP && o.alpha > 0)
		q.miss_cost = 100.0 / o.scale; /* gtWorld_TopWeighted: all words missing cost 100 units */
	if (o.euclid && kind == Q_TOP)
		luaL_argerror(L, 6, "top ranks by path distance; metric = \"euclid\" is for nearest and within");
	if (gtMap_CheckPoint(w->map->map, p) != GT_POINT_VALID && !o.euclid) {
		lgt_give_buffer(L, 1, WORLD_SLOT_BUFFER, buffer_at);
		return lgt_fail(L, gtPointCheckName(gtMap_CheckPoint(w->map->map, p)));
	}
	gtQueryStats stats;
	gtError err;
	int count = 0, need = kind == Q_WITHIN ? 64 : (q.k > 0 ? q.k : 1);
	gtStatus st;
	Trace trace = {NULL, 0, 0};
	if (o.trace) q.trace = trace_node, q.trace_context = &trace;
	Scratch r;
	for (;;) { /* again when `within` finds more than the scratch holds, or the trace outgrew its block */
		r = lgt_reserve(L, buffer_at, need);
		if (o.trace) {
			trace.at = lgt_buffer_reserve(L, buffer_at, 1,
			                              (trace.count > 64 * 6 ? trace.count : 64 * 6) * sizeof(double));
			trace.room = buffer->bytes[1] / sizeof(double), trace.count = 0;
		}
		w = lgt_check_world(L, 1); /* rule 4: growing may have run a finalizer */
		if (o.euclid) {
			st = kind == Q_WITHIN
			         ? gtWorld_WithinEuclid(w->world, &q, r.ids, r.dists, r.capacity, &count, &stats, &err)
			         : gtWorld_NearestEuclid(w->world, &q, r.ids, r.dists, r.capacity, &count, &stats, &err);
		} else {
			gtDistance d = lgt_map_distance_module(L, w->map);
			st = kind == Q_WITHIN ? gtWorld_Within(w->world, &q, d, r.ids, r.dists, r.capacity, &count, &stats, &err)
			     : kind == Q_TOP && o.alpha > 0
			         ? gtWorld_TopWeighted(w->world, &q, o.alpha, d, r.ids, r.dists, r.capacity, &count, &stats, &err)
			     : kind == Q_TOP ? gtWorld_Top(w->world, &q, d, r.ids, r.dists, r.capacity, &count, &stats, &err)
			                     : gtWorld_Nearest(w->world, &q, d, r.ids, r.dists, r.capacity, &count, &stats, &err);
		}
		if (st == GT_ERR_BUFFER_TOO_SMALL && kind == Q_WITHIN) need = count;
		else if (!(o.trace && !st && trace.count > trace.room)) break;
	}
	if (st == GT_ERR_INVALID_POINT) {
		lgt_give_buffer(L, 1, WORLD_SLOT_BUFFER, buffer_at);
		return lgt_fail(L, err.message);
	}
	if (st) return luaL_error(L, "gridtree: %s", err.message);
	int n = push_results(L, &r, &o, count, &stats);
	if (o.trace) push_trace(L, &trace);                  /* ..., results..., trace */
	lgt_give_buffer(L, 1, WORLD_SLOT_BUFFER, buffer_at); /* only after the copies (rule 3) */
	return n + o.trace;
}

int lgt_world_nearest(lua_State* L)
{
	return world_query(L, Q_NEAREST);
}
int lgt_world_within(lua_State* L)
{
	return world_query(L, Q_WITHIN);
}
int lgt_world_top(lua_State* L)
{
	return world_query(L, Q_TOP);
}
