// Out of memory through the Lua binding: one budget shared by the Lua state's allocator and
// gridtree's allocator hook (gtSetAllocator), so either side can be the one that fails. Every
// operation a script makes is run again and again with the n-th allocation failing, for every n
// until it succeeds: each failed try must raise an error or return nil and a message that speaks of
// memory, and leave the map and the world as they were (same objects, positions, keywords and
// method; validate passes). Closing the state then returns every byte of both allocators (ASan
// checks the rest).
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gridtree/gt_lua.h"
#include "test_support.h"

typedef struct Budget {
	long long left;                // allocations still allowed while armed
	long long lua_bytes, gt_bytes; // live bytes of each allocator
	int armed;
	atomic_flag busy; // builds allocate from several worker threads at once (gt_base.h)
} Budget;

// Takes one allocation from the budget; false once it is spent. Shrinking never fails (Lua
// assumes that), and neither does anything while the budget is not armed.
static int budget_take(Budget* b)
{
	if (!b->armed) return 1;
	if (b->left == 0) return 0;
	b->left--;
	return 1;
}

// Both allocators: free, or grow from the budget, counting the live bytes of one side.
static void* budget_resize_locked(Budget* b, long long* live, void* ptr, size_t old_size, size_t new_size)
{
	if (new_size == 0) {
		free(ptr);
		*live -= (long long)old_size;
		return NULL;
	}
	if (new_size > old_size && !budget_take(b)) return NULL;
	void* p = realloc(ptr, new_size);
	if (p) *live += (long long)new_size - (long long)old_size;
	return p;
}

static void* budget_resize(Budget* b, long long* live, void* ptr, size_t old_size, size_t new_size)
{
	while (atomic_flag_test_and_set_explicit(&b->busy, memory_order_acquire)) continue;
	void* p = budget_resize_locked(b, live, ptr, old_size, new_size);
	atomic_flag_clear_explicit(&b->busy, memory_order_release);
	return p;
}

// Lua's allocator: ptr NULL means a new block, and osize is then the kind of object, not a size.
static void* lua_budget_alloc(void* user, void* ptr, size_t osize, size_t nsize)
{
	Budget* b = user;
	return budget_resize(b, &b->lua_bytes, ptr, ptr ? osize : 0, nsize);
}

static void* gt_budget_alloc(void* user, void* ptr, size_t old_size, size_t new_size)
{
	Budget* b = user;
	return budget_resize(b, &b->gt_bytes, ptr, old_size, new_size);
}

// The script's state as one string (nil map and world included), checked with validate.
static const char SNAPSHOT[] =
    "local parts = {M and M:method() or 'no map', W and tostring(W:count()) or 'no world'}\n"
    "if W then\n"
    "  assert(W:validate())\n"
    "  for i = 1, #ids do\n"
    "    local id = ids[i]\n"
    "    if id and W:valid(id) then\n"
    "      local x, y = W:position(id)\n"
    "      parts[#parts + 1] = ('%d:%.17g,%.17g:%s'):format(id, x, y, table.concat(W:keywords(id), ' '))\n"
    "    end\n"
    "  end\n"
    "end\n"
    "return table.concat(parts, ';')\n";

// Each operation is a chunk that raises on failure. A call's results go to locals (no allocation
// after the call has changed anything) and `nil, message` is raised as the message.
static const char* const OPERATIONS[] = {
    "local m, e = gridtree.load_map('assets/maps/small.map'); if not m then error(e, 0) end; M = m",
    "local ok, e = M:build_index{cell = 4, threads = 1}; if not ok then error(e, 0) end",
    "local w, e = gridtree.new_world(M, {leaf = 4}); if not w then error(e, 0) end; W = w",
    "local ok, e = W:move(ids[1], 9.5, 2.5); if not ok then error(e, 0) end",
    "W:set_keywords(ids[2], {'tank', 'elf', 'brand_new_word'})",
    "local ok, e = W:move_many(ids, xs, ys); if not ok then error(e, 0) end",
    "local a, b = W:nearest(6.5, 2.5, 5, {'elf'}, {any = {'healer', 'tank'}, none = {'orc'}, trace = true}); "
    "if not a then error(b, 0) end",
    "local a, b = W:within(6.5, 2.5, 8, nil, {stats = true}); if not a then error(b, 0) end",
    "local a, b = W:top(6.5, 2.5, 4, {'elf', 'never_seen', 'tank'}, {miss_cost = 10}); if not a then error(b, 0) end",
    "local a, b = W:nearest(6.5, 2.5, 3, 'healer', {metric = 'euclid', into = {out_ids, out_d}}); if not a then "
    "error(b, 0) end",
    "local d, e = M:distance(6.5, 2.5, 30.5, 2.5); if not d then error(e, 0) end",
    "local p, e = M:path(6.5, 2.5, 30.5, 2.5); if not p then error(e, 0) end",
    "local k = W:keywords(ids[2]); assert(#k == 3)",
    "local ok, e = M:save_index(INDEX); if not ok then error(e, 0) end",
    "local ok, e = M:load_index(INDEX); if not ok then error(e, 0) end",
    "W:remove(ids[3])",
    "local ok, e = M:set_method('oracle'); if not ok then error(e, 0) end",
    "local d, e = M:distance(6.5, 2.5, 30.5, 2.5); if not d then error(e, 0) end", // builds the oracle
};

// One object more; swept OBJECTS times, after the world is made.
#define OBJECTS 40
static const char ADD[] =
    "local i = added + 1; local id, e = W:add(5.5 + i % 20, 1.5 + i % 3, i % 2 == 0 and 'healer elf' or 'orc'); "
    "if not id then error(e, 0) end; ids[i], added = id, i";

static void run_unarmed(lua_State* L, const char* code, int results)
{
	if (luaL_loadstring(L, code) != LUA_OK || lua_pcall(L, 0, results, 0) != LUA_OK)
		fail_msg("%s", lua_tostring(L, -1));
}

static char* snapshot(lua_State* L)
{
	run_unarmed(L, SNAPSHOT, 1);
	char* copy = strdup(lua_tostring(L, -1));
	lua_pop(L, 1);
	return copy;
}

// The n-th allocation of the operation fails, for n = 0, 1, 2, ... (stepping faster past 200, so a
// build's thousands of allocations cost a few hundred tries) until it succeeds. Returns the tries
// that failed.
static int sweep(lua_State* L, Budget* b, const char* op)
{
	int failures = 0;
	for (long long n = 0;; n += n < 200 ? 1 : 1 + n / 40) {
		char* before = snapshot(L);
		if (luaL_loadstring(L, op) != LUA_OK) fail_msg("%s", lua_tostring(L, -1));
		b->left = n, b->armed = 1;
		int st = lua_pcall(L, 0, 0, 0);
		b->armed = 0;
		if (st == LUA_OK) {
			free(before);
			return failures;
		}
		const char* message = lua_tostring(L, -1);
		if (!message || !strstr(message, "memory"))
			fail_msg("%s, allocation %lld failing: %s", op, n, message ? message : "(no message)");
		lua_pop(L, 1);
		char* after = snapshot(L);
		if (strcmp(before, after) != 0)
			fail_msg("%s, allocation %lld failing, changed the state:\n  %s\n  %s", op, n, before, after);
		free(before);
		free(after);
		failures++;
		lua_gc(L, LUA_GCCOLLECT, 0);
	}
}

static void test_every_operation_out_of_memory(void** state)
{
	(void)state;
	Budget b = {0, 0, 0, 0, ATOMIC_FLAG_INIT};
	gtSetAllocator(gt_budget_alloc, &b);
	lua_State* L = lua_newstate(lua_budget_alloc, &b);
	assert_non_null(L);
	luaL_openlibs(L);
	luaL_requiref(L, "gridtree", luaopen_gridtree, 1);
	lua_pop(L, 1);
	char index[TEST_TEMP_PATH];
	test_temp_file(index, "lua_oom");
	lua_pushstring(L, index);
	lua_setglobal(L, "INDEX");
	// Tables the operations fill are sized up front: an assignment into them never allocates.
	run_unarmed(L,
	            "added, ids, xs, ys, out_ids, out_d = 0, {}, {}, {}, {}, {}\n"
	            "for i = 1, 40 do ids[i], xs[i], ys[i] = false, 5.5 + (i + 3) % 20, 1.5 + i % 3 end\n"
	            "for i = 1, 8 do out_ids[i], out_d[i] = 0, 0 end",
	            0);
	int total = 0;
	for (size_t i = 0; i < sizeof OPERATIONS / sizeof *OPERATIONS; i++) {
		total += sweep(L, &b, OPERATIONS[i]);
		if (strstr(OPERATIONS[i], "new_world"))
			for (int k = 0; k < OBJECTS; k++) total += sweep(L, &b, ADD);
	}
	run_unarmed(L, "assert(W:count() == 39 and M:method() == 'oracle')", 0);
	lua_close(L);
	gtSetAllocator(NULL, NULL);
	remove(index);
	assert_int_equal(b.lua_bytes, 0);
	assert_int_equal(b.gt_bytes, 0);
	assert_true(total > 150);
	printf("note: %d Lua calls ran out of memory and changed nothing\n", total);
}

TEST_MAIN("lua_oom", test_every_operation_out_of_memory)
