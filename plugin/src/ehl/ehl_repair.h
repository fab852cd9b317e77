// EHL builds after map edits (issue 31): the visibility graph kept from one build and repaired
// around the edited cells for the next, instead of built again. Internal.
#ifndef GRIDTREE_EHL_REPAIR_H
#define GRIDTREE_EHL_REPAIR_H

#include "ehl/hub_labels.h"
#include "map/vis_graph.h"

// The cell stage of gtEhl_Build (docs/algorithms.md 5.6-5.8) from hub labels of `map`, which it
// consumes (frees); `start` is when the build began (for its stats). In ehl_build.c.
gtStatus gt_ehl_build_from_labels(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* labels,
                                  int64_t vg_edges, double start, gtEhl** out, gtError* err);

// gtEhl_Build that starts from *graph when it holds the full visibility graph of `map` (offset
// not NULL), else builds it there; either way *graph is the graph of `map` afterwards (the caller
// frees it), also when the cell stage fails.
gtStatus gt_ehl_build_keeping_graph(const gtMap* map, const gtEhlDef* def, gtVisGraph* graph, gtEhl** out,
                                    gtError* err);

#endif
