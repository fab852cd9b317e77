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

// The slot a handle names, -1 when it names no live link.
int nav_link_slot(const gtNav* nav, gtLinkId id);
// The enabled links into out (NULL: only count them); returns how many.
int nav_links_enabled(const gtNav* nav, gtLinkEdge* out);

#endif
