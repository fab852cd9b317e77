-- LuaRocks: `luarocks make` builds the module from this source tree and installs it.
rockspec_format = "3.0"
package = "gridtree"
version = "0.1.0-1"
source = {
	url = "git+file://.",
}
description = {
	summary = "Nearest objects by walking distance on grid maps, for game AI",
	detailed = [[
gridtree answers "which k objects tagged healer are nearest to me, walking around the walls?"
with exact obstacle-avoiding distances (Euclidean Hub Labeling) and a Grid Tree of moving,
keyword-tagged objects. See lua/README.md for the API.
]],
	license = "MIT",
}
dependencies = {
	"lua >= 5.4, < 5.5",
}
build = {
	type = "builtin",
	modules = {
		gridtree = {
			sources = {
				"plugin/lua/lgridtree.c",
				"plugin/src/count_table.c", "plugin/src/crc32c.c", "plugin/src/ehl_build.c",
				"plugin/src/ehl_io.c", "plugin/src/ehl_query.c", "plugin/src/ehl_sweep.c",
				"plugin/src/genmap.c", "plugin/src/geometry.c", "plugin/src/hub_labels.c",
				"plugin/src/keywords.c", "plugin/src/map.c", "plugin/src/oracle.c",
				"plugin/src/scenario.c", "plugin/src/status.c", "plugin/src/vis_graph.c",
				"plugin/src/world.c", "plugin/src/world_query.c",
			},
			incdirs = { "plugin/include", "plugin/src" },
			defines = { "_POSIX_C_SOURCE=200809L" },
			libraries = { "m", "pthread" },
		},
	},
}
