// gridtree knn (answers for external checks) and gridtree bench-knn (replays a workload); the
// replay itself lives in the tools support library (bench/support/replay.c).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ier.h"
#include "replay.h"

typedef struct Setup {
	CliNav nav;
	gtMap* map;
	gtWorld* world;
	gtDistance distance;
} Setup;

static void teardown(Setup* s)
{
	gtWorld_Destroy(s->world);
	cli_nav_close(&s->nav);
}

// Map, navigation backend (the index from --ehl, else the oracle) and an empty world with --leaf.
// Returns an exit code: CLI_OK, CLI_USAGE or CLI_FAILED.
static int setup(Setup* s, const CliArgs* args, const char* command, bool need_index)
{
	memset(s, 0, sizeof *s);
	long leaf;
	if (!cli_int_option(args, command, "leaf", 16, 1, GT_WORLD_MAX_LEAF_SIZE, &leaf)) return CLI_USAGE;
	int opened = cli_nav_open(&s->nav, args, command, args->positional[0], need_index);
	if (opened) return opened;
	s->map = s->nav.map;
	gtError err;
	gtStatus st = gtNavQuery_WorldDistance(s->nav.query, &s->distance, &err);
	gtWorldDef def = gtWorld_DefaultDef();
	def.leaf_size = (int)leaf;
	if (!st) st = gtWorld_Create(s->map, &def, &s->world, &err);
	if (st) {
		fprintf(stderr, "gridtree %s: %s\n", command, err.message);
		teardown(s);
		return CLI_FAILED;
	}
	return CLI_OK;
}

// One query's line: `invalid` for a point off the free space, else `id:dist ...`; false (with the
// problem printed) on any other failure.
static bool report(gtStatus st, const gtError* err, const char* queries_path, int query, const int32_t* file_ids,
                   const double* dist, int count)
{
	if (st == GT_ERR_INVALID_POINT) {
		puts("invalid");
		return true;
	}
	if (st) {
		fprintf(stderr, "gridtree knn: %s: query %d: %s\n", queries_path, query + 1, err->message);
		return false;
	}
	for (int r = 0; r < count; r++) printf(r ? " %d:%.6f" : "%d:%.6f", file_ids[r], dist[r]);
	putchar('\n');
	return true;
}

// Whether object o has every word of query q (the Grid Tree's all-of keyword filter).
typedef struct IntervalFilter {
	const WlObject* objects;
	const WlQuery* query;
} IntervalFilter;

static bool has_all_words(void* context, int32_t id)
{
	const IntervalFilter* f = context;
	const WlObject* o = &f->objects[id];
	for (int w = 0; w < f->query->word_count; w++) {
		bool found = false;
		for (int i = 0; i < o->word_count && !found; i++) found = strcmp(o->words[i], f->query->words[w]) == 0;
		if (!found) return false;
	}
	return true;
}

// knn --method interval: the OkNN paper's interval heuristic, Polyanya expanding outwards over the
// mesh (--mesh FILE, else one made from the map) and meeting objects polygon by polygon.
static int knn_interval(const CliArgs* args, const WlObject* objects, int object_count, const WlQuery* queries,
                        int query_count, const char* objects_path, const char* queries_path)
{
	CliArgs nav_args = cli_args_without(args, "method");
	if (nav_args.option_count == (int)(sizeof nav_args.names / sizeof *nav_args.names)) {
		fprintf(stderr, "gridtree knn: too many options\n");
		return CLI_USAGE;
	}
	nav_args.names[nav_args.option_count] = "method";
	nav_args.values[nav_args.option_count++] = "polyanya";
	CliNav nav;
	int opened = cli_nav_open(&nav, &nav_args, "knn", args->positional[0], false);
	if (opened) return opened;
	gtError err;
	gtMeshObjects* placed = NULL;
	gtPolyanya* search = NULL;
	int status = CLI_OK;
	if (gtMeshObjects_Create(gtNav_Mesh(nav.nav), &placed, &err) || gtPolyanya_Create(gtNav_Mesh(nav.nav), &search, &err)) {
		fprintf(stderr, "gridtree knn: %s\n", err.message);
		status = CLI_FAILED;
	}
	for (int i = 0; i < object_count && status == CLI_OK; i++)
		if (gtMeshObjects_Set(placed, i, (gtVec2){objects[i].x, objects[i].y}, &err)) {
			fprintf(stderr, "gridtree knn: %s: object %d: %s\n", objects_path, i + 1, err.message);
			status = CLI_FAILED;
		}
	int32_t* found = NULL;
	double* dist = NULL;
	int capacity = 0;
	for (int i = 0; i < query_count && status == CLI_OK; i++) {
		if (queries[i].k > capacity) {
			capacity = queries[i].k;
			found = realloc(found, (size_t)capacity * sizeof *found);
			dist = realloc(dist, (size_t)capacity * sizeof *dist);
		}
		IntervalFilter filter = {objects, &queries[i]};
		gtVec2 q = {queries[i].x, queries[i].y};
		int count = 0;
		gtStatus st = gtMap_CheckPoint(nav.map, q) != GT_POINT_VALID
		                  ? GT_ERR_INVALID_POINT
		                  : gtPolyanya_Nearest(search, placed, q, queries[i].k, has_all_words, &filter, found, dist, capacity, &count, &err);
		for (int r = 0; r < count; r++) found[r] = objects[found[r]].id; // file ids
		if (!report(st, &err, queries_path, i, found, dist, count)) status = CLI_FAILED;
	}
	free(found);
	free(dist);
	gtPolyanya_Destroy(search);
	gtMeshObjects_Destroy(placed);
	cli_nav_close(&nav);
	return status;
}

int cmd_knn(int argc, char** argv)
{
	CliArgs args;
	if (!cli_parse(argc, argv, "knn", "ehl mesh method threads objects queries leaf edits" CLI_MAP_OPTIONS, &args)) return CLI_USAGE;
	const char* objects_path = cli_option(&args, "objects", NULL);
	const char* queries_path = cli_option(&args, "queries", NULL);
	if (!cli_usage_unless(args.positional_count == 1 && objects_path && queries_path,
	                      "knn MAP [--ehl FILE] [--mesh FILE] [--method M|gt|ier-ehl|ier-polyanya|interval|brute] --objects OBJ --queries Q [--leaf m]"))
		return CLI_USAGE;
	if (strcmp(cli_option(&args, "method", "auto"), "interval") == 0) {
		if (cli_option(&args, "edits", NULL)) {
			fprintf(stderr, "gridtree knn: --method interval searches the mesh, which does not follow --edits\n");
			return CLI_USAGE;
		}
		int object_count, query_count;
		WlObject* objects = wl_read_all(objects_path, 0, &object_count);
		WlQuery* queries = objects ? wl_read_all(queries_path, 3, &query_count) : NULL;
		int code = queries ? knn_interval(&args, objects, object_count, queries, query_count, objects_path, queries_path) : CLI_FAILED;
		free(objects);
		free(queries);
		return code;
	}
	// The OkNN paper's competitors over the same world and filters: gt (the Grid Tree over EHL),
	// ier-ehl and ier-polyanya (Euclidean order, priced by EHL or Polyanya), brute (every matching
	// object priced). Any other --method names the Grid Tree's distance backend.
	const char* method = cli_option(&args, "method", "auto");
	enum { GRID_TREE, IER, BRUTE } strategy = GRID_TREE;
	const char* backend = method;
	if (strcmp(method, "gt") == 0) backend = "ehl";
	else if (strcmp(method, "ier-ehl") == 0) strategy = IER, backend = "ehl";
	else if (strcmp(method, "ier-polyanya") == 0) strategy = IER, backend = "polyanya";
	else if (strcmp(method, "brute") == 0) strategy = BRUTE, backend = "auto";
	gtNavMethod nav_method;
	if (backend == method && gtNavMethod_Parse(method, &nav_method, NULL)) {
		fprintf(stderr, "gridtree knn: unknown --method '%s' (available: auto, ehl, oracle, euclid, polyanya, gt, ier-ehl, "
		        "ier-polyanya, interval, brute)\n", method);
		return CLI_USAGE;
	}
	CliArgs nav_args = cli_args_without(&args, "method");
	if (nav_args.option_count == (int)(sizeof nav_args.names / sizeof *nav_args.names)) {
		fprintf(stderr, "gridtree knn: too many options\n");
		return CLI_USAGE;
	}
	nav_args.names[nav_args.option_count] = "method";
	nav_args.values[nav_args.option_count++] = backend;
	Setup s;
	int opened = setup(&s, &nav_args, "knn", false);
	if (opened) return opened;
	int object_count, query_count;
	WlObject* objects = wl_read_all(objects_path, 0, &object_count);
	WlQuery* queries = objects ? wl_read_all(queries_path, 3, &query_count) : NULL;
	IerScratch ier = {0};
	WlIds ids = {0};
	int status = queries ? CLI_OK : CLI_FAILED;
	char where[1100];
	for (int i = 0; i < object_count && status == CLI_OK; i++) {
		snprintf(where, sizeof where, "%s: object %d", objects_path, i + 1);
		if (!wl_add_object(s.world, &ids, &objects[i], where)) status = CLI_FAILED;
	}
	int capacity = 0;
	gtObjectId* found = NULL;
	int32_t* file_ids = NULL;
	double* dist = NULL;
	for (int i = 0; i < query_count && status == CLI_OK; i++) {
		if (queries[i].k > capacity) {
			capacity = queries[i].k;
			found = realloc(found, (size_t)capacity * sizeof *found);
			file_ids = realloc(file_ids, (size_t)capacity * sizeof *file_ids);
			dist = realloc(dist, (size_t)capacity * sizeof *dist);
		}
		int32_t words[WL_MAX_WORDS];
		gtQuery q = wl_make_query(s.world, &queries[i], words);
		int count;
		gtError err;
		// Walking from a wall is no query (straight lines start anywhere): as gridtree crowd says.
		bool walking = gtNav_Method(s.nav.nav) != GT_NAV_EUCLID;
		gtStatus st = GT_OK;
		if (walking && gtMap_CheckPoint(s.map, q.point) != GT_POINT_VALID) st = GT_ERR_INVALID_POINT;
		else if (strategy == IER) st = ier_nearest(s.world, &q, s.distance, &ier, found, dist, capacity, &count, NULL, &err);
		else if (strategy == BRUTE) st = brute_nearest(s.world, &q, s.distance, &ier, found, dist, capacity, &count, &err);
		else st = gtWorld_Nearest(s.world, &q, s.distance, found, dist, capacity, &count, NULL, &err);
		for (int r = 0; r < count; r++) file_ids[r] = ids.file_id[gtObjectId_Slot(found[r])];
		if (!report(st, &err, queries_path, i, file_ids, dist, count)) status = CLI_FAILED;
	}
	free(found);
	free(file_ids);
	free(dist);
	ier_scratch_free(&ier);
	wl_ids_free(&ids);
	free(objects);
	free(queries);
	teardown(&s);
	return status;
}

int cmd_bench_knn(int argc, char** argv)
{
	CliArgs args;
	long check;
	if (!cli_parse(argc, argv, "bench-knn", "ehl method threads workload leaf check" CLI_MAP_OPTIONS, &args) ||
	    !cli_int_option(&args, "bench-knn", "check", 0, 0, 100000000, &check))
		return CLI_USAGE;
	const char* dir = cli_option(&args, "workload", NULL);
	if (!cli_usage_unless(args.positional_count == 1 && dir,
	                      "bench-knn MAP --ehl FILE [--method M] --workload DIR [--leaf m] [--check N]"))
		return CLI_USAGE;
	Setup s;
	int opened = setup(&s, &args, "bench-knn", true);
	if (opened) return opened;
	WlReplayStats r;
	int status = wl_replay(s.world, s.distance, dir, check, &r) ? CLI_OK : CLI_FAILED;
	if (status == CLI_OK) {
		printf("objects %d\ntimestamps %d\nqueries %d\nleaf_size %s\n", r.objects, r.timestamps, r.queries,
		       cli_option(&args, "leaf", "16"));
		printf("update_us_per_timestamp %.3f\nquery_us %.3f\n", r.update_us_per_timestamp, r.query_us);
		printf("distance_calls_per_query %.3f\nnodes_per_query %.3f\nobjects_tested_per_query %.3f\n",
		       r.distance_calls_per_query, r.nodes_per_query, r.objects_tested_per_query);
		printf("euclid_sphere_us %.3f\neuclid_tree_us %.3f\neuclid_scan_us %.3f\neuclid_mismatches %ld\n",
		       r.euclid_sphere_us, r.euclid_tree_us, r.euclid_scan_us, r.euclid_mismatches);
		if (check) printf("checked %ld\nmismatches %ld\n", r.checked, r.mismatches);
		if (r.mismatches || r.euclid_mismatches) status = CLI_FAILED;
	}
	teardown(&s);
	return status;
}
