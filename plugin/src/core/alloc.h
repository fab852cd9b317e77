// Every allocation of the library goes through these, so gtSetAllocator sees them all. Internal.
#ifndef GRIDTREE_CORE_ALLOC_H
#define GRIDTREE_CORE_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void* gt_malloc(size_t size);
void* gt_calloc(size_t count, size_t size); // zeroed; NULL when count * size overflows
void* gt_realloc(void* ptr, size_t size);
void gt_free(void* ptr);

// The one growable array: makes *items hold at least `needed` items of `item_size` bytes,
// doubling from `first` (or the current capacity). False (nothing changed) when out of memory.
bool gt_grow(void** items, int64_t* capacity, int64_t needed, size_t item_size, int64_t first);

#endif
