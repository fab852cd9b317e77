// The Grid Tree's competitors over a world (what knn --method and bench-peers run).
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

// Brute force: every object that passes the query's filters priced with `distance`, the k
// smallest kept. The scratch holds the candidates.
gtStatus brute_nearest(gtWorld* world, const gtQuery* query, gtDistance distance, IerScratch* scratch, gtObjectId* ids,
                       double* distances, int capacity, int* count, gtError* err);

// Keeps the k smallest distances sorted in distances[0 .. *count), with their ids: (id, d) goes in
// when there is room or it beats the largest.
void keep_smallest(gtObjectId* ids, double* distances, int* count, int k, gtObjectId id, double d);

#endif
