// Visibility graph construction: each vertex swept in parallel (vis_sweep.c), the pairs it finds
// tested exactly, collinear pairs dropped.
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
#include "map/vis_sweep.h"

typedef struct EdgeList {
	int32_t* pairs; // (u, w) with u < w
	int64_t count, capacity;
	bool failed;
} EdgeList;

typedef struct BuildJob {
	const gtMap* map;
	bool taut_only;
	atomic_int next_vertex;
	const int32_t* row_start; // the vertices of each row (gt_vis_rows)
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
	const gtVertex* v = job->map->vertices;
	int n = job->map->vertex_count;
	VisSweep sweep;
	if (!gt_vis_sweep_init(&sweep, job->map, job->row_start)) {
		list->failed = true;
		return;
	}
	// Vertices are handed out one at a time; the sweep lists the later vertices u may see, each
	// then confirmed by the exact segment test.
	for (;;) {
		int u = atomic_fetch_add(&job->next_vertex, 1);
		if (u >= n) break;
		if (!gt_vis_sweep_vertex(&sweep, u)) {
			list->failed = true;
			break;
		}
		for (int64_t i = 0; i < sweep.found_count; i++) {
			int w = sweep.found[i];
			if (job->taut_only && !(tangent_at(v[u], v[w]) && tangent_at(v[w], v[u]))) continue;
			if (!gt_vertices_visible(job->map, v[u], v[w])) continue;
			if (vertex_between(job->map, v[u], v[w])) continue;
			if (!edge_push(list, u, w)) {
				list->failed = true;
				break;
			}
		}
		if (list->failed) break;
	}
	gt_vis_sweep_free(&sweep);
}

void gt_vis_graph_free(gtVisGraph* g)
{
	gt_free(g->offset);
	gt_free(g->adj);
	gt_free(g->length);
	memset(g, 0, sizeof *g);
}

// Each vertex's edges sorted and their lengths, in runs of vertices taken in turn by the workers.
typedef struct CsrJob {
	const gtVertex* v;
	gtVisGraph* out;
	int runs;
	atomic_int next;
} CsrJob;

enum { CSR_RUNS = 16 };

static void csr_worker(void* context, int index)
{
	(void)index;
	CsrJob* job = context;
	gtVisGraph* out = job->out;
	for (int run; (run = atomic_fetch_add(&job->next, 1)) < job->runs;) {
		int from = (int)((int64_t)out->n * run / job->runs), to = (int)((int64_t)out->n * (run + 1) / job->runs);
		for (int u = from; u < to; u++) {
			int64_t lo = out->offset[u], hi = out->offset[u + 1];
			gt_sort_int32(out->adj + lo, (size_t)(hi - lo));
			for (int64_t e = lo; e < hi; e++) {
				gtVertex w = job->v[out->adj[e]];
				out->length[e] = hypot((double)(w.x - job->v[u].x), (double)(w.y - job->v[u].y));
			}
		}
	}
}

// The CSR graph of the pairs in `lists`, lengths from the map's vertices; the sorts and lengths on
// `threads` workers of `tasks`.
static gtStatus to_csr(const gtMap* map, const EdgeList* lists, int list_count, const gtTaskSystem* tasks, int threads,
                       gtVisGraph* out, gtError* err)
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
	CsrJob job = {v, out, threads > 1 ? CSR_RUNS : 1, 0};
	atomic_init(&job.next, 0);
	if (threads > 1) gt_run_tasks(tasks, csr_worker, &job, threads);
	else csr_worker(&job, 0);
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
	int32_t* row_start = gt_vis_rows(map);
	job.row_start = row_start;
	job.lists = gt_calloc((size_t)threads, sizeof *job.lists);
	if (!job.lists || !row_start) {
		gt_free(job.lists);
		gt_free(row_start);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory starting %d threads", threads);
	}
	gt_run_tasks(tasks, build_worker, &job, threads);
	gt_free(row_start);
	gtStatus st = to_csr(map, job.lists, threads, tasks, threads, out, err);
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

// The directions from u to the two outermost corners of changed rectangle `r`, grown by a cell as
// near_changed grows it: a segment from u can meet the box only between them (u outside it: the
// box is seen under less than 180 degrees, so two cross products decide). `all` when u is inside.
typedef struct Cone {
	double ax, ay, bx, by;
	bool all;
} Cone;

static Cone cone_of(gtVertex u, const int* r)
{
	double x0 = r[0] - 1 - u.x, y0 = r[1] - 1 - u.y, x1 = r[2] + 2 - u.x, y1 = r[3] + 2 - u.y;
	Cone c = {0, 0, 0, 0, x0 <= 0 && x1 >= 0 && y0 <= 0 && y1 >= 0};
	const double cx[4] = {x0, x1, x0, x1}, cy[4] = {y0, y0, y1, y1};
	for (int i = 0; i < 4 && !c.all; i++) {
		bool right = true, left = true; // every other corner on its left / right
		for (int j = 0; j < 4; j++) {
			double cross = cx[i] * cy[j] - cy[i] * cx[j];
			right = right && cross >= 0, left = left && cross <= 0;
		}
		if (right) c.ax = cx[i], c.ay = cy[i];
		if (left) c.bx = cx[i], c.by = cy[i];
	}
	return c;
}

// The vertices w > u that a pair with u must be tested again for: new ones, and those a cone of u
// holds (then near_changed decides). Vertices are in row order, so w is at or below u: a segment
// from u meets a rectangle's grown box only when u is not below it and w not above it, so each
// rectangle's cone is scanned from its first vertex at or below the box's top (from[r]) on, and
// not at all from a u below the box. Simple loops without branches: the compiler vectorises them.
static int candidates(const Cone* cones, const int* rects, const int32_t* from, int rect_count, const double* xs,
                      const double* ys, const uint8_t* fresh, const int32_t* fresh_list, int fresh_count, uint8_t* hit,
                      int u, int n, int32_t* out)
{
	double ux = xs[u], uy = ys[u];
	int lo = n; // every w from lo on is scanned below; the new ones before lo are listed apart
	for (int r = 0; r < rect_count; r++)
		if (uy <= rects[4 * r + 3] + 2 && (from[r] > u + 1 ? from[r] : u + 1) < lo)
			lo = from[r] > u + 1 ? from[r] : u + 1;
	memcpy(hit + lo, fresh + lo, (size_t)(n - lo));
	for (int r = 0; r < rect_count; r++) {
		if (uy > rects[4 * r + 3] + 2) continue; // u below the box
		double ax = cones[r].ax, ay = cones[r].ay, bx = cones[r].bx, by = cones[r].by;
		uint8_t all = cones[r].all;
		for (int w = from[r] > u + 1 ? from[r] : u + 1; w < n; w++) {
			double dx = xs[w] - ux, dy = ys[w] - uy;
			hit[w] |= all | ((ax * dy - ay * dx >= 0) & (dx * by - dy * bx >= 0));
		}
	}
	int count = 0;
	for (int i = 0; i < fresh_count; i++)
		if (fresh_list[i] > u && fresh_list[i] < lo) out[count++] = fresh_list[i];
	for (int w = lo; w < n; w++) {
		out[count] = w;
		count += hit[w];
	}
	return count;
}

// One repair worker's scratch and edges; vertices u are handed out one at a time.
typedef struct RepairWorker {
	int32_t *near, *cand, *mark; // mark: u + 1 for an old neighbour of u, -(u + 1) for a candidate
	uint8_t* hit;
	Cone* cones;
	EdgeList list;
} RepairWorker;

typedef struct RepairJob {
	const gtMap* map;
	const gtVisGraph* g; // the old graph
	const gtVertex* v;
	int n;
	const int32_t *old_of, *new_of;
	const double* xy;     // x of every vertex, then y
	const uint8_t* fresh; // per vertex: new
	const int32_t* fresh_list;
	int fresh_count;
	const int* rects;
	const int32_t* from; // per rectangle: the first vertex at or below its grown box's top
	int rect_count;
	atomic_int next_vertex;
	RepairWorker* workers;
} RepairJob;

// The edges from u to every w > u: the old ones where the edit cannot have changed them, the
// others tested again.
static bool repair_vertex(const RepairJob* job, RepairWorker* rw, int u)
{
	const gtVisGraph* g = job->g;
	const gtVertex* v = job->v;
	int n = job->n, ou = job->old_of[u], near_count = 0, count = 0;
	for (int r = 0; r < job->rect_count; r++) rw->cones[r] = cone_of(v[u], job->rects + 4 * r);
	if (ou >= 0) {
		for (int64_t e = g->offset[ou]; e < g->offset[ou + 1]; e++)
			if (job->new_of[g->adj[e]] > u) rw->mark[rw->near[near_count++] = job->new_of[g->adj[e]]] = u + 1;
		count = candidates(rw->cones, job->rects, job->from, job->rect_count, job->xy, job->xy + n, job->fresh,
		                   job->fresh_list, job->fresh_count, rw->hit, u, n, rw->cand);
	} else {
		for (int w = u + 1; w < n; w++) rw->cand[count++] = w;
	}
	for (int i = 0; i < count; i++) { // pairs the edit may have changed: tested again where near
		int w = rw->cand[i];
		bool was = rw->mark[w] == u + 1;
		rw->mark[w] = -(u + 1);
		bool changed = ou < 0 || job->old_of[w] < 0 || near_changed(v[u], v[w], job->rects, job->rect_count);
		bool is = changed ? !vertex_between(job->map, v[u], v[w]) && gt_vertices_visible(job->map, v[u], v[w]) : was;
		if (is && !edge_push(&rw->list, u, w)) return false;
	}
	for (int i = 0; i < near_count; i++) // the other old edges stay
		if (rw->mark[rw->near[i]] == u + 1 && !edge_push(&rw->list, u, rw->near[i])) return false;
	return true;
}

static void repair_worker(void* context, int index)
{
	RepairJob* job = context;
	RepairWorker* rw = &job->workers[index];
	for (;;) {
		int u = atomic_fetch_add(&job->next_vertex, 1);
		if (u >= job->n || rw->list.failed) break;
		if (!repair_vertex(job, rw, u)) rw->list.failed = true;
	}
}

gtStatus gt_vis_graph_repair(const gtMap* map, const gtVertex* old_vertices, int old_n, const int* rects,
                             int rect_count, gtVisGraph* g, gtError* err)
{
	return gt_vis_graph_repair_parallel(map, NULL, 1, old_vertices, old_n, rects, rect_count, g, err);
}

// Every edited cell is blocked now: the edits only added walls (cells outside the rectangles did
// not change).
static bool walls_only(const gtMap* map, const int* rects, int rect_count)
{
	for (int r = 0; r < rect_count; r++) {
		const int* q = rects + 4 * r;
		for (int y = q[1] < 0 ? 0 : q[1]; y <= q[3] && y < map->height; y++)
			for (int x = q[0] < 0 ? 0 : q[0]; x <= q[2] && x < map->width; x++)
				if (!gt_blocked(map, x, y)) return false;
	}
	return true;
}

// Whether every rectangle is walled in: the ring of cells around it (on the map) blocked now and
// in no rectangle (so blocked before too). Nothing outside can see in or through it then.
static bool sealed(const gtMap* map, const int* rects, int rect_count)
{
	for (int r = 0; r < rect_count; r++) {
		const int* q = rects + 4 * r;
		for (int y = q[1] - 1; y <= q[3] + 1; y++)
			for (int x = q[0] - 1; x <= q[2] + 1; x++) {
				bool ring = x < q[0] || x > q[2] || y < q[1] || y > q[3];
				if (!ring || x < 0 || y < 0 || x >= map->width || y >= map->height) continue;
				if (!gt_blocked(map, x, y)) return false;
				for (int o = 0; o < rect_count; o++) {
					const int* p = rects + 4 * o;
					if (x >= p[0] && x <= p[2] && y >= p[1] && y <= p[3]) return false;
				}
			}
	}
	return true;
}

bool gt_vis_graph_unchanged(const gtMap* map, const gtVertex* old_vertices, int old_n, const int* rects, int rect_count)
{
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	if (n != old_n || !sealed(map, rects, rect_count)) return false;
	for (int i = 0; i < n; i++) {
		if (!same_vertex(v[i], old_vertices[i])) return false;
		for (int r = 0; r < rect_count; r++) { // none in a walled-in rectangle or its ring (closed)
			const int* q = rects + 4 * r;
			if (v[i].x >= q[0] - 1 && v[i].x <= q[2] + 2 && v[i].y >= q[1] - 1 && v[i].y <= q[3] + 2) return false;
		}
	}
	return true;
}

gtStatus gt_vis_graph_repair_parallel(const gtMap* map, const gtTaskSystem* tasks, int threads,
                                      const gtVertex* old_vertices, int old_n, const int* rects, int rect_count,
                                      gtVisGraph* g, gtError* err)
{
	if (gt_vis_graph_unchanged(map, old_vertices, old_n, rects, rect_count)) return GT_OK;
	if (walls_only(map, rects, rect_count)) { // visibility only shrinks: the old edges near them are
		gtVisGraph after;                     // tested, not every pair in their cones
		gtStatus st = gt_vis_graph_after_blocks(map, tasks, threads, old_vertices, old_n, g, rects, rect_count, &after,
		                                        err);
		if (!st) {
			gt_vis_graph_free(g);
			*g = after;
		}
		return st;
	}
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	threads = gt_resolve_threads(threads);
	if (threads > n) threads = n > 0 ? n : 1;
	size_t slots = (size_t)n + 1;
	int32_t* old_of = gt_malloc(slots * sizeof *old_of);
	int32_t* new_of = gt_malloc(((size_t)old_n + 1) * sizeof *new_of);
	double* xy = gt_malloc(2 * slots * sizeof *xy);
	uint8_t* fresh = gt_malloc(slots);
	int32_t* fresh_list = gt_malloc(slots * sizeof *fresh_list);
	int32_t* from = gt_malloc(((size_t)rect_count + 1) * sizeof *from);
	RepairWorker* workers = gt_calloc((size_t)threads, sizeof *workers);
	gtVisGraph out;
	memset(&out, 0, sizeof out);
	gtStatus st = old_of && new_of && xy && fresh && fresh_list && from && workers ? GT_OK : GT_ERR_NOMEM;
	for (int i = 0; !st && i < threads; i++) {
		RepairWorker* rw = &workers[i];
		rw->near = gt_malloc(slots * sizeof *rw->near);
		rw->cand = gt_malloc(slots * sizeof *rw->cand);
		rw->mark = gt_calloc(slots, sizeof *rw->mark);
		rw->hit = gt_malloc(slots);
		rw->cones = gt_malloc(((size_t)rect_count + 1) * sizeof *rw->cones);
		if (!rw->near || !rw->cand || !rw->mark || !rw->hit || !rw->cones) st = GT_ERR_NOMEM;
	}
	if (!st) {
		gt_vis_match_vertices(old_vertices, old_n, v, n, old_of, new_of);
		int fresh_count = 0;
		for (int u = 0; u < n; u++) {
			xy[u] = v[u].x, xy[n + u] = v[u].y, fresh[u] = old_of[u] < 0;
			if (fresh[u]) fresh_list[fresh_count++] = u;
		}
		for (int r = 0; r < rect_count; r++) { // vertices are sorted by row: the first at or below the top
			int lo = 0, hi = n;
			while (lo < hi) {
				int mid = lo + (hi - lo) / 2;
				if (v[mid].y < rects[4 * r + 1] - 1) lo = mid + 1;
				else hi = mid;
			}
			from[r] = lo;
		}
		RepairJob job = {map,        g,           v,     n,    old_of,     new_of, xy,     fresh,
		                 fresh_list, fresh_count, rects, from, rect_count, 0,      workers};
		atomic_init(&job.next_vertex, 0);
		gt_run_tasks(tasks, repair_worker, &job, threads);
		EdgeList* lists = gt_malloc((size_t)threads * sizeof *lists);
		for (int i = 0; lists && i < threads; i++) lists[i] = workers[i].list;
		st = lists ? to_csr(map, lists, threads, tasks, threads, &out, err) : GT_ERR_NOMEM;
		gt_free(lists);
	}
	if (st == GT_ERR_NOMEM) gt_fail(err, GT_ERR_NOMEM, "out of memory repairing the visibility graph");
	if (!st) {
		gt_vis_graph_free(g);
		*g = out;
	}
	for (int i = 0; workers && i < threads; i++) {
		RepairWorker* rw = &workers[i];
		gt_free(rw->near);
		gt_free(rw->cand);
		gt_free(rw->mark);
		gt_free(rw->hit);
		gt_free(rw->cones);
		gt_free(rw->list.pairs);
	}
	gt_free(workers);
	gt_free(old_of);
	gt_free(new_of);
	gt_free(xy);
	gt_free(fresh);
	gt_free(fresh_list);
	gt_free(from);
	if (st) gt_vis_graph_free(&out);
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

// The first two parts of gt_vis_graph_after_blocks in runs taken in turn by the workers: a run's
// share of the old vertices, whose edges that now meet a wall are marked in `drop` (each byte has
// one writer: the run of the pair's lower end), and its share of the new corners (every runs-th),
// each swept, their pairs into the worker's own list.
typedef struct AfterJob {
	const gtMap* map;
	const gtVertex* v;
	int n, old_n, runs;
	const gtVisGraph* old;
	const int32_t *old_of, *new_of;
	const int* rects;
	int rect_count;
	EdgeList* lists;      // per worker: the new corners' pairs
	uint8_t* drop;        // per old edge (both directions): its segment now meets a wall
	const int32_t* fresh; // the new corners
	int fresh_count;
	const int32_t* row_start; // for the sweeps from them (gt_vis_rows)
	atomic_int next;
} AfterJob;

static bool push_pair(EdgeList* list, int a, int b)
{
	if (!list->failed && !edge_push(list, a < b ? a : b, a < b ? b : a)) list->failed = true;
	return !list->failed;
}

// New corner f's pairs: the vertices its sweep over the whole plane reaches (every vertex it sees;
// was a segment test against every vertex of the map, 4,082 on generated rooms 384 per corner),
// each tested exactly; pairs of two new corners once.
static bool fresh_pairs(const AfterJob* j, VisSweep* sweep, EdgeList* list, int f)
{
	const gtVertex* v = j->v;
	if (!gt_vis_sweep_vertex_all(sweep, f)) return false;
	for (int64_t i = 0; i < sweep->found_count; i++) {
		int w = sweep->found[i];
		if ((j->old_of[w] >= 0 || w > f) && !vertex_between(j->map, v[f], v[w]) &&
		    gt_vertices_visible(j->map, v[f], v[w]) && !push_pair(list, f, w))
			return false;
	}
	return true;
}

static void after_worker(void* context, int index)
{
	AfterJob* j = context;
	EdgeList* list = &j->lists[index];
	const gtVertex* v = j->v;
	VisSweep sweep;
	bool swept = false; // the sweep's scratch is made for the first new corner
	for (int run; (run = atomic_fetch_add(&j->next, 1)) < j->runs && !list->failed;) {
		// Walls only added: a pair that was not an edge stays one only when the vertex between them
		// is gone (below); an old edge stays unless its segment comes near an added wall and fails
		// (marked in both directions: the other end's list is sorted, so found by halving).
		int from = (int)((int64_t)j->old_n * run / j->runs), to = (int)((int64_t)j->old_n * (run + 1) / j->runs);
		for (int ou = from; ou < to; ou++) {
			int u = j->new_of[ou];
			for (int64_t e = j->old->offset[ou]; u >= 0 && e < j->old->offset[ou + 1]; e++) {
				int ow = j->old->adj[e], w = j->new_of[ow];
				if (w <= u) continue; // each pair once; gone vertices drop their edges
				if (!near_changed(v[u], v[w], j->rects, j->rect_count) ||
				    (!vertex_between(j->map, v[u], v[w]) && gt_vertices_visible(j->map, v[u], v[w])))
					continue;
				int64_t lo = j->old->offset[ow], hi = j->old->offset[ow + 1] - 1;
				while (lo < hi) {
					int64_t mid = lo + (hi - lo) / 2;
					if (j->old->adj[mid] < ou) lo = mid + 1;
					else hi = mid;
				}
				j->drop[e] = j->drop[lo] = 1;
			}
		}
		// New corners: this run's share, each swept.
		for (int i = run; i < j->fresh_count && !list->failed; i += j->runs) {
			if (!swept && !(swept = gt_vis_sweep_init(&sweep, j->map, j->row_start))) list->failed = true;
			if (swept && !fresh_pairs(j, &sweep, list, j->fresh[i])) list->failed = true;
		}
	}
	if (swept) gt_vis_sweep_free(&sweep);
}

enum { AFTER_RUNS = 16 };

// The updated graph: per vertex its old edges that stay (renumbered: the matching keeps the order,
// so the list stays sorted) merged with its new pairs (sorted here, both directions). An old edge's
// length is copied (the same hypot of the same points); only new ones are computed. Against
// to_csr over every pair: no sort or hypot per edge (3.3 of AR0602SR's 5-7 ms update, 7.2 M of 12 M
// instructions a wall).
static gtStatus merge_csr(const gtMap* map, const gtVisGraph* old, const int32_t* old_of, const int32_t* new_of,
                          const uint8_t* drop, const EdgeList* lists, int list_count, gtVisGraph* out, gtError* err)
{
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	int64_t added = 0;
	for (int i = 0; i < list_count; i++) {
		if (lists[i].failed) return gt_fail(err, GT_ERR_NOMEM, "out of memory collecting visibility edges");
		added += lists[i].count;
	}
	int64_t* pair = gt_malloc((2 * (size_t)added + 1) * sizeof *pair); // (a << 32) | b, both directions
	out->n = n;
	out->offset = gt_calloc((size_t)n + 1, sizeof *out->offset);
	if (!pair || !out->offset) {
		gt_free(pair);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory updating the visibility graph");
	}
	int64_t count = 0;
	for (int i = 0; i < list_count; i++)
		for (int64_t e = 0; e < lists[i].count; e++) {
			int64_t a = lists[i].pairs[2 * e], b = lists[i].pairs[2 * e + 1];
			pair[count++] = a << 32 | b, pair[count++] = b << 32 | a;
			out->offset[a + 1]++, out->offset[b + 1]++;
		}
	qsort(pair, (size_t)count, sizeof *pair, gt_compare_int64);
	for (int u = 0; u < n; u++) {
		int ou = old_of[u];
		for (int64_t e = ou >= 0 ? old->offset[ou] : 0; ou >= 0 && e < old->offset[ou + 1]; e++)
			out->offset[u + 1] += !drop[e] && new_of[old->adj[e]] >= 0;
		out->offset[u + 1] += out->offset[u];
	}
	int64_t total = out->offset[n];
	out->adj = gt_malloc(((size_t)total + 1) * sizeof *out->adj);
	out->length = gt_malloc(((size_t)total + 1) * sizeof *out->length);
	if (!out->adj || !out->length) {
		gt_free(pair);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %lld visibility edges", (long long)total);
	}
	int64_t p = 0;
	for (int u = 0; u < n; u++) {
		int ou = old_of[u];
		int64_t e = ou >= 0 ? old->offset[ou] : 0, end = ou >= 0 ? old->offset[ou + 1] : 0, at = out->offset[u];
		for (;;) {
			while (e < end && (drop[e] || new_of[old->adj[e]] < 0)) e++;
			bool fresh = p < count && pair[p] >> 32 == u;
			if (e == end && !fresh) break;
			int w = fresh ? (int)(pair[p] & 0xffffffff) : INT32_MAX;
			if (e < end && new_of[old->adj[e]] < w) {
				out->adj[at] = new_of[old->adj[e]], out->length[at++] = old->length[e++];
				continue;
			}
			out->adj[at] = w, out->length[at++] = hypot((double)(v[w].x - v[u].x), (double)(v[w].y - v[u].y));
			p++;
		}
	}
	gt_free(pair);
	return GT_OK;
}

gtStatus gt_vis_graph_after_blocks(const gtMap* map, const gtTaskSystem* tasks, int threads,
                                   const gtVertex* old_vertices, int old_n, const gtVisGraph* old, const int* rects,
                                   int rect_count, gtVisGraph* out, gtError* err)
{
	memset(out, 0, sizeof *out);
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	threads = gt_resolve_threads(threads);
	int32_t* old_of = gt_malloc(((size_t)n + 1) * sizeof *old_of);
	int32_t* new_of = gt_malloc(((size_t)old_n + 1) * sizeof *new_of);
	EdgeList* lists = gt_calloc((size_t)threads + 1, sizeof *lists); // the last: the gone corners' pairs
	uint8_t* drop = gt_calloc((size_t)old->offset[old_n] + 1, 1);
	int32_t* fresh = gt_malloc(((size_t)n + 1) * sizeof *fresh);
	int32_t* row_start = gt_vis_rows(map);
	gtStatus st = GT_OK;
	if (!old_of || !new_of || !lists || !drop || !fresh || !row_start) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory updating the visibility graph");
		goto done;
	}
	gt_vis_match_vertices(old_vertices, old_n, v, n, old_of, new_of);
	int fresh_count = 0;
	for (int u = 0; u < n; u++)
		if (old_of[u] < 0) fresh[fresh_count++] = u;
	AfterJob job = {map,   v,      n,      old_n,       threads > 1 ? AFTER_RUNS : 1,
	                old,   old_of, new_of, rects,       rect_count,
	                lists, drop,   fresh,  fresh_count, row_start,
	                0};
	atomic_init(&job.next, 0);
	if (threads > 1) gt_run_tasks(tasks, after_worker, &job, threads);
	else after_worker(&job, 0);
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
			if (b > a && !vertex_between(map, v[a], v[b]) && gt_vertices_visible(map, v[a], v[b]))
				push_pair(&lists[threads], a, b);
		}
	}
	st = merge_csr(map, old, old_of, new_of, drop, lists, threads + 1, out, err);
done:
	gt_free(drop);
	gt_free(fresh);
	gt_free(row_start);
	gt_free(old_of);
	gt_free(new_of);
	for (int i = 0; lists && i <= threads; i++) gt_free(lists[i].pairs);
	gt_free(lists);
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
