/// @file gt_nav.h
/// The navigation façade: one map and its distance backends behind one interface. Distances and
/// paths, and the distance function a world's queries use, all come from here, whatever answers
/// them: an EHL index when one is built or loaded, else the exact oracle (built on first use), or
/// straight lines. A gtNav is shared; each thread queries through its own gtNavQuery.
#ifndef GRIDTREE_GT_NAV_H
#define GRIDTREE_GT_NAV_H

#include "gt_ehl.h"
#include "gt_map.h"
#include "gt_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Which backend answers distances and paths.
typedef enum gtNavMethod {
	GT_NAV_AUTO = 0, ///< the EHL index when there is one, else the oracle
	GT_NAV_EHL,      ///< exact, microseconds; needs an index (gtNav_BuildIndex / gtNav_LoadIndex)
	GT_NAV_ORACLE,   ///< exact, Dijkstra over the visibility graph: a correctness tool, not a fast path
	GT_NAV_EUCLID    ///< straight-line distance, ignoring walls (hearing, messaging ranges)
} gtNavMethod;

/// "auto", "ehl", "oracle", "euclid".
const char* gtNavMethodName(gtNavMethod method);
/// The inverse of gtNavMethodName; GT_ERR_INVALID_ARG naming the choices for anything else.
gtStatus gtNavMethod_Parse(const char* name, gtNavMethod* method, gtError* err);

typedef struct gtNav gtNav;

/// Per-thread query state: scratch space of the active backend, created lazily and kept until the
/// backend changes, so queries never allocate once warm.
typedef struct gtNavQuery gtNavQuery;

typedef struct gtNavDef {
	gtNavMethod method;        ///< GT_NAV_AUTO
	int threads;               ///< workers for the oracle's visibility graph; 0 = one per online core
	const gtTaskSystem* tasks; ///< NULL = gridtree's built-in pool
} gtNavDef;

/// GT_NAV_AUTO, all cores, the built-in pool.
gtNavDef gtNav_DefaultDef(void);

/// The nav keeps a pointer to the map, which must outlive it.
gtStatus gtNav_Create(const gtMap* map, const gtNavDef* def, gtNav** out, gtError* err);
/// Destroy every gtNavQuery of this nav first.
void gtNav_Destroy(gtNav* nav);

const gtMap* gtNav_Map(const gtNav* nav);

/// Builds an EHL index (see gtEhl_Build) and makes it the nav's index, replacing any other.
gtStatus gtNav_BuildIndex(gtNav* nav, const gtEhlDef* def, gtError* err);
/// Loads a saved index for this map and makes it the nav's index; on failure the old one stays.
gtStatus gtNav_LoadIndex(gtNav* nav, const char* path, gtError* err);
/// Hands an index the caller built or loaded for this map to the nav, which then owns it (also on
/// failure: GT_ERR_INVALID_ARG, the index destroyed, when it was made for another map).
gtStatus gtNav_SetIndex(gtNav* nav, gtEhl* ehl, gtError* err);
/// Saves the nav's index; GT_ERR_INVALID_ARG when there is none.
gtStatus gtNav_SaveIndex(const gtNav* nav, const char* path, gtError* err);
/// The nav's EHL index, or NULL.
const gtEhl* gtNav_Index(const gtNav* nav);
/// Drops the index (queries fall back to the oracle under GT_NAV_AUTO).
void gtNav_ClearIndex(gtNav* nav);

/// Chooses the backend. GT_NAV_EHL without an index is GT_ERR_INVALID_ARG (with a hint).
gtStatus gtNav_SetMethod(gtNav* nav, gtNavMethod method, gtError* err);
/// The backend that answers now (never GT_NAV_AUTO).
gtNavMethod gtNav_Method(const gtNav* nav);

/// Points a path can have at most (convex vertices + 2): a buffer this big never comes back
/// GT_ERR_BUFFER_TOO_SMALL.
int gtNav_PathCapacity(const gtNav* nav);

gtStatus gtNavQuery_Create(gtNav* nav, gtNavQuery** out, gtError* err);
void gtNavQuery_Destroy(gtNavQuery* query);

/// Shortest distance; +infinity when unreachable; GT_ERR_INVALID_POINT when s or t is not in the
/// closed free space.
gtStatus gtNav_Distance(gtNavQuery* query, gtVec2 s, gtVec2 t, double* distance, gtError* err);

/// Shortest path s, bends..., t into points[0..*count) (0 points when unreachable);
/// GT_ERR_BUFFER_TOO_SMALL with *count set to the size needed. `distance` may be NULL.
gtStatus gtNav_Path(gtNavQuery* query, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count,
                    double* distance, gtError* err);

/// The distance function a world's queries take (gtWorld_Nearest and friends), answered by the
/// query's backend. Fails only when the backend cannot start (out of memory).
gtStatus gtNavQuery_WorldDistance(gtNavQuery* query, gtDistance* distance, gtError* err);

/// Advances along a path by `step` map units from point `at`, which lies on segment
/// points[*segment] -> points[*segment + 1]: updates *segment and returns the new point. Stops at
/// the last point. The path follower a game's agents walk with.
gtVec2 gtPath_Advance(const gtVec2* points, int count, int* segment, gtVec2 at, double step);

#ifdef __cplusplus
}
#endif

#endif
