/// @file gt_mesh.h
/// Navigation meshes: convex polygons covering a map's free space, as Polyanya reads them
/// (`.mesh` version 2, docs/algorithms.md 1.3), and point location in them.
#ifndef GRIDTREE_GT_MESH_H
#define GRIDTREE_GT_MESH_H

#include <stdint.h>

#include "gt_base.h"
#include "gt_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An immutable navigation mesh. Safe to share between threads once loaded.
typedef struct gtMesh gtMesh;

/// Where a point lies in a mesh.
typedef enum gtMeshPlace {
	GT_MESH_OUTSIDE = 0, ///< in no polygon (a wall or off the mesh)
	GT_MESH_IN_POLYGON,  ///< strictly inside `polygon`
	GT_MESH_ON_EDGE,     ///< on an edge of `polygon`; `other` is the polygon across it, or -1 (a wall)
	GT_MESH_ON_VERTEX,   ///< on mesh vertex `vertex`; `polygon` is one of the polygons around it
} gtMeshPlace;

typedef struct gtMeshLocation {
	gtMeshPlace place;
	int32_t polygon, other, vertex; ///< -1 where they do not apply
} gtMeshLocation;

/// Loads a Polyanya `.mesh` file (version 2). Errors read "path:line: problem"; the file is checked
/// whole (indices in range, neighbours that share the edge they claim, convex counter-clockwise
/// polygons, no tokens left over).
gtStatus gtMesh_Load(const char* path, gtMesh** out, gtError* err);
/// The same from memory; `name` is used in error messages.
gtStatus gtMesh_Parse(const char* text, size_t length, const char* name, gtMesh** out, gtError* err);
void gtMesh_Destroy(gtMesh* mesh);
/// A mesh of a grid map's free space, made as the shipped meshes were: the obstacle corners and the
/// walls between them triangulated (constrained Delaunay), the triangles over free cells merged
/// into convex polygons. Every vertex is an obstacle corner. What `gridtree mesh-build` writes.
/// A map with no free cell is GT_ERR_INVALID_ARG.
gtStatus gtMesh_FromMap(const gtMap* map, gtMesh** out, gtError* err);
/// Writes the mesh as a Polyanya `.mesh` (version 2) file, through a temporary file and a rename.
gtStatus gtMesh_Save(const gtMesh* mesh, const char* path, gtError* err);

int gtMesh_VertexCount(const gtMesh* mesh);
int gtMesh_PolygonCount(const gtMesh* mesh);
/// Vertex v's position (v must be below gtMesh_VertexCount).
gtVec2 gtMesh_Vertex(const gtMesh* mesh, int v);
/// Polygon p's vertices (counter-clockwise) and, for each, the polygon across the edge that ends at
/// it (-1: a wall), as in the file; returns the vertex count, 0 for a p out of range.
int gtMesh_Polygon(const gtMesh* mesh, int p, const int32_t** vertices, const int32_t** neighbours);
/// Bytes the mesh holds in memory.
int64_t gtMesh_Bytes(const gtMesh* mesh);

/// Where point p lies: inside a polygon, on an edge between two (or a wall), on a vertex, or
/// outside every polygon (NaN and infinite points too).
gtMeshLocation gtMesh_Locate(const gtMesh* mesh, gtVec2 p);

/// A Polyanya search over one mesh (Cui, Harabor and Grastien 2017): exact any-angle shortest
/// paths, the same answers as EHL and the oracle on the map the mesh covers. Holds its own scratch
/// (it grows to the largest search and stays), so give each thread its own.
typedef struct gtPolyanya gtPolyanya;

gtStatus gtPolyanya_Create(const gtMesh* mesh, gtPolyanya** out, gtError* err);
void gtPolyanya_Destroy(gtPolyanya* search);
/// Shortest distance from s to t; +inf when t cannot be reached. A point off the mesh (a wall, NaN)
/// gets GT_ERR_INVALID_POINT. A point on a pinch vertex (two obstacle sectors) starts in the polygon
/// at (+1e-5, +1e-5) from it, as the grid's rule sends it into cell (x, y).
gtStatus gtPolyanya_Distance(gtPolyanya* search, gtVec2 s, gtVec2 t, double* distance, gtError* err);
/// The path's points, s first and t last (count 0 when unreachable).
gtStatus gtPolyanya_Path(gtPolyanya* search, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count,
                         double* distance, gtError* err);
/// Search nodes expanded by the last query (for benchmarks).
int64_t gtPolyanya_Expanded(const gtPolyanya* search);

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
double gtMeshFence_Guide(void* fence, const gtPolyanya* search, gtVec2 root, gtVec2 right, gtVec2 left,
                         int32_t edge);

#ifdef __cplusplus
}
#endif

#endif
