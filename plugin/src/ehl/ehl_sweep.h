// Taut visible region of a convex vertex by the exact octant column sweep (docs/algorithms.md 5.6):
// which unit cells of the map every point of (FULL), some point of (PARTIAL) or no point of
// sees the vertex inside its two taut quadrants. Internal.
#ifndef GRIDTREE_EHL_SWEEP_H
#define GRIDTREE_EHL_SWEEP_H

#include <stdbool.h>

#include "gridtree/gt_map.h"

enum { GT_UNIT_PARTIAL = 1, GT_UNIT_FULL = 2 };
// Two of the sweep's cell_flags bits that gt_sweep_status reads, which the link ends' regions
// (ehl_links.c) set too: a cell some point of which is seen, and one seen whole.
enum { GT_SWEEP_FLAG_ANY = 1, GT_SWEEP_FLAG_FULL_ONE = 4 };

typedef struct gtSlopeInterval gtSlopeInterval;

// Per-thread scratch, sized for one map; reused for every vertex.
typedef struct gtSweep {
	const gtMap* map;
	uint32_t stamp;       // current vertex + 1
	uint32_t* cell_stamp; // width * height
	uint8_t* cell_flags;
	int32_t* touched; // unit cells (y * width + x) seen for the current vertex
	int touched_count;
	gtSlopeInterval* slopes[2]; // current and next slope set
	int slope_capacity;
} gtSweep;

gtStatus gt_sweep_init(gtSweep* sweep, const gtMap* map, gtError* err);
void gt_sweep_free(gtSweep* sweep);

// Computes the region of vertex v. Afterwards touched[0..touched_count) lists every unit cell
// with a status, readable with gt_sweep_status.
gtStatus gt_sweep_vertex(gtSweep* sweep, gtVertex v, gtError* err);
// The directions from vertex v towards a box of grid points: those between lo and hi (vectors from
// v), under less than 180 degrees.
typedef struct gtSweepSector {
	int vx, vy;
	int64_t lo[2], hi[2];
} gtSweepSector;

// The sector from v towards box (x0, y0, x1, y1, grid points, closed); false when v is in the box.
bool gt_sweep_sector(gtVertex v, const int box[4], gtSweepSector* out);
// Whether the box of grid points (closed) lies within the sector and does not hold its vertex.
bool gt_sweep_sector_holds(const gtSweepSector* sector, int x0, int y0, int x1, int y1);
// gt_sweep_vertex within the sector's directions only: the unit cells inside the sector (as
// gt_sweep_sector_holds says) get the status gt_sweep_vertex gives them; the others are not to be read.
gtStatus gt_sweep_vertex_in(gtSweep* sweep, gtVertex v, const gtSweepSector* sector, gtError* err);
int gt_sweep_status(const gtSweep* sweep, int32_t cell);

#endif
