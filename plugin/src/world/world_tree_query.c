// Best-first traversal of the Grid Tree. Node keys are Euclidean lower bounds of the distance to
// anything below; objects in a popped leaf are pushed with their straight-line distance and priced
// with the real distance only when popped.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/status.h"
#include "world/world_query.h"

static bool grow_heap(gtHeap* h)
{
	int64_t cap = h->capacity;
	if (cap >= INT32_MAX / 2 || !gt_grow((void**)&h->items, &cap, cap + 1, sizeof *h->items, 256)) return false;
	h->capacity = (int)cap;
	return true;
}
gtStatus gt_query_traverse(gtWorld* w, const gtQuery* q, gtDistance distance, Mode mode, int32_t* found,
                         gtQueryStats* stats, gtError* err)
{
	bool within = mode == MODE_WITHIN;
	Filter f;
	gtStatus st = gt_filter_prepare(w, q, mode, &f, err);
	*found = 0;
	if (st || f.impossible || (!within && q->k <= 0) || w->live == 0) return st;
	Results r;
	st = gt_results_begin(w, q, within, &r, err);
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
	*found = gt_results_finish(w, &r);
	return GT_OK;
}
