-- Path following, the seeded generator, random points, the navigation method and the limits:
-- each against a brute force or known values written in Lua.
local h = ...
local test, raises = h.test, h.raises
local gridtree = require "gridtree"

local MAP = "assets/maps/small.map"

-- fn(n) allocates (next to) nothing once fn(warm) has run: what a game loop needs. Up to three
-- tries: LuaJIT's compiler may allocate a little during one of them, while an allocation per
-- call (n >= 10,000 of them, 16 bytes or more each) shows in every try.
local function allocates_nothing(fn, warm, n, what)
	fn(warm)
	local grown
	for _ = 1, 3 do
		collectgarbage()
		collectgarbage()
		local before = collectgarbage("count")
		fn(n)
		grown = collectgarbage("count") - before
		if grown < 1 then return end
	end
	error(("%s allocated %.1f KB"):format(what, grown))
end

-- Arc-length brute force: cumulative lengths, and the point at a given distance along the path.
local function lengths(path)
	local cum, n = {0}, math.floor(#path / 2)
	for j = 1, n - 1 do
		local dx, dy = path[2 * j + 1] - path[2 * j - 1], path[2 * j + 2] - path[2 * j]
		cum[j + 1] = cum[j] + math.sqrt(dx * dx + dy * dy)
	end
	return cum, n
end

local function point_at(path, cum, n, arc)
	for j = 1, n - 1 do
		if arc < cum[j + 1] then
			local t = (arc - cum[j]) / (cum[j + 1] - cum[j])
			return path[2 * j - 1] + t * (path[2 * j + 1] - path[2 * j - 1]), path[2 * j] + t * (path[2 * j + 2] - path[2 * j])
		end
	end
	return path[2 * n - 1], path[2 * n]
end

-- Distance from (x, y) to segment j of the path.
local function off_segment(path, j, x, y)
	local ax, ay, bx, by = path[2 * j - 1], path[2 * j], path[2 * j + 1], path[2 * j + 2]
	if bx == nil then return math.sqrt((x - ax) ^ 2 + (y - ay) ^ 2) end
	local dx, dy = bx - ax, by - ay
	local l2 = dx * dx + dy * dy
	local t = l2 > 0 and math.max(0, math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) or 0
	return math.sqrt((ax + t * dx - x) ^ 2 + (ay + t * dy - y) ^ 2)
end

-- A random polyline of n points, with some repeated points (zero-length segments).
-- A world (leaf 4) of 40 objects tagged "a" at random points of the map.
local function world_of_random_points(map, rng)
	local world = gridtree.new_world(map, {leaf = 4})
	for _ = 1, 40 do
		local x, y = map:random_point(rng)
		world:add(x, y, "a")
	end
	return world
end

local function random_path(rng, n)
	local path = {}
	local x, y = 50, 50
	for i = 1, n do
		if i == 1 or rng:next() > 0.1 then x, y = x + (rng:next() - 0.5) * 10, y + (rng:next() - 0.5) * 10 end
		path[#path + 1], path[#path + 2] = x, y
	end
	return path
end

test("advance walks a path like an arc-length brute force", function()
	local rng = gridtree.random(11)
	local map = assert(gridtree.load_map(MAP))
	assert(map:build_index{cell = 2})
	local walked = 0
	for trial = 1, 120 do
		local path
		if trial % 3 == 0 then -- a real path on the map
			local x1, y1 = map:random_point(rng)
			local x2, y2 = map:random_point(rng)
			path = map:path(x1, y1, x2, y2)
		else -- up to 200 points: steps cross the 32-point window the binding reads first
			path = random_path(rng, 1 + rng:below(200))
		end
		local cum, n = lengths(path)
		local total = cum[n]
		local step = trial % 2 == 0 and rng:next() * 2 or rng:next() * total / 3
		local x, y, segment, arrived = path[1], path[2], 1, false
		local eps = 1e-9 * (1 + total)
		for k = 1, 100000 do
			x, y, segment, arrived = gridtree.advance(path, segment, x, y, step)
			walked = walked + 1
			local ex, ey = point_at(path, cum, n, math.min(k * step, total))
			assert(math.abs(x - ex) < eps and math.abs(y - ey) < eps, ("trial %d call %d: (%g, %g) expected (%g, %g)"):format(trial, k, x, y, ex, ey))
			assert(segment >= 1 and segment <= n and off_segment(path, segment, x, y) < eps, "position off its segment")
			if k * step < total - eps then assert(not arrived, "arrived early") end
			if k * step > total + eps then assert(arrived and segment == n and x == path[2 * n - 1] and y == path[2 * n]) end
			if arrived then break end
		end
		assert(arrived)
	end
	assert(walked > 1000)
end)

test("advance from the middle of a segment, in one call", function()
	local rng = gridtree.random(12)
	for _ = 1, 300 do
		local path = random_path(rng, 2 + rng:below(120))
		local cum, n = lengths(path)
		local j = 1 + rng:below(n - 1)
		local t = rng:next()
		local x, y = path[2 * j - 1] + t * (path[2 * j + 1] - path[2 * j - 1]), path[2 * j] + t * (path[2 * j + 2] - path[2 * j])
		local arc = cum[j] + t * (cum[j + 1] - cum[j])
		local step = rng:next() * cum[n] / 2
		local gx, gy, segment = gridtree.advance(path, j, x, y, step)
		local ex, ey = point_at(path, cum, n, math.min(arc + step, cum[n]))
		local eps = 1e-9 * (1 + cum[n])
		assert(math.abs(gx - ex) < eps and math.abs(gy - ey) < eps)
		assert(segment >= j and off_segment(path, segment, gx, gy) < eps)
	end
end)

test("advance edge cases and misuse", function()
	local path = {0, 0, 3, 4, 3, 10}
	local x, y, segment, arrived = gridtree.advance(path, 1, 0, 0, 5) -- exactly the first bend
	assert(x == 3 and y == 4 and segment == 2 and not arrived)
	x, y, segment, arrived = gridtree.advance(path, 1, 0, 0, 0) -- a zero step stays put
	assert(x == 0 and y == 0 and segment == 1 and not arrived)
	x, y, segment, arrived = gridtree.advance(path, 1, 0, 0, math.huge)
	assert(x == 3 and y == 10 and segment == 3 and arrived)
	x, y, segment, arrived = gridtree.advance({}, 1, 7, 8, 1) -- unreachable: nothing to walk
	assert(x == 7 and y == 8 and segment == 1 and arrived)
	x, y, segment, arrived = gridtree.advance({2, 2}, 1, 2, 2, 1)
	assert(x == 2 and y == 2 and segment == 1 and arrived)
	raises("flat list", gridtree.advance, {1, 2, 3}, 1, 1, 2, 1)
	raises("segment must be", gridtree.advance, path, 0, 0, 0, 1)
	raises("segment must be", gridtree.advance, path, 4, 0, 0, 1)
	raises("step must be", gridtree.advance, path, 1, 0, 0, -1)
	raises("step must be", gridtree.advance, path, 1, 0, 0, 0 / 0)
	raises("finite", gridtree.advance, path, 1, 0 / 0, 0, 1)
	raises("path entries must be finite numbers", gridtree.advance, {0, 0, "a", 1}, 1, 0, 0, 1)
	raises("table expected", gridtree.advance, nil, 1, 0, 0, 1)
end)

test("advance allocates nothing per call", function()
	local rng = gridtree.random(13)
	local path = random_path(rng, 150)
	local x, y, segment, arrived = path[1], path[2], 1, false
	local function walk(calls)
		for k = 1, calls do
			-- every 7th step is long enough to pass the window's end
			x, y, segment, arrived = gridtree.advance(path, segment, x, y, k % 7 == 0 and 200 or 0.7)
			if arrived then x, y, segment = path[1], path[2], 1 end
		end
	end
	allocates_nothing(walk, 2000, 20000, "advance") -- the warm-up grows the scratch once
end)

test("random: splitmix64, the same sequence under every interpreter", function()
	-- Values of the reference splitmix64 (seed 42; seed -7 is 2^64 - 7).
	local r = gridtree.random(42)
	local expect = {0.7415648787718233, 0.1599103928769201, 0.27860113025513866, 0.34419071652363753}
	for i = 1, 4 do assert(r:next() == expect[i], i) end
	local below = {250, 62, 925, 908, 5, 974}
	for i = 1, 6 do assert(r:below(1000) == below[i], i) end
	r = gridtree.random(-7)
	assert(r:next() == 0.4223342175278125 and r:next() == 0.4786370309856862)
	local a, b, c = gridtree.random(5), gridtree.random(5), gridtree.random(6)
	local differs = false
	for _ = 1, 1000 do
		local v = a:next()
		assert(v >= 0 and v < 1 and v == b:next())
		differs = differs or v ~= c:next()
		local k = a:below(7)
		assert(k == b:below(7) and k >= 0 and k < 7 and k % 1 == 0)
		c:below(7)
		assert(a:below(1) == 0 and b:below(1) == 0)
	end
	assert(differs and tostring(a) == "gridtree.Random")
	raises("n must be an integer from 1 to", a.below, a, 0)
	raises("number expected", gridtree.random)
	raises("gridtree.Random expected", a.next, {})
end)

-- Lua 5.3+ has 64-bit integers, so splitmix64 can be written out in Lua; the chunk is compiled only
-- there (its operators are not LuaJIT syntax).
if math.type then
	local chunk = assert(load([[
		local gridtree = ...
		local function splitmix(seed)
			local state = seed
			return function()
				state = state + 0x9E3779B97F4A7C15
				local z = state
				z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
				z = (z ~ (z >> 27)) * 0x94D049BB133111EB
				return z ~ (z >> 31)
			end
		end
		local function umod(v, n) -- v read as an unsigned 64-bit integer, modulo n
			if v >= 0 then return v % n end
			return ((math.maxinteger % n + 1) % n + (v & math.maxinteger) % n) % n
		end
		for _, seed in ipairs({0, 1, 123, -1, math.maxinteger}) do
			local r, ref = gridtree.random(seed), splitmix(seed)
			for _ = 1, 500 do assert(r:next() == (ref() >> 11) / 9007199254740992.0) end
			for k = 1, 500 do
				local n = 1 + (k * 7919) % 1000
				local limit = -1 - umod(-1, n) -- 2^64 - 1 - (2^64 - 1) mod n, as in gtRandom_Below
				local v
				repeat v = ref() until math.ult(v, limit)
				assert(r:below(n) == umod(v, n), n)
			end
		end
	]]))
	test("random equals splitmix64 written in Lua", function() chunk(gridtree) end)
end

test("random_point: uniform over the free space, deterministic per seed", function()
	local map = assert(gridtree.load_map(MAP))
	local w, hgt = map:size()
	local free_left, free = 0, 0
	for cy = 0, hgt - 1 do
		for cx = 0, w - 1 do
			-- a cell's centre is free exactly when the cell is
			if map:is_free(cx + 0.5, cy + 0.5) then
				free = free + 1
				if cx < w / 2 then free_left = free_left + 1 end
			end
		end
	end
	local rng, again = gridtree.random(3), gridtree.random(3)
	local n, left, frac = 20000, 0, 0
	for _ = 1, n do
		local x, y = map:random_point(rng)
		local x2, y2 = map:random_point(again)
		assert(x == x2 and y == y2)
		assert(map:is_free(x, y) and x >= 0 and x < w and y >= 0 and y < hgt)
		assert(map:is_free(math.floor(x) + 0.5, math.floor(y) + 0.5), "the point's cell is free")
		if x < w / 2 then left = left + 1 end
		frac = frac + (x % 1)
	end
	local p = free_left / free
	local sigma = math.sqrt(n * p * (1 - p))
	assert(math.abs(left - n * p) < 4 * sigma, ("%d of %d points on the left, expected %.0f"):format(left, n, n * p))
	assert(math.abs(frac / n - 0.5) < 0.02, "offsets inside a cell are uniform")
	raises("gridtree.Random expected", map.random_point, map, {})
	local path = os.tmpname()
	local f = assert(io.open(path, "w")); f:write("type octile\nheight 2\nwidth 3\nmap\n@@@\n@@@\n"); f:close()
	local walls = assert(gridtree.load_map(path))
	os.remove(path)
	local x, err = walls:random_point(rng) -- a map without free cells: nothing to draw from
	assert(x == nil and err:find("no free cells", 1, true))
end)

test("set_method and method choose the distance backend", function()
	local map = assert(gridtree.load_map(MAP))
	assert(map:method() == "oracle") -- auto without an index
	raises("needs an index", map.set_method, map, "ehl")
	raises("unknown method 'bogus'", map.set_method, map, "bogus")
	raises("string expected", map.set_method, map, nil)
	assert(map:build_index{cell = 2})
	assert(map:method() == "ehl")
	local rng = gridtree.random(21)
	local world = world_of_random_points(map, rng)
	for _ = 1, 30 do
		local x1, y1 = map:random_point(rng)
		local x2, y2 = map:random_point(rng)
		assert(map:set_method("ehl") and map:method() == "ehl")
		local ehl = map:distance(x1, y1, x2, y2)
		local _, near_ehl = world:nearest(x1, y1, 3)
		assert(map:set_method("oracle") and map:method() == "oracle")
		local oracle = map:distance(x1, y1, x2, y2)
		assert(math.abs(ehl - oracle) < 1e-9 * (1 + oracle))
		local _, near_oracle = world:nearest(x1, y1, 3)
		for i = 1, 3 do assert(math.abs(near_ehl[i] - near_oracle[i]) < 1e-9 * (1 + near_ehl[i])) end
		assert(map:set_method("euclid") and map:method() == "euclid")
		local straight = math.sqrt((x2 - x1) ^ 2 + (y2 - y1) ^ 2)
		assert(math.abs(map:distance(x1, y1, x2, y2) - straight) < 1e-12 * (1 + straight))
		assert(straight <= oracle + 1e-9)
		local pts, len = map:path(x1, y1, x2, y2)
		assert(#pts == 4 and pts[1] == x1 and pts[4] == y2 and math.abs(len - straight) < 1e-12 * (1 + straight))
		local _, near_euclid = world:nearest(x1, y1, 3)
		local _, near_metric = world:nearest(x1, y1, 3, nil, {metric = "euclid"})
		for i = 1, 3 do assert(math.abs(near_euclid[i] - near_metric[i]) < 1e-9) end
		assert(map:set_method("auto") and map:method() == "ehl")
	end
	local none, err = map:distance(0.5, 0.5, 1.5, 17.5) -- walls still count, whatever the method
	assert(none == nil and err:find("blocked", 1, true))
end)

test("polyanya on a mesh made from the map gives the oracle's distances and nearest", function()
	local map = assert(gridtree.load_map(MAP))
	raises("needs a mesh", map.set_method, map, "polyanya")
	local none, err = map:load_mesh("no/such.mesh")
	assert(none == nil and err:find("cannot open", 1, true))
	assert(map:build_mesh())
	local rng = gridtree.random(5)
	local world = world_of_random_points(map, rng)
	for _ = 1, 30 do
		local x1, y1 = map:random_point(rng)
		local x2, y2 = map:random_point(rng)
		assert(map:set_method("oracle"))
		local oracle = map:distance(x1, y1, x2, y2)
		local _, near_oracle = world:nearest(x1, y1, 3)
		assert(map:set_method("polyanya") and map:method() == "polyanya")
		local mesh = map:distance(x1, y1, x2, y2)
		assert(math.abs(mesh - oracle) < 1e-6 * (1 + oracle))
		local pts, len = map:path(x1, y1, x2, y2)
		assert(pts[1] == x1 and pts[#pts] == y2 and math.abs(len - oracle) < 1e-6 * (1 + oracle))
		local _, near_mesh = world:nearest(x1, y1, 3)
		for i = 1, 3 do assert(math.abs(near_mesh[i] - near_oracle[i]) < 1e-6 * (1 + near_oracle[i])) end
	end
end)

test("limits come from the library and bound every check", function()
	local L = gridtree.limits
	for _, name in ipairs({"max_cell_size", "max_threads", "max_leaf_size", "max_keyword_bytes", "max_keywords", "max_k"}) do
		assert(type(L[name]) == "number" and L[name] >= 1 and L[name] % 1 == 0, name)
	end
	local map = assert(gridtree.load_map(MAP))
	raises(("cell must be an integer from 1 to %d"):format(L.max_cell_size), map.build_index, map, {cell = L.max_cell_size + 1})
	raises(("threads must be an integer from 0 to %d"):format(L.max_threads), map.build_index, map, {threads = L.max_threads + 1})
	raises(("leaf must be an integer from 1 to %d"):format(L.max_leaf_size), gridtree.new_world, map, {leaf = L.max_leaf_size + 1})
	assert(gridtree.new_world(map, {leaf = L.max_leaf_size})):close()
	raises("keyword_bitmap_bytes must be an integer from 0 to 4294967296", gridtree.new_world, map, {keyword_bitmap_bytes = -1})
	raises("keyword_bitmap_bytes must be an integer from 0 to 4294967296", gridtree.new_world, map, {keyword_bitmap_bytes = 0.5})
	raises("keyword_bitmap_bytes must be a number", gridtree.new_world, map, {keyword_bitmap_bytes = "big"})
	do -- without bitmaps, keywords go through the counts: the same answers
		local plain, lean = gridtree.new_world(map), gridtree.new_world(map, {keyword_bitmap_bytes = 0})
		for i = 1, 40 do
			local x, y = 1.5 + (i * 7) % 30, 1.5 + (i * 11) % 30
			if map:is_free(x, y) then
				local words = (i % 3 == 0) and "red big" or (i % 3 == 1) and "red" or "blue big"
				assert(plain:add(x, y, words))
				assert(lean:add(x, y, words))
			end
		end
		local _, a = plain:nearest(10.5, 10.5, 5, "red big")
		local _, b = lean:nearest(10.5, 10.5, 5, "red big")
		assert(#a > 0 and #a == #b)
		for i = 1, #a do assert(a[i] == b[i]) end
		plain:close()
		lean:close()
	end
	local world = gridtree.new_world(map)
	raises(("k must be an integer from 0 to %d"):format(L.max_k), world.nearest, world, 1.5, 17.5, L.max_k + 1)
	local longest = ("w"):rep(L.max_keyword_bytes)
	local id = assert(world:add(1.5, 17.5, longest))
	assert(world:keywords(id)[1] == longest)
	assert(world:add(1.5, 17.5, {longest}))
	local too_long = longest .. "w"
	raises(("keyword longer than %d bytes"):format(L.max_keyword_bytes), world.add, world, 1.5, 17.5, too_long)
	raises(("keyword longer than %d bytes"):format(L.max_keyword_bytes), world.add, world, 1.5, 17.5, {too_long})
	local many = {}
	for i = 1, L.max_keywords + 1 do many[i] = "w" .. i end
	raises(("more than %d keywords"):format(L.max_keywords), world.add, world, 1.5, 17.5, many)
	raises(("more than %d keywords"):format(L.max_keywords), world.add, world, 1.5, 17.5, table.concat(many, " "))
	many[#many] = nil
	assert(world:add(1.5, 17.5, many))
end)

test("limits have the documented values", function()
	-- lua/README.md; the first four are gt_base.h's GT_* limits
	local L = gridtree.limits
	assert(L.max_cell_size == 4096 and L.max_threads == 256 and L.max_leaf_size == 65536 and L.max_keyword_bytes == 64)
	assert(L.max_keywords == 64 and L.max_k == 1000000 and L.max_move_many == 100000000 and L.max_path_points == 2 ^ 29)
	assert(L.max_clearance == 32767 and L.max_map_side == 65535)
end)

test("rng:next, rng:below and map:random_point allocate nothing", function()
	local map = assert(gridtree.load_map(MAP))
	local rng = gridtree.random(4)
	local function draw(n)
		for _ = 1, n do
			rng:next()
			rng:below(1000)
			map:random_point(rng)
		end
	end
	allocates_nothing(draw, 100, 20000, "drawing random numbers and points")
	assert(rng:below(2 ^ 31 - 1) < 2 ^ 31 - 1)
	raises("n must be an integer from 1 to 2147483647", rng.below, rng, 2 ^ 31)
end)
