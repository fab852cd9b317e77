-- AI target selection: every agent of a squad picks the nearest reachable enemy healer; if there
-- is none, the nearest enemy within 40 units of walking; otherwise it patrols. Runs headless:
--   LUA_CPATH_5_4='./bin/?.so' lua5.4 lua/examples/target_selection.lua [map]
local gridtree = require "gridtree"

local map = assert(gridtree.load_map(arg[1] or "assets/maps/keep.map"))
assert(map:build_index{cell = 4})
local world = gridtree.new_world(map, {leaf = 16})

-- A seeded generator, so every run prints the same story.
local rng = gridtree.random(12345)

-- Enemies: warriors, archers and a few healers; they wander a little every tick.
local enemies = {}
local kinds = {"orc warrior", "orc archer", "goblin warrior", "goblin archer"}
for i = 1, 60 do
	local x, y = map:random_point(rng)
	local kind = i % 15 == 0 and "goblin healer" or kinds[1 + (i % #kinds)] -- healers are rare
	enemies[#enemies + 1] = {id = world:add(x, y, kind .. " enemy"), kind = kind}
end

-- The squad.
local squad = {}
for i = 1, 4 do
	local x, y = map:random_point(rng)
	squad[i] = {name = ("agent %d"):format(i), x = x, y = y}
end

-- Reused every tick: the queries refill these tables instead of allocating new ones.
local ids, dists = {}, {}
local into = {into = {ids, dists}}

local function describe(id)
	for _, e in ipairs(enemies) do
		if e.id == id then return e.kind end
	end
	return "?"
end

local function decide(agent)
	world:nearest(agent.x, agent.y, 1, {"enemy", "healer"}, into)
	if ids[1] then
		return ("attacks the %s %.1f units away (healers first)"):format(describe(ids[1]), dists[1])
	end
	world:within(agent.x, agent.y, 40, "enemy", into)
	if ids[1] then
		return ("attacks the nearest %s, %.1f units away"):format(describe(ids[1]), dists[1])
	end
	return "patrols"
end

for tick = 1, 5 do
	print(("-- tick %d"):format(tick))
	for _, agent in ipairs(squad) do
		print(("%s at (%.1f, %.1f) %s"):format(agent.name, agent.x, agent.y, decide(agent)))
	end
	-- Enemies step around; every tick one healer dies, so the squad has to re-decide.
	local move_ids, xs, ys = {}, {}, {}
	for _, e in ipairs(enemies) do
		if world:valid(e.id) then
			local x, y = world:position(e.id)
			local nx, ny = x + (rng:next() - 0.5) * 4, y + (rng:next() - 0.5) * 4
			if not map:is_free(nx, ny) then nx, ny = x, y end
			move_ids[#move_ids + 1], xs[#xs + 1], ys[#ys + 1] = e.id, nx, ny
		end
	end
	assert(world:move_many(move_ids, xs, ys))
	world:nearest(squad[1].x, squad[1].y, 1, {"enemy", "healer"}, into)
	if ids[1] then
		print(("   (the %s nearest to agent 1 is slain)"):format(describe(ids[1])))
		world:remove(ids[1])
	end
	-- The squad walks 3 units towards its nearest enemy along the shortest path, around corners.
	for _, agent in ipairs(squad) do
		world:nearest(agent.x, agent.y, 1, "enemy", into)
		if ids[1] then
			local tx, ty = world:position(ids[1])
			local path = map:path(agent.x, agent.y, tx, ty)
			if path then agent.x, agent.y = gridtree.advance(path, 1, agent.x, agent.y, 3) end
		end
	end
end
