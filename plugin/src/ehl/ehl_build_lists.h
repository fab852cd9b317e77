// The via stage's per-cell lists (ehl_build.c): a candidate via, a hub's kept vias sorted by
// distance, a cell's hubs put in rank order. Internal.
#ifndef GRIDTREE_EHL_BUILD_LISTS_H
#define GRIDTREE_EHL_BUILD_LISTS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

// A via that passed P5 and was under P2's bound when gather met it (24 bytes: the cell stage
// stores tens of millions of them with links). P3 waits for the final P2, which drops about half.
typedef struct Candidate {
	uint32_t vertex_full; // vertex | GT_EHL_TUPLE_FULL
	int32_t next;
	uint32_t entry; // the label entry (its parent for P3, its dist)
	double bound;   // mindist(vertex, cell) + dist
} Candidate;

// One of a cell's tuples as gather takes them: the FULL ones nearest first (by `far`), so that P2's
// bound U comes down before most of their entries are met, then the others.
typedef struct TupleAt {
	double far, mindist; // the farthest and the nearest point of the cell from the vertex
	uint32_t vertex_full;
} TupleAt;

// The tuples `in` into `out` by `far` in steps of `unit` (the cell's side), the FULL ones from 31
// steps on together and the others (far INFINITY) last; within a step in their order. A counting sort:
// any order gives the same lists, and qsort's calls cost more than the candidates they save.
static inline void gt_ehl_order_tuples(const TupleAt* in, TupleAt* out, int64_t count, double unit)
{
	enum { STEPS = 32 };
	int64_t at[STEPS + 2] = {0};
	for (int64_t t = 0; t < count; t++) {
		double step = in[t].far / unit;
		at[(step < STEPS - 1 ? (int)step : in[t].far < INFINITY ? STEPS - 1 : STEPS) + 1]++;
	}
	for (int k = 0; k < STEPS; k++) at[k + 1] += at[k];
	for (int64_t t = 0; t < count; t++) {
		double step = in[t].far / unit;
		out[at[step < STEPS - 1 ? (int)step : in[t].far < INFINITY ? STEPS - 1 : STEPS]++] = in[t];
	}
}

// A kept via while its hub's list is sorted (16 bytes, where the candidate's 24 cost the sort's
// moves a third more).
typedef struct KeptVia {
	double dist;
	uint32_t vertex_full;
} KeptVia;

// Whether via a goes after via b in a hub's list: by distance, and equal distances by tuple, the
// others' before the FULL ones', each by vertex falling (the order gather's chains gave them when it
// took the tuples as grouped: a list's bytes do not depend on the order gather now takes them).
static inline bool gt_ehl_via_after(KeptVia a, KeptVia b)
{
	return a.dist > b.dist || (a.dist == b.dist && (a.vertex_full ^ 0x7fffffffu) > (b.vertex_full ^ 0x7fffffffu));
}

// A hub's kept vias in that order: runs of 16 by insertion (most lists are a few vias, 7 on
// average with 100 links on AR0602SR), then merged through `scratch` (lists of hundreds, where
// qsort's calls cost 3x).
static inline void gt_ehl_sort_by_dist(KeptVia* c, KeptVia* scratch, int count)
{
	enum { RUN = 16 };
	for (int at = 0; at < count; at += RUN)
		for (int i = at + 1; i < count && i < at + RUN; i++) {
			KeptVia x = c[i];
			int j = i;
			for (; j > at && gt_ehl_via_after(c[j - 1], x); j--) c[j] = c[j - 1];
			c[j] = x;
		}
	KeptVia *from = c, *to = scratch;
	for (int width = RUN; width < count; width *= 2) {
		for (int lo = 0; lo < count; lo += 2 * width) {
			int mid = lo + width < count ? lo + width : count, hi = lo + 2 * width < count ? lo + 2 * width : count;
			int i = lo, j = mid, k = lo;
			while (i < mid && j < hi) to[k++] = gt_ehl_via_after(from[i], from[j]) ? from[j++] : from[i++];
			while (i < mid) to[k++] = from[i++];
			while (j < hi) to[k++] = from[j++];
		}
		KeptVia* t = from;
		from = to, to = t;
	}
	if (from != c) memcpy(c, from, (size_t)count * sizeof *c);
}

// The cell's hubs `list` in rank order, the order the index stores them: a bit per hub (`bits`, and
// `words` marking bits' non-zero words) set here, read back word by word (a cell meets ~50-170 of a
// few thousand ranks, where qsort's calls cost ~17k instructions a cell). The bits are clear after.
static inline void gt_ehl_order_hubs(uint64_t* bits_of, uint64_t* words_of, int32_t* list, int hubs)
{
	for (int i = 0; i < hubs; i++) {
		uint32_t h = (uint32_t)list[i];
		bits_of[h >> 6] |= 1ull << (h & 63);
		words_of[h >> 12] |= 1ull << ((h >> 6) & 63);
	}
	int k = 0;
	for (int64_t s = 0; k < hubs; s++) {
		uint64_t words = words_of[s];
		words_of[s] = 0;
		for (; words; words &= words - 1) {
			int64_t word = s * 64 + __builtin_ctzll(words);
			uint64_t bits = bits_of[word];
			bits_of[word] = 0;
			for (; bits; bits &= bits - 1) list[k++] = (int32_t)(word * 64 + __builtin_ctzll(bits));
		}
	}
}

#endif
