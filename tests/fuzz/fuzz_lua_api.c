// Fuzz target: the Lua binding driven by random call sequences. Each input runs, in a fresh Lua 5.4
// state with the module compiled in, the interpreter tests/fuzz/lua_api_driver.lua (path given at
// build time as GT_FUZZ_LUA_DRIVER): it reads the bytes as a program of calls on maps and worlds,
// with build progress callbacks and finalizers that call back in, and checks answers against a
// model. A broken invariant, or any Lua error escaping the driver, aborts (a crash to libFuzzer);
// memory errors are the sanitizers'.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "gridtree/gt_lua.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static char* driver;
static size_t driver_size;

static void load_driver(void)
{
	FILE* f = fopen(GT_FUZZ_LUA_DRIVER, "rb");
	if (!f) {
		perror(GT_FUZZ_LUA_DRIVER);
		abort();
	}
	size_t capacity = 1 << 16;
	driver = malloc(capacity);
	if (!driver) abort();
	driver_size = fread(driver, 1, capacity, f);
	if (driver_size == capacity) {
		fprintf(stderr, "fuzz_lua_api: the driver is longer than %zu bytes\n", capacity);
		abort();
	}
	fclose(f);
}

// Warnings are the finalizers' errors under Lua 5.4: expected (a finalizer calling a closed
// world), so they are not printed.
static void no_warnings(void* ud, const char* message, int more)
{
	(void)ud, (void)message, (void)more;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	if (!driver) load_driver();
	if (size > 4096) return 0; // long programs only slow the search down
	lua_State* L = luaL_newstate();
	if (!L) abort();
	lua_setwarnf(L, no_warnings, NULL);
	luaL_openlibs(L);
	luaL_requiref(L, "gridtree", luaopen_gridtree, 0);
	lua_pop(L, 1);
	if (luaL_loadbuffer(L, driver, driver_size, "@" GT_FUZZ_LUA_DRIVER) != LUA_OK) {
		fprintf(stderr, "fuzz_lua_api: %s\n", lua_tostring(L, -1));
		abort();
	}
	lua_pushlstring(L, (const char*)data, size);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		fprintf(stderr, "fuzz_lua_api: %s\n", lua_tostring(L, -1));
		abort();
	}
	lua_close(L); // runs every pending finalizer, which may call into closed objects
	return 0;
}
