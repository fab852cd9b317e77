-- The Lua API against brute force written in Lua, every error case, lifetimes and a
-- garbage-free frame loop.
local h = ...
local test, raises, lcg, random_free, indexed_map = h.test, h.raises, h.lcg, h.random_free, h.indexed_map
local gridtree = require "gridtree"
local unpack = table.unpack or unpack -- LuaJIT has the 5.1 global

local MAP = "assets/maps/small.map"

-- n objects at random free points: every `every`-th a healer, the rest orcs.
local function scatter(world, map, rng, n, every)
	for i = 1, n do
		local x, y = random_free(map, rng)
		world:add(x, y, i % every == 0 and "healer" or "orc")
	end
end

-- An indexed map, a world of 60 objects scattered over it (every `every`-th a healer) and the
-- random numbers that placed them.
local function scattered_world(leaf, seed, every)
	local map = indexed_map()
	local world = gridtree.new_world(map, {leaf = leaf})
	local rng = lcg(seed)
	scatter(world, map, rng, 60, every)
	return map, world, rng
end

test("load_map returns nil, message for files that cannot be maps", function()
	local map, err = gridtree.load_map("/nonexistent/x.map")
	assert(map == nil and err:find("cannot open", 1, true))
	local path = os.tmpname()
	local f = assert(io.open(path, "w")); f:write("type octile\nheight 2\nwidth 3\nmap\n...\n.\n"); f:close()
	map, err = gridtree.load_map(path)
	os.remove(path)
	assert(map == nil and err:find(":6: row 1 has 1 characters", 1, true), err)
	raises("string expected", gridtree.load_map, {})
end)

test("map basics: size, is_free, visible, tostring", function()
	local map = assert(gridtree.load_map(MAP))
	local w, hgt = map:size()
	assert(w == 48 and hgt == 32)
	assert(map:is_free(1.5, 17.5) and not map:is_free(0.5, 0.5) and not map:is_free(-1, 3))
	assert(tostring(map):find("gridtree.Map 48x32", 1, true))
	raises("finite", map.is_free, map, 0 / 0, 1)
	raises("number expected", map.visible, map, 1, 2, 3)
end)

test("distance and path agree, with or without an index", function()
	local plain = assert(gridtree.load_map(MAP))
	local map = indexed_map()
	local rng = lcg(7)
	for _ = 1, 60 do
		local x1, y1 = random_free(map, rng)
		local x2, y2 = random_free(map, rng)
		local d = map:distance(x1, y1, x2, y2)
		assert(math.abs(d - plain:distance(x1, y1, x2, y2)) < 1e-9 * (1 + d)) -- EHL equals the oracle
		local pts, len = map:path(x1, y1, x2, y2)
		assert(pts[1] == x1 and pts[2] == y1 and pts[#pts - 1] == x2 and pts[#pts] == y2)
		local total = 0
		for i = 1, #pts - 2, 2 do
			assert(map:visible(pts[i], pts[i + 1], pts[i + 2], pts[i + 3]))
			total = total + math.sqrt((pts[i + 2] - pts[i]) ^ 2 + (pts[i + 3] - pts[i + 1]) ^ 2)
		end
		assert(math.abs(total - d) < 1e-9 * (1 + d) and math.abs(len - d) < 1e-9 * (1 + d))
	end
	local d, err = map:distance(0.5, 0.5, 1.5, 17.5)
	assert(d == nil and err:find("blocked", 1, true))
end)

test("build_index options and save/load", function()
	local map = assert(gridtree.load_map(MAP))
	raises("unknown option 'speed'", map.build_index, map, {speed = 3})
	raises("cell must be", map.build_index, map, {cell = 0})
	raises("no index", map.save_index, map, os.tmpname())
	local seen = 0
	assert(map:build_index{cell = 4, threads = 1, progress = function(f) seen = seen + 1 end})
	assert(seen > 0)
	raises("progress callback failed: stop", map.build_index, map, {progress = function() error("stop", 0) end})
	local path = os.tmpname()
	assert(map:save_index(path))
	local again = assert(gridtree.load_map(MAP))
	assert(again:load_index(path))
	assert(again:distance(1.5, 17.5, 40.5, 20.5) == map:distance(1.5, 17.5, 40.5, 20.5))
	local f = assert(io.open(path, "r+b")); f:seek("set", 100); f:write("X"); f:close()
	local ok, err = again:load_index(path)
	os.remove(path)
	assert(ok == nil and err:find("corrupted", 1, true), err)
end)

test("world objects: add, move, keywords, remove, stale ids", function()
	local map = indexed_map()
	local world = gridtree.new_world(map, {leaf = 4})
	raises("unknown option 'size'", gridtree.new_world, map, {size = 4})
	local a = world:add(1.5, 17.5, {"healer", "elf", "healer"})
	local b = world:add(40.5, 20.5, "orc warrior")
	assert(a % 1 == 0 and world:count() == 2 and world:valid(a) and not world:valid(0))
	if math.type then assert(math.type(a) == "integer") end -- Lua 5.3+
	local kw = world:keywords(a)
	table.sort(kw)
	assert(#kw == 2 and kw[1] == "elf" and kw[2] == "healer")
	assert(world:move(a, 2.5, 17.5))
	local x, y = world:position(a)
	assert(x == 2.5 and y == 17.5)
	local ok, err = world:move(a, 0.5, 0.5)
	assert(ok == nil and err:find("blocked", 1, true))
	local none, why = world:add(0.5, 0.5, "x")
	assert(none == nil and why:find("blocked", 1, true))
	world:set_keywords(b, {"orc"})
	assert(#world:keywords(b) == 1)
	world:remove(a)
	assert(not world:valid(a) and world:count() == 1)
	raises("stale object id", world.move, world, a, 1, 1)
	raises("stale object id", world.position, world, a)
	raises("finite", world.add, world, 0 / 0, 1)
	raises("keywords must be strings", world.add, world, 1, 1, {1, 2})
	assert(world:validate())
end)

test("move_many moves everything or nothing", function()
	local map = indexed_map()
	local world = gridtree.new_world(map)
	local ids = {world:add(1.5, 17.5, "a"), world:add(2.5, 17.5, "b")}
	assert(world:move_many(ids, {3.5, 4.5}, {17.5, 17.5}))
	local x = world:position(ids[2])
	assert(x == 4.5)
	local ok, err = world:move_many(ids, {5.5, 0.5}, {17.5, 0.5})
	assert(ok == nil and err:find("entry 2", 1, true))
	assert(world:position(ids[1]) == 3.5) -- unchanged
	raises("same length", world.move_many, world, ids, {1}, {1, 2})
	raises("finite numbers", world.move_many, world, ids, {1, 0 / 0}, {1, 1})
	-- many more entries than the scratch space holds at first: it grows while reading them
	local many, xs, ys = {}, {}, {}
	for i = 1, 1000 do many[i], xs[i], ys[i] = world:add(1.5 + i % 5, 17.5, "c"), 1.5 + (i + 1) % 5, 17.5 end
	assert(world:move_many(many, xs, ys))
	for i = 1, 1000 do assert(world:position(many[i]) == xs[i], i) end
	assert(world:validate())
end)

-- Brute force in Lua: the k best of every object passing the filters.
local function brute(world, map, objects, x, y, kind, k_or_r, words, opts)
	opts = opts or {}
	local want = {}
	for _, w in ipairs(words) do want[w] = true end
	local distinct = 0
	for _ in pairs(want) do distinct = distinct + 1 end
	local out = {}
	for id, o in pairs(objects) do
		local have = 0
		local seen = {}
		for _, w in ipairs(o.kw) do
			if want[w] and not seen[w] then have = have + 1 end
			seen[w] = true
		end
		local need = opts.min_match or (kind == "top" and 0 or distinct)
		local ok = have >= need
		if ok and opts.region then
			local r = opts.region
			ok = o.x >= r[1] and o.x <= r[3] and o.y >= r[2] and o.y <= r[4]
		end
		if ok then
			local d = opts.metric == "euclid" and math.sqrt((o.x - x) ^ 2 + (o.y - y) ^ 2) or map:distance(x, y, o.x, o.y)
			if kind == "top" then -- the documented score; `have` counts distinct words
				local missing = distinct - have
				if opts.alpha then
					d = opts.alpha * d + (1 - opts.alpha) * 100 * missing / math.max(distinct, 1)
				else
					d = d + (opts.miss_cost or 20) * missing
				end
			end
			if d < math.huge and (kind ~= "within" or d <= k_or_r) then out[#out + 1] = d end
		end
	end
	table.sort(out)
	if kind ~= "within" then
		for i = #out, k_or_r + 1, -1 do out[i] = nil end
	end
	return out
end

test("a long random session equals a brute force written in Lua", function()
	local map = indexed_map()
	local world = gridtree.new_world(map, {leaf = 4})
	local rng = lcg(99)
	local vocabulary = {"healer", "elf", "orc", "mage", "guard"}
	local objects, ids = {}, {}
	local function words()
		local t = {}
		for _, w in ipairs(vocabulary) do if rng() < 0.4 then t[#t + 1] = w end end
		return t
	end
	local checked, tops = 0, 0
	for step = 1, 600 do
		local r = rng()
		if r < 0.3 or #ids < 5 then
			local x, y = random_free(map, rng)
			local kw = words()
			local id = world:add(x, y, kw)
			objects[id] = {x = x, y = y, kw = kw}
			ids[#ids + 1] = id
		elseif r < 0.75 then
			local i = 1 + math.floor(rng() * #ids)
			local x, y = random_free(map, rng)
			assert(world:move(ids[i], x, y))
			objects[ids[i]].x, objects[ids[i]].y = x, y
		elseif r < 0.85 then
			local i = 1 + math.floor(rng() * #ids)
			world:remove(ids[i])
			objects[ids[i]] = nil
			table.remove(ids, i)
		else
			local i = 1 + math.floor(rng() * #ids)
			local kw = words()
			world:set_keywords(ids[i], kw)
			objects[ids[i]].kw = kw
		end
		if step % 3 == 0 then
			local x, y = random_free(map, rng)
			local q = {}
			-- query words may repeat, and "dragon" and "wyvern" are words no object ever has
			for _, w in ipairs(vocabulary) do if rng() < 0.25 then q[#q + 1] = w end end
			for _, w in ipairs({"dragon", "wyvern", "healer", "dragon"}) do if rng() < 0.15 then q[#q + 1] = w end end
			local k = math.floor(rng() * 5)
			local kinds = {"nearest", "within", "top", "euclid", "top"}
			local kind = kinds[1 + math.floor(rng() * 5)]
			local got, expect
			if kind == "within" then
				local _, d = world:within(x, y, 15, q)
				got, expect = d, brute(world, map, objects, x, y, "within", 15, q)
			elseif kind == "top" then
				local choice = rng()
				local opts = choice < 0.3 and {} or choice < 0.6 and {miss_cost = rng() * 30} or {alpha = 0.1 + 0.9 * rng()}
				local _, d = world:top(x, y, k, q, opts)
				got, expect = d, brute(world, map, objects, x, y, "top", k, q, opts)
			elseif kind == "euclid" then
				local _, d = world:nearest(x, y, k, q, {metric = "euclid"})
				got, expect = d, brute(world, map, objects, x, y, "nearest", k, q, {metric = "euclid"})
			else
				local opts = rng() < 0.5 and {region = {5, 5, 30, 25}} or {min_match = math.floor(rng() * 2)}
				local _, d = world:nearest(x, y, k, q, opts)
				got, expect = d, brute(world, map, objects, x, y, "nearest", k, q, opts)
			end
			if kind == "top" then tops = tops + 1 end
			assert(#got == #expect, kind .. ": " .. #got .. " results, brute force " .. #expect)
			for i = 1, #got do assert(math.abs(got[i] - expect[i]) < 1e-9 * (1 + expect[i]), kind) end
			checked = checked + 1
		end
	end
	assert(checked == 200 and tops > 30 and world:validate())
end)

test("query options: into, stats, unknown words, errors", function()
	local map = indexed_map()
	local world = gridtree.new_world(map)
	for i = 1, 10 do assert(world:add(1.5 + i * 0.5, 17.5, i % 2 == 0 and "healer" or "orc")) end
	local ids, dists = {}, {}
	local r1, r2 = world:nearest(1.5, 17.5, 3, "healer", {into = {ids, dists}})
	assert(r1 == ids and r2 == dists and #ids == 3 and dists[1] == 1 and dists[3] == 3)
	world:nearest(1.5, 17.5, 1, "healer", {into = {ids, dists}})
	assert(#ids == 1 and #dists == 1) -- refilled, the rest cleared
	local _, _, stats = world:nearest(1.5, 17.5, 2, nil, {stats = true})
	-- objects the query point sees along the row need no pricing call (docs/grid-tree.md: sight)
	assert(stats.distance_calls >= 0 and stats.nodes_popped >= 1)
	assert(#world:nearest(1.5, 17.5, 3, {"healer", "dragon"}) == 0) -- unknown word: nothing matches
	assert(#world:nearest(1.5, 17.5, 3, "healer", {any = {"orc"}}) == 0)
	assert(#world:nearest(1.5, 17.5, 20, nil, {none = "orc"}) == 5)
	raises("k must be", world.nearest, world, 1, 1, -1)
	raises("unknown option 'radius'", world.nearest, world, 1.5, 17.5, 1, nil, {radius = 3})
	raises("metric must be", world.nearest, world, 1.5, 17.5, 1, nil, {metric = "manhattan"})
	raises("region must", world.nearest, world, 1.5, 17.5, 1, nil, {region = {3, 3, 1, 1}})
	raises("alpha must be", world.top, world, 1.5, 17.5, 1, "healer", {alpha = 0})
	local none, err = world:nearest(0.5, 0.5, 1)
	assert(none == nil and err:find("blocked", 1, true))
	local _, scores = world:top(1.5, 17.5, 2, {"healer", "elf"}, {alpha = 0.5})
	-- alpha * distance + (1 - alpha) * 100 * share missing: the healer 1 unit away lacks "elf"
	assert(#scores == 2 and math.abs(scores[1] - (0.5 * 1 + 0.5 * 100 * 0.5)) < 1e-9, scores[1])
end)

test("ties: equal distances by ascending id, the k-th place too, in every query", function()
	local map = indexed_map()
	local world = gridtree.new_world(map, {leaf = 4})
	local rng = lcg(30)
	for _ = 1, 12 do -- piles of five objects on one point; the first goes and comes back (a larger id)
		local x, y = random_free(map, rng)
		local pile = {}
		for i = 1, 5 do pile[i] = world:add(x, y, i % 2 == 0 and "a" or "b") end
		world:remove(pile[1])
		world:add(x, y, "b")
	end
	local ties = 0
	for _ = 1, 40 do
		local x, y = random_free(map, rng)
		for _, opts in ipairs({{}, {metric = "euclid"}}) do
			local all_ids, all_d = world:nearest(x, y, 60, nil, opts)
			for i = 2, #all_ids do -- the answer's order: by distance, then by id
				assert(all_d[i - 1] < all_d[i] or (all_d[i - 1] == all_d[i] and all_ids[i - 1] < all_ids[i]))
				if all_d[i - 1] == all_d[i] then ties = ties + 1 end
			end
			for k = 1, 12 do -- k cuts through piles: always the first k of the full answer
				local ids = world:nearest(x, y, k, nil, opts)
				for i = 1, k do assert(ids[i] == all_ids[i], "nearest k " .. k) end
			end
			local within_ids = world:within(x, y, all_d[20], nil, opts)
			for i = 1, #within_ids do assert(within_ids[i] == all_ids[i], "within") end
		end
		local top_ids, scores = world:top(x, y, 60, "a")
		for i = 2, #top_ids do
			assert(scores[i - 1] < scores[i] or (scores[i - 1] == scores[i] and top_ids[i - 1] < top_ids[i]))
		end
	end
	assert(ties > 100)
end)

test("top: distance + miss_cost per missing distinct word, or the alpha blend", function()
	local map = indexed_map()
	local world = gridtree.new_world(map)
	local healer = world:add(2.5, 17.5, "healer")  -- 1 unit from the query point
	local elf = world:add(4.5, 17.5, "healer elf") -- 3 units
	local orc = world:add(1.5, 19.5, "orc")        -- 2 units, no query word at all
	local function scores(words, opts)
		local ids, s = world:top(1.5, 17.5, 3, words, opts)
		local by = {}
		for i, id in ipairs(ids) do by[id] = s[i] end
		return by, ids
	end
	local near = function(a, b) return math.abs(a - b) < 1e-9 end
	-- the default: 20 map units per missing word; every object is a candidate (min_match 0)
	local s, ids = scores({"healer", "elf"})
	assert(#ids == 3 and near(s[healer], 1 + 20) and near(s[elf], 3) and near(s[orc], 2 + 40))
	assert(ids[1] == elf and ids[2] == healer and ids[3] == orc)
	-- repeated words count once
	s = scores({"healer", "elf", "elf", "healer"})
	assert(near(s[healer], 21) and near(s[elf], 3) and near(s[orc], 42))
	-- each unknown word is one more missing word, for every object alike
	s = scores("healer dragon wyvern dragon")
	assert(near(s[healer], 1 + 40) and near(s[elf], 3 + 40) and near(s[orc], 2 + 60))
	s = scores({"healer", "elf"}, {miss_cost = 0})
	assert(near(s[healer], 1) and near(s[orc], 2))
	s = scores({"healer", "elf"}, {miss_cost = 2.5})
	assert(near(s[healer], 3.5) and near(s[orc], 7))
	-- alpha: alpha * distance + (1 - alpha) * 100 * (missing distinct words / distinct words)
	s = scores({"healer", "elf", "elf"}, {alpha = 0.5})
	assert(near(s[healer], 0.5 * 1 + 0.5 * 100 * 1 / 2) and near(s[elf], 0.5 * 3) and near(s[orc], 0.5 * 2 + 0.5 * 100))
	s = scores("healer dragon wyvern", {alpha = 0.25})
	assert(near(s[healer], 0.25 * 1 + 0.75 * 100 * 2 / 3) and near(s[orc], 0.25 * 2 + 0.75 * 100))
	s = scores({"healer"}, {alpha = 1})
	assert(near(s[healer], 1) and near(s[elf], 3) and near(s[orc], 2))
	s, ids = scores({"healer", "elf"}, {min_match = 1})
	assert(#ids == 2 and s[orc] == nil)
	raises("give alpha or miss_cost, not both", world.top, world, 1.5, 17.5, 1, "healer", {alpha = 0.5, miss_cost = 20})
	raises("miss_cost must be", world.top, world, 1.5, 17.5, 1, "healer", {miss_cost = -1})
	raises("unknown option 'alpha'", world.nearest, world, 1.5, 17.5, 1, "healer", {alpha = 0.5})
	raises("top ranks by path distance", world.top, world, 1.5, 17.5, 1, "healer", {metric = "euclid"})
end)

test("trace: the nodes a query popped and pruned", function()
	local map, world = scattered_world(4, 3, 5)
	local w, hgt = map:size()
	for _, kind in ipairs({"nearest", "within", "top"}) do
		local ids, _, stats, trace = world[kind](world, 1.5, 17.5, kind == "within" and 20 or 2, "healer", {stats = true, trace = true})
		assert(#ids > 0 and type(trace) == "table" and #trace % 6 == 0 and #trace > 0, kind)
		local popped, pruned = 0, 0
		for i = 1, #trace, 6 do
			local x0, y0, x1, y1, event, level = unpack(trace, i, i + 5)
			assert(x0 <= x1 and y0 <= y1 and x0 >= 0 and y0 >= 0 and level >= 0 and level % 1 == 0, kind)
			assert(event == 1 or event == 2 or event == 3, kind)
			if event == 1 then popped = popped + 1 else pruned = pruned + 1 end
			if i == 1 then assert(event == 1 and level == 0 and x0 == 0 and y0 == 0 and x1 >= w and y1 >= hgt, kind) end
		end
		assert(popped == stats.nodes_popped and (pruned > 0 or kind == "top"), kind) -- top keeps every object a candidate
	end
	local ids, dists, stats, trace = world:nearest(1.5, 17.5, 1, "healer", {trace = true})
	assert(#ids == 1 and #dists == 1 and stats == nil and #trace > 0)
	_, _, _, trace = world:nearest(1.5, 17.5, 1, "healer", {trace = true, metric = "euclid"})
	assert(type(trace) == "table" and #trace == 0) -- straight-line queries scan the leaf grid
end)

test("lifetimes: close, __close, a world keeps its map", function()
	local map = indexed_map()
	local world = gridtree.new_world(map)
	local id = world:add(1.5, 17.5, "a")
	map:close()
	raises("map is closed", map.size, map)
	assert(tostring(map) == "gridtree.Map (closed)")
	assert(#world:nearest(2.5, 17.5, 1) == 1) -- the world still has its map
	world:close()
	world:close() -- twice is harmless
	raises("world is closed", world.count, world)
	raises("world is closed", world.valid, world, id)
	if _VERSION == "Lua 5.4" then -- to-be-closed variables are 5.4 syntax: compiled only there
		local scoped = assert(load([[
			local gridtree, map = ...
			local world <close> = gridtree.new_world(map)
			world:add(1.5, 17.5, "a")
			return world
		]]))(gridtree, indexed_map())
		assert(tostring(scoped) == "gridtree.World (closed)")
	end
	collectgarbage()
end)

test("a frame loop allocates nothing", function()
	local map = indexed_map()
	local world = gridtree.new_world(map, {leaf = 8})
	local rng = lcg(5)
	local ids, xs, ys = {}, {}, {}
	for i = 1, 200 do
		local x, y = random_free(map, rng)
		ids[i], xs[i], ys[i] = world:add(x, y, i % 4 == 0 and "healer" or "orc"), x, y
	end
	local out_ids, out_d = {}, {}
	local into = {into = {out_ids, out_d}}
	local words = {"healer"}
	local function frame(f)
		for i = 1, #ids do
			local nx = xs[i] + ((i + f) % 3 - 1) * 0.25
			if map:is_free(nx, ys[i]) then xs[i] = nx end
		end
		world:move_many(ids, xs, ys)
		for q = 1, 10 do world:nearest(xs[q], ys[q], 3, words, into) end
	end
	for f = 1, 50 do frame(f) end -- warm up the scratch space
	collectgarbage()
	collectgarbage()
	local before = collectgarbage("count")
	for f = 1, 1000 do frame(f) end
	local grown = collectgarbage("count") - before
	assert(grown < 1, ("the frame loop allocated %.1f KB"):format(grown))
end)

test("nearest_many: every agent's nearest as world:nearest says, into tables, a frame budget", function()
	local map, world, rng = scattered_world(8, 11, 3)
	local xs, ys = {}, {}
	for i = 1, 40 do xs[i], ys[i] = random_free(map, rng) end
	local wall_x, wall_y -- an agent inside a wall
	for x = 0, 47 do
		for y = 0, 31 do
			if not wall_x and not map:is_free(x + 0.5, y + 0.5) then wall_x, wall_y = x + 0.5, y + 0.5 end
		end
	end
	xs[41], ys[41] = assert(wall_x), wall_y
	local k = 3
	for _, opts in ipairs({{}, {threads = 1}, {threads = 2}, {method = "each"}, {method = "batch"}, {method = "field"}}) do
		local ids, dists, counts, served = world:nearest_many(xs, ys, k, "healer", opts)
		assert(served == #xs and counts[41] == -1)
		for i = 1, #xs do
			local one_ids, one_d = world:nearest(xs[i], ys[i], k, "healer")
			if one_ids == nil then
				assert(counts[i] == -1, "an agent in a wall counts -1")
			else
				assert(counts[i] == #one_ids, ("agent %d: %d answers, nearest gives %d"):format(i, counts[i], #one_ids))
				for r = 1, counts[i] do assert(dists[(i - 1) * k + r] == one_d[r]) end
			end
		end
	end
	-- into tables are refilled; with a budget only the served agents' entries change.
	local out = {{}, {}, {}}
	world:nearest_many(xs, ys, k, "healer", {into = out})
	local before = out[2][1]
	local _, _, _, first = world:nearest_many(xs, ys, k, "healer", {into = out, budget_us = 1e-3})
	assert(first == #xs, "the first budgeted frame, with no cost measured yet, serves everyone")
	for i = 1, #xs do out[3][i] = "untouched" end
	local _, _, counts, served = world:nearest_many(xs, ys, k, "healer", {into = out, budget_us = 1e-3})
	assert(counts == out[3] and served == 1, "a budget of a nanosecond serves one agent a frame")
	local changed = 0
	for i = 1, #xs do if counts[i] ~= "untouched" then changed = changed + 1 end end
	assert(changed == served and out[2][1] == before)
	-- Frames with into tables make no garbage once warm.
	for _ = 1, 5 do world:nearest_many(xs, ys, k, "healer", {into = out}) end
	collectgarbage()
	collectgarbage()
	local kb = collectgarbage("count")
	local opts = {into = out, threads = 2}
	for _ = 1, 200 do world:nearest_many(xs, ys, k, "healer", opts) end
	assert(collectgarbage("count") - kb < 1, "nearest_many with into tables allocated")
	raises("budget_us needs into tables", world.nearest_many, world, xs, ys, k, "healer", {budget_us = 100})
	raises("k must be an integer from 1 to 255", world.nearest_many, world, xs, ys, 0, "healer")
	raises("xs and ys must have the same length", world.nearest_many, world, xs, {1}, 1, "healer")
	raises("agent 2: coordinates must be finite numbers", world.nearest_many, world, {1.5, 0 / 0}, {1.5, 1.5}, 1, "healer")
	raises("method must be", world.nearest_many, world, xs, ys, 1, "healer", {method = "fast"})
	raises("into must be", world.nearest_many, world, xs, ys, 1, "healer", {into = {{}, {}}})
	raises("unknown option 'speed'", world.nearest_many, world, xs, ys, 1, "healer", {speed = 2})
	local ids = world:nearest_many({}, {}, 1, "healer")
	assert(#ids == 0)
	world:close()
	map:close()
end)

test("clock: a monotonic wall clock in seconds", function()
	local a = gridtree.clock()
	local b = gridtree.clock()
	assert(type(a) == "number" and b >= a and b - a < 1)
end)

test("README: the Lua quick start runs as written", function()
	local f = assert(io.open("README.md"))
	local readme = f:read("a")
	f:close()
	local code = readme:match("Lua quick start.-```lua\n(.-)```")
	assert(code and code:find("gridtree.new_world", 1, true), "no Lua quick start in README.md")
	local chunk = assert(load(code .. "return behind_wall, in_view, ids, dists, map, world\n", "=README.md"))
	local behind_wall, in_view, ids, dists, map, world = chunk()
	-- as its comment says: the healer in view is found, 10.77 away; the one behind the wall is
	-- 5 away in a straight line and 89.49 to walk
	assert(#ids == 1 and ids[1] == in_view and math.abs(dists[1] - 10.77) < 0.005, "the healer in view is found")
	assert(math.abs(dists[1] - map:distance(25.5, 10.5, 15.5, 14.5)) < 1e-9 and map:visible(25.5, 10.5, 15.5, 14.5))
	local x, y = world:position(behind_wall)
	assert(math.abs(math.sqrt((x - 25.5) ^ 2 + (y - 10.5) ^ 2) - 5) < 1e-9)
	assert(math.abs(map:distance(25.5, 10.5, x, y) - 89.49) < 0.005, "the other healer is round a wall")
	assert(select(2, code:gsub("\n", "\n")) == 5, "five lines")
	world:close()
	map:close()
end)

test("README: the Tiled quick start runs as written, in both READMEs", function()
	for _, file in ipairs({"README.md", "lua/README.md"}) do
		local f = assert(io.open(file))
		local text = f:read("a")
		f:close()
		local code = text:match("```lua\n(local map, level = .-)```")
		assert(code and code:find("courtyard.tmx", 1, true), "no Tiled example in " .. file)
		local env = setmetatable({gridtree = require "gridtree"}, {__index = _G})
		local chunk = assert(load(code .. "return map, level, world\n", "=" .. file, "t", env))
		local map, level, world = chunk()
		assert(world:count() == #level.objects and #level.objects == 7, file)
		local ids = world:nearest(3 * 16 + 8, 7 * 16 + 8, 2, "healer")
		assert(#ids == 2)
		local x, y = world:position(ids[1])
		assert(x == 3 * 16 + 8 and y == 2 * 16 + 8, "Mira, in pixels where Tiled put her")
		world:close()
		map:close()
	end
end)

test("argument positions: as written, and after self with colon syntax", function()
	-- lua/README.md, Errors: world.add(world, x, y, kw) names the keywords #4, world:add(x, y, kw) #3
	local map = assert(gridtree.load_map(MAP))
	local world = gridtree.new_world(map)
	-- called from a closure, not a tail call, so that Lua knows the function's name
	raises("bad argument #4 to 'add' (keywords must be strings)", function() local r = world.add(world, 1.5, 17.5, {1}) return r end)
	raises("bad argument #3 to 'add' (keywords must be strings)", function() local r = world:add(1.5, 17.5, {1}) return r end)
	local id = world:add(1.5, 17.5, "a")
	world:remove(id)
	raises("bad argument #2 to 'move' (stale object id)", function() local r = world.move(world, id, 1.5, 17.5) return r end)
	raises("bad argument #2 to 'build_index' (cell must be an integer from 1 to 4096)",
		function() local r = map.build_index(map, {cell = 0}) return r end)
end)

test("build_index: a budget nothing fits returns nil, message; progress gets fraction, stage", function()
	local map = assert(gridtree.load_map(MAP))
	local ok, err = map:build_index{budget = 0.0001}
	assert(ok == nil and err:find("no cell size fits", 1, true), err)
	local stages, last = {}, nil
	assert(map:build_index{budget = 1, progress = function(fraction, stage)
		assert(type(fraction) == "number" and fraction >= 0 and fraction <= 1)
		if stage ~= last then stages[#stages + 1], last = stage, stage end
	end})
	assert(table.concat(stages, ",") == "visibility graph,hub labels,cells,via labels", table.concat(stages, ","))
	assert(map:method() == "ehl")
	assert(map:build_index{budget = 1, uniform = true}) -- one cell size instead of regions
end)

test("build_index: a budget the build's peak passes returns nil, message; allow_high_peak builds it", function()
	local map = assert(gridtree.load_map(MAP))
	local ok, err = map:build_index{budget = 0.05}
	assert(ok == nil and err:find("budget 0.05 MB: the build held", 1, true) and
		err:find("more than twice the budget; on this map the least budget that holds is about", 1, true), err)
	assert(map:build_index{budget = 0.05, allow_high_peak = true})
	assert(map:method() == "ehl")
end)

test("unreachable: distance math.huge, path {} and math.huge, never a query answer", function()
	local path = os.tmpname()
	local f = assert(io.open(path, "w")); f:write("type octile\nheight 2\nwidth 3\nmap\n.@.\n.@.\n"); f:close()
	local map = assert(gridtree.load_map(path))
	os.remove(path)
	for _, method in ipairs({"oracle", "ehl"}) do
		if method == "ehl" then assert(map:build_index{cell = 1}) end
		assert(map:method() == method)
		assert(map:distance(0.5, 0.5, 2.5, 1.5) == math.huge)
		local pts, len = map:path(0.5, 0.5, 2.5, 1.5)
		assert(type(pts) == "table" and #pts == 0 and len == math.huge)
		local world = gridtree.new_world(map)
		local near = world:add(0.5, 1.5, "a")
		world:add(2.5, 0.5, "a")
		local ids = world:nearest(0.5, 0.5, 5, "a")
		assert(#ids == 1 and ids[1] == near)
		assert(#world:within(0.5, 0.5, math.huge, "a") == 1 and #world:top(0.5, 0.5, 5, "a") == 1)
		world:close()
	end
end)
