// The navigation façade: decides once, for every caller, which backend answers. A new backend
// adds a case here and its own folder; nothing else in the library or its tools changes.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/names.h"
#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_query.h"
#include "gridtree/gt_nav.h"
#include "gridtree/gt_oracle.h"
#include "map/geometry.h"
#include "nav/nav_internal.h"
#include "oracle/oracle.h"

static const char* const METHOD_NAMES[] = {"auto", "ehl", "oracle", "euclid", "polyanya"};

const char* gtNavMethodName(gtNavMethod method)
{
	return gt_name_of(METHOD_NAMES, sizeof METHOD_NAMES / sizeof *METHOD_NAMES, (unsigned)method);
}

gtStatus gtNavMethod_Parse(const char* name, gtNavMethod* method, gtError* err)
{
	int i = gt_name_index(METHOD_NAMES, sizeof METHOD_NAMES / sizeof *METHOD_NAMES, name);
	if (i >= 0) {
		*method = (gtNavMethod)i;
		return GT_OK;
	}
	return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method '%s' (available: auto, ehl, oracle, euclid, polyanya)", name ? name : "(null)");
}

gtNavDef gtNav_DefaultDef(void)
{
	gtNavDef def = {GT_NAV_AUTO, 0, NULL, false};
	return def;
}

gtStatus gtNav_Create(const gtMap* map, const gtNavDef* def, gtNav** out, gtError* err)
{
	*out = NULL;
	gtNavDef defaults = gtNav_DefaultDef();
	if (!def) def = &defaults;
	if (!map) return gt_fail(err, GT_ERR_INVALID_ARG, "no map");
	if (def->threads < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "threads must be >= 0, got %d", def->threads);
	if ((unsigned)def->method > GT_NAV_POLYANYA) return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method %d", (int)def->method);
	if (def->method == GT_NAV_EHL)
		return gt_fail(err, GT_ERR_INVALID_ARG, "method ehl needs an index: create with auto, then build or load one");
	if (def->method == GT_NAV_POLYANYA)
		return gt_fail(err, GT_ERR_INVALID_ARG, "method polyanya needs a mesh: create with auto, then load one");
	gtNav* nav = gt_calloc(1, sizeof *nav);
	if (!nav) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	nav->map = (gtMap*)map; // edits change it in place (gt_nav.h says so)
	nav->def = *def;
	*out = nav;
	return GT_OK;
}

void gtNav_Destroy(gtNav* nav)
{
	if (!nav) return;
	nav_free_edits(nav);
	gtEhl_Destroy(nav->ehl);
	gtMesh_Destroy(nav->mesh);
	gtMap_Destroy(nav->index_map);
	gt_free(nav);
}

const gtMap* gtNav_Map(const gtNav* nav)
{
	return nav->map;
}

gtStatus gtNav_BuildIndex(gtNav* nav, const gtEhlDef* def, gtError* err)
{
	return gtNav_RebuildIndex(nav, def, false, err); // with declared doors open
}

gtStatus gtNav_LoadIndex(gtNav* nav, const char* path, gtError* err)
{
	gtEhl* ehl;
	gtStatus st = gtEhl_Load(nav->map, path, &ehl, err);
	if (!st) nav_set_index(nav, ehl, NULL);
	return st;
}

gtStatus gtNav_SetIndex(gtNav* nav, gtEhl* ehl, gtError* err)
{
	if (!ehl) return gt_fail(err, GT_ERR_INVALID_ARG, "no index");
	if (gt_ehl_map(ehl) != nav->map) {
		gtEhl_Destroy(ehl);
		return gt_fail(err, GT_ERR_INVALID_ARG, "the index was made for another map");
	}
	nav_set_index(nav, ehl, NULL);
	return GT_OK;
}

gtStatus gtNav_SaveIndex(const gtNav* nav, const char* path, gtError* err)
{
	if (!nav->ehl) return gt_fail(err, GT_ERR_INVALID_ARG, "there is no index to save: build or load one first");
	return gtEhl_Save(nav->ehl, path, err);
}

const gtEhl* gtNav_Index(const gtNav* nav)
{
	return nav->ehl;
}

void gtNav_ClearIndex(gtNav* nav)
{
	nav_set_index(nav, NULL, NULL);
}

// A mesh must hold exactly the map's free cells: each centre on the mesh or off it as the cell is.
static gtStatus check_mesh(const gtMap* map, const gtMesh* mesh, gtError* err)
{
	for (int y = 0; y < gtMap_Height(map); y++)
		for (int x = 0; x < gtMap_Width(map); x++) {
			bool on = gtMesh_Locate(mesh, (gtVec2){x + 0.5, y + 0.5}).place != GT_MESH_OUTSIDE;
			if (on == gtMap_IsBlocked(map, x, y))
				return gt_fail(err, GT_ERR_INVALID_ARG, "the mesh does not match the map: cell (%d, %d) is %s on the map but %s the mesh",
				               x, y, on ? "blocked" : "free", on ? "on" : "off");
		}
	return GT_OK;
}

gtStatus gtNav_SetMesh(gtNav* nav, gtMesh* mesh, gtError* err)
{
	if (!mesh) return gt_fail(err, GT_ERR_INVALID_ARG, "no mesh");
	gtStatus st = check_mesh(nav->map, mesh, err);
	if (st) {
		gtMesh_Destroy(mesh);
		return st;
	}
	gtMesh_Destroy(nav->mesh);
	nav->mesh = mesh;
	nav->mesh_generation++;
	nav->mesh_map_generation = nav->map_generation;
	return GT_OK;
}

gtStatus gtNav_LoadMesh(gtNav* nav, const char* path, gtError* err)
{
	gtMesh* mesh;
	gtStatus st = gtMesh_Load(path, &mesh, err);
	if (!st) st = gtNav_SetMesh(nav, mesh, err);
	if (st && err) { // name the file in the mismatch message too
		gtError inner = *err;
		if (st == GT_ERR_INVALID_ARG) gt_fail(err, st, "%s: %s", path, inner.message);
	}
	return st;
}

const gtMesh* gtNav_Mesh(const gtNav* nav)
{
	return nav->mesh;
}

gtStatus gtNav_SetMethod(gtNav* nav, gtNavMethod method, gtError* err)
{
	if ((unsigned)method > GT_NAV_POLYANYA) return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method %d", (int)method);
	if (method == GT_NAV_EHL && !nav->ehl)
		return gt_fail(err, GT_ERR_INVALID_ARG, "method ehl needs an index: build one (gridtree ehl-build) or load it");
	if (method == GT_NAV_POLYANYA && !nav->mesh)
		return gt_fail(err, GT_ERR_INVALID_ARG, "method polyanya needs a mesh: load one (gtNav_LoadMesh, --mesh FILE)");
	nav->def.method = method;
	return GT_OK;
}

gtNavMethod gtNav_Method(const gtNav* nav)
{
	if (nav->def.method != GT_NAV_AUTO) return nav->def.method;
	return nav->ehl ? GT_NAV_EHL : GT_NAV_ORACLE;
}

int gtNav_PathCapacity(const gtNav* nav)
{
	int vertices, index_vertices;
	gtMap_Vertices(nav->map, &vertices);
	gtMap_Vertices(nav_index_map(nav), &index_vertices); // an index path may bend where walls were
	int most = vertices > index_vertices ? vertices : index_vertices;
	if (nav->mesh && gtMesh_VertexCount(nav->mesh) > most) most = gtMesh_VertexCount(nav->mesh);
	return most + 3; // a mesh path may bend at an interval's end too
}

gtStatus gtNavQuery_Create(gtNav* nav, gtNavQuery** out, gtError* err)
{
	*out = gt_calloc(1, sizeof **out);
	if (!*out) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	(*out)->nav = nav;
	return GT_OK;
}

void gtNavQuery_Destroy(gtNavQuery* query)
{
	if (!query) return;
	gtEhlQuery_Destroy(query->ehl_query);
	gtPolyanya_Destroy(query->polyanya);
	gtOracle_Destroy(query->oracle);
	gtOracle_Destroy(query->base);
	gt_free(query->path);
	gt_free(query->bends);
	gt_free(query);
}

// The oracle of the map as edited, built when first needed after each edit: with the oracle
// method, and for the answers an index the edits outran cannot give.
static gtStatus ensure_oracle(gtNavQuery* q, gtError* err)
{
	gtNav* nav = q->nav;
	// A derived oracle numbers its vertices after the index map it came from: a new index needs a new one.
	if (q->oracle && q->oracle_generation == nav->map_generation &&
	    (!gt_oracle_is_derived(q->oracle) || q->base_generation == nav->ehl_generation))
		return GT_OK;
	if (nav->ehl && nav->index_map && nav->freed == 0 && nav->added > 0) {
		// Walls only added since the index: derive from the index map's graph, never rebuilt.
		if (!q->base || q->base_generation != nav->ehl_generation) {
			gtOracle_Destroy(q->base);
			q->base = NULL;
			gtStatus st = gt_oracle_create(nav->index_map, nav->def.tasks, nav->def.threads, &q->base, err);
			if (st) return st;
			q->base_generation = nav->ehl_generation;
		}
		int rects[4 * 64];
		int count = nav_added_rects(nav, rects, 64);
		gtOracle* derived;
		gtStatus st = gt_oracle_after_blocks(q->base, nav->map, rects, count, &derived, err);
		if (st) return st;
		gtOracle_Destroy(q->oracle);
		q->oracle = derived;
		q->oracle_generation = nav->map_generation;
		return GT_OK;
	}
	uint32_t behind = nav->map_generation - q->oracle_generation;
	if (q->oracle && behind <= NAV_EDIT_LOG) { // repair around the edits since, rather than rebuild
		int rects[4 * NAV_EDIT_LOG];
		for (uint32_t i = 0; i < behind; i++)
			memcpy(rects + 4 * i, nav->edit_log[(q->oracle_generation + 1 + i) % NAV_EDIT_LOG], sizeof nav->edit_log[0]);
		if (!gt_oracle_repair(q->oracle, rects, (int)behind, NULL)) {
			q->oracle_generation = nav->map_generation;
			return GT_OK;
		}
	}
	gtOracle_Destroy(q->oracle);
	q->oracle = NULL;
	gtStatus st = gt_oracle_create(nav->map, nav->def.tasks, nav->def.threads, &q->oracle, err);
	if (!st) q->oracle_generation = nav->map_generation;
	return st;
}

// Makes the active backend's scratch space ready and returns which backend that is.
static gtStatus bind(gtNavQuery* q, gtNavMethod* method, gtError* err)
{
	gtNav* nav = q->nav;
	*method = gtNav_Method(nav);
	if (*method == GT_NAV_POLYANYA && nav->mesh_map_generation != nav->map_generation)
		*method = GT_NAV_ORACLE; // the mesh predates an edit: the edited map's oracle answers
	if (*method == GT_NAV_POLYANYA && (!q->polyanya || q->polyanya_generation != nav->mesh_generation)) {
		gtPolyanya_Destroy(q->polyanya);
		q->polyanya = NULL;
		gtStatus st = gtPolyanya_Create(nav->mesh, &q->polyanya, err);
		if (st) return st;
		q->polyanya_generation = nav->mesh_generation;
	}
	if (*method == GT_NAV_EHL && (!q->ehl_query || q->ehl_generation != nav->ehl_generation)) {
		gtEhlQuery_Destroy(q->ehl_query);
		q->ehl_query = NULL;
		gtStatus st = gtEhlQuery_Create(nav->ehl, &q->ehl_query, err);
		if (st) return st;
		q->ehl_generation = nav->ehl_generation;
	}
	if (*method == GT_NAV_ORACLE) {
		gtStatus st = ensure_oracle(q, err);
		if (st) return st;
	}
	if (*method == GT_NAV_EHL && nav->added > 0 && q->path_capacity < gtNav_PathCapacity(nav)) {
		int capacity = gtNav_PathCapacity(nav);
		if (!GT_RESIZE(q->path, capacity)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		q->path_capacity = capacity;
	}
	if (*method == GT_NAV_EHL && nav->added > 0 && q->bends_capacity < 2 * (q->ehl_query->max_hubs + 1)) {
		int capacity = 2 * (q->ehl_query->max_hubs + 1);
		if (!GT_RESIZE(q->bends, capacity)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		q->bends_capacity = capacity;
	}
	return GT_OK;
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
	gtVec2 a = {v[eq->last_via_s].x, v[eq->last_via_s].y}, h = {v[hub].x, v[hub].y}, b = {v[eq->last_via_t].x, v[eq->last_via_t].y};
	double sa = hypot(a.x - s.x, a.y - s.y), bt = hypot(t.x - b.x, t.y - b.y);
	if (nav_ellipse_hits_added(nav, s, a, sa) && !segment_clear(nav, s, a)) return false;
	if (nav_ellipse_hits_added(nav, b, t, bt) && !segment_clear(nav, b, t)) return false;
	if (nav_ellipse_hits_added(nav, a, h, eq->last_from_s - sa) && !climb_clear(nav, e, eq->last_via_s, eq->last_hub))
		return false;
	return !nav_ellipse_hits_added(nav, h, b, eq->last_from_t - bt) || climb_clear(nav, e, eq->last_via_t, eq->last_hub);
}

// After edits that only added walls: the index's answer when its path stays clear of them (it is
// then exact: no path is shorter on the edited map), else a search of the edited map's
// visibility graph between the first and last bends the index allows (A* with landmarks). After
// edits that removed walls: the oracle's. `limit`: only the exact value below it matters, and the
// index's is a lower bound, so an answer at or above the limit needs no check.
static double edited_distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double limit, gtVec2* points, int capacity, int* count,
                              gtStatus* status, gtError* err)
{
	gtNav* nav = q->nav;
	*status = GT_OK;
	if (nav->freed == 0) {
		double d;
		int n;
		if (!points) { // most answers stay far from the new walls: the distance alone shows it
			if ((*status = gtEhlQuery_SetSource(q->ehl_query, s, err))) return INFINITY;
			d = isinf(limit) ? gtEhlQuery_DistanceTo(q->ehl_query, t) : gtEhlQuery_DistanceBelow(q->ehl_query, t, limit);
			if (isinf(d) || d >= limit || !nav_ellipse_hits_added(nav, s, t, d) || answer_still_walks(nav, q->ehl_query, s, t))
				return d;
			goto search; // blocked: the path below would walk the same segments again
		}
		*status = gtEhl_Path(q->ehl_query, s, t, q->path, q->path_capacity, &n, &d, err);
		if (*status || isinf(d) || d >= limit) return *status ? INFINITY : d;
		bool clear = true;
		for (int i = 0; i + 1 < n && clear; i++) clear = segment_clear(nav, q->path[i], q->path[i + 1]);
		if (clear) {
			if (points) {
				*count = n;
				if (n > capacity) {
					*status = gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "the path has %d points, the buffer holds %d", n, capacity);
					return d;
				}
				if (n > 0) memcpy(points, q->path, (size_t)n * sizeof *points);
			}
			return d;
		}
	}
search:;
	double d = INFINITY;
	if ((*status = ensure_oracle(q, err))) return d;
	if (gt_oracle_is_derived(q->oracle)) { // walls only added: the index knows the possible first and last bends
		const gtEhl* e = q->ehl_query->ehl;
		int from = gt_ehl_first_bends(e, s, q->bends), to = gt_ehl_first_bends(e, t, q->bends + from);
		*status = gt_oracle_between(q->oracle, s, t, q->bends, from, q->bends + from, to, points, capacity, count, &d, err);
		return d;
	}
	*status = points ? gtOracle_Path(q->oracle, s, t, points, capacity, count, &d, err) : gtOracle_Distance(q->oracle, s, t, &d, err);
	return d;
}

static bool edited(const gtNav* nav)
{
	return nav->added > 0 || nav->freed > 0;
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
	if (nav->freed == 0 && nav->added_tiles && on_map(nav->map, s) && on_map(nav->map, t) && !nav_near_added(nav, s, s) &&
	    !nav_near_added(nav, t, t))
		return nav_index_map(nav);
	return nav->map;
}

static gtStatus check_points(const gtMap* map, gtVec2 s, gtVec2 t, gtError* err)
{
	gtPointCheck cs = gtMap_CheckPoint(map, s), ct = gtMap_CheckPoint(map, t);
	if (cs) return gt_fail(err, GT_ERR_INVALID_POINT, "source (%g, %g): %s", s.x, s.y, gtPointCheckName(cs));
	if (ct) return gt_fail(err, GT_ERR_INVALID_POINT, "target (%g, %g): %s", t.x, t.y, gtPointCheckName(ct));
	return GT_OK;
}

gtStatus gtNav_Distance(gtNavQuery* query, gtVec2 s, gtVec2 t, double* distance, gtError* err)
{
	*distance = INFINITY;
	gtNavMethod method;
	gtStatus st = bind(query, &method, err);
	if (st) return st;
	switch (method) {
	case GT_NAV_EHL:
		if (edited(query->nav)) {
			if ((st = check_points(points_map(query->nav, s, t), s, t, err))) return st;
			*distance = edited_distance(query, s, t, INFINITY, NULL, 0, NULL, &st, err);
			return st;
		}
		return gtEhl_Distance(query->ehl_query, s, t, distance, err);
	case GT_NAV_ORACLE: return gtOracle_Distance(query->oracle, s, t, distance, err);
	case GT_NAV_POLYANYA:
		if ((st = check_points(query->nav->map, s, t, err))) return st;
		return gtPolyanya_Distance(query->polyanya, s, t, distance, err);
	default:
		st = check_points(query->nav->map, s, t, err);
		if (!st) *distance = hypot(t.x - s.x, t.y - s.y);
		return st;
	}
}

gtStatus gtNav_Path(gtNavQuery* query, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count,
                    double* distance, gtError* err)
{
	*count = 0;
	gtNavMethod method;
	gtStatus st = bind(query, &method, err);
	if (st) return st;
	switch (method) {
	case GT_NAV_EHL:
		if (edited(query->nav)) {
			if ((st = check_points(points_map(query->nav, s, t), s, t, err))) return st;
			double d = edited_distance(query, s, t, INFINITY, points, capacity, count, &st, err);
			if (distance) *distance = d;
			return st;
		}
		return gtEhl_Path(query->ehl_query, s, t, points, capacity, count, distance, err);
	case GT_NAV_ORACLE: return gtOracle_Path(query->oracle, s, t, points, capacity, count, distance, err);
	case GT_NAV_POLYANYA:
		if ((st = check_points(query->nav->map, s, t, err))) return st;
		return gtPolyanya_Path(query->polyanya, s, t, points, capacity, count, distance, err);
	default:
		st = check_points(query->nav->map, s, t, err);
		if (st) return st;
		*count = 2;
		if (capacity < 2) return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "a path needs 2 points, the buffer holds %d", capacity);
		points[0] = s;
		points[1] = t;
		if (distance) *distance = hypot(t.x - s.x, t.y - s.y);
		return GT_OK;
	}
}

// Every call of one world query shares `from`: EHL computes the source side once
// (gtEhlQuery_SetSource memoises it) and every candidate reuses it.
static double ehl_distance(void* context, gtVec2 from, gtVec2 to)
{
	if (gtEhlQuery_SetSource(context, from, NULL)) return INFINITY;
	return gtEhlQuery_DistanceTo(context, to);
}

static double ehl_distance_below(void* context, gtVec2 from, gtVec2 to, double limit)
{
	if (gtEhlQuery_SetSource(context, from, NULL)) return INFINITY;
	return gtEhlQuery_DistanceBelow(context, to, limit);
}

static double edited_world_distance_below(void* context, gtVec2 from, gtVec2 to, double limit)
{
	gtNavQuery* q = context;
	const gtMap* map = points_map(q->nav, from, to);
	if (gtMap_CheckPoint(map, from) || gtMap_CheckPoint(map, to)) return INFINITY;
	gtStatus st;
	double d = edited_distance(q, from, to, limit, NULL, 0, NULL, &st, NULL);
	return st ? INFINITY : d;
}

static double edited_world_distance(void* context, gtVec2 from, gtVec2 to)
{
	return edited_world_distance_below(context, from, to, INFINITY);
}

static double polyanya_distance(void* context, gtVec2 from, gtVec2 to)
{
	double d;
	return gtPolyanya_Distance(context, from, to, &d, NULL) ? INFINITY : d;
}

static double oracle_distance(void* context, gtVec2 from, gtVec2 to)
{
	double d;
	return gtOracle_Distance(context, from, to, &d, NULL) ? INFINITY : d;
}

gtStatus gtNavQuery_WorldDistance(gtNavQuery* query, gtDistance* distance, gtError* err)
{
	gtNavMethod method;
	gtStatus st = bind(query, &method, err);
	if (st) return st;
	switch (method) {
	case GT_NAV_EHL:
		*distance = edited(query->nav) ? (gtDistance){edited_world_distance, query, edited_world_distance_below}
		                               : (gtDistance){ehl_distance, query->ehl_query, ehl_distance_below};
		break;
	case GT_NAV_ORACLE: *distance = (gtDistance){oracle_distance, query->oracle, NULL}; break;
	case GT_NAV_POLYANYA: *distance = (gtDistance){polyanya_distance, query->polyanya, NULL}; break;
	default: *distance = gtDistance_Euclid(); break;
	}
	return GT_OK;
}
