// Internals of an EHL repair checked against brute force: the landmarks a background build gives
// the nav (made from the hub labels it keeps, ehl_repair.c) hold the visibility graph's distances
// from each landmark, as a plain Dijkstra over the graph finds them.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "ehl/ehl_layout.h"
#include "ehl/ehl_repair.h"
#include "map/vis_graph.h"
#include "oracle/landmarks.h"

// Distances from `from` over the graph by an O(n^2) Dijkstra: no heap, nothing shared with the library's.
static void brute_distances(const gtVisGraph* g, int from, double* dist, bool* done)
{
	for (int v = 0; v < g->n; v++) dist[v] = INFINITY, done[v] = false;
	dist[from] = 0;
	for (;;) {
		int u = -1;
		for (int v = 0; v < g->n; v++)
			if (!done[v] && !isinf(dist[v]) && (u < 0 || dist[v] < dist[u])) u = v;
		if (u < 0) return;
		done[u] = true;
		for (int64_t k = g->offset[u]; k < g->offset[u + 1]; k++)
			if (dist[u] + g->length[k] < dist[g->adj[k]]) dist[g->adj[k]] = dist[u] + g->length[k];
	}
}

static void landmarks_hold_graph_distances(gtMap* map, const char* what)
{
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 4;
	def.threads = 1;
	gtVisGraph graph;
	memset(&graph, 0, sizeof graph);
	gtLandmarks lm;
	gtEhl* e;
	gtError err;
	assert_int_equal(gt_ehl_build_keeping_graph(map, &def, &graph, NULL, &e, &lm, &err), GT_OK);
	assert_non_null(e->hub_labels); // what the landmarks came from
	assert_true(lm.count > 1);
	assert_int_equal(lm.n, graph.n);
	double* dist = malloc(sizeof *dist * (size_t)graph.n);
	bool* done = malloc(sizeof *done * (size_t)graph.n);
	assert_non_null(dist);
	assert_non_null(done);
	for (int l = 0; l < lm.count; l++) {
		brute_distances(&graph, lm.vertex[l], dist, done);
		for (int v = 0; v < graph.n; v++) {
			double got = lm.dist[(size_t)v * (size_t)lm.count + (size_t)l];
			if (isinf(dist[v]) ? !isinf(got) : !(fabs(got - dist[v]) <= 1e-9 * (1 + dist[v])))
				fail_msg("%s: landmark %d (vertex %d) to vertex %d is %.12g, Dijkstra %.12g", what, l, lm.vertex[l], v,
				         got, dist[v]);
		}
	}
	// The picks: each the farthest (by the distances above) from the landmarks before it.
	for (int l = 1; l < lm.count; l++) {
		double best = -1, picked = INFINITY;
		for (int v = 0; v < graph.n; v++) {
			double nearest = INFINITY;
			for (int k = 0; k < l; k++) {
				double d = lm.dist[(size_t)v * (size_t)lm.count + (size_t)k];
				nearest = d < nearest ? d : nearest;
			}
			best = nearest > best ? nearest : best;
			if (v == lm.vertex[l]) picked = nearest;
		}
		if (!(picked >= best)) fail_msg("%s: landmark %d is %g from the others, a vertex is %g", what, l, picked, best);
	}
	free(dist);
	free(done);
	gt_landmarks_free(&lm);
	gtEhl_Destroy(e);
	gt_vis_graph_free(&graph);
	gtMap_Destroy(map);
}

static void test_landmarks_from_labels_equal_dijkstra(void** state)
{
	(void)state;
	landmarks_hold_graph_distances(test_load_map("assets/maps/caves.map"), "caves");
	gtMap* map;
	gtError err;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 160, 120, 7, &map, &err), GT_OK);
	landmarks_hold_graph_distances(map, "generated rooms");
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 160, 128, 5, &map, &err), GT_OK);
	landmarks_hold_graph_distances(map, "generated caves");
}

TEST_MAIN("ehl_repair", test_landmarks_from_labels_equal_dijkstra)
