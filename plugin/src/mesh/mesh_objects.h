// The per-polygon object lists behind gtMeshObjects (mesh_objects.c), read by the interval
// heuristic's search (polyanya.c). Internal.
#ifndef GRIDTREE_MESH_OBJECTS_H
#define GRIDTREE_MESH_OBJECTS_H

#include "gridtree/gt_research.h"

// An object's place in one polygon's list. An object on an edge or a vertex is in the list of
// every polygon holding it, so a search entering any of them meets it.
typedef struct MeshMember {
	int32_t object, polygon;
	int32_t next, prev;     // in the polygon's list
	int32_t next_of_object; // the object's other memberships
} MeshMember;

struct gtMeshObjects {
	const gtMesh* mesh;
	int32_t* head; // per polygon: its first membership, -1 = none
	MeshMember* members;
	int member_count;
	int64_t member_capacity;
	int32_t free_member; // a free list through next_of_object
	int32_t* first;      // per object id: its first membership, -1 = not placed
	bool* inside;        // per object id: strictly inside its one polygon
	gtVec2* point;
	int capacity, count;
};

#endif
