// The ends of links that shorten, ranked last among an index's hubs (docs/links.md "Ends ranked
// last"). Internal.
#ifndef GRIDTREE_EHL_END_RANKS_H
#define GRIDTREE_EHL_END_RANKS_H

#include "ehl/ehl_layout.h"
#include "ehl/hub_labels.h"

// Whether link l may beat a straight line: a link that costs at least the line between its ends
// never does (a walk through it is no shorter than one along that line).
static inline bool gt_ehl_link_is_short(const gtEhlLink* l)
{
	double dx = l->b.x - l->a.x, dy = l->b.y - l->a.y;
	return l->cost * l->cost < dx * dx + dy * dy;
}

// Renumbers the hub ranks of labels built over `corners` corners and the ends of `count` links
// (vertex corners + 2k and + 1 are link k's ends) so that the ends of links that shorten take the
// last ranks, n - E .. n - 1, and every other vertex the ranks before, each group in its old
// order; each label is sorted again by the new ranks. Run after the labels are built: the labels
// hold the same entries (a hub label's cover does not depend on how its hubs are numbered), so
// every distance stays, and every cell's list ends with the block of those ends, which a query
// merges only when a walk through a link that shortens can beat its best path (ehl_query.c).
// Labels made by a repair's merge (kept_offset) are left as they are (an index with links is
// never repaired). False when out of memory (the labels are then unchanged).
bool gt_ehl_rank_ends_last(gtHubLabels* labels, int corners, const gtEhlLink* links, int count);

// The first rank of the block an index's hubs end with whose vertices are all ends of links that
// shorten (e->n when none): ranked so by gt_ehl_rank_ends_last, or by chance in a file from before it.
int32_t gt_ehl_end_ranks_from(const gtEhl* e);

#endif
