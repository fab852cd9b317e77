// The oracle backend: Dijkstra over the visibility graph of the map as edited. Exact and slow; a
// correctness tool, and the stand-in for the backends whose data an edit outran.
#include "core/alloc.h"
#include "core/status.h"
#include "nav/nav_backend.h"
#include "nav/nav_view.h"
#include "oracle/oracle.h"

// A view of the map as edited, shared with the nav's other query objects, and this query's own
// searcher of it.
typedef struct OracleScratch {
	NavView* view;
	gtOracleSearch* searcher;
} OracleScratch;

static void free_scratch(void* scratch)
{
	OracleScratch* o = scratch;
	if (!o) return;
	nav_view_release(o->view);
	gt_oracle_search_destroy(o->searcher);
	gt_free(o);
}

static OracleScratch* scratch_of(const gtNavQuery* q)
{
	return q->scratch[GT_NAV_ORACLE];
}

const gtOracle* nav_oracle(const gtNavQuery* q)
{
	return scratch_of(q)->view->oracle;
}

gtOracleSearch* nav_oracle_searcher(const gtNavQuery* q)
{
	return scratch_of(q)->searcher;
}

const NavView* nav_oracle_view(const gtNavQuery* q)
{
	return scratch_of(q)->view;
}

static gtStatus ready(gtNavQuery* q, bool wait, gtError* err)
{
	if (!q->scratch[GT_NAV_ORACLE] && !(q->scratch[GT_NAV_ORACLE] = gt_calloc(1, sizeof(OracleScratch))))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	OracleScratch* o = scratch_of(q);
	gtStatus st = wait ? nav_view_acquire(q->nav, &o->view, err) : nav_view_soon(q->nav, &o->view, err);
	return st ? st : gt_oracle_search_ready(&o->searcher, o->view->oracle, err);
}

gtStatus nav_oracle_ready(gtNavQuery* q, gtError* err)
{
	return ready(q, true, err);
}

gtStatus nav_oracle_soon(gtNavQuery* q, gtError* err)
{
	return ready(q, false, err);
}

static gtStatus distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double* d, gtError* err)
{
	return gt_oracle_distance_with(nav_oracle(q), nav_oracle_searcher(q), s, t, d, err);
}

static gtStatus path(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* d,
                     gtError* err)
{
	return gt_oracle_path_with(nav_oracle(q), nav_oracle_searcher(q), s, t, points, capacity, count, d, err);
}

const NavBackend nav_backend_oracle = {
    .name = "oracle",
    .caps = GT_NAV_CAP_WALLS | NAV_CAP_AUTO,
    .bind = nav_oracle_ready,
    .free_scratch = free_scratch,
    .distance = distance,
    .path = path,
};
