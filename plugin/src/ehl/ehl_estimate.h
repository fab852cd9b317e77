// Index size estimates without a full build, and the cell size a memory budget allows. Internal.
#ifndef GRIDTREE_EHL_ESTIMATE_H
#define GRIDTREE_EHL_ESTIMATE_H

#include "ehl/hub_labels.h"

// Candidate sizes of a budget: powers of two up to the map's larger side.
#define GT_EHL_BUDGET_SIZES 13

// Fills sizes[0..count) and *chosen, the first size whose estimated index fits `budget_mb`;
// GT_ERR_LIMIT (naming the need) when none does.
gtStatus gt_ehl_budget_sizes(const gtMap* map, const gtHubLabels* labels, double budget_mb,
                             int sizes[GT_EHL_BUDGET_SIZES], int* count, int* chosen, gtError* err);

#endif
