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

// The size a block of gt_malloc's (or gt_realloc's) was last given.
size_t gt_block_size(const void* ptr);

// For a block of gt_malloc's of `size` bytes written whole soon after (a repair's room, an index's
// cell arrays): asks for huge pages (gt_advise_huge_pages), so that it faults in 2 MB at a time. Only
// blocks of 4 MB and more, from the default allocator. Not for sparse blocks, nor as a default: the
// C library may place a large block in its heap, whose range then outlives the block.
void gt_advise_huge_block(void* ptr, size_t size);

// A peak of the bytes held (gtGetByteCount's, all threads) over a span of work: begin returns the
// bytes held now and starts the span (the peak restarts from now unless another span is running,
// whose bytes then count in both); end returns the most held since, and ends the span.
int64_t gt_alloc_watch_begin(void);
int64_t gt_alloc_watch_peak(void); // the most held so far, the span still running
int64_t gt_alloc_watch_end(void);

// The one growable array: makes *items hold at least `needed` items of `item_size` bytes,
// doubling from `first` (or the current capacity). False (nothing changed) when out of memory.
bool gt_grow(void** items, int64_t* capacity, int64_t needed, size_t item_size, int64_t first);

// Resizes *items to exactly `count` items of `item_size` bytes, keeping the first ones: scratch
// sized to the largest request so far. False (*items unchanged) when out of memory or overflowing.
bool gt_resize(void** items, int64_t count, size_t item_size);

// The typed fronts: `array` is a typed pointer (an lvalue), the item size is its item's.
// GT_GROW takes an int64_t capacity. Arguments may be evaluated more than once: pass plain values.
#define GT_GROW(array, capacity, needed, first)                                                                        \
	gt_grow((void**)&(array), &(capacity), (needed), sizeof *(array), (first))
#define GT_RESIZE(array, count) gt_resize((void**)&(array), (int64_t)(count), sizeof *(array))

#endif
