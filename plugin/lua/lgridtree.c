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

#include "lua_args.h"
#include "lua_compat.h"
#include "lua_map_cells.h"

#define MAP_TYPE "gridtree.Map"
#define WORLD_TYPE "gridtree.World"
#define RANDOM_TYPE "gridtree.Random"
/* The binding's own limits (the library's are the GT_* constants of gt_base.h). Every length
** read from Lua is checked against one of them before anything loops or allocates. */
#define MAX_WORDS 64          /* words in one keyword list */
#define MAX_EXCLUDE 64        /* ids in one exclude list */
#define MAX_K 1000000         /* k of nearest and top */
#define MAX_MOVE_MANY 100000000
#define MAX_PATH_POINTS (2 * GT_MAP_MAX_CELLS) /* a shortest path bends at most once per grid point */
#define ADVANCE_WINDOW 4      /* path points gridtree.advance reads first: a frame's step rarely passes two bends */

/*
** Reentrancy (lua/README.md, "Callbacks, finalizers and argument tables"). Lua code can run in
** the middle of a method: build_index's progress callback, a new_map cells function, and
** finalizers (__gc of any object), which the collector may run at any allocation the method makes
** (a table, a string, a userdata). Such code may call any method of the very map or world in use.
** The rules that keep every such call safe and its answers right:
**  1. The one library call that runs Lua code, gtEhl_Build, reads the map: while it runs the map
**     is `building`, and closing it ("map is in use by build_index") or editing it
**     ("map is being indexed") raises. Everything else (queries, other indexes) is allowed. The
**     callback runs under lua_pcall, so `building` always comes back down.
**  2. No other library call runs Lua code: a query's trace goes to a C buffer, not a Lua table.
**  3. Results are copied into Lua tables from a Buffer that the call owns alone: it takes the
**     object's idle buffer out of the object's slot (or makes one) before computing, keeps it on
**     its stack, and puts it back after the copy. A nested call finds the slot empty and makes its
**     own, so nothing it does can move or overwrite the results being copied. Buffers are plain
**     userdata (the collector frees them; no finalizer), so an error between take and give back
**     only leaves the buffer to the collector. Closing frees the library objects (gtMap, gtNav,
**     gtWorld), never a buffer. A buffer grows before the library call, never inside it.
**  4. Argument tables are read raw (lua_rawlen, lua_rawgeti, lua_next): their metamethods are
**     never called. A method rechecks that its object is open after anything that allocates (a
**     buffer, a number given as a string argument), before it touches library objects.
*/
typedef struct LMap {
	gtMap* map;
	gtNav* nav;         /* the index when there is one, else the oracle (built on first use) */
	gtNavQuery* query;
	int worlds;       /* open worlds using this map: it is freed only after the last one */
	int closed;
	int building;     /* build_index calls running: the map must not be freed nor edited (rule 1) */
	/* Game units (map:set_units): a cell is unit_scale units, and cell corner (0, 0) is at
	** (unit_x, unit_y). Every position, distance, radius and score the script sees is in them. */
	double unit_scale, unit_x, unit_y;
} LMap;

typedef struct LWorld {
	gtWorld* world;
	LMap* map;
	/* nearest_many: the crowd's workers and frame-budget queue (the library's allocator, freed
	** with the world). Its answers go to the world's Buffer (rule 3). */
	gtCrowd* crowd;
	int crowd_threads;
	gtSchedule* schedule;
} LWorld;

/* Userdata slots (lua_compat.h): a map's path buffer; a world's map (kept alive) and buffer. */
enum { MAP_SLOTS = 1, MAP_SLOT_BUFFER = 1, WORLD_SLOTS = 2, WORLD_SLOT_MAP = 1, WORLD_SLOT_BUFFER = 2 };

/* A call's scratch for results (rule 3): two blocks, each a plain userdata kept in the buffer's
** slots, so the collector owns all of it (no finalizer: nothing to free late, nor to leak when a
** finalizer uses an object while the state closes). */
enum { BUFFER_SLOTS = 2 };
typedef struct Buffer {
	void* block[2];
	size_t bytes[2];
} Buffer;

/* Takes the idle buffer of the object at stack index `object` (slot `slot`), or makes a new one,
** and leaves it on the stack: the caller's alone until give_buffer. May allocate (run finalizers). */
static Buffer* take_buffer(lua_State* L, int object, int slot)
{
	if (lgt_getslot(L, object, slot) == LUA_TUSERDATA) {  /* ..., buffer */
		lua_pushnil(L);
		lgt_setslot(L, object, slot);
		return lua_touserdata(L, -1);
	}
	lua_pop(L, 1);
	Buffer* b = lua_newuserdatauv(L, sizeof *b, BUFFER_SLOTS); /* ..., buffer */
	memset(b, 0, sizeof *b);
	lgt_newslots(L, -1, BUFFER_SLOTS);
	return b;
}

/* Makes the buffer at stack index `at` the object's idle one again (replacing any a nested call
** left there). Allocates nothing. */
static void give_buffer(lua_State* L, int object, int slot, int at)
{
	lua_pushvalue(L, at);
	lgt_setslot(L, object, slot);
}

/* Block `which` of the buffer at stack index `at`, with room for `bytes`, its contents kept. A
** larger block is a new userdata: allocating may run finalizers (recheck the object after it) and
** raises when out of memory. The buffer is the caller's alone, so nothing else writes it meanwhile. */
static void* buffer_reserve(lua_State* L, int at, int which, size_t bytes)
{
	Buffer* b = lua_touserdata(L, at);
	if (bytes <= b->bytes[which] && b->block[which]) return b->block[which];
	size_t cap = bytes < 64 ? 64 : bytes;
	if (cap < 2 * b->bytes[which]) cap = 2 * b->bytes[which]; /* grows by doubling: a few allocations, ever */
	void* block = lua_newuserdatauv(L, cap, 0);               /* ..., block */
	if (b->bytes[which]) memcpy(block, b->block[which], b->bytes[which]); /* the old one is still in the slot */
	lgt_setslot(L, at, which + 1);
	b->block[which] = block, b->bytes[which] = cap;
	return block;
}

/* ---- helpers ------------------------------------------------------------------------------- */

static void map_release(LMap* m)
{
	if (!m->closed || m->worlds > 0 || m->building > 0 || !m->map) return;
	gtNavQuery_Destroy(m->query);
	gtNav_Destroy(m->nav);
	gtMap_Destroy(m->map);
	m->query = NULL, m->nav = NULL, m->map = NULL; /* the buffers stay with the object (rule 3) */
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

/* A position in game units into cells, and back. The default units (1, 0, 0) are exact both ways. */
static gtVec2 to_cells(const LMap* m, double x, double y)
{
	gtVec2 p = {(x - m->unit_x) / m->unit_scale, (y - m->unit_y) / m->unit_scale};
	return p;
}

static gtVec2 check_point(lua_State* L, const LMap* m, int i)
{
	double x = check_coord(L, i), y = check_coord(L, i + 1);
	return to_cells(m, x, y);
}

static void push_point(lua_State* L, double scale, double x0, double y0, gtVec2 p)
{
	lua_pushnumber(L, x0 + p.x * scale);
	lua_pushnumber(L, y0 + p.y * scale);
}

/* luaL_argerror with a printf-formatted message, so limits are printed from their named
** constants and numbers as %g gives them (the same under Lua 5.4 and LuaJIT). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int arg_errorf(lua_State* L, int arg, const char* format, ...)
{
	char message[400];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	return luaL_argerror(L, arg, message);
}

/* An option's value at stack index v as an integer; errors name the options table's argument. */
static int option_integer(lua_State* L, int v, int arg, const char* key, int lo, int hi)
{
	/* Through a double: LuaJIT's lua_tointegerx truncates 1.5 without saying so. */
	lua_Number n = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : NAN;
	if (!(n >= lo && n <= hi && n == floor(n))) arg_errorf(L, arg, "%s must be an integer from %d to %d", key, lo, hi);
	return (int)n;
}

static double option_number(lua_State* L, int v, int arg, const char* key)
{
	if (lua_type(L, v) != LUA_TNUMBER) arg_errorf(L, arg, "%s must be a number", key);
	return lua_tonumber(L, v);
}

static int unknown_option(lua_State* L, int arg, int key)
{
	if (lua_type(L, key) == LUA_TSTRING) return arg_errorf(L, arg, "unknown option '%s'", lua_tostring(L, key));
	return arg_errorf(L, arg, "option names must be strings, not %s", luaL_typename(L, key));
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
	gtObjectId id = (gtObjectId)(uint64_t)v;
	if (!gtWorld_IsValid(w->world, id)) luaL_argerror(L, i, "stale object id");
	return id;
}

#define SCRATCH_ENTRY (sizeof(gtVec2) + sizeof(double) + sizeof(gtObjectId)) /* each 8-aligned */

/* Room for `capacity` results or moves in a buffer's block 0: points, dists and ids. */
typedef struct Scratch {
	gtVec2* points;
	double* dists;
	gtObjectId* ids;
	int capacity;
} Scratch;

static Scratch scratch_of(Buffer* b)
{
	Scratch r = {NULL, NULL, NULL, 0};
	if (!b->block[0]) return r;
	size_t cap = b->bytes[0] / SCRATCH_ENTRY;
	r.capacity = cap > INT_MAX ? INT_MAX : (int)cap;
	r.points = b->block[0];
	r.dists = (double*)(r.points + r.capacity);
	r.ids = (gtObjectId*)(r.dists + r.capacity);
	return r;
}

/* Room for n entries in the buffer at stack index `at`, keeping the entries there (move_many
** grows it as it reads). May run finalizers (buffer_reserve); raises when out of memory. */
static Scratch reserve(lua_State* L, int at, int n)
{
	Buffer* b = lua_touserdata(L, at);
	Scratch old = scratch_of(b);
	if (n <= old.capacity && b->block[0]) return old;
	buffer_reserve(L, at, 0, (size_t)(n < 64 ? 64 : n) * SCRATCH_ENTRY);
	Scratch r = scratch_of(b);
	/* The sections move up: the last one first, so neither overwrites what is still to move. */
	char* block = b->block[0];
	memmove(r.ids, block + (size_t)old.capacity * (sizeof(gtVec2) + sizeof(double)), (size_t)old.capacity * sizeof(gtObjectId));
	memmove(r.dists, block + (size_t)old.capacity * sizeof(gtVec2), (size_t)old.capacity * sizeof(double));
	return r;
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
** `arg` and `what` name them in errors ("keywords", or the option: "any", "none").
** `intern` creates unknown words (objects); otherwise an unknown word becomes -1 (queries) and,
** when `unknown` is given, is noted there. Table strings stay valid: the table holds them.
** The table is read raw (rule 4), so nothing here runs Lua code. */
/* A table given as a list (keywords, exclude ids) must be one: entries 1..n and nothing else.
** Options in the keywords slot ({any = {...}}) would otherwise read as no words at all. At most
** n + 1 entries are visited (rule 4: lua_next calls no metamethod). */
static void check_list(lua_State* L, int i, int arg, const char* what, size_t n, int options_arg)
{
	lua_pushnil(L);
	while (lua_next(L, i)) {                                   /* ..., key, value */
		lua_pop(L, 1);                                         /* ..., key */
		lua_Integer at;
		if (lua_type(L, -1) == LUA_TNUMBER && lgt_tointegerx(L, -1, &at) && at >= 1 && (size_t)at <= n) continue;
		char key[48];
		if (lua_type(L, -1) == LUA_TSTRING) snprintf(key, sizeof key, "key '%.30s'", lua_tostring(L, -1));
		else if (lua_type(L, -1) == LUA_TNUMBER) snprintf(key, sizeof key, "key %.14g", (double)lua_tonumber(L, -1));
		else snprintf(key, sizeof key, "a %s key", luaL_typename(L, -1));
		if (options_arg > 0)
			arg_errorf(L, arg, "%s: expected a list of words, got a table with %s; options go in argument #%d", what, key,
			           lgt_arg_number(L, options_arg));
		arg_errorf(L, arg, "%s: expected a list, got a table with %s", what, key);
	}
}

static int read_words(lua_State* L, LWorld* w, int i, int arg, const char* what, int32_t* out, int intern, Unknown* unknown,
                      int options_arg)
{
	int n = 0;
	if (unknown) unknown->count = 0;
	if (lua_isnoneornil(L, i)) return 0;
	int is_string = lua_type(L, i) == LUA_TSTRING;
	size_t len = 0, count = 0;
	const char* s = is_string ? lua_tolstring(L, i, &len) : NULL;
	if (!is_string) {
		if (!lua_istable(L, i)) arg_errorf(L, arg, "%s must be a table of words or a space-separated string", what);
		count = (size_t)lua_rawlen(L, i);
		if (count > MAX_WORDS) arg_errorf(L, arg, "%s: more than %d keywords", what, MAX_WORDS);
		check_list(L, i, arg, what, count, options_arg);
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
			if ((size_t)n == count) break;
			lua_rawgeti(L, i, n + 1);                          /* ..., word */
			if (lua_type(L, -1) != LUA_TSTRING) arg_errorf(L, arg, "%s must be strings", what);
			text = lua_tolstring(L, -1, &length);
			lua_pop(L, 1);                                     /* ... */
		}
		if (length > GT_KEYWORD_MAX_BYTES) arg_errorf(L, arg, "%s: keyword longer than %d bytes", what, GT_KEYWORD_MAX_BYTES);
		/* The library takes C strings: a NUL byte (or any other byte it refuses) would cut or
		** change the word silently, so the whole word is checked here, for queries too. */
		int printable = length > 0;
		for (size_t c = 0; c < length && printable; c++) printable = text[c] > ' ' && text[c] <= '~';
		if (!printable)
			arg_errorf(L, arg, "%s must be words of 1 to %d printable ASCII bytes without spaces (no NUL bytes)", what,
			           GT_KEYWORD_MAX_BYTES);
		if (n == MAX_WORDS) arg_errorf(L, arg, "%s: more than %d keywords", what, MAX_WORDS);
		memcpy(word, text, length);
		word[length] = '\0';
		out[n] = intern ? gtWorld_Keyword(w->world, word) : gtWorld_FindKeyword(w->world, word);
		if (intern && out[n] < 0) luaL_error(L, "gridtree: out of memory");
		if (!intern && out[n] < 0 && unknown) note_unknown(unknown, text, length);
		n++;
	}
	return n;
}

/* ---- module functions ------------------------------------------------------------------------ */

/* Option tables: for (v = first_option(L, arg, &key); v; v = next_option(L, arg, v, &key)) visits
** each entry with its value at index v and *key its name ("" for a key that is not a string);
** none or nil is an empty table, anything else that is not a table an error. */
static int option_entry(lua_State* L, int arg, const char** key)
{
	if (!lua_next(L, arg)) return 0;                           /* ..., key, value */
	int v = lua_gettop(L);
	*key = lua_type(L, v - 1) == LUA_TSTRING ? lua_tostring(L, v - 1) : "";
	return v;
}

static int first_option(lua_State* L, int arg, const char** key)
{
	if (lua_isnoneornil(L, arg)) return 0;
	luaL_checktype(L, arg, LUA_TTABLE);
	lua_pushnil(L);
	return option_entry(L, arg, key);
}

static int next_option(lua_State* L, int arg, int v, const char** key)
{
	lua_settop(L, v - 1);                                      /* ..., key */
	return option_entry(L, arg, key);
}

/* A new map object, closed until open_map gives it a map: pushed first, so that running out of
** memory for it leaks nothing. */
static LMap* new_map_object(lua_State* L)
{
	LMap* m = lua_newuserdatauv(L, sizeof *m, MAP_SLOTS);  /* map */
	memset(m, 0, sizeof *m);
	m->closed = 1;
	m->unit_scale = 1;
	lgt_newslots(L, -1, MAP_SLOTS);
	luaL_setmetatable(L, MAP_TYPE);
	return m;
}

/* Hands `map` to the object (which then owns it) and opens it. */
static void open_map(lua_State* L, LMap* m, gtMap* map)
{
	m->map = map;
	gtError err;
	if (gtNav_Create(m->map, NULL, &m->nav, &err) || gtNavQuery_Create(m->nav, &m->query, &err)) {
		map_release(m);
		luaL_error(L, "gridtree: %s", err.message);
	}
	m->closed = 0;
}

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
	lua_createtable(L, 0, GT_TILED_RULE_COUNT);                /* info, walls: cells each wall rule gave */
	for (int rule = 0; rule < GT_TILED_RULE_COUNT; rule++)
		set_field_integer(L, gtTiled_RuleName((gtTiledRule)rule), gtTiled_WallCells(t, (gtTiledRule)rule));
	lua_setfield(L, -2, "walls");
	int n = gtTiled_ObjectCount(t);
	lua_createtable(L, n, 0);                                  /* info, objects */
	for (int i = 0; i < n; i++) {
		const gtTiledObject* o = gtTiled_Object(t, i);
		lua_createtable(L, 0, 9);                              /* info, objects, object */
		set_field_integer(L, "id", o->id);
		set_field_string(L, "name", o->name);
		set_field_string(L, "type", o->type);
		set_field_string(L, "layer", o->layer);
		set_field_number(L, "x", x0 + o->x * scale);
		set_field_number(L, "y", y0 + o->y * scale);
		set_field_number(L, "width", o->width * scale);
		set_field_number(L, "height", o->height * scale);
		lua_createtable(L, 0, o->property_count);              /* ..., object, properties */
		for (int j = 0; j < o->property_count; j++) {
			const gtTiledProperty* p = gtTiled_Property(t, o->first_property + j);
			push_property_value(L, p);
			lua_setfield(L, -2, p->name);
		}
		lua_setfield(L, -2, "properties");
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "objects");                            /* info */
}

typedef struct TiledInfo {
	const gtTiled* tiled;
	double scale, x0, y0;
} TiledInfo;

static int push_tiled_info_protected(lua_State* L)
{
	const TiledInfo* info = lua_touserdata(L, 1);
	push_tiled_info(L, info->tiled, info->scale, info->x0, info->y0);
	return 1;
}

/* map:set_units(scale [, x0, y0]): game units; see LMap. */
static bool valid_units(double scale, double x0, double y0)
{
	return scale >= 1e-6 && scale <= 1e9 && isfinite(x0) && isfinite(y0) && fabs(x0) <= 1e15 && fabs(y0) <= 1e15;
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

static int gridtree_load_map(lua_State* L)
{
	const char* path = luaL_checkstring(L, 1);
	int clearance = 0, pixels = 0;
	gtTiledDef def = gtTiled_DefaultDef();
	const char* key;
	for (int v = first_option(L, 2, &key); v; v = next_option(L, 2, v, &key)) {
		if (strcmp(key, "clearance") == 0) clearance = option_integer(L, v, 2, key, 0, GT_MAP_MAX_CLEARANCE);
		else if (strcmp(key, "blocked_layer") == 0 || strcmp(key, "blocked_property") == 0) {
			if (lua_type(L, v) != LUA_TSTRING) arg_errorf(L, 2, "%s must be a string", key);
			/* The option table holds the string for the rest of the call. */
			if (key[8] == 'l') def.blocked_layer = lua_tostring(L, v);
			else def.blocked_property = lua_tostring(L, v);
		} else if (strcmp(key, "allow_empty") == 0 || strcmp(key, "allow_outside_paths") == 0) {
			if (!lua_isboolean(L, v)) arg_errorf(L, 2, "%s must be a boolean", key);
			*(key[6] == 'e' ? &def.allow_empty : &def.allow_outside_paths) = lua_toboolean(L, v);
		} else if (tiled_limit(&def, key)) { /* max_cells, max_file_bytes, ...: gtTiledDef's limits */
			*tiled_limit(&def, key) = option_integer(L, v, 2, key, 0, INT_MAX);
		} else if (strcmp(key, "units") == 0) {
			const char* units = lua_type(L, v) == LUA_TSTRING ? lua_tostring(L, v) : "";
			if (strcmp(units, "pixels") == 0) pixels = 1;
			else if (strcmp(units, "cells") != 0) luaL_argerror(L, 2, "units must be \"cells\" or \"pixels\"");
		} else unknown_option(L, 2, v - 1);
	}
	if (def.blocked_layer && def.blocked_property) luaL_argerror(L, 2, "give blocked_layer or blocked_property, not both");
	bool tiled_path = gtTiled_IsTiledPath(path);
	if ((def.blocked_layer || def.blocked_property || pixels) && !tiled_path)
		luaL_argerror(L, 2, "blocked_layer, blocked_property and units = \"pixels\" are for Tiled maps (.tmx, .tmj, .json)");
	LMap* m = new_map_object(L);
	gtMap* map;
	gtTiled* tiled = NULL;
	gtError err;
	gtStatus st = tiled_path ? gtMap_LoadTiled(path, &def, &map, &tiled, &err) : gtMap_Load(path, &map, &err);
	if (!st) st = apply_clearance(&map, clearance, &err);
	if (st) {
		gtTiled_Destroy(tiled);
		return fail(L, err.message);
	}
	if (tiled) {
		int ox, oy, tw = gtTiled_TileWidth(tiled), th = gtTiled_TileHeight(tiled);
		gtTiled_Origin(tiled, &ox, &oy);
		if (pixels && tw != th) {
			gtTiled_Destroy(tiled);
			gtMap_Destroy(map);
			return fail(L, lua_pushfstring(L, "%s: units = \"pixels\" needs square tiles (these are %dx%d)", path, tw, th));
		}
		if (pixels) m->unit_scale = tw, m->unit_x = (double)ox * tw, m->unit_y = (double)oy * th;
	}
	if (tiled) {
		/* The tables allocate, and may raise: built under lua_pcall, so the gtTiled is freed either way. */
		TiledInfo info = {tiled, m->unit_scale, m->unit_x, m->unit_y};
		lua_pushcfunction(L, push_tiled_info_protected);
		lua_pushlightuserdata(L, &info);
		int failed = lua_pcall(L, 1, 1, 0);                    /* ..., map, info or error */
		gtTiled_Destroy(tiled);
		if (failed) {
			gtMap_Destroy(map);
			return lua_error(L);
		}
	}
	open_map(L, m, map);
	return tiled ? 2 : 1;
}

static int gridtree_new_map(lua_State* L)
{
	lua_Integer width = luaL_checkinteger(L, 1), height = luaL_checkinteger(L, 2);
	if (width < 1 || width > GT_MAP_MAX_SIDE) arg_errorf(L, 1, "width must be from 1 to %d", GT_MAP_MAX_SIDE);
	if (height < 1 || height > GT_MAP_MAX_SIDE) arg_errorf(L, 2, "height must be from 1 to %d", GT_MAP_MAX_SIDE);
	if ((uint64_t)width * (uint64_t)height > GT_MAP_MAX_CELLS)
		arg_errorf(L, 2, "width * height must be at most %d cells", (int)GT_MAP_MAX_CELLS);
	if (lua_isnoneornil(L, 3)) luaL_argerror(L, 3, "cells expected (a string of rows, a table or a function(x, y))");
	lua_settop(L, 3);
	/* The cells in a userdata: collected with it if reading them raises. */
	unsigned char* cells = lua_newuserdatauv(L, (size_t)width * (size_t)height, 0);  /* w, h, cells, buffer */
	lgt_read_cells(L, 3, (int)width, (int)height, cells);
	LMap* m = new_map_object(L);                                                    /* ..., buffer, map */
	gtMap* map;
	gtError err;
	if (gtMap_FromCells((int)width, (int)height, cells, &map, &err)) return luaL_error(L, "gridtree: %s", err.message);
	open_map(L, m, map);
	return 1;
}

static int gridtree_new_world(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtWorldDef def = gtWorld_DefaultDef();
	const char* key;
	for (int v = first_option(L, 2, &key); v; v = next_option(L, 2, v, &key)) {
		if (strcmp(key, "leaf") == 0) def.leaf_size = option_integer(L, v, 2, key, 1, GT_WORLD_MAX_LEAF_SIZE);
		else if (strcmp(key, "keyword_bitmap_bytes") == 0) {
			lua_Number n = option_number(L, v, 2, key);
			if (!(n >= 0 && n <= (lua_Number)GT_WORLD_MAX_BITMAP_BYTES && n == floor(n))) {
				char most[32]; /* Lua's message formats have no 64-bit integer */
				snprintf(most, sizeof most, "%lld", (long long)GT_WORLD_MAX_BITMAP_BYTES);
				arg_errorf(L, 2, "%s must be an integer from 0 to %s", key, most);
			}
			def.keyword_bitmap_bytes = (int64_t)n;
		} else unknown_option(L, 2, v - 1);
	}
	LWorld* w = lua_newuserdatauv(L, sizeof *w, WORLD_SLOTS); /* world */
	memset(w, 0, sizeof *w);
	lgt_newslots(L, -1, WORLD_SLOTS);
	luaL_setmetatable(L, WORLD_TYPE);
	m = check_map(L, 1); /* allocating may have run a finalizer that closed it (rule 4) */
	gtError err;
	if (gtWorld_Create(m->map, &def, &w->world, &err)) return fail(L, err.message);
	w->map = m;
	m->worlds++;
	lua_pushvalue(L, 1);                                       /* world, map */
	lgt_setslot(L, -2, WORLD_SLOT_MAP);                        /* world (keeps the map alive) */
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
** window's end are more points read, in batches that double, into scratch owned by the function
** (upvalue 1, grown, never shrunk): the result is the same as one call over the whole path, with
** no garbage per call, and the scratch never outgrows twice the points the table really holds
** (a crafted length cannot make it allocate). */
static int gridtree_advance(lua_State* L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	size_t raw = (size_t)lua_rawlen(L, 1); /* rule 4: raw, and bounded before any use */
	if (raw > 2 * (size_t)MAX_PATH_POINTS) arg_errorf(L, 1, "path longer than %d points", MAX_PATH_POINTS);
	lua_Integer length = (lua_Integer)raw;
	if (length % 2) luaL_argerror(L, 1, "path must be a flat list {x1, y1, x2, y2, ...}");
	lua_Integer count = length / 2;
	lua_Integer segment = luaL_checkinteger(L, 2);
	/* An empty path (unreachable goal, or emptied on arrival) has nothing to walk whatever the
	** segment: arrived. */
	if (count == 0 && segment >= 1) segment = 1;
	else if (segment < 1 || segment > count)
		arg_errorf(L, 2, "segment must be an integer from 1 to %d (the path's points), got %d", (int)count,
		           (int)(segment < INT_MIN ? INT_MIN : segment > INT_MAX ? INT_MAX : segment));
	gtVec2 at = {check_coord(L, 3), check_coord(L, 4)};
	double step = luaL_checknumber(L, 5);
	if (!(step >= 0)) arg_errorf(L, 5, "step must be a number >= 0, got %g", step);
	lua_Integer first = segment - 1, left = count - first;
	gtVec2 window[ADVANCE_WINDOW];
	int size = left < ADVANCE_WINDOW ? (int)left : ADVANCE_WINDOW, s = 0;
	gtVec2 p = at;
	if (count > 0) {
		read_points(L, first, size, window);
		p = gtPath_Advance(window, size, &s, at, step);
		int have = 0; /* points of the rest already in scratch */
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

/* ---- map methods ------------------------------------------------------------------------------- */

/* The build runs worker threads: a Lua error must not unwind through it. The callback runs
** protected, and so does everything that may allocate (the stage string): progress_call is
** called through lua_pcall with the callback and the record. The first error is kept and
** raised once the build has returned. */
typedef struct Progress {
	lua_State* L;
	int call_at;        /* stack index of progress_call, then the callback above it */
	int failed;
	const char* stage;
	double fraction;
	char message[256];
} Progress;

static int progress_call(lua_State* L)
{
	const Progress* p = lua_touserdata(L, 2);
	lua_pushvalue(L, 1);                                       /* fn, p, fn */
	lua_pushnumber(L, p->fraction);
	lua_pushstring(L, p->stage);
	lua_call(L, 2, 0);
	return 0;
}

static void progress_hook(void* user, const char* stage, double fraction)
{
	Progress* p = user;
	lua_State* L = p->L;
	if (p->failed) return;
	p->stage = stage, p->fraction = fraction;
	lua_pushvalue(L, p->call_at);                              /* ..., progress_call (no allocation) */
	lua_pushvalue(L, p->call_at + 1);                          /* ..., progress_call, fn */
	lua_pushlightuserdata(L, p);                               /* ..., progress_call, fn, p */
	if (lua_pcall(L, 2, 0, 0) != LUA_OK) {                     /* ..., error */
		const char* msg = lua_tostring(L, -1);
		snprintf(p->message, sizeof p->message, "%s", msg ? msg : "error object is not a string");
		p->failed = 1;
		lua_pop(L, 1);                                         /* ... */
	}
}

static int map_build_index(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtEhlDef def = gtEhl_DefaultDef();
	int has_progress = 0;
	Progress progress = {L, 0, 0, "", 0, ""};
	const char* key;
	for (int v = first_option(L, 2, &key); v; v = next_option(L, 2, v, &key)) {
		if (strcmp(key, "cell") == 0) {
			def.cell_size = option_integer(L, v, 2, key, 1, GT_EHL_MAX_CELL_SIZE);
		} else if (strcmp(key, "budget") == 0) {
			def.budget_mb = option_number(L, v, 2, key);
			if (!(def.budget_mb > 0 && def.budget_mb < INFINITY))
				luaL_argerror(L, 2, "budget must be a positive number of megabytes");
		} else if (strcmp(key, "threads") == 0) {
			def.threads = option_integer(L, v, 2, key, 0, GT_MAX_THREADS);
		} else if (strcmp(key, "progress") == 0) {
			if (!lua_isfunction(L, v)) luaL_argerror(L, 2, "progress must be a function");
			has_progress = 1;
		} else {
			unknown_option(L, 2, v - 1);
		}
	}
	if (has_progress) {
		lua_settop(L, 2);
		lua_pushcfunction(L, progress_call);                   /* map, opts, progress_call */
		lua_pushliteral(L, "progress");
		lua_rawget(L, 2);                                      /* map, opts, progress_call, fn */
		progress.call_at = 3;
		def.progress = progress_hook;
		def.progress_user = &progress;
	}
	m = check_map(L, 1); /* pushing the trampoline allocates (LuaJIT): a finalizer may have closed it */
	gtEhl* ehl;
	gtError err;
	m->building++; /* rule 1: map:close() from the callback raises instead of freeing the map */
	gtStatus st = gtEhl_Build(m->map, &def, &ehl, &err);
	m->building--;
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
	check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	LMap* m = check_map(L, 1); /* converting a number to a string allocates: recheck (rule 4) */
	gtError err;
	if (gtNav_LoadIndex(m->nav, path, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_load_mesh(lua_State* L)
{
	check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	LMap* m = check_map(L, 1); /* rule 4 */
	gtError err;
	if (gtNav_LoadMesh(m->nav, path, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

/* A navigation mesh made from the map as it is now (what `gridtree mesh-build` writes). */
static int map_build_mesh(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtError err;
	gtMesh* mesh;
	if (gtMesh_FromMap(gtNav_Map(m->nav), &mesh, &err) || gtNav_SetMesh(m->nav, mesh, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_save_index(lua_State* L)
{
	check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	LMap* m = check_map(L, 1); /* rule 4 */
	if (!gtNav_Index(m->nav)) return luaL_error(L, "map has no index (call build_index or load_index first)");
	gtError err;
	if (gtNav_SaveIndex(m->nav, path, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_save(lua_State* L)
{
	check_map(L, 1);
	const char* path = luaL_checkstring(L, 2);
	LMap* m = check_map(L, 1); /* rule 4 */
	gtError err;
	if (gtMap_Save(m->map, path, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_inflate(lua_State* L)
{
	LMap* unit = check_map(L, 1);
	/* In the map's units, rounded up to whole cells: an agent of that half-width never touches a
	** wall (a whole number of cells within a few units in the last place is that number). */
	lua_Number given = luaL_checknumber(L, 2), clearance = given / unit->unit_scale, whole = nearbyint(clearance);
	if (fabs(clearance - whole) <= 1e-9 * fmax(1, whole)) clearance = whole;
	clearance = ceil(clearance);
	if (!(clearance >= 0 && clearance <= GT_MAP_MAX_CLEARANCE))
		arg_errorf(L, 2, "clearance must be from 0 to %g units (%d cells of %g units), got %g", GT_MAP_MAX_CLEARANCE * unit->unit_scale,
		           GT_MAP_MAX_CLEARANCE, unit->unit_scale, given);
	LMap* inflated = new_map_object(L);
	LMap* m = check_map(L, 1); /* rule 4: the allocation may have run a finalizer */
	gtMap* map;
	gtError err;
	if (gtMap_Inflate(m->map, (int)clearance, &map, &err)) return luaL_error(L, "gridtree: %s", err.message);
	inflated->unit_scale = m->unit_scale, inflated->unit_x = m->unit_x, inflated->unit_y = m->unit_y;
	open_map(L, inflated, map);
	return 1;
}

static int map_set_units(lua_State* L)
{
	LMap* m = check_map(L, 1);
	double scale = luaL_checknumber(L, 2), x0 = luaL_optnumber(L, 3, 0), y0 = luaL_optnumber(L, 4, 0);
	if (!valid_units(scale, x0, y0))
		luaL_argerror(L, 2, "units must be a scale from 1e-6 to 1e9 units per cell and an origin of finite numbers");
	m = check_map(L, 1); /* rule 4 */
	m->unit_scale = scale, m->unit_x = x0, m->unit_y = y0;
	lua_pushboolean(L, 1);
	return 1;
}

static int map_units(lua_State* L)
{
	LMap* m = check_map(L, 1);
	lua_pushnumber(L, m->unit_scale);
	lua_pushnumber(L, m->unit_x);
	lua_pushnumber(L, m->unit_y);
	return 3;
}

/* Rule 1: the build reads the map, so the map is not edited until it returns. */
static LMap* check_editable_map(lua_State* L, int i)
{
	LMap* m = check_map(L, i);
	if (m->building > 0) luaL_error(L, "map is being indexed: edit it after build_index returns");
	return m;
}

/* The cell holding a coordinate in the map's units (a point on a border counts in the cell after
** it), so whole numbers in the default units are cell numbers. Within a few units in the last
** place of a border is on it: 0.3 / 0.1 is the border of cell 3, not inside cell 2. */
static double unit_to_cell(double v, double origin, double scale)
{
	double t = (v - origin) / scale, r = nearbyint(t);
	if (fabs(t - r) <= 1e-9 * fmax(1, fabs(t))) t = r;
	return floor(t);
}

/* A rectangle in the map's units, as four numbers from argument i on (or, as before, the table
** {x0, y0, x1, y1} at i), into the inclusive cells c[0..3] holding its corners and every cell
** between. Returns the argument after the rectangle. */
static int check_rect(lua_State* L, LMap* m, int i, int* c)
{
	int w = gtMap_Width(m->map), h = gtMap_Height(m->map), table = lua_istable(L, i);
	double v[4];
	for (int k = 0; k < 4; k++) {
		int ok = 1;
		if (table) {
			lua_rawgeti(L, i, k + 1);
			v[k] = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : (ok = 0, NAN);
			lua_pop(L, 1);
		} else {
			v[k] = lua_tonumberx(L, i + k, &ok);
		}
		if (!ok || !isfinite(v[k])) arg_errorf(L, table ? i : i + k, "a rectangle is x0, y0, x1, y1: four finite numbers");
	}
	if (v[0] > v[2] || v[1] > v[3]) arg_errorf(L, i, "the rectangle (%g, %g)-(%g, %g) must have x0 <= x1 and y0 <= y1", v[0], v[1], v[2], v[3]);
	for (int k = 0; k < 4; k++) {
		double cell = unit_to_cell(v[k], k % 2 ? m->unit_y : m->unit_x, m->unit_scale), most = (k % 2 ? h : w) - 1;
		if (!(cell >= 0 && cell <= most)) {
			double scale = m->unit_scale;
			arg_errorf(L, table ? i : i + k, "the rectangle (%g, %g)-(%g, %g) reaches outside the map, which spans (%g, %g)-(%g, %g) in its units",
			           v[0], v[1], v[2], v[3], m->unit_x, m->unit_y, m->unit_x + w * scale, m->unit_y + h * scale);
		}
		c[k] = (int)cell;
	}
	return table ? i + 1 : i + 4;
}

/* map:set_blocked(x0, y0, x1, y1, blocked), or the old map:set_blocked({x0, y0, x1, y1}, blocked). */
static int map_set_blocked(lua_State* L)
{
	LMap* m = check_editable_map(L, 1);
	int c[4];
	int at = check_rect(L, m, 2, c);
	luaL_checktype(L, at, LUA_TBOOLEAN);
	gtError err;
	if (gtNav_SetBlocked(m->nav, c[0], c[1], c[2], c[3], lua_toboolean(L, at), &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushboolean(L, 1);
	return 1;
}

/* map:add_door(x0, y0, x1, y1), or the old map:add_door{x0, y0, x1, y1}. */
static int map_add_door(lua_State* L)
{
	LMap* m = check_editable_map(L, 1);
	int c[4], id;
	check_rect(L, m, 2, c);
	gtError err;
	if (gtNav_AddDoor(m->nav, c[0], c[1], c[2], c[3], &id, &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushinteger(L, id);
	return 1;
}

static int check_door(lua_State* L, LMap* m, int i)
{
	lua_Integer id = luaL_checkinteger(L, i);
	if (id < 0 || id >= gtNav_DoorCount(m->nav)) luaL_argerror(L, i, "no such door");
	return (int)id;
}

static int map_set_door(lua_State* L)
{
	LMap* m = check_editable_map(L, 1);
	int id = check_door(L, m, 2);
	luaL_checktype(L, 3, LUA_TBOOLEAN);
	gtError err;
	if (gtNav_SetDoor(m->nav, id, lua_toboolean(L, 3), &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int map_door_open(lua_State* L)
{
	LMap* m = check_map(L, 1);
	lua_pushboolean(L, gtNav_DoorOpen(m->nav, check_door(L, m, 2)));
	return 1;
}

static int map_update(lua_State* L)
{
	LMap* m = check_map(L, 1);
	lua_pushboolean(L, gtNav_Update(m->nav));
	return 1;
}

static int map_index_state(lua_State* L)
{
	static const char* const names[] = {"none", "exact", "lower_bound", "stale"};
	LMap* m = check_map(L, 1);
	lua_pushstring(L, names[gtNav_IndexState(m->nav)]);
	lua_pushboolean(L, gtNav_Rebuilding(m->nav));
	return 2;
}

/* map:size(): the map's width and height in its units; map:grid_size(): in cells. */
static int map_size(lua_State* L)
{
	LMap* m = check_map(L, 1);
	lua_pushnumber(L, gtMap_Width(m->map) * m->unit_scale);
	lua_pushnumber(L, gtMap_Height(m->map) * m->unit_scale);
	return 2;
}

static int map_grid_size(lua_State* L)
{
	LMap* m = check_map(L, 1);
	lua_pushinteger(L, gtMap_Width(m->map));
	lua_pushinteger(L, gtMap_Height(m->map));
	return 2;
}

static int map_is_free(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtVec2 p = check_point(L, m, 2);
	lua_pushboolean(L, gtMap_CheckPoint(m->map, p) == GT_POINT_VALID);
	return 1;
}

static int map_visible(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtVec2 a = check_point(L, m, 2), b = check_point(L, m, 4);
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
	gtVec2 a = check_point(L, m, 2), b = check_point(L, m, 4);
	gtPointCheck ca = gtMap_CheckPoint(m->map, a), cb = gtMap_CheckPoint(m->map, b);
	if (ca != GT_POINT_VALID) return fail(L, gtPointCheckName(ca));
	if (cb != GT_POINT_VALID) return fail(L, gtPointCheckName(cb));
	double d;
	gtError err;
	if (gtNav_Distance(m->query, a, b, &d, &err)) return luaL_error(L, "gridtree: %s", err.message);
	lua_pushnumber(L, d * m->unit_scale);                      /* math.huge when unreachable */
	return 1;
}

static int map_path(lua_State* L)
{
	LMap* m = check_map(L, 1);
	gtVec2 a = check_point(L, m, 2), b = check_point(L, m, 4);
	lua_settop(L, 5);
	take_buffer(L, 1, MAP_SLOT_BUFFER);                        /* ..., buffer (rule 3) */
	m = check_map(L, 1);                                       /* taking may have run a finalizer (rule 4) */
	int capacity = gtNav_PathCapacity(m->nav);
	gtVec2* points = buffer_reserve(L, 6, 0, (size_t)capacity * sizeof *points);
	m = check_map(L, 1);
	if (gtNav_PathCapacity(m->nav) > capacity) { /* a finalizer's edits added corners meanwhile */
		capacity = gtNav_PathCapacity(m->nav);
		points = buffer_reserve(L, 6, 0, (size_t)capacity * sizeof *points);
		m = check_map(L, 1);
	}
	int count;
	double d;
	gtError err;
	gtStatus st = gtNav_Path(m->query, a, b, points, capacity, &count, &d, &err);
	if (st) {
		give_buffer(L, 1, MAP_SLOT_BUFFER, 6);
		return fail(L, err.message);
	}
	double scale = m->unit_scale, x0 = m->unit_x, y0 = m->unit_y; /* the map may close while the table grows */
	lua_createtable(L, 2 * count, 0);                          /* path */
	for (int i = 0; i < count; i++) {
		push_point(L, scale, x0, y0, points[i]);               /* path, x, y */
		lua_rawseti(L, -3, 2 * i + 2);
		lua_rawseti(L, -2, 2 * i + 1);
	}
	lua_pushnumber(L, d * scale);                              /* buffer, path, length */
	give_buffer(L, 1, MAP_SLOT_BUFFER, 6); /* only now: a nested call would have written it */
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
	gtVec2 p = {x, cy + gtRandom_Unit(r)};
	push_point(L, m->unit_scale, m->unit_x, m->unit_y, p);
	return 2;
}

static int map_set_method(lua_State* L)
{
	check_map(L, 1);
	const char* name = luaL_checkstring(L, 2);
	LMap* m = check_map(L, 1); /* rule 4 */
	gtNavMethod method;
	gtError err;
	if (gtNavMethod_Parse(name, &method, &err)) return luaL_argerror(L, 2, err.message);
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
	if (m->building > 0 && !m->closed) return luaL_error(L, "map is in use by build_index (close it after the build returns)");
	m->closed = 1;
	map_release(m);
	return 0;
}

/* __gc: the collector runs it once nothing holds the map. Only lua_close (os.exit(code, true)
** from a progress callback) can get here during a build; the memory is then left to the exit. */
static int map_gc(lua_State* L)
{
	LMap* m = luaL_checkudata(L, 1, MAP_TYPE);
	if (m->building > 0) return 0;
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
	gtVec2 p = check_point(L, w->map, 2);
	int32_t words[MAX_WORDS];
	int n = read_words(L, w, 4, 4, "keywords", words, 1, NULL, 0);
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
	gtVec2 p = check_point(L, w->map, 3);
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
	int n = read_words(L, w, 3, 3, "keywords", words, 1, NULL, 0);
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
	size_t raw = (size_t)lua_rawlen(L, 2); /* rule 4: raw, bounded before anything loops */
	if (raw > MAX_MOVE_MANY) arg_errorf(L, 2, "more than %d objects", MAX_MOVE_MANY);
	if ((size_t)lua_rawlen(L, 3) != raw || (size_t)lua_rawlen(L, 4) != raw)
		luaL_argerror(L, 3, "ids, xs and ys must have the same length");
	int n = (int)raw;
	lua_settop(L, 4);
	Buffer* buffer = take_buffer(L, 1, WORLD_SLOT_BUFFER);     /* ..., buffer (rule 3) */
	Scratch scratch = scratch_of(buffer);
	for (int i = 1; i <= n; i++) {
		/* Scratch grows with the entries really read, so a crafted length cannot make it allocate. */
		if (i > scratch.capacity) scratch = reserve(L, 5, 2 * i < n ? 2 * i : n);
		w = check_world(L, 1); /* rule 4: taking or growing may have run a finalizer */
		lua_rawgeti(L, 2, i);                                  /* ..., id */
		lua_rawgeti(L, 3, i);                                  /* ..., id, x */
		lua_rawgeti(L, 4, i);                                  /* ..., id, x, y */
		int ok_x, ok_y;
		lua_Integer id;
		int ok_id = lgt_tointegerx(L, -3, &id);
		double x = lua_tonumberx(L, -2, &ok_x), y = lua_tonumberx(L, -1, &ok_y);
		if (!ok_id || !gtWorld_IsValid(w->world, (gtObjectId)(uint64_t)id))
			luaL_error(L, "bad argument #%d to 'move_many' (entry %d: stale object id)", lgt_arg_number(L, 2), i);
		if (!ok_x || !ok_y || !isfinite(x) || !isfinite(y))
			luaL_error(L, "bad argument #%d to 'move_many' (entry %d: coordinates must be finite numbers)", lgt_arg_number(L, 3), i);
		scratch.ids[i - 1] = (gtObjectId)(uint64_t)id;
		scratch.points[i - 1] = to_cells(w->map, x, y);
		lua_pop(L, 3);                                         /* ... */
	}
	give_buffer(L, 1, WORLD_SLOT_BUFFER, 5);
	w = check_world(L, 1); /* rule 4, for n = 0 too */
	gtError err;
	if (gtWorld_MoveMany(w->world, scratch.ids, scratch.points, n, &err)) return fail(L, err.message);
	lua_pushboolean(L, 1);
	return 1;
}

static int world_position(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	gtObjectId id = check_id(L, w, 2);
	gtVec2 p;
	gtWorld_GetPosition(w->world, id, &p, NULL);
	push_point(L, w->map->unit_scale, w->map->unit_x, w->map->unit_y, p);
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
		/* Each allocation may run a finalizer that closes the world or changes the object: the
		** list is fetched again after every one (rule 4), and the name is copied out first
		** (LuaJIT's lua_pushstring may collect before it copies). */
		w = check_world(L, 1);
		if (gtWorld_GetKeywords(w->world, id, &words) != n) luaL_argerror(L, 2, "object changed while its keywords were read");
		char name[GT_KEYWORD_MAX_BYTES + 1];
		snprintf(name, sizeof name, "%s", gtWorld_KeywordName(w->world, words[i]));
		lua_pushstring(L, name);
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
	lua_Integer v;
	int ok = lgt_tointegerx(L, 2, &v);
	lua_pushboolean(L, ok && gtWorld_IsValid(w->world, (gtObjectId)(uint64_t)v));
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
	int into_at;  /* stack index of the `into` ids table, the dists table above it */
	int has_miss_cost;
	double alpha; /* top: 0 unless given; the returned scores are then alpha-weighted */
	double scale; /* the map's units per cell: distances and scores go out in units */
	int32_t any[MAX_WORDS], none[MAX_WORDS];
	gtObjectId exclude[MAX_EXCLUDE];
} QueryOptions;

/* `exclude` at stack index v: one id or a list of ids (any ids: stale ones skip nothing). */
static int read_exclude(lua_State* L, int v, int arg, gtObjectId* out)
{
	lua_Integer id;
	if (lua_type(L, v) == LUA_TNUMBER) {
		if (!lgt_tointegerx(L, v, &id)) luaL_argerror(L, arg, "exclude must be an object id or a list of ids");
		out[0] = (gtObjectId)(uint64_t)id;
		return 1;
	}
	if (!lua_istable(L, v)) luaL_argerror(L, arg, "exclude must be an object id or a list of ids");
	size_t n = (size_t)lua_rawlen(L, v);
	if (n > MAX_EXCLUDE) arg_errorf(L, arg, "exclude: more than %d ids", MAX_EXCLUDE);
	check_list(L, v, arg, "exclude", n, 0);
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
	for (int v = first_option(L, i, &key); v; v = next_option(L, i, v, &key)) {
		if (strcmp(key, "min_match") == 0) {
			lua_Number n = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : NAN;
			if (!(n >= 0 && n == floor(n))) luaL_argerror(L, i, "min_match must be an integer >= 0");
			q->min_match = n > MAX_WORDS ? MAX_WORDS + 1 : (int)n;
		} else if (strcmp(key, "any") == 0) {
			q->any_count = read_words(L, w, v, i, "any", o->any, 0, NULL, 0);
			q->any = o->any;
		} else if (strcmp(key, "none") == 0) {
			q->none_count = read_words(L, w, v, i, "none", o->none, 0, NULL, 0);
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
			gtVec2 lo = to_cells(w->map, q->region[0], q->region[1]), hi = to_cells(w->map, q->region[2], q->region[3]);
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
			q->exclude_count = read_exclude(L, v, i, o->exclude);
			q->exclude = o->exclude;
		} else if (strcmp(key, "stats") == 0) {
			o->stats = lua_toboolean(L, v);
		} else if (strcmp(key, "trace") == 0) {
			o->trace = lua_toboolean(L, v);
		} else if (strcmp(key, "alpha") == 0 && kind == Q_TOP) {
			o->alpha = option_number(L, v, i, key);
			if (!(o->alpha > 0 && o->alpha <= 1)) luaL_argerror(L, i, "alpha must be in (0, 1]");
		} else if (strcmp(key, "miss_cost") == 0 && kind == Q_TOP) {
			q->miss_cost = option_number(L, v, i, key);
			if (!(q->miss_cost >= 0 && q->miss_cost < INFINITY)) luaL_argerror(L, i, "miss_cost must be a finite number >= 0");
			q->miss_cost /= w->map->unit_scale; /* given in units, like the distances it is added to */
			o->has_miss_cost = 1;
		} else {
			unknown_option(L, i, v - 1);
		}
	}
	/* Both set the price of a missing word; silently preferring one would hide a mistake. */
	if (o->alpha > 0 && o->has_miss_cost) luaL_argerror(L, i, "give alpha or miss_cost, not both");
	if (o->into) {
		lua_pushliteral(L, "into");
		lua_rawget(L, i);                                      /* ..., into */
		lua_rawgeti(L, -1, 1);                                 /* ..., into, ids */
		lua_rawgeti(L, -2, 2);                                 /* ..., into, ids, dists */
		if (!lua_istable(L, -2) || !lua_istable(L, -1)) luaL_argerror(L, i, "into must be {ids_table, dists_table}");
		lua_remove(L, -3);                                     /* ..., ids, dists */
		o->into_at = lua_gettop(L) - 1;
	}
}

/* trace = true: the nodes the traversal popped or pruned, six numbers each, into block 1 of the
** call's buffer (rule 2: no Lua code inside the query). The block cannot grow inside the query:
** when it was too small, the query is run again with one that fits. */
typedef struct Trace {
	double* at;
	size_t room;   /* numbers block 1 holds */
	size_t count;  /* numbers the query gave (more than room: run it again with more) */
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
		lua_pushvalue(L, o->into_at);                          /* ids */
		lua_pushvalue(L, o->into_at + 1);                      /* ids, dists */
	} else {
		lua_createtable(L, count, 0);                          /* ids */
		lua_createtable(L, count, 0);                          /* ids, dists */
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

/* The trace as a new flat table (a debugging aid: it allocates), from the call's buffer. */
static void push_trace(lua_State* L, const Trace* t)
{
	size_t n = t->count;
	if (n > INT_MAX) luaL_error(L, "gridtree: trace too long");
	const double* trace = t->at;
	lua_createtable(L, (int)n, 0);                             /* trace */
	for (size_t i = 0; i < n; i++) {
		if (i % 6 < 4) lua_pushnumber(L, trace[i]);
		else lua_pushinteger(L, (lua_Integer)trace[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
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
	gtVec2 p = check_point(L, w->map, 2);
	gtQuery q = gtQuery_Default(p);
	if (kind == Q_WITHIN) {
		q.radius = luaL_checknumber(L, 4);
		if (!(q.radius >= 0)) luaL_argerror(L, 4, "radius must be a number >= 0");
		q.radius /= w->map->unit_scale;
	} else {
		lua_Integer k = luaL_checkinteger(L, 4);
		if (k < 0 || k > MAX_K) arg_errorf(L, 4, "k must be an integer from 0 to %d", MAX_K);
		q.k = (int)k;
	}
	int32_t words[MAX_WORDS];
	Unknown unknown;
	int named = read_words(L, w, 5, 5, "keywords", words, 0, &unknown, 6);
	q.keyword_count = one_per_unknown_word(words, named, unknown.count);
	q.keywords = words;
	QueryOptions o;
	read_options(L, w, 6, kind, &q, &o);
	Buffer* buffer = take_buffer(L, 1, WORLD_SLOT_BUFFER);     /* ..., buffer (rule 3) */
	int buffer_at = lua_gettop(L);
	w = check_world(L, 1); /* rule 4: the arguments are read; from here on no Lua code runs until the results */
	if (kind == Q_TOP && o.alpha > 0) {
		/* score = alpha * distance + (1 - alpha) * 100 * missing / |Q|, with |Q| the distinct query
		** words: ranked as distance + miss_cost * missing, each missing word costs this. */
		int distinct = distinct_known(words, q.keyword_count) + unknown.count;
		q.miss_cost = (1 - o.alpha) / o.alpha * 100.0 / (distinct > 0 ? distinct : 1) / o.scale; /* 100 units */
	}
	if (o.euclid && kind == Q_TOP) luaL_argerror(L, 6, "top ranks by path distance; metric = \"euclid\" is for nearest and within");
	if (gtMap_CheckPoint(w->map->map, p) != GT_POINT_VALID && !o.euclid) {
		give_buffer(L, 1, WORLD_SLOT_BUFFER, buffer_at);
		return fail(L, gtPointCheckName(gtMap_CheckPoint(w->map->map, p)));
	}
	gtQueryStats stats;
	gtError err;
	int count = 0, need = kind == Q_WITHIN ? 64 : (q.k > 0 ? q.k : 1);
	gtStatus st;
	Trace trace = {NULL, 0, 0};
	if (o.trace) q.trace = trace_node, q.trace_context = &trace;
	Scratch r;
	for (;;) { /* again when `within` finds more than the scratch holds, or the trace outgrew its block */
		r = reserve(L, buffer_at, need);
		if (o.trace) {
			trace.at = buffer_reserve(L, buffer_at, 1, (trace.count > 64 * 6 ? trace.count : 64 * 6) * sizeof(double));
			trace.room = buffer->bytes[1] / sizeof(double), trace.count = 0;
		}
		w = check_world(L, 1); /* rule 4: growing may have run a finalizer */
		if (o.euclid) {
			st = kind == Q_WITHIN ? gtWorld_WithinEuclid(w->world, &q, r.ids, r.dists, r.capacity, &count, &stats, &err)
			                      : gtWorld_NearestEuclid(w->world, &q, r.ids, r.dists, r.capacity, &count, &stats, &err);
		} else {
			gtDistance d = map_distance_module(L, w->map);
			st = kind == Q_WITHIN ? gtWorld_Within(w->world, &q, d, r.ids, r.dists, r.capacity, &count, &stats, &err)
			   : kind == Q_TOP    ? gtWorld_Top(w->world, &q, d, r.ids, r.dists, r.capacity, &count, &stats, &err)
			                      : gtWorld_Nearest(w->world, &q, d, r.ids, r.dists, r.capacity, &count, &stats, &err);
		}
		if (st == GT_ERR_BUFFER_TOO_SMALL && kind == Q_WITHIN) need = count;
		else if (!(o.trace && !st && trace.count > trace.room)) break;
	}
	if (st == GT_ERR_INVALID_POINT) {
		give_buffer(L, 1, WORLD_SLOT_BUFFER, buffer_at);
		return fail(L, err.message);
	}
	if (st) return luaL_error(L, "gridtree: %s", err.message);
	if (kind == Q_TOP && o.alpha > 0) /* distance + miss cost, times alpha = the documented score */
		for (int i = 0; i < count; i++) r.dists[i] *= o.alpha;
	int n = push_results(L, &r, &o, count, &stats);
	if (o.trace) push_trace(L, &trace);                        /* ..., results..., trace */
	give_buffer(L, 1, WORLD_SLOT_BUFFER, buffer_at); /* only after the copies (rule 3) */
	return n + o.trace;
}

static int world_nearest(lua_State* L) { return world_query(L, Q_NEAREST); }
static int world_within(lua_State* L) { return world_query(L, Q_WITHIN); }
static int world_top(lua_State* L) { return world_query(L, Q_TOP); }

#define MAX_MANY_K 255 /* nearest_many's k: a target field keeps up to 255 per hub */

/* world:nearest_many(xs, ys, k, keywords, opts): every agent's k nearest, as one batch. */
static int world_nearest_many(lua_State* L)
{
	LWorld* w = check_world(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	luaL_checktype(L, 3, LUA_TTABLE);
	size_t raw = (size_t)lua_rawlen(L, 2); /* rule 4: raw, bounded before anything loops */
	if (raw > MAX_MOVE_MANY) arg_errorf(L, 2, "more than %d agents", MAX_MOVE_MANY);
	if ((size_t)lua_rawlen(L, 3) != raw) luaL_argerror(L, 3, "xs and ys must have the same length");
	lua_Integer k = luaL_checkinteger(L, 4);
	if (k < 1 || k > MAX_MANY_K) arg_errorf(L, 4, "k must be an integer from 1 to %d", MAX_MANY_K);
	int32_t words[MAX_WORDS];
	Unknown unknown;
	int named = read_words(L, w, 5, 5, "keywords", words, 0, &unknown, 6);
	gtQuery q = gtQuery_Default((gtVec2){0, 0});
	q.k = (int)k;
	q.keyword_count = one_per_unknown_word(words, named, unknown.count);
	q.keywords = words;
	int threads = 0, into = 0, has_self = 0;
	gtObjectId exclude[MAX_EXCLUDE];
	double budget_us = 0;
	gtCrowdMethod method = GT_CROWD_AUTO;
	const char* key;
	for (int v = first_option(L, 6, &key); v; v = next_option(L, 6, v, &key)) {
		if (strcmp(key, "threads") == 0) threads = option_integer(L, v, 6, key, 0, GT_MAX_THREADS);
		else if (strcmp(key, "budget_us") == 0) {
			budget_us = option_number(L, v, 6, key);
			if (!(budget_us > 0 && budget_us < INFINITY)) luaL_argerror(L, 6, "budget_us must be a number > 0");
		} else if (strcmp(key, "method") == 0) {
			gtError err;
			if (lua_type(L, v) != LUA_TSTRING || gtCrowdMethod_Parse(lua_tostring(L, v), &method, &err))
				luaL_argerror(L, 6, "method must be \"auto\", \"each\", \"batch\" or \"field\"");
		} else if (strcmp(key, "into") == 0) {
			if (!lua_istable(L, v)) luaL_argerror(L, 6, "into must be {ids_table, dists_table, counts_table}");
			into = 1;
		} else if (strcmp(key, "exclude") == 0) {
			q.exclude_count = read_exclude(L, v, 6, exclude);
			q.exclude = exclude;
		} else if (strcmp(key, "self") == 0) {
			if (!lua_istable(L, v)) luaL_argerror(L, 6, "self must be a table of ids, one per agent");
			has_self = 1;
		} else unknown_option(L, 6, v - 1);
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
	take_buffer(L, 1, WORLD_SLOT_BUFFER);                      /* ..., buffer (rule 3) */
	int buffer_at = lua_gettop(L);
	/* Grows with the largest batch, then stays (a frame allocates nothing). */
	gtObjectId* ids = buffer_reserve(L, buffer_at, 0, bytes);
	w = check_world(L, 1); /* rule 4: taking or growing may have run a finalizer that closed it */
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
		points[i - 1] = to_cells(w->map, x, y);
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
		gtQuery* queries = buffer_reserve(L, buffer_at, 1, (size_t)n * (sizeof(gtQuery) + (size_t)per * sizeof(gtObjectId)));
		w = check_world(L, 1); /* rule 4 */
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
	give_buffer(L, 1, WORLD_SLOT_BUFFER, buffer_at); /* only after the copies (rule 3) */
	return 4;
}

/* Frees the gtWorld; the buffer stays with the object (rule 3). */
static int world_close(lua_State* L)
{
	LWorld* w = luaL_checkudata(L, 1, WORLD_TYPE);
	if (!w->world) return 0;
	gtCrowd_Destroy(w->crowd);
	gtSchedule_Destroy(w->schedule);
	w->crowd = NULL, w->schedule = NULL;
	gtWorld_Destroy(w->world);
	w->world = NULL;
	w->map->worlds--;
	map_release(w->map);
	return 0;
}

/* The buffer goes with its own userdata (rule 3). */
static int world_gc(lua_State* L)
{
	return world_close(L);
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
    {"build_mesh", map_build_mesh},   {"load_mesh", map_load_mesh},
    {"size", map_size},               {"grid_size", map_grid_size},   {"is_free", map_is_free},
    {"visible", map_visible},
    {"save", map_save},               {"inflate", map_inflate},
    {"set_units", map_set_units},     {"units", map_units},
    {"set_blocked", map_set_blocked}, {"add_door", map_add_door},   {"set_door", map_set_door},
    {"door_open", map_door_open},     {"update", map_update},       {"index_state", map_index_state},
    {"distance", map_distance},       {"path", map_path},             {"random_point", map_random_point},
    {"set_method", map_set_method},   {"method", map_method},         {"close", map_close},
    {NULL, NULL},
};

static const luaL_Reg world_methods[] = {
    {"add", world_add},         {"move", world_move},       {"set_keywords", world_set_keywords},
    {"remove", world_remove},   {"move_many", world_move_many}, {"position", world_position},
    {"keywords", world_keywords}, {"count", world_count},   {"valid", world_valid},
    {"nearest", world_nearest}, {"within", world_within},   {"top", world_top},
    {"nearest_many", world_nearest_many},
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

/* Seconds on a monotonic wall clock (os.clock counts the process's CPU time, every thread's). */
static int gridtree_clock(lua_State* L)
{
	lua_pushnumber(L, gtNowSeconds());
	return 1;
}

static const luaL_Reg gridtree_functions[] = {
    {"version", gridtree_version},
    {"clock", gridtree_clock},
    {"random", gridtree_random},
    {"load_map", gridtree_load_map},
    {"new_map", gridtree_new_map},
    {"new_world", gridtree_new_world},
    {NULL, NULL},
};

/* lua_args.h: errors name the function by what it is, however it was called. */
const char* lgt_function_name(lua_CFunction f)
{
	static const luaL_Reg* const lists[] = {map_methods, world_methods, random_methods, gridtree_functions};
	for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
		for (const luaL_Reg* r = lists[i]; r->name; r++)
			if (r->func == f) return r->name;
	if (f == gridtree_advance) return "advance";
	return NULL;
}

static void make_type(lua_State* L, const char* name, const luaL_Reg* methods, lua_CFunction close,
                      lua_CFunction gc, lua_CFunction tostring)
{
	luaL_newmetatable(L, name);                                /* mt */
	lua_newtable(L);                                           /* mt, methods */
	luaL_setfuncs(L, methods, 0);
	lua_setfield(L, -2, "__index");                            /* mt */
	const luaL_Reg owning[] = {{"__gc", gc}, {"__close", close}, {NULL, NULL}};
	if (close) luaL_setfuncs(L, owning, 0); /* a type that owns C memory */
	/* getmetatable(object) returns this name, so scripts cannot reach __gc (rule 3). */
	lua_pushstring(L, name);
	lua_setfield(L, -2, "__metatable");
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

typedef struct { const char* name; lua_Integer value; } NamedInteger;

static void set_integers(lua_State* L, const NamedInteger* fields, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		lua_pushinteger(L, fields[i].value);
		lua_setfield(L, -2, fields[i].name);
	}
}

LUAMOD_API int luaopen_gridtree(lua_State* L)
{
	luaL_checkversion(L);
	make_type(L, MAP_TYPE, map_methods, map_close, map_gc, map_tostring);
	make_type(L, WORLD_TYPE, world_methods, world_close, world_gc, world_tostring);
	make_type(L, RANDOM_TYPE, random_methods, NULL, NULL, random_tostring);

	luaL_newlib(L, gridtree_functions);                        /* module */
	lua_pushnil(L);                                            /* module, scratch (none yet) */
	lua_pushcclosure(L, gridtree_advance, 1);                  /* module, advance */
	lua_setfield(L, -2, "advance");
	lua_pushstring(L, gtVersionString());
	lua_setfield(L, -2, "_VERSION");
	static const NamedInteger versions[] = {
	    {"version_major", GT_VERSION_MAJOR}, {"version_minor", GT_VERSION_MINOR},
	    {"version_patch", GT_VERSION_PATCH},
	};
	set_integers(L, versions, sizeof versions / sizeof *versions);
	/* The limits the binding checks, from the library's named constants. */
	static const NamedInteger limits[] = {
	    {"max_cell_size", GT_EHL_MAX_CELL_SIZE}, {"max_threads", GT_MAX_THREADS},
	    {"max_clearance", GT_MAP_MAX_CLEARANCE}, {"max_map_side", GT_MAP_MAX_SIDE},
	    {"max_leaf_size", GT_WORLD_MAX_LEAF_SIZE}, {"max_keyword_bytes", GT_KEYWORD_MAX_BYTES},
	    {"max_keywords", MAX_WORDS}, {"max_k", MAX_K}, {"max_move_many", MAX_MOVE_MANY},
	    {"max_path_points", MAX_PATH_POINTS},
	};
	lua_createtable(L, 0, (int)(sizeof limits / sizeof *limits)); /* module, limits */
	set_integers(L, limits, sizeof limits / sizeof *limits);
	lua_setfield(L, -2, "limits");                             /* module */
	return 1;
}
