// The EHL backend: exact distances in microseconds from an index (gtNav_BuildIndex,
// gtNav_LoadIndex). After edits that only added walls, its answers are checked against them and
// searched around them; after edits that removed walls, the oracle answers until a rebuild
// (nav_edit.c) replaces the index.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_query.h"
#include "nav/nav_backend.h"
#include "nav/nav_doors.h"
#include "nav/nav_view.h"
#include "oracle/oracle.h"

typedef struct EhlScratch {
	gtEhlQuery* query;
	uint32_t generation; // the ehl_generation it was made for
	gtVec2* path;        // an index path to check against the edits
	int path_capacity;
	int32_t* bends; // the first-bend candidates of both ends of a search (2 x the most hubs a cell has)
	int bends_capacity;
	NavDoorQueries* doors; // the declared doors' indexes (nav_doors.c)
} EhlScratch;

static EhlScratch* scratch_of(const gtNavQuery* q)
{
	return q->scratch[GT_NAV_EHL];
}

static void free_scratch(void* scratch)
{
	EhlScratch* e = scratch;
	if (!e) return;
	gtEhlQuery_Destroy(e->query);
	gt_free(e->path);
	gt_free(e->bends);
	nav_doors_free_queries(e->doors);
	gt_free(e);
}

static bool has_index(const gtNav* nav)
{
	return nav->ehl != NULL;
}

// An index built knowing links answers with them only (nav_links_index.c): without, the oracle does.
static bool knows_links(const gtNav* nav)
{
	return nav->ehl && nav->ehl->link_count > 0;
}

static bool edited(const gtNav* nav)
{
	return nav->added > 0 || nav->freed > 0;
}

// The buffers a check of the index's answers against added walls needs.
static gtStatus ensure_check_buffers(EhlScratch* e, const gtNav* nav, gtError* err)
{
	if (e->path_capacity < gtNav_PathCapacity(nav)) {
		int capacity = gtNav_PathCapacity(nav);
		if (!GT_RESIZE(e->path, capacity)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		e->path_capacity = capacity;
	}
	if (e->bends_capacity < 2 * (e->query->max_hubs + 1)) {
		int capacity = 2 * (e->query->max_hubs + 1);
		if (!GT_RESIZE(e->bends, capacity)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		e->bends_capacity = capacity;
	}
	return GT_OK;
}

static gtStatus bind(gtNavQuery* q, gtError* err)
{
	gtNav* nav = q->nav;
	if (!q->scratch[GT_NAV_EHL] && !(q->scratch[GT_NAV_EHL] = gt_calloc(1, sizeof(EhlScratch))))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	EhlScratch* e = scratch_of(q);
	if (!e->query || e->generation != nav->ehl_generation) {
		gtEhlQuery_Destroy(e->query);
		e->query = NULL;
		gtStatus st = gtEhlQuery_Create(nav->ehl, &e->query, err);
		if (st) return st;
		e->generation = nav->ehl_generation;
	}
	return edited(nav) ? ensure_check_buffers(e, nav, err) : GT_OK;
}

// A segment of the index's path stays a straight walk on the edited map unless it passes near an
// added wall and is blocked there.
static bool segment_clear(const gtNav* nav, gtVec2 a, gtVec2 b)
{
	return !nav_near_added(nav, a, b) || gtMap_Visible(nav->map, a, b);
}

// The tree path from vertex v up to the hub's vertex, segment by segment.
static bool climb_clear(const gtNav* nav, const gtEhl* e, int v, int32_t hub)
{
	int hub_vertex = e->vertex_of[hub];
	for (int steps = 0; v != hub_vertex && steps <= e->n; steps++) {
		int64_t entry = gt_ehl_label_entry(e, v, hub);
		if (entry < 0) return false;
		int p = e->label_parent[entry];
		gtVec2 a = {e->vertices[v].x, e->vertices[v].y}, b = {e->vertices[p].x, e->vertices[p].y};
		if (!segment_clear(nav, a, b)) return false;
		v = p;
	}
	return true;
}

// Whether the index's last answer, s -> via_s -> (tree path) -> hub -> (tree path) -> via_t -> t,
// still walks on the edited map. Each piece lies in the ellipse of its own ends and length (much
// thinner than the ellipse of s and t), and only a piece whose ellipse meets an added wall is
// unpacked and walked.
static bool answer_still_walks(const gtNav* nav, const gtEhlQuery* eq, gtVec2 s, gtVec2 t)
{
	if (eq->last_hub < 0) return segment_clear(nav, s, t);
	const gtEhl* e = eq->ehl;
	const gtVertex* v = e->vertices;
	int hub = e->vertex_of[eq->last_hub];
	gtVec2 a = {v[eq->last_via_s].x, v[eq->last_via_s].y}, h = {v[hub].x, v[hub].y},
	       b = {v[eq->last_via_t].x, v[eq->last_via_t].y};
	double sa = hypot(a.x - s.x, a.y - s.y), bt = hypot(t.x - b.x, t.y - b.y);
	if (nav_ellipse_hits_added(nav, s, a, sa) && !segment_clear(nav, s, a)) return false;
	if (nav_ellipse_hits_added(nav, b, t, bt) && !segment_clear(nav, b, t)) return false;
	if (nav_ellipse_hits_added(nav, a, h, eq->last_from_s - sa) && !climb_clear(nav, e, eq->last_via_s, eq->last_hub))
		return false;
	return !nav_ellipse_hits_added(nav, h, b, eq->last_from_t - bt) ||
	       climb_clear(nav, e, eq->last_via_t, eq->last_hub);
}

// The index's path when it stays clear of the added walls (it is then exact: no path is shorter
// on the edited map); false when it does not, or on failure (*status).
static bool clear_path(gtNavQuery* q, gtVec2 s, gtVec2 t, double limit, gtVec2* points, int capacity, int* count,
                       double* d, gtStatus* status, gtError* err)
{
	EhlScratch* e = scratch_of(q);
	int n;
	*status = gtEhl_Path(e->query, s, t, e->path, e->path_capacity, &n, d, err);
	if (*status) *d = INFINITY;
	if (*status || isinf(*d) || *d >= limit) return true;
	for (int i = 0; i + 1 < n; i++)
		if (!segment_clear(q->nav, e->path[i], e->path[i + 1])) return false;
	*count = n;
	if (n > capacity)
		*status = gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "the path has %d points, the buffer holds %d", n, capacity);
	else if (n > 0) memcpy(points, e->path, (size_t)n * sizeof *points);
	return true;
}

// Whether the index can answer for s and t: always while walls were only added; after walls were
// removed, when both are points of the index's map too.
static bool index_places(const gtNav* nav, gtVec2 s, gtVec2 t)
{
	const gtMap* m = nav_index_map(nav);
	return nav->freed == 0 || (gtMap_CheckPoint(m, s) == GT_POINT_VALID && gtMap_CheckPoint(m, t) == GT_POINT_VALID);
}

// After walls were removed, an index answer d that still walks is exact unless a shorter path
// exists, and every path the index's map did not allow touches a freed cell: none is shorter than
// the ellipse test's bound. Only the exact value below `limit` matters.
static bool freed_cannot_shorten(const gtNav* nav, gtVec2 s, gtVec2 t, double d, double limit)
{
	return nav->freed == 0 || !nav_ellipse_hits_freed(nav, s, t, d < limit ? d : limit);
}

// The exact distance (and path) on the map of the query's view: seeded by the index's first and
// last bends while the view is derived from the index's map, else the plain search.
static double view_distance(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count,
                            gtStatus* status, gtError* err)
{
	double d = INFINITY;
	const gtOracle* oracle = nav_oracle(q);
	gtOracleSearch* searcher = nav_oracle_searcher(q);
	if (nav_view_seeded_by_index(q->nav, nav_oracle_view(q))) { // walls only added: the index knows the bends
		EhlScratch* e = scratch_of(q);
		const gtEhl* index = e->query->ehl;
		int from = gt_ehl_first_bends(index, s, e->bends), to = gt_ehl_first_bends(index, t, e->bends + from);
		*status = gt_oracle_between(oracle, searcher, s, t, e->bends, from, e->bends + from, to, points, capacity,
		                            count, &d, err);
		return d;
	}
	*status = points ? gt_oracle_path_with(oracle, searcher, s, t, points, capacity, count, &d, err)
	                 : gt_oracle_distance_with(oracle, searcher, s, t, &d, err);
	return d;
}

// The path of a closed door's index, whose distance is exact: when several doors are closed, only
// if it walks (another path of that length might not); false: not taken.
static bool door_path(gtNavQuery* q, gtEhlQuery* door, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count,
                      double* d, gtStatus* status, gtError* err)
{
	*status = gtEhl_Path(door, s, t, points, capacity, count, d, err);
	if (*status || !nav_doors_several_closed(q->nav)) return true;
	for (int i = 0; i + 1 < *count; i++)
		if (!segment_clear(q->nav, points[i], points[i + 1])) return false;
	return true;
}

// After edits: the index's answer when its path stays clear of the added walls and no path through
// a freed cell can be shorter, else a search of the edited map's visibility graph (while walls were
// only added, between the first and last bends the index allows: A* with landmarks), else the
// oracle's. `limit`: only the exact value below it matters, and while walls were only added the
// index's is a lower bound, so an answer at or above the limit needs no check.
static double edited_distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double limit, gtVec2* points, int capacity, int* count,
                              gtStatus* status, gtError* err)
{
	gtNav* nav = q->nav;
	EhlScratch* e = scratch_of(q);
	*status = GT_OK;
	double by_doors; // only declared doors closed: their indexes answer
	gtEhlQuery* door = nav_doors_pick(q, &e->doors, s, t, limit, answer_still_walks, &by_doors, status, err);
	if (*status) return INFINITY;
	if (door && !points) return by_doors;
	if (door && door_path(q, door, s, t, points, capacity, count, &by_doors, status, err)) return by_doors;
	if (index_places(nav, s, t)) {
		double d;
		if (points) {
			if (clear_path(q, s, t, limit, points, capacity, count, &d, status, err) &&
			    (*status || freed_cannot_shorten(nav, s, t, d, limit)))
				return d;
		} else { // most answers stay far from the edits: the distance alone shows it
			if ((*status = gtEhlQuery_SetSource(e->query, s, err))) return INFINITY;
			d = isinf(limit) ? gtEhlQuery_DistanceTo(e->query, t) : gtEhlQuery_DistanceBelow(e->query, t, limit);
			if ((isinf(d) || d >= limit || !nav_ellipse_hits_added(nav, s, t, d) ||
			     answer_still_walks(nav, e->query, s, t)) &&
			    freed_cannot_shorten(nav, s, t, d, limit))
				return d; // else blocked or maybe shortened: the search below
		}
	}
	double d = INFINITY;
	if ((*status = nav_oracle_soon(q, err))) return d;
	const NavView* view = nav_oracle_view(q);
	if (!nav_view_is_now(nav,
	                     view)) { // the view for now is being made: the older one answers where no edit since matters
		if (gtMap_CheckPoint(view->map, s) == GT_POINT_VALID && gtMap_CheckPoint(view->map, t) == GT_POINT_VALID) {
			d = view_distance(q, s, t, points, capacity, count, status, err);
			if (!*status && nav_view_holds_for(nav, view, s, t, d < limit ? d : limit)) return d;
		}
		if ((*status = nav_oracle_ready(q, err))) return INFINITY;
	}
	return view_distance(q, s, t, points, capacity, count, status, err);
}

// The map to check query points on. Around cells no edit added walls to (and none freed), the
// index's snapshot says the same as the edited map, and the index reads those cells next anyway:
// checking there saves a query two cache misses.
static bool on_map(const gtMap* map, gtVec2 p)
{
	return p.x >= 0 && p.y >= 0 && p.x <= gtMap_Width(map) && p.y <= gtMap_Height(map); // false for NaN
}

static const gtMap* points_map(const gtNav* nav, gtVec2 s, gtVec2 t)
{
	const gtMap* doors = nav_doors_map(nav); // only closed doors, one index for them: its own map
	if (doors) return doors;
	if (nav->freed == 0 && nav->added_tiles && on_map(nav->map, s) && on_map(nav->map, t) &&
	    !nav_near_added(nav, s, s) && !nav_near_added(nav, t, t))
		return nav_index_map(nav);
	return nav->map;
}

static gtStatus distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double* d, gtError* err)
{
	if (!edited(q->nav)) return gtEhl_Distance(scratch_of(q)->query, s, t, d, err);
	gtStatus st = nav_check_points(points_map(q->nav, s, t), s, t, err);
	if (!st) *d = edited_distance(q, s, t, INFINITY, NULL, 0, NULL, &st, err);
	return st;
}

static gtStatus path(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* d,
                     gtError* err)
{
	if (!edited(q->nav)) return gtEhl_Path(scratch_of(q)->query, s, t, points, capacity, count, d, err);
	gtStatus st = nav_check_points(points_map(q->nav, s, t), s, t, err);
	if (st) return st;
	double length = edited_distance(q, s, t, INFINITY, points, capacity, count, &st, err);
	if (d) *d = length;
	return st;
}

// Every call of one world query shares `from`: EHL computes the source side once
// (gtEhlQuery_SetSource memoises it) and every candidate reuses it.
static double world_fcn(void* context, gtVec2 from, gtVec2 to)
{
	if (gtEhlQuery_SetSource(context, from, NULL)) return INFINITY;
	return gtEhlQuery_DistanceTo(context, to);
}

static double world_below(void* context, gtVec2 from, gtVec2 to, double limit)
{
	if (gtEhlQuery_SetSource(context, from, NULL)) return INFINITY;
	return gtEhlQuery_DistanceBelow(context, to, limit);
}

static double world_hidden_below(void* context, gtVec2 from, gtVec2 to, double limit)
{
	if (gtEhlQuery_SetSource(context, from, NULL)) return INFINITY;
	return gtEhlQuery_DistanceBelowHidden(context, to, limit);
}

// A kNN query's few matching objects are priced by most queries between two moves: the world keeps
// their sides (gtDistance.side_fill), and a pricing reads the target's part per hub from there.
static bool world_side_fill(void* context, gtVec2 to, void* side, bool made)
{
	return gtEhlQuery_FillSide(context, to, side, made);
}

static double world_side_below(void* context, gtVec2 from, gtVec2 to, void* side, double limit, bool hidden)
{
	if (gtEhlQuery_SetSource(context, from, NULL)) return INFINITY;
	return gtEhlQuery_SideBelow(context, to, side, limit, hidden);
}

static double edited_world_below(void* context, gtVec2 from, gtVec2 to, double limit)
{
	gtNavQuery* q = context;
	const gtMap* map = points_map(q->nav, from, to);
	if (gtMap_CheckPoint(map, from) || gtMap_CheckPoint(map, to)) return INFINITY;
	gtStatus st;
	double d = edited_distance(q, from, to, limit, NULL, 0, NULL, &st, NULL);
	return st ? INFINITY : d;
}

static double edited_world_fcn(void* context, gtVec2 from, gtVec2 to)
{
	return edited_world_below(context, from, to, INFINITY);
}

static gtDistance world_distance(gtNavQuery* q)
{
	if (edited(q->nav)) return (gtDistance){.fcn = edited_world_fcn, .context = q, .below = edited_world_below};
	// Without links the index answers two points that see each other with hypot (ehl_query.c).
	// hidden_below serves an index with links too, once the nav gives it a straight_map
	// (nav_links_query.c): a pair the world's squares show hidden has no straight line to try
	// either way (100 teleporters on AR0602SR: ~1,000 instructions a kNN query).
	const gtEhl* e = scratch_of(q)->query->ehl;
	size_t side = gtEhlQuery_SideBytes(scratch_of(q)->query); // 0: an index too big for sides
	return (gtDistance){.fcn = world_fcn,
	                    .context = scratch_of(q)->query,
	                    .below = world_below,
	                    .straight_map = e->link_count ? NULL : gt_ehl_map(e),
	                    .hidden_below = world_hidden_below,
	                    .walk_map = e->link_count ? NULL : gt_ehl_map(e),
	                    .side_bytes = side,
	                    .side_key = e->serial,
	                    .side_context = scratch_of(q)->query,
	                    .side_fill = side ? world_side_fill : NULL,
	                    .side_below = side ? world_side_below : NULL};
}

const NavBackend nav_backend_ehl = {
    .name = "ehl",
    .caps = GT_NAV_CAP_WALLS | GT_NAV_CAP_USES_INDEX | GT_NAV_CAP_NEEDS_INDEX | NAV_CAP_AUTO,
    .needs = "an index",
    .how = "build one (gtNav_BuildIndex, build_index, gridtree ehl-build) or load it (gtNav_LoadIndex, load_index, "
           "--ehl FILE)",
    .ready = has_index,
    .outdated = knows_links,
    .stand_in = GT_NAV_ORACLE,
    .bind = bind,
    .free_scratch = free_scratch,
    .distance = distance,
    .path = path,
    .world_distance = world_distance,
};
