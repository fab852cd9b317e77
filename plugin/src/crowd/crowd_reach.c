// The map's parts for crowds (crowd_reach.h): one flood over the free cells, redone when the map's
// fingerprint says it was edited.
#include <math.h>

#include "core/alloc.h"
#include "crowd/crowd_reach.h"
#include "map/map_internal.h"

void gt_reach_free(gtReach* r)
{
	gt_free(r->part);
	*r = (gtReach){0};
}

// Every free cell reachable from `start` through shared edges gets `label`; `stack` holds room
// for every cell.
static void flood(gtReach* r, const gtMap* m, int32_t start, int32_t label, int32_t* stack)
{
	int size = 0;
	r->part[start] = label;
	stack[size++] = start;
	while (size > 0) {
		int32_t cell = stack[--size];
		int x = cell % r->width, y = cell / r->width;
		const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
		for (int i = 0; i < 4; i++) {
			int nx = x + dx[i], ny = y + dy[i];
			if (gt_blocked(m, nx, ny)) continue; // the border is blocked: no bounds test needed
			int32_t next = ny * r->width + nx;
			if (r->part[next] >= 0) continue;
			r->part[next] = label;
			stack[size++] = next;
		}
	}
}

bool gt_reach_update(gtReach* r, const gtMap* m)
{
	uint64_t fingerprint = gtMap_Fingerprint(m);
	if (r->part && r->map == m && r->fingerprint == fingerprint) return true;
	gt_reach_free(r);
	int64_t cells = (int64_t)m->width * m->height;
	r->part = gt_malloc((size_t)cells * sizeof *r->part);
	int32_t* stack = gt_malloc((size_t)cells * sizeof *stack);
	if (!r->part || !stack) {
		gt_free(stack);
		gt_reach_free(r);
		return false;
	}
	r->map = m;
	r->fingerprint = fingerprint;
	r->width = m->width;
	r->height = m->height;
	for (int64_t i = 0; i < cells; i++) r->part[i] = -1;
	for (int32_t cell = 0; cell < cells; cell++)
		if (r->part[cell] < 0 && !gt_blocked(m, cell % r->width, cell / r->width)) flood(r, m, cell, r->parts++, stack);
	gt_free(stack);
	return true;
}

int32_t gt_reach_part(const gtReach* r, gtVec2 p)
{
	if (!(p.x >= 0 && p.y >= 0 && p.x <= r->width && p.y <= r->height)) return -1;
	int cx = (int)p.x, cy = (int)p.y;
	bool on_x = p.x == cx, on_y = p.y == cy; // on a column line, on a row line
	if (cx == r->width) cx--;
	if (cy == r->height) cy--;
	// The cell below-right first, then the one above (a pinch point's +x side when the cell
	// below-right is blocked), then the ones to the left: every other free cell around a point
	// that is not a pinch shares an edge with these.
	int32_t part = r->part[(int64_t)cy * r->width + cx];
	if (part < 0 && on_y && cy > 0 && p.y < r->height) part = r->part[(int64_t)(cy - 1) * r->width + cx];
	if (part < 0 && on_x && cx > 0 && p.x < r->width) part = r->part[(int64_t)cy * r->width + cx - 1];
	if (part < 0 && on_x && on_y && cx > 0 && cy > 0 && p.x < r->width && p.y < r->height)
		part = r->part[(int64_t)(cy - 1) * r->width + cx - 1];
	return part;
}
