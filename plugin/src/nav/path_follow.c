// Walking along a path: what every game agent does each frame with the points gtNavQuery_Path returns.
#include <math.h>

#include "gridtree/gt_nav.h"

gtVec2 gtPath_Advance(const gtVec2* points, int count, int* segment, gtVec2 at, double step)
{
	if (count <= 0 || !points) return at;
	if (*segment < 0) *segment = 0;
	if (!(step > 0)) return at; // also NaN: standing still is always safe
	while (*segment + 1 < count) {
		gtVec2 next = points[*segment + 1];
		double dx = next.x - at.x, dy = next.y - at.y, length = sqrt(dx * dx + dy * dy);
		if (step < length) {
			gtVec2 p = {at.x + dx * step / length, at.y + dy * step / length};
			return p;
		}
		step -= length;
		at = next;
		++*segment;
	}
	*segment = count - 1;
	return points[count - 1];
}
