/// @file gt_ehl.h
/// Euclidean Hub Labeling: exact obstacle-avoiding distances and paths between any two points of
/// a grid map in microseconds (docs/algorithms.md 4-5). Build once per map (or load a saved index),
/// then query from as many threads as you like, each with its own gtEhlQuery.
///
/// Contents
///     Building and saving  gtEhlDef, gtEhl_Build, gtEhl_EstimateBytes, gtEhl_Save, gtEhl_Load
///     Queries              gtEhlQuery_Create, gtEhl_Distance, gtEhlQuery_SetSource, gtEhl_Path
///     Inspection           gtEhl_GridSize, gtEhl_CellVias
///     Progress display     gtProgressPrinter
///     Trust                gtEhl_Verify
#ifndef GRIDTREE_GT_EHL_H
#define GRIDTREE_GT_EHL_H

#include <stdio.h>

#include "gt_map.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Building and saving

/// An immutable index; safe to share between threads. Keeps a pointer to the map, which must
/// outlive it.
typedef struct gtEhl gtEhl;

/// Per-thread query scratch space (a few bytes per convex vertex). Queries never allocate.
typedef struct gtEhlQuery gtEhlQuery;

/// Build progress: `stage` names the step, in order "visibility graph", "hub labels", "cells" (the
/// sweep of every convex vertex) and "via labels" (both passes over the cells, as one 0-1 run);
/// `fraction` runs from 0 to 1 within it. With a budget, "cells" and "via labels" repeat when a
/// larger cell size is built after all. The build reads the map while the callback runs: the
/// callback must not change that map (gtNav_BuildIndex refuses such edits) nor destroy it.
typedef void gtProgressFcn(void* user, const char* stage, double fraction);

typedef struct gtEhlDef {
	int cell_size;           ///< EHL cell side g in map cells (1..GT_EHL_MAX_CELL_SIZE); ignored when budget_mb > 0
	double budget_mb;        ///< > 0: an index of at most this size: regions (docs/big-maps.md), or with `uniform`
	                         ///< the smallest power-of-two g whose estimated index fits
	int threads;             ///< worker threads; 0 = gtSetTasks's (one per online core)
	gtProgressFcn* progress; ///< optional, called from the building thread; a budget's tries of more than one
	                         ///< cell size report as one run of each stage (docs/big-maps.md)
	void* progress_user;
	const gtTaskSystem* tasks; ///< optional: the host's job system; NULL = gtSetTasks's (gridtree's built-in pool)
	int max_vertices; ///< > 0: refuse (GT_ERR_LIMIT, before any work) a map with more convex vertices; 0 = no limit
	                  ///< but the index's own, 16,777,215
	bool uniform;     ///< with a budget: one uniform cell size instead of regions
	const gtVec2* workload; ///< with a budget: sample query points; regions stay fine where they fall
	int64_t workload_count;
	/// With a budget, the build stops (GT_ERR_LIMIT, no index) once the memory it holds at once (its
	/// own allocations, gtGetByteCount's, above what it started with) passes twice the budget; the
	/// message names the peak and the least budget that holds (docs/big-maps.md "What a budget
	/// guarantees"). true: build anyway, the index still within the budget.
	bool allow_high_peak;
} gtEhlDef;

/// cell_size 4, no budget, all cores, no progress callback, the built-in pool.
gtEhlDef gtEhl_DefaultDef(void);

/// Counts describing an index.
typedef struct gtEhlStats {
	int cell_size;
	int convex_vertices;
	int64_t vg_edges;
	int64_t label_entries;  ///< hub-label entries of all vertices
	int64_t useful_entries; ///< entries that survive rule P4 and are copied into cells
	int64_t cells;
	int64_t cell_vertex_pairs; ///< (cell, vertex) pairs the sweep found before any pruning
	int64_t candidate_vias;    ///< via labels before rules P2 and P3
	int64_t hub_entries;       ///< (cell, hub) pairs, sentinels excluded
	int64_t via_labels;        ///< FULL + PARTIAL
	int64_t full_vias;
	int64_t partial_vias;
	int64_t index_bytes; ///< memory held by the index (also its file size, to within a header)
	double build_seconds;
	double peak_rss_mb; ///< process peak resident memory at the end of the build
	int64_t regions;    ///< a region index (built with a budget): its regions, also in `cells`; 0 otherwise
	int64_t peak_bytes; ///< the most bytes the build held at once (its own allocations, over its start's)
} gtEhlStats;

gtStatus gtEhl_Build(const gtMap* map, const gtEhlDef* def, gtEhl** out, gtError* err);

/// A two-way link an index is built knowing (docs/links.md): an agent at either end may step to
/// the other at `cost` (finite, >= 0, possibly below the straight line).
typedef struct gtEhlLink {
	gtVec2 a, b;
	double cost;
} gtEhlLink;

/// gtEhl_Build over the visibility graph joined to the links' ends: the index's distances take the
/// links (up to GT_EHL_MAX_LINKS; each end must be a valid point). The index then answers only for
/// exactly these links: gtNav uses it while the nav's enabled links include them all.
#define GT_EHL_MAX_LINKS 4096
gtStatus gtEhl_BuildWithLinks(const gtMap* map, const gtEhlDef* def, const gtEhlLink* links, int count, gtEhl** out,
                              gtError* err);

/// The links the index was built knowing (none for gtEhl_Build's): their count, and *links (may be
/// NULL) pointed at them.
int gtEhl_Links(const gtEhl* ehl, const gtEhlLink** links);

/// Estimated index bytes at cell size g, from a sample of the map's vertices (no full build).
gtStatus gtEhl_EstimateBytes(const gtMap* map, int cell_size, int threads, int64_t* bytes, gtError* err);
/// What an index of the map would cost, guessed in seconds without its visibility graph or labels:
/// the labels of a 256x256 window where corners are densest, scaled by the growth measured on
/// generated maps (docs/big-maps.md, "Estimates" gives the errors seen).
typedef struct gtEhlQuickEstimate {
	int corners;           ///< exact
	double label_entries;  ///< hub-label entries of all corners
	double useful_entries; ///< the entries an index keeps
	double label_seconds;  ///< the labels' build time on one thread of this machine
	/// The smallest `budget_mb` whose build keeps the process's peak memory (this process as it is
	/// now, plus the build) within twice the budget: below it the program, the map, its hub labels
	/// and the build's tuples do not shrink with the budget (docs/big-maps.md "Peak memory").
	double least_budget_mb;
} gtEhlQuickEstimate;
/// Fills `out` and bytes[k], the index bytes at cell_sizes[k] (count may be 0).
gtStatus gtEhl_EstimateQuick(const gtMap* map, const int* cell_sizes, int count, int64_t* bytes,
                             gtEhlQuickEstimate* out, gtError* err);

void gtEhl_Destroy(gtEhl* ehl);

gtEhlStats gtEhl_GetStats(const gtEhl* ehl);
/// Of index_bytes, the cell arrays this index shares now with other indexes (a repair that changed
/// no cell shares the last index's, docs/edits.md): memory held once for all of them, so a sum of
/// index_bytes over indexes counts them once per index. 0 when they are its own. (Not a field of
/// gtEhlStats: that struct's size is part of the ABI.)
int64_t gtEhl_SharedBytes(const gtEhl* ehl);

/// Writes the index (little-endian, versioned, checksummed) through a temporary file and a rename.
gtStatus gtEhl_Save(const gtEhl* ehl, const char* path, gtError* err);

/// Loads an index saved for this map. Rejects (with a clear message) a file built for another
/// map, a truncated or corrupted file and a newer format version.
gtStatus gtEhl_Load(const gtMap* map, const char* path, gtEhl** out, gtError* err);

//------------------------------------------------------------------------------------------------
// Queries

gtStatus gtEhlQuery_Create(const gtEhl* ehl, gtEhlQuery** out, gtError* err);
void gtEhlQuery_Destroy(gtEhlQuery* query);

/// Shortest distance; +infinity when unreachable; GT_ERR_INVALID_POINT when s or t is not in the
/// closed free space.
gtStatus gtEhl_Distance(gtEhlQuery* query, gtVec2 s, gtVec2 t, double* distance, gtError* err);

/// One source, many targets (what a kNN query does): the source's side of every label merge is
/// computed once and reused until the source changes. gtEhl_Distance uses this too.
gtStatus gtEhlQuery_SetSource(gtEhlQuery* query, gtVec2 source, gtError* err);
/// Distance from the current source; +infinity when unreachable, when t is not a valid point, or
/// when no valid source is set.
double gtEhlQuery_DistanceTo(gtEhlQuery* query, gtVec2 t);
/// The same distance when it is below `limit`; otherwise some value >= limit (hubs whose lower
/// bound reaches the limit are never priced).
double gtEhlQuery_DistanceBelow(gtEhlQuery* query, gtVec2 t, double limit);

/// Shortest path s, bends..., t; same conventions as gtOracle_Path.
gtStatus gtEhl_Path(gtEhlQuery* query, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* distance,
                    gtError* err);

//------------------------------------------------------------------------------------------------
// Inspection

/// Inspection (tests, debugging, the demo's EHL layer): cells are numbered row-major,
/// cell = (y / g) * columns + x / g; `columns` and `rows` receive the grid size.
void gtEhl_GridSize(const gtEhl* ehl, int* columns, int* rows);

/// One via label of a cell: the convex vertex (index into gtMap_Vertices; in an index with links,
/// count + 2k and count + 2k + 1 are link k's ends, count being gtMap_Vertices's), its hub's rank, the
/// VG distance from the vertex to the hub and whether every point of the cell sees the vertex.
typedef struct gtEhlVia {
	int32_t vertex;
	int32_t hub_rank;
	double hub_distance;
	double lower_bound; ///< the (cell, hub) bound the query uses to skip the hub
	bool full;
} gtEhlVia;

/// Copies up to `capacity` vias of `cell` (grouped by increasing hub rank) and returns how many
/// the cell has; -1 for a cell outside the grid.
int64_t gtEhl_CellVias(const gtEhl* ehl, int64_t cell, gtEhlVia* vias, int64_t capacity);

//------------------------------------------------------------------------------------------------
// A ready-made progress display (opt-in: the library prints nothing unless a tool asks it to).

/// Prints build progress to a FILE*: on a terminal, one bar per stage redrawn in place; anywhere
/// else (a log, a pipe, CI), a plain `progress STAGE N%` line every 10%, so logs stay readable.
/// A stage that gives way to the next is shown finished (100%). The fields are the printer's own.
typedef struct gtProgressPrinter {
	FILE* out;
	bool terminal;  ///< isatty(out) when made
	int shown;      ///< last percentage printed for `stage`, -1 = none
	char stage[32]; ///< the stage being shown, "" before the first report
} gtProgressPrinter;

/// A printer for `out` (usually stderr), which must stay open while it is used.
gtProgressPrinter gtProgressPrinter_Make(FILE* out);

/// The gtProgressFcn: pass it as gtEhlDef.progress with the printer as progress_user.
void gtProgressPrinter_Report(void* printer, const char* stage, double fraction);

/// Ends the bar's line on a terminal (call once the build returned, success or not); the printer
/// can then be reused.
void gtProgressPrinter_Finish(gtProgressPrinter* printer);

//------------------------------------------------------------------------------------------------
// Trust: a loaded index is memory-safe to query whatever its file says (gtEhl_Load checks every
// offset, count and id), but only a comparison with the exact oracle says its answers are right.

/// What gtEhl_Verify found.
typedef struct gtEhlVerifyReport {
	int samples;               ///< point pairs compared
	int mismatches;            ///< pairs whose distance or path disagrees with the oracle
	double max_relative_error; ///< largest |index - exact| / max(exact, 1) over distances and path
	                           ///< lengths; +infinity when one side is unreachable and the other not
	const char* failure;       ///< NULL, or what the first failing pair got wrong: "distance" or "path"
	gtVec2 failure_source, failure_target;
	double failure_exact, failure_index; ///< the oracle's and the index's distance for that pair
} gtEhlVerifyReport;

/// Compares `samples` random pairs of valid points (convex vertices, cell corners, points on cell
/// edges and inside free cells; the same pairs for the same seed) with the exact oracle at 1e-9
/// relative: the distance, and the path (it must see every step, start at s, end at t and be as
/// long as the exact distance). Builds the oracle's visibility graph first (seconds on a large
/// map). GT_OK when every pair agrees; GT_ERR_FORMAT naming the first failing pair when the index
/// is wrong. `out` is filled in both cases (may be NULL).
gtStatus gtEhl_Verify(const gtEhl* ehl, int samples, uint64_t seed, gtEhlVerifyReport* out, gtError* err);

#ifdef __cplusplus
}
#endif

#endif
