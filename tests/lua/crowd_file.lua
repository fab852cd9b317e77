-- The Lua side of tests/test_crowd_ties.sh: `gridtree crowd`'s input (a map, its EHL index, the
-- objects 'id x y kw ...' and the queries 'x y k kw ...' files) answered from Lua, printed as
-- `gridtree crowd` prints it ('id:dist' with 6 decimals, the file's ids), into OUT/lua_M_T.out for
-- world:nearest_many by each method M on T threads, and OUT/lua_nearest.out for world:nearest one
-- query at a time. The objects are added in the file's order, as the command adds them, so both
-- sides break ties by the same ids.
-- Usage: lua5.4 tests/lua/crowd_file.lua MAP INDEX OBJECTS QUERIES OUT
local gridtree = require "gridtree"
local map_path, index_path, objects_path, queries_path, out_dir = ...

local function words_of(line, skip)
	local words, n = {}, 0
	for w in line:gmatch("%S+") do
		n = n + 1
		if n > skip then words[#words + 1] = w end
	end
	return words
end

local map = assert(gridtree.load_map(map_path))
assert(map:load_index(index_path))
local world = gridtree.new_world(map)
local file_id = {} -- the library's id -> the file's
for line in io.lines(objects_path) do
	local id, x, y = line:match("^(%S+)%s+(%S+)%s+(%S+)")
	if id then file_id[assert(world:add(tonumber(x), tonumber(y), words_of(line, 3)))] = id end
end

-- The queries grouped by k and keywords (one nearest_many call each), their places kept.
local queries, groups, group_of = {}, {}, {}
for line in io.lines(queries_path) do
	local x, y, k = line:match("^(%S+)%s+(%S+)%s+(%S+)")
	if x then
		local q = {x = tonumber(x), y = tonumber(y), k = math.tointeger(tonumber(k)) or tonumber(k), words = words_of(line, 3)}
		local key = q.k .. "|" .. table.concat(q.words, " ")
		if not group_of[key] then
			group_of[key] = {k = q.k, words = q.words, xs = {}, ys = {}, members = {}}
			groups[#groups + 1] = group_of[key]
		end
		local g = group_of[key]
		g.xs[#g.xs + 1], g.ys[#g.ys + 1] = q.x, q.y
		g.members[#g.members + 1] = #queries + 1
		queries[#queries + 1] = q
	end
end

local function line_of(ids, dists, first, count)
	local parts = {}
	for r = 1, count do parts[r] = ("%s:%.6f"):format(file_id[ids[first + r]], dists[first + r]) end
	return table.concat(parts, " ")
end

local function write(name, lines)
	local f = assert(io.open(out_dir .. "/" .. name, "w"))
	for i = 1, #queries do f:write(lines[i], "\n") end
	f:close()
end

for _, method in ipairs({"each", "batch", "field", "auto"}) do
	for threads = 1, 2 do
		local lines = {}
		for _, g in ipairs(groups) do
			local ids, dists, counts = world:nearest_many(g.xs, g.ys, g.k, g.words, {method = method, threads = threads})
			for i, q in ipairs(g.members) do
				lines[q] = counts[i] < 0 and "invalid" or line_of(ids, dists, (i - 1) * g.k, counts[i])
			end
		end
		write(("lua_%s_%d.out"):format(method, threads), lines)
	end
end
local lines = {}
for i, q in ipairs(queries) do
	local ids, dists = world:nearest(q.x, q.y, q.k, q.words)
	lines[i] = ids and line_of(ids, dists, 0, #ids) or "invalid"
end
write("lua_nearest.out", lines)
world:close()
map:close()
