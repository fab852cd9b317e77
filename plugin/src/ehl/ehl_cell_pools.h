// A uniform index's cells written in one pass: each build thread appends the cells it builds to its
// own pool (hub list, sentinel, vias), and the pools become the index's arrays in cell order after.
// (Counting every cell first and writing it again cost the build the whole via stage twice.) Internal.
#ifndef GRIDTREE_EHL_CELL_POOLS_H
#define GRIDTREE_EHL_CELL_POOLS_H

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

// Tests only: true makes a whole uniform build count every cell, then write it, as a repair does
// (the file one pass must equal). Read once per build.
extern bool gt_ehl_cells_in_two_passes;

#endif
