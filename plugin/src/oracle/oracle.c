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
#include "oracle/landmarks.h"
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
	// Derived by gt_oracle_after_blocks: the base graph's vertex v is vertex new_of[v] here (-1:
	// gone), and `fresh` lists the vertices the base did not have.
	int32_t* new_of;
	int base_n;
	int32_t* fresh;
	int fresh_count;
	int32_t* old_of; // the base's number of each vertex here, -1 = fresh
	// Landmarks: a base computes them when the first oracle is derived from it; a derived oracle
	// keeps a copy in the base's numbering (its distances bound the edited map's from below: walls
	// were only added) and per search the bounds on each landmark's distance to t.
	gtLandmarks landmarks;
	double *landmark_low, *landmark_high;
	gtVertex* base_vertices;
	int32_t* goal; // scratch: t's last bends
	// Seeded searches touch few vertices: per-vertex state is valid only where stamp = generation.
	uint32_t* stamp;
	double* estimate; // straight-line distance to t
	uint32_t generation;
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
	gt_free(o->stamp), gt_free(o->estimate);
	o->stamp = gt_calloc(slots, sizeof *o->stamp);
	o->estimate = gt_malloc(slots * sizeof *o->estimate);
	o->generation = 0;
	o->vertices = gt_malloc(slots * sizeof *o->vertices);
	o->dist = gt_malloc(slots * sizeof *o->dist);
	o->to_target = gt_malloc(slots * sizeof *o->to_target);
	o->parent = gt_malloc(slots * sizeof *o->parent);
	o->heap.capacity = (int)((size_t)n + (size_t)o->graph.offset[n] + 1);
	o->heap.items = gt_malloc((size_t)o->heap.capacity * sizeof *o->heap.items);
	if (!o->vertices || !o->dist || !o->to_target || !o->parent || !o->heap.items || !o->stamp || !o->estimate)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle's scratch space");
	if (n > 0) memcpy(o->vertices, v, (size_t)n * sizeof *v);
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

gtStatus gt_oracle_create_from_graph(const gtMap* map, const gtVisGraph* graph, gtOracle** out, gtError* err)
{
	*out = NULL;
	gtOracle* o = gt_calloc(1, sizeof *o);
	if (!o) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	o->map = map;
	if (!gt_vis_graph_copy(graph, &o->graph)) {
		gt_free(o);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	}
	gtStatus st = size_scratch(o, err);
	if (st) {
		gtOracle_Destroy(o);
		return st;
	}
	*out = o;
	return GT_OK;
}

// Which vertex each of the base's is now, and which vertices are new (for seeded searches).
static gtStatus match_base(gtOracle* o, const gtOracle* base, gtError* err)
{
	int n = o->graph.n;
	o->base_n = base->graph.n;
	o->new_of = gt_malloc(((size_t)o->base_n + 1) * sizeof *o->new_of);
	int32_t* old_of = gt_malloc(((size_t)n + 1) * sizeof *old_of);
	gt_free(o->old_of); // (never set before: match_base runs once per derived oracle)
	o->fresh = gt_malloc(((size_t)n + 1) * sizeof *o->fresh);
	const gtLandmarks* l = &base->landmarks;
	size_t entries = (size_t)l->n * (size_t)l->count;
	o->landmarks.dist = gt_malloc((entries + 1) * sizeof *o->landmarks.dist);
	o->landmark_low = gt_malloc(((size_t)l->count + 1) * sizeof *o->landmark_low);
	o->landmark_high = gt_malloc(((size_t)l->count + 1) * sizeof *o->landmark_high);
	o->landmarks.vertex = gt_malloc(((size_t)l->count + 1) * sizeof *o->landmarks.vertex);
	o->base_vertices = gt_malloc(((size_t)o->base_n + 1) * sizeof *o->base_vertices);
	o->goal = gt_malloc(((size_t)o->base_n + (size_t)n + 1) * sizeof *o->goal);
	o->old_of = old_of;
	if (!o->new_of || !old_of || !o->fresh || !o->landmarks.dist || !o->landmark_low || !o->landmark_high ||
	    !o->landmarks.vertex || !o->base_vertices || !o->goal)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	// memcpy wants real pointers even for 0 bytes, and a map without landmarks or vertices has none.
	if (entries) memcpy(o->landmarks.dist, l->dist, entries * sizeof *l->dist);
	if (l->count) memcpy(o->landmarks.vertex, l->vertex, (size_t)l->count * sizeof *l->vertex);
	if (o->base_n) memcpy(o->base_vertices, base->vertices, (size_t)o->base_n * sizeof *o->base_vertices);
	o->landmarks.n = l->n, o->landmarks.count = l->count;
	gt_vis_match_vertices(base->vertices, base->graph.n, o->vertices, n, old_of, o->new_of);
	o->fresh_count = 0;
	for (int v = 0; v < n; v++)
		if (old_of[v] < 0) o->fresh[o->fresh_count++] = v;
	return GT_OK;
}

gtStatus gt_oracle_after_blocks(gtOracle* base, const gtMap* map, const int* rects, int rect_count, gtOracle** out,
                                gtError* err)
{
	*out = NULL;
	if (!base->landmarks.dist) {
		gtStatus st = gt_landmarks_build(&base->graph, &base->landmarks, err);
		if (st) return st;
	}
	gtOracle* o = gt_calloc(1, sizeof *o);
	if (!o) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	o->map = map;
	gtStatus st = gt_vis_graph_after_blocks(map, base->vertices, base->graph.n, &base->graph, rects, rect_count,
	                                        &o->graph, err);
	if (!st) st = size_scratch(o, err);
	if (!st) st = match_base(o, base, err);
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
	gt_free(o->new_of), gt_free(o->fresh), gt_free(o->old_of); // repaired, it no longer matches a base
	gt_free(o->landmark_low), gt_free(o->landmark_high), gt_free(o->base_vertices), gt_free(o->goal);
	gt_landmarks_free(&o->landmarks);
	o->base_vertices = NULL;
	o->goal = NULL;
	o->new_of = o->fresh = o->old_of = NULL;
	o->landmark_low = o->landmark_high = NULL;
	o->base_n = o->fresh_count = 0;
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
	gt_free(oracle->new_of);
	gt_free(oracle->fresh);
	gt_free(oracle->old_of);
	gt_free(oracle->landmark_low);
	gt_free(oracle->landmark_high);
	gt_free(oracle->base_vertices);
	gt_free(oracle->goal);
	gt_landmarks_free(&oracle->landmarks);
	gt_free(oracle->stamp);
	gt_free(oracle->estimate);
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

// Writes s, the bends from `last` back along parent, and t.
static gtStatus write_path(const gtOracle* o, gtVec2 s, gtVec2 t, int last, gtVec2* points, int capacity, int* count,
                           gtError* err)
{
	if (last == -2) return GT_OK;
	int bends = 0;
	for (int v = last; v >= 0; v = o->parent[v]) bends++;
	*count = bends + 2;
	if (capacity < *count)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "path has %d points but the buffer holds %d", *count, capacity);
	points[0] = s;
	points[bends + 1] = t;
	int i = bends;
	for (int v = last; v >= 0; v = o->parent[v], i--) {
		points[i].x = o->vertices[v].x;
		points[i].y = o->vertices[v].y;
	}
	return GT_OK;
}

gtStatus gtOracle_Path(gtOracle* oracle, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* distance,
                       gtError* err)
{
	double d = INFINITY;
	*count = 0;
	if (distance) *distance = INFINITY;
	gtStatus st = check_endpoint(oracle->map, s, "start", err);
	if (!st) st = check_endpoint(oracle->map, t, "target", err);
	if (st) return st;
	int last = search(oracle, s, t, &d);
	if (distance) *distance = d;
	return write_path(oracle, s, t, last, points, capacity, count, err);
}

bool gt_oracle_is_derived(const gtOracle* oracle)
{
	return oracle->new_of != NULL;
}

static int sign(double v)
{
	return (v > 0) - (v < 0);
}

// Whether the path (x, y) -> v -> w bends tautly around v's blocked cell (docs/algorithms.md 2.6).
// A shortest path is taut at every bend, and a vertex reached by two equally short paths can
// continue from either (a non-taut bend would make the continuation shorter than the shortest).
// Near-collinear cases count as taut: keeping an edge is always safe.
static bool taut_at(gtVertex v, double x, double y, gtVertex w)
{
	double ax = w.x - v.x, ay = w.y - v.y, bx = x - v.x, by = y - v.y;
	double ab = ax * by - ay * bx, mb = v.bx * by - v.by * bx;
	double scale = 1e-9 * (fabs(ax) + fabs(ay)) * (fabs(bx) + fabs(by) + 1);
	if (fabs(ab) <= scale || fabs(mb) <= scale) return true;
	return sign(ab) == sign(ax * v.by - ay * v.bx) && sign(mb) != sign(v.bx * ay - v.by * ax);
}

// Per-vertex state of a seeded search, reset on first touch.
static void touch(gtOracle* o, int v, gtVec2 t)
{
	if (o->stamp[v] == o->generation) return;
	o->stamp[v] = o->generation;
	o->dist[v] = INFINITY;
	o->to_target[v] = INFINITY;
	o->parent[v] = -1;
	o->estimate[v] = hypot(t.x - o->vertices[v].x, t.y - o->vertices[v].y);
	int old = o->old_of[v];
	if (old < 0) return; // fresh: the straight line only
	int count = o->landmarks.count;
	const double* d = o->landmarks.dist + (size_t)old * (size_t)count;
	for (int l = 0; l < count; l++) {
		double low = o->landmark_low[l], high = o->landmark_high[l], bound;
		if (isinf(d[l])) continue; // landmark l is in another component: it bounds nothing here
		bound = low - d[l] > d[l] - high ? low - d[l] : d[l] - high;
		bound -= 1e-9 * (1 + bound); // rounding must never lift the bound above the distance
		if (bound > o->estimate[v]) o->estimate[v] = bound;
	}
}

// Lower bounds on each landmark's distance to t on the base map: its shortest path reaches t
// straight or through one of t's possible last bends `to` (base numbering; gone ones included).
static void landmark_low_bounds(gtOracle* o, gtVec2 t, const int32_t* to, int to_count)
{
	int count = o->landmarks.count;
	for (int l = 0; l < count; l++) {
		gtVertex L = o->base_vertices[o->landmarks.vertex[l]];
		o->landmark_low[l] = hypot(t.x - L.x, t.y - L.y);
		o->landmark_high[l] = INFINITY;
	}
	for (int i = 0; i < to_count; i++) {
		if (to[i] < 0 || to[i] >= o->base_n) continue;
		gtVertex w = o->base_vertices[to[i]];
		if (!tangent(w, t)) continue;
		double straight = hypot(t.x - w.x, t.y - w.y);
		const double* d = o->landmarks.dist + (size_t)to[i] * (size_t)count;
		for (int l = 0; l < count; l++)
			if (d[l] + straight < o->landmark_low[l]) o->landmark_low[l] = d[l] + straight;
	}
}

// An upper bound too: the path through a last bend `old` that still sees t (distance `straight`).
static void landmark_high_bound(gtOracle* o, int old, double straight)
{
	int count = o->landmarks.count;
	const double* d = o->landmarks.dist + (size_t)old * (size_t)count;
	for (int l = 0; l < count; l++)
		if (d[l] + straight < o->landmark_high[l]) o->landmark_high[l] = d[l] + straight;
}

// The vertex the base called `old` (or, past the base's vertices, fresh vertex old - base_n).
static int candidate(const gtOracle* o, const int32_t* old, int count, int i)
{
	if (i < count) return old[i] >= 0 && old[i] < o->base_n ? o->new_of[old[i]] : -1;
	return o->fresh[i - count];
}

// A* from s to t that starts from the candidates for the first bend and ends at those for the last
// (the base's vertices in `from` / `to`, plus every fresh vertex), testing only them for a straight
// run from s or to t instead of every vertex. Same stop rule as search().
static int search_between(gtOracle* o, gtVec2 s, gtVec2 t, const int32_t* from, int from_count, const int32_t* to,
                          int to_count, double* distance)
{
	*distance = INFINITY;
	if (gt_visible_unchecked(o->map, s, t)) {
		*distance = hypot(t.x - s.x, t.y - s.y);
		return -1;
	}
	if (++o->generation == 0) {
		memset(o->stamp, 0, ((size_t)o->graph.n + 1) * sizeof *o->stamp);
		o->generation = 1;
	}
	const gtVertex* v = o->vertices;
	landmark_low_bounds(o, t, to, to_count);
	int goals = 0; // t's last bends that still see it, in `goal`, before any vertex is touched
	for (int i = 0; i < to_count + o->fresh_count; i++) {
		int w = candidate(o, to, to_count, i);
		if (w < 0 || !tangent(v[w], t) || !gt_visible_unchecked(o->map, (gtVec2){v[w].x, v[w].y}, t)) continue;
		o->goal[goals++] = w;
		if (o->old_of[w] >= 0) landmark_high_bound(o, o->old_of[w], hypot(t.x - v[w].x, t.y - v[w].y));
	}
	for (int i = 0; i < goals; i++) {
		touch(o, o->goal[i], t);
		o->to_target[o->goal[i]] = hypot(t.x - v[o->goal[i]].x, t.y - v[o->goal[i]].y);
	}
	bool any_goal = goals > 0;
	if (!any_goal) return -2;
	o->heap.size = 0;
	for (int i = 0; i < from_count + o->fresh_count; i++) {
		int u = candidate(o, from, from_count, i);
		if (u < 0) continue;
		touch(o, u, t);
		gtVec2 p = {v[u].x, v[u].y};
		if (!isinf(o->dist[u]) || !tangent(v[u], s) || !gt_visible_unchecked(o->map, s, p)) continue;
		o->dist[u] = hypot(p.x - s.x, p.y - s.y);
		gt_heap_push(&o->heap, o->dist[u] + o->estimate[u], u);
	}
	double best = INFINITY;
	int last = -2;
	while (o->heap.size > 0) {
		gtHeapItem top = gt_heap_pop(&o->heap);
		int u = top.id;
		if (top.key != o->dist[u] + o->estimate[u]) continue; // stale entry
		if (top.key >= best) break;
		if (o->dist[u] + o->to_target[u] < best) {
			best = o->dist[u] + o->to_target[u];
			last = u;
		}
		double from_x = o->parent[u] < 0 ? s.x : v[o->parent[u]].x, from_y = o->parent[u] < 0 ? s.y : v[o->parent[u]].y;
		for (int64_t e = o->graph.offset[u]; e < o->graph.offset[u + 1]; e++) {
			int32_t w = o->graph.adj[e];
			if (!taut_at(v[u], from_x, from_y, v[w])) continue;
			touch(o, w, t);
			double through = o->dist[u] + o->graph.length[e];
			// The estimates of new corners (straight lines) and old vertices (landmarks) are not
			// consistent with each other, so a vertex may be reached again: should the heap fill
			// up, the plain search answers instead.
			if (through < o->dist[w] && o->heap.size == o->heap.capacity) return search(o, s, t, distance);
			if (through < o->dist[w]) {
				o->dist[w] = through;
				o->parent[w] = u;
				gt_heap_push(&o->heap, through + o->estimate[w], w);
			}
		}
	}
	*distance = best;
	return last;
}

gtStatus gt_oracle_between(gtOracle* oracle, gtVec2 s, gtVec2 t, const int32_t* from, int from_count, const int32_t* to,
                           int to_count, gtVec2* points, int capacity, int* count, double* distance, gtError* err)
{
	double d;
	if (count) *count = 0;
	int last = search_between(oracle, s, t, from, from_count, to, to_count, &d);
	*distance = d;
	return points ? write_path(oracle, s, t, last, points, capacity, count, err) : GT_OK;
}

gtStatus gt_oracle_copy_landmarks(gtOracle* oracle, const gtLandmarks* landmarks, gtError* err)
{
	if (oracle->landmarks.dist || !landmarks->dist || landmarks->n != oracle->graph.n)
		return GT_OK; // has them, or they do not fit
	size_t entries = (size_t)landmarks->n * (size_t)landmarks->count;
	gtLandmarks copy = {landmarks->count, landmarks->n, gt_malloc((entries + 1) * sizeof *copy.dist),
	                    gt_malloc(((size_t)landmarks->count + 1) * sizeof *copy.vertex)};
	if (!copy.dist || !copy.vertex) {
		gt_landmarks_free(&copy);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the landmarks");
	}
	if (entries) memcpy(copy.dist, landmarks->dist, entries * sizeof *copy.dist);
	if (landmarks->count) memcpy(copy.vertex, landmarks->vertex, (size_t)landmarks->count * sizeof *copy.vertex);
	oracle->landmarks = copy;
	return GT_OK;
}
