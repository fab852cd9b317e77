-- Straight-line neighbours (gridtree.neighbours): every method against a brute force written here
-- (minimum image on wrapping axes), 2D and 3D; neighbours_many into reused tables; bad input.
local h = ...
local test, raises = h.test, h.raises
local unpack = table.unpack or unpack -- LuaJIT has the 5.1 global
local gridtree = require "gridtree"

local function dist(p, q, size, wrap)
	local s = 0
	for a = 1, #p do
		local d = math.abs(p[a] - q[a])
		if wrap:find(("xyz"):sub(a, a), 1, true) and d > size[a] / 2 then d = size[a] - d end
		s = s + d * d
	end
	return math.sqrt(s)
end

-- The k nearest within r by brute force: a list of {id, d}, ties by id.
local function brute(points, q, r, k, size, wrap, exclude)
	local all = {}
	for id, p in pairs(points) do
		local d = dist(p, q, size, wrap)
		if id ~= exclude and d <= r then all[#all + 1] = { id, d } end
	end
	table.sort(all, function(a, b)
		if a[2] ~= b[2] then return a[2] < b[2] end
		return a[1] < b[1]
	end)
	if k and #all > k then for i = #all, k + 1, -1 do all[i] = nil end end
	return all
end

local function same(ids, dists, want, what)
	assert(#ids == #want, ("%s: %d found, brute force %d"):format(what, #ids, #want))
	for i = 1, #want do
		assert(ids[i] == want[i][1], what .. ": id " .. i)
		assert(math.abs(dists[i] - want[i][2]) < 1e-9, what .. ": distance " .. i)
	end
end

local function scene(dims, wrap, rng)
	local size = { 20 + 10 * rng(), 15 + 10 * rng(), 12 }
	local def = { width = size[1], height = size[2], wrap = wrap, cell = 1.5 }
	if dims == 3 then def.depth = size[3] end
	local nb = assert(gridtree.neighbours(def))
	local points = {}
	for i = 1, 200 do
		local p = {}
		for a = 1, dims do p[a] = (i % 4 == 0) and math.floor(rng() * 4) * size[a] / 4 or rng() * size[a] end
		local id = assert(nb:add(unpack(p)))
		points[id] = p
	end
	return nb, points, size
end

test("neighbours: every method equals a brute force, 2D and 3D, open and wrapping", function()
	local rng = h.lcg(33)
	for _, case in ipairs({ { 2, "" }, { 2, "x" }, { 2, "xy" }, { 3, "" }, { 3, "xz" }, { 3, "xyz" } }) do
		local dims, wrap = case[1], case[2]
		local nb, points, size = scene(dims, wrap, rng)
		for t = 1, 30 do
			local q = {}
			for a = 1, dims do q[a] = rng() * size[a] end
			local r, k = rng() * 8, 1 + math.floor(rng() * 6)
			for _, method in ipairs({ "auto", "sphere", "cube", "nonempty", "brute" }) do
				local args = { unpack(q) }
				args[dims + 1] = r
				args[dims + 2] = { method = method }
				local ids, dists, used = nb:within(unpack(args, 1, dims + 2))
				same(ids, dists, brute(points, q, r, nil, size, wrap), ("%dD %s within %s"):format(dims, wrap, method))
				assert(used == method or method == "auto")
				args = { unpack(q) }
				args[dims + 1] = k
				args[dims + 2] = (t % 2 == 0) and r or nil
				args[dims + 3] = { method = method }
				ids, dists = nb:nearest(unpack(args, 1, dims + 3))
				same(ids, dists, brute(points, q, (t % 2 == 0) and r or math.huge, k, size, wrap),
					("%dD %s nearest %s"):format(dims, wrap, method))
			end
		end
		-- moves across cells and the wrap, then again
		for id, p in pairs(points) do
			for a = 1, dims do p[a] = p[a] + (rng() - 0.5) * 6 end
			for a = 1, dims do
				if wrap:find(("xyz"):sub(a, a), 1, true) then p[a] = p[a] % size[a]
				else p[a] = math.max(0, math.min(size[a], p[a])) end
			end
			assert(nb:move(id, unpack(p)))
		end
		local q = {}
		for a = 1, dims do q[a] = size[a] / 3 end
		local args = { unpack(q) }
		args[#args + 1] = 5
		same(select(1, nb:within(unpack(args))), select(2, nb:within(unpack(args))),
			brute(points, q, 5, nil, size, wrap), "after moves")
		nb:close()
	end
end)

test("neighbours: neighbours_many refills the into tables and equals single queries", function()
	local rng = h.lcg(5)
	local nb, points, size = scene(2, "x", rng)
	local into = {}
	for round = 1, 2 do
		local asked, near, dists, method = nb:neighbours_many(3, { k = 4, threads = 2, into = into })
		assert(into.asked == asked and into.near == near and into.dists == dists)
		assert(type(method) == "string")
		assert(#asked == nb:count())
		for i, id in ipairs(asked) do
			local want = brute(points, points[id], 3, 4, size, "x", id)
			same(near[i], dists[i], want, "many " .. i)
		end
		local first = near[1]
		local again = select(2, nb:neighbours_many(3, { k = 4, into = into }))
		assert(again[1] == first, "inner lists are reused")
		-- a removal shrinks the lists
		local gone = asked[#asked]
		nb:remove(gone)
		points[gone] = nil
		asked = nb:neighbours_many(3, { into = into })
		assert(#asked == nb:count())
	end
	nb:close()
end)

test("neighbours: bad input fails clearly", function()
	local nb = assert(gridtree.neighbours { width = 10, height = 10, wrap = "y" })
	local id = assert(nb:add(1, 1))
	local none, msg = nb:add(11, 1)
	assert(none == nil and msg:find("outside the world"), msg)
	assert(nb:add(1, 25)) -- y wraps
	raises("finite", nb.add, nb, 0 / 0, 1)
	raises("radius must be >= 0", nb.within, nb, 1, 1, -1)
	raises("k must be", nb.nearest, nb, 1, 1, 0)
	raises("method must be", nb.within, nb, 1, 1, 2, { method = "kd" })
	raises("unknown option", nb.within, nb, 1, 1, 2, { colour = 1 })
	nb:remove(id)
	raises("stale point id", nb.move, nb, id, 1, 1)
	raises("stale point id", nb.remove, nb, id)
	assert(not nb:valid(id))
	raises("width and height", gridtree.neighbours, { width = 3 })
	raises("wrap names z", gridtree.neighbours, { width = 3, height = 3, wrap = "z" })
	nb:close()
	raises("closed", nb.count, nb)
end)
