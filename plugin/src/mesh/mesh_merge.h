// Convex polygons with shared edges, merged into fewer, larger convex polygons: the second step of
// the mesh made from a map (mesh_build.c). Internal.
#ifndef GRIDTREE_MESH_MERGE_H
#define GRIDTREE_MESH_MERGE_H

#include <stdint.h>

#include "gridtree/gt_base.h"

typedef struct gtPolygonSet {
	const int32_t *x, *y; // the vertices
	int count;            // polygons; a merged-away one keeps size 0
	int32_t *start, *size;
	// Polygon p's ring is [start[p], start[p] + size[p]) of both: its vertices counter-clockwise,
	// and across[i], the polygon across the edge from the previous vertex to corner[i] (-1 = wall).
	int32_t *corner, *across;
	int64_t ring_count, corner_capacity, across_capacity, start_capacity, size_capacity;
} gtPolygonSet;

// Appends a polygon (a copy of its ring) and returns its number, -1 when out of memory.
int32_t gt_polygons_add(gtPolygonSet* s, const int32_t* corner, const int32_t* across, int size);

// Merges neighbours while their union is convex, the pair with the largest union first.
gtStatus gt_polygons_merge(gtPolygonSet* s, gtError* err);

void gt_polygons_free(gtPolygonSet* s);

#endif
