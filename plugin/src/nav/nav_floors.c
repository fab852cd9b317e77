// Floors side by side in one map (gt_links.h): floor f's cell (x, y) is map cell
// (f * (width + 1) + x, y), with a blocked column between two floors, so only links join floors
// and every query of the map (distances, paths, worlds) spans them with no code of its own.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "nav/nav_links_internal.h"

gtStatus gtMap_FromFloors(int floors, int width, int height, const unsigned char* blocked, gtMap** out, gtError* err)
{
	*out = NULL;
	if (floors < 1 || width < 1 || height < 1 || !blocked)
		return gt_fail(err, GT_ERR_INVALID_ARG, "floors, width and height must be >= 1 and the cells given");
	int64_t side = (int64_t)floors * (width + 1) - 1;
	if (side > GT_MAP_MAX_SIDE || side * height > (int64_t)GT_MAP_MAX_CELLS)
		return gt_fail(err, GT_ERR_LIMIT, "%d floors of %d x %d cells make a map too big", floors, width, height);
	unsigned char* cells = gt_malloc((size_t)(side * height));
	if (!cells) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	memset(cells, 1, (size_t)(side * height)); // the columns between floors stay blocked
	for (int f = 0; f < floors; f++)
		for (int y = 0; y < height; y++)
			for (int x = 0; x < width; x++)
				cells[(int64_t)y * side + (int64_t)f * (width + 1) + x] = blocked[((int64_t)f * height + y) * width + x]
				                                                              ? 1
				                                                              : 0;
	gtStatus st = gtMap_FromCells((int)side, height, cells, out, err);
	gt_free(cells);
	return st;
}

gtStatus gtNav_SetFloors(gtNav* nav, int floors, int width, gtError* err)
{
	const gtMap* map = nav->map;
	if (floors < 1 || width < 1 || (int64_t)floors * (width + 1) - 1 != gtMap_Width(map))
		return gt_fail(err, GT_ERR_INVALID_ARG, "%d floors of width %d need a map %lld cells wide, this one is %d",
		               floors, width, (long long)floors * (width + 1) - 1, gtMap_Width(map));
	for (int f = 1; f < floors; f++)
		for (int y = 0; y < gtMap_Height(map); y++)
			if (!gtMap_IsBlocked(map, f * (width + 1) - 1, y))
				return gt_fail(err, GT_ERR_INVALID_ARG,
				               "cell (%d, %d) between floors %d and %d is free: walks would cross without a link",
				               f * (width + 1) - 1, y, f - 1, f);
	NavLinks* l = nav_links_of(nav);
	if (!l) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	l->floors = floors, l->floor_width = width;
	return GT_OK;
}

int gtNav_FloorCount(const gtNav* nav)
{
	return nav->links && nav->links->floors > 0 ? nav->links->floors : 1;
}

static int floor_stride(const gtNav* nav)
{
	return nav->links && nav->links->floors > 0 ? nav->links->floor_width + 1 : 0;
}

gtVec2 gtNav_FloorPoint(const gtNav* nav, int floor, gtVec2 local)
{
	return (gtVec2){local.x + (double)floor * floor_stride(nav), local.y};
}

int gtNav_PointFloor(const gtNav* nav, gtVec2 point, gtVec2* local)
{
	int stride = floor_stride(nav);
	if (local) *local = point;
	if (stride == 0) return 0;
	double f = floor(point.x / stride);
	if (!(f >= 0 && f < nav->links->floors)) return -1;
	gtVec2 at = {point.x - f * stride, point.y};
	if (at.x > nav->links->floor_width) return -1; // between two floors
	if (local) *local = at;
	return (int)f;
}

gtStatus gtNav_AddFloorLink(gtNav* nav, int floor_a, gtVec2 a, int floor_b, gtVec2 b, double cost, unsigned flags,
                            gtLinkId* id, gtError* err)
{
	int floors = gtNav_FloorCount(nav);
	if (floor_a < 0 || floor_a >= floors || floor_b < 0 || floor_b >= floors) {
		if (id) *id = GT_LINK_NONE;
		return gt_fail(err, GT_ERR_INVALID_ARG, "floors are 0 to %d, got %d and %d", floors - 1, floor_a, floor_b);
	}
	return gtNav_AddLink(nav, gtNav_FloorPoint(nav, floor_a, a), gtNav_FloorPoint(nav, floor_b, b), cost, flags, id,
	                     err);
}

gtStatus gtNav_AddTiledLinks(gtNav* nav, const gtTiled* tiled, gtLinkId* ids, gtError* err)
{
	int floors = gtTiled_FloorCount(tiled), count = gtTiled_LinkCount(tiled);
	gtStatus st = floors > 1 ? gtNav_SetFloors(nav, floors, gtTiled_FloorWidth(tiled), err) : GT_OK;
	gtLinkId* added = ids ? ids : gt_malloc(sizeof *added * (size_t)(count > 0 ? count : 1));
	if (!added) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	int n = 0;
	for (; !st && n < count; n++) {
		const gtTiledLink* l = gtTiled_Link(tiled, n);
		st = gtNav_AddLink(nav, l->a, l->b, l->cost, l->one_way ? GT_LINK_ONE_WAY : 0, &added[n], err);
	}
	if (st) // a level's links go in whole or not at all
		for (int i = 0; i < n - 1; i++) gtNav_RemoveLink(nav, added[i], NULL);
	if (!ids) gt_free(added);
	return st;
}
