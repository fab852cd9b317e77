// An EHL index that knows links: the link ends as vertices of the labelled graph (ehl_links.h).
// Everything else of the build and the query is the plain index's: the hub labels of the joined
// graph hold the walks through links, a cell lists the ends its points may see as PARTIAL vias
// (the query checks their visibility), and pruning rules that assume a bend wraps a corner keep
// every entry that starts or ends at a link end.
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/platform.h"
#include "core/status.h"
#include "core/task.h"
#include "ehl/ehl_end_ranks.h"
#include "ehl/ehl_links.h"
#include "ehl/ehl_repair.h"
#include "map/geometry.h"
#include "map/map_internal.h"

// The link ends the labels rank early (gt_hub_labels_build_from): one end of every link that is
// not idle, the one with more edges (a on a tie), most edges first. This list gives the first early
// rank; each later one goes to the end the last search's tree covers most (next_early in
// hub_labels.c; a list by each link's walking region, smallest first, did as well on AR0602SR but 9%
// worse on generated rooms, largest first 16% worse). Ranked, they cut every later search at the
// links, so a later hub labels only what it reaches without them: the corners of one floor do not
// carry the other floors' later hubs (docs/links.md "Floors apart"). One end suffices (a walk
// through the link passes it) and ranks half as many hubs as both would.
// Teleporters (a link whose ends share a component without links, costing at most TELEPORTER times
// its straight length) go first, at ranks 0 on: each shortens walks all over its component, so an
// end ranked first covers them, where ranked after 32 roots every later corner's label still holds
// the early roots' walks through it (label entries on AR0602SR + 100 teleporters 273k -> 220k,
// generated rooms and caves 10-14% fewer; links about as long as their cost, or between floors, lose
// by it: +16-50%, 776k against 396k on two floors, so they keep the schedule).
// NULL with *early_count 0 when there is nothing to rank early, or no room (the order only costs).
#define TELEPORTER 0.5

// Each vertex's component of `g` without the links' own edges (an edge between the two ends of a
// link), by a search from every vertex not yet reached; NULL when out of memory.
static int32_t* components_without_links(const gtVisGraph* g, int corners)
{
	int32_t* comp = gt_malloc(((size_t)g->n + 1) * sizeof *comp);
	int32_t* stack = gt_malloc(((size_t)g->n + 1) * sizeof *stack);
	if (!comp || !stack) {
		gt_free(comp), gt_free(stack);
		return NULL;
	}
	for (int v = 0; v < g->n; v++) comp[v] = -1;
	for (int v = 0; v < g->n; v++) {
		if (comp[v] >= 0) continue;
		int top = 0;
		comp[v] = v, stack[top++] = v;
		while (top > 0) {
			int u = stack[--top];
			for (int64_t k = g->offset[u]; k < g->offset[u + 1]; k++) {
				int w = g->adj[k];
				bool link = u >= corners && w >= corners && (u - corners) / 2 == (w - corners) / 2;
				if (comp[w] < 0 && !link) comp[w] = v, stack[top++] = w;
			}
		}
	}
	gt_free(stack);
	return comp;
}

static int32_t* early_ends(const gtVisGraph* g, int corners, const gtEhlLink* links, const uint8_t* idle, int count,
                           int* early_count, int* front)
{
	*early_count = *front = 0;
	int64_t* key = gt_malloc(((size_t)count + 1) * sizeof *key);
	int32_t* early = gt_malloc(((size_t)count + 1) * sizeof *early);
	int32_t* comp = components_without_links(g, corners);
	if (!key || !early || !comp) {
		gt_free(key), gt_free(early), gt_free(comp);
		return NULL;
	}
	int m = 0;
	for (int k = 0; k < count; k++) {
		int a = corners + 2 * k;
		int64_t da = g->offset[a + 1] - g->offset[a], db = g->offset[a + 2] - g->offset[a + 1];
		if (idle && idle[k]) continue;
		int v = db > da ? a + 1 : a; // the build's degree order: degree < 2^30
		const gtEhlLink* l = &links[k];
		bool first = comp[a] == comp[a + 1] && l->cost <= TELEPORTER * hypot(l->b.x - l->a.x, l->b.y - l->a.y);
		*front += first;
		// Below INT64_MAX only because a link end's degree is >= 1 (its link edge): degree 0 would overflow.
		key[m++] = (first ? 0 : INT64_C(1) << 62) + ((INT64_C(1) << 30) - (db > da ? db : da)) * (INT64_C(1) << 32) + v;
	}
	qsort(key, (size_t)m, sizeof *key, gt_compare_int64);
	for (int i = 0; i < m; i++) early[i] = (int32_t)(key[i] & 0xffffffff);
	gt_free(key), gt_free(comp);
	*early_count = m;
	return early;
}

gtStatus gtEhl_BuildWithLinks(const gtMap* map, const gtEhlDef* def, const gtEhlLink* links, int count, gtEhl** out,
                              gtError* err)
{
	return gt_ehl_build_with_links(map, def, links, count, true, out, err);
}

gtStatus gt_ehl_build_with_links(const gtMap* map, const gtEhlDef* def, const gtEhlLink* links, int count,
                                 bool ends_last, gtEhl** out, gtError* err)
{
	if (count == 0) return gtEhl_Build(map, def, out, err);
	double start = gtNowSeconds();
	*out = NULL;
	gtEhlDef defaults = gtEhl_DefaultDef();
	if (!def) def = &defaults;
	gtStatus st = gt_ehl_check_def(def, err);
	if (st) return st;
	gtEhl check = {.map = map}; // the links' checks before the long part
	check.vertices = gtMap_Vertices(map, &check.corners);
	if ((st = gt_ehl_check_links(&check, links, count, err))) return st;
	int threads = gt_resolve_threads(def->threads);
	gtVisGraph graph;
	gt_ehl_report(def, "visibility graph", 0);
	int64_t base = gt_ehl_peak_begin(def);
	if ((st = gt_vis_graph_build(map, def->tasks, threads, false, &graph, err)))
		return gt_ehl_check_peak(def, base, st, out, err);
	gtEhlEndRegions regions;
	st = gt_ehl_join_links(map, &graph, links, count, def->tasks, threads, &regions, err);
	int64_t vg_edges = graph.offset[graph.n] / 2;
	gtHubLabels labels;
	if (!st) gt_ehl_report(def, "hub labels", 0);
	gtVec2* ends = gt_malloc(((size_t)2 * count + 1) * sizeof *ends);
	if (!st && !ends) st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
	for (int k = 0; !st && k < count; k++) ends[2 * k] = links[k].a, ends[2 * k + 1] = links[k].b;
	int early_count = 0, front = 0;
	int32_t* early = st ? NULL : early_ends(&graph, check.corners, links, regions.idle, count, &early_count, &front);
	if (!st) st = gt_hub_labels_build_from(map, &graph, ends, early, early_count, front, def, threads, &labels, err);
	gt_free(ends), gt_free(early);
	if (!st && ends_last && !gt_ehl_rank_ends_last(&labels, check.corners, links, count)) {
		gt_hub_labels_free(&labels);
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
	}
	gt_vis_graph_free(&graph);
	if (!st)
		st = gt_ehl_build_from_link_labels(map, def, threads, &labels, NULL, vg_edges, start, links, count, &regions,
		                                   out, err);
	gt_ehl_end_regions_free(&regions);
	return gt_ehl_check_peak(def, base, st, out, err);
}


// ---- the cells that may see a free point ----------------------------------------------------
//
// Rings of unit cells around p's cell by Chebyshev distance: a ray from p leaves ring k - 1 before
// it enters ring k, so it meets every blocked cell of an inner ring before any point of ring k. A
// cell of ring k is out when its angular extent seen from p lies inside the union of the open
// extents of inner blocked cells (each shrunk a little, so that rounding only ever keeps more
// cells); the cells kept are those next to a kept cell of the ring before or of their own ring,
// since the cells along a visible segment are all kept and follow one another that way. Angles are
// pseudo-angles (a turn is 4, see turn_of): they order directions as angles do, with a division
// where an angle takes a library call.

#define FULL_TURN 4.0
#define SHRINK 1e-9

typedef struct Arc {
	double lo, hi; // open, lo < hi, within [-1, 5] (pseudo-angles)
} Arc;

typedef struct Region {
	gtSweep* sweep;
	gtVec2 p;
	int cx, cy; // p's cell
	Arc* arcs;  // blocked, sorted and disjoint
	int arc_count;
	int64_t arc_capacity;
	Arc* pending; // this ring's blocked extents, added once the ring is done
	int pending_count;
	int64_t pending_capacity;
	// Ring k's cells by their place around it (ring_place): state[k & 1] per place, the places kept
	// in ring k - 1 and k (kept[(k - 1) & 1], kept[k & 1]) and those still to test (work).
	uint8_t* state[2];
	int32_t *kept[2], *work;
	int kept_count[2], work_count;
} Region;

// gt_sweep_status reads SEEN as PARTIAL, SEEN | WHOLE as FULL (a free cell), TESTED alone as nothing.
enum { TESTED = 0x10, SEEN = GT_SWEEP_FLAG_ANY, WHOLE = GT_EHL_END_WHOLE };

// The direction (dx, dy) as a pseudo-angle in [0, 4), counterclockwise from +x: each quarter turn
// is dy / (|dx| + |dy|) or its like, increasing with the angle (its slope per radian is 0.5 to 1).
static double turn_of(double dx, double dy)
{
	if (dy >= 0) return dx >= 0 ? dy / (dx + dy) : 1 - dx / (dy - dx);
	return dx < 0 ? 2 - dy / (-dx - dy) : 3 + dx / (dx - dy);
}

// The directions from p of cell (x, y)'s corners, as lo .. hi with lo in [0, 4) (p outside the open
// cell). Every corner is within a quarter turn of the centre's direction, so the differences from it
// need no more than one wrap.
// Seen from a side of the cell (p strictly outside its rows or columns), the extremes are the two
// corners on that side; seen from a diagonal, the two other than the nearest and the farthest: the
// others' directions lie strictly between, so the extremes alone give the same lo and hi. Corner k is
// (x + (k & 1), y + (k >> 1)); index: 3 * (the cell's side in y) + its side in x, each 0 when the cell
// lies below p's coordinate, 1 around it, 2 above it.
static const uint8_t EXTREMES[9] = {0x6, 0xC, 0x9, 0xA, 0xF, 0x5, 0x9, 0x3, 0x6};

static int side_of(double p, int from)
{
	return p < from ? 2 : p > from + 1 ? 0 : p > from && p < from + 1 ? 1 : -1; // -1: on a grid line
}

static void extent(const Region* r, int x, int y, double* lo, double* hi)
{
	double centre = turn_of(x + 0.5 - r->p.x, y + 0.5 - r->p.y), a = INFINITY, b = -INFINITY;
	int sx = side_of(r->p.x, x), sy = side_of(r->p.y, y);
	unsigned corners = sx < 0 || sy < 0 ? 0xF : EXTREMES[3 * sy + sx];
	for (int k = 0; k < 4; k++) {
		if (!(corners >> k & 1)) continue;
		double dx = x + (k & 1) - r->p.x, dy = y + (k >> 1) - r->p.y;
		if (dx == 0 && dy == 0) continue;
		double d = turn_of(dx, dy) - centre;
		d = d > FULL_TURN / 2 ? d - FULL_TURN : d < -FULL_TURN / 2 ? d + FULL_TURN : d;
		a = d < a ? d : a, b = d > b ? d : b;
	}
	double start = centre + a;
	start = start < 0 ? start + FULL_TURN : start >= FULL_TURN ? start - FULL_TURN : start;
	*lo = start;
	*hi = start + (b - a);
}

static bool inside_arcs(const Region* r, double lo, double hi)
{
	int first = 0, last = r->arc_count - 1, found = -1; // the last arc starting below lo
	while (first <= last) {
		int mid = (first + last) / 2;
		if (r->arcs[mid].lo < lo) found = mid, first = mid + 1;
		else last = mid - 1;
	}
	return found >= 0 && r->arcs[found].hi > hi;
}

static bool covered(const Region* r, double lo, double hi)
{
	if (hi <= FULL_TURN) return inside_arcs(r, lo, hi);
	return inside_arcs(r, lo, FULL_TURN) && inside_arcs(r, 0, hi - FULL_TURN);
}

static bool push_arc(Region* r, double lo, double hi)
{
	if (!GT_GROW(r->pending, r->pending_capacity, r->pending_count + 1, 64)) return false;
	r->pending[r->pending_count++] = (Arc){lo, hi};
	return true;
}

// Queues a blocked cell's extent (lo, hi), shrunk; one that wraps past a full turn is split with
// overlap at 0.
static bool block(Region* r, double lo, double hi)
{
	lo += SHRINK, hi -= SHRINK;
	if (!(lo < hi)) return true;
	if (hi <= FULL_TURN) return push_arc(r, lo, hi);
	return push_arc(r, lo, FULL_TURN + 1) && push_arc(r, -1, hi - FULL_TURN);
}

static int by_lo(const void* a, const void* b)
{
	double x = ((const Arc*)a)->lo, y = ((const Arc*)b)->lo;
	return (x > y) - (x < y);
}

// The ring's blocked extents join the arcs; overlapping open arcs merge (touching ones do not).
static bool merge_pending(Region* r)
{
	if (!r->pending_count) return true;
	if (!GT_GROW(r->arcs, r->arc_capacity, r->arc_count + r->pending_count, 64)) return false;
	memcpy(r->arcs + r->arc_count, r->pending, (size_t)r->pending_count * sizeof *r->arcs);
	int total = r->arc_count + r->pending_count, kept = 0;
	r->pending_count = 0;
	qsort(r->arcs, (size_t)total, sizeof *r->arcs, by_lo);
	for (int i = 0; i < total; i++) {
		if (kept > 0 && r->arcs[i].lo < r->arcs[kept - 1].hi) {
			r->arcs[kept - 1].hi = fmax(r->arcs[kept - 1].hi, r->arcs[i].hi);
		} else {
			r->arcs[kept++] = r->arcs[i];
		}
	}
	r->arc_count = kept;
	return true;
}

// The sweep's slot of unit cell c (stamped for this point), as gt_sweep_status reads it.
static uint8_t* slot(gtSweep* s, int32_t c)
{
	if (s->cell_stamp[c] != s->stamp) {
		s->cell_stamp[c] = s->stamp;
		s->cell_flags[c] = 0;
		s->touched[s->touched_count++] = c;
	}
	return &s->cell_flags[c];
}

// Whether an arc meets the closed range [lo, hi] (lo, hi within [0, 4]). The arcs are disjoint and
// sorted, so their ends are sorted too: only the first arc ending above lo can start below hi.
static bool arcs_meet(const Region* r, double lo, double hi)
{
	int first = 0, last = r->arc_count; // the first arc with hi > lo is in [first, last]
	while (first < last) {
		int mid = (first + last) / 2;
		if (r->arcs[mid].hi > lo) last = mid;
		else first = mid + 1;
	}
	return first < r->arc_count && r->arcs[first].lo < hi;
}

// Whether the squares within 2 of cell (x, y) and in rings up to k are free: a box (rings are squares
// around p's cell).
static bool box_free(const Region* r, int x, int y, int k)
{
	const gtMap* m = r->sweep->map;
	int x0 = x - 2 > r->cx - k ? x - 2 : r->cx - k, x1 = x + 2 < r->cx + k ? x + 2 : r->cx + k;
	int y0 = y - 2 > r->cy - k ? y - 2 : r->cy - k, y1 = y + 2 < r->cy + k ? y + 2 : r->cy + k;
	if (x0 < 0 || y0 < 0 || x1 >= m->width || y1 >= m->height) return false;
	// A row of the box is free when the free run from its first cell on (towards +x) spans it: a
	// load a row where a load a cell cost AR0602SR's 200 teleporter ends 0.06G of their 0.47G.
	const unsigned char* run = m->run_x + (int64_t)(y0 + 1) * m->stride + (x0 + 1);
	for (int ny = y0; ny <= y1; ny++, run += m->stride)
		if (*run < x1 - x0 + 1) return false;
	return true;
}

// Whether every point of free cell (x, y) of ring k >= 3 sees p: the segment from p to any of them
// crosses the ring's annulus within 2 cells of the cell (a ray from p, in the middle of the rings,
// leaves ring k - 1 through a side at most 1.5 cells off), so it touches no blocked cell when none is
// within 2 cells there and the cell's extent, widened, meets no arc of the inner blocked cells.
static bool seen_whole(const Region* r, int x, int y, int k, double lo, double hi)
{
	lo -= 4 * SHRINK, hi += 4 * SHRINK; // the arcs first: a few comparisons where the squares are 25
	if (lo < 0           ? arcs_meet(r, 0, hi) || arcs_meet(r, lo + FULL_TURN, FULL_TURN)
	    : hi > FULL_TURN ? arcs_meet(r, lo, FULL_TURN) || arcs_meet(r, 0, hi - FULL_TURN)
	                     : arcs_meet(r, lo, hi))
		return false;
	return box_free(r, x, y, k);
}

// The flags of free cell (x, y) of ring k >= 1 whose widened extent wraps past no full turn, or 0 when
// its extent is covered: one search for both, where covered and seen_whole make one each. The last
// arc starting below lo is the only one that can hold the extent; the arcs meeting the widened one
// start at most one arc later (the arcs are sorted and disjoint, so their ends are sorted too).
static uint8_t free_cell_flags(const Region* r, int x, int y, int k, double lo, double hi)
{
	const Arc* arcs = r->arcs;
	int first = 0, last = r->arc_count - 1, found = -1;
	while (first <= last) {
		int mid = (first + last) / 2;
		if (arcs[mid].lo < lo) found = mid, first = mid + 1;
		else last = mid - 1;
	}
	if (found >= 0 && arcs[found].hi > hi) return 0;
	if (k < 3) return SEEN | TESTED;
	double wide_lo = lo - 4 * SHRINK, wide_hi = hi + 4 * SHRINK;
	int i = found + 1; // arcs[i] ends above wide_lo (or i is past the last): the first such is at most i
	while (i > 0 && arcs[i - 1].hi > wide_lo) i--;
	bool meets = i < r->arc_count && arcs[i].lo < wide_hi;
	return (uint8_t)(SEEN | TESTED | (!meets && box_free(r, x, y, k) ? WHOLE : 0));
}

// Cell (x, y) of ring k: kept (true) unless its extent is covered; a kept blocked cell hides what is
// behind it. *failed when out of memory.
static bool test_cell(Region* r, int x, int y, int k, bool* failed)
{
	const gtMap* m = r->sweep->map;
	double lo = 0, hi = 0;
	bool blocked = gt_blocked(m, x, y);
	if (k > 0 || blocked) extent(r, x, y, &lo, &hi);                             // ring 0 (p's cell): only to block
	if (k > 0 && !blocked && lo >= 8 * SHRINK && hi <= FULL_TURN - 8 * SHRINK) { // most cells
		uint8_t flags = free_cell_flags(r, x, y, k, lo, hi);
		if (flags) *slot(r->sweep, y * m->width + x) |= flags;
		return flags != 0;
	}
	if (k > 0 && covered(r, lo, hi)) return false;
	*slot(r->sweep,
	      y * m->width + x) |= (uint8_t)(SEEN | TESTED | (k >= 3 && seen_whole(r, x, y, k, lo, hi) ? WHOLE : 0));
	if (blocked && !block(r, lo, hi)) *failed = true; // the extent made above
	return true;
}

// Ring k >= 1 (the cells at Chebyshev distance k from p's cell) as a cycle of 8k places, from the
// cell right above the corner (+k, -k) counterclockwise: side s (0: x = +k, 1: y = +k, 2: x = -k,
// 3: y = -k) holds places 2ks .. 2ks + 2k - 1, its last one a corner. Two cells of the ring touch
// when their places are next to each other, or are the two around a corner.
static void ring_cell(const Region* r, int k, int place, int* x, int* y)
{
	int s = place / (2 * k), t = place - 2 * k * s;
	switch (s) {
	case 0: *x = r->cx + k, *y = r->cy - k + 1 + t; break;
	case 1: *x = r->cx + k - 1 - t, *y = r->cy + k; break;
	case 2: *x = r->cx - k, *y = r->cy + k - 1 - t; break;
	default: *x = r->cx - k + 1 + t, *y = r->cy - k; break;
	}
}

enum { QUEUED = 1, OUT = 2, KEPT = 3 }; // a place's state (0: not met yet)
enum { GAP_RINGS_FROM = 5 };

// Queues place i of ring k (taken modulo 8k) for testing unless it was met or is off the map.
static inline void queue_place(Region* r, int k, int i)
{
	int n = 8 * k;
	i = i < 0 ? i + n : i >= n ? i - n : i;
	uint8_t* state = r->state[k & 1];
	if (state[i]) return;
	int x, y;
	ring_cell(r, k, i, &x, &y);
	const gtMap* m = r->sweep->map;
	if (x < 0 || y < 0 || x >= m->width || y >= m->height) {
		state[i] = OUT;
		return;
	}
	state[i] = QUEUED;
	r->work[r->work_count++] = i;
}

// Ring k from the places kept in ring k - 1: each cell of ring k next to one of them is tested, and
// each cell next to a kept one of ring k (the cells along a visible segment follow one another so).
// The kept places into kept[k & 1].
static bool walk_ring(Region* r, int k)
{
	int n = 8 * k, *kept = r->kept[k & 1], count = 0;
	memset(r->state[k & 1], 0, (size_t)n);
	r->work_count = 0;
	const int32_t* inner = r->kept[(k - 1) & 1];
	for (int i = 0; i < r->kept_count[(k - 1) & 1]; i++) {
		if (k == 1) { // ring 0 is p's cell: every cell of ring 1 touches it
			for (int j = 0; j < 8; j++) queue_place(r, 1, j);
			break;
		}
		// Place t of side s in ring k - 1 touches places t .. t + 2 of side s in ring k, and the
		// corner (t = 2k - 3) the two after them too.
		int j = inner[i], s = j / (2 * k - 2), t = j - (2 * k - 2) * s, at = 2 * k * s + t;
		for (int d = 0; d < (t == 2 * k - 3 ? 5 : 3); d++) queue_place(r, k, at + d);
	}
	bool failed = false;
	while (r->work_count > 0 && !failed) {
		int i = r->work[--r->work_count], x, y;
		ring_cell(r, k, i, &x, &y);
		if (!test_cell(r, x, y, k, &failed)) {
			r->state[k & 1][i] = OUT;
			continue;
		}
		r->state[k & 1][i] = KEPT;
		kept[count++] = i;
		int t = i % (2 * k);
		queue_place(r, k, i - 1), queue_place(r, k, i + 1);
		if (t == 2 * k - 2) queue_place(r, k, i + 2); // the cell after the corner
		if (t == 0) queue_place(r, k, i - 2);         // the cell before the last corner
	}
	r->kept_count[k & 1] = count;
	return !failed;
}

// The place of cell (x, y) of ring k (see ring_cell).
static int place_of(const Region* r, int k, int x, int y)
{
	int dx = x - r->cx, dy = y - r->cy;
	if (dx == k && dy > -k) return dy + k - 1;
	if (dy == k) return 2 * k + k - 1 - dx;
	if (dx == -k) return 4 * k + k - 1 - dy;
	return 6 * k + dx + k - 1;
}

// The place of ring k whose cell the ray from p of pseudo-angle t leaves the ring from (its exit
// from the ring's outer square). The ray crosses the ring in that cell and at most one place either
// side of it; rounding may move the exit by a place.
static int place_at(const Region* r, int k, double t)
{
	t = t < 0 ? t + FULL_TURN : t >= FULL_TURN ? t - FULL_TURN : t;
	int q = (int)t > 3 ? 3 : (int)t;
	double f = t - q, dx = q == 0 ? 1 - f : q == 1 ? -f : q == 2 ? f - 1 : f;
	double dy = q == 0 ? f : q == 1 ? 1 - f : q == 2 ? -f : f - 1; // turn_of(dx, dy) is t
	double x0 = r->cx - k, x1 = r->cx + k + 1, y0 = r->cy - k, y1 = r->cy + k + 1;
	double tx = dx > 0 ? (x1 - r->p.x) / dx : dx < 0 ? (x0 - r->p.x) / dx : INFINITY;
	double ty = dy > 0 ? (y1 - r->p.y) / dy : dy < 0 ? (y0 - r->p.y) / dy : INFINITY;
	int x, y;
	if (tx <= ty) {
		x = dx > 0 ? r->cx + k : r->cx - k;
		double hy = floor(r->p.y + tx * dy);
		y = hy < y0 ? (int)y0 : hy > r->cy + k ? r->cy + k : (int)hy;
	} else {
		y = dy > 0 ? r->cy + k : r->cy - k;
		double hx = floor(r->p.x + ty * dx);
		x = hx < x0 ? (int)x0 : hx > r->cx + k ? r->cx + k : (int)hx;
	}
	return place_of(r, k, x, y);
}

// The cells of ring k in the directions between gap_lo and gap_hi (at most a quarter turn apart) that
// no arc holds. The cells within 2 places of the places the two rays leave from are tested as
// test_cell does; the ones between lie wholly inside the gap, a cell or more from both rays, so no
// arc holds them or meets their widened extent: each is kept at once, WHOLE when its box is free.
static bool walk_gap(Region* r, int k, double gap_lo, double gap_hi)
{
	int n = 8 * k, from = place_at(r, k, gap_lo), to = place_at(r, k, gap_hi);
	int span = (to - from + n) % n;
	span = span > n / 2 ? 0 : span; // a rounding that moved the exit back past the other ray's
	const gtMap* m = r->sweep->map;
	uint8_t* state = r->state[0];
	bool failed = false;
	static const int STEP[4][2] = {{0, 1}, {-1, 0}, {0, -1}, {1, 0}}; // along side s, counterclockwise
	int i = (from - 2 + n) % n, s = i / (2 * k), t = i - 2 * k * s, x, y;
	ring_cell(r, k, i, &x, &y);
	for (int j = -2; j <= span + 2 && !failed; j++) {
		if (j > -2) { // the next place: a step along its side (from a corner, along the next side)
			i = i + 1 < n ? i + 1 : 0;
			if (++t == 2 * k) t = 0, s = (s + 1) & 3;
			x += STEP[s][0], y += STEP[s][1];
		}
		if (state[i]) continue;
		state[i] = 1;
		if (x < 0 || y < 0 || x >= m->width || y >= m->height) continue;
		if (j <= 2 || j >= span - 2) {
			test_cell(r, x, y, k, &failed);
		} else if (gt_blocked(m, x, y)) {
			double lo, hi;
			extent(r, x, y, &lo, &hi);
			*slot(r->sweep, y * m->width + x) |= SEEN | TESTED;
			failed = !block(r, lo, hi);
		} else {
			*slot(r->sweep,
			      y * m->width + x) |= (uint8_t)(SEEN | TESTED | (k >= 3 && box_free(r, x, y, k) ? WHOLE : 0));
		}
	}
	return !failed;
}

// Ring k from the gaps between the arcs (the directions no inner blocked cell hides): every cell of
// the ring some direction of which lies in a gap, which holds every cell walk_ring keeps. False when
// out of memory; *open false when there is no gap left.
static bool walk_gaps(Region* r, int k, bool* open)
{
	memset(r->state[0], 0, (size_t)8 * k);
	double at = 0; // the directions below are held by an arc or walked; at itself is in no arc
	*open = false;
	for (int i = 0; i <= r->arc_count && at <= FULL_TURN; i++) {
		double lo = i < r->arc_count ? r->arcs[i].lo : FULL_TURN, hi = i < r->arc_count ? r->arcs[i].hi : FULL_TURN;
		if (lo >= at) { // the closed gap [at, lo], walked a quarter turn at a time
			double end = lo < FULL_TURN ? lo : FULL_TURN;
			*open = true;
			for (double piece = at; piece <= end; piece += 1)
				if (!walk_gap(r, k, piece, piece + 1 < end ? piece + 1 : end)) return false;
		}
		at = hi > at ? hi : at;
	}
	return true;
}

static void free_region(Region* r)
{
	gt_free(r->arcs), gt_free(r->pending), gt_free(r->state[0]), gt_free(r->kept[0]);
}

gtStatus gt_ehl_link_region(gtSweep* sweep, gtVec2 p, gtError* err)
{
	const gtMap* m = sweep->map;
	sweep->stamp++;
	sweep->touched_count = 0;
	Region r;
	memset(&r, 0, sizeof r);
	r.sweep = sweep;
	r.p = p;
	r.cx = (int)p.x < m->width ? (int)p.x : m->width - 1;
	r.cy = (int)p.y < m->height ? (int)p.y : m->height - 1;
	// A ring past the map's larger side holds no cell of it: 8 places a unit of it, 3 lists of them.
	int64_t places = 8 * (int64_t)(m->width > m->height ? m->width : m->height) + 8;
	r.state[0] = gt_malloc(2 * (size_t)places);
	r.kept[0] = gt_malloc(3 * (size_t)places * sizeof *r.kept[0]);
	bool failed = !r.state[0] || !r.kept[0];
	if (!failed) {
		r.state[1] = r.state[0] + places, r.kept[1] = r.kept[0] + places, r.work = r.kept[0] + 2 * places;
		test_cell(&r, r.cx, r.cy, 0, &failed);
		r.kept_count[0] = 1; // ring 0: p's cell, kept always
		failed = failed || !merge_pending(&r);
	}
	// The first rings cell by cell (their cells' extents are wide), the others by the gaps.
	int k = 1, last = r.cx > m->width - 1 - r.cx ? r.cx : m->width - 1 - r.cx;
	last = r.cy > last ? r.cy : m->height - 1 - r.cy > last ? m->height - 1 - r.cy : last;
	for (; k <= GAP_RINGS_FROM - 1 && !failed && r.kept_count[(k - 1) & 1] > 0; k++)
		failed = !walk_ring(&r, k) || !merge_pending(&r);
	bool open = k == GAP_RINGS_FROM;
	for (; k <= last && !failed && open; k++) failed = !walk_gaps(&r, k, &open) || !merge_pending(&r);
	free_region(&r);
	return !failed ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for a link end's visible cells");
}

// ---- the joined graph ------------------------------------------------------------------------

typedef struct EndEdge {
	int32_t end, other; // end: its index among the ends; other: a vertex id of the joined graph
	double length;
} EndEdge;

// A shortest path only bends at corner v when it wraps v's blocked cell (as in oracle_links.c).
static bool tangent(gtVertex v, gtVec2 p)
{
	return v.bx * v.by * (p.x - v.x) * (p.y - v.y) <= 0;
}

// Whether cell c is in the region just made.
static inline bool seen_at(const gtSweep* s, int32_t c)
{
	return s->cell_stamp[c] == s->stamp && (s->cell_flags[c] & SEEN);
}

// Whether the region just made may hold a segment ending at grid point (x, y) or in the square
// right and below it: one of the cells around the point is in it.
static bool region_near_at(const gtSweep* s, int x, int y)
{
	const gtMap* m = s->map;
	if (x > 0 && y > 0 && x < m->width && y < m->height) { // the four cells on the map: no bounds tests
		int32_t c = (y - 1) * m->width + x - 1, w = m->width;
		return seen_at(s, c) || seen_at(s, c + 1) || seen_at(s, c + w) || seen_at(s, c + w + 1);
	}
	for (int cy = y - 1; cy <= y; cy++)
		for (int cx = x - 1; cx <= x; cx++) {
			if (cx < 0 || cy < 0 || cx >= m->width || cy >= m->height) continue;
			int32_t c = cy * m->width + cx;
			if (seen_at(s, c)) return true;
		}
	return false;
}

// The same for a point q (a corner's is a grid point: region_near_at, without the floor calls).
static bool region_near(const gtSweep* s, gtVec2 q)
{
	return region_near_at(s, (int)floor(q.x), (int)floor(q.y));
}

static bool push_edge(EndEdge** edges, int64_t* count, int64_t* capacity, EndEdge e)
{
	if (!GT_GROW(*edges, *capacity, *count + 1, 1024)) return false;
	(*edges)[(*count)++] = e;
	return true;
}

// Keeps the region just made as end e's (the ends come in order), while the kept cells stay under
// a cap; false when out of memory.
enum { KEPT_REGION_CELLS = 1 << 24 };
static bool keep_region(gtEhlEndRegions* r, const gtSweep* s, int e)
{
	if (!r || r->kept != e) return true;
	if (!r->begin && !(r->begin = gt_calloc((size_t)e + 2, sizeof *r->begin))) return false;
	int64_t at = r->begin[e];
	if (at + s->touched_count > KEPT_REGION_CELLS) return true;
	int64_t capacity = r->capacity;
	if (!GT_GROW(r->cell, capacity, at + s->touched_count, 4096) || !GT_RESIZE(r->flags, capacity)) return false;
	r->capacity = capacity;
	for (int i = 0; i < s->touched_count; i++) { // every cell a region touches is SEEN
		int32_t c = s->touched[i];
		r->cell[at] = c;
		r->flags[at++] = s->cell_flags[c];
	}
	int64_t* begin = gt_realloc(r->begin, ((size_t)e + 3) * sizeof *begin);
	if (!begin) return false;
	r->begin = begin;
	r->begin[++r->kept] = at;
	return true;
}

void gt_ehl_end_regions_free(gtEhlEndRegions* r)
{
	gt_free(r->begin), gt_free(r->cell), gt_free(r->flags), gt_free(r->idle);
	memset(r, 0, sizeof *r);
}

gtStatus gt_ehl_end_region(gtSweep* sweep, const gtEhlEndRegions* regions, int e, gtVec2 p, gtError* err)
{
	bool idle = regions && regions->idle && regions->idle[e / 2];
	if (!idle && (!regions || e >= regions->kept)) return gt_ehl_link_region(sweep, p, err);
	sweep->stamp++; // as gt_ehl_link_region starts
	sweep->touched_count = 0;
	if (idle) return GT_OK; // no cell lists an idle link's end
	for (int64_t i = regions->begin[e]; i < regions->begin[e + 1]; i++) {
		int32_t c = regions->cell[i];
		sweep->cell_stamp[c] = sweep->stamp;
		sweep->cell_flags[c] = regions->flags[i];
		sweep->touched[sweep->touched_count++] = c;
	}
	return GT_OK;
}

bool gt_ehl_link_idle(const gtMap* map, const gtEhlLink* l)
{
	// The same length as the join's edge between the two ends (hypot is symmetric), so that edge is
	// never dearer than the link: the graph's distances are the same without the link, to the bit.
	return l->cost >= hypot(l->b.x - l->a.x, l->b.y - l->a.y) && gt_visible_unchecked(map, l->a, l->b);
}

// One end's edges into a list of its own: the corners and the later ends its region lets it see, and
// its partner when it is the link's second end (the same edges in the same order as one loop).
typedef struct EdgeList {
	EndEdge* edge;
	int64_t count, capacity;
	bool failed;
} EdgeList;

typedef struct EndBatch { // ends first .. first + threads - 1, one per worker
	const gtMap* map;
	const gtEhlLink* links;
	int count, first;
	const uint8_t* idle;
	gtSweep* sweeps;
	EdgeList* lists;
} EndBatch;

static bool push_end_edge(EdgeList* l, EndEdge e)
{
	if (!l->failed && !push_edge(&l->edge, &l->count, &l->capacity, e)) l->failed = true;
	return !l->failed;
}

static void end_worker(void* context, int index)
{
	EndBatch* b = context;
	int e = b->first + index;
	gtSweep* sweep = &b->sweeps[index];
	EdgeList* l = &b->lists[index];
	l->count = 0;
	if (e >= 2 * b->count) return;
	if (b->idle[e / 2]) { // an empty region, kept in turn
		sweep->stamp++, sweep->touched_count = 0;
		return;
	}
	gtVec2 p = e & 1 ? b->links[e / 2].b : b->links[e / 2].a;
	if (gt_ehl_link_region(sweep, p, NULL)) {
		l->failed = true;
		return;
	}
	int corners;
	const gtVertex* v = gtMap_Vertices(b->map, &corners);
	for (int c = 0; c < corners; c++) {
		gtVec2 q = {v[c].x, v[c].y};
		if (tangent(v[c], p) && region_near_at(sweep, v[c].x, v[c].y) && gt_visible_unchecked(b->map, p, q) &&
		    !push_end_edge(l, (EndEdge){e, c, hypot(q.x - p.x, q.y - p.y)}))
			return;
	}
	for (int f = e + 1; f < 2 * b->count; f++) {
		if (b->idle[f / 2]) continue;
		gtVec2 q = f & 1 ? b->links[f / 2].b : b->links[f / 2].a;
		if (region_near(sweep, q) && gt_visible_unchecked(b->map, p, q) &&
		    !push_end_edge(l, (EndEdge){e, corners + f, hypot(q.x - p.x, q.y - p.y)}))
			return;
	}
	if (e & 1) push_end_edge(l, (EndEdge){e - 1, corners + e, b->links[e / 2].cost});
}

static void free_batch(gtSweep* sweeps, EdgeList* lists, int threads)
{
	for (int i = 0; i < threads && sweeps; i++) gt_sweep_free(&sweeps[i]);
	for (int i = 0; i < threads && lists; i++) gt_free(lists[i].edge);
	gt_free(sweeps), gt_free(lists);
}

// Every end's edges (each pair of ends once, from the lower), the region filtering what to test.
// The ends' regions are made `threads` at a time (a sweep each: a region is ~3M instructions on
// AR0602SR, and the join runs before the parallel stages), then kept and their edges appended in
// end order, so the graph and the kept regions are those of one thread.
// The ends of idle links get no region and no edge: a walk through such a link is never shorter
// than the same walk along the line between its ends, which the graph holds without them (a third
// to a half of the build's link work with stairs drawn as long as they are steep).
static gtStatus end_edges(const gtMap* map, const gtEhlLink* links, int count, const uint8_t* idle,
                          const gtTaskSystem* tasks, int threads, EndEdge** edges, int64_t* edge_count,
                          gtEhlEndRegions* regions, gtError* err)
{
	threads = threads < 1 ? 1 : threads > 2 * count ? 2 * count : threads;
	gtSweep* sweeps = gt_calloc((size_t)threads, sizeof *sweeps);
	EdgeList* lists = gt_calloc((size_t)threads, sizeof *lists);
	gtStatus st = sweeps && lists ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for the links' edges");
	for (int i = 0; i < threads && !st; i++) st = gt_sweep_init(&sweeps[i], map, err);
	int64_t capacity = 0;
	*edges = NULL;
	*edge_count = 0;
	bool ok = true;
	for (int first = 0; first < 2 * count && !st && ok; first += threads) {
		EndBatch batch = {map, links, count, first, idle, sweeps, lists};
		if (threads > 1) gt_run_tasks(tasks, end_worker, &batch, threads);
		else end_worker(&batch, 0);
		for (int i = 0; i < threads && first + i < 2 * count && ok; i++) {
			ok = !lists[i].failed && keep_region(regions, &sweeps[i], first + i);
			if (!ok || !lists[i].count) continue; // an idle end's list is empty, maybe never allocated
			if (!GT_GROW(*edges, capacity, *edge_count + lists[i].count, 1024)) ok = false;
			if (ok) memcpy(*edges + *edge_count, lists[i].edge, (size_t)lists[i].count * sizeof **edges);
			if (ok) *edge_count += lists[i].count;
		}
	}
	free_batch(sweeps, lists, threads);
	if (!st && !ok) st = gt_fail(err, GT_ERR_NOMEM, "out of memory for the links' edges");
	return st;
}

gtStatus gt_ehl_join_links(const gtMap* map, gtVisGraph* graph, const gtEhlLink* links, int count,
                           const gtTaskSystem* tasks, int threads, gtEhlEndRegions* regions, gtError* err)
{
	EndEdge* edges;
	int64_t edge_count;
	if (regions) memset(regions, 0, sizeof *regions);
	uint8_t* idle = gt_calloc((size_t)count + 1, 1);
	if (!idle) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links' edges");
	for (int k = 0; k < count; k++) idle[k] = gt_ehl_link_idle(map, &links[k]);
	gtStatus st = end_edges(map, links, count, idle, tasks, threads, &edges, &edge_count, regions, err);
	if (regions) regions->idle = idle;
	else gt_free(idle);
	if (st) return st;
	int corners = graph->n, n = corners + 2 * count;
	gtVisGraph joined = {n, gt_calloc((size_t)n + 1, sizeof(int64_t)), NULL, NULL};
	int64_t total = graph->offset[corners] + 2 * edge_count;
	joined.adj = gt_malloc(((size_t)total + 1) * sizeof *joined.adj);
	joined.length = gt_malloc(((size_t)total + 1) * sizeof *joined.length);
	int64_t* fill = gt_malloc(((size_t)n + 1) * sizeof *fill);
	if (!joined.offset || !joined.adj || !joined.length || !fill) {
		gt_free(edges), gt_free(fill), gt_vis_graph_free(&joined);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the graph with links");
	}
	int64_t* degree = joined.offset + 1; // counts, then prefix sums
	for (int v = 0; v < corners; v++) degree[v] = graph->offset[v + 1] - graph->offset[v];
	for (int64_t i = 0; i < edge_count; i++) degree[corners + edges[i].end]++, degree[edges[i].other]++;
	for (int v = 0; v < n; v++) joined.offset[v + 1] += joined.offset[v];
	for (int v = 0; v < n; v++) fill[v] = joined.offset[v];
	for (int v = 0; v < corners; v++) // the corners' own neighbours first, still sorted
		for (int64_t k = graph->offset[v]; k < graph->offset[v + 1]; k++) {
			joined.adj[fill[v]] = graph->adj[k];
			joined.length[fill[v]++] = graph->length[k];
		}
	for (int64_t i = 0; i < edge_count; i++) {
		int a = corners + edges[i].end, b = edges[i].other;
		joined.adj[fill[a]] = b, joined.length[fill[a]++] = edges[i].length;
		joined.adj[fill[b]] = a, joined.length[fill[b]++] = edges[i].length;
	}
	gt_free(edges), gt_free(fill);
	gt_vis_graph_free(graph);
	*graph = joined;
	return GT_OK;
}
