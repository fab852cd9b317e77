/// @file gt_random.h
/// A small seeded random number generator (splitmix64): the same sequence on every platform, so a
/// seed reproduces generated maps, workloads and demo runs byte for byte. Header-only.
///
/// Contents
///     Random numbers  gtRandom_Next, gtRandom_Below, gtRandom_Unit
#ifndef GRIDTREE_GT_RANDOM_H
#define GRIDTREE_GT_RANDOM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Random numbers

typedef struct gtRandom {
	uint64_t state; ///< any value; the seed
} gtRandom;

/// Next 64 random bits.
static inline uint64_t gtRandom_Next(gtRandom* r)
{
	uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/// Uniform in [0, n) for n >= 1 (0 for n < 1); rejection removes the modulo bias.
static inline int gtRandom_Below(gtRandom* r, int n)
{
	if (n <= 1) return 0;
	uint64_t limit = UINT64_MAX - UINT64_MAX % (uint64_t)n;
	uint64_t v;
	do v = gtRandom_Next(r);
	while (v >= limit);
	return (int)(v % (uint64_t)n);
}

/// Uniform in [0, 1) with 53 random bits.
static inline double gtRandom_Unit(gtRandom* r)
{
	return (double)(gtRandom_Next(r) >> 11) / 9007199254740992.0;
}

#ifdef __cplusplus
}
#endif

#endif
