#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_scen(int argc, char** argv)
{
	CliArgs args;
	long threads;
	if (!cli_parse(argc, argv, "scen", "method threads", &args) ||
	    !cli_int_option(&args, "scen", "threads", 0, 0, 256, &threads))
		return CLI_USAGE;
	const char* method = cli_option(&args, "method", "oracle");
	if (strcmp(method, "oracle") != 0) {
		fprintf(stderr, "gridtree scen: unknown --method '%s' (available: oracle)\n", method);
		return CLI_USAGE;
	}
	if (args.positional_count != 2) {
		fprintf(stderr, "usage: gridtree scen MAP SCENFILE [--method oracle]\n");
		return CLI_USAGE;
	}
	gtMap* map = cli_load_map(args.positional[0]);
	if (!map) return CLI_FAILED;
	gtScenario* scen = NULL;
	gtOracle* oracle = NULL;
	gtError err;
	if (gtScenario_Load(args.positional[1], &scen, &err) || gtOracle_Create(map, (int)threads, &oracle, &err)) {
		fprintf(stderr, "gridtree: %s\n", err.message);
		gtScenario_Destroy(scen);
		gtMap_Destroy(map);
		return CLI_FAILED;
	}
	int count;
	const gtScenarioEntry* e = gtScenario_Entries(scen, &count);
	int status = CLI_OK, over = 0, unreachable = 0, invalid = 0;
	double seconds = 0;
	for (int i = 0; i < count; i++) {
		if (e[i].map_width != gtMap_Width(map) || e[i].map_height != gtMap_Height(map)) {
			fprintf(stderr, "gridtree scen: entry %d is for a %dx%d map but %s is %dx%d\n", i + 1, e[i].map_width,
			        e[i].map_height, args.positional[0], gtMap_Width(map), gtMap_Height(map));
			status = CLI_FAILED;
			break;
		}
		double d, start = cli_now_seconds();
		gtStatus st = gtOracle_Distance(oracle, e[i].start, e[i].goal, &d, &err);
		seconds += cli_now_seconds() - start;
		if (st) invalid++;
		else if (isinf(d)) unreachable++;
		else if (d > e[i].octile + e[i].octile_slack) over++;
	}
	if (status == CLI_OK) {
		printf("queries %d\n", count);
		printf("over_octile %d\n", over);
		printf("unreachable %d\n", unreachable);
		printf("invalid %d\n", invalid);
		printf("mean_us %.3f\n", count ? seconds * 1e6 / count : 0.0);
	}
	gtOracle_Destroy(oracle);
	gtScenario_Destroy(scen);
	gtMap_Destroy(map);
	return status;
}
