-- The demo's agents, scripted against the same gridtree API as any game (lua/README.md).
-- bin/gridtree-demo calls demo.init(map, world, options) once and demo.update(frame) every frame; it
-- draws demo.xs, demo.ys and demo.kinds, and queries and draws demo.world itself (reached from C
-- through gt_lua.h: keep the field current). demo.query is the mouse query written in Lua.
-- Edit freely: the demo reloads nothing, but needs no recompiling either.
local gridtree = require "gridtree"
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

local rng -- gridtree.random: the same seed gives the same run
local map, world
local ids, goals = {}, {}
demo.xs, demo.ys, demo.kinds = {}, {}, {}

-- Each agent walks towards a goal along its EHL path, a little every frame.
local function new_goal(i)
	local gx, gy = map:random_point(rng)
	goals[i].path = map:path(demo.xs[i], demo.ys[i], gx, gy) or {}
	goals[i].segment = 1
end

-- Targeting: healers look for the nearest human, enemies for the nearest elf. Each group asks
-- world:nearest_many once a frame within a budget, the agents served longest ago first; the
-- tables are reused, so a frame makes no garbage.
local groups = {
	{words = "human", kinds = {[3] = true}},
	{words = "elf", kinds = {[4] = true, [5] = true}},
}
for _, g in ipairs(groups) do
	g.members, g.xs, g.ys = {}, {}, {}
	g.options = {into = {{}, {}, {}}, budget_us = 1500}
end
local function join_groups()
	for _, g in ipairs(groups) do
		for i = #g.members, 1, -1 do g.members[i], g.xs[i], g.ys[i] = nil, nil, nil end
		for i = 1, #ids do
			if g.kinds[demo.kinds[i]] then g.members[#g.members + 1] = i end
		end
	end
end
demo.targets = groups -- g.options.into[1][j]: the id member j chases (when into[3][j] > 0)

function demo.init(the_map, the_world, options)
	map, world = the_map, the_world
	rng = gridtree.random(options.seed or 1)
	for i = 1, options.agents do
		local x, y = map:random_point(rng)
		local kind = 1 + rng:below(#kinds)
		demo.xs[i], demo.ys[i], demo.kinds[i] = x, y, kind
		ids[i] = assert(world:add(x, y, kinds[kind].words))
		goals[i] = {}
		new_goal(i)
	end
	demo.ids = ids
	demo.world = world
	join_groups()
end

-- A new world with another leaf size, holding the same agents (the demo's `l` / `L` keys).
function demo.set_leaf(leaf)
	local fresh = gridtree.new_world(map, {leaf = leaf})
	for i = 1, #ids do
		ids[i] = assert(fresh:add(demo.xs[i], demo.ys[i], kinds[demo.kinds[i]].words))
	end
	world:close()
	world = fresh
	demo.world = fresh
end

local speed = 0.6 -- map units per frame

-- The demo's `t` key built or demolished a wall (map:set_blocked): agents caught inside step out to
-- a free point, and everyone plans again on the edited map.
function demo.edited()
	for i = 1, #ids do
		if not map:is_free(demo.xs[i], demo.ys[i]) then demo.xs[i], demo.ys[i] = map:random_point(rng) end
		new_goal(i)
	end
end


function demo.update(frame)
	local xs, ys = demo.xs, demo.ys
	for i = 1, #ids do
		local g = goals[i]
		local arrived
		xs[i], ys[i], g.segment, arrived = gridtree.advance(g.path, g.segment, xs[i], ys[i], speed)
		if arrived then new_goal(i) end
	end
	local move_start = os.clock()
	assert(world:move_many(ids, xs, ys))
	demo.move_seconds = os.clock() - move_start
	local queries, query_start = 0, gridtree.clock()
	for _, g in ipairs(groups) do
		for j, i in ipairs(g.members) do g.xs[j], g.ys[j] = xs[i], ys[i] end
		local _, _, _, served = world:nearest_many(g.xs, g.ys, 1, g.words, g.options)
		queries = queries + served
	end
	demo.query_seconds = gridtree.clock() - query_start
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
