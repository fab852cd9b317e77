// The navigation façade: decides once, for every caller, which backend answers. A new backend
// adds a case here and its own folder; nothing else in the library or its tools changes.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/names.h"
#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "gridtree/gt_nav.h"
#include "gridtree/gt_oracle.h"
#include "oracle/oracle.h"

struct gtNav {
	const gtMap* map;
	gtNavDef def;
	gtEhl* ehl;
	uint32_t ehl_generation; // bumped whenever the index changes, so queries rebind lazily
};

struct gtNavQuery {
	gtNav* nav;
	gtEhlQuery* ehl_query;
	uint32_t ehl_generation;
	gtOracle* oracle;
};

static const char* const METHOD_NAMES[] = {"auto", "ehl", "oracle", "euclid"};

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
	return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method '%s' (available: auto, ehl, oracle, euclid)", name ? name : "(null)");
}

gtNavDef gtNav_DefaultDef(void)
{
	gtNavDef def = {GT_NAV_AUTO, 0, NULL};
	return def;
}

gtStatus gtNav_Create(const gtMap* map, const gtNavDef* def, gtNav** out, gtError* err)
{
	*out = NULL;
	gtNavDef defaults = gtNav_DefaultDef();
	if (!def) def = &defaults;
	if (!map) return gt_fail(err, GT_ERR_INVALID_ARG, "no map");
	if (def->threads < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "threads must be >= 0, got %d", def->threads);
	if ((unsigned)def->method > GT_NAV_EUCLID) return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method %d", (int)def->method);
	if (def->method == GT_NAV_EHL)
		return gt_fail(err, GT_ERR_INVALID_ARG, "method ehl needs an index: create with auto, then build or load one");
	gtNav* nav = gt_calloc(1, sizeof *nav);
	if (!nav) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	nav->map = map;
	nav->def = *def;
	*out = nav;
	return GT_OK;
}

void gtNav_Destroy(gtNav* nav)
{
	if (!nav) return;
	gtEhl_Destroy(nav->ehl);
	gt_free(nav);
}

const gtMap* gtNav_Map(const gtNav* nav)
{
	return nav->map;
}

static void set_index(gtNav* nav, gtEhl* ehl)
{
	gtEhl_Destroy(nav->ehl);
	nav->ehl = ehl;
	nav->ehl_generation++;
	if (!ehl && nav->def.method == GT_NAV_EHL) nav->def.method = GT_NAV_AUTO;
}

gtStatus gtNav_BuildIndex(gtNav* nav, const gtEhlDef* def, gtError* err)
{
	gtEhlDef with_tasks = def ? *def : gtEhl_DefaultDef();
	if (!with_tasks.tasks) with_tasks.tasks = nav->def.tasks;
	gtEhl* ehl;
	gtStatus st = gtEhl_Build(nav->map, &with_tasks, &ehl, err);
	if (!st) set_index(nav, ehl);
	return st;
}

gtStatus gtNav_LoadIndex(gtNav* nav, const char* path, gtError* err)
{
	gtEhl* ehl;
	gtStatus st = gtEhl_Load(nav->map, path, &ehl, err);
	if (!st) set_index(nav, ehl);
	return st;
}

gtStatus gtNav_SetIndex(gtNav* nav, gtEhl* ehl, gtError* err)
{
	if (!ehl) return gt_fail(err, GT_ERR_INVALID_ARG, "no index");
	if (gt_ehl_map(ehl) != nav->map) {
		gtEhl_Destroy(ehl);
		return gt_fail(err, GT_ERR_INVALID_ARG, "the index was made for another map");
	}
	set_index(nav, ehl);
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
	set_index(nav, NULL);
}

gtStatus gtNav_SetMethod(gtNav* nav, gtNavMethod method, gtError* err)
{
	if ((unsigned)method > GT_NAV_EUCLID) return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method %d", (int)method);
	if (method == GT_NAV_EHL && !nav->ehl)
		return gt_fail(err, GT_ERR_INVALID_ARG, "method ehl needs an index: build one (gridtree ehl-build) or load it");
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
	int vertices;
	gtMap_Vertices(nav->map, &vertices);
	return vertices + 2;
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
	gtOracle_Destroy(query->oracle);
	gt_free(query);
}

// Makes the active backend's scratch space ready and returns which backend that is.
static gtStatus bind(gtNavQuery* q, gtNavMethod* method, gtError* err)
{
	gtNav* nav = q->nav;
	*method = gtNav_Method(nav);
	if (*method == GT_NAV_EHL && (!q->ehl_query || q->ehl_generation != nav->ehl_generation)) {
		gtEhlQuery_Destroy(q->ehl_query);
		q->ehl_query = NULL;
		gtStatus st = gtEhlQuery_Create(nav->ehl, &q->ehl_query, err);
		if (st) return st;
		q->ehl_generation = nav->ehl_generation;
	}
	if (*method == GT_NAV_ORACLE && !q->oracle) return gt_oracle_create(nav->map, nav->def.tasks, nav->def.threads, &q->oracle, err);
	return GT_OK;
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
	case GT_NAV_EHL: return gtEhl_Distance(query->ehl_query, s, t, distance, err);
	case GT_NAV_ORACLE: return gtOracle_Distance(query->oracle, s, t, distance, err);
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
	case GT_NAV_EHL: return gtEhl_Path(query->ehl_query, s, t, points, capacity, count, distance, err);
	case GT_NAV_ORACLE: return gtOracle_Path(query->oracle, s, t, points, capacity, count, distance, err);
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
	case GT_NAV_EHL: *distance = (gtDistance){ehl_distance, query->ehl_query, ehl_distance_below}; break;
	case GT_NAV_ORACLE: *distance = (gtDistance){oracle_distance, query->oracle, NULL}; break;
	default: *distance = gtDistance_Euclid(); break;
	}
	return GT_OK;
}
