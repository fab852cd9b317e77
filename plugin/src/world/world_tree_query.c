// Best-first traversal of the Grid Tree. Node keys are Euclidean lower bounds of the distance to
// anything below; objects in a popped leaf are pushed with their straight-line distance and priced
// with the real distance only when popped.
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/status.h"
#include "world/world_query.h"
#include "world/world_sides.h"

bool gt_frontier_grow_to(gtHeap* h, int64_t want)
{
	int64_t cap = h->capacity;
	if (want >= INT32_MAX / 2 || !GT_GROW(h->items, cap, want, 256)) return false;
	h->capacity = (int)cap;
	return true;
}
bool gt_frontier_grow(gtHeap* h)
{
	return gt_frontier_grow_to(h, (int64_t)h->capacity + 1);
}

// An object popped with its key: priced with the real distance and offered to the answer; false
// when out of memory. `spared`: the caller knows that no walk through a link beats the straight
// line from q (the plain ring walk below the least reach, ring_traverse_upto).
static inline __attribute__((always_inline)) bool price_object(const gtWorld* w, gtQueryScratch* s, const gtQuery* q,
                                                               gtDistance distance, Mode mode, Filter* f, Results* r,
                                                               int32_t slot, double key, bool spared,
                                                               gtQueryStats* stats)
{
	gtVec2 p = {w->x[slot], w->y[slot]};
	int limited = r->bound < INFINITY, seen = 0;
	// A key above the straight line is the walk bound (rekey_object): every walk from q to p is
	// longer than the line, so q does not see p (a line it sees is a walk) and p is priced as hidden,
	// no sight walk and no line test (orz103d at 0.1% without words: 4% of a query's instructions).
	// Keys never exceed the backend's hypot (gt_straight_key), far inside the margin.
	if (f->walk_row && key > gt_straight_key(p.x - q->point.x, p.y - q->point.y) * (1 + 0x1p-40)) seen = -1;
	// q and p see each other: the distance is the straight line, no call (with links, when their
	// bound says no walk through them is shorter)
	else if (f->sight_walks[limited] &&
	         (spared || (f->link_reach == INFINITY && f->link_slack == 0) || gt_links_spare(f, s, q->point, p))) {
		s->sight_tries[limited]++;
		seen = gt_clearance_sight(f->sight, f->sight_map, q->point, f->sight_q, p, w->clear[slot]);
		if (seen > 0) {
			s->sight_hits[limited]++;
			double d = hypot(p.x - q->point.x, p.y - q->point.y);
			if (mode == MODE_TOP) d += penalty(f, object_matches(w, f, slot));
			return results_offer(s, r, d, slot);
		}
	} else if (f->hidden_map && gt_segment_hidden(f->hidden_map, q->point, p)) {
		// No walk this time (few certify where objects are far apart: 0.1% of the cells, or words):
		// a few points of the segment inside a wall still spare the pricing its line test, which
		// reads every row the segment crosses (bench-peers at 0.1% with two words, callgrind: 9-11%
		// of the Grid Tree's instructions a query).
		seen = -1;
	}
	// Once a farther distance cannot enter the answer, the backend may stop at that limit: a little
	// above the bound, as a distance equal to it enters (within the radius, or a tie with a smaller
	// id); one that lands between the two is returned and turned away here.
	double limit = mode == MODE_TOP || !distance.below || r->bound == INFINITY ? INFINITY
	                                                                           : r->bound * (1 + DBL_EPSILON) + DBL_MIN;
	bool hidden = seen < 0 && distance.hidden_below;
	void* side = f->sides ? gt_side_of(f->sides, w, slot, q->point, p, distance, &hidden) : NULL;
	double d = side               ? side != GT_SIDE_SEEN
	                                    ? distance.side_below(distance.side_context, q->point, p, side, limit, hidden)
	                                    : hypot(p.x - q->point.x, p.y - q->point.y)
	                         : hidden ? distance.hidden_below(distance.context, q->point, p, limit)
	           : limit < INFINITY ? distance.below(distance.context, q->point, p, limit)
	                              : distance.fcn(distance.context, q->point, p);
	stats->distance_calls++;
	if (!(d < INFINITY)) return true; // another component (or NaN): never a result
	if (mode == MODE_TOP) d += penalty(f, object_matches(w, f, slot));
	return results_offer(s, r, d, slot);
}

// An object's walk bound from q as a key: infinite when no walk leads there (the backend's
// distance is infinite too, never a result: the object is dropped unpriced). A query whose point
// is on an island priced every object of the world (AR0300SR at 0.1%: a third of all pricings).
static inline double walk_key(const gtWorld* w, const Filter* f, int32_t o)
{
	int32_t g = w->walk_group[o]; // gt_walk_bound_to's group, kept with the object
	double lb = g < 0 ? 0 : (double)f->walk_row[g];
	return lb == GT_WALK_BOUND_NONE ? INFINITY : lb;
}

// An object about to be priced whose walk bound (Filter.walk_row) is above its key gets that key
// (true): it goes back in its place, and may never need pricing. Only here, not when objects are
// pushed: most objects pushed are never priced (1% of AR0602SR's cells, no words: a bound per
// push cost more than it saved). Keys that carry a score (MODE_TOP) keep the straight line.
static inline bool rekey_object(const gtWorld* w, gtQueryScratch* s, const Filter* f, gtHeapItem* item)
{
	if (!f->walk_row) return false;
	double lb = walk_key(w, f, -item->id - 1);
	s->walk_looks++;
	if (!(lb > item->key)) {
		// Back after its rekey (a straight key is never a whole number above 0): priced all the same.
		s->walk_repriced += lb == item->key && lb > 0;
		return false;
	}
	item->key = lb;
	s->walk_rekeys++;
	return true;
}

// An object popped: back in its place with its walk bound (rekey_object), or priced; false when
// out of memory.
static inline __attribute__((always_inline)) bool take_object(const gtWorld* w, gtQueryScratch* s, const gtQuery* q,
                                                              gtDistance distance, Mode mode, Filter* f, Results* r,
                                                              gtHeapItem top, gtQueryStats* stats)
{
	if (rekey_object(w, s, f, &top)) return top.key == INFINITY || gt_frontier_push(&s->frontier, top.key, top.id);
	return price_object(w, s, q, distance, mode, f, r, -top.id - 1, top.key, false, stats);
}

// An item at the end of the frontier's array, which is no heap then (ring_traverse); false when
// out of memory.
static inline bool frontier_append(gtHeap* h, double key, int32_t id)
{
	if (h->size == h->capacity && !gt_frontier_grow(h)) return false;
	h->items[h->size++] = (gtHeapItem){key, id};
	return true;
}

// push_leaf's loop where the key is the straight line (no links, no score), made once for
// objects with filters to pass and once for objects with none (`plain`, a constant where inlined);
// `append`: to the end of the frontier's array instead of into its heap.
static inline __attribute__((always_inline)) bool push_leaf_straight(const gtWorld* w, gtHeap* frontier,
                                                                     const gtQuery* q, const Filter* f,
                                                                     const Results* r, bool plain, bool append,
                                                                     int64_t leaf, gtQueryStats* stats)
{
	for (int32_t o = w->leaf_head[leaf]; o >= 0; o = w->next[o]) {
		stats->objects_tested++;
		if (!plain && (f->all_simple ? !object_has_all(w, f, o) : object_matches(w, f, o) < 0)) continue;
		double e = gt_straight_key(w->x[o] - q->point.x, w->y[o] - q->point.y);
		if (results_prune(r, e)) continue;
		if (!(append ? frontier_append(frontier, e, -(o + 1)) : gt_frontier_push(frontier, e, -(o + 1)))) return false;
	}
	return true;
}

// A leaf popped: the objects that pass go in with their straight-line distance; false when out of memory.
static bool push_leaf(const gtWorld* w, gtHeap* frontier, const gtQuery* q, const Filter* f, const Results* r,
                      bool straight, bool plain, int64_t leaf, gtQueryStats* stats)
{
	if (straight)
		return plain ? push_leaf_straight(w, frontier, q, f, r, true, false, leaf, stats)
		             : push_leaf_straight(w, frontier, q, f, r, false, false, leaf, stats);
	for (int32_t o = w->leaf_head[leaf]; o >= 0; o = w->next[o]) {
		stats->objects_tested++;
		// all_simple: the words' bits first, as push_leaf_straight tests them (no score then)
		int matches = f->all_simple ? (object_has_all(w, f, o) ? f->word_count : -1) : object_matches(w, f, o);
		if (matches < 0) continue;
		double e = link_bound(f, gt_straight_key(w->x[o] - q->point.x, w->y[o] - q->point.y), w->x[o], w->y[o], 0, 0) +
		           penalty(f, matches);
		if (results_prune(r, e)) continue;
		if (!gt_frontier_push(frontier, e, -(o + 1))) return false;
	}
	return true;
}

// Every object that passes, with its straight-line key, instead of the tree (a sparse world):
// appended to the frontier, not yet a heap (scan_begin); false when out of memory. *squared: the
// keys are the squares of the lines (dx^2 + dy^2), whose roots scan_begin takes only for the few
// objects it keeps (a root is ~9 cycles of throughput: 69 objects on AR0300SR, ~5% of a query).
static bool push_all(const gtWorld* w, gtHeap* frontier, const gtQuery* q, const Filter* f, const Results* r, int want,
                     bool* squared, int* split, gtQueryStats* stats)
{
	*squared = false;
	*split = 0;
	// Without filters every live object is a candidate: only its key to compute.
	bool plain = f->mode != MODE_TOP && f->word_count == 0 && q->any_count == 0 && q->none_count == 0 &&
	             !q->use_region && q->exclude_count == 0;
	// Twice the objects: scan_begin's selection writes through the second half.
	if (frontier->capacity < 2 * w->live && !gt_frontier_grow_to(frontier, 2 * (int64_t)w->live)) return false;
	int32_t tested = 0, n = 0;
	gtHeapItem* items = frontier->items;
	if (plain && f->link_reach == INFINITY && f->key_slack == 0 && r->bound == INFINITY) {
		// The usual case, where the scan's cost is: no filter, no links (the key is the straight
		// line, as link_bound returns it then) and nothing to prune against yet.
		n = w->live;
		*split = gt_scan_split(w, items, q->point, want);
		tested = n;
		*squared = true;
	} else if (f->all_simple && f->link_reach == INFINITY && f->key_slack == 0) {
		// All of a few words, no links (the key is the straight line): the words' bits first, where
		// most slots fail, then whether the slot is live. A third of the instructions of the loop below.
		const uint64_t* words = w->object_words;
		const uint64_t mask = f->all_mask;
		for (int32_t o = 0; o < w->slots_used; o++) {
			if ((words[o] & mask) != mask || !(w->generation[o] & 1)) continue;
			if (!f->all_exact && !object_has_all(w, f, o)) continue;
			double e = gt_straight_key(w->x[o] - q->point.x, w->y[o] - q->point.y);
			if (!results_prune(r, e)) items[n++] = (gtHeapItem){e, -(o + 1)};
		}
		tested = w->live;
	} else {
		for (int32_t o = 0; o < w->slots_used; o++) {
			if (!(w->generation[o] & 1)) continue; // a free slot
			tested++;
			int matches = plain           ? 0
			              : f->all_simple ? (object_has_all(w, f, o) ? f->word_count : -1)
			                              : object_matches(w, f, o);
			if (matches < 0) continue;
			double e = link_bound(f, gt_straight_key(w->x[o] - q->point.x, w->y[o] - q->point.y), w->x[o], w->y[o], 0,
			                      0) +
			           penalty(f, matches);
			if (!results_prune(r, e)) items[n++] = (gtHeapItem){e, -(o + 1)};
		}
	}
	stats->objects_tested += tested;
	frontier->size = n;
	return true;
}

// The straight-line key (gt_straight_key) of a squared line dx^2 + dy^2 (push_all).
static inline double squared_key(double d2)
{
	return sqrt(d2) * (1 - 0x1p-49);
}

// The scan's objects, appended by push_all, become the frontier. A nearest query with straight
// keys first prices the k with the smallest keys (the ones a heap would give first, as nothing can
// be pruned before k are priced) and makes a heap only of the rest that the k-th distance leaves:
// on a sparse world most of them. Heap work was a third of a query's own instructions there
// (AR0602SR, 67 objects). False when out of memory.
static bool scan_begin(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, gtDistance distance, Mode mode, Filter* f,
                       Results* r, bool straight, bool squared, int split, gtQueryStats* stats)
{
	gtHeap* frontier = &s->frontier;
	gtHeapItem* items = frontier->items;
	int n = frontier->size, k = r->k, first = 0, kept = 0;
	bool picks = mode == MODE_NEAREST && straight && k > 0 && k <= 16 && n > 2 * k;
	if (squared && !picks) { // every key wanted: their roots now
		for (int i = 0; i < n; i++) items[i].key = squared_key(items[i].key);
		squared = false;
	}
	if (picks) {
		// With the walk bound, the 2k smallest straight keys are rekeyed (rekey_object's max of the
		// two) and the k smallest of those priced: the k-th distance comes out nearer the answer's,
		// so fewer later objects are priced, and those with a tighter limit. The k left keep their
		// walk bounds in the heap (still lower bounds).
		// Unordered: the first k are priced with no limit (no k-th distance before), in any order.
		int m = f->walk_row ? 2 * k : k;
		gtHeapItem* tmp = items + n; // push_all made room
		// push_all's split, when it holds k to 4m keys, stands for the m smallest (by squares alike: the
		// root is monotone); else the m smallest of all, or of those below the split when it holds more.
		if (split >= k && split <= 4 * m) m = split;
		else gt_scan_select(items, tmp, split > m ? split : n, m);
		if (squared)
			for (int i = 0; i < m; i++) items[i].key = squared_key(items[i].key);
		if (f->walk_row) {
			for (int i = 0; i < m; i++) {
				double lb = walk_key(w, f, -items[i].id - 1);
				if (lb > items[i].key) items[i].key = lb;
			}
		}
		if (m > k) gt_scan_select(items, tmp, m, k);
		for (; first < k; first++) // infinite keys (no walk there) are dropped
			if (items[first].key < INFINITY && !results_prune(r, items[first].key) &&
			    !price_object(w, s, q, distance, mode, f, r, -items[first].id - 1, items[first].key, false, stats))
				return false;
		// Every later straight key is at least every one tried; the walk keys of the k after
		// the priced ones are only at least the straight keys of those priced, so they are tested.
		for (int i = k; i < m; i++)
			if (items[i].key < INFINITY && !results_prune(r, items[i].key)) items[kept++] = items[i];
		first = m;
	}
	if (squared) {
		// A square above (prune (1 + 2^-40))^2 has a root above prune, whatever the roundings
		// (each within 2^-52); the others get their root and the exact test.
		double above = r->prune * (1 + 0x1p-40);
		above = r->prune < INFINITY ? above * above : INFINITY;
		for (int i = first; i < n; i++) {
			if (items[i].key > above) continue;
			double key = squared_key(items[i].key);
			if (!results_prune(r, key)) items[kept++] = (gtHeapItem){key, items[i].id};
		}
		first = n;
	}
	for (int i = first; i < n; i++)
		if (!results_prune(r, items[i].key)) items[kept++] = items[i];
	frontier->size = kept;
	for (int i = kept / 2 - 1; i >= 0; i--) // bottom-up: each subtree below i is a heap
		gt_heap_sift_down_from(items, kept, i, items[i]);
	return true;
}

// expand_children's loop where the key is the straight line (no links, no score, no trace) and a
// child's keyword test is its query plane bit (`by_plane`, a constant where inlined) or none.
static inline __attribute__((always_inline)) bool expand_straight(const gtWorld* w, gtHeap* frontier, const Filter* f,
                                                                  const Results* r, const gtChildren* ch, bool by_plane,
                                                                  gtHeapItem* held, bool* holding)
{
#pragma GCC unroll 4
	for (int c = 0; c < 4; c++) {
		int64_t child = gt_child_node(ch, c);
		if (by_plane ? !plane_has(f->plane, child) : w->object_counts[child] == 0) continue;
		double key = gt_straight_key(ch->gap_x[c & 1], ch->gap_y[c >> 1]);
		if (results_prune(r, key)) continue;
		if (!gt_hold_or_push(frontier, (gtHeapItem){key, heap_id(ch->level, child)}, held, holding)) return false;
	}
	return true;
}

// The links' search from q (Filter). When all the ways together save less than LINK_SLACK on
// their straight lines (stairs priced by their length), there is no search: a key is the straight
// line, pruned above the answer's bound plus that sum (Results.slack; in a query with a score the
// key is the line less the sum), which loses at most a ring of that width around the answer. The
// keys being straight lines, such a query takes the fast paths of queries without links (100
// stairs on AR0602SR: 1,000-2,000 fewer instructions a query than keys less the sum). Otherwise every
// way cheaper than the straight line between its ends starts open with reach |q entrance| + cost (a
// way no cheaper never shortens a walk whose other steps are straight lines, so it is left out).
// (Starting the search only once a key passed the reach table's bound of the least reach from q's
// block, gtShortcuts.reach_gap, cost more than it saved: 100 teleporters on AR0602SR, 42.6k instead
// of 38.7k instructions a query; the keys made from the table's lower reach were rekeyed more.)
// False when out of memory.
enum { LINK_SLACK = 1 };
static inline __attribute__((always_inline)) bool links_begin(Filter* f, gtQueryScratch* s, const gtShortcuts* l,
                                                              gtVec2 q, bool lazy)
{
	f->shortcuts = l;
	f->link_reach = f->link_frontier = INFINITY;
	f->link_slack = f->key_slack = 0;
	f->slack_reach = NAN;
	f->ways_settled = f->ways_kept = f->way_least = 0;
	f->search = NULL;
	f->search_from = 0;
	if (!l || l->count <= 0) return true;
	double savings = l->savings > 0 ? l->savings : gt_shortcuts_savings(l);
	if (savings < LINK_SLACK) {
		f->link_slack = savings;
		if (f->mode == MODE_TOP) f->key_slack = savings; // else the answer's prune carries it
		if (l->reach_gap) f->slack_reach = link_table_at(l, l->reach_gap, q.x, q.y);
		return true;
	}
	double from = lazy && l->grid_begin && l->reach_gap ? link_table_at(l, l->reach_gap, q.x, q.y) : 0;
	if (from > 0 && from < INFINITY) { // ring_walk begins the search
		f->search_from = f->link_reach = f->link_frontier = from;
		return true;
	}
	if (l->grid_begin) return gt_link_search_begin(f, s, l, q);
	if (s->way_capacity < l->count) {
		if (!GT_RESIZE(s->ways, l->count)) return false;
		s->way_capacity = l->count;
	}
	f->ways = s->ways;
	for (int32_t i = 0; i < l->count; i++) {
		double lx = l->exit[i].x - l->entrance[i].x, ly = l->exit[i].y - l->entrance[i].y, c = l->cost[i];
		if (c * c >= lx * lx + ly * ly) continue;
		double dx = q.x - l->entrance[i].x, dy = q.y - l->entrance[i].y, reach = sqrt(dx * dx + dy * dy) + c;
		if (reach < f->link_frontier) f->link_frontier = reach, f->way_least = f->ways_kept;
		f->ways[f->ways_kept++] = (gtLinkWay){reach, c, l->entrance[i], l->exit[i]};
	}
	f->link_reach = f->link_frontier;
	return true;
}

// Settles open ways while the least open reach is at most `upto` (Dijkstra): the settled way's
// exit may walk straight to any open way's entrance. O(open ways) per way settled, finding the next
// least as it relaxes; a query settles the few ways within its answer's distance. (Pricing a way's
// entrance walk with the distance itself when it is settled made the bound tighter but cost more
// than it saved: 202k instead of 160k instructions per query, 100 teleporters on AR0602SR.)
// `ahead`: the grid search reads a ring of squares on (gt_link_search_settle).
static void links_settle(Filter* f, double upto, bool ahead)
{
	if (f->search) {
		gt_link_search_settle(f, upto, ahead);
		return;
	}
	while (f->link_frontier * (1 - 0x1p-48) <= upto && f->ways_settled < f->ways_kept) { // keys are shrunk
		int first = f->ways_settled, least = f->way_least;
		gtLinkWay way = f->ways[least];
		f->ways[least] = f->ways[first];
		f->ways[first] = way;
		f->ways_settled++;
		double reach = way.reach, frontier = INFINITY;
		gtVec2 x = way.exit;
		for (int i = first + 1; i < f->ways_kept; i++) {
			gtLinkWay* next = &f->ways[i];
			double to = next->reach, room = to - reach - next->cost; // the walk that would improve it
			if (room > 0) {
				double dx = next->entrance.x - x.x, dy = next->entrance.y - x.y, d2 = dx * dx + dy * dy;
				if (d2 < room * room) next->reach = to = reach + sqrt(d2) + next->cost;
			}
			if (to < frontier) frontier = to, least = i;
		}
		f->link_frontier = frontier;
		f->way_least = least;
	}
}

// A popped item's key again, after the links' search has gone past it (nearest and within
// queries, where a key is the bound alone).
static double links_rekey(const gtWorld* w, const Filter* f, gtVec2 q, gtHeapItem item)
{
	if (item.id < 0) {
		int32_t o = -item.id - 1;
		return link_bound(f, gt_straight_key(w->x[o] - q.x, w->y[o] - q.y), w->x[o], w->y[o], 0, 0);
	}
	double rect[4];
	node_rect(w, item.id >> GT_NODE_BITS, item.id & ((INT64_C(1) << GT_NODE_BITS) - 1), rect);
	return link_bound(f, min_dist(q, rect), (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2, (rect[2] - rect[0]) / 2,
	                  (rect[3] - rect[1]) / 2);
}

// The cost model's slot for a query: its mode, and whether its words prune subtrees through one
// plane (1), it has other filters (2) or none (0).
static int cost_class(const Filter* f, Mode mode)
{
	const gtQuery* q = f->q;
	int filters = f->plane || f->plane_pending                                      ? 1
	              : f->word_count || q->any_count || q->none_count || q->use_region ? 2
	                                                                                : 0;
	return (int)mode * 3 + filters;
}

// Whether reading every object would cost less than the tree, from what the tree cost on recent
// queries of the same kind in this scratch. Instructions (callgrind, AR0602SR, orz103d, lak303d):
// a node popped about 250 (its children's keys and tests, heap work), plus the AND of several
// query planes, which only the tree reads (about 4 per plane word); an object slot read by the
// scan about 100 (its filters, key and heap work), 20 when its keyword bits decide (all_simple,
// push_all's loop that tests them first, ~15 a slot; 2-word rows of bench-peers, 15 to 3,636
// objects: 45 left FloodedPlains' 364 objects, lak303d's 148, orz103d's 404 and a generated map's
// 273 on the dearer tree, by 10-20%). Without filters a slot counts 25, from time rather than
// instructions: a scan reads the objects' arrays in order (about 6 cycles a slot) where the tree's
// nodes are cold (about 86 cycles each, rdtsc, bench-peers at 1%). Its node average ignores a
// query's nodes beyond twice the average: one query that pops many nodes says little about the
// next, and made AR0300SR at 1% scan 690 objects on 189 of 1,000 queries (bench-peers median gt /
// IER-EHL, idle: lak303d 1% 1.08 -> 1.00, 0.1% 0.91 -> 0.89, AR0300SR 0.1% 1.02 -> 1.00, others
// within noise). The tree runs again after 16 scans, to follow the world; after 32, 64 and 128
// while those runs leave the scan cheaper (a sparse world's tree query costs a quarter more than
// its scan: bench-peers at 0.1% without words, gt / IER-EHL with the tree on every query AR0205SR
// 0.92 -> 1.16, IceFloes 0.85 -> 1.05; one in 17 queries took it).
#define SCAN_PLAIN_SLOT 25.0f
#define SCAN_SPIKE 2.0f
static bool scan_is_cheaper_now(const gtWorld* w, const gtQueryScratch* s, const Filter* f, Mode mode, int cost)
{
	const gtQuery* q = f->q;
	bool plain = mode != MODE_TOP && f->word_count == 0 && q->any_count == 0 && q->none_count == 0 && !q->use_region &&
	             q->exclude_count == 0;
	float slot = f->link_reach == INFINITY && !plain && f->all_simple ? 20.0f : plain ? SCAN_PLAIN_SLOT : 100.0f;
	float tree = 250.0f * s->tree_nodes[cost] + (f->plane_pending ? 4.0f * (float)w->plane_stride : 0.0f);
	return slot * (float)w->slots_used < tree;
}
// Not while the walk bound is off or on trial (walk_begin: only the tree's queries judge it), which
// the longer wait kept off (test_gate_comes_back).
static bool scan_is_cheaper(const gtWorld* w, const gtQueryScratch* s, const Filter* f, Mode mode, int cost)
{
	bool trial = s->walk_runs[cost] >= 16 && s->walk_gain[cost] < 0;
	return s->scans_since_tree[cost] < 16 << (trial ? 0 : s->scan_backoff[cost]) &&
	       scan_is_cheaper_now(w, s, f, mode, cost);
}

// The tree's nodes on this query into its kind's average (no-filter kinds clamped to SCAN_SPIKE
// times the average, above). A ring walk's leaves (`ring`) go in at a sixteenth, not a quarter:
// their counts swing more from query to query, and a quarter took the average across the scan's
// line in runs of far queries where rings cost less (ca_caverns2 at 1% without words, 138
// objects: 8.9 leaves a query on average, yet 154 of 1,000 queries scanned, each ~900 cycles
// dearer than a ring walk, rdtsc). The other rows of bench-peers (ten maps, 0.1% and 1% without
// words) choose as before, within 20 queries.
static void tree_nodes_learn(gtQueryScratch* s, int cost, float nodes, bool ring)
{
	float avg = s->tree_nodes[cost], weight = ring ? 0.0625f : 0.25f;
	if (cost % 3 == 0 && avg > 0 && nodes > SCAN_SPIKE * avg) nodes = SCAN_SPIKE * avg;
	s->tree_nodes[cost] = avg > 0 ? (1 - weight) * avg + weight * nodes : nodes;
}

// A query that read the tree (or its leaves in rings: the leaves it read count as its nodes) or
// scanned every object, for the cost model. A tree run after 16 scans or more (`retry`) that
// leaves the scan cheaper backs the next run off; any other resets it.
static void traversal_learn(const gtWorld* w, gtQueryScratch* s, const Filter* f, Mode mode, int cost, bool scan,
                            float nodes, bool ring)
{
	if (scan) {
		s->scans_since_tree[cost]++;
		return;
	}
	bool retry = s->scans_since_tree[cost] >= 16;
	tree_nodes_learn(s, cost, nodes, ring);
	s->scans_since_tree[cost] = 0;
	if (!retry || !scan_is_cheaper_now(w, s, f, mode, cost)) s->scan_backoff[cost] = 0;
	else if (s->scan_backoff[cost] < 3) s->scan_backoff[cost]++;
}

// Whether this query walks the clearance squares before pricing, with and without a limit. In
// instructions a walk is cheap (about 135 against about 650 for a pricing of a pair that sees each
// other), but in time it is not: its cells are cold where the distance's labels have just pushed
// them out of the caches, and once a query has read its own point's labels for a first pricing,
// each further pricing costs about what a walk does (rdtsc per phase, bench-peers, AR0602SR at 1%
// without words: a walk 250-500 cycles, a second pricing 300-450, the first 2,500). So it runs
// while at least four in ten of recent walks certified (0.1% of the cells without words certify 2-4
// in ten: AR0602SR 0.89 -> 0.81 of IER-EHL's time, AR0300SR 1.09 -> 1.01; 1% certify 5-9 in ten and
// keep it), and again after 16 queries without, to follow the world; 32, 64 and 128 while those
// retries fail.
#define SIGHT_MISSES 0.6f
static void sight_begin(const gtWorld* w, gtQueryScratch* s, gtDistance distance, gtVec2 q, Filter* f, int cost)
{
	f->sight = NULL;
	f->sight_walks[0] = f->sight_walks[1] = false;
	f->hidden_map = distance.hidden_below ? distance.straight_map : NULL;
	if (s->sight_idle[cost] > 0) { // neither walk runs on this query (sight_end counted it skipped)
		s->sight_idle[cost]--;
		return;
	}
	if (!gt_clearance_fits(&w->clearance, distance.straight_map)) return;
	f->sight = &w->clearance;
	f->sight_map = distance.straight_map;
	for (int limited = 0; limited < 2; limited++) {
		if (s->sight_misses[cost][limited] > SIGHT_MISSES &&
		    s->sight_skips[cost][limited] < 16 << s->sight_backoff[cost][limited])
			continue;
		f->sight_walks[limited] = true;
		s->sight_tries[limited] = s->sight_hits[limited] = 0;
	}
	// The query point's square only for a query that walks (most queries skip it where few certify).
	if (f->sight_walks[0] || f->sight_walks[1]) f->sight_q = gt_clearance_at(&w->clearance, q.x, q.y);
}
static void sight_end(gtQueryScratch* s, const Filter* f, int cost)
{
	// The queries before either walk runs again (idle) skip sight_begin's tests: counted skipped here.
	int idle = 255;
	for (int limited = 0; limited < 2; limited++) {
		float* misses = &s->sight_misses[cost][limited];
		uint8_t *skips = &s->sight_skips[cost][limited], *backoff = &s->sight_backoff[cost][limited];
		int tries = s->sight_tries[limited];
		if (!f->sight_walks[limited]) {
			if (*skips < 255) ++*skips;
		} else if (tries > 0) {
			bool retry = *misses > SIGHT_MISSES;
			*misses = 0.75f * *misses + 0.25f * (float)(tries - s->sight_hits[limited]) / (float)tries;
			*skips = 0;
			if (*misses <= SIGHT_MISSES) *backoff = 0;
			else if (retry && *backoff < 3) ++*backoff;
		}
		int wait = *misses > SIGHT_MISSES ? (16 << *backoff) - *skips : 0;
		if (wait < idle) idle = wait;
	}
	if (idle > 0) {
		s->sight_skips[cost][0] += (uint8_t)idle;
		s->sight_skips[cost][1] += (uint8_t)idle;
		s->sight_idle[cost] = (uint8_t)idle;
	}
}

// The walk bound for this query: only when the distance is a walk on the map it was made from
// (which an edit in place changes: its fingerprint then differs) and nothing shortcuts it; and not
// for queries with words, whose few matching objects are mostly answers (bench-peers, 0.1% with
// two words: its lookups cost more than the pricings it saved on AR0602SR and orz103d).
// It also stops (per kind of query, like the sight walk) while it costs more than it saves: a
// lookup about WALK_LOOK instructions, a rekeyed object's push, pop and second lookup WALK_REPUSH,
// and a rekeyed object never priced saves a pricing, WALK_PRICE (callgrind, bench-peers: 1% of
// AR0602SR's cells without words, few rekeys skip a pricing and the lookups made it 1-4% dearer).
// Judged after 16 queries that ran it, on a slow average (the savings come in bursts: lak303d at
// 0.1% saves nothing on most queries, several pricings on some); it runs again after 16 queries
// without, 32, 64 and 128 while those retries lose, a retry weighing half (a stale average would
// keep it off on a world that changed).
#define WALK_LOOK 35.0f
#define WALK_REPUSH 50.0f
#define WALK_PRICE 1000.0f
static void walk_begin(const gtWorld* w, gtQueryScratch* s, gtDistance distance, gtVec2 q, Filter* f, int cost)
{
	f->walk = &w->walk_bound;
	f->walk_row = NULL;
	if (f->mode == MODE_TOP || f->word_count > 0 || distance.shortcuts || f->link_reach != INFINITY ||
	    f->link_slack != 0 || !gt_walk_bound_fits(&w->walk_bound, distance.walk_map))
		return;
	if (s->walk_runs[cost] >= 16 && s->walk_gain[cost] < 0 && s->walk_skips[cost] < 16 << s->walk_backoff[cost]) {
		s->walk_skips[cost]++;
		return;
	}
	f->walk_row = gt_walk_bound_row(&w->walk_bound, q.x, q.y);
	s->walk_looks = s->walk_rekeys = s->walk_repriced = 0;
}
static void walk_end(gtQueryScratch* s, int cost)
{
	float saved = (float)(s->walk_rekeys - s->walk_repriced);
	float gain = saved * WALK_PRICE - (float)s->walk_looks * WALK_LOOK - (float)s->walk_rekeys * WALK_REPUSH;
	bool retry = s->walk_runs[cost] >= 16 && s->walk_gain[cost] < 0;
	if (s->walk_runs[cost] < 16) s->walk_runs[cost]++;
	s->walk_gain[cost] = retry ? 0.5f * s->walk_gain[cost] + 0.5f * gain
	                           : 0.96875f * s->walk_gain[cost] + 0.03125f * gain;
	s->walk_skips[cost] = 0;
	if (s->walk_gain[cost] >= 0) s->walk_backoff[cost] = 0;
	else if (retry && s->walk_backoff[cost] < 3) s->walk_backoff[cost]++;
}

// What this query learnt of the sight walk and the walk bound, for the queries after it. The walk
// bound learns from the tree's queries only: a scan looks up every object's bound, so its losses
// would keep the bound off where the tree gains from it (test_gate_comes_back).
static inline void gates_end(gtQueryScratch* s, const Filter* f, int cost, bool scan)
{
	if (f->sight) sight_end(s, f, cost);
	if (f->walk_row && !scan) walk_end(s, cost);
}

// The ring traversal's frontier while it is a plain array (RING_FLAT): the index of the least key
// of items[0, n), given `at`, that of items[0, from) (from >= 1), the first of equal ones.
#define RING_FLAT 32
static inline int flat_least(const gtHeapItem* items, int n, int at, int from)
{
	double key = items[at].key;
	for (int i = from; i < n; i++) {
		bool less = items[i].key < key;
		key = less ? items[i].key : key;
		at = less ? i : at;
	}
	return at;
}

// The ring traversal: the leaves in rings around q's leaf by the world's offset order
// (gtRingOffset), no inner node and no node in the heap. An empty leaf costs a look at its count
// (or its query plane bit), a leaf whose rectangle is beyond the bound not even its objects; the
// objects of the others go in with their straight lines and are priced when no leaf left can hold
// a nearer one (its offset's bound), as best-first over the tree would. Nearest queries with
// straight keys whose objects' test is none (plain) or their words' plane. False when out of memory.
// With `lazy` (links, ring_walk), every event below `stop`, a lower bound of the least reach of a
// way from q, is the same as without links (no walk through a link costs less than stop); it starts
// at offset *resume with the frontier left by an earlier hand-over, and at the first event at or
// above stop hands over: *resume is the next offset (the frontier a heap, its objects priced so far
// stamped in s->priced), -1 when it ended.
static inline __attribute__((always_inline)) bool ring_traverse_upto(const gtWorld* w, gtQueryScratch* s,
                                                                     const gtQuery* q, gtDistance distance, Filter* f,
                                                                     Results* r, bool plain, bool lazy, double stop,
                                                                     int32_t* resume, gtQueryStats* stats)
{
	gtHeap* frontier = &s->frontier;
	const int side = 1 << w->height;
	const int64_t leaf_base = gt_level_offset(w->height);
	const int32_t* heads = w->leaf_head;
	// The rows' test first where most offsets' four leaves are empty: fewer objects than a quarter
	// of the leaves (ca_caverns2 at 1%, 138 objects in 1,024 leaves). Where more hold objects it
	// only adds to the leaves' own tests (AR0602SR at 1%, 664 in 1,024: 9,119 -> 9,191 a query).
	const uint64_t* rows = plain && (int64_t)w->live * 4 < (int64_t)side * side ? w->leaf_rows : NULL;
	const gtVec2 at = q->point; // held: the loop's stores could alias q
	int32_t home = leaf_of_point(w, at.x, at.y);
	const int hx = home & (side - 1), hy = home >> w->height;
	const gtRingOffset* ring = w->ring;
	// The frontier is a plain array while it holds at most RING_FLAT objects, its least found by a
	// scan: few go in (AR0602SR at 1%: 18 a query, 6 taken), where a heap's sifts mispredicted ~25
	// branches a query. Past that (objects piled in a few leaves) it becomes the heap. Equal keys
	// may come out in another order than the heap's: the answer breaks their ties by id.
	// Going on after a hand-over (lazy, *resume > 0): a heap's least is its first.
	int32_t start = lazy ? *resume : 0;
	bool flat = !lazy || frontier->size <= RING_FLAT;
	int least = 0; // flat: where the least key is (when not empty)
	// Lazy: a key this far below the least reach is a line no walk through a link beats, by a
	// margin far beyond rounding (gt_links_spare's test, without its call).
	const double spare_below = lazy ? stop * (1 - 0x1p-30) : 0;
	if (lazy) *resume = -1;
	for (int32_t i = start, n = w->ring_count;;) {
		double next = i < n ? (double)ring[i].bound : INFINITY;
		// The event is the least key when it is at most the next offset's bound, else that bound;
		// with `lazy`, the first event at or above stop hands over.
		bool pop = frontier->size > 0 && frontier->items[flat ? least : 0].key <= next;
		if (lazy && (pop ? frontier->items[flat ? least : 0].key : next) >= stop) {
			if (flat) // bottom-up: each subtree below j is a heap
				for (int j = frontier->size / 2 - 1; j >= 0; j--)
					gt_heap_sift_down_from(frontier->items, frontier->size, j, frontier->items[j]);
			*resume = i;
			break;
		}
		// (The test written out again without links: the loop reusing `pop` cost ~100 more
		// instructions a query there, code layout.)
		if (lazy ? pop : frontier->size > 0 && frontier->items[flat ? least : 0].key <= next) {
			gtHeapItem top;
			if (flat) {
				top = frontier->items[least];
				frontier->items[least] = frontier->items[--frontier->size];
			} else {
				top = gt_heap_pop(frontier);
			}
			if (results_prune(r, top.key)) break; // and every key left, in the heap and in the leaves
			// Lazy: no walk bound with links (walk_begin), priced now; stamped for the sources after
			// the hand-over. Else take_object may put it back with its walk bound (rescanned after).
			if (lazy) s->priced[-top.id - 1] = s->priced_generation;
			if (lazy ? !price_object(w, s, q, distance, MODE_NEAREST, f, r, -top.id - 1, top.key, top.key < spare_below,
			                         stats)
			         : !take_object(w, s, q, distance, MODE_NEAREST, f, r, top, stats))
				return false;
			if (flat && frontier->size > 0) least = flat_least(frontier->items, frontier->size, 0, 1);
			continue;
		}
		if (i >= n || results_prune(r, next)) break;
		gtRingOffset o = ring[i++];
		if (rows && gt_ring_empty(rows, o, hx, hy, side)) continue; // most offsets: four empty leaves
		for (int m = 0; m < 4; m++) {                               // the offset's mirror images, each once
			int cx, cy;
			int32_t leaf = gt_ring_leaf(o, m, hx, hy, side, &cx, &cy);
			if (leaf < 0) continue;
			// An empty leaf: its head (which push_leaf reads next anyway) or its query plane bit.
			if (plain ? heads[leaf] < 0 : !plane_has(f->plane, leaf_base + leaf)) continue;
			gtVec2 g = gt_ring_gap(w, cx, cy, hx, hy, at); // the leaf's own gap from q
			if (results_prune(r, gt_straight_key(g.x, g.y))) continue;
			stats->nodes_popped++;
			if (!flat) {
				if (!push_leaf(w, frontier, q, f, r, true, plain, leaf, stats)) return false;
				continue;
			}
			int before = frontier->size;
			if (!(plain ? push_leaf_straight(w, frontier, q, f, r, true, true, leaf, stats)
			            : push_leaf_straight(w, frontier, q, f, r, false, true, leaf, stats)))
				return false;
			if (frontier->size == before) continue;
			least = flat_least(frontier->items, frontier->size, before > 0 ? least : 0, before > 0 ? before : 1);
			if (frontier->size > RING_FLAT) { // bottom-up: each subtree below j is a heap
				for (int j = frontier->size / 2 - 1; j >= 0; j--)
					gt_heap_sift_down_from(frontier->items, frontier->size, j, frontier->items[j]);
				flat = false;
			}
		}
	}
	return true;
}

// Inlined into ring_walk: the plain walk's code as it was when the walk with links was beside it
// (apart, it cost ~1% more a query).
static inline __attribute__((always_inline)) bool ring_traverse(const gtWorld* w, gtQueryScratch* s, const gtQuery* q,
                                                                gtDistance distance, Filter* f, Results* r, bool plain,
                                                                gtQueryStats* stats)
{
	return ring_traverse_upto(w, s, q, distance, f, r, plain, false, INFINITY, NULL, stats);
}
static bool ring_traverse_lazy(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, gtDistance distance, Filter* f,
                               Results* r, double stop, int32_t* resume, gtQueryStats* stats)
{
	return ring_traverse_upto(w, s, q, distance, f, r, true, true, stop, resume, stats);
}

// The ring traversal with links (world_ring_sources.c has its sources' steps).
// `start`: q's next offset, where ring_traverse_lazy handed over (the frontier, a heap, holds the
// objects it read and did not price; those it priced are stamped), else 0 (priced_begin is the caller's).
static bool ring_traverse_links(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, gtDistance distance, Filter* f,
                                Results* r, int32_t start, gtQueryStats* stats)
{
	gtHeap* frontier = &s->frontier;
	int count = 0, added = 0;
	int32_t leaves = 0;
	if (!gt_ring_source_add(w, s, &count, q->point, 0)) return false;
	gtRingSource* home = &s->sources[0];
	home->next = start;
	home->next_key = start < w->ring_count ? (double)w->ring[start].bound * (1 - 0x1p-49) : INFINITY;
	for (;;) {
		int least = 0;
		for (int i = 1; i < count; i++)
			if (s->sources[i].next_key < s->sources[least].next_key) least = i;
		double next = s->sources[least].next_key, top = frontier->size > 0 ? frontier->items[0].key : INFINITY;
		double event = top < next ? top : next, reach = f->link_frontier * (1 - 0x1p-48); // keys are shrunk
		if (results_prune(r, event < reach ? event : reach)) break;                       // nothing left can qualify
		if (event == INFINITY && reach == INFINITY) break; // nothing left at all (fewer than k reachable)
		if (reach <= event) {
			// A way may settle at or below the next event: settle up to it; each settled way is a source.
			links_settle(f, event, false);
			for (; added < f->ways_settled; added++)
				if (!gt_ring_source_add(w, s, &count, f->ways[added].exit, f->ways[added].reach)) return false;
			continue;
		}
		if (top <= next) {
			int32_t id = gt_heap_pop(frontier).id;
			if (id >= 0) { // a leaf: an index into s->ring_leaves here, not a tree node as in tree_loop
				if (!gt_ring_leaf_open(w, s, r, s->ring_leaves[id], stats)) return false;
				continue;
			}
			int32_t slot = -id - 1;
			if (s->priced[slot] == s->priced_generation) continue; // met again from another source
			s->priced[slot] = s->priced_generation;
			if (!price_object(w, s, q, distance, MODE_NEAREST, f, r, slot, top, false, stats)) return false;
			continue;
		}
		if (!gt_ring_source_step(w, s, r, least, &leaves)) return false;
	}
	return true;
}

// A nearest query without filters: the leaves in rings from q (straight keys) or, with the links'
// search, from q and from each point a walk through links restarts from.
//
// A search not begun yet (Filter.search_from, links_begin): the plain ring walk until its events
// reach search_from, a lower bound of the least reach from q (the reach table's, below the search's
// by at most its block's diagonal); most queries end there, and then cost what they cost without
// links (two floors joined by 100 stairs: the search's rings of squares and the sources' bookkeeping
// were a quarter of a query that never took a stair). Only then does the search begin, and the
// walk with sources go on from where the plain one stopped. The least reach comes from the ways
// q's block lists (gtShortcuts.reach_begin) when it lists them: the search begins only when the
// walk passes it (two floors: 60 of 319 queries stopped between the two and searched for nothing).
static __attribute__((noinline)) bool ring_walk_links(const gtWorld* w, gtQueryScratch* s, const gtQuery* q,
                                                      gtDistance distance, Filter* f, Results* r, gtQueryStats* stats)
{
	if (!gt_ring_priced_begin(w, s)) return false;
	int32_t start = 0;
	if (f->search_from > 0) {
		// Up to the table's bound, then up to the least reach (which the plain walk keeps to, as no
		// way is settled below it), then with sources.
		for (int pass = 0; pass < 2; pass++) {
			double stop = f->link_frontier * (1 - 0x1p-48); // keys are shrunk
			if (!ring_traverse_lazy(w, s, q, distance, f, r, stop, &start, stats)) return false;
			if (start < 0 || results_prune(r, stop)) return true;
			if (!gt_link_search_later(f, s, q->point)) return false;
		}
		f->search_from = 0;
	}
	return ring_traverse_links(w, s, q, distance, f, r, start, stats);
}
static inline bool ring_walk(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, gtDistance distance, Filter* f,
                             Results* r, bool straight, gtQueryStats* stats)
{
	return straight ? ring_traverse(w, s, q, distance, f, r, true, stats)
	                : ring_walk_links(w, s, q, distance, f, r, stats);
}

// An inner node popped: its four children, the best held out of the heap in *held (when *holding)
// and the rest queued; false when out of memory. Each key is min_dist of the child's rectangle
// (gt_children), or the links' bound when lower. Inlined: the traversal's loop calls it per node.
static inline __attribute__((always_inline)) bool expand_children(const gtWorld* w, gtHeap* frontier, const gtQuery* q,
                                                                  Mode mode, const Filter* f, const Results* r,
                                                                  bool plane_first, bool fast, int level, int64_t node,
                                                                  gtHeapItem* held, bool* holding)
{
	double rect[4];
	gtChildren ch;
	gt_children(w, level, node, q->point, &ch);
	if (fast)
		return plane_first ? expand_straight(w, frontier, f, r, &ch, true, held, holding)
		                   : expand_straight(w, frontier, f, r, &ch, false, held, holding);
#pragma GCC unroll 4
	for (int c = 0; c < 4; c++) {
		int64_t child = gt_child_node(&ch, c);
		// The query plane's bit is the whole keyword test, and is clear for an empty child.
		if (plane_first ? !plane_has(f->plane, child) : w->object_counts[child] == 0) continue;
		double dx = ch.gap_x[c & 1], dy = ch.gap_y[c >> 1];
		double key = link_bound(f, gt_straight_key(dx, dy), (c & 1 ? ch.x1 : ch.x0) + ch.step_x / 2,
		                        (c >> 1 ? ch.y1 : ch.y0) + ch.step_y / 2, ch.step_x / 2, ch.step_y / 2);
		if (q->use_region || q->trace) gt_child_rect(w, &ch, c, rect);
		if (mode != MODE_TOP && results_prune(r, key)) { // the cheap test before the keyword tests
			if (q->trace) q->trace(q->trace_context, GT_TRACE_PRUNED_DISTANCE, ch.level, rect);
			continue;
		}
		int matches = plane_first ? f->plane_count : outside_region(q, rect) ? -1 : node_matches(w, f, child);
		if (matches < 0) {
			if (q->trace) q->trace(q->trace_context, GT_TRACE_PRUNED_KEYWORDS, ch.level, rect);
			continue;
		}
		key += penalty(f, matches);
		if (results_prune(r, key)) {
			if (q->trace) q->trace(q->trace_context, GT_TRACE_PRUNED_DISTANCE, ch.level, rect);
			continue;
		}
		if (!gt_hold_or_push(frontier, (gtHeapItem){key, heap_id(ch.level, child)}, held, holding)) return false;
	}
	return true;
}

// Whether a nearest query may walk the leaves in rings (ring_walk): no filter (gt_query_traverse
// adds its plane's), no trace.
static bool ring_fits(const gtWorld* w, const gtQuery* q, const Filter* f, Mode mode)
{
	return mode == MODE_NEAREST && w->ring && !q->trace && f->word_count == 0 && f->min_match == 0 &&
	       q->any_count == 0 && q->none_count == 0 && !q->use_region && q->exclude_count == 0;
}
// The links' search that links_begin left to the ring walk begins now unless the query walks the
// rings after all (`rings`); false when out of memory.
static bool links_search_now(gtQueryScratch* s, const gtQuery* q, Filter* f, bool rings)
{
	if (f->search_from == 0 || rings) return true;
	f->search_from = 0;
	return gt_link_search_begin(f, s, f->shortcuts, q->point);
}

// The best-first loop over the tree's frontier (gt_query_traverse); false when out of memory. Out of
// line: ring walks skip it, and inlined it spread their code (I1 misses, callgrind, orz103d at 1%).
static __attribute__((noinline)) bool tree_loop(const gtWorld* w, gtQueryScratch* s, const gtQuery* q,
                                                gtDistance distance, Mode mode, Filter* f, Results* r, bool straight,
                                                bool plain, bool plane_first, bool fast_children, gtQueryStats* stats)
{
	gtHeap* frontier = &s->frontier;
	double rect[4];
	// The best child of the node just expanded is held out of the heap: when nothing queued is
	// smaller, it is expanded next without a push and a pop (the usual descent).
	gtHeapItem held = {0, 0}, top;
	bool holding = false;
	for (;;) {
		if (holding && (frontier->size == 0 || held.key <= frontier->items[0].key)) {
			top = held;
		} else if (holding) {
			top = gt_heap_replace_top(frontier, held.key, held.id);
		} else if (frontier->size > 0) {
			top = gt_heap_pop(frontier);
		} else {
			break;
		}
		holding = false;
		if (results_prune(r, top.key)) break;           // keys come in order: nothing left can qualify
		if (top.key >= f->link_reach * (1 - 0x1p-48)) { // keys through links are shrunk (link_bound)
			// The item's key may rest on ways the links' search had not settled: settle them up to
			// the key, and when the key grows the item goes back in its place.
			links_settle(f, top.key, true);
			double key = mode == MODE_TOP ? top.key : links_rekey(w, f, q->point, top);
			if (key > top.key) {
				if (!gt_frontier_push(frontier, key, top.id)) return false;
				continue;
			}
		}
		if (top.id < 0) {
			if (!take_object(w, s, q, distance, mode, f, r, top, stats)) return false;
			continue;
		}
		stats->nodes_popped++;
		int level = top.id >> GT_NODE_BITS;
		int64_t node = top.id & ((INT64_C(1) << GT_NODE_BITS) - 1);
		if (q->trace) {
			node_rect(w, level, node, rect);
			q->trace(q->trace_context, GT_TRACE_POPPED, level, rect);
		}
		bool pushed = level == w->height
		                  ? push_leaf(w, frontier, q, f, r, straight, plain, node - gt_level_offset(level), stats)
		                  : expand_children(w, frontier, q, mode, f, r, plane_first, fast_children, level, node, &held,
		                                    &holding);
		if (!pushed) return false;
	}
	return true;
}

gtStatus gt_query_traverse(const gtWorld* w, gtQueryScratch* s, const gtQuery* q, gtDistance distance, Mode mode,
                           int32_t* found, gtQueryStats* stats, gtError* err)
{
	bool within = mode == MODE_WITHIN;
	Filter f;
	gtStatus st = gt_filter_prepare_lazy(w, s, q, mode, &f, err);
	*found = 0;
	if (st || f.impossible || (!within && q->k <= 0) || w->live == 0) return st;
	bool ring = ring_fits(w, q, &f, mode); // leaves in rings, not the tree (ring_walk): the search may wait
	if (!links_begin(&f, s, distance.shortcuts, q->point, ring)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	int cost = cost_class(&f, mode);
	f.sides = s->sides && gt_sides_pay(w, distance.side_bytes) ? gt_sides_begin(s->sides, distance)
	                                                           : NULL; // world_sides.h
	sight_begin(w, s, distance, q->point, &f, cost);
	walk_begin(w, s, distance, q->point, &f, cost);
	Results r;
	if ((st = gt_results_begin(w, s, q, within, &r, err))) return st;
	if (mode != MODE_TOP && f.link_slack > 0) r.slack = f.link_slack, results_reprune(&r); // keys: lines
	gtHeap* frontier = &s->frontier;
	frontier->size = 0;
	double rect[4];
	node_rect(w, 0, 0, rect);
	int root_matches = w->object_counts[0] > 0 && !outside_region(q, rect) ? node_matches(w, &f, 0) : -1;
	// A sparse world, where the tree would visit most of its few paths anyway, is cheaper to read
	// whole (the cost model above); a traced query shows the tree.
	bool scan = root_matches >= 0 && !q->trace && scan_is_cheaper(w, s, &f, mode, cost);
	if (!scan) gt_filter_make_plane(w, s, &f);
	// Without a region or a trace (which reports keyword-pruned nodes), a query plane decides a
	// child before its key is computed.
	bool plane_first = f.plane && !q->use_region && !q->trace;
	int64_t nodes_before = stats->nodes_popped;
	// The usual queries take the fast paths of the tree's inner loops: keys are straight lines (no
	// links or only a slack, no score); a child's keyword test is its query plane bit or, without words, none;
	// `plain`: no object has anything to test either.
	bool straight = mode != MODE_TOP && f.link_reach == INFINITY && f.key_slack == 0;
	bool plain = f.word_count == 0 && !f.plane && f.min_match == 0 && q->any_count == 0 && q->none_count == 0 &&
	             !q->use_region && q->exclude_count == 0;
	bool fast_children = straight && !q->trace && (plane_first || plain);
	ring = ring && plain && !scan;
	if (!links_search_now(s, q, &f, ring)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	if (ring) {
		if (!ring_walk(w, s, q, distance, &f, &r, straight, stats)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	} else if (scan) {
		bool squared;
		// scan_begin's picks and more: fewer than k below the split takes the exact selection over
		// every object (2k + k/4 with the walk bound: 13,759 instructions a query on ht_0_hightown_n
		// at 0.1% against 13,572 with 3k).
		int split, want = 2 * r.k + (f.walk_row ? r.k : 0);
		if (!push_all(w, frontier, q, &f, &r, want, &squared, &split, stats) ||
		    !scan_begin(w, s, q, distance, mode, &f, &r, straight, squared, split, stats))
			return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	} else if (root_matches >= 0 &&
	           !gt_frontier_push(frontier,
	                             link_bound(&f, min_dist(q->point, rect), (rect[0] + rect[2]) / 2,
	                                        (rect[1] + rect[3]) / 2, (rect[2] - rect[0]) / 2, (rect[3] - rect[1]) / 2) +
	                                 penalty(&f, root_matches),
	                             heap_id(0, 0)))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	// The ring walk leaves only keys the results prune (it stops at the first such event). Its
	// frontier's ids >= 0 are ring leaves (ring_traverse_links), which tree_loop would read as tree
	// nodes: tree_loop must never run after it on the same frontier.
	if (!ring && !tree_loop(w, s, q, distance, mode, &f, &r, straight, plain, plane_first, fast_children, stats))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	*found = gt_results_finish(s, &r);
	gates_end(s, &f, cost, scan);
	if (root_matches >= 0)
		traversal_learn(w, s, &f, mode, cost, scan, (float)(stats->nodes_popped - nodes_before), ring);
	return GT_OK;
}
