// Landmark selection and distances (see landmarks.h).
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/heap.h"
#include "oracle/landmarks.h"

static void dijkstra(const gtVisGraph* g, int source, double* dist, gtHeap* heap)
{
	for (int v = 0; v < g->n; v++) dist[v] = INFINITY;
	dist[source] = 0;
	heap->size = 0;
	gt_heap_push(heap, 0, source);
	while (heap->size > 0) {
		gtHeapItem top = gt_heap_pop(heap);
		if (top.key != dist[top.id]) continue; // stale
		for (int64_t e = g->offset[top.id]; e < g->offset[top.id + 1]; e++) {
			double through = top.key + g->length[e];
			if (through < dist[g->adj[e]]) {
				dist[g->adj[e]] = through;
				gt_heap_push(heap, through, g->adj[e]);
			}
		}
	}
}

gtStatus gt_landmarks_pick(int n, void (*distances)(void* context, int from, double* dist), void* context,
                           gtLandmarks* out, gtError* err)
{
	memset(out, 0, sizeof *out);
	if (n == 0) return GT_OK;
	double* dist = gt_malloc((size_t)n * sizeof *dist);
	double* nearest = gt_malloc((size_t)n * sizeof *nearest); // distance to the closest landmark so far
	out->dist = gt_malloc((size_t)n * GT_LANDMARKS * sizeof *out->dist);
	out->vertex = gt_malloc(GT_LANDMARKS * sizeof *out->vertex);
	gtStatus st = GT_OK;
	if (!dist || !nearest || !out->dist || !out->vertex) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory for landmark distances");
		gt_landmarks_free(out);
		goto done;
	}
	out->n = n;
	out->count = GT_LANDMARKS < n ? GT_LANDMARKS : n;
	// The first landmark is the vertex farthest from vertex 0; each next one the farthest from every
	// landmark so far (a vertex no landmark reaches counts as farthest: its component needs one).
	distances(context, 0, dist);
	int pick = 0;
	for (int v = 0; v < n; v++)
		if (!isinf(dist[v]) && dist[v] > dist[pick]) pick = v;
	for (int v = 0; v < n; v++) nearest[v] = INFINITY;
	for (int l = 0; l < out->count; l++) {
		out->vertex[l] = pick;
		distances(context, pick, dist);
		for (int v = 0; v < n; v++) {
			out->dist[(size_t)v * (size_t)out->count + (size_t)l] = dist[v];
			if (dist[v] < nearest[v]) nearest[v] = dist[v];
		}
		pick = 0;
		for (int v = 1; v < n; v++)
			if (nearest[v] > nearest[pick]) pick = v;
	}
done:
	gt_free(dist);
	gt_free(nearest);
	return st;
}

typedef struct GraphSearch {
	const gtVisGraph* graph;
	gtHeap heap;
} GraphSearch;

static void graph_distances(void* context, int from, double* dist)
{
	GraphSearch* search = context;
	dijkstra(search->graph, from, dist, &search->heap);
}

gtStatus gt_landmarks_build(const gtVisGraph* g, gtLandmarks* out, gtError* err)
{
	memset(out, 0, sizeof *out);
	int n = g->n;
	if (n == 0) return GT_OK;
	GraphSearch search = {
	    g, {gt_malloc(((size_t)n + (size_t)g->offset[n] + 1) * sizeof(gtHeapItem)), 0, (int)(n + g->offset[n] + 1)}};
	if (!search.heap.items) return gt_fail(err, GT_ERR_NOMEM, "out of memory for landmark distances");
	gtStatus st = gt_landmarks_pick(n, graph_distances, &search, out, err);
	gt_free(search.heap.items);
	return st;
}

void gt_landmarks_free(gtLandmarks* l)
{
	gt_free(l->dist);
	gt_free(l->vertex);
	memset(l, 0, sizeof *l);
}
