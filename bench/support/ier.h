// IER, incremental Euclidean restriction (docs/algorithms.md 7.1): the competitor that prices
// objects in straight-line order with a walking distance until the next straight line is no
// shorter than the k-th walking distance found. Candidates come from the Grid Tree's query-sphere
// Euclidean search (k, then 2k, ... of them), not from an R-tree. Exact with any walking distance
// (a path is never shorter than the straight line).
#ifndef GRIDTREE_TOOLS_IER_H
#define GRIDTREE_TOOLS_IER_H

#include "gridtree/gridtree.h"

typedef struct IerScratch {
	gtObjectId* candidates;
	double* euclid;
	int capacity;
	gtObjectId* priced; // objects already priced in this query
	int priced_count, priced_capacity;
} IerScratch;

// Same filters and results as gtWorld_Nearest with `distance` (ties in any order); *priced_calls
// (may be NULL) receives how many walking distances were computed.
gtStatus ier_nearest(gtWorld* world, const gtQuery* query, gtDistance distance, IerScratch* scratch, gtObjectId* ids,
                     double* distances, int capacity, int* count, int64_t* priced_calls, gtError* err);
void ier_scratch_free(IerScratch* scratch);

#endif
