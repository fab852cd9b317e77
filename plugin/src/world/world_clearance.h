// Static per-cell data of a world's map for its queries: how far a point sees in every direction.
// Internal.
#ifndef GRIDTREE_WORLD_CLEARANCE_H
#define GRIDTREE_WORLD_CLEARANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "map/map_internal.h"

// Per cell of the map (row-major), r: the cells within r steps of it in x and in y (a square of
// side 2r + 1 around it) are all free, so every point of the cell's closed box is at least r from
// any blocked cell in both axes. Two points p, o with max(|dx|, |dy|) < r_p + r_o then see each
// other: each point of the segment between them lies strictly inside one of the two squares.
//
// r is capped at GT_CLEARANCE_CAP and kept in 4 bits, two cells a byte: the walks' cells are cold
// more often than not, and half the bytes stay cached twice as long. The cap costs the walks
// nothing where corridors are narrow (callgrind, bench-peers at 1% without words: orz103d and
// lak303d the same instructions; AR0602SR +1 a query). The cells are kept in tiles of 16 x 8, a
// cache line each (gt_clearance_cell), so that the few lines a segment crosses can be asked for at
// once (gt_clearance_sight); by rows a steep segment crosses a line a row.
#define GT_CLEARANCE_CAP 15
#define GT_CLEARANCE_TILE_X 16 // 1 << 4 (gt_clearance_cell)
#define GT_CLEARANCE_TILE_Y 8  // 1 << 3
typedef struct gtClearance {
	uint8_t* r;    // the tiles, r aligned to a line
	void* storage; // what was allocated (r is inside)
	int width, height;
	int64_t tiles_x;          // tiles a row (width % 16 == 0: a point on the far edge falls one past the row)
	double width_d, height_d; // the same, for the range tests of points
	uint64_t fingerprint;     // of the map it was computed from
} gtClearance;

// Computes it for the map as it is now; false (and nothing kept) when out of memory or the map has
// more than GT_CLEARANCE_MAX_CELLS cells (its queries then price every object).
#define GT_CLEARANCE_MAX_CELLS (INT64_C(1) << 24)
bool gt_clearance_build(gtClearance* c, const gtMap* map);
void gt_clearance_free(gtClearance* c);

// Whether `c` may certify sight on `map`: computed from a map with the same cells.
static inline bool gt_clearance_fits(const gtClearance* c, const gtMap* map)
{
	return c->r && map && map->fingerprint == c->fingerprint && map->width == c->width && map->height == c->height;
}

// The half-byte of cell (x, y) of the map: its tile's 128, by rows of tiles, then the cell's place
// in the tile, by rows.
static inline int64_t gt_clearance_cell(const gtClearance* c, int x, int y)
{
	return ((int64_t)(y >> 3) * c->tiles_x + (x >> 4)) << 7 | (int64_t)((y & 7) << 4 | (x & 15));
}

// The byte where the tile of cell (x, y) begins (x from 0 to the width, y to the height: the tiles
// of points on the far edges too).
static inline int64_t gt_clearance_tile(const gtClearance* c, int x, int y)
{
	return ((int64_t)(y >> 3) * c->tiles_x + (x >> 4)) << 6;
}

// r of the cell under p; 0 off the map (p on its far edges included).
static inline double gt_clearance_at(const gtClearance* c, double x, double y)
{
	if (!(x >= 0 && y >= 0 && x < c->width_d && y < c->height_d)) return 0; // NaN too
	int64_t i = gt_clearance_cell(c, (int)x, (int)y);
	return c->r[i >> 1] >> ((i & 1) << 2) & 15;
}

// Whether a (clearance ra) and b (clearance rb: gt_clearance_at(c, b.x, b.y), which a world keeps
// per object) see each other: 1 when no blocked cell of `map` touches the segment between (then
// they are the straight line apart), -1 when it crosses one (they do not see each other), 0 when
// this does not tell. By squares along the segment first: a's square covers it
// up to ra from a (in the larger axis), b's from b, and each point walked to, where the cover ends,
// adds its own square's r (less a margin for the rounding of the point). Where a cell of clearance
// 0 stops the walk (a point within a cell of a wall) or after GT_SIGHT_STEPS points, the rest is
// looked at on `map` (the map the clearance was computed from, or one with the same cells; NULL: 0).
// Out of line: inlined, the caller's loop left its other helpers out of line (+5% instructions).
#define GT_SIGHT_STEPS 8
int gt_clearance_sight(const gtClearance* c, const gtMap* map, gtVec2 a, double ra, gtVec2 b, double rb);

// Whether a few points of the segment from a to b (its middle and quarters) show that it
// crosses a blocked cell of `map`: true when the first blocked cell met has the point farther
// inside than its rounding (then a and b do not see each other), false when that does not tell
// (no point blocked, one on a cell's edge, or one off the map). A handful of loads where the line
// test it spares walks every row the segment crosses (~400 instructions on lak303d at 0.1%).
bool gt_segment_hidden(const gtMap* map, gtVec2 a, gtVec2 b);

#endif
