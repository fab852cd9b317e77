// gridtree bench-peers: the Grid Tree beside its competitors on one workload, in one run. Every
// timestamp's updates go to each method's own structure (the Grid Tree's world; the IR-tree of
// IER and the target heuristic; the mesh's object lists; fence labels go stale and are made again
// when next needed), then each query is answered by every method in turn, each query starting with
// the next method, so machine noise and cold caches hit them alike; answers are cross-checked
// against the Grid Tree's. --methods runs a subset (for callgrind).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ier.h"
#include "replay.h"

enum { GT, IER_EHL, IER_POLYANYA, INTERVAL, TARGET, FENCE, BRUTE, METHODS };
static const char* const NAMES[METHODS] = {"gt", "ier-ehl", "ier-polyanya", "interval", "target", "fence", "brute"};
enum { WORLD, TREE, MESH, STRUCTURES };

typedef struct Peers {
	gtWorld* world;
	WlIds ids;
	IrTree* tree;          // ids: the workload's object ids
	gtMeshObjects* placed; // the same ids
	gtPolyanya* polyanya;
	gtMeshFence* fence;
	bool fence_fresh; // labels of the current objects for fence_words
	int32_t fence_words[WL_MAX_WORDS];
	int fence_word_count;
	gtNav* mesh_nav;
	gtNavQuery* mesh_query;
	// Each EHL method has its own query object, as each agent in a game queries with one method:
	// a shared one would hand the second method the source the first one set up.
	gtNavQuery *ier_query, *brute_query;
	gtDistance ehl, ier_ehl, brute_ehl, mesh;
	IerScratch scratch;
	const int32_t* words; // the query being answered (the mesh searches' filter)
	int word_count;
} Peers;

// The mesh searches' filter: the object (by workload id) has every query word.
static bool has_words(void* context, int32_t file_id)
{
	const Peers* p = context;
	return has_all_keywords(p->world, wl_ids_find(&p->ids, file_id), p->words, p->word_count);
}

// One update to every structure; seconds spent by each added to `spent`.
static bool apply_update(Peers* p, const WlUpdate* up, double* spent, gtError* err)
{
	gtVec2 at = {up->object.x, up->object.y};
	double s0 = gtNowSeconds();
	bool ok;
	if (up->op == WL_INSERT) ok = wl_add_object(p->world, &p->ids, &up->object, "updates.txt");
	else if (up->op == WL_DELETE) {
		ok = !gtWorld_Remove(p->world, wl_ids_find(&p->ids, up->object.id), err);
		if (ok) wl_ids_forget(&p->ids, up->object.id);
	} else ok = !gtWorld_Move(p->world, wl_ids_find(&p->ids, up->object.id), at, err);
	double s1 = gtNowSeconds();
	if (ok) {
		const int32_t* kw;
		int n = up->op == WL_INSERT ? gtWorld_GetKeywords(p->world, wl_ids_find(&p->ids, up->object.id), &kw) : 0;
		ok = up->op == WL_INSERT   ? irtree_insert(p->tree, up->object.id, at, kw, n)
		     : up->op == WL_DELETE ? irtree_remove(p->tree, up->object.id)
		                           : irtree_move(p->tree, up->object.id, at);
		if (!ok) gtError_Set(err, GT_ERR_NOMEM, "the IR-tree refused object %d", up->object.id);
	}
	double s2 = gtNowSeconds();
	if (up->op == WL_DELETE) gtMeshObjects_Remove(p->placed, up->object.id);
	else ok = ok && !gtMeshObjects_Set(p->placed, up->object.id, at, err);
	double s3 = gtNowSeconds();
	spent[WORLD] += s1 - s0, spent[TREE] += s2 - s1, spent[MESH] += s3 - s2;
	p->fence_fresh = false;
	return ok;
}

static bool same_words(const int32_t* a, int na, const int32_t* b, int nb)
{
	if (na != nb) return false;
	for (int i = 0; i < na; i++)
		if (a[i] != b[i]) return false;
	return true;
}

// Method m's answer to q (its distances into `got`); fence labels made when stale, their time
// added to *labelling. False when the labels could not be made.
static bool answer(Peers* p, int m, const gtQuery* q, int most_k, gtObjectId* found, int32_t* mesh_found, double* got,
                   int* n, double* labelling, long* label_runs, gtError* err)
{
	gtMeshAcceptFcn* accept = q->keyword_count ? has_words : NULL; // no filter to pay for without words
	if (m == GT) gtWorld_Nearest(p->world, q, p->ehl, found, got, most_k, n, NULL, NULL);
	else if (m == IER_EHL)
		ier_nearest(p->tree, q->point, q->keywords, q->keyword_count, q->k, p->ier_ehl, found, got, most_k, n);
	else if (m == IER_POLYANYA)
		ier_nearest(p->tree, q->point, q->keywords, q->keyword_count, q->k, p->mesh, found, got, most_k, n);
	else if (m == INTERVAL)
		gtPolyanya_Nearest(p->polyanya, p->placed, q->point, q->k, accept, p, mesh_found, got, most_k, n, NULL);
	else if (m == TARGET) {
		TargetGuide guide = {.tree = p->tree, .words = q->keywords, .word_count = q->keyword_count};
		gtPolyanya_NearestGuided(p->polyanya, p->placed, q->point, q->k, accept, p, target_guide, &guide, mesh_found,
		                         got, most_k, n, NULL);
	} else if (m == FENCE) {
		if (!p->fence_fresh || !same_words(p->fence_words, p->fence_word_count, q->keywords, q->keyword_count)) {
			double start = gtNowSeconds();
			if (gtMeshFence_Compute(p->fence, p->polyanya, p->placed, accept, p, err)) return false;
			*labelling += gtNowSeconds() - start;
			++*label_runs;
			memcpy(p->fence_words, q->keywords, (size_t)q->keyword_count * sizeof *q->keywords);
			p->fence_word_count = q->keyword_count;
			p->fence_fresh = true;
		}
		gtPolyanya_NearestGuided(p->polyanya, p->placed, q->point, q->k, accept, p, gtMeshFence_Guide, p->fence,
		                         mesh_found, got, most_k, n, NULL);
	} else brute_nearest(p->world, q, p->brute_ehl, &p->scratch, found, got, most_k, n, NULL);
	return true;
}

// Which methods --methods names (a comma-separated list; gt always runs: the others are checked
// against it). False, with a message, on an unknown name.
static bool chosen_methods(const char* list, bool* on)
{
	for (int m = 0; m < METHODS; m++) on[m] = !list || m == GT;
	for (const char* at = list; at && *at;) {
		size_t len = strcspn(at, ",");
		int m = 0;
		while (m < METHODS && !(strlen(NAMES[m]) == len && !strncmp(at, NAMES[m], len))) m++;
		if (m == METHODS) {
			fprintf(stderr, "gridtree bench-peers: unknown method '%.*s' in --methods\n", (int)len, at);
			return false;
		}
		on[m] = true;
		at += len + (at[len] == ',');
	}
	return true;
}

static int compare_doubles(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

// The means over the queries that no method took over 20 times its median + 20 us in: on a shared
// machine one preempted 10 us query adds milliseconds to one method's plain mean, and the plain
// ratio of a run swings 0.5-2x at load 10; dropping the whole query keeps the methods on the same
// queries. Prints M_query_us_steady, M_ratio_steady and steady_queries; false when out of memory.
static bool print_steady(const double* times, long answered, const bool* on)
{
	if (answered == 0) return true;
	double* column = malloc((size_t)answered * sizeof *column);
	if (!column) return false;
	double limit[METHODS] = {0}, sum[METHODS] = {0};
	for (int m = 0; m < METHODS; m++) {
		if (!on[m]) continue;
		for (long i = 0; i < answered; i++) column[i] = times[i * METHODS + m];
		qsort(column, (size_t)answered, sizeof *column, compare_doubles);
		limit[m] = 20 * column[answered / 2] + 20e-6;
	}
	free(column);
	long kept = 0;
	for (long i = 0; i < answered; i++) {
		bool steady = true;
		for (int m = 0; m < METHODS; m++) steady = steady && (!on[m] || times[i * METHODS + m] <= limit[m]);
		if (!steady) continue;
		kept++;
		for (int m = 0; m < METHODS; m++) sum[m] += on[m] ? times[i * METHODS + m] : 0;
	}
	printf("steady_queries %ld\n", kept);
	for (int m = 0; m < METHODS; m++)
		if (on[m])
			printf("%s_query_us_steady %.3f\n%s_ratio_steady %.2f\n", NAMES[m], kept ? sum[m] * 1e6 / (double)kept : 0,
			       NAMES[m], sum[GT] > 0 ? sum[m] / sum[GT] : 0);
	return true;
}

static int bench_peers(const CliArgs* args)
{
	bool on[METHODS];
	if (!chosen_methods(cli_option(args, "methods", NULL), on)) return CLI_USAGE;
	int order[METHODS], running = 0;
	for (int m = 0; m < METHODS; m++)
		if (on[m]) order[running++] = m;
	long leaf;
	if (!cli_int_option(args, "bench-peers", "leaf", 16, 1, GT_WORLD_MAX_LEAF_SIZE, &leaf)) return CLI_USAGE;
	const char* dir = cli_option(args, "workload", NULL);
	CliNav nav; // EHL
	int opened = cli_nav_open(&nav, args, "bench-peers", args->positional[0], true);
	if (opened) return opened;
	Peers p = {0};
	gtError err = {0};
	int code = CLI_OK;
	const char* mesh_path = cli_option(args, "mesh", NULL);
	gtMesh* mesh = NULL;
	gtStatus st = gtNav_Create(nav.map, NULL, &p.mesh_nav, &err);
	double mesh_seconds = gtNowSeconds();
	if (!st) st = mesh_path ? gtMesh_Load(mesh_path, &mesh, &err) : gtMesh_FromMap(nav.map, &mesh, &err);
	mesh_seconds = gtNowSeconds() - mesh_seconds;
	if (!st) st = gtNav_SetMesh(p.mesh_nav, mesh, &err); // the nav takes the mesh
	if (!st) st = gtNav_SetMethod(p.mesh_nav, GT_NAV_POLYANYA, &err);
	if (!st) st = gtNavQuery_Create(p.mesh_nav, &p.mesh_query, &err);
	if (!st) st = gtNavQuery_WorldDistance(nav.query, &p.ehl, &err);
	if (!st) st = gtNavQuery_Create(nav.nav, &p.ier_query, &err);
	if (!st) st = gtNavQuery_WorldDistance(p.ier_query, &p.ier_ehl, &err);
	if (!st) st = gtNavQuery_Create(nav.nav, &p.brute_query, &err);
	if (!st) st = gtNavQuery_WorldDistance(p.brute_query, &p.brute_ehl, &err);
	if (!st) st = gtNavQuery_WorldDistance(p.mesh_query, &p.mesh, &err);
	gtWorldDef wdef = gtWorld_DefaultDef();
	wdef.leaf_size = (int)leaf;
	if (!st) st = gtWorld_Create(nav.map, &wdef, &p.world, &err);
	if (!st) st = gtMeshObjects_Create(gtNav_Mesh(p.mesh_nav), &p.placed, &err);
	if (!st) st = gtPolyanya_Create(gtNav_Mesh(p.mesh_nav), &p.polyanya, &err);
	if (!st) st = gtMeshFence_Create(gtNav_Mesh(p.mesh_nav), &p.fence, &err);
	if (!st && !(p.tree = irtree_create())) st = gtError_Set(&err, GT_ERR_NOMEM, "out of memory for the IR-tree");
	if (st) {
		fprintf(stderr, "gridtree bench-peers: %s\n", err.message);
		code = CLI_FAILED;
		goto done;
	}
	char path[4096];
	int object_count = 0, update_count = 0, query_count = 0;
	snprintf(path, sizeof path, "%s/objects.txt", dir);
	WlObject* objects = wl_read_all(path, 0, &object_count);
	snprintf(path, sizeof path, "%s/updates.txt", dir);
	WlUpdate* updates = objects ? wl_read_all(path, 1, &update_count) : NULL;
	snprintf(path, sizeof path, "%s/queries.txt", dir);
	WlQuery* queries = updates ? wl_read_all(path, 2, &query_count) : NULL;
	int most_k = 1;
	for (int i = 0; i < query_count; i++) most_k = queries[i].k > most_k ? queries[i].k : most_k;
	gtObjectId* found = malloc((size_t)most_k * sizeof *found);
	double* got = malloc((size_t)(METHODS * most_k) * sizeof *got); // a row per method
	int32_t* mesh_found = malloc((size_t)most_k * sizeof *mesh_found);
	double* times = malloc(((size_t)query_count * METHODS + 1) * sizeof *times); // a row per query
	if (!queries || !found || !got || !mesh_found || !times) {
		code = CLI_FAILED;
		goto free_all;
	}
	double query_seconds[METHODS] = {0}, update_seconds[STRUCTURES] = {0}, labelling = 0;
	long mismatches[METHODS] = {0}, answered = 0, label_runs = 0;
	bool ok = true;
	for (int i = 0; i < object_count && ok; i++) {
		WlUpdate add = {.t = 0, .op = WL_INSERT, .object = objects[i]};
		double ignored[STRUCTURES] = {0};
		ok = apply_update(&p, &add, ignored, &err);
	}
	int timestamps = 0, u = 0, qi = 0;
	for (int i = 0; i < update_count; i++) timestamps = updates[i].t + 1 > timestamps ? updates[i].t + 1 : timestamps;
	for (int i = 0; i < query_count; i++) timestamps = queries[i].t + 1 > timestamps ? queries[i].t + 1 : timestamps;
	for (int t = 0; t < timestamps && ok; t++) {
		for (; u < update_count && updates[u].t == t && ok; u++) {
			double spent[STRUCTURES] = {0};
			ok = apply_update(&p, &updates[u], spent, &err);
			if (t > 0)
				for (int s = 0; s < STRUCTURES; s++) update_seconds[s] += spent[s];
		}
		for (; qi < query_count && queries[qi].t == t && ok; qi++) {
			int32_t words[WL_MAX_WORDS];
			gtQuery q = wl_make_query(p.world, &queries[qi], words);
			if (gtMap_CheckPoint(nav.map, q.point) != GT_POINT_VALID) continue;
			p.words = words, p.word_count = q.keyword_count;
			int n[METHODS] = {0};
			// The first method after the updates finds the query's index data cold, and a method
			// finds warm what the one before it read: each query starts with the next method in
			// turn, and every other round goes backwards, so each method is first as often and
			// follows each other one as often.
			long round = answered / running, first = answered % running;
			for (int turn = 0; turn < running && ok; turn++) {
				int m = order[(first + (round % 2 ? running - turn : turn)) % running];
				double start = gtNowSeconds(), labels_before = labelling;
				ok = answer(&p, m, &q, most_k, found, mesh_found, got + m * most_k, &n[m], &labelling, &label_runs,
				            &err);
				times[answered * METHODS + m] = gtNowSeconds() - start - (labelling - labels_before);
				query_seconds[m] += times[answered * METHODS + m];
			}
			const double* expect = got + GT * most_k;
			for (int m = 0; m < METHODS; m++) {
				if (!on[m] || m == GT) continue;
				const double* row = got + m * most_k;
				bool same = n[m] == n[GT];
				for (int j = 0; j < n[m] && same; j++) same = fabs(row[j] - expect[j]) <= 1e-6 * (1 + expect[j]);
				mismatches[m] += !same;
			}
			answered++;
		}
	}
	if (!ok) {
		fprintf(stderr, "gridtree bench-peers: %s\n", err.message);
		code = CLI_FAILED;
		goto free_all;
	}
	gtEhlStats stats = gtEhl_GetStats(gtNav_Index(nav.nav));
	const gtMesh* used = gtNav_Mesh(p.mesh_nav);
	printf("objects %d\ntimestamps %d\nqueries %ld\n", object_count, timestamps, answered);
	printf("mesh_vertices %d\nmesh_polygons %d\n", gtMesh_VertexCount(used), gtMesh_PolygonCount(used));
	printf("ehl_bytes %lld\nehl_build_seconds %.3f\nmesh_bytes %lld\nmesh_seconds %.3f\n", (long long)stats.index_bytes,
	       stats.build_seconds, (long long)gtMesh_Bytes(used), mesh_seconds);
	printf("irtree_bytes %lld\nmesh_objects_bytes %lld\nfence_bytes %lld\nfence_labels %lld\n",
	       (long long)irtree_bytes(p.tree), (long long)gtMeshObjects_Bytes(p.placed),
	       (long long)gtMeshFence_Bytes(p.fence), (long long)gtMeshFence_Labels(p.fence));
	double per = timestamps > 1 ? 1e6 / (timestamps - 1) : 0;
	printf(
	    "world_update_us_per_timestamp %.1f\nirtree_update_us_per_timestamp %.1f\nmesh_update_us_per_timestamp %.1f\n",
	    update_seconds[WORLD] * per, update_seconds[TREE] * per, update_seconds[MESH] * per);
	printf("fence_label_runs %ld\nfence_label_us %.1f\n", label_runs,
	       label_runs ? labelling * 1e6 / (double)label_runs : 0);
	for (int m = 0; m < METHODS; m++) {
		if (!on[m]) continue;
		double us = answered ? query_seconds[m] * 1e6 / (double)answered : 0;
		printf("%s_query_us %.3f\n%s_ratio %.2f\n", NAMES[m], us, NAMES[m],
		       query_seconds[GT] > 0 ? query_seconds[m] / query_seconds[GT] : 0);
		if (m != GT) printf("%s_mismatches %ld\n", NAMES[m], mismatches[m]);
	}
	code = print_steady(times, answered, on) ? code : CLI_FAILED;
free_all:
	free(objects), free(updates), free(queries), free(found), free(got), free(mesh_found), free(times);
done:
	ier_scratch_free(&p.scratch);
	wl_ids_free(&p.ids);
	irtree_destroy(p.tree);
	gtMeshFence_Destroy(p.fence);
	gtPolyanya_Destroy(p.polyanya);
	gtMeshObjects_Destroy(p.placed);
	gtWorld_Destroy(p.world);
	gtNavQuery_Destroy(p.mesh_query);
	gtNavQuery_Destroy(p.brute_query);
	gtNavQuery_Destroy(p.ier_query);
	gtNav_Destroy(p.mesh_nav);
	cli_nav_close(&nav);
	return code;
}

static const CliOption OPTIONS[] = {
    CLI_OPTION_EHL(true),
    {"workload", "DIR", NULL, true, "a workload written by gridtree workload"},
    CLI_OPTION_MESH,
    {"leaf", "m", NULL, false, "the Grid Tree's leaf size in cells, 1 to 65536 (default 16)"},
    CLI_OPTION_THREADS,
    {"methods", "LIST", NULL, false, "the methods to run, comma-separated (default all; gt always)"},
    {0},
};

const CliCommand cli_cmd_bench_peers = {
    "bench-peers",
    "MAP",
    "the Grid Tree beside IER, the interval heuristic and brute force",
    "Every method answers the same workload; answers are checked against the Grid Tree's.",
    OPTIONS,
    true,
    bench_peers,
};
