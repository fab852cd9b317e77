// The oracle's constructor with a host job system, for the navigation façade. Internal.
#ifndef GRIDTREE_ORACLE_INTERNAL_H
#define GRIDTREE_ORACLE_INTERNAL_H

#include "gridtree/gt_oracle.h"

// gtOracle_Create whose visibility graph is built on `tasks` (NULL: the built-in pool), so a
// gtNavDef.tasks covers the oracle's build as well as the index's.
gtStatus gt_oracle_create(const gtMap* map, const gtTaskSystem* tasks, int threads, gtOracle** out, gtError* err);

// The oracle of `map`, which is `base`'s map with walls added in the inclusive rectangles `rects`
// (and no wall removed): its graph derived from base's (gt_vis_graph_after_blocks).
gtStatus gt_oracle_after_blocks(const gtOracle* base, const gtMap* map, const int* rects, int rect_count, gtOracle** out,
                                gtError* err);

// Brings the oracle up to date after its map's cells in the inclusive rectangles `rects` (x0, y0,
// x1, y1 each) changed in place (gt_vis_graph_repair). On failure, destroy it and build anew.
gtStatus gt_oracle_repair(gtOracle* oracle, const int* rects, int rect_count, gtError* err);

#endif
