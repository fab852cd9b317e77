// Straight-line queries by query-sphere indexing (Brodu 2007): leaf offsets sorted by their
// smallest possible distance, scanned outwards from the query's leaf until none can qualify.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/status.h"
#include "world/world_query.h"

// Leaf offsets sorted by the smallest distance between a point of leaf (0, 0) and one of leaf
// (dx, dy): built on the first straight-line query, then reused.
static int by_bound(const void* a, const void* b)
{
	const gtSphereOffset *x = a, *y = b;
	return (x->bound > y->bound) - (x->bound < y->bound);
}
bool gt_sphere_ready(gtWorld* w)
{
	if (w->sphere || w->height > 10) return true;
	int64_t side = INT64_C(1) << w->height, span = 2 * side - 1;
	gtSphereOffset* offsets = gt_malloc((size_t)(span * span) * sizeof *offsets);
	if (!offsets) return false;
	double sx = w->width / (double)side, sy = w->height_units / (double)side;
	int64_t n = 0;
	for (int64_t dy = -(side - 1); dy < side; dy++)
		for (int64_t dx = -(side - 1); dx < side; dx++) {
			double gx = (double)(llabs(dx) > 0 ? llabs(dx) - 1 : 0) * sx,
			       gy = (double)(llabs(dy) > 0 ? llabs(dy) - 1 : 0) * sy;
			offsets[n++] = (gtSphereOffset){sqrt(gx * gx + gy * gy), (int32_t)dx, (int32_t)dy};
		}
	qsort(offsets, (size_t)n, sizeof *offsets, by_bound);
	w->sphere = offsets;
	w->sphere_count = n;
	return true;
}
// The ring's quadrant (gtRingOffset): leaves dx - 1 and dy - 1 whole leaves apart at least, the
// bound shrunk far beyond the rounding of the leaves' edges and the keys, then rounded down to a
// float. False when out of memory (the queries then do without).
static int by_ring_bound(const void* a, const void* b)
{
	const gtRingOffset *x = a, *y = b;
	if (x->bound != y->bound) return (x->bound > y->bound) - (x->bound < y->bound);
	return x->dy != y->dy ? x->dy - y->dy : x->dx - y->dx; // a fixed order whatever qsort does
}
bool gt_ring_build(gtWorld* w)
{
	if (w->height > GT_RING_HEIGHT) return true;
	int side = 1 << w->height;
	gtRingOffset* ring = gt_malloc((size_t)side * (size_t)side * sizeof *ring);
	if (!ring) return false;
	double sx = w->step_x[w->height], sy = w->step_y[w->height];
	int n = 0;
	for (int dy = 0; dy < side; dy++)
		for (int dx = 0; dx < side; dx++) {
			double gx = (dx > 0 ? dx - 1 : 0) * sx, gy = (dy > 0 ? dy - 1 : 0) * sy;
			double b = sqrt(gx * gx + gy * gy) * (1 - 0x1p-36);
			float f = (float)b;
			if ((double)f > b) f = nextafterf(f, 0);
			ring[n++] = (gtRingOffset){f, (uint8_t)dx, (uint8_t)dy};
		}
	qsort(ring, (size_t)n, sizeof *ring, by_ring_bound);
	w->ring = ring;
	w->ring_count = n;
	return true;
}

gtStatus gt_query_sphere(gtWorld* w, gtQueryScratch* s, const gtQuery* q, bool within, int32_t* found,
                         gtQueryStats* stats, gtError* err)
{
	Filter f;
	Mode mode = within ? MODE_WITHIN : MODE_NEAREST;
	gtStatus st = gt_filter_prepare(w, s, q, mode, &f, err);
	*found = 0;
	if (st || f.impossible || (!within && q->k <= 0) || w->live == 0) return st;
	if (w->height > 10)
		return gt_fail(err, GT_ERR_LIMIT, "straight-line queries need a leaf grid of at most 1024x1024");
	if (!gt_sphere_ready(w)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the query sphere");
	Results r;
	st = gt_results_begin(w, s, q, within, &r, err);
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
		if (w->object_counts[leaf_base + leaf] == 0) continue;
		double rect[4];
		node_rect(w, w->height, leaf_base + leaf, rect);
		if (outside_region(q, rect) || node_matches(w, &f, leaf_base + leaf) < 0) continue; // no object can match
		stats->nodes_popped++;
		for (int32_t o = w->leaf_head[leaf]; o >= 0; o = w->next[o]) {
			stats->objects_tested++;
			if (object_matches(w, &f, o) < 0) continue;
			double d = hypot(w->x[o] - q->point.x, w->y[o] - q->point.y);
			stats->distance_calls++;
			if (!results_offer(s, &r, d, o)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		}
	}
	*found = gt_results_finish(s, &r);
	return GT_OK;
}
