// The Grid Tree's competitors over a world (what knn --method and bench-peers run).
// IER, incremental Euclidean restriction (docs/algorithms.md 7.1): the competitor that prices
// objects in straight-line order, drawn from an IR-tree, with a walking distance until the next
// straight line is no shorter than the k-th walking distance found. Exact with any walking
// distance (a path is never shorter than the straight line).
#ifndef GRIDTREE_TOOLS_IER_H
#define GRIDTREE_TOOLS_IER_H

#include "gridtree/gridtree.h"
#include "gridtree/gt_research.h" // the OkNN searches it sets the Grid Tree against
#include "irtree.h"

typedef struct IerScratch {
	gtObjectId* candidates;
	double* euclid;
	int capacity;
} IerScratch;

// The k (at most `capacity`) objects with every one of `words` nearest to q by `distance`, from
// the IR-tree's objects, nearest first, ties by ascending id (the tree's ids).
void ier_nearest(IrTree* tree, gtVec2 q, const int32_t* words, int word_count, int k, gtDistance distance,
                 gtObjectId* ids, double* distances, int capacity, int* count);
void ier_scratch_free(IerScratch* scratch);

// Brute force: every object that passes the query's filters priced with `distance`, the k
// smallest kept. The scratch holds the candidates.
gtStatus brute_nearest(gtWorld* world, const gtQuery* query, gtDistance distance, IerScratch* scratch, gtObjectId* ids,
                       double* distances, int capacity, int* count, gtError* err);

// Keeps the k smallest distances sorted in distances[0 .. *count), with their ids, ties by
// ascending id (the library's rule): (id, d) goes in when there is room or it comes before the last.
void keep_smallest(gtObjectId* ids, double* distances, int* count, int k, gtObjectId id, double d);

// Whether world object `id` has every one of `words` (the boolean kNN filter, for the mesh searches).
bool has_all_keywords(const gtWorld* world, gtObjectId id, const int32_t* words, int word_count);

// The OkNN paper's target heuristic for gtPolyanya_NearestGuided: the least walk through a node's
// interval to a wanted object not yet returned, found best first in the IR-tree (whose ids must
// be the mesh objects' ids).
typedef struct TargetGuide {
	IrTree* tree;
	const int32_t* words;
	int word_count;
	// the node being priced
	const gtPolyanya* search;
	gtVec2 root, right, left;
	double to_interval; // the root's distance to the interval, a bound for every object
} TargetGuide;

double target_guide(void* guide, const gtPolyanya* search, gtVec2 root, gtVec2 right, gtVec2 left, int32_t edge);

#endif
