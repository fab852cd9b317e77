// Checks of an EHL definition and of a map's size against it, before any graph is built.
#include <math.h>
#include <stdio.h>

#include "ehl/ehl_repair.h"
#include "ehl/ehl_layout.h"
#include "core/alloc.h"
#include "core/status.h"
#include "map/map_internal.h"

gtStatus gt_ehl_check_def(const gtEhlDef* def, gtError* err)
{
	if (!(def->budget_mb > 0) && (def->cell_size < 1 || def->cell_size > GT_EHL_MAX_CELL_SIZE))
		return gt_fail(err, GT_ERR_INVALID_ARG, "cell size %d is outside 1..%d", def->cell_size, GT_EHL_MAX_CELL_SIZE);
	if (def->threads < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "threads must be >= 0, got %d", def->threads);
	if (isnan(def->budget_mb) || def->budget_mb < 0)
		return gt_fail(err, GT_ERR_INVALID_ARG, "budget must be a positive number of megabytes");
	if (def->max_vertices < 0)
		return gt_fail(err, GT_ERR_INVALID_ARG, "max_vertices must be >= 0, got %d", def->max_vertices);
	return GT_OK;
}

gtStatus gt_ehl_check_vertices(const gtMap* map, const gtEhlDef* def, gtError* err)
{
	int vertices, limit = def->max_vertices > 0 && def->max_vertices < GT_EHL_MAX_VERTICES ? def->max_vertices
	                                                                                       : GT_EHL_MAX_VERTICES;
	gtMap_Vertices(map, &vertices);
	if (vertices > limit) // before the graph
		return gt_fail(err, GT_ERR_LIMIT, "EHL supports maps with up to %d convex vertices; this one has %d", limit,
		               vertices);
	return GT_OK;
}

// The build's own peak (its allocations over what it started with) is what the budget's second
// half bounds. The part of it that grows with the budget grows about 1.25-1.4 bytes a byte (the
// index, its lists before sharing, the sharing table: docs/big-maps.md), hence the least budget
// named after a whole build (at 1.4: on the safe side on the maps measured); a build stopped
// between stages needs at least half of what it already held.
static _Thread_local int64_t watch_base; // of the budgeted build running on this thread
static _Thread_local double watch_limit; // 0: none

int64_t gt_ehl_peak_begin(const gtEhlDef* def)
{
	int64_t base = gt_alloc_watch_begin();
	watch_base = base;
	watch_limit = def->budget_mb > 0 && !def->allow_high_peak ? 2 * def->budget_mb * 1e6 : 0;
	return base;
}

static gtStatus peak_error(double budget_mb, double peak, const char* when, bool whole, gtError* err)
{
	double least = whole ? (peak - 1.4 * budget_mb * 1e6) / 0.6 * 1.03 : peak / 2; // 3%: its error
	return gt_fail(err, GT_ERR_LIMIT,
	               "budget %g MB: the build held %.2f MB %s, more than twice the budget; on this map the least "
	               "budget that holds is %s %.2f MB (or allow a higher peak: allow_high_peak)",
	               budget_mb, peak / 1e6, when, whole ? "about" : "more than", ceil(least / 1e4) / 100);
}

gtStatus gt_ehl_peak_so_far(const gtEhlDef* def, const char* stage, gtError* err)
{
	double peak = (double)(gt_alloc_watch_peak() - watch_base);
	if (!(watch_limit > 0) || peak <= watch_limit) return GT_OK;
	char when[64];
	snprintf(when, sizeof when, "by the end of its %s", stage);
	return peak_error(def->budget_mb, peak, when, false, err);
}

gtStatus gt_ehl_check_peak(const gtEhlDef* def, int64_t base, gtStatus st, gtEhl** out, gtError* err)
{
	double peak = (double)(gt_alloc_watch_end() - base);
	watch_limit = 0;
	if (st) return st;
	(*out)->stats.peak_bytes = (int64_t)peak;
	if (!(def->budget_mb > 0) || def->allow_high_peak || peak <= 2 * def->budget_mb * 1e6) return GT_OK;
	gtEhl_Destroy(*out);
	*out = NULL;
	return peak_error(def->budget_mb, peak, "at its peak", true, err);
}
