// Grid Tree queries (docs/algorithms.md 6.6-6.7): argument checks, the compiled filter and the
// answer buffers, shared by the tree traversal and the query sphere.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/status.h"
#include "world/world_query.h"

gtQuery gtQuery_Default(gtVec2 point)
{
	gtQuery q;
	memset(&q, 0, sizeof q);
	q.point = point;
	q.k = 1;
	q.radius = INFINITY;
	q.min_match = -1;
	q.miss_cost = 20;
	return q;
}
gtStatus gt_filter_prepare(gtWorld* w, const gtQuery* q, Mode mode, Filter* f, gtError* err)
{
	memset(f, 0, sizeof *f);
	f->q = q;
	f->mode = mode;
	if (mode == MODE_TOP && !(q->miss_cost >= 0 && q->miss_cost < INFINITY))
		return gt_fail(err, GT_ERR_INVALID_ARG, "miss_cost must be a finite number >= 0");
	if (!isfinite(q->point.x) || !isfinite(q->point.y))
		return gt_fail(err, GT_ERR_INVALID_POINT, "query point is not finite");
	if (q->keyword_count < 0 || q->any_count < 0 || q->none_count < 0 || (q->keyword_count && !q->keywords) ||
	    (q->any_count && !q->any) || (q->none_count && !q->none))
		return gt_fail(err, GT_ERR_INVALID_ARG, "bad keyword lists in the query");
	if (q->use_region && !(q->region[0] <= q->region[2] && q->region[1] <= q->region[3]))
		return gt_fail(err, GT_ERR_INVALID_ARG, "region must be x0 <= x1 and y0 <= y1 (no NaN)");
	if (w->words_capacity < q->keyword_count + 1) {
		int32_t* a = gt_realloc(w->words_new, (size_t)(q->keyword_count + 1) * sizeof *a);
		if (a) w->words_new = a;
		int32_t* b = gt_realloc(w->words_old, (size_t)(q->keyword_count + 1) * sizeof *b);
		if (b) w->words_old = b;
		if (!a || !b) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		w->words_capacity = q->keyword_count + 1;
	}
	// Distinct words. Unknown ones count towards "all" and the score but match nothing: each -1 is
	// one word no object has (the caller names each such word once), ids never issued count once
	// per distinct value.
	int known = 0, unknown = 0, unissued = 0;
	for (int i = 0; i < q->keyword_count; i++) {
		int32_t k = q->keywords[i];
		if (k >= 0 && k < w->vocabulary.count) w->words_new[known++] = k;
		else if (k < 0) unknown++;
		else w->words_old[unissued++] = k;
	}
	gt_sort_int32(w->words_old, (size_t)unissued);
	for (int i = 0; i < unissued; i++) unknown += i == 0 || w->words_old[i - 1] != w->words_old[i];
	gt_sort_int32(w->words_new, (size_t)known);
	int n = 0;
	for (int i = 0; i < known; i++)
		if (n == 0 || w->words_new[n - 1] != w->words_new[i]) w->words_new[n++] = w->words_new[i];
	f->words = w->words_new;
	f->word_count = n;
	f->query_words = n + unknown;
	f->min_match = q->min_match < 0 ? (mode == MODE_TOP ? 0 : n + unknown) : q->min_match;
	f->impossible = f->min_match > n;
	if (q->any_count > 0) { // an "any" list naming only unknown words matches nothing
		bool some = false;
		for (int i = 0; i < q->any_count; i++) some |= q->any[i] >= 0 && q->any[i] < w->vocabulary.count;
		f->impossible |= !some;
	}
	f->planes_only = mode != MODE_TOP && q->any_count == 0 && f->min_match == n && n <= 4;
	for (int i = 0; i < n && f->planes_only; i++) {
		f->planes_only = f->words[i] < w->plane_words;
		f->planes[i] = w->planes + f->words[i] * w->plane_stride;
	}
	f->plane_count = n;
	if (f->planes_only && n == 1) f->plane = f->planes[0];
	if (f->planes_only && n > 1 && w->query_plane) {
		for (int64_t i = 0; i < w->plane_stride; i++) {
			uint64_t all = f->planes[0][i];
			for (int k = 1; k < n; k++) all &= f->planes[k][i];
			w->query_plane[i] = all;
		}
		f->plane = w->query_plane;
	}
	return GT_OK;
}
// Results live in w->results as (distance, slot): a max-heap (keys negated) for nearest, a plain
// list for within.
bool gt_results_push(gtWorld* w, int32_t* size, double d, int32_t slot)
{
	if (*size == w->result_capacity) {
		int64_t cap = w->result_capacity;
		if (cap >= INT32_MAX / 2 || !gt_grow((void**)&w->results, &cap, cap + 1, sizeof *w->results, 64)) return false;
		w->result_capacity = (int32_t)cap;
	}
	w->results[(*size)++] = (gtHeapItem){d, slot};
	return true;
}
static int by_distance(const void* a, const void* b)
{
	double x = ((const gtHeapItem*)a)->key, y = ((const gtHeapItem*)b)->key;
	return (x > y) - (x < y);
}
gtStatus gt_results_begin(gtWorld* w, const gtQuery* q, bool within, Results* r, gtError* err)
{
	r->within = within;
	r->k = within ? 0 : q->k;
	r->listed = 0;
	r->bound = within ? q->radius : INFINITY;
	if (!within && w->result_capacity < r->k) { // the k best fit from the start: no growth mid-query
		gtHeapItem* grown = gt_realloc(w->results, (size_t)r->k * sizeof *grown);
		if (!grown) return gt_fail(err, GT_ERR_NOMEM, "out of memory for %d results", r->k);
		w->results = grown;
		w->result_capacity = r->k;
	}
	r->best = (gtHeap){w->results, 0, w->result_capacity};
	return GT_OK;
}
int32_t gt_results_finish(gtWorld* w, Results* r)
{
	int32_t size = r->within ? r->listed : r->best.size;
	if (!r->within)
		for (int32_t i = 0; i < size; i++) w->results[i].key = -w->results[i].key;
	if (size > 16) {
		qsort(w->results, (size_t)size, sizeof *w->results, by_distance);
		return size;
	}
	for (int32_t i = 1; i < size; i++) { // the usual few results: insertion sort
		gtHeapItem v = w->results[i];
		int32_t j = i;
		for (; j > 0 && w->results[j - 1].key > v.key; j--) w->results[j] = w->results[j - 1];
		w->results[j] = v;
	}
	return size;
}
static gtStatus run(gtWorld* w, const gtQuery* q, gtDistance distance, Mode mode, gtObjectId* ids, double* distances,
                    int capacity, int* count, gtQueryStats* stats, gtError* err)
{
	bool within = mode == MODE_WITHIN;
	gtQueryStats local = {0, 0, 0};
	if (!stats) stats = &local;
	memset(stats, 0, sizeof *stats);
	*count = 0;
	if (!q || capacity < 0 || (capacity > 0 && (!ids || !distances)))
		return gt_fail(err, GT_ERR_INVALID_ARG, "bad query arguments");
	if (within && !(q->radius >= 0)) return gt_fail(err, GT_ERR_INVALID_ARG, "radius must be >= 0");
	if (!within && q->k > capacity)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "k is %d but the buffers hold %d results", q->k, capacity);
	int32_t found;
	gtStatus st = distance.fcn ? gt_query_traverse(w, q, distance, mode, &found, stats, err)
	                           : gt_query_sphere(w, q, within, &found, stats, err);
	if (st) return st;
	*count = found;
	for (int32_t i = 0; i < found && i < capacity; i++) {
		int32_t slot = w->results[i].id;
		ids[i] = ((gtObjectId)w->generation[slot] << 32) | (uint32_t)(slot + 1);
		distances[i] = w->results[i].key;
	}
	if (found > capacity)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "%d objects match but the buffers hold %d", found, capacity);
	return GT_OK;
}
gtStatus gtWorld_Nearest(gtWorld* w, const gtQuery* q, gtDistance distance, gtObjectId* ids, double* distances,
                         int capacity, int* count, gtQueryStats* stats, gtError* err)
{
	if (!distance.fcn) return gt_fail(err, GT_ERR_INVALID_ARG, "no distance function");
	return run(w, q, distance, MODE_NEAREST, ids, distances, capacity, count, stats, err);
}
gtStatus gtWorld_Within(gtWorld* w, const gtQuery* q, gtDistance distance, gtObjectId* ids, double* distances,
                        int capacity, int* count, gtQueryStats* stats, gtError* err)
{
	if (!distance.fcn) return gt_fail(err, GT_ERR_INVALID_ARG, "no distance function");
	return run(w, q, distance, MODE_WITHIN, ids, distances, capacity, count, stats, err);
}
gtStatus gtWorld_Top(gtWorld* w, const gtQuery* q, gtDistance distance, gtObjectId* ids, double* scores, int capacity,
                     int* count, gtQueryStats* stats, gtError* err)
{
	if (!distance.fcn) return gt_fail(err, GT_ERR_INVALID_ARG, "no distance function");
	return run(w, q, distance, MODE_TOP, ids, scores, capacity, count, stats, err);
}
gtStatus gtWorld_NearestEuclid(gtWorld* w, const gtQuery* q, gtObjectId* ids, double* distances, int capacity,
                               int* count, gtQueryStats* stats, gtError* err)
{
	gtDistance none = {NULL, NULL, NULL};
	return run(w, q, none, MODE_NEAREST, ids, distances, capacity, count, stats, err);
}
gtStatus gtWorld_WithinEuclid(gtWorld* w, const gtQuery* q, gtObjectId* ids, double* distances, int capacity,
                              int* count, gtQueryStats* stats, gtError* err)
{
	gtDistance none = {NULL, NULL, NULL};
	return run(w, q, none, MODE_WITHIN, ids, distances, capacity, count, stats, err);
}
