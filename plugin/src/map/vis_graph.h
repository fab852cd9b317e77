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

#endif
