/* The binding's shared helpers: result buffers (rule 3), argument and option checks, keyword lists,
** positions in game units. Internal to plugin/lua (lua_binding.h). */

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_binding.h"


/* Takes the idle buffer of the object at stack index `object` (slot `slot`), or makes a new one,
** and leaves it on the stack: the caller's alone until lgt_give_buffer. May allocate (run finalizers). */
Buffer* lgt_take_buffer(lua_State* L, int object, int slot)
{
	if (lgt_getslot(L, object, slot) == LUA_TUSERDATA) { /* ..., buffer */
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
void lgt_give_buffer(lua_State* L, int object, int slot, int at)
{
	lua_pushvalue(L, at);
	lgt_setslot(L, object, slot);
}

/* Block `which` of the buffer at stack index `at`, with room for `bytes`, its contents kept. A
** larger block is a new userdata: allocating may run finalizers (recheck the object after it) and
** raises when out of memory. The buffer is the caller's alone, so nothing else writes it meanwhile. */
void* lgt_buffer_reserve(lua_State* L, int at, int which, size_t bytes)
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

double lgt_check_coord(lua_State* L, int i)
{
	double v = luaL_checknumber(L, i);
	if (!isfinite(v)) luaL_argerror(L, i, "coordinate must be a finite number");
	return v;
}

/* A position in game units into cells, and back. The default units (1, 0, 0) are exact both ways. */
gtVec2 lgt_to_cells(const LMap* m, double x, double y)
{
	gtVec2 p = {(x - m->unit_x) / m->unit_scale, (y - m->unit_y) / m->unit_scale};
	return p;
}

gtVec2 lgt_check_point(lua_State* L, const LMap* m, int i)
{
	double x = lgt_check_coord(L, i), y = lgt_check_coord(L, i + 1);
	return lgt_to_cells(m, x, y);
}

const char* lgt_pair_invalid(const LMap* m, gtVec2 a, gtVec2 b)
{
	gtPointCheck ca = gtMap_CheckPoint(m->map, a), cb = gtMap_CheckPoint(m->map, b);
	return ca != GT_POINT_VALID ? gtPointCheckName(ca) : cb != GT_POINT_VALID ? gtPointCheckName(cb) : NULL;
}

void lgt_push_point(lua_State* L, double scale, double x0, double y0, gtVec2 p)
{
	lua_pushnumber(L, x0 + p.x * scale);
	lua_pushnumber(L, y0 + p.y * scale);
}

/* luaL_argerror with a printf-formatted message, so limits are printed from their named
** constants and numbers as %g gives them (the same under Lua 5.4 and LuaJIT). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int lgt_arg_errorf(lua_State* L, int arg, const char* format, ...)
{
	char message[400];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	return luaL_argerror(L, arg, message);
}

/* An option's value at stack index v as an integer; errors name the options table's argument. */
int lgt_option_integer(lua_State* L, int v, int arg, const char* key, int lo, int hi)
{
	/* Through a double: LuaJIT's lua_tointegerx truncates 1.5 without saying so. */
	lua_Number n = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : NAN;
	if (!(n >= lo && n <= hi && n == floor(n)))
		lgt_arg_errorf(L, arg, "%s must be an integer from %d to %d", key, lo, hi);
	return (int)n;
}

double lgt_option_number(lua_State* L, int v, int arg, const char* key)
{
	if (lua_type(L, v) != LUA_TNUMBER) lgt_arg_errorf(L, arg, "%s must be a number", key);
	return lua_tonumber(L, v);
}

int lgt_unknown_option(lua_State* L, int arg, int key)
{
	if (lua_type(L, key) == LUA_TSTRING) return lgt_arg_errorf(L, arg, "unknown option '%s'", lua_tostring(L, key));
	return lgt_arg_errorf(L, arg, "option names must be strings, not %s", luaL_typename(L, key));
}

int lgt_fail(lua_State* L, const char* message)
{
	luaL_pushfail(L);           /* nil */
	lua_pushstring(L, message); /* nil, message */
	return 2;
}

Scratch lgt_scratch_of(Buffer* b)
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
** grows it as it reads). May run finalizers (lgt_buffer_reserve); raises when out of memory. */
Scratch lgt_reserve(lua_State* L, int at, int n)
{
	Buffer* b = lua_touserdata(L, at);
	Scratch old = lgt_scratch_of(b);
	if (n <= old.capacity && b->block[0]) return old;
	lgt_buffer_reserve(L, at, 0, (size_t)(n < 64 ? 64 : n) * SCRATCH_ENTRY);
	Scratch r = lgt_scratch_of(b);
	/* The sections move up: the last one first, so neither overwrites what is still to move. */
	char* block = b->block[0];
	memmove(r.ids, block + (size_t)old.capacity * (sizeof(gtVec2) + sizeof(double)),
	        (size_t)old.capacity * sizeof(gtObjectId));
	memmove(r.dists, block + (size_t)old.capacity * sizeof(gtVec2), (size_t)old.capacity * sizeof(double));
	return r;
}

void lgt_note_unknown(Unknown* u, const char* text, size_t length)
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
void lgt_check_list(lua_State* L, int i, int arg, const char* what, size_t n, int options_arg)
{
	lua_pushnil(L);
	while (lua_next(L, i)) { /* ..., key, value */
		lua_pop(L, 1);       /* ..., key */
		lua_Integer at;
		if (lua_type(L, -1) == LUA_TNUMBER && lgt_tointegerx(L, -1, &at) && at >= 1 && (size_t)at <= n) continue;
		char key[48];
		if (lua_type(L, -1) == LUA_TSTRING) snprintf(key, sizeof key, "key '%.30s'", lua_tostring(L, -1));
		else if (lua_type(L, -1) == LUA_TNUMBER) snprintf(key, sizeof key, "key %.14g", (double)lua_tonumber(L, -1));
		else snprintf(key, sizeof key, "a %s key", luaL_typename(L, -1));
		if (options_arg > 0)
			lgt_arg_errorf(L, arg, "%s: expected a list of words, got a table with %s; options go in argument #%d",
			               what, key, lgt_arg_number(L, options_arg));
		lgt_arg_errorf(L, arg, "%s: expected a list, got a table with %s", what, key);
	}
}

int lgt_read_words(lua_State* L, LWorld* w, int i, int arg, const char* what, int32_t* out, int intern,
                   Unknown* unknown, int options_arg)
{
	int n = 0;
	if (unknown) unknown->count = 0;
	if (lua_isnoneornil(L, i)) return 0;
	int is_string = lua_type(L, i) == LUA_TSTRING;
	size_t len = 0, count = 0;
	const char* s = is_string ? lua_tolstring(L, i, &len) : NULL;
	if (!is_string) {
		if (!lua_istable(L, i)) lgt_arg_errorf(L, arg, "%s must be a table of words or a space-separated string", what);
		count = (size_t)lua_rawlen(L, i);
		if (count > MAX_WORDS) lgt_arg_errorf(L, arg, "%s: more than %d keywords", what, MAX_WORDS);
		lgt_check_list(L, i, arg, what, count, options_arg);
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
			lua_rawgeti(L, i, n + 1); /* ..., word */
			if (lua_type(L, -1) != LUA_TSTRING) lgt_arg_errorf(L, arg, "%s must be strings", what);
			text = lua_tolstring(L, -1, &length);
			lua_pop(L, 1); /* ... */
		}
		if (length > GT_KEYWORD_MAX_BYTES)
			lgt_arg_errorf(L, arg, "%s: keyword longer than %d bytes", what, GT_KEYWORD_MAX_BYTES);
		/* The library takes C strings: a NUL byte (or any other byte it refuses) would cut or
		** change the word silently, so the whole word is checked here, for queries too. */
		int printable = length > 0;
		for (size_t c = 0; c < length && printable; c++) printable = text[c] > ' ' && text[c] <= '~';
		if (!printable)
			lgt_arg_errorf(L, arg, "%s must be words of 1 to %d printable ASCII bytes without spaces (no NUL bytes)",
			               what, GT_KEYWORD_MAX_BYTES);
		if (n == MAX_WORDS) lgt_arg_errorf(L, arg, "%s: more than %d keywords", what, MAX_WORDS);
		memcpy(word, text, length);
		word[length] = '\0';
		out[n] = intern ? gtWorld_Keyword(w->world, word) : gtWorld_FindKeyword(w->world, word);
		if (intern && out[n] < 0) luaL_error(L, "gridtree: out of memory");
		if (!intern && out[n] < 0 && unknown) lgt_note_unknown(unknown, text, length);
		n++;
	}
	return n;
}

/* ---- option tables ---------------------------------------------------------------------------- */

/* Option tables: for (v = lgt_first_option(L, arg, &key); v; v = lgt_next_option(L, arg, v, &key)) visits
** each entry with its value at index v and *key its name ("" for a key that is not a string);
** none or nil is an empty table, anything else that is not a table an error. */
static int option_entry(lua_State* L, int arg, const char** key)
{
	if (!lua_next(L, arg)) return 0; /* ..., key, value */
	int v = lua_gettop(L);
	*key = lua_type(L, v - 1) == LUA_TSTRING ? lua_tostring(L, v - 1) : "";
	return v;
}

int lgt_first_option(lua_State* L, int arg, const char** key)
{
	if (lua_isnoneornil(L, arg)) return 0;
	luaL_checktype(L, arg, LUA_TTABLE);
	lua_pushnil(L);
	return option_entry(L, arg, key);
}

int lgt_next_option(lua_State* L, int arg, int v, const char** key)
{
	lua_settop(L, v - 1); /* ..., key */
	return option_entry(L, arg, key);
}
