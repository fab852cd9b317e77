// gridtree workload: a seeded moving-object workload in the paper's manner (docs/algorithms.md 8);
// the generator lives in the tools support library (bench/support/workload_gen.c).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "workload_gen.h"

static bool double_option(const CliArgs* args, const char* name, double fallback, double lo, double hi, double* out)
{
	const char* text = cli_option(args, name, NULL);
	*out = fallback;
	if (!text) return true;
	char* end;
	*out = strtod(text, &end);
	if (*end || end == text || !(*out >= lo && *out <= hi)) {
		fprintf(stderr, "gridtree workload: --%s must be a number from %g to %g, got '%s'\n", name, lo, hi, text);
		return false;
	}
	return true;
}

int cmd_workload(int argc, char** argv)
{
	CliArgs args;
	long timestamps, queries, k, query_words, clusters, seed;
	WlGenDef def = wl_gen_default();
	if (!cli_parse(argc, argv, "workload",
	               "keywords density mobility timestamps queries k query-keywords clusters churn seed o ehl" CLI_MAP_OPTIONS, &args) ||
	    !cli_int_option(&args, "workload", "timestamps", def.timestamps, 1, 100000, &timestamps) ||
	    !cli_int_option(&args, "workload", "queries", def.queries_per_timestamp, 0, 1000000, &queries) ||
	    !cli_int_option(&args, "workload", "k", def.k, 0, 100000, &k) ||
	    !cli_int_option(&args, "workload", "query-keywords", def.query_words, 0, 8, &query_words) ||
	    !cli_int_option(&args, "workload", "clusters", def.clusters, 0, 10000, &clusters) ||
	    !cli_int_option(&args, "workload", "seed", -1, 0, 2147483647L, &seed) ||
	    !double_option(&args, "density", def.density, 1e-9, 1, &def.density) ||
	    !double_option(&args, "mobility", def.mobility, 0, 1, &def.mobility) ||
	    !double_option(&args, "churn", def.churn, 0, 1, &def.churn))
		return CLI_USAGE;
	const char* keywords = cli_option(&args, "keywords", NULL);
	const char* dir = cli_option(&args, "o", NULL);
	if (!cli_usage_unless(args.positional_count == 1 && keywords && dir && seed >= 0,
	                      "workload MAP --keywords FILE [--density 0.01] [--mobility 0.7] [--timestamps 50]\n"
	                      "       [--queries 100] [--k 3] [--query-keywords 2] [--clusters x] [--churn p] [--ehl FILE] --seed S -o DIR"))
		return CLI_USAGE;
	def.timestamps = (int)timestamps, def.queries_per_timestamp = (int)queries, def.k = (int)k;
	def.query_words = (int)query_words, def.clusters = (int)clusters, def.seed = (uint64_t)seed;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gridtree workload: %s: cannot create: %s\n", dir, strerror(errno));
		return CLI_FAILED;
	}
	// Walkers follow EHL paths: the index from --ehl, else one built at the default cell size.
	gtMap* map;
	int opened = cli_open_map(&args, "workload", args.positional[0], &map, NULL);
	if (opened) return opened;
	gtNav* nav = NULL;
	gtNavQuery* query = NULL;
	gtError err;
	const char* ehl_path = cli_option(&args, "ehl", NULL);
	gtStatus st = gtNav_Create(map, NULL, &nav, &err);
	if (!st) st = ehl_path ? gtNav_LoadIndex(nav, ehl_path, &err) : gtNav_BuildIndex(nav, NULL, &err);
	if (!st) st = gtNavQuery_Create(nav, &query, &err);
	int status = CLI_OK;
	WlGenCounts counts;
	if (st) {
		fprintf(stderr, "gridtree workload: %s\n", err.message);
		status = CLI_FAILED;
	} else if (!wl_generate(query, map, &def, keywords, args.positional[0], dir, &counts)) {
		status = CLI_FAILED;
	} else {
		printf("objects %d\nupdates %ld\nqueries %ld\ndirectory %s\n", counts.objects, counts.updates, counts.queries, dir);
	}
	gtNavQuery_Destroy(query);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	return status;
}
