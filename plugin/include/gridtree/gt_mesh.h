/// @file gt_mesh.h
/// Navigation meshes: convex polygons covering a map's free space, as Polyanya reads them
/// (`.mesh` version 2, docs/algorithms.md 1.3), and point location in them.
///
/// Contents
///     Meshes           gtMesh_Load, gtMesh_FromMap, gtMesh_Save, gtMesh_Polygon, gtMesh_Locate
///     Polyanya search  gtPolyanya_Create, gtPolyanya_Distance, gtPolyanya_Path
///     (the OkNN k-nearest searches on a mesh are research tools: gt_research.h)
#ifndef GRIDTREE_GT_MESH_H
#define GRIDTREE_GT_MESH_H

#include <stdint.h>

#include "gt_base.h"
#include "gt_map.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Meshes

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

//------------------------------------------------------------------------------------------------
// Polyanya: shortest paths on a mesh

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

#ifdef __cplusplus
}
#endif

#endif
