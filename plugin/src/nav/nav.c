// The navigation façade: decides once, for every caller, which backend answers, and hands each
// call to it through the table (nav_backends.c). A new backend is a file and a table line.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "gridtree/gt_nav.h"
#include "nav/nav_backend.h"
#include "nav/nav_links.h"
#include "nav/nav_view.h"

gtNavDef gtNav_DefaultDef(void)
{
	gtNavDef def = {GT_NAV_AUTO, 0, NULL, false, 0, 10};
	return def;
}

gtStatus gtNav_Create(const gtMap* map, const gtNavDef* def, gtNav** out, gtError* err)
{
	*out = NULL;
	gtNavDef defaults = gtNav_DefaultDef();
	if (!def) def = &defaults;
	if (!map) return gt_fail(err, GT_ERR_INVALID_ARG, "no map");
	if (def->threads < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "threads must be >= 0, got %d", def->threads);
	if (def->background_nice < 0 || def->background_nice > 19)
		return gt_fail(err, GT_ERR_INVALID_ARG, "background_nice must be 0 to 19, got %d", def->background_nice);
	if ((unsigned)def->method >= GT_NAV_METHOD_COUNT || (def->method != GT_NAV_AUTO && !nav_backend(def->method)))
		return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method %d", (int)def->method);
	const NavBackend* chosen = nav_backend(def->method);
	if (chosen && chosen->needs) // a new nav has no data yet
		return gt_fail(err, GT_ERR_INVALID_ARG, "method %s needs %s: create with auto, then %s", chosen->name,
		               chosen->needs, chosen->how);
	gtNav* nav = gt_calloc(1, sizeof *nav);
	if (!nav) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	nav->map = (gtMap*)map; // edits change it in place (gt_nav.h says so)
	nav->def = *def;
	if (nav_views_create(nav, err)) {
		gt_free(nav);
		return GT_ERR_NOMEM;
	}
	nav_choose_backend(nav);
	*out = nav;
	return GT_OK;
}

void gtNav_Destroy(gtNav* nav)
{
	if (!nav) return;
	nav_free_edits(nav);
	nav_views_free(nav);
	nav_links_free(nav);
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
	if (!st) nav_views_index_loaded(nav); // its map's graph in the background from the first edit
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
				return gt_fail(err, GT_ERR_INVALID_ARG,
				               "the mesh does not match the map: cell (%d, %d) is %s on the map but %s the mesh", x, y,
				               on ? "blocked" : "free", on ? "on" : "off");
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
	nav_choose_backend(nav);
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
	const NavBackend* b = nav_backend(method);
	if (!b && method != GT_NAV_AUTO) return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method %d", (int)method);
	if (!nav_backend_ready(nav, method))
		return gt_fail(err, GT_ERR_INVALID_ARG, "method %s needs %s: %s", b->name, b->needs, b->how);
	nav->def.method = method;
	nav_choose_backend(nav);
	return GT_OK;
}

gtNavMethod gtNav_Method(const gtNav* nav)
{
	return nav->method;
}

int gtNav_PathCapacity(const gtNav* nav)
{
	int vertices, index_vertices;
	gtMap_Vertices(nav->map, &vertices);
	gtMap_Vertices(nav_index_map(nav), &index_vertices); // an index path may bend where walls were
	int most = vertices > index_vertices ? vertices : index_vertices;
	if (nav->mesh && gtMesh_VertexCount(nav->mesh) > most) most = gtMesh_VertexCount(nav->mesh);
	return most + 3 + nav_links_path_room(nav); // a mesh path may bend at an interval's end too
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
	for (int m = 0; m < GT_NAV_METHOD_COUNT; m++) {
		const NavBackend* b = nav_backend((gtNavMethod)m);
		if (b && b->free_scratch) b->free_scratch(query->scratch[m]);
	}
	nav_links_free_scratch(query->links_scratch);
	gt_free(query);
}

gtStatus nav_check_points(const gtMap* map, gtVec2 s, gtVec2 t, gtError* err)
{
	gtPointCheck cs = gtMap_CheckPoint(map, s), ct = gtMap_CheckPoint(map, t);
	if (cs) return gt_fail(err, GT_ERR_INVALID_POINT, "source (%g, %g): %s", s.x, s.y, gtPointCheckName(cs));
	if (ct) return gt_fail(err, GT_ERR_INVALID_POINT, "target (%g, %g): %s", t.x, t.y, gtPointCheckName(ct));
	return GT_OK;
}

// The backend that answers now, its scratch space made ready: the chosen one, or its stand-in
// while an edit has outdated its data.
static const NavBackend* bind(gtNavQuery* q, gtStatus* status, gtError* err)
{
	const NavBackend* b = q->nav->backend;
	if (b->outdated && b->outdated(q->nav)) b = nav_backend(b->stand_in);
	*status = b->bind(q, err);
	return *status ? NULL : b;
}

gtStatus gtNavQuery_Distance(gtNavQuery* query, gtVec2 s, gtVec2 t, double* distance, gtError* err)
{
	*distance = INFINITY;
	if (nav_links_take(query->nav)) return nav_links_distance(query, s, t, distance, err);
	gtStatus st;
	const NavBackend* b = bind(query, &st, err);
	return b ? b->distance(query, s, t, distance, err) : st;
}

gtStatus gtNavQuery_Path(gtNavQuery* query, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count,
                         double* distance, gtError* err)
{
	*count = 0;
	if (nav_links_take(query->nav)) return nav_links_path(query, s, t, points, NULL, capacity, count, distance, err);
	gtStatus st;
	const NavBackend* b = bind(query, &st, err);
	return b ? b->path(query, s, t, points, capacity, count, distance, err) : st;
}

// The world distance of a backend without one of its own: its `distance`, through the query.
static double default_world_fcn(void* context, gtVec2 from, gtVec2 to)
{
	gtNavQuery* q = context;
	double d;
	return q->world_backend->distance(q, from, to, &d, NULL) ? INFINITY : d;
}

gtStatus gtNavQuery_WorldDistance(gtNavQuery* query, gtDistance* distance, gtError* err)
{
	if (nav_links_take(query->nav)) return nav_links_world_distance(query, distance, err);
	gtStatus st;
	const NavBackend* b = bind(query, &st, err);
	if (!b) return st;
	query->world_backend = b;
	*distance = b->world_distance ? b->world_distance(query) : (gtDistance){.fcn = default_world_fcn, .context = query};
	return GT_OK;
}
