// qsort comparators shared by the library. Internal.
#ifndef GRIDTREE_COMPARE_H
#define GRIDTREE_COMPARE_H

#include <stdint.h>

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

#endif
