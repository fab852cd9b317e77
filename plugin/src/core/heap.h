// Binary min-heap of (key, id) with lazy deletion; storage is owned by the caller.
#ifndef GRIDTREE_HEAP_H
#define GRIDTREE_HEAP_H

#include <stdint.h>

typedef struct gtHeapItem {
	double key;
	int32_t id;
} gtHeapItem;

typedef struct gtHeap {
	gtHeapItem* items;
	int size, capacity;
} gtHeap;

// Caller guarantees size < capacity (capacities are sized from the graph up front).
static inline void gt_heap_push(gtHeap* h, double key, int32_t id)
{
	int i = h->size++;
	while (i > 0) {
		int parent = (i - 1) / 2;
		if (h->items[parent].key <= key) break;
		h->items[i] = h->items[parent];
		i = parent;
	}
	h->items[i].key = key;
	h->items[i].id = id;
}

// Moves `last` down from the root of items[0..n) to where it belongs.
// Puts `last` at index `i` of a heap of n items whose subtrees below i are heaps, sifting it down.
static inline void gt_heap_sift_down_from(gtHeapItem* items, int n, int i, gtHeapItem last)
{
	for (;;) {
		int child = 2 * i + 1;
		if (child >= n) break;
		if (child + 1 < n && items[child + 1].key < items[child].key) child++;
		if (last.key <= items[child].key) break;
		items[i] = items[child];
		i = child;
	}
	items[i] = last;
}

static inline void gt_heap_sift_down(gtHeapItem* items, int n, gtHeapItem last)
{
	gt_heap_sift_down_from(items, n, 0, last);
}

static inline gtHeapItem gt_heap_pop(gtHeap* h)
{
	gtHeapItem top = h->items[0];
	gtHeapItem last = h->items[--h->size];
	if (h->size > 0) gt_heap_sift_down(h->items, h->size, last);
	return top;
}

// Pops the top and pushes (key, id) in one pass: the caller guarantees size > 0.
static inline gtHeapItem gt_heap_replace_top(gtHeap* h, double key, int32_t id)
{
	gtHeapItem top = h->items[0];
	gt_heap_sift_down(h->items, h->size, (gtHeapItem){key, id});
	return top;
}

#endif
