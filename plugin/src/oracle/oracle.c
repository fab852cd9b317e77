// Brute-force oracle: Dijkstra over the visibility graph plus the two query points.
#include <math.h>
#include <stdatomic.h>
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

// One searcher's scratch, sized once for the oracles it searches so queries never allocate. Many
// searchers may search one oracle at a time: the oracle itself is read-only once made.
struct gtOracleSearch {
	uint64_t oracle_id; // the oracle its stamps are for
	int slots;          // vertices it has room for
	int heap_slots, landmark_slots, goal_slots;
	double* dist;      // from s
	double* to_target; // straight-line distance to t when co-visible, else +inf
	int32_t* parent;   // previous vertex on the best path, -1 = s
	gtHeap heap;
	double *landmark_low, *landmark_high; // per search: bounds on each landmark's distance to t
	int32_t* goal;                        // t's last bends
	// Seeded searches touch few vertices: per-vertex state is valid only where stamp = generation.
	uint32_t* stamp;
	double* estimate; // straight-line distance to t
	uint32_t generation;
};

struct gtOracle {
	uint64_t id; // unique per oracle made: a searcher knows when it moves to another
	const gtMap* map;
	gtVisGraph graph;
	gtVertex* vertices; // a copy: the map's own list changes when a nav edits it
	// Derived by gt_oracle_after_blocks: the base graph's vertex v is vertex new_of[v] here (-1:
	// gone), and `fresh` lists the vertices the base did not have.
	int32_t* new_of;
	int base_n;
	int32_t* fresh;
	int fresh_count;
	int32_t* old_of; // the base's number of each vertex here, -1 = fresh
	// Landmarks: a base has them (gt_oracle_add_landmarks); a derived oracle keeps a copy in the
	// base's numbering (its distances bound the edited map's from below: walls were only added).
	gtLandmarks landmarks;
	gtVertex* base_vertices;
	gtOracleSearch* own; // the public calls' searcher
};

static atomic_uint_fast64_t next_oracle_id = 1;

gtStatus gtOracle_Create(const gtMap* map, int threads, gtOracle** out, gtError* err)
{
	return gt_oracle_create(map, NULL, threads, out, err);
}

void gt_oracle_search_destroy(gtOracleSearch* s)
{
	if (!s) return;
	gt_free(s->dist), gt_free(s->to_target), gt_free(s->parent), gt_free(s->heap.items);
	gt_free(s->landmark_low), gt_free(s->landmark_high), gt_free(s->goal);
	gt_free(s->stamp), gt_free(s->estimate);
	gt_free(s);
}

// Room for `oracle`'s searches: arrays grow (never shrink) to its sizes.
gtStatus gt_oracle_search_ready(gtOracleSearch** searcher, const gtOracle* oracle, gtError* err)
{
	gtOracleSearch* s = *searcher;
	if (!s && !(s = *searcher = gt_calloc(1, sizeof *s)))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle's scratch space");
	int n = oracle->graph.n;
	int64_t heap = (int64_t)n + oracle->graph.offset[n] + 1;
	int goals = oracle->base_n + n + 1, marks = oracle->landmarks.count + 1;
	if (heap > INT32_MAX) return gt_fail(err, GT_ERR_LIMIT, "the visibility graph is too large to search");
	if (n + 1 > s->slots) {
		size_t slots = (size_t)n + 1;
		gt_free(s->dist), gt_free(s->to_target), gt_free(s->parent), gt_free(s->stamp), gt_free(s->estimate);
		s->dist = gt_malloc(slots * sizeof *s->dist);
		s->to_target = gt_malloc(slots * sizeof *s->to_target);
		s->parent = gt_malloc(slots * sizeof *s->parent);
		s->stamp = gt_calloc(slots, sizeof *s->stamp);
		s->estimate = gt_malloc(slots * sizeof *s->estimate);
		s->slots = s->dist && s->to_target && s->parent && s->stamp && s->estimate ? n + 1 : 0;
		s->oracle_id = 0;
	}
	if (heap > s->heap_slots) {
		gt_free(s->heap.items);
		s->heap.items = gt_malloc((size_t)heap * sizeof *s->heap.items);
		s->heap_slots = s->heap.items ? (int)heap : 0;
	}
	if (goals > s->goal_slots) {
		gt_free(s->goal);
		s->goal = gt_malloc((size_t)goals * sizeof *s->goal);
		s->goal_slots = s->goal ? goals : 0;
	}
	if (marks > s->landmark_slots) {
		gt_free(s->landmark_low), gt_free(s->landmark_high);
		s->landmark_low = gt_malloc((size_t)marks * sizeof *s->landmark_low);
		s->landmark_high = gt_malloc((size_t)marks * sizeof *s->landmark_high);
		s->landmark_slots = s->landmark_low && s->landmark_high ? marks : 0;
	}
	if (!s->slots || !s->heap_slots || !s->goal_slots || !s->landmark_slots)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle's scratch space");
	s->heap.capacity = (int)heap;
	if (s->oracle_id != oracle->id) { // another numbering: no stamp may look valid
		memset(s->stamp, 0, (size_t)s->slots * sizeof *s->stamp);
		s->generation = 0;
		s->oracle_id = oracle->id;
	}
	return GT_OK;
}

// The copy of the vertex list and the public calls' searcher, sized for the graph as it is now.
static gtStatus size_scratch(gtOracle* o, gtError* err)
{
	int n;
	const gtVertex* v = gtMap_Vertices(o->map, &n);
	gt_free(o->vertices);
	o->vertices = gt_malloc(((size_t)n + 1) * sizeof *o->vertices);
	if (!o->vertices) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle's scratch space");
	if (n > 0) memcpy(o->vertices, v, (size_t)n * sizeof *v);
	o->id = atomic_fetch_add(&next_oracle_id, 1);
	return gt_oracle_search_ready(&o->own, o, err);
}

static gtOracle* new_oracle(const gtMap* map)
{
	gtOracle* o = gt_calloc(1, sizeof *o);
	if (o) o->map = map;
	return o;
}

gtStatus gt_oracle_create(const gtMap* map, const gtTaskSystem* tasks, int threads, gtOracle** out, gtError* err)
{
	*out = NULL;
	gtOracle* o = new_oracle(map);
	if (!o) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
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
	gtVisGraph copy;
	if (!gt_vis_graph_copy(graph, &copy)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	return gt_oracle_take_graph(map, &copy, out, err);
}

gtStatus gt_oracle_take_graph(const gtMap* map, gtVisGraph* graph, gtOracle** out, gtError* err)
{
	*out = NULL;
	gtOracle* o = new_oracle(map);
	if (!o) {
		gt_vis_graph_free(graph);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	}
	o->graph = *graph;
	memset(graph, 0, sizeof *graph);
	gtStatus st = size_scratch(o, err);
	if (st) {
		gtOracle_Destroy(o);
		return st;
	}
	*out = o;
	return GT_OK;
}

gtStatus gt_oracle_repaired(const gtOracle* from, const gtMap* map, const int* rects, int rect_count, gtOracle** out,
                            gtError* err)
{
	*out = NULL;
	gtVisGraph graph;
	if (!gt_vis_graph_copy(&from->graph, &graph)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	gtStatus st = gt_vis_graph_repair(map, from->vertices, from->graph.n, rects, rect_count, &graph, err);
	if (st) {
		gt_vis_graph_free(&graph);
		return st;
	}
	return gt_oracle_take_graph(map, &graph, out, err);
}

gtStatus gt_oracle_add_landmarks(gtOracle* oracle, gtError* err)
{
	if (oracle->landmarks.dist || gt_oracle_is_derived(oracle)) return GT_OK;
	gtStatus st = gt_landmarks_build(&oracle->graph, &oracle->landmarks, err);
	return st ? st : gt_oracle_search_ready(&oracle->own, oracle, err);
}

const gtMap* gt_oracle_map(const gtOracle* oracle)
{
	return oracle->map;
}

// Which vertex each of the base's is now, and which vertices are new (for seeded searches). `from`
// is the base itself or an oracle derived from it: numbers are composed through it.
static gtStatus match_base(gtOracle* o, const gtOracle* from, gtError* err)
{
	int n = o->graph.n;
	bool chained = gt_oracle_is_derived(from);
	o->base_n = chained ? from->base_n : from->graph.n;
	o->new_of = gt_malloc(((size_t)o->base_n + 1) * sizeof *o->new_of);
	o->old_of = gt_malloc(((size_t)n + 1) * sizeof *o->old_of);
	int32_t* step_new_of = gt_malloc(((size_t)from->graph.n + 1) * sizeof *step_new_of);
	o->fresh = gt_malloc(((size_t)n + 1) * sizeof *o->fresh);
	const gtLandmarks* l = &from->landmarks;
	size_t entries = (size_t)l->n * (size_t)l->count;
	o->landmarks.dist = gt_malloc((entries + 1) * sizeof *o->landmarks.dist);
	o->landmarks.vertex = gt_malloc(((size_t)l->count + 1) * sizeof *o->landmarks.vertex);
	o->base_vertices = gt_malloc(((size_t)o->base_n + 1) * sizeof *o->base_vertices);
	if (!o->new_of || !o->old_of || !step_new_of || !o->fresh || !o->landmarks.dist || !o->landmarks.vertex ||
	    !o->base_vertices) {
		gt_free(step_new_of);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	}
	// memcpy wants real pointers even for 0 bytes, and a map without landmarks or vertices has none.
	if (entries) memcpy(o->landmarks.dist, l->dist, entries * sizeof *l->dist);
	if (l->count) memcpy(o->landmarks.vertex, l->vertex, (size_t)l->count * sizeof *l->vertex);
	const gtVertex* base_vertices = chained ? from->base_vertices : from->vertices;
	if (o->base_n) memcpy(o->base_vertices, base_vertices, (size_t)o->base_n * sizeof *o->base_vertices);
	o->landmarks.n = l->n, o->landmarks.count = l->count;
	gt_vis_match_vertices(from->vertices, from->graph.n, o->vertices, n, o->old_of, step_new_of);
	gt_free(step_new_of);
	for (int b = 0; b < o->base_n; b++) o->new_of[b] = -1;
	o->fresh_count = 0;
	for (int v = 0; v < n; v++) {
		if (chained && o->old_of[v] >= 0) o->old_of[v] = from->old_of[o->old_of[v]];
		if (o->old_of[v] < 0) o->fresh[o->fresh_count++] = v;
		else o->new_of[o->old_of[v]] = v;
	}
	return GT_OK;
}

gtStatus gt_oracle_after_blocks(const gtOracle* base, const gtMap* map, const int* rects, int rect_count,
                                gtOracle** out, gtError* err)
{
	*out = NULL;
	gtOracle* o = new_oracle(map);
	if (!o) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the oracle");
	gtStatus st = gt_vis_graph_after_blocks(map, NULL, 1, base->vertices, base->graph.n, &base->graph, rects,
	                                        rect_count, &o->graph, err);
	if (!st) st = size_scratch(o, err);
	if (!st) st = match_base(o, base, err);
	if (!st) st = gt_oracle_search_ready(&o->own, o, err); // room for the landmarks and goals too
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
	gt_free(o->base_vertices);
	gt_landmarks_free(&o->landmarks);
	o->base_vertices = NULL;
	o->new_of = o->fresh = o->old_of = NULL;
	o->base_n = o->fresh_count = 0;
	return st ? st : size_scratch(o, err);
}

void gtOracle_Destroy(gtOracle* oracle)
{
	if (!oracle) return;
	gt_vis_graph_free(&oracle->graph);
	gt_free(oracle->vertices);
	gt_free(oracle->new_of);
	gt_free(oracle->fresh);
	gt_free(oracle->old_of);
	gt_free(oracle->base_vertices);
	gt_landmarks_free(&oracle->landmarks);
	gt_oracle_search_destroy(oracle->own);
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
static int search(const gtOracle* o, gtOracleSearch* r, gtVec2 s, gtVec2 t, double* distance)
{
	if (gt_visible_unchecked(o->map, s, t)) {
		*distance = hypot(t.x - s.x, t.y - s.y);
		return -1;
	}
	int n = o->graph.n;
	const gtVertex* v = o->vertices;
	r->heap.size = 0;
	for (int i = 0; i < n; i++) {
		gtVec2 p = {v[i].x, v[i].y};
		r->dist[i] = INFINITY;
		r->parent[i] = -1;
		r->to_target[i] = hypot(t.x - p.x, t.y - p.y); // the heuristic
		if (tangent(v[i], s) && gt_visible_unchecked(o->map, s, p)) {
			r->dist[i] = hypot(p.x - s.x, p.y - s.y);
			gt_heap_push(&r->heap, r->dist[i] + r->to_target[i], i);
		}
	}
	double best = INFINITY;
	int last = -2;
	while (r->heap.size > 0) {
		gtHeapItem top = gt_heap_pop(&r->heap);
		int u = top.id;
		if (top.key != r->dist[u] + r->to_target[u]) continue; // stale entry
		if (top.key >= best) break;
		gtVec2 p = {v[u].x, v[u].y};
		if (tangent(v[u], t) && gt_visible_unchecked(o->map, p, t)) {
			double through = r->dist[u] + r->to_target[u];
			if (through < best) {
				best = through;
				last = u;
			}
		}
		for (int64_t e = o->graph.offset[u]; e < o->graph.offset[u + 1]; e++) {
			int32_t w = o->graph.adj[e];
			double candidate = r->dist[u] + o->graph.length[e];
			if (candidate < r->dist[w]) {
				r->dist[w] = candidate;
				r->parent[w] = u;
				gt_heap_push(&r->heap, candidate + r->to_target[w], w);
			}
		}
	}
	*distance = best;
	return last;
}

gtStatus gt_oracle_distance_with(const gtOracle* oracle, gtOracleSearch* searcher, gtVec2 s, gtVec2 t, double* distance,
                                 gtError* err)
{
	*distance = INFINITY;
	gtStatus st = check_endpoint(oracle->map, s, "start", err);
	if (!st) st = check_endpoint(oracle->map, t, "target", err);
	if (st) return st;
	search(oracle, searcher, s, t, distance);
	return GT_OK;
}

gtStatus gtOracle_Distance(gtOracle* oracle, gtVec2 s, gtVec2 t, double* distance, gtError* err)
{
	return gt_oracle_distance_with(oracle, oracle->own, s, t, distance, err);
}

// Writes s, the bends from `last` back along parent, and t.
static gtStatus write_path(const gtOracle* o, const gtOracleSearch* r, gtVec2 s, gtVec2 t, int last, gtVec2* points,
                           int capacity, int* count, gtError* err)
{
	if (last == -2) return GT_OK;
	int bends = 0;
	for (int v = last; v >= 0; v = r->parent[v]) bends++;
	*count = bends + 2;
	if (capacity < *count)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "path has %d points but the buffer holds %d", *count, capacity);
	points[0] = s;
	points[bends + 1] = t;
	int i = bends;
	for (int v = last; v >= 0; v = r->parent[v], i--) {
		points[i].x = o->vertices[v].x;
		points[i].y = o->vertices[v].y;
	}
	return GT_OK;
}

gtStatus gt_oracle_path_with(const gtOracle* oracle, gtOracleSearch* searcher, gtVec2 s, gtVec2 t, gtVec2* points,
                             int capacity, int* count, double* distance, gtError* err)
{
	double d = INFINITY;
	*count = 0;
	if (distance) *distance = INFINITY;
	gtStatus st = check_endpoint(oracle->map, s, "start", err);
	if (!st) st = check_endpoint(oracle->map, t, "target", err);
	if (st) return st;
	int last = search(oracle, searcher, s, t, &d);
	if (distance) *distance = d;
	return write_path(oracle, searcher, s, t, last, points, capacity, count, err);
}

gtStatus gtOracle_Path(gtOracle* oracle, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* distance,
                       gtError* err)
{
	return gt_oracle_path_with(oracle, oracle->own, s, t, points, capacity, count, distance, err);
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
static void touch(const gtOracle* o, gtOracleSearch* r, int v, gtVec2 t)
{
	if (r->stamp[v] == r->generation) return;
	r->stamp[v] = r->generation;
	r->dist[v] = INFINITY;
	r->to_target[v] = INFINITY;
	r->parent[v] = -1;
	r->estimate[v] = hypot(t.x - o->vertices[v].x, t.y - o->vertices[v].y);
	int old = o->old_of[v];
	if (old < 0) return; // fresh: the straight line only
	int count = o->landmarks.count;
	const double* d = o->landmarks.dist + (size_t)old * (size_t)count;
	for (int l = 0; l < count; l++) {
		double low = r->landmark_low[l], high = r->landmark_high[l], bound;
		if (isinf(d[l])) continue; // landmark l is in another component: it bounds nothing here
		bound = low - d[l] > d[l] - high ? low - d[l] : d[l] - high;
		bound -= 1e-9 * (1 + bound); // rounding must never lift the bound above the distance
		if (bound > r->estimate[v]) r->estimate[v] = bound;
	}
}

// Lower bounds on each landmark's distance to t on the base map: its shortest path reaches t
// straight or through one of t's possible last bends `to` (base numbering; gone ones included).
static void landmark_low_bounds(const gtOracle* o, gtOracleSearch* r, gtVec2 t, const int32_t* to, int to_count)
{
	int count = o->landmarks.count;
	for (int l = 0; l < count; l++) {
		gtVertex L = o->base_vertices[o->landmarks.vertex[l]];
		r->landmark_low[l] = hypot(t.x - L.x, t.y - L.y);
		r->landmark_high[l] = INFINITY;
	}
	for (int i = 0; i < to_count; i++) {
		if (to[i] < 0 || to[i] >= o->base_n) continue;
		gtVertex w = o->base_vertices[to[i]];
		if (!tangent(w, t)) continue;
		double straight = hypot(t.x - w.x, t.y - w.y);
		const double* d = o->landmarks.dist + (size_t)to[i] * (size_t)count;
		for (int l = 0; l < count; l++)
			if (d[l] + straight < r->landmark_low[l]) r->landmark_low[l] = d[l] + straight;
	}
}

// An upper bound too: the path through a last bend `old` that still sees t (distance `straight`).
static void landmark_high_bound(const gtOracle* o, gtOracleSearch* r, int old, double straight)
{
	int count = o->landmarks.count;
	const double* d = o->landmarks.dist + (size_t)old * (size_t)count;
	for (int l = 0; l < count; l++)
		if (d[l] + straight < r->landmark_high[l]) r->landmark_high[l] = d[l] + straight;
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
static int search_between(const gtOracle* o, gtOracleSearch* r, gtVec2 s, gtVec2 t, const int32_t* from, int from_count,
                          const int32_t* to, int to_count, double* distance)
{
	*distance = INFINITY;
	if (gt_visible_unchecked(o->map, s, t)) {
		*distance = hypot(t.x - s.x, t.y - s.y);
		return -1;
	}
	if (++r->generation == 0) {
		memset(r->stamp, 0, (size_t)r->slots * sizeof *r->stamp);
		r->generation = 1;
	}
	const gtVertex* v = o->vertices;
	landmark_low_bounds(o, r, t, to, to_count);
	int goals = 0; // t's last bends that still see it, in `goal`, before any vertex is touched
	for (int i = 0; i < to_count + o->fresh_count; i++) {
		int w = candidate(o, to, to_count, i);
		if (w < 0 || !tangent(v[w], t) || !gt_visible_unchecked(o->map, (gtVec2){v[w].x, v[w].y}, t)) continue;
		r->goal[goals++] = w;
		if (o->old_of[w] >= 0) landmark_high_bound(o, r, o->old_of[w], hypot(t.x - v[w].x, t.y - v[w].y));
	}
	for (int i = 0; i < goals; i++) {
		touch(o, r, r->goal[i], t);
		r->to_target[r->goal[i]] = hypot(t.x - v[r->goal[i]].x, t.y - v[r->goal[i]].y);
	}
	bool any_goal = goals > 0;
	if (!any_goal) return -2;
	r->heap.size = 0;
	for (int i = 0; i < from_count + o->fresh_count; i++) {
		int u = candidate(o, from, from_count, i);
		if (u < 0) continue;
		touch(o, r, u, t);
		gtVec2 p = {v[u].x, v[u].y};
		if (!isinf(r->dist[u]) || !tangent(v[u], s) || !gt_visible_unchecked(o->map, s, p)) continue;
		r->dist[u] = hypot(p.x - s.x, p.y - s.y);
		gt_heap_push(&r->heap, r->dist[u] + r->estimate[u], u);
	}
	double best = INFINITY;
	int last = -2;
	while (r->heap.size > 0) {
		gtHeapItem top = gt_heap_pop(&r->heap);
		int u = top.id;
		if (top.key != r->dist[u] + r->estimate[u]) continue; // stale entry
		if (top.key >= best) break;
		if (r->dist[u] + r->to_target[u] < best) {
			best = r->dist[u] + r->to_target[u];
			last = u;
		}
		double from_x = r->parent[u] < 0 ? s.x : v[r->parent[u]].x, from_y = r->parent[u] < 0 ? s.y : v[r->parent[u]].y;
		for (int64_t e = o->graph.offset[u]; e < o->graph.offset[u + 1]; e++) {
			int32_t w = o->graph.adj[e];
			if (!taut_at(v[u], from_x, from_y, v[w])) continue;
			touch(o, r, w, t);
			double through = r->dist[u] + o->graph.length[e];
			// The estimates of new corners (straight lines) and old vertices (landmarks) are not
			// consistent with each other, so a vertex may be reached again: should the heap fill
			// up, the plain search answers instead.
			if (through < r->dist[w] && r->heap.size == r->heap.capacity) return search(o, r, s, t, distance);
			if (through < r->dist[w]) {
				r->dist[w] = through;
				r->parent[w] = u;
				gt_heap_push(&r->heap, through + r->estimate[w], w);
			}
		}
	}
	*distance = best;
	return last;
}

gtStatus gt_oracle_between(const gtOracle* oracle, gtOracleSearch* searcher, gtVec2 s, gtVec2 t, const int32_t* from,
                           int from_count, const int32_t* to, int to_count, gtVec2* points, int capacity, int* count,
                           double* distance, gtError* err)
{
	double d;
	if (count) *count = 0;
	int last = search_between(oracle, searcher, s, t, from, from_count, to, to_count, &d);
	*distance = d;
	return points ? write_path(oracle, searcher, s, t, last, points, capacity, count, err) : GT_OK;
}

gtStatus gt_oracle_copy_landmarks(gtOracle* oracle, const gtLandmarks* landmarks, gtError* err)
{
	if (oracle->landmarks.dist || !landmarks->dist || landmarks->n != oracle->graph.n || gt_oracle_is_derived(oracle))
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
	return gt_oracle_search_ready(&oracle->own, oracle, err);
}
