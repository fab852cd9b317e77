#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static int genmap(const CliArgs* args)
{
	long width, height, seed;
	if (!cli_int_option(args, "genmap", "width", 256, GT_GENMAP_MIN_SIDE, GT_GENMAP_MAX_SIDE, &width) ||
	    !cli_int_option(args, "genmap", "height", 256, GT_GENMAP_MIN_SIDE, GT_GENMAP_MAX_SIDE, &height) ||
	    !cli_int_option(args, "genmap", "seed", 1, 0, 2147483647L, &seed))
		return CLI_USAGE;
	const char* style_name = cli_option(args, "style", NULL);
	const char* output = cli_option(args, "o", NULL);
	gtMapStyle style;
	gtError err;
	if (gtMapStyle_Parse(style_name, &style, &err)) {
		fprintf(stderr, "gridtree genmap: %s\n", err.message);
		return CLI_USAGE;
	}
	gtMap* map;
	if (gtMap_Generate(style, (int)width, (int)height, (uint64_t)seed, &map, &err)) {
		fprintf(stderr, "gridtree genmap: %s\n", err.message);
		return CLI_FAILED;
	}
	if (gtMap_Save(map, output, &err)) {
		fprintf(stderr, "gridtree genmap: %s\n", err.message);
		gtMap_Destroy(map);
		return CLI_FAILED;
	}
	int vertices;
	gtMap_Vertices(map, &vertices);
	printf("file %s\nwidth %d\nheight %d\nfree_cells %lld\nconvex_vertices %d\n", output, gtMap_Width(map),
	       gtMap_Height(map), (long long)gtMap_FreeCells(map), vertices);
	gtMap_Destroy(map);
	return CLI_OK;
}

static const CliOption OPTIONS[] = {
    {"style", "STYLE", "rooms|caves|arena", true, "what kind of map"},
    {"width", "W", NULL, false, "width in cells, 8 to 4096 (default 256)"},
    {"height", "H", NULL, false, "height in cells, 8 to 4096 (default 256)"},
    {"seed", "S", NULL, false, "the random seed, 0 to 2147483647 (default 1): the same seed, the same map"},
    {"o", "FILE", NULL, true, "the MovingAI .map file to write"},
    {0},
};

const CliCommand cli_cmd_genmap = {
    "genmap", "", "write a generated MovingAI map", NULL, OPTIONS, false, genmap,
};
