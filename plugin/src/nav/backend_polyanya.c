// The Polyanya backend: exact distances on a navigation mesh (gtNav_LoadMesh, gtNav_SetMesh),
// with little memory. An edit makes the mesh outdated: the oracle answers until a mesh is set again.
#include <math.h>

#include "core/alloc.h"
#include "core/status.h"
#include "nav/nav_backend.h"

typedef struct PolyanyaScratch {
	gtPolyanya* search;
	uint32_t generation; // the mesh_generation it was made for
} PolyanyaScratch;

static gtPolyanya* search_of(const gtNavQuery* q)
{
	return ((const PolyanyaScratch*)q->scratch[GT_NAV_POLYANYA])->search;
}

static void free_scratch(void* scratch)
{
	PolyanyaScratch* p = scratch;
	if (!p) return;
	gtPolyanya_Destroy(p->search);
	gt_free(p);
}

static bool has_mesh(const gtNav* nav)
{
	return nav->mesh != NULL;
}

static bool mesh_outdated(const gtNav* nav)
{
	return nav->mesh_map_generation != nav->map_generation;
}

static gtStatus bind(gtNavQuery* q, gtError* err)
{
	gtNav* nav = q->nav;
	if (!q->scratch[GT_NAV_POLYANYA] && !(q->scratch[GT_NAV_POLYANYA] = gt_calloc(1, sizeof(PolyanyaScratch))))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	PolyanyaScratch* p = q->scratch[GT_NAV_POLYANYA];
	if (p->search && p->generation == nav->mesh_generation) return GT_OK;
	gtPolyanya_Destroy(p->search);
	p->search = NULL;
	gtStatus st = gtPolyanya_Create(nav->mesh, &p->search, err);
	if (!st) p->generation = nav->mesh_generation;
	return st;
}

static gtStatus distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double* d, gtError* err)
{
	gtStatus st = nav_check_points(q->nav->map, s, t, err);
	return st ? st : gtPolyanya_Distance(search_of(q), s, t, d, err);
}

static gtStatus path(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* d,
                     gtError* err)
{
	gtStatus st = nav_check_points(q->nav->map, s, t, err);
	return st ? st : gtPolyanya_Path(search_of(q), s, t, points, capacity, count, d, err);
}

static double world_fcn(void* context, gtVec2 from, gtVec2 to)
{
	double d;
	return gtPolyanya_Distance(context, from, to, &d, NULL) ? INFINITY : d;
}

static gtDistance world_distance(gtNavQuery* q)
{
	return (gtDistance){.fcn = world_fcn, .context = search_of(q)};
}

const NavBackend nav_backend_polyanya = {
    .name = "polyanya",
    .caps = GT_NAV_CAP_WALLS | GT_NAV_CAP_USES_MESH | GT_NAV_CAP_NEEDS_MESH,
    .needs = "a mesh",
    .how = "load one (gtNav_LoadMesh, load_mesh, --mesh FILE) or make one from the map (gtMesh_FromMap, build_mesh)",
    .ready = has_mesh,
    .outdated = mesh_outdated,
    .stand_in = GT_NAV_ORACLE,
    .bind = bind,
    .free_scratch = free_scratch,
    .distance = distance,
    .path = path,
    .world_distance = world_distance,
};
