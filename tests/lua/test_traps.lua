-- Lua without traps (issue 27): exclude, keywords given as options, cell-taking calls in the
-- map's units, one rectangle style, advance on an empty path, ids of closed worlds, method names
-- in errors.
local h = ...
local test, raises = h.test, h.raises
local gridtree = require "gridtree"

local MAP = "assets/maps/small.map" -- 48x32; rows 1-10 are free from x = 5 to 31

local function room_world(map, n)
	local world = gridtree.new_world(map, {leaf = 4})
	local ids = {}
	for i = 1, n do ids[i] = assert(world:add(5.5 + i % 20, 1.5 + i % 9, i % 3 == 0 and "healer" or "enemy")) end
	return world, ids
end

local function contains(list, id)
	for _, v in ipairs(list) do if v == id then return true end end
	return false
end

test("exclude: one id or a list, on nearest, within, top and nearest_many; k others still come back", function()
	local map = assert(gridtree.load_map(MAP))
	local world, ids = room_world(map, 60)
	local rng = gridtree.random(5)
	for round = 1, 100 do
		local me = ids[rng:below(#ids) + 1]
		local x, y = world:position(me)
		local k = 1 + rng:below(6)
		-- the asking agent is its own nearest, at distance 0, unless excluded
		local all, alld = world:nearest(x, y, k + 3)
		assert(all[1] == me and alld[1] == 0)
		local squad = {me, ids[rng:below(#ids) + 1], ids[rng:below(#ids) + 1]}
		local exclude = round % 2 == 0 and me or squad
		local skip = type(exclude) == "table" and exclude or {exclude}
		-- the expected answer: the unexcluded one, long enough, without the excluded ids
		local wide, wided = world:nearest(x, y, k + #skip)
		local want = {}
		for i = 1, #wide do if not contains(skip, wide[i]) and #want < k then want[#want + 1] = wided[i] end end
		for _, metric in ipairs{"path", "euclid"} do
			local got, gotd = world:nearest(x, y, k, nil, {exclude = exclude, metric = metric})
			assert(#got == k, #got .. " answers for k = " .. k)
			for i = 1, k do
				assert(not contains(skip, got[i]))
				if metric == "path" then assert(gotd[i] == want[i]) end
			end
			local near = world:within(x, y, 5, nil, {exclude = exclude, metric = metric})
			for _, id in ipairs(near) do assert(not contains(skip, id)) end
		end
		local top = world:top(x, y, k, "healer", {exclude = exclude})
		assert(#top == k)
		for _, id in ipairs(top) do assert(not contains(skip, id)) end
	end
	-- nearest_many: skipped for every agent, k answers each
	local xs, ys = {}, {}
	for i = 1, 10 do xs[i], ys[i] = world:position(ids[i]) end
	for _, method in ipairs{"each", "batch", "auto"} do
		local got, _, counts = world:nearest_many(xs, ys, 3, nil, {exclude = {ids[1], ids[2]}, method = method})
		for i = 1, 10 do
			assert(counts[i] == 3)
			for r = 1, 3 do assert(got[(i - 1) * 3 + r] ~= ids[1] and got[(i - 1) * 3 + r] ~= ids[2]) end
		end
	end
	-- self: each agent's own id left out of its answers (false: none), with the shared list too
	local own = {}
	for i = 1, 10 do own[i] = ids[i] end
	own[4] = false
	for _, method in ipairs{"each", "batch", "auto"} do
		local got, dists, counts = world:nearest_many(xs, ys, 3, nil, {self = own, exclude = ids[20], method = method})
		for i = 1, 10 do
			local want, wantd = world:nearest(xs[i], ys[i], 3, nil, {exclude = own[i] and {own[i], ids[20]} or ids[20]})
			assert(counts[i] == 3)
			for r = 1, 3 do assert(dists[(i - 1) * 3 + r] == wantd[r] and got[(i - 1) * 3 + r] ~= own[i]) end
			if i == 4 then assert(got[(i - 1) * 3 + 1] == ids[4], ("%s %s %s %s"):format(got[10], ids[4], dists[10], method)) end -- no self given: itself, at distance 0
		end
	end
	local into = {{}, {}, {}}
	local _, _, counts, served = world:nearest_many(xs, ys, 2, nil, {self = own, into = into, budget_us = 1e6})
	assert(served == 10 and counts[1] == 2 and into[1][1] ~= ids[1], ("served %s, count %s, first %s"):format(tostring(served), tostring(counts[1]), tostring(into[1][1])))
	raises("self must have one entry per agent", world.nearest_many, world, xs, ys, 1, nil, {self = {ids[1]}})
	raises("self entry 2: an id, or false", world.nearest_many, world, {6.5, 7.5}, {2.5, 2.5}, 1, nil, {self = {ids[1], "me"}})
	raises("self must be a table of ids", world.nearest_many, world, xs, ys, 1, nil, {self = ids[1]})
	-- stale ids and ids of another world skip nothing; misuse is an error naming the option
	local other = room_world(map, 1)
	local a = world:nearest(6.5, 2.5, 5)
	local b = world:nearest(6.5, 2.5, 5, nil, {exclude = {2 ^ 40, other:nearest(6.5, 2.5, 1)[1]}})
	for i = 1, 5 do assert(a[i] == b[i]) end
	raises("exclude must be an object id or a list of ids", world.nearest, world, 6.5, 2.5, 1, nil, {exclude = "me"})
	raises("exclude must be an object id or a list of ids", world.nearest, world, 6.5, 2.5, 1, nil, {exclude = {1.5}})
	raises("exclude: expected a list, got a table with key 'id'", world.nearest, world, 6.5, 2.5, 1, nil, {exclude = {id = 1}})
	local many = {}
	for i = 1, 65 do many[i] = i end
	raises("exclude: more than 64 ids", world.within, world, 6.5, 2.5, 1, nil, {exclude = many})
	raises("exclude must be", world.nearest_many, world, {6.5}, {2.5}, 1, nil, {exclude = true})
end)

test("options in the keywords slot are an error naming the argument", function()
	local map = assert(gridtree.load_map(MAP))
	local world = room_world(map, 10)
	local ok, err = pcall(function() local ids = world:nearest(6.5, 2.5, 3, {any = {"healer"}}); return ids end)
	assert(not ok and tostring(err):find(
		"bad argument #4 to 'nearest' (keywords: expected a list of words, got a table with key 'any'; options go in argument #5)",
		1, true), err)
	ok, err = pcall(world.within, world, 6.5, 2.5, 3, {"healer", none = {"x"}})
	assert(not ok and tostring(err):find("bad argument #5 to 'within' (keywords: expected a list of words, got a table with key 'none'; options go in argument #6)", 1, true), err)
	raises("keywords: expected a list of words, got a table with key 'any'", world.top, world, 6.5, 2.5, 3, {any = "healer"})
	raises("keywords: expected a list of words, got a table with key 'any'", world.nearest_many, world, {6.5}, {2.5}, 1, {any = "healer"})
	raises("keywords: expected a list, got a table with key 'kind'", world.add, world, 6.5, 2.5, {kind = "healer"})
	raises("any: expected a list, got a table with key 3", world.nearest, world, 6.5, 2.5, 1, nil, {any = {"a", [3] = "b"}})
	-- a real list still works, in either form
	assert(#world:nearest(6.5, 2.5, 3, {"healer"}) == 3 and #world:nearest(6.5, 2.5, 3, "healer") == 3)
end)

test("cell-taking calls work in the map's units: set_blocked, add_door, size, inflate", function()
	local cells = assert(gridtree.load_map(MAP))
	local units = assert(gridtree.load_map(MAP))
	local S, X0, Y0 = 32, -100, 50
	assert(units:set_units(S, X0, Y0))
	local function u(x, y) return X0 + x * S, Y0 + y * S end
	local w, hgt = units:size()
	assert(w == 48 * S and hgt == 32 * S)
	local gw, gh = units:grid_size()
	assert(gw == 48 and gh == 32 and math.type == nil or math.type(gw) == "integer")
	assert(cells:size() == 48 and select(2, cells:size()) == 32)
	-- a pixel rectangle covers the cells holding its corners: cells 10..12 x 3..5
	local x0, y0 = u(10, 3)
	local x1, y1 = u(12, 5)
	assert(units:set_blocked(x0, y0, x1 + S - 1, y1 + S - 1, true))
	assert(cells:set_blocked(10, 3, 12, 5, true))
	local dx, dy = u(20.25, 4.75)
	local door_u = units:add_door(dx, dy, dx, dy) -- a point: its cell
	local door_c = cells:add_door(20, 4, 20, 4)
	assert(units:set_door(door_u, false) and cells:set_door(door_c, false))
	for y = 0, 31 do
		for x = 0, 47 do
			local ux, uy = u(x + 0.5, y + 0.5)
			assert(units:is_free(ux, uy) == cells:is_free(x + 0.5, y + 0.5), ("cell %d, %d"):format(x, y))
		end
	end
	local ax, ay = u(6.5, 2.5)
	local bx, by = u(25.5, 25.5)
	assert(math.abs(units:distance(ax, ay, bx, by) - S * cells:distance(6.5, 2.5, 25.5, 25.5)) < 1e-6)
	-- inflate: a half-width in units, rounded up to whole cells
	local iu, ic = units:inflate(S), cells:inflate(1)
	local iu2 = units:inflate(S / 2)
	for y = 0, 31 do
		for x = 0, 47 do
			local ux, uy = u(x + 0.5, y + 0.5)
			assert(iu:is_free(ux, uy) == ic:is_free(x + 0.5, y + 0.5) and iu2:is_free(ux, uy) == ic:is_free(x + 0.5, y + 0.5))
		end
	end
	-- one argument style (plain numbers); the old table form still works; errors give the numbers
	assert(cells:set_blocked({1, 1, 2, 2}, false) and cells:add_door{3, 3, 3, 3})
	raises("the rectangle (5, 5)-(3, 6) must have x0 <= x1 and y0 <= y1", cells.set_blocked, cells, 5, 5, 3, 6, true)
	raises("the rectangle (0, 0)-(48, 0) reaches outside the map, which spans (0, 0)-(48, 32) in its units",
		cells.set_blocked, cells, 0, 0, 48, 0, true)
	raises("reaches outside the map, which spans (-100, 50)-(1436, 1074) in its units", units.add_door, units, 0, 0, 10, 10)
	raises("a rectangle is x0, y0, x1, y1: four finite numbers", cells.add_door, cells, 1, 2, 0 / 0, 3)
	-- whole numbers in the default units are cell numbers, as before; fractions pick the cell they are in
	assert(cells:set_blocked(6.9, 7.2, 6.9, 7.2, true) and not cells:is_free(6.5, 7.5) and cells:is_free(7.5, 7.5))
end)

test("advance on an empty path is arrived whatever the segment; its errors give the numbers", function()
	for _, segment in ipairs{1, 2, 3, 17} do
		local x, y, s, arrived = gridtree.advance({}, segment, 4, 5, 1)
		assert(x == 4 and y == 5 and s == 1 and arrived)
	end
	raises("segment must be an integer from 1 to 3 (the path's points), got 4", gridtree.advance, {0, 0, 1, 0, 2, 0}, 4, 0, 0, 1)
	raises("segment must be an integer from 1 to 3 (the path's points), got 0", gridtree.advance, {0, 0, 1, 0, 2, 0}, 0, 0, 0, 1)
	raises("bad argument #2 to 'advance' (segment must be", gridtree.advance, {}, 0, 0, 0, 1)
	raises("step must be a number >= 0, got -2", gridtree.advance, {0, 0, 1, 0}, 1, 0, 0, -2)
end)

test("ids never alias across worlds: 300 closed worlds later, an old id is stale in every new one", function()
	local map = assert(gridtree.load_map(MAP))
	local old = {}
	for i = 1, 300 do
		local world = gridtree.new_world(map)
		old[i] = assert(world:add(6.5, 2.5, "x"))
		for j = 1, i - 1 do assert(not world:valid(old[j]), ("world %d accepts world %d's id"):format(i, j)) end
		world:close()
	end
	-- ids that are not ids at all are just not valid (0x80000000 used to overflow under UBSan)
	local world = gridtree.new_world(map)
	local id = assert(world:add(6.5, 2.5, "x"))
	for _, v in ipairs{0, 0x80000000, 0xffffffff, -1, 2 ^ 53, 2 ^ 60, 1.5, "1", {}} do assert(not world:valid(v)) end
	assert(world:valid(id) and id < 2 ^ 53)
	raises("stale object id", world.move, world, 0x80000000, 6.5, 2.5)
end)

test("errors name the method however it was called", function()
	local map = assert(gridtree.load_map(MAP))
	local world = room_world(map, 3)
	local cases = {
		{"bad argument #2 to 'build_index' (cell must be", map.build_index, map, {cell = 0}},
		{"bad argument #4 to 'nearest' (k must be", world.nearest, world, 6.5, 2.5, -1},
		{"bad argument #2 to 'move' (stale object id)", world.move, world, 12345, 6.5, 2.5},
		{"bad argument #2 to 'distance' (number expected, got string)", map.distance, map, "x", 2, 3, 4},
		{"bad argument #1 to 'size' (gridtree.Map expected, got gridtree.World)", map.size, world},
		{"bad argument #1 to 'count' (gridtree.World expected, got no value)", world.count},
		{"bad argument #2 to 'set_blocked' (a rectangle is x0, y0, x1, y1", map.set_blocked, map, "a", 1, 2, 3, true},
		{"bad argument #1 to 'new_world' (gridtree.Map expected", gridtree.new_world, 5},
		{"bad argument #2 to 'random_point' (gridtree.Random expected", map.random_point, map, 5},
	}
	for _, case in ipairs(cases) do
		local ok, err = pcall(select(2, (table.unpack or unpack)(case)))
		assert(not ok and tostring(err):find(case[1], 1, true), tostring(err) .. " lacks " .. case[1])
	end
	-- with colon syntax, the arguments after self
	local ok, err = pcall(function() local moved = world:move(12345, 6.5, 2.5); return moved end) -- not a tail call: LuaJIT forgets the name of those
	assert(not ok and tostring(err):find("bad argument #1 to 'move' (stale object id)", 1, true), err)
	local fn = world.nearest
	ok, err = pcall(function() return fn(world, 6.5, 2.5, "k") end)
	assert(not ok and tostring(err):find("to 'nearest'", 1, true), err)
end)
