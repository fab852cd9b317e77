-- gridtree.new_crowd: crowd objects of their own (workers and frame-budget schedule each), against
-- world:nearest; several schedules over one world; lifetimes with the world.
local h = ...
local test, raises, lcg, random_free, indexed_map = h.test, h.raises, h.lcg, h.random_free, h.indexed_map
local gridtree = require "gridtree"
local unpack = table.unpack or unpack -- LuaJIT has the 5.1 global

local MAP = "assets/maps/small.map"

-- A world of 80 objects (every 4th a healer) and 30 agents' positions.
local function setting()
	local map = indexed_map()
	local world = gridtree.new_world(map, {leaf = 8})
	local next_number = lcg(5)
	for i = 1, 80 do
		local x, y = random_free(map, next_number)
		world:add(x, y, i % 4 == 0 and "healer" or "orc")
	end
	local xs, ys = {}, {}
	for i = 1, 30 do xs[i], ys[i] = random_free(map, next_number) end
	return map, world, xs, ys
end

test("crowd:nearest answers as world:nearest does, for every method and thread count", function()
	local map, world, xs, ys = setting()
	local k = 3
	for _, def in ipairs({{}, {threads = 1}, {threads = 2, method = "batch"}, {method = "each"}, {method = "field"}}) do
		local crowd = gridtree.new_crowd(world, def)
		assert(crowd:threads() >= 1 and (def.threads == nil or crowd:threads() == def.threads))
		local ids, dists, counts, served = crowd:nearest(xs, ys, k, "healer")
		assert(served == #xs)
		for i = 1, #xs do
			local one_ids, one_d = world:nearest(xs[i], ys[i], k, "healer")
			assert(counts[i] == #one_ids, ("agent %d: %d answers, nearest gives %d"):format(i, counts[i], #one_ids))
			for r = 1, counts[i] do
				assert(dists[(i - 1) * k + r] == one_d[r])
				assert(world:valid(ids[(i - 1) * k + r]))
			end
		end
		crowd:close()
	end
	world:close()
	map:close()
end)

test("two crowds keep two schedules: each serves its own agents round robin", function()
	local map, world, xs, ys = setting()
	local a, b = gridtree.new_crowd(world, {method = "each"}), gridtree.new_crowd(world, {method = "each"})
	local out_a, out_b = {{}, {}, {}}, {{}, {}, {}}
	-- The first budgeted call of a schedule has no measured cost yet and serves everyone.
	local _, _, _, first_a = a:nearest(xs, ys, 1, "healer", {into = out_a, budget_us = 1e-3})
	local _, _, _, first_b = b:nearest(xs, ys, 1, "orc", {into = out_b, budget_us = 1e-3})
	assert(first_a == #xs and first_b == #xs, "b's schedule is its own, not a's")
	-- Then a nanosecond a frame serves one agent each frame, the most stale first: every agent once
	-- in #xs frames, on each crowd independently of the other's calls.
	local seen_a, seen_b = {}, {}
	for _ = 1, #xs do
		for i = 1, #xs do out_a[3][i], out_b[3][i] = false, false end
		local _, _, _, served_a = a:nearest(xs, ys, 1, "healer", {into = out_a, budget_us = 1e-3})
		b:nearest(xs, ys, 1, "orc", {into = out_b, budget_us = 1e-3})
		assert(served_a == 1)
		for i = 1, #xs do
			if out_a[3][i] then seen_a[i] = (seen_a[i] or 0) + 1 end
			if out_b[3][i] then seen_b[i] = (seen_b[i] or 0) + 1 end
		end
	end
	for i = 1, #xs do assert(seen_a[i] == 1 and seen_b[i] == 1, ("agent %d served %s and %s times"):format(i, seen_a[i], seen_b[i])) end
	a:close()
	b:close()
	world:close()
	map:close()
end)

test("max_agents: a count a call, most stale first, the same agents for the same calls", function()
	local map, world, xs, ys = setting()
	local function run(crowd, frames)
		local out, served_at = {{}, {}, {}}, {}
		local opts = {into = out, max_agents = 7}
		for f = 1, frames do
			for i = 1, #xs do out[3][i] = false end
			local _, _, _, served = crowd:nearest(xs, ys, 2, "healer", opts)
			assert(served == 7, ("frame %d served %d"):format(f, served))
			for i = 1, #xs do
				if out[3][i] then served_at[#served_at + 1] = i end
			end
		end
		return served_at, out
	end
	local a, b = gridtree.new_crowd(world, {method = "batch", threads = 2}), gridtree.new_crowd(world, {method = "each"})
	local order_a, out = run(a, 6)
	local order_b = run(b, 6)
	assert(#order_a == 42 and table.concat(order_a, " ") == table.concat(order_b, " "), "the same agents, whatever the method")
	-- 30 agents, 7 a frame, round robin: frame f serves answers 7(f - 1) + 1 .. 7f, agent 1 after agent 30.
	for f = 1, 6 do
		local expected = {}
		for j = 7 * (f - 1), 7 * f - 1 do expected[#expected + 1] = j % 30 + 1 end
		table.sort(expected)
		local got = {unpack(order_a, 7 * (f - 1) + 1, 7 * f)} -- in agent order within a frame
		assert(table.concat(got, " ") == table.concat(expected, " "), ("frame %d served %s"):format(f, table.concat(got, " ")))
	end
	-- The answers are the ones world:nearest gives.
	for i = 1, #xs do
		local one_ids, one_d = world:nearest(xs[i], ys[i], 2, "healer")
		assert(out[3][i] == false or out[3][i] == #one_ids)
		for r = 1, #one_ids do assert(out[2][(i - 1) * 2 + r] == one_d[r] and out[1][(i - 1) * 2 + r] == one_ids[r]) end
	end
	raises("max_agents needs into tables", a.nearest, a, xs, ys, 1, "healer", {max_agents = 3})
	raises("max_agents must be an integer from 1", a.nearest, a, xs, ys, 1, "healer", {into = {{}, {}, {}}, max_agents = 0})
	raises("unknown option 'max_agents'", world.nearest_many, world, xs, ys, 1, "healer", {into = {{}, {}, {}}, max_agents = 3})
	-- With a budget as well: at most max_agents, fewer when the budget says so.
	local _, _, _, served = a:nearest(xs, ys, 1, "healer", {into = {{}, {}, {}}, max_agents = 5, budget_us = 1e-3})
	assert(served == 1, "a nanosecond's budget serves one agent even under max_agents")
	a:close()
	b:close()
	world:close()
	map:close()
end)

test("crowd errors, and lifetimes: the world closes after its last crowd", function()
	local map, world, xs, ys = setting()
	local crowd = gridtree.new_crowd(world)
	raises("unknown option 'threads'", crowd.nearest, crowd, xs, ys, 1, "healer", {threads = 2})
	raises("budget_us needs into tables", crowd.nearest, crowd, xs, ys, 1, "healer", {budget_us = 100})
	raises("k must be an integer from 1 to 255", crowd.nearest, crowd, xs, ys, 0, "healer")
	raises("agent 2: coordinates must be finite numbers", crowd.nearest, crowd, {1.5, 0 / 0}, {1.5, 1.5}, 1, "healer")
	raises("method must be", gridtree.new_crowd, world, {method = "fast"})
	raises("threads must be an integer from 0", gridtree.new_crowd, world, {threads = -1})
	raises("unknown option 'leaf'", gridtree.new_crowd, world, {leaf = 2})
	raises("gridtree.World expected", gridtree.new_crowd, map)
	assert(tostring(crowd):find("gridtree.Crowd", 1, true))
	-- Closing the world: its methods and the crowd's refuse, and the crowd still closes cleanly.
	world:close()
	raises("world is closed", world.count, world)
	raises("the crowd's world is closed", crowd.nearest, crowd, xs, ys, 1, "healer")
	raises("world is closed", gridtree.new_crowd, world)
	assert(tostring(world):find("closed", 1, true))
	crowd:close()
	crowd:close() -- twice is fine
	raises("crowd is closed", crowd.nearest, crowd, xs, ys, 1, "healer")
	assert(tostring(crowd):find("closed", 1, true))
	-- A crowd left to the collector frees its workers, and lets its world go.
	local world2 = gridtree.new_world(map)
	gridtree.new_crowd(world2)
	world2 = nil -- luacheck: ignore
	collectgarbage()
	collectgarbage()
	map:close()
	-- With to-be-closed variables (Lua 5.4).
	if _VERSION == "Lua 5.4" then
		local chunk = assert(load([[
			local gridtree, map = ...
			local world <close> = gridtree.new_world(map)
			local crowd <close> = gridtree.new_crowd(world)
			return crowd
		]]))
		local map3 = assert(gridtree.load_map(MAP))
		local crowd3 = chunk(gridtree, map3)
		raises("crowd is closed", crowd3.nearest, crowd3, xs, ys, 1, "healer")
		map3:close()
	end
end)

-- Ties are broken by id (docs/crowds.md): objects two and three to a point, agents on objects
-- and anywhere, on a real map when the data is there. Every method and worker count of
-- nearest_many and a crowd object gives the same ids and distances, and those of a brute force
-- that prices every object with map:distance and sorts by distance, then id (unsigned).
test("nearest_many and crowds: ties by id, the same answers by every method and thread count", function()
	local data = os.getenv("GRIDTREE_DATA") or "../shared/data"
	local map = gridtree.load_map(data .. "/maps/bgmaps/AR0602SR.map")
	if map then
		assert(map:build_index{cell = 4})
	else
		print("note: no shared map data at " .. data .. ": ties checked on assets/maps/small.map")
		map = indexed_map()
	end
	local world = gridtree.new_world(map)
	local next_number = lcg(11)
	local objects = {}
	for _ = 1, 120 do
		local x, y = random_free(map, next_number)
		for _ = 1, 2 + math.floor(next_number() * 2) do
			local word = next_number() < 0.5 and "orc" or "troll"
			objects[#objects + 1] = {id = world:add(x, y, word), x = x, y = y, word = word}
		end
	end
	local xs, ys = {}, {}
	for i = 1, 600 do
		if i % 2 == 0 then
			local o = objects[1 + math.floor(next_number() * #objects)]
			xs[i], ys[i] = o.x, o.y
		else
			xs[i], ys[i] = random_free(map, next_number)
		end
	end
	local k = 3
	local function same(a_ids, a_d, a_n, b_ids, b_d, b_n, what)
		for i = 1, #xs do
			assert(a_n[i] == b_n[i], ("%s, agent %d: %d answers, not %d"):format(what, i, b_n[i], a_n[i]))
			for r = (i - 1) * k + 1, (i - 1) * k + a_n[i] do
				assert(a_ids[r] == b_ids[r] and a_d[r] == b_d[r], ("%s, agent %d: answers differ"):format(what, i))
			end
		end
	end
	local ids, dists, counts = world:nearest_many(xs, ys, k, "orc", {method = "batch", threads = 1})
	for _, opts in ipairs({{method = "batch", threads = 2}, {method = "field", threads = 1}, {method = "field", threads = 2},
		{method = "auto", threads = 2}, {}}) do
		local i2, d2, c2 = world:nearest_many(xs, ys, k, "orc", opts)
		same(ids, dists, counts, i2, d2, c2, ("nearest_many %s on %s"):format(opts.method or "auto", opts.threads or "all"))
	end
	for _, def in ipairs({{method = "batch", threads = 2}, {method = "field", threads = 1}, {threads = 2}}) do
		local crowd = gridtree.new_crowd(world, def)
		local i2, d2, c2 = crowd:nearest(xs, ys, k, "orc")
		same(ids, dists, counts, i2, d2, c2, "crowd " .. (def.method or "auto"))
		crowd:close()
	end
	local ult = math.ult or function(a, b) return a < b end -- LuaJIT: ids are numbers below 2^53
	local ties = 0
	for i = 1, 300 do -- half the agents: on objects and anywhere
		local priced = {}
		for _, o in ipairs(objects) do
			local d = o.word == "orc" and map:distance(xs[i], ys[i], o.x, o.y) or math.huge
			if d < math.huge then priced[#priced + 1] = {d = d, id = o.id} end
		end
		table.sort(priced, function(a, b)
			if a.d ~= b.d then return a.d < b.d end
			return ult(a.id, b.id)
		end)
		assert(counts[i] == math.min(k, #priced), ("agent %d: %d answers, the brute force has %d"):format(i, counts[i], #priced))
		for r = 1, counts[i] do
			local slot = (i - 1) * k + r
			assert(ids[slot] == priced[r].id and dists[slot] == priced[r].d,
				("agent %d, answer %d: %s at %.17g, the brute force %s at %.17g"):format(i, r, ids[slot], dists[slot], priced[r].id, priced[r].d))
			if r > 1 and priced[r].d == priced[r - 1].d then ties = ties + 1 end
		end
	end
	assert(ties > 0, "no tie to test")
	world:close()
	map:close()
end)
