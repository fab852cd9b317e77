-- Reentrancy by design (issue 28): every callback that can run Lua code in the middle of a call
-- (build_index's progress, new_map's cells function, finalizers, which run at any allocation)
-- calling every mutating and querying method of the same map or world. Each call either works,
-- with the outer call's answer checked against a computation made without the callback, or is
-- refused with a clear error ("map is being indexed"). The same file runs under Lua 5.4 (release
-- and ASan builds) and LuaJIT.
local h = ...
local test, raises = h.test, h.raises
local gridtree = require "gridtree"

local MAP = "assets/maps/small.map" -- 48x32; row 2 is free from x = 5 to 31
local unpack = table.unpack or unpack

local function aggressive_gc()
	if jit then collectgarbage("setpause", 0); collectgarbage("setstepmul", 1000)
	else collectgarbage("incremental", 0, 1000, 0) end
end

local function normal_gc()
	if jit then collectgarbage("setpause", 200); collectgarbage("setstepmul", 200)
	else collectgarbage("incremental", 200, 100, 13) end
end

local function finalizable(fn)
	if jit then getmetatable(newproxy(true)).__gc = fn -- LuaJIT finalizes userdata only
	else setmetatable({}, {__gc = fn}) end
end

-- Calls call() until a pending finalizer running action() has run inside it (at an allocation the
-- call makes: the copy of its results), and returns that call's results and, as a second table,
-- the results of a call made just before the finalizer was armed: the answer for the state the
-- interrupted call started from. The loop itself allocates nothing; a finalizer that runs
-- between calls is tried again.
local function fire_inside(action, call)
	for _ = 1, 50 do
		local w1, w2, w3, w4 = call()
		local inside, fired, fired_inside = false, false, false
		collectgarbage()
		aggressive_gc()
		finalizable(function() fired = true; fired_inside = inside; action() end)
		local r1, r2, r3, r4
		for _ = 1, 100000 do
			inside = true
			r1, r2, r3, r4 = call()
			inside = false
			if fired then break end
		end
		collectgarbage()
		normal_gc()
		if fired_inside then return {r1, r2, r3, r4}, {w1, w2, w3, w4} end
	end
	error("the finalizer never ran inside the call")
end
-- LuaJIT's compiled loops may keep `inside` in a register the finalizer does not see.
if jit then jit.off(fire_inside, true) end

local function same_list(a, b, what)
	assert(#a == #b, ("%s: %d entries, expected %d"):format(what, #a, #b))
	for i = 1, #b do assert(a[i] == b[i], ("%s: entry %d is %s, expected %s"):format(what, i, tostring(a[i]), tostring(b[i]))) end
end

-- A map, a world of 40 objects on its top room, and the expected answers of every outer call.
local function fixture()
	local map = assert(gridtree.load_map(MAP))
	local world = gridtree.new_world(map, {leaf = 4})
	local ids = {}
	for i = 1, 40 do ids[i] = assert(world:add(5.5 + i % 20, 1.5 + i % 3, i % 2 == 0 and "a b" or "a")) end
	return {map = map, world = world, ids = ids, door = map:add_door(40, 20, 41, 20)}
end

-- What a callback may do to the fixture, each in a pcall (a refused call raises, and a finalizer's
-- error would otherwise reach the allocation it ran at under LuaJIT). `refused` is the error a
-- call must give while the map is being indexed; the others must work.
local ACTIONS = {
	{"set_blocked", function(f) return f.map:set_blocked(10, 20, 12, 22, true) end, "map is being indexed"},
	{"add_door", function(f) return f.map:add_door(14, 20, 15, 20) end, "map is being indexed"},
	{"set_door", function(f) return f.map:set_door(f.door, false) end, "map is being indexed"},
	{"path", function(f) return #f.map:path(6.5, 2.5, 25.5, 25.5) > 0 end},
	{"distance", function(f) return f.map:distance(6.5, 2.5, 25.5, 25.5) > 0 end},
	{"nearest", function(f) return #f.world:nearest(30.5, 2.5, 40) == 40 end},
	{"within", function(f) return #f.world:within(6.5, 2.5, 1000) == 40 end},
	{"top", function(f) return #f.world:top(6.5, 2.5, 30, "b") == 30 end},
	{"nearest_many", function(f)
		local xs, ys = {}, {}
		for i = 1, 30 do xs[i], ys[i] = 5.5 + i % 25, 2.5 end
		return #f.world:nearest_many(xs, ys, 20) == 600
	end},
	{"add", function(f) return f.world:add(7.5, 2.5, "a") end},
	{"move", function(f) return f.world:move(f.ids[3], 9.5, 1.5) end},
	{"remove", function(f) if f.world:valid(f.ids[5]) then f.world:remove(f.ids[5]) end return true end},
	{"move_many", function(f) return f.world:move_many({f.ids[7], f.ids[8]}, {8.5, 9.5}, {2.5, 2.5}) end},
	{"set_keywords", function(f) f.world:set_keywords(f.ids[9], "c d"); return true end},
	{"keywords", function(f) return #f.world:keywords(f.ids[10]) >= 1 end},
	{"build_index", function(f) return f.map:build_index{cell = 8, threads = 1} end},
	{"inflate", function(f) return f.map:inflate(1):size() == 48 end},
	{"build_mesh", function(f) return f.map:build_mesh() end},
	{"set_method", function(f) return f.map:set_method("oracle") and f.map:set_method("auto") end},
	{"new_world", function(f) return gridtree.new_world(f.map):add(6.5, 2.5, "z") end},
}

-- Runs an action and checks what it gave: refused while indexing with the right message, else
-- working (a true result).
local function run_action(f, action, indexing)
	local ok, result = pcall(action[2], f)
	if indexing and action[3] then
		assert(not ok and tostring(result):find(action[3], 1, true), action[1] .. ": " .. tostring(result))
	else
		assert(ok and result, action[1] .. " from a callback failed: " .. tostring(result))
	end
end

test("build_index's progress callback: every call on the same map and world works or is refused", function()
	for _, action in ipairs(ACTIONS) do
		local f = fixture()
		local calls = 0
		assert(f.map:build_index{cell = 4, threads = 1, progress = function(_, stage)
			calls = calls + 1
			if calls % 7 == 1 then run_action(f, action, true) end
		end})
		assert(calls > 0)
		-- The map never changed under the build: its index is exact, every answer the oracle's.
		assert(f.map:index_state() == "exact", action[1])
		local fresh = assert(gridtree.load_map(MAP))
		fresh:add_door(40, 20, 41, 20)
		local rng = gridtree.random(1)
		for _ = 1, 50 do
			local ax, ay = f.map:random_point(rng)
			local bx, by = f.map:random_point(rng)
			local d, e = f.map:distance(ax, ay, bx, by), fresh:distance(ax, ay, bx, by)
			assert(math.abs(d - e) <= 1e-9 * (1 + e), ("%s: %g vs %g"):format(action[1], d, e))
		end
		assert(f.world:validate())
	end
end)

test("edits from build_index's progress on caves.map (threads = 1): refused, the index exact", function()
	local map = assert(gridtree.load_map("assets/maps/caves.map"))
	local w, hgt = map:grid_size()
	local refused, stages = 0, {}
	assert(map:build_index{cell = 4, threads = 1, progress = function(_, stage)
		stages[stage] = true
		for _, edit in ipairs{function() return map:set_blocked(0, 0, w - 1, hgt - 1, true) end,
		                      function() return map:add_door(1, 1, 2, 2) end} do
			local ok, err = pcall(edit)
			assert(not ok and tostring(err):find("map is being indexed", 1, true), err)
			refused = refused + 1
		end
	end})
	assert(stages.cells and refused > 0 and map:index_state() == "exact")
	local oracle = assert(gridtree.load_map("assets/maps/caves.map"))
	oracle:set_method("oracle")
	local rng = gridtree.random(2)
	for _ = 1, 200 do
		local ax, ay = map:random_point(rng)
		local bx, by = map:random_point(rng)
		local d, e = map:distance(ax, ay, bx, by), oracle:distance(ax, ay, bx, by)
		assert(math.abs(d - e) <= 1e-9 * (1 + e), ("%g vs %g"):format(d, e))
	end
	-- after the build, the same edits work
	assert(map:set_blocked(0, 0, 1, 1, true) and map:add_door(3, 3, 3, 3))
end)

test("a cells function calling every method of other maps and worlds, and new_map from inside", function()
	for _, action in ipairs(ACTIONS) do
		local f = fixture()
		local rows = {}
		for y = 0, 9 do rows[y + 1] = y % 3 == 1 and "..@@..@@.." or ".........." end
		local made = gridtree.new_map(10, 10, function(x, y)
			if x == 3 and y % 4 == 0 then run_action(f, action, false) end
			if x == 0 and y == 5 then assert(gridtree.new_map(2, 2, function() return false end)) end
			return rows[y + 1]:sub(x + 1, x + 1) == "@"
		end)
		for y = 0, 9 do
			for x = 0, 9 do assert(made:is_free(x + 0.5, y + 0.5) == (rows[y + 1]:sub(x + 1, x + 1) == "."), action[1]) end
		end
		assert(f.world:validate())
	end
end)

-- The outer calls a finalizer may interrupt while they copy results, with their checks. Each
-- makes its argument tables once: a table made per call could run the finalizer before the call.
local OUTER = {
	{"map:path", function(f) return function() return f.map:path(6.5, 2.5, 25.5, 25.5) end end,
		function(got, want) same_list(got, want, "path") end},
	{"world:nearest", function(f) return function() return f.world:nearest(6.5, 2.5, 30) end end,
		function(got, want, got2, want2) same_list(got, want, "ids"); same_list(got2, want2, "dists") end},
	{"world:within", function(f) return function() return f.world:within(6.5, 2.5, 8, "a") end end,
		function(got, want, got2, want2) same_list(got, want, "ids"); same_list(got2, want2, "dists") end},
	{"world:top", function(f)
		local options = {trace = true}
		return function() return f.world:top(6.5, 2.5, 25, "b", options) end
	end, function(got, want, got2, want2) same_list(got, want, "ids"); same_list(got2, want2, "scores") end},
	{"world:nearest_many", function(f)
		local xs, ys = {}, {}
		for i = 1, 8 do xs[i], ys[i] = 5.5 + 3 * i, 2.5 end
		return function() return f.world:nearest_many(xs, ys, 3) end
	end, function(got, want, got2, want2) same_list(got, want, "ids"); same_list(got2, want2, "dists") end},
}

test("finalizers calling every method during every call's copy of its results", function()
	for _, outer in ipairs(OUTER) do
		for _, action in ipairs(ACTIONS) do
			local f = fixture()
			local got, want = fire_inside(function()
				local ok, err = pcall(run_action, f, action, false)
				assert(ok, outer[1] .. " / " .. action[1] .. ": " .. tostring(err))
			end, outer[2](f))
			-- A mutating action changes later answers, not the one being copied when it ran.
			local ok, err = pcall(outer[3], got[1], want[1], got[2], want[2])
			assert(ok, outer[1] .. " / " .. action[1] .. ": " .. tostring(err))
			assert(f.world:validate())
		end
	end
end)

-- The issue's cases, with many repetitions: each read freed memory (ASan) or answered wrongly.
test("a finalizer that edits the map and asks for a path during map:path's copy", function()
	local map = assert(gridtree.load_map(MAP))
	local got, want = fire_inside(function()
		for i = 0, 5 do map:set_blocked(7 + 4 * i, 4, 8 + 4 * i, 5, true) end -- pillars: the path scratch must grow
		assert(#map:path(6.5, 2.5, 25.5, 25.5) > 0)
	end, function() return map:path(6.5, 2.5, 25.5, 25.5) end)
	assert(#want[1] >= 6)
	same_list(got[1], want[1], "path")
end)

test("a finalizer running a larger nearest_many on the same world during nearest_many's copy", function()
	local f = fixture()
	local xs, ys = {}, {}
	for i = 1, 10 do xs[i], ys[i] = 5.5 + 2 * i, 2.5 end
	local bigx, bigy = {}, {}
	for i = 1, 200 do bigx[i], bigy[i] = 5.5 + i % 25, 1.5 + i % 3 end
	local got, want = fire_inside(function() assert(#f.world:nearest_many(bigx, bigy, 30) == 6000) end,
		function() return f.world:nearest_many(xs, ys, 4) end)
	same_list(got[1], want[1], "ids")
	same_list(got[2], want[2], "dists")
	same_list(got[3], want[3], "counts")
end)

test("a finalizer querying the same world during nearest's copy: 400 answers right", function()
	local f = fixture()
	local wrong = 0
	for round = 1, 20 do
		local x = 5.5 + round
		local got, want = fire_inside(function() f.world:nearest(30.5, 1.5, 40) end,
			function() return f.world:nearest(x, 2.5, 20) end)
		for i = 1, 20 do
			if got[1][i] ~= want[1][i] or got[2][i] ~= want[2][i] then wrong = wrong + 1 end
		end
		assert(#want[1] == 20)
	end
	assert(wrong == 0, wrong .. " of 400 answers wrong")
end)

test("edits during the map's own build are refused with a clear error, then work", function()
	local map = assert(gridtree.load_map(MAP))
	local door = map:add_door(40, 20, 41, 20)
	local errors = {}
	assert(map:build_index{cell = 4, progress = function()
		for _, edit in ipairs{function() map:set_blocked(1, 1, 2, 2, true) end, function() map:add_door(1, 1, 2, 2) end,
		                      function() map:set_door(door, false) end} do
			local ok, err = pcall(edit)
			errors[#errors + 1] = not ok and tostring(err) or "worked"
		end
	end})
	for _, e in ipairs(errors) do assert(e:find("map is being indexed: edit it after build_index returns", 1, true), e) end
	-- an edit that raises inside the callback comes back from build_index, with the map unharmed
	raises("map is being indexed", map.build_index, map, {progress = function() map:set_blocked(1, 1, 2, 2, true) end})
	assert(map:set_door(door, false) and not map:door_open(door))
	assert(map:set_blocked(1, 1, 2, 2, true))
end)
