// The straight-line backend: distances that ignore walls (hearing, messaging ranges). Query
// points must still be on the map's free space, as with every other backend.
#include <math.h>

#include "core/status.h"
#include "nav/nav_backend.h"

static gtStatus bind(gtNavQuery* q, gtError* err)
{
	(void)q, (void)err;
	return GT_OK;
}

static gtStatus distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double* d, gtError* err)
{
	gtStatus st = nav_check_points(q->nav->map, s, t, err);
	if (!st) *d = hypot(t.x - s.x, t.y - s.y);
	return st;
}

static gtStatus path(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* d,
                     gtError* err)
{
	gtStatus st = nav_check_points(q->nav->map, s, t, err);
	if (st) return st;
	*count = 2;
	if (capacity < 2)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "a path needs 2 points, the buffer holds %d", capacity);
	points[0] = s;
	points[1] = t;
	if (d) *d = hypot(t.x - s.x, t.y - s.y);
	return GT_OK;
}

static gtDistance world_distance(gtNavQuery* q)
{
	(void)q;
	return gtDistance_Euclid();
}

const NavBackend nav_backend_euclid = {
    .name = "euclid",
    .caps = 0,
    .bind = bind,
    .distance = distance,
    .path = path,
    .world_distance = world_distance,
};
