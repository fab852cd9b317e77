/*
** gridtree Lua 5.4 module: `local gridtree = require "gridtree"`.
** Not linked against liblua: the host (lua5.4 or an embedding engine) provides the API.
** Error policy (lua/README.md): misuse (wrong types, NaN, negative k, unknown options, stale
** ids, closed handles) raises a Lua error naming the argument; expected failures (files, bad
** data, points in walls) return nil, message.
*/
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "gridtree/gridtree.h"
#include "gridtree/gt_lua.h"

/* LuaJIT (5.1 API with 5.2 extensions): the few 5.4 calls used here, from one source. */
#if LUA_VERSION_NUM < 502
#ifndef LUA_OK
#define LUA_OK 0
#endif
#define LUAMOD_API LUALIB_API
#define luaL_pushfail(L) lua_pushnil(L)
#define luaL_len(L, i) ((lua_Integer)lua_objlen(L, i))
#define lua_rawlen(L, i) lua_objlen(L, i)
#define luaL_checkversion(L) ((void)0)
#define lua_newuserdatauv(L, size, nuv) lua_newuserdata(L, size)
/* A userdata's user value is its environment table: {value}. Pops the value. */
static void lua_setiuservalue_compat(lua_State* L, int index)
{
	index = index < 0 ? lua_gettop(L) + index + 1 : index;
	lua_createtable(L, 1, 0);  /* ..., value, env */
	lua_insert(L, -2);         /* ..., env, value */
	lua_rawseti(L, -2, 1);     /* ..., env */
	lua_setfenv(L, index);     /* ... */
}
#define lua_setiuservalue(L, index, n) lua_setiuservalue_compat(L, index)
#endif

#define MAP_TYPE "gridtree.Map"
#define WORLD_TYPE "gridtree.World"
#define RANDOM_TYPE "gridtree.Random"
/* The binding's own limits (the library's are the GT_* constants of gt_base.h). */
#define MAX_WORDS 64          /* words in one keyword list */
#define MAX_K 1000000         /* k of nearest and top */
#define MAX_MOVE_MANY 100000000
#define ADVANCE_WINDOW 4      /* path points gridtree.advance reads first: a frame's step rarely passes two bends */

typedef struct LMap {
	gtMap* map;
	gtNav* nav;         /* the index when there is one, else the oracle (built on first use) */
	gtNavQuery* query;
	gtVec2* path;       /* scratch for map:path, gtNav_PathCapacity points */
	int worlds;       /* open worlds using this map: it is freed only after the last one */
	int closed;
} LMap;

typedef struct LWorld {
	gtWorld* world;
	LMap* map;
	/* Scratch reused by every call, so a frame's calls allocate nothing once warm. */
	gtObjectId* ids;
	double* dists;
	gtVec2* points;
	int capacity;
} LWorld;

/* ---- helpers ------------------------------------------------------------------------------- */

static void map_release(LMap* m)
{
	if (!m->closed || m->worlds > 0 || !m->map) return;
	gtNavQuery_Destroy(m->query);
	gtNav_Destroy(m->nav);
	free(m->path);
	gtMap_Destroy(m->map);
	m->query = NULL, m->nav = NULL, m->path = NULL, m->map = NULL;
}

static LMap* check_map(lua_State* L, int i)
{
	LMap* m = luaL_checkudata(L, i, MAP_TYPE);
	if (m->closed || !m->map) luaL_argerror(L, i, "map is closed");
	return m;
}

static LWorld* check_world(lua_State* L, int i)
{
	LWorld* w = luaL_checkudata(L, i, WORLD_TYPE);
	if (!w->world) luaL_argerror(L, i, "world is closed");
	return w;
}

static double check_coord(lua_State* L, int i)
{
	double v = luaL_checknumber(L, i);
	if (!isfinite(v)) luaL_argerror(L, i, "coordinate must be a finite number");
	return v;
}

/* luaL_argerror with a formatted message, so limits are printed from their named constants. */
static int arg_errorf(lua_State* L, int arg, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	const char* message = lua_pushvfstring(L, format, args);
	va_end(args);
	return luaL_argerror(L, arg, message);
}

static int fail(lua_State* L, const char* message)
{
	luaL_pushfail(L);              /* nil */
	lua_pushstring(L, message);    /* nil, message */
	return 2;
}

static gtObjectId check_id(lua_State* L, LWorld* w, int i)
{
	lua_Integer v = luaL_checkinteger(L, i);
	gtObjectId id = (gtObjectId)v;
	if (!gtWorld_IsValid(w->world, id)) luaL_argerror(L, i, "stale object id");
	return id;
}

static void reserve(lua_State* L, LWorld* w, int n)
{
	if (n <= w->capacity) return;
	int cap = n < 64 ? 64 : n;
	gtObjectId* ids = realloc(w->ids, (size_t)cap * sizeof *ids);
	if (ids) w->ids = ids;
	double* d = realloc(w->dists, (size_t)cap * sizeof *d);
	if (d) w->dists = d;
	gtVec2* p = realloc(w->points, (size_t)cap * sizeof *p);
	if (p) w->points = p;
	if (!ids || !d || !p) luaL_error(L, "gridtree: out of memory");
	w->capacity = cap;
}

/* Distinct words a query names but no object has ever had: the library sees them all as -1, so
** the binding tells them apart by their text (world:top counts each as one missing word). */
typedef struct Unknown {
	const char* text[MAX_WORDS];
	size_t length[MAX_WORDS];
	int count;
} Unknown;

static void note_unknown(Unknown* u, const char* text, size_t length)
{
	for (int k = 0; k < u->count; k++)
		if (u->length[k] == length && memcmp(u->text[k], text, length) == 0) return;
	u->text[u->count] = text, u->length[u->count] = length, u->count++;
}

/* Keywords at stack index i: a table of strings or one space-separated string (nil = none).
** `intern` creates unknown words (objects); otherwise an unknown word becomes -1 (queries) and,
** when `unknown` is given, is noted there. Table strings stay valid: the table holds them. */
static int read_words(lua_State* L, LWorld* w, int i, int32_t* out, int intern, Unknown* unknown)
{
	int n = 0;
	if (unknown) unknown->count = 0;
	if (lua_isnoneornil(L, i)) return 0;
	int is_string = lua_type(L, i) == LUA_TSTRING;
	size_t len = 0;
	const char* s = is_string ? lua_tolstring(L, i, &len) : NULL;
	lua_Integer count = 0;
	if (!is_string) {
		luaL_checktype(L, i, LUA_TTABLE);
		count = luaL_len(L, i);
		if (count > MAX_WORDS) arg_errorf(L, i, "more than %d keywords", MAX_WORDS);
	}
	char word[GT_KEYWORD_MAX_BYTES + 1];
	for (size_t at = 0;;) {
		const char* text;
		size_t length;
		if (is_string) {
			while (at < len && s[at] == ' ') at++;
			size_t start = at;
			while (at < len && s[at] != ' ') at++;
			if (at == start) break;
			text = s + start, length = at - start;
		} else {
			if ((lua_Integer)n == count) break;
			lua_rawgeti(L, i, n + 1);                          /* ..., word */
			if (lua_type(L, -1) != LUA_TSTRING) luaL_argerror(L, i, "keywords must be strings");
			text = lua_tolstring(L, -1, &length);
			lua_pop(L, 1);                                     /* ... */
		}
		if (length > GT_KEYWORD_MAX_BYTES) arg_errorf(L, i, "keyword longer than %d bytes", GT_KEYWORD_MAX_BYTES);
		if (n == MAX_WORDS) arg_errorf(L, i, "more than %d keywords", MAX_WORDS);
		memcpy(word, text, length);
		word[length] = '\0';
		out[n] = intern ? gtWorld_Keyword(w->world, word) : gtWorld_FindKeyword(w->world, word);
		if (intern && out[n] < 0) luaL_argerror(L, i, "keywords must be printable words without spaces");
		if (!intern && out[n] < 0 && unknown) note_unknown(unknown, text, length);
		n++;
	}
	return n;
}

/* ---- module functions ------------------------------------------------------------------------ */

static int gridtree_load_map(lua_State* L)
{
	const char* path = luaL_checkstring(L, 1);
	LMap* m = lua_newuserdatauv(L, sizeof *m, 0);          /* map (closed state until loaded) */
	memset(m, 0, sizeof *m);
	m->closed = 1;
	luaL_setmetatable(L, MAP_TYPE);
	gtError err;
	if (gtMap_Load(path, &m->map, &err)) return fail(L, err.message);
	if (gtNav_Create(m->map, NULL, &m->nav, &err) || gtNavQuery_Create(m->nav, &m->query, &err)) {
		m->closed = 1;
		map_release(m);
		return luaL_error(L, "gridtree: %s", err.message);
	}
	m->closed = 0;
	return 1;
}

static int gridtree_new_world(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtWorldDef def = gtWorld_DefaultDef();
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		lua_pushnil(L);
		while (lua_next(L, 2)) {                               /* ..., key, value */
			const char* key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
			if (strcmp(key, "leaf") == 0) {
				lua_Integer leaf = luaL_checkinteger(L, -1);
				if (leaf < 1 || leaf > GT_WORLD_MAX_LEAF_SIZE)
					arg_errorf(L, 2, "leaf must be an integer from 1 to %d", GT_WORLD_MAX_LEAF_SIZE);
				def.leaf_size = (int)leaf;
			} else {
				luaL_error(L, "bad argument #2 to 'new_world' (unknown option '%s')", key);
			}
			lua_pop(L, 1);                                     /* ..., key */
		}
	}
	LWorld* w = lua_newuserdatauv(L, sizeof *w, 1);          /* world */
	memset(w, 0, sizeof *w);
	luaL_setmetatable(L, WORLD_TYPE);
	gtError err;
	if (gtWorld_Create(m->map, &def, &w->world, &err)) return fail(L, err.message);
	w->map = m;
	m->worlds++;
	lua_pushvalue(L, 1);                                       /* world, map */
	lua_setiuservalue(L, -2, 1);                               /* world (keeps the map alive) */
	return 1;
}

/* ---- random numbers ----------------------------------------------------------------------------- */

/* A seed as 64 bits. LuaJIT numbers are doubles: only integers they hold exactly are accepted, so
** a seed gives the same sequence under both interpreters. */
static uint64_t check_seed(lua_State* L, int i)
{
#if LUA_VERSION_NUM >= 503
	return (uint64_t)luaL_checkinteger(L, i);
#else
	double v = luaL_checknumber(L, i);
	if (!(v == floor(v) && fabs(v) <= 9007199254740992.0)) luaL_argerror(L, i, "seed must be an integer of at most 2^53");
	return (uint64_t)(int64_t)v;
#endif
}

static int gridtree_random(lua_State* L)
{
	uint64_t seed = check_seed(L, 1);
	gtRandom* r = lua_newuserdatauv(L, sizeof *r, 0);
	r->state = seed;
	luaL_setmetatable(L, RANDOM_TYPE);
	return 1;
}

static int random_next(lua_State* L)
{
	gtRandom* r = luaL_checkudata(L, 1, RANDOM_TYPE);
	lua_pushnumber(L, gtRandom_Unit(r));
	return 1;
}

static int random_below(lua_State* L)
{
	gtRandom* r = luaL_checkudata(L, 1, RANDOM_TYPE);
	lua_Integer n = luaL_checkinteger(L, 2);
	if (n < 1 || n > INT_MAX) arg_errorf(L, 2, "n must be an integer from 1 to %d", INT_MAX);
	lua_pushinteger(L, gtRandom_Below(r, (int)n));
	return 1;
}

static int random_tostring(lua_State* L)
{
	luaL_checkudata(L, 1, RANDOM_TYPE);
	lua_pushstring(L, RANDOM_TYPE);
	return 1;
}

/* ---- path following ----------------------------------------------------------------------------- */

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
** window's end is the rest read into scratch owned by the function (upvalue 1, grown, never
** shrunk): the result is the same as one call over the whole path, with no garbage per call. */
static int gridtree_advance(lua_State* L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_Integer length = luaL_len(L, 1);
	if (length % 2) luaL_argerror(L, 1, "path must be a flat list {x1, y1, x2, y2, ...}");
	lua_Integer count = length / 2;
	if (count > INT_MAX) luaL_argerror(L, 1, "path too long");
	lua_Integer segment = luaL_checkinteger(L, 2);
	if (segment < 1 || segment > (count > 1 ? count : 1))
		luaL_argerror(L, 2, "segment must be an integer from 1 to the number of points in the path");
	gtVec2 at = {check_coord(L, 3), check_coord(L, 4)};
	double step = luaL_checknumber(L, 5);
	if (!(step >= 0)) luaL_argerror(L, 5, "step must be a number >= 0");
	lua_Integer first = segment - 1, left = count - first;
	gtVec2 window[ADVANCE_WINDOW];
	int size = left < ADVANCE_WINDOW ? (int)left : ADVANCE_WINDOW, s = 0;
	gtVec2 p = at;
	if (count > 0) {
		read_points(L, first, size, window);
		p = gtPath_Advance(window, size, &s, at, step);
		if (s == size - 1 && size < left) { /* reached the window's end: walk the whole rest */
			size_t bytes = (size_t)left * sizeof(gtVec2);
			gtVec2* scratch = lua_touserdata(L, lua_upvalueindex(1));
			if (!scratch || lua_rawlen(L, lua_upvalueindex(1)) < bytes) {
				scratch = lua_newuserdatauv(L, bytes, 0);
				lua_replace(L, lua_upvalueindex(1));
			}
			read_points(L, first, (int)left, scratch);
			s = 0;
			p = gtPath_Advance(scratch, (int)left, &s, at, step);
		}
	}
	lua_pushnumber(L, p.x);
	lua_pushnumber(L, p.y);
	lua_pushinteger(L, first + s + 1);
	lua_pushboolean(L, first + s + 1 >= count); /* an empty path has nothing left to walk */
	return 4;
}

/* ---- map methods ------------------------------------------------------------------------------- */

/* The build runs worker threads: a Lua error must not unwind through it. The callback runs
** protected; its first error is kept and raised once the build has returned. */
typedef struct Progress {
	lua_State* L;
	int failed;
	char message[256];
} Progress;

static void progress_hook(void* user, const char* stage, double fraction)
{
	Progress* p = user;
	lua_State* L = p->L;
	if (p->failed) return;
	lua_pushvalue(L, -1);                                      /* ..., fn, fn */
	lua_pushnumber(L, fraction);
	lua_pushstring(L, stage);
	if (lua_pcall(L, 2, 0, 0) != LUA_OK) {                     /* ..., fn, error */
		const char* msg = lua_tostring(L, -1);
		snprintf(p->message, sizeof p->message, "%s", msg ? msg : "error object is not a string");
		p->failed = 1;
		lua_pop(L, 1);                                         /* ..., fn */
	}
}

static int map_build_index(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtEhlDef def = gtEhl_DefaultDef();
	int has_progress = 0;
	Progress progress = {L, 0, ""};
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		lua_pushnil(L);
		while (lua_next(L, 2)) {
			const char* key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
			if (strcmp(key, "cell") == 0) {
				lua_Integer g = luaL_checkinteger(L, -1);
				if (g < 1 || g > GT_EHL_MAX_CELL_SIZE)
					arg_errorf(L, 2, "cell must be an integer from 1 to %d", GT_EHL_MAX_CELL_SIZE);
				def.cell_size = (int)g;
			} else if (strcmp(key, "budget") == 0) {
				def.budget_mb = luaL_checknumber(L, -1);
				if (!(def.budget_mb > 0)) luaL_argerror(L, 2, "budget must be a positive number of megabytes");
			} else if (strcmp(key, "threads") == 0) {
				lua_Integer t = luaL_checkinteger(L, -1);
				if (t < 0 || t > GT_MAX_THREADS) arg_errorf(L, 2, "threads must be an integer from 0 to %d", GT_MAX_THREADS);
				def.threads = (int)t;
			} else if (strcmp(key, "progress") == 0) {
				luaL_checktype(L, -1, LUA_TFUNCTION);
				has_progress = 1;
			} else {
				luaL_error(L, "bad argument #2 to 'build_index' (unknown option '%s')", key);
			}
			lua_pop(L, 1);
		}
		if (has_progress) {
			lua_getfield(L, 2, "progress");                    /* ..., fn (kept on top for the hook) */
			def.progress = progress_hook;
			def.progress_user = &progress;
		}
	}
	gtEhl* ehl;
	gtError err;
	gtStatus st = gtEhl_Build(m->map, &def, &ehl, &err);
	if (progress.failed) { /* the map keeps the index it had */
		if (!st) gtEhl_Destroy(ehl);
		return luaL_error(L, "gridtree: progress callback failed: %s", progress.message);
	}
	if (!st) st = gtNav_SetIndex(m->nav, ehl, &err);
	if (st) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_load_index(lua_State* L)
{
	LMap* m = check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	gtError err;
	if (gtNav_LoadIndex(m->nav, path, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_save_index(lua_State* L)
{
	LMap* m = check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	if (!gtNav_Index(m->nav)) return luaL_error(L, "map has no index (call build_index or load_index first)");
	gtError err;
	if (gtNav_SaveIndex(m->nav, path, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_size(lua_State* L)
{
	LMap* m = check_map(L, 1);
	lua_pushinteger(L, gtMap_Width(m->map));
	lua_pushinteger(L, gtMap_Height(m->map));
	return 2;
}

static int map_is_free(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtVec2 p = {check_coord(L, 2), check_coord(L, 3)};
	lua_pushboolean(L, gtMap_CheckPoint(m->map, p) == GT_POINT_VALID);
	return 1;
}

static int map_visible(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtVec2 a = {check_coord(L, 2), check_coord(L, 3)}, b = {check_coord(L, 4), check_coord(L, 5)};
	lua_pushboolean(L, gtMap_Visible(m->map, a, b));
	return 1;
}

/* The distance function a world's queries use: the navigation backend's (an error only when it
 * cannot start, e.g. out of memory building the oracle). */
static gtDistance map_distance_module(lua_State* L, LMap* m)
{
	gtDistance d;
	gtError err;
	if (gtNavQuery_WorldDistance(m->query, &d, &err)) luaL_error(L, "gridtree: %s", err.message);
	return d;
}

static int map_distance(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtVec2 a = {check_coord(L, 2), check_coord(L, 3)}, b = {check_coord(L, 4), check_coord(L, 5)};
	gtPointCheck ca = gtMap_CheckPoint(m->map, a), cb = gtMap_CheckPoint(m->map, b);
	if (ca != GT_POINT_VALID) return fail(L, gtPointCheckName(ca));
	if (cb != GT_POINT_VALID) return fail(L, gtPointCheckName(cb));
	double d;
	gtError err;
	if (gtNav_Distance(m->query, a, b, &d, &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushnumber(L, d);                                      /* math.huge when unreachable */
	return 1;
}

static int map_path(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtVec2 a = {check_coord(L, 2), check_coord(L, 3)}, b = {check_coord(L, 4), check_coord(L, 5)};
	int capacity = gtNav_PathCapacity(m->nav);
	if (!m->path && !(m->path = malloc((size_t)capacity * sizeof *m->path))) return luaL_error(L, "gridtree: out of memory");
	gtVec2* points = m->path;
	int count;
	double d;
	gtError err;
	gtStatus st = gtNav_Path(m->query, a, b, points, capacity, &count, &d, &err);
	if (st) return fail(L, err.message);
	lua_createtable(L, 2 * count, 0);                          /* path */
	for (int i = 0; i < count; i++) {
		lua_pushnumber(L, points[i].x);
		lua_rawseti(L, -2, 2 * i + 1);
		lua_pushnumber(L, points[i].y);
		lua_rawseti(L, -2, 2 * i + 2);
	}
	lua_pushnumber(L, d);                                      /* path, length */
	return 2;
}

/* map:random_point(rng): a cell drawn uniformly until a free one comes up, then a uniform point
** in it, so every point of the free space is equally likely. */
static int map_random_point(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtRandom* r = luaL_checkudata(L, 2, RANDOM_TYPE);
	if (gtMap_FreeCells(m->map) == 0) return fail(L, "the map has no free cells");
	int width = gtMap_Width(m->map), height = gtMap_Height(m->map), cx, cy;
	do {
		cx = gtRandom_Below(r, width);
		cy = gtRandom_Below(r, height);
	} while (gtMap_IsBlocked(m->map, cx, cy));
	double x = cx + gtRandom_Unit(r);
	lua_pushnumber(L, x);
	lua_pushnumber(L, cy + gtRandom_Unit(r));
	return 2;
}

static int map_set_method(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtNavMethod method;
	gtError err;
	if (gtNavMethod_Parse(luaL_checkstring(L, 2), &method, &err)) return luaL_argerror(L, 2, err.message);
	if (method == GT_NAV_EHL && !gtNav_Index(m->nav))
		return luaL_argerror(L, 2, "method \"ehl\" needs an index (call build_index or load_index first)");
	if (gtNav_SetMethod(m->nav, method, &err)) return luaL_argerror(L, 2, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_method(lua_State* L)
{
	LMap* m = check_map(L, 1);
	lua_pushstring(L, gtNavMethodName(gtNav_Method(m->nav)));
	return 1;
}

static int map_close(lua_State* L)
{
	LMap* m = luaL_checkudata(L, 1, MAP_TYPE);
	m->closed = 1;
	map_release(m);
	return 0;
}

static int map_tostring(lua_State* L)
{
	LMap* m = luaL_checkudata(L, 1, MAP_TYPE);
	if (m->closed || !m->map) lua_pushstring(L, "gridtree.Map (closed)");
	else lua_pushfstring(L, "gridtree.Map %dx%d%s", gtMap_Width(m->map), gtMap_Height(m->map), gtNav_Index(m->nav) ? " (indexed)" : "");
	return 1;
}

/* ---- world methods ------------------------------------------------------------------------------ */

static int world_add(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	gtVec2 p = {check_coord(L, 2), check_coord(L, 3)};
	int32_t words[MAX_WORDS];
	int n = read_words(L, w, 4, words, 1, NULL);
	gtObjectId id;
	gtError err;
	if (gtWorld_Add(w->world, p, words, n, &id, &err)) return fail(L, err.message);
	lua_pushinteger(L, (lua_Integer)id);
	return 1;
}

static int world_move(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	gtObjectId id = check_id(L, w, 2);
	gtVec2 p = {check_coord(L, 3), check_coord(L, 4)};
	gtError err;
	if (gtWorld_Move(w->world, id, p, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int world_set_keywords(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	gtObjectId id = check_id(L, w, 2);
	int32_t words[MAX_WORDS];
	int n = read_words(L, w, 3, words, 1, NULL);
	gtError err;
	if (gtWorld_SetKeywords(w->world, id, words, n, &err)) return luaL_error(L, "gridtree: %s", err.message);
	return 0;
}

static int world_remove(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	gtObjectId id = check_id(L, w, 2);
	gtWorld_Remove(w->world, id, NULL);
	return 0;
}

static int world_move_many(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	luaL_checktype(L, 3, LUA_TTABLE);
	luaL_checktype(L, 4, LUA_TTABLE);
	lua_Integer n = luaL_len(L, 2);
	if (luaL_len(L, 3) != n || luaL_len(L, 4) != n) luaL_argerror(L, 3, "ids, xs and ys must have the same length");
	if (n > MAX_MOVE_MANY) arg_errorf(L, 2, "more than %d objects", MAX_MOVE_MANY);
	reserve(L, w, (int)n);
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, 2, i);                                  /* ..., id */
		lua_rawgeti(L, 3, i);                                  /* ..., id, x */
		lua_rawgeti(L, 4, i);                                  /* ..., id, x, y */
		int ok_id, ok_x, ok_y;
		lua_Integer id = lua_tointegerx(L, -3, &ok_id);
		double x = lua_tonumberx(L, -2, &ok_x), y = lua_tonumberx(L, -1, &ok_y);
		if (!ok_id || !gtWorld_IsValid(w->world, (gtObjectId)id))
			luaL_error(L, "bad argument #2 to 'move_many' (entry %d: stale object id)", (int)i);
		if (!ok_x || !ok_y || !isfinite(x) || !isfinite(y))
			luaL_error(L, "bad argument #3 to 'move_many' (entry %d: coordinates must be finite numbers)", (int)i);
		w->ids[i - 1] = (gtObjectId)id;
		w->points[i - 1] = (gtVec2){x, y};
		lua_pop(L, 3);                                         /* ... */
	}
	gtError err;
	if (gtWorld_MoveMany(w->world, w->ids, w->points, (int)n, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int world_position(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	gtObjectId id = check_id(L, w, 2);
	gtVec2 p;
	gtWorld_GetPosition(w->world, id, &p, NULL);
	lua_pushnumber(L, p.x);
	lua_pushnumber(L, p.y);
	return 2;
}

static int world_keywords(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	gtObjectId id = check_id(L, w, 2);
	const int32_t* words;
	int n = gtWorld_GetKeywords(w->world, id, &words);
	lua_createtable(L, n, 0);                                  /* words */
	for (int i = 0; i < n; i++) {
		lua_pushstring(L, gtWorld_KeywordName(w->world, words[i]));
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

static int world_count(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	lua_pushinteger(L, gtWorld_Count(w->world));
	return 1;
}

static int world_valid(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	int ok;
	lua_Integer v = lua_tointegerx(L, 2, &ok);
	lua_pushboolean(L, ok && gtWorld_IsValid(w->world, (gtObjectId)v));
	return 1;
}

static int world_validate(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	gtError err;
	if (gtWorld_Validate(w->world, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

enum { Q_NEAREST, Q_WITHIN, Q_TOP };

/* Query options at stack index i into q; returns the `into` flag, `stats` and the metric. */
typedef struct QueryOptions {
	int into, stats, euclid, trace;
	int has_miss_cost;
	double alpha; /* top: 0 unless given; the returned scores are then alpha-weighted */
	int32_t any[MAX_WORDS], none[MAX_WORDS];
} QueryOptions;

static void read_options(lua_State* L, LWorld* w, int i, int kind, gtQuery* q, QueryOptions* o)
{
	memset(o, 0, sizeof *o);
	if (lua_isnoneornil(L, i)) return;
	luaL_checktype(L, i, LUA_TTABLE);
	lua_pushnil(L);
	while (lua_next(L, i)) {                                   /* ..., key, value */
		const char* key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
		int v = lua_gettop(L);
		if (strcmp(key, "min_match") == 0) {
			lua_Integer n = luaL_checkinteger(L, v);
			if (n < 0) luaL_argerror(L, i, "min_match must be >= 0");
			q->min_match = (int)(n > MAX_WORDS ? MAX_WORDS + 1 : n);
		} else if (strcmp(key, "any") == 0) {
			q->any_count = read_words(L, w, v, o->any, 0, NULL);
			q->any = o->any;
		} else if (strcmp(key, "none") == 0) {
			q->none_count = read_words(L, w, v, o->none, 0, NULL);
			q->none = o->none;
		} else if (strcmp(key, "region") == 0) {
			luaL_checktype(L, v, LUA_TTABLE);
			for (int k = 0; k < 4; k++) {
				lua_rawgeti(L, v, k + 1);
				int ok;
				q->region[k] = lua_tonumberx(L, -1, &ok);
				if (!ok || !isfinite(q->region[k])) luaL_argerror(L, i, "region must be {x0, y0, x1, y1} numbers");
				lua_pop(L, 1);
			}
			if (q->region[0] > q->region[2] || q->region[1] > q->region[3])
				luaL_argerror(L, i, "region must have x0 <= x1 and y0 <= y1");
			q->use_region = true;
		} else if (strcmp(key, "metric") == 0) {
			const char* metric = luaL_checkstring(L, v);
			if (strcmp(metric, "euclid") == 0) o->euclid = 1;
			else if (strcmp(metric, "path") != 0) luaL_argerror(L, i, "metric must be \"path\" or \"euclid\"");
		} else if (strcmp(key, "into") == 0) {
			luaL_checktype(L, v, LUA_TTABLE);
			o->into = 1;
		} else if (strcmp(key, "stats") == 0) {
			o->stats = lua_toboolean(L, v);
		} else if (strcmp(key, "trace") == 0) {
			o->trace = lua_toboolean(L, v);
		} else if (strcmp(key, "alpha") == 0 && kind == Q_TOP) {
			o->alpha = luaL_checknumber(L, v);
			if (!(o->alpha > 0 && o->alpha <= 1)) luaL_argerror(L, i, "alpha must be in (0, 1]");
		} else if (strcmp(key, "miss_cost") == 0 && kind == Q_TOP) {
			q->miss_cost = luaL_checknumber(L, v);
			if (!(q->miss_cost >= 0 && q->miss_cost < INFINITY)) luaL_argerror(L, i, "miss_cost must be a finite number >= 0");
			o->has_miss_cost = 1;
		} else {
			luaL_error(L, "bad argument #%d (unknown option '%s')", i, key);
		}
		lua_settop(L, v - 1);                                  /* ..., key */
	}
	/* Both set the price of a missing word; silently preferring one would hide a mistake. */
	if (o->alpha > 0 && o->has_miss_cost) luaL_argerror(L, i, "give alpha or miss_cost, not both");
}

/* trace = true: the nodes the traversal popped or pruned, flat {x0, y0, x1, y1, event, level, ...}
** in a table on top of the stack (a debugging aid: it allocates). */
static void trace_node(void* context, gtTraceEvent event, int level, const double rect[4])
{
	lua_State* L = context;
	lua_Integer n = luaL_len(L, -1);
	for (int i = 0; i < 4; i++) {
		lua_pushnumber(L, rect[i]);
		lua_rawseti(L, -2, n + 1 + i);
	}
	lua_pushinteger(L, event);
	lua_rawseti(L, -2, n + 5);
	lua_pushinteger(L, level);
	lua_rawseti(L, -2, n + 6);
}

/* Writes the results into new tables or the caller's `into` tables (refilled, nothing allocated). */
static int push_results(lua_State* L, LWorld* w, int options, const QueryOptions* o, int count, const gtQueryStats* s)
{
	if (o->into) {
		lua_getfield(L, options, "into");                      /* into */
		lua_rawgeti(L, -1, 1);                                 /* into, ids */
		lua_rawgeti(L, -2, 2);                                 /* into, ids, dists */
		if (!lua_istable(L, -2) || !lua_istable(L, -1)) luaL_argerror(L, options, "into must be {ids_table, dists_table}");
		lua_remove(L, -3);                                     /* ids, dists */
	} else {
		lua_createtable(L, count, 0);                          /* ids */
		lua_createtable(L, count, 0);                          /* ids, dists */
	}
	lua_Integer old = luaL_len(L, -2);
	for (int r = 0; r < count; r++) {
		lua_pushinteger(L, (lua_Integer)w->ids[r]);
		lua_rawseti(L, -3, r + 1);
		lua_pushnumber(L, w->dists[r]);
		lua_rawseti(L, -2, r + 1);
	}
	for (lua_Integer r = count + 1; r <= old; r++) {           /* clear what a longer answer left */
		lua_pushnil(L);
		lua_rawseti(L, -3, r);
		lua_pushnil(L);
		lua_rawseti(L, -2, r);
	}
	if (!o->stats && !o->trace) return 2;
	if (!o->stats) {
		lua_pushnil(L);                                        /* ids, dists, nil */
		return 3;
	}
	lua_createtable(L, 0, 3);                                  /* ids, dists, stats */
	lua_pushinteger(L, s->nodes_popped);
	lua_setfield(L, -2, "nodes_popped");
	lua_pushinteger(L, s->objects_tested);
	lua_setfield(L, -2, "objects_tested");
	lua_pushinteger(L, s->distance_calls);
	lua_setfield(L, -2, "distance_calls");
	return 3;
}

/* Distinct known keyword ids (unknown words, -1, are counted apart by their text). */
static int distinct_known(const int32_t* words, int n)
{
	int distinct = 0;
	for (int a = 0; a < n; a++) {
		int seen = words[a] < 0;
		for (int b = 0; b < a && !seen; b++) seen = words[b] == words[a];
		distinct += !seen;
	}
	return distinct;
}

/* The library counts each -1 as one word no object has: keep the known ids and one -1 for each
** distinct unknown text, so a repeated unknown word is charged once, as a repeated known one is. */
static int one_per_unknown_word(int32_t* words, int n, int unknown_words)
{
	int kept = 0;
	for (int i = 0; i < n; i++)
		if (words[i] >= 0) words[kept++] = words[i];
	for (int i = 0; i < unknown_words; i++) words[kept++] = -1;
	return kept;
}

static int world_query(lua_State* L, int kind)
{
	LWorld* w = check_world(L, 1);
	gtVec2 p = {check_coord(L, 2), check_coord(L, 3)};
	gtQuery q = gtQuery_Default(p);
	if (kind == Q_WITHIN) {
		q.radius = luaL_checknumber(L, 4);
		if (!(q.radius >= 0)) luaL_argerror(L, 4, "radius must be a number >= 0");
	} else {
		lua_Integer k = luaL_checkinteger(L, 4);
		if (k < 0 || k > MAX_K) arg_errorf(L, 4, "k must be an integer from 0 to %d", MAX_K);
		q.k = (int)k;
	}
	int32_t words[MAX_WORDS];
	Unknown unknown;
	int named = read_words(L, w, 5, words, 0, &unknown);
	q.keyword_count = one_per_unknown_word(words, named, unknown.count);
	q.keywords = words;
	QueryOptions o;
	read_options(L, w, 6, kind, &q, &o);
	if (kind == Q_TOP && o.alpha > 0) {
		/* score = alpha * distance + (1 - alpha) * 100 * missing / |Q|, with |Q| the distinct query
		** words: ranked as distance + miss_cost * missing, each missing word costs this. */
		int distinct = distinct_known(words, q.keyword_count) + unknown.count;
		q.miss_cost = (1 - o.alpha) / o.alpha * 100.0 / (distinct > 0 ? distinct : 1);
	}
	if (o.euclid && kind == Q_TOP) luaL_argerror(L, 6, "top ranks by path distance; metric = \"euclid\" is for nearest and within");
	if (gtMap_CheckPoint(w->map->map, p) != GT_POINT_VALID && !o.euclid)
		return fail(L, gtPointCheckName(gtMap_CheckPoint(w->map->map, p)));
	gtQueryStats stats;
	gtError err;
	int count = 0;
	gtStatus st;
	int trace_at = 0;
	if (o.trace) { /* the trace table waits below the results */
		lua_newtable(L);                                       /* ..., trace */
		trace_at = lua_gettop(L);
		q.trace = trace_node;
		q.trace_context = L;
	}
	for (;;) { /* grows the scratch once when `within` finds more than it holds */
		reserve(L, w, kind == Q_WITHIN ? (w->capacity > 64 ? w->capacity : 64) : (q.k > 0 ? q.k : 1));
		if (o.euclid) {
			st = kind == Q_WITHIN ? gtWorld_WithinEuclid(w->world, &q, w->ids, w->dists, w->capacity, &count, &stats, &err)
			                      : gtWorld_NearestEuclid(w->world, &q, w->ids, w->dists, w->capacity, &count, &stats, &err);
		} else {
			gtDistance d = map_distance_module(L, w->map);
			st = kind == Q_WITHIN ? gtWorld_Within(w->world, &q, d, w->ids, w->dists, w->capacity, &count, &stats, &err)
			   : kind == Q_TOP    ? gtWorld_Top(w->world, &q, d, w->ids, w->dists, w->capacity, &count, &stats, &err)
			                      : gtWorld_Nearest(w->world, &q, d, w->ids, w->dists, w->capacity, &count, &stats, &err);
		}
		if (st != GT_ERR_BUFFER_TOO_SMALL || kind != Q_WITHIN) break;
		reserve(L, w, count);
	}
	if (st == GT_ERR_INVALID_POINT) return fail(L, err.message);
	if (st) return luaL_error(L, "gridtree: %s", err.message);
	if (kind == Q_TOP && o.alpha > 0) /* distance + miss cost, times alpha = the documented score */
		for (int r = 0; r < count; r++) w->dists[r] *= o.alpha;
	int n = push_results(L, w, 6, &o, count, &stats);
	if (!o.trace) return n;
	lua_pushvalue(L, trace_at);                                /* ..., results..., trace */
	return n + 1;
}

static int world_nearest(lua_State* L) { return world_query(L, Q_NEAREST); }
static int world_within(lua_State* L) { return world_query(L, Q_WITHIN); }
static int world_top(lua_State* L) { return world_query(L, Q_TOP); }

static int world_close(lua_State* L)
{
	LWorld* w = luaL_checkudata(L, 1, WORLD_TYPE);
	if (!w->world) return 0;
	gtWorld_Destroy(w->world);
	w->world = NULL;
	free(w->ids);
	free(w->dists);
	free(w->points);
	w->ids = NULL, w->dists = NULL, w->points = NULL, w->capacity = 0;
	w->map->worlds--;
	map_release(w->map);
	return 0;
}

static int world_tostring(lua_State* L)
{
	LWorld* w = luaL_checkudata(L, 1, WORLD_TYPE);
	if (!w->world) lua_pushstring(L, "gridtree.World (closed)");
	else lua_pushfstring(L, "gridtree.World (%d objects)", gtWorld_Count(w->world));
	return 1;
}

/* ---- registration ---------------------------------------------------------------------------------- */

static const luaL_Reg map_methods[] = {
    {"build_index", map_build_index}, {"load_index", map_load_index}, {"save_index", map_save_index},
    {"size", map_size},               {"is_free", map_is_free},       {"visible", map_visible},
    {"distance", map_distance},       {"path", map_path},             {"random_point", map_random_point},
    {"set_method", map_set_method},   {"method", map_method},         {"close", map_close},
    {NULL, NULL},
};

static const luaL_Reg world_methods[] = {
    {"add", world_add},         {"move", world_move},       {"set_keywords", world_set_keywords},
    {"remove", world_remove},   {"move_many", world_move_many}, {"position", world_position},
    {"keywords", world_keywords}, {"count", world_count},   {"valid", world_valid},
    {"nearest", world_nearest}, {"within", world_within},   {"top", world_top},
    {"validate", world_validate}, {"close", world_close},   {NULL, NULL},
};

static int gridtree_version(lua_State* L)
{
	lua_pushstring(L, gtVersionString());
	return 1;
}

static const luaL_Reg random_methods[] = {
    {"next", random_next},
    {"below", random_below},
    {NULL, NULL},
};

static const luaL_Reg gridtree_functions[] = {
    {"version", gridtree_version},
    {"random", gridtree_random},
    {"load_map", gridtree_load_map},
    {"new_world", gridtree_new_world},
    {NULL, NULL},
};

static void make_type(lua_State* L, const char* name, const luaL_Reg* methods, lua_CFunction close,
                      lua_CFunction tostring)
{
	luaL_newmetatable(L, name);                                /* mt */
	lua_newtable(L);                                           /* mt, methods */
	luaL_setfuncs(L, methods, 0);
	lua_setfield(L, -2, "__index");                            /* mt */
	if (close) { /* a type that owns C memory */
		lua_pushcfunction(L, close);
		lua_setfield(L, -2, "__gc");
		lua_pushcfunction(L, close);
		lua_setfield(L, -2, "__close");
	}
	lua_pushcfunction(L, tostring);
	lua_setfield(L, -2, "__tostring");
	lua_pop(L, 1);                                             /* */
}

/* ---- host accessors (gt_lua.h) ----------------------------------------------------------------
** For programs that compile the binding in; the module's version script keeps them out of the .so.
** luaL_testudata needs two free stack slots: without them the answer is NULL, never an error. */

static void* to_udata(lua_State* L, int index, const char* type)
{
	if (!L || !lua_checkstack(L, 2)) return NULL;
	return luaL_testudata(L, index, type);
}

static LMap* to_open_map(lua_State* L, int index)
{
	LMap* m = to_udata(L, index, MAP_TYPE);
	return m && !m->closed && m->map ? m : NULL;
}

const gtMap* gtLua_ToMap(lua_State* L, int index)
{
	LMap* m = to_open_map(L, index);
	return m ? m->map : NULL;
}

gtNav* gtLua_ToNav(lua_State* L, int index)
{
	LMap* m = to_open_map(L, index);
	return m ? m->nav : NULL;
}

gtNavQuery* gtLua_ToNavQuery(lua_State* L, int index)
{
	LMap* m = to_open_map(L, index);
	return m ? m->query : NULL;
}

gtWorld* gtLua_ToWorld(lua_State* L, int index)
{
	LWorld* w = to_udata(L, index, WORLD_TYPE);
	return w ? w->world : NULL;
}

LUAMOD_API int luaopen_gridtree(lua_State* L)
{
	luaL_checkversion(L);
	make_type(L, MAP_TYPE, map_methods, map_close, map_tostring);
	make_type(L, WORLD_TYPE, world_methods, world_close, world_tostring);
	make_type(L, RANDOM_TYPE, random_methods, NULL, random_tostring);
	luaL_newlib(L, gridtree_functions);                        /* module */
	lua_pushnil(L);                                            /* module, scratch (none yet) */
	lua_pushcclosure(L, gridtree_advance, 1);                  /* module, advance */
	lua_setfield(L, -2, "advance");
	lua_pushstring(L, gtVersionString());
	lua_setfield(L, -2, "_VERSION");
	lua_pushinteger(L, GT_VERSION_MAJOR);
	lua_setfield(L, -2, "version_major");
	lua_pushinteger(L, GT_VERSION_MINOR);
	lua_setfield(L, -2, "version_minor");
	lua_pushinteger(L, GT_VERSION_PATCH);
	lua_setfield(L, -2, "version_patch");
	/* The limits the binding checks, from the library's named constants. */
	static const struct { const char* name; lua_Integer value; } limits[] = {
	    {"max_cell_size", GT_EHL_MAX_CELL_SIZE}, {"max_threads", GT_MAX_THREADS},
	    {"max_leaf_size", GT_WORLD_MAX_LEAF_SIZE}, {"max_keyword_bytes", GT_KEYWORD_MAX_BYTES},
	    {"max_keywords", MAX_WORDS}, {"max_k", MAX_K},
	};
	lua_createtable(L, 0, (int)(sizeof limits / sizeof *limits)); /* module, limits */
	for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
		lua_pushinteger(L, limits[i].value);
		lua_setfield(L, -2, limits[i].name);
	}
	lua_setfield(L, -2, "limits");                             /* module */
	return 1;
}
