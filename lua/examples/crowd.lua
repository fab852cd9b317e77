-- A crowd: thousands of agents re-target their nearest enemy under a frame budget, as an RTS
-- would. Each frame the enemies wander (move_many), the agents step towards their targets, and
-- world:nearest_many answers the agents that fit the budget, most stale first; the others keep
-- last frame's target. Runs headless and prints frames per second:
--   LUA_CPATH_5_4='./bin/?.so' lua5.4 lua/examples/crowd.lua [map] [agents] [frames] [budget_us]
local gridtree = require "gridtree"

local map = assert(gridtree.load_map(arg[1] or "assets/maps/keep.map"))
local agents, frames = tonumber(arg[2] or 10000), tonumber(arg[3] or 120)
local budget_us = tonumber(arg[4] or 6000)
assert(map:build_index{cell = 2})
local world = gridtree.new_world(map, {leaf = 16})
local rng = gridtree.random(7)

-- Enemies (what the agents look for) and allies (what the filter skips).
local ids, ex, ey = {}, {}, {}
for i = 1, 400 do
	ex[i], ey[i] = map:random_point(rng)
	ids[i] = world:add(ex[i], ey[i], i % 2 == 0 and "enemy" or "ally")
end
local xs, ys = {}, {}
for i = 1, agents do xs[i], ys[i] = map:random_point(rng) end

-- Answers land in these tables every frame: no garbage per frame.
local target_ids, target_dists, counts = {}, {}, {}
local opts = {into = {target_ids, target_dists, counts}, budget_us = budget_us}

local function step(x, y, tx, ty, len)
	local dx, dy = tx - x, ty - y
	local d = math.sqrt(dx * dx + dy * dy)
	if d < 1e-9 then return x, y end
	local nx, ny = x + dx / d * len, y + dy / d * len
	if map:is_free(nx, ny) then return nx, ny end
	return x, y
end

local clock = gridtree.clock -- wall time: the workers run in parallel
local started, served_total, slowest = clock(), 0, 0
for frame = 1, frames do
	local frame_start = clock()
	for i = 1, #ids do -- enemies wander
		local nx, ny = ex[i] + (rng:next() - 0.5), ey[i] + (rng:next() - 0.5)
		if map:is_free(nx, ny) then ex[i], ey[i] = nx, ny end
	end
	world:move_many(ids, ex, ey)
	local _, _, _, served = world:nearest_many(xs, ys, 1, "enemy", opts)
	served_total = served_total + served
	for i = 1, agents do -- towards the target chosen (now or on an earlier frame)
		if counts[i] and counts[i] > 0 then
			local tx, ty = world:position(target_ids[i])
			if tx then xs[i], ys[i] = step(xs[i], ys[i], tx, ty, 0.2) end
		end
	end
	slowest = math.max(slowest, clock() - frame_start)
	if frame % 30 == 0 then
		print(("frame %d: %d agents re-targeted this frame, agent 1 chases %s at %.1f"):format(frame, served,
			tostring(target_ids[1]), target_dists[1] or 0 / 0))
	end
end
local seconds = clock() - started
print(("%d agents, %d frames: %.1f frames per second (slowest frame %.1f ms), %.0f re-targets per frame")
	:format(agents, frames, frames / seconds, slowest * 1e3, served_total / frames))
