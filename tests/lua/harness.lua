-- Minimal test harness: test(name, fn) runs fn under pcall and counts the outcome.
local harness = { passed = 0, failed = 0 }

function harness.test(name, fn)
	local ok, err = pcall(fn)
	if ok then
		harness.passed = harness.passed + 1
	else
		harness.failed = harness.failed + 1
		print(("FAIL %s: %s"):format(name, tostring(err)))
	end
end

-- Asserts that fn raises an error whose message contains `pattern` (plain text).
function harness.raises(pattern, fn, ...)
	local ok, err = pcall(fn, ...)
	assert(not ok, "expected an error containing '" .. pattern .. "'")
	assert(tostring(err):find(pattern, 1, true), "error '" .. tostring(err) .. "' lacks '" .. pattern .. "'")
end

-- Deterministic numbers in [0, 1) from a seed (the same sequence under lua5.4 and LuaJIT).
function harness.lcg(seed)
	local state = seed
	return function()
		state = (state * 1103515245 + 12345) % 2147483648
		return state / 2147483648
	end
end

-- A random free point of the map, drawn with rng (a function giving numbers in [0, 1)).
function harness.random_free(map, rng)
	local w, hgt = map:size()
	while true do
		local x, y = rng() * w, rng() * hgt
		if map:is_free(x, y) then return x, y end
	end
end

-- The small test map with an EHL index at cell size 2, where most binding tests start.
function harness.indexed_map()
	local map = assert(require("gridtree").load_map("assets/maps/small.map"))
	assert(map:build_index{cell = 2})
	return map
end

function harness.finish()
	-- The same suite runs under lua5.4 and LuaJIT; the label tells the runner which one this was.
	print(("%s: %d passed, %d failed"):format(jit and "luajit" or "lua", harness.passed, harness.failed))
	os.exit(harness.failed == 0 and 0 or 1, true)
end

return harness
