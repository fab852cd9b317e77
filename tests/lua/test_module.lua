-- The module loads with the stock interpreter and describes itself.
local h = ...
local test = h.test

test("require returns the module table", function()
	local gridtree = require "gridtree"
	assert(type(gridtree) == "table")
	assert(package.loaded.gridtree == gridtree)
end)

test("_VERSION names the library and its version", function()
	local gridtree = require "gridtree"
	assert(gridtree._VERSION:match("^gridtree %d+%.%d+%.%d+$"), gridtree._VERSION)
	assert(gridtree.version() == gridtree._VERSION)
	assert(gridtree.version_major == 0)
	assert(gridtree._VERSION == ("gridtree %d.%d.%d"):format(gridtree.version_major, gridtree.version_minor, gridtree.version_patch))
	if math.type then assert(math.type(gridtree.version_major) == "integer") end -- Lua 5.3+
end)
