// Octant column sweep for the visibility graph (docs/algorithms.md 3.3, the rules of 5.6): from
// vertex u, each of the four octants above u (later vertices in row-major order) is walked column
// by column keeping L, the set of slopes whose rays are still unobstructed, as exact fractions.
// A vertex on column line X = k is reached when its slope is in L; only the columns' cells inside
// L are read, so the cost is about u's visible area.
#include <string.h>

#include "core/alloc.h"
#include "map/map_internal.h"
#include "map/vis_sweep.h"
#include "map/slope_frac.h"

struct VisSlope {
	Frac lo, hi;
	bool lo_closed, hi_closed;
};

typedef struct SlopeSet {
	VisSlope* items;
	int count;
} SlopeSet;

typedef struct Octant {
	VisSweep* sweep;
	const gtMap* map;
	int u, vx, vy, qx, qy; // qy -1: the octant mirrored to the half plane above u
	bool swap;
	bool all; // list every vertex reached, not only the later ones
	SlopeSet L, spare;
} Octant;

static void push_piece(SlopeSet* out, Frac lo, bool lo_closed, Frac hi, bool hi_closed)
{
	int c = fcmp(lo, hi);
	if (c > 0 || (c == 0 && !(lo_closed && hi_closed))) return;
	VisSlope* I = &out->items[out->count++];
	I->lo = lo, I->hi = hi, I->lo_closed = lo_closed, I->hi_closed = hi_closed;
}

// L minus the open range (a, b) when `open`, else minus the single slope a == b.
static bool remove_range(Octant* o, Frac a, Frac b, bool open)
{
	VisSweep* s = o->sweep;
	if (o->L.count + 1 > s->slope_capacity) {
		int cap = 2 * s->slope_capacity;
		bool grown = GT_RESIZE(o->L.items, cap) && GT_RESIZE(o->spare.items, cap);
		s->slopes[0] = o->L.items, s->slopes[1] = o->spare.items; // freed by the sweep, grown or not
		if (!grown) return false;
		s->slope_capacity = cap;
	}
	SlopeSet* out = &o->spare;
	out->count = 0;
	for (int i = 0; i < o->L.count; i++) {
		const VisSlope* I = &o->L.items[i];
		int ch = fcmp(I->hi, a), cl = fcmp(I->lo, b);
		if (ch < 0 || cl > 0) { // untouched
			out->items[out->count++] = *I;
			continue;
		}
		push_piece(out, I->lo, I->lo_closed, a, open && (ch > 0 || I->hi_closed)); // below a
		push_piece(out, b, open && (cl < 0 || I->lo_closed), I->hi, I->hi_closed); // above b
	}
	SlopeSet t = o->L;
	o->L = o->spare;
	o->spare = t;
	return true;
}

// Whether canonical cell (i, j) is blocked (off the map counts as blocked).
static bool blk(const Octant* o, int i, int j)
{
	int ax = o->swap ? j : i, ay = o->swap ? i : j;
	int x0 = o->vx + o->qx * ax, x1 = x0 + o->qx, y0 = o->vy + o->qy * ay, y1 = y0 + o->qy;
	int cx = x0 < x1 ? x0 : x1, y = y0 < y1 ? y0 : y1;
	if (cx < 0 || y < 0 || cx >= o->map->width || y >= o->map->height) return true;
	return gt_blocked(o->map, cx, y) != 0;
}

// The index of the vertex at grid point (x, y), -1 when there is none.
static int vertex_at(const VisSweep* s, int x, int y)
{
	const gtVertex* v = s->map->vertices;
	int lo = s->row_start[y], hi = s->row_start[y + 1] - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (v[mid].x == x) return mid;
		if (v[mid].x < x) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

// Lists the convex vertices on column line X = k (k >= 1) whose slopes are in L.
static bool list_column(Octant* o, int k)
{
	VisSweep* s = o->sweep;
	const gtMap* m = o->map;
	for (int i = 0; i < o->L.count; i++) {
		const VisSlope* I = &o->L.items[i];
		int64_t first = (I->lo.num * k + I->lo.den - 1) / I->lo.den, last = I->hi.num * k / I->hi.den;
		if (!I->lo_closed && first * I->lo.den == I->lo.num * k) first++;
		if (!I->hi_closed && last * I->hi.den == I->hi.num * k) last--;
		for (int64_t Y = first; Y <= last; Y++) {
			int x = o->vx + o->qx * (o->swap ? (int)Y : k), y = o->vy + o->qy * (o->swap ? k : (int)Y);
			if (x < 0 || y < 0 || x > m->width || y > m->height) continue;
			int mask = gt_corner_mask(m, x, y);
			if (mask == 0 || (mask & (mask - 1)) != 0) continue; // not convex
			int w = vertex_at(s, x, y);
			if ((o->all ? w == o->u : w <= o->u) || s->mark[w] == o->u + 1) continue;
			s->mark[w] = o->u + 1;
			if (!GT_GROW(s->found, s->found_capacity, s->found_count + 1, 256)) return false;
			s->found[s->found_count++] = w;
		}
	}
	return true;
}

// L_k to L_{k+1}: rays through blocked cells of column k, through pinch points on line X = k + 1
// and along the axis between two blocked cells are removed.
static bool advance(Octant* o, int k, int* ranges)
{
	const Frac zero = frac(0, 1), beyond = frac(2, 1);
	int count = o->L.count;
	for (int i = 0; i < count; i++) { // the rows of column k the rays of each piece cross
		const VisSlope* I = &o->L.items[i];
		ranges[2 * i] = (int)(I->lo.num * k / I->lo.den);
		ranges[2 * i + 1] = (int)(I->hi.num * (k + 1) / I->hi.den);
	}
	bool axis = fcmp(o->L.items[0].lo, zero) == 0 && o->L.items[0].lo_closed;
	int next = 0; // rows below are done
	for (int i = 0; i < count; i++) {
		int j0 = ranges[2 * i] > next ? ranges[2 * i] : next, j1 = ranges[2 * i + 1] < k ? ranges[2 * i + 1] : k;
		for (int j = j0; j <= j1; j++) {
			if (!blk(o, k, j)) continue;
			int run = j; // a run of blocked cells removes one open range
			while (j + 1 <= j1 && blk(o, k, j + 1)) j++;
			if (!remove_range(o, frac(run, k + 1), k == 0 ? beyond : frac(j + 1, k), true)) return false;
		}
		if (j1 + 1 > next) next = j1 + 1;
	}
	next = 1;
	for (int i = 0; i < count; i++) { // pinch points (k + 1, j)
		int j0 = ranges[2 * i] > next ? ranges[2 * i] : next;
		int j1 = ranges[2 * i + 1] < k + 1 ? ranges[2 * i + 1] : k + 1;
		for (int j = j0; j <= j1; j++)
			if (blk(o, k, j) && blk(o, k + 1, j - 1) && !remove_range(o, frac(j, k + 1), frac(j, k + 1), false))
				return false;
		if (j1 + 1 > next) next = j1 + 1;
	}
	if (axis) {
		bool above = blk(o, k, 0), below = blk(o, k, -1);
		bool closed = (above && below) || (above && blk(o, k + 1, -1)) || (below && blk(o, k + 1, 0));
		if (closed && !remove_range(o, zero, zero, false)) return false;
	}
	return true;
}

static bool sweep_octant(Octant* o, int** ranges, int* range_capacity)
{
	o->L.count = 0;
	push_piece(&o->L, frac(0, 1), true, frac(1, 1), true);
	const gtMap* m = o->map;
	int limit = o->swap ? (o->qy > 0 ? m->height - o->vy : o->vy) : (o->qx > 0 ? m->width - o->vx : o->vx);
	for (int k = 0;; k++) {
		if (k > 0 && !list_column(o, k)) return false;
		if (k >= limit || o->L.count == 0) return true;
		if (o->L.count > *range_capacity) {
			if (!GT_RESIZE(*ranges, 2 * o->sweep->slope_capacity)) return false;
			*range_capacity = o->sweep->slope_capacity;
		}
		if (!advance(o, k, *ranges)) return false;
	}
}

int32_t* gt_vis_rows(const gtMap* map)
{
	int32_t* row_start = gt_calloc((size_t)map->height + 2, sizeof *row_start);
	if (!row_start) return NULL;
	for (int i = 0; i < map->vertex_count; i++) row_start[map->vertices[i].y + 1]++;
	for (int y = 0; y <= map->height; y++) row_start[y + 1] += row_start[y];
	return row_start;
}

bool gt_vis_sweep_init(VisSweep* sweep, const gtMap* map, const int32_t* row_start)
{
	memset(sweep, 0, sizeof *sweep);
	sweep->map = map;
	sweep->row_start = row_start;
	sweep->mark = gt_calloc((size_t)map->vertex_count + 1, sizeof *sweep->mark);
	sweep->slope_capacity = 64; // grows when a slope set needs more pieces
	for (int i = 0; i < 2; i++) sweep->slopes[i] = gt_malloc((size_t)sweep->slope_capacity * sizeof(VisSlope));
	if (sweep->mark && sweep->slopes[0] && sweep->slopes[1]) return true;
	gt_vis_sweep_free(sweep);
	return false;
}

void gt_vis_sweep_free(VisSweep* sweep)
{
	gt_free(sweep->mark);
	gt_free(sweep->found);
	gt_free(sweep->slopes[0]);
	gt_free(sweep->slopes[1]);
	memset(sweep, 0, sizeof *sweep);
}

// The octants towards +y, on either side of u (the half plane of later vertices); with `all`, also
// the four mirrored towards -y, and every vertex reached listed.
static bool sweep_vertex(VisSweep* sweep, int u, bool all)
{
	sweep->found_count = 0;
	gtVertex v = sweep->map->vertices[u];
	Octant o = {sweep, sweep->map, u, v.x, v.y, 1, 1, false, all, {sweep->slopes[0], 0}, {sweep->slopes[1], 0}};
	int* ranges = NULL;
	int range_capacity = 0;
	bool ok = true;
	for (int q = 0; ok && q < (all ? 8 : 4); q++) {
		o.qx = q & 1 ? -1 : 1;
		o.swap = (q & 2) != 0;
		o.qy = q & 4 ? -1 : 1;
		ok = sweep_octant(&o, &ranges, &range_capacity);
		sweep->slopes[0] = o.L.items, sweep->slopes[1] = o.spare.items;
	}
	gt_free(ranges);
	return ok;
}

bool gt_vis_sweep_vertex(VisSweep* sweep, int u)
{
	return sweep_vertex(sweep, u, false);
}

bool gt_vis_sweep_vertex_all(VisSweep* sweep, int u)
{
	return sweep_vertex(sweep, u, true);
}
