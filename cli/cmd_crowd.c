// gridtree crowd: the queries of `gridtree knn` answered as batches (gt_crowd.h), printed the same
// way, so every method can be checked against the same expected lines.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

// Queries with the same keywords share a filter: each such group is one batch (a field's unit).
static bool same_words(const WlQuery* a, const WlQuery* b)
{
	if (a->word_count != b->word_count) return false;
	for (int i = 0; i < a->word_count; i++)
		if (strcmp(a->words[i], b->words[i]) != 0) return false;
	return true;
}

static int crowd(const CliArgs* args)
{
	const char* objects_path = cli_option(args, "objects", NULL);
	const char* queries_path = cli_option(args, "queries", NULL);
	long leaf;
	if (!cli_int_option(args, "crowd", "leaf", 16, 1, GT_WORLD_MAX_LEAF_SIZE, &leaf)) return CLI_USAGE;
	gtCrowdMethod method;
	gtError err;
	const char* method_name = cli_option(args, "method", "auto");
	if (gtCrowdMethod_Parse(method_name, &method, &err)) {
		fprintf(stderr, "gridtree crowd: %s\n", err.message);
		return CLI_USAGE;
	}
	// --method names the crowd's method here: the distances are the index's (--ehl), else the oracle's.
	CliArgs nav_args = cli_args_without(args, "method");
	CliNav nav;
	int opened = cli_nav_open(&nav, &nav_args, "crowd", args->positional[0], false);
	if (opened) return opened;
	gtWorldDef def = gtWorld_DefaultDef();
	def.leaf_size = (int)leaf;
	gtWorld* world = NULL;
	gtCrowd* crowd = NULL;
	gtCrowdDef crowd_def = gtCrowd_DefaultDef();
	crowd_def.threads = (int)strtol(cli_option(args, "threads", "0"), NULL, 10); // checked by cli_nav_open
	gtStatus st = gtWorld_Create(nav.map, &def, &world, &err);
	if (!st) st = gtCrowd_Create(world, nav.nav, &crowd_def, &crowd, &err);
	int status = st ? CLI_FAILED : CLI_OK;
	if (st) fprintf(stderr, "gridtree crowd: %s\n", err.message);
	int object_count = 0, query_count = 0;
	WlObject* objects = status ? NULL : wl_read_all(objects_path, 0, &object_count);
	WlQuery* queries = objects ? wl_read_all(queries_path, 3, &query_count) : NULL;
	if (!queries) status = CLI_FAILED;
	WlIds ids = {0};
	char where[1100];
	for (int i = 0; i < object_count && status == CLI_OK; i++) {
		snprintf(where, sizeof where, "%s: object %d", objects_path, i + 1);
		if (!wl_add_object(world, &ids, &objects[i], where)) status = CLI_FAILED;
	}
	int stride = 1;
	for (int i = 0; i < query_count; i++) stride = queries[i].k > stride ? queries[i].k : stride;
	size_t n = query_count > 0 ? (size_t)query_count : 1;
	gtQuery* batch = malloc(n * sizeof *batch);
	int32_t(*words)[WL_MAX_WORDS] = malloc(n * sizeof *words);
	int* order = malloc(n * sizeof *order); // queries grouped by their words
	bool* taken = calloc(n, sizeof *taken);
	gtObjectId* found_ids = malloc(n * (size_t)stride * sizeof *found_ids);
	double* found_dist = malloc(n * (size_t)stride * sizeof *found_dist);
	int* found = malloc(n * sizeof *found);
	gtStatus* statuses = malloc(n * sizeof *statuses);
	if (!batch || !words || !order || !taken || !found_ids || !found_dist || !found || !statuses) {
		fprintf(stderr, "gridtree crowd: out of memory\n");
		status = CLI_FAILED;
	}
	// One batch per group of queries with the same words, answers in the caller's order after.
	int placed = 0;
	for (int i = 0; i < query_count && status == CLI_OK; i++) {
		if (taken[i]) continue;
		int first = placed;
		for (int j = i; j < query_count; j++)
			if (!taken[j] && same_words(&queries[i], &queries[j])) {
				taken[j] = true;
				order[placed] = j;
				batch[placed] = wl_make_query(world, &queries[j], words[placed]);
				placed++;
			}
		gtCrowdQueries group = {batch + first, NULL, placed - first};
		gtCrowdAnswers out = {stride, found_ids + (size_t)first * (size_t)stride,
		                      found_dist + (size_t)first * (size_t)stride, found + first, statuses + first};
		if (gtCrowd_Nearest(crowd, &group, method, &out, NULL, &err)) {
			fprintf(stderr, "gridtree crowd: %s: %s\n", queries_path, err.message);
			status = CLI_FAILED;
		}
	}
	int* position = status == CLI_OK ? malloc(n * sizeof *position) : NULL;
	if (status == CLI_OK && !position) status = CLI_FAILED;
	for (int p = 0; p < query_count && status == CLI_OK; p++) position[order[p]] = p;
	for (int i = 0; i < query_count && status == CLI_OK; i++) {
		int p = position[i];
		if (statuses[p] == GT_ERR_INVALID_POINT) {
			puts("invalid");
			continue;
		}
		if (statuses[p]) {
			fprintf(stderr, "gridtree crowd: %s: query %d: %s\n", queries_path, i + 1, gtStatusName(statuses[p]));
			status = CLI_FAILED;
			break;
		}
		for (int r = 0; r < found[p]; r++) {
			gtObjectId id = found_ids[(size_t)p * (size_t)stride + (size_t)r];
			printf(r ? " %d:%.6f" : "%d:%.6f", ids.file_id[gtObjectId_Slot(id)],
			       found_dist[(size_t)p * (size_t)stride + (size_t)r]);
		}
		putchar('\n');
	}
	free(position);
	free(batch);
	free(words);
	free(order);
	free(taken);
	free(found_ids);
	free(found_dist);
	free(found);
	free(statuses);
	wl_ids_free(&ids);
	free(objects);
	free(queries);
	gtCrowd_Destroy(crowd);
	gtWorld_Destroy(world);
	cli_nav_close(&nav);
	return status;
}

static const CliOption OPTIONS[] = {
    {"objects", "OBJ", NULL, true, "the objects, lines 'id x y kw ...'"},
    {"queries", "Q", NULL, true, "the queries, lines 'x y k kw ...'"},
    {"method", "M", "each|batch|field|auto", false, "how the batches are answered (default auto)"},
    CLI_OPTION_EHL(false),
    {"leaf", "m", NULL, false, "the Grid Tree's leaf size in cells, 1 to 65536 (default 16)"},
    CLI_OPTION_THREADS,
    CLI_OPTION_EDITS,
    CLI_OPTION_LINKS,
    {0},
};

const CliCommand cli_cmd_crowd = {
    "crowd",
    "MAP",
    "the knn queries answered as batches, printed as knn prints them",
    "Queries with the same keywords form one batch.",
    OPTIONS,
    true,
    crowd,
};
