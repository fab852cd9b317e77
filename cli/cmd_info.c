#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

static int info(const CliArgs* args)
{
	long threads;
	if (!cli_int_option(args, "info", "threads", 0, 0, GT_MAX_THREADS, &threads)) return CLI_USAGE;
	gtMap* map;
	gtTiled* tiled;
	int opened = cli_open_map(args, "info", args->positional[0], &map, &tiled);
	if (opened) return opened;
	int vertices;
	gtMap_Vertices(map, &vertices);
	double start = gtNowSeconds();
	gtOracle* oracle;
	gtError err;
	if (gtOracle_Create(map, (int)threads, &oracle, &err)) {
		fprintf(stderr, "gridtree: %s\n", err.message);
		gtMap_Destroy(map);
		gtTiled_Destroy(tiled);
		return CLI_FAILED;
	}
	double seconds = gtNowSeconds() - start;
	printf("width %d\n", gtMap_Width(map));
	printf("height %d\n", gtMap_Height(map));
	printf("free_cells %" PRId64 "\n", gtMap_FreeCells(map));
	printf("convex_vertices %d\n", vertices);
	printf("pinch_points %d\n", gtMap_PinchCount(map));
	printf("vg_edges %" PRId64 "\n", gtOracle_EdgeCount(oracle));
	printf("vg_build_seconds %.3f\n", seconds);
	printf("fingerprint %016" PRIx64 "\n", gtMap_Fingerprint(map));
	if (tiled) { // where the cells came from, and what else the file holds
		int ox, oy;
		gtTiled_Origin(tiled, &ox, &oy);
		printf("tile_width %d\ntile_height %d\norigin_x %d\norigin_y %d\nblocked_by %s\nobjects %d\n",
		       gtTiled_TileWidth(tiled), gtTiled_TileHeight(tiled), ox, oy, gtTiled_BlockedBy(tiled),
		       gtTiled_ObjectCount(tiled));
		for (int rule = 0; rule < GT_TILED_RULE_COUNT; rule++) // each rule's walls (a cell may count in several)
			printf("walls_%s %" PRId64 "\n", gtTiled_RuleName((gtTiledRule)rule),
			       gtTiled_WallCells(tiled, (gtTiledRule)rule));
		if (gtTiled_FloorCount(tiled) > 1 || gtTiled_LinkCount(tiled) > 0) // docs/links.md, Floors in Tiled
			printf("floors %d\nfloor_width %d\nlinks %d\n", gtTiled_FloorCount(tiled), gtTiled_FloorWidth(tiled),
			       gtTiled_LinkCount(tiled));
		gtTiled_Destroy(tiled);
	}
	gtOracle_Destroy(oracle);
	gtMap_Destroy(map);
	return CLI_OK;
}

static const CliOption OPTIONS[] = {
    CLI_OPTION_THREADS,
    {0},
};

const CliCommand cli_cmd_info = {
    "info",
    "MAP",
    "map statistics as 'key value' lines",
    "width, height, free_cells, convex_vertices, pinch_points, vg_edges, vg_build_seconds and fingerprint;\n"
    "for a Tiled map also its tile size, origin, where its walls came from and its object count.",
    OPTIONS,
    true,
    info,
};
