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
	assert(map:build_index{cell = 1, links = true}) -- an index that knows the teleporter
	assert(near(map:distance(0, 1, 11, 1), 2))
	assert(near(map:distance(10, 1, 1, 1), 0))
	assert(map:enable_link(tele, false)) -- the index's link off: the oracle answers, exactly
	assert(map:distance(0, 1, 11, 1) == math.huge)
	assert(map:enable_link(tele, true))
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

-- The follower spelled out over the whole path (the twin of gridtree.advance with links): a link's
-- cost is spent along it, a walked segment costs its length.
local function follow(path, costs, segment, x, y, step)
	local n = #path / 2
	if not (step > 0) then return x, y, segment end
	while segment < n do
		local fx, fy = path[2 * segment - 1], path[2 * segment]
		local nx, ny = path[2 * segment + 1], path[2 * segment + 2]
		local dx, dy = nx - x, ny - y
		local left = math.sqrt(dx * dx + dy * dy)
		local cost, c = left, costs and costs[segment]
		if c then
			local whole = math.sqrt((nx - fx) ^ 2 + (ny - fy) ^ 2)
			cost = whole > 0 and c * left / whole or 0
		end
		if step < cost then return x + dx * step / cost, y + dy * step / cost, segment end
		step, x, y, segment = step - cost, nx, ny, segment + 1
	end
	return path[2 * n - 1], path[2 * n], n
end

test("paths name their links, and advance crosses a teleporter at once", function()
	local map = split_map()
	map:set_method("oracle")
	local tele = assert(map:add_link{1, 1, 10, 1, cost = 0})
	local path, length, links = map:path(0, 1, 11, 1)
	assert(#path == 8 and near(length, 2))
	assert(links[1] == nil and links[2] == tele and links[3] == nil)
	assert(links.costs[2] == 0 and links.costs[1] == nil)
	-- one step of 1.5: to the teleporter (1), through it (0), half a cell on
	local x, y, segment, arrived = gridtree.advance(path, 1, 0, 1, 1.5, links)
	assert(near(x, 10.5) and y == 1 and segment == 3 and not arrived)
	x, y, segment, arrived = gridtree.advance(path, 1, 0, 1, 1, links) -- lands on the far end
	assert(x == 10 and y == 1 and segment == 3 and not arrived)
	x, y, segment, arrived = gridtree.advance(path, segment, x, y, 1, links)
	assert(x == 11 and y == 1 and segment == 4 and arrived)
	-- without the links the teleporter is a 9-cell segment, as before
	x, y, segment = gridtree.advance(path, 1, 0, 1, 1.5)
	assert(near(x, 1.5) and y == 1 and segment == 2)
	-- a path that walks names no link, and advance with its links walks as without
	local walk, _, none = map:path(0, 1, 5, 4)
	assert(next(none) == "costs" and next(none, "costs") == nil and next(none.costs) == nil)
	local ax, ay, as = gridtree.advance(walk, 1, 0, 1, 2.5, none)
	local bx, by, bs = gridtree.advance(walk, 1, 0, 1, 2.5)
	assert(ax == bx and ay == by and as == bs)
	map:enable_link(tele, false)
	local empty, huge, nothing = map:path(0, 1, 11, 1)
	assert(#empty == 0 and huge == math.huge and next(nothing.costs) == nil)
end)

test("advance spends a link's cost along it, in the map's units", function()
	local map = split_map()
	map:set_units(10, 0, 0) -- a cell is 10 units
	local ladder = assert(map:add_link{15, 15, 105, 15, cost = 60})
	local path, length, links = map:path(5, 15, 115, 15)
	assert(near(length, 80) and links[2] == ladder and links.costs[2] == 60)
	local x, y, segment = gridtree.advance(path, 1, 5, 15, 10 + 30, links) -- halfway up the ladder
	assert(near(x, 60) and y == 15 and segment == 2)
	x, y, segment = gridtree.advance(path, segment, x, y, 29.5, links)
	assert(near(x, 105 - 90 * 0.5 / 60) and segment == 2)
	x, y, segment = gridtree.advance(path, segment, x, y, 0.5, links) -- off the ladder's top
	assert(near(x, 105) and segment == 3)
	local _, _, s, arrived = gridtree.advance(path, 1, 5, 15, 80, links)
	assert(s == 4 and arrived)
	raises("links.costs must be a table", gridtree.advance, path, 1, 5, 15, 1, {costs = 1})
	raises("link costs must be finite numbers >= 0", gridtree.advance, path, 1, 5, 15, 1, {costs = {[1] = -1}})
end)

test("advance with links matches the follower spelled out, past its window of points", function()
	local rng = gridtree.random(32)
	for trial = 1, 40 do
		local n = 2 + rng:below(40)
		local path, costs = {}, {}
		for i = 1, n do
			path[2 * i - 1], path[2 * i] = rng:next() * 50, rng:next() * 50
			if i < n and rng:below(3) == 0 then costs[i] = rng:below(4) == 0 and 0 or rng:next() * 80 end
		end
		if trial == 1 then path[3], path[4] = path[1], path[2] end -- a link of length 0
		local links = {costs = costs}
		local segment, x, y = 1, path[1], path[2]
		for _ = 1, 30 do
			local step = rng:below(5) == 0 and rng:next() * 300 or rng:next() * 20
			local ex, ey, es = follow(path, costs, segment, x, y, step)
			local gx, gy, gs, arrived = gridtree.advance(path, segment, x, y, step, links)
			assert(math.abs(gx - ex) < 1e-9 and math.abs(gy - ey) < 1e-9 and gs == es, "trial " .. trial)
			assert(arrived == (gs == n))
			segment, x, y = gs, gx, gy
			if arrived then break end
		end
	end
end)

-- A Tiled level of two floors (assets/maps/tiled/tower.tmx, docs/links.md#floors-in-tiled): its
-- floors laid side by side and its link objects added to the map's nav by load_map.
test("links: a Tiled level's floors and links come with the map", function()
	local map, level = assert(gridtree.load_map("assets/maps/tiled/tower.tmx"))
	assert(level.floors == 2 and level.floor_width == 40 and #level.links == 4 and map:link_count() == 4)
	local tele = level.links[3] -- ground (20.5, 24.5) to the arrival pad, upper (34.5, 24.5), cost 0
	assert(tele.object == 3 and tele.floor_a == 0 and tele.floor_b == 1 and tele.cost == 0 and not tele.oneway)
	assert(tele.ax == 20.5 and tele.ay == 24.5 and tele.bx == 41 + 34.5 and tele.by == 24.5)
	local floor, x, y = map:point_floor(tele.bx, tele.by)
	assert(floor == 1 and x == 34.5 and y == 24.5)
	assert(level.objects[4].name == "arrival pad" and level.objects[4].floor == 1 and level.objects[4].x == 75.5)
	-- Two cells to the teleporter, none through it, two cells on: 4; the path names the link.
	local fx, fy = map:floor_point(1, 34.5, 22.5)
	map:set_method("oracle")
	assert(near(map:distance(20.5, 22.5, fx, fy), 4))
	local path, length, links = map:path(20.5, 22.5, fx, fy)
	assert(near(length, 4) and #path == 8 and links[2] == tele.id and links.costs[2] == 0)
	-- The hole drops from upper (8.5, 4.5) to ground at cost 1, one way.
	local hole = level.links[4]
	assert(hole.oneway and hole.floor_a == 1 and hole.floor_b == 0)
	assert(near(map:distance(hole.ax, hole.ay, hole.bx, hole.by), 1))
	assert(map:distance(hole.bx, hole.by, hole.ax, hole.ay) > 10)
	-- In pixels, costs are too (16 pixels a cell).
	local _, pixels = assert(gridtree.load_map("assets/maps/tiled/tower.tmx", {units = "pixels"}))
	assert(pixels.links[1].cost == 8 * 16 and pixels.floor_width == 40 * 16 and pixels.links[3].bx == 75.5 * 16)
end)

test("links: a Tiled link into a wall is refused with nil, message", function()
	local file = os.tmpname() .. ".tmx"
	local f = assert(io.open(file, "w"))
	f:write([[<map orientation="orthogonal" width="3" height="1" tilewidth="8" tileheight="8">
<group name="a"><properties><property name="floor" type="int" value="0"/></properties>
 <layer name="collision" width="3" height="1"><data encoding="csv">0,0,1</data></layer>
 <objectgroup><object id="1" name="ladder" x="4" y="4"><properties><property name="link" type="bool" value="true"/>
  <property name="to_floor" type="int" value="1"/></properties><point/></object></objectgroup></group>
<group name="b"><properties><property name="floor" type="int" value="1"/></properties>
 <layer name="collision" width="3" height="1"><data encoding="csv">1,0,0</data></layer></group></map>]])
	f:close()
	local map, message = gridtree.load_map(file)
	os.remove(file)
	assert(map == nil and message:find("link object 1 'ladder': its end b, (0.5, 0.5) on floor 1: point is inside a blocked cell", 1, true), message)
end)
