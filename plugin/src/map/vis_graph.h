// Visibility graph over the convex vertices in CSR form (docs/algorithms.md 3.1). Internal.
#ifndef GRIDTREE_VIS_GRAPH_H
#define GRIDTREE_VIS_GRAPH_H

#include "gridtree/gt_map.h"

typedef struct gtVisGraph {
	int n;           // vertices, indexed as gtMap_Vertices
	int64_t* offset; // n + 1 entries; neighbours of v are [offset[v], offset[v + 1])
	int32_t* adj;    // sorted by index within each vertex
	double* length;
} gtVisGraph;

// taut_only: keep only edges tangent at both ends (docs/algorithms.md 3.4). Such a graph has the
// same distance for every pair an optimal path between two points can use; every caller today
// (the oracle, the EHL build, `gridtree info`) uses the full graph.
// Pairs are tested in parallel through `tasks` (NULL: the built-in pool) with `threads` workers.
gtStatus gt_vis_graph_build(const gtMap* map, const gtTaskSystem* tasks, int threads, bool taut_only, gtVisGraph* out,
                            gtError* err);
void gt_vis_graph_free(gtVisGraph* g);
// A deep copy of `graph` into *out; false when out of memory (*out then empty).
bool gt_vis_graph_copy(const gtVisGraph* graph, gtVisGraph* out);

// Pairs the vertices that stayed through an edit: old_of[new index] and new_of[old index], -1 for
// a vertex on one side only (both lists row-major, as gtMap_Vertices gives them).
void gt_vis_match_vertices(const gtVertex* old_vertices, int old_n, const gtVertex* v, int n, int32_t* old_of,
                           int32_t* new_of);

// Brings graph `g`, built for the map when its vertex list was `old_vertices` (old_n of them), up
// to date after the cells of the inclusive rectangles `rects` (x0, y0, x1, y1 each) changed: a
// pair whose segment stays a cell away from every changed cell keeps its old status, every other
// pair is tested again. On failure g is as it was.
gtStatus gt_vis_graph_repair(const gtMap* map, const gtVertex* old_vertices, int old_n, const int* rects,
                             int rect_count, gtVisGraph* g, gtError* err);
// Whether the edits of `rects` leave the graph as it was: the same vertices, none in or next to a
// rectangle, and each rectangle walled in (every cell around it blocked, before and now): a wall
// demolished inside a thick wall. gt_vis_graph_repair then keeps g as it is.
bool gt_vis_graph_unchanged(const gtMap* map, const gtVertex* old_vertices, int old_n, const int* rects,
                            int rect_count);
// The same with the pairs tested in parallel through `tasks` (NULL: the built-in pool) by `threads`
// workers (0: one per core).
gtStatus gt_vis_graph_repair_parallel(const gtMap* map, const gtTaskSystem* tasks, int threads,
                                      const gtVertex* old_vertices, int old_n, const int* rects, int rect_count,
                                      gtVisGraph* g, gtError* err);

// The graph of the map as it is now, from `old` (the full graph of the same map before walls were
// added in the inclusive cell rectangles `rects`; its vertex list `old_vertices`), when cells only
// went from free to blocked: old edges near the new walls tested again, the new corners' pairs
// from a visibility sweep of each over the whole plane, and pairs of old neighbours that a vanished corner stood between; on `threads`
// workers of `tasks` (the graph is the same on any number).
gtStatus gt_vis_graph_after_blocks(const gtMap* map, const gtTaskSystem* tasks, int threads,
                                   const gtVertex* old_vertices, int old_n, const gtVisGraph* old, const int* rects,
                                   int rect_count, gtVisGraph* out, gtError* err);

#endif
