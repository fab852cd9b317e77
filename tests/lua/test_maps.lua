-- The game's own maps: maps from memory (rows, tables, functions), save, and agents with a size
-- (inflate, load_map's clearance), each against the same map read from a file or a brute force.
local h = ...
local test, raises = h.test, h.raises
local gridtree = require "gridtree"

local MAP = "assets/maps/small.map"

-- The rows of a MovingAI file, and its size.
local function file_rows(path)
	local rows, started = {}, false
	for line in io.lines(path) do
		if started then rows[#rows + 1] = line:gsub("\r$", "") elseif line == "map" then started = true end
	end
	return rows, #rows[1], #rows
end

local function free_char(c)
	return c == "." or c == "G" or c == "S"
end

-- Random pairs of free points of `map`, the same for every map of that size (seeded).
local function pairs_of(map, seed, n)
	local rng, out = gridtree.random(seed), {}
	for i = 1, n do
		local ax, ay = map:random_point(rng)
		local bx, by = map:random_point(rng)
		out[i] = {ax, ay, bx, by}
	end
	return out
end

local function same_distances(a, b, seed)
	for _, p in ipairs(pairs_of(a, seed, 200)) do
		local da, db = a:distance(p[1], p[2], p[3], p[4]), b:distance(p[1], p[2], p[3], p[4])
		assert(da == db, ("(%g, %g)-(%g, %g): %s against %s"):format(p[1], p[2], p[3], p[4], tostring(da), tostring(db)))
	end
end

test("new_map from rows, a flat table and a function equals the map file", function()
	local file = assert(gridtree.load_map(MAP))
	local rows, w, hgt = file_rows(MAP)
	local text = table.concat(rows, "\n")
	local flat, bools = {}, {}
	for y = 1, hgt do
		for x = 1, w do
			local blocked = not free_char(rows[y]:sub(x, x))
			flat[#flat + 1] = blocked and 1 or 0
			bools[#bools + 1] = blocked
		end
	end
	local from_rows = assert(gridtree.new_map(w, hgt, text .. "\n"))
	local from_crlf = assert(gridtree.new_map(w, hgt, table.concat(rows, "\r\n")))
	local from_one_line = assert(gridtree.new_map(w, hgt, table.concat(rows)))
	local from_numbers = assert(gridtree.new_map(w, hgt, flat))
	local from_bools = assert(gridtree.new_map(w, hgt, bools))
	local from_fn = assert(gridtree.new_map(w, hgt, function(x, y) return not free_char(rows[y + 1]:sub(x + 1, x + 1)) end))
	for _, m in ipairs({from_rows, from_crlf, from_one_line, from_numbers, from_bools, from_fn}) do
		local mw, mh = m:size()
		assert(mw == w and mh == hgt)
		same_distances(file, m, 3)
	end
	-- save writes a file that loads back as the same map.
	local path = os.tmpname()
	assert(from_fn:save(path) == true)
	same_distances(file, assert(gridtree.load_map(path)), 4)
	os.remove(path)
end)

test("new_map refuses what is not a map", function()
	raises("width must be from 1 to 65535", gridtree.new_map, 0, 3, "...")
	raises("height must be from 1 to 65535", gridtree.new_map, 3, 70000, "...")
	raises("width * height must be at most", gridtree.new_map, 60000, 60000, "")
	raises("cells expected", gridtree.new_map, 3, 1)
	raises("cells row 2 has 2 characters, expected 3", gridtree.new_map, 3, 2, "...\n..")
	raises("cells has 1 rows, expected 2", gridtree.new_map, 3, 2, "...")
	raises("cells has more than 1 rows", gridtree.new_map, 3, 1, "...\n...")
	raises("cells table must have width * height = 6 entries, has 5", gridtree.new_map, 3, 2, {0, 0, 0, 0, 0})
	raises("cells entry for cell (1, 0) is neither a boolean nor a number", gridtree.new_map, 3, 1, {0, "x", 0})
	raises("cells function gave neither a boolean nor a number for cell (0, 0)", gridtree.new_map, 2, 2, function() return {} end)
	raises("boom", gridtree.new_map, 2, 2, function() error("boom") end)
	raises("cells must be a string of rows", gridtree.new_map, 2, 2, 7)
	-- A function's nil is a free cell; numbers are blocked when not zero.
	local m = gridtree.new_map(3, 1, function(x) if x == 1 then return 2 end end)
	assert(m:is_free(0.5, 0.5) and not m:is_free(1.5, 0.5) and m:is_free(2.5, 0.5))
	local path = "/nonexistent-dir/x.map"
	local ok, msg = m:save(path)
	assert(ok == nil and msg:find("cannot create", 1, true), msg)
end)

-- Cell (x, y) blocked on `inflated` exactly when a cell within Chebyshev distance r of it is
-- blocked on `map` or off it (brute force through is_free at cell centres).
local function check_inflated(map, inflated, r)
	local w, hgt = map:size()
	local function blocked(x, y)
		return x < 0 or y < 0 or x >= w or y >= hgt or not map:is_free(x + 0.5, y + 0.5)
	end
	for y = 0, hgt - 1 do
		for x = 0, w - 1 do
			local expect = false
			for j = y - r, y + r do
				for i = x - r, x + r do
					if blocked(i, j) then expect = true end
				end
			end
			assert(inflated:is_free(x + 0.5, y + 0.5) == not expect, ("clearance %d, cell (%d, %d)"):format(r, x, y))
		end
	end
end

test("inflate and load_map's clearance give the map of agents with a size", function()
	local map = assert(gridtree.load_map(MAP))
	for r = 0, 2 do
		local inflated = map:inflate(r)
		check_inflated(map, inflated, r)
		local loaded = assert(gridtree.load_map(MAP, {clearance = r}))
		same_distances(inflated, loaded, 5 + r)
	end
	raises("clearance must be from 0 to " .. gridtree.limits.max_clearance .. " units (" .. gridtree.limits.max_clearance .. " cells of 1 units), got -1", map.inflate, map, -1)
	-- a half-width between whole cells rounds up: such an agent still never touches a wall
	local up, two = map:inflate(1.5), map:inflate(2)
	for y = 0, 31 do for x = 0, 47 do assert(up:is_free(x + 0.5, y + 0.5) == two:is_free(x + 0.5, y + 0.5)) end end
	raises("clearance must be an integer", gridtree.load_map, MAP, {clearance = "2"})
	raises("unknown option 'clerance'", gridtree.load_map, MAP, {clerance = 1})
	local whole = map:inflate(gridtree.limits.max_clearance) -- no room left at all
	assert(not whole:is_free(1.5, 1.5))
	local ok, msg = gridtree.load_map("no-such.map", {clearance = 1})
	assert(ok == nil and msg:find("cannot open", 1, true))
	map:close()
	raises("map is closed", map.inflate, map, 1)
end)

-- A Tiled map of MAP written here (CSV data; walls as a Collision layer or as tiles with the
-- `collides` property), with two objects.
local function write_tiled(path, format, by_property, tile)
	local rows, w, hgt = file_rows(MAP)
	local function ids(layer)
		local out = {}
		for y = 1, hgt do
			for x = 1, w do
				local wall = not free_char(rows[y]:sub(x, x))
				if layer == "Collision" then out[#out + 1] = wall and 2 or 0
				else out[#out + 1] = (by_property and wall) and 2 or 1 end
			end
		end
		return table.concat(out, ",")
	end
	local f = assert(io.open(path, "w"))
	if format == "tmj" then
		local layers = {('{"type": "tilelayer", "name": "ground", "width": %d, "height": %d, "data": [%s]}'):format(w, hgt, ids("ground"))}
		if not by_property then
			layers[2] = ('{"type": "tilelayer", "name": "Collision", "width": %d, "height": %d, "data": [%s]}'):format(w, hgt, ids("Collision"))
		end
		layers[#layers + 1] = ('{"type": "objectgroup", "name": "spawns", "objects": [' ..
			'{"id": 1, "name": "medic", "type": "healer", "x": %d, "y": %d, "properties": [{"name": "hp", "type": "int", "value": 30},' ..
			' {"name": "boss", "type": "bool", "value": true}, {"name": "speed", "type": "float", "value": 1.5}]},' ..
			' {"id": 2, "name": "box", "class": "chest", "x": %d, "y": %d}]}'):format(3 * tile, 4 * tile, 20 * tile, 10 * tile)
		f:write(('{"type": "map", "orientation": "orthogonal", "width": %d, "height": %d, "tilewidth": %d, "tileheight": %d,' ..
			' "infinite": false, "tilesets": [{"firstgid": 1, "tiles": [{"id": 1, "properties": [{"name": "collides",' ..
			' "type": "bool", "value": true}]}]}], "layers": [%s]}'):format(w, hgt, tile, tile, table.concat(layers, ",")))
	else
		f:write(('<map orientation="orthogonal" width="%d" height="%d" tilewidth="%d" tileheight="%d">\n'):format(w, hgt, tile, tile))
		f:write('<tileset firstgid="1"><tile id="1"><properties><property name="collides" type="bool" value="true"/></properties></tile></tileset>\n')
		f:write(('<layer name="ground" width="%d" height="%d"><data encoding="csv">%s</data></layer>\n'):format(w, hgt, ids("ground")))
		if not by_property then
			f:write(('<layer name="Collision" width="%d" height="%d"><data encoding="csv">%s</data></layer>\n'):format(w, hgt, ids("Collision")))
		end
		f:write(('<objectgroup name="spawns"><object id="1" name="medic" type="healer" x="%d" y="%d"><properties>' ..
			'<property name="hp" type="int" value="30"/><property name="boss" type="bool" value="true"/>' ..
			'<property name="speed" type="float" value="1.5"/></properties></object>' ..
			'<object id="2" name="box" class="chest" x="%d" y="%d"/></objectgroup>\n'):format(3 * tile, 4 * tile, 20 * tile, 10 * tile))
		f:write("</map>\n")
	end
	f:close()
end

test("load_map reads Tiled maps: the same map as the .map file, its objects, the walls chosen", function()
	local file = assert(gridtree.load_map(MAP))
	for _, format in ipairs({"tmj", "tmx"}) do
		for _, by_property in ipairs({false, true}) do
			local path = os.tmpname() .. "." .. format
			write_tiled(path, format, by_property, 16)
			local map, info = assert(gridtree.load_map(path))
			same_distances(file, map, 9)
			assert(info.tile_width == 16 and info.tile_height == 16 and info.origin_x == 0 and info.origin_y == 0)
			-- Both conventions when the Collision layer's tile also has `collides`: the union.
			assert(info.blocked_by == (by_property and "property collides" or "layer Collision; property collides"), info.blocked_by)
			local walls, rows = 0, file_rows(MAP) -- the walls of the .map the level was written from
			for _, row in ipairs(rows) do for x = 1, #row do walls = walls + (free_char(row:sub(x, x)) and 0 or 1) end end
			assert(info.walls.tile_property == walls and info.walls.layer == (by_property and 0 or walls) and info.walls.objects == 0)
			local medic, box = info.objects[1], info.objects[2]
			assert(#info.objects == 2 and medic.name == "medic" and medic.type == "healer" and medic.layer == "spawns")
			assert(medic.x == 3 and medic.y == 4 and medic.id == 1, "objects are in map units: cells by default")
			assert(medic.properties.hp == 30 and (not math.type or math.type(medic.properties.hp) == "integer"))
			assert(medic.properties.boss == true and medic.properties.speed == 1.5)
			assert(box.type == "chest" and box.x == 20 and box.y == 10 and next(box.properties) == nil)
			-- Game units: pixels, the objects where Tiled put them.
			local px, pinfo = assert(gridtree.load_map(path, {units = "pixels"}))
			assert(pinfo.objects[1].x == 48 and pinfo.objects[1].y == 64)
			local scale, x0, y0 = px:units()
			assert(scale == 16 and x0 == 0 and y0 == 0)
			-- The walls chosen explicitly.
			local ground = assert(gridtree.load_map(path, {blocked_layer = "GROUND"}))
			assert(not ground:is_free(2.5, 2.5))
			-- A property or layer that matches nothing is an error (a typo must not open the level).
			local ok, msg = gridtree.load_map(path, {blocked_property = "solid"})
			assert(ok == nil and msg:find("no tile, layer or object has the bool property 'solid' set true", 1, true), msg)
			ok, msg = gridtree.load_map(path, {blocked_layer = "walls"})
			assert(ok == nil and msg:find("no layer named 'walls' (tile layers 'ground'", 1, true), msg)
			-- A wall-less level is refused unless an open level is meant; the limits are options.
			local open_level = assert(gridtree.load_map(path, {blocked_layer = "spawns", allow_empty = true}))
			assert(open_level:is_free(2.5, 2.5))
			ok, msg = gridtree.load_map(path, {blocked_layer = "spawns"})
			assert(ok == nil and msg:find("no walls", 1, true), msg)
			ok, msg = gridtree.load_map(path, {max_cells = 10})
			assert(ok == nil and msg:find("max_cells = 10", 1, true), msg)
			raises("allow_empty must be a boolean", gridtree.load_map, path, {allow_empty = 1})
			raises("not both", gridtree.load_map, path, {blocked_layer = "a", blocked_property = "b"})
			os.remove(path)
		end
	end
	raises("are for Tiled maps", gridtree.load_map, MAP, {units = "pixels"})
	raises("units must be \"cells\" or \"pixels\"", gridtree.load_map, MAP, {units = "feet"})
	raises("blocked_layer must be a string", gridtree.load_map, "x.tmj", {blocked_layer = 3})
	local bad = os.tmpname() .. ".tmj"
	local f = assert(io.open(bad, "w"))
	f:write('{"width": 2,')
	f:close()
	local ok, msg = gridtree.load_map(bad)
	assert(ok == nil and msg:find(bad .. ":1: not valid JSON", 1, true), msg)
	os.remove(bad)
end)

-- Every call in game units equals the same call in cells, converted.
test("game units: positions, distances, radii, regions and scores in the map's units", function()
	local cells = assert(gridtree.load_map(MAP))
	local units = assert(gridtree.load_map(MAP))
	local S, X0, Y0 = 24, 100, -50
	assert(units:set_units(S, X0, Y0) == true)
	local function u(x, y) return X0 + x * S, Y0 + y * S end
	local function near(a, b) return math.abs(a - b) <= 1e-9 * (1 + math.abs(b)) end
	local wc, wu = gridtree.new_world(cells), gridtree.new_world(units)
	local rng = gridtree.random(21)
	local ic, iu = {}, {}
	for i = 1, 40 do
		local x, y = cells:random_point(rng)
		local kw = i % 3 == 0 and "healer" or "enemy"
		ic[i] = wc:add(x, y, kw)
		local ux, uy = u(x, y)
		iu[i] = wu:add(ux, uy, kw)
		local px, py = wu:position(iu[i])
		assert(near(px, ux) and near(py, uy))
	end
	for _, p in ipairs(pairs_of(cells, 22, 60)) do
		local ax, ay = u(p[1], p[2])
		local bx, by = u(p[3], p[4])
		local d = cells:distance(p[1], p[2], p[3], p[4])
		assert(near(units:distance(ax, ay, bx, by), d * S))
		assert(units:is_free(ax, ay) and units:visible(ax, ay, bx, by) == cells:visible(p[1], p[2], p[3], p[4]))
		local path, length = units:path(ax, ay, bx, by)
		local cpath = cells:path(p[1], p[2], p[3], p[4])
		assert(near(length, d * S) and #path == #cpath)
		for j = 1, #path, 2 do
			local x, y = u(cpath[j], cpath[j + 1])
			assert(near(path[j], x) and near(path[j + 1], y))
		end
		local idc, dc = wc:nearest(p[1], p[2], 3, "healer")
		local idu, du = wu:nearest(ax, ay, 3, "healer")
		assert(#idu == #idc)
		for r = 1, #idc do assert(near(du[r], dc[r] * S)) end
		local radius = dc[#dc] or 10
		assert(#wu:within(ax, ay, (radius + 0.5) * S, "healer") == #wc:within(p[1], p[2], radius + 0.5, "healer"))
		local _, tc = wc:top(p[1], p[2], 2, "healer enemy", {miss_cost = 7})
		local _, tu = wu:top(ax, ay, 2, "healer enemy", {miss_cost = 7 * S})
		for r = 1, #tc do assert(near(tu[r], tc[r] * S)) end
		local rx0, ry0 = u(10, 5)
		local rx1, ry1 = u(30, 25)
		local rc = wc:nearest(p[1], p[2], 5, nil, {region = {10, 5, 30, 25}})
		local ru = wu:nearest(ax, ay, 5, nil, {region = {rx0, ry0, rx1, ry1}})
		assert(#rc == #ru)
	end
	-- nearest_many takes and gives units too; random_point draws in them.
	local xs, ys, cxs, cys = {}, {}, {}, {}
	for i = 1, 30 do
		cxs[i], cys[i] = cells:random_point(rng)
		xs[i], ys[i] = u(cxs[i], cys[i])
	end
	local _, dc = wc:nearest_many(cxs, cys, 2, "enemy")
	local _, du = wu:nearest_many(xs, ys, 2, "enemy")
	for i = 1, #dc do assert(near(du[i], dc[i] * S)) end
	local rx, ry = units:random_point(rng)
	assert(units:is_free(rx, ry) and rx >= X0 and ry >= Y0)
	-- An inflated map keeps its units; bad units are errors.
	local scale, x0, y0 = units:inflate(1):units()
	assert(scale == S and x0 == X0 and y0 == Y0)
	raises("units must be a scale from 1e-6 to 1e9", units.set_units, units, 0)
	raises("units must be a scale from 1e-6 to 1e9", units.set_units, units, 2, 0 / 0)
end)

-- A fresh map with the cells `map` has now (no index: the exact oracle answers it).
local function same_cells(map)
	local w, hgt = map:size()
	return assert(gridtree.new_map(w, hgt, function(x, y) return not map:is_free(x + 0.5, y + 0.5) end))
end

test("map edits: set_blocked, doors and index_state, every answer the edited map's", function()
	local map = assert(gridtree.load_map(MAP))
	assert(map:build_index{cell = 4, threads = 1})
	local w, hgt = map:size()
	local world = gridtree.new_world(map)
	local rng = gridtree.random(31)
	for _ = 1, 20 do world:add(map:random_point(rng)) end
	assert(map:index_state() == "exact")
	local states = {}
	for step = 1, 12 do
		local x0, y0 = rng:below(w - 4), rng:below(hgt - 4)
		local blocked = step <= 6 or rng:below(2) == 0
		assert(map:set_blocked(x0, y0, x0 + rng:below(4), y0 + rng:below(4), blocked) == true)
		states[map:index_state()] = true
		if step <= 6 then assert(map:index_state() ~= "stale", "only walls added so far") end
		local fresh = same_cells(map)
		for _, p in ipairs(pairs_of(fresh, 40 + step, 30)) do
			local a, b = map:distance(p[1], p[2], p[3], p[4]), fresh:distance(p[1], p[2], p[3], p[4])
			assert(a == b or math.abs(a - b) <= 1e-9 * (1 + b), ("step %d: %s against %s"):format(step, tostring(a), tostring(b)))
		end
		-- The world sees the edited map: the nearest object is the one the fresh map says.
		local x, y = fresh:random_point(rng)
		local ids, dists = world:nearest(x, y, 1)
		if ids[1] then
			local ox, oy = world:position(ids[1])
			local d = fresh:distance(x, y, ox, oy)
			assert(math.abs(dists[1] - d) <= 1e-9 * (1 + d))
		end
	end
	assert(states.lower_bound and states.stale)
	while select(2, map:index_state()) do map:update() end -- the background rebuild lands
	assert(map:index_state() == "exact")
	-- Doors: built open, closed and opened again many times, never a rebuild.
	local door = map:add_door{20, 10, 22, 10}
	assert(map:door_open(door))
	for i = 1, 6 do
		assert(map:set_door(door, i % 2 == 0) == true)
		assert(map:door_open(door) == (i % 2 == 0))
		assert(not map:is_free(21.5, 10.5) == (i % 2 == 1))
	end
	raises("no such door", map.set_door, map, door + 1, true)
	raises(("reaches outside the map, which spans (0, 0)-(%d, %d) in its units"):format(w, hgt), map.set_blocked, map, 0, 0, w, 0, true)
	raises("must have x0 <= x1 and y0 <= y1", map.set_blocked, map, 3, 0, 1, 0, true)
	raises("a rectangle is x0, y0, x1, y1: four finite numbers", map.add_door, map, {1, 2, 3})
	raises("a rectangle is x0, y0, x1, y1: four finite numbers", map.add_door, map, 1, 2, 3)
	raises("boolean expected", map.set_blocked, map, 0, 0, 1, 1, "yes")
end)

test("build_index builds declared doors open; a rebuild that cannot succeed says why and stops", function()
	local map = assert(gridtree.load_map(MAP))
	local door = map:add_door{20, 10, 22, 10}
	assert(map:set_door(door, false))
	assert(map:build_index{cell = 4, threads = 1})
	assert(map:index_state() == "lower_bound", "built with the door open: shut, it is a lower bound")
	assert(map:set_door(door, true))
	local state, rebuilding = map:index_state()
	assert(state == "exact" and not rebuilding, "opening a declared door needs no rebuild")
	-- 1-cell walls from top to bottom; freeing the middle row makes 65,600 corners (more than the
	-- index asked for allows).
	local wide = assert(gridtree.new_map(32800, 3, function(x) return x % 2 == 1 end))
	assert(wide:build_index{threads = 1, max_vertices = 65535})
	assert(wide:set_blocked(0, 1, 32799, 1, false))
	local why
	repeat
		wide:update()
		state, rebuilding, why = wide:index_state()
	until not rebuilding
	assert(state == "stale" and why and why:find("convex vertices"), tostring(why))
	assert(wide:update() == false and not select(2, wide:index_state()), "not started again by the frames")
	assert(wide:set_blocked(0, 1, 32799, 1, true)) -- no corners: the next rebuild succeeds
	repeat wide:update() until not select(2, wide:index_state())
	state, rebuilding, why = wide:index_state()
	assert(state == "exact" and why == nil)
end)
