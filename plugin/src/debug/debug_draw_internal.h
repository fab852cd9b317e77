// Helpers shared by the debug-draw files. Internal.
#ifndef GRIDTREE_DEBUG_DRAW_INTERNAL_H
#define GRIDTREE_DEBUG_DRAW_INTERNAL_H

#include "gridtree/gt_debug_draw.h"

// A rectangle x0 y0 x1 y1 as the 4-point polygon the callbacks take.
static inline void gt_debug_rect(const gtDebugDraw* draw, const double r[4], bool filled, gtColor color)
{
	if (!draw->polygon) return;
	gtVec2 p[4] = {{r[0], r[1]}, {r[2], r[1]}, {r[2], r[3]}, {r[0], r[3]}};
	draw->polygon(draw->context, p, 4, filled, color);
}

static inline void gt_debug_segment(const gtDebugDraw* draw, double x0, double y0, double x1, double y1, gtColor color)
{
	if (draw->segment) draw->segment(draw->context, (gtVec2){x0, y0}, (gtVec2){x1, y1}, color);
}

// The colour with its alpha byte replaced.
static inline gtColor gt_debug_alpha(gtColor color, int alpha)
{
	return (color & 0xFFFFFF00u) | (gtColor)(alpha < 0 ? 0 : alpha > 255 ? 255 : alpha);
}

#endif
