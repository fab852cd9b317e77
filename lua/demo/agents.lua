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
	assert(world:move_many(ids, xs, ys))
	-- Some agents look for targets: healers find the nearest wounded ally, enemies the nearest elf.
	local queries = 0
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
	return queries
end

-- The query under the mouse: the k nearest agents of any kind, with their paths.
function demo.query(x, y, k, words)
	local found, dists, stats = world:nearest(x, y, k, words, {stats = true})
	if not found then return nil end
	local paths = {}
	for i, id in ipairs(found) do
		local tx, ty = world:position(id)
		paths[i] = map:path(x, y, tx, ty) or {}
	end
	return found, dists, paths, stats
end

return demo
