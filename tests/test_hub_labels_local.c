// Hub labels' searches in a total order, and their repair where the search tree meets an edit
// (hub_labels_local.c), checked against brute force and against labels built from scratch:
// - every entry's distance is the least over the labelled neighbours' (hub's entries) plus the edge,
//   and its parent the first such neighbour in (distance, vertex) order: what a search popping in
//   that order picks, whatever order the heap saw equal keys in;
// - labels repaired after random edit sequences (walls built and demolished, doors shut and opened)
//   equal, entry for entry with parents and P4 flags, the labels built from scratch on the edited
//   map in the same order, on several maps, whichever part of the repair ran; on maps of symmetric
//   pillars (ties everywhere) too, which pins offer's tie rule (either half of it dropped fails);
// - labels marked as from batches are searched whole (no local repair) and still equal scratch.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hub_labels_check.h"
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


// A rectangle of `w` x `h` cells all `blocked` (or all free), away from the border; false if none found.
static bool find_rect(const gtMap* map, int w, int h, bool blocked, TestRng* rng, int rect[4])
{
	int mw = gtMap_Width(map), mh = gtMap_Height(map);
	for (int tries = 0; tries < 5000; tries++) {
		int x = 1 + test_rng_int(rng, mw - w - 2), y = 1 + test_rng_int(rng, mh - h - 2);
		bool all = true;
		for (int j = 0; j < h && all; j++)
			for (int i = 0; i < w && all; i++) all = gtMap_IsBlocked(map, x + i, y + j) == blocked;
		if (all) {
			rect[0] = x, rect[1] = y, rect[2] = x + w - 1, rect[3] = y + h - 1;
			return true;
		}
	}
	return false;
}

// The repair's vertex matching, dirty vertices and kept order (as ehl_repair.c makes them), then the
// labels repaired from `labels` against the labels built from scratch in that order.
static void repair_against_scratch(const gtMap* map, const gtMap* next, const gtVisGraph* graph,
                                   const gtVisGraph* next_graph, gtHubLabels* labels, int threads, int* local_roots,
                                   const char* what, int step)
{
	int old_n, n;
	const gtVertex* old_vertices = gtMap_Vertices(map, &old_n);
	const gtVertex* vertices = gtMap_Vertices(next, &n);
	int32_t* old_of = malloc(sizeof(int32_t) * ((size_t)n + 1));
	int32_t* new_of = malloc(sizeof(int32_t) * ((size_t)old_n + 1));
	int32_t* order = malloc(sizeof(int32_t) * ((size_t)n + 1));
	bool* dirty = malloc((size_t)n + 1);
	assert_true(old_of && new_of && order && dirty);
	gt_vis_match_vertices(old_vertices, old_n, vertices, n, old_of, new_of);
	for (int v = 0; v < n; v++) {
		int ov = old_of[v];
		bool same = ov >= 0 &&
		            graph->offset[ov + 1] - graph->offset[ov] == next_graph->offset[v + 1] - next_graph->offset[v];
		for (int64_t k = 0; same && k < next_graph->offset[v + 1] - next_graph->offset[v]; k++)
			same = new_of[graph->adj[graph->offset[ov] + k]] == next_graph->adj[next_graph->offset[v] + k];
		dirty[v] = !same;
	}
	int count = 0;
	for (int rank = 0; rank < old_n; rank++)
		if (new_of[labels->vertex_of[rank]] >= 0) order[count++] = new_of[labels->vertex_of[rank]];
	for (int v = 0; v < n; v++)
		if (old_of[v] < 0) order[count++] = v;
	assert_int_equal(count, n);
	gtHubLabelsEdit edit = {labels, new_of, old_of, dirty, NULL, threads, NULL, NULL, NULL, NULL, NULL, local_roots};
	gtHubLabels repaired, scratch;
	gtError err;
	assert_int_equal(gt_hub_labels_build_in_order(next, next_graph, order, &edit, &repaired, &err), GT_OK);
	assert_int_equal(gt_hub_labels_build_in_order(next, next_graph, order, NULL, &scratch, &err), GT_OK);
	expect_same_labels(&repaired, &scratch, what, step);
	expect_parents_in_total_order(next_graph, &repaired, what);
	gt_hub_labels_free(&scratch);
	gt_hub_labels_free(labels);
	*labels = repaired;
	free(old_of), free(new_of), free(order), free(dirty);
}

// Random edits in sequence: 4x4 walls built in the open and taken away again, doors (3x1 and 1x3
// walls) shut and opened, 2x2 blocks of the map's own walls demolished; each repaired from the last
// labels. Returns the searches repaired locally. `batched`: the labels marked as a batched build's
// from rank 0 on (hub_labels.h, sequential_to), which no repair may then search locally.
static int random_edits_against_scratch(gtMap* map, int threads, int steps, uint64_t seed, const char* what,
                                        bool batched)
{
	TestRng rng = {seed};
	gtError err;
	gtVisGraph graph;
	gtHubLabels labels;
	assert_int_equal(gt_vis_graph_build(map, NULL, 1, false, &graph, &err), GT_OK);
	assert_int_equal(gt_hub_labels_build(map, &graph, &labels, &err), GT_OK);
	assert_int_equal(labels.sequential_to, labels.n); // a small map: one search at a time
	if (batched) labels.sequential_to = 0;
	int local = 0, undo[4] = {0, 0, 0, 0}, undo_kind = -1;
	for (int step = 0; step < steps; step++) {
		int kind = test_rng_int(&rng, 4), rect[4];
		bool blocked;
		if (undo_kind >= 0 && kind == 3) { // the last wall or door taken away
			memcpy(rect, undo, sizeof rect), blocked = false, undo_kind = -1;
		} else if (kind == 0 || kind == 1) { // a wall or a door, where the map is free
			int w = kind == 0 ? 4 : test_rng_int(&rng, 2) ? 3 : 1, h = kind == 0 ? 4 : w == 3 ? 1 : 3;
			if (!find_rect(map, w, h, false, &rng, rect)) continue;
			memcpy(undo, rect, sizeof undo), blocked = true, undo_kind = kind;
		} else { // the map's own walls demolished
			if (!find_rect(map, 2, 2, true, &rng, rect)) continue;
			blocked = false;
		}
		gtMap* next = test_cells_with_rect(map, rect[0], rect[1], rect[2], rect[3], blocked);
		gtVisGraph next_graph;
		assert_int_equal(gt_vis_graph_build(next, NULL, 1, false, &next_graph, &err), GT_OK);
		repair_against_scratch(map, next, &graph, &next_graph, &labels, threads, &local, what, step);
		assert_int_equal(labels.sequential_to, batched ? 0 : labels.n);
		gt_vis_graph_free(&graph);
		graph = next_graph;
		gtMap_Destroy(map);
		map = next;
	}
	gt_hub_labels_free(&labels);
	gt_vis_graph_free(&graph);
	gtMap_Destroy(map);
	return local;
}

static void test_local_repairs_equal_scratch(void** state)
{
	(void)state;
	gtMap* map;
	gtError err;
	int local = 0;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 160, 120, 7, &map, &err), GT_OK);
	local += random_edits_against_scratch(map, 1, 14, 21, "generated rooms", false);
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 160, 128, 5, &map, &err), GT_OK);
	local += random_edits_against_scratch(map, 2, 14, 22, "generated caves, two threads", false);
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 128, 96, 31, &map, &err), GT_OK);
	local += random_edits_against_scratch(map, 1, 14, 23, "generated rooms 128", false);
	local += random_edits_against_scratch(test_load_map("assets/maps/caves.map"), 1, 14, 24, "caves", false);
	print_message("searches repaired locally: %d\n", local);
	assert_true(local > 0);
}

// Labels from batches (whole builds of maps of 16,384 vertices or more) may have other parents at
// ties than the local search keeps: such roots are searched whole, and the labels still equal scratch.
static void test_batched_roots_search_whole(void** state)
{
	(void)state;
	gtMap* map;
	gtError err;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 160, 120, 7, &map, &err), GT_OK);
	assert_int_equal(random_edits_against_scratch(map, 1, 8, 21, "rooms marked batched", true), 0);
}

// A `size` x `size` map of 2x2 pillars every `every` cells, symmetric about both diagonals: equal-length
// paths around each pillar give vertices equal offers from parents at other distances (offer's tie rule).
static gtMap* pillars(int size, int every)
{
	unsigned char* cells = calloc((size_t)size * (size_t)size, 1);
	assert_non_null(cells);
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++)
			cells[(size_t)y * (size_t)size + (size_t)x] = (unsigned char)(x % every >= every - 2 &&
			                                                              y % every >= every - 2);
	gtMap* map;
	gtError err;
	assert_int_equal(gtMap_FromCells(size, size, cells, &map, &err), GT_OK);
	free(cells);
	return map;
}

// Local repairs on maps full of ties equal scratch, parents included: fails when offer keeps the first
// of equal offers rather than the least in (candidate, key, vertex) order.
static void test_ties_repaired_as_scratch(void** state)
{
	(void)state;
	int local = 0;
	local += random_edits_against_scratch(pillars(42, 6), 1, 16, 41, "pillars 42/6", false);
	local += random_edits_against_scratch(pillars(37, 5), 1, 16, 42, "pillars 37/5", false);
	local += random_edits_against_scratch(pillars(50, 7), 1, 16, 43, "pillars 50/7", false);
	print_message("pillars: searches repaired locally: %d\n", local);
	assert_true(local > 0);
}

TEST_MAIN("hub_labels_local", test_parents_follow_the_total_order, test_local_repairs_equal_scratch,
          test_batched_roots_search_whole, test_ties_repaired_as_scratch)
