// Exact slopes num/den (den > 0) for the two octant sweeps, the visibility graph's (vis_sweep.c)
// and the EHL cells' (ehl_sweep.c): with map sides up to 65,535 every cross product stays below
// 2^35, so comparisons are exact in 64 bits.
#ifndef GRIDTREE_MAP_SLOPE_FRAC_H
#define GRIDTREE_MAP_SLOPE_FRAC_H

#include <stdint.h>

typedef struct Frac {
	int64_t num, den;
} Frac;

static inline int fcmp(Frac a, Frac b)
{
	int64_t l = a.num * b.den, r = b.num * a.den;
	return (l > r) - (l < r);
}

static inline Frac frac(int64_t num, int64_t den)
{
	Frac f = {num, den};
	return f;
}

#endif
