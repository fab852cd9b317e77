// Checks of an EHL definition and of a map's size against it, before any graph is built.
#include <math.h>

#include "ehl/ehl_repair.h"
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
