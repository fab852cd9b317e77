#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "scenario.h"

static int scen(const CliArgs* args)
{
	long with_path, repeat;
	if (!cli_int_option(args, "scen", "path", 0, 0, 1, &with_path) ||
	    !cli_int_option(args, "scen", "repeat", 1, 1, 1000, &repeat))
		return CLI_USAGE;
	gtScenario* scen = NULL;
	gtError err;
	if (gtScenario_Load(args->positional[1], &scen, &err)) {
		fprintf(stderr, "gridtree: %s\n", err.message);
		return CLI_FAILED;
	}
	CliNav solver;
	int opened = cli_nav_open(&solver, args, "scen", args->positional[0], false);
	if (opened) {
		gtScenario_Destroy(scen);
		return opened;
	}
	gtVec2* points = malloc((size_t)solver.capacity * sizeof *points);
	int count;
	const gtScenarioEntry* e = gtScenario_Entries(scen, &count);
	int status = points ? CLI_OK : CLI_FAILED, over = 0, unreachable = 0, invalid = 0;
	for (int i = 0; i < count; i++)
		if (e[i].map_width != gtMap_Width(solver.map) || e[i].map_height != gtMap_Height(solver.map)) {
			fprintf(stderr, "gridtree scen: entry %d is for a %dx%d map but %s is %dx%d\n", i + 1, e[i].map_width,
			        e[i].map_height, args->positional[0], gtMap_Width(solver.map), gtMap_Height(solver.map));
			status = CLI_FAILED;
			break;
		}
	// Whole passes are timed (no clock calls between queries); the fastest pass is reported.
	double best = INFINITY;
	for (long pass = 0; pass < repeat && status == CLI_OK; pass++) {
		over = unreachable = invalid = 0;
		double start = gtNowSeconds();
		for (int i = 0; i < count; i++) {
			double d;
			int n;
			gtStatus st = with_path ? gtNavQuery_Path(solver.query, e[i].start, e[i].goal, points, solver.capacity, &n,
			                                          &d, &err)
			                        : gtNavQuery_Distance(solver.query, e[i].start, e[i].goal, &d, &err);
			if (st) invalid++;
			else if (isinf(d)) unreachable++;
			else if (d > e[i].octile + e[i].octile_slack) over++;
		}
		double seconds = gtNowSeconds() - start;
		if (seconds < best) best = seconds;
	}
	double seconds = best;
	if (status == CLI_OK) {
		printf("queries %d\n", count);
		printf("over_octile %d\n", over);
		printf("unreachable %d\n", unreachable);
		printf("invalid %d\n", invalid);
		printf("mean_us %.3f\n", count ? seconds * 1e6 / count : 0.0);
	}
	free(points);
	cli_nav_close(&solver);
	gtScenario_Destroy(scen);
	return status;
}

static const CliOption OPTIONS[] = {
    {"method", "M", CLI_NAV_METHODS, false, "what answers (default auto: the index given with --ehl, else the oracle)"},
    CLI_OPTION_EHL(false),
    CLI_OPTION_MESH,
    {"path", "P", NULL, false, "1: ask for the paths too, 0: distances only (default 0)"},
    {"repeat", "N", NULL, false, "run the scenario N times, 1 to 1000, and report the fastest (default 1)"},
    CLI_OPTION_THREADS,
    CLI_OPTION_EDITS,
    CLI_OPTION_LINKS,
    {0},
};

const CliCommand cli_cmd_scen = {
    "scen", "MAP SCENFILE", "run a MovingAI scenario; print queries, over_octile, unreachable, invalid, mean_us",
    NULL,   OPTIONS,        true,
    scen,
};
