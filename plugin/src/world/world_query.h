// What the Grid Tree queries share: the compiled filter, the answer being built, node geometry.
// The per-node and per-object tests are inline: they run for every node and object a query
// touches. Internal.
#ifndef GRIDTREE_WORLD_QUERY_H
#define GRIDTREE_WORLD_QUERY_H

#include <math.h>

#include "world/world_internal.h"

typedef enum Mode { MODE_NEAREST, MODE_WITHIN, MODE_TOP } Mode;

typedef struct Filter {
	const gtQuery* q;
	Mode mode;
	int query_words; // distinct words of Q, unknown ones included (for the score)
	int32_t* words;  // distinct known words of Q, sorted
	int word_count;
	int min_match;   // among `words`
	bool impossible; // e.g. an all-of query with an unknown word
	// The usual query, all of a few words that all have bitmaps (no any-list, no score): a node
	// passes when each of these planes has its bit.
	bool planes_only;
	int plane_count;
	const uint64_t* planes[4];
	const uint64_t* plane; // with one or more words: the AND of their planes (NULL when not made)
	bool plane_pending;    // the AND of several planes is still to make (gt_filter_make_plane)
	// "All of these words" and nothing else (no any/none lists, region, exclusions, score): an
	// object needs every bit of all_mask, and when all_exact no other issued word shares those bits.
	bool all_simple, all_exact;
	uint64_t all_mask;
	// Links (gtDistance.shortcuts, world_tree_query.c): a Dijkstra search from the query point over
	// the links' ways, in which a walk between two links is a straight line: a way's reach is a
	// lower bound of any walk that leaves its link (final once the way is settled). `ways` holds
	// the settled ways in the order settled (increasing reach), then the open ones, each with its
	// ends and cost (read in place: the search's inner loops run over it); link_frontier is the
	// least reach among the open ones and link_reach the least of all (+infinity without links or
	// when no link is cheaper than its straight line); way_least is the place in `ways` of the open
	// way of least reach. Or, when the ways save less than a map unit in all (link_slack, 0
	// otherwise), no search: a key is the straight line less key_slack, which is link_slack for a
	// query with a score, else 0 (the answer prunes keys above its bound plus the slack: Results).
	const gtShortcuts* shortcuts;
	double link_reach, link_frontier, link_slack, key_slack;
	// With link_slack: a lower bound of the least reach of a way from q (gtShortcuts.reach_gap,
	// or NAN until a sight walk first asks the ways for it), which with the gap table lets a
	// straight line q sees along stand (links_spare_line, world_tree_query.c).
	double slack_reach;
	gtLinkWay* ways;
	int ways_settled, ways_kept, way_least;
	gtLinkSearch* search; // the search over the ways' grid (world_links.c), or NULL: not begun, or over every way
	// Above 0: that search has not begun (a nearest query's ring walk, which begins it once its
	// events reach the least reach): link_reach and link_frontier hold search_from, a lower bound of
	// the least reach from q (the reach table's), or, once the walk reached it and q's block lists
	// its ways (gt_link_search_later), the exact least reach over them; no way is settled.
	double search_from;
	// The world's clearance when the distance is the straight line between points that see each
	// other on the map it was computed from (gtDistance.straight_map, no links), else NULL; and
	// the query point's clearance (world_clearance.h).
	const gtClearance* sight;
	const gtMap* sight_map; // distance.straight_map: its cells where the squares stop
	double sight_q;
	// distance.straight_map when the distance has hidden_below, else NULL: a pricing with no walk
	// probes a few points of its segment there first (gt_segment_hidden).
	const gtMap* hidden_map;
	bool sight_walks[2]; // whether pricings without (0) and with (1) a limit try it first
	// The world's block-to-block walk bounds when the distance is a walk on the map they were made
	// from (gtDistance.walk_map, no links) and q is on it: `walk_row` is the row of q's block
	// (world_walk_bound.h), else NULL (and in MODE_TOP).
	const gtWalkBound* walk;
	const uint16_t* walk_row;
	// The world's object sides when the distance offers them and the query runs on the world's
	// scratch (world_sides.h), else NULL.
	gtSideMemo* sides;
} Filter;


// The answer being built: the k best so far (a max-heap, the last in the answer's order on top) or,
// for within, every object inside the radius. The answer's order is by distance (score), ties by
// ascending object id, so a candidate at exactly `bound` may still enter.
typedef struct Results {
	const gtWorld* w; // for the ids that break ties
	gtHeap best;
	int32_t listed;
	int k;
	bool within;
	double bound;
	// Keys are pruned above `prune`: the bound plus `slack`, rounded up, when the keys are straight
	// lines that links a hair cheaper than their length may beat by at most that (Filter.link_slack,
	// a nearest or within query), else the bound.
	double slack, prune;
} Results;

// What the ways save on their straight lines in all, rounded up (gtShortcuts.savings).
double gt_shortcuts_savings(const gtShortcuts* l);
// The links' search over the ways' grid (world_links.c): begins it from q (link_reach and
// link_frontier set, false when out of memory), and settles ways up to `upto` as links_settle does.
bool gt_link_search_begin(Filter* f, gtQueryScratch* s, const gtShortcuts* l, gtVec2 q);
// `ahead`: reading on a ring of squares beyond `upto` (for the tree's keys).
void gt_link_search_settle(Filter* f, double upto, bool ahead);
// The least reach from q of a way cheaper than its straight line (+infinity: none), over the
// ways' grid when there is one, else over every way; 0 (which certifies nothing) when out of memory.
double gt_link_least_reach(gtQueryScratch* s, const gtShortcuts* l, gtVec2 q);
// A nearest query's ring walk whose events reached link_frontier before its search began
// (Filter.search_from): the first time, link_reach and link_frontier rise to the least reach over
// the ways q's block lists (gtShortcuts.reach_begin; the search's own least reach, without the
// search) when that is higher; else the search begins (false when out of memory); nothing once it has.
bool gt_link_search_later(Filter* f, gtQueryScratch* s, gtVec2 q);
// Whether no walk through the links beats the straight line from q to p (world_links.c).
bool gt_links_spare(Filter* f, gtQueryScratch* s, gtVec2 q, gtVec2 p);
gtStatus gt_filter_prepare(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, Mode mode, Filter* f, gtError* err);
// The same, leaving the AND of several query planes to gt_filter_make_plane: a query that reads
// every object instead of the tree never needs it.
gtStatus gt_filter_prepare_lazy(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, Mode mode, Filter* f,
                                gtError* err);
void gt_filter_make_plane(const gtWorld* w, gtQueryScratch* s, Filter* f);
// The m smallest keys of items[0..n) to its front, in no particular order (0 < m < n), the rest
// after them; tmp has room for n items (world_query.c).
void gt_scan_select(gtHeapItem* items, gtHeapItem* tmp, int n, int m);
// The squared lines from q of the live objects (keyed as push_all keys them) into items[0..live),
// those below a pivot first: returns how many are below it, about `want` (a pivot sampled among the
// objects; every one when there are too few for a sample, or want <= 0).
int gt_scan_split(const gtWorld* w, gtHeapItem* items, gtVec2 q, int want);
gtStatus gt_results_begin(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, bool within, Results* r, gtError* err);
bool gt_results_push(gtQueryScratch* s, int32_t* size, double d, int32_t slot);
// A candidate (d, slot) of a nearest query that is no farther than the bound: kept when the k
// best have room or it comes before the last of them.
void gt_results_keep(Results* r, double d, int32_t slot);
int32_t gt_results_finish(gtQueryScratch* s, Results* r);

// The two search strategies: best-first over the tree with any distance, and the straight-line
// query sphere over the leaf grid. Both leave the answer in s->results[0..*found). Neither
// changes the world, except the sphere's offsets on the first straight-line query
// (gt_sphere_ready makes them beforehand), so queries with their own scratch may run at once.
gtStatus gt_query_traverse(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, gtDistance distance, Mode mode,
                           int32_t* found, gtQueryStats* stats, gtError* err);
gtStatus gt_query_sphere(gtWorld* w, gtQueryScratch* s, const gtQuery* q, bool within, int32_t* found,
                         gtQueryStats* stats, gtError* err);
// Builds the query sphere's offsets unless they exist or the tree is too big for them: false
// when out of memory.
bool gt_sphere_ready(gtWorld* w);
// One query into caller buffers, as gtWorld_Nearest/Within/Top and the straight-line ones do
// (no distance function: straight lines through the query sphere).
gtStatus gt_world_query(gtWorld* w, gtQueryScratch* s, const gtQuery* q, gtDistance distance, Mode mode,
                        gtObjectId* ids, double* distances, int capacity, int* count, gtQueryStats* stats,
                        gtError* err);

// Whether the rectangle misses the query's region (never, without one).
static inline bool outside_region(const gtQuery* q, const double rect[4])
{
	return q->use_region &&
	       (rect[2] < q->region[0] || rect[0] > q->region[2] || rect[3] < q->region[1] || rect[1] > q->region[3]);
}
// -1 when nothing below a non-empty node can pass the keyword filters, else how many words of Q
// occur below it (an upper bound on any object's matches there). The region is the caller's test.
// Inlined into both traversals whatever its size: it runs for every child of every node they pop.
static inline __attribute__((always_inline)) int node_matches(const gtWorld* w, const Filter* f, int64_t node)
{
	if (f->plane) return plane_has(f->plane, node) ? f->plane_count : -1;
	if (f->planes_only) {
		for (int i = 0; i < f->plane_count; i++)
			if (!plane_has(f->planes[i], node)) return -1;
		return f->plane_count;
	}
	int have = 0;
	if (f->min_match > 0 || f->mode == MODE_TOP) {
		int enough = f->mode == MODE_TOP ? f->word_count : f->min_match; // the score wants them all
		for (int i = 0; i < f->word_count && have < enough; i++) {
			if (gt_node_has(w, node, f->words[i])) have++;
			else if (have + f->word_count - i - 1 < f->min_match) return -1; // min_match is out of reach
		}
		if (have < f->min_match) return -1;
	}
	const gtQuery* q = f->q;
	if (q->any_count > 0) {
		bool some = false;
		for (int i = 0; i < q->any_count && !some; i++) some = q->any[i] >= 0 && gt_node_has(w, node, q->any[i]);
		if (!some) return -1;
	}
	return have;
}
// -1 when the object fails the filters, else how many words of Q it has.
static inline __attribute__((always_inline)) int object_matches(const gtWorld* w, const Filter* f, int32_t slot)
{
	const gtQuery* q = f->q;
	if (q->use_region && (w->x[slot] < q->region[0] || w->x[slot] > q->region[2] || w->y[slot] < q->region[1] ||
	                      w->y[slot] > q->region[3]))
		return -1;
	uint64_t bits = w->object_words[slot];
	int have = 0;
	for (int i = 0; i < f->word_count; i++)
		have += (bits & gt_word_bit(f->words[i])) && gt_object_has(w, slot, f->words[i]);
	if (have < f->min_match) return -1;
	if (q->any_count > 0) {
		bool some = false;
		for (int i = 0; i < q->any_count && !some; i++)
			some = (bits & gt_word_bit(q->any[i])) && gt_object_has(w, slot, q->any[i]);
		if (!some) return -1;
	}
	for (int i = 0; i < q->none_count; i++)
		if ((bits & gt_word_bit(q->none[i])) && gt_object_has(w, slot, q->none[i])) return -1;
	if (q->exclude_count > 0) {
		gtObjectId id = gt_slot_id(w, slot);
		for (int i = 0; i < q->exclude_count; i++)
			if (q->exclude[i] == id) return -1;
	}
	return have;
}
// Whether the object has every word of an all_simple filter (object_matches >= 0 then).
static inline __attribute__((always_inline)) bool object_has_all(const gtWorld* w, const Filter* f, int32_t slot)
{
	if ((w->object_words[slot] & f->all_mask) != f->all_mask) return false;
	if (f->all_exact) return true;
	for (int i = 0; i < f->word_count; i++)
		if (!gt_object_has(w, slot, f->words[i])) return false;
	return true;
}
// Score offset of a candidate with `matches` words of Q (0 unless scoring).
static inline double penalty(const Filter* f, int matches)
{
	return f->mode == MODE_TOP ? f->q->miss_cost * (f->query_words - matches) : 0;
}
static inline void cell_rect(const gtWorld* w, int level, int64_t ix, int64_t iy, double rect[4])
{
	rect[0] = (double)ix * w->step_x[level];
	rect[1] = (double)iy * w->step_y[level];
	rect[2] = rect[0] + w->step_x[level];
	rect[3] = rect[1] + w->step_y[level];
}
static inline void node_rect(const gtWorld* w, int level, int64_t node, double rect[4])
{
	int64_t local = node - gt_level_offset(level), side = INT64_C(1) << level;
	cell_rect(w, level, local % side, local / side, rect);
}
static inline int32_t heap_id(int level, int64_t node)
{
	return (int32_t)(((int64_t)level << GT_NODE_BITS) | node);
}
// The traversal's lower bound on the distance across gaps dx, dy (a node's or an object's key):
// the straight line, as no walk is shorter. The one place a bound that knows shortcuts (links)
// would go. Shrunk by a few units in the last place so it never exceeds the distance backends'
// own straight line (hypot) through rounding: a key equal to the k-th distance must not hide a tie.
static inline double gt_straight_key(double dx, double dy)
{
	return sqrt(dx * dx + dy * dy) * (1 - 0x1p-49);
}
// Distance from p to the closed interval [lo, hi] (0 inside). Plain comparisons: fmax is a
// library call.
static inline double axis_gap(double p, double lo, double hi)
{
	return p < lo ? lo - p : p > hi ? p - hi : 0;
}
// Distance from p to the closed rectangle (0 inside).
static inline double min_dist(gtVec2 p, const double r[4])
{
	return gt_straight_key(axis_gap(p.x, r[0], r[2]), axis_gap(p.y, r[1], r[3]));
}
// The four children of an inner node, for both walks of the tree (the query's and the crowd's).
// Child c (0 to 3) is node first + (c & 1) + (c >> 1) * row, cell (ix + (c & 1), iy + (c >> 1)) of
// `level`; its gaps from the point are gap_x[c & 1] and gap_y[c >> 1], from the children's two
// columns and two rows, the edges cell_rect computes (so its key is min_dist of its rectangle).
typedef struct gtChildren {
	int level;
	int64_t ix, iy, first, row;
	double step_x, step_y;
	double x0, x1, y0, y1; // child 0's low edges and child 3's
	double gap_x[2], gap_y[2];
} gtChildren;
static inline __attribute__((always_inline)) void gt_children(const gtWorld* w, int level, int64_t node, gtVec2 p,
                                                              gtChildren* c)
{
	int64_t local = node - gt_level_offset(level);
	int64_t ix = local & ((INT64_C(1) << level) - 1), iy = local >> level;
	c->level = level + 1;
	c->ix = 2 * ix;
	c->iy = 2 * iy;
	c->row = INT64_C(1) << c->level;
	c->first = gt_level_offset(c->level) + c->iy * c->row + c->ix;
	c->step_x = w->step_x[c->level];
	c->step_y = w->step_y[c->level];
	c->x0 = (double)(2 * ix) * c->step_x;
	c->x1 = c->x0 + c->step_x;
	c->y0 = (double)(2 * iy) * c->step_y;
	c->y1 = c->y0 + c->step_y;
	double x2 = (double)(2 * ix + 1) * c->step_x + c->step_x, y2 = (double)(2 * iy + 1) * c->step_y + c->step_y;
	c->gap_x[0] = axis_gap(p.x, c->x0, c->x1);
	c->gap_x[1] = axis_gap(p.x, c->x1, x2);
	c->gap_y[0] = axis_gap(p.y, c->y0, c->y1);
	c->gap_y[1] = axis_gap(p.y, c->y1, y2);
}
static inline int64_t gt_child_node(const gtChildren* c, int k)
{
	return c->first + (k & 1) + (k >> 1) * c->row;
}
static inline void gt_child_rect(const gtWorld* w, const gtChildren* c, int k, double rect[4])
{
	cell_rect(w, c->level, c->ix + (k & 1), c->iy + (k >> 1), rect);
}
// A table of the links' blocks at (cx, cy): gap, the lower bound of the distance to any way's
// exit, or reach_gap; 0 off the table.
static inline double link_table_at(const gtShortcuts* l, const float* table, double cx, double cy)
{
	// The block (bx, by) truncated: floor() where the gap is read (it is a library call).
	double bx = cx / l->block, by = cy / l->block;
	return bx >= 0 && by >= 0 && bx < l->columns && by < l->rows ? table[(int64_t)by * l->columns + (int64_t)bx] : 0;
}
// With links the straight line is no lower bound: a walk may take links on the way. A walk whose
// last link is a settled way w costs at least w's reach + the straight line from w's exit; one
// whose last link is still open at least link_frontier + the straight line from the nearest exit
// (the gap table); so the least of those and the straight line is a lower bound. Settled ways
// come in increasing reach: the loop stops at the first that cannot beat the bound so far. Every
// link term is shrunk as gt_straight_key is, so rounding never lifts it above the backend's sum.
// Without a search, a walk is at least the straight line less what all the ways save on theirs.
static inline double link_bound(const Filter* f, double straight, double cx, double cy, double hx, double hy)
{
	if (straight <= f->link_reach) return straight - f->key_slack; // also every query without links
	double best = straight;
	for (int i = 0; i < f->ways_settled; i++) {
		const gtLinkWay* way = &f->ways[i];
		double reach = way->reach;
		if (reach >= best) break;
		double dx = fabs(way->exit.x - cx) - hx, dy = fabs(way->exit.y - cy) - hy;
		dx = dx > 0 ? dx : 0;
		dy = dy > 0 ? dy : 0;
		double b = (reach + sqrt(dx * dx + dy * dy)) * (1 - 0x1p-49);
		if (b < best) best = b;
	}
	if (f->link_frontier < best) {
		double half = sqrt(hx * hx + hy * hy), gap = link_table_at(f->shortcuts, f->shortcuts->gap, cx, cy);
		gap = gap > half ? gap - half : 0;
		double b = (f->link_frontier + gap) * (1 - 0x1p-49);
		if (b < best) best = b;
	}
	return best;
}
// A query frontier's push, growing it when full (false when out of memory).
bool gt_frontier_grow(gtHeap* h);
bool gt_frontier_grow_to(gtHeap* h, int64_t want);
static inline bool gt_frontier_push(gtHeap* h, double key, int32_t id)
{
	if (h->size == h->capacity && !gt_frontier_grow(h)) return false;
	gt_heap_push(h, key, id);
	return true;
}
// A child offered by an expansion, in both walks of the tree: the nearest child so far is held out
// of the heap (in *held, when *holding) and expanded next if nothing queued is nearer; the others
// are queued. False when out of memory.
static inline bool gt_hold_or_push(gtHeap* frontier, gtHeapItem item, gtHeapItem* held, bool* holding)
{
	if (!*holding) {
		*held = item;
		*holding = true;
		return true;
	}
	if (item.key < held->key) { // the new nearest child: the one held before is queued
		gtHeapItem swap = *held;
		*held = item;
		item = swap;
	}
	return gt_frontier_push(frontier, item.key, item.id);
}
// Results.prune after its bound or slack changed.
static inline void results_reprune(Results* r)
{
	r->prune = r->slack > 0 ? (r->bound + r->slack) * (1 + 0x1p-50) : r->bound;
}
// Whether a candidate key can no longer make the answer (keys only grow from here on). A key equal
// to the bound still can: a tie with a smaller id enters.
static inline bool results_prune(const Results* r, double key)
{
	return key > r->prune;
}
static inline bool results_offer(gtQueryScratch* s, Results* r, double d, int32_t slot)
{
	if (d > r->bound) return true;
	if (r->within) return gt_results_push(s, &r->listed, d, slot);
	gt_results_keep(r, d, slot);
	return true;
}

// The ring traversal with links (world_ring_sources.c): adds a source at `at` with key base `base`
// (none when an earlier source reaches `at` for no more); starts this query's priced stamps; steps
// source `source`'s ring one offset, queueing its leaves that hold objects (heap ids >= 0, entries
// of s->ring_leaves; `leaves` counts them); opens a queued leaf, queueing its objects. False when
// out of memory.
bool gt_ring_source_add(const gtWorld* w, gtQueryScratch* s, int* count, gtVec2 at, double base);
bool gt_ring_priced_begin(const gtWorld* w, gtQueryScratch* s);
bool gt_ring_source_step(const gtWorld* w, gtQueryScratch* s, const Results* r, int32_t source, int32_t* leaves);
bool gt_ring_leaf_open(const gtWorld* w, gtQueryScratch* s, const Results* r, gtRingLeaf l, gtQueryStats* stats);

#endif
