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

static inline gtHeapItem gt_heap_pop(gtHeap* h)
{
	gtHeapItem top = h->items[0];
	gtHeapItem last = h->items[--h->size];
	int i = 0, n = h->size;
	for (;;) {
		int child = 2 * i + 1;
		if (child >= n) break;
		if (child + 1 < n && h->items[child + 1].key < h->items[child].key) child++;
		if (last.key <= h->items[child].key) break;
		h->items[i] = h->items[child];
		i = child;
	}
	if (n > 0) h->items[i] = last;
	return top;
}

#endif
