-- The lua_api fuzz target's interpreter (fuzz_lua_api.c runs it once per input, in a fresh Lua
-- state): the input's bytes are a program of calls on maps and worlds, including build progress
-- callbacks and finalizers that run more of the program in the middle of other calls. Calls may
-- fail (misuse raises, expected failures return nil); the invariants, checked against a model of
-- every map's cells and every world's objects kept here, must hold. A broken invariant raises out
-- of this chunk, which the harness turns into a crash.
local input = ...
local gridtree = require "gridtree"

local at = 1
local function byte()
	local b = input:byte(at)
	at = at + 1
	return b
end
local function pick(n) -- 0 .. n - 1 from the next byte (0 past the end)
	local b = byte() or 0
	return b % n
end

local ROWS = {
	{16, 12, "................" .. "..@@@@....@@@..." .. "..@..@....@.@..." .. "..@..@....@@@..." .. "..@@.@.........." ..
		"......@........." .. ".......@...@@..." .. "...........@@..." .. "..@@@@@@........" .. "..............@." ..
		".....@@@@.....@." .. "................"},
	{8, 6, "........" .. ".@@..@@." .. ".@....@." .. "...@@..." .. ".@....@." .. "........"},
}
local WORDS = {"a", "b", "c", "healer", "enemy"}

local maps, worlds = {}, {} -- models: {map, w, h, scale, x0, y0, cells[y * w + x + 1] = blocked, closed, euclid, doors}
local depth, finalizer_runs, indexing = 0, 0, {}
local closing = false -- Lua finalizes nothing made while the state closes: finalizers stop first

local function check(cond, fmt, ...)
	if not cond then error("invariant: " .. fmt:format(...), 2) end
end

-- An error from a call is fine unless it does not name the function. Allocates nothing on
-- success, so no finalizer runs between a call and the model's update that follows it.
local function call(fn, ...)
	local ok, a, b, c, d = pcall(fn, ...)
	if not ok then
		local msg = tostring(a)
		check(not msg:find("to '?'", 1, true), "an error without a name: %s", msg)
		return false, msg
	end
	return true, a, b, c, d
end

-- Runs a check with the collector stopped: no finalizer changes the model while it is read.
local function quiet(fn, ...)
	collectgarbage("stop")
	local ok, err = pcall(fn, ...)
	collectgarbage("restart")
	if not ok then error(err, 0) end
end

local function a_map()
	local open = {}
	for _, m in ipairs(maps) do if not m.closed then open[#open + 1] = m end end
	if #open == 0 then return nil end
	return open[pick(#open) + 1]
end

local function a_world()
	local open = {}
	for _, w in ipairs(worlds) do if not w.closed then open[#open + 1] = w end end
	if #open == 0 then return nil end
	return open[pick(#open) + 1]
end

local function an_id(w)
	local ids = {}
	for id in pairs(w.objects) do ids[#ids + 1] = id end
	table.sort(ids)
	if #ids == 0 or pick(8) == 0 then return (byte() or 0) * 977 + 1 end -- a made-up id now and then
	return ids[pick(#ids) + 1]
end

-- A point in map units: usually a cell centre, sometimes a border or a point off the map.
local function a_point(m)
	local cx, cy = pick(m.w + 1), pick(m.h + 1)
	local fx = ({0.5, 0, 0.25, 0.999})[pick(4) + 1]
	local x, y = cx + fx, cy + 0.5
	if pick(16) == 0 then x = -3 end
	return m.x0 + x * m.scale, m.y0 + y * m.scale
end

local function free_at(m, x, y) -- the model's answer: inside the map, not strictly inside a wall
	local cx, cy = (x - m.x0) / m.scale, (y - m.y0) / m.scale
	if cx < 0 or cy < 0 or cx > m.w or cy > m.h then return false end
	-- free when a cell touching the point is free (walls and corners count as free)
	for dx = -1, 0 do
		for dy = -1, 0 do
			local ix = math.floor(cx) + (cx == math.floor(cx) and dx or 0)
			local iy = math.floor(cy) + (cy == math.floor(cy) and dy or 0)
			if ix >= 0 and iy >= 0 and ix < m.w and iy < m.h and not m.cells[iy * m.w + ix + 1] then return true end
		end
	end
	return false
end

-- Keywords as given (a list or a string) and as a list.
local function a_words()
	local n, list = pick(3), {}
	for i = 1, n do list[i] = WORDS[pick(#WORDS) + 1] end
	if pick(4) == 0 then return table.concat(list, " "), list end
	return list, list
end

local function has_all(object_words, query)
	if type(query) == "string" then
		local list = {}
		for word in query:gmatch("%S+") do list[#list + 1] = word end
		query = list
	end
	for _, q in ipairs(query or {}) do
		local found = false
		for _, o in ipairs(object_words) do found = found or o == q end
		if not found then return false end
	end
	return true
end

-- A fresh map of the model's cells with the exact oracle: what every distance must be.
local function oracle_of(m)
	local cells = {}
	for i = 1, m.w * m.h do cells[i] = m.cells[i] and true or false end
	local fresh = gridtree.new_map(m.w, m.h, cells)
	fresh:set_units(m.scale, m.x0, m.y0)
	fresh:set_method(m.euclid and "euclid" or "oracle")
	return fresh
end

local function near(a, b)
	return a == b or math.abs(a - b) <= 1e-6 * (1 + math.abs(b))
end

local run -- the program interpreter, called again from callbacks and finalizers

-- Checks a query's answer against brute force over the model. Skipped when a finalizer ran during
-- the call: the answer may then be for the state before or after it.
local function check_nearest(w, x, y, k, words, exclude, ids, dists, runs_before)
	if finalizer_runs ~= runs_before or not ids then return end
	local m = w.map
	local oracle = oracle_of(m)
	local expect = {}
	local skip = {}
	for _, e in ipairs(type(exclude) == "table" and exclude or {exclude}) do skip[e] = true end
	for id, o in pairs(w.objects) do
		if has_all(o.words, words) and not skip[id] then
			-- straight lines ignore walls, also round objects that an edit walled in
			local d = m.euclid and math.sqrt((o.x - x) ^ 2 + (o.y - y) ^ 2) or oracle:distance(x, y, o.x, o.y)
			if d and d < math.huge then expect[#expect + 1] = d end
		end
	end
	table.sort(expect)
	local want = math.min(k, #expect)
	check(#ids == want, "nearest gave %d answers, brute force %d", #ids, want)
	for i = 1, #ids do
		check(w.objects[ids[i]] and not skip[ids[i]], "nearest gave id %s, not a live unexcluded object", tostring(ids[i]))
		check(near(dists[i], expect[i]), "nearest answer %d at %.17g, brute force %.17g", i, dists[i], expect[i])
	end
	oracle:close()
end

local OPS = {}

OPS[#OPS + 1] = function() -- a new map, with units now and then
	if #maps >= 3 then return end
	local shape = ROWS[pick(#ROWS) + 1]
	local w, h, text = shape[1], shape[2], shape[3]
	local cells = {}
	for i = 1, w * h do cells[i] = text:sub(i, i) == "@" end
	local ok, map
	if pick(2) == 0 then
		ok, map = call(gridtree.new_map, w, h, text)
	else -- a cells function that runs more of the program
		ok, map = call(gridtree.new_map, w, h, function(x, y)
			if x == 1 and y == 1 then run(2) end
			return cells[y * w + x + 1]
		end)
	end
	if not ok then return end
	local m = {map = map, w = w, h = h, scale = 1, x0 = 0, y0 = 0, cells = cells, doors = {}}
	if pick(2) == 0 then
		m.scale, m.x0, m.y0 = 2, 10, -4
		check(map:set_units(m.scale, m.x0, m.y0), "set_units")
	end
	maps[#maps + 1] = m
end

OPS[#OPS + 1] = function() -- a new world
	local m = a_map()
	if not m or #worlds >= 4 then return end
	local ok, world = call(gridtree.new_world, m.map, {leaf = 1 + pick(4)})
	if ok then worlds[#worlds + 1] = {world = world, map = m, objects = {}} end
end

OPS[#OPS + 1] = function() -- add
	local w = a_world()
	if not w then return end
	local x, y = a_point(w.map)
	local words, list = a_words()
	local object = {x = x, y = y, words = list}
	local ok, id = call(w.world.add, w.world, x, y, words)
	if ok and id then
		w.objects[id] = object
		quiet(function() check(free_at(w.map, x, y), "add accepted a point in a wall (%g, %g)", x, y) end)
	end
end

OPS[#OPS + 1] = function() -- move
	local w = a_world()
	if not w then return end
	local id, x, y = an_id(w), a_point(w.map)
	local ok, moved = call(w.world.move, w.world, id, x, y)
	if ok then check(w.objects[id] ~= nil, "move accepted id %s", tostring(id)) end
	if ok and moved then w.objects[id].x, w.objects[id].y = x, y end
end

OPS[#OPS + 1] = function() -- remove
	local w = a_world()
	if not w then return end
	local id = an_id(w)
	local ok = call(w.world.remove, w.world, id)
	if ok then
		check(w.objects[id] ~= nil, "remove accepted id %s", tostring(id))
		w.objects[id] = nil
		check(not w.world:valid(id), "a removed id is valid")
	end
end

OPS[#OPS + 1] = function() -- move_many
	local w = a_world()
	if not w then return end
	local ids, xs, ys = {}, {}, {}
	for i = 1, pick(4) do ids[i] = an_id(w); xs[i], ys[i] = a_point(w.map) end
	local ok, moved = call(w.world.move_many, w.world, ids, xs, ys)
	if ok and moved then for i = 1, #ids do w.objects[ids[i]].x, w.objects[ids[i]].y = xs[i], ys[i] end end
end

OPS[#OPS + 1] = function() -- set_keywords and keywords
	local w = a_world()
	if not w then return end
	local id = an_id(w)
	local words, list = a_words()
	local ok = call(w.world.set_keywords, w.world, id, words)
	if ok then
		w.objects[id].words = list
		quiet(function()
			local got = w.world:keywords(id)
			check(has_all(got, list) and has_all(list, got), "keywords() are not the ones set")
		end)
	end
end

OPS[#OPS + 1] = function() -- nearest, checked
	local w = a_world()
	if not w then return end
	local x, y = a_point(w.map)
	local k, words = 1 + pick(5), nil
	if pick(2) == 0 then words = a_words() end
	local list = {}
	if type(words) == "string" then for word in words:gmatch("%S+") do list[#list + 1] = word end else list = words or {} end
	local exclude
	if pick(2) == 0 then exclude = pick(2) == 0 and an_id(w) or {an_id(w), an_id(w)} end
	local opts = {exclude = exclude, metric = pick(4) == 0 and "euclid" or nil}
	local runs = finalizer_runs
	local ok, ids, dists = call(w.world.nearest, w.world, x, y, k, words, opts)
	if ok and ids and not opts.metric then quiet(check_nearest, w, x, y, k, list, exclude, ids, dists, runs) end
end

OPS[#OPS + 1] = function() -- within and top: sorted, inside the radius, live ids
	local w = a_world()
	if not w then return end
	local x, y = a_point(w.map)
	local r = pick(12) * w.map.scale
	local ok, ids, dists = call(w.world.within, w.world, x, y, r, a_words(), {trace = pick(2) == 0})
	if ok and ids then
		for i = 1, #ids do check(dists[i] <= r and (i == 1 or dists[i - 1] <= dists[i]), "within out of order or range") end
	end
	ok, ids, dists = call(w.world.top, w.world, x, y, pick(5), a_words(), {exclude = an_id(w)})
	if ok and ids then for i = 2, #ids do check(dists[i - 1] <= dists[i], "top out of order") end end
end

OPS[#OPS + 1] = function() -- nearest_many, each agent as nearest says
	local w = a_world()
	if not w then return end
	local xs, ys = {}, {}
	for i = 1, 1 + pick(5) do xs[i], ys[i] = a_point(w.map) end
	local k = 1 + pick(3)
	local own
	if pick(2) == 0 then -- each agent's own id, skipped in its answers
		own = {}
		for i = 1, #xs do
			if pick(3) == 0 then own[i] = false else own[i] = an_id(w) end
		end
	end
	local runs = finalizer_runs
	local ok, ids, dists, counts = call(w.world.nearest_many, w.world, xs, ys, k, nil,
		{method = ({"each", "batch", "auto"})[pick(3) + 1], self = own})
	if ok and ids and finalizer_runs == runs then quiet(function()
		for i = 1, #xs do
			local one, oned = w.world:nearest(xs[i], ys[i], k, nil, {exclude = own and own[i] or nil})
			if one then
				check(counts[i] == #one, "nearest_many agent %d: %d answers, nearest %d", i, counts[i], #one)
				for r = 1, #one do check(near(dists[(i - 1) * k + r], oned[r]), "nearest_many agent %d answer %d", i, r) end
			end
		end
	end) end
end

local function apply_rect(m, x0, y0, x1, y1, blocked)
	for y = y0, y1 do for x = x0, x1 do m.cells[y * m.w + x + 1] = blocked end end
end

OPS[#OPS + 1] = function() -- set_blocked (refused while the map is being indexed)
	local m = a_map()
	if not m then return end
	local x0, y0, x1, y1 = pick(m.w), pick(m.h), pick(m.w), pick(m.h)
	if x0 > x1 then x0, x1 = x1, x0 end
	if y0 > y1 then y0, y1 = y1, y0 end
	local blocked = pick(2) == 0
	local ok, err = call(m.map.set_blocked, m.map, m.x0 + x0 * m.scale, m.y0 + y0 * m.scale, m.x0 + x1 * m.scale, m.y0 + y1 * m.scale, blocked)
	if ok then apply_rect(m, x0, y0, x1, y1, blocked) end
	if indexing[m] then check(not ok and tostring(err):find("map is being indexed", 1, true), "an edit during the build: %s", tostring(err)) end
end

OPS[#OPS + 1] = function() -- doors
	local m = a_map()
	if not m then return end
	if pick(2) == 0 or #m.doors == 0 then
		local x, y = pick(m.w), pick(m.h)
		local door = {x, y}
		local ok, id = call(m.map.add_door, m.map, m.x0 + x * m.scale, m.y0 + y * m.scale, m.x0 + x * m.scale, m.y0 + y * m.scale)
		if ok then apply_rect(m, x, y, x, y, false); m.doors[id + 1] = door end
	else
		local id = pick(#m.doors)
		local open = pick(2) == 0
		local ok = call(m.map.set_door, m.map, id, open)
		if ok then apply_rect(m, m.doors[id + 1][1], m.doors[id + 1][2], m.doors[id + 1][1], m.doors[id + 1][2], not open) end
	end
end

OPS[#OPS + 1] = function() -- build_index with a progress callback that runs more of the program
	local m = a_map()
	if not m then return end
	local steps = pick(3)
	indexing[m] = (indexing[m] or 0) + 1
	local ok = call(m.map.build_index, m.map, {cell = 1 + pick(4), threads = 1, progress = function()
		if steps > 0 then steps = steps - 1; run(2) end
	end})
	indexing[m] = indexing[m] - 1
	if indexing[m] == 0 then indexing[m] = nil end
	if ok then check(m.closed or m.map:index_state() ~= "none", "no index after build_index") end
end

OPS[#OPS + 1] = function() -- path: its length is the distance, its ends the points
	local m = a_map()
	if not m then return end
	local ax, ay = a_point(m)
	local bx, by = a_point(m)
	local ok, path, length = call(m.map.path, m.map, ax, ay, bx, by)
	if ok and path and #path > 0 then quiet(function()
		check(near(path[1], ax) and near(path[2], ay) and near(path[#path - 1], bx) and near(path[#path], by), "path ends")
		local sum = 0
		for i = 3, #path, 2 do sum = sum + math.sqrt((path[i] - path[i - 2]) ^ 2 + (path[i + 1] - path[i - 1]) ^ 2) end
		check(near(sum, length), "path length %.17g, sum of its segments %.17g", length, sum)
		local x, y, segment, arrived = gridtree.advance(path, 1, ax, ay, pick(4) * m.scale)
		check(segment >= 1 and segment <= #path / 2 and (x ~= nil and y ~= nil and arrived ~= nil), "advance segment")
	end) end
end

local finalizers_made = 0
OPS[#OPS + 1] = function() -- a finalizer that runs more of the program at some later allocation
	-- Bounded: finalizers that make finalizers would otherwise double every collection.
	if finalizers_made >= 64 then return end
	finalizers_made = finalizers_made + 1
	local start = at
	at = at + 4
	local fn = function()
		if closing then return end
		finalizer_runs = finalizer_runs + 1
		local saved = at
		at = start
		run(2)
		at = saved
	end
	if jit then getmetatable(newproxy(true)).__gc = fn else setmetatable({}, {__gc = fn}) end
end

OPS[#OPS + 1] = function() -- the collector
	local how = pick(4)
	if how == 0 then collectgarbage() elseif how == 1 then collectgarbage("step", 0)
	elseif how == 2 then
		if jit then collectgarbage("setpause", 0) else collectgarbage("incremental", 0, 1000, 0) end
	else
		if jit then collectgarbage("setpause", 200) else collectgarbage("incremental", 200, 100, 13) end
	end
end

OPS[#OPS + 1] = function() -- close a world or a map
	if pick(2) == 0 then
		local w = a_world()
		if w then w.world:close(); w.closed = true end
	else
		local m = a_map()
		if m then
			local ok = call(m.map.close, m.map)
			if ok then m.closed = true else check(indexing[m], "close refused outside a build") end
		end
	end
end

OPS[#OPS + 1] = function() -- set_method, inflate, stale ids
	local m = a_map()
	if m then
		local method = ({"auto", "oracle", "euclid", "ehl"})[pick(4) + 1]
		local ok = call(m.map.set_method, m.map, method)
		if ok then m.euclid = method == "euclid" end
		call(m.map.inflate, m.map, pick(3) * m.scale)
	end
	local w = a_world()
	if w then
		local id = (byte() or 0) * 16777216 + pick(256)
		if pick(2) == 0 then id = an_id(w) end
		local valid = w.world:valid(id)
		check(valid == (w.objects[id] ~= nil), "valid(%s)", tostring(id))
	end
end

local crowds = {} -- {crowd, world = the world's model, out = its into tables}
OPS[#OPS + 1] = function() -- crowd objects: made, closed, or a budgeted frame checked against nearest
	local choice = pick(4)
	if choice == 0 then
		local w = a_world()
		if not w or #crowds >= 4 then return end
		local ok, crowd = call(gridtree.new_crowd, w.world, {threads = pick(3), method = ({"each", "batch", "auto"})[pick(3) + 1]})
		if ok and crowd then crowds[#crowds + 1] = {crowd = crowd, world = w, out = {{}, {}, {}}} end
		return
	end
	if #crowds == 0 then return end
	local c = crowds[pick(#crowds) + 1]
	if choice == 1 then c.crowd:close(); return end
	local xs, ys = {}, {}
	for i = 1, 1 + pick(5) do xs[i], ys[i] = a_point(c.world.map) end
	local k = 1 + pick(3)
	local opts = {into = c.out}
	if choice == 2 then opts.max_agents = 1 + pick(4) else opts.budget_us = 1 + pick(100) end
	for i = 1, #xs do c.out[3][i] = false end -- false: not answered by this call
	local runs = finalizer_runs
	local ok, _, dists, counts = call(c.crowd.nearest, c.crowd, xs, ys, k, nil, opts)
	if ok and finalizer_runs == runs and not c.world.closed then quiet(function()
		for i = 1, #xs do
			local one, oned = c.world.world:nearest(xs[i], ys[i], k)
			if one and counts[i] ~= false then
				check(counts[i] == #one, "crowd agent %d: %d answers, nearest %d", i, counts[i], #one)
				for r = 1, #one do check(near(dists[(i - 1) * k + r], oned[r]), "crowd agent %d answer %d", i, r) end
			end
		end
	end) end
end

-- Adds and checked queries are the most frequent ops, so worlds fill up and are checked often.
do
	local add, nearest, nearest_many = OPS[3], OPS[8], OPS[10]
	for _ = 1, 3 do OPS[#OPS + 1] = add end
	OPS[#OPS + 1] = nearest
	OPS[#OPS + 1] = nearest
	OPS[#OPS + 1] = nearest_many
end

local ops_run = 0
run = function(budget)
	depth = depth + 1
	if depth > 4 then depth = depth - 1; return end
	for _ = 1, budget or math.huge do
		local b = byte()
		if not b or ops_run >= 4000 then break end -- nested programs re-read bytes: bounded in all
		ops_run = ops_run + 1
		OPS[b % #OPS + 1]()
	end
	depth = depth - 1
end

run()
closing = true
collectgarbage()
collectgarbage()
-- Every world still open is consistent.
for _, w in ipairs(worlds) do
	if not w.closed then
		local ok, valid = pcall(w.world.validate, w.world)
		check(not ok or valid, "validate failed")
	end
end
