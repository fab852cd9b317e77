// A uniform index's cells from the build threads' pools (ehl_cell_pools.h).
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "ehl/ehl_cell_pools.h"

gtEhlCellsTest gt_ehl_cells_test;

gtStatus gt_ehl_cell_offsets(gtEhl* e, int64_t cells, const uint32_t* cell_hubs, const uint32_t* cell_vias,
                             uint64_t** via_start, gtError* err)
{
	uint64_t hubs = 0, vias = 0;
	e->cell_begin = gt_malloc(((size_t)cells + 1) * sizeof *e->cell_begin);
	*via_start = gt_malloc(((size_t)cells + 1) * sizeof **via_start);
	if (!e->cell_begin || !*via_start) return gt_fail(err, GT_ERR_NOMEM, "out of memory for cell offsets");
	for (int64_t c = 0; c < cells; c++) {
		e->cell_begin[c] = (uint32_t)hubs;
		(*via_start)[c] = vias;
		hubs += cell_hubs[c] + 1; // + sentinel
		vias += cell_vias[c];
		if (hubs >= UINT32_MAX || vias >= UINT32_MAX)
			return gt_fail(err, GT_ERR_LIMIT,
			               "the index at cell size %d needs more than 2^32 entries; use a larger cell size", e->g);
	}
	e->cell_begin[cells] = (uint32_t)hubs;
	(*via_start)[cells] = vias;
	e->hub_count = (int64_t)hubs + 1;
	e->via_count = (int64_t)vias;
	return GT_OK;
}

// Cell c's lists from `from` (at hub `at`) to their place in e's arrays, their vias' offsets moved
// with them. memmove: within pool 0 a cell's old and new places may overlap.
static void place_cell(gtEhl* e, int64_t c, const gtRegionLists* from, uint32_t at, uint32_t hubs, uint32_t vias,
                       const uint64_t* via_start)
{
	uint32_t old_via = from->hubs[at].via_begin, new_via = (uint32_t)via_start[c];
	gtEhlHub* to = e->hubs + e->cell_begin[c];
	if (vias) // a pool that holds no via yet has no array (memmove's pointers must not be NULL)
		memmove(e->vias + new_via, from->vias + old_via, (size_t)vias * sizeof *e->vias);
	memmove(to, from->hubs + at, ((size_t)hubs + 1) * sizeof *to);
	for (uint32_t i = 0; i <= hubs; i++) to[i].via_begin = to[i].via_begin - old_via + new_via;
}

gtStatus gt_ehl_cells_from_pools(gtEhl* e, int64_t cells, gtRegionLists* const* pools, int count,
                                 const uint32_t* cell_at, const uint8_t* cell_pool, const uint32_t* cell_hubs,
                                 const uint32_t* cell_vias, const uint64_t* via_start, gtError* err)
{
	gtRegionLists* first = pools[0];
	if (!GT_RESIZE(first->hubs, e->hub_count) || !GT_RESIZE(first->vias, e->via_count + 1))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %llu via labels (%.0f MB)",
		               (unsigned long long)e->via_count, (double)e->via_count * 8 / 1e6);
	e->hubs = first->hubs, e->vias = first->vias;
	gt_free(first->full);
	memset(first, 0, sizeof *first);
	// Pool 0's cells, last first: a cell's place in the index is at or past its place in the pool
	// (the cells before it there are before it in the index too), so no cell not yet moved is written over.
	for (int64_t c = cells - 1; c >= 0; c--)
		if (cell_pool[c] == 0) {
			gtRegionLists whole = {.hubs = e->hubs, .vias = e->vias};
			place_cell(e, c, &whole, cell_at[c], cell_hubs[c], cell_vias[c], via_start);
		}
	for (int k = 1; k < count; k++) {
		for (int64_t c = 0; c < cells; c++)
			if (cell_pool[c] == k) place_cell(e, c, pools[k], cell_at[c], cell_hubs[c], cell_vias[c], via_start);
		gt_ehl_pools_free(pools + k, 1);
	}
	gtEhlHub last = {(uint32_t)e->via_count, (uint32_t)e->n, INFINITY};
	e->hubs[e->hub_count - 1] = last;
	return GT_OK;
}

bool gt_ehl_pools_fit(const gtEhl* e, gtRegionLists* const* pools, int count, double available_mb)
{
	double others = 0;
	for (int k = 1; k < count; k++) others += gt_ehl_pool_bytes(pools[k]);
	const gtRegionLists* first = pools[0];
	double hubs = (double)e->hub_count * sizeof *e->hubs, vias = (double)(e->via_count + 1) * sizeof *e->vias;
	double old_hubs = (double)first->hub_capacity * sizeof *first->hubs;
	double old_vias = (double)first->via_capacity * sizeof *first->vias;
	// The hubs are resized first (pool 0's vias still held), then the vias (the index's hubs held).
	double hubs_moving = (hubs > old_hubs ? hubs + old_hubs : old_hubs) + old_vias;
	double vias_moving = hubs + (vias > old_vias ? vias + old_vias : old_vias);
	double peak = others + (hubs_moving > vias_moving ? hubs_moving : vias_moving);
	atomic_store(&gt_ehl_cells_test.pools_bytes, (long long)(others + old_hubs + old_vias));
	atomic_store(&gt_ehl_cells_test.peak_bytes, (long long)peak);
	return !(peak / 1e6 > available_mb);
}

double gt_ehl_available_mb(void)
{
	long long fake = atomic_load(&gt_ehl_cells_test.available);
	return fake > 0 ? (double)fake / 1e6 : gt_available_memory_mb();
}

void gt_ehl_pools_free(gtRegionLists* const* pools, int count)
{
	for (int k = 0; k < count; k++) {
		gt_free(pools[k]->hubs), gt_free(pools[k]->vias), gt_free(pools[k]->full);
		memset(pools[k], 0, sizeof *pools[k]);
	}
}
