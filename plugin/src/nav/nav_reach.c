// Reachability (gt_links.h): the walking components of the free space (free cells joined across
// shared edges: a walk never passes between two blocked cells that touch at a corner), and which
// components the enabled links join, as a reach matrix over the components that hold a link end.
// "Can a reach b" is then two look-ups. Remade when the map or the links change.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "nav/nav_backend.h"
#include "nav/nav_links_internal.h"

struct NavReach {
	int width, height;
	int32_t* component; // per cell, -1 for a blocked cell
	int32_t* stack;
	int components;
	int32_t* linked; // per component: its row in `reach`, -1 when no link end is in it
	int rows;
	uint8_t* reach; // rows x rows: whether row j's component can be reached from row i's
	bool made;
	uint32_t map_generation, links_generation;
};

void nav_reach_free(NavReach* r)
{
	if (!r) return;
	gt_free(r->component), gt_free(r->stack), gt_free(r->linked), gt_free(r->reach);
	gt_free(r);
}

static void flood(NavReach* r, const gtMap* map)
{
	int w = r->width, h = r->height;
	for (int64_t i = 0; i < (int64_t)w * h; i++) r->component[i] = -1;
	r->components = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			if (gtMap_IsBlocked(map, x, y) || r->component[(int64_t)y * w + x] >= 0) continue;
			int top = 0, c = r->components++;
			r->stack[top++] = y * w + x;
			r->component[(int64_t)y * w + x] = c;
			while (top > 0) {
				int cell = r->stack[--top], cx = cell % w, cy = cell / w;
				const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
				for (int k = 0; k < 4; k++) {
					int nx = cx + dx[k], ny = cy + dy[k];
					if (nx < 0 || ny < 0 || nx >= w || ny >= h || gtMap_IsBlocked(map, nx, ny)) continue;
					if (r->component[(int64_t)ny * w + nx] >= 0) continue;
					r->component[(int64_t)ny * w + nx] = c;
					r->stack[top++] = ny * w + nx;
				}
			}
		}
}

// The component of a valid point: a free cell whose closed square holds it. At a pinch point (two
// free cells touching at a corner) the point belongs to the free cell on its +x side, as
// gtMap_Visible says.
static int32_t component_of(const NavReach* r, const gtMap* map, gtVec2 p)
{
	int x0 = (int)floor(p.x), y0 = (int)floor(p.y);
	int xs[2] = {x0, x0 - 1}, ys[2] = {y0, y0 - 1};
	for (int i = 0; i < 2; i++)       // +x side first
		for (int j = 0; j < 2; j++) { // then either row
			int x = xs[i], y = ys[j];
			if (x < 0 || y < 0 || x >= r->width || y >= r->height || gtMap_IsBlocked(map, x, y)) continue;
			if (p.x < x || p.x > x + 1 || p.y < y || p.y > y + 1) continue;
			return r->component[(int64_t)y * r->width + x];
		}
	return -1;
}

// The reach matrix: rows are the components holding a link end; row i reaches row j through
// links (a breadth-first search per row over the link edges between rows).
static gtStatus join_by_links(NavReach* r, const gtNav* nav, gtError* err)
{
	int count = nav_links_enabled(nav, NULL);
	gtLinkEdge* edges = gt_malloc(((size_t)count + 1) * sizeof *edges);
	int32_t* from = gt_malloc((2 * (size_t)count + 1) * sizeof *from);
	int32_t* to = gt_malloc((2 * (size_t)count + 1) * sizeof *to);
	int32_t* queue = gt_malloc((2 * (size_t)count + 1) * sizeof *queue);
	if (!GT_RESIZE(r->linked, r->components + 1) || !edges || !from || !to || !queue) {
		gt_free(edges), gt_free(from), gt_free(to), gt_free(queue);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for reachability");
	}
	nav_links_enabled(nav, edges);
	for (int c = 0; c < r->components; c++) r->linked[c] = -1;
	int ways = 0;
	r->rows = 0;
	for (int k = 0; k < count; k++) {
		int32_t a = component_of(r, nav->map, edges[k].a), b = component_of(r, nav->map, edges[k].b);
		if (a < 0 || b < 0 || a == b) continue; // walled in, or no news
		if (r->linked[a] < 0) r->linked[a] = r->rows++;
		if (r->linked[b] < 0) r->linked[b] = r->rows++;
		from[ways] = r->linked[a], to[ways++] = r->linked[b];
		if (!edges[k].one_way) from[ways] = r->linked[b], to[ways++] = r->linked[a];
	}
	gt_free(edges);
	bool ok = GT_RESIZE(r->reach, (int64_t)r->rows * r->rows + 1);
	for (int i = 0; ok && i < r->rows; i++) {
		uint8_t* row = r->reach + (size_t)i * r->rows;
		memset(row, 0, (size_t)r->rows);
		int head = 0, tail = 0;
		row[i] = 1;
		queue[tail++] = i;
		while (head < tail) {
			int u = queue[head++];
			for (int e = 0; e < ways; e++)
				if (from[e] == u && !row[to[e]]) row[to[e]] = 1, queue[tail++] = to[e];
		}
	}
	gt_free(from), gt_free(to), gt_free(queue);
	return ok ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for reachability");
}

static gtStatus reach_ready(gtNavQuery* q, NavReach** out, gtError* err)
{
	NavReach** slot = nav_links_reach_slot(q, err);
	if (!slot) return GT_ERR_NOMEM;
	const gtNav* nav = q->nav;
	uint32_t links_generation = nav->links ? nav->links->generation : 0;
	NavReach* r = *slot;
	if (r && r->made && r->map_generation == nav->map_generation && r->links_generation == links_generation) {
		*out = r;
		return GT_OK;
	}
	if (!r && !(r = *slot = gt_calloc(1, sizeof *r))) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	r->made = false;
	r->width = gtMap_Width(nav->map), r->height = gtMap_Height(nav->map);
	int64_t cells = (int64_t)r->width * r->height;
	if (!GT_RESIZE(r->component, cells + 1) || !GT_RESIZE(r->stack, cells + 1))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for reachability");
	flood(r, nav->map);
	gtStatus st = join_by_links(r, nav, err);
	if (st) return st;
	r->made = true;
	r->map_generation = nav->map_generation, r->links_generation = links_generation;
	*out = r;
	return GT_OK;
}

gtStatus nav_reach_made(gtNavQuery* q, const NavReach** out, gtError* err)
{
	NavReach* r = NULL;
	gtStatus st = reach_ready(q, &r, err);
	*out = r;
	return st;
}

int32_t nav_reach_part(const NavReach* r, gtVec2 p) // blocked cells have no component
{
	if (!(p.x >= 0 && p.y >= 0 && p.x <= r->width && p.y <= r->height)) return -1;
	int x0 = (int)p.x, y0 = (int)p.y;
	// The cells whose closed squares hold p: (x0, y0), and the cells before it on a grid line.
	int x_first = p.x == x0 ? x0 - 1 : x0, y_first = p.y == y0 ? y0 - 1 : y0;
	int32_t part = -1;
	for (int y = y_first; y <= y0; y++)
		for (int x = x_first; x <= x0; x++) {
			if (x < 0 || y < 0 || x >= r->width || y >= r->height) continue;
			int32_t c = r->component[(int64_t)y * r->width + x];
			if (c < 0) continue;
			if (part >= 0 && c != part) return -1; // a pinch point between two components
			part = c;
		}
	return part;
}

int32_t nav_reach_parts(const NavReach* r)
{
	return r->components;
}

static bool components_reach(const NavReach* r, int32_t a, int32_t b)
{
	if (a < 0 || b < 0) return false;
	if (a == b) return true;
	int32_t i = r->linked[a], j = r->linked[b];
	return i >= 0 && j >= 0 && r->reach[(size_t)i * r->rows + j];
}

gtStatus gtNavQuery_Reachable(gtNavQuery* query, gtVec2 a, gtVec2 b, bool* reachable, gtError* err)
{
	*reachable = false;
	gtStatus st = nav_check_points(query->nav->map, a, b, err);
	NavReach* r;
	if (!st) st = reach_ready(query, &r, err);
	if (!st) *reachable = components_reach(r, component_of(r, query->nav->map, a), component_of(r, query->nav->map, b));
	return st;
}

// The point of the cell (x, y) closest to p, a hair inside the cell so that it belongs to it.
static gtVec2 closest_in_cell(int x, int y, gtVec2 p)
{
	const double hair = 1e-9;
	gtVec2 c = {p.x < x + hair       ? x + hair
	            : p.x > x + 1 - hair ? x + 1 - hair
	                                 : p.x,
	            p.y < y + hair       ? y + hair
	            : p.y > y + 1 - hair ? y + 1 - hair
	                                 : p.y};
	return c;
}

gtStatus gtNavQuery_NearestReachable(gtNavQuery* query, gtVec2 from, gtVec2 to, gtVec2* point, gtVec2* points,
                                     gtLinkId* links, int capacity, int* count, double* distance, gtError* err)
{
	const gtMap* map = query->nav->map;
	*point = from;
	if (count) *count = 0;
	if (distance) *distance = INFINITY;
	if (!(isfinite(to.x) && isfinite(to.y)))
		return gt_fail(err, GT_ERR_INVALID_POINT, "target (%g, %g): not a finite point", to.x, to.y);
	gtStatus st = nav_check_points(map, from, from, err);
	NavReach* r;
	if (!st) st = reach_ready(query, &r, err);
	if (st) return st;
	int32_t start = component_of(r, map, from);
	bool valid = gtMap_CheckPoint(map, to) == GT_POINT_VALID;
	if (valid && components_reach(r, start, component_of(r, map, to))) {
		*point = to;
	} else { // every reachable cell, for the one whose square comes closest to `to`
		double best = INFINITY;
		for (int y = 0; y < r->height; y++)
			for (int x = 0; x < r->width; x++) {
				if (!components_reach(r, start, r->component[(int64_t)y * r->width + x])) continue;
				gtVec2 c = closest_in_cell(x, y, to);
				double d = (c.x - to.x) * (c.x - to.x) + (c.y - to.y) * (c.y - to.y);
				if (d < best) best = d, *point = c;
			}
	}
	if (!points && capacity == 0) {
		if (distance) return gtNavQuery_Distance(query, from, *point, distance, err);
		return GT_OK;
	}
	int n = 0;
	double d;
	st = gtNavQuery_PathLinks(query, from, *point, points, links, capacity, &n, &d, err);
	if (count) *count = n;
	if (distance) *distance = d;
	return st;
}
