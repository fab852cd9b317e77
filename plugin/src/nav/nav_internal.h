// The navigation façade's state, shared by its query dispatch (nav.c) and its map edits
// (nav_edit.c). Internal.
#ifndef GRIDTREE_NAV_INTERNAL_H
#define GRIDTREE_NAV_INTERNAL_H

#include <stdatomic.h>

#include "gridtree/gt_nav.h"
#include "gridtree/gt_oracle.h"
#include "map/vis_graph.h"
#include "oracle/landmarks.h"

typedef struct NavRect {
	int x0, y0, x1, y1;
} NavRect;

typedef struct NavDoor {
	NavRect cells;
	bool open;
} NavDoor;

typedef struct NavRebuild NavRebuild; // a background index build (nav_edit.c)
typedef struct NavBackend NavBackend; // a distance backend (nav_backend.h)
typedef struct NavLinks NavLinks;     // the nav's links (nav_links.c)
typedef struct NavViews NavViews;     // views of the map as edited, shared by query objects (nav_view.c)
// An index per declared door, built with it closed (nav_doors.c).
typedef struct NavDoorIndexes NavDoorIndexes;
typedef struct NavLater NavLater; // big frees done in the background (nav_later.c)

enum { NAV_TILE = 8, NAV_EDIT_LOG = 64 };

struct gtNav {
	gtMap* map; // the caller's map, which edits change in place
	gtNavDef def;
	// The backend def.method stands for now (never GT_NAV_AUTO), chosen again by
	// nav_choose_backend whenever the method, the index or the mesh changes.
	gtNavMethod method;
	const NavBackend* backend;
	gtEhl* ehl;
	uint32_t ehl_generation; // bumped whenever the index changes, so queries rebind lazily
	gtMesh* mesh;
	uint32_t mesh_generation;     // bumped whenever the mesh changes
	uint32_t mesh_map_generation; // the map_generation the mesh matches
	// Edits. The index answers for `index_map` (its own snapshot once the map was edited since, NULL
	// while it is the map itself). Against it, `added` cells are walls now that were free (the index
	// is a lower bound: its paths are checked against `added_rects`), `freed` cells are free now
	// that were walls (the index is no bound: the oracle answers until a rebuild).
	gtMap* index_map;
	int64_t added, freed;
	int32_t* added_tiles; // added cells per TILE x TILE block, to find what a path must check
	int tile_columns, tile_rows;
	NavRect* added_rects; // rectangles holding every added cell (a superset), for the ellipse test
	int64_t added_rect_count, added_rect_capacity;
	NavRect* freed_rects; // the same for freed cells: a path shorter than the index's must touch one
	int64_t freed_rect_count, freed_rect_capacity;
	uint32_t map_generation;       // bumped by every edit: oracles repair (or rebuild) lazily
	int edit_log[NAV_EDIT_LOG][4]; // the cells of edit g (after the bump) at g % NAV_EDIT_LOG
	NavDoor* doors;
	int64_t door_count, door_capacity;
	NavRebuild* rebuild;
	// The visibility graph of index_map when a background rebuild made it (empty otherwise), and
	// the map_generation it stands for: the next rebuild repairs it around the edits since.
	gtVisGraph graph;
	uint32_t graph_generation;
	gtLandmarks landmarks;   // the graph's landmark distances, computed by the rebuild too (count 0: none)
	gtStatus rebuild_status; // why the last background rebuild failed (GT_OK: it did not)
	// What the last rebuilds' graphs took to build anew and to repair (0: not known yet).
	double graph_build_seconds, graph_repair_seconds;
	gtError rebuild_error;
	uint32_t rebuild_failed_generation; // the map_generation it failed for: not tried again before the next edit
	gtEhlDef rebuild_def;               // how the index was last built (a rebuild after frees repeats it)
	bool has_rebuild_def;
	int building;         // foreground builds running: their progress callback must not edit the map they read
	bool build_cancelled; // gtNav_CancelBuild was called from the innermost running build's callback
	NavLinks* links;      // NULL until the first link
	NavViews* views;
	NavDoorIndexes* door_indexes; // NULL until the first door index
	NavLater* later;              // NULL until the first free put off
};

struct gtNavQuery {
	gtNav* nav;
	void* scratch[GT_NAV_METHOD_COUNT]; // each backend's own query state, made by its bind (nav_backend.h)
	const NavBackend* world_backend;    // what the default world distance calls (gtNavQuery_WorldDistance)
	void* links_scratch;                // the links' query state (nav_links_query.c)
};

// The index's map: what its distances are exact for.
static inline const gtMap* nav_index_map(const gtNav* nav)
{
	return nav->index_map ? nav->index_map : nav->map;
}

// Replaces the index (NULL drops it); `built_for` is the map it was made for when that is a
// private copy (the nav takes it), else NULL. Recounts the edits against it.
void nav_set_index(gtNav* nav, gtEhl* ehl, gtMap* built_for);
// Frees the edit state (doors, rects, snapshot, a running rebuild).
void nav_free_edits(gtNav* nav);
// Whether segment a-b may touch a wall added since the index (then it must be checked).
bool nav_near_added(const gtNav* nav, gtVec2 a, gtVec2 b);
// The added rectangles as x0, y0, x1, y1 quadruples (at most `room` of them: more are merged).
int nav_added_rects(const gtNav* nav, int* out, int room);
// Whether some path from s to t no longer than `length` may touch a wall added since the index:
// false when every added rectangle R has |s R| + |R t| > length (a path that short stays inside
// the ellipse of foci s and t, which misses R).
bool nav_ellipse_hits_added(const gtNav* nav, gtVec2 s, gtVec2 t, double length);
// The same for the walls removed since the index: false when no path from s to t through a freed
// cell can be as short as `length`.
bool nav_ellipse_hits_freed(const gtNav* nav, gtVec2 s, gtVec2 t, double length);
// The same test against `count` rectangles of cells (each grown by one cell).
bool nav_ellipse_hits_rects(const NavRect* rects, int64_t count, gtVec2 s, gtVec2 t, double length);
// Cells blocked now, free in the index's map, inside a closed declared door (each counted once).
int64_t nav_added_in_closed_doors(const gtNav* nav);
// How indexes are built for this nav: `def`, else how the last was, else the defaults (for a
// loaded index its cell size); no progress callback when none is given.
gtEhlDef nav_build_def(const gtNav* nav, const gtEhlDef* def);

#endif
