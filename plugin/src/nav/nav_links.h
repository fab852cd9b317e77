// A nav's links (gt_links.h, docs/links.md): the list and its handles, and the queries that take
// them, which the façade hands over to (nav.c) whenever links are enabled. Internal.
#ifndef GRIDTREE_NAV_LINKS_H
#define GRIDTREE_NAV_LINKS_H

#include "gridtree/gt_links.h"
#include "nav/nav_internal.h"

// Whether the links answer the nav's queries now: some link is enabled and the method walks
// around walls (straight lines ignore links).
bool nav_links_take(const gtNav* nav);
// Points a path may have beyond the map's: the enabled links' ends.
int nav_links_path_room(const gtNav* nav);
void nav_links_free(gtNav* nav);
void nav_links_free_scratch(void* scratch);

gtStatus nav_links_distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double* distance, gtError* err);
gtStatus nav_links_path(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, gtLinkId* links, int capacity, int* count,
                        double* distance, gtError* err);
gtStatus nav_links_world_distance(gtNavQuery* q, gtDistance* distance, gtError* err);

#endif
