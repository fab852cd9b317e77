// Clearance: the map an axis-aligned square agent of half-width R sees, as point paths.
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "map/map_internal.h"

// One axis of a square dilation: out[i] is blocked when any of in[i - r .. i + r] is, with
// everything beyond [0, n) blocked (the map border). A running count of blocked cells in the
// window makes it O(n) whatever r is.
static void dilate_line(const unsigned char* in, size_t in_step, unsigned char* out, size_t out_step, int n, int r)
{
	// Window [i - r, i + r] holds `count` blocked cells among those inside the map, and `outside`
	// cells beyond its ends.
	int count = 0;
	for (int j = 0; j <= r && j < n; j++) count += in[(size_t)j * in_step] != 0;
	for (int i = 0; i < n; i++) {
		bool outside = i - r < 0 || i + r >= n;
		out[(size_t)i * out_step] = (unsigned char)(outside || count > 0);
		if (i - r >= 0) count -= in[(size_t)(i - r) * in_step] != 0; // leaves as the window slides
		if (i + r + 1 < n) count += in[(size_t)(i + r + 1) * in_step] != 0;
	}
}

gtStatus gtMap_Inflate(const gtMap* map, int clearance, gtMap** out, gtError* err)
{
	*out = NULL;
	if (!map) return gt_fail(err, GT_ERR_INVALID_ARG, "no map to inflate");
	if (clearance < 0 || clearance > GT_MAP_MAX_CLEARANCE)
		return gt_fail(err, GT_ERR_INVALID_ARG, "clearance must be a whole number of cells from 0 to %d, got %d",
		               GT_MAP_MAX_CLEARANCE, clearance);
	int w = map->width, h = map->height;
	size_t cells = (size_t)w * (size_t)h;
	unsigned char* rows = gt_malloc(cells);
	unsigned char* both = gt_malloc(cells);
	if (!rows || !both) {
		gt_free(rows);
		gt_free(both);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory inflating a %dx%d map", w, h);
	}
	// Separable: a Chebyshev ball is a square, so dilate along x, then along y.
	for (int y = 0; y < h; y++)
		dilate_line(map->blocked + (size_t)(y + 1) * (size_t)map->stride + 1, 1, rows + (size_t)y * (size_t)w, 1, w,
		            clearance);
	for (int x = 0; x < w; x++) dilate_line(rows + x, (size_t)w, both + x, (size_t)w, h, clearance);
	gtStatus st = gtMap_FromCells(w, h, both, out, err);
	gt_free(rows);
	gt_free(both);
	return st;
}
