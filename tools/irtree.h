// The IR-tree (docs/algorithms.md 7.1): an R-tree over object points whose every node also counts,
// per keyword, the objects below it, so a keyword query skips whole subtrees. The Grid Tree
// paper's competitor index: IER-EHL and IER-Polyanya draw candidates from it in straight-line
// order, the target heuristic the nearest wanted object. Nodes hold up to 29 entries (the
// authors' 4 KB pages) and split the R*-tree way (axis by least margin, then least overlap, then
// least area); subtrees are chosen by least area enlargement; no forced reinsertion. A move is a
// removal (no condensing, as the authors do) and an insertion.
#ifndef GRIDTREE_TOOLS_IRTREE_H
#define GRIDTREE_TOOLS_IRTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "gridtree/gridtree.h"

typedef struct IrTree IrTree;

// Objects are the caller's ids, 0 .. 100,000,000 (dense is best: storage grows to the largest).
IrTree* irtree_create(void);
void irtree_destroy(IrTree* tree);
// Adds object `id` at p with its keywords (false: out of memory or id taken or out of range).
bool irtree_insert(IrTree* tree, int32_t id, gtVec2 p, const int32_t* words, int word_count);
bool irtree_remove(IrTree* tree, int32_t id);
bool irtree_move(IrTree* tree, int32_t id, gtVec2 p);
int irtree_count(const IrTree* tree);
int64_t irtree_bytes(const IrTree* tree);
gtVec2 irtree_point(const IrTree* tree, int32_t id);

// Objects with every one of `words` (none: all) in order of straight-line distance from q, one per
// irtree_next call (false when there are no more). The tree must not change in between.
void irtree_begin(IrTree* tree, gtVec2 q, const int32_t* words, int word_count);
bool irtree_next(IrTree* tree, int32_t* id, double* distance);

// The least value(context, id, point) over the objects with every one of `words`, searched best
// first: `box_bound` must be a lower bound of `value` for any point in the box [lo, hi] and no
// larger than value for a point's own degenerate box. INFINITY when no object qualifies.
typedef double IrBoxBound(void* context, gtVec2 lo, gtVec2 hi);
typedef double IrValue(void* context, int32_t id, gtVec2 point);
double irtree_least(IrTree* tree, const int32_t* words, int word_count, IrBoxBound* box_bound, IrValue* value,
                    void* context);

#endif
