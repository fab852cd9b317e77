// EHL builds after map edits: the visibility graph, a third of a build at g = 4 (docs/edits.md),
// kept and repaired around the edited cells (gt_vis_graph_repair) rather than built again.
#include <string.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_repair.h"

gtStatus gt_ehl_build_keeping_graph(const gtMap* map, const gtEhlDef* def, gtVisGraph* graph, gtEhl** out, gtError* err)
{
	double start = gtNowSeconds();
	*out = NULL;
	if (!(def->budget_mb > 0) && (def->cell_size < 1 || def->cell_size > GT_EHL_MAX_CELL_SIZE))
		return gt_fail(err, GT_ERR_INVALID_ARG, "cell size %d is outside 1..%d", def->cell_size, GT_EHL_MAX_CELL_SIZE);
	if (def->threads < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "threads must be >= 0, got %d", def->threads);
	int vertices;
	gtMap_Vertices(map, &vertices);
	if (vertices > GT_EHL_MAX_VERTICES) // before the graph, which alone would take hours
		return gt_fail(err, GT_ERR_LIMIT, "EHL supports maps with up to %d convex vertices; this one has %d",
		               GT_EHL_MAX_VERTICES, vertices);
	int threads = gt_resolve_threads(def->threads);
	gtStatus st = GT_OK;
	if (!graph->offset) {
		gt_ehl_report(def, "visibility graph", 0);
		st = gt_vis_graph_build(map, def->tasks, threads, false, graph, err);
		if (st) {
			memset(graph, 0, sizeof *graph);
			return st;
		}
	}
	gtHubLabels labels;
	gt_ehl_report(def, "hub labels", 0);
	st = gt_hub_labels_build(map, graph, &labels, err);
	if (st) return st;
	return gt_ehl_build_from_labels(map, def, threads, &labels, graph->offset[graph->n] / 2, start, out, err);
}
