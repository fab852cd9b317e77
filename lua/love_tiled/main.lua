-- A Tiled level in LOVE (LuaJIT): the map and its objects come from a .tmx made in Tiled, every
-- position is in the level's pixels, and each enemy walks the shortest path to its nearest healer
-- (re-targeting twice a second), while the healers wander. Chests just sit there.
--   love lua/love_tiled                  (from the repository root, after ./run build)
--   GRIDTREE_FRAMES=60 xvfb-run -a love lua/love_tiled   plays 60 frames of 1/60 s and exits (the CI check)
-- GRIDTREE_CPATH overrides where the LuaJIT build of the module is, GRIDTREE_LEVEL which level.
package.cpath = (os.getenv("GRIDTREE_CPATH") or "./bin/luajit/?.so") .. ";" .. package.cpath

function love.errorhandler(message) -- never wait on LOVE's error screen on a headless machine
	print(debug.traceback("error: " .. tostring(message)))
	os.exit(1)
end

love.errhand = love.errorhandler -- the same handler under LOVE 0.10's name

local gridtree = require "gridtree"
local map, level, world, zoom, tile
local things = {} -- every object of the level, as spawned
local frames, stop_after = 0, tonumber(os.getenv("GRIDTREE_FRAMES") or "")
-- With GRIDTREE_FRAMES every frame is 1/60 s of game time however fast the machine draws it, so a
-- CI run of N frames plays N/60 s of the game (conf.lua turns vsync off for it).
local fixed_dt = stop_after and 1 / 60
local rng = gridtree.random(3)
local colours = {healer = {0.35, 0.9, 0.45}, enemy = {0.95, 0.3, 0.3}, chest = {0.95, 0.8, 0.25}}
local ids, dists = {}, {}
local nearest_healer = {into = {ids, dists}}

local function wander(t) -- a healer picks a new spot to walk to
	local gx, gy = map:random_point(rng)
	t.path, t.segment = map:path(t.x, t.y, gx, gy) or {}, 1
end

function love.load()
	map, level = assert(gridtree.load_map(os.getenv("GRIDTREE_LEVEL") or "assets/maps/tiled/courtyard.tmx", {units = "pixels"}))
	tile = level.tile_width
	world = gridtree.new_world(map)
	for _, o in ipairs(level.objects) do -- spawn: Tiled's type is the keyword
		things[#things + 1] = {id = world:add(o.x, o.y, o.type), type = o.type, name = o.name, x = o.x, y = o.y,
			hp = o.properties.hp, path = {}, segment = 1}
	end
	-- The window takes the level's shape, at the largest whole zoom (crisp tiles) within 768 pixels.
	local w, h = map:grid_size() -- cells (size() is in pixels here)
	zoom = math.max(1, math.floor(768 / (math.max(w, h) * tile)))
	love.window.updateMode(w * tile * zoom, h * tile * zoom)
end

local move_ids, xs, ys = {}, {}, {}
function love.update(dt)
	dt = fixed_dt or dt
	frames = frames + 1
	local n = 0
	for _, t in ipairs(things) do
		if t.type == "enemy" and frames % 30 == 1 then -- re-target: the nearest healer by walking
			world:nearest(t.x, t.y, 1, "healer", nearest_healer)
			if ids[1] then
				local hx, hy = world:position(ids[1])
				t.path, t.segment, t.target = map:path(t.x, t.y, hx, hy) or {}, 1, ids[1]
			end
		elseif t.type == "healer" and #t.path == 0 then
			wander(t)
		end
		if t.type ~= "chest" then
			local speed = t.type == "enemy" and 40 or 25 -- pixels per second
			local arrived
			t.x, t.y, t.segment, arrived = gridtree.advance(t.path, t.segment, t.x, t.y, speed * dt)
			if arrived then t.path, t.segment = {}, 1 end -- a new path starts at its first segment
			n = n + 1
			move_ids[n], xs[n], ys[n] = t.id, t.x, t.y
		end
	end
	for i = n + 1, #move_ids do move_ids[i], xs[i], ys[i] = nil, nil, nil end
	assert(world:move_many(move_ids, xs, ys))
	if stop_after and frames >= stop_after then
		local chasing = 0
		for _, t in ipairs(things) do if t.target then chasing = chasing + 1 end end
		print(("gridtree-love-tiled: %d frames, %d objects from %s, %d enemies chasing a healer, walls: %s"):format(
			frames, #things, "the Tiled level", chasing, level.blocked_by))
		love.event.quit(0)
	end
end

function love.draw()
	love.graphics.scale(zoom)
	local w, h = map:grid_size()
	love.graphics.clear(0.1, 0.1, 0.12)
	love.graphics.setColor(0.4, 0.4, 0.45)
	for y = 0, h - 1 do
		for x = 0, w - 1 do
			if not map:is_free((x + 0.5) * tile, (y + 0.5) * tile) then love.graphics.rectangle("fill", x * tile, y * tile, tile, tile) end
		end
	end
	for _, t in ipairs(things) do
		if t.target and #t.path >= 4 then -- the walking path still ahead, around the walls
			local line = {t.x, t.y}
			for i = 2 * t.segment + 1, #t.path do line[#line + 1] = t.path[i] end
			if #line >= 4 then
				love.graphics.setColor(1, 0.4, 0.4, 0.5)
				love.graphics.line(line)
			end
		end
		love.graphics.setColor(colours[t.type] or {1, 1, 1})
		love.graphics.circle("fill", t.x, t.y, tile * 0.3)
	end
end
