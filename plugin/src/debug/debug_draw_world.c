// Debug drawing of a world's Grid Tree: its nodes and its leaf grid.
#include "debug/debug_draw_internal.h"
#include "world/world_internal.h"
#include "world/world_query.h"

int64_t gtDebugDraw_WorldNodes(const gtDebugDraw* draw, const gtWorld* world, int max_level, bool occupied_only)
{
	if (!draw || !world) return -1;
	int last = max_level < 0 || max_level > world->height ? world->height : max_level;
	int64_t drawn = 0;
	for (int level = 0; level <= last; level++) {
		// Shallow nodes are large and few: opaque; deep ones fade so the picture stays readable.
		gtColor color = gt_debug_alpha(GT_DEBUG_COLOR_TREE_NODE, last > 0 ? 255 - 191 * level / last : 255);
		int64_t side = INT64_C(1) << level;
		for (int64_t iy = 0; iy < side; iy++)
			for (int64_t ix = 0; ix < side; ix++) {
				if (occupied_only && world->object_counts[gt_node(level, ix, iy)] == 0) continue;
				double rect[4];
				cell_rect(world, level, ix, iy, rect);
				gt_debug_rect(draw, rect, false, color);
				drawn++;
			}
	}
	return drawn;
}

int64_t gtDebugDraw_WorldLeafGrid(const gtDebugDraw* draw, const gtWorld* world)
{
	if (!draw || !world) return -1;
	int64_t side = INT64_C(1) << world->height;
	double step_x = world->step_x[world->height], step_y = world->step_y[world->height];
	// Lines at multiples of the leaf size, the same products the queries' node rectangles use.
	for (int64_t i = 0; i <= side; i++)
		gt_debug_segment(draw, (double)i * step_x, 0, (double)i * step_x, world->height_units,
		                 GT_DEBUG_COLOR_LEAF_GRID);
	for (int64_t i = 0; i <= side; i++)
		gt_debug_segment(draw, 0, (double)i * step_y, world->width, (double)i * step_y, GT_DEBUG_COLOR_LEAF_GRID);
	return 2 * (side + 1);
}
