-- A small LOVE game as docs/install.md ships one: gridtree.so beside the game (a .love file or a
-- fused executable), found through love.filesystem.getSourceBaseDirectory(); the level inside the
-- archive, copied to the save directory because the module reads real files only. The install test
-- runs it headless for 600 frames of 1/60 s against the installed module and checks its last line.
package.cpath = love.filesystem.getSourceBaseDirectory() .. "/?.so;" .. package.cpath

function love.errorhandler(message) -- print and exit: never LOVE's error screen on a headless machine
	print(debug.traceback("error: " .. tostring(message)))
	os.exit(1)
end
love.errhand = love.errorhandler

local gridtree = require "gridtree"
local map, world
local agents = {}
local frames = 0
local rng = gridtree.random(5)

function love.load()
	assert(love.filesystem.write("level.map", assert(love.filesystem.read("level.map"))))
	map = assert(gridtree.load_map(love.filesystem.getSaveDirectory() .. "/level.map"))
	world = gridtree.new_world(map)
	for i = 1, 20 do
		local x, y = assert(map:random_point(rng))
		agents[i] = {id = assert(world:add(x, y, i % 2 == 0 and "red" or "blue")), x = x, y = y, path = {}, segment = 1}
	end
end

function love.update()
	frames = frames + 1
	for _, a in ipairs(agents) do
		local arrived
		a.x, a.y, a.segment, arrived = gridtree.advance(a.path, a.segment, a.x, a.y, 8 / 60)
		if arrived then
			local gx, gy = map:random_point(rng)
			a.path, a.segment = map:path(a.x, a.y, gx, gy) or {}, 1
		end
		assert(world:move(a.id, a.x, a.y))
	end
	if frames == 600 then
		local ids = world:nearest(agents[1].x, agents[1].y, 3, "red")
		print(("installed-game: %d frames, %d nearest reds, %s from %s"):format(frames, #ids, gridtree._VERSION,
			package.searchpath("gridtree", package.cpath)))
		love.event.quit(0)
	end
end

function love.draw()
	for _, a in ipairs(agents) do love.graphics.circle("fill", a.x * 8, a.y * 8, 2) end
end
