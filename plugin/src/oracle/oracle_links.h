// The oracle with links (docs/links.md): Dijkstra over the visibility graph of the convex vertices
// plus the links' ends, with each link an edge of its own cost. Exact, and the twin every faster
// answer with links is tested against. Internal.
#ifndef GRIDTREE_ORACLE_LINKS_H
#define GRIDTREE_ORACLE_LINKS_H

#include "gridtree/gt_oracle.h"

// One link as the search takes it: from a to b at `cost`, and back unless one_way. `id` is what a
// path reports for it (the nav's gtLinkId).
typedef struct gtLinkEdge {
	gtVec2 a, b;
	double cost;
	bool one_way;
	uint32_t id;
} gtLinkEdge;

typedef struct gtLinkGraph gtLinkGraph;

// The graph of `oracle` (whose map is `map`, as it is now) joined to the links' ends: each end to
// the vertices and other ends it sees. Links with an end outside the free space are left out. The
// oracle must outlive the graph and not change while it is used.
gtStatus gt_link_graph_create(const gtOracle* oracle, const gtMap* map, const gtLinkEdge* links, int count,
                              gtLinkGraph** out, gtError* err);
void gt_link_graph_destroy(gtLinkGraph* g);

// Shortest distance from s to t (valid points, unchecked) with the links; +infinity when none.
double gt_link_graph_distance(gtLinkGraph* g, gtVec2 s, gtVec2 t);

// The shortest path s, ..., t, with links[i] the id of the link taken from points[i] to points[i + 1]
// (0 when walking; `links` may be NULL). *count 0 when unreachable; GT_ERR_BUFFER_TOO_SMALL with
// *count the size needed.
gtStatus gt_link_graph_path(gtLinkGraph* g, gtVec2 s, gtVec2 t, gtVec2* points, uint32_t* links, int capacity,
                            int* count, double* distance, gtError* err);

#endif
