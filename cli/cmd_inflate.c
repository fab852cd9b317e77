// gridtree inflate: the map for agents with a size, written as a MovingAI map.
#include <stdio.h>

#include "cli.h"

int cmd_inflate(int argc, char** argv)
{
	CliArgs args;
	if (!cli_parse(argc, argv, "inflate", "o" CLI_MAP_OPTIONS, &args)) return CLI_USAGE;
	const char* output = cli_option(&args, "o", NULL);
	if (!cli_usage_unless(args.positional_count == 1 && output && cli_option(&args, "clearance", NULL),
	                      "inflate MAP --clearance R -o FILE"))
		return CLI_USAGE;
	gtMap* original;
	int opened = cli_open_map(&args, "inflate", args.positional[0], &original, NULL);
	if (opened) return opened;
	CliArgs plain = cli_args_without(&args, "clearance"); // the same map without it, to report what it took
	gtMap* inflated = original;
	opened = cli_open_map(&plain, "inflate", args.positional[0], &original, NULL);
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
		       cli_option(&args, "clearance", "0"), gtMap_Width(inflated), gtMap_Height(inflated),
		       (long long)gtMap_FreeCells(inflated), (long long)gtMap_FreeCells(original));
	}
	gtMap_Destroy(original);
	gtMap_Destroy(inflated);
	return code;
}
