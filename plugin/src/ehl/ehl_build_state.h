// The whole build's state and its workers' scratch (ehl_build.c), shared with the stages kept in
// files of their own (ehl_build_tuples.c). Internal.
#ifndef GRIDTREE_EHL_BUILD_STATE_H
#define GRIDTREE_EHL_BUILD_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "ehl/ehl_build_lists.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_links.h"
#include "ehl/ehl_regions.h"
#include "ehl/ehl_repair.h"
#include "ehl/ehl_sweep.h"

#define TUPLE_FULL GT_EHL_TUPLE_FULL
#define TUPLE_VERTEX 0x7fffffffu
#define FULL_16 0x8000u

typedef struct Build Build;

// Per-thread scratch for both parallel stages.
typedef struct Worker {
	Build* build;
	int index;
	gtSweep sweep;
	uint32_t* ehl_stamp; // per EHL cell
	uint32_t* ehl_full;
	int32_t* ehl_list;
	// The sweep's tuples, (cell | TUPLE_FULL) each, and per vertex swept a run (vertex, tuples): 4 bytes a
	// tuple, not 8, as these and their grouped copy are the peak of a small budget's build.
	uint32_t* tuples;
	size_t tuple_count, tuple_capacity;
	int32_t* runs;
	int64_t run_count, run_capacity;
	int32_t* hub_head;   // per hub rank, the cell's first candidate (-1 = none)
	double* hub_below;   // per hub rank, keep_below(P2's bound U so far): keep_below is monotone, so the
	                     // least of keep_below(U) over the FULL vias is keep_below of their least U
	uint32_t* hub_stamp; // per hub rank: == stamp when the cell met the hub
	uint32_t stamp;
	uint64_t *hub_bits, *hub_words; // the cell's hubs as bits, and the non-zero words of hub_bits
	int32_t* hub_list;
	Candidate* cand;
	int cand_capacity;
	TupleAt *order, *order_in; // the cell's tuples in gather's order, and as grouped
	int64_t order_capacity;
	KeptVia *kept, *scratch; // a hub's kept vias, and room to sort them
	gtRegionWork region;
	gtRegionLists* pool; // pass 2: where build_cell writes a fine cell's lists
	gtRegionLists cells; // pass 2 of a uniform index: the cells this worker built, in its order
	int64_t cells_told;  // of its bytes, those added to Build.pooled
	int64_t full_vias;   // pass 1: FULL vias written (the stats' count without a scan of every via)
	bool failed;
	gtError err;
} Worker;

struct Build {
	const gtMap* map;
	const gtEhlDef* def;
	gtEhl* ehl;
	gtEhlRepair* repair; // a repair's plan: the vertices and cells the last index has right (or NULL)
	int threads;
	int64_t cells;
	atomic_long next_item;
	long item_count;
	int pass; // cell stage: 0 counts, 1 writes, 2 writes into a worker's pool (regions, or a uniform index)
	gtRegionBuild* regions;
	const gtEhlEndRegions* end_regions; // the link ends' regions from the join (or NULL)
	int passes;                         // runs that make up the current stage, reported as one 0-1 progress
	const char* stage;
	// Tuples grouped by cell.
	int64_t* tuple_begin;
	uint32_t* tuple_vertex;
	uint16_t* tuple16;   // instead, in a region build of under 2^15 vertices: vertex | FULL_16 (the same order)
	uint32_t* cell_hubs; // pass 0 results (or a uniform pass 2's)
	uint32_t* cell_vias;
	uint64_t* via_start;
	void *room_hubs, *room_vias; // a repair's room for e->hubs and e->vias (gt_ehl_repair_room), or NULL
	double room_mb;              // their size
	uint32_t* cell_at;           // a uniform pass 2: where the cell's hub list begins in its worker's pool
	uint8_t* cell_pool;          // and that worker
	bool round_robin;            // tests only: item i to worker i % threads (GT_EHL_CELLS_ROUND_ROBIN)
	atomic_llong pooled;         // bytes in the pools (by capacity), as last told
	atomic_bool pools_over;      // they passed `available`: the one-pass stage stops, the two passes follow
	double available;            // MB of memory available before the via stage
	// Per cell: the free squares that must see a vertex whole for the cell to be FULL for it
	// (cells_needing): then every valid point of the cell sees it.
	uint32_t* edge_free;
	atomic_llong candidates; // pass 0: vias before P2 and P3
	int64_t full_vias;       // of a uniform index, summed over the workers' pass 1 (else -1: counted after)
	// A region build's fine cells: the sweep stops (GT_ERR_LIMIT) once the tuples pass this many, so
	// cells too fine for the budget cost no more memory than that (0: no limit).
	atomic_llong tuples;
	int64_t most_tuples;
	int64_t pairs;
};

// Groups every worker's tuples by cell into b->tuple_begin and b->tuple_vertex (or tuple16),
// freeing the workers' (ehl_build_tuples.c).
gtStatus gt_ehl_group_tuples(Build* b, Worker* workers, gtError* err);

#endif
