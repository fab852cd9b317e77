-- Misuse from inside a call (issue 11): maps and worlds closed from callbacks, finalizers and
-- metamethods, lengths read from Lua, keywords with NUL bytes, argument positions in errors, and
-- ids of another world. Each case crashed (ASan), hung or answered wrongly before the fix.
local h = ...
local test, raises = h.test, h.raises
local gridtree = require "gridtree"

local MAP = "assets/maps/small.map"
local unpack = table.unpack or unpack

-- Entries 1..n present, without calling any __len.
local function entries(t)
	local n = 0
	while rawget(t, n + 1) ~= nil do n = n + 1 end
	return n
end

-- Calls fn() (a closure making the call directly, so the error names the function) and checks
-- "bad argument #arg to '...name' (message". The closures call methods as obj.method(obj, ...):
-- with colon syntax Lua numbers the arguments after self (one less).
local function arg_error(arg, name, message, fn)
	local ok, err = pcall(fn)
	err = tostring(err)
	assert(not ok, "expected an error: " .. message)
	local want = ("bad argument #%d to '"):format(arg)
	assert(err:find(want, 1, true) and err:find(name .. "' (" .. message, 1, true), "error '" .. err .. "' is not " .. want .. name .. "' (" .. message)
end

-- A world of n objects on the small map's top room (rows 1-3 are free from x = 5 to 31).
local function room_world(map, n, words)
	local world = gridtree.new_world(map, {leaf = 4})
	local ids = {}
	for i = 1, n do ids[i] = assert(world:add(5.5 + i % 20, 1.5 + i % 3, words or "a b")) end
	return world, ids
end

-- A test on a fresh map and room_world of n objects: fn(map, world, ids); both closed after.
local function world_test(name, n, fn)
	test(name, function()
		local map = assert(gridtree.load_map(MAP))
		local world, ids = room_world(map, n)
		fn(map, world, ids)
		world:close()
		map:close()
	end)
end

-- Runs fn while the collector runs a step at every allocation and one finalizer is pending that
-- calls `action`: the finalizer then runs at the first allocation inside a gridtree call (the
-- loop itself allocates nothing). Returns whether the action ran, and fn's pcall results.
local function with_finalizer(action, fn)
	local ran = false
	collectgarbage()
	if jit then collectgarbage("setpause", 0); collectgarbage("setstepmul", 1000)
	else collectgarbage("incremental", 0, 1000, 0) end
	local function finalize() ran = true; action() end
	if jit then getmetatable(newproxy(true)).__gc = finalize -- LuaJIT finalizes userdata only
	else setmetatable({}, {__gc = finalize}) end
	local results = {pcall(fn)}
	collectgarbage()
	if jit then collectgarbage("setpause", 200); collectgarbage("setstepmul", 200)
	else collectgarbage("incremental", 200, 100, 13) end
	return ran, unpack(results)
end

-- fn, run under with_finalizer with a finalizer closing `object` (a map or a world), stops with
-- the error "<what> is closed" after the finalizer ran: never a crash or a wrong answer.
local function closed_during(object, what, fn)
	local ran, ok, err = with_finalizer(function() object:close() end, fn)
	assert(ran and not ok and tostring(err):find(what .. " is closed", 1, true), err)
end

test("closing the map from build_index's progress callback raises, the build is unharmed", function()
	local map = assert(gridtree.load_map(MAP))
	local calls = 0
	local ok, err = pcall(map.build_index, map, {cell = 4, progress = function()
		calls = calls + 1
		map:close() -- used to free the map while the build read it (ASan: use after free)
	end})
	assert(not ok and calls == 1, "the first callback error stops further calls")
	assert(tostring(err):find("map is in use by build_index", 1, true), err)
	assert(map:distance(6.5, 2.5, 20.5, 2.5)) -- still open
	-- The callback may close worlds, use the map, and raise from __gc-like paths; the map closes
	-- normally once the build has returned.
	local world = room_world(map, 5)
	assert(map:build_index{cell = 4, progress = function()
		world:close()
		assert(map:distance(6.5, 2.5, 20.5, 2.5))
	end})
	assert(not pcall(world.count, world))
	map:close()
	raises("map is closed", map.distance, map, 6.5, 2.5, 20.5, 2.5)
end)

test("a <close> map variable inside the progress callback raises instead of freeing", function()
	if jit then return end -- LuaJIT has no to-be-closed variables
	local run = assert(load([[
		local gridtree, MAP = ...
		local map <close> = assert(gridtree.load_map(MAP))
		local ok, err = pcall(map.build_index, map, {progress = function()
			local inner <close> = map -- closed when this callback returns
		end})
		assert(not ok and tostring(err):find("map is in use by build_index", 1, true), err)
		assert(map:size() == 48)
	]]))
	run(gridtree, MAP)
end)

world_test("getmetatable does not expose __gc", 1, function(map, world, ids)
	assert(getmetatable(map) == "gridtree.Map" and getmetatable(world) == "gridtree.World")
end)

test("a finalizer closing the world during a query's results keeps them intact", function()
	local map = assert(gridtree.load_map(MAP))
	local world = room_world(map, 40)
	local expect = {world:nearest(6.5, 2.5, 40)}
	closed_during(world, "world", function()
		for _ = 1, 100000 do -- the first gridtree allocation runs the finalizer
			local ids, dists = world:nearest(6.5, 2.5, 40)
			assert(#ids == 40 and #dists == 40)
			for i = 1, 40 do assert(ids[i] == expect[1][i] and dists[i] == expect[2][i]) end
		end
	end)
	map:close()
end)

test("a finalizer closing the world during a trace or keywords() is safe", function()
	local map = assert(gridtree.load_map(MAP))
	local world = room_world(map, 40, {"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"})
	closed_during(world, "world", function()
		for _ = 1, 100000 do
			local ids, _, _, trace = world:nearest(6.5, 2.5, 40, nil, {trace = true})
			assert(#ids == 40 and #trace % 6 == 0 and #trace > 0)
		end
	end)
	local ids
	world, ids = room_world(map, 3, {"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"})
	closed_during(world, "world", function()
		for _ = 1, 100000 do assert(#world:keywords(ids[1]) == 8) end
	end)
	map:close()
end)

test("a finalizer closing the map during map:path keeps the path intact", function()
	local map = assert(gridtree.load_map(MAP))
	local expect = map:path(6.5, 2.5, 30.5, 2.5)
	closed_during(map, "map", function()
		for _ = 1, 100000 do
			local path = map:path(6.5, 2.5, 30.5, 2.5)
			for i = 1, #expect do assert(path[i] == expect[i]) end
		end
	end)
end)

world_test("argument tables are read raw: their __len is never called", 10, function(map, world, ids)
	local called = 0
	local function closing(t) -- a length that closes the world
		return setmetatable(t, {__len = function() called = called + 1; world:close(); return 1 end})
	end
	local id = assert(world:add(6.5, 2.5, closing{"a", "c"}))
	assert(world:set_keywords(id, closing{"c"}) == nil)
	assert(world:nearest(6.5, 2.5, 3, closing{"a"}, {any = closing{"a"}, none = closing{"z"}}))
	assert(world:move_many(closing{ids[1]}, closing{7.5}, closing{2.5}))
	local into = {closing{}, closing{}}
	assert(world:nearest(6.5, 2.5, 3, nil, {into = into}))
	assert(entries(into[1]) == 3)
	assert(gridtree.advance(closing{1, 1, 2, 1}, 1, 1, 1, 0.5) == 1.5)
	assert(called == 0 and world:count() == 11)
end)

world_test("lengths are bounded: a huge __len or a long table never hangs or allocates", 10, function(map, world, ids)
	local huge = {__len = function() return 2 ^ 40 end}
	-- into tables claiming 2^40 entries (used to hang clearing them)
	local into = {setmetatable({}, huge), setmetatable({}, huge)}
	for i = 1, 50 do into[1][i], into[2][i] = i, i end
	local got = world:nearest(6.5, 2.5, 3, nil, {into = into})
	assert(got == into[1] and entries(into[1]) == 3 and entries(into[2]) == 3 and into[1][50] == nil)
	-- move_many, keywords and paths claiming 2^40 entries
	local x = setmetatable({7.5}, huge)
	assert(world:move_many(setmetatable({ids[1]}, huge), x, setmetatable({2.5}, huge)))
	assert(world:nearest(6.5, 2.5, 1, setmetatable({"a"}, huge)))
	assert(gridtree.advance(setmetatable({1, 1, 2, 1}, huge), 1, 1, 1, 0.5) == 1.5)
	-- real long tables: the named limits
	local words = {}
	for i = 1, gridtree.limits.max_keywords + 1 do words[i] = "w" .. i end
	arg_error(4, "add", "keywords: more than 64 keywords", function() world.add(world, 6.5, 2.5, words) end)
	arg_error(6, "nearest", "any: more than 64 keywords", function() world.nearest(world, 6.5, 2.5, 1, nil, {any = words}) end)
	-- a table with holes: move_many reads the entries that exist, then stops with an error
	local sparse = {ids[1]}
	sparse[1000000] = ids[2]
	if #sparse == 1000000 then
		raises("entry 2: stale object id", world.move_many, world, sparse, sparse, sparse)
	end
	assert(gridtree.limits.max_move_many == 100000000 and gridtree.limits.max_path_points > 0)
end)

test("gridtree.advance reads long paths in batches with the same answer", function()
	local path = {}
	for i = 0, 999 do path[#path + 1], path[#path + 2] = i, 0 end
	for _, step in ipairs{0, 1, 3, 4.5, 17, 100, 998.5, 999, 5000} do
		local x, y, segment, arrived = gridtree.advance(path, 1, 0, 0, step)
		local want = math.min(step, 999)
		assert(x == want and y == 0 and arrived == (want == 999), step)
		assert(segment == math.min(math.floor(want) + 1, 1000), step)
	end
	-- the scratch from a long walk does not leak into a shorter one
	local x = gridtree.advance({0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0}, 1, 0, 0, 4.5)
	assert(x == 4.5)
	raises("path entries must be finite numbers", gridtree.advance, {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, "x"}, 1, 0, 0, 10)
end)

world_test("keywords with a NUL byte or other bytes the library refuses are errors everywhere", 0, function(map, world, ids)
	local id = assert(world:add(6.5, 2.5, "ab"))
	local bad = {"ab\0cd", "ab\0", "\0", "", "tab\tword", "caf\195\169"}
	local must = "keywords must be words of 1 to 64 printable ASCII bytes without spaces (no NUL bytes)"
	for _, word in ipairs(bad) do
		arg_error(4, "add", must, function() world.add(world, 6.5, 2.5, {word}) end)
		arg_error(3, "set_keywords", must, function() world.set_keywords(world, id, {word}) end)
		arg_error(5, "nearest", must, function() world.nearest(world, 6.5, 2.5, 1, {word}) end)
		arg_error(5, "within", must, function() world.within(world, 6.5, 2.5, 1, {word}) end)
		arg_error(5, "top", must, function() world.top(world, 6.5, 2.5, 1, {word}) end)
		arg_error(6, "nearest", "any must be words", function() world.nearest(world, 6.5, 2.5, 1, nil, {any = {word}}) end)
		arg_error(6, "top", "none must be words", function() world.top(world, 6.5, 2.5, 1, nil, {none = {word}}) end)
	end
	-- inside a space-separated string as well ("ab\0cd" used to add the word "ab")
	raises("no NUL bytes", world.add, world, 6.5, 2.5, "x ab\0cd")
	raises("no NUL bytes", world.nearest, world, 6.5, 2.5, 1, "ab\0cd")
	assert(world:count() == 1 and #world:keywords(id) == 1)
end)

world_test("argument errors name the real argument and the option", 2, function(map, world, ids)
	local o = function(opts) return function() world.nearest(world, 6.5, 2.5, 1, nil, opts) end end
	local cases = {
		{2, "new_world", "leaf must be an integer from 1 to 65536", function() gridtree.new_world(map, {leaf = "x"}) end},
		{2, "new_world", "leaf must be an integer from 1 to 65536", function() gridtree.new_world(map, {leaf = 1.5}) end},
		{2, "new_world", "unknown option 'size'", function() gridtree.new_world(map, {size = 1}) end},
		{2, "new_world", "option names must be strings", function() gridtree.new_world(map, {4}) end},
		{2, "build_index", "cell must be an integer from 1 to 4096", function() map.build_index(map, {cell = "big"}) end},
		{2, "build_index", "cell must be an integer from 1 to 4096", function() map.build_index(map, {cell = 0}) end},
		{2, "build_index", "threads must be an integer from 0 to 256", function() map.build_index(map, {threads = {}}) end},
		{2, "build_index", "budget must be a number", function() map.build_index(map, {budget = "lots"}) end},
		{2, "build_index", "progress must be a function", function() map.build_index(map, {progress = 1}) end},
		{2, "build_index", "unknown option 'speed'", function() map.build_index(map, {speed = 1}) end},
		{6, "nearest", "min_match must be an integer >= 0", o{min_match = "x"}},
		{6, "nearest", "any must be a table of words", o{any = 5}},
		{6, "within", "none must be strings", function() world.within(world, 6.5, 2.5, 1, nil, {none = {5}}) end},
		{6, "nearest", "metric must be \"path\" or \"euclid\"", o{metric = 1}},
		{6, "nearest", "region must be {x0, y0, x1, y1} numbers", o{region = 1}},
		{6, "nearest", "into must be {ids_table, dists_table}", o{into = 1}},
		{6, "nearest", "into must be {ids_table, dists_table}", o{into = {{}}}},
		{6, "top", "alpha must be a number", function() world.top(world, 6.5, 2.5, 1, nil, {alpha = "x"}) end},
		{6, "top", "miss_cost must be a number", function() world.top(world, 6.5, 2.5, 1, nil, {miss_cost = "x"}) end},
		{6, "nearest", "unknown option 'alpha'", o{alpha = 0.5}},
		{4, "add", "keywords must be a table of words", function() world.add(world, 6.5, 2.5, 5) end},
	}
	for _, case in ipairs(cases) do arg_error(unpack(case)) end
end)

test("an id of another world is stale for every method", function()
	local map = assert(gridtree.load_map(MAP))
	local a, ida = room_world(map, 3)
	local b, idb = room_world(map, 3)
	for i = 1, 3 do
		assert(ida[i] ~= idb[i] and a:valid(ida[i]) and not a:valid(idb[i]) and not b:valid(ida[i]))
		local other = idb[i]
		raises("stale object id", a.remove, a, other) -- used to remove a's object in the same slot
		raises("stale object id", a.move, a, other, 7.5, 2.5)
		raises("stale object id", a.position, a, other)
		raises("stale object id", a.keywords, a, other)
		raises("stale object id", a.set_keywords, a, other, "c")
		raises("entry 1: stale object id", a.move_many, a, {other}, {7.5}, {2.5})
	end
	assert(a:count() == 3 and b:count() == 3 and a:validate() and b:validate())
	-- ids survive a double (LuaJIT): every id is below 2^53
	for i = 1, 3 do assert(ida[i] < 2 ^ 53 and idb[i] < 2 ^ 53 and ida[i] % 1 == 0) end
	-- a slot reused many times never brings an old id back
	local seen = {}
	for _ = 1, 5000 do
		local id = assert(a:add(6.5, 2.5, "x"))
		assert(not seen[id])
		seen[id] = true
		a:remove(id)
	end
	for id in pairs(seen) do assert(not a:valid(id)) end
	assert(a:count() == 3 and a:validate())
	a:close()
	b:close()
	map:close()
end)
