// Region indexes (EHL*'s idea, docs/big-maps.md "Regions"): the via labels of fine cells merged
// into regions of a quadtree inside blocks of 16 x 16 fine cells, a region's labels being the union
// of its cells' (exact, as any cell's), merged cheapest query cost per byte first until the index
// fits a budget. Internal.
#ifndef GRIDTREE_EHL_REGIONS_H
#define GRIDTREE_EHL_REGIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "ehl/ehl_layout.h"

#define GT_REGION_DEPTH 4   // levels of merges above the fine cells
#define GT_REGION_SIDE 16   // fine cells per block side, 2^depth
#define GT_REGION_NODES 341 // quadtree nodes of a block: 256 + 64 + 16 + 4 + 1
#define GT_REGION_STEPS 85  // merges of a block: its inner nodes

// A growing pool of hub lists (each ends with a sentinel whose hub is n) and their vias; a list's
// via_begin values index `vias`.
typedef struct gtRegionLists {
	gtEhlHub* hubs;
	gtEhlViaLabel* vias;
	uint8_t* full; // per via while merging: how many merged lists had it FULL
	int64_t hub_count, hub_capacity, via_count, via_capacity;
	bool bare; // no `full` (a uniform build's pool: nothing merges)
} gtRegionLists;

bool gt_region_lists_reserve(gtRegionLists* l, int64_t hubs, int64_t vias);
// The same, inline where the room is there (the via stage asks once per (cell, hub)).
static inline bool gt_region_lists_room(gtRegionLists* l, int64_t hubs, int64_t vias)
{
	return (l->hub_count + hubs <= l->hub_capacity && l->via_count + vias <= l->via_capacity) ||
	       gt_region_lists_reserve(l, hubs, vias);
}

// One block's chain of merges (the plan pass): after k steps the block holds regions[k] regions
// with hubs[k] hub entries (sentinels included) and vias[k] vias.
typedef struct gtRegionBlock {
	int steps, chosen;
	uint16_t node[GT_REGION_STEPS];
	float ratio[GT_REGION_STEPS]; // query cost added per byte saved
	uint32_t regions[GT_REGION_STEPS + 1];
	uint64_t hubs[GT_REGION_STEPS + 1], vias[GT_REGION_STEPS + 1];
	uint64_t region_at, hub_at, via_at; // the write pass's offsets
} gtRegionBlock;

typedef struct gtRegionBuild {
	gtEhl* ehl;    // fine grid: g, columns, rows; the write pass fills cell_begin, hubs, vias, region_of
	float* weight; // per fine cell: the share of query ends expected in it
	int block_columns, block_rows;
	gtRegionBlock* blocks;
	bool writing;
	// A compact index (ehl_layout.h: cvias): each label entry's place in its hub's inverse label,
	// by which the write pass turns the pool's vias into 2-byte ones; NULL: 6-byte vias.
	const uint32_t* place_of;
} gtRegionBuild;

// Per-thread scratch of the block stage.
typedef struct gtRegionWork {
	gtRegionLists pool;
	int64_t first[GT_REGION_NODES]; // the node's list in the pool (-1: no cell of the node exists)
	double hubs[GT_REGION_NODES], vias[GT_REGION_NODES], partial[GT_REGION_NODES], weight[GT_REGION_NODES];
	bool leaf[GT_REGION_NODES], merged[GT_REGION_NODES];
	double via_bytes; // a via's bytes in the index being built
	bool broken;      // a via without its label entry (never in a sound build)
} gtRegionWork;

// Appends fine cell `cell`'s hub list and vias to `out`; false when out of memory.
typedef bool gtRegionFineFcn(void* context, int64_t cell, gtRegionLists* out);

// Plans (or, with rb->writing, writes) one block. The write pass replays the plan's chosen merges and
// builds only their unions.
bool gt_region_block(gtRegionBuild* rb, gtRegionWork* w, int64_t block, gtRegionFineFcn* fine, void* context);

// After the plan pass: picks each block's merges, cheapest query cost per byte saved first, until
// the cells' part of the index (region ids, cell offsets, hub entries, vias) fits `target_bytes`; sets the
// write offsets and the index's counts and allocates its arrays. GT_ERR_LIMIT when even whole
// blocks do not fit.
gtStatus gt_region_choose(gtRegionBuild* rb, double target_bytes, gtError* err);

// After the write pass of a compact index: equal via lists stored once (the entries point at the
// first), the vias packed; false when out of memory. Lists of different hubs may be shared too:
// a list holds places, which each entry reads in its own hub's inverse label.
bool gt_region_share_lists(gtEhl* e);

// Query ends' weights per fine cell: its free map cells, plus (with a workload) the points in it.
gtStatus gt_region_weights(gtRegionBuild* rb, const gtVec2* points, int64_t point_count, gtError* err);

void gt_region_work_free(gtRegionWork* w);
void gt_region_build_free(gtRegionBuild* rb);

#endif
