// The Grid Tree for batch callers (the crowd): a worker per thread with scratch of its own, one
// query into caller buffers, and walks under a compiled filter: every matching object, those of
// one leaf, those within a small radius, and the matching objects nearest first by straight line
// for as long as the caller wants more.
// Only opaque types and functions: the node layout stays in world/. Internal to the library.
#ifndef GRIDTREE_WORLD_VISIT_H
#define GRIDTREE_WORLD_VISIT_H

#include "gridtree/gt_world.h"

// What one thread needs to query the world while other threads do too (nothing may update the
// world meanwhile): query scratch and a compiled filter.
typedef struct gtWorldWorker gtWorldWorker;

typedef enum gtQueryMode { GT_QUERY_NEAREST, GT_QUERY_WITHIN, GT_QUERY_TOP } gtQueryMode;

// NULL when out of memory.
gtWorldWorker* gt_world_worker_create(const gtWorld* world);
void gt_world_worker_destroy(gtWorldWorker* worker);

const gtMap* gt_world_map(const gtWorld* world);
// Makes what concurrent queries share (the query sphere's offsets) before workers start; false
// when out of memory.
bool gt_world_workers_ready(gtWorld* world);
// One query, as gtWorld_Nearest/Within/Top do (no distance function: straight lines, as the
// Euclid ones do), on the worker's scratch.
gtStatus gt_world_worker_query(gtWorld* world, gtWorldWorker* worker, const gtQuery* q, gtDistance distance,
                               gtQueryMode mode, gtObjectId* ids, double* distances, int capacity, int* count,
                               gtError* err);

// Sight by the world's clearance grid (world_clearance.h), for pricings whose distance is the
// straight line between points that see each other on `map` (gtDistance.straight_map): false when
// the grid cannot certify it there (NULL map, an edited map, no grid). Then gt_world_sight_from is
// a point's clearance and gt_world_sight says 1 when a (clearance ra) and b see each other, -1 when
// they do not, 0 when it cannot tell, as single queries use it.
bool gt_world_sight_fits(const gtWorld* world, const gtMap* map);
double gt_world_sight_from(const gtWorld* world, gtVec2 at);
int gt_world_sight(const gtWorld* world, const gtMap* map, gtVec2 a, double ra, gtVec2 b);

// Objects are named in the walks below by their index in the world, valid until it is updated.
gtObjectId gt_world_object_id(const gtWorld* world, int32_t object);

// Compiles a nearest query's filters (keywords, any, none, exclude, region) into the worker for
// the walks below; `q` must stay valid while they run.
gtStatus gt_world_worker_filter(const gtWorld* world, gtWorldWorker* worker, const gtQuery* q, gtError* err);

// Every live object that passes the worker's filter, by index.
typedef void gtWorldEachFcn(void* context, int32_t object, gtVec2 p);
void gt_world_each_match(const gtWorld* world, const gtWorldWorker* worker, gtWorldEachFcn* each, void* context);

// The leaf that holds point `at` (a point of the map), and the objects in a leaf that pass the
// worker's filter, by index.
int32_t gt_world_leaf_of(const gtWorld* world, gtVec2 at);
// The shorter side of a leaf.
double gt_world_leaf_side(const gtWorld* world);
void gt_world_each_in_leaf(const gtWorld* world, const gtWorldWorker* worker, int32_t leaf, gtWorldEachFcn* each,
                           void* context);

// The objects that pass the worker's filter by increasing straight-line distance `line` from
// `from` (the square root of the squares: within a unit in the last place of hypot), while
// `line` <= the limit: `limit` at first, then what each visit returns; none of leaf `skip_leaf`
// (-1: none skipped). False when out of memory.
typedef double gtWorldVisitFcn(void* context, int32_t object, gtVec2 p, double line);
bool gt_world_visit_nearest(const gtWorld* world, gtWorldWorker* worker, gtVec2 from, double limit, int32_t skip_leaf,
                            gtWorldVisitFcn* visit, void* context);
// The objects that pass the worker's filter within straight line `radius` of `from` (then within
// what each visit returns), in no particular order, but those of leaf `skip_leaf`. For a small
// radius: it looks at every leaf under the box round the disk, with no tree walk.
void gt_world_visit_near(const gtWorld* world, gtWorldWorker* worker, gtVec2 from, double radius, int32_t skip_leaf,
                         gtWorldVisitFcn* visit, void* context);

#endif
