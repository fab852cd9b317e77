// The oracle's constructors with a host job system and from graphs made elsewhere, for the
// navigation façade, and searches with the searcher's scratch apart from the oracle: once made, an
// oracle is read-only, and any number of searchers (one per thread) may search it at once. Internal.
#ifndef GRIDTREE_ORACLE_INTERNAL_H
#define GRIDTREE_ORACLE_INTERNAL_H

#include "gridtree/gt_oracle.h"
#include "map/vis_graph.h"
#include "oracle/landmarks.h"

typedef struct gtOracleSearch gtOracleSearch; // one searcher's scratch (below)

// gtOracle_Create whose visibility graph is built on `tasks` (NULL: the built-in pool), so a
// gtNavDef.tasks covers the oracle's build as well as the index's.
gtStatus gt_oracle_create(const gtMap* map, const gtTaskSystem* tasks, int threads, gtOracle** out, gtError* err);
// The same with the full visibility graph of `map` given (copied), not built.
gtStatus gt_oracle_create_from_graph(const gtMap* map, const gtVisGraph* graph, gtOracle** out, gtError* err);
// The same taking `graph` (the full visibility graph of `map`; emptied, also on failure).
gtStatus gt_oracle_take_graph(const gtMap* map, gtVisGraph* graph, gtOracle** out, gtError* err);
// The oracle of `map`, which is `from`'s map with the cells in the inclusive rectangles `rects`
// (x0, y0, x1, y1 each) changed: from's graph repaired around them (gt_vis_graph_repair). Plain:
// not derived, whatever `from` was.
gtStatus gt_oracle_repaired(const gtOracle* from, const gtMap* map, const int* rects, int rect_count, gtOracle** out,
                            gtError* err);
// Gives a plain oracle without landmarks `landmarks` (its graph's, copied; ignored when they do not
// fit), so oracles can be derived from it without computing them.
gtStatus gt_oracle_copy_landmarks(gtOracle* oracle, const gtLandmarks* landmarks, gtError* err);
// Computes the landmark distances of an oracle that is no derived one and has none, so oracles can
// be derived from it (call before others search it: it changes the oracle).
gtStatus gt_oracle_add_landmarks(gtOracle* oracle, gtError* err);
// The map an oracle answers for.
const gtMap* gt_oracle_map(const gtOracle* oracle);

// The oracle of `map`, which is `base`'s map with walls added in the inclusive rectangles `rects`
// (and no wall removed): its graph derived from base's (gt_vis_graph_after_blocks). `base` is
// either a plain oracle with landmarks (gt_oracle_add_landmarks: the landmarks are copied) or an
// oracle derived from one: the result is then derived from that one too, its vertex numbers
// composed through `base`, so an edit at a time costs only the walls of that edit.
gtStatus gt_oracle_after_blocks(const gtOracle* base, const gtMap* map, const int* rects, int rect_count,
                                gtOracle** out, gtError* err);

// Whether `oracle` came from gt_oracle_after_blocks (and was not repaired since): then
// gt_oracle_between can search it.
bool gt_oracle_is_derived(const gtOracle* oracle);

// The exact distance (and, when `points` is not NULL, the path) from s to t on a derived oracle's
// map, for valid s and t, when every possible first bend of a shortest path from s that the base
// map also had is in `from` and every possible last bend into t is in `to` (vertex numbers of the
// base; the vertices new since are always tried). Only those are tested for a straight run from s
// or to t, where the plain search tests every vertex.
gtStatus gt_oracle_between(const gtOracle* oracle, gtOracleSearch* searcher, gtVec2 s, gtVec2 t, const int32_t* from,
                           int from_count, const int32_t* to, int to_count, gtVec2* points, int capacity, int* count,
                           double* distance, gtError* err);

// One searcher's scratch (distances, heap, stamps): made or grown by gt_oracle_search_ready for the
// oracle it is about to search (no allocation when it has room), destroyed by its owner.
gtStatus gt_oracle_search_ready(gtOracleSearch** searcher, const gtOracle* oracle, gtError* err);
void gt_oracle_search_destroy(gtOracleSearch* searcher);
// gtOracle_Distance and gtOracle_Path with the searcher's scratch (made ready for this oracle).
gtStatus gt_oracle_distance_with(const gtOracle* oracle, gtOracleSearch* searcher, gtVec2 s, gtVec2 t, double* distance,
                                 gtError* err);
gtStatus gt_oracle_path_with(const gtOracle* oracle, gtOracleSearch* searcher, gtVec2 s, gtVec2 t, gtVec2* points,
                             int capacity, int* count, double* distance, gtError* err);

// Brings the oracle up to date after its map's cells in the inclusive rectangles `rects` (x0, y0,
// x1, y1 each) changed in place (gt_vis_graph_repair). On failure, destroy it and build anew.
gtStatus gt_oracle_repair(gtOracle* oracle, const int* rects, int rect_count, gtError* err);

#endif
