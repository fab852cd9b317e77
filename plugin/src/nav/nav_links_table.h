// Links over the EHL index: the walks between the link ends closed under the link edges
// (nav_links_table.c). Internal.
#ifndef GRIDTREE_NAV_LINKS_TABLE_H
#define GRIDTREE_NAV_LINKS_TABLE_H

#include "nav/nav_backend.h"
#include "nav/nav_links_internal.h"

// The table for at most this many links (it holds (2 links)^2 entries); beyond, the oracle answers.
enum { NAV_LINK_TABLE_MAX = 512 };

typedef struct LinkTable LinkTable;

// Asks backend `b` (bound for q) the walks between every two ends of `links`.
gtStatus nav_link_table_create(gtNavQuery* q, const NavBackend* b, const gtLinkEdge* links, int count, LinkTable** out,
                               gtError* err);
void nav_link_table_free(LinkTable* t);
// Distance and path with the links, for checked points.
gtStatus nav_link_table_distance(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 s, gtVec2 p, double* d,
                                 gtError* err);
gtStatus nav_link_table_path(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 s, gtVec2 p, gtVec2* points,
                             gtLinkId* links, int capacity, int* count, double* d, gtError* err);
// The world's distance with the links (+infinity for invalid points or on failure).
double nav_link_table_world(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 from, gtVec2 to);

#endif
