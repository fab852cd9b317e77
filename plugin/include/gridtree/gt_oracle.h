/// @file gt_oracle.h
/// The brute-force oracle: exact shortest obstacle-avoiding distances and paths by Dijkstra over
/// the visibility graph of the convex vertices (docs/algorithms.md 2.7, 3.1). It is the ground truth
/// every faster method is tested against, and the CLI's "check mode".
///
/// Contents
///     Oracle  gtOracle_Create, gtOracle_Distance, gtOracle_Path, gtOracle_Neighbors
#ifndef GRIDTREE_GT_ORACLE_H
#define GRIDTREE_GT_ORACLE_H

#include "gt_map.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// The oracle

/// Owns the visibility graph and one query's scratch space: one query at a time per oracle
/// (create one oracle per thread to query in parallel). Keeps a pointer to the map, which must
/// outlive it.
typedef struct gtOracle gtOracle;

/// Builds the visibility graph with `threads` worker threads (0 = gtSetTasks's, one per online
/// core unless set), on gtSetTasks's job system.
gtStatus gtOracle_Create(const gtMap* map, int threads, gtOracle** out, gtError* err);

void gtOracle_Destroy(gtOracle* oracle);

/// Undirected edges of the visibility graph (co-visible convex vertex pairs with no convex
/// vertex strictly between them).
int64_t gtOracle_EdgeCount(const gtOracle* oracle);

/// Neighbours of vertex `v` (index into gtMap_Vertices) and the edge lengths, sorted by index.
int gtOracle_Neighbors(const gtOracle* oracle, int v, const int32_t** neighbors, const double** lengths);

/// Shortest distance from s to t; +infinity when t cannot be reached. GT_ERR_INVALID_POINT (with
/// the reason in err) when s or t is not in the closed free space.
gtStatus gtOracle_Distance(gtOracle* oracle, gtVec2 s, gtVec2 t, double* distance, gtError* err);

/// Shortest path as points s, bends..., t (at most gtMap vertex count + 2 points). `*count`
/// receives the number of points (0 when unreachable); GT_ERR_BUFFER_TOO_SMALL when `capacity`
/// is smaller, with `*count` set to the size needed. `distance` may be NULL.
gtStatus gtOracle_Path(gtOracle* oracle, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* distance,
                       gtError* err);

#ifdef __cplusplus
}
#endif

#endif
