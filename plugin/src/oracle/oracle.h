// The oracle's constructor with a host job system, for the navigation façade. Internal.
#ifndef GRIDTREE_ORACLE_INTERNAL_H
#define GRIDTREE_ORACLE_INTERNAL_H

#include "gridtree/gt_oracle.h"
#include "map/vis_graph.h"
#include "oracle/landmarks.h"

// gtOracle_Create whose visibility graph is built on `tasks` (NULL: the built-in pool), so a
// gtNavDef.tasks covers the oracle's build as well as the index's.
gtStatus gt_oracle_create(const gtMap* map, const gtTaskSystem* tasks, int threads, gtOracle** out, gtError* err);
// The same with the full visibility graph of `map` given (copied), not built.
gtStatus gt_oracle_create_from_graph(const gtMap* map, const gtVisGraph* graph, gtOracle** out, gtError* err);
// Gives an oracle made from `graph` that graph's landmark distances (copied), when it has none, so
// the first oracle derived from it (gt_oracle_after_blocks) need not compute them.
gtStatus gt_oracle_copy_landmarks(gtOracle* oracle, const gtLandmarks* landmarks, gtError* err);

// The oracle of `map`, which is `base`'s map with walls added in the inclusive rectangles `rects`
// (and no wall removed): its graph derived from base's (gt_vis_graph_after_blocks). The first such
// call computes base's landmark distances, which every oracle derived from it copies.
gtStatus gt_oracle_after_blocks(gtOracle* base, const gtMap* map, const int* rects, int rect_count, gtOracle** out,
                                gtError* err);

// Whether `oracle` came from gt_oracle_after_blocks (and was not repaired since): then
// gt_oracle_between can search it.
bool gt_oracle_is_derived(const gtOracle* oracle);

// The exact distance (and, when `points` is not NULL, the path) from s to t on a derived oracle's
// map, for valid s and t, when every possible first bend of a shortest path from s that the base
// map also had is in `from` and every possible last bend into t is in `to` (vertex numbers of the
// base; the vertices new since are always tried). Only those are tested for a straight run from s
// or to t, where the plain search tests every vertex.
gtStatus gt_oracle_between(gtOracle* oracle, gtVec2 s, gtVec2 t, const int32_t* from, int from_count, const int32_t* to,
                           int to_count, gtVec2* points, int capacity, int* count, double* distance, gtError* err);

// Brings the oracle up to date after its map's cells in the inclusive rectangles `rects` (x0, y0,
// x1, y1 each) changed in place (gt_vis_graph_repair). On failure, destroy it and build anew.
gtStatus gt_oracle_repair(gtOracle* oracle, const int* rects, int rect_count, gtError* err);

#endif
