// Which cells of a uniform EHL index a free map square makes FULL or not (docs/algorithms.md 5.6),
// and per cell the free squares that must see a vertex whole for the cell to be FULL for it: the
// build's edge_free counts, made whole or, in a repair, only around the edited cells. Internal.
#ifndef GRIDTREE_EHL_CELLS_H
#define GRIDTREE_EHL_CELLS_H

#include <stdbool.h>
#include <stdint.h>

#include "ehl/ehl_layout.h"
#include "map/map_internal.h"

// Whether free square (x, y) beside cell (ci, cj) holds points of the cell that none of the cell's
// free squares holds: it touches one of the cell's blocked squares. (A cell owns its left and top
// edges, so the squares to its left and above can hold its points.)
static inline bool gt_ehl_edge_square_needed(const gtMap* m, int g, int x, int y, int ci, int cj)
{
	// The squares next to (x, y) that lie in the cell and on the map.
	int x0 = x - 1 > ci * g ? x - 1 : ci * g, y0 = y - 1 > cj * g ? y - 1 : cj * g;
	int x1 = x + 1 < ci * g + g - 1 ? x + 1 : ci * g + g - 1, y1 = y + 1 < cj * g + g - 1 ? y + 1 : cj * g + g - 1;
	x1 = x1 < m->width - 1 ? x1 : m->width - 1, y1 = y1 < m->height - 1 ? y1 : m->height - 1;
	for (int sy = y0; sy <= y1; sy++)
		for (int sx = x0; sx <= x1; sx++)
			if (gt_blocked(m, sx, sy)) return true;
	return false;
}

// The cells free square (x, y) must be seen whole from for them to be FULL: its own, and the cells
// to its right and below whose points it holds. Returns how many (at most 4). Inline: the sweep
// asks it for every square it sees whole.
static inline int gt_ehl_cells_needing(const gtMap* m, const gtEhl* e, int x, int y, int64_t out[4])
{
	int g = e->g, ci = x / g, cj = y / g, k = 0;
	int64_t cell = (int64_t)cj * e->columns + ci;
	bool right = (x + 1) % g == 0 && ci + 1 < e->columns, below = (y + 1) % g == 0 && cj + 1 < e->rows;
	out[k++] = cell;
	if (right && gt_ehl_edge_square_needed(m, g, x, y, ci + 1, cj)) out[k++] = cell + 1;
	if (below && gt_ehl_edge_square_needed(m, g, x, y, ci, cj + 1)) out[k++] = cell + e->columns;
	if (right && below && gt_ehl_edge_square_needed(m, g, x, y, ci + 1, cj + 1)) out[k++] = cell + e->columns + 1;
	return k;
}

// Every cell's count of the free squares that need it (gt_ehl_cells_needing) in map m: into
// edge_free (cell_count entries, zeroed here).
void gt_ehl_edge_free(const gtMap* m, const gtEhl* e, uint32_t* edge_free);

// The same counts from `old`, those of the map before the edits (the same grid), where only the
// cells within the edited rectangles `rects` (x0, y0, x1, y1 each, inclusive) are counted again,
// and those a square of them is beside: a cell's count reads its own squares and the column and
// row of squares left of and above it.
void gt_ehl_edge_free_after(const gtMap* m, const gtEhl* e, const uint32_t* old, const int* rects, int rect_count,
                            uint32_t* edge_free);

#endif
