-- gridtree in LOVE (LuaJIT): agents walk the map along shortest paths to random goals, and each
-- finds the nearest agent of another team by walking distance; lines show the targets.
--   love lua/love                     (from the repository root, after ./run build)
--   GRIDTREE_FRAMES=60 xvfb-run -a love lua/love   plays 60 frames of 1/60 s and exits (the CI check)
-- GRIDTREE_CPATH overrides where the LuaJIT build of the module is, GRIDTREE_MAP which map to load.
package.cpath = (os.getenv("GRIDTREE_CPATH") or "./bin/luajit/?.so") .. ";" .. package.cpath

-- A Lua error must not leave LOVE's error screen waiting forever on a headless machine.
function love.errorhandler(message)
	print(debug.traceback("error: " .. tostring(message)))
	os.exit(1)
end

love.errhand = love.errorhandler -- the same handler under LOVE 0.10's name

local gridtree = require "gridtree"
local map, world, width, height, scale, background
local agents = {}
local ids, dists = {}, {}
-- Query options per team, made once: the frame loop's queries then allocate nothing.
local team_options = {}
local frames, stop_after = 0, tonumber(os.getenv("GRIDTREE_FRAMES") or "")
-- With GRIDTREE_FRAMES every frame is 1/60 s of game time however fast the machine draws it, so a
-- CI run of N frames plays N/60 s of the game (conf.lua turns vsync off for it).
local fixed_dt = stop_after and 1 / 60
local teams = {"red", "blue", "green"}
local colours = {red = {0.9, 0.3, 0.3}, blue = {0.3, 0.5, 0.95}, green = {0.3, 0.85, 0.4}}
for _, team in ipairs(teams) do team_options[team] = {into = {ids, dists}, none = team} end

local rng = gridtree.random(7) -- seeded: every run starts with the same agents and goals
local speed = 12 -- map units per second

-- A new goal and the shortest path to it; an unreachable goal gives an empty path, which
-- gridtree.advance reports as arrived, so the next frame picks another.
local function new_goal(a)
	local gx, gy = map:random_point(rng)
	a.path, a.segment = map:path(a.x, a.y, gx, gy) or {}, 1
end

function love.load()
	map = assert(gridtree.load_map(os.getenv("GRIDTREE_MAP") or "assets/maps/keep.map"))
	assert(map:build_index{cell = 4})
	world = gridtree.new_world(map, {leaf = 16})
	width, height = map:size()
	scale = math.min(love.graphics.getWidth() / width, love.graphics.getHeight() / height)
	-- The map drawn once into a canvas.
	background = love.graphics.newCanvas(width * scale, height * scale)
	love.graphics.setCanvas(background)
	love.graphics.clear(0.08, 0.08, 0.1)
	love.graphics.setColor(0.35, 0.35, 0.4)
	for y = 0, height - 1 do
		for x = 0, width - 1 do
			if not map:is_free(x + 0.5, y + 0.5) then love.graphics.rectangle("fill", x * scale, y * scale, scale, scale) end
		end
	end
	love.graphics.setCanvas()
	for i = 1, 150 do
		local team = teams[1 + i % #teams]
		local x, y = map:random_point(rng)
		agents[i] = {id = world:add(x, y, team), team = team, x = x, y = y}
		new_goal(agents[i])
	end
end

local move_ids, xs, ys = {}, {}, {}
function love.update(dt)
	dt = fixed_dt or dt
	for i, a in ipairs(agents) do
		local arrived
		a.x, a.y, a.segment, arrived = gridtree.advance(a.path, a.segment, a.x, a.y, speed * dt)
		if arrived then new_goal(a) end
		move_ids[i], xs[i], ys[i] = a.id, a.x, a.y
	end
	assert(world:move_many(move_ids, xs, ys))
	for _, a in ipairs(agents) do -- the nearest agent of another team, by walking distance
		world:nearest(a.x, a.y, 1, nil, team_options[a.team])
		a.target = ids[1]
		a.distance = dists[1]
	end
	-- The walking path to each target, around the walls (what the lines show); a few agents a
	-- frame, so a frame's cost stays flat however many there are.
	for n = 1, 10 do
		local a = agents[1 + (frames * 10 + n) % #agents]
		a.target_path = nil
		if a.target and world:valid(a.target) then
			local tx, ty = world:position(a.target)
			local path = map:path(a.x, a.y, tx, ty)
			if path and #path >= 4 then
				for i = 1, #path do path[i] = path[i] * scale end
				a.target_path = path
			end
		end
	end
	frames = frames + 1
	if stop_after and frames >= stop_after then
		local targeted, drawn = 0, 0
		for _, a in ipairs(agents) do
			if a.target then targeted = targeted + 1 end
			if a.target_path then drawn = drawn + 1 end
		end
		print(("gridtree-love: %d frames, %d agents, %d with a target, %d walking paths drawn, %s"):format(frames, #agents,
			targeted, drawn, gridtree._VERSION))
		love.event.quit(0)
	end
end

function love.draw()
	love.graphics.setColor(1, 1, 1)
	love.graphics.draw(background)
	for _, a in ipairs(agents) do
		local c = colours[a.team]
		if a.target_path then -- the walking path to the target (from where the agent stood when it was found)
			love.graphics.setColor(c[1], c[2], c[3], 0.35)
			love.graphics.line(a.target_path)
		end
		love.graphics.setColor(c)
		love.graphics.circle("fill", a.x * scale, a.y * scale, 3)
	end
	love.graphics.setColor(1, 1, 1)
	love.graphics.print(("%d agents   %d FPS"):format(#agents, love.timer.getFPS()), 8, 8)
end
