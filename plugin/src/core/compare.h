// qsort comparators shared by the library, and a sort for the short lists of a query. Internal.
#ifndef GRIDTREE_COMPARE_H
#define GRIDTREE_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline int gt_compare_int32(const void* a, const void* b)
{
	int32_t x = *(const int32_t*)a, y = *(const int32_t*)b;
	return (x > y) - (x < y);
}

static inline int gt_compare_int64(const void* a, const void* b)
{
	int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return (x > y) - (x < y);
}

// Ascending. A query's keyword lists are a few words, an EHL cell's corners a few dozen and nearly
// in order already (grouped from the sweep's vertex order): insertion sort, without qsort's calls.
static inline void gt_sort_int32(int32_t* a, size_t n)
{
	if (n > 128) {
		qsort(a, n, sizeof *a, gt_compare_int32);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		int32_t v = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
		a[j] = v;
	}
}

#endif
