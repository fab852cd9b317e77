// Point validity, corner classification and the exact visibility predicate (docs/algorithms.md 2).
#include <math.h>

#include "map/geometry.h"
#include "map/map_internal.h"

const char* gtPointCheckName(gtPointCheck check)
{
	switch (check) {
	case GT_POINT_VALID: return "valid";
	case GT_POINT_NOT_FINITE: return "coordinate is not a finite number";
	case GT_POINT_OFF_MAP: return "point is off the map";
	case GT_POINT_IN_WALL: return "point is inside a blocked cell";
	}
	return "unknown";
}

// floor() for the non-negative, bounded coordinates of checked points: truncation, which the
// compiler inlines (floor() is a library call on the baseline x86-64 target).
static inline int floor_nonnegative(double v)
{
	return (int)v;
}

gtPointCheck gtMap_CheckPoint(const gtMap* map, gtVec2 p)
{
	if (!isfinite(p.x) || !isfinite(p.y)) return GT_POINT_NOT_FINITE;
	if (p.x < 0 || p.y < 0 || p.x > map->width || p.y > map->height) return GT_POINT_OFF_MAP;
	int cx = floor_nonnegative(p.x), cy = floor_nonnegative(p.y); // p is inside [0, W] x [0, H] here
	if (p.x != cx && p.y != cy) return gt_blocked(map, cx, cy) ? GT_POINT_IN_WALL : GT_POINT_VALID; // inside one cell
	// A point on a cell edge (or corner) lies in the closed squares on both sides of it.
	int cx0 = (p.x == cx) ? cx - 1 : cx;
	int cy0 = (p.y == cy) ? cy - 1 : cy;
	for (int y = cy0; y <= cy; y++)
		for (int x = cx0; x <= cx; x++)
			if (!gt_blocked(map, x, y)) return GT_POINT_VALID;
	return GT_POINT_IN_WALL;
}

gtCorner gtMap_ClassifyCorner(const gtMap* map, int x, int y)
{
	if (x < 0 || y < 0 || x > map->width || y > map->height) return GT_CORNER_INTERIOR;
	return gt_corner_kind(gt_corner_mask(map, x, y));
}

gtCorner gt_corner_kind(int mask)
{
	switch (mask) {
	case 0x0: return GT_CORNER_OPEN;
	case 0x1:
	case 0x2:
	case 0x4:
	case 0x8: return GT_CORNER_CONVEX;
	case 0x3:
	case 0x5:
	case 0xA:
	case 0xC: return GT_CORNER_WALL;
	case 0x6:
	case 0x9: return GT_CORNER_PINCH;
	case 0xF: return GT_CORNER_INTERIOR;
	default: return GT_CORNER_CONCAVE;
	}
}

/* ---- exact orientation ----------------------------------------------------------------------
 * The walk compares where the segment crosses the next column line and the next row line. With
 * integer endpoints the products are small integers and exact in double. With arbitrary doubles we
 * first trust the rounded value when it is clear of Shewchuk's error bound for this expression, and
 * otherwise sum the six exact products as a non-overlapping expansion (TwoProduct via fma). */

static void two_sum(double a, double b, double* sum, double* err)
{
	double s = a + b;
	double bv = s - a;
	double av = s - bv;
	*sum = s;
	*err = (a - av) + (b - bv);
}

// Adds q to the expansion e[0..n) (increasing magnitude, non-overlapping); returns the new length.
static int grow_expansion(double* e, int n, double q)
{
	for (int i = 0; i < n; i++) two_sum(q, e[i], &q, &e[i]);
	e[n] = q;
	return n + 1;
}

static int sign_of(double v)
{
	return (v > 0) - (v < 0);
}

// The sign of the sum of n doubles, exactly.
static int sum_sign(const double* terms, int n) // n <= 12
{
	double e[12];
	int m = 0;
	for (int i = 0; i < n; i++) m = grow_expansion(e, m, terms[i]);
	for (int i = m - 1; i >= 0; i--)
		if (e[i] != 0) return sign_of(e[i]);
	return 0;
}

// Exact sign of (p - a) x (b - a). Usually the four coordinate differences are exact (points
// with few significant bits, as on a grid with binary fractions: the near-ties the walks meet):
// then the two products and their rounding errors (fma) are four terms. Otherwise the six
// products of the expanded determinant, twelve terms.
static int cross_sign_exact(gtVec2 a, gtVec2 b, double px, double py)
{
	double A, B, C, D, ea, eb, ec, ed;
	two_sum(px, -a.x, &A, &ea);
	two_sum(b.y, -a.y, &B, &eb);
	two_sum(py, -a.y, &C, &ec);
	two_sum(b.x, -a.x, &D, &ed);
	if (ea == 0 && eb == 0 && ec == 0 && ed == 0) {
		double p1 = A * B, p2 = C * D;
		const double terms[4] = {fma(A, B, -p1), -fma(C, D, -p2), p1, -p2};
		return sum_sign(terms, 4);
	}
	const double factors[6][3] = {
	    {px, b.y, 1}, {px, a.y, -1}, {a.x, b.y, -1}, {py, b.x, -1}, {py, a.x, 1}, {a.y, b.x, 1},
	};
	double terms[12];
	for (int i = 0; i < 6; i++) {
		double prod = factors[i][0] * factors[i][1];
		terms[2 * i] = factors[i][2] * fma(factors[i][0], factors[i][1], -prod);
		terms[2 * i + 1] = factors[i][2] * prod;
	}
	return sum_sign(terms, 12);
}

typedef struct Segment {
	gtVec2 a, b, d;
	bool integral; // both endpoints have integer coordinates
} Segment;

static int cross_sign(const Segment* s, double px, double py)
{
	double left = (px - s->a.x) * s->d.y;
	double right = (py - s->a.y) * s->d.x;
	double det = left - right;
	if (s->integral) return sign_of(det);
	double bound = 3.3306690738754716e-16 * (fabs(left) + fabs(right));
	if (det > bound || -det > bound) return sign_of(det);
	return cross_sign_exact(s->a, s->b, px, py);
}

static bool is_integer(double v)
{
	return v == (double)(int64_t)v; // only called with in-map coordinates
}

bool gt_pinch_side_ok(const gtMap* m, gtVec2 p, gtVec2 other)
{
	if (!is_integer(p.x) || !is_integer(p.y)) return true;
	int mask = gt_corner_mask(m, (int)p.x, (int)p.y);
	if (!gt_is_pinch_mask(mask)) return true;
	double dx = other.x - p.x, dy = other.y - p.y;
	// 0x6: cells (x, y-1) and (x-1, y) blocked, so cell (x, y) is free: leave towards +x, +y.
	// 0x9: cells (x-1, y-1) and (x, y) blocked: the +x side is cell (x, y-1): leave towards +x, -y.
	return dx >= 0 && (mask == 0x6 ? dy >= 0 : dy <= 0);
}

// Segment lying on the column line x = X (when vertical) or the row line y = X (when horizontal).
static bool grid_line_visible(const gtMap* m, bool vertical, int X, double from, double to)
{
	double lo = fmin(from, to), hi = fmax(from, to);
	int first = floor_nonnegative(lo), last = floor_nonnegative(hi); // unit intervals overlapping in length
	if ((double)last == hi) last--;
	for (int j = first; j <= last; j++) {
		bool both = vertical ? gt_blocked(m, X - 1, j) && gt_blocked(m, X, j)
		                     : gt_blocked(m, j, X - 1) && gt_blocked(m, j, X);
		if (both) return false;
	}
	for (int j = first + 1; j <= last; j++) { // integers strictly inside (lo, hi)
		int mask = vertical ? gt_corner_mask(m, X, j) : gt_corner_mask(m, j, X);
		if (gt_is_pinch_mask(mask)) return false;
	}
	return true;
}

/* ---- the walks ------------------------------------------------------------------------------
 * Both walks visit the cells the open segment passes through, in order, and stop at a blocked one.
 * With `jumps` they read the open grid (map_internal.h) instead of the cells: from a cell whose
 * free square of radius r >= JUMP_RADIUS is centred on it, they go at once to the last cell of the
 * walk inside that square, with the line counters the cell-by-cell walk would have there. Nothing
 * inside the square can stop the walk (every cell is free, every grid point strictly inside has
 * four free cells, so none is a pinch), and the exit, a line of the square's border, is taken by
 * the ordinary step with its exact tie rules. Without `jumps` they are the plain walks, kept as
 * the reference (gtMap_VisibleCellByCell). */

// Radius from which a jump pays: it costs about what a few cell steps cost.
#define JUMP_RADIUS 1

// The walk's view of a grid byte: blocked cells are 1 in m->blocked and 0 in m->open.
static inline bool is_blocked(unsigned char v, bool jumps)
{
	return jumps ? v == 0 : v != 0;
}

// Integer endpoints, neither coordinate equal: the walk with incremental error terms. The next
// column line is crossed at parameter nx / |dx|, the next row line at ny / |dy|; comparing
// nx * |dy| with ny * |dx| needs only additions.
static inline bool integral_walk(const gtMap* m, int ax, int ay, int bx, int by, bool jumps)
{
	int sx = bx > ax ? 1 : -1, sy = by > ay ? 1 : -1;
	int64_t adx = sx * (int64_t)(bx - ax), ady = sy * (int64_t)(by - ay);
	int cx = ax - (sx < 0), cy = ay - (sy < 0);
	const unsigned char* cell = (jumps ? m->open : m->blocked) + (cy + 1) * m->stride + (cx + 1);
	const int step_y = sy * m->stride;
	int64_t nx = 1, ny = 1, ex = ady, ey = adx;
	for (;;) {
		// One test for both a blocked cell (0 wraps around) and a square worth a jump.
		if (jumps && (unsigned)(*cell - 1) >= JUMP_RADIUS) {
			if (*cell == 0) return false;
			// Lines nx .. nx + r - 1 are inside the square; lines nx + r leave it.
			int64_t r = *cell - 1, exit_x = nx + r, exit_y = ny + r;
			bool leaves_x = exit_x < adx, leaves_y = exit_y < ady;
			if (!leaves_x && !leaves_y) return true;                // b's cell is inside the square
			int64_t tx_exit = exit_x * ady, ty_exit = exit_y * adx; // the exits' parameters, times |dx dy|
			int64_t to_x = exit_x, to_y = exit_y; // through the square's corner: the step's tie rule takes it
			if (leaves_x && (!leaves_y || tx_exit < ty_exit)) // through the side at column line exit_x
				to_y = (tx_exit - 1) / adx + 1;               // row lines k with k |dx| < tx_exit are behind
			else if (!leaves_x || ty_exit < tx_exit) to_x = (ty_exit - 1) / ady + 1;
			cell += (to_x - nx) * sx + (to_y - ny) * step_y;
			nx = to_x, ny = to_y, ex = nx * ady, ey = ny * adx;
			continue;
		}
		if (!jumps && *cell) return false;
		bool cross_x = nx < adx, cross_y = ny < ady;
		if (cross_x && cross_y) {
			if (ex == ey) { // through a grid point: both side cells blocked means a pinch (or a wall)
				if (is_blocked(cell[sx], jumps) && is_blocked(cell[step_y], jumps)) return false;
				cell += sx + step_y;
				nx++, ny++, ex += ady, ey += adx;
			} else if (ex < ey) {
				cell += sx;
				nx++, ex += ady;
			} else {
				cell += step_y;
				ny++, ey += adx;
			}
		} else if (cross_x) {
			cell += sx;
			nx++, ex += ady;
		} else if (cross_y) {
			cell += step_y;
			ny++, ey += adx;
		} else {
			return true;
		}
	}
}

// The general walk's lines: column line i (from 0) is X = first_x + i * sx, crossed at parameter
// (offset_x + i * sx) * inverse_x; there are lines_x of them before b. Rows alike.
typedef struct Lines {
	Segment s;
	int sx, sy, first_x, first_y;
	int64_t lines_x, lines_y;
	double offset_x, offset_y, inverse_x, inverse_y;
} Lines;

static inline double column_t(const Lines* l, int64_t i)
{
	return i < l->lines_x ? (l->offset_x + (double)(i * l->sx)) * l->inverse_x : INFINITY;
}

static inline double row_t(const Lines* l, int64_t j)
{
	return j < l->lines_y ? (l->offset_y + (double)(j * l->sy)) * l->inverse_y : INFINITY;
}

// Which of column line i and row line j the segment crosses first (both exist): -1 the column, 1
// the row, 0 both at once (through grid point (X_i, Y_j)). The parameters are compared in floating
// point where they are more than 1e-12 apart (their rounding error is below 1e-15: each is one
// subtraction, one addition and one product); near-ties go to the exact predicate.
static int crossing_order(const Lines* l, int64_t i, int64_t j, double ti, double tj)
{
	if (ti < tj - 1e-12) return -1;
	if (ti > tj + 1e-12) return 1;
	double X = l->first_x + (double)(i * l->sx), Y = l->first_y + (double)(j * l->sy);
	return cross_sign(&l->s, X, Y) * l->sx * l->sy;
}

// How many row lines from j0 on (at most up to j1 <= lines_y) are crossed strictly before column
// line i: estimated from where the segment meets the column line, then settled exactly.
static int64_t rows_before_column(const Lines* l, int64_t i, int64_t j0, int64_t j1)
{
	double ti = column_t(l, i);
	double guess = ((ti * l->s.d.y) - l->offset_y) * l->sy; // the row index the segment is at
	int64_t j = guess < (double)j0 ? j0 : guess > (double)j1 ? j1 : (int64_t)guess + 1;
	while (j > j0 && crossing_order(l, i, j - 1, ti, row_t(l, j - 1)) <= 0) j--;
	while (j < j1 && crossing_order(l, i, j, ti, row_t(l, j)) > 0) j++;
	return j;
}

static int64_t columns_before_row(const Lines* l, int64_t j, int64_t i0, int64_t i1)
{
	double tj = row_t(l, j);
	double guess = ((tj * l->s.d.x) - l->offset_x) * l->sx;
	int64_t i = guess < (double)i0 ? i0 : guess > (double)i1 ? i1 : (int64_t)guess + 1;
	while (i > i0 && crossing_order(l, i - 1, j, column_t(l, i - 1), tj) >= 0) i--;
	while (i < i1 && crossing_order(l, i, j, column_t(l, i), tj) < 0) i++;
	return i;
}

// A jump across the free square of radius r around the current cell (the walk has crossed nx
// column and ny row lines): the counters of the last cell inside it, or false when b is inside it.
static bool jump_square(const Lines* l, int64_t r, int64_t* nx, int64_t* ny)
{
	int64_t exit_x = *nx + r, exit_y = *ny + r;
	bool leaves_x = exit_x < l->lines_x, leaves_y = exit_y < l->lines_y;
	if (!leaves_x && !leaves_y) return false;
	int order = !leaves_y   ? -1
	            : !leaves_x ? 1
	                        : crossing_order(l, exit_x, exit_y, column_t(l, exit_x), row_t(l, exit_y));
	if (order < 0) {
		*ny = rows_before_column(l, exit_x, *ny, leaves_y ? exit_y : l->lines_y);
		*nx = exit_x;
	} else if (order > 0) {
		*nx = columns_before_row(l, exit_y, *nx, leaves_x ? exit_x : l->lines_x);
		*ny = exit_y;
	} else {
		*nx = exit_x, *ny = exit_y;
	}
	return true;
}

// Any endpoints (the segment is not on a grid line): the cell walk of Amanatides and Woo, with the
// parameters of the next column and row line compared by crossing_order.
static inline bool general_walk(const gtMap* m, gtVec2 a, gtVec2 b, int sx, int sy, bool jumps)
{
	Lines l = {{a, b, {b.x - a.x, b.y - a.y}, false}, sx, sy, 0, 0, 0, 0, 0, 0, 0, 0};
	// Start in the cell the segment enters immediately after leaving a.
	int cx = floor_nonnegative(a.x), cy = floor_nonnegative(a.y);
	if (sx < 0 && a.x == cx) cx--;
	if (sy < 0 && a.y == cy) cy--;
	// Column lines crossed strictly before b: X = first_x, first_x + sx, ...; rows alike.
	l.first_x = sx > 0 ? cx + 1 : cx, l.first_y = sy > 0 ? cy + 1 : cy;
	l.lines_x = sx > 0 ? (int64_t)ceil(b.x) - 1 - cx : sx < 0 ? cx - (int64_t)floor(b.x) : 0;
	l.lines_y = sy > 0 ? (int64_t)ceil(b.y) - 1 - cy : sy < 0 ? cy - (int64_t)floor(b.y) : 0;
	l.offset_x = l.first_x - a.x, l.offset_y = l.first_y - a.y;
	l.inverse_x = sx ? 1.0 / l.s.d.x : 0, l.inverse_y = sy ? 1.0 / l.s.d.y : 0;
	const unsigned char* cell = (jumps ? m->open : m->blocked) + (int64_t)(cy + 1) * m->stride + (cx + 1);
	const int64_t step_y = sy * (int64_t)m->stride;
	// Parameters of the next column and row line crossed; +inf once there is none before b. Each
	// is recomputed from its line number, never accumulated, so its error stays below 1e-15.
	int64_t nx = 0, ny = 0;
	double tx = column_t(&l, 0), ty = row_t(&l, 0);
	for (;;) {
		if (is_blocked(*cell, jumps)) return false;
		if (jumps && *cell > JUMP_RADIUS) {
			int64_t from_x = nx, from_y = ny;
			if (!jump_square(&l, *cell - 1, &nx, &ny)) return true;
			cell += (nx - from_x) * sx + (ny - from_y) * step_y;
			tx = column_t(&l, nx), ty = row_t(&l, ny);
			continue;
		}
		// Negative: the column line comes first; zero: the segment passes through grid point (X, Y).
		int order;
		if (tx == INFINITY && ty == INFINITY) return true; // no line left on either axis: b's cell is reached
		order = tx == INFINITY ? 1 : ty == INFINITY ? -1 : crossing_order(&l, nx, ny, tx, ty);
		if (order == 0) {
			int X = l.first_x + (int)nx * sx, Y = l.first_y + (int)ny * sy;
			if (gt_is_pinch_mask(gt_corner_mask(m, X, Y))) return false;
			cell += sx + step_y; // the two side cells are only touched at (X, Y): a grazed corner is fine
			nx++, ny++;
			tx = column_t(&l, nx), ty = row_t(&l, ny);
		} else if (order < 0) {
			cell += sx;
			nx++;
			tx = column_t(&l, nx);
		} else {
			cell += step_y;
			ny++;
			ty = row_t(&l, ny);
		}
	}
}

bool gt_vertices_visible(const gtMap* m, gtVertex a, gtVertex b)
{
	if (a.x == b.x) return a.y == b.y || grid_line_visible(m, true, a.x, a.y, b.y);
	if (a.y == b.y) return grid_line_visible(m, false, a.y, a.x, b.x);
	return integral_walk(m, a.x, a.y, b.x, b.y, true);
}

static inline bool visible_unchecked(const gtMap* m, gtVec2 a, gtVec2 b, bool jumps)
{
	if (a.x == b.x && a.y == b.y) return true;
	if (m->pinch_count > 0 && (!gt_pinch_side_ok(m, a, b) || !gt_pinch_side_ok(m, b, a))) return false;
	int sx = (b.x > a.x) - (b.x < a.x);
	int sy = (b.y > a.y) - (b.y < a.y);
	if (sx == 0 && is_integer(a.x)) return grid_line_visible(m, true, (int)a.x, a.y, b.y);
	if (sy == 0 && is_integer(a.y)) return grid_line_visible(m, false, (int)a.y, a.x, b.x);

	bool integral = is_integer(a.x) && is_integer(a.y) && is_integer(b.x) && is_integer(b.y);
	if (integral) return integral_walk(m, (int)a.x, (int)a.y, (int)b.x, (int)b.y, jumps);
	return general_walk(m, a, b, sx, sy, jumps);
}

bool gt_visible_unchecked(const gtMap* m, gtVec2 a, gtVec2 b)
{
	return visible_unchecked(m, a, b, true);
}

bool gtMap_Visible(const gtMap* map, gtVec2 a, gtVec2 b)
{
	if (gtMap_CheckPoint(map, a) != GT_POINT_VALID || gtMap_CheckPoint(map, b) != GT_POINT_VALID) return false;
	return visible_unchecked(map, a, b, true);
}

bool gtMap_VisibleCellByCell(const gtMap* map, gtVec2 a, gtVec2 b)
{
	if (gtMap_CheckPoint(map, a) != GT_POINT_VALID || gtMap_CheckPoint(map, b) != GT_POINT_VALID) return false;
	return visible_unchecked(map, a, b, false);
}
