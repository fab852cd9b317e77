// EHL query (docs/algorithms.md 5.10): merge the two cells' hub lists, take the best via on each side.
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ehl/ehl_end_ranks.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_query.h"
#include "map/geometry.h"
#include "map/map_internal.h"
#include "core/status.h"

// Where a place takes 1 byte (gtEhlQuery.source_place, and a target's side below).
#define PLACE_NARROW_HUBS UINT8_MAX

int32_t gt_ehl_max_hubs(const gtEhl* ehl)
{
	int32_t most = 0;
	for (int64_t c = 0; c < ehl->cell_count; c++) {
		int32_t hubs = (int32_t)(ehl->cell_begin[c + 1] - ehl->cell_begin[c]);
		if (hubs > most) most = hubs;
	}
	return most;
}

uint64_t gt_ehl_next_serial(void)
{
	static _Atomic uint64_t last;
	return atomic_fetch_add(&last, 1) + 1;
}

void gt_ehl_note_max_hubs(gtEhl* ehl)
{
	ehl->max_cell_entries = gt_ehl_max_hubs(ehl);
}

gtStatus gtEhlQuery_Create(const gtEhl* ehl, gtEhlQuery** out, gtError* err)
{
	*out = NULL;
	gtEhlQuery* q = gt_calloc(1, sizeof *q);
	if (!q) return gt_fail(err, GT_ERR_NOMEM, "out of memory for an EHL query context");
	q->ehl = ehl;
	q->max_hubs = ehl->max_cell_entries > 0 ? ehl->max_cell_entries : gt_ehl_max_hubs(ehl);
	q->end_from = (uint32_t)gt_ehl_end_ranks_from(ehl);
	q->memo_value = gt_malloc((size_t)(q->max_hubs + 1) * sizeof *q->memo_value);
	q->memo_via = gt_malloc((size_t)(q->max_hubs + 1) * sizeof *q->memo_via);
	q->memo_stamp = gt_calloc((size_t)q->max_hubs + 1, sizeof *q->memo_stamp);
	q->common = gt_malloc((size_t)(q->max_hubs + 1) * sizeof *q->common);
	size_t n = (size_t)ehl->n + 1;
	// Made here, not when first used: a query must not allocate (test_platform counts). Without
	// them (too many hubs for 2-byte places, or no memory) the merge serves.
	if (q->max_hubs <= UINT16_MAX) {
		q->source_place = gt_malloc(n * (q->max_hubs <= PLACE_NARROW_HUBS ? sizeof(uint8_t) : sizeof(uint16_t)));
		q->source_rank_bound = gt_malloc(n * sizeof *q->source_rank_bound);
		if (!q->source_place || !q->source_rank_bound) {
			gt_free(q->source_place), gt_free(q->source_rank_bound);
			q->source_place = NULL, q->source_rank_bound = NULL;
		} else {
			for (size_t r = 0; r < n; r++) q->source_rank_bound[r] = INFINITY;
		}
	}
	if (!q->memo_value || !q->memo_via || !q->memo_stamp || !q->common) {
		gtEhlQuery_Destroy(q);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for an EHL query context");
	}
	for (int s = 0; s < 2; s++) {
		q->side[s].stamp = gt_calloc(n, sizeof *q->side[s].stamp);
		q->side[s].length = gt_malloc(n * sizeof *q->side[s].length);
		q->side[s].visibility = gt_malloc(n);
		if (!q->side[s].stamp || !q->side[s].length || !q->side[s].visibility) {
			gtEhlQuery_Destroy(q);
			return gt_fail(err, GT_ERR_NOMEM, "out of memory for an EHL query context");
		}
	}
	*out = q;
	return GT_OK;
}

void gtEhlQuery_Destroy(gtEhlQuery* query)
{
	if (!query) return;
	for (int s = 0; s < 2; s++) {
		gt_free(query->side[s].stamp);
		gt_free(query->side[s].length);
		gt_free(query->side[s].visibility);
	}
	gt_free(query->memo_value);
	gt_free(query->memo_via);
	gt_free(query->memo_stamp);
	gt_free(query->common);
	gt_free(query->source_place);
	gt_free(query->source_rank_bound);
	gt_free(query);
}

// v's distance from the side's point, kept for the rest of the generation (its sight unknown yet).
static inline __attribute__((always_inline)) double side_length(const gtEhl* e, const Side* side, SideCache* c,
                                                                uint32_t generation, uint32_t v)
{
	if (c->stamp[v] != generation) {
		c->stamp[v] = generation;
		double dx = e->points[v].x - side->p.x, dy = e->points[v].y - side->p.y;
		c->length[v] = sqrt(dx * dx + dy * dy);
		c->visibility[v] = SIDE_UNKNOWN;
	}
	return c->length[v];
}

// Whether v is hidden from the side's point (after side_length): tested once a generation.
static inline __attribute__((always_inline)) bool side_hidden(const gtEhl* e, const Side* side, SideCache* c,
                                                              uint32_t v)
{
	if (c->visibility[v] == SIDE_UNKNOWN) {
		gtVec2 pv = e->points[v];
		int vx = (int)pv.x, vy = (int)pv.y;
		bool seen = side->grid && vx == pv.x && vy == pv.y ? gt_visible_grid_points(e->map, side->gx, side->gy, vx, vy)
		                                                   : gt_visible_unchecked(e->map, side->p, pv);
		c->visibility[v] = seen ? SIDE_VISIBLE : SIDE_HIDDEN;
	}
	return c->visibility[v] == SIDE_HIDDEN;
}

// The smallest total |p v| + d(v, hub) over the vias [begin, end) that p sees, among those with
// offset + total < limit (the other side's part and the best path so far); +inf and no via when
// there is none. Every skip compares offset + x with limit, as the caller does, so the answer is
// the same whatever limit a via is skipped by: exact ties included. The stored distances are
// rounded down, so they only decide what to skip; a via that may win is priced with the exact
// distance from its own label.
// A compact index's vias (ehl_layout.h: cvias) give the exact distance to the hub, so its skips
// are the exact tests and no label lookup follows; the same vias pass them as in the loop below.
static inline __attribute__((always_inline)) double compact_via(const gtEhl* e, const Side* side, uint32_t generation,
                                                                int32_t hub, uint32_t begin, uint32_t end,
                                                                double offset, double limit, int32_t* via)
{
	double best = INFINITY;
	SideCache* c = side->cache;
	const uint32_t* vertex_at = e->inv_vertex + e->inv_offset[hub];
	const uint32_t* entry_at = e->inv_entry + e->inv_offset[hub];
	(void)end; // the list ends at its LAST via
	for (uint32_t i = begin, more = 1; more; i++) {
		more = !(e->cvias[i] & GT_EHL_COMPACT_LAST);
		uint16_t place = e->cvias[i] & (GT_EHL_COMPACT_PLACES - 1);
		double to_hub = e->label_dist[entry_at[place]];
		if (offset + to_hub >= limit) break; // sorted by distance to the hub
		uint32_t v = vertex_at[place];
		double total = side_length(e, side, c, generation, v) + to_hub;
		if (offset + total >= limit) continue;
		if ((!(e->cvias[i] & GT_EHL_COMPACT_FULL) || side->check_all) && side_hidden(e, side, c, v)) continue;
		limit = offset + total;
		best = total;
		*via = (int32_t)v;
	}
	return best;
}

static inline __attribute__((always_inline)) double wide_via(const gtEhl* e, const Side* side, uint32_t generation,
                                                             int32_t hub, uint32_t begin, uint32_t end, double offset,
                                                             double limit, int32_t* via)
{
	double best = INFINITY;
	SideCache* c = side->cache;
	for (uint32_t i = begin; i < end; i++) {
		double to_hub = gt_via_low(&e->vias[i]);
		if (offset + to_hub >= limit) break; // sorted by distance to the hub
		uint32_t v = (uint32_t)gt_via_vertex(&e->vias[i]);
		double total = side_length(e, side, c, generation, v) + to_hub;
		if (offset + total >= limit) continue;
		if ((!gt_via_full(&e->vias[i]) || side->check_all) && side_hidden(e, side, c, v)) continue;
		int64_t entry = gt_ehl_label_entry(e, (int)v, hub);
		if (entry < 0) continue; // only a forged index lacks it
		total = c->length[v] + e->label_dist[entry];
		if (offset + total >= limit) continue;
		limit = offset + total;
		best = total;
		*via = (int32_t)v;
	}
	return best;
}

double gt_ehl_best_compact_via(const gtEhl* e, const Side* side, uint32_t generation, int32_t hub, uint32_t begin,
                               uint32_t end, double offset, double limit, int32_t* via)
{
	return compact_via(e, side, generation, hub, begin, end, offset, limit, via);
}

double gt_ehl_best_wide_via(const gtEhl* e, const Side* side, uint32_t generation, int32_t hub, uint32_t begin,
                            uint32_t end, double offset, double limit, int32_t* via)
{
	return wide_via(e, side, generation, hub, begin, end, offset, limit, via);
}

// The query's own loop: each layout's loop inlined (the fields go through gt_ehl_best_via).
static inline __attribute__((always_inline)) double best_via(const gtEhl* e, const Side* side, uint32_t generation,
                                                             int32_t hub, uint32_t begin, uint32_t end, double offset,
                                                             double limit, int32_t* via)
{
	if (e->cvias) return gt_ehl_best_compact_via(e, side, generation, hub, begin, end, offset, limit, via);
	return wide_via(e, side, generation, hub, begin, end, offset, limit, via);
}

bool gt_ehl_at_pinch(const gtMap* m, gtVec2 p)
{
	if (m->pinch_count == 0) return false;
	if (p.x != floor(p.x) || p.y != floor(p.y)) return false;
	return gtMap_ClassifyCorner(m, (int)p.x, (int)p.y) == GT_CORNER_PINCH;
}

int gt_ehl_first_bends(const gtEhl* e, gtVec2 p, int32_t* out)
{
	int count = 0;
	for (const gtEhlHub* h = e->hubs + e->cell_begin[gt_ehl_cell_of(e, p)]; h->hub != (uint32_t)e->n; h++) {
		int vertex = e->vertex_of[h->hub];
		// Sorted by distance to the hub: the hub itself, at 0, comes first.
		if (e->cvias) {
			for (uint32_t i = h->via_begin, more = 1; more; i++) {
				more = !(e->cvias[i] & GT_EHL_COMPACT_LAST);
				uint32_t at = gt_cvia_entry(e, h->hub, e->cvias[i]);
				if (e->label_dist[e->inv_entry[at]] != 0) break;
				if (e->inv_vertex[at] == (uint32_t)vertex) {
					out[count++] = vertex;
					break;
				}
			}
			continue;
		}
		for (uint32_t i = h->via_begin; i < h[1].via_begin && gt_via_low(&e->vias[i]) == 0; i++)
			if (gt_via_vertex(&e->vias[i]) == vertex) {
				out[count++] = vertex;
				break;
			}
	}
	return count;
}

typedef struct Answer {
	double distance;
	int32_t hub, via_s, via_t; // hub < 0: straight line (or unreachable when distance is inf)
} Answer;

// gtMap_CheckPoint(m, p) == GT_POINT_VALID, its usual case inline: p inside one free cell (NaN and
// infinities fail the range test and take the full check).
static inline bool valid_point(const gtMap* m, gtVec2 p)
{
	if (p.x > 0 && p.y > 0 && p.x < m->width && p.y < m->height) {
		int cx = (int)p.x, cy = (int)p.y;
		if (p.x != cx && p.y != cy) return !gt_blocked(m, cx, cy);
	}
	return gtMap_CheckPoint(m, p) == GT_POINT_VALID;
}

// How many of the `count` hubs from `first` have a rank below `rank` (a list goes up by rank).
static inline uint32_t hubs_below(const gtEhlHub* first, uint32_t count, uint32_t rank)
{
	uint32_t lo = 0;
	while (count > 0) {
		uint32_t half = count / 2;
		if (first[lo + half].hub < rank) lo += half + 1, count -= half + 1;
		else count = half;
	}
	return lo;
}

// The source's list by rank (source_rank_bound, source_place), or back to none (`set` false:
// before the source changes, only the bounds: a place is read only under a finite bound).
static inline __attribute__((always_inline)) void rank_source_with(gtEhlQuery* q, bool narrow, bool set)
{
	const gtEhlHub* first = q->ehl->hubs + q->source_first_hub;
	double* bound = q->source_rank_bound;
	uint8_t* place8 = q->source_place;
	uint16_t* place16 = q->source_place;
#pragma GCC unroll 2
	for (uint32_t i = 0, count = q->source_hubs; i < count; i++) {
		uint32_t rank = first[i].hub;
		bound[rank] = set ? gt_hub_lower_bound(first + i) : INFINITY;
		if (set && narrow) place8[rank] = (uint8_t)i;
		else if (set) place16[rank] = (uint16_t)i;
	}
	q->source_ranked = set;
}
static void rank_source(gtEhlQuery* q)
{
	if (q->max_hubs <= PLACE_NARROW_HUBS) rank_source_with(q, true, true);
	else rank_source_with(q, false, true);
}
static void unrank_source(gtEhlQuery* q)
{
	rank_source_with(q, true, false);
}
static gtStatus set_source(gtEhlQuery* q, gtVec2 s, gtError* err)
{
	const gtEhl* e = q->ehl;
	if (q->has_source && q->source.x == s.x && q->source.y == s.y) return GT_OK;
	gtPointCheck check = valid_point(e->map, s) ? GT_POINT_VALID : gtMap_CheckPoint(e->map, s);
	if (check != GT_POINT_VALID) {
		q->has_source = false;
		return gt_fail(err, GT_ERR_INVALID_POINT, "start (%g, %g): %s", s.x, s.y, gtPointCheckName(check));
	}
	int64_t cell = gt_ehl_cell_of(e, s);
	if (e->cell_begin[cell + 1] - e->cell_begin[cell] > (uint32_t)q->max_hubs) { // sized by a wrong count
		q->has_source = false;
		return gt_fail(err, GT_ERR_INVALID_ARG, "the EHL query object is too small for the cell of (%g, %g)", s.x, s.y);
	}
	gt_ehl_next_generation(&q->generation[0], q->side[0].stamp, (size_t)e->n + 1);
	gt_ehl_next_generation(&q->memo_generation, q->memo_stamp, (size_t)q->max_hubs + 1);
	if (q->source_ranked) unrank_source(q);
	q->source_pricings = 0;
	q->has_source = true;
	q->source = s;
	q->source_at_pinch = e->map->pinch_count > 0 && gt_ehl_at_pinch(e->map, s);
	q->source_first_hub = e->cell_begin[cell];
	q->source_hubs = e->cell_begin[cell + 1] - e->cell_begin[cell] - 1; // less its sentinel
	q->source_gap = q->end_from < (uint32_t)e->n ? (double)gt_ehl_end_gap(e, s) : INFINITY;
	q->source_head = UINT32_MAX; // found when a side's pricing needs it (price_hubs)
	return GT_OK;
}

// A memoised source side found no via below the limit it was priced with.
#define MEMO_NONE_BELOW (-2)

// The left hub with the smallest bound (the first of equal ones), -1 when none is left. When the
// best path so far has changed (`drop`), the pass also drops the hubs it rules out, so with many
// shared hubs (an index with links) the passes after the first good path are short; when it has
// not, there is nothing to drop and the pass only looks for the least.
static int next_common(Common* common, int* left, double best, bool drop)
{
	int next = -1, n = *left;
	if (!drop) {
		double least = INFINITY;
		for (int i = 0; i < n; i++)
			if (next < 0 || common[i].bound < least) least = common[i].bound, next = i;
		return next;
	}
	int i = 0;
	while (i < n && common[i].bound >= best) i++;
	if (i == n) { // usually: the new best rules out every hub left, and their order no longer matters
		*left = 0;
		return -1;
	}
	for (i = 0; i < n;) {
		if (common[i].bound >= best) {
			common[i] = common[--n];
			continue;
		}
		if (next < 0 || common[i].bound < common[next].bound) next = i;
		i++;
	}
	*left = n;
	return next;
}

// The source side of shared hub hs (the best |s v| + d(v, hub) over the vias s sees), memoised per
// hub of the source's cell; the via is -1 (or MEMO_NONE_BELOW) when there is none below the limit.
// `bound_t` is at most the target's part.
static inline __attribute__((always_inline)) uint32_t source_part(gtEhlQuery* q, const Side* side_s, const gtEhlHub* hs,
                                                                  double bound_t, double best)
{
	const gtEhl* e = q->ehl;
	uint32_t slot = (uint32_t)(hs - (e->hubs + q->source_first_hub));
	bool first = q->memo_stamp[slot] != q->memo_generation;
	if (first || q->memo_via[slot] == MEMO_NONE_BELOW) { // the source side, once per hub
		// The first time, only a via that can beat the best path so far through this hub is looked
		// for; if none, a later target of the same source prices the hub whole. The limit is on the
		// side alone (offset 0) and a little loose, so what is found is bit for bit the side's best,
		// as a pricing without a limit (or a target field) finds it.
		double limit = first ? (best - bound_t) * (1 + 1e-12) + 1e-12 : INFINITY;
		q->memo_stamp[slot] = q->memo_generation;
		q->memo_via[slot] = -1;
		q->memo_value[slot] = best_via(e, side_s, q->generation[0], hs->hub, hs->via_begin, hs[1].via_begin, 0, limit,
		                               &q->memo_via[slot]);
		if (q->memo_via[slot] < 0 && !isinf(limit)) q->memo_via[slot] = MEMO_NONE_BELOW;
	}
	return slot;
}

// The answer goes through hub hs at from_s + from_t (vias via_s, via_t).
static inline void take_hub(gtEhlQuery* q, const gtEhlHub* hs, uint32_t slot, int32_t vt, double from_t, Answer* a)
{
	a->hub = hs->hub;
	a->via_s = q->memo_via[slot];
	a->via_t = vt;
	q->last_hub = hs->hub, q->last_via_s = a->via_s, q->last_via_t = vt;
	q->last_from_s = q->memo_value[slot], q->last_from_t = from_t;
}

// Prices one shared hub (hs in the source's list, ht in the target's): the best path through it,
// when below `best`, becomes the answer. Returns the best path so far.
static inline __attribute__((always_inline)) double price_hub(gtEhlQuery* q, const Side* side_s, const Side* side_t,
                                                              const gtEhlHub* hs, const gtEhlHub* ht, double best,
                                                              Answer* a)
{
	const gtEhl* e = q->ehl;
	double bound_t = gt_hub_lower_bound(ht);
	uint32_t slot = source_part(q, side_s, hs, bound_t, best);
	double from_s = q->memo_value[slot];
	if (q->memo_via[slot] < 0 || from_s + bound_t >= best) return best;
	int32_t vt = -1;
	double from_t = best_via(e, side_t, q->generation[1], ht->hub, ht->via_begin, ht[1].via_begin, from_s, best, &vt);
	if (vt < 0 || from_s + from_t >= best) return best;
	take_hub(q, hs, slot, vt, from_t, a);
	return from_s + from_t;
}

// The first merge keeps a shared hub only when its bound is below the least so far plus this many
// cells (and below the best path): with links two cells share ~85 hubs, and storing them all cost
// more than pricing the ~4 whose bound lies below the best path, which is rarely much above the
// least bound (each side's bound is its cell's least distance). When it is, a second merge takes
// the rest.
#define SHARED_SLACK_CELLS 3

// Stores in q->common the hubs of rank below `end` the lists from first_s and first_t share whose
// lower bound lies below `best` and below the least such bound plus `slack` (the least as it was
// when the hub came); returns how many, with the least bound in *least (+inf if none) and its entry
// in *next (-1). A hub below `best` left out has a bound at least *least + slack. `stop` (or NULL):
// where the merge stopped in each list: every shared hub of rank below there was met (the entries a
// merge skips are not shared), so a merge of the ranks from `end` on starts there.
static inline __attribute__((always_inline)) int gather_shared_with(gtEhlQuery* q, const gtEhlHub* first_s,
                                                                    const gtEhlHub* first_t, uint32_t end, double best,
                                                                    double slack, double* least, int* next,
                                                                    const gtEhlHub** stop)
{
	Common* common = q->common;
	const gtEhlHub *hs = first_s, *ht = first_t;
	int shared = 0;
	double cut = best; // min(best, least + slack)
	*least = INFINITY;
	*next = -1;
	for (;;) {
		uint32_t rank_s = hs->hub, rank_t = ht->hub;
		// Skip a run of the smaller side at a time: both lists end in the sentinel n, above every rank.
		if (rank_s < rank_t) {
			do hs++;
			while (hs->hub < rank_t);
			continue;
		}
		if (rank_t < rank_s) {
			do ht++;
			while (ht->hub < rank_s);
			continue;
		}
		if (rank_s >= end) break; // both sentinels (n), or the ranks asked for are done
		double bound = (double)gt_hub_lower_bound(hs) + gt_hub_lower_bound(ht);
		if (bound < cut) {
			if (bound < *least) {
				*least = bound, *next = shared;
				if (bound + slack < cut) cut = bound + slack;
			}
			common[shared++] = (Common){bound, hs, ht};
		}
		hs++;
		ht++;
	}
	if (stop) stop[0] = hs, stop[1] = ht;
	return shared;
}
// Every rank (the merge without links, and a block's after its rest), and the rest alone (price_hubs).
static int gather_shared(gtEhlQuery* q, const gtEhlHub* first_s, const gtEhlHub* first_t, double best, double slack,
                         double* least, int* next)
{
	return gather_shared_with(q, first_s, first_t, (uint32_t)q->ehl->n, best, slack, least, next, NULL);
}
static int gather_shared_rest(gtEhlQuery* q, const gtEhlHub* first_s, const gtEhlHub* first_t, uint32_t end,
                              double best, double slack, double* least, int* next, const gtEhlHub** stop)
{
	return gather_shared_with(q, first_s, first_t, end, best, slack, least, next, stop);
}

// gather_shared for a source whose list is ranked (q->source_rank_bound): one pass over the
// target's `count` hubs, each looked up by its rank; a rank the source lacks has an infinite bound,
// below no cut (cut <= best, and best is infinite only while nothing was kept). The same hubs in the
// same order as the merge (both go up t's list), so the same answer; one branch a hub, taken
// where a hub is kept, where the merge's skips mispredict (a replay of lak303d's pricings, perf:
// 45% of a pricing in the merge, most of it after the skips' branches).
static inline __attribute__((always_inline)) int gather_ranked_with(gtEhlQuery* q, bool narrow, const gtEhlHub* first_s,
                                                                    const gtEhlHub* ht, uint32_t count, double best,
                                                                    double slack, double* least, int* next)
{
	const double* bound_s = q->source_rank_bound;
	Common* common = q->common;
	int shared = 0;
	double cut = best; // min(best, least + slack)
	*least = INFINITY;
	*next = -1;
#pragma GCC unroll 2
	for (uint32_t i = 0; i < count; i++) {
		double bound = bound_s[ht[i].hub] + gt_hub_lower_bound(ht + i);
		if (bound < cut) {
			if (bound < *least) {
				*least = bound, *next = shared;
				if (bound + slack < cut) cut = bound + slack;
			}
			uint32_t at = narrow ? ((const uint8_t*)q->source_place)[ht[i].hub]
			                     : ((const uint16_t*)q->source_place)[ht[i].hub];
			common[shared++] = (Common){bound, first_s + at, ht + i};
		}
	}
	return shared;
}
static int gather_ranked(gtEhlQuery* q, const gtEhlHub* first_s, const gtEhlHub* first_t, uint32_t count, double best,
                         double slack, double* least, int* next)
{
	return q->max_hubs <= PLACE_NARROW_HUBS
	           ? gather_ranked_with(q, true, first_s, first_t, count, best, slack, least, next)
	           : gather_ranked_with(q, false, first_s, first_t, count, best, slack, least, next);
}

// A target's side (gtEhlQuery_FillSide): this header, then from byte 64 per place of t's cell list
// (1 up; place 0 is for no hub) its part and its via (max_hubs + 1 each), then per hub rank its
// place in t's list (0: none). The ranks' table is the only part as long as the index has hubs, at
// 2 bytes a rank, 1 where no cell lists more than 255 hubs: a pricing reads it at each of the
// source's hubs, spread over the table, so its cache lines are what a side costs (8-byte parts per
// rank: bench-peers AR0602SR at 0.1%, two words, 1.5 times the merge's D1 misses, and slower; a
// float per rank beside the places, read instead of the place's part: 0.89 -> 1.16 of IER's time).
typedef struct SideHead {
	uint32_t first_hub; // t's cell's first hub entry
	uint32_t hubs;      // and how many hubs it lists
	uint32_t head_hubs; // of them before the ends' block (gtEhlQuery.end_from)
	bool check_all;     // t is a pinch point (gt_ehl_side)
} SideHead;
#define SIDE_HEAD 64
// A place's via before a source priced its hub: its part is t's cell's lower bound so far.
#define SIDE_UNPRICED (-3)
typedef struct SideView {
	SideHead* head;
	double* part;
	int32_t* via;
	void* place; // uint8_t when narrow, else uint16_t
	bool narrow;
} SideView;
static inline SideView side_view(const gtEhlQuery* q, void* side)
{
	SideView v;
	v.head = side;
	v.part = (double*)((unsigned char*)side + SIDE_HEAD);
	v.via = (int32_t*)(v.part + q->max_hubs + 1);
	v.place = v.via + q->max_hubs + 1;
	v.narrow = q->max_hubs <= PLACE_NARROW_HUBS;
	return v;
}
static inline uint32_t side_place(const SideView* t, uint32_t rank)
{
	return t->narrow ? ((const uint8_t*)t->place)[rank] : ((const uint16_t*)t->place)[rank];
}
static inline void set_side_place(const SideView* t, uint32_t rank, uint32_t at)
{
	if (t->narrow) ((uint8_t*)t->place)[rank] = (uint8_t)at;
	else ((uint16_t*)t->place)[rank] = (uint16_t)at;
}

// The hubs of a target whose side is made: gather_shared with the source's list alone, each hub's
// bound its source bound plus the target's part (a lookup, no merge). A hub t's cell does not list
// has place 0, whose part is a NaN: below no cut. The `count` hubs of the source's list from hs.
static inline __attribute__((always_inline)) int gather_side_with(gtEhlQuery* q, const SideView* t, bool narrow,
                                                                  const gtEhlHub* hs, uint32_t count, double best,
                                                                  double slack, double* least, int* next)
{
	const double* part = t->part;
	const uint8_t* place8 = t->place;
	const uint16_t* place16 = t->place;
	Common* common = q->common;
	int shared = 0;
	double cut = best; // min(best, least + slack)
	*least = INFINITY;
	*next = -1;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t at = narrow ? place8[hs[i].hub] : place16[hs[i].hub];
		double bound = (double)gt_hub_lower_bound(hs + i) + part[at];
		if (bound < cut) {
			if (bound < *least) {
				*least = bound, *next = shared;
				if (bound + slack < cut) cut = bound + slack;
			}
			common[shared++] = (Common){bound, hs + i, NULL};
		}
	}
	return shared;
}
// gather_side for a source whose list is ranked: t's list in one pass, each hub's bound the
// source's by rank plus t's part at its place; the same hubs in the same order (both lists go up
// by rank). Reads t's list and parts in order where gather_side reads t's ranks' table at each of
// the source's hubs (spread over the table: its lines are what a side costs). The `count` hubs of
// t's list from ht.
static inline __attribute__((always_inline)) int gather_side_ranked_with(gtEhlQuery* q, const SideView* t, bool narrow,
                                                                         const gtEhlHub* ht, uint32_t count,
                                                                         double best, double slack, double* least,
                                                                         int* next)
{
	const gtEhlHub* first_s = q->ehl->hubs + q->source_first_hub;
	const double* bound_s = q->source_rank_bound;
	const double* part = t->part + 1 + (ht - (q->ehl->hubs + t->head->first_hub)); // place 1 up
	Common* common = q->common;
	int shared = 0;
	double cut = best; // min(best, least + slack)
	*least = INFINITY;
	*next = -1;
#pragma GCC unroll 2
	for (uint32_t i = 0; i < count; i++) {
		double bound = bound_s[ht[i].hub] + part[i];
		if (bound < cut) {
			if (bound < *least) {
				*least = bound, *next = shared;
				if (bound + slack < cut) cut = bound + slack;
			}
			uint32_t at = narrow ? ((const uint8_t*)q->source_place)[ht[i].hub]
			                     : ((const uint16_t*)q->source_place)[ht[i].hub];
			common[shared++] = (Common){bound, first_s + at, NULL};
		}
	}
	return shared;
}
// `list`, `count`: hubs of t's list when the source is ranked, else of the source's (price_hubs).
static int gather_side(gtEhlQuery* q, const SideView* t, const gtEhlHub* list, uint32_t count, double best,
                       double slack, double* least, int* next)
{
	if (q->source_ranked)
		return q->max_hubs <= PLACE_NARROW_HUBS
		           ? gather_side_ranked_with(q, t, true, list, count, best, slack, least, next)
		           : gather_side_ranked_with(q, t, false, list, count, best, slack, least, next);
	return t->narrow ? gather_side_with(q, t, true, list, count, best, slack, least, next)
	                 : gather_side_with(q, t, false, list, count, best, slack, least, next);
}

// price_hub for a target whose side is made: its part through the hub, searched the first time
// any source prices the hub (then kept in the side, exact), and its via.
static inline __attribute__((always_inline)) double price_side_hub(gtEhlQuery* q, const Side* side_s, Side* side_t,
                                                                   const gtEhlHub* hs, const SideView* t, double best,
                                                                   Answer* a)
{
	const gtEhl* e = q->ehl;
	uint32_t at = side_place(t, hs->hub);
	if (t->via[at] == SIDE_UNPRICED) {
		// Without a limit: bit for bit the best via a limited search finds when the path through
		// the hub can win (compact_via and wide_via stop only at vias that cannot).
		if (!side_t->cache) { // t's vertex cache, once per pricing
			side_t->cache = &q->side[1];
			side_t->check_all = t->head->check_all;
			gt_ehl_next_generation(&q->generation[1], q->side[1].stamp, (size_t)e->n + 1);
		}
		const gtEhlHub* ht = e->hubs + t->head->first_hub + (at - 1);
		int32_t v = -1;
		t->part[at] = best_via(e, side_t, q->generation[1], (int32_t)hs->hub, ht->via_begin, ht[1].via_begin, 0,
		                       INFINITY, &v);
		t->via[at] = v;
	}
	double from_t = t->part[at];
	// A hub t sees no via of (+infinity), or whose part alone reaches the best path, cannot win: the
	// source side is not searched (its memo's limit, best - from_t, would be -infinity, taken for "no
	// via at all" by the targets after).
	if (!(from_t < best)) return best;
	uint32_t slot = source_part(q, side_s, hs, from_t, best);
	double from_s = q->memo_value[slot];
	if (q->memo_via[slot] < 0 || from_s + from_t >= best) return best;
	take_hub(q, hs, slot, t->via[at], from_t, a);
	return from_s + from_t;
}

// The shared hubs priced in order of their lower bound: the best path tends to come early, and
// its length then rules out the rest without pricing their vias. Those near the least first;
// the rest only when the best path found lies above where they start. Regions (ehl_regions.c)
// span many cells: their bounds are looser than a cell's, so every hub below the best path is kept
// at once there. `side`: the target's side when made (gtEhlQuery_FillSide), else NULL (a merge of
// the two lists, t's vias searched per hub). The shared hubs of the merge from hs and ht on, of
// every rank or (`stop` not NULL: where it stopped) those before the ends' block; of `count` hubs
// from `list` for the other gathers (gather_ranked, gather_side). Returns the best path so far.
static inline __attribute__((always_inline)) double
price_ranks(gtEhlQuery* q, const Side* side_s, Side* side_t, void* side, SideView* t, const gtEhlHub* hs,
            const gtEhlHub* ht, const gtEhlHub* list, uint32_t count, const gtEhlHub** stop, double best, Answer* a)
{
	const gtEhl* e = q->ehl;
	double slack = e->region_of ? INFINITY : SHARED_SLACK_CELLS * (double)e->g;
	for (;;) {
		double least;
		int next, shared = side               ? gather_side(q, t, list, count, best, slack, &least, &next)
		                   : q->source_ranked ? gather_ranked(q, e->hubs + q->source_first_hub, list, count, best,
		                                                      slack, &least, &next)
		                   : stop ? gather_shared_rest(q, hs, ht, q->end_from, best, slack, &least, &next, stop)
		                          : gather_shared(q, hs, ht, best, slack, &least, &next);
		double filtered = best; // every hub left has a bound below it
		for (int left = shared; next >= 0;) {
			Common c = q->common[next];
			q->common[next] = q->common[--left];
			best = side ? price_side_hub(q, side_s, side_t, c.s, t, best, a)
			            : price_hub(q, side_s, side_t, c.s, c.t, best, a);
			next = next_common(q->common, &left, best, best != filtered);
			filtered = best;
		}
		if (isinf(slack) || !(least + slack < best)) break;
		slack = INFINITY; // every hub below the best path, those priced again (rare: ~1 target in 500)
	}
	return best;
}

// With links that shorten, the lists end with their ends' ranks (q->end_from on, ehl_end_ranks.h:
// ~66 of a cell's ~178 hubs with 100 teleporters on AR0602SR, against ~94 hubs without links). A
// walk through one of them from s to t is at least end gap(s) + end gap(t) long (up to the first
// such end and from the last it only walks or takes links that do not shorten), so the ranks before
// them are priced first, and the block only when that bound lies below the best path found: every
// hub whose path can beat the best is still priced, so the distance is the merge's, bit for bit.
// Only which of two hubs at exactly the same distance gives the path may change (the first priced).
static inline __attribute__((always_inline)) double price_hubs(gtEhlQuery* q, const Side* side_s, Side* side_t,
                                                               void* side, double best, Answer* a)
{
	const gtEhl* e = q->ehl;
	const gtEhlHub* hs = e->hubs + q->source_first_hub;
	const gtEhlHub *ht = NULL, *list = NULL; // list: what a gather other than the merge walks
	uint32_t count = 0, head = 0;            // its hubs, those before the ends' block
	if (!side) {
		int64_t cell = gt_ehl_cell_of(e, side_t->p);
		ht = list = e->hubs + e->cell_begin[cell];
		count = e->cell_begin[cell + 1] - e->cell_begin[cell] - 1; // less its sentinel
	}
	// Ranked at the second pricing: a ranked pass takes about a third of a merge's time (perf), the
	// ranking and its undoing about a merge's instructions, so a source priced once (a pair) merges.
	// Pricings through sides neither rank nor count: a side is a lookup per source hub in its
	// ranks' table (no merge), which the world keeps only while small enough to stay cached
	// (world_sides.h), so a query that prices only through sides ranked for nothing (bench-peers
	// lak303d at 0.1% with two words, 1.75 side pricings a query: 5,858 -> 5,574 instructions,
	// gt/IER-EHL 0.865 -> 0.816; orz103d 7,713 -> 7,578, 0.738 -> 0.718; trimmed medians of 12
	// alternated runs).
	if (!side && !q->source_ranked && q->source_pricings++ > 0 && q->source_place) rank_source(q);
	SideView t;
	if (side) {
		t = side_view(q, side);
		bool by_t = q->source_ranked;
		list = by_t ? e->hubs + t.head->first_hub : hs;
		count = by_t ? t.head->hubs : q->source_hubs;
		if (by_t) head = t.head->head_hubs;
	}
	uint32_t end = q->end_from;
	if (end < (uint32_t)e->n) {
		// Less a margin for the rounding of the sums that price a walk (relative 2^-30: far above it).
		double via_ends = (q->source_gap + (double)gt_ehl_end_gap(e, side_t->p)) * (1 - 0x1p-30);
		double dx = side_t->p.x - side_s->p.x, dy = side_t->p.y - side_s->p.y;
		// Below the line the block is merged whatever the rest finds (unless a walk through the rest
		// takes a link and comes below the end gaps: rare), so it is merged with the rest, in one
		// pass as without links; else the rest first.
		if (!(via_ends < best && via_ends * via_ends < dx * dx + dy * dy)) {
			if (!side && q->source_ranked) head = hubs_below(list, count, end);
			if (side && !q->source_ranked) {
				if (q->source_head == UINT32_MAX) q->source_head = hubs_below(list, count, end);
				head = q->source_head;
			}
			const gtEhlHub* stop[2] = {hs, ht}; // written by the gathers that stop; the others leave these
			best = price_ranks(q, side_s, side_t, side, &t, hs, ht, list, head, stop, best, a);
			if (!(via_ends < best)) return best;
			hs = stop[0], ht = stop[1], list += head, count -= head;
		}
	}
	best = price_ranks(q, side_s, side_t, side, &t, hs, ht, list, count, NULL, best, a);
	return best;
}

// Shortest distance from the current source to a valid target t when it is below `limit`; else
// a->distance is `limit` (or more) and a->hub is -1. `hidden`: the caller knows the two do not see
// each other (gtEhlQuery_DistanceBelowHidden), so the straight line is not tried. `side`: t's side
// when made (price_hubs), else NULL. Inlined: made once with a side and once without (to_target).
static inline __attribute__((always_inline)) void to_target_with(gtEhlQuery* q, gtVec2 t, double limit, bool hidden,
                                                                 void* side, Answer* a)
{
	const gtEhl* e = q->ehl;
	a->distance = INFINITY;
	a->hub = -1;
	q->last_hub = -1;
	double best = limit;
	Side side_s = gt_ehl_side(&q->side[0], q->source, q->source_at_pinch);
	Side side_t = gt_ehl_side(&q->side[1], t, false); // check_all below, once the line has not won
	if (!hidden &&
	    (side_s.grid && side_t.grid ? gt_visible_grid_points(e->map, side_s.gx, side_s.gy, side_t.gx, side_t.gy)
	                                : gt_visible_unchecked(e->map, q->source, t))) {
		a->distance = hypot(t.x - q->source.x, t.y - q->source.y);
		if (gt_ehl_line_wins(e, q->source, t, a->distance)) return;
		best = fmin(limit, a->distance); // a link may still be shorter than the straight line
	}
	if (!side) {
		gt_ehl_next_generation(&q->generation[1], q->side[1].stamp, (size_t)e->n + 1);
		side_t.check_all = e->map->pinch_count > 0 && gt_ehl_at_pinch(e->map, t);
	} else {
		side_t.cache = NULL; // price_side_hub starts t's vertex cache if a hub needs its vias
	}
	best = price_hubs(q, &side_s, &side_t, side, best, a);
	a->distance = a->hub >= 0 || isinf(a->distance) ? best : a->distance;
}
static void to_target(gtEhlQuery* q, gtVec2 t, double limit, bool hidden, Answer* a)
{
	to_target_with(q, t, limit, hidden, NULL, a);
}

// The most hub ranks an index may have for sides: a pricing reads the ranks' table at each of the
// source's hubs, spread over the whole table, so a table much beyond a few KiB is read from cold lines
// and costs more than the merge it replaces (FloodedPlains, 8,283 ranks: 16 KiB, bench-peers at 0.1%
// without words 0.89 -> 1.06 of IER-EHL's time; lak303d's 1,352 and AR0602SR's 2,842 gain).
#define SIDE_MOST_RANKS 4096

size_t gtEhlQuery_SideBytes(const gtEhlQuery* q)
{
	// None past the ranks' budget, or when places do not fit the table's 2 bytes.
	if (q->ehl->n + 1 > SIDE_MOST_RANKS || q->max_hubs > UINT16_MAX) return 0;
	size_t place = q->max_hubs <= PLACE_NARROW_HUBS ? sizeof(uint8_t) : sizeof(uint16_t);
	size_t bytes = SIDE_HEAD + ((size_t)q->max_hubs + 1) * (sizeof(double) + sizeof(int32_t)) +
	               ((size_t)q->ehl->n + 1) * place;
	return (bytes + 63) & ~(size_t)63;
}

bool gtEhlQuery_FillSide(gtEhlQuery* q, gtVec2 t, void* side, bool made)
{
	const gtEhl* e = q->ehl;
	if (!valid_point(e->map, t)) return false;
	int64_t cell = gt_ehl_cell_of(e, t);
	if (e->cell_begin[cell + 1] - e->cell_begin[cell] > (uint32_t)q->max_hubs) return false; // as set_source
	SideView v = side_view(q, side);
	// Over a side made before in the same cell (an object's own side after a short move: world_sides.c
	// gives it its entry back), the ranks' places stand; over another, only its cell's hubs are set
	// back to place 0.
	bool same = made && v.head->first_hub == e->cell_begin[cell];
	if (!made) memset(v.place, 0, ((size_t)e->n + 1) * (v.narrow ? sizeof(uint8_t) : sizeof(uint16_t)));
	else if (!same)
		for (const gtEhlHub* h = e->hubs + v.head->first_hub; h->hub != (uint32_t)e->n; h++)
			set_side_place(&v, h->hub, 0);
	v.head->first_hub = e->cell_begin[cell];
	v.head->hubs = e->cell_begin[cell + 1] - e->cell_begin[cell] - 1; // less its sentinel
	v.head->check_all = e->map->pinch_count > 0 && gt_ehl_at_pinch(e->map, t);
	static const unsigned char none[sizeof(double)] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}; // a NaN
	memcpy(v.part, none, sizeof none);
	// t's cell's hubs, each at its lower bound until a source prices it (price_side_hub): a side
	// costs about one merge to make.
	uint16_t at = 1;
	uint32_t head = 0;
	for (const gtEhlHub* h = e->hubs + v.head->first_hub; h->hub != (uint32_t)e->n; h++, at++) {
		if (!same) set_side_place(&v, h->hub, at);
		v.part[at] = gt_hub_lower_bound(h);
		v.via[at] = SIDE_UNPRICED;
		head += h->hub < q->end_from;
	}
	v.head->head_hubs = head;
	return true;
}

double gtEhlQuery_SideBelow(gtEhlQuery* query, gtVec2 t, void* side, double limit, bool hidden)
{
	if (!query->has_source) return INFINITY; // t is valid: its side was made
	Answer a;
	to_target_with(query, t, limit, hidden, side, &a);
	return a.distance;
}

static gtStatus answer(gtEhlQuery* q, gtVec2 s, gtVec2 t, Answer* a, gtError* err)
{
	a->distance = INFINITY;
	a->hub = -1;
	gtStatus st = set_source(q, s, err);
	if (st) return st;
	gtPointCheck ct = gtMap_CheckPoint(q->ehl->map, t);
	if (ct != GT_POINT_VALID)
		return gt_fail(err, GT_ERR_INVALID_POINT, "target (%g, %g): %s", t.x, t.y, gtPointCheckName(ct));
	to_target(q, t, INFINITY, false, a);
	return GT_OK;
}

gtStatus gtEhlQuery_SetSource(gtEhlQuery* query, gtVec2 source, gtError* err)
{
	// The same source again (a kNN query's every pricing) stays without set_source's call.
	if (query->has_source && query->source.x == source.x && query->source.y == source.y) return GT_OK;
	return set_source(query, source, err);
}

double gtEhlQuery_DistanceTo(gtEhlQuery* query, gtVec2 t)
{
	if (!query->has_source || !valid_point(query->ehl->map, t)) return INFINITY;
	Answer a;
	to_target(query, t, INFINITY, false, &a);
	return a.distance;
}

double gtEhlQuery_DistanceBelow(gtEhlQuery* query, gtVec2 t, double limit)
{
	if (!query->has_source || !valid_point(query->ehl->map, t)) return INFINITY;
	Answer a;
	to_target(query, t, limit, false, &a);
	return a.distance;
}

double gtEhlQuery_DistanceBelowHidden(gtEhlQuery* query, gtVec2 t, double limit)
{
	if (!query->has_source || !valid_point(query->ehl->map, t)) return INFINITY;
	Answer a;
	to_target(query, t, limit, true, &a);
	return a.distance;
}

gtStatus gtEhl_Distance(gtEhlQuery* query, gtVec2 s, gtVec2 t, double* distance, gtError* err)
{
	Answer a;
	gtStatus st = answer(query, s, t, &a, err);
	*distance = a.distance;
	return st;
}

// Appends the tree path from v to the hub vertex (v included, the hub excluded) to `out`.
static int climb(const gtEhl* e, int v, int32_t hub, gtVec2* out, int count, int capacity)
{
	int hub_vertex = e->vertex_of[hub];
	for (int steps = 0; v != hub_vertex && steps <= e->n; steps++) { // bounded: tree paths are simple
		if (count < capacity) out[count] = e->points[v];
		count++;
		int64_t entry = gt_ehl_label_entry(e, v, hub);
		if (entry < 0) break; // only a forged index lacks it
		v = e->label_parent[entry];
	}
	return count;
}

gtStatus gtEhl_Path(gtEhlQuery* query, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* distance,
                    gtError* err)
{
	const gtEhl* e = query->ehl;
	Answer a;
	*count = 0;
	gtStatus st = answer(query, s, t, &a, err);
	if (distance) *distance = a.distance;
	if (st || isinf(a.distance)) return st;
	int n = 0;
	if (capacity > 0) points[0] = s;
	n = 1;
	if (a.hub >= 0) {
		n = climb(e, a.via_s, a.hub, points, n, capacity);
		int hub_vertex = e->vertex_of[a.hub];
		if (n < capacity) points[n] = e->points[hub_vertex];
		n++;
		// The t side climbs towards the hub too: write it after, then reverse it in place.
		int from = n;
		n = climb(e, a.via_t, a.hub, points, n, capacity);
		for (int i = from, j = n - 1; i < j && j < capacity; i++, j--) {
			gtVec2 tmp = points[i];
			points[i] = points[j];
			points[j] = tmp;
		}
	}
	if (n < capacity) points[n] = t;
	n++;
	*count = n;
	if (n > capacity)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "path has %d points but the buffer holds %d", n, capacity);
	return GT_OK;
}
