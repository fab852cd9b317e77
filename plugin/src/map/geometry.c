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
		double p1 = A * B, p2 = C * D, e1 = fma(A, B, -p1), e2 = fma(C, D, -p2);
		// AB - CD = (p1 - p2) + (e1 - e2) exactly. Equal products round alike, so an exact tie (the
		// segment through a grid point) has p1 == p2; then the sign is e1 - e2's, and a difference
		// of two doubles is zero only when they are equal and otherwise rounds to its own sign.
		if (p1 == p2) return sign_of(e1 - e2);
		const double terms[4] = {e1, -e2, p1, -p2};
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

// Integer endpoints, neither coordinate equal: the plain walk with incremental error terms (the
// reference for runs_walk). The next column line is crossed at parameter nx / |dx|, the next row
// line at ny / |dy|; comparing nx * |dy| with ny * |dx| needs only additions.
static bool integral_walk_visible(const gtMap* m, int ax, int ay, int bx, int by)
{
	int sx = bx > ax ? 1 : -1, sy = by > ay ? 1 : -1;
	int64_t adx = sx * (int64_t)(bx - ax), ady = sy * (int64_t)(by - ay);
	int cx = ax - (sx < 0), cy = ay - (sy < 0);
	const unsigned char* cell = m->blocked + (cy + 1) * m->stride + (cx + 1);
	const int step_y = sy * m->stride;
	int64_t nx = 1, ny = 1, ex = ady, ey = adx;
	for (;;) {
		if (*cell) return false;
		bool cross_x = nx < adx, cross_y = ny < ady;
		if (cross_x && cross_y) {
			if (ex == ey) { // through a grid point: both side cells blocked means a pinch (or a wall)
				if (cell[sx] && cell[step_y]) return false;
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

// The same walk a strip at a time. Along the axis the segment moves more on (the major axis, A
// cells; the other one B <= A), the cells between two consecutive lines of the other axis form one
// run, checked at once against the map's free runs (run_x, run_y). In major units from a, the
// segment meets the k-th minor line at u_k = k A / B = q_k + r_k / B; strip k enters cells
// j = q_k .. q_{k+1} - (r_{k+1} == 0) (a cell that starts exactly at u_{k+1} is not entered).
// Where r_k = 0 it passes through a grid point: both side cells blocked is a pinch (or a wall).
// `base` is strip 0's cell at major coordinate a_major; cell j of a strip is j cells ahead of it
// when `ahead`, else 1 + j behind. Inlined into one copy per (step, ahead) so that both are constants.
static inline __attribute__((always_inline)) bool strips(const unsigned char* base, int64_t A, int64_t B,
                                                         int64_t major_step, int64_t minor_step, bool ahead)
{
	const int64_t qa = A / B, ra = A % B;
	int64_t q = 0, r = 0;
	for (int64_t k = 0; k < B; k++) {
		int64_t q1 = q + qa, r1 = r + ra;
		if (r1 >= B) r1 -= B, q1++;
		int64_t length = q1 - q + (r1 != 0);
		const unsigned char* cell = base + (ahead ? q : -(q + length)) * major_step; // the run's lowest cell
		if (*cell < length) { // a blocked cell within, or a run longer than the cap: look again, a cap at a time
			for (; length > GT_RUN_CAP; length -= GT_RUN_CAP, cell += GT_RUN_CAP * major_step)
				if (*cell < GT_RUN_CAP) return false;
			if (*cell < length) return false;
		}
		if (r1 == 0 && k + 1 < B) { // through grid point u = q1: cell q1 of this strip, cell q1 - 1 of the next
			const unsigned char* side = base + (ahead ? q1 : -1 - q1) * major_step;
			const unsigned char* next = base + minor_step + (ahead ? q1 - 1 : -q1) * major_step;
			if (!*side && !*next) return false;
		}
		base += minor_step, q = q1, r = r1;
	}
	return true;
}

static bool runs_walk(const gtMap* m, int ax, int ay, int bx, int by)
{
	int sx = bx > ax ? 1 : -1, sy = by > ay ? 1 : -1;
	int64_t adx = sx * (int64_t)(bx - ax), ady = sy * (int64_t)(by - ay);
	const int64_t stride = m->stride;
	// Strip 0 is the row (column) of cells the segment leaves a into; its cell at a's column (row).
	int64_t cell = (ay + 1 - (sy < 0)) * stride + (ax + 1 - (sx < 0));
	if (adx >= ady) {
		const unsigned char* base = m->run_x + cell + (sx < 0); // at column ax
		return sx > 0 ? strips(base, adx, ady, 1, sy * stride, true) : strips(base, adx, ady, 1, sy * stride, false);
	}
	const unsigned char* base = m->run_y + cell + (sy < 0) * stride; // at row ay
	return sy > 0 ? strips(base, ady, adx, stride, sx, true) : strips(base, ady, adx, stride, sx, false);
}

// Any endpoints (the segment is not on a grid line): the cell walk of Amanatides and Woo. The
// parameters at which the segment crosses the next column line and the next row line are compared
// in floating point, where they are more than 1e-12 apart (their rounding error is below 1e-15:
// each is one subtraction, one addition and one product); near-ties, passing through a grid point
// included, go to the exact predicate.
static bool general_walk_visible(const gtMap* m, gtVec2 a, gtVec2 b, int sx, int sy)
{
	Segment s = {a, b, {b.x - a.x, b.y - a.y}, false};
	// Start in the cell the segment enters immediately after leaving a.
	int cx = floor_nonnegative(a.x), cy = floor_nonnegative(a.y);
	if (sx < 0 && a.x == cx) cx--;
	if (sy < 0 && a.y == cy) cy--;
	// Column lines crossed strictly before b: X = first_x, first_x + sx, ...; rows alike.
	int first_x = sx > 0 ? cx + 1 : cx, first_y = sy > 0 ? cy + 1 : cy;
	int64_t lines_x = sx > 0 ? (int64_t)ceil(b.x) - 1 - cx : sx < 0 ? cx - (int64_t)floor(b.x) : 0;
	int64_t lines_y = sy > 0 ? (int64_t)ceil(b.y) - 1 - cy : sy < 0 ? cy - (int64_t)floor(b.y) : 0;
	double offset_x = first_x - a.x, offset_y = first_y - a.y;
	double inverse_x = sx ? 1.0 / s.d.x : 0, inverse_y = sy ? 1.0 / s.d.y : 0;
	const unsigned char* cell = m->blocked + (int64_t)(cy + 1) * m->stride + (cx + 1);
	const int64_t step_y = sy * (int64_t)m->stride;
	// Parameters of the next column and row line crossed; +inf once there is none before b. Each
	// is recomputed from its line number, never accumulated, so its error stays below 1e-15.
	int64_t nx = 0, ny = 0;
	double tx = lines_x > 0 ? offset_x * inverse_x : INFINITY, ty = lines_y > 0 ? offset_y * inverse_y : INFINITY;
	for (;;) {
		if (*cell) return false;
		// Negative: the column line comes first; zero: the segment passes through grid point (X, Y).
		int order = tx < ty - 1e-12 ? -1 : tx > ty + 1e-12 ? 1 : 0;
		if (order == 0) {
			if (tx == INFINITY) return true; // no line left on either axis: b's cell is reached
			double X = first_x + (double)(nx * sx), Y = first_y + (double)(ny * sy);
			order = cross_sign(&s, X, Y) * sx * sy;
			if (order == 0) {
				if (gt_is_pinch_mask(gt_corner_mask(m, (int)X, (int)Y))) return false;
				cell += sx + step_y; // the two side cells are only touched at (X, Y): a grazed corner is fine
				nx++, ny++;
				tx = nx < lines_x ? (offset_x + (double)(nx * sx)) * inverse_x : INFINITY;
				ty = ny < lines_y ? (offset_y + (double)(ny * sy)) * inverse_y : INFINITY;
				continue;
			}
		}
		if (order < 0) {
			cell += sx;
			nx++;
			tx = nx < lines_x ? (offset_x + (double)(nx * sx)) * inverse_x : INFINITY;
		} else {
			cell += step_y;
			ny++;
			ty = ny < lines_y ? (offset_y + (double)(ny * sy)) * inverse_y : INFINITY;
		}
	}
}

// Where the segment crosses a row line, in a frame's major coordinate: the floor of it, and
// whether it is an integer (the segment passes through a grid point there).
typedef struct Crossing {
	int64_t floor;
	bool integer;
} Crossing;

static Crossing crossing_of(double v)
{
	int64_t f = floor_nonnegative(v);
	Crossing c = {f, v == (double)f};
	return c;
}

// The frame's x at row line y = Y, x = a.x + (Y - a.y) slope, is rounded to within 1e-10
// (coordinates below 2^16, |slope| >= 1 in the frame's shallow direction: three roundings of
// values below 2^17), so outside 1e-8 of an integer its floor is exact (general_rows' loop). Within
// 1e-8 of the integer n, the exact predicate says on which side of grid point (n, Y) the segment
// passes, or that it passes through it: out of the loop, which seldom needs it.
// Returns the sign of x - n.
static __attribute__((noinline)) int side_near(const Segment* s, double Y, int64_t n, int sy)
{
	return -cross_sign(s, (double)n, Y) * sy; // (n - x) d.y = (n, Y) x d
}

// Whether b - a is exactly (d, d) or (d, -d).
static __attribute__((noinline)) bool exact_diagonal(const Segment* s)
{
	double dx, dy, ex, ey;
	two_sum(s->b.x, -s->a.x, &dx, &ex);
	two_sum(s->b.y, -s->a.y, &dy, &ey);
	return ex == 0 && ey == 0 && fabs(dx) == fabs(dy);
}

// Cells [c0, c1] of one frame row, `first` pointing at c0's run: all free.
static inline bool run_free(const unsigned char* first, int64_t length, int64_t step)
{
	if (*first >= length) return true;
	for (; length > GT_RUN_CAP; length -= GT_RUN_CAP, first += GT_RUN_CAP * step) // a run longer than the cap
		if (*first < GT_RUN_CAP) return false;
	return *first >= length;
}

// The strips of general_strips from row `row` on (see there), with sx > 0 (`ahead`) or sx < 0 as a
// constant of each inlined copy.
static inline __attribute__((always_inline)) bool general_rows(const gtMap* m, const Segment* s, bool steep,
                                                               const unsigned char* row, int64_t first_y, int64_t lines,
                                                               int sy, bool ahead)
{
	const int64_t xstep = steep ? m->stride : 1, ystep = sy * (int64_t)(steep ? 1 : m->stride);
	const double slope = sy ? s->d.x / s->d.y : 0;
	const double step = sy;
	// Where the strip begins: its first cell when `ahead`, else its last (the crossing's floor, less
	// one where the crossing is an integer: the cell starting there is not entered).
	Crossing a_at = crossing_of(s->a.x);
	int64_t from = ahead ? a_at.floor : a_at.floor - a_at.integer;
	double Y = (double)first_y;
	// A segment at exactly 45 degrees (objects walking diagonally between corners) is as near an
	// integer at every row line: x - slope Y is constant, so the grid points it passes near all lie
	// on one line parallel to it, on the same side (or on it). The exact predicate once for all.
	int diagonal = -1, diagonal_side = 0; // -1: not known yet
	for (int64_t k = lines; k > 0; k--, Y += step, row += ystep) {
		double x = s->a.x + (Y - s->a.y) * slope; // see side_near
		int64_t f = (int64_t)x;                   // floor: x is not negative
		double fraction = x - (double)f;
		if (fabs(fraction - 0.5) < 0.5 - 1e-8) { // clear of integers (near 1e-8 either way is exact)
			// The cells whose open span meets the strip's open span: from `from` to f.
			int64_t c0 = ahead ? from : f, c1 = ahead ? f : from;
			const unsigned char* first = row + c0 * xstep;
			if (*first <= c1 - c0 && !run_free(first, c1 - c0 + 1, xstep)) return false;
			from = f;
			continue;
		}
		int64_t n = f + (fraction > 0.5);
		int side = diagonal > 0 ? diagonal_side : side_near(s, Y, n, sy);
		if (diagonal < 0 && (diagonal = exact_diagonal(s)) > 0) diagonal_side = side;
		Crossing to = {n - (side < 0), side == 0};
		int64_t c0 = ahead ? from : to.floor, c1 = ahead ? to.floor - to.integer : from;
		if (!run_free(row + c0 * xstep, c1 - c0 + 1, xstep)) return false;
		if (to.integer && m->pinch_count > 0) {
			int64_t gx = steep ? (int64_t)Y : to.floor, gy = steep ? to.floor : (int64_t)Y;
			if (gt_is_pinch_mask(gt_corner_mask(m, (int)gx, (int)gy))) return false;
		}
		from = ahead ? to.floor : to.floor - to.integer;
	}
	Crossing to = crossing_of(s->b.x); // the last strip ends at b
	int64_t c0 = ahead ? from : to.floor, c1 = ahead ? to.floor - to.integer : from;
	return run_free(row + c0 * xstep, c1 - c0 + 1, xstep);
}

// Any endpoints, the segment not on a grid line: general_walk_visible a strip at a time, as
// runs_walk. In a frame whose x is the axis the segment moves more on (the coordinates swapped
// when it moves more along y, which is exact), it crosses row line Y_k at x_k; the cells it enters
// between two crossings are one run of a frame row. Where x_k is an integer it passes through a
// grid point, which must not be a pinch.
static inline __attribute__((always_inline)) bool general_strips(const gtMap* m, gtVec2 a, gtVec2 b)
{
	bool steep = fabs(b.y - a.y) > fabs(b.x - a.x);
	Segment s = {a, b, {b.x - a.x, b.y - a.y}, false};
	if (steep) s.a = (gtVec2){a.y, a.x}, s.b = (gtVec2){b.y, b.x}, s.d = (gtVec2){s.d.y, s.d.x};
	const int sy = (s.d.y > 0) - (s.d.y < 0);
	// Strip 0 is the frame row the segment enters leaving a; row lines Y_k = first_y + k sy, k <
	// lines, lie strictly between a and b.
	int64_t cy = floor_nonnegative(s.a.y);
	if (sy < 0 && s.a.y == (double)cy) cy--;
	int64_t first_y = sy > 0 ? cy + 1 : cy, lines = 0;
	if (sy > 0) lines = crossing_of(s.b.y).integer ? (int64_t)s.b.y - 1 - cy : floor_nonnegative(s.b.y) - cy;
	if (sy < 0) lines = cy - floor_nonnegative(s.b.y);
	const unsigned char* row = steep ? m->run_y + (cy + 1) + m->stride : m->run_x + (cy + 1) * m->stride + 1;
	if (steep) // one copy per frame and direction: the steps are constants
		return s.d.x > 0 ? general_rows(m, &s, true, row, first_y, lines, sy, true)
		                 : general_rows(m, &s, true, row, first_y, lines, sy, false);
	return s.d.x > 0 ? general_rows(m, &s, false, row, first_y, lines, sy, true)
	                 : general_rows(m, &s, false, row, first_y, lines, sy, false);
}

bool gt_vertices_visible(const gtMap* m, gtVertex a, gtVertex b)
{
	if (a.x == b.x) return a.y == b.y || grid_line_visible(m, true, a.x, a.y, b.y);
	if (a.y == b.y) return grid_line_visible(m, false, a.y, a.x, b.x);
	return runs_walk(m, a.x, a.y, b.x, b.y);
}

static inline __attribute__((always_inline)) bool visible_unchecked(const gtMap* m, gtVec2 a, gtVec2 b, bool runs)
{
	if (a.x == b.x && a.y == b.y) return true;
	if (m->pinch_count > 0 && (!gt_pinch_side_ok(m, a, b) || !gt_pinch_side_ok(m, b, a))) return false;
	int sx = (b.x > a.x) - (b.x < a.x);
	int sy = (b.y > a.y) - (b.y < a.y);
	if (sx == 0 && is_integer(a.x)) return grid_line_visible(m, true, (int)a.x, a.y, b.y);
	if (sy == 0 && is_integer(a.y)) return grid_line_visible(m, false, (int)a.y, a.x, b.x);

	bool integral = is_integer(a.x) && is_integer(a.y) && is_integer(b.x) && is_integer(b.y);
	if (integral)
		return runs ? runs_walk(m, (int)a.x, (int)a.y, (int)b.x, (int)b.y)
		            : integral_walk_visible(m, (int)a.x, (int)a.y, (int)b.x, (int)b.y);
	return runs ? general_strips(m, a, b) : general_walk_visible(m, a, b, sx, sy);
}

// The general dispatch, out of gt_visible_unchecked so that its usual cases stay small.
static __attribute__((noinline)) bool visible_by_runs(const gtMap* m, gtVec2 a, gtVec2 b)
{
	return visible_unchecked(m, a, b, true);
}

bool gt_visible_unchecked(const gtMap* m, gtVec2 a, gtVec2 b)
{
	// Grid points (the index's vertices, integer query points) off each other's lines: straight to
	// the strips, without the general dispatch. Coordinates of valid points fit an int.
	int ax = (int)a.x, ay = (int)a.y, bx = (int)b.x, by = (int)b.y;
	bool grid = ax == a.x && ay == a.y && bx == b.x && by == b.y;
	if (grid && ax != bx && ay != by &&
	    (m->pinch_count == 0 || (gt_pinch_side_ok(m, a, b) && gt_pinch_side_ok(m, b, a))))
		return runs_walk(m, ax, ay, bx, by);
	// Any other points off each other's lines on a map without pinch points: visible_unchecked's
	// choice, its tests already answered.
	if (!grid && a.x != b.x && a.y != b.y && m->pinch_count == 0) return general_strips(m, a, b);
	return visible_by_runs(m, a, b);
}

bool gt_visible_grid_points(const gtMap* m, int ax, int ay, int bx, int by)
{
	if (ax != bx && ay != by && m->pinch_count == 0) return runs_walk(m, ax, ay, bx, by);
	return gt_visible_unchecked(m, (gtVec2){ax, ay}, (gtVec2){bx, by});
}

bool gtMap_Visible(const gtMap* map, gtVec2 a, gtVec2 b)
{
	if (gtMap_CheckPoint(map, a) != GT_POINT_VALID || gtMap_CheckPoint(map, b) != GT_POINT_VALID) return false;
	return gt_visible_unchecked(map, a, b);
}

bool gtMap_VisibleCellByCell(const gtMap* map, gtVec2 a, gtVec2 b)
{
	if (gtMap_CheckPoint(map, a) != GT_POINT_VALID || gtMap_CheckPoint(map, b) != GT_POINT_VALID) return false;
	return visible_unchecked(map, a, b, false);
}
