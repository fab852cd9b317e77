// What the fence labels' preprocessing (fence.c) takes from the Polyanya search (polyanya.c).
// Internal.
#ifndef GRIDTREE_POLYANYA_INTERNAL_H
#define GRIDTREE_POLYANYA_INTERNAL_H

#include "gridtree/gt_research.h"

// Called for each node the flood pops, before it is expanded: root (at distance g from its
// source) sees the interval [right, left] of mesh edge `edge` (gt_mesh_edge_key). Returns 1 to
// expand the node, 0 to drop it, -1 when out of memory.
typedef int MeshFloodVisit(void* context, gtVec2 root, gtVec2 right, gtVec2 left, double g, int32_t edge);

// A Polyanya search out of every object `accept` approves at once, ordered by g plus the distance
// to the interval (the interval heuristic's order), with root pruning across sources: each
// corner is a root only for the sources nearest it. Runs until `visit` has dropped every node.
gtStatus gt_polyanya_flood(gtPolyanya* search, const gtMeshObjects* objects, gtMeshAcceptFcn* accept, void* context,
                           MeshFloodVisit* visit, void* visit_context, gtError* err);

// One id for both sides of a mesh edge: the smaller of its two ring entries (a wall's own entry).
int32_t gt_mesh_edge_key(const gtMesh* m, int32_t ring_entry);

// Distance from r to the closed segment a-b: the interval heuristic's estimate.
double gt_mesh_segment_distance(gtVec2 r, gtVec2 a, gtVec2 b);

#endif
