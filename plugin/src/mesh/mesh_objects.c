// Objects placed on a navigation mesh, listed per polygon (docs/algorithms.md 7.3): what the
// interval heuristic's search finds as it enters polygons. An object on an edge or a vertex is
// listed in every polygon holding it. A move inside the object's polygon only stores the point;
// any other move relists it (O(polygons around the point)).
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "mesh/mesh_internal.h"
#include "mesh/mesh_objects.h"

gtStatus gtMeshObjects_Create(const gtMesh* mesh, gtMeshObjects** out, gtError* err)
{
	*out = NULL;
	gtMeshObjects* o = gt_calloc(1, sizeof *o);
	if (!o) return gt_fail(err, GT_ERR_NOMEM, "out of memory for mesh objects");
	o->mesh = mesh;
	o->free_member = -1;
	o->head = gt_malloc(((size_t)mesh->polygon_count + 1) * sizeof *o->head);
	if (!o->head) {
		gtMeshObjects_Destroy(o);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for mesh objects");
	}
	for (int p = 0; p < mesh->polygon_count; p++) o->head[p] = -1;
	*out = o;
	return GT_OK;
}

void gtMeshObjects_Destroy(gtMeshObjects* o)
{
	if (!o) return;
	gt_free(o->head), gt_free(o->members), gt_free(o->first), gt_free(o->inside), gt_free(o->point);
	gt_free(o);
}

static bool ensure_object(gtMeshObjects* o, int32_t id)
{
	if (id < o->capacity) return true;
	// Three arrays side by side, each grown alike from the same capacity; it changes once all have.
	int64_t first_capacity = o->capacity, inside_capacity = o->capacity, point_capacity = o->capacity;
	if (!GT_GROW(o->first, first_capacity, (int64_t)id + 1, 256) ||
	    !GT_GROW(o->inside, inside_capacity, (int64_t)id + 1, 256) ||
	    !GT_GROW(o->point, point_capacity, (int64_t)id + 1, 256))
		return false;
	for (int64_t i = o->capacity; i < first_capacity; i++) o->first[i] = -1, o->inside[i] = false;
	o->capacity = (int)first_capacity;
	return true;
}

static void unlist(gtMeshObjects* o, int32_t id)
{
	if (o->first[id] < 0) return;
	for (int32_t m = o->first[id], next; m >= 0; m = next) {
		MeshMember* r = &o->members[m];
		if (r->prev >= 0) o->members[r->prev].next = r->next;
		else o->head[r->polygon] = r->next;
		if (r->next >= 0) o->members[r->next].prev = r->prev;
		next = r->next_of_object;
		r->next_of_object = o->free_member;
		o->free_member = m;
	}
	o->first[id] = -1;
	o->count--;
}

// Room for `more` memberships more (grown before any list changes, so a failure changes nothing).
static bool reserve_members(gtMeshObjects* o, int more)
{
	int free_count = 0;
	for (int32_t m = o->free_member; m >= 0 && free_count < more; m = o->members[m].next_of_object) free_count++;
	int need = o->member_count + more - free_count;
	return GT_GROW(o->members, o->member_capacity, need, 512);
}

gtStatus gtMeshObjects_Set(gtMeshObjects* o, int32_t id, gtVec2 point, gtError* err)
{
	if (id < 0 || id > GT_MESH_MAX_OBJECT_ID)
		return gt_fail(err, GT_ERR_INVALID_ARG, "object id %d is not in [0, %d]", id, GT_MESH_MAX_OBJECT_ID);
	gtMeshLocation at = gtMesh_Locate(o->mesh, point);
	if (at.place == GT_MESH_OUTSIDE)
		return gt_fail(err, GT_ERR_INVALID_POINT, "object %d at (%g, %g): not on the mesh", id, point.x, point.y);
	if (!ensure_object(o, id)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for mesh objects");
	if (o->inside[id] && at.place == GT_MESH_IN_POLYGON && o->members[o->first[id]].polygon == at.polygon) {
		o->point[id] = point; // still strictly inside its polygon: nothing to relist
		return GT_OK;
	}
	int32_t polygons[GT_MESH_MAX_AROUND_VERTEX];
	int n = gt_mesh_point_polygons(o->mesh, point, polygons, GT_MESH_MAX_AROUND_VERTEX);
	if (n == 0)
		return gt_fail(err, GT_ERR_INVALID_POINT,
		               "object %d at (%g, %g): a pinch vertex whose cell at (+1e-5, +1e-5) is a wall", id, point.x,
		               point.y);
	if (!reserve_members(o, n)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for mesh objects");
	unlist(o, id);
	for (int i = 0; i < n; i++) {
		int32_t m = o->free_member;
		if (m >= 0) o->free_member = o->members[m].next_of_object;
		else m = o->member_count++;
		MeshMember* r = &o->members[m];
		r->object = id, r->polygon = polygons[i];
		r->prev = -1, r->next = o->head[polygons[i]];
		if (r->next >= 0) o->members[r->next].prev = m;
		o->head[polygons[i]] = m;
		r->next_of_object = o->first[id];
		o->first[id] = m;
	}
	o->inside[id] = at.place == GT_MESH_IN_POLYGON;
	o->point[id] = point;
	o->count++;
	return GT_OK;
}

void gtMeshObjects_Remove(gtMeshObjects* o, int32_t id)
{
	if (id >= 0 && id < o->capacity) unlist(o, id), o->inside[id] = false;
}

int gtMeshObjects_Count(const gtMeshObjects* o)
{
	return o->count;
}

int64_t gtMeshObjects_Bytes(const gtMeshObjects* o)
{
	return (int64_t)sizeof *o + ((int64_t)o->mesh->polygon_count + 1) * (int64_t)sizeof *o->head +
	       (int64_t)o->member_capacity * (int64_t)sizeof *o->members +
	       (int64_t)o->capacity * (int64_t)(sizeof *o->first + sizeof *o->inside + sizeof *o->point);
}
