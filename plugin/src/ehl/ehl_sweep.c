// Octant column sweep with exact rational slopes (docs/algorithms.md 5.6).
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ehl/ehl_sweep.h"
#include "map/map_internal.h"
#include "map/slope_frac.h"
#include "core/status.h"

enum { FLAG_ANY = GT_SWEEP_FLAG_ANY, FLAG_DIAG = 2, FLAG_FULL_ONE = GT_SWEEP_FLAG_FULL_ONE, FLAG_FULL_MASK = 12 };

struct gtSlopeInterval {
	Frac lo, hi;
	bool lo_closed, hi_closed;
};

typedef struct SlopeSet {
	gtSlopeInterval* items;
	int count;
} SlopeSet;

static bool nonempty(Frac lo, bool lo_closed, Frac hi, bool hi_closed)
{
	int c = fcmp(lo, hi);
	return c < 0 || (c == 0 && lo_closed && hi_closed);
}

// L meets the closed range [a, b].
static bool set_meets(const SlopeSet* L, Frac a, Frac b)
{
	for (int i = 0; i < L->count; i++) {
		const gtSlopeInterval* I = &L->items[i];
		int cl = fcmp(I->lo, a), ch = fcmp(I->hi, b);
		Frac lo = cl > 0 ? I->lo : a, hi = ch < 0 ? I->hi : b;
		bool lo_closed = cl > 0 ? I->lo_closed : cl < 0 ? true : I->lo_closed;
		bool hi_closed = ch < 0 ? I->hi_closed : ch > 0 ? true : I->hi_closed;
		if (nonempty(lo, lo_closed, hi, hi_closed)) return true;
	}
	return false;
}

// L contains the closed range [a, b] (one interval must: pieces of L never touch).
static bool set_covers(const SlopeSet* L, Frac a, Frac b)
{
	for (int i = 0; i < L->count; i++) {
		const gtSlopeInterval* I = &L->items[i];
		int cl = fcmp(I->lo, a), ch = fcmp(I->hi, b);
		if ((cl < 0 || (cl == 0 && I->lo_closed)) && (ch > 0 || (ch == 0 && I->hi_closed))) return true;
	}
	return false;
}

static void push_piece(SlopeSet* out, Frac lo, bool lo_closed, Frac hi, bool hi_closed)
{
	if (!nonempty(lo, lo_closed, hi, hi_closed)) return;
	gtSlopeInterval* I = &out->items[out->count++];
	I->lo = lo;
	I->lo_closed = lo_closed;
	I->hi = hi;
	I->hi_closed = hi_closed;
}

// out = L minus the range between a and b (open ends when `open`, else the point a == b).
// `out` must have room for L->count + 1 intervals.
static void set_remove(const SlopeSet* L, Frac a, Frac b, bool open, SlopeSet* out)
{
	out->count = 0;
	for (int i = 0; i < L->count; i++) {
		const gtSlopeInterval* I = &L->items[i];
		// Piece below a: ends at a, which stays when removing an open range.
		int ch = fcmp(I->hi, a);
		push_piece(out, I->lo, I->lo_closed, ch < 0 ? I->hi : a,
		           ch < 0 ? I->hi_closed : (open && (ch > 0 || I->hi_closed)));
		// Piece above b.
		int cl = fcmp(I->lo, b);
		push_piece(out, cl > 0 ? I->lo : b, cl > 0 ? I->lo_closed : (open && (cl < 0 || I->lo_closed)), I->hi,
		           I->hi_closed);
	}
}

typedef struct Octant {
	gtSweep* sweep;
	const gtMap* map;
	int vx, vy, qx, qy;
	bool swap;
	SlopeSet L, spare;
} Octant;

// World cell of canonical cell (i, j): the minimum corner of its image.
static void world_cell(const Octant* o, int i, int j, int* cx, int* cy)
{
	int ax = o->swap ? j : i, ay = o->swap ? i : j;
	int x0 = o->vx + o->qx * ax, x1 = o->vx + o->qx * (ax + 1);
	int y0 = o->vy + o->qy * ay, y1 = o->vy + o->qy * (ay + 1);
	*cx = x0 < x1 ? x0 : x1;
	*cy = y0 < y1 ? y0 : y1;
}

static bool blk(const Octant* o, int i, int j)
{
	int cx, cy;
	world_cell(o, i, j, &cx, &cy);
	if (cx < 0 || cy < 0 || cx >= o->map->width || cy >= o->map->height) return true;
	return gt_blocked(o->map, cx, cy) != 0;
}

static uint8_t* cell_slot(gtSweep* s, int cx, int cy)
{
	if (cx < 0 || cy < 0 || cx >= s->map->width || cy >= s->map->height) return NULL; // no query point there
	int32_t c = cy * s->map->width + cx;
	if (s->cell_stamp[c] != s->stamp) {
		s->cell_stamp[c] = s->stamp;
		s->cell_flags[c] = 0;
		s->touched[s->touched_count++] = c;
	}
	return &s->cell_flags[c];
}

static void touch(const Octant* o, int i, int j)
{
	int cx, cy;
	world_cell(o, i, j, &cx, &cy);
	uint8_t* f = cell_slot(o->sweep, cx, cy);
	if (f) *f |= FLAG_ANY;
}

static void record(const Octant* o, int i, int j, bool any, bool full)
{
	int cx, cy;
	world_cell(o, i, j, &cx, &cy);
	uint8_t* f = cell_slot(o->sweep, cx, cy);
	if (!f) return;
	if (any) *f |= FLAG_ANY;
	if (i == j) *f |= FLAG_DIAG;
	if (full) *f = (uint8_t)(*f + FLAG_FULL_ONE);
}

// Marks the neighbours whose closed cells share a visible point with free cell (k, j), k >= 1,
// given S = L within [lo, hi].
static void touch_neighbours(const Octant* o, int k, int j, Frac lo, Frac hi)
{
	const SlopeSet* L = &o->L;
#define SEEN(a, b)                                                                                                     \
	(fcmp((a), (b)) <= 0 && fcmp((a), hi) <= 0 && fcmp((b), lo) >= 0 &&                                                \
	 set_meets(L, fcmp((a), lo) > 0 ? (a) : lo, fcmp((b), hi) < 0 ? (b) : hi))
	Frac left0 = frac(j, k), left1 = frac(j + 1, k), right0 = frac(j, k + 1), right1 = frac(j + 1, k + 1);
	if (SEEN(left0, left1)) touch(o, k - 1, j);
	if (SEEN(right0, left0)) touch(o, k, j - 1);
	if (SEEN(right0, right1)) touch(o, k + 1, j);
	if (SEEN(right1, left1)) touch(o, k, j + 1);
	if (SEEN(right0, right0)) touch(o, k + 1, j - 1);
	if (SEEN(right1, right1)) touch(o, k + 1, j + 1);
	if (SEEN(left1, left1)) touch(o, k - 1, j + 1);
	if (SEEN(left0, left0)) touch(o, k - 1, j - 1);
#undef SEEN
}

// Removes a range from L (see set_remove), growing both buffers when L could outgrow them.
static bool remove_range(Octant* o, Frac a, Frac b, bool open)
{
	gtSweep* s = o->sweep;
	if (o->L.count + 1 > s->slope_capacity) {
		int cap = 2 * s->slope_capacity;
		bool grown = GT_RESIZE(o->L.items, cap) && GT_RESIZE(o->spare.items, cap);
		s->slopes[0] = o->L.items; // the sweep frees both, grown or not
		s->slopes[1] = o->spare.items;
		if (!grown) return false;
		s->slope_capacity = cap;
	}
	set_remove(&o->L, a, b, open, &o->spare);
	SlopeSet t = o->L;
	o->L = o->spare;
	o->spare = t;
	return true;
}

// Sweeps the slopes [from, to] of the octant (0 <= from <= to <= 1): the slope set stays the full
// sweep's within them, so every cell whose closed slope range lies within them is marked as a full
// sweep marks it.
static bool sweep_octant(Octant* o, Frac from, Frac to)
{
	const Frac zero = frac(0, 1), one = frac(1, 1), beyond = frac(2, 1);
	o->L.count = 0;
	push_piece(&o->L, from, true, to, true);
	int limit = o->swap ? (o->qy > 0 ? o->map->height - o->vy : o->vy) : (o->qx > 0 ? o->map->width - o->vx : o->vx);
	for (int k = 0; k < limit && o->L.count > 0; k++) {
		Frac s_lo = o->L.items[0].lo, s_hi = o->L.items[o->L.count - 1].hi;
		int j_min = 0, j_max = 0;
		if (k > 0) {
			int64_t c = (s_lo.num * k + s_lo.den - 1) / s_lo.den; // ceil(s_lo * k), s_lo >= 0
			j_min = c > 0 ? (int)c - 1 : 0;
			int64_t f = s_hi.num * (k + 1) / s_hi.den;
			j_max = f < k ? (int)f : k;
		}
		int jb = -1;
		for (int j = j_min; j <= j_max; j++) {
			bool blocked = blk(o, k, j);
			Frac r0 = frac(j, k + 1), r1 = k == 0 ? one : (fcmp(frac(j + 1, k), one) < 0 ? frac(j + 1, k) : one);
			Frac lo = r0;
			bool cut = jb >= 0 && k > 0 && fcmp(frac(jb + 1, k), r0) > 0; // rays must clear blocked cells below
			if (cut) lo = frac(jb + 1, k);
			bool any = fcmp(lo, r1) <= 0 && set_meets(&o->L, lo, r1);
			bool full = any && !blocked && !cut && set_covers(&o->L, r0, r1);
			record(o, k, j, any, full);
			if (full &&
			    j < k) { // the whole closed cell is seen (a diagonal cell is only half ours): so is every neighbour
				for (int dj = -1; dj <= 1; dj++)
					for (int dk = -1; dk <= 1; dk++)
						if (dj || dk) touch(o, k + dk, j + dj);
			} else if (any && !blocked) {
				if (k == 0) {
					touch(o, 1, 0); // right edge: every slope of [0, 1]
					if (set_meets(&o->L, one, one)) touch(o, 0, 1), touch(o, 1, 1);
					if (set_meets(&o->L, zero, zero)) touch(o, 0, -1), touch(o, 1, -1);
				} else {
					touch_neighbours(o, k, j, lo, r1);
				}
			}
			if (blocked) jb = j;
		}
		// Transition to column k + 1. Axis first: a wall-hugging ray along slope 0 sees the cells
		// on both sides of the axis even when the in-quadrant side is blocked.
		bool below = blk(o, k, -1), above = blk(o, k, 0);
		if (j_min == 0 && set_meets(&o->L, zero, zero) && !(above && below)) {
			touch(o, k, 0), touch(o, k, -1), touch(o, k + 1, 0), touch(o, k + 1, -1);
		}
		for (int j = j_min; j <= j_max; j++) {
			if (blk(o, k, j) && !remove_range(o, frac(j, k + 1), k == 0 ? beyond : frac(j + 1, k), true)) return false;
		}
		for (int j = j_min > 1 ? j_min : 1; j <= j_max + 1; j++) {
			bool pinch = blk(o, k, j) && blk(o, k + 1, j - 1); // at grid point (k + 1, j)
			if (pinch && !remove_range(o, frac(j, k + 1), frac(j, k + 1), false)) return false;
		}
		bool axis_closed = (above && below) || (above && blk(o, k + 1, -1)) || (below && blk(o, k + 1, 0));
		if (axis_closed && !remove_range(o, zero, zero, false)) return false;
	}
	return true;
}

gtStatus gt_sweep_init(gtSweep* sweep, const gtMap* map, gtError* err)
{
	memset(sweep, 0, sizeof *sweep);
	size_t cells = (size_t)map->width * (size_t)map->height;
	sweep->map = map;
	sweep->cell_stamp = gt_calloc(cells, sizeof *sweep->cell_stamp);
	sweep->cell_flags = gt_malloc(cells);
	sweep->touched = gt_malloc(cells * sizeof *sweep->touched);
	sweep->slope_capacity = 64; // grows when a slope set needs more intervals
	for (int i = 0; i < 2; i++) sweep->slopes[i] = gt_malloc((size_t)sweep->slope_capacity * sizeof(gtSlopeInterval));
	if (!sweep->cell_stamp || !sweep->cell_flags || !sweep->touched || !sweep->slopes[0] || !sweep->slopes[1]) {
		gt_sweep_free(sweep);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the visibility sweep (%zu cells)", cells);
	}
	return GT_OK;
}

void gt_sweep_free(gtSweep* sweep)
{
	gt_free(sweep->cell_stamp);
	gt_free(sweep->cell_flags);
	gt_free(sweep->touched);
	gt_free(sweep->slopes[0]);
	gt_free(sweep->slopes[1]);
	memset(sweep, 0, sizeof *sweep);
}

// Narrows [*lo, *hi] to the slopes s with a + b s >= 0; false when nothing is left.
static bool keep_slopes(int64_t a, int64_t b, Frac* lo, Frac* hi)
{
	if (b > 0 && fcmp(frac(-a, b), *lo) > 0) *lo = frac(-a, b);
	if (b < 0 && fcmp(frac(a, -b), *hi) < 0) *hi = frac(a, -b);
	return (b != 0 || a >= 0) && fcmp(*lo, *hi) <= 0;
}

static int64_t cross2(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
	return ax * by - ay * bx;
}

bool gt_sweep_sector(gtVertex v, const int box[4], gtSweepSector* out)
{
	if (v.x >= box[0] && v.x <= box[2] && v.y >= box[1] && v.y <= box[3]) return false;
	int64_t corner[4][2] = {{box[0] - v.x, box[1] - v.y},
	                        {box[2] - v.x, box[1] - v.y},
	                        {box[0] - v.x, box[3] - v.y},
	                        {box[2] - v.x, box[3] - v.y}};
	int lo = 0, hi = 0; // the box is seen under less than 180 degrees: its extreme corners bound it
	for (int i = 1; i < 4; i++) {
		if (cross2(corner[lo][0], corner[lo][1], corner[i][0], corner[i][1]) < 0) lo = i;
		if (cross2(corner[i][0], corner[i][1], corner[hi][0], corner[hi][1]) < 0) hi = i;
	}
	out->vx = v.x, out->vy = v.y;
	out->lo[0] = corner[lo][0], out->lo[1] = corner[lo][1];
	out->hi[0] = corner[hi][0], out->hi[1] = corner[hi][1];
	return true;
}

bool gt_sweep_sector_holds(const gtSweepSector* s, int x0, int y0, int x1, int y1)
{
	if (s->vx >= x0 && s->vx <= x1 && s->vy >= y0 && s->vy <= y1) return false;
	const int xs[2] = {x0, x1}, ys[2] = {y0, y1};
	for (int i = 0; i < 4; i++) {
		int64_t px = xs[i & 1] - s->vx, py = ys[i >> 1] - s->vy;
		if (cross2(s->lo[0], s->lo[1], px, py) < 0 || cross2(px, py, s->hi[0], s->hi[1]) < 0) return false;
	}
	return true;
}

static gtStatus sweep_vertex(gtSweep* sweep, gtVertex v, const gtSweepSector* sector, gtError* err);

gtStatus gt_sweep_vertex(gtSweep* sweep, gtVertex v, gtError* err)
{
	return sweep_vertex(sweep, v, NULL, err);
}

gtStatus gt_sweep_vertex_in(gtSweep* sweep, gtVertex v, const gtSweepSector* sector, gtError* err)
{
	return sweep_vertex(sweep, v, sector, err);
}

static gtStatus sweep_vertex(gtSweep* sweep, gtVertex v, const gtSweepSector* sector, gtError* err)
{
	sweep->stamp++;
	sweep->touched_count = 0;
	Octant o = {sweep, sweep->map, v.x, v.y, 0, 0, false, {sweep->slopes[0], 0}, {sweep->slopes[1], 0}};
	// The four cells around v always hold v itself.
	for (int dy = -1; dy <= 0; dy++)
		for (int dx = -1; dx <= 0; dx++) {
			uint8_t* f = cell_slot(sweep, v.x + dx, v.y + dy);
			if (f) *f |= FLAG_ANY;
		}
	// Taut quadrants: Q1 towards (-bx, by) and Q2 towards (bx, -by), each as two octants.
	const int quadrants[2][2] = {{-v.bx, v.by}, {v.bx, -v.by}};
	for (int q = 0; q < 2; q++)
		for (int swap = 0; swap < 2; swap++) {
			o.qx = quadrants[q][0];
			o.qy = quadrants[q][1];
			o.swap = swap != 0;
			Frac from = frac(0, 1), to = frac(1, 1);
			if (sector) { // the slopes s whose direction (1, s) lies between the sector's two
				int64_t qx = o.qx, qy = o.qy, lx = sector->lo[0], ly = sector->lo[1];
				int64_t hx = sector->hi[0], hy = sector->hi[1];
				bool some = o.swap ? keep_slopes(lx * qy, -ly * qx, &from, &to) &&
				                         keep_slopes(-qy * hx, qx * hy, &from, &to)
				                   : keep_slopes(-ly * qx, lx * qy, &from, &to) &&
				                         keep_slopes(qx * hy, -qy * hx, &from, &to);
				if (!some) continue;
			}
			if (!sweep_octant(&o, from, to)) return gt_fail(err, GT_ERR_NOMEM, "out of memory in the visibility sweep");
		}
	return GT_OK;
}

int gt_sweep_status(const gtSweep* sweep, int32_t cell)
{
	if (sweep->cell_stamp[cell] != sweep->stamp) return 0;
	uint8_t f = sweep->cell_flags[cell];
	int full_parts = (f & FLAG_FULL_MASK) / FLAG_FULL_ONE;
	int cx = cell % sweep->map->width, cy = cell / sweep->map->width;
	if (!gt_blocked(sweep->map, cx, cy) && full_parts == ((f & FLAG_DIAG) ? 2 : 1)) return GT_UNIT_FULL;
	return (f & FLAG_ANY) ? GT_UNIT_PARTIAL : 0;
}
