// gridtree ehl-verify: sampled answers of a saved index against the exact oracle, so a user can
// tell a trustworthy index from a wrong one (loading alone only proves it safe to query).
#include <stdio.h>

#include "cli.h"

static int ehl_verify(const CliArgs* args)
{
	long samples, seed;
	if (!cli_int_option(args, "ehl-verify", "samples", 1000, 1, 100000000L, &samples) ||
	    !cli_int_option(args, "ehl-verify", "seed", 1, 0, 2147483647L, &seed))
		return CLI_USAGE;
	gtMap* map;
	int opened = cli_open_map(args, "ehl-verify", args->positional[0], &map, NULL);
	if (opened) return opened;
	gtEhl* ehl;
	gtError err;
	if (gtEhl_Load(map, args->positional[1], &ehl, &err)) {
		fprintf(stderr, "gridtree ehl-verify: %s\n", err.message);
		gtMap_Destroy(map);
		return CLI_FAILED;
	}
	gtEhlVerifyReport r;
	gtStatus st = gtEhl_Verify(ehl, (int)samples, (uint64_t)seed, &r, &err);
	if (st == GT_OK || st == GT_ERR_FORMAT) { // FORMAT: the index answered, wrongly
		printf("samples %d\n", r.samples);
		printf("mismatches %d\n", r.mismatches);
		printf("max_relative_error %.3g\n", r.max_relative_error);
		if (r.failure)
			printf("first_failure %.17g %.17g %.17g %.17g %s\n", r.failure_source.x, r.failure_source.y,
			       r.failure_target.x, r.failure_target.y, r.failure);
		printf("verdict %s\n", st == GT_OK ? "ok" : "wrong");
	}
	if (st) fprintf(stderr, "gridtree ehl-verify: %s\n", err.message);
	gtEhl_Destroy(ehl);
	gtMap_Destroy(map);
	return st ? CLI_FAILED : CLI_OK;
}

static const CliOption OPTIONS[] = {
    {"samples", "N", NULL, false, "random point pairs to compare, 1 to 100000000 (default 1000)"},
    {"seed", "S", NULL, false, "the random seed, 0 to 2147483647 (default 1)"},
    {0},
};

const CliCommand cli_cmd_ehl_verify = {
    "ehl-verify",
    "MAP FILE",
    "compare an index's distances and paths with the exact oracle",
    "FILE is an index of MAP (gridtree ehl-build); prints samples, mismatches, max_relative_error and\n"
    "verdict ok or wrong (exit 1).",
    OPTIONS,
    true,
    ehl_verify,
};
