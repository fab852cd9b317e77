// The clearance grid of world_clearance.h: a chessboard distance transform of the blocked cells.
#include "world/world_clearance.h"

#include "core/alloc.h"
#include "map/map_internal.h"

bool gt_clearance_build(gtClearance* c, const gtMap* map)
{
	*c = (gtClearance){0};
	int w = gtMap_Width(map), h = gtMap_Height(map);
	if (w <= 0 || h <= 0 || (int64_t)w * h > GT_CLEARANCE_MAX_CELLS) return false;
	uint8_t* r = gt_malloc((size_t)w * (size_t)h);
	if (!r) return false;
	// D = chessboard distance (in cells) to the nearest blocked cell, the map's border included
	// (outside cells count as blocked, D 0): two passes of the 8-neighbour chamfer with unit steps
	// give it exactly. Kept as D - 1 (the square of side 2D - 1 around the cell is free), capped.
	enum { CAP = 255 };
#define AT(x, y) ((x) < 0 || (y) < 0 || (x) >= w || (y) >= h ? 0 : r[(int64_t)(y)*w + (x)])
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int d = 0;
			if (!gt_blocked(map, x, y)) {
				d = AT(x - 1, y);
				if (AT(x - 1, y - 1) < d) d = AT(x - 1, y - 1);
				if (AT(x, y - 1) < d) d = AT(x, y - 1);
				if (AT(x + 1, y - 1) < d) d = AT(x + 1, y - 1);
				d = d + 1 < CAP ? d + 1 : CAP;
			}
			r[(int64_t)y * w + x] = (uint8_t)d;
		}
	for (int y = h - 1; y >= 0; y--)
		for (int x = w - 1; x >= 0; x--) {
			int d = r[(int64_t)y * w + x];
			if (d == 0) continue;
			int n = AT(x + 1, y);
			if (AT(x + 1, y + 1) < n) n = AT(x + 1, y + 1);
			if (AT(x, y + 1) < n) n = AT(x, y + 1);
			if (AT(x - 1, y + 1) < n) n = AT(x - 1, y + 1);
			if (n + 1 < d) r[(int64_t)y * w + x] = (uint8_t)(n + 1);
		}
#undef AT
	// Stored as D - 1 only now: the passes above need D itself (0 only on blocked cells).
	for (int64_t i = 0; i < (int64_t)w * h; i++) r[i] = r[i] ? (uint8_t)(r[i] - 1) : 0;
	*c = (gtClearance){r, w, h, w, h, gtMap_Fingerprint(map)};
	return true;
}

void gt_clearance_free(gtClearance* c)
{
	gt_free(c->r);
	*c = (gtClearance){0};
}
