// The oracle backend: Dijkstra over the visibility graph of the map as edited. Exact and slow; a
// correctness tool, and the stand-in for the backends whose data an edit outran.
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "nav/nav_backend.h"
#include "oracle/oracle.h"

typedef struct OracleScratch {
	gtOracle* oracle;
	uint32_t generation;      // the map_generation it answers for
	gtOracle* base;           // the index map's oracle: the edited one is derived from it while walls are only added
	uint32_t base_generation; // the ehl_generation it was built for
} OracleScratch;

static void free_scratch(void* scratch)
{
	OracleScratch* o = scratch;
	if (!o) return;
	gtOracle_Destroy(o->oracle);
	gtOracle_Destroy(o->base);
	gt_free(o);
}

gtOracle* nav_oracle(const gtNavQuery* q)
{
	const OracleScratch* o = q->scratch[GT_NAV_ORACLE];
	return o->oracle;
}

// Walls only added since the index: derive from the index map's graph, never rebuilt.
static gtStatus derive_from_index(OracleScratch* o, gtNav* nav, gtError* err)
{
	if (!o->base || o->base_generation != nav->ehl_generation) {
		gtOracle_Destroy(o->base);
		o->base = NULL;
		gtStatus st = nav->graph.offset // the graph a rebuild kept: not built again per query object
		                  ? gt_oracle_create_from_graph(nav->index_map, &nav->graph, &o->base, err)
		                  : gt_oracle_create(nav->index_map, nav->def.tasks, nav->def.threads, &o->base, err);
		if (!st && nav->graph.offset) st = gt_oracle_copy_landmarks(o->base, &nav->landmarks, err); // the rebuild's
		if (st) return st;
		o->base_generation = nav->ehl_generation;
	}
	int rects[4 * 64];
	int count = nav_added_rects(nav, rects, 64);
	gtOracle* derived;
	gtStatus st = gt_oracle_after_blocks(o->base, nav->map, rects, count, &derived, err);
	if (st) return st;
	gtOracle_Destroy(o->oracle);
	o->oracle = derived;
	o->generation = nav->map_generation;
	return GT_OK;
}

gtStatus nav_oracle_ready(gtNavQuery* q, gtError* err)
{
	gtNav* nav = q->nav;
	if (!q->scratch[GT_NAV_ORACLE] && !(q->scratch[GT_NAV_ORACLE] = gt_calloc(1, sizeof(OracleScratch))))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	OracleScratch* o = q->scratch[GT_NAV_ORACLE];
	// A derived oracle numbers its vertices after the index map it came from: a new index needs a new one.
	if (o->oracle && o->generation == nav->map_generation &&
	    (!gt_oracle_is_derived(o->oracle) || o->base_generation == nav->ehl_generation))
		return GT_OK;
	if (nav->ehl && nav->index_map && nav->freed == 0 && nav->added > 0) return derive_from_index(o, nav, err);
	uint32_t behind = nav->map_generation - o->generation;
	if (o->oracle && behind <= NAV_EDIT_LOG) { // repair around the edits since, rather than rebuild
		int rects[4 * NAV_EDIT_LOG];
		for (uint32_t i = 0; i < behind; i++)
			memcpy(rects + 4 * i, nav->edit_log[(o->generation + 1 + i) % NAV_EDIT_LOG], sizeof nav->edit_log[0]);
		if (!gt_oracle_repair(o->oracle, rects, (int)behind, NULL)) {
			o->generation = nav->map_generation;
			return GT_OK;
		}
	}
	gtOracle_Destroy(o->oracle);
	o->oracle = NULL;
	gtStatus st = gt_oracle_create(nav->map, nav->def.tasks, nav->def.threads, &o->oracle, err);
	if (!st) o->generation = nav->map_generation;
	return st;
}

static gtStatus distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double* d, gtError* err)
{
	return gtOracle_Distance(nav_oracle(q), s, t, d, err);
}

static gtStatus path(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* d,
                     gtError* err)
{
	return gtOracle_Path(nav_oracle(q), s, t, points, capacity, count, d, err);
}

const NavBackend nav_backend_oracle = {
    .name = "oracle",
    .caps = GT_NAV_CAP_WALLS | NAV_CAP_AUTO,
    .bind = nav_oracle_ready,
    .free_scratch = free_scratch,
    .distance = distance,
    .path = path,
};
