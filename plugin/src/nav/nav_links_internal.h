// The link list's layout, shared by the list (nav_links.c) and the queries (nav_links_query.c).
// Internal.
#ifndef GRIDTREE_NAV_LINKS_INTERNAL_H
#define GRIDTREE_NAV_LINKS_INTERNAL_H

#include "nav/nav_links.h"
#include "oracle/oracle_links.h"

typedef struct NavLink {
	gtVec2 a, b;
	double cost;
	unsigned flags;
	uint32_t generation; // bumped when the link is removed
	bool live, enabled;
} NavLink;

struct NavLinks {
	NavLink* items; // slots, live or free
	int count, capacity;
	int live, enabled;
	uint32_t generation;     // bumped by every change of the links
	int floors, floor_width; // gtNav_SetFloors (0 floors: none declared)
};

// The nav's links, made on first use (NULL when out of memory).
NavLinks* nav_links_of(gtNav* nav);

// A query's reachability state (nav_reach.c), in its links scratch: the slot, made on first use
// (NULL when out of memory).
typedef struct NavReach NavReach;
NavReach** nav_links_reach_slot(gtNavQuery* q, gtError* err);
void nav_reach_free(NavReach* r);
// The query's reachability state, made or remade for the map and links as they are now.
gtStatus nav_reach_made(gtNavQuery* q, const NavReach** out, gtError* err);
// The walking component of a valid point (free cells joined across shared edges, links aside),
// -1 when no free cell holds it or when the free cells whose closed squares hold it belong to
// different components (a pinch point: a walk from it may go into either).
int32_t nav_reach_part(const NavReach* r, gtVec2 p);
// How many walking components the map has (the parts are 0 .. that - 1).
int32_t nav_reach_parts(const NavReach* r);

// The slot a handle names, -1 when it names no live link.
int nav_link_slot(const gtNav* nav, gtLinkId id);
// The enabled links into out (NULL: only count them); returns how many.
int nav_links_enabled(const gtNav* nav, gtLinkEdge* out);
// The enabled two-way links, as an index is built knowing them (*out: the caller frees it).
gtStatus nav_links_index_links(const gtNav* nav, gtEhlLink** out, int* count, gtError* err);

// Whether the index was built knowing exactly these enabled links (and the map is unedited since):
// then ids[k] is the handle of the index's link k.
bool nav_links_index_fits(const gtNav* nav, const gtLinkEdge* enabled, int count, gtLinkId* ids);
// links[i] for a path the index gave: the link from points[i] to points[i + 1] when the path takes
// one there (the link is cheaper than the walk), else GT_LINK_NONE.
void nav_links_index_name_links(const gtNav* nav, const gtLinkId* ids, const gtVec2* points, gtLinkId* links,
                                int count);

#endif
