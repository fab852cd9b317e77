// Brute-force oracle: Dijkstra over the visibility graph plus the two query points.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "map/geometry.h"
#include "gridtree/gt_oracle.h"
#include "core/heap.h"
#include "core/status.h"
#include "map/vis_graph.h"
#include "oracle/oracle.h"

struct gtOracle {
	const gtMap* map;
	gtVisGraph graph;
	gtVertex* vertices; // a copy: the map's own list changes when a nav edits it
	// Per-query scratch, sized once so queries never allocate.
	double* dist;      // from s
	double* to_target; // straight-line distance to t when co-visible, else +inf
	int32_t* parent;   // previous vertex on the best path, -1 = s
	gtHeap heap;
};

gtStatus gtOracle_Create(const gtMap* map, int threads, gtOracle** out, gtError* err)
{
	return gt_oracle_create(map, NULL, threads, out, err);
}

// The copy of the vertex list and the search scratch, sized for the graph as it is now.
static gtStatus size_scratch(gtOracle* o, gtError* err)
{
	int n;
	const gtVertex* v = gtMap_Vertices(o->map, &n);
	size_t slots = (size_t)n + 1;
	gt_free(o->vertices), gt_free(o->dist), gt_free(o->to_target), gt_free(o->parent), gt_free(o->heap.items);
	o->vertices = gt_malloc(slots * sizeof *o->vertices);
	o->dist = gt_malloc(slots * sizeof *o->dist);
	o->to_target = gt_malloc(slots * sizeof *o->to_target);
	o->parent = gt_malloc(slots * sizeof *o->parent);
	o->heap.capacity = (int)((size_t)n + (size_t)o->graph.offset[n] + 1);
	o->heap.items = gt_malloc((size_t)o->heap.capacity * sizeof *o->heap.items);
	if (!o->vertices || !o->dist || !o->to_target || !o->parent || !o->heap.items)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle's scratch space");
	memcpy(o->vertices, v, (size_t)n * sizeof *v);
	return GT_OK;
}

gtStatus gt_oracle_create(const gtMap* map, const gtTaskSystem* tasks, int threads, gtOracle** out, gtError* err)
{
	*out = NULL;
	gtOracle* o = gt_calloc(1, sizeof *o);
	if (!o) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	o->map = map;
	gtStatus st = gt_vis_graph_build(map, tasks, threads, false, &o->graph, err);
	if (st) {
		gt_free(o);
		return st;
	}
	st = size_scratch(o, err);
	if (st) {
		gtOracle_Destroy(o);
		return st;
	}
	*out = o;
	return GT_OK;
}

gtStatus gt_oracle_after_blocks(const gtOracle* base, const gtMap* map, const int* rects, int rect_count, gtOracle** out,
                                gtError* err)
{
	*out = NULL;
	gtOracle* o = gt_calloc(1, sizeof *o);
	if (!o) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	o->map = map;
	gtStatus st = gt_vis_graph_after_blocks(map, base->vertices, base->graph.n, &base->graph, rects, rect_count, &o->graph, err);
	if (!st) st = size_scratch(o, err);
	if (st) {
		gtOracle_Destroy(o);
		return st;
	}
	*out = o;
	return GT_OK;
}

gtStatus gt_oracle_repair(gtOracle* o, const int* rects, int rect_count, gtError* err)
{
	gtStatus st = gt_vis_graph_repair(o->map, o->vertices, o->graph.n, rects, rect_count, &o->graph, err);
	return st ? st : size_scratch(o, err);
}

void gtOracle_Destroy(gtOracle* oracle)
{
	if (!oracle) return;
	gt_vis_graph_free(&oracle->graph);
	gt_free(oracle->vertices);
	gt_free(oracle->dist);
	gt_free(oracle->to_target);
	gt_free(oracle->parent);
	gt_free(oracle->heap.items);
	gt_free(oracle);
}

int64_t gtOracle_EdgeCount(const gtOracle* oracle)
{
	return oracle->graph.offset[oracle->graph.n] / 2;
}

int gtOracle_Neighbors(const gtOracle* oracle, int v, const int32_t** neighbors, const double** lengths)
{
	if (v < 0 || v >= oracle->graph.n) {
		*neighbors = NULL;
		*lengths = NULL;
		return 0;
	}
	int64_t lo = oracle->graph.offset[v];
	*neighbors = oracle->graph.adj + lo;
	*lengths = oracle->graph.length + lo;
	return (int)(oracle->graph.offset[v + 1] - lo);
}

static gtStatus check_endpoint(const gtMap* map, gtVec2 p, const char* which, gtError* err)
{
	gtPointCheck c = gtMap_CheckPoint(map, p);
	if (c == GT_POINT_VALID) return GT_OK;
	return gt_fail(err, GT_ERR_INVALID_POINT, "%s (%g, %g): %s", which, p.x, p.y, gtPointCheckName(c));
}

// A shortest path only bends at v when it wraps v's blocked cell, so the segment from v to the
// point must be tangent at v (docs/algorithms.md 2.6); other vertices need no visibility test.
static bool tangent(gtVertex v, gtVec2 p)
{
	return v.bx * v.by * (p.x - v.x) * (p.y - v.y) <= 0;
}

// Runs the search; returns the last vertex of the best path (-1 = straight line, -2 = none). A*
// with the straight-line distance to t, which never overestimates and is consistent: a vertex is
// tested for a straight run to t only when it comes off the heap, and the search stops once the
// best key left is no shorter than the best path found.
static int search(gtOracle* o, gtVec2 s, gtVec2 t, double* distance)
{
	if (gt_visible_unchecked(o->map, s, t)) {
		*distance = hypot(t.x - s.x, t.y - s.y);
		return -1;
	}
	int n = o->graph.n;
	const gtVertex* v = o->vertices;
	o->heap.size = 0;
	for (int i = 0; i < n; i++) {
		gtVec2 p = {v[i].x, v[i].y};
		o->dist[i] = INFINITY;
		o->parent[i] = -1;
		o->to_target[i] = hypot(t.x - p.x, t.y - p.y); // the heuristic
		if (tangent(v[i], s) && gt_visible_unchecked(o->map, s, p)) {
			o->dist[i] = hypot(p.x - s.x, p.y - s.y);
			gt_heap_push(&o->heap, o->dist[i] + o->to_target[i], i);
		}
	}
	double best = INFINITY;
	int last = -2;
	while (o->heap.size > 0) {
		gtHeapItem top = gt_heap_pop(&o->heap);
		int u = top.id;
		if (top.key != o->dist[u] + o->to_target[u]) continue; // stale entry
		if (top.key >= best) break;
		gtVec2 p = {v[u].x, v[u].y};
		if (tangent(v[u], t) && gt_visible_unchecked(o->map, p, t)) {
			double through = o->dist[u] + o->to_target[u];
			if (through < best) {
				best = through;
				last = u;
			}
		}
		for (int64_t e = o->graph.offset[u]; e < o->graph.offset[u + 1]; e++) {
			int32_t w = o->graph.adj[e];
			double candidate = o->dist[u] + o->graph.length[e];
			if (candidate < o->dist[w]) {
				o->dist[w] = candidate;
				o->parent[w] = u;
				gt_heap_push(&o->heap, candidate + o->to_target[w], w);
			}
		}
	}
	*distance = best;
	return last;
}

gtStatus gtOracle_Distance(gtOracle* oracle, gtVec2 s, gtVec2 t, double* distance, gtError* err)
{
	*distance = INFINITY;
	gtStatus st = check_endpoint(oracle->map, s, "start", err);
	if (!st) st = check_endpoint(oracle->map, t, "target", err);
	if (st) return st;
	search(oracle, s, t, distance);
	return GT_OK;
}

gtStatus gtOracle_Path(gtOracle* oracle, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count,
                       double* distance, gtError* err)
{
	double d = INFINITY;
	*count = 0;
	if (distance) *distance = INFINITY;
	gtStatus st = check_endpoint(oracle->map, s, "start", err);
	if (!st) st = check_endpoint(oracle->map, t, "target", err);
	if (st) return st;
	int last = search(oracle, s, t, &d);
	if (distance) *distance = d;
	if (last == -2) return GT_OK;
	int bends = 0;
	for (int v = last; v >= 0; v = oracle->parent[v]) bends++;
	*count = bends + 2;
	if (capacity < *count)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "path has %d points but the buffer holds %d", *count, capacity);
	points[0] = s;
	points[bends + 1] = t;
	int i = bends;
	for (int v = last; v >= 0; v = oracle->parent[v], i--) {
		points[i].x = oracle->vertices[v].x;
		points[i].y = oracle->vertices[v].y;
	}
	return GT_OK;
}
