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
static gtStatus filter_prepare(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, Mode mode, Filter* f,
                               gtError* err)
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
	if (s->words_capacity < q->keyword_count + 1) {
		if (!GT_RESIZE(s->words, q->keyword_count + 1) || !GT_RESIZE(s->unissued, q->keyword_count + 1))
			return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		s->words_capacity = q->keyword_count + 1;
	}
	// Distinct words. Unknown ones count towards "all" and the score but match nothing: each -1 is
	// one word no object has (the caller names each such word once), ids never issued count once
	// per distinct value.
	int known = 0, unknown = 0, unissued = 0;
	for (int i = 0; i < q->keyword_count; i++) {
		int32_t k = q->keywords[i];
		if (k >= 0 && k < w->vocabulary.count) s->words[known++] = k;
		else if (k < 0) unknown++;
		else s->unissued[unissued++] = k;
	}
	gt_sort_int32(s->unissued, (size_t)unissued);
	for (int i = 0; i < unissued; i++) unknown += i == 0 || s->unissued[i - 1] != s->unissued[i];
	gt_sort_int32(s->words, (size_t)known);
	int n = 0;
	for (int i = 0; i < known; i++)
		if (n == 0 || s->words[n - 1] != s->words[i]) s->words[n++] = s->words[i];
	f->words = s->words;
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
	f->plane_pending = f->planes_only && n > 1 && s->plane;
	// An object passes "all of these words" when it has each word's bit (gt_word_bit) and, where
	// another issued word shares that bit, the word itself.
	f->all_simple = mode != MODE_TOP && n > 0 && f->min_match == n && q->any_count == 0 && q->none_count == 0 &&
	                !q->use_region && q->exclude_count == 0;
	f->all_exact = true;
	for (int i = 0; i < n; i++) {
		f->all_mask |= gt_word_bit(f->words[i]);
		f->all_exact &= f->words[i] < 64 && f->words[i] + 64 >= w->vocabulary.count;
	}
	return GT_OK;
}
void gt_filter_make_plane(const gtWorld* w, gtQueryScratch* s, Filter* f)
{
	if (!f->plane_pending) return;
	f->plane_pending = false;
	int n = f->plane_count;
	for (int64_t i = 0; i < w->plane_stride; i++) {
		uint64_t all = f->planes[0][i];
		for (int k = 1; k < n; k++) all &= f->planes[k][i];
		s->plane[i] = all;
	}
	f->plane = s->plane;
}
gtStatus gt_filter_prepare(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, Mode mode, Filter* f, gtError* err)
{
	gtStatus st = filter_prepare(w, s, q, mode, f, err);
	if (!st) gt_filter_make_plane(w, s, f);
	return st;
}
gtStatus gt_filter_prepare_lazy(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, Mode mode, Filter* f,
                                gtError* err)
{
	return filter_prepare(w, s, q, mode, f, err);
}
// Results live in w->results as (distance, slot): a max-heap (keys negated) for nearest, a plain
// list for within.
bool gt_results_push(gtQueryScratch* s, int32_t* size, double d, int32_t slot)
{
	if (*size == s->result_capacity) {
		int64_t cap = s->result_capacity;
		if (cap >= INT32_MAX / 2 || !GT_GROW(s->results, cap, cap + 1, 64)) return false;
		s->result_capacity = (int32_t)cap;
	}
	s->results[(*size)++] = (gtHeapItem){d, slot};
	return true;
}
// Whether result a comes after result b in an answer: by distance, ties by ascending object id.
static bool after(const gtWorld* w, gtHeapItem a, gtHeapItem b)
{
	return a.key > b.key || (a.key == b.key && gt_slot_id(w, a.id) > gt_slot_id(w, b.id));
}
// Moves v down from position i of the max-heap items[0..n) (the last in the answer's order on top).
static void sift_down(const gtWorld* w, gtHeapItem* items, int32_t n, int32_t i, gtHeapItem v)
{
	for (;;) {
		int32_t child = 2 * i + 1;
		if (child >= n) break;
		if (child + 1 < n && after(w, items[child + 1], items[child])) child++;
		if (!after(w, items[child], v)) break;
		items[i] = items[child];
		i = child;
	}
	items[i] = v;
}
void gt_results_keep(Results* r, double d, int32_t slot)
{
	gtHeapItem v = {d, slot}, *items = r->best.items;
	if (r->best.size < r->k) {
		int32_t i = r->best.size++;
		for (; i > 0 && after(r->w, v, items[(i - 1) / 2]); i = (i - 1) / 2) items[i] = items[(i - 1) / 2];
		items[i] = v;
	} else if (after(r->w, items[0], v)) {
		sift_down(r->w, items, r->best.size, 0, v);
	}
	if (r->best.size == r->k) {
		r->bound = items[0].key;
		results_reprune(r);
	}
}
gtStatus gt_results_begin(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, bool within, Results* r, gtError* err)
{
	r->w = w;
	r->within = within;
	r->k = within ? 0 : q->k;
	r->listed = 0;
	r->bound = within ? q->radius : INFINITY;
	r->slack = 0;
	r->prune = r->bound;
	if (!within && s->result_capacity < r->k) { // the k best fit from the start: no growth mid-query
		if (!GT_RESIZE(s->results, r->k)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for %d results", r->k);
		s->result_capacity = r->k;
	}
	r->best = (gtHeap){s->results, 0, s->result_capacity};
	return GT_OK;
}
// The answer in order: an insertion sort for the usual few results, else a heap sort (in place:
// a query allocates nothing).
int32_t gt_results_finish(gtQueryScratch* s, Results* r)
{
	int32_t size = r->within ? r->listed : r->best.size;
	gtHeapItem* items = s->results;
	if (size <= 16) {
		for (int32_t i = 1; i < size; i++) {
			gtHeapItem v = items[i];
			int32_t j = i;
			for (; j > 0 && after(r->w, items[j - 1], v); j--) items[j] = items[j - 1];
			items[j] = v;
		}
		return size;
	}
	if (r->within) // the nearest query's k best are a heap already
		for (int32_t i = size / 2 - 1; i >= 0; i--) sift_down(r->w, items, size, i, items[i]);
	for (int32_t n = size - 1; n > 0; n--) {
		gtHeapItem last = items[n];
		items[n] = items[0];
		sift_down(r->w, items, n, 0, last);
	}
	return size;
}
// The m smallest keys of items[0..n) to its front, sorted (m <= n): the first m by insertion,
// then each later smaller key inserted in place of the m-th.
static void scan_smallest(gtHeapItem* items, int n, int m)
{
	for (int i = 1; i < m; i++) {
		gtHeapItem v = items[i];
		int j = i;
		for (; j > 0 && v.key < items[j - 1].key; j--) items[j] = items[j - 1];
		items[j] = v;
	}
	for (int i = m; i < n; i++) {
		if (!(items[i].key < items[m - 1].key)) continue;
		gtHeapItem v = items[i];
		items[i] = items[m - 1];
		int j = m - 1;
		for (; j > 0 && v.key < items[j - 1].key; j--) items[j] = items[j - 1];
		items[j] = v;
	}
}
// The smaller of two keys to *a, the larger to *b, without a branch (minsd, maxsd).
static inline void key_order(double* a, double* b)
{
	double x = *a, y = *b;
	*a = x < y ? x : y;
	*b = x < y ? y : x;
}
// The (j+1)-th smallest of 8 keys (a sorting network of 19 exchanges).
static inline double key_of_8(const double* s, int j)
{
	double k0 = s[0], k1 = s[1], k2 = s[2], k3 = s[3], k4 = s[4], k5 = s[5], k6 = s[6], k7 = s[7];
	key_order(&k0, &k2), key_order(&k1, &k3), key_order(&k4, &k6), key_order(&k5, &k7);
	key_order(&k0, &k4), key_order(&k1, &k5), key_order(&k2, &k6), key_order(&k3, &k7);
	key_order(&k0, &k1), key_order(&k2, &k3), key_order(&k4, &k5), key_order(&k6, &k7);
	key_order(&k2, &k4), key_order(&k3, &k5);
	key_order(&k1, &k4), key_order(&k3, &k6);
	key_order(&k1, &k2), key_order(&k3, &k4), key_order(&k5, &k6);
	double sorted[8] = {k0, k1, k2, k3, k4, k5, k6, k7};
	return sorted[j];
}
// A scan's first picks (world_tree_query.c scan_begin). First the keys below a pivot go to the
// front without a branch on any key (each item written to both ends of tmp, one end's cursor
// moved): the pivot is the j-th of 8 sampled keys, below about (j + 1) / 9 of them, taken where
// that is about twice m. Then insertion (scan_smallest) over those few only; over all of them it
// mispredicted ~40 branches a query on AR0300SR's 69 objects (rdtsc, a selection of 10 of 69 and
// 5 of those 10 over 20,000 random sets, each variant on its own pass: 1,533 -> 1,272 cycles).
void gt_scan_select(gtHeapItem* items, gtHeapItem* tmp, int n, int m)
{
	if (n < 4 * m || n < 32) {
		scan_smallest(items, n, m);
		return;
	}
	double sample[8];
	for (int i = 0; i < 8; i++) sample[i] = items[(int64_t)(2 * i + 1) * n / 16].key;
	int j = (int)((int64_t)18 * m / n);
	double pivot = key_of_8(sample, j < 7 ? j : 7);
	int below = 0, top = n;
	for (int i = 0; i < n; i++) {
		gtHeapItem v = items[i];
		int less = v.key < pivot;
		tmp[below] = v;
		tmp[top - 1] = v;
		below += less;
		top -= 1 - less;
	}
	if (below == 0) { // the pivot was the least key: the rest in place as it was
		scan_smallest(items, n, m);
		return;
	}
	memcpy(items, tmp, (size_t)n * sizeof *items);
	if (below < m) gt_scan_select(items + below, tmp, n - below, m - below); // all of those, and some more
	else scan_smallest(items, below, m);
}

// One pass over the slots writes each item to both ends of items and moves one end's cursor (no
// branch on a key: push_all's partition came free, where a second pass over the keys cost ~20
// instructions an object and insertion mispredicted). The pivot is the (j+1)-th least of S sampled
// keys, below about (j + 1) / (S + 1) of them, with j where that is about `want` (scan_begin wants
// a few more than its picks: fewer than k below sends it to the exact selection).
int gt_scan_split(const gtWorld* w, gtHeapItem* items, gtVec2 q, int want)
{
	const double px = q.x, py = q.y, *x = w->x, *y = w->y;
	const uint32_t* generation = w->generation;
	int32_t n = w->live, used = w->slots_used;
	double pivot = INFINITY;
	if (want > 0 && n >= 2 * want) {
		int shift = n >= 64 ? 4 : 3, samples = 1 << shift, j = (int)((int64_t)want * (samples + 1) / n);
		double l0 = INFINITY, l1 = INFINITY, l2 = INFINITY, l3 = INFINITY; // the 4 least samples, in order
		for (int i = 0; i < samples; i++) {
			int32_t o = (int32_t)(((int64_t)(2 * i + 1) * used) >> (shift + 1));
			while (o < used - 1 && !(generation[o] & 1)) o++;
			double dx = x[o] - px, dy = y[o] - py, v = dx * dx + dy * dy, t;
			// Each least keeps the smaller, passes the larger on (minsd, maxsd: no branch).
			t = v < l0 ? v : l0, v = v < l0 ? l0 : v, l0 = t;
			t = v < l1 ? v : l1, v = v < l1 ? l1 : v, l1 = t;
			t = v < l2 ? v : l2, v = v < l2 ? l2 : v, l2 = t;
			l3 = v < l3 ? v : l3;
		}
		pivot = j <= 0 ? l0 : j == 1 ? l1 : j == 2 ? l2 : l3;
	}
	int32_t below = 0, top = n;
	for (int32_t o = 0; o < used; o++) {
		if (!(generation[o] & 1)) continue;
		double dx = x[o] - px, dy = y[o] - py, d2 = dx * dx + dy * dy;
		gtHeapItem v = {d2, -(o + 1)};
		int less = d2 < pivot;
		items[below] = v;
		items[top - 1] = v;
		below += less;
		top -= 1 - less;
	}
	return below;
}

gtStatus gt_world_query(gtWorld* w, gtQueryScratch* s, const gtQuery* q, gtDistance distance, Mode mode,
                        gtObjectId* ids, double* distances, int capacity, int* count, gtQueryStats* stats, gtError* err)
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
	gtStatus st = distance.fcn ? gt_query_traverse(w, s, q, distance, mode, &found, stats, err)
	                           : gt_query_sphere(w, s, q, within, &found, stats, err);
	if (st) return st;
	*count = found;
	for (int32_t i = 0; i < found && i < capacity; i++) {
		int32_t slot = s->results[i].id;
		ids[i] = gt_slot_id(w, slot);
		distances[i] = s->results[i].key;
	}
	if (found > capacity)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "%d objects match but the buffers hold %d", found, capacity);
	return GT_OK;
}
gtStatus gtWorld_Nearest(gtWorld* w, const gtQuery* q, gtDistance distance, gtObjectId* ids, double* distances,
                         int capacity, int* count, gtQueryStats* stats, gtError* err)
{
	if (!distance.fcn) return gt_fail(err, GT_ERR_INVALID_ARG, "no distance function");
	return gt_world_query(w, &w->scratch, q, distance, MODE_NEAREST, ids, distances, capacity, count, stats, err);
}
gtStatus gtWorld_Within(gtWorld* w, const gtQuery* q, gtDistance distance, gtObjectId* ids, double* distances,
                        int capacity, int* count, gtQueryStats* stats, gtError* err)
{
	if (!distance.fcn) return gt_fail(err, GT_ERR_INVALID_ARG, "no distance function");
	return gt_world_query(w, &w->scratch, q, distance, MODE_WITHIN, ids, distances, capacity, count, stats, err);
}
gtStatus gtWorld_Top(gtWorld* w, const gtQuery* q, gtDistance distance, gtObjectId* ids, double* scores, int capacity,
                     int* count, gtQueryStats* stats, gtError* err)
{
	if (!distance.fcn) return gt_fail(err, GT_ERR_INVALID_ARG, "no distance function");
	return gt_world_query(w, &w->scratch, q, distance, MODE_TOP, ids, scores, capacity, count, stats, err);
}
gtStatus gtWorld_TopWeighted(gtWorld* w, const gtQuery* q, double alpha, gtDistance distance, gtObjectId* ids,
                             double* scores, int capacity, int* count, gtQueryStats* stats, gtError* err)
{
	*count = 0;
	if (!q) return gt_fail(err, GT_ERR_INVALID_ARG, "bad query arguments");
	if (!(alpha > 0 && alpha <= 1)) return gt_fail(err, GT_ERR_INVALID_ARG, "alpha must be in (0, 1], got %g", alpha);
	Filter words; // counts the distinct words the way the score does
	gtStatus st = gt_filter_prepare(w, &w->scratch, q, MODE_TOP, &words, err);
	if (st) return st;
	gtQuery ranked = *q; // distance + miss_cost * missing, times alpha, is the weighted score
	ranked.miss_cost = (1 - alpha) / alpha * q->miss_cost / (words.query_words > 0 ? words.query_words : 1);
	st = gtWorld_Top(w, &ranked, distance, ids, scores, capacity, count, stats, err);
	for (int i = 0; !st && i < *count; i++) scores[i] *= alpha;
	return st;
}
gtStatus gtWorld_NearestEuclid(gtWorld* w, const gtQuery* q, gtObjectId* ids, double* distances, int capacity,
                               int* count, gtQueryStats* stats, gtError* err)
{
	gtDistance none = {.fcn = NULL};
	return gt_world_query(w, &w->scratch, q, none, MODE_NEAREST, ids, distances, capacity, count, stats, err);
}
gtStatus gtWorld_WithinEuclid(gtWorld* w, const gtQuery* q, gtObjectId* ids, double* distances, int capacity,
                              int* count, gtQueryStats* stats, gtError* err)
{
	gtDistance none = {.fcn = NULL};
	return gt_world_query(w, &w->scratch, q, none, MODE_WITHIN, ids, distances, capacity, count, stats, err);
}
