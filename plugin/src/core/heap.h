// Binary min-heap of (key, id) with lazy deletion; storage is owned by the caller.
#ifndef GRIDTREE_HEAP_H
#define GRIDTREE_HEAP_H

#include <stdbool.h>
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

// A total order: (key, id). Popped in it, equal keys leave the heap by id, whatever the order they
// came in: a search whose ties matter (the hub labels' parents, which a repair redoes in part) then
// depends on the items pushed, not on the heap's history.
static inline bool gt_heap_before(gtHeapItem a, gtHeapItem b)
{
	return a.key < b.key || (a.key == b.key && a.id < b.id);
}

static inline void gt_heap_push_ordered(gtHeap* h, double key, int32_t id)
{
	gtHeapItem item = {key, id};
	int i = h->size++;
	while (i > 0) {
		int parent = (i - 1) / 2;
		if (!gt_heap_before(item, h->items[parent])) break;
		h->items[i] = h->items[parent];
		i = parent;
	}
	h->items[i] = item;
}

static inline gtHeapItem gt_heap_pop_ordered(gtHeap* h)
{
	gtHeapItem top = h->items[0];
	gtHeapItem last = h->items[--h->size];
	int n = h->size, i = 0;
	if (n == 0) return top;
	for (;;) {
		int child = 2 * i + 1;
		if (child >= n) break;
		if (child + 1 < n && gt_heap_before(h->items[child + 1], h->items[child])) child++;
		if (!gt_heap_before(h->items[child], last)) break;
		h->items[i] = h->items[child];
		i = child;
	}
	h->items[i] = last;
	return top;
}

#endif
