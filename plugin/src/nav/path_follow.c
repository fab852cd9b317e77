// Walking along a path: what every game agent does each frame with the points gtNavQuery_Path returns.
#include <math.h>

#include "gridtree/gt_links.h"
#include "nav/path_follow.h"

gtVec2 gt_path_advance_priced(const gtVec2* points, int count, int* segment, gtVec2 at, double step,
                              double (*link_cost)(const void* context, int segment), const void* context)
{
	if (count <= 0 || !points) return at;
	if (*segment < 0) *segment = 0;
	if (!(step > 0)) return at; // also NaN: standing still is always safe
	while (*segment + 1 < count) {
		gtVec2 next = points[*segment + 1];
		double dx = next.x - at.x, dy = next.y - at.y, left = sqrt(dx * dx + dy * dy);
		double whole_cost = link_cost ? link_cost(context, *segment) : NAN;
		if (isnan(whole_cost)) { // walked
			if (step < left) return (gtVec2){at.x + dx * step / left, at.y + dy * step / left};
			step -= left;
		} else { // a link: its cost spread along it, so a teleporter (cost 0) is crossed at once
			gtVec2 from = points[*segment];
			double whole = hypot(next.x - from.x, next.y - from.y);
			double cost = whole > 0 ? whole_cost * left / whole : 0;
			if (step < cost) {
				double f = step / cost;
				return (gtVec2){at.x + dx * f, at.y + dy * f};
			}
			step -= cost;
		}
		at = next;
		++*segment;
	}
	*segment = count - 1;
	return points[count - 1];
}

gtVec2 gtPath_Advance(const gtVec2* points, int count, int* segment, gtVec2 at, double step)
{
	return gt_path_advance_priced(points, count, segment, at, step, NULL, NULL);
}

static double cost_from_array(const void* costs, int segment)
{
	return ((const double*)costs)[segment];
}

gtVec2 gtPath_AdvanceCosts(const gtVec2* points, const double* costs, int count, int* segment, gtVec2 at, double step)
{
	return gt_path_advance_priced(points, count, segment, at, step, costs ? cost_from_array : NULL, costs);
}
