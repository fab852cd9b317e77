/// @file gt_research.h
/// Research tools, opt-in: the obstacle k-nearest searches of the OkNN paper (Zhao, Taniar and
/// Harabor; docs/algorithms.md) on a navigation mesh, with their objects and heuristics, which the
/// CLI's `knn` and `bench-peers` commands compare with the Grid Tree. Not part of gridtree.h: a game queries a
/// gtWorld (gt_world.h) instead. Include this header where you want these calls; they are in the
/// same library.
///
/// Contents
///     Objects on a mesh  gtMeshObjects_*
///     k nearest          gtPolyanya_Nearest, gtPolyanya_NearestGuided, gtMesh_IntervalBound
///     Fence heuristic    gtMeshFence_*
#ifndef GRIDTREE_GT_RESEARCH_H
#define GRIDTREE_GT_RESEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_base.h"
#include "gt_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Objects on a mesh

/// Objects on a mesh, listed per polygon, for the interval heuristic's k-nearest search. Ids are the
/// caller's (0 .. GT_MESH_MAX_OBJECT_ID, dense is best: storage grows to the largest).
typedef struct gtMeshObjects gtMeshObjects;
#define GT_MESH_MAX_OBJECT_ID 100000000

gtStatus gtMeshObjects_Create(const gtMesh* mesh, gtMeshObjects** out, gtError* err);
void gtMeshObjects_Destroy(gtMeshObjects* objects);
/// Places object `id` at `point` (adding it, or moving it: O(1) when it stays in its polygon).
/// A point off the mesh is GT_ERR_INVALID_POINT and leaves the object where it was.
gtStatus gtMeshObjects_Set(gtMeshObjects* objects, int32_t id, gtVec2 point, gtError* err);
/// Takes the object off the mesh (nothing for an id not placed).
void gtMeshObjects_Remove(gtMeshObjects* objects, int32_t id);
int gtMeshObjects_Count(const gtMeshObjects* objects);
/// Bytes the object lists hold.
int64_t gtMeshObjects_Bytes(const gtMeshObjects* objects);

//------------------------------------------------------------------------------------------------
// k nearest on a mesh (interval and target heuristics)

/// Which objects a k-nearest search may return (keywords, region...): true to accept.
typedef bool gtMeshAcceptFcn(void* context, int32_t id);

/// The k objects nearest to q by walking distance, nearest first, among those `accept` approves
/// (NULL: all): the OkNN paper's interval heuristic, Polyanya expanding outwards from q like
/// Dijkstra (h = distance from a node's root to its interval) and meeting objects as it enters
/// their polygons. Ties in any order; unreachable objects are never returned.
gtStatus gtPolyanya_Nearest(gtPolyanya* search, const gtMeshObjects* objects, gtVec2 q, int k, gtMeshAcceptFcn* accept,
                            void* context, int32_t* ids, double* distances, int capacity, int* count, gtError* err);

/// A lower bound on the walk from `root` through the interval [right, left] (on the mesh edge
/// numbered `edge`, the same number from both sides) to the nearest object the running search still
/// wants: one that its filter accepts and gtPolyanya_Returned says is not yet returned. INFINITY
/// when none can be reached that way (the search then drops that way). It need not be consistent.
typedef double gtMeshGuideFcn(void* context, const gtPolyanya* search, gtVec2 root, gtVec2 right, gtVec2 left,
                              int32_t edge);

/// gtPolyanya_Nearest ordered by `guide` instead of the distance to the interval: the OkNN paper's
/// target heuristic (a guide that finds the Euclidean-nearest wanted object) and fence heuristic
/// (gtMeshFence_Guide). A node's f is never below its parent's, which makes any admissible guide
/// consistent (the paper's h_f). Exact when the guide is a lower bound.
gtStatus gtPolyanya_NearestGuided(gtPolyanya* search, const gtMeshObjects* objects, gtVec2 q, int k,
                                  gtMeshAcceptFcn* accept, void* context, gtMeshGuideFcn* guide, void* guide_context,
                                  int32_t* ids, double* distances, int capacity, int* count, gtError* err);
/// Whether the running (or last) k-nearest search has returned object `id` already.
bool gtPolyanya_Returned(const gtPolyanya* search, int32_t id);
/// The length of the shortest walk from `root` through the interval [right, left] to `target` in
/// the polygon beyond (target reflected to the far side when it is on root's): Polyanya's
/// heuristic, a lower bound for any target.
double gtMesh_IntervalBound(gtVec2 root, gtVec2 right, gtVec2 left, gtVec2 target);

//------------------------------------------------------------------------------------------------
// Fence heuristic

/// Fence labels (OkNN paper, section 5.1): for one set of target objects, each mesh edge keeps the
/// roots (and their distances to the nearest targets) through which the targets' shortest walks
/// cross it, pruned by min/max distance dominance. Computed once per target set; stale as soon as
/// a target moves (compute it again).
typedef struct gtMeshFence gtMeshFence;

gtStatus gtMeshFence_Create(const gtMesh* mesh, gtMeshFence** out, gtError* err);
void gtMeshFence_Destroy(gtMeshFence* fence);
/// Labels for the objects `accept` approves (NULL: all), by a flood out of all of them at once;
/// `search` is the scratch it runs in (a search over the same mesh).
gtStatus gtMeshFence_Compute(gtMeshFence* fence, gtPolyanya* search, const gtMeshObjects* objects,
                             gtMeshAcceptFcn* accept, void* context, gtError* err);
/// Labels kept over all edges, and bytes held.
int64_t gtMeshFence_Labels(const gtMeshFence* fence);
int64_t gtMeshFence_Bytes(const gtMeshFence* fence);
/// The fence heuristic, a gtMeshGuideFcn whose context is the fence: the smallest walk through the
/// interval to a label's root plus that root's distance to its target (INFINITY: no target beyond).
double gtMeshFence_Guide(void* fence, const gtPolyanya* search, gtVec2 root, gtVec2 right, gtVec2 left, int32_t edge);

#ifdef __cplusplus
}
#endif

#endif
