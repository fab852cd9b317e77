-- Replays a `gridtree workload` directory through the Lua API and prints the figures that
-- `gridtree bench-knn` prints from C, so the two can be compared call for call.
-- Usage: lua5.4 bench/bench_lua.lua MAP INDEX WORKLOAD_DIR LEAF
local gridtree = require "gridtree"
local map_path, index_path, dir, leaf = arg[1], arg[2], arg[3], tonumber(arg[4] or "16")
local map = assert(gridtree.load_map(map_path))
assert(map:load_index(index_path))
local world = gridtree.new_world(map, {leaf = leaf})

local function words_of(fields, from)
	local t = {}
	for i = from, #fields do t[#t + 1] = fields[i] end
	return t
end

local function split(line)
	local t = {}
	for w in line:gmatch("%S+") do t[#t + 1] = w end
	return t
end

local handle = {}
local objects = 0
for line in io.lines(dir .. "/objects.txt") do
	local f = split(line)
	handle[tonumber(f[1])] = assert(world:add(tonumber(f[2]), tonumber(f[3]), words_of(f, 4)))
	objects = objects + 1
end

-- Moves grouped per timestamp into the arrays move_many takes, built before any timing.
local frames, last = {}, 0
for line in io.lines(dir .. "/updates.txt") do
	local f = split(line)
	assert(f[2] == "move", "bench_lua handles move-only workloads (no --churn)")
	local t = tonumber(f[1])
	local frame = frames[t]
	if not frame then
		frame = {ids = {}, xs = {}, ys = {}}
		frames[t] = frame
	end
	local n = #frame.ids + 1
	frame.ids[n], frame.xs[n], frame.ys[n] = handle[tonumber(f[3])], tonumber(f[4]), tonumber(f[5])
	if t > last then last = t end
end
local queries = {}
for line in io.lines(dir .. "/queries.txt") do
	local f = split(line)
	local t = tonumber(f[1])
	queries[t] = queries[t] or {}
	table.insert(queries[t], {x = tonumber(f[2]), y = tonumber(f[3]), k = tonumber(f[4]), words = words_of(f, 5)})
	if t > last then last = t end
end

local ids, dists = {}, {}
local into = {into = {ids, dists}}
local update_seconds, query_seconds, query_count, moved = 0, 0, 0, 0
local clock = os.clock
for t = 0, last do
	local frame = frames[t]
	if frame then
		local start = clock()
		assert(world:move_many(frame.ids, frame.xs, frame.ys))
		update_seconds = update_seconds + (clock() - start)
		moved = moved + #frame.ids
	end
	local batch = queries[t]
	if batch then
		local start = clock()
		for i = 1, #batch do
			local q = batch[i]
			world:nearest(q.x, q.y, q.k, q.words, into)
		end
		query_seconds = query_seconds + (clock() - start)
		query_count = query_count + #batch
	end
end
print(("objects %d"):format(objects))
print(("update_us_per_timestamp %.3f"):format(last > 0 and update_seconds * 1e6 / last or 0))
print(("moves_per_timestamp %.1f"):format(last > 0 and moved / last or 0))
print(("query_us %.3f"):format(query_count > 0 and query_seconds * 1e6 / query_count or 0))
