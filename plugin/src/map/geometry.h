// Geometry helpers shared by the visibility graph and the oracle. Not part of the public API.
#ifndef GRIDTREE_GEOMETRY_H
#define GRIDTREE_GEOMETRY_H

#include <stdbool.h>

#include "gridtree/gt_map.h"

gtCorner gt_corner_kind(int mask);

// gtMap_Visible without validating the endpoints: both must already be valid points.
bool gt_visible_unchecked(const gtMap* m, gtVec2 a, gtVec2 b);

// gt_visible_unchecked for two valid grid points given by their integer coordinates: the same
// answer without converting and checking the coordinates again (an EHL query's many tests).
bool gt_visible_grid_points(const gtMap* m, int ax, int ay, int bx, int by);

// Co-visibility of two convex vertices (never pinch points): the exact integer walk.
bool gt_vertices_visible(const gtMap* m, gtVertex a, gtVertex b);

// False when p is a pinch point and the segment towards `other` leaves into the wrong side.
bool gt_pinch_side_ok(const gtMap* m, gtVec2 p, gtVec2 other);

#endif
