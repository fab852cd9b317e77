// gridtree inflate: the map for agents with a size, written as a MovingAI map.
#include <stdio.h>

#include "cli.h"

static int inflate(const CliArgs* args)
{
	const char* output = cli_option(args, "o", NULL);
	gtMap* original;
	int opened = cli_open_map(args, "inflate", args->positional[0], &original, NULL);
	if (opened) return opened;
	CliArgs plain = cli_args_without(args, "clearance"); // the same map without it, to report what it took
	gtMap* inflated = original;
	opened = cli_open_map(&plain, "inflate", args->positional[0], &original, NULL);
	if (opened) {
		gtMap_Destroy(inflated);
		return opened;
	}
	gtError err;
	int code = CLI_OK;
	if (gtMap_Save(inflated, output, &err)) {
		fprintf(stderr, "gridtree inflate: %s\n", err.message);
		code = CLI_FAILED;
	} else {
		printf("file %s\nclearance %s\nwidth %d\nheight %d\nfree_cells %lld\nfree_cells_before %lld\n", output,
		       cli_option(args, "clearance", "0"), gtMap_Width(inflated), gtMap_Height(inflated),
		       (long long)gtMap_FreeCells(inflated), (long long)gtMap_FreeCells(original));
	}
	gtMap_Destroy(original);
	gtMap_Destroy(inflated);
	return code;
}

static const CliOption OPTIONS[] = {
    {"clearance", "R", NULL, true, "the agents' half-width in cells, 0 to 32767"},
    {"o", "FILE", NULL, true, "the MovingAI .map file to write"},
    {0},
};

const CliCommand cli_cmd_inflate = {
    "inflate",
    "MAP",
    "write the map for agents of half-width R cells",
    "Every cell within R (Chebyshev) of a wall or the border becomes a wall, so a point is free\n"
    "exactly when such an agent centred there touches no wall.",
    OPTIONS,
    true,
    inflate,
};
