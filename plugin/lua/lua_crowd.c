/* Crowds: every agent's k nearest as one batch, over worker threads (gt_crowd.h). The crowd object
** (gridtree.Crowd, gridtree.new_crowd) owns its workers and its own frame-budget schedule, so a
** script runs as many schedules as it makes crowds; world:nearest_many is the same call on the
** world's one built-in crowd. */

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lua_binding.h"

#define MAX_MANY_K 255 /* nearest_many's k: a target field keeps up to 255 per hub */

/* A crowd object: its gtCrowd and gtSchedule (the library's allocator, freed on close), over the
** world in its slot (kept alive, and kept open by `crowds` until the crowd closes). */
typedef struct LCrowd {
	gtCrowd* crowd;
	gtSchedule* schedule;
	LWorld* world;
	gtCrowdMethod method; /* the default for its calls */
} LCrowd;

enum { CROWD_SLOTS = 2, CROWD_SLOT_WORLD = 1, CROWD_SLOT_BUFFER = 2 };

/* One batch call, object at index 1, then xs, ys, k, keywords, opts (arguments 2 to 6). The
** `into` tables (into .. into + 2) and the `self` table (self_at) stay on the stack. */
typedef struct ManyCall {
	const char* name; /* the method's name, for errors about one agent */
	int slot;         /* the object's buffer slot (rule 3) */
	gtQuery q;
	int32_t words[MAX_WORDS];
	gtObjectId exclude[MAX_EXCLUDE];
	int n, k, threads, into, self_at;
	int max_agents; /* crowd:nearest: at most this many agents a call, most stale first (0: all) */
	double budget_us;
	gtCrowdMethod method;
} ManyCall;

/* The world of the object at index 1, checked open: called again after anything that allocates
** (rule 4). Then, just before the batch runs, the crowd and schedule that answer it. */
typedef struct Runner {
	LWorld* (*check)(lua_State* L);
	gtCrowd* (*prepare)(lua_State* L, const ManyCall* c, gtSchedule** schedule);
} Runner;

/* own_crowd: a crowd object's call (max_agents) rather than the world's (threads). */
static void read_many_options(lua_State* L, ManyCall* c, int own_crowd)
{
	int has_self = 0;
	const char* key;
	for (int v = lgt_first_option(L, 6, &key); v; v = lgt_next_option(L, 6, v, &key)) {
		if (strcmp(key, "threads") == 0 && !own_crowd) c->threads = lgt_option_integer(L, v, 6, key, 0, GT_MAX_THREADS);
		else if (strcmp(key, "max_agents") == 0 && own_crowd)
			c->max_agents = lgt_option_integer(L, v, 6, key, 1, INT_MAX);
		else if (strcmp(key, "budget_us") == 0) {
			c->budget_us = lgt_option_number(L, v, 6, key);
			if (!(c->budget_us > 0 && c->budget_us < INFINITY)) luaL_argerror(L, 6, "budget_us must be a number > 0");
		} else if (strcmp(key, "method") == 0) {
			gtError err;
			if (lua_type(L, v) != LUA_TSTRING || gtCrowdMethod_Parse(lua_tostring(L, v), &c->method, &err))
				luaL_argerror(L, 6, "method must be \"auto\", \"each\", \"batch\" or \"field\"");
		} else if (strcmp(key, "into") == 0) {
			if (!lua_istable(L, v)) luaL_argerror(L, 6, "into must be {ids_table, dists_table, counts_table}");
			c->into = 1;
		} else if (strcmp(key, "exclude") == 0) {
			c->q.exclude_count = lgt_read_exclude(L, v, 6, c->exclude);
			c->q.exclude = c->exclude;
		} else if (strcmp(key, "self") == 0) {
			if (!lua_istable(L, v)) luaL_argerror(L, 6, "self must be a table of ids, one per agent");
			has_self = 1;
		} else lgt_unknown_option(L, 6, v - 1);
	}
	if (c->into) { /* the three tables stay on the stack for the answers */
		lua_settop(L, 6);
		lua_pushliteral(L, "into");
		lua_rawget(L, 6);      /* ..., into */
		lua_rawgeti(L, -1, 1); /* ..., into, ids */
		lua_rawgeti(L, -2, 2); /* ..., into, ids, dists */
		lua_rawgeti(L, -3, 3); /* ..., into, ids, dists, counts */
		if (!lua_istable(L, -3) || !lua_istable(L, -2) || !lua_istable(L, -1))
			luaL_argerror(L, 6, "into must be {ids_table, dists_table, counts_table}");
		c->into = lua_gettop(L) - 2;
	}
	if (c->budget_us > 0 && !c->into)
		luaL_argerror(L, 6, "budget_us needs into tables: agents not served this frame keep their answers there");
	if (c->max_agents > 0 && !c->into)
		luaL_argerror(L, 6, "max_agents needs into tables: agents not served this frame keep their answers there");
	if (has_self) { /* the table stays on the stack */
		lua_pushliteral(L, "self");
		lua_rawget(L, 6); /* ..., self */
		c->self_at = lua_gettop(L);
		if ((size_t)lua_rawlen(L, c->self_at) != (size_t)c->n)
			luaL_argerror(L, 6, "self must have one entry per agent (an id, or false)");
	}
}

/* Arguments 2 to 6 into c; the world is the object's (checked by the caller). */
static void read_many(lua_State* L, LWorld* w, ManyCall* c, int own_crowd)
{
	luaL_checktype(L, 2, LUA_TTABLE);
	luaL_checktype(L, 3, LUA_TTABLE);
	size_t raw = (size_t)lua_rawlen(L, 2); /* rule 4: raw, bounded before anything loops */
	if (raw > MAX_MOVE_MANY) lgt_arg_errorf(L, 2, "more than %d agents", MAX_MOVE_MANY);
	if ((size_t)lua_rawlen(L, 3) != raw) luaL_argerror(L, 3, "xs and ys must have the same length");
	c->n = (int)raw;
	lua_Integer k = luaL_checkinteger(L, 4);
	if (k < 1 || k > MAX_MANY_K) lgt_arg_errorf(L, 4, "k must be an integer from 1 to %d", MAX_MANY_K);
	c->k = (int)k;
	Unknown unknown;
	int named = lgt_read_words(L, w, 5, 5, "keywords", c->words, 0, &unknown, 6);
	c->q = gtQuery_Default((gtVec2){0, 0});
	c->q.k = c->k;
	c->q.keyword_count = lgt_one_per_unknown_word(c->words, named, unknown.count);
	c->q.keywords = c->words;
	read_many_options(L, c, own_crowd);
}

/* With `self`: one query per agent, the shared exclude list and the agent's own id, into
** `queries` (n queries, then their exclude lists). */
static const gtQuery* self_queries(lua_State* L, const ManyCall* c, gtQuery* queries, const gtVec2* points)
{
	int n = c->n, per = c->q.exclude_count + 1;
	gtObjectId* skip = (gtObjectId*)(queries + n);
	for (int i = 0; i < n; i++) {
		lua_rawgeti(L, c->self_at, i + 1); /* ..., id */
		lua_Integer id = 0;
		if (lua_type(L, -1) != LUA_TBOOLEAN || lua_toboolean(L, -1))
			if (lua_type(L, -1) != LUA_TNUMBER || !lgt_tointegerx(L, -1, &id))
				luaL_error(L, "bad argument #%d to '%s' (self entry %d: an id, or false)", lgt_arg_number(L, 6),
				           c->name, i + 1);
		lua_pop(L, 1);
		gtObjectId* own = skip + (size_t)i * (size_t)per;
		own[0] = (gtObjectId)(uint64_t)id;
		for (int e = 0; e < c->q.exclude_count; e++) own[e + 1] = c->exclude[e];
		queries[i] = c->q;
		queries[i].point = points[i];
		queries[i].exclude = own;
		queries[i].exclude_count = per;
	}
	return queries;
}

/* max_agents: the picked agents' batch and answers, after the `self` queries in block 1. */
typedef struct Picked {
	int capacity;
	gtQuery* queries;
	gtVec2* points;
	gtObjectId* ids;
	double* dists;
	int* agents;
	int* found;
	gtStatus* status;
} Picked;

static size_t picked_bytes(const ManyCall* c)
{
	size_t room = (size_t)(c->max_agents < c->n ? c->max_agents : c->n), k = (size_t)c->k;
	if (c->max_agents == 0) return 0;
	return room * (sizeof(gtQuery) + sizeof(gtVec2) + k * (sizeof(gtObjectId) + sizeof(double)) + 2 * sizeof(int) +
	               sizeof(gtStatus));
}

static Picked picked_at(const ManyCall* c, char* at)
{
	Picked p;
	p.capacity = c->max_agents < c->n ? c->max_agents : c->n;
	size_t room = (size_t)p.capacity, k = (size_t)c->k;
	p.queries = (gtQuery*)at;
	p.points = (gtVec2*)(p.queries + room);
	p.ids = (gtObjectId*)(p.points + room);
	p.dists = (double*)(p.ids + room * k);
	p.agents = (int*)(p.dists + room * k);
	p.found = p.agents + room;
	p.status = (gtStatus*)(p.found + room);
	return p;
}

/* One frame of at most max_agents agents (and within budget_us if given), the most stale first by
** the crowd's schedule, answered into their own slots of `out` (gtCrowd_NearestScheduled with a
** count: the same agents for the same calls, so a seeded game replays). */
static gtStatus nearest_picked(gtCrowd* crowd, gtSchedule* schedule, const ManyCall* c, const gtCrowdQueries* batch,
                               Picked* p, gtCrowdAnswers* out, int* served, gtError* err)
{
	int m;
	*served = 0;
	gtStatus st = gtSchedule_Pick(schedule, c->n, c->budget_us > 0 ? c->budget_us : HUGE_VAL, p->agents, p->capacity,
	                              &m, err);
	if (st || m == 0) return st;
	gtCrowdQueries sub = {batch->queries, NULL, m};
	for (int i = 0; i < m; i++) {
		if (batch->points) p->points[i] = batch->points[p->agents[i]];
		else p->queries[i] = batch->queries[p->agents[i]];
	}
	if (batch->points) sub.points = p->points;
	else sub.queries = p->queries;
	gtCrowdAnswers part = {c->k, p->ids, p->dists, p->found, p->status};
	gtCrowdStats stats;
	st = gtCrowd_Nearest(crowd, &sub, c->method, &part, &stats, err);
	if (st) return st;
	gtSchedule_Report(schedule, m, stats.seconds);
	size_t k = (size_t)c->k;
	for (int i = 0; i < m; i++) {
		size_t a = (size_t)p->agents[i];
		out->found[a] = p->found[i], out->status[a] = p->status[i];
		memcpy(out->ids + a * k, p->ids + (size_t)i * k, k * sizeof *out->ids);
		memcpy(out->distances + a * k, p->dists + (size_t)i * k, k * sizeof *out->distances);
	}
	*served = m;
	return GT_OK;
}

/* The answers into the `into` tables or new ones: ids, dists, counts. Reads only the call's own
** buffer (rule 3): nothing here can see the world closed or the answers moved or overwritten. */
static void push_many(lua_State* L, const ManyCall* c, const gtCrowdAnswers* out, double scale)
{
	int n = c->n;
	size_t k = (size_t)c->k;
	if (c->into) {
		lua_pushvalue(L, c->into);     /* ..., ids */
		lua_pushvalue(L, c->into + 1); /* ..., ids, dists */
		lua_pushvalue(L, c->into + 2); /* ..., ids, dists, counts */
	} else {
		lua_createtable(L, (int)((size_t)n * k), 0);
		lua_createtable(L, (int)((size_t)n * k), 0);
		lua_createtable(L, n, 0);
	}
	for (int i = 0; i < n; i++) {
		if (out->found[i] == -2) continue; /* not served this frame: its entries stay */
		int count = out->status[i] == GT_OK ? out->found[i] : -1;
		lua_pushinteger(L, count);
		lua_rawseti(L, -2, i + 1);
		for (int r = 0; r < count; r++) {
			size_t at = (size_t)i * k + (size_t)r;
			lua_pushinteger(L, (lua_Integer)out->ids[at]);
			lua_rawseti(L, -4, (lua_Integer)(at + 1));
			lua_pushnumber(L, out->distances[at] * scale);
			lua_rawseti(L, -3, (lua_Integer)(at + 1));
		}
	}
}

/* Runs the batch read into c for the object at index 1: returns ids, dists, counts, served. */
static int answer_many(lua_State* L, ManyCall* c, const Runner* run)
{
	int n = c->n;
	size_t slots = (size_t)n * (size_t)c->k;
	size_t bytes = (size_t)n * (sizeof(gtVec2) + sizeof(int) + sizeof(gtStatus)) +
	               slots * (sizeof(gtObjectId) + sizeof(double));
	lgt_take_buffer(L, 1, c->slot); /* ..., buffer (rule 3) */
	int buffer_at = lua_gettop(L);
	/* Grows with the largest batch, then stays (a frame allocates nothing). */
	gtObjectId* ids = lgt_buffer_reserve(L, buffer_at, 0, bytes);
	LWorld* w = run->check(L); /* rule 4: taking or growing may have run a finalizer that closed it */
	double* dists = (double*)(ids + slots);
	gtVec2* points = (gtVec2*)(dists + slots);
	int* found = (int*)(points + n);
	gtStatus* status = (gtStatus*)(found + n);
	for (int i = 1; i <= n; i++) {
		lua_rawgeti(L, 2, i); /* ..., x */
		lua_rawgeti(L, 3, i); /* ..., x, y */
		int ok_x, ok_y;
		double x = lua_tonumberx(L, -2, &ok_x), y = lua_tonumberx(L, -1, &ok_y);
		if (!ok_x || !ok_y || !isfinite(x) || !isfinite(y))
			luaL_error(L, "bad argument #%d to '%s' (agent %d: coordinates must be finite numbers)",
			           lgt_arg_number(L, 2), c->name, i);
		points[i - 1] = lgt_to_cells(w->map, x, y);
		found[i - 1] = -2; /* not served this frame */
		lua_pop(L, 2);
	}
	size_t self_bytes = c->self_at
	                        ? (size_t)n * (sizeof(gtQuery) + (size_t)(c->q.exclude_count + 1) * sizeof(gtObjectId))
	                        : 0;
	char* block1 = NULL;
	if (self_bytes + picked_bytes(c) > 0) {
		block1 = lgt_buffer_reserve(L, buffer_at, 1, self_bytes + picked_bytes(c));
		w = run->check(L); /* rule 4 */
	}
	gtCrowdQueries batch = {&c->q, points, n};
	if (c->self_at) batch.queries = self_queries(L, c, (gtQuery*)block1, points), batch.points = NULL;
	gtSchedule* schedule = NULL;
	gtCrowd* crowd = run->prepare(L, c, &schedule);
	gtCrowdAnswers out = {c->k, ids, dists, found, status};
	int served = n;
	gtError err;
	gtStatus st;
	if (c->max_agents > 0) {
		Picked picked = picked_at(c, block1 + self_bytes);
		st = nearest_picked(crowd, schedule, c, &batch, &picked, &out, &served, &err);
	} else if (c->budget_us > 0) {
		st = gtCrowd_NearestScheduled(crowd, &batch, c->method, schedule, c->budget_us, &out, &served, NULL, &err);
	} else {
		st = gtCrowd_Nearest(crowd, &batch, c->method, &out, NULL, &err);
	}
	if (st) return luaL_error(L, "gridtree: %s", err.message); /* misuse (a field without an index) or memory */
	push_many(L, c, &out, w->map->unit_scale);
	lua_pushinteger(L, served);
	lgt_give_buffer(L, 1, c->slot, buffer_at); /* only after the copies (rule 3) */
	return 4;
}

/* ---- world:nearest_many: the world's built-in crowd, one schedule per world ----------------------- */

static LWorld* check_world_1(lua_State* L)
{
	return lgt_check_world(L, 1);
}

/* The world's crowd, made again when the thread count changes. */
static gtCrowd* prepare_world_crowd(lua_State* L, const ManyCall* c, gtSchedule** schedule)
{
	LWorld* w = lgt_check_world(L, 1);
	gtError err;
	if (!w->crowd || w->crowd_threads != c->threads) {
		gtCrowd_Destroy(w->crowd);
		w->crowd = NULL;
		gtCrowdDef def = gtCrowd_DefaultDef();
		def.threads = c->threads;
		if (gtCrowd_Create(w->world, w->map->nav, &def, &w->crowd, &err)) luaL_error(L, "gridtree: %s", err.message);
		w->crowd_threads = c->threads;
	}
	if (c->budget_us > 0 && !w->schedule && gtSchedule_Create(&w->schedule, &err))
		luaL_error(L, "gridtree: %s", err.message);
	*schedule = w->schedule;
	return w->crowd;
}

/* world:nearest_many(xs, ys, k, keywords, opts): every agent's k nearest, as one batch. */
int lgt_world_nearest_many(lua_State* L)
{
	LWorld* w = lgt_check_world(L, 1);
	ManyCall c;
	memset(&c, 0, sizeof c);
	c.name = "nearest_many", c.slot = WORLD_SLOT_BUFFER, c.method = GT_CROWD_AUTO;
	read_many(L, w, &c, 0);
	static const Runner run = {check_world_1, prepare_world_crowd};
	return answer_many(L, &c, &run);
}

/* ---- gridtree.Crowd ------------------------------------------------------------------------------ */

static LCrowd* check_crowd(lua_State* L, int i)
{
	LCrowd* c = luaL_checkudata(L, i, CROWD_TYPE);
	if (!c->crowd) luaL_argerror(L, i, "crowd is closed");
	if (c->world->closed) luaL_argerror(L, i, "the crowd's world is closed");
	return c;
}

static LWorld* check_crowd_world(lua_State* L)
{
	return check_crowd(L, 1)->world;
}

static gtCrowd* prepare_own_crowd(lua_State* L, const ManyCall* call, gtSchedule** schedule)
{
	LCrowd* c = check_crowd(L, 1);
	gtError err;
	if ((call->budget_us > 0 || call->max_agents > 0) && !c->schedule && gtSchedule_Create(&c->schedule, &err))
		luaL_error(L, "gridtree: %s", err.message);
	*schedule = c->schedule;
	return c->crowd;
}

/* gridtree.new_crowd(world, {threads = n, method = name}): a crowd of the world's agents with its
** own workers and schedule. */
int lgt_new_crowd(lua_State* L)
{
	lgt_check_world(L, 1);
	int threads = 0;
	gtCrowdMethod method = GT_CROWD_AUTO;
	const char* key;
	for (int v = lgt_first_option(L, 2, &key); v; v = lgt_next_option(L, 2, v, &key)) {
		if (strcmp(key, "threads") == 0) threads = lgt_option_integer(L, v, 2, key, 0, GT_MAX_THREADS);
		else if (strcmp(key, "method") == 0) {
			gtError err;
			if (lua_type(L, v) != LUA_TSTRING || gtCrowdMethod_Parse(lua_tostring(L, v), &method, &err))
				luaL_argerror(L, 2, "method must be \"auto\", \"each\", \"batch\" or \"field\"");
		} else lgt_unknown_option(L, 2, v - 1);
	}
	LCrowd* c = lua_newuserdatauv(L, sizeof *c, CROWD_SLOTS); /* crowd: closed until made */
	memset(c, 0, sizeof *c);
	lgt_newslots(L, -1, CROWD_SLOTS);
	luaL_setmetatable(L, CROWD_TYPE);
	LWorld* w = lgt_check_world(L, 1); /* allocating may have run a finalizer that closed it (rule 4) */
	gtCrowdDef def = gtCrowd_DefaultDef();
	def.threads = threads;
	gtError err;
	if (gtCrowd_Create(w->world, w->map->nav, &def, &c->crowd, &err)) return lgt_fail(L, err.message);
	c->world = w, c->method = method;
	w->crowds++;
	lua_pushvalue(L, 1);                  /* crowd, world */
	lgt_setslot(L, -2, CROWD_SLOT_WORLD); /* crowd (keeps the world alive) */
	return 1;
}

/* crowd:nearest(xs, ys, k, keywords, opts): as world:nearest_many, on this crowd's workers, with
** budget_us and max_agents on this crowd's own schedule (the method defaults to the crowd's). */
static int crowd_nearest(lua_State* L)
{
	LCrowd* crowd = check_crowd(L, 1);
	ManyCall c;
	memset(&c, 0, sizeof c);
	c.name = "nearest", c.slot = CROWD_SLOT_BUFFER, c.method = crowd->method;
	read_many(L, crowd->world, &c, 1);
	static const Runner run = {check_crowd_world, prepare_own_crowd};
	return answer_many(L, &c, &run);
}

static int crowd_threads(lua_State* L)
{
	lua_pushinteger(L, gtCrowd_Threads(check_crowd(L, 1)->crowd));
	return 1;
}

/* Frees the workers and the schedule, and lets the world close if it was waiting for this crowd. */
int lgt_crowd_close(lua_State* L)
{
	LCrowd* c = luaL_checkudata(L, 1, CROWD_TYPE);
	if (!c->crowd) return 0;
	gtCrowd_Destroy(c->crowd);
	gtSchedule_Destroy(c->schedule);
	c->crowd = NULL, c->schedule = NULL;
	c->world->crowds--;
	lgt_world_release(c->world);
	return 0;
}

int lgt_crowd_tostring(lua_State* L)
{
	LCrowd* c = luaL_checkudata(L, 1, CROWD_TYPE);
	if (!c->crowd) lua_pushstring(L, "gridtree.Crowd (closed)");
	else lua_pushfstring(L, "gridtree.Crowd (%d threads)", gtCrowd_Threads(c->crowd));
	return 1;
}

const luaL_Reg lgt_crowd_methods[] = {
    {"nearest", crowd_nearest},
    {"threads", crowd_threads},
    {"close", lgt_crowd_close},
    {NULL, NULL},
};
