// Per cell, the free squares that must see a vertex whole for it to be FULL (ehl_cells.h).
#include <string.h>

#include "ehl/ehl_cells.h"

void gt_ehl_edge_free(const gtMap* m, const gtEhl* e, uint32_t* edge_free)
{
	memset(edge_free, 0, (size_t)e->cell_count * sizeof *edge_free);
	for (int y = 0; y < m->height; y++)
		for (int x = 0; x < m->width; x++) {
			if (gt_blocked(m, x, y)) continue;
			if ((x + 1) % e->g && (y + 1) % e->g) { // not on its cell's last row or column: its own cell only
				edge_free[(int64_t)(y / e->g) * e->columns + x / e->g]++;
				continue;
			}
			int64_t cells[4];
			int k = gt_ehl_cells_needing(m, e, x, y, cells);
			for (int i = 0; i < k; i++) edge_free[cells[i]]++;
		}
}

// Cell (ci, cj)'s count: its own free squares, and the free squares left of and above it that
// need it (gt_ehl_cells_needing names it for them).
static uint32_t count_cell(const gtMap* m, const gtEhl* e, int ci, int cj)
{
	int g = e->g, x0 = ci * g, y0 = cj * g;
	int64_t cell = (int64_t)cj * e->columns + ci;
	uint32_t count = 0;
	for (int y = y0 - 1; y < y0 + g && y < m->height; y++)
		for (int x = x0 - 1; x < x0 + g && x < m->width; x++) {
			if (x < 0 || y < 0 || gt_blocked(m, x, y)) continue;
			if (x >= x0 && y >= y0) {
				count++;
				continue;
			}
			int64_t cells[4];
			int k = gt_ehl_cells_needing(m, e, x, y, cells);
			for (int i = 0; i < k; i++) count += cells[i] == cell;
		}
	return count;
}

void gt_ehl_edge_free_after(const gtMap* m, const gtEhl* e, const uint32_t* old, const int* rects, int rect_count,
                            uint32_t* edge_free)
{
	memcpy(edge_free, old, (size_t)e->cell_count * sizeof *edge_free);
	int g = e->g;
	for (int r = 0; r < rect_count; r++) {
		const int* q = rects + 4 * r;
		// A square (x, y) is read by its own cell and by the cells right of and below it (x + 1, y + 1).
		int c0 = q[0] / g, c1 = (q[2] + 1) / g, r0 = q[1] / g, r1 = (q[3] + 1) / g;
		c0 = c0 < 0 ? 0 : c0, r0 = r0 < 0 ? 0 : r0;
		c1 = c1 >= e->columns ? e->columns - 1 : c1, r1 = r1 >= e->rows ? e->rows - 1 : r1;
		for (int cj = r0; cj <= r1; cj++)
			for (int ci = c0; ci <= c1; ci++) edge_free[(int64_t)cj * e->columns + ci] = count_cell(m, e, ci, cj);
	}
}
