// gridtree bench-peers: the Grid Tree beside its competitors on one workload, in one run. Every
// timestamp's updates go to each method's own structure (the Grid Tree's world, which IER also
// searches in straight-line order; the mesh's object lists), then each query is answered by every
// method in turn, so machine noise hits them alike; answers are cross-checked against the Grid
// Tree's.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ier.h"
#include "replay.h"

enum { GT, IER_EHL, IER_POLYANYA, INTERVAL, BRUTE, METHODS };
static const char* const NAMES[METHODS] = {"gt", "ier-ehl", "ier-polyanya", "interval", "brute"};

typedef struct Peers {
	gtWorld* world;
	WlIds ids;
	gtMeshObjects* placed;
	gtPolyanya* polyanya;
	gtNav* mesh_nav;
	gtNavQuery* mesh_query;
	gtDistance ehl, mesh;
	IerScratch ier;
	const int32_t* words; // the query being answered (interval's filter)
	int word_count;
} Peers;

// The interval heuristic's filter: the object (by file id) has every query word.
static bool has_words(void* context, int32_t file_id)
{
	const Peers* p = context;
	const int32_t* kw;
	int n = gtWorld_GetKeywords(p->world, wl_ids_find(&p->ids, file_id), &kw);
	for (int w = 0; w < p->word_count; w++) {
		bool found = false;
		for (int i = 0; i < n && !found; i++) found = kw[i] == p->words[w];
		if (!found) return false;
	}
	return true;
}

int cmd_bench_peers(int argc, char** argv)
{
	CliArgs args;
	if (!cli_parse(argc, argv, "bench-peers", "ehl mesh workload threads" CLI_MAP_OPTIONS, &args)) return CLI_USAGE;
	const char* dir = cli_option(&args, "workload", NULL);
	if (!cli_usage_unless(args.positional_count == 1 && dir && cli_option(&args, "ehl", NULL),
	                      "bench-peers MAP --ehl FILE [--mesh FILE] --workload DIR"))
		return CLI_USAGE;
	CliNav nav; // EHL
	int opened = cli_nav_open(&nav, &args, "bench-peers", args.positional[0], true);
	if (opened) return opened;
	Peers p = {0};
	gtError err = {0};
	int code = CLI_OK;
	const char* mesh_path = cli_option(&args, "mesh", NULL);
	gtMesh* mesh = NULL;
	gtStatus st = gtNav_Create(nav.map, NULL, &p.mesh_nav, &err);
	double mesh_seconds = gtNowSeconds();
	if (!st) st = mesh_path ? gtMesh_Load(mesh_path, &mesh, &err) : gtMesh_FromMap(nav.map, &mesh, &err);
	if (!st) st = gtNav_SetMesh(p.mesh_nav, mesh, &err); // the nav takes the mesh
	mesh_seconds = gtNowSeconds() - mesh_seconds;
	if (!st) st = gtNav_SetMethod(p.mesh_nav, GT_NAV_POLYANYA, &err);
	if (!st) st = gtNavQuery_Create(p.mesh_nav, &p.mesh_query, &err);
	if (!st) st = gtNavQuery_WorldDistance(nav.query, &p.ehl, &err);
	if (!st) st = gtNavQuery_WorldDistance(p.mesh_query, &p.mesh, &err);
	gtWorldDef wdef = gtWorld_DefaultDef();
	if (!st) st = gtWorld_Create(nav.map, &wdef, &p.world, &err);
	if (!st) st = gtMeshObjects_Create(gtNav_Mesh(p.mesh_nav), &p.placed, &err);
	if (!st) st = gtPolyanya_Create(gtNav_Mesh(p.mesh_nav), &p.polyanya, &err);
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
	double* expect = malloc((size_t)most_k * sizeof *expect);
	double* got = malloc((size_t)most_k * sizeof *got);
	int32_t* mesh_found = malloc((size_t)most_k * sizeof *mesh_found);
	if (!queries || !found || !expect || !got || !mesh_found) {
		code = CLI_FAILED;
		goto free_all;
	}
	double query_seconds[METHODS] = {0}, world_update = 0, mesh_update = 0;
	long mismatches[METHODS] = {0}, answered = 0;
	bool ok = true;
	for (int i = 0; i < object_count && ok; i++) {
		ok = wl_add_object(p.world, &p.ids, &objects[i], "objects.txt") &&
		     !gtMeshObjects_Set(p.placed, objects[i].id, (gtVec2){objects[i].x, objects[i].y}, &err);
	}
	int timestamps = 0, u = 0, qi = 0;
	for (int i = 0; i < update_count; i++) timestamps = updates[i].t + 1 > timestamps ? updates[i].t + 1 : timestamps;
	for (int i = 0; i < query_count; i++) timestamps = queries[i].t + 1 > timestamps ? queries[i].t + 1 : timestamps;
	for (int t = 0; t < timestamps && ok; t++) {
		for (; u < update_count && updates[u].t == t && ok; u++) {
			const WlUpdate* up = &updates[u];
			gtVec2 at = {up->object.x, up->object.y};
			double s0 = gtNowSeconds();
			if (up->op == WL_INSERT) ok = wl_add_object(p.world, &p.ids, &up->object, "updates.txt");
			else if (up->op == WL_DELETE) {
				ok = !gtWorld_Remove(p.world, wl_ids_find(&p.ids, up->object.id), &err);
				if (ok) wl_ids_forget(&p.ids, up->object.id);
			} else
				ok = !gtWorld_Move(p.world, wl_ids_find(&p.ids, up->object.id), at, &err);
			double s1 = gtNowSeconds();
			if (up->op == WL_DELETE) gtMeshObjects_Remove(p.placed, up->object.id);
			else ok = ok && !gtMeshObjects_Set(p.placed, up->object.id, at, &err);
			double s2 = gtNowSeconds();
			if (t > 0) world_update += s1 - s0, mesh_update += s2 - s1;
		}
		for (; qi < query_count && queries[qi].t == t && ok; qi++) {
			int32_t words[WL_MAX_WORDS];
			gtQuery q = wl_make_query(p.world, &queries[qi], words);
			if (gtMap_CheckPoint(nav.map, q.point) != GT_POINT_VALID) continue;
			p.words = words, p.word_count = q.keyword_count;
			int k = q.k, n[METHODS] = {0};
			for (int m = 0; m < METHODS; m++) {
				double start = gtNowSeconds();
				if (m == GT) gtWorld_Nearest(p.world, &q, p.ehl, found, expect, most_k, &n[m], NULL, NULL);
				else if (m == IER_EHL) ier_nearest(p.world, &q, p.ehl, &p.ier, found, got, most_k, &n[m], NULL, NULL);
				else if (m == IER_POLYANYA) ier_nearest(p.world, &q, p.mesh, &p.ier, found, got, most_k, &n[m], NULL, NULL);
				else if (m == INTERVAL)
					gtPolyanya_Nearest(p.polyanya, p.placed, q.point, k, has_words, &p, mesh_found, got, most_k, &n[m], NULL);
				else brute_nearest(p.world, &q, p.ehl, &p.ier, found, got, most_k, &n[m], NULL);
				query_seconds[m] += gtNowSeconds() - start;
				if (m == GT) continue;
				bool same = n[m] == n[GT];
				for (int j = 0; j < n[m] && same; j++) same = fabs(got[j] - expect[j]) <= 1e-6 * (1 + expect[j]);
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
	printf("objects %d\ntimestamps %d\nqueries %ld\n", object_count, timestamps, answered);
	printf("ehl_bytes %lld\nehl_build_seconds %.3f\nmesh_bytes %lld\nmesh_seconds %.3f\n", (long long)stats.index_bytes, stats.build_seconds,
	       (long long)gtMesh_Bytes(gtNav_Mesh(p.mesh_nav)), mesh_seconds);
	double per = timestamps > 1 ? 1e6 / (timestamps - 1) : 0;
	printf("world_update_us_per_timestamp %.1f\nmesh_update_us_per_timestamp %.1f\n", world_update * per, mesh_update * per);
	for (int m = 0; m < METHODS; m++) {
		double us = answered ? query_seconds[m] * 1e6 / (double)answered : 0;
		printf("%s_query_us %.3f\n%s_ratio %.2f\n", NAMES[m], us, NAMES[m], query_seconds[GT] > 0 ? query_seconds[m] / query_seconds[GT] : 0);
		if (m != GT) printf("%s_mismatches %ld\n", NAMES[m], mismatches[m]);
	}
free_all:
	free(objects), free(updates), free(queries), free(found), free(expect), free(got), free(mesh_found);
done:
	ier_scratch_free(&p.ier);
	wl_ids_free(&p.ids);
	gtPolyanya_Destroy(p.polyanya);
	gtMeshObjects_Destroy(p.placed);
	gtWorld_Destroy(p.world);
	gtNavQuery_Destroy(p.mesh_query);
	gtNav_Destroy(p.mesh_nav);
	cli_nav_close(&nav);
	return code;
}
