// Visibility graph over the convex vertices in CSR form (algorithms.md 3.1). Internal.
#ifndef GRIDTREE_VIS_GRAPH_H
#define GRIDTREE_VIS_GRAPH_H

#include "gridtree/gt_map.h"

typedef struct gtVisGraph {
	int n;           // vertices, indexed as gtMap_Vertices
	int64_t* offset; // n + 1 entries; neighbours of v are [offset[v], offset[v + 1])
	int32_t* adj;    // sorted by index within each vertex
	double* length;
} gtVisGraph;

gtStatus gt_vis_graph_build(const gtMap* map, int threads, gtVisGraph* out, gtError* err);
void gt_vis_graph_free(gtVisGraph* g);

// Worker count for a request: 0 means one per online core.
int gt_resolve_threads(int requested);

#endif
