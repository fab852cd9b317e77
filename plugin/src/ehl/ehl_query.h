// EHL query state shared by point-to-point queries (ehl_query.c) and target fields
// (ehl_field.c): the per-side vertex caches and the best via of one side for one hub. Internal.
#ifndef GRIDTREE_EHL_QUERY_H
#define GRIDTREE_EHL_QUERY_H

#include "ehl/ehl_layout.h"

enum { SIDE_UNKNOWN = 0, SIDE_VISIBLE = 1, SIDE_HIDDEN = 2 };

// Straight-line distance and visibility from one query point to vertices, cached per query.
typedef struct SideCache {
	uint32_t* stamp;
	double* length;
	uint8_t* visibility;
} SideCache;

// Side 0 belongs to the source, side 1 to the target. The source side of each of the source
// cell's hubs is memoised, so one source against many targets (a kNN query) pays for it once.
struct gtEhlQuery {
	const gtEhl* ehl;
	SideCache side[2];
	uint32_t generation[2];
	bool has_source, source_at_pinch;
	gtVec2 source;
	uint32_t source_first_hub; // index of the source cell's first hub entry
	uint32_t source_hubs;      // and how many hubs it lists
	int32_t max_hubs;          // the most hub entries any cell has
	// Hub ranks [end_from, n) are ends of links that shorten (gt_ehl_end_ranks_from; n when none):
	// every cell's list ends with them, and a walk from s to t through one is at least end gap(s) +
	// end gap(t) long (ehl_layout.h), so that block is merged only when this can beat the best path
	// (price_hubs). source_gap: the source's end gap (read only when end_from < n).
	uint32_t end_from;
	double source_gap;
	uint32_t source_head; // how many of the source's hubs rank before end_from (UINT32_MAX: not found yet)
	double* memo_value;   // per hub entry of the source cell: best |s v| + d(v, hub)
	int32_t* memo_via;
	uint32_t* memo_stamp;
	uint32_t memo_generation;
	struct Common* common; // the hubs a source and a target share, max_hubs + 1 of them
	// The source's list by hub rank, made at its second pricing through hubs: per rank its lower
	// bound (+infinity: not listed; n + 1 of them) and its place in the list (read only under a
	// finite bound; 1 byte a rank where no cell lists more than 254 hubs (255 entries with its
	// sentinel: max_hubs), else 2; both NULL past 65,534 hubs or without memory: the merge serves).
	// A target's list is then matched by a lookup per hub instead of a merge of the two lists, whose
	// skips mispredict (ehl_query.c: gather_ranked).
	double* source_rank_bound;
	void* source_place;
	bool source_ranked;       // the two hold the source's list (else every bound is +infinity)
	uint32_t source_pricings; // through hubs since the source was set
	// How the last answer below its limit was made (last_hub < 0: a straight line): lets a caller
	// tell which parts of the map the path can touch without unpacking it.
	int32_t last_hub, last_via_s, last_via_t;
	double last_from_s, last_from_t; // |s via_s| + d(via_s, hub), and the same on t's side
};

// A hub both cells list, with the lower bound of any path through it.
typedef struct Common {
	double bound;
	const gtEhlHub *s, *t; // the hub's entries in the source's and the target's lists
} Common;

// One side of a query: its point, and its cache of distances and visibility to vertices.
typedef struct Side {
	SideCache* cache;
	gtVec2 p;
	bool check_all; // a pinch point: its FULL flags may not hold (see gtMap_Visible)
	bool grid;      // p is a grid point (gx, gy): its visibility tests take the integer path
	int gx, gy;
} Side;

// The most hub entries any cell of `ehl` has (a query object's scratch is sized by it): a scan of
// every cell, cold on an index just made. A background job that makes an index notes it
// (gt_ehl_note_max_hubs) before handing the index over, so the first query object made for it
// (the first query after a repair lands or a door closes) skips the scan.
int32_t gt_ehl_max_hubs(const gtEhl* ehl);
void gt_ehl_note_max_hubs(gtEhl* ehl);

// A target's side (gtDistance.side_fill, backend_ehl.c): what every pricing towards the valid point
// t does on t's side, kept for a target that many sources price (a kNN query's few matching
// objects, priced by most queries while they stand still). Per hub rank its place in t's cell list,
// and per place t's part through the hub: first the cell's lower bound and, once a pricing needed
// it, t's best |t v| + d(v, hub) over the vias t sees (+infinity when none), with its via. A
// pricing then looks each of the source's hubs up there instead of merging the two cells' lists,
// and searches t's vias of a hub only the first time: the same double as without.
// gtEhlQuery_SideBytes: a side's size for this query object, a whole number of cache lines (0:
// none fits).
size_t gtEhlQuery_SideBytes(const gtEhlQuery* query);
// Makes t's side in `side` (gtEhlQuery_SideBytes of room, 64-aligned); false (the memory untouched)
// when t is no valid point. `made`: the memory holds a side made from this index before (only
// its hubs are cleared), else anything (all of it is).
bool gtEhlQuery_FillSide(gtEhlQuery* query, gtVec2 t, void* side, bool made);
// gtEhlQuery_DistanceBelow (or gtEhlQuery_DistanceBelowHidden when `hidden`) for the target whose
// side is `side` (made by gtEhlQuery_FillSide for t, from this index, which completes it as it
// prices): the same answer.
double gtEhlQuery_SideBelow(gtEhlQuery* query, gtVec2 t, void* side, double limit, bool hidden);

// A side for the valid point p.
static inline Side gt_ehl_side(SideCache* cache, gtVec2 p, bool check_all)
{
	Side side = {cache, p, check_all, false, (int)p.x, (int)p.y}; // valid points' coordinates fit an int
	side.grid = side.gx == p.x && side.gy == p.y;
	return side;
}

// The smallest |p v| + d(v, hub) over the vias [begin, end) p sees with offset + total < limit
// (see ehl_query.c); +inf and *via untouched when there is none.
double gt_ehl_best_wide_via(const gtEhl* e, const Side* side, uint32_t generation, int32_t hub, uint32_t begin,
                            uint32_t end, double offset, double limit, int32_t* via);
// The same over a compact index's vias (ehl_layout.h: cvias; `end` unused, a list ends at its LAST via).
double gt_ehl_best_compact_via(const gtEhl* e, const Side* side, uint32_t generation, int32_t hub, uint32_t begin,
                               uint32_t end, double offset, double limit, int32_t* via);

// One loop per layout: a function holding both made the 6-byte loop spill registers (+1%
// instructions a query at g = 16).
static inline double gt_ehl_best_via(const gtEhl* e, const Side* side, uint32_t generation, int32_t hub, uint32_t begin,
                                     uint32_t end, double offset, double limit, int32_t* via)
{
	return e->cvias ? gt_ehl_best_compact_via(e, side, generation, hub, begin, end, offset, limit, via)
	                : gt_ehl_best_wide_via(e, side, generation, hub, begin, end, offset, limit, via);
}
bool gt_ehl_at_pinch(const gtMap* m, gtVec2 p);
// gtEhlQuery_DistanceBelow for a target the source is known not to see (the segment between
// crosses a blocked cell): the straight line is not tried. The same answer.
double gtEhlQuery_DistanceBelowHidden(gtEhlQuery* query, gtVec2 t, double limit);
// The vertices that may be the first bend of a shortest path from valid point p on the index's
// map: those whose taut visible region meets p's cell, each its own hub there (docs/algorithms.md
// 5.1, 5.8: a vertex's entry for itself survives every pruning rule). At most the cell's hub count
// (gtEhlQuery.max_hubs) of them go to `out`; returns how many.
int gt_ehl_first_bends(const gtEhl* e, gtVec2 p, int32_t* out);
// Starts a new generation of a stamp array; on wrap-around every stamp is cleared.
static inline uint32_t gt_ehl_next_generation(uint32_t* generation, uint32_t* stamps, size_t count)
{
	if (++*generation == 0) {
		memset(stamps, 0, count * sizeof *stamps);
		*generation = 1;
	}
	return *generation;
}

#endif
