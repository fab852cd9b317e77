-- Links from Lua (docs/links.md): a teleporter across a wall that splits the map, a one-way drop,
-- costs in the map's units, disabling and removing, and the errors.
local h = ...
local test, raises = h.test, h.raises
local gridtree = require "gridtree"

-- 12 x 6 cells, a wall column at x = 6 that no walk crosses.
local function split_map()
	local rows = {}
	for _ = 1, 6 do rows[#rows + 1] = "......@....." end
	return assert(gridtree.new_map(12, 6, table.concat(rows, "\n")))
end

local function near(a, b) return math.abs(a - b) < 1e-9 end

test("links: a teleporter across a wall, a drop one way, toggles and removal", function()
	local map = split_map()
	map:set_method("oracle")
	assert(map:distance(0, 1, 11, 1) == math.huge)
	local tele = assert(map:add_link{1, 1, 10, 1, cost = 0})
	local drop = assert(map:add_link{2, 4, 9, 4, cost = 1, oneway = true})
	assert(map:link_count() == 2)
	assert(near(map:distance(0, 1, 11, 1), 2))
	assert(near(map:distance(2, 4, 9, 4), 1))
	assert(near(map:distance(9, 4, 2, 4), 2 * math.sqrt(10))) -- back only through the teleporter
	local path = map:path(0, 1, 11, 1)
	assert(#path == 8 and path[3] == 1 and path[5] == 10)
	assert(map:enable_link(tele, false))
	assert(near(map:distance(0, 1, 11, 1), 2 * math.sqrt(13) + 1)) -- down the drop instead
	assert(map:distance(11, 1, 0, 1) == math.huge)
	assert(map:enable_link(tele, true))
	assert(map:remove_link(drop))
	raises("no such link", map.remove_link, map, drop) -- its handle is stale now
	assert(near(map:distance(2, 4, 9, 4), 2 * math.sqrt(10)))
	map:build_index{cell = 2} -- the index answers with the links too
	map:set_method("ehl")
	assert(map:method() == "ehl")
	assert(near(map:distance(0, 1, 11, 1), 2))
end)

test("links: costs in the map's units, and the errors", function()
	local map = split_map()
	map:set_units(10, 0, 0) -- a cell is 10 units
	assert(map:add_link{15, 15, 105, 15, cost = 30})
	assert(near(map:distance(5, 15, 115, 15), 50))
	local none, message = map:add_link{65, 15, 105, 15, cost = 1}
	assert(none == nil and message:find("link end a", 1, true))
	raises("cost must be a finite number >= 0", map.add_link, map, {15, 15, 105, 15, cost = -1})
	raises("cost must be a finite number >= 0", map.add_link, map, {15, 15, 105, 15})
	raises("unknown option 'speed'", map.add_link, map, {15, 15, 105, 15, cost = 1, speed = 2})
	raises("oneway must be a boolean", map.add_link, map, {15, 15, 105, 15, cost = 1, oneway = 1})
	raises("four finite numbers", map.add_link, map, {15, 15, 105, cost = 1})
	raises("no such link", map.enable_link, map, 0, true)
end)

test("floors: two floors side by side, stairs between them", function()
	local rows = {}
	for _ = 1, 4 do rows[#rows + 1] = "....@...." end -- two floors of 4 cells, a wall between
	local map = assert(gridtree.new_map(9, 4, table.concat(rows, "\n")))
	local ok, message = map:set_floors(3, 4)
	assert(ok == nil and message:find("need a map", 1, true))
	assert(map:set_floors(2, 4))
	local x, y = map:floor_point(1, 0.5, 0.5)
	assert(x == 5.5 and y == 0.5)
	local f, lx, ly = map:point_floor(x, y)
	assert(f == 1 and lx == 0.5 and ly == 0.5)
	assert(map:point_floor(4.5, 1) == nil)
	raises("floors are 0 to 1", map.floor_point, map, 2, 0, 0)
	map:set_method("oracle")
	assert(map:distance(0.5, 0.5, x, y) == math.huge)
	local sx, sy = map:floor_point(1, 3.5, 0.5)
	assert(map:add_link{3.5, 0.5, sx, sy, cost = 2}) -- stairs from floor 0's right to floor 1's
	assert(near(map:distance(0.5, 0.5, x, y), 3 + 2 + 3))
end)

test("reachable and nearest_reachable with a drop", function()
	local map = split_map()
	assert(map:reachable(0.5, 0.5, 11.5, 0.5) == false)
	assert(map:add_link{2, 4, 9, 4, cost = 1, oneway = true})
	assert(map:reachable(0.5, 0.5, 11.5, 0.5) == true)
	assert(map:reachable(11.5, 0.5, 0.5, 0.5) == false) -- not back up the drop
	local x, y = map:nearest_reachable(11.5, 0.5, 0.5, 2.5)
	assert(math.abs(x - 7) < 1e-6 and y == 2.5) -- the wall's far side
	x, y = map:nearest_reachable(0.5, 0.5, 11.5, 0.5)
	assert(x == 11.5 and y == 0.5)
	local none, message = map:reachable(6.5, 0.5, 0.5, 0.5)
	assert(none == nil and message:find("blocked", 1, true))
end)
