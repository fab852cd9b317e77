/// @file gt_links.h
/// Links of a navigation space (docs/links.md): stairs, ladders, teleporters and jump-downs. A link
/// joins two points of the free space at a cost of its own (>= 0, possibly less than the straight
/// line between them, 0 for a teleporter), both ways or one way. Every distance, path and world
/// query of the nav after an edit of its links is exact with the links enabled then: the oracle and
/// EHL answer with them; Polyanya cannot, and says so; straight lines (euclid) ignore them.
///
/// Contents
///     Links    gtLinkId, gtNav_AddLink, gtNav_RemoveLink, gtNav_EnableLink, gtNav_GetLink
///     Paths    gtNavQuery_PathLinks, gtPath_AdvanceLinks
///     Reach    gtNavQuery_Reachable, gtNavQuery_NearestReachable
///     Floors   gtMap_FromFloors, gtNav_SetFloors, gtNav_FloorPoint, gtNav_PointFloor, gtNav_AddFloorLink,
///              gtNav_AddTiledLinks
#ifndef GRIDTREE_GT_LINKS_H
#define GRIDTREE_GT_LINKS_H

#include "gt_nav.h"
#include "gt_tiled.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A link's handle: its slot and a generation, so the handle of a removed link stays invalid after
/// its slot is reused. 0 (GT_LINK_NONE) is no link.
typedef uint32_t gtLinkId;
#define GT_LINK_NONE 0u

enum {
	GT_LINK_ONE_WAY = 1 << 0 ///< only from a to b (a drop you cannot climb back)
};

/// What a link is (gtNav_GetLink).
typedef struct gtLinkInfo {
	gtVec2 a, b;
	double cost;
	unsigned flags; ///< GT_LINK_*
	bool enabled;
} gtLinkInfo;

/// Links a nav may hold at once.
#define GT_NAV_MAX_LINKS 4096

/// Adds an enabled link from a to b (and back unless flags has GT_LINK_ONE_WAY) at `cost`.
/// GT_ERR_INVALID_POINT when an end is not in the closed free space; GT_ERR_INVALID_ARG for a cost
/// that is negative or not finite, unknown flags, or while the nav's method is polyanya (which
/// cannot take links); GT_ERR_LIMIT past GT_NAV_MAX_LINKS. Same threading rule as map edits.
gtStatus gtNav_AddLink(gtNav* nav, gtVec2 a, gtVec2 b, double cost, unsigned flags, gtLinkId* id, gtError* err);
/// Removes a link; GT_ERR_INVALID_ARG for a handle that names no live link.
gtStatus gtNav_RemoveLink(gtNav* nav, gtLinkId id, gtError* err);
/// Enables or disables a link (a disabled link is kept but never taken).
gtStatus gtNav_EnableLink(gtNav* nav, gtLinkId id, bool enabled, gtError* err);
/// The link's ends, cost and state; GT_ERR_INVALID_ARG for a handle that names no live link.
gtStatus gtNav_GetLink(const gtNav* nav, gtLinkId id, gtLinkInfo* info, gtError* err);
/// Live links (enabled or not).
int gtNav_LinkCount(const gtNav* nav);
/// Enabled links: while there are any, queries take them (the crowd's field method is not used).
int gtNav_EnabledLinkCount(const gtNav* nav);
/// Every live link's handle, in slot order, into ids[0..capacity); returns how many there are.
int gtNav_Links(const gtNav* nav, gtLinkId* ids, int capacity);

/// Builds the nav's index knowing its enabled two-way links (gtEhl_BuildWithLinks) from the map as
/// it is now. While exactly those links are enabled and the map is not edited, the index answers
/// with them in about the time it answers without links; otherwise (a link of the index disabled or
/// removed, links added, an edit) the oracle with links answers, exactly, until an index is built
/// again. One-way links are never in an index.
gtStatus gtNav_BuildIndexWithLinks(gtNav* nav, const gtEhlDef* def, gtError* err);

/// gtNavQuery_Path that also says where the path takes a link: links[i] is the link taken from
/// points[i] to points[i + 1], GT_LINK_NONE where the path walks (links has `capacity` entries).
/// The distance counts a link's cost, not its length.
gtStatus gtNavQuery_PathLinks(gtNavQuery* query, gtVec2 s, gtVec2 t, gtVec2* points, gtLinkId* links, int capacity,
                              int* count, double* distance, gtError* err);

/// gtPath_Advance along a path from gtNavQuery_PathLinks: `step` is spent in cost units, so a link
/// segment is crossed at its cost (a teleporter, cost 0, at once; a ladder of cost 6 over 2 cells in
/// 6 units of step), with the point moving along the segment meanwhile. *segment says whether the
/// agent is on a link now (links[*segment]), for the game to play a climb or a teleport.
gtVec2 gtPath_AdvanceLinks(const gtNav* nav, const gtVec2* points, const gtLinkId* links, int count, int* segment,
                           gtVec2 at, double step);
/// gtPath_AdvanceLinks with each link's cost given instead of its handle: costs[i] is the cost of
/// the link taken from points[i] to points[i + 1], NAN where the path walks (a path kept after its
/// links were removed, or read back from a save). NULL costs: gtPath_Advance.
gtVec2 gtPath_AdvanceCosts(const gtVec2* points, const double* costs, int count, int* segment, gtVec2 at, double step);

//------------------------------------------------------------------------------------------------
// Reachability

/// Whether b can be reached from a (walking and taking the enabled links) on the map as it is
/// now. O(1) per call: the walking components of the free space, and which components the links
/// join (one-way links one way), are remade on the first call after an edit or a change of the
/// links. GT_ERR_INVALID_POINT when a or b is not in the closed free space.
gtStatus gtNavQuery_Reachable(gtNavQuery* query, gtVec2 a, gtVec2 b, bool* reachable, gtError* err);

/// The point reachable from `from` closest to `to` by straight line (`to` itself when it is
/// reachable; `to` may be anywhere on the map, also in a wall), into *point, and the path to it as
/// gtNavQuery_PathLinks gives it (points and links may be NULL with capacity 0 for the point
/// alone). A point on a border between a reachable cell and an unreachable one is taken a hair
/// (1e-9 cells) inside the reachable cell.
gtStatus gtNavQuery_NearestReachable(gtNavQuery* query, gtVec2 from, gtVec2 to, gtVec2* point, gtVec2* points,
                                     gtLinkId* links, int capacity, int* count, double* distance, gtError* err);

//------------------------------------------------------------------------------------------------
// Floors: several floors side by side in one map, joined only by links (stairs, ladders, lifts).
// Floor f's cell (x, y) is map cell (f * (width + 1) + x, y): a blocked column stands between two
// floors, so no walk crosses from one to the next. A world over the map holds every floor's
// objects, and its queries span floors through the links.

/// A map of `floors` floors of width x height cells: `blocked` holds floors * width * height bytes,
/// floor after floor, each row-major (nonzero = blocked).
gtStatus gtMap_FromFloors(int floors, int width, int height, const unsigned char* blocked, gtMap** out, gtError* err);
/// Declares the nav's map as `floors` floors of `width` cells (as gtMap_FromFloors lays them out):
/// GT_ERR_INVALID_ARG unless the map is floors * (width + 1) - 1 cells wide and every column
/// between two floors is blocked.
gtStatus gtNav_SetFloors(gtNav* nav, int floors, int width, gtError* err);
/// Floors declared (1 when none were).
int gtNav_FloorCount(const gtNav* nav);
/// The map point of position `local` on floor `floor` (local as on floor 0).
gtVec2 gtNav_FloorPoint(const gtNav* nav, int floor, gtVec2 local);
/// The floor a map point is on and its position there; -1 for a point on no floor (between two).
int gtNav_PointFloor(const gtNav* nav, gtVec2 point, gtVec2* local);
/// gtNav_AddLink from `a` on floor `floor_a` to `b` on floor `floor_b` (stairs, a ladder, a lift).
/// GT_ERR_INVALID_ARG for a floor number out of range.
gtStatus gtNav_AddFloorLink(gtNav* nav, int floor_a, gtVec2 a, int floor_b, gtVec2 b, double cost, unsigned flags,
                            gtLinkId* id, gtError* err);
/// A Tiled level's floors and link objects (gt_tiled.h) on a nav over the map it loaded: declares
/// its floors (when it has floor groups) and adds its links, ids[i] the handle of gtTiled_Link(i)
/// (ids may be NULL, else it holds gtTiled_LinkCount entries). On failure no link is left added.
gtStatus gtNav_AddTiledLinks(gtNav* nav, const gtTiled* tiled, gtLinkId* ids, gtError* err);

#ifdef __cplusplus
}
#endif

#endif
