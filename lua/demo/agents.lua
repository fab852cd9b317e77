-- The demo's agents, scripted against the same gridtree API as any game (lua/README.md).
-- bin/gridtree-demo calls demo.init(map, world, options) once, demo.update(frame) every frame and
-- demo.query(x, y, k) for the query under the mouse; it draws demo.xs, demo.ys and demo.kinds.
-- Edit freely: the demo reloads nothing, but needs no recompiling either.
local demo = {}

local kinds = {
	{name = "knight", words = "knight human melee"},
	{name = "archer", words = "archer elf ranged"},
	{name = "healer", words = "healer elf support"},
	{name = "orc", words = "orc melee enemy"},
	{name = "goblin", words = "goblin ranged enemy"},
}
demo.kind_names = {}
for i, k in ipairs(kinds) do demo.kind_names[i] = k.name end

local seed
local function random()
	seed = (seed * 1103515245 + 12345) % 2147483648
	return seed / 2147483648
end

local map, world, width, height
local ids, goals = {}, {}
demo.xs, demo.ys, demo.kinds = {}, {}, {}

local function random_point()
	while true do
		local x, y = random() * width, random() * height
		if map:is_free(x, y) then return x, y end
	end
end

-- Each agent walks towards a goal along its EHL path, a little every frame.
local function new_goal(i)
	local gx, gy = random_point()
	local path = map:path(demo.xs[i], demo.ys[i], gx, gy)
	goals[i] = {path = path or {}, next = 3}
end

local gridtree = require "gridtree"

function demo.init(the_map, the_world, options)
	map, world = the_map, the_world
	seed = options.seed or 1
	width, height = map:size()
	for i = 1, options.agents do
		local x, y = random_point()
		local kind = 1 + math.floor(random() * #kinds)
		demo.xs[i], demo.ys[i], demo.kinds[i] = x, y, kind
		ids[i] = assert(world:add(x, y, kinds[kind].words))
		new_goal(i)
	end
	demo.ids = ids
end

-- A new world with another leaf size, holding the same agents (the demo's `l` / `L` keys).
function demo.set_leaf(leaf)
	local fresh = gridtree.new_world(map, {leaf = leaf})
	for i = 1, #ids do
		ids[i] = assert(fresh:add(demo.xs[i], demo.ys[i], kinds[demo.kinds[i]].words))
	end
	world:close()
	world = fresh
end

local speed = 0.6 -- map units per frame
local hits, hit_dists = {}, {}
local into = {into = {hits, hit_dists}}

function demo.update(frame)
	local xs, ys = demo.xs, demo.ys
	for i = 1, #ids do
		local g = goals[i]
		local path = g.path
		if g.next > #path then
			new_goal(i)
		else
			local tx, ty = path[g.next], path[g.next + 1]
			local dx, dy = tx - xs[i], ty - ys[i]
			local len = math.sqrt(dx * dx + dy * dy)
			if len <= speed then
				xs[i], ys[i] = tx, ty
				g.next = g.next + 2
			else
				xs[i], ys[i] = xs[i] + dx / len * speed, ys[i] + dy / len * speed
			end
		end
	end
	local move_start = os.clock()
	assert(world:move_many(ids, xs, ys))
	demo.move_seconds = os.clock() - move_start
	-- Some agents look for targets: healers find the nearest wounded ally, enemies the nearest elf.
	local queries, query_start = 0, os.clock()
	for i = 1 + frame % 20, #ids, 20 do
		local kind = demo.kinds[i]
		if kind == 3 then
			world:nearest(xs[i], ys[i], 1, "human", into)
		elseif kind >= 4 then
			world:nearest(xs[i], ys[i], 1, "elf", into)
		end
		queries = queries + 1
		if queries == 100 then break end
	end
	demo.query_seconds = os.clock() - query_start
	return queries
end

-- The query under the mouse: `kind` is "nearest", "within" (radius k * 10) or "top"; returns the
-- agents found, their distances, their paths, the statistics and (when `trace`) the tree nodes the
-- search popped or pruned.
function demo.query(x, y, k, words, kind, trace)
	local opts = {stats = true, trace = trace}
	local found, dists, stats, nodes
	if kind == "within" then
		found, dists, stats, nodes = world:within(x, y, k * 10, words, opts)
	elseif kind == "top" then
		opts.alpha = 0.5
		found, dists, stats, nodes = world:top(x, y, k, words, opts)
	else
		found, dists, stats, nodes = world:nearest(x, y, k, words, opts)
	end
	if not found then return nil end
	local paths = {}
	for i, id in ipairs(found) do
		local tx, ty = world:position(id)
		paths[i] = map:path(x, y, tx, ty) or {}
	end
	return found, dists, paths, stats, nodes
end

return demo
