// The free runs the visibility walk reads instead of single cells (geometry.c): per cell, how many
// free cells follow from it on towards +x and towards +y, so that a whole row (or column) of the
// cells a segment enters is checked at once.
#include "map/map_internal.h"

#include <string.h>

// Runs towards +x in padded rows [py0, py1] (0 on blocked cells and the border ring), and the
// rows' bits.
static void runs_along_rows(gtMap* m, int py0, int py1)
{
	for (int py = py0; py <= py1; py++) {
		const unsigned char* cells = m->blocked + (size_t)py * (size_t)m->stride;
		unsigned char* run = m->run_x + (size_t)py * (size_t)m->stride;
		uint64_t* bits = m->bits_x + (size_t)py * (size_t)m->words_x;
		memset(bits, 0, (size_t)m->words_x * sizeof *bits);
		unsigned next = 0;
		for (int px = m->stride - 1; px >= 0; px--) {
			next = cells[px] ? 0 : next < GT_RUN_CAP ? next + 1 : GT_RUN_CAP;
			run[px] = (unsigned char)next;
			bits[px >> 6] |= (uint64_t)(cells[px] != 0) << (px & 63);
		}
	}
}

// Runs towards +y in padded columns [px0, px1], and the columns' bits.
static void runs_along_columns(gtMap* m, int px0, int px1)
{
	for (int px = px0; px <= px1; px++) {
		uint64_t* bits = m->bits_y + (size_t)px * (size_t)m->words_y;
		memset(bits, 0, (size_t)m->words_y * sizeof *bits);
		unsigned next = 0;
		for (int py = m->height + 1; py >= 0; py--) {
			size_t i = (size_t)py * (size_t)m->stride + (size_t)px;
			next = m->blocked[i] ? 0 : next < GT_RUN_CAP ? next + 1 : GT_RUN_CAP;
			m->run_y[i] = (unsigned char)next;
			bits[py >> 6] |= (uint64_t)(m->blocked[i] != 0) << (py & 63);
		}
	}
}

void gt_free_runs_all(gtMap* m)
{
	runs_along_rows(m, 0, m->height + 1);
	runs_along_columns(m, 0, m->width + 1);
}

void gt_free_runs_update(gtMap* m, int x0, int y0, int x1, int y1)
{
	// A cell's runs depend on its own row (column) only, from the cell on: the changed rows and
	// columns whole, which costs (y1 - y0 + 1) * width + (x1 - x0 + 1) * height bytes.
	runs_along_rows(m, y0 + 1, y1 + 1);
	runs_along_columns(m, x0 + 1, x1 + 1);
}

int gtMap_FreeRun(const gtMap* map, int cx, int cy, bool along_y)
{
	if (!map || cx < 0 || cy < 0 || cx >= map->width || cy >= map->height) return 0;
	size_t i = (size_t)(cy + 1) * (size_t)map->stride + (size_t)(cx + 1);
	return along_y ? map->run_y[i] : map->run_x[i];
}
