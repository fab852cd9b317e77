// The Grid Tree's entries for batch callers (world_visit.h): workers, and the walks a target field
// needs (every matching object to build it; the matching objects nearest first by straight line,
// which an agent sees directly, to answer from it).
#include <math.h>

#include "core/alloc.h"
#include "world/world_query.h"
#include "world/world_visit.h"

struct gtWorldWorker {
	gtQueryScratch scratch;
	Filter filter; // compiled on `scratch` by gt_world_worker_filter
};

_Static_assert((int)GT_QUERY_NEAREST == (int)MODE_NEAREST && (int)GT_QUERY_WITHIN == (int)MODE_WITHIN &&
                   (int)GT_QUERY_TOP == (int)MODE_TOP,
               "gtQueryMode names the world's query modes");

gtWorldWorker* gt_world_worker_create(const gtWorld* w)
{
	gtWorldWorker* wk = gt_calloc(1, sizeof *wk);
	if (wk && !gt_scratch_init(w, &wk->scratch)) {
		gt_free(wk);
		return NULL;
	}
	return wk;
}

void gt_world_worker_destroy(gtWorldWorker* wk)
{
	if (!wk) return;
	gt_scratch_free(&wk->scratch);
	gt_free(wk);
}

const gtMap* gt_world_map(const gtWorld* w)
{
	return w->map;
}

bool gt_world_workers_ready(gtWorld* w)
{
	return gt_sphere_ready(w);
}

gtStatus gt_world_worker_query(gtWorld* w, gtWorldWorker* wk, const gtQuery* q, gtDistance distance, gtQueryMode mode,
                               gtObjectId* ids, double* distances, int capacity, int* count, gtError* err)
{
	return gt_world_query(w, &wk->scratch, q, distance, (Mode)mode, ids, distances, capacity, count, NULL, err);
}

gtObjectId gt_world_object_id(const gtWorld* w, int32_t object)
{
	return gt_slot_id(w, object);
}

gtStatus gt_world_worker_filter(const gtWorld* w, gtWorldWorker* wk, const gtQuery* q, gtError* err)
{
	return gt_filter_prepare(w, &wk->scratch, q, MODE_NEAREST, &wk->filter, err);
}

void gt_world_each_match(const gtWorld* w, const gtWorldWorker* wk, gtWorldEachFcn* each, void* context)
{
	const Filter* f = &wk->filter;
	if (f->impossible) return;
	for (int32_t slot = 0; slot < w->capacity; slot++)
		if ((w->generation[slot] & 1) && object_matches(w, f, slot) >= 0)
			each(context, slot, (gtVec2){w->x[slot], w->y[slot]});
}

// A popped leaf: its matching objects go in at their straight-line distance while within the limit.
static bool push_leaf_objects(const gtWorld* w, const Filter* f, gtHeap* frontier, gtVec2 from, int64_t leaf,
                              double limit)
{
	for (int32_t o = w->leaf_head[leaf]; o >= 0; o = w->next[o]) {
		if (object_matches(w, f, o) < 0) continue;
		double line = hypot(w->x[o] - from.x, w->y[o] - from.y);
		if (line <= limit && !gt_frontier_push(frontier, line, -(o + 1))) return false;
	}
	return true;
}

// A popped inner node: its non-empty matching children go in at their rectangles' distance.
static bool push_children(const gtWorld* w, const Filter* f, gtHeap* frontier, gtVec2 from, int level, int64_t node,
                          double limit)
{
	int64_t local = node - gt_level_offset(level);
	int64_t ix = local & ((INT64_C(1) << level) - 1), iy = local >> level;
	double rect[4];
	for (int c = 0; c < 4; c++) {
		int64_t cx = 2 * ix + (c & 1), cy = 2 * iy + (c >> 1), child = gt_node(level + 1, cx, cy);
		if (w->object_counts[child] == 0 || node_matches(w, f, child) < 0) continue;
		cell_rect(w, level + 1, cx, cy, rect);
		if (outside_region(f->q, rect)) continue;
		double key = min_dist(from, rect);
		if (key <= limit && !gt_frontier_push(frontier, key, heap_id(level + 1, child))) return false;
	}
	return true;
}

// Best-first over the tree by straight-line bounds; an object is visited when popped, so visits
// come nearest first.
bool gt_world_visit_nearest(const gtWorld* w, gtWorldWorker* wk, gtVec2 from, double limit, gtWorldVisitFcn* visit,
                            void* context)
{
	const Filter* f = &wk->filter;
	gtHeap* frontier = &wk->scratch.frontier;
	frontier->size = 0;
	double rect[4];
	node_rect(w, 0, 0, rect);
	if (f->impossible || w->object_counts[0] == 0 || outside_region(f->q, rect) || node_matches(w, f, 0) < 0)
		return true;
	if (!gt_frontier_push(frontier, min_dist(from, rect), 0)) return false;
	while (frontier->size > 0) {
		gtHeapItem top = gt_heap_pop(frontier);
		if (!(top.key <= limit)) break;
		if (top.id < 0) {
			int32_t slot = -top.id - 1;
			limit = visit(context, slot, (gtVec2){w->x[slot], w->y[slot]}, top.key);
			continue;
		}
		int level = top.id >> GT_NODE_BITS;
		int64_t node = top.id & ((INT64_C(1) << GT_NODE_BITS) - 1);
		bool pushed = level == w->height ? push_leaf_objects(w, f, frontier, from, node - gt_level_offset(level), limit)
		                                 : push_children(w, f, frontier, from, level, node, limit);
		if (!pushed) return false;
	}
	return true;
}
