// Grid Tree queries: one best-first traversal (algorithms.md 6.6-6.7). Node keys are Euclidean
// lower bounds of the distance to anything below; objects in a popped leaf are pushed with their
// straight-line distance and priced with the real distance only when popped.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/status.h"
#include "world/world_internal.h"

typedef enum Mode { MODE_NEAREST, MODE_WITHIN, MODE_TOP } Mode;

typedef struct Filter {
	const gtQuery* q;
	Mode mode;
	int query_words; // distinct words of Q, unknown ones included (for the score)
	int32_t* words; // distinct known words of Q
	int word_count;
	int min_match;  // among `words`
	bool impossible; // e.g. an all-of query with an unknown word
} Filter;

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

static bool grow_heap(gtHeap* h)
{
	int cap = h->capacity ? h->capacity * 2 : 256;
	gtHeapItem* items = gt_realloc(h->items, (size_t)cap * sizeof *items);
	if (!items) return false;
	h->items = items;
	h->capacity = cap;
	return true;
}

static gtStatus prepare(gtWorld* w, const gtQuery* q, Mode mode, Filter* f, gtError* err)
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
	// Distinct words; unknown ones (-1, or ids never issued) count towards "all" but match nothing.
	int known = 0, unknown = 0;
	for (int i = 0; i < q->keyword_count; i++) {
		int32_t k = q->keywords[i];
		if (k >= 0 && k < w->vocabulary.count) w->words_new[known++] = k;
		else unknown = 1;
	}
	qsort(w->words_new, (size_t)known, sizeof *w->words_new, gt_compare_int32);
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
	return GT_OK;
}

// -1 when nothing below the node can pass, else how many words of Q occur below it (an upper
// bound on any object's matches there).
static int node_matches(const gtWorld* w, const Filter* f, int64_t node, const double rect[4])
{
	if (w->object_counts[node] == 0) return -1;
	const gtQuery* q = f->q;
	if (q->use_region &&
	    (rect[2] < q->region[0] || rect[0] > q->region[2] || rect[3] < q->region[1] || rect[1] > q->region[3]))
		return -1;
	int have = 0;
	if (f->min_match > 0 || f->mode == MODE_TOP) {
		int enough = f->mode == MODE_TOP ? f->word_count : f->min_match; // the score wants them all
		for (int i = 0; i < f->word_count && have < enough; i++)
			have += gt_counts_get(&w->keyword_counts, (uint32_t)node, f->words[i]) > 0;
		if (have < f->min_match) return -1;
	}
	if (q->any_count > 0) {
		bool some = false;
		for (int i = 0; i < q->any_count && !some; i++)
			some = q->any[i] >= 0 && gt_counts_get(&w->keyword_counts, (uint32_t)node, q->any[i]) > 0;
		if (!some) return -1;
	}
	return have;
}

// -1 when the object fails the filters, else how many words of Q it has.
static int object_matches(const gtWorld* w, const Filter* f, int32_t slot)
{
	const gtQuery* q = f->q;
	if (q->use_region && (w->x[slot] < q->region[0] || w->x[slot] > q->region[2] || w->y[slot] < q->region[1] ||
	                      w->y[slot] > q->region[3]))
		return -1;
	int have = 0;
	for (int i = 0; i < f->word_count; i++) have += gt_object_has(w, slot, f->words[i]);
	if (have < f->min_match) return -1;
	if (q->any_count > 0) {
		bool some = false;
		for (int i = 0; i < q->any_count && !some; i++) some = gt_object_has(w, slot, q->any[i]);
		if (!some) return -1;
	}
	for (int i = 0; i < q->none_count; i++)
		if (gt_object_has(w, slot, q->none[i])) return -1;
	return have;
}

// Score offset of a candidate with `matches` words of Q (0 unless scoring).
static double penalty(const Filter* f, int matches)
{
	return f->mode == MODE_TOP ? f->q->miss_cost * (f->query_words - matches) : 0;
}

static void cell_rect(const gtWorld* w, int level, int64_t ix, int64_t iy, double rect[4])
{
	rect[0] = (double)ix * w->step_x[level];
	rect[1] = (double)iy * w->step_y[level];
	rect[2] = rect[0] + w->step_x[level];
	rect[3] = rect[1] + w->step_y[level];
}

static void node_rect(const gtWorld* w, int level, int64_t node, double rect[4])
{
	int64_t local = node - gt_level_offset(level), side = INT64_C(1) << level;
	cell_rect(w, level, local % side, local / side, rect);
}

static int32_t heap_id(int level, int64_t node)
{
	return (int32_t)(((int64_t)level << GT_NODE_BITS) | node);
}

// Distance from p to the closed rectangle (0 inside). Plain comparisons: fmax is a library call.
static double min_dist(gtVec2 p, const double r[4])
{
	double dx = p.x < r[0] ? r[0] - p.x : p.x > r[2] ? p.x - r[2] : 0;
	double dy = p.y < r[1] ? r[1] - p.y : p.y > r[3] ? p.y - r[3] : 0;
	return sqrt(dx * dx + dy * dy);
}

// Results live in w->results as (distance, slot): a max-heap (keys negated) for nearest, a plain
// list for within.
static bool push_result(gtWorld* w, int32_t* size, double d, int32_t slot)
{
	if (*size == w->result_capacity) {
		int32_t cap = w->result_capacity ? w->result_capacity * 2 : 64;
		gtHeapItem* grown = gt_realloc(w->results, (size_t)cap * sizeof *grown);
		if (!grown) return false;
		w->results = grown;
		w->result_capacity = cap;
	}
	w->results[(*size)++] = (gtHeapItem){d, slot};
	return true;
}

static int by_distance(const void* a, const void* b)
{
	double x = ((const gtHeapItem*)a)->key, y = ((const gtHeapItem*)b)->key;
	return (x > y) - (x < y);
}

// The answer being built: the k best so far (a max-heap through negated keys) or, for within,
// every object inside the radius. `bound` is what a candidate must beat.
typedef struct Results {
	gtHeap best;
	int32_t listed;
	int k;
	bool within;
	double bound;
} Results;

static gtStatus results_begin(gtWorld* w, const gtQuery* q, bool within, Results* r, gtError* err)
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

// Whether a candidate key can no longer make the answer (keys only grow from here on).
static bool results_prune(const Results* r, double key)
{
	return r->within ? key > r->bound : (r->best.size == r->k && key >= r->bound);
}

static bool results_offer(gtWorld* w, Results* r, double d, int32_t slot)
{
	if (r->within) return d > r->bound || push_result(w, &r->listed, d, slot);
	if (r->best.size < r->k) {
		gt_heap_push(&r->best, -d, slot);
	} else if (d < r->bound) {
		gt_heap_pop(&r->best);
		gt_heap_push(&r->best, -d, slot);
	}
	if (r->best.size == r->k) r->bound = -r->best.items[0].key;
	return true;
}

static int32_t results_finish(gtWorld* w, Results* r)
{
	int32_t size = r->within ? r->listed : r->best.size;
	if (!r->within)
		for (int32_t i = 0; i < size; i++) w->results[i].key = -w->results[i].key;
	if (size > 0) qsort(w->results, (size_t)size, sizeof *w->results, by_distance);
	return size;
}

static gtStatus traverse(gtWorld* w, const gtQuery* q, gtDistance distance, Mode mode, int32_t* found,
                         gtQueryStats* stats, gtError* err)
{
	bool within = mode == MODE_WITHIN;
	Filter f;
	gtStatus st = prepare(w, q, mode, &f, err);
	*found = 0;
	if (st || f.impossible || (!within && q->k <= 0) || w->live == 0) return st;
	Results r;
	st = results_begin(w, q, within, &r, err);
	if (st) return st;
	gtHeap* frontier = &w->frontier;
	frontier->size = 0;
	double rect[4];
	node_rect(w, 0, 0, rect);
	int root_matches = node_matches(w, &f, 0, rect);
	if (root_matches >= 0) {
		if (frontier->size == frontier->capacity && !grow_heap(frontier)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		gt_heap_push(frontier, min_dist(q->point, rect) + penalty(&f, root_matches), heap_id(0, 0));
	}
	while (frontier->size > 0) {
		gtHeapItem top = gt_heap_pop(frontier);
		if (results_prune(&r, top.key)) break; // keys pop in order: nothing left can qualify
		if (top.id < 0) { // an object: price it with the real distance
			int32_t slot = -top.id - 1;
			gtVec2 p = {w->x[slot], w->y[slot]};
			double d = distance.fcn(distance.context, q->point, p);
			stats->distance_calls++;
			if (!(d < INFINITY)) continue; // another component (or NaN): never a result
			if (mode == MODE_TOP) d += penalty(&f, object_matches(w, &f, slot));
			if (!results_offer(w, &r, d, slot)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
			continue;
		}
		stats->nodes_popped++;
		int level = top.id >> GT_NODE_BITS;
		int64_t node = top.id & ((INT64_C(1) << GT_NODE_BITS) - 1);
		if (q->trace) {
			node_rect(w, level, node, rect);
			q->trace(q->trace_context, GT_TRACE_POPPED, level, rect);
		}
		if (level == w->height) { // a leaf: objects that pass go in with their straight-line distance
			for (int32_t s = w->leaf_head[node - gt_level_offset(level)]; s >= 0; s = w->next[s]) {
				stats->objects_tested++;
				int matches = object_matches(w, &f, s);
				if (matches < 0) continue;
				double e = hypot(w->x[s] - q->point.x, w->y[s] - q->point.y) + penalty(&f, matches);
				if (results_prune(&r, e)) continue;
				if (frontier->size == frontier->capacity && !grow_heap(frontier)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
				gt_heap_push(frontier, e, -(s + 1));
			}
			continue;
		}
		int64_t local = node - gt_level_offset(level), side = INT64_C(1) << level;
		int64_t ix = local % side, iy = local / side;
		for (int c = 0; c < 4; c++) {
			int64_t cx = 2 * ix + (c & 1), cy = 2 * iy + (c >> 1), child = gt_node(level + 1, cx, cy);
			if (w->object_counts[child] == 0) continue;
			cell_rect(w, level + 1, cx, cy, rect);
			double key = min_dist(q->point, rect);
			if (mode != MODE_TOP && results_prune(&r, key)) { // the cheap test before the keyword counts
				if (q->trace) q->trace(q->trace_context, GT_TRACE_PRUNED_DISTANCE, level + 1, rect);
				continue;
			}
			int matches = node_matches(w, &f, child, rect);
			if (matches < 0) {
				if (q->trace) q->trace(q->trace_context, GT_TRACE_PRUNED_KEYWORDS, level + 1, rect);
				continue;
			}
			key += penalty(&f, matches);
			if (results_prune(&r, key)) {
				if (q->trace) q->trace(q->trace_context, GT_TRACE_PRUNED_DISTANCE, level + 1, rect);
				continue;
			}
			if (frontier->size == frontier->capacity && !grow_heap(frontier)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
			gt_heap_push(frontier, key, heap_id(level + 1, child));
		}
	}
	*found = results_finish(w, &r);
	return GT_OK;
}

// Leaf offsets sorted by the smallest distance between a point of leaf (0, 0) and one of leaf
// (dx, dy): built on the first straight-line query, then reused.
static int by_bound(const void* a, const void* b)
{
	const gtSphereOffset *x = a, *y = b;
	return (x->bound > y->bound) - (x->bound < y->bound);
}

static bool build_sphere(gtWorld* w)
{
	int64_t side = INT64_C(1) << w->height, span = 2 * side - 1;
	gtSphereOffset* offsets = gt_malloc((size_t)(span * span) * sizeof *offsets);
	if (!offsets) return false;
	double sx = w->width / (double)side, sy = w->height_units / (double)side;
	int64_t n = 0;
	for (int64_t dy = -(side - 1); dy < side; dy++)
		for (int64_t dx = -(side - 1); dx < side; dx++) {
			double gx = (double)(llabs(dx) > 0 ? llabs(dx) - 1 : 0) * sx, gy = (double)(llabs(dy) > 0 ? llabs(dy) - 1 : 0) * sy;
			offsets[n++] = (gtSphereOffset){sqrt(gx * gx + gy * gy), (int32_t)dx, (int32_t)dy};
		}
	qsort(offsets, (size_t)n, sizeof *offsets, by_bound);
	w->sphere = offsets;
	w->sphere_count = n;
	return true;
}

static gtStatus sphere(gtWorld* w, const gtQuery* q, bool within, int32_t* found, gtQueryStats* stats, gtError* err)
{
	Filter f;
	Mode mode = within ? MODE_WITHIN : MODE_NEAREST;
	gtStatus st = prepare(w, q, mode, &f, err);
	*found = 0;
	if (st || f.impossible || (!within && q->k <= 0) || w->live == 0) return st;
	if (w->height > 10) return gt_fail(err, GT_ERR_LIMIT, "straight-line queries need a leaf grid of at most 1024x1024");
	if (!w->sphere && !build_sphere(w)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the query sphere");
	Results r;
	st = results_begin(w, q, within, &r, err);
	if (st) return st;
	int64_t side = INT64_C(1) << w->height;
	int32_t home = (int32_t)leaf_of_point(w, q->point.x, q->point.y);
	int64_t hx = home % side, hy = home / side, leaf_base = gt_level_offset(w->height);
	for (int64_t i = 0; i < w->sphere_count; i++) {
		const gtSphereOffset* o = &w->sphere[i];
		if (results_prune(&r, o->bound)) break; // and every farther leaf too
		int64_t cx = hx + o->dx, cy = hy + o->dy;
		if (cx < 0 || cy < 0 || cx >= side || cy >= side) continue;
		int64_t leaf = cy * side + cx;
		double rect[4];
		node_rect(w, w->height, leaf_base + leaf, rect);
		if (node_matches(w, &f, leaf_base + leaf, rect) < 0) continue; // empty, or no object can match
		stats->nodes_popped++;
		for (int32_t s = w->leaf_head[leaf]; s >= 0; s = w->next[s]) {
			stats->objects_tested++;
			if (object_matches(w, &f, s) < 0) continue;
			double d = hypot(w->x[s] - q->point.x, w->y[s] - q->point.y);
			stats->distance_calls++;
			if (!results_offer(w, &r, d, s)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		}
	}
	*found = results_finish(w, &r);
	return GT_OK;
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
	gtStatus st = distance.fcn ? traverse(w, q, distance, mode, &found, stats, err)
	                           : sphere(w, q, within, &found, stats, err);
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
	gtDistance none = {NULL, NULL};
	return run(w, q, none, MODE_NEAREST, ids, distances, capacity, count, stats, err);
}

gtStatus gtWorld_WithinEuclid(gtWorld* w, const gtQuery* q, gtObjectId* ids, double* distances, int capacity,
                              int* count, gtQueryStats* stats, gtError* err)
{
	gtDistance none = {NULL, NULL};
	return run(w, q, none, MODE_WITHIN, ids, distances, capacity, count, stats, err);
}
