// An EHL index that knows links (docs/links.md): each two-way link's ends are vertices of the
// labelled graph after the convex corners, joined to what they see and to each other by the link,
// so that a query's label merge finds walks through links like any other. Internal.
#ifndef GRIDTREE_EHL_LINKS_H
#define GRIDTREE_EHL_LINKS_H

#include "ehl/ehl_layout.h"
#include "ehl/ehl_sweep.h"
#include "ehl/hub_labels.h"
#include "map/vis_graph.h"

// Copies the links into e (checked: valid ends, finite costs >= 0) and makes e->points, the
// position of every vertex id: e->vertices and e->corners must be set. Sets e->n.
gtStatus gt_ehl_take_links(gtEhl* e, const gtEhlLink* links, int count, gtError* err);
// Only the checks of gt_ehl_take_links (e->map and e->corners must be set).
gtStatus gt_ehl_check_links(const gtEhl* e, const gtEhlLink* links, int count, gtError* err);

// The unit cells some point of which may see free point p (a superset: every cell with a point
// that sees p is in it), as gt_sweep_vertex leaves them: PARTIAL, or FULL where every point of the
// cell sees p. Only those cells are touched (gt_ehl_end_status reads their status from the flags).
gtStatus gt_ehl_link_region(gtSweep* sweep, gtVec2 p, gtError* err);

// The status (GT_UNIT_FULL or GT_UNIT_PARTIAL) of a cell of a link end's region from its flags: the
// region stamps only the cells it keeps, and a cell it sees whole is free (gt_sweep_status, without
// reading the map).
enum { GT_EHL_END_WHOLE = GT_SWEEP_FLAG_FULL_ONE }; // the flag of a cell seen whole (ehl_links.c)
static inline int gt_ehl_end_status(uint8_t flags)
{
	return flags & GT_EHL_END_WHOLE ? GT_UNIT_FULL : GT_UNIT_PARTIAL;
}

// The link ends' regions as the join made them, so the cell stage reads them rather than makes
// them again: end e's unit cells with a status are cell[begin[e] .. begin[e + 1]) (cell_flags as
// the sweep held them, in the order it touched them), for the ends e < kept; the ends after (past
// a memory cap) are made again. idle[k] (when not NULL): link k can never shorten a walk (its ends
// see each other and it costs at least the line between them): the join leaves its ends without
// edges and their regions empty, so they are nobody's hubs and no cell's vias.
typedef struct gtEhlEndRegions {
	int kept;
	uint8_t* idle;
	int64_t* begin;
	int32_t* cell;
	uint8_t* flags;
	int64_t capacity;
} gtEhlEndRegions;
void gt_ehl_end_regions_free(gtEhlEndRegions* r);

// End e's region (vertex corners + e at p) into the sweep, as gt_ehl_link_region leaves it: read
// from `regions` when it holds it (NULL: none), else made.
gtStatus gt_ehl_end_region(gtSweep* sweep, const gtEhlEndRegions* regions, int e, gtVec2 p, gtError* err);

// Whether link l can never shorten a walk: its ends see each other and it costs at least the line
// between them, so the line does whatever the link does, for no more.
bool gt_ehl_link_idle(const gtMap* map, const gtEhlLink* l);

// Joins the link ends to `graph` (the full visibility graph of map's corners): end 2k and 2k + 1
// of link k become vertices corners + 2k and + 1, each joined to the corners tangent to it that
// it sees, to the ends it sees and, at the link's cost, to its partner; the ends of an idle link
// (gt_ehl_link_idle) stay without edges. Keeps the ends' regions in *regions (zeroed first; may
// be NULL). The regions are made on `threads` workers of `tasks`; the result does not depend on it.
gtStatus gt_ehl_join_links(const gtMap* map, gtVisGraph* graph, const gtEhlLink* links, int count,
                           const gtTaskSystem* tasks, int threads, gtEhlEndRegions* regions, gtError* err);

// gtEhl_BuildWithLinks, which ranks the ends of links that shorten last (`ends_last` true,
// ehl_end_ranks.h); false leaves every rank as the labels' build gave it: the same entries and
// answers, queries merge the ends' block more often. Tests only, per build (tests/test_links.c
// checks the labels' order; tests/test_links_ends.c compares the two).
gtStatus gt_ehl_build_with_links(const gtMap* map, const gtEhlDef* def, const gtEhlLink* links, int count,
                                 bool ends_last, gtEhl** out, gtError* err);

typedef struct gtEhlRepair gtEhlRepair; // ehl_repair.h

// The cell stage from labels over the corners and `count` link ends (ehl_build.c); `repair` (an
// index without links only) as for gt_ehl_build_from_labels; `regions` (or NULL) from the join.
gtStatus gt_ehl_build_from_link_labels(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* labels,
                                       gtEhlRepair* repair, int64_t vg_edges, double start, const gtEhlLink* links,
                                       int link_count, const gtEhlEndRegions* regions, gtEhl** out, gtError* err);

#endif
