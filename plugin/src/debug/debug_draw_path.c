// Debug drawing of a path.
#include "debug/debug_draw_internal.h"

int gtDebugDraw_Path(const gtDebugDraw* draw, const gtVec2* points, int count, gtColor color)
{
	if (!draw || count < 0 || (!points && count > 0)) return -1;
	for (int i = 0; i + 1 < count; i++)
		if (draw->segment) draw->segment(draw->context, points[i], points[i + 1], color);
	if (draw->point)
		for (int i = 0; i < count; i++) draw->point(draw->context, points[i], 3, color);
	return count > 0 ? count - 1 : 0;
}
