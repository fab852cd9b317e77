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
	raises("clearance must be a whole number of cells from 0 to " .. gridtree.limits.max_clearance, map.inflate, map, -1)
	raises("clearance must be a whole number", map.inflate, map, 1.5)
	raises("clearance must be an integer", gridtree.load_map, MAP, {clearance = "2"})
	raises("unknown option 'clerance'", gridtree.load_map, MAP, {clerance = 1})
	local whole = map:inflate(gridtree.limits.max_clearance) -- no room left at all
	assert(not whole:is_free(1.5, 1.5))
	local ok, msg = gridtree.load_map("no-such.map", {clearance = 1})
	assert(ok == nil and msg:find("cannot open", 1, true))
	map:close()
	raises("map is closed", map.inflate, map, 1)
end)
