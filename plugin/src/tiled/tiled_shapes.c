// Rasterising Tiled's shapes by the centre rule (see tiled_shapes.h).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tiled/tiled_shapes.h"

TiledAffine tiled_affine_identity(void)
{
	TiledAffine a = {1, 0, 0, 0, 1, 0};
	return a;
}

TiledAffine tiled_affine_then(TiledAffine f, TiledAffine s)
{
	TiledAffine r = {s.xx * f.xx + s.xy * f.yx, s.xx * f.xy + s.xy * f.yy, s.xx * f.x0 + s.xy * f.y0 + s.x0,
	                 s.yx * f.xx + s.yy * f.yx, s.yx * f.xy + s.yy * f.yy, s.yx * f.x0 + s.yy * f.y0 + s.y0};
	return r;
}

TiledAffine tiled_affine_rotation(double degrees, double x, double y)
{
	double turns = fmod(degrees, 360.0), c, s;
	if (turns < 0) turns += 360.0;
	// Quarter turns exactly, so rotated rectangles stay exact on the grid.
	if (turns == 0) c = 1, s = 0;
	else if (turns == 90) c = 0, s = 1;
	else if (turns == 180) c = -1, s = 0;
	else if (turns == 270) c = 0, s = -1;
	else c = cos(turns * (3.14159265358979323846 / 180)), s = sin(turns * (3.14159265358979323846 / 180));
	// Clockwise on a y-down screen is the usual counter-clockwise matrix.
	TiledAffine r = {c, -s, x - c * x + s * y, s, c, y - s * x - c * y};
	return r;
}

// Rows and columns as indices clamped into [lo, hi] before converting (coordinates may be huge).
static int64_t clamp_index(double v, int64_t lo, int64_t hi)
{
	if (!(v >= (double)lo)) return lo;
	if (v >= (double)hi) return hi;
	return (int64_t)v;
}

// Walls the cells of row j whose centre x lies in [l, r].
static void mark_span(TiledGrid* g, int64_t j, double l, double r)
{
	if (!(l <= r)) return;
	int64_t i0 = clamp_index(ceil(l - 0.5), 0, g->width), i1 = clamp_index(floor(r - 0.5), -1, g->width - 1);
	g->work += 1 + (i1 >= i0 ? i1 - i0 : 0);
	if (g->work > g->work_limit) return;
	unsigned char* row = g->cells + j * g->width;
	for (int64_t i = i0; i <= i1; i++) row[i] |= g->bit;
}

// The rows whose centre y lies in [y0, y1], clipped to the grid.
static void centre_rows(const TiledGrid* g, double y0, double y1, int64_t* first, int64_t* last)
{
	*first = clamp_index(ceil(y0 - 0.5), 0, g->height);
	*last = clamp_index(floor(y1 - 0.5), -1, g->height - 1);
}

static int compare_doubles(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

bool tiled_fill_polygon(TiledGrid* g, const double* xy, int64_t n)
{
	if (n < 1) return true;
	double ymin = xy[1], ymax = xy[1];
	for (int64_t k = 1; k < n; k++) ymin = fmin(ymin, xy[2 * k + 1]), ymax = fmax(ymax, xy[2 * k + 1]);
	int64_t first, last;
	centre_rows(g, ymin, ymax, &first, &last);
	if (first > last) return true;
	double* crossings = gt_malloc((size_t)n * sizeof *crossings);
	if (!crossings) return false;
	for (int64_t j = first; j <= last && g->work <= g->work_limit; j++) {
		double y = (double)j + 0.5;
		int64_t count = 0;
		g->work += n;
		for (int64_t k = 0; k < n; k++) {
			double x0 = xy[2 * k], y0 = xy[2 * k + 1];
			double x1 = xy[2 * ((k + 1) % n)], y1 = xy[2 * ((k + 1) % n) + 1];
			if (y0 == y1) { // a horizontal edge: on it is inside
				if (y0 == y) mark_span(g, j, fmin(x0, x1), fmax(x0, x1));
				continue;
			}
			if (y < fmin(y0, y1) || y > fmax(y0, y1)) continue;
			double x = x0 + (y - y0) * (x1 - x0) / (y1 - y0);
			mark_span(g, j, x, x);                              // on the edge
			if ((y0 <= y) != (y1 <= y)) crossings[count++] = x; // half-open, so a vertex counts once
		}
		qsort(crossings, (size_t)count, sizeof *crossings, compare_doubles);
		for (int64_t k = 0; k + 1 < count; k += 2) mark_span(g, j, crossings[k], crossings[k + 1]); // even-odd
	}
	gt_free(crossings);
	return true;
}

void tiled_fill_ellipse(TiledGrid* g, double cx, double cy, const double m[4])
{
	double det = m[0] * m[3] - m[1] * m[2];
	if (det == 0 || !isfinite(det)) return; // no area
	// The inverse takes a point back to the unit disc: |n (p - c)| <= 1, solved per row for x.
	double n00 = m[3] / det, n01 = -m[1] / det, n10 = -m[2] / det, n11 = m[0] / det;
	double a = n00 * n00 + n10 * n10, cross = n00 * n01 + n10 * n11, b2 = n01 * n01 + n11 * n11;
	double half_height = sqrt(m[2] * m[2] + m[3] * m[3]);
	int64_t first, last;
	centre_rows(g, cy - half_height, cy + half_height, &first, &last);
	for (int64_t j = first; j <= last && g->work <= g->work_limit; j++) {
		double dy = (double)j + 0.5 - cy;
		double b = dy * cross, c = dy * dy * b2 - 1;
		double disc = b * b - a * c;
		if (disc < 0) continue;
		double root = sqrt(disc);
		mark_span(g, j, cx + (-b - root) / a, cx + (-b + root) / a);
	}
}

// Walls the cells of row j whose open interior meets x in [lo, hi] (a point when lo == hi).
static void mark_touched(TiledGrid* g, int64_t j, double lo, double hi)
{
	int64_t i0, i1;
	if (lo < hi) {
		i0 = clamp_index(floor(lo), 0, g->width);
		i1 = clamp_index(ceil(hi) - 1, -1, g->width - 1);
	} else {
		if (lo == floor(lo)) return; // on a grid line
		i0 = i1 = clamp_index(floor(lo), -1, g->width);
		if (i0 < 0 || i0 >= g->width) return;
	}
	g->work += 1 + (i1 >= i0 ? i1 - i0 : 0);
	if (g->work > g->work_limit) return;
	unsigned char* row = g->cells + j * g->width;
	for (int64_t i = i0; i <= i1; i++) row[i] |= g->bit;
}

static void fill_segment(TiledGrid* g, double x0, double y0, double x1, double y1)
{
	if (y0 == y1) { // its interior runs inside one row, unless along a grid line
		if (y0 == floor(y0) || y0 < 0 || y0 >= (double)g->height) return;
		mark_touched(g, (int64_t)floor(y0), fmin(x0, x1), fmax(x0, x1));
		return;
	}
	if (y0 > y1) {
		double t = x0;
		x0 = x1, x1 = t;
		t = y0, y0 = y1, y1 = t;
	}
	// Rows j with j < y1 and j + 1 > y0: the part of the segment inside the open row.
	int64_t first = clamp_index(floor(y0), 0, g->height), last = clamp_index(ceil(y1) - 1, -1, g->height - 1);
	for (int64_t j = first; j <= last && g->work <= g->work_limit; j++) {
		double ya = fmax(y0, (double)j), yb = fmin(y1, (double)(j + 1));
		double xa = ya == y0 ? x0 : x0 + (ya - y0) * (x1 - x0) / (y1 - y0);
		double xb = yb == y1 ? x1 : x0 + (yb - y0) * (x1 - x0) / (y1 - y0);
		if (x0 == x1) xa = xb = x0;
		mark_touched(g, j, fmin(xa, xb), fmax(xa, xb));
	}
}

void tiled_fill_polyline(TiledGrid* g, const double* xy, int64_t n)
{
	if (n == 1) fill_segment(g, xy[0], xy[1], xy[0], xy[1]);
	for (int64_t k = 0; k + 1 < n; k++) fill_segment(g, xy[2 * k], xy[2 * k + 1], xy[2 * k + 2], xy[2 * k + 3]);
}

// A point in pixels of shape space through `f` into cell units.
static void to_cells(const TiledGrid* g, TiledAffine f, double x, double y, double* out)
{
	double px = f.xx * x + f.xy * y + f.x0, py = f.yx * x + f.yy * y + f.y0;
	out[0] = (px - g->origin_x) / g->tile_width;
	out[1] = (py - g->origin_y) / g->tile_height;
}

// An ellipse of radii (rx, ry) about (x, y) in shape space.
static void fill_ellipse_at(TiledGrid* g, TiledAffine f, double x, double y, double rx, double ry)
{
	double c[2];
	to_cells(g, f, x, y, c);
	double m[4] = {f.xx * rx / g->tile_width, f.xy * ry / g->tile_width, f.yx * rx / g->tile_height,
	               f.yy * ry / g->tile_height};
	tiled_fill_ellipse(g, c[0], c[1], m);
}

static bool fill_rect_at(TiledGrid* g, TiledAffine f, double x, double y, double w, double h)
{
	double xy[8];
	to_cells(g, f, x, y, xy);
	to_cells(g, f, x + w, y, xy + 2);
	to_cells(g, f, x + w, y + h, xy + 4);
	to_cells(g, f, x, y + h, xy + 6);
	return tiled_fill_polygon(g, xy, 4);
}

bool tiled_fill_shape(TiledGrid* g, const TiledShape* s, const double* points, TiledAffine place)
{
	// Shape space is relative to (x, y) and rotated about it.
	TiledAffine at = {1, 0, s->x, 0, 1, s->y};
	TiledAffine f = tiled_affine_then(tiled_affine_then(tiled_affine_rotation(s->rotation, 0, 0), at), place);
	double w = s->width, h = s->height;
	switch (s->kind) {
	case TILED_RECT: return w <= 0 || h <= 0 || fill_rect_at(g, f, 0, 0, w, h);
	case TILED_ELLIPSE:
		if (w > 0 && h > 0) fill_ellipse_at(g, f, w / 2, h / 2, w / 2, h / 2);
		return true;
	case TILED_CAPSULE: { // a rectangle with round ends: its middle and two discs
		if (w <= 0 || h <= 0) return true;
		double r = fmin(w, h) / 2;
		if (w >= h) {
			fill_ellipse_at(g, f, r, r, r, r);
			fill_ellipse_at(g, f, w - r, r, r, r);
			return fill_rect_at(g, f, r, 0, w - 2 * r, h);
		}
		fill_ellipse_at(g, f, r, r, r, r);
		fill_ellipse_at(g, f, r, h - r, r, r);
		return fill_rect_at(g, f, 0, r, w, h - 2 * r);
	}
	case TILED_POLYGON:
	case TILED_POLYLINE: {
		if (s->point_count == 0) return true;
		double* xy = gt_malloc((size_t)s->point_count * 2 * sizeof *xy);
		if (!xy) return false;
		for (int64_t k = 0; k < s->point_count; k++) to_cells(g, f, points[2 * k], points[2 * k + 1], xy + 2 * k);
		bool ok = true;
		if (s->kind == TILED_POLYGON) ok = tiled_fill_polygon(g, xy, s->point_count);
		else tiled_fill_polyline(g, xy, s->point_count);
		gt_free(xy);
		return ok;
	}
	default: // points and text wall nothing
		return true;
	}
}
