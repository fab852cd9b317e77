// A constrained Delaunay triangulation of lattice points in the rectangle [0, w] x [0, h]: the
// first step of the mesh made from a map (mesh_build.c). Its predicates are exact in integers for
// every coordinate up to GT_MAP_MAX_SIDE, so the lattice's many collinear and cocircular points
// need no tolerance. Internal.
#ifndef GRIDTREE_MESH_CDT_H
#define GRIDTREE_MESH_CDT_H

#include <stdint.h>

#include "gridtree/gt_base.h"

// Which side of a -> b point c lies, in points (x[i], y[i]): > 0 left (counter-clockwise), 0 on the
// line. Exact: each difference is within 2^16, each product within 2^32.
static inline int64_t gt_lattice_orient(const int32_t* x, const int32_t* y, int32_t a, int32_t b, int32_t c)
{
	return (int64_t)(x[b] - x[a]) * (y[c] - y[a]) - (int64_t)(y[b] - y[a]) * (x[c] - x[a]);
}

typedef struct gtCdtTriangle {
	int32_t v[3];     // counter-clockwise: positive signed area in (x, y), as mesh polygons
	int32_t n[3];     // n[i]: the triangle across edge v[i] -> v[i + 1]; -1 on the rectangle's side
	uint8_t fixed[3]; // edge i is a constraint, never flipped
} gtCdtTriangle;

typedef struct gtCdt {
	const int32_t *x, *y;
	int point_count;
	gtCdtTriangle* t;
	int count;
	int32_t* vertex_triangle; // a triangle holding each point once it is in
	int32_t* pending;         // scratch: edges to check (triangle * 3 + edge) or to flip (vertex pairs)
	int64_t pending_capacity;
	int last; // where the next point location starts
} gtCdt;

// Triangulates the points (x[i], y[i]), all in [0, w] x [0, h] and distinct, whose first four are
// the rectangle's corners (0, 0), (w, 0), (w, h), (0, h). The arrays must outlive the triangulation;
// gt_cdt_free releases it, also after a failure.
gtStatus gt_cdt_triangulate(gtCdt* c, const int32_t* x, const int32_t* y, int count, int w, int h, gtError* err);

// Makes segment a-b an edge that later steps never flip. Segments must not cross each other nor
// pass through a point.
gtStatus gt_cdt_constrain(gtCdt* c, int a, int b, gtError* err);

// Flips every edge that is not a constraint until the triangulation is constrained Delaunay.
gtStatus gt_cdt_make_delaunay(gtCdt* c, gtError* err);

void gt_cdt_free(gtCdt* c);

#endif
