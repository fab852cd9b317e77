// Debug drawing of a map: convex vertices and the visibility edges of one of them.
#include <stdio.h>

#include "debug/debug_draw_internal.h"

int gtDebugDraw_MapVertices(const gtDebugDraw* draw, const gtMap* map)
{
	if (!draw || !map) return -1;
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	if (draw->point)
		for (int i = 0; i < n; i++) draw->point(draw->context, (gtVec2){v[i].x, v[i].y}, 3, GT_DEBUG_COLOR_VERTEX);
	return n;
}

int gtDebugDraw_VisibilityEdges(const gtDebugDraw* draw, const gtMap* map, int vertex)
{
	if (!draw || !map) return -1;
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	if (vertex < 0 || vertex >= n) return -1;
	gtVec2 from = {v[vertex].x, v[vertex].y};
	int edges = 0;
	for (int i = 0; i < n; i++) { // the map's own exact test, so the picture is the rule
		gtVec2 to = {v[i].x, v[i].y};
		if (i == vertex || !gtMap_Visible(map, from, to)) continue;
		if (draw->segment) draw->segment(draw->context, from, to, GT_DEBUG_COLOR_VISIBILITY);
		edges++;
	}
	if (draw->circle) draw->circle(draw->context, from, 0.5, false, GT_DEBUG_COLOR_VERTEX_SELECTED);
	if (draw->text) {
		char label[48];
		snprintf(label, sizeof label, "V%d: %d", vertex, edges);
		draw->text(draw->context, (gtVec2){from.x + 0.6, from.y + 0.6}, label, GT_DEBUG_COLOR_VERTEX_SELECTED);
	}
	return edges;
}
