#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int cmd_genmap(int argc, char** argv)
{
	CliArgs args;
	long width, height, seed;
	if (!cli_parse(argc, argv, "genmap", "style width height seed o", &args) ||
	    !cli_int_option(&args, "genmap", "width", 256, GT_GENMAP_MIN_SIDE, GT_GENMAP_MAX_SIDE, &width) ||
	    !cli_int_option(&args, "genmap", "height", 256, GT_GENMAP_MIN_SIDE, GT_GENMAP_MAX_SIDE, &height) ||
	    !cli_int_option(&args, "genmap", "seed", 1, 0, 2147483647L, &seed))
		return CLI_USAGE;
	const char* style_name = cli_option(&args, "style", NULL);
	const char* output = cli_option(&args, "o", NULL);
	if (!cli_usage_unless(style_name && output && args.positional_count == 0,
	                      "genmap --style rooms|caves|arena --width W --height H --seed S -o FILE"))
		return CLI_USAGE;
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
