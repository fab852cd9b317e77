// The Grid Tree's entries for batch callers (world_visit.h): workers, and the walks the crowd needs
// (every matching object to build a field; one leaf's, those near a point, and the matching objects
// nearest first by straight line, to answer agents).
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

// Whether object `o` passes the worker's filter: the words' bits alone for the usual filter (all of
// a few words, nothing else: Filter.all_simple), as the single queries test them.
static inline bool passes(const gtWorld* w, const Filter* f, int32_t o)
{
	return f->all_simple ? object_has_all(w, f, o) : object_matches(w, f, o) >= 0;
}

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

double gtWorld_WalkBound(const gtWorld* w, const gtMap* map, gtVec2 from, gtVec2 to)
{
	if (!w || !gt_walk_bound_fits(&w->walk_bound, map)) return 0;
	const uint16_t* row = gt_walk_bound_row(&w->walk_bound, from.x, from.y);
	double lb = row ? gt_walk_bound_to(&w->walk_bound, row, to.x, to.y) : 0;
	return lb == GT_WALK_BOUND_NONE ? INFINITY : lb;
}

bool gt_world_sight_fits(const gtWorld* w, const gtMap* map)
{
	return gt_clearance_fits(&w->clearance, map);
}

double gt_world_sight_from(const gtWorld* w, gtVec2 at)
{
	return gt_clearance_at(&w->clearance, at.x, at.y);
}

int gt_world_sight(const gtWorld* w, const gtMap* map, gtVec2 a, double ra, gtVec2 b)
{
	return gt_clearance_sight(&w->clearance, map, a, ra, b, gt_clearance_at(&w->clearance, b.x, b.y));
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
		if ((w->generation[slot] & 1) && passes(w, f, slot)) each(context, slot, (gtVec2){w->x[slot], w->y[slot]});
}

int32_t gt_world_leaf_of(const gtWorld* w, gtVec2 at)
{
	return leaf_of_point(w, at.x, at.y);
}

double gt_world_leaf_side(const gtWorld* w)
{
	double x = w->step_x[w->height], y = w->step_y[w->height];
	return x < y ? x : y;
}

void gt_world_each_in_leaf(const gtWorld* w, const gtWorldWorker* wk, int32_t leaf, gtWorldEachFcn* each, void* context)
{
	const Filter* f = &wk->filter;
	if (f->impossible) return;
	for (int32_t o = w->leaf_head[leaf]; o >= 0; o = w->next[o])
		if (passes(w, f, o)) each(context, o, (gtVec2){w->x[o], w->y[o]});
}

void gt_world_visit_near(const gtWorld* w, gtWorldWorker* wk, gtVec2 from, double radius, int32_t skip_leaf,
                         gtWorldVisitFcn* visit, void* context)
{
	const Filter* f = &wk->filter;
	if (f->impossible || !(radius < INFINITY)) return;
	int level = w->height;
	int64_t side = INT64_C(1) << level;
	double step_x = w->step_x[level], step_y = w->step_y[level];
	// The leaves under the box round the disk, clamped to the grid (points on the far border
	// belong to the last leaf).
	// (Truncation is floor for the positive values kept; no call to fmin, fmax or floor.)
	double ax = (from.x - radius) / step_x, bx = (from.x + radius) / step_x;
	double ay = (from.y - radius) / step_y, by = (from.y + radius) / step_y;
	int64_t x0 = ax > 0 ? (int64_t)ax : 0, x1 = bx < (double)(side - 1) ? (int64_t)bx : side - 1;
	int64_t y0 = ay > 0 ? (int64_t)ay : 0, y1 = by < (double)(side - 1) ? (int64_t)by : side - 1;
	for (int64_t iy = y0; iy <= y1; iy++)
		for (int64_t ix = x0; ix <= x1; ix++) {
			int64_t leaf = iy * side + ix, node = gt_node(level, ix, iy);
			if (leaf == skip_leaf || w->object_counts[node] == 0) continue;
			double rect[4];
			cell_rect(w, level, ix, iy, rect);
			if (!(min_dist(from, rect) <= radius) || outside_region(f->q, rect) || node_matches(w, f, node) < 0)
				continue;
			for (int32_t o = w->leaf_head[leaf]; o >= 0; o = w->next[o]) {
				if (!passes(w, f, o)) continue; // the words' bits before the square root
				double dx = w->x[o] - from.x, dy = w->y[o] - from.y, line = sqrt(dx * dx + dy * dy);
				if (line <= radius) radius = visit(context, o, (gtVec2){w->x[o], w->y[o]}, line);
			}
		}
}

// A popped leaf: its matching objects go in at their straight-line distance while within the limit.
static bool push_leaf_objects(const gtWorld* w, const Filter* f, gtHeap* frontier, gtVec2 from, int64_t leaf,
                              double limit)
{
	for (int32_t o = w->leaf_head[leaf]; o >= 0; o = w->next[o]) {
		if (!passes(w, f, o)) continue;
		double dx = w->x[o] - from.x, dy = w->y[o] - from.y, line = sqrt(dx * dx + dy * dy);
		if (line <= limit && !gt_frontier_push(frontier, line, -(o + 1))) return false;
	}
	return true;
}

// A popped inner node: its non-empty matching children within the limit, the nearest held out of
// the heap in *held (when *holding) and the rest queued. A child's key is the straight line to its
// rectangle, from the gaps gt_children computes for the world's traversal too.
static bool push_children(const gtWorld* w, const Filter* f, gtHeap* frontier, gtVec2 from, int level, int64_t node,
                          double limit, gtHeapItem* held, bool* holding)
{
	gtChildren ch;
	gt_children(w, level, node, from, &ch);
	bool plane_first = f->plane && !f->q->use_region; // the plane's bit is the whole test, clear when empty
	for (int c = 0; c < 4; c++) {
		int64_t child = gt_child_node(&ch, c);
		if (plane_first ? !plane_has(f->plane, child) : w->object_counts[child] == 0) continue;
		double dx = ch.gap_x[c & 1], dy = ch.gap_y[c >> 1], key = sqrt(dx * dx + dy * dy);
		if (!(key <= limit)) continue;
		if (!plane_first) {
			double rect[4];
			gt_child_rect(w, &ch, c, rect);
			if (outside_region(f->q, rect) || node_matches(w, f, child) < 0) continue;
		}
		if (!gt_hold_or_push(frontier, (gtHeapItem){key, heap_id(ch.level, child)}, held, holding)) return false;
	}
	return true;
}

// The leaves in rings around from's leaf by the world's offset order (gtRingOffset, as the single
// queries' ring traversal): no inner node and no node in the heap. A leaf costs a look at its
// plane bit (or head) and, when not beyond the limit, its objects go in with their straight lines;
// an object is visited once no leaf left can hold a nearer one (the next offset's bound). On
// FloodedPlains' crowd (10,000 agents, k = 1) a third of the instructions of best-first over the
// tree, which pushes and pops the nodes on the way down from the root.
static bool visit_rings(const gtWorld* w, gtWorldWorker* wk, gtVec2 from, double limit, int32_t skip_leaf,
                        gtWorldVisitFcn* visit, void* context)
{
	const Filter* f = &wk->filter;
	gtHeap* frontier = &wk->scratch.frontier;
	const int side = 1 << w->height;
	const int64_t leaf_base = gt_level_offset(w->height);
	const int32_t home = leaf_of_point(w, from.x, from.y);
	const int hx = home & (side - 1), hy = home >> w->height;
	const gtRingOffset* ring = w->ring;
	for (int32_t i = 0, n = w->ring_count;;) {
		double next = i < n ? (double)ring[i].bound : INFINITY;
		if (frontier->size > 0 && frontier->items[0].key <= next) {
			gtHeapItem top = gt_heap_pop(frontier);
			if (!(top.key <= limit)) break; // and every key left, in the heap and in the leaves
			int32_t slot = -top.id - 1;
			limit = visit(context, slot, (gtVec2){w->x[slot], w->y[slot]}, top.key);
			continue;
		}
		if (i >= n || !(next <= limit)) break;
		gtRingOffset o = ring[i++];
		for (int m = 0; m < 4; m++) { // the offset's mirror images, each once
			int cx, cy;
			int32_t leaf = gt_ring_leaf(o, m, hx, hy, side, &cx, &cy);
			if (leaf < 0 || leaf == skip_leaf) continue;
			if (f->plane ? !plane_has(f->plane, leaf_base + leaf) : w->leaf_head[leaf] < 0) continue;
			gtVec2 g = gt_ring_gap(w, cx, cy, hx, hy, from); // the leaf's own gap from the point
			if (!(sqrt(g.x * g.x + g.y * g.y) <= limit)) continue;
			if (!f->plane && node_matches(w, f, leaf_base + leaf) < 0) continue;
			if (!push_leaf_objects(w, f, frontier, from, leaf, limit)) return false;
		}
	}
	return true;
}

// Best-first over the tree by straight-line bounds; an object is visited when popped, so visits
// come nearest first. The nearest child of the node just expanded is held out of the heap: when
// nothing queued is nearer, it is expanded next without a push and a pop (the usual descent).
// Worlds with the ring's offsets and no region go by visit_rings instead.
bool gt_world_visit_nearest(const gtWorld* w, gtWorldWorker* wk, gtVec2 from, double limit, int32_t skip_leaf,
                            gtWorldVisitFcn* visit, void* context)
{
	const Filter* f = &wk->filter;
	gtHeap* frontier = &wk->scratch.frontier;
	frontier->size = 0;
	if (w->ring && !f->impossible && !f->q->use_region)
		return visit_rings(w, wk, from, limit, skip_leaf, visit, context);
	double rect[4];
	node_rect(w, 0, 0, rect);
	if (f->impossible || w->object_counts[0] == 0 || outside_region(f->q, rect) || node_matches(w, f, 0) < 0)
		return true;
	gtHeapItem held = {min_dist(from, rect), 0}, top;
	bool holding = true;
	for (;;) {
		if (holding && (frontier->size == 0 || held.key <= frontier->items[0].key)) top = held;
		else if (holding) top = gt_heap_replace_top(frontier, held.key, held.id);
		else if (frontier->size > 0) top = gt_heap_pop(frontier);
		else break;
		holding = false;
		if (!(top.key <= limit)) break;
		if (top.id < 0) {
			int32_t slot = -top.id - 1;
			limit = visit(context, slot, (gtVec2){w->x[slot], w->y[slot]}, top.key);
			continue;
		}
		int level = top.id >> GT_NODE_BITS;
		int64_t node = top.id & ((INT64_C(1) << GT_NODE_BITS) - 1);
		int64_t leaf = node - gt_level_offset(level);
		bool pushed = level < w->height ? push_children(w, f, frontier, from, level, node, limit, &held, &holding)
		                                : leaf == skip_leaf || push_leaf_objects(w, f, frontier, from, leaf, limit);
		if (!pushed) return false;
	}
	return true;
}
