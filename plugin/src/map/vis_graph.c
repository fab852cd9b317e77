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

gtStatus gt_vis_graph_build(const gtMap* map, const gtTaskSystem* tasks, int threads, bool taut_only, gtVisGraph* out,
                            gtError* err)
{
	memset(out, 0, sizeof *out);
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	threads = gt_resolve_threads(threads);
	if (threads > n) threads = n > 0 ? n : 1;

	BuildJob job;
	job.map = map;
	job.taut_only = taut_only;
	atomic_init(&job.next_vertex, 0);
	job.lists = gt_calloc((size_t)threads, sizeof *job.lists);
	gtStatus st = GT_OK;
	if (!job.lists) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory starting %d threads", threads);
		goto done;
	}
	gt_run_tasks(tasks, build_worker, &job, threads);

	size_t total = 0;
	for (int i = 0; i < threads; i++) {
		if (job.lists[i].failed) {
			st = gt_fail(err, GT_ERR_NOMEM, "out of memory collecting visibility edges");
			goto done;
		}
		total += job.lists[i].count;
	}
	out->n = n;
	out->offset = gt_calloc((size_t)n + 1, sizeof *out->offset);
	out->adj = gt_malloc((2 * total + 1) * sizeof *out->adj);
	out->length = gt_malloc((2 * total + 1) * sizeof *out->length);
	if (!out->offset || !out->adj || !out->length) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory for %zu visibility edges", total);
		goto done;
	}
	for (int i = 0; i < threads; i++)
		for (int64_t e = 0; e < job.lists[i].count; e++) {
			out->offset[job.lists[i].pairs[2 * e] + 1]++;
			out->offset[job.lists[i].pairs[2 * e + 1] + 1]++;
		}
	for (int u = 0; u < n; u++) out->offset[u + 1] += out->offset[u];
	int64_t* fill = gt_malloc(((size_t)n + 1) * sizeof *fill);
	if (!fill) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory for the visibility graph");
		goto done;
	}
	memcpy(fill, out->offset, ((size_t)n + 1) * sizeof *fill);
	for (int i = 0; i < threads; i++)
		for (int64_t e = 0; e < job.lists[i].count; e++) {
			int32_t a = job.lists[i].pairs[2 * e], b = job.lists[i].pairs[2 * e + 1];
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

done:
	if (job.lists)
		for (int i = 0; i < threads; i++) gt_free(job.lists[i].pairs);
	gt_free(job.lists);
	if (st) gt_vis_graph_free(out);
	return st;
}
