// Visibility graph construction: all pairs tested in parallel, collinear pairs dropped.
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/platform.h"
#include "core/task.h"
#include "map/geometry.h"
#include "map/map_internal.h"
#include "core/status.h"
#include "map/vis_graph.h"

typedef struct EdgeList {
	int32_t* pairs; // (u, w) with u < w
	int64_t count, capacity;
	bool failed;
} EdgeList;

typedef struct BuildJob {
	const gtMap* map;
	bool taut_only;
	atomic_int next_vertex;
	EdgeList* lists;
} BuildJob;

static bool edge_push(EdgeList* list, int32_t u, int32_t w)
{
	if (!gt_grow((void**)&list->pairs, &list->capacity, list->count + 1, 2 * sizeof *list->pairs, 4096)) return false;
	list->pairs[2 * list->count] = u;
	list->pairs[2 * list->count + 1] = w;
	list->count++;
	return true;
}

// Segment a-b is tangent at a: the line does not enter a's blocked cell (docs/algorithms.md 2.6).
static bool tangent_at(gtVertex a, gtVertex b)
{
	return (int64_t)a.bx * a.by * (int64_t)(b.x - a.x) * (b.y - a.y) <= 0;
}

static int gcd(int a, int b)
{
	while (b) {
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

// True when a convex vertex lies strictly inside the segment between two grid points.
static bool vertex_between(const gtMap* m, gtVertex u, gtVertex w)
{
	int dx = w.x - u.x, dy = w.y - u.y;
	int g = gcd(abs(dx), abs(dy));
	for (int k = 1; k < g; k++) {
		int mask = gt_corner_mask(m, u.x + k * dx / g, u.y + k * dy / g);
		if (mask != 0 && (mask & (mask - 1)) == 0) return true;
	}
	return false;
}

static void build_worker(void* context, int index)
{
	BuildJob* job = context;
	EdgeList* list = &job->lists[index];
	int n;
	const gtVertex* v = gtMap_Vertices(job->map, &n);
	// Vertices are handed out one at a time: early vertices have more partners (u < w).
	for (;;) {
		int u = atomic_fetch_add(&job->next_vertex, 1);
		if (u >= n) break;
		for (int w = u + 1; w < n; w++) {
			if (job->taut_only && !(tangent_at(v[u], v[w]) && tangent_at(v[w], v[u]))) continue;
			if (vertex_between(job->map, v[u], v[w])) continue;
			if (!gt_vertices_visible(job->map, v[u], v[w])) continue;
			if (!edge_push(list, u, w)) {
				list->failed = true;
				return;
			}
		}
	}
}

void gt_vis_graph_free(gtVisGraph* g)
{
	gt_free(g->offset);
	gt_free(g->adj);
	gt_free(g->length);
	memset(g, 0, sizeof *g);
}

// The CSR graph of the pairs in `lists`, lengths from the map's vertices.
static gtStatus to_csr(const gtMap* map, const EdgeList* lists, int list_count, gtVisGraph* out, gtError* err)
{
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	size_t total = 0;
	for (int i = 0; i < list_count; i++) {
		if (lists[i].failed) return gt_fail(err, GT_ERR_NOMEM, "out of memory collecting visibility edges");
		total += (size_t)lists[i].count;
	}
	out->n = n;
	out->offset = gt_calloc((size_t)n + 1, sizeof *out->offset);
	out->adj = gt_malloc((2 * total + 1) * sizeof *out->adj);
	out->length = gt_malloc((2 * total + 1) * sizeof *out->length);
	int64_t* fill = gt_malloc(((size_t)n + 1) * sizeof *fill);
	if (!out->offset || !out->adj || !out->length || !fill) {
		gt_free(fill);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %zu visibility edges", total);
	}
	for (int i = 0; i < list_count; i++)
		for (int64_t e = 0; e < lists[i].count; e++) {
			out->offset[lists[i].pairs[2 * e] + 1]++;
			out->offset[lists[i].pairs[2 * e + 1] + 1]++;
		}
	for (int u = 0; u < n; u++) out->offset[u + 1] += out->offset[u];
	memcpy(fill, out->offset, ((size_t)n + 1) * sizeof *fill);
	for (int i = 0; i < list_count; i++)
		for (int64_t e = 0; e < lists[i].count; e++) {
			int32_t a = lists[i].pairs[2 * e], b = lists[i].pairs[2 * e + 1];
			out->adj[fill[a]++] = b;
			out->adj[fill[b]++] = a;
		}
	gt_free(fill);
	for (int u = 0; u < n; u++) {
		int64_t lo = out->offset[u], hi = out->offset[u + 1];
		qsort(out->adj + lo, (size_t)(hi - lo), sizeof *out->adj, gt_compare_int32);
		for (int64_t e = lo; e < hi; e++) {
			gtVertex w = v[out->adj[e]];
			out->length[e] = hypot((double)(w.x - v[u].x), (double)(w.y - v[u].y));
		}
	}
	return GT_OK;
}

gtStatus gt_vis_graph_build(const gtMap* map, const gtTaskSystem* tasks, int threads, bool taut_only, gtVisGraph* out,
                            gtError* err)
{
	memset(out, 0, sizeof *out);
	int n;
	gtMap_Vertices(map, &n);
	threads = gt_resolve_threads(threads);
	if (threads > n) threads = n > 0 ? n : 1;
	BuildJob job;
	job.map = map;
	job.taut_only = taut_only;
	atomic_init(&job.next_vertex, 0);
	job.lists = gt_calloc((size_t)threads, sizeof *job.lists);
	if (!job.lists) return gt_fail(err, GT_ERR_NOMEM, "out of memory starting %d threads", threads);
	gt_run_tasks(tasks, build_worker, &job, threads);
	gtStatus st = to_csr(map, job.lists, threads, out, err);
	for (int i = 0; i < threads; i++) gt_free(job.lists[i].pairs);
	gt_free(job.lists);
	if (st) gt_vis_graph_free(out);
	return st;
}

// Whether segment a-b comes within the closed box of grid coordinates [x0, x1] x [y0, y1].
static bool segment_meets_box(gtVertex a, gtVertex b, double x0, double y0, double x1, double y1)
{
	double t0 = 0, t1 = 1, from[2] = {a.x, a.y}, step[2] = {b.x - a.x, b.y - a.y}, lo[2] = {x0, y0}, hi[2] = {x1, y1};
	for (int k = 0; k < 2; k++) {
		if (step[k] == 0) {
			if (from[k] < lo[k] || from[k] > hi[k]) return false;
			continue;
		}
		double u = (lo[k] - from[k]) / step[k], w = (hi[k] - from[k]) / step[k];
		if (u > w) {
			double swap = u;
			u = w, w = swap;
		}
		if (u > t0) t0 = u;
		if (w < t1) t1 = w;
		if (t0 > t1) return false;
	}
	return true;
}

static bool same_vertex(gtVertex a, gtVertex b)
{
	return a.x == b.x && a.y == b.y && a.bx == b.bx && a.by == b.by;
}

// Pairs the vertices that stayed through an edit: old_of[new index] and new_of[old index], -1 for
// a vertex on one side only. Both lists are row-major, so one merge does it.
void gt_vis_match_vertices(const gtVertex* old_vertices, int old_n, const gtVertex* v, int n, int32_t* old_of,
                           int32_t* new_of)
{
	for (int i = 0; i < old_n; i++) new_of[i] = -1;
	for (int j = 0, i = 0; j < n; j++) {
		old_of[j] = -1;
		while (i < old_n && (old_vertices[i].y < v[j].y || (old_vertices[i].y == v[j].y && old_vertices[i].x < v[j].x)))
			i++;
		if (i < old_n && same_vertex(old_vertices[i], v[j])) old_of[j] = i, new_of[i] = j, i++;
	}
}

// Whether segment a-b comes within a cell of the changed cells `rects` (x0, y0, x1, y1 each): only
// such a pair can see or be crossed differently.
static bool near_changed(gtVertex a, gtVertex b, const int* rects, int rect_count)
{
	for (int r = 0; r < rect_count; r++)
		if (segment_meets_box(a, b, rects[4 * r] - 1, rects[4 * r + 1] - 1, rects[4 * r + 2] + 2, rects[4 * r + 3] + 2))
			return true;
	return false;
}

gtStatus gt_vis_graph_repair(const gtMap* map, const gtVertex* old_vertices, int old_n, const int* rects,
                             int rect_count, gtVisGraph* g, gtError* err)
{
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	int32_t* old_of = gt_malloc(((size_t)n + 1) * sizeof *old_of);
	int32_t* new_of = gt_malloc(((size_t)old_n + 1) * sizeof *new_of);
	int32_t* near = gt_malloc(((size_t)n + 1) * sizeof *near); // old neighbours of u, as new indices
	EdgeList list = {NULL, 0, 0, false};
	gtVisGraph fresh;
	memset(&fresh, 0, sizeof fresh);
	gtStatus st = GT_OK;
	if (!old_of || !new_of || !near) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory repairing the visibility graph");
		goto done;
	}
	gt_vis_match_vertices(old_vertices, old_n, v, n, old_of, new_of);
	for (int u = 0; u < n; u++) {
		int ou = old_of[u], near_count = 0;
		if (ou >= 0)
			for (int64_t e = g->offset[ou]; e < g->offset[ou + 1]; e++)
				if (new_of[g->adj[e]] > u) near[near_count++] = new_of[g->adj[e]]; // ascending: the map is monotone
		for (int w = u + 1, k = 0; w < n; w++) {
			while (k < near_count && near[k] < w) k++;
			bool was = k < near_count && near[k] == w;
			bool changed = ou < 0 || old_of[w] < 0 || near_changed(v[u], v[w], rects, rect_count);
			bool is = changed ? !vertex_between(map, v[u], v[w]) && gt_vertices_visible(map, v[u], v[w]) : was;
			if (is && !edge_push(&list, u, w)) {
				st = gt_fail(err, GT_ERR_NOMEM, "out of memory repairing the visibility graph");
				goto done;
			}
		}
	}
	st = to_csr(map, &list, 1, &fresh, err);
	if (!st) {
		gt_vis_graph_free(g);
		*g = fresh;
	}
done:
	gt_free(old_of);
	gt_free(new_of);
	gt_free(near);
	gt_free(list.pairs);
	if (st) gt_vis_graph_free(&fresh);
	return st;
}

// Whether grid point x lies strictly inside segment a-b.
static bool strictly_between(gtVertex a, gtVertex b, gtVertex x)
{
	int64_t cross = (int64_t)(b.x - a.x) * (x.y - a.y) - (int64_t)(b.y - a.y) * (x.x - a.x);
	if (cross != 0) return false;
	int64_t dot = (int64_t)(x.x - a.x) * (b.x - a.x) + (int64_t)(x.y - a.y) * (b.y - a.y);
	int64_t len = (int64_t)(b.x - a.x) * (b.x - a.x) + (int64_t)(b.y - a.y) * (b.y - a.y);
	return dot > 0 && dot < len;
}

gtStatus gt_vis_graph_after_blocks(const gtMap* map, const gtVertex* old_vertices, int old_n, const gtVisGraph* old,
                                   const int* rects, int rect_count, gtVisGraph* out, gtError* err)
{
	memset(out, 0, sizeof *out);
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	int32_t* old_of = gt_malloc(((size_t)n + 1) * sizeof *old_of);
	int32_t* new_of = gt_malloc(((size_t)old_n + 1) * sizeof *new_of);
	EdgeList list = {NULL, 0, 0, false};
	gtStatus st = GT_OK;
	if (!old_of || !new_of) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory updating the visibility graph");
		goto done;
	}
	gt_vis_match_vertices(old_vertices, old_n, v, n, old_of, new_of);
#define PUSH(a, b)                                                                                                     \
	do {                                                                                                               \
		if (!edge_push(&list, (a) < (b) ? (a) : (b), (a) < (b) ? (b) : (a))) {                                         \
			st = gt_fail(err, GT_ERR_NOMEM, "out of memory updating the visibility graph");                            \
			goto done;                                                                                                 \
		}                                                                                                              \
	} while (0)
	// Walls only added: a pair that was not an edge stays one only when the vertex between them is
	// gone (below); an old edge stays unless its segment comes near an added wall and fails again.
	for (int ou = 0; ou < old_n; ou++) {
		int u = new_of[ou];
		if (u < 0) continue;
		for (int64_t e = old->offset[ou]; e < old->offset[ou + 1]; e++) {
			int w = new_of[old->adj[e]];
			if (w <= u) continue; // each pair once; gone vertices drop their edges
			if (!near_changed(v[u], v[w], rects, rect_count) ||
			    (!vertex_between(map, v[u], v[w]) && gt_vertices_visible(map, v[u], v[w])))
				PUSH(u, w);
		}
	}
	// New corners: against every vertex.
	for (int f = 0; f < n; f++) {
		if (old_of[f] >= 0) continue;
		for (int w = 0; w < n; w++)
			if (w != f && (old_of[w] >= 0 || w > f) && !vertex_between(map, v[f], v[w]) &&
			    gt_vertices_visible(map, v[f], v[w]))
				PUSH(f, w);
	}
	// Gone corners: two old vertices on one line through a gone corner (and through any gone
	// corners next to it on that line) may now see each other with nothing between.
	for (int ox = 0; ox < old_n; ox++) {
		if (new_of[ox] >= 0) continue;
		for (int64_t e = old->offset[ox]; e < old->offset[ox + 1]; e++) {
			int oa = old->adj[e], a = new_of[oa];
			if (a < 0) continue;
			// Walk away from a through gone corners to the first vertex that stayed.
			int previous = oa, at = ox, b = -1;
			for (int steps = 0; steps < old_n && b < 0; steps++) {
				int next = -1;
				for (int64_t f = old->offset[at]; f < old->offset[at + 1] && next < 0; f++) {
					int oc = old->adj[f];
					if (oc != previous && strictly_between(old_vertices[previous], old_vertices[oc], old_vertices[at]))
						next = oc;
				}
				if (next < 0) break;
				if (new_of[next] >= 0) b = new_of[next];
				previous = at, at = next;
			}
			if (b > a && !vertex_between(map, v[a], v[b]) && gt_vertices_visible(map, v[a], v[b])) PUSH(a, b);
		}
	}
#undef PUSH
	st = to_csr(map, &list, 1, out, err);
done:
	gt_free(old_of);
	gt_free(new_of);
	gt_free(list.pairs);
	if (st) gt_vis_graph_free(out);
	return st;
}

bool gt_vis_graph_copy(const gtVisGraph* graph, gtVisGraph* out)
{
	memset(out, 0, sizeof *out);
	int64_t edges = graph->offset[graph->n];
	out->n = graph->n;
	out->offset = gt_malloc(((size_t)graph->n + 1) * sizeof *out->offset);
	out->adj = gt_malloc(((size_t)edges + 1) * sizeof *out->adj);
	out->length = gt_malloc(((size_t)edges + 1) * sizeof *out->length);
	if (!out->offset || !out->adj || !out->length) {
		gt_vis_graph_free(out); // zeroes it
		return false;
	}
	memcpy(out->offset, graph->offset, ((size_t)graph->n + 1) * sizeof *out->offset);
	memcpy(out->adj, graph->adj, (size_t)edges * sizeof *out->adj);
	memcpy(out->length, graph->length, (size_t)edges * sizeof *out->length);
	return true;
}
