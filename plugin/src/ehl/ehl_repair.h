// EHL builds after map edits (issue 31): the last index repaired rather than built again. The
// visibility graph is kept from one build and repaired around the edited cells; the hub order is
// kept (the surviving vertices keep their ranks, new corners come last), so the labels change
// for few vertices; the sweep is redone only for vertices that saw an edited cell, and the cells
// whose tuples and vertex labels are unchanged are copied from the last index. Internal.
#ifndef GRIDTREE_EHL_REPAIR_H
#define GRIDTREE_EHL_REPAIR_H

#include <stdatomic.h>

#include "ehl/ehl_layout.h"
#include "ehl/ehl_sweep.h"
#include "ehl/hub_labels.h"
#include "map/vis_graph.h"

// What the last index and the edits since are: the index (read only while the build runs; it
// must have kept its tuples), its map's vertex list and the edited cells (inclusive rectangles,
// x0, y0, x1, y1 each). The graph handed to the build must be the last one repaired around them.
typedef struct gtEhlRepairFrom {
	const gtEhl* old;
	const gtVisGraph* old_graph; // the graph of old's map
	const gtVertex* old_vertices;
	int old_n;
	const int* rects;
	int rect_count;
	// (or NULL) old_graph's landmarks, from old's labels: kept with the distances that did not move
	// when the labels of all of them stayed (else picked anew, as a build picks them)
	const struct gtLandmarks* old_landmarks;
} gtEhlRepairFrom;

// gtEhlDef's checks shared by every build: cell size (unless a budget picks it), threads, budget.
gtStatus gt_ehl_check_def(const gtEhlDef* def, gtError* err);
// A build's own peak memory, held within twice a budget (unless def->allow_high_peak): begin it on
// the building thread; between stages, gt_ehl_peak_so_far stops a build already past it; at the
// end, gt_ehl_check_peak (st: the build's status) destroys an index whose build passed it
// (GT_ERR_LIMIT) and fills stats.peak_bytes.
int64_t gt_ehl_peak_begin(const gtEhlDef* def);
gtStatus gt_ehl_peak_so_far(const gtEhlDef* def, const char* stage, gtError* err);
gtStatus gt_ehl_check_peak(const gtEhlDef* def, int64_t base, gtStatus st, gtEhl** out, gtError* err);
// GT_ERR_LIMIT when the map has more convex vertices than the index or def->max_vertices allows.
gtStatus gt_ehl_check_vertices(const gtMap* map, const gtEhlDef* def, gtError* err);

// A repair's plan (ehl_repair.c): which vertices keep their sweep and which cells their labels.
typedef struct gtEhlRepair gtEhlRepair;

// The cell stage of gtEhl_Build (docs/algorithms.md 5.6-5.8) from hub labels of `map`, which it
// consumes (frees); `start` is when the build began (for its stats). With a repair (not NULL) the
// index keeps its tuples, and reuses what the plan found unchanged; the repair's labels may still
// be in the making (gt_ehl_repair_await_labels): they are read after the sweep. In ehl_build.c.
gtStatus gt_ehl_build_from_labels(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* labels,
                                  gtEhlRepair* repair, int64_t vg_edges, double start, gtEhl** out, gtError* err);

struct gtLandmarks;

// gtEhl_Build that starts from *graph when it holds the full visibility graph of `map` (offset
// not NULL), else builds it there; either way *graph is the graph of `map` afterwards (the caller
// frees it), also when the cell stage fails. The index keeps its tuples for the next repair; with
// `from` (not NULL), it is repaired from from->old (see above) where that is the same index.
// With `landmarks` (not NULL), also the graph's landmarks (as gt_ehl_repair_landmarks gives them;
// empty when out of memory), made while the cells are built when there are threads to spare.
gtStatus gt_ehl_build_keeping_graph(const gtMap* map, const gtEhlDef* def, gtVisGraph* graph,
                                    const gtEhlRepairFrom* from, gtEhl** out, struct gtLandmarks* landmarks,
                                    gtError* err);

// The builds gt_ehl_build_keeping_graph made (process-wide, for the tests): repairs of a last index,
// and whole builds (no last index, or one it could not repair).
typedef struct gtEhlKeepingCounts {
	atomic_llong repaired, whole;
} gtEhlKeepingCounts;
extern gtEhlKeepingCounts gt_ehl_keeping_counts;

// True when there is no last index to reuse: a whole build that keeps its tuples and labels (and
// its cells' FULL counts) for the next repair, built as gtEhl_Build builds (one pass over the cells).
bool gt_ehl_repair_whole(const gtEhlRepair* repair);

// For the build's sweep: true when vertex v of the new index `e` keeps the last index's tuples,
// then *cells (cell | GT_EHL_TUPLE_FULL each) and *count are them.
bool gt_ehl_repair_kept_tuples(const gtEhlRepair* repair, const gtEhl* e, int v, const uint32_t** cells,
                               int64_t* count);

// For the build's sweep: true when vertex v of `e` sweeps only within *sector, the directions the
// edits can change; its tuples of the cells outside it (gt_ehl_repair_sector_holds false) are the
// last index's *cells (cell | GT_EHL_TUPLE_FULL each) and *count, the others come from the sweep.
bool gt_ehl_repair_sector(const gtEhlRepair* repair, const gtEhl* e, int v, gtSweepSector* sector,
                          const uint32_t** cells, int64_t* count);
// True when no vertex of `e` sweeps again and none is renumbered: the tuples are the last index's
// (the sweep is skipped), which gt_ehl_repair_copy_tuples gives (*pairs of them; the caller frees).
bool gt_ehl_repair_same_tuples(const gtEhlRepair* repair, const gtEhl* e);
gtStatus gt_ehl_repair_copy_tuples(const gtEhlRepair* repair, int64_t** begin, uint32_t** vertex, int64_t* pairs,
                                   gtError* err);
// For the build's FULL counts (ehl_cells.h): true when the last index kept its counts for the
// same grid, then *old is them and *rects, *count the edited cells (x0, y0, x1, y1 each).
bool gt_ehl_repair_edge_free(const gtEhlRepair* repair, const gtEhl* e, const uint32_t** old, const int** rects,
                             int* count);
// Whether cell `cell` of `e` lies within the sector (its sweep there is the full one's).
bool gt_ehl_repair_sector_holds(const gtEhl* e, const gtSweepSector* sector, int64_t cell);

// For the build's via-label passes over `cell` of `e`, whose new tuples are `tuples`: true when
// the last index has the cell right. Pass 0 decides it and gives the cell's hub and via counts;
// pass 1 copies the cell into e's arrays (its hubs at e->cell_begin[cell], its vias at via_at) and
// adds its FULL vias to *full.
bool gt_ehl_repair_cell(gtEhlRepair* repair, gtEhl* e, int64_t cell, int pass, const uint32_t* tuples, int64_t count,
                        uint64_t via_at, uint32_t* hubs, uint32_t* vias, int64_t* full);

// After pass 0: true when it found every cell of `e` as the last index has it and no vertex
// renumbered; then e holds the last index's cell arrays (shared, not copied: gt_ehl_share_cells)
// and its cells' FULL counts, *full their sum, and pass 1 is not run.
bool gt_ehl_repair_share_cells(gtEhlRepair* repair, gtEhl* e, int64_t* full);

// For the via labels of `cell` of `e` (new tuples `tuples`) that pass 0 did not copy whole, asked
// by build worker `worker` once per cell and pass: true when the last index helps, then the hubs
// whose vias must be computed are those h with mark[h] == token; the others are copied, in order,
// by gt_ehl_repair_copy_hubs.
bool gt_ehl_repair_affected(const gtEhlRepair* repair, int worker, const gtEhl* e, int64_t cell, int pass,
                            const uint32_t* tuples, int64_t count, const uint32_t** mark, uint32_t* token);

// After gt_ehl_repair_affected: the last index's (cell, hub) entries of the hubs not marked, with
// new rank below `below` and not yet copied, added after the *hubs entries and *vias vias the cell
// has so far (written in pass 1 at hub_at + *hubs and via_at + *vias; both counts advance; the
// FULL vias written are added to *full).
void gt_ehl_repair_copy_hubs(const gtEhlRepair* repair, int worker, gtEhl* e, int64_t cell, int pass, int32_t below,
                             int64_t hub_at, uint64_t via_at, uint32_t* hubs, uint32_t* vias, int64_t* full);

// The build's wait for the repair's labels, made on a job of their own while it sweeps (a sweep
// reads none): returns their status (err says why). Every later call returns at once.
gtStatus gt_ehl_repair_await_labels(gtEhlRepair* repair, gtError* err);
// While the build waits for those labels: room for the new index's cell arrays (*hubs, *vias, or
// NULL), about the last index's, its pages written (faulted in) until the labels are there, so that
// pass 1 writes into memory the system has given already (~5 us a fresh 4 KB page on the shared
// machine). The build resizes them to what pass 0 finds, or frees them. None when the repair will
// likely share the last index's cell arrays (gt_ehl_repair_share_cells) for new index `e`. Returns
// the MB made: memory the new arrays may take, though MemAvailable no longer counts it.
double gt_ehl_repair_room(gtEhlRepair* repair, const gtEhl* e, void** hubs, void** vias);
// Whether that job runs now (the build sweeps on one thread fewer meanwhile).
bool gt_ehl_repair_labelling(const gtEhlRepair* repair);
// Waits for the whole job (it goes on with the landmarks after the labels): before the labels are
// freed or the index is handed over.
void gt_ehl_repair_join(gtEhlRepair* repair);

// Moves `labels` into index `e` for the next repair; false when out of memory (they stay the caller's).
bool gt_ehl_repair_keep_labels(gtEhl* e, gtHubLabels* labels);

// The landmarks gt_landmarks_build picks on index e's graph, their distances from its kept hub
// labels (one label scan per vertex instead of a Dijkstra each).
gtStatus gt_ehl_repair_landmarks(const gtEhl* e, struct gtLandmarks* out, gtError* err);

#endif
