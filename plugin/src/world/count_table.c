// Linear probing; counts that reach zero stay until the next rebuild, so updates never move
// entries.
#include <stdlib.h>

#include "core/alloc.h"
#include "world/count_table.h"

bool gt_counts_init(gtCountTable* t, size_t expected)
{
	size_t capacity = 1024;
	while (capacity < expected * 2) capacity *= 2;
	t->keys = gt_calloc(capacity, sizeof *t->keys);
	t->counts = gt_malloc(capacity * sizeof *t->counts);
	t->capacity = capacity;
	t->size = t->live = 0;
	return t->keys && t->counts;
}

void gt_counts_free(gtCountTable* t)
{
	gt_free(t->keys);
	gt_free(t->counts);
	t->keys = NULL;
	t->counts = NULL;
	t->capacity = t->size = t->live = 0;
}

// Copies the non-zero counts into a table of `capacity` entries (the same size or larger).
static bool rebuild(gtCountTable* t, size_t capacity)
{
	gtCountTable fresh = {gt_calloc(capacity, sizeof(uint64_t)), gt_malloc(capacity * sizeof(int32_t)), capacity, 0, 0};
	if (!fresh.keys || !fresh.counts) {
		gt_free(fresh.keys);
		gt_free(fresh.counts);
		return false;
	}
	for (size_t i = 0; i < t->capacity; i++) {
		if (!t->keys[i] || t->counts[i] == 0) continue;
		size_t j = gt_count_home(t->keys[i], capacity);
		while (fresh.keys[j]) j = (j + 1) & (capacity - 1);
		fresh.keys[j] = t->keys[i];
		fresh.counts[j] = t->counts[i];
		fresh.size++;
	}
	fresh.live = fresh.size;
	gt_counts_free(t);
	*t = fresh;
	return true;
}

bool gt_counts_reserve(gtCountTable* t, size_t extra)
{
	if ((t->size + extra) * 2 <= t->capacity) return true;
	// Rebuilt at most a quarter full, so zero counts can pile up to a half before the next one.
	size_t capacity = t->capacity;
	while ((t->live + extra) * 4 > capacity) capacity *= 2;
	return rebuild(t, capacity);
}
