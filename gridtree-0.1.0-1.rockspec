-- LuaRocks: from the repository root,
--   luarocks --lua-version 5.4 make --local gridtree-0.1.0-1.rockspec
-- builds the module from this source tree and installs it under ~/.luarocks; then
--   eval "$(luarocks --lua-version 5.4 path)"
-- lets lua5.4 find it. Debian's luarocks defaults to Lua 5.1, hence --lua-version 5.4 (drop it
-- where luarocks is set up for 5.4; without --local it installs system-wide and needs root).
-- The sources must list every plugin/src/**.c: tests/test_install.sh checks that they do.
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
				"plugin/lua/lgridtree.c", "plugin/lua/lua_args.c", "plugin/lua/lua_crowd.c", "plugin/lua/lua_map.c",
				"plugin/lua/lua_map_cells.c", "plugin/lua/lua_path.c", "plugin/lua/lua_query.c", "plugin/lua/lua_random.c",
				"plugin/lua/lua_tiled.c", "plugin/lua/lua_util.c", "plugin/lua/lua_world.c", "plugin/lua/lua_links.c",
				"plugin/lua/lua_neighbours.c",
				"plugin/src/core/alloc.c", "plugin/src/core/crc32c.c", "plugin/src/core/platform.c", "plugin/src/core/save_file.c",
				"plugin/src/core/status.c", "plugin/src/core/task.c", "plugin/src/core/job.c",
				"plugin/src/crowd/crowd.c", "plugin/src/crowd/crowd_reach.c", "plugin/src/crowd/crowd_schedule.c",
				"plugin/src/crowd/crowd_walk.c",
				"plugin/src/ehl/ehl_build.c", "plugin/src/ehl/ehl_build_tuples.c", "plugin/src/ehl/ehl_cell_pools.c", "plugin/src/ehl/ehl_def.c", "plugin/src/ehl/ehl_estimate.c", "plugin/src/ehl/ehl_kept_labels.c", "plugin/src/ehl/ehl_field.c", "plugin/src/ehl/ehl_io.c",
				"plugin/src/ehl/ehl_layout.c", "plugin/src/ehl/ehl_links.c", "plugin/src/ehl/ehl_links_layout.c",
				"plugin/src/ehl/ehl_progress.c", "plugin/src/ehl/ehl_query.c", "plugin/src/ehl/ehl_regions.c", "plugin/src/ehl/ehl_repair.c",
				"plugin/src/ehl/ehl_sweep.c", "plugin/src/ehl/ehl_verify.c", "plugin/src/ehl/hub_labels.c", "plugin/src/ehl/hub_labels_merge.c",
				"plugin/src/ehl/hub_labels_order.c", "plugin/src/ehl/hub_labels_local.c", "plugin/src/ehl/ehl_end_ranks.c", "plugin/src/ehl/ehl_cells.c",
				"plugin/src/debug/debug_draw_ehl.c", "plugin/src/debug/debug_draw_map.c",
				"plugin/src/debug/debug_draw_path.c", "plugin/src/debug/debug_draw_trace.c",
				"plugin/src/debug/debug_draw_world.c",
				"plugin/src/map/genmap.c", "plugin/src/map/geometry.c", "plugin/src/map/map.c", "plugin/src/map/map_inflate.c",
				"plugin/src/map/free_runs.c",
				"plugin/src/map/vis_graph.c",
				"plugin/src/map/vis_sweep.c",
				"plugin/src/nav/nav.c", "plugin/src/nav/nav_edit.c", "plugin/src/nav/path_follow.c",
				"plugin/src/nav/nav_backends.c", "plugin/src/nav/backend_ehl.c", "plugin/src/nav/backend_oracle.c",
				"plugin/src/nav/backend_polyanya.c", "plugin/src/nav/backend_euclid.c",
				"plugin/src/nav/nav_links.c", "plugin/src/nav/nav_links_index.c", "plugin/src/nav/nav_links_query.c",
				"plugin/src/nav/nav_links_table.c",
				"plugin/src/nav/nav_reach.c", "plugin/src/nav/nav_floors.c", "plugin/src/nav/nav_view.c", "plugin/src/nav/nav_doors.c", "plugin/src/nav/nav_later.c",
				"plugin/src/neighbours/neighbours.c", "plugin/src/neighbours/neighbours_all.c",
				"plugin/src/neighbours/neighbours_answer.c", "plugin/src/neighbours/neighbours_methods.c",
				"plugin/src/neighbours/neighbours_pairs.c",
				"plugin/src/neighbours/neighbours_query.c", "plugin/src/neighbours/neighbours_sphere.c",
				"plugin/src/oracle/oracle.c",
				"plugin/src/oracle/landmarks.c",
				"plugin/src/oracle/oracle_links.c",
				"plugin/src/mesh/mesh_parse.c",
				"plugin/src/mesh/mesh_locate.c",
				"plugin/src/mesh/polyanya.c",
				"plugin/src/mesh/mesh_build.c",
				"plugin/src/mesh/cdt.c",
				"plugin/src/mesh/mesh_merge.c",
				"plugin/src/mesh/mesh_save.c",
				"plugin/src/mesh/mesh_objects.c",
				"plugin/src/mesh/fence.c",
				"plugin/src/tiled/tiled_data.c",
				"plugin/src/tiled/tiled_doc.c",
				"plugin/src/tiled/tiled_floors.c",
				"plugin/src/tiled/tiled_limits.c",
				"plugin/src/tiled/tiled_paths.c",
				"plugin/src/tiled/tiled_shapes.c",
				"plugin/src/tiled/tiled_tmj.c",
				"plugin/src/tiled/tiled_tmj_scan.c",
				"plugin/src/tiled/tiled_tmx.c",
				"plugin/src/tiled/tiled_walls.c",
				"plugin/src/world/count_table.c", "plugin/src/world/keywords.c", "plugin/src/world/world.c",
				"plugin/src/world/world_clearance.c", "plugin/src/world/world_links.c", "plugin/src/world/world_sides.c",
				"plugin/src/world/world_walk_bound.c",
				"plugin/src/world/world_query.c", "plugin/src/world/world_sphere_query.c",
				"plugin/src/world/world_ring_sources.c", "plugin/src/world/world_tree_query.c", "plugin/src/world/world_validate.c", "plugin/src/world/world_visit.c",
			},
			incdirs = { "plugin/include", "plugin/src" },
			defines = { "_POSIX_C_SOURCE=200809L" },
			libraries = { "cjson", "expat", "z", "zstd", "m", "pthread" },
		},
	},
}
