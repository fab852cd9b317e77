-- The demo's agents, scripted against the same gridtree API as any game (lua/README.md).
-- bin/gridtree-demo calls demo.init(map, world, options) once and demo.update(frame) every frame; it
-- draws demo.xs, demo.ys, demo.kinds (and, in crowd mode, demo.target: the agent each one chose),
-- and queries and draws demo.world itself (reached from C through gt_lua.h: keep the field
-- current).
-- Edit freely: the demo reloads nothing, but needs no recompiling either.
local gridtree = require "gridtree"
local demo = {}

-- Each kind looks for the nearest agent carrying a word and chases it, follows it or flees from
-- it. Trolls are big: they walk a map inflated by one cell, so they keep away from walls.
local kinds = {
	{name = "knight", words = "knight human melee", looks_for = "enemy", does = "chase", speed = 0.55},
	{name = "archer", words = "archer elf ranged", looks_for = "enemy", does = "flee", speed = 0.6},
	{name = "healer", words = "healer elf support", looks_for = "human", does = "follow", speed = 0.5},
	{name = "orc", words = "orc melee enemy", looks_for = "elf", does = "chase", speed = 0.5},
	{name = "goblin", words = "goblin ranged enemy", looks_for = "human", does = "flee", speed = 0.65},
	{name = "troll", words = "troll melee enemy big", looks_for = "elf", does = "chase", speed = 0.4, big = true},
}
demo.kind_names, demo.kind_roles, demo.kind_big, demo.kind_counts = {}, {}, {}, {}
for i, k in ipairs(kinds) do
	demo.kind_names[i] = k.name
	demo.kind_roles[i] = (k.does == "chase" and "CHASES " or k.does == "flee" and "FLEES " or "FOLLOWS ") .. k.looks_for
	demo.kind_big[i] = k.big or false
	demo.kind_counts[i] = 0
end

local rng -- gridtree.random: the same seed gives the same run
local map, big_map, world
local ids, index_of = {}, {} -- world id per agent, agent per world id
local paths, segments, due = {}, {}, {} -- each agent's path, where it is on it, the frame it plans again
-- Links (stairs, teleporters, drops: docs/links.md): path_links[i] names the links of agent i's path
-- (map:path's third value). While on a link the follower's point (fx, fy) runs along it, through the
-- wall between two floors, and the agent stands at the link's entrance for the world until it steps
-- off the link's far end.
local path_links, fx, fy = {}, {}, {}
local teleported_from = {} -- the floor an agent left by its last teleporter (cost 0), for the tests
demo.link_crossings, demo.teleports, demo.teleported_elsewhere = 0, 0, 0
demo.xs, demo.ys, demo.kinds, demo.target = {}, {}, {}, {}
local target_distance = {}

-- One targeting group per word looked for, each with a crowd of its own (gridtree.new_crowd): once
-- a frame the group's crowd answers at most its share of RETARGETS_PER_FRAME members, those that
-- waited longest first (each crowd's schedule keeps its group's turn). A count, not a time
-- (max_agents, not budget_us): a seed replays exactly. Tables are reused: a frame makes no garbage.
local RETARGETS_PER_FRAME = 2000
local groups, group_of = {}, {}
for _, k in ipairs(kinds) do
	if not group_of[k.looks_for] then
		local g = {words = k.looks_for, members = {}, xs = {}, ys = {}}
		-- One method, not "auto": every method gives the same answers (ties by id), but auto
		-- samples the others by measured time, so a frame's cost would vary with the machine.
		g.options = {into = {{}, {}, {}}, max_agents = 1}
		groups[#groups + 1], group_of[k.looks_for] = g, g
	end
end
demo.crowd = {retargets = RETARGETS_PER_FRAME, used_us = 0, served = 0, agents = 0, stalest = 0}

local function own_map(i)
	return kinds[demo.kinds[i]].big and big_map or map
end

-- A point near (x, y) on agent i's map: goals nearby keep the crowd spread over the map rather
-- than queued on the few corridors that cross it.
local function nearby_point(i, x, y, radius)
	local m = own_map(i)
	for _ = 1, 8 do
		local gx, gy = x + (rng:next() * 2 - 1) * radius, y + (rng:next() * 2 - 1) * radius
		if m:is_free(gx, gy) then return gx, gy end
	end
	return m:random_point(rng)
end

-- Separation (the demo's `a` key): agents closer than SEPARATION_RADIUS push each other apart,
-- found all at once by a straight-line neighbour index (gridtree.neighbours, neighbours_many).
-- The push moves an offset (ox, oy) from the agent's point on its path, which decays and is kept
-- only where the agent's map is free there: paths stay as planned, and nobody is pushed into a wall.
local SEPARATION_RADIUS, SEPARATION_K, SEPARATION_PUSH = 1.2, 6, 0.25
local SEPARATION_DECAY, SEPARATION_MAX = 0.9, 1.5
local ox, oy, pushx, pushy = {}, {}, {}, {}
local nb, nb_ids, nb_agent -- the index, each agent's id in it, and the agent of an id
local nb_into = {asked = {}, near = {}, dists = {}}
demo.separation = {on = false, radius = SEPARATION_RADIUS, pairs = 0, pushed = 0, seconds = 0, method = "-"}

local function walk_to(i, gx, gy)
	local path, _, links = own_map(i):path(demo.xs[i], demo.ys[i], gx, gy)
	if not path or #path < 4 then return false end
	paths[i], segments[i], path_links[i] = path, 1, links
	fx[i], fy[i] = demo.xs[i], demo.ys[i]
	ox[i], oy[i] = 0, 0 -- the path starts where the agent stands, offset included
	return true
end

local function on_link(i)
	local links = path_links[i]
	return links ~= nil and links[segments[i]] ~= nil
end

-- Agent i's step along its path: links crossed between segments s0 and s1 are counted (a teleporter
-- taken to another floor is remembered), and on a link the agent waits at its entrance.
local function step(i, speed)
	local links, s0 = path_links[i], segments[i]
	local arrived
	fx[i], fy[i], segments[i], arrived = gridtree.advance(paths[i], s0, fx[i], fy[i], speed, links)
	for k = s0, (links and segments[i] - 1 or 0) do
		if links[k] then
			demo.link_crossings = demo.link_crossings + 1
			if links.costs[k] == 0 then
				demo.teleports = demo.teleports + 1
				teleported_from[i] = map:point_floor(paths[i][2 * k - 1], paths[i][2 * k])
			end
		end
	end
	if on_link(i) then
		local s = segments[i]
		demo.xs[i], demo.ys[i] = paths[i][2 * s - 1], paths[i][2 * s]
		ox[i], oy[i] = 0, 0
	elseif (ox[i] ~= 0 or oy[i] ~= 0) and own_map(i):is_free(fx[i] + ox[i], fy[i] + oy[i]) then
		demo.xs[i], demo.ys[i] = fx[i] + ox[i], fy[i] + oy[i]
	else
		demo.xs[i], demo.ys[i], ox[i], oy[i] = fx[i], fy[i], 0, 0
	end
	return arrived
end

-- What agent i does next: towards its target (chase: onto it; follow: near it), away from it
-- (flee: the nearby point farthest from it), else a stroll to a point nearby.
local function plan(i, frame)
	local kind, t = kinds[demo.kinds[i]], demo.target[i]
	local x, y = demo.xs[i], demo.ys[i]
	local ok = false
	if t > 0 and kind.does ~= "flee" then
		local tx, ty = demo.xs[t], demo.ys[t]
		if kind.does == "follow" then tx, ty = nearby_point(i, tx, ty, 3) end
		ok = tx and walk_to(i, tx, ty)
		if not ok and kind.big then -- the target stands too near a wall for a big unit: as near as it can
			tx, ty = nearby_point(i, demo.xs[t], demo.ys[t], 4)
			ok = tx and walk_to(i, tx, ty)
		end
	elseif t > 0 and target_distance[i] < 25 then
		local best, bx, by = -1
		for _ = 1, 4 do
			local gx, gy = nearby_point(i, x, y, 20)
			if gx then
				local dx, dy = gx - demo.xs[t], gy - demo.ys[t]
				if dx * dx + dy * dy > best then best, bx, by = dx * dx + dy * dy, gx, gy end
			end
		end
		ok = bx and walk_to(i, bx, by)
	end
	if not ok then
		local gx, gy = nearby_point(i, x, y, 30)
		if gx then walk_to(i, gx, gy) end
	end
	-- Chasers look again soon (the target moves); strollers when they arrive.
	due[i] = frame + (t > 0 and 40 + i % 20 or 100000)
end

-- Each group's members, and a crowd over the current world for each (a new world needs new crowds;
-- their schedules start again from the first member).
local function join_groups()
	for _, g in ipairs(groups) do
		for j = #g.members, 1, -1 do g.members[j] = nil end
		if g.crowd then g.crowd:close() end
		g.crowd = gridtree.new_crowd(world, {method = "each"})
	end
	for i = 1, #ids do
		local g = group_of[kinds[demo.kinds[i]].looks_for]
		g.members[#g.members + 1] = i
	end
end

-- Trolls' map: the map inflated by one cell, with a mesh for their paths (made in milliseconds, so
-- it is made again after every edit). Trolls left in its walls by an edit step out.
local function make_big_map()
	if big_map then big_map:close() end
	big_map = map:inflate(1)
	assert(big_map:build_mesh())
	big_map:set_method("polyanya")
end

function demo.init(the_map, the_world, options)
	map, world = the_map, the_world
	rng = gridtree.random(options.seed or 1)
	make_big_map()
	for i = 1, options.agents do
		local kind = 1 + rng:below(#kinds)
		demo.kinds[i] = kind
		local x, y = own_map(i):random_point(rng)
		if not x then -- no room for a big unit: a small one
			kind = 1
			demo.kinds[i] = kind
			x, y = map:random_point(rng)
		end
		demo.xs[i], demo.ys[i], demo.target[i], target_distance[i] = x, y, 0, math.huge
		demo.kind_counts[kind] = demo.kind_counts[kind] + 1
		ids[i] = assert(world:add(x, y, kinds[kind].words))
		index_of[ids[i]] = i
		paths[i], segments[i], due[i] = {}, 1, i % 60 -- first plans spread over the first second
		fx[i], fy[i], ox[i], oy[i], pushx[i], pushy[i] = x, y, 0, 0, 0, 0
	end
	demo.ids, demo.index_of = ids, index_of -- the demo draws the mouse query's answers by kind
	demo.world = world
	join_groups()
end

-- A new world with another leaf size, holding the same agents (the demo's `l` / `L` keys).
function demo.set_leaf(leaf)
	local fresh = gridtree.new_world(map, {leaf = leaf})
	for i = 1, #ids do
		ids[i] = assert(fresh:add(demo.xs[i], demo.ys[i], kinds[demo.kinds[i]].words))
		index_of[ids[i]] = i
	end
	for _, g in ipairs(groups) do g.crowd:close() end
	world:close()
	world = fresh
	demo.world = fresh
	join_groups()
end

-- The demo built or demolished a wall, or opened or shut a door: agents caught inside step out to a
-- free point, and everyone plans again on the edited map.
function demo.edited()
	make_big_map()
	for i = 1, #ids do
		if not own_map(i):is_free(demo.xs[i], demo.ys[i]) then -- step out nearby (a point drawn on the map when none is)
			local x, y = nearby_point(i, demo.xs[i], demo.ys[i], 4)
			if not x and kinds[demo.kinds[i]].big then x, y = map:random_point(rng) end -- no room left for a big unit
			if x then demo.xs[i], demo.ys[i] = x, y end
		end
		paths[i], segments[i], due[i], path_links[i] = {}, 1, 0, nil
		fx[i], fy[i], ox[i], oy[i] = demo.xs[i], demo.ys[i], 0, 0
	end
end

-- Targeting: each group's crowd answers the next of its members; demo.target[i] is the agent found.
local function retarget(frame)
	local xs, ys, total = demo.xs, demo.ys, 0
	for _, g in ipairs(groups) do total = total + #g.members end
	local served, stalest, start = 0, 0, gridtree.clock()
	for _, g in ipairs(groups) do
		local m = #g.members
		local found, dists, counts = g.options.into[1], g.options.into[2], g.options.into[3]
		if m > 0 then
			local quota = math.min(m, math.max(1, RETARGETS_PER_FRAME * m // total))
			for j = 1, m do
				local i = g.members[j]
				g.xs[j], g.ys[j], counts[j] = xs[i], ys[i], false -- false: not answered this frame
			end
			g.options.max_agents = quota
			local _, _, _, answered = g.crowd:nearest(g.xs, g.ys, 1, g.words, g.options)
			served = served + answered
			stalest = math.max(stalest, math.ceil(m / quota))
		end
		for j = 1, m do
			if counts[j] ~= false then
				local i = g.members[j]
				local before = demo.target[i]
				if counts[j] > 0 then
					demo.target[i], target_distance[i] = index_of[found[j]] or 0, dists[j]
				else
					demo.target[i], target_distance[i] = 0, math.huge
				end
				if demo.target[i] ~= before then due[i] = math.min(due[i], frame) end -- a new target: plan now
			end
		end
	end
	local c = demo.crowd
	c.used_us, c.served, c.agents, c.stalest = (gridtree.clock() - start) * 1e6, served, total, stalest
end

-- After the key turned separation off: the offsets fade (agents drift back onto their paths).
local function fade()
	local left = false
	for i = 1, #ids do
		if ox[i] ~= 0 or oy[i] ~= 0 then
			ox[i], oy[i] = ox[i] * SEPARATION_DECAY, oy[i] * SEPARATION_DECAY
			if ox[i] * ox[i] + oy[i] * oy[i] < 1e-6 then ox[i], oy[i] = 0, 0 else left = true end
		end
	end
	return left
end
local fading = false

-- The `a` key. Off, the offsets fade out with the agents' next steps (step() drops them where
-- they would no longer be free; new paths start from where the agents stand).
function demo.set_separation(on)
	demo.separation.on, fading = on, not on
	if on and not nb then
		local w, h = map:size()
		-- The index's world is the map's, one unit wider: a point on the map's far border is free.
		nb = assert(gridtree.neighbours{width = w + 1, height = h + 1, cell = SEPARATION_RADIUS, capacity = #ids})
		nb_ids, nb_agent = {}, {}
		for i = 1, #ids do
			nb_ids[i] = assert(nb:add(demo.xs[i], demo.ys[i]))
			nb_agent[nb_ids[i]] = i
		end
	end
end

-- Every agent's SEPARATION_K nearest within SEPARATION_RADIUS in one call (worker threads; k
-- left 0 with a stride of SEPARATION_K keeps the stride nearest, and lets the index take every
-- pair of agents once); each agent is pushed away from each of them, harder the closer they are. Agents on the same point part in a
-- direction of their own (seeded by their numbers), so a seed still replays.
local function separate()
	local start, xs, ys = gridtree.clock(), demo.xs, demo.ys
	for i = 1, #ids do
		assert(nb:move(nb_ids[i], xs[i], ys[i]))
		pushx[i], pushy[i] = 0, 0
	end
	local asked, near, dists, method = nb:neighbours_many(SEPARATION_RADIUS, {stride = SEPARATION_K, into = nb_into})
	local pairs = 0
	for j = 1, #asked do
		local i = nb_agent[asked[j]]
		local row, drow = near[j], dists[j]
		for n = 1, #row do
			local o, d = nb_agent[row[n]], drow[n]
			local dx, dy = xs[i] - xs[o], ys[i] - ys[o]
			if d < 1e-9 then
				local angle = (i * 2.399963) % (2 * math.pi) -- the golden angle: neighbours on one point fan out
				dx, dy, d = math.cos(angle), math.sin(angle), 1
			end
			local strength = SEPARATION_PUSH * (SEPARATION_RADIUS - drow[n]) / SEPARATION_RADIUS / d
			pushx[i], pushy[i] = pushx[i] + dx * strength, pushy[i] + dy * strength
			pairs = pairs + 1
		end
	end
	local pushed = 0
	for i = 1, #ids do
		local nx = (ox[i] + pushx[i]) * SEPARATION_DECAY
		local ny = (oy[i] + pushy[i]) * SEPARATION_DECAY
		local len = math.sqrt(nx * nx + ny * ny)
		if len > SEPARATION_MAX then nx, ny = nx * SEPARATION_MAX / len, ny * SEPARATION_MAX / len end
		if not on_link(i) and own_map(i):is_free(fx[i] + nx, fy[i] + ny) then
			if pushx[i] ~= 0 or pushy[i] ~= 0 then pushed = pushed + 1 end
			ox[i], oy[i] = nx, ny
			xs[i], ys[i] = fx[i] + nx, fy[i] + ny
		end
	end
	local s = demo.separation
	s.pairs, s.pushed, s.method, s.seconds = pairs, pushed, method, gridtree.clock() - start
end

-- Paths planned a frame at most (a count, not a time, so a seed replays exactly); the rest wait
-- their turn.
local function plan_budget(n) return 40 + n // 50 end
local next_plan = 1

function demo.update(frame)
	local xs, ys = demo.xs, demo.ys
	for i = 1, #ids do
		local arrived = step(i, kinds[demo.kinds[i]].speed)
		if arrived and due[i] > frame + 5 then due[i] = frame + 5 end -- a short pause, then on
	end
	local elsewhere = 0 -- agents now on another floor than the one their last teleporter took them from
	for i, from in pairs(teleported_from) do
		if from and map:point_floor(xs[i], ys[i]) ~= from then elsewhere = elsewhere + 1 end
	end
	demo.teleported_elsewhere = elsewhere
	demo.separation.seconds = 0
	if demo.separation.on then separate() elseif fading then fading = fade() end
	local move_start = gridtree.clock()
	assert(world:move_many(ids, xs, ys))
	demo.move_seconds = gridtree.clock() - move_start
	local query_start = gridtree.clock()
	retarget(frame)
	demo.query_seconds = gridtree.clock() - query_start
	-- Planning, round robin from where the last frame stopped, within its budget.
	local plan_start, plans, n = gridtree.clock(), 0, #ids
	local budget = plan_budget(n)
	for _ = 1, n do
		if plans >= budget then break end
		local i = next_plan
		next_plan = next_plan % n + 1
		if due[i] <= frame and not on_link(i) then -- mid-climb, an agent plans once off the link
			plan(i, frame)
			plans = plans + 1
		end
	end
	demo.plan_seconds, demo.plans = gridtree.clock() - plan_start, plans
	return demo.crowd.served
end

return demo
