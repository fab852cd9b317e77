// gridtree knn (answers for external checks) and gridtree bench-knn (replays a workload); the
// replay itself lives in the tools support library (tools/replay.c).
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

// An answer in the library's order, whatever method found it: by distance, ties by ascending
// world id (the objects file's order), so every method prints the same line.
static void in_answer_order(gtObjectId* handles, int32_t* file_ids, double* dist, int count)
{
	for (int i = 1; i < count; i++) {
		gtObjectId h = handles[i];
		int32_t f = file_ids[i];
		double d = dist[i];
		int j = i;
		for (; j > 0 && (dist[j - 1] > d || (dist[j - 1] == d && handles[j - 1] > h)); j--)
			handles[j] = handles[j - 1], file_ids[j] = file_ids[j - 1], dist[j] = dist[j - 1];
		handles[j] = h, file_ids[j] = f, dist[j] = d;
	}
}

// The mesh searches' filter: the object (by its index in the objects file) has every query word.
typedef struct KnnFilter {
	const gtWorld* world;
	const gtObjectId* handle; // per object index
	const int32_t* words;
	int word_count;
} KnnFilter;

static bool filter_accepts(void* context, int32_t index)
{
	const KnnFilter* f = context;
	return has_all_keywords(f->world, f->handle[index], f->words, f->word_count);
}

enum Strategy { GRID_TREE, IER, BRUTE, INTERVAL, TARGET, FENCE };

// The structures the OkNN paper's methods search besides the world: the IR-tree (IER, target)
// and, on the mesh, the objects listed per polygon and the fence labels of the last word set.
typedef struct Peers {
	IrTree* tree;
	gtMeshObjects* placed;
	gtPolyanya* search;
	gtMeshFence* fence;
	int32_t fence_words[WL_MAX_WORDS];
	int fence_word_count; // -1: no labels yet
	gtObjectId* handle;
} Peers;

static bool same_words(const int32_t* a, int na, const int32_t* b, int nb)
{
	if (na != nb) return false;
	for (int i = 0; i < na; i++)
		if (a[i] != b[i]) return false;
	return true;
}

static gtStatus mesh_nearest(Peers* p, enum Strategy strategy, gtWorld* world, const gtQuery* q, int32_t* found,
                             double* dist, int capacity, int* count, gtError* err)
{
	KnnFilter filter = {world, p->handle, q->keywords, q->keyword_count};
	gtMeshAcceptFcn* accept = q->keyword_count ? filter_accepts : NULL;
	if (strategy == INTERVAL)
		return gtPolyanya_Nearest(p->search, p->placed, q->point, q->k, accept, &filter, found, dist, capacity, count,
		                          err);
	if (strategy == TARGET) {
		TargetGuide guide = {.tree = p->tree, .words = q->keywords, .word_count = q->keyword_count};
		return gtPolyanya_NearestGuided(p->search, p->placed, q->point, q->k, accept, &filter, target_guide, &guide,
		                                found, dist, capacity, count, err);
	}
	if (!same_words(p->fence_words, p->fence_word_count, q->keywords, q->keyword_count)) { // labels for this word set
		gtStatus st = gtMeshFence_Compute(p->fence, p->search, p->placed, accept, &filter, err);
		if (st) return st;
		memcpy(p->fence_words, q->keywords, (size_t)q->keyword_count * sizeof *q->keywords);
		p->fence_word_count = q->keyword_count;
	}
	return gtPolyanya_NearestGuided(p->search, p->placed, q->point, q->k, accept, &filter, gtMeshFence_Guide, p->fence,
	                                found, dist, capacity, count, err);
}

static void peers_free(Peers* p)
{
	irtree_destroy(p->tree);
	gtMeshFence_Destroy(p->fence);
	gtPolyanya_Destroy(p->search);
	gtMeshObjects_Destroy(p->placed);
	free(p->handle);
}

#define PAPER_METHODS "gt|ier-ehl|ier-polyanya|interval|target|fence|brute"

static int knn(const CliArgs* args)
{
	const char* objects_path = cli_option(args, "objects", NULL);
	const char* queries_path = cli_option(args, "queries", NULL);
	// The OkNN paper's methods over the same objects and filters: gt (the Grid Tree over EHL),
	// ier-ehl and ier-polyanya (IR-tree candidates in straight-line order, priced by EHL or
	// Polyanya), interval, target and fence (one search over the mesh, three heuristics), brute
	// (every matching object priced). Any other --method names the Grid Tree's distance backend.
	const char* method = cli_option(args, "method", "auto");
	enum Strategy strategy = GRID_TREE;
	const char* backend = method;
	if (strcmp(method, "gt") == 0) backend = "ehl";
	else if (strcmp(method, "ier-ehl") == 0) strategy = IER, backend = "ehl";
	else if (strcmp(method, "ier-polyanya") == 0) strategy = IER, backend = "polyanya";
	else if (strcmp(method, "interval") == 0) strategy = INTERVAL, backend = "polyanya";
	else if (strcmp(method, "target") == 0) strategy = TARGET, backend = "polyanya";
	else if (strcmp(method, "fence") == 0) strategy = FENCE, backend = "polyanya";
	else if (strcmp(method, "brute") == 0) strategy = BRUTE, backend = "auto";
	gtNavMethod nav_method;
	if (backend == method && gtNavMethod_Parse(method, &nav_method, NULL)) {
		fprintf(stderr, "gridtree knn: unknown --method '%s' (available: %s|%s)\n", method, cli_nav_methods,
		        PAPER_METHODS);
		return CLI_USAGE;
	}
	bool on_mesh = strategy == INTERVAL || strategy == TARGET || strategy == FENCE;
	if (on_mesh && cli_option(args, "edits", NULL)) {
		fprintf(stderr, "gridtree knn: --method %s searches the mesh, which does not follow --edits\n", method);
		return CLI_USAGE;
	}
	CliArgs nav_args = cli_args_without(args, "method");
	if (nav_args.option_count == (int)(sizeof nav_args.names / sizeof *nav_args.names)) {
		fprintf(stderr, "gridtree knn: too many options\n");
		return CLI_USAGE;
	}
	nav_args.names[nav_args.option_count] = "method";
	nav_args.values[nav_args.option_count++] = backend;
	Setup s;
	int opened = setup(&s, &nav_args, "knn", false);
	if (opened) return opened;
	int object_count = 0, query_count = 0;
	WlObject* objects = wl_read_all(objects_path, 0, &object_count);
	WlQuery* queries = objects ? wl_read_all(queries_path, 3, &query_count) : NULL;
	IerScratch scratch = {0};
	WlIds ids = {0};
	Peers p = {.fence_word_count = -1};
	gtError err;
	int status = queries ? CLI_OK : CLI_FAILED;
	if (status == CLI_OK &&
	    (!(p.tree = irtree_create()) || !(p.handle = malloc(((size_t)object_count + 1) * sizeof *p.handle)))) {
		fprintf(stderr, "gridtree knn: out of memory\n");
		status = CLI_FAILED;
	}
	if (status == CLI_OK && on_mesh) {
		const gtMesh* mesh = gtNav_Mesh(s.nav.nav);
		if (gtMeshObjects_Create(mesh, &p.placed, &err) || gtPolyanya_Create(mesh, &p.search, &err) ||
		    gtMeshFence_Create(mesh, &p.fence, &err)) {
			fprintf(stderr, "gridtree knn: %s\n", err.message);
			status = CLI_FAILED;
		}
	}
	char where[1100];
	for (int i = 0; i < object_count && status == CLI_OK; i++) {
		snprintf(where, sizeof where, "%s: object %d", objects_path, i + 1);
		if (!wl_add_object(s.world, &ids, &objects[i], where)) status = CLI_FAILED;
		if (status != CLI_OK) break;
		p.handle[i] = wl_ids_find(&ids, objects[i].id);
		const int32_t* kw;
		int n = gtWorld_GetKeywords(s.world, p.handle[i], &kw);
		gtVec2 at = {objects[i].x, objects[i].y};
		if (strategy == IER || strategy == TARGET) {
			if (!irtree_insert(p.tree, i, at, kw, n)) {
				fprintf(stderr, "gridtree knn: out of memory\n");
				status = CLI_FAILED;
			}
		}
		if (on_mesh && gtMeshObjects_Set(p.placed, i, at, &err)) {
			fprintf(stderr, "gridtree knn: %s: object %d: %s\n", objects_path, i + 1, err.message);
			status = CLI_FAILED;
		}
	}
	int capacity = 1;
	for (int i = 0; i < query_count; i++) capacity = queries[i].k > capacity ? queries[i].k : capacity;
	gtObjectId* found = malloc((size_t)capacity * sizeof *found);
	int32_t* file_ids = malloc((size_t)capacity * sizeof *file_ids);
	double* dist = malloc((size_t)capacity * sizeof *dist);
	if (status == CLI_OK && (!found || !file_ids || !dist)) {
		fprintf(stderr, "gridtree knn: out of memory\n");
		status = CLI_FAILED;
	}
	for (int i = 0; i < query_count && status == CLI_OK; i++) {
		int32_t words[WL_MAX_WORDS];
		gtQuery q = wl_make_query(s.world, &queries[i], words);
		int count = 0;
		// Walking from a wall is no query (straight lines start anywhere): as gridtree crowd says.
		bool walking = gtNavMethod_Caps(gtNav_Method(s.nav.nav)) & GT_NAV_CAP_WALLS;
		gtStatus st = GT_OK;
		if (walking && gtMap_CheckPoint(s.map, q.point) != GT_POINT_VALID) st = GT_ERR_INVALID_POINT;
		else if (on_mesh) {
			st = mesh_nearest(&p, strategy, s.world, &q, file_ids, dist, capacity, &count, &err);
			for (int r = 0; r < count; r++) found[r] = p.handle[file_ids[r]], file_ids[r] = objects[file_ids[r]].id;
		} else if (strategy == IER) {
			ier_nearest(p.tree, q.point, q.keywords, q.keyword_count, q.k, s.distance, found, dist, capacity, &count);
			for (int r = 0; r < count; r++) file_ids[r] = objects[found[r]].id, found[r] = p.handle[found[r]];
		} else {
			if (strategy == BRUTE)
				st = brute_nearest(s.world, &q, s.distance, &scratch, found, dist, capacity, &count, &err);
			else st = gtWorld_Nearest(s.world, &q, s.distance, found, dist, capacity, &count, NULL, &err);
			for (int r = 0; r < count; r++) file_ids[r] = ids.file_id[gtObjectId_Slot(found[r])];
		}
		if (!st) in_answer_order(found, file_ids, dist, count);
		if (!report(st, &err, queries_path, i, file_ids, dist, count)) status = CLI_FAILED;
	}
	free(found);
	free(file_ids);
	free(dist);
	peers_free(&p);
	ier_scratch_free(&scratch);
	wl_ids_free(&ids);
	free(objects);
	free(queries);
	teardown(&s);
	return status;
}

static int bench_knn(const CliArgs* args)
{
	long check;
	if (!cli_int_option(args, "bench-knn", "check", 0, 0, 100000000, &check)) return CLI_USAGE;
	const char* dir = cli_option(args, "workload", NULL);
	Setup s;
	int opened = setup(&s, args, "bench-knn", true);
	if (opened) return opened;
	WlReplayStats r;
	int status = wl_replay(s.world, s.distance, dir, check, &r) ? CLI_OK : CLI_FAILED;
	if (status == CLI_OK) {
		printf("objects %d\ntimestamps %d\nqueries %d\nleaf_size %s\n", r.objects, r.timestamps, r.queries,
		       cli_option(args, "leaf", "16"));
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

static const CliOption KNN_OPTIONS[] = {
    {"objects", "OBJ", NULL, true, "the objects, lines 'id x y kw ...'"},
    {"queries", "Q", NULL, true, "the queries, lines 'x y k kw ...'"},
    {"method", "M", NULL, false,
     "the Grid Tree over a distance backend (those of dist; auto, the default: the index given with --ehl, else the "
     "oracle), or one of the OkNN paper's methods: " PAPER_METHODS},
    CLI_OPTION_EHL(false),
    CLI_OPTION_MESH,
    {"leaf", "m", NULL, false, "the Grid Tree's leaf size in cells, 1 to 65536 (default 16)"},
    CLI_OPTION_THREADS,
    CLI_OPTION_EDITS,
    CLI_OPTION_LINKS,
    {0},
};

const CliCommand cli_cmd_knn = {
    "knn",
    "MAP",
    "the k nearest objects with every keyword of each query, by walking distance",
    "Prints 'id:dist ...' per query, 'invalid' for a query point off the free space. gt is the Grid\n"
    "Tree over EHL; ier-ehl and ier-polyanya take IR-tree candidates in straight-line order; interval,\n"
    "target and fence search the mesh; brute prices every matching object.",
    KNN_OPTIONS,
    true,
    knn,
};

static const CliOption BENCH_OPTIONS[] = {
    CLI_OPTION_EHL(true),
    {"workload", "DIR", NULL, true, "a workload written by gridtree workload"},
    {"method", "M", CLI_NAV_METHODS, false, "the distance backend (default auto: the index)"},
    {"leaf", "m", NULL, false, "the Grid Tree's leaf size in cells, 1 to 65536 (default 16)"},
    {"check", "N", NULL, false, "check N answers against a linear scan, 0 to 100000000 (default 0)"},
    CLI_OPTION_THREADS,
    {0},
};

const CliCommand cli_cmd_bench_knn = {
    "bench-knn", "MAP",     "replay a workload on the Grid Tree; print timings and counts", NULL, BENCH_OPTIONS,
    true,        bench_knn,
};
