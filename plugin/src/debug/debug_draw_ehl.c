// Debug drawing of an EHL index: its cell grid and the via labels of one cell.
#include "debug/debug_draw_internal.h"
#include "ehl/ehl_layout.h"

int64_t gtDebugDraw_EhlCells(const gtDebugDraw* draw, const gtEhl* ehl)
{
	if (!draw || !ehl) return -1;
	int columns, rows;
	gtEhl_GridSize(ehl, &columns, &rows);
	double w = gtMap_Width(ehl->map), h = gtMap_Height(ehl->map), g = ehl->g;
	// The last column and row may overhang the map: their far boundary is the map's edge.
	for (int i = 0; i <= columns; i++) {
		double x = i * g < w ? i * g : w;
		gt_debug_segment(draw, x, 0, x, h, GT_DEBUG_COLOR_EHL_CELL);
	}
	for (int i = 0; i <= rows; i++) {
		double y = i * g < h ? i * g : h;
		gt_debug_segment(draw, 0, y, w, y, GT_DEBUG_COLOR_EHL_CELL);
	}
	return (int64_t)columns + 1 + rows + 1;
}

int64_t gtDebugDraw_EhlCellVias(const gtDebugDraw* draw, const gtEhl* ehl, int64_t cell, gtEhlVia* scratch,
                                int64_t capacity)
{
	if (!draw || !ehl || (!scratch && capacity > 0)) return -1;
	int columns, rows;
	gtEhl_GridSize(ehl, &columns, &rows);
	if (cell < 0 || cell >= (int64_t)columns * rows) return -1;
	int64_t total = gtEhl_CellVias(ehl, cell, scratch, capacity > 0 ? capacity : 0);
	if (total < 0) return -1;
	double g = ehl->g, w = gtMap_Width(ehl->map), h = gtMap_Height(ehl->map);
	double x0 = (double)(cell % columns) * g, y0 = (double)(cell / columns) * g;
	double rect[4] = {x0, y0, x0 + g < w ? x0 + g : w, y0 + g < h ? y0 + g : h};
	gt_debug_rect(draw, rect, false, GT_DEBUG_COLOR_EHL_SELECTED);
	int n;
	const gtVertex* v = gtMap_Vertices(ehl->map, &n);
	double cx = (rect[0] + rect[2]) / 2, cy = (rect[1] + rect[3]) / 2;
	for (int64_t i = 0; i < total && i < capacity; i++) {
		if (scratch[i].vertex < 0 || scratch[i].vertex >= n) continue; // never in a valid index
		const gtVertex* to = &v[scratch[i].vertex];
		gt_debug_segment(draw, cx, cy, to->x, to->y,
		                 scratch[i].full ? GT_DEBUG_COLOR_EHL_VIA_FULL : GT_DEBUG_COLOR_EHL_VIA_PARTIAL);
	}
	return total;
}
