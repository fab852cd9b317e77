// Hub labels' per-vertex lists while they are made (hub_labels.c), and the merge of a repair's
// searched entries with the old labels' copied ones (hub_labels_merge.c). Internal.
#ifndef GRIDTREE_HUB_LABELS_LISTS_H
#define GRIDTREE_HUB_LABELS_LISTS_H

#include "ehl/hub_labels.h"

typedef struct Entry {
	int32_t hub, parent, first; // first: vertex next to the hub on the tree path (for P4)
	int8_t useful;              // -1: not known yet (a repair's merge notes the P4 flag here)
	double dist;
} Entry;

typedef struct EntryList {
	Entry* items;
	int64_t count, capacity;
} EntryList;

// Segment a-b is tangent at a: the line does not enter a's blocked cell (docs/algorithms.md 2.6).
static inline bool gt_hub_tangent_at(gtVertex a, gtVertex b)
{
	return (int64_t)a.bx * a.by * (int64_t)(b.x - a.x) * (b.y - a.y) <= 0;
}

// gt_hub_tangent_at for ids of the joined graph with links: a link end (ids from `count` on, at
// ends[id - count]; NULL: unknown) is no corner, a path may turn there any way.
static inline bool gt_hub_wraps(const gtVertex* vert, int count, const gtVec2* ends, int a, int b)
{
	if (a < count && b < count) return gt_hub_tangent_at(vert[a], vert[b]);
	if (a >= count || !ends) return true;
	gtVec2 p = ends[b - count];
	return vert[a].bx * vert[a].by * (p.x - vert[a].x) * (p.y - vert[a].y) <= 0;
}

// P4 for vertex v's entry e of hub vertex h: it can start an optimal path only if its first and
// last segments are taut.
static inline bool gt_hub_entry_useful(const gtVertex* vert, int count, const gtVec2* ends, int v, int h, Entry e)
{
	return h == v || (gt_hub_wraps(vert, count, ends, v, e.parent) && gt_hub_wraps(vert, count, ends, e.parent, v) &&
	                  gt_hub_wraps(vert, count, ends, e.first, h) && gt_hub_wraps(vert, count, ends, h, e.first));
}

// The next root after the pruned search whose tree is `labelled` (pop order) with `parent`: on the
// significant path of that tree, else the unprocessed vertex of highest degree (order_key from
// *by_degree on); coverage, best_child and path are scratch of n slots (hub_labels_order.c).
int gt_hub_next_root(const gtVisGraph* g, const int32_t* labelled, int nlabelled, const int32_t* parent,
                     int32_t* coverage, int32_t* best_child, int32_t* path, const bool* processed,
                     const int64_t* order_key, int* by_degree);

// A repair's labels into `out` (rank_of and vertex_of set): per vertex, the entries of the roots
// searched again (lists[v], in rank order) merged in rank order with its old entries of the roots
// copied (copied[old rank]), renumbered; on `workers` workers of edit->tasks. Sets the searched
// entries' `useful`.
gtStatus gt_hub_labels_merge_edit(const gtMap* map, const gtHubLabelsEdit* edit, EntryList* lists, const bool* copied,
                                  int workers, gtHubLabels* out, gtError* err);

// Whether the edit left the graph as it was: the same vertices, numbered alike, each with its old
// edges, and `order` the old ranks. Then gt_hub_labels_copy_old makes the labels: the old ones,
// copied (their diffs empty, diffs->copied_whole set).
bool gt_hub_labels_unchanged(const gtVisGraph* g, const int32_t* order, const gtHubLabelsEdit* edit);
gtStatus gt_hub_labels_copy_old(const gtHubLabelsEdit* edit, gtHubLabels* out, gtError* err);

#endif
