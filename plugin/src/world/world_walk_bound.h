// Static lower bounds of the walking distance between parts of a world's map, for its queries.
// Internal.
#ifndef GRIDTREE_WORLD_WALK_BOUND_H
#define GRIDTREE_WORLD_WALK_BOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "map/map_internal.h"

// The map is cut into square blocks of 2^shift cells; a group is a connected part of a block's
// free cells (cells touching at a corner connect). group[cell] is the free cell's group (-1 for a
// blocked cell) and lb[a * groups + b] a lower bound, in whole map units, of every walk through the
// map's free cells from a point of a cell of group a to a point of a cell of group b (0 from a
// group to itself, GT_WALK_BOUND_NONE when none leads there, 65534 for any bound above). Made from
// the map alone: world_walk_bound.c and docs/grid-tree.md tell why it holds.
#define GT_WALK_BOUND_NONE 65535
typedef struct gtWalkBound {
	uint16_t* lb;
	int16_t* group;
	int shift, groups;
	int width, height;
	double width_d, height_d;
	uint64_t fingerprint; // of the map it was computed from
} gtWalkBound;

// Blocks of at least 16 cells, larger until the groups fit GT_WALK_BOUND_MAX_GROUPS (the table,
// groups^2 * 2 bytes, at most 2 MB) and the searches GT_WALK_BOUND_MAX_WORK relaxations (about
// 30 instructions each, on two threads: AR0602SR's 512 x 512 cells take about 0.2 G instructions,
// in blocks of 32; lak303d's 194 x 194 in blocks of 16, 155 groups, about 0.14 G). Blocks of 16
// fit small maps and caves only (AR0602SR's 576 groups would take 54 M relaxations) and there
// bound the short walks a 1% world's nearest queries price (docs/grid-tree.md).
#define GT_WALK_BOUND_MIN_SHIFT 4
#define GT_WALK_BOUND_MAX_GROUPS 1024
#define GT_WALK_BOUND_MAX_WORK INT64_C(20000000)
// Portals on a block's side are pieces of at most 1 / GT_WALK_BOUND_PIECES of it.
#define GT_WALK_BOUND_PIECES 4
// Set in group[] on a free cell whose top-left corner is a pinch point (two blocked cells meet
// there diagonally, gt_map.h): no walk passes it, so a point there has no group.
#define GT_WALK_BOUND_PINCH 0x4000
// Computes it for the map as it is now; false (and nothing kept) when out of memory or the map is
// over 2^24 cells (queries then use the straight line alone).
bool gt_walk_bound_build(gtWalkBound* b, const gtMap* map);
void gt_walk_bound_free(gtWalkBound* b);

// Whether `b` holds for distances that are walks on `map`: computed from a map with the same cells.
static inline bool gt_walk_bound_fits(const gtWalkBound* b, const gtMap* map)
{
	return b->lb && map && map->fingerprint == b->fingerprint && map->width == b->width && map->height == b->height;
}

// The group of a free cell holding p when p is on an edge of its cell (the cell under p blocked).
int32_t gt_walk_bound_edge_group(const gtWalkBound* b, double x, double y);

// The group of a free cell whose closed box holds p; -1 when there is none (p off the map, NaN, or
// inside a blocked cell).
static inline int32_t gt_walk_bound_group(const gtWalkBound* b, double x, double y)
{
	if (!(x >= 0 && y >= 0 && x <= b->width_d && y <= b->height_d)) return -1;
	int cx = (int)x, cy = (int)y; // (int) truncates: floor for x >= 0
	if (cx == b->width) cx--;
	if (cy == b->height) cy--;
	int32_t g = b->group[(int64_t)cy * b->width + cx];
	return g >= 0 && g < GT_WALK_BOUND_PINCH ? g : gt_walk_bound_edge_group(b, x, y);
}

// The bounds from q to every group (lb's row), or NULL when q is in no free cell.
static inline const uint16_t* gt_walk_bound_row(const gtWalkBound* b, double x, double y)
{
	int32_t g = gt_walk_bound_group(b, x, y);
	return g < 0 ? NULL : b->lb + (int64_t)g * b->groups;
}

// The bound from q (whose row is `row`) to p; 0 when p is in no free cell.
static inline double gt_walk_bound_to(const gtWalkBound* b, const uint16_t* row, double x, double y)
{
	int32_t g = gt_walk_bound_group(b, x, y);
	return g < 0 ? 0 : (double)row[g];
}

#endif
