#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

// info --estimate: what an EHL index would cost, without the visibility graph or the labels.
static int print_estimate(const gtMap* map)
{
	enum { SIZES = 7 };
	static const int sizes[SIZES] = {1, 2, 4, 8, 16, 32, 64};
	int64_t bytes[SIZES];
	gtEhlQuickEstimate guess;
	gtError err;
	double start = gtNowSeconds();
	if (gtEhl_EstimateQuick(map, sizes, SIZES, bytes, &guess, &err)) {
		fprintf(stderr, "gridtree: %s\n", err.message);
		return CLI_FAILED;
	}
	printf("width %d\nheight %d\nconvex_vertices %d\n", gtMap_Width(map), gtMap_Height(map), guess.corners);
	printf("label_entries_estimate %.0f\nuseful_label_entries_estimate %.0f\nlabel_seconds_estimate %.1f\n",
	       guess.label_entries, guess.useful_entries, guess.label_seconds);
	for (int k = 0; k < SIZES; k++) printf("index_mb_estimate_cell_%d %.3f\n", sizes[k], (double)bytes[k] / 1e6);
	printf("least_budget_mb_estimate %.1f\n", guess.least_budget_mb); // peak within twice the budget from here
	printf("estimate_seconds %.3f\n", gtNowSeconds() - start);
	return CLI_OK;
}

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
	if (cli_option(args, "estimate", NULL)) {
		int status = print_estimate(map);
		gtMap_Destroy(map);
		gtTiled_Destroy(tiled);
		return status;
	}
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
    {"estimate", NULL, NULL, false,
     "instead: corners and an EHL index's estimated labels, label time and size per cell size, without building "
     "the visibility graph"},
    {0},
};

const CliCommand cli_cmd_info = {
    "info",
    "MAP",
    "map statistics as 'key value' lines",
    "width, height, free_cells, convex_vertices, pinch_points, vg_edges, vg_build_seconds and fingerprint;\n"
    "for a Tiled map also its tile size, origin, where its walls came from and its object count.\n"
    "With --estimate: width, height, convex_vertices, label_entries_estimate, useful_label_entries_estimate,\n"
    "label_seconds_estimate (one thread), index_mb_estimate_cell_G for G = 1 to 64, least_budget_mb_estimate (the\n"
    "smallest --budget whose build peaks within twice it), estimate_seconds.",
    OPTIONS,
    true,
    info,
};
