// The roots' order of pruned landmark labeling (hub_labels.c). Internal.
#ifndef GRIDTREE_HUB_ORDER_H
#define GRIDTREE_HUB_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "map/vis_graph.h"

// The next root after a search whose labelled vertices (in pop order) and tree parents are given:
// on the significant path of that tree, else the highest-degree unprocessed vertex (order_key:
// decreasing degree, then index; *by_degree: the next candidate in it). Scratch arrays of n + 1.
int gt_hub_next_root(const gtVisGraph* g, const int32_t* labelled, int nlabelled, const int32_t* parent,
                     int32_t* coverage, int32_t* best_child, int32_t* path, const bool* processed,
                     const int64_t* order_key, int* by_degree);

#endif
