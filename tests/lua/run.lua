-- Lua test runner: loads every tests/lua/test_*.lua file listed below and prints
-- "lua: N passed, N failed" as its last line.
local harness = dofile("tests/lua/harness.lua")
local files = { "tests/lua/test_module.lua", "tests/lua/test_api.lua", "tests/lua/test_nav.lua", "tests/lua/test_reentrancy.lua",
	"tests/lua/test_maps.lua", "tests/lua/test_callbacks.lua", "tests/lua/test_traps.lua",
	"tests/lua/test_crowd.lua", "tests/lua/test_links.lua", "tests/lua/test_neighbours.lua" }
for _, file in ipairs(files) do
	local chunk = assert(loadfile(file))
	chunk(harness)
end
harness.finish()
