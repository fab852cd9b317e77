/// @file gt_nav.h
/// The navigation façade: one map and its distance backends behind one interface. Distances and
/// paths, and the distance function a world's queries use, all come from here, whatever answers
/// them: an EHL index when one is built or loaded, else the exact oracle (built on first use), or
/// straight lines. A gtNav is shared; each thread queries through its own gtNavQuery.
///
/// Contents
///     Backends     gtNavMethod, gtNavMethod_Name, gtNavMethod_Parse
///     The nav      gtNavDef, gtNav_Create, gtNav_Destroy
///     Index, mesh  gtNav_BuildIndex, gtNav_LoadIndex, gtNav_LoadMesh, gtNav_SetMethod
///     Edits        gtNav_SetBlocked, gtNav_AddDoor, gtNav_RebuildIndex, gtNav_Update
///     Queries      gtNavQuery_Create and the distance, path and world-distance queries
///     Paths        gtPath_Advance
#ifndef GRIDTREE_GT_NAV_H
#define GRIDTREE_GT_NAV_H

#include "gt_ehl.h"
#include "gt_mesh.h"
#include "gt_map.h"
#include "gt_world.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Backends

/// Which backend answers distances and paths.
typedef enum gtNavMethod {
	GT_NAV_AUTO = 0,    ///< the EHL index when there is one, else the oracle
	GT_NAV_EHL,         ///< exact, microseconds; needs an index (gtNav_BuildIndex / gtNav_LoadIndex)
	GT_NAV_ORACLE,      ///< exact, Dijkstra over the visibility graph: a correctness tool, not a fast path
	GT_NAV_EUCLID,      ///< straight-line distance, ignoring walls (hearing, messaging ranges)
	GT_NAV_POLYANYA,    ///< exact, Polyanya on a navigation mesh (gtNav_LoadMesh / gtNav_SetMesh): little memory
	GT_NAV_METHOD_COUNT ///< not a method: how many values there are
} gtNavMethod;

/// What a method's backend does and needs (gtNavMethod_Caps).
enum {
	GT_NAV_CAP_WALLS = 1 << 0,       ///< distances walk around walls (else straight lines)
	GT_NAV_CAP_USES_INDEX = 1 << 1,  ///< answers from the nav's EHL index when it has one
	GT_NAV_CAP_USES_MESH = 1 << 2,   ///< answers from the nav's mesh
	GT_NAV_CAP_NEEDS_INDEX = 1 << 3, ///< can be chosen only once the nav has an index
	GT_NAV_CAP_NEEDS_MESH = 1 << 4   ///< can be chosen only once the nav has a mesh
};

/// "auto", "ehl", "oracle", "euclid", "polyanya"; "unknown" for any other value.
const char* gtNavMethod_Name(gtNavMethod method);
/// The inverse of gtNavMethod_Name; GT_ERR_INVALID_ARG naming the choices for anything else.
gtStatus gtNavMethod_Parse(const char* name, gtNavMethod* method, gtError* err);
/// Every method's name, `separator` between them, into out[0..size) (cut short, always
/// terminated, when size > 0); returns the length the whole list needs, like snprintf.
int gtNavMethod_Names(char* out, int size, const char* separator);
/// GT_NAV_CAP_* flags of `method` (GT_NAV_AUTO: what every automatic choice does, and the data any
/// of them uses); 0 for a value that is no method.
unsigned gtNavMethod_Caps(gtNavMethod method);

//------------------------------------------------------------------------------------------------
// The nav

typedef struct gtNav gtNav;

/// Per-thread query state: scratch space of the active backend, created lazily and kept until the
/// backend changes, so queries never allocate once warm.
typedef struct gtNavQuery gtNavQuery;

typedef struct gtNavDef {
	gtNavMethod method;        ///< GT_NAV_AUTO
	int threads;               ///< workers for the oracle's visibility graph; 0 = gtSetTasks's (one per online core)
	const gtTaskSystem* tasks; ///< NULL = gtSetTasks's (gridtree's built-in pool)
	bool manual_rebuild;       ///< true: edits start no background rebuild (gtNav_RebuildIndex does)
	/// Declared doors given an index of their own (the index's map with that door closed, so closing
	/// it costs queries nothing; each takes about the index's memory): 0 = as many as fit, in the
	/// order declared, with the doors' (and closed door sets') indexes holding at most 8 times the
	/// index's bytes in all; N > 0 = the first N doors; -1 = none.
	int door_indexes;
	/// Nice steps below the thread that starts them for the background rebuilds, the doors' job and
	/// the background frees when they run on gridtree's own threads (Linux, where nice is per
	/// thread; no host `tasks`), 0 to 19: 10 = the frame's thread comes first on a busy machine
	/// (and rebuilds wait there); 0 = the same priority. The edited map's views stay at the
	/// caller's (queries wait for them).
	int background_nice;
} gtNavDef;

/// GT_NAV_AUTO, all cores, the built-in pool, rebuilds that start by themselves, 10 nice steps down.
gtNavDef gtNav_DefaultDef(void);

/// The nav keeps a pointer to the map, which must outlive it. Map edits (gtNav_SetBlocked, doors)
/// change that map in place, so the worlds over it see them too.
gtStatus gtNav_Create(const gtMap* map, const gtNavDef* def, gtNav** out, gtError* err);
/// Destroy every gtNavQuery of this nav first.
void gtNav_Destroy(gtNav* nav);

const gtMap* gtNav_Map(const gtNav* nav);

//------------------------------------------------------------------------------------------------
// Index, mesh and method

/// Builds an EHL index (see gtEhl_Build) and makes it the nav's index, replacing any other.
/// Reentrancy: the build reads the map while def->progress runs, so the callback may query this
/// nav and its worlds, load or set another index, even build again, but edits of this map
/// (gtNav_SetBlocked, gtNav_AddDoor, gtNav_SetDoor) are refused with GT_ERR_INVALID_ARG
/// ("map is being indexed") until the build returns. gtEhl_Build on a map directly has the same
/// rule, unchecked: its progress callback must not change that map.
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

/// Loads a Polyanya navigation mesh (`.mesh` version 2) for GT_NAV_POLYANYA. It must cover exactly
/// the map's free cells (checked: every cell's centre); GT_ERR_INVALID_ARG names a cell where it
/// does not. After a map edit the mesh no longer matches: GT_NAV_POLYANYA queries are then
/// answered by the oracle on the edited map (exact, slower) until a mesh is set again.
gtStatus gtNav_LoadMesh(gtNav* nav, const char* path, gtError* err);
/// The same with a mesh in memory; the nav takes it (and destroys it on failure).
gtStatus gtNav_SetMesh(gtNav* nav, gtMesh* mesh, gtError* err);
/// The nav's mesh, or NULL.
const gtMesh* gtNav_Mesh(const gtNav* nav);

/// Chooses the backend. GT_NAV_EHL without an index, or GT_NAV_POLYANYA without a mesh, is
/// GT_ERR_INVALID_ARG (with a hint).
gtStatus gtNav_SetMethod(gtNav* nav, gtNavMethod method, gtError* err);
/// The backend that answers now (never GT_NAV_AUTO).
gtNavMethod gtNav_Method(const gtNav* nav);

//------------------------------------------------------------------------------------------------
// Doors and walls that change (docs/edits.md). An edit changes the nav's map in place; every
// distance, path and world query after it is exact for the edited map, from the very next call.
// Edits, doors and gtNav_Update must not run while any query of this nav (or of a world over its
// map) runs on another thread: make them between frames.

/// Sets the cells of the inclusive rectangle [x0, x1] x [y0, y1] blocked or free.
/// GT_ERR_INVALID_ARG for a rectangle that is empty or not inside the map.
gtStatus gtNav_SetBlocked(gtNav* nav, int x0, int y0, int x1, int y1, bool blocked, gtError* err);

/// Declares a door over the inclusive cell rectangle and opens it (its cells become free). An
/// index built while doors are declared is built with every door open, so closing one only adds
/// walls: the fast case. `*id` receives the door's id (0, 1, ...).
gtStatus gtNav_AddDoor(gtNav* nav, int x0, int y0, int x1, int y1, int* id, gtError* err);
/// Opens or closes a declared door (its cells free or blocked).
gtStatus gtNav_SetDoor(gtNav* nav, int id, bool open, gtError* err);
/// Doors declared so far (their ids are 0 .. count - 1).
int gtNav_DoorCount(const gtNav* nav);
/// Whether door `id` is open; false for an unknown id.
bool gtNav_DoorOpen(const gtNav* nav, int id);
/// Memory held by the declared doors' own indexes (one per door, up to 16, of the index's map with
/// that door closed, built in the background after each index: closing doors then costs queries
/// nothing; docs/edits.md); `*ready` (may be NULL): how many doors have one. Cell arrays a door's
/// index shares (gtEhl_SharedBytes) count once, and not at all when the nav's index holds them.
int64_t gtNav_DoorIndexBytes(const gtNav* nav, int* ready);

/// How the index stands against the edits.
typedef enum gtNavIndexState {
	GT_NAV_INDEX_NONE = 0,    ///< no index
	GT_NAV_INDEX_EXACT,       ///< no edit since it was made (or only doors it was built open, reopened)
	GT_NAV_INDEX_LOWER_BOUND, ///< walls were only added: answers it gives are checked, detours searched
	GT_NAV_INDEX_STALE        ///< walls were removed: the oracle answers until a rebuild replaces it
} gtNavIndexState;

gtNavIndexState gtNav_IndexState(const gtNav* nav);

/// Rebuilds the index for the map as it is now, with every declared door open. `background`
/// false: now, on the calling thread (and workers). `background` true: on the nav's task system
/// (a host's enqueue, or a thread of gridtree's own), while queries go on; gtNav_Update swaps it
/// in. A rebuild starts by itself when an edit removes walls from an indexed map, with the
/// settings the index was last built with (the default ones for a loaded index), and when an
/// edit adds walls that are not a declared door's (closing declared doors needs no rebuild).
gtStatus gtNav_RebuildIndex(gtNav* nav, const gtEhlDef* def, bool background, gtError* err);
/// Call between frames: when a background rebuild has finished, makes it the index if the map
/// still has every wall it was built with, or if walls were removed since the index there was
/// made (it is stale either way, the new one nearer), and returns true; a rebuild for the edits
/// that landed meanwhile starts.
bool gtNav_Update(gtNav* nav);
/// Waits for a background rebuild to finish and takes it (what gtNav_Update does, without the
/// waiting left to the frames), then for the declared doors' indexes.
void gtNav_WaitForRebuild(gtNav* nav);
/// Whether a background rebuild is running.
bool gtNav_Rebuilding(const gtNav* nav);
/// Why the last background rebuild failed (GT_ERR_LIMIT: the edited map has more corners than EHL
/// supports; GT_ERR_NOMEM; ...), with its message in *err; GT_OK when it did not. A failed rebuild
/// is not tried again until the map changes again; the answers stay exact (checked or the oracle's).
gtStatus gtNav_RebuildStatus(const gtNav* nav, gtError* err);
/// From the progress callback of gtNav_BuildIndex (or gtNav_RebuildIndex in the foreground) on
/// this nav: the index being built is thrown away when the build ends, the nav keeps the one it
/// had, and the build returns GT_ERR_INVALID_ARG. Elsewhere it does nothing.
void gtNav_CancelBuild(gtNav* nav);

//------------------------------------------------------------------------------------------------
// Queries (one gtNavQuery per thread)

/// Points a path can have at most (convex vertices + 2): a buffer this big never comes back
/// GT_ERR_BUFFER_TOO_SMALL.
int gtNav_PathCapacity(const gtNav* nav);

gtStatus gtNavQuery_Create(gtNav* nav, gtNavQuery** out, gtError* err);
void gtNavQuery_Destroy(gtNavQuery* query);

/// Shortest distance; +infinity when unreachable; GT_ERR_INVALID_POINT when s or t is not in the
/// closed free space.
gtStatus gtNavQuery_Distance(gtNavQuery* query, gtVec2 s, gtVec2 t, double* distance, gtError* err);

/// Shortest path s, bends..., t into points[0..*count) (0 points when unreachable);
/// GT_ERR_BUFFER_TOO_SMALL with *count set to the size needed. `distance` may be NULL.
gtStatus gtNavQuery_Path(gtNavQuery* query, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count,
                         double* distance, gtError* err);

/// The distance function a world's queries take (gtWorld_Nearest and friends), answered by the
/// query's backend. Fails only when the backend cannot start (out of memory).
gtStatus gtNavQuery_WorldDistance(gtNavQuery* query, gtDistance* distance, gtError* err);

//------------------------------------------------------------------------------------------------
// Paths

/// Advances along a path by `step` map units from point `at`, which lies on segment
/// points[*segment] -> points[*segment + 1]: updates *segment and returns the new point. Stops at
/// the last point. The path follower a game's agents walk with.
gtVec2 gtPath_Advance(const gtVec2* points, int count, int* segment, gtVec2 at, double step);

/// Former names, kept for one release: gtNavQuery_Distance, gtNavQuery_Path, gtNavMethod_Name.
#define gtNav_Distance gtNavQuery_Distance
#define gtNav_Path gtNavQuery_Path
#define gtNavMethodName gtNavMethod_Name

#ifdef __cplusplus
}
#endif

#endif
