// Hub labels on the visibility graph by pruned landmark labeling (docs/algorithms.md 4). Internal.
#ifndef GRIDTREE_HUB_LABELS_H
#define GRIDTREE_HUB_LABELS_H

#include <stdbool.h>

#include "gridtree/gt_ehl.h"
#include "map/vis_graph.h"

// Labels in CSR form: entries of vertex v are [offset[v], offset[v + 1]), sorted by hub rank,
// each vertex's own entry included; no sentinel (callers stop at the end of the span).
typedef struct gtHubLabels {
	int n;
	int32_t* rank_of;   // vertex -> rank
	int32_t* vertex_of; // rank -> vertex
	int64_t* offset;
	int32_t* hub;    // hub rank
	int32_t* parent; // next vertex from v towards the hub (v itself for its own entry)
	double* dist;    // VG distance from v to the hub
	bool* useful;    // survives rule P4 (docs/algorithms.md 5.8): may start an optimal path
	// The hubs of ranks below it were labelled one search at a time, in (distance, vertex) order; those
	// from it on in batches (a whole build of a big map, hub_labels.c), whose parents at ties need not
	// be that order's. A repair's local search assumes that order, so it searches those roots whole.
	// 0 (as a zeroed struct) when unknown: no root is repaired locally.
	int32_t sequential_to;
	// Optional (NULL): the useful entries alone, as an index keeps them (gt_ehl_keep_labels takes
	// them rather than copying them out); a repair's merge makes them on its workers.
	uint32_t *kept_offset, *kept_hub, *kept_parent;
	double* kept_dist;
} gtHubLabels;

// Significant-path vertex order (degree order for the first root and as a fallback), then pruned
// Dijkstra from every vertex in rank order (docs/algorithms.md 4.3).
gtStatus gt_hub_labels_build(const gtMap* map, const gtVisGraph* graph, gtHubLabels* out, gtError* err);
// The same over a graph whose vertices after the map's corners are link ends at `ends` (rule P4
// asks nothing of a bend there). The `early_count` vertices `early` (distinct) take every
// GT_HUB_LABELS_EARLY_EVERY-th rank from GT_HUB_LABELS_EARLY_FROM on, the significant-path order the
// ranks between; each early rank goes to the early vertex the last search's tree says covers most
// (hub_labels.c next_early), the first rank and a search that reached none to the list's next.
// Given one end of every link a walk may take, every search after them stops at those ends: a
// later hub labels only what it reaches without a link, so the vertices of
// one floor do not carry the hubs of another floor (ehl_links.c, docs/links.md "Floors apart").
// The first `early_front` of them take ranks 0 .. early_front - 1 instead, and the schedule of the
// others starts early_front ranks later (the ends of teleporters within a floor: ehl_links.c).
// The ranks after the schedule are searched in batches on `threads` workers of def's tasks, with
// def's progress (def NULL: threads of their own, no progress); the labels do not depend on the
// thread count.
enum { GT_HUB_LABELS_EARLY_FROM = 32, GT_HUB_LABELS_EARLY_EVERY = 2 };
gtStatus gt_hub_labels_build_from(const gtMap* map, const gtVisGraph* graph, const gtVec2* ends, const int32_t* early,
                                  int early_count, int early_front, const gtEhlDef* def, int threads, gtHubLabels* out,
                                  gtError* err);
// Labels of the graph before an edit and how its vertices map to the graph after it.
typedef struct gtHubLabelsEdit {
	const gtHubLabels* old;
	const int32_t* new_of;     // old vertex -> new vertex, -1 gone
	const int32_t* old_of;     // new vertex -> old vertex, -1 new
	const bool* dirty;         // new vertex: its edges are not its old ones, renumbered (or it is new)
	const gtTaskSystem* tasks; // the searches that run are batched on `threads` workers when more than 1
	int threads;
	struct gtHubLabelsDiffs* diffs; // (or NULL) filled by the repair's merge
	// (or NULL) the useful entries the old index kept (gtEhl.label_*, old->n + 1 offsets): copied as
	// they are when the labels are (gt_hub_labels_copy_old), else found again from the flags.
	const uint32_t *old_kept_offset, *old_kept_hub, *old_kept_parent;
	const double* old_kept_dist;
	int* local_roots; // (or NULL) counts the searches repaired where their trees meet the edit
} gtHubLabelsEdit;

// What a repair changed in each vertex's useful entries (those an index keeps) against the old
// labels': per new vertex v, the hubs (new ranks, ascending) whose entry is on one side only or has
// another parent or distance, [begin[v], begin[v + 1]) of `hub`; changed[v] when there is any
// difference (an entry of a hub that is gone too). begin (n + 1) and changed (n) are the caller's;
// the merge allocates `hub` (the caller frees it) and sets `made` when all of it is there.
// moved (n, the caller's, or NULL): per new vertex, whether any entry, useful or not, is on one side
// only or has another distance (or the vertex is new): where it is not, every distance the labels
// give between two such vertices is the old one.
typedef struct gtHubLabelsDiffs {
	int64_t* begin;
	bool* changed;
	int32_t* hub;
	bool made;
	bool* moved;
	bool copied_whole; // set when the edit left the graph as it was: the labels are the old ones, copied
} gtHubLabelsDiffs;

// The same with the vertex order given: order[r] is the vertex of rank r (a permutation). With
// `edit` (or NULL), where the order keeps the old order of the vertices that stayed and the
// numbering keeps their order too, the searches the edit cannot change are copied from edit->old:
// the labels are the ones a build in this order makes.
gtStatus gt_hub_labels_build_in_order(const gtMap* map, const gtVisGraph* graph, const int32_t* order,
                                      const gtHubLabelsEdit* edit, gtHubLabels* out, gtError* err);
void gt_hub_labels_free(gtHubLabels* labels);

// Everything of an EHL build that does not depend on the cell size: the full visibility graph
// (its undirected edge count in *vg_edges), then the labels. Reports progress through def.
// The labels of `map` from its full visibility graph `g`, as gt_hub_labels_of_map makes them (the
// same batches on `threads`, progress through def).
gtStatus gt_hub_labels_of_graph(const gtMap* map, const gtVisGraph* g, const gtEhlDef* def, int threads,
                                gtHubLabels* out, gtError* err);
gtStatus gt_hub_labels_of_map(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* out, int64_t* vg_edges,
                              gtError* err);

// Calls def's progress callback, if any.
void gt_ehl_report(const gtEhlDef* def, const char* stage, double fraction);

// Index of v's entry for hub rank `hub`, or -1.
int64_t gt_hub_labels_find(const gtHubLabels* labels, int v, int32_t hub);

#endif
