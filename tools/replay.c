#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linear_scan.h"
#include "replay.h"

static int id_home(const WlIds* ids, int id)
{
	return (int)(((uint64_t)(uint32_t)id * 0x9E3779B97F4A7C15ull) >> 32) & (ids->size - 1);
}

// The entry holding `id`, or the empty entry where it would go (the table is never full).
static int id_entry(const WlIds* ids, int id)
{
	int e = id_home(ids, id);
	while (ids->keys[e] >= 0 && ids->keys[e] != id) e = (e + 1) & (ids->size - 1);
	return e;
}

gtObjectId wl_ids_find(const WlIds* ids, int id)
{
	if (ids->size == 0 || id < 0) return 0;
	int e = id_entry(ids, id);
	return ids->keys[e] == id ? ids->handles[e] : 0;
}

static bool ids_rehash(WlIds* ids, int size)
{
	int* keys = malloc((size_t)size * sizeof *keys);
	gtObjectId* handles = malloc((size_t)size * sizeof *handles);
	if (!keys || !handles) {
		free(keys);
		free(handles);
		return false;
	}
	memset(keys, 0xFF, (size_t)size * sizeof *keys);
	WlIds bigger = {keys, handles, size, ids->count, ids->file_id, ids->slots};
	for (int e = 0; e < ids->size; e++)
		if (ids->keys[e] >= 0) {
			int to = id_entry(&bigger, ids->keys[e]);
			keys[to] = ids->keys[e];
			handles[to] = ids->handles[e];
		}
	free(ids->keys);
	free(ids->handles);
	*ids = bigger;
	return true;
}

// Room for one more id (load at most a half) and for `slot` in the reverse map.
static bool id_reserve(WlIds* ids, int id, int slot)
{
	if (id < 0 || id > WL_MAX_ID) return false;
	if (2 * (ids->count + 1) > ids->size && !ids_rehash(ids, ids->size ? ids->size * 2 : 64)) return false;
	if (slot >= ids->slots) {
		int cap = slot * 2 + 64;
		int* f = realloc(ids->file_id, (size_t)cap * sizeof *f);
		if (!f) return false;
		ids->file_id = f;
		ids->slots = cap;
	}
	return true;
}

void wl_ids_forget(WlIds* ids, int id)
{
	if (ids->size == 0 || id < 0) return;
	int hole = id_entry(ids, id);
	if (ids->keys[hole] != id) return;
	// Backward shift: later entries of the run move into the hole when their home allows it.
	for (int e = (hole + 1) & (ids->size - 1); ids->keys[e] >= 0; e = (e + 1) & (ids->size - 1)) {
		int home = id_home(ids, ids->keys[e]);
		bool movable = hole <= e ? home <= hole || home > e : home <= hole && home > e;
		if (!movable) continue;
		ids->keys[hole] = ids->keys[e];
		ids->handles[hole] = ids->handles[e];
		hole = e;
	}
	ids->keys[hole] = -1;
	ids->count--;
}

void wl_ids_free(WlIds* ids)
{
	free(ids->keys);
	free(ids->handles);
	free(ids->file_id);
	memset(ids, 0, sizeof *ids);
}

bool wl_add_object(gtWorld* w, WlIds* ids, const WlObject* o, const char* where)
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
	if (wl_ids_find(ids, o->id)) {
		fprintf(stderr, "gridtree: %s: object id %d given twice\n", where, o->id);
		return false;
	}
	if (gtWorld_Add(w, (gtVec2){o->x, o->y}, words, o->word_count, &handle, &err)) {
		fprintf(stderr, "gridtree: %s: object %d: %s\n", where, o->id, err.message);
		return false;
	}
	if (!id_reserve(ids, o->id, gtObjectId_Slot(handle))) {
		fprintf(stderr, "gridtree: %s: object id %d out of range\n", where, o->id);
		return false;
	}
	int e = id_entry(ids, o->id);
	ids->keys[e] = o->id;
	ids->handles[e] = handle;
	ids->count++;
	ids->file_id[gtObjectId_Slot(handle)] = o->id;
	return true;
}

gtQuery wl_make_query(gtWorld* w, const WlQuery* q, int32_t* words)
{
	gtQuery query = gtQuery_Default((gtVec2){q->x, q->y});
	query.k = q->k;
	for (int i = 0; i < q->word_count; i++) words[i] = gtWorld_FindKeyword(w, q->words[i]); // -1: nothing has it
	query.keywords = words;
	query.keyword_count = q->word_count;
	return query;
}

// The k best distances by the linear-scan twin over every live object (bench-knn --check).
static int linear_knn(gtWorld* w, const WlIds* ids, const gtQuery* q, gtDistance distance, LsObject* objects,
                      double* out)
{
	int n = 0;
	for (int e = 0; e < ids->size; e++) {
		gtObjectId h = ids->handles[e];
		if (ids->keys[e] < 0 || !gtWorld_IsValid(w, h)) continue;
		LsObject* o = &objects[n++];
		o->id = h;
		o->keyword_count = gtWorld_GetKeywords(w, h, &o->keywords);
		gtWorld_GetPosition(w, h, &o->point, NULL);
	}
	return ls_query(objects, n, q, gtWorld_KeywordCount(w), distance, false, false, out);
}

typedef struct Replay {
	WlObject* objects;
	WlUpdate* updates;
	WlQuery* queries;
	int object_count, update_count, query_count, most_k;
	gtObjectId *move_ids, *found;
	gtVec2* move_points;
	double *dist, *expect, *scan_out;
	LsObject* scan_objects;
} Replay;

static void replay_free(Replay* r)
{
	free(r->objects);
	free(r->updates);
	free(r->queries);
	free(r->move_ids);
	free(r->found);
	free(r->move_points);
	free(r->dist);
	free(r->expect);
	free(r->scan_out);
	free(r->scan_objects);
}

static bool replay_load(Replay* r, const char* dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/objects.txt", dir);
	r->objects = wl_read_all(path, 0, &r->object_count);
	snprintf(path, sizeof path, "%s/updates.txt", dir);
	r->updates = r->objects ? wl_read_all(path, 1, &r->update_count) : NULL;
	snprintf(path, sizeof path, "%s/queries.txt", dir);
	r->queries = r->updates ? wl_read_all(path, 2, &r->query_count) : NULL;
	if (!r->queries) return false;
	r->most_k = 1;
	for (int i = 0; i < r->query_count; i++) r->most_k = r->queries[i].k > r->most_k ? r->queries[i].k : r->most_k;
	size_t everyone = (size_t)r->object_count + (size_t)r->update_count + 1;
	r->move_ids = malloc(((size_t)r->update_count + 1) * sizeof *r->move_ids);
	r->move_points = malloc(((size_t)r->update_count + 1) * sizeof *r->move_points);
	r->found = malloc((size_t)r->most_k * sizeof *r->found);
	r->dist = malloc((size_t)r->most_k * sizeof *r->dist);
	r->expect = malloc(everyone * sizeof *r->expect);
	r->scan_out = malloc(everyone * sizeof *r->scan_out);
	r->scan_objects = malloc(everyone * sizeof *r->scan_objects);
	if (!r->move_ids || !r->move_points || !r->found || !r->dist || !r->expect || !r->scan_out || !r->scan_objects) {
		fprintf(stderr, "gridtree: out of memory replaying %s\n", dir);
		return false;
	}
	return true;
}

// Straight-line kNN over the final positions, three ways: query-sphere leaf scan, the tree
// traversal with a straight-line distance, and the linear scan.
static bool replay_euclid(gtWorld* world, const WlIds* ids, Replay* r, WlReplayStats* stats)
{
	double sphere_s = 0, tree_s = 0, scan_s = 0;
	gtError err;
	int32_t words[WL_MAX_WORDS];
	if (r->query_count > 0) { // the offset table is built by the first call: not timed
		gtQuery q = wl_make_query(world, &r->queries[0], words);
		int ignored;
		gtWorld_NearestEuclid(world, &q, r->found, r->dist, r->most_k, &ignored, NULL, NULL);
	}
	for (int i = 0; i < r->query_count; i++) {
		gtQuery q = wl_make_query(world, &r->queries[i], words);
		int a, b;
		double t0 = gtNowSeconds();
		gtStatus st = gtWorld_NearestEuclid(world, &q, r->found, r->dist, r->most_k, &a, NULL, &err);
		double t1 = gtNowSeconds();
		memcpy(r->expect, r->dist, (size_t)a * sizeof *r->dist);
		st = st ? st : gtWorld_Nearest(world, &q, gtDistance_Euclid(), r->found, r->dist, r->most_k, &b, NULL, &err);
		double t2 = gtNowSeconds();
		int c = st ? 0 : linear_knn(world, ids, &q, gtDistance_Euclid(), r->scan_objects, r->scan_out);
		double t3 = gtNowSeconds();
		if (st == GT_ERR_INVALID_POINT) continue;
		if (st) {
			fprintf(stderr, "gridtree bench-knn: straight-line query %d: %s\n", i + 1, err.message);
			return false;
		}
		sphere_s += t1 - t0, tree_s += t2 - t1, scan_s += t3 - t2;
		bool same = a == b && b == c;
		for (int k = 0; k < a && same; k++)
			same = fabs(r->expect[k] - r->dist[k]) <= 1e-12 * (1 + r->dist[k]) &&
			       fabs(r->scan_out[k] - r->dist[k]) <= 1e-12 * (1 + r->dist[k]);
		stats->euclid_mismatches += !same;
	}
	double runs = r->query_count > 0 ? r->query_count : 1;
	stats->euclid_sphere_us = sphere_s * 1e6 / runs;
	stats->euclid_tree_us = tree_s * 1e6 / runs;
	stats->euclid_scan_us = scan_s * 1e6 / runs;
	return true;
}

// The workload's timed queries, and only they, go through this function: callgrind counts their
// instructions with --toggle-collect=wl_path_query (bench/instructions.sh).
static __attribute__((noinline)) gtStatus wl_path_query(gtWorld* world, const gtQuery* q, gtDistance distance,
                                                        Replay* r, int* count, gtQueryStats* stats, gtError* err)
{
	return gtWorld_Nearest(world, q, distance, r->found, r->dist, r->most_k, count, stats, err);
}

bool wl_replay(gtWorld* world, gtDistance distance, const char* dir, long check, WlReplayStats* stats)
{
	memset(stats, 0, sizeof *stats);
	Replay r;
	memset(&r, 0, sizeof r);
	WlIds ids = {0};
	bool ok = replay_load(&r, dir);
	for (int i = 0; i < r.object_count && ok; i++) ok = wl_add_object(world, &ids, &r.objects[i], "objects.txt");
	int timestamps = 0;
	for (int i = 0; i < r.update_count; i++)
		timestamps = r.updates[i].t + 1 > timestamps ? r.updates[i].t + 1 : timestamps;
	for (int i = 0; i < r.query_count; i++)
		timestamps = r.queries[i].t + 1 > timestamps ? r.queries[i].t + 1 : timestamps;
	double update_seconds = 0, query_seconds = 0;
	gtQueryStats total = {0, 0, 0};
	int u = 0, qi = 0;
	gtError err;
	for (int t = 0; t < timestamps && ok; t++) {
		// Inserts and deletes one by one, then every move of the timestamp in one bulk call. Only
		// the library's calls are timed, not the file ids' lookups around them.
		double spent = 0;
		int moves = 0;
		for (; u < r.update_count && r.updates[u].t == t && ok; u++) {
			const WlUpdate* up = &r.updates[u];
			gtObjectId h = wl_ids_find(&ids, up->object.id);
			double start = gtNowSeconds();
			if (up->op == WL_INSERT) {
				ok = wl_add_object(world, &ids, &up->object, "updates.txt");
				spent += gtNowSeconds() - start;
			} else if (up->op == WL_DELETE) {
				ok = !gtWorld_Remove(world, h, &err);
				spent += gtNowSeconds() - start;
				if (ok) wl_ids_forget(&ids, up->object.id);
				else fprintf(stderr, "gridtree bench-knn: timestamp %d: %s\n", t, err.message);
			} else {
				r.move_ids[moves] = h;
				r.move_points[moves++] = (gtVec2){up->object.x, up->object.y};
			}
		}
		double start = gtNowSeconds();
		if (ok && gtWorld_MoveMany(world, r.move_ids, r.move_points, moves, &err)) {
			fprintf(stderr, "gridtree bench-knn: timestamp %d: %s\n", t, err.message);
			ok = false;
		}
		spent += gtNowSeconds() - start;
		if (t > 0) update_seconds += spent;
		for (; qi < r.query_count && r.queries[qi].t == t && ok; qi++) {
			int32_t words[WL_MAX_WORDS];
			gtQuery q = wl_make_query(world, &r.queries[qi], words);
			int count;
			gtQueryStats one;
			double q_start = gtNowSeconds();
			gtStatus st = wl_path_query(world, &q, distance, &r, &count, &one, &err);
			query_seconds += gtNowSeconds() - q_start;
			if (st && st != GT_ERR_INVALID_POINT) {
				fprintf(stderr, "gridtree bench-knn: query %d: %s\n", qi + 1, err.message);
				ok = false;
				break;
			}
			total.nodes_popped += one.nodes_popped;
			total.objects_tested += one.objects_tested;
			total.distance_calls += one.distance_calls;
			if (stats->checked < check && !st) { // the same answer as the linear scan over every object
				int want = linear_knn(world, &ids, &q, distance, r.scan_objects, r.expect);
				bool same = want == count;
				for (int k = 0; k < count && same; k++)
					same = fabs(r.dist[k] - r.expect[k]) <= 1e-9 * (1 + r.expect[k]);
				stats->mismatches += !same;
				stats->checked++;
			}
		}
	}
	ok = ok && replay_euclid(world, &ids, &r, stats);
	double runs = r.query_count > 0 ? r.query_count : 1;
	stats->objects = r.object_count;
	stats->timestamps = timestamps;
	stats->queries = r.query_count;
	stats->update_us_per_timestamp = timestamps > 1 ? update_seconds * 1e6 / (timestamps - 1) : 0.0;
	stats->query_us = query_seconds * 1e6 / runs;
	stats->distance_calls_per_query = (double)total.distance_calls / runs;
	stats->nodes_per_query = (double)total.nodes_popped / runs;
	stats->objects_tested_per_query = (double)total.objects_tested / runs;
	wl_ids_free(&ids);
	replay_free(&r);
	return ok;
}
