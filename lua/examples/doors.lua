-- Doors that agents wait for: two halls joined by two doors that open and close on a timer. Each
-- agent walks to a goal in the other hall; while every way there is shut, it waits where it
-- stands, and sets off again the frame a door opens. The index is built with the doors open, so
-- closing them never makes it stale (docs/edits.md). Runs headless:
--   LUA_CPATH_5_4='./bin/?.so' lua5.4 lua/examples/doors.lua [frames]
local gridtree = require "gridtree"

local hall = string.rep(".", 40)
local rows = {}
for y = 1, 15 do rows[y] = hall end
rows[7] = "@@@@@@@@.@@@@@@@@@@@@@@@@@@@@@.@@@@@@@@@" -- the wall between the halls, doors at x = 8 and 30
local map = assert(gridtree.new_map(40, 15, table.concat(rows, "\n")))
local west = map:add_door(8, 6, 8, 6)
local east = map:add_door(30, 6, 30, 6)
assert(map:build_index{cell = 2})

local frames = tonumber(arg[1] or 600)
local rng = gridtree.random(5)
local agents = {}
for i = 1, 40 do
	local top = i % 2 == 0
	local x, y = 1 + rng:below(38) + 0.5, (top and 1 or 9) + rng:below(5) + 0.5
	agents[i] = {x = x, y = y, top = top, path = {}, segment = 1, waited = 0}
end

local function new_goal(a) -- a point in the other hall
	a.top = not a.top
	a.gx, a.gy = 1 + rng:below(38) + 0.5, (a.top and 1 or 9) + rng:below(5) + 0.5
	a.path = nil
end
for _, a in ipairs(agents) do new_goal(a) end

local arrivals, waiting_frames, max_waiting = 0, 0, 0
for frame = 1, frames do
	-- The doors: the west one shut for frames 50-249 of every 300, the east one for 150-349 of 400,
	-- so for a while both are shut and the halls are cut apart.
	local doors_changed = false
	for _, d in ipairs({{west, frame % 300 < 50 or frame % 300 >= 250}, {east, frame % 400 < 150 or frame % 400 >= 350}}) do
		if map:door_open(d[1]) ~= d[2] then
			map:set_door(d[1], d[2])
			doors_changed = true
		end
	end
	local waiting = 0
	for _, a in ipairs(agents) do
		if doors_changed then a.path = nil end -- plan again: a door shut or a shorter way opened
		if not map:is_free(a.x, a.y) then a.y = a.top and 7.05 or 5.95 end -- a door shut on it: back out
		if not a.path then
			local path, length = map:path(a.x, a.y, a.gx, a.gy)
			if path and length < math.huge then a.path, a.segment = path, 1 end
		end
		if a.path then
			local arrived
			a.x, a.y, a.segment, arrived = gridtree.advance(a.path, a.segment, a.x, a.y, 0.5)
			if arrived then
				arrivals = arrivals + 1
				new_goal(a)
			end
		else
			waiting = waiting + 1 -- every way to its goal is shut: wait for a door
			a.waited = a.waited + 1
		end
	end
	waiting_frames = waiting_frames + waiting
	max_waiting = math.max(max_waiting, waiting)
	if frame % 100 == 0 then
		print(("frame %d: west door %s, east door %s, %d agents waiting, %d arrivals so far"):format(frame,
			map:door_open(west) and "open" or "shut", map:door_open(east) and "open" or "shut", waiting, arrivals))
	end
end
print(("%d frames: %d arrivals, at most %d agents waiting at once, %d agent-frames spent waiting, index %s"):format(
	frames, arrivals, max_waiting, waiting_frames, (map:index_state())))
