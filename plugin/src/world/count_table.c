// Linear probing with backward-shift deletion (no tombstones, so lookups stay short).
#include <stdlib.h>

#include "core/alloc.h"
#include "world/count_table.h"

static uint64_t key_of(uint32_t node, int32_t keyword)
{
	return (((uint64_t)node << 32) | (uint32_t)keyword) + 1;
}

static size_t slot_of(uint64_t key, size_t capacity)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (capacity - 1);
}

bool gt_counts_init(gtCountTable* t, size_t expected)
{
	size_t capacity = 1024;
	while (capacity < expected * 2) capacity *= 2;
	t->keys = gt_calloc(capacity, sizeof *t->keys);
	t->counts = gt_malloc(capacity * sizeof *t->counts);
	t->capacity = capacity;
	t->size = 0;
	return t->keys && t->counts;
}

void gt_counts_free(gtCountTable* t)
{
	gt_free(t->keys);
	gt_free(t->counts);
	t->keys = NULL;
	t->counts = NULL;
	t->capacity = t->size = 0;
}

int32_t gt_counts_get(const gtCountTable* t, uint32_t node, int32_t keyword)
{
	uint64_t key = key_of(node, keyword);
	for (size_t i = slot_of(key, t->capacity);; i = (i + 1) & (t->capacity - 1)) {
		if (t->keys[i] == key) return t->counts[i];
		if (t->keys[i] == 0) return 0;
	}
}

static bool grow(gtCountTable* t)
{
	gtCountTable bigger = {gt_calloc(t->capacity * 2, sizeof(uint64_t)), gt_malloc(t->capacity * 2 * sizeof(int32_t)),
	                       t->capacity * 2, t->size};
	if (!bigger.keys || !bigger.counts) {
		gt_free(bigger.keys);
		gt_free(bigger.counts);
		return false;
	}
	for (size_t i = 0; i < t->capacity; i++) {
		if (!t->keys[i]) continue;
		size_t j = slot_of(t->keys[i], bigger.capacity);
		while (bigger.keys[j]) j = (j + 1) & (bigger.capacity - 1);
		bigger.keys[j] = t->keys[i];
		bigger.counts[j] = t->counts[i];
	}
	gt_counts_free(t);
	*t = bigger;
	return true;
}

int32_t gt_counts_add(gtCountTable* t, uint32_t node, int32_t keyword, int32_t delta)
{
	if ((t->size + 1) * 2 > t->capacity && !grow(t)) return -1;
	uint64_t key = key_of(node, keyword);
	size_t mask = t->capacity - 1, i = slot_of(key, t->capacity);
	while (t->keys[i] && t->keys[i] != key) i = (i + 1) & mask;
	if (!t->keys[i]) { // absent: only an increment can create it
		t->keys[i] = key;
		t->counts[i] = delta;
		t->size++;
		return delta;
	}
	t->counts[i] += delta;
	if (t->counts[i] != 0) return t->counts[i];
	// Remove, then shift later members of the probe run back so no lookup stops early.
	t->keys[i] = 0;
	t->size--;
	for (size_t j = (i + 1) & mask; t->keys[j]; j = (j + 1) & mask) {
		size_t home = slot_of(t->keys[j], t->capacity);
		bool movable = (j > i) ? (home <= i || home > j) : (home <= i && home > j);
		if (!movable) continue;
		t->keys[i] = t->keys[j];
		t->counts[i] = t->counts[j];
		t->keys[j] = 0;
		i = j;
	}
	return 0;
}

bool gt_counts_reserve(gtCountTable* t, size_t extra)
{
	while ((t->size + extra) * 2 > t->capacity)
		if (!grow(t)) return false;
	return true;
}
