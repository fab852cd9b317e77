-- AI target selection with units of two sizes: every agent of a squad picks the nearest reachable
-- enemy healer; if there is none, the nearest enemy within 40 units of walking; otherwise it
-- patrols. The scouts are points; the troll is a square of half-width 1 cell, so it walks the map
-- inflated by 1 (map:inflate), with its own index and world: it keeps clear of walls, cannot
-- squeeze through one-cell gaps, and never targets an enemy standing where it does not fit.
-- Runs headless:
--   LUA_CPATH_5_4='./bin/?.so' lua5.4 lua/examples/target_selection.lua [map]
local gridtree = require "gridtree"

local map = assert(gridtree.load_map(arg[1] or "assets/maps/keep.map"))

-- One map, index and world per unit size (clearance in cells).
local sizes = {}
for _, clearance in ipairs({0, 1}) do
	local sized = clearance == 0 and map or map:inflate(clearance)
	assert(sized:build_index{cell = 4})
	sizes[clearance] = {map = sized, world = gridtree.new_world(sized, {leaf = 16}), clearance = clearance}
end

-- A seeded generator, so every run prints the same story.
local rng = gridtree.random(12345)

-- Enemies: warriors, archers and a few healers; they wander a little every tick. Each is in
-- every world whose unit size fits where it stands (ids[clearance]).
local enemies = {}
local kinds = {"orc warrior", "orc archer", "goblin warrior", "goblin archer"}
for i = 1, 60 do
	local x, y = map:random_point(rng)
	local kind = i % 15 == 0 and "goblin healer" or kinds[1 + (i % #kinds)] -- healers are rare
	local e = {kind = kind, x = x, y = y, ids = {}}
	for clearance, size in pairs(sizes) do
		if size.map:is_free(x, y) then e.ids[clearance] = size.world:add(x, y, kind .. " enemy") end
	end
	enemies[#enemies + 1] = e
end
local big_fits = 0
for _, e in ipairs(enemies) do if e.ids[1] then big_fits = big_fits + 1 end end
print(("%d enemies; the troll fits where %d of them stand"):format(#enemies, big_fits))

-- The squad: three scouts and a troll.
local squad = {}
for i = 1, 4 do
	local size = sizes[i == 4 and 1 or 0]
	local x, y
	for _ = 1, 100 do -- somewhere it can reach an enemy: the troll cannot leave a room by a 1-cell door
		x, y = size.map:random_point(rng)
		if #size.world:nearest(x, y, 1, "enemy") > 0 then break end
	end
	squad[i] = {name = i == 4 and "troll (half-width 1)" or ("agent %d"):format(i), x = x, y = y, size = size}
end

-- Reused every tick: the queries refill these tables instead of allocating new ones.
local ids, dists = {}, {}
local into = {into = {ids, dists}}

local function enemy_of(size, id)
	for _, e in ipairs(enemies) do
		if e.ids[size.clearance] == id then return e end
	end
end

local function decide(agent)
	local world = agent.size.world
	world:nearest(agent.x, agent.y, 1, {"enemy", "healer"}, into)
	if ids[1] then
		return ("attacks the %s %.1f units away (healers first)"):format(enemy_of(agent.size, ids[1]).kind, dists[1])
	end
	world:within(agent.x, agent.y, 40, "enemy", into)
	if ids[1] then
		return ("attacks the nearest %s, %.1f units away"):format(enemy_of(agent.size, ids[1]).kind, dists[1])
	end
	return "patrols"
end

local function slay(e)
	for clearance, id in pairs(e.ids) do sizes[clearance].world:remove(id) end
	e.ids, e.dead = {}, true
end

for tick = 1, 5 do
	print(("-- tick %d"):format(tick))
	for _, agent in ipairs(squad) do
		print(("%s at (%.1f, %.1f) %s"):format(agent.name, agent.x, agent.y, decide(agent)))
	end
	-- Enemies step around; a step that does not fit a world's unit size leaves that world.
	for _, e in ipairs(enemies) do
		if not e.dead then
			local nx, ny = e.x + (rng:next() - 0.5) * 4, e.y + (rng:next() - 0.5) * 4
			if map:is_free(nx, ny) then e.x, e.y = nx, ny end
			for clearance, size in pairs(sizes) do
				local id, fits = e.ids[clearance], size.map:is_free(e.x, e.y)
				if id and fits then size.world:move(id, e.x, e.y)
				elseif id then size.world:remove(id); e.ids[clearance] = nil
				elseif fits then e.ids[clearance] = size.world:add(e.x, e.y, e.kind .. " enemy") end
			end
		end
	end
	-- Every tick one healer dies, so the squad has to re-decide.
	sizes[0].world:nearest(squad[1].x, squad[1].y, 1, {"enemy", "healer"}, into)
	if ids[1] then
		local e = enemy_of(sizes[0], ids[1])
		print(("   (the %s nearest to agent 1 is slain)"):format(e.kind))
		slay(e)
	end
	-- The squad walks 3 units towards its nearest enemy along the shortest path of its own size.
	for _, agent in ipairs(squad) do
		local size = agent.size
		size.world:nearest(agent.x, agent.y, 1, "enemy", into)
		if ids[1] then
			local tx, ty = size.world:position(ids[1])
			local path = size.map:path(agent.x, agent.y, tx, ty)
			if path then agent.x, agent.y = gridtree.advance(path, 1, agent.x, agent.y, 3) end
		end
	end
end
