// The clearance grid of world_clearance.h: a chessboard distance transform of the blocked cells.
#include "world/world_clearance.h"

#include <math.h>

#include "core/alloc.h"
#include "map/map_internal.h"

bool gt_clearance_build(gtClearance* c, const gtMap* map)
{
	*c = (gtClearance){0};
	int w = gtMap_Width(map), h = gtMap_Height(map);
	if (w <= 0 || h <= 0 || (int64_t)w * h > GT_CLEARANCE_MAX_CELLS) return false;
	uint8_t* r = gt_malloc((size_t)w * (size_t)h);
	if (!r) return false;
	// D = chessboard distance (in cells) to the nearest blocked cell, the map's border included
	// (outside cells count as blocked, D 0): two passes of the 8-neighbour chamfer with unit steps
	// give it exactly. Kept as D - 1 (the square of side 2D - 1 around the cell is free), capped.
	enum { CAP = 255 };
#define AT(x, y) ((x) < 0 || (y) < 0 || (x) >= w || (y) >= h ? 0 : r[(int64_t)(y)*w + (x)])
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int d = 0;
			if (!gt_blocked(map, x, y)) {
				d = AT(x - 1, y);
				if (AT(x - 1, y - 1) < d) d = AT(x - 1, y - 1);
				if (AT(x, y - 1) < d) d = AT(x, y - 1);
				if (AT(x + 1, y - 1) < d) d = AT(x + 1, y - 1);
				d = d + 1 < CAP ? d + 1 : CAP;
			}
			r[(int64_t)y * w + x] = (uint8_t)d;
		}
	for (int y = h - 1; y >= 0; y--)
		for (int x = w - 1; x >= 0; x--) {
			int d = r[(int64_t)y * w + x];
			if (d == 0) continue;
			int n = AT(x + 1, y);
			if (AT(x + 1, y + 1) < n) n = AT(x + 1, y + 1);
			if (AT(x, y + 1) < n) n = AT(x, y + 1);
			if (AT(x - 1, y + 1) < n) n = AT(x - 1, y + 1);
			if (n + 1 < d) r[(int64_t)y * w + x] = (uint8_t)(n + 1);
		}
#undef AT
	// Stored as D - 1 only now (the passes above need D itself, 0 only on blocked cells), capped at
	// GT_CLEARANCE_CAP, two cells a byte in tiles (gt_clearance_at), a row of tiles_x per tile row
	// and a row more below (the walk's hints ask for the tiles of points up to the far edges:
	// hint_tiles; when the width is a multiple of the tile's, a point on the right edge falls one tile
	// past its row, into the next row's first, still inside the block; the cells past the map's
	// edges are never read), and a line more to align the tiles to lines.
	int64_t tiles_x = (w + GT_CLEARANCE_TILE_X - 1) / GT_CLEARANCE_TILE_X, tiles_y = h / GT_CLEARANCE_TILE_Y + 1;
	enum { LINE = GT_CLEARANCE_TILE_X * GT_CLEARANCE_TILE_Y / 2 };
	uint8_t* storage = gt_calloc((size_t)(tiles_y * tiles_x + 2) * LINE, 1);
	if (!storage) {
		gt_free(r);
		return false;
	}
	uint8_t* packed = storage + (LINE - (uintptr_t)storage % LINE) % LINE;
	*c = (gtClearance){packed, storage, w, h, tiles_x, w, h, gtMap_Fingerprint(map)};
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int d = r[(int64_t)y * w + x] ? r[(int64_t)y * w + x] - 1 : 0;
			int64_t i = gt_clearance_cell(c, x, y);
			packed[i >> 1] |= (uint8_t)((d < GT_CLEARANCE_CAP ? d : GT_CLEARANCE_CAP) << ((i & 1) << 2));
		}
	gt_free(r);
	return true;
}

void gt_clearance_free(gtClearance* c)
{
	gt_free(c->storage);
	*c = (gtClearance){0};
}

// Squares from p along (dx, dy) (the segment's direction over its major length): the major
// distance from p they cover, from `covered` on, until it passes `until`, a cell of clearance 0
// stops them or GT_SIGHT_STEPS points are walked.
static inline double squares_from(const gtClearance* c, gtVec2 p, double dx, double dy, double covered, double until)
{
	for (int step = 0; covered <= until && step < GT_SIGHT_STEPS; step++) {
		double r = gt_clearance_at(c, p.x + covered * dx, p.y + covered * dy) - 1e-6;
		if (r <= 0) break;
		covered += r;
	}
	return covered;
}

// Whether cells [c0, c1] of frame row `row` (frame x the segment's major axis: map rows, or map
// columns when steep) are all free, by the map's bits (what the free runs say, in a word or two
// that stay cached).
static inline bool frame_run_free(const gtMap* m, bool steep, int64_t row, int64_t c0, int64_t c1)
{
	return steep ? gt_bits_free(m->bits_y, m->words_y, row + 1, c0 + 1, c1 + 1)
	             : gt_bits_free(m->bits_x, m->words_x, row + 1, c0 + 1, c1 + 1);
}

static inline double min2(double a, double b)
{
	return a < b ? a : b;
}
static inline double max2(double a, double b)
{
	return a > b ? a : b;
}

// The segment's part between major distances `from` and `to` from a (from <= to): true when every
// cell it touches is free, by frame rows (frame x the axis the segment moves more on). Each row's
// span of the part is widened by a margin far above the rounding of the crossings (below 1e-10 for
// coordinates below 2^16), so near a grid point the cells on both sides are checked: a yes means no
// blocked cell touches the part (a segment grazing a corner or running along a wall gets a no, and
// is priced).
static inline bool part_free(const gtMap* m, gtVec2 a, gtVec2 b, double from, double to)
{
	const double margin = 1e-6;
	bool steep = fabs(b.y - a.y) > fabs(b.x - a.x);
	double fx = steep ? a.y : a.x, fy = steep ? a.x : a.y;
	double dx = (steep ? b.y : b.x) - fx, dy = (steep ? b.x : b.y) - fy;
	double length = dx < 0 ? -dx : dx, sx = dx < 0 ? -1 : 1, slope_y = dy / length; // y per major unit
	double x0 = fx + sx * from, x1 = fx + sx * to, y0 = fy + slope_y * from, y1 = fy + slope_y * to;
	double xlo = min2(x0, x1) - margin, xhi = max2(x0, x1) + margin;
	double ylo = min2(y0, y1) - margin, yhi = max2(y0, y1) + margin;
	// floor() of values above -1 (points on the map, less the margin): truncation after a shift.
	int64_t first = (int64_t)(ylo + 1) - 1, last = (int64_t)(yhi + 1) - 1;
	double x_per_y = dy != 0 ? dx / dy : 0;
	for (int64_t row = first; row <= last; row++) {
		double lo = xlo, hi = xhi;
		if (dy != 0) { // the part's x where it is within [row, row + 1] (widened) in y
			double ya = max2((double)row - margin, ylo), yb = min2((double)row + 1 + margin, yhi);
			double xa = fx + (ya - fy) * x_per_y, xb = fx + (yb - fy) * x_per_y;
			lo = max2(min2(xa, xb) - margin, xlo);
			hi = min2(max2(xa, xb) + margin, xhi);
		}
		if (!frame_run_free(m, steep, row, (int64_t)(lo + 1) - 1, (int64_t)(hi + 1) - 1)) return false;
	}
	return true;
}

// Whether point (x, y) of the segment (on the map) lies in a blocked cell, farther inside it than
// the rounding of the point: then the segment crosses that cell.
static inline bool inside_blocked(const gtMap* m, double x, double y)
{
	int cx = (int)x, cy = (int)y;
	if (!gt_blocked_bit(m, cx, cy)) return false;
	double fx = x - cx, fy = y - cy;
	return fx > 1e-9 && fx < 1 - 1e-9 && fy > 1e-9 && fy < 1 - 1e-9;
}

// The middle, then the quarters, of the part [from, from + span] of the segment from a along (ux,
// uy) (the likeliest points inside a wall between two far points): -1 when the first blocked cell
// met has the point farther inside than its rounding (the segment crosses it), 0 when that point is
// on the cell's edge or off the map (not known), 1 when no point is blocked. The eighths too
// proved 5-20% more pairs hidden but cost more where few are (callgrind, bench-peers: AR0300SR at
// 0.1% without words 16,163 -> 16,380 instructions a query, lak303d at 0.1% with two words 5,658
// -> 5,605).
static int probe_blocked(const gtMap* m, gtVec2 a, double ux, double uy, double from, double span)
{
	static const double fractions[] = {0.5, 0.25, 0.75};
	for (int i = 0; i < (int)(sizeof fractions / sizeof *fractions); i++) {
		double at = from + span * fractions[i], x = a.x + at * ux, y = a.y + at * uy;
		if (!(x >= 0 && y >= 0 && x < m->width && y < m->height)) return 0; // NaN too
		if (gt_blocked_bit(m, (int)x, (int)y)) return inside_blocked(m, x, y) ? -1 : 0;
	}
	return 1;
}

// The rest of gt_clearance_sight once the squares from a stop at major distance `covered` (of the
// segment's major length) before b's square, which covers b's last rb.
static int sight_rest(const gtClearance* c, const gtMap* map, gtVec2 a, gtVec2 b, double covered, double rb)
{
	// Both ends on the map, so that the rows and columns read stay inside its blocked border: b is an
	// object, on the map (of the clearance's size) by the world's checks; a is any query point.
	if (!(a.x >= 0 && a.y >= 0 && a.x <= c->width_d && a.y <= c->height_d)) return 0;
	double dx = b.x - a.x, dy = b.y - a.y;
	double length = max2(fabs(dx), fabs(dy));
	if (!(length > 0)) return 0;
	double ux = dx / length, uy = dy / length;
	// Between two walls, the usual reason both walks stop: a point of what is left (its middle, then
	// its quarters) inside a blocked cell says no at once, and the pricing need not try the line.
	int probe = probe_blocked(map, a, ux, uy, covered, length - rb - covered);
	if (probe <= 0) return probe;
	// b's side: back from b towards a, up to where a's squares stopped.
	double from_b = squares_from(c, b, -ux, -uy, rb, length - covered);
	if (from_b > length - covered + 1e-9) return 1; // the two covers overlap
	return part_free(map, a, b, covered, length - from_b) ? 1 : 0;
}

bool gt_segment_hidden(const gtMap* map, gtVec2 a, gtVec2 b)
{
	return probe_blocked(map, a, b.x - a.x, b.y - a.y, 0, 1) < 0;
}

// How far along the segment from where a's square ends the walk asks for its tiles first: what
// GT_SIGHT_STEPS squares of the cap cover.
#define SIGHT_HINT_REACH ((double)GT_SIGHT_STEPS * (GT_CLEARANCE_CAP + 1))

// Most of the tiles that the part [from, to] (from < to) of the segment from a along (ux, uy)
// crosses, asked for, up to SIGHT_HINT_REACH past from: points a tile's height apart, and the last
// (a diagonal may cross a tile between two points that none of them falls in: a hint, not a cover). With a
// on the map every point up to b is (b is an object: on it, its far edges included), so one test of
// a keeps the hints inside the tiles (gt_clearance_build); the points' rounding stays far below a
// cell, and (int) takes a hair below 0 to 0. Always inlined: as a function of its own GCC 12 finds
// it has no effect (prefetches only, in a loop that ends) and drops the call.
static inline __attribute__((always_inline)) void hint_tiles(const gtClearance* c, gtVec2 a, double ux, double uy,
                                                             double from, double to)
{
	if (!(a.x >= 0 && a.y >= 0 && a.x < c->width_d && a.y < c->height_d)) return;
	double span = to - from < SIGHT_HINT_REACH ? to - from : SIGHT_HINT_REACH;
	double x = a.x + from * ux, y = a.y + from * uy;
	const double sx = ux * GT_CLEARANCE_TILE_Y, sy = uy * GT_CLEARANCE_TILE_Y;
	for (int n = (int)(span * (1.0 / GT_CLEARANCE_TILE_Y)); n >= 0; n--, x += sx, y += sy)
		__builtin_prefetch(c->r + gt_clearance_tile(c, (int)x, (int)y));
	__builtin_prefetch(c->r + gt_clearance_tile(c, (int)(a.x + (from + span) * ux), (int)(a.y + (from + span) * uy)));
}

int gt_clearance_sight(const gtClearance* c, const gtMap* map, gtVec2 a, double ra, gtVec2 b, double rb)
{
	double dx = b.x - a.x, dy = b.y - a.y, ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
	double length = ax > ay ? ax : ay, rest = length - rb; // b covers (rest, length]
	double covered = ra;                                   // [0, covered) from a
	if (covered > rest) return 1;
	// The walk is a chain of dependent steps (point, cell, clearance, next point): the direction per
	// major unit is divided out once, off the chain, and a step is a multiply-add and a load.
	double ux = dx / length, uy = dy / length;
	// Each step waits for its cell, which is cold more often than not (the distance's labels and
	// other queries' reads push the clearance out of the caches between walks): asking first for
	// every tile the part no square covers yet crosses, at points a tile's height apart, lets those
	// misses overlap instead of queueing one behind the other (b's squares, read when a's stop,
	// are on that part too). Hints only: the walk reads the same cells it read without them.
	// A zero-length walk (a on b, no radii) has no direction (0/0): no hints, it falls to the walk's
	// own checks.
	if (rest > covered) hint_tiles(c, a, ux, uy, covered, rest);
	for (int step = 0; step < GT_SIGHT_STEPS; step++) {
		double r = gt_clearance_at(c, a.x + covered * ux, a.y + covered * uy) - 1e-6;
		if (r <= 0) break;
		covered += r;
		if (covered > rest) return 1;
	}
	return map ? sight_rest(c, map, a, b, covered, rb) : 0;
}
