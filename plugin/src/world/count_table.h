// Per-node keyword counts of the Grid Tree in one flat open-addressing table keyed by
// (node, keyword): no allocation per node, and a missing key means a count of zero. Internal.
#ifndef GRIDTREE_COUNT_TABLE_H
#define GRIDTREE_COUNT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// A count that drops to zero keeps its entry (removing it would shift the probe run back on every
// object that leaves a leaf): it reads as a zero count, a new key takes its place when its probe
// passes it, and rebuilds to make room drop it.
typedef struct gtCountTable {
	uint64_t* keys; // (node << 32 | keyword) + 1; 0 = empty
	int32_t* counts;
	size_t capacity; // a power of two
	size_t size;     // entries in use, zero counts included (at most half the capacity)
	size_t live;     // entries with a non-zero count
} gtCountTable;

bool gt_counts_init(gtCountTable* t, size_t expected);
void gt_counts_free(gtCountTable* t);
// Makes room for `extra` more keys, so that the next adds cannot fail.
bool gt_counts_reserve(gtCountTable* t, size_t extra);

static inline uint64_t gt_count_key(uint32_t node, int32_t keyword)
{
	return (((uint64_t)node << 32) | (uint32_t)keyword) + 1;
}

static inline size_t gt_count_home(uint64_t key, size_t capacity)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (capacity - 1);
}

static inline int32_t gt_counts_get(const gtCountTable* t, uint32_t node, int32_t keyword)
{
	uint64_t key = gt_count_key(node, keyword);
	for (size_t i = gt_count_home(key, t->capacity);; i = (i + 1) & (t->capacity - 1)) {
		if (t->keys[i] == key) return t->counts[i];
		if (t->keys[i] == 0) return 0;
	}
}

// Adds delta (+1 or -1) and returns the new count. -1 only when out of memory (never after a
// gt_counts_reserve that covers the add).
static inline int32_t gt_counts_add(gtCountTable* t, uint32_t node, int32_t keyword, int32_t delta)
{
	if ((t->size + 1) * 2 > t->capacity && !gt_counts_reserve(t, 1)) return -1;
	uint64_t key = gt_count_key(node, keyword);
	size_t mask = t->capacity - 1, i = gt_count_home(key, t->capacity), spare = SIZE_MAX;
	for (; t->keys[i] && t->keys[i] != key; i = (i + 1) & mask)
		if (spare == SIZE_MAX && t->counts[i] == 0) spare = i;
	if (!t->keys[i]) { // absent: only an increment can create it, in the first zero entry passed if any
		if (spare != SIZE_MAX) i = spare; // a zero count reads like a missing key: its key can go
		else t->size++;
		t->keys[i] = key;
		t->counts[i] = delta;
		t->live++;
		return delta;
	}
	int32_t before = t->counts[i], after = before + delta;
	t->counts[i] = after;
	t->live += (before == 0) - (after == 0);
	return after;
}

#endif
