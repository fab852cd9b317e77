// gridtree workload: a seeded moving-object workload in the paper's manner (docs/algorithms.md 8);
// the generator lives in the tools support library (tools/workload_gen.c).
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

static int workload(const CliArgs* args)
{
	long timestamps, queries, k, query_words, clusters, seed;
	WlGenDef def = wl_gen_default();
	if (!cli_int_option(args, "workload", "timestamps", def.timestamps, 1, 100000, &timestamps) ||
	    !cli_int_option(args, "workload", "queries", def.queries_per_timestamp, 0, 1000000, &queries) ||
	    !cli_int_option(args, "workload", "k", def.k, 0, 100000, &k) ||
	    !cli_int_option(args, "workload", "query-keywords", def.query_words, 0, 8, &query_words) ||
	    !cli_int_option(args, "workload", "clusters", def.clusters, 0, 10000, &clusters) ||
	    !cli_int_option(args, "workload", "seed", -1, 0, 2147483647L, &seed) ||
	    !double_option(args, "density", def.density, 1e-9, 1, &def.density) ||
	    !double_option(args, "mobility", def.mobility, 0, 1, &def.mobility) ||
	    !double_option(args, "churn", def.churn, 0, 1, &def.churn))
		return CLI_USAGE;
	const char* keywords = cli_option(args, "keywords", NULL);
	const char* dir = cli_option(args, "o", NULL);
	def.timestamps = (int)timestamps, def.queries_per_timestamp = (int)queries, def.k = (int)k;
	def.query_words = (int)query_words, def.clusters = (int)clusters, def.seed = (uint64_t)seed;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gridtree workload: %s: cannot create: %s\n", dir, strerror(errno));
		return CLI_FAILED;
	}
	// Walkers follow EHL paths: the index from --ehl, else one built at the default cell size.
	gtMap* map;
	int opened = cli_open_map(args, "workload", args->positional[0], &map, NULL);
	if (opened) return opened;
	gtNav* nav = NULL;
	gtNavQuery* query = NULL;
	gtError err;
	const char* ehl_path = cli_option(args, "ehl", NULL);
	gtStatus st = gtNav_Create(map, NULL, &nav, &err);
	if (!st) st = ehl_path ? gtNav_LoadIndex(nav, ehl_path, &err) : gtNav_BuildIndex(nav, NULL, &err);
	if (!st) st = gtNavQuery_Create(nav, &query, &err);
	int status = CLI_OK;
	WlGenCounts counts;
	if (st) {
		fprintf(stderr, "gridtree workload: %s\n", err.message);
		status = CLI_FAILED;
	} else if (!wl_generate(query, map, &def, keywords, args->positional[0], dir, &counts)) {
		status = CLI_FAILED;
	} else {
		printf("objects %d\nupdates %ld\nqueries %ld\ndirectory %s\n", counts.objects, counts.updates, counts.queries,
		       dir);
	}
	gtNavQuery_Destroy(query);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	return status;
}

static const CliOption OPTIONS[] = {
    {"keywords", "FILE", NULL, true, "the keywords objects carry, one per line"},
    {"seed", "S", NULL, true, "the random seed, 0 to 2147483647"},
    {"o", "DIR", NULL, true, "the directory to write (objects, updates, queries)"},
    {"density", "D", NULL, false, "objects per free cell, above 0 to 1 (default 0.01)"},
    {"mobility", "P", NULL, false, "the share of objects that move each timestamp, 0 to 1 (default 0.7)"},
    {"timestamps", "N", NULL, false, "timestamps, 1 to 100000 (default 50)"},
    {"queries", "N", NULL, false, "queries per timestamp, 0 to 1000000 (default 100)"},
    {"k", "K", NULL, false, "answers per query, 0 to 100000 (default 3)"},
    {"query-keywords", "N", NULL, false, "keywords per query, 0 to 8 (default 2)"},
    {"clusters", "N", NULL, false, "objects gather in N clusters, 0 to 10000 (default 0: spread uniformly)"},
    {"churn", "P", NULL, false, "the share of objects replaced each timestamp, 0 to 1 (default 0)"},
    CLI_OPTION_EHL(false),
    {0},
};

const CliCommand cli_cmd_workload = {
    "workload",
    "MAP",
    "write a moving-object workload (objects, updates, queries)",
    "Walkers follow EHL paths: the index from --ehl, else one built at the default cell size.",
    OPTIONS,
    true,
    workload,
};
