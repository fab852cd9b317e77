// The ring traversal with links (world_tree_query.c ring_traverse_links): its sources, q and each
// settled way's exit, and the leaves their rings reach. Internal.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "world/world_query.h"

// The ring traversal with links: a source per point a walk may restart from, q at 0 and each
// settled way's exit at its reach (links_settle), each reading the leaves in rings around it as
// ring_traverse does; an object's key from a source is the source's base plus the straight line,
// link_bound's term for that way. Every event (the least queued key, a source's next leaf) is taken
// in increasing key after the ways settle up to it, so an object is first popped at the least of
// its terms and no key is ever raised again (the tree's best-first with links keyed and re-keyed
// every item through every settled way: 100 teleporters on AR0602SR, ~30 re-keys a query). An
// object met again from another source is priced once (s->priced). A way whose exit an earlier
// source reaches for no more than the way's reach (the way back through a link just taken) adds
// no source: each of its keys is at least that source's. False when out of memory.
bool gt_ring_source_add(const gtWorld* w, gtQueryScratch* s, int* count, gtVec2 at, double base)
{
	for (int i = 0; i < *count; i++) {
		double dx = at.x - s->sources[i].at.x, dy = at.y - s->sources[i].at.y;
		if (s->sources[i].base + sqrt(dx * dx + dy * dy) <= base) return true;
	}
	if (!GT_GROW(s->sources, s->source_capacity, *count + 1, 16)) return false;
	int32_t leaf = leaf_of_point(w, at.x, at.y);
	// Keys are shrunk as link_bound's terms, a ring's first key (bound 0) too: an object at the exit
	// itself has key base * (1 - 2^-49).
	s->sources[(*count)++] = (gtRingSource){at,
	                                        base,
	                                        (base + (double)w->ring[0].bound) * (1 - 0x1p-49),
	                                        0,
	                                        leaf & ((1 << w->height) - 1),
	                                        leaf >> w->height};
	return true;
}
bool gt_ring_priced_begin(const gtWorld* w, gtQueryScratch* s)
{
	if (s->priced_capacity < w->slots_used) {
		if (!GT_RESIZE(s->priced, w->slots_used)) return false;
		s->priced_capacity = w->slots_used;
		s->priced_generation = 0;
	}
	if (s->priced_generation == 0 || s->priced_generation == UINT32_MAX) {
		memset(s->priced, 0, (size_t)s->priced_capacity * sizeof *s->priced);
		s->priced_generation = 0;
	}
	s->priced_generation++;
	return true;
}
// A source's next offset: its leaves that hold objects go in whole, each at the key of its gap from
// the source, a lower bound of its objects' keys. Most never come up: with 100 teleporters on
// AR0602SR the exits' rings reached ~2,300 objects in 231 queries and 178 were popped, each keyed
// (a root) and queued for nothing. `leaves`: the leaves queued so far in this walk.
bool gt_ring_source_step(const gtWorld* w, gtQueryScratch* s, const Results* r, int32_t source, int32_t* leaves)
{
	gtRingSource* src = &s->sources[source];
	const int side = 1 << w->height;
	const gtRingOffset o = w->ring[src->next++];
	src->next_key = src->next < w->ring_count ? (src->base + (double)w->ring[src->next].bound) * (1 - 0x1p-49)
	                                          : INFINITY;
	const double base = src->base;
	const int hx = src->hx, hy = src->hy;
	for (int m = 0; m < 4; m++) { // the offset's mirror images, each once
		int cx, cy;
		int32_t leaf = gt_ring_leaf(o, m, hx, hy, side, &cx, &cy);
		if (leaf < 0 || w->leaf_head[leaf] < 0) continue;
		gtVec2 g = gt_ring_gap(w, cx, cy, hx, hy, src->at);
		double key = (base + sqrt(g.x * g.x + g.y * g.y)) * (1 - 0x1p-49);
		if (results_prune(r, key)) continue;
		if (*leaves >= s->ring_leaf_capacity && !GT_GROW(s->ring_leaves, s->ring_leaf_capacity, *leaves + 1, 64))
			return false;
		s->ring_leaves[*leaves] = (gtRingLeaf){leaf, source};
		if (!gt_frontier_push(&s->frontier, key, (*leaves)++)) return false;
	}
	return true;
}
// A queued leaf come up: its objects not priced yet go in with their keys from its source (each at
// least the leaf's, so no event is taken out of order).
bool gt_ring_leaf_open(const gtWorld* w, gtQueryScratch* s, const Results* r, gtRingLeaf l, gtQueryStats* stats)
{
	const gtRingSource* src = &s->sources[l.source];
	const double px = src->at.x, py = src->at.y, base = src->base;
	const uint32_t priced = s->priced_generation;
	stats->nodes_popped++;
	for (int32_t p = w->leaf_head[l.leaf]; p >= 0; p = w->next[p]) {
		stats->objects_tested++;
		if (s->priced[p] == priced) continue;
		double dx = w->x[p] - px, dy = w->y[p] - py, e = (base + sqrt(dx * dx + dy * dy)) * (1 - 0x1p-49);
		if (results_prune(r, e)) continue;
		if (!gt_frontier_push(&s->frontier, e, -(p + 1))) return false;
	}
	return true;
}
