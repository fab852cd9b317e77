// A uniform index's cells written in one pass: each build thread appends the cells it builds to its
// own pool (hub list, sentinel, vias), and the pools become the index's arrays in cell order after.
// (Counting every cell first and writing it again cost the build the whole via stage twice.) Internal.
#ifndef GRIDTREE_EHL_CELL_POOLS_H
#define GRIDTREE_EHL_CELL_POOLS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_regions.h"

// Prefix sums of the cells' counts (hubs without their sentinel, vias) into e->cell_begin, *via_start
// (allocated here, cells + 1 entries) and e->hub_count / via_count; GT_ERR_LIMIT past 2^32 entries.
gtStatus gt_ehl_cell_offsets(gtEhl* e, int64_t cells, const uint32_t* cell_hubs, const uint32_t* cell_vias,
                             uint64_t** via_start, gtError* err);

// The index's hubs and vias from `count` pools: cell c's lists are in pools[cell_pool[c]] from hub
// cell_at[c] on (cell_hubs[c] hubs, then its sentinel; the hubs' via_begin count in that pool's
// vias). Pool 0's arrays become the index's (its cells only move up, so no second copy of them);
// the other pools are copied in and freed. Needs e->cell_begin (gt_ehl_cell_offsets) and via_start.
gtStatus gt_ehl_cells_from_pools(gtEhl* e, int64_t cells, gtRegionLists* const* pools, int count,
                                 const uint32_t* cell_at, const uint8_t* cell_pool, const uint32_t* cell_hubs,
                                 const uint32_t* cell_vias, const uint64_t* via_start, gtError* err);

// The bytes a pool holds: its capacity, which is what it has asked of the system.
static inline double gt_ehl_pool_bytes(const gtRegionLists* p)
{
	return (double)p->hub_capacity * sizeof *p->hubs + (double)p->via_capacity * sizeof *p->vias;
}

// Whether the most bytes gt_ehl_cells_from_pools holds at once fit `available_mb`: the index's arrays
// (e's counts, from gt_ehl_cell_offsets) beside pools 1.., and while pool 0's arrays grow into
// them, their old blocks too (a realloc that cannot grow in place holds both a moment). Pools by
// capacity. (With 4 threads that is about 1.75 times the index.)
bool gt_ehl_pools_fit(const gtEhl* e, gtRegionLists* const* pools, int count, double available_mb);

// MB of memory available (MemAvailable, or the tests' gt_ehl_cells_test.available).
double gt_ehl_available_mb(void);

// Frees the pools' arrays and empties them.
void gt_ehl_pools_free(gtRegionLists* const* pools, int count);

// Tests only: switches of a whole uniform build's via stage. Meant for tests that build one index
// at a time (a build reads them once, at its via stage); atomic, so that a build still running on
// another thread (a background rebuild) reads them without a data race.
enum {
	GT_EHL_CELLS_TWO_PASSES = 1,  // count every cell, then write it, as a repair does (the file one pass must equal)
	GT_EHL_CELLS_ROUND_ROBIN = 2, // one pass, cell c built by thread c % threads: every pool used, whatever
	                              // the scheduling (else one thread may build every cell of a small map)
	GT_EHL_CELLS_SMALL_ROOM = 4   // a repair's room for its cell arrays (gt_ehl_repair_room) a quarter of
	                              // the last index's: pass 1 must grow it
};
typedef struct gtEhlCellsTest {
	atomic_int mode;          // GT_EHL_CELLS_* bits; 0 outside tests
	atomic_llong available;   // > 0: the bytes the memory guard takes as available (not MemAvailable)
	atomic_llong pools_bytes; // out: the pools' capacity at the end of the last one-pass stage
	atomic_llong peak_bytes;  // out: and what putting them in order would hold at once
	atomic_int fell_back;     // out: one-pass stages given up for the two passes (their peak did not fit)
	atomic_llong room_bytes;  // out: the room the last repair made for its cell arrays (gt_ehl_repair_room)
} gtEhlCellsTest;
extern gtEhlCellsTest gt_ehl_cells_test;

#endif
