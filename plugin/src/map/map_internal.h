// Map layout shared by the geometry sources. Not part of the public API.
#ifndef GRIDTREE_MAP_INTERNAL_H
#define GRIDTREE_MAP_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "gridtree/gt_map.h"

struct gtMap {
	int width, height;
	int stride;             // width + 2: the grid carries a one-cell blocked border
	unsigned char* blocked; // (width + 2) * (height + 2) bytes, 1 = blocked
	// Same layout: free cells from this one on towards +x (run_x) and +y (run_y), this one counted,
	// capped at GT_RUN_CAP; 0 on a blocked cell. One allocation, run_x first (free_runs.c).
	unsigned char *run_x, *run_y;
	// The cells again, one bit each (1 = blocked, the border's set), by padded rows (bits_x: word
	// px / 64 of row py, bit px % 64) and padded columns (bits_y: the same with x and y swapped):
	// what the world's sight probes read instead of the bytes. Eight times denser, they stay in the
	// caches a query's labels push the bytes out of (perf, bench-peers at 1% without words: 81% of
	// the probes' time waited on the bytes). Kept with the free runs (free_runs.c); one allocation,
	// bits_x first.
	uint64_t *bits_x, *bits_y;
	int words_x, words_y; // words per padded row, per padded column
	int64_t free_cells;
	gtVertex* vertices;
	int vertex_count;
	int pinch_count;
	// 0: not known since the last edit. gtMap_Fingerprint computes it then: a pass over every cell
	// that an edit (on the frame's thread, and on each copy a rebuild opens doors in) need not pay.
	// Atomic: concurrent readers of an unchanging map may both compute it (the same value).
	_Atomic uint64_t fingerprint;
};

// Cells from -1 to width (and height) are addressable thanks to the border.
static inline int gt_blocked(const gtMap* m, int cx, int cy)
{
	return m->blocked[(cy + 1) * m->stride + (cx + 1)];
}

// gt_blocked by the bits (0 or 1).
static inline int gt_blocked_bit(const gtMap* m, int cx, int cy)
{
	unsigned px = (unsigned)(cx + 1);
	return (int)(m->bits_x[(int64_t)(cy + 1) * m->words_x + (px >> 6)] >> (px & 63) & 1);
}

// Whether padded cells [p0, p1] of padded line `line` of bits_x (or bits_y, with its `words`) are
// all free (true when p0 > p1): a word or two where the bytes take a load per cell or run.
static inline bool gt_bits_free(const uint64_t* bits, int words, int64_t line, int64_t p0, int64_t p1)
{
	if (p1 < p0) return true;
	const uint64_t* row = bits + line * words;
	int64_t i0 = p0 >> 6, i1 = p1 >> 6;
	uint64_t from = ~UINT64_C(0) << (p0 & 63), to = ~UINT64_C(0) >> (63 - (p1 & 63));
	if (i0 == i1) return !(row[i0] & from & to);
	if (row[i0] & from) return false;
	for (int64_t i = i0 + 1; i < i1; i++)
		if (row[i]) return false;
	return !(row[i1] & to);
}

// Bit i set when incident cell i of grid point (x, y) is blocked:
// bit 0 = (x-1, y-1), bit 1 = (x, y-1), bit 2 = (x-1, y), bit 3 = (x, y).
static inline int gt_corner_mask(const gtMap* m, int x, int y)
{
	const unsigned char* up = m->blocked + y * m->stride + x; // cell (x-1, y-1)
	const unsigned char* down = up + m->stride;               // cell (x-1, y)
	return up[0] | (up[1] << 1) | (down[0] << 2) | (down[1] << 3);
}

// Asks the cache for the cell under p ahead of gtMap_CheckPoint (batches check many points whose
// cells are far apart in memory); nothing for points off the map or not finite.
static inline void gt_prefetch_cell(const gtMap* m, double x, double y)
{
	if (x >= 0 && y >= 0 && x < m->width && y < m->height)
		__builtin_prefetch(m->blocked + ((int)y + 1) * m->stride + ((int)x + 1));
}

// Map edits (the navigation façade's doors and walls): cells [x0, x1] x [y0, y1] (inside the map,
// x0 <= x1, y0 <= y1) set blocked or free, and everything derived from the cells recomputed. On
// failure (out of memory) the map is as it was.
gtStatus gt_map_set_blocked(gtMap* m, int x0, int y0, int x1, int y1, bool blocked, gtError* err);
// A copy of the map as it is now (a snapshot an index keeps while the original is edited).
gtStatus gt_map_copy(const gtMap* m, gtMap** out, gtError* err);

#define GT_RUN_CAP GT_MAP_FREE_RUN_CAP
// The free runs (and the bits) of the whole map from its cells.
void gt_free_runs_all(gtMap* m);
// The free runs (and the bits) again after cells [x0, x1] x [y0, y1] changed.
void gt_free_runs_update(gtMap* m, int x0, int y0, int x1, int y1);

static inline int gt_is_pinch_mask(int mask)
{
	return mask == 0x9 || mask == 0x6;
}

#endif
