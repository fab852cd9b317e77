// Per-node keyword counts of the Grid Tree in one flat open-addressing table keyed by
// (node, keyword): no allocation per node, and a missing key means a count of zero. Internal.
#ifndef GRIDTREE_COUNT_TABLE_H
#define GRIDTREE_COUNT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gtCountTable {
	uint64_t* keys; // (node << 32 | keyword) + 1; 0 = empty
	int32_t* counts;
	size_t capacity; // a power of two
	size_t size;
} gtCountTable;

bool gt_counts_init(gtCountTable* t, size_t expected);
void gt_counts_free(gtCountTable* t);
int32_t gt_counts_get(const gtCountTable* t, uint32_t node, int32_t keyword);
// Makes room for `extra` more keys, so that the next adds cannot fail.
bool gt_counts_reserve(gtCountTable* t, size_t extra);
// Adds delta (+1 or -1) and returns the new count; a count that reaches zero is removed. -1 only
// when out of memory.
int32_t gt_counts_add(gtCountTable* t, uint32_t node, int32_t keyword, int32_t delta);

#endif
