// The navigation mesh's arrays, shared by its reader (mesh_parse.c) and point location
// (mesh_locate.c). Internal.
#ifndef GRIDTREE_MESH_INTERNAL_H
#define GRIDTREE_MESH_INTERNAL_H

#include "gridtree/gt_mesh.h"

struct gtMesh {
	int vertex_count, polygon_count;
	double *x, *y;
	// Polygon p's vertices and neighbours are [first[p], first[p + 1]) of `corner` and `across`.
	int32_t *first, *corner, *across;
	// Where edge i of polygon p (entry first[p] + i) is in the polygon across it: that entry's
	// index within the neighbour's list, -1 for a wall.
	int32_t* twin;
	// The polygons around vertex v: [around_first[v], around_first[v + 1]) of `around` (-1 = outside).
	int32_t *around_first, *around;
	uint8_t* corner_vertex; // touches an obstacle: a path may turn there
	int32_t* exits;         // per polygon, its edges that are not walls
	gtVec2* ring_xy;        // each ring entry's position, next to its neighbours for the search
	// Point location: a uniform grid of buckets over the mesh's bounding box, each listing the
	// polygons whose bounding boxes meet it.
	double min_x, min_y, bucket_size;
	int bucket_columns, bucket_rows;
	int32_t *bucket_first, *bucket_polygons;
};

// Completes a mesh whose vertices, polygons and vertex rings are filled in: derived arrays, every
// polygon checked (convex, counter-clockwise, neighbours sharing their edges), the bucket grid.
gtStatus gt_mesh_finish(gtMesh* m, const char* name, gtError* err);

// The most polygons (and wall sectors) around one vertex that a mesh may list.
#define GT_MESH_MAX_AROUND_VERTEX 1024

// The polygons a point belongs to for searches (at most `room` into `out`; 0 when off the mesh):
// all that hold it, except at a pinch vertex, where only the polygon of the point nudged by
// (+1e-5, +1e-5) counts.
int gt_mesh_point_polygons(const gtMesh* m, gtVec2 q, int32_t* out, int room);

// Builds the bucket grid of a mesh whose polygons are read and checked.
gtStatus gt_mesh_index(gtMesh* m, gtError* err);

#endif
