// The open-radius grid: per cell, how big a free square of cells is centred on it. The visibility
// walks jump across such a square in one step instead of one cell at a time (geometry.c).
#include <string.h>

#include "map/map_internal.h"

// Chessboard distance transform of the padded window [wx0, wx1] x [wy0, wy1] (padded cell
// coordinates: the map's cell (x, y) is (x + 1, y + 1); the border ring is blocked) into `out`
// (row length wx1 - wx0 + 1): 0 on blocked cells, else the distance to the nearest blocked cell of
// the window, capped at GT_OPEN_CAP. Cells outside the window count as far away, which is exact
// for cells at least GT_OPEN_CAP inside the window's sides that are not the padded array's own.
// Two raster passes with the 8-neighbourhood give the exact chessboard distance (Rosenfeld and
// Pfaltz): a chessboard-shortest chain of cells never leaves the box of its two ends.
static void chessboard_transform(const gtMap* m, unsigned char* out, int wx0, int wy0, int wx1, int wy1)
{
	const int w = wx1 - wx0 + 1, h = wy1 - wy0 + 1;
	const unsigned char far = GT_OPEN_CAP;
	for (int y = 0; y < h; y++) {
		const unsigned char* cells = m->blocked + (size_t)(wy0 + y) * (size_t)m->stride + wx0;
		unsigned char* row = out + (size_t)y * (size_t)w;
		const unsigned char* up = y > 0 ? row - w : NULL;
		for (int x = 0; x < w; x++) {
			if (cells[x]) {
				row[x] = 0;
				continue;
			}
			unsigned d = far;
			if (x > 0 && row[x - 1] < d) d = row[x - 1];
			if (up) {
				if (up[x] < d) d = up[x];
				if (x > 0 && up[x - 1] < d) d = up[x - 1];
				if (x + 1 < w && up[x + 1] < d) d = up[x + 1];
			}
			row[x] = (unsigned char)(d + 1 < far ? d + 1 : far);
		}
	}
	for (int y = h - 1; y >= 0; y--) {
		unsigned char* row = out + (size_t)y * (size_t)w;
		const unsigned char* down = y + 1 < h ? row + w : NULL;
		for (int x = w - 1; x >= 0; x--) {
			unsigned d = row[x];
			if (d == 0) continue;
			if (x + 1 < w && row[x + 1] + 1u < d) d = row[x + 1] + 1u;
			if (down) {
				if (down[x] + 1u < d) d = down[x] + 1u;
				if (x + 1 < w && down[x + 1] + 1u < d) d = down[x + 1] + 1u;
				if (x > 0 && down[x - 1] + 1u < d) d = down[x - 1] + 1u;
			}
			row[x] = (unsigned char)d;
		}
	}
}

void gt_open_radius_all(gtMap* m)
{
	chessboard_transform(m, m->open, 0, 0, m->width + 1, m->height + 1);
}

// The cells an edit of [x0, x1] x [y0, y1] may change, and the window their values need, in padded
// coordinates: cells within chessboard distance GT_OPEN_CAP of a changed cell (farther ones are
// capped either way), and blocked cells up to GT_OPEN_CAP beyond those.
typedef struct EditBox {
	int rx0, ry0, rx1, ry1, wx0, wy0, wx1, wy1;
} EditBox;

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static EditBox edit_box(const gtMap* m, int x0, int y0, int x1, int y1)
{
	const int reach = GT_OPEN_CAP;
	EditBox b;
	b.rx0 = clamp(x0 + 1 - reach, 1, m->width), b.ry0 = clamp(y0 + 1 - reach, 1, m->height);
	b.rx1 = clamp(x1 + 1 + reach, 1, m->width), b.ry1 = clamp(y1 + 1 + reach, 1, m->height);
	b.wx0 = clamp(b.rx0 - reach, 0, m->width + 1), b.wy0 = clamp(b.ry0 - reach, 0, m->height + 1);
	b.wx1 = clamp(b.rx1 + reach, 0, m->width + 1), b.wy1 = clamp(b.ry1 + reach, 0, m->height + 1);
	return b;
}

size_t gt_open_radius_scratch(const gtMap* m, int x0, int y0, int x1, int y1)
{
	EditBox b = edit_box(m, x0, y0, x1, y1);
	return (size_t)(b.wx1 - b.wx0 + 1) * (size_t)(b.wy1 - b.wy0 + 1);
}

void gt_open_radius_update(gtMap* m, int x0, int y0, int x1, int y1, unsigned char* scratch)
{
	EditBox b = edit_box(m, x0, y0, x1, y1);
	size_t w = (size_t)(b.wx1 - b.wx0 + 1);
	chessboard_transform(m, scratch, b.wx0, b.wy0, b.wx1, b.wy1);
	for (int y = b.ry0; y <= b.ry1; y++)
		memcpy(m->open + (size_t)y * (size_t)m->stride + b.rx0, scratch + (size_t)(y - b.wy0) * w + (b.rx0 - b.wx0),
		       (size_t)(b.rx1 - b.rx0 + 1));
}

int gtMap_OpenRadius(const gtMap* map, int cx, int cy)
{
	if (!map || cx < 0 || cy < 0 || cx >= map->width || cy >= map->height) return -1;
	return map->open[(size_t)(cy + 1) * (size_t)map->stride + (size_t)(cx + 1)] - 1;
}
