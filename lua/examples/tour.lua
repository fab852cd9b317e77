-- A short tour of the gridtree Lua API. Run from the repository root after ./run build:
--   LUA_CPATH_5_4='./bin/?.so' lua5.4 lua/examples/tour.lua
local gridtree = require "gridtree"
print(gridtree._VERSION)

-- Maps: load, index for fast distances (or map:load_index a saved one), ask questions.
local map = assert(gridtree.load_map("assets/maps/keep.map"))
assert(map:build_index{cell = 4, progress = function(fraction, stage) end})
local w, h = map:size()
print(("map %dx%d"):format(w, h))
print("is (10.5, 20) free?", map:is_free(10.5, 20))
print("walking distance:", map:distance(10.5, 20, 200, 180.25))
local path = map:path(10.5, 20, 200, 180.25)
print(("the path has %d points"):format(#path // 2))
local x, y, segment, arrived = gridtree.advance(path, 1, path[1], path[2], 10) -- walk 10 units along it
print(("10 units along: (%.1f, %.1f) on segment %d, arrived: %s"):format(x, y, segment, arrived))
local rng = gridtree.random(1) -- seeded: the same numbers on every run
print("a random free point:", map:random_point(rng))
print("a point in a wall:", map:distance(0.5, 0.5, 10.5, 20)) -- nil, message

-- Worlds: tagged objects that move.
local world = gridtree.new_world(map, {leaf = 16})
local healer = world:add(12.5, 20.5, {"healer", "elf"})
local orc = world:add(20.5, 20.5, "orc warrior") -- keywords as a table or one string
world:move(orc, 199.5, 180.5)
world:move_many({healer, orc}, {13.5, 200.5}, {20.5, 180.5})
world:set_keywords(orc, {"orc", "warrior", "chief"})
print("count", world:count(), "healer at", world:position(healer))

-- Queries: sorted ids and walking distances; options filter and refill tables.
local ids, dists = world:nearest(10.5, 20, 2)
print("nearest two:", ids[1] == healer, dists[1], dists[2])
ids, dists = world:nearest(10.5, 20, 1, "orc")
print("nearest orc at", dists[1])
ids = world:within(10.5, 20, 50, nil, {none = {"orc"}})
print("non-orcs within 50:", #ids)
local _, scores = world:top(10.5, 20, 2, {"orc", "chief", "mage"}, {alpha = 0.5})
print("best scores:", scores[1], scores[2])
local out_ids, out_dists = {}, {}
world:nearest(10.5, 20, 2, nil, {into = {out_ids, out_dists}, metric = "euclid"}) -- no new tables
print("straight-line nearest:", out_dists[1])

-- Ids stay stale once removed; misuse raises, expected failures return nil, message.
world:remove(orc)
print("orc valid?", world:valid(orc), pcall(world.move, world, orc, 1, 1))
world:close()
map:close()
