// gridtree knn (answers for external checks) and gridtree bench-knn (replays a workload).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

// File ids to handles: ids are small non-negative integers.
typedef struct IdMap {
	gtObjectId* handle;
	int* file_id; // by slot (the handle's low 32 bits - 1)
	int capacity, slots;
} IdMap;

static bool id_reserve(IdMap* m, int id, int slot)
{
	if (id < 0 || id > 100000000) return false;
	if (id >= m->capacity) {
		int cap = id * 2 + 64;
		gtObjectId* h = realloc(m->handle, (size_t)cap * sizeof *h);
		if (!h) return false;
		memset(h + m->capacity, 0, (size_t)(cap - m->capacity) * sizeof *h);
		m->handle = h;
		m->capacity = cap;
	}
	if (slot >= m->slots) {
		int cap = slot * 2 + 64;
		int* f = realloc(m->file_id, (size_t)cap * sizeof *f);
		if (!f) return false;
		m->file_id = f;
		m->slots = cap;
	}
	return true;
}

static int slot_of(gtObjectId id)
{
	return gtObjectId_Slot(id);
}

static bool add_object(gtWorld* w, IdMap* ids, const WlObject* o, const char* where)
{
	int32_t words[WL_MAX_WORDS];
	for (int i = 0; i < o->word_count; i++) words[i] = gtWorld_Keyword(w, o->words[i]);
	for (int i = 0; i < o->word_count; i++)
		if (words[i] < 0) {
			fprintf(stderr, "gridtree: %s: bad keyword '%s'\n", where, o->words[i]);
			return false;
		}
	gtObjectId handle;
	gtError err;
	if (o->id >= 0 && o->id < ids->capacity && ids->handle[o->id]) {
		fprintf(stderr, "gridtree: %s: object id %d given twice\n", where, o->id);
		return false;
	}
	if (gtWorld_Add(w, (gtVec2){o->x, o->y}, words, o->word_count, &handle, &err)) {
		fprintf(stderr, "gridtree: %s: object %d: %s\n", where, o->id, err.message);
		return false;
	}
	if (!id_reserve(ids, o->id, slot_of(handle))) {
		fprintf(stderr, "gridtree: %s: object id %d out of range\n", where, o->id);
		return false;
	}
	ids->handle[o->id] = handle;
	ids->file_id[slot_of(handle)] = o->id;
	return true;
}

static gtQuery make_query(gtWorld* w, const WlQuery* q, int32_t* words)
{
	gtQuery query = gtQuery_Default((gtVec2){q->x, q->y});
	query.k = q->k;
	for (int i = 0; i < q->word_count; i++) words[i] = gtWorld_FindKeyword(w, q->words[i]); // -1: nothing has it
	query.keywords = words;
	query.keyword_count = q->word_count;
	return query;
}

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

int cmd_knn(int argc, char** argv)
{
	CliArgs args;
	if (!cli_parse(argc, argv, "knn", "ehl objects queries leaf", &args)) return CLI_USAGE;
	const char* objects_path = cli_option(&args, "objects", NULL);
	const char* queries_path = cli_option(&args, "queries", NULL);
	if (args.positional_count != 1 || !objects_path || !queries_path) {
		fprintf(stderr, "usage: gridtree knn MAP [--ehl FILE] --objects OBJ --queries Q [--leaf m]\n");
		return CLI_USAGE;
	}
	Setup s;
	int opened = setup(&s, &args, "knn", false);
	if (opened) return opened;
	int object_count, query_count;
	WlObject* objects = wl_read_all(objects_path, 0, &object_count);
	WlQuery* queries = objects ? wl_read_all(queries_path, 3, &query_count) : NULL;
	IdMap ids = {0};
	int status = queries ? CLI_OK : CLI_FAILED;
	char where[1100];
	for (int i = 0; i < object_count && status == CLI_OK; i++) {
		snprintf(where, sizeof where, "%s: object %d", objects_path, i + 1);
		if (!add_object(s.world, &ids, &objects[i], where)) status = CLI_FAILED;
	}
	int capacity = 0;
	gtObjectId* found = NULL;
	double* dist = NULL;
	for (int i = 0; i < query_count && status == CLI_OK; i++) {
		if (queries[i].k > capacity) {
			capacity = queries[i].k;
			found = realloc(found, (size_t)capacity * sizeof *found);
			dist = realloc(dist, (size_t)capacity * sizeof *dist);
		}
		int32_t words[WL_MAX_WORDS];
		gtQuery q = make_query(s.world, &queries[i], words);
		int count;
		gtError err;
		gtStatus st = gtWorld_Nearest(s.world, &q, s.distance, found, dist, capacity, &count, NULL, &err);
		if (st == GT_ERR_INVALID_POINT) {
			puts("invalid");
			continue;
		}
		if (st) {
			fprintf(stderr, "gridtree knn: %s: query %d: %s\n", queries_path, i + 1, err.message);
			status = CLI_FAILED;
			break;
		}
		for (int r = 0; r < count; r++) printf(r ? " %d:%.6f" : "%d:%.6f", ids.file_id[slot_of(found[r])], dist[r]);
		putchar('\n');
	}
	free(found);
	free(dist);
	free(ids.handle);
	free(ids.file_id);
	free(objects);
	free(queries);
	teardown(&s);
	return status;
}

static int compare_double(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

// The k best distances by a linear scan over every live object (for --check).
static int linear_knn(gtWorld* w, const IdMap* ids, const gtQuery* q, gtDistance distance, double* out, double* scratch)
{
	int n = 0;
	for (int id = 0; id < ids->capacity; id++) {
		gtObjectId h = ids->handle[id];
		if (!h || !gtWorld_IsValid(w, h)) continue;
		const int32_t* kw;
		int kc = gtWorld_GetKeywords(w, h, &kw), have = 0;
		for (int i = 0; i < q->keyword_count; i++) {
			bool seen = false;
			for (int j = 0; j < i; j++) seen |= q->keywords[j] == q->keywords[i];
			if (seen) continue;
			bool has = false;
			for (int j = 0; j < kc; j++) has |= kw[j] == q->keywords[i];
			if (!has) have = -1000000;
			have++;
		}
		if (have < 0) continue;
		gtVec2 p;
		gtWorld_GetPosition(w, h, &p, NULL);
		double d = distance.fcn(distance.context, q->point, p);
		if (d < INFINITY) scratch[n++] = d;
	}
	qsort(scratch, (size_t)n, sizeof *scratch, compare_double);
	int k = n < q->k ? n : q->k;
	memcpy(out, scratch, (size_t)k * sizeof *out);
	return k;
}

int cmd_bench_knn(int argc, char** argv)
{
	CliArgs args;
	long check;
	if (!cli_parse(argc, argv, "bench-knn", "ehl workload leaf check", &args) ||
	    !cli_int_option(&args, "bench-knn", "check", 0, 0, 100000000, &check))
		return CLI_USAGE;
	const char* dir = cli_option(&args, "workload", NULL);
	if (args.positional_count != 1 || !dir) {
		fprintf(stderr, "usage: gridtree bench-knn MAP --ehl FILE --workload DIR [--leaf m] [--check N]\n");
		return CLI_USAGE;
	}
	Setup s;
	int opened = setup(&s, &args, "bench-knn", true);
	if (opened) return opened;
	char path[4096];
	int object_count = 0, update_count = 0, query_count = 0;
	snprintf(path, sizeof path, "%s/objects.txt", dir);
	WlObject* objects = wl_read_all(path, 0, &object_count);
	snprintf(path, sizeof path, "%s/updates.txt", dir);
	WlUpdate* updates = objects ? wl_read_all(path, 1, &update_count) : NULL;
	snprintf(path, sizeof path, "%s/queries.txt", dir);
	WlQuery* queries = updates ? wl_read_all(path, 2, &query_count) : NULL;
	IdMap ids = {0};
	int status = queries ? CLI_OK : CLI_FAILED;
	for (int i = 0; i < object_count && status == CLI_OK; i++)
		if (!add_object(s.world, &ids, &objects[i], "objects.txt")) status = CLI_FAILED;
	int timestamps = 0;
	for (int i = 0; i < update_count; i++) timestamps = updates[i].t + 1 > timestamps ? updates[i].t + 1 : timestamps;
	for (int i = 0; i < query_count; i++) timestamps = queries[i].t + 1 > timestamps ? queries[i].t + 1 : timestamps;
	int most_k = 1;
	for (int i = 0; i < query_count; i++) most_k = queries[i].k > most_k ? queries[i].k : most_k;
	gtObjectId* move_ids = malloc(((size_t)update_count + 1) * sizeof *move_ids);
	gtVec2* move_points = malloc(((size_t)update_count + 1) * sizeof *move_points);
	gtObjectId* found = malloc((size_t)most_k * sizeof *found);
	double* dist = malloc((size_t)most_k * sizeof *dist);
	double* expect = malloc(((size_t)object_count + (size_t)update_count + 1) * sizeof *expect);
	double* scratch = malloc(((size_t)object_count + (size_t)update_count + 1) * sizeof *scratch);
	double* scan_out = malloc((size_t)most_k * sizeof *scan_out);
	if (!move_ids || !move_points || !found || !dist || !expect || !scratch || !scan_out) status = CLI_FAILED;
	double update_seconds = 0, query_seconds = 0;
	gtQueryStats total = {0, 0, 0};
	long checked = 0, mismatches = 0;
	int u = 0, qi = 0;
	gtError err;
	for (int t = 0; t < timestamps && status == CLI_OK; t++) {
		// Inserts and deletes one by one, then every move of the timestamp in one bulk call.
		double start = gtNowSeconds();
		int moves = 0;
		for (; u < update_count && updates[u].t == t && status == CLI_OK; u++) {
			const WlUpdate* up = &updates[u];
			gtObjectId h = up->object.id >= 0 && up->object.id < ids.capacity ? ids.handle[up->object.id] : 0;
			if (up->op == WL_INSERT) {
				if (!add_object(s.world, &ids, &up->object, "updates.txt")) status = CLI_FAILED;
			} else if (up->op == WL_DELETE) {
				if (gtWorld_Remove(s.world, h, &err)) status = CLI_FAILED;
				else ids.handle[up->object.id] = 0;
			} else {
				move_ids[moves] = h;
				move_points[moves++] = (gtVec2){up->object.x, up->object.y};
			}
		}
		if (status == CLI_OK && gtWorld_MoveMany(s.world, move_ids, move_points, moves, &err)) status = CLI_FAILED;
		if (t > 0) update_seconds += gtNowSeconds() - start;
		if (status != CLI_OK) {
			fprintf(stderr, "gridtree bench-knn: timestamp %d: %s\n", t, err.message);
			break;
		}
		for (; qi < query_count && queries[qi].t == t && status == CLI_OK; qi++) {
			int32_t words[WL_MAX_WORDS];
			gtQuery q = make_query(s.world, &queries[qi], words);
			int count;
			gtQueryStats stats;
			double q_start = gtNowSeconds();
			gtStatus st = gtWorld_Nearest(s.world, &q, s.distance, found, dist, most_k, &count, &stats, &err);
			query_seconds += gtNowSeconds() - q_start;
			if (st && st != GT_ERR_INVALID_POINT) {
				fprintf(stderr, "gridtree bench-knn: query %d: %s\n", qi + 1, err.message);
				status = CLI_FAILED;
				break;
			}
			total.nodes_popped += stats.nodes_popped;
			total.objects_tested += stats.objects_tested;
			total.distance_calls += stats.distance_calls;
			if (checked < check && !st) { // the same answer as a linear scan over every object
				int want = linear_knn(s.world, &ids, &q, s.distance, expect, scratch);
				bool same = want == count;
				for (int r = 0; r < count && same; r++) same = fabs(dist[r] - expect[r]) <= 1e-9 * (1 + expect[r]);
				mismatches += !same;
				checked++;
			}
		}
	}
	// Straight-line kNN over the final positions, three ways: query-sphere leaf scan, the tree
	// traversal with a straight-line distance, and a scan of every object.
	double sphere_s = 0, tree_s = 0, scan_s = 0;
	long euclid_mismatches = 0;
	if (query_count > 0 && status == CLI_OK) { // the offset table is built by the first call: not timed
		int32_t words[WL_MAX_WORDS];
		gtQuery q = make_query(s.world, &queries[0], words);
		int ignored;
		gtWorld_NearestEuclid(s.world, &q, found, dist, most_k, &ignored, NULL, NULL);
	}
	for (int i = 0; i < query_count && status == CLI_OK; i++) {
		int32_t words[WL_MAX_WORDS];
		gtQuery q = make_query(s.world, &queries[i], words);
		int a, b;
		double t0 = gtNowSeconds();
		gtStatus st = gtWorld_NearestEuclid(s.world, &q, found, dist, most_k, &a, NULL, &err);
		double t1 = gtNowSeconds();
		memcpy(expect, dist, (size_t)a * sizeof *dist);
		st = st ? st : gtWorld_Nearest(s.world, &q, gtDistance_Euclid(), found, dist, most_k, &b, NULL, &err);
		double t2 = gtNowSeconds();
		int c = st ? 0 : linear_knn(s.world, &ids, &q, gtDistance_Euclid(), scan_out, scratch);
		double t3 = gtNowSeconds();
		if (st == GT_ERR_INVALID_POINT) continue;
		if (st) {
			fprintf(stderr, "gridtree bench-knn: straight-line query %d: %s\n", i + 1, err.message);
			status = CLI_FAILED;
			break;
		}
		sphere_s += t1 - t0, tree_s += t2 - t1, scan_s += t3 - t2;
		bool same = a == b && b == c;
		for (int r = 0; r < a && same; r++)
			same = fabs(expect[r] - dist[r]) <= 1e-12 * (1 + dist[r]) && fabs(scan_out[r] - dist[r]) <= 1e-12 * (1 + dist[r]);
		euclid_mismatches += !same;
	}
	if (status == CLI_OK) {
		double queries_run = query_count > 0 ? query_count : 1;
		printf("objects %d\ntimestamps %d\nqueries %d\nleaf_size %s\n", object_count, timestamps, query_count,
		       cli_option(&args, "leaf", "16"));
		printf("update_us_per_timestamp %.3f\n", timestamps > 1 ? update_seconds * 1e6 / (timestamps - 1) : 0.0);
		printf("query_us %.3f\n", query_seconds * 1e6 / queries_run);
		printf("distance_calls_per_query %.3f\n", (double)total.distance_calls / queries_run);
		printf("nodes_per_query %.3f\n", (double)total.nodes_popped / queries_run);
		printf("objects_tested_per_query %.3f\n", (double)total.objects_tested / queries_run);
		printf("euclid_sphere_us %.3f\neuclid_tree_us %.3f\neuclid_scan_us %.3f\neuclid_mismatches %ld\n",
		       sphere_s * 1e6 / queries_run, tree_s * 1e6 / queries_run, scan_s * 1e6 / queries_run, euclid_mismatches);
		if (check) printf("checked %ld\nmismatches %ld\n", checked, mismatches);
		if (mismatches || euclid_mismatches) status = CLI_FAILED;
	}
	free(move_ids);
	free(move_points);
	free(found);
	free(dist);
	free(expect);
	free(scratch);
	free(scan_out);
	free(ids.handle);
	free(ids.file_id);
	free(objects);
	free(updates);
	free(queries);
	teardown(&s);
	return status;
}
