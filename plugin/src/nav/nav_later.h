// Big frees off the frame thread: indexes, maps and graphs a swap retires are queued and freed by a
// background job (a 27 MB index and its door indexes take milliseconds to give back). Internal.
#ifndef GRIDTREE_NAV_LATER_H
#define GRIDTREE_NAV_LATER_H

#include "nav/nav_internal.h"

// Queues index `ehl` and map `map` (either may be NULL) to be freed later; freed at once when
// there is no room to queue them.
void nav_free_later(gtNav* nav, gtEhl* ehl, gtMap* map);
// The same for a graph and landmarks (their arrays move to the queue; *graph and *landmarks are
// left empty).
void nav_free_graph_later(gtNav* nav, gtVisGraph* graph, gtLandmarks* landmarks);
// Frees what is queued in the background, unless the last batch is still being freed.
void nav_free_queued(gtNav* nav);
// Waits for the background frees and frees what is still queued (gtNav_Destroy, waits).
void nav_free_now(gtNav* nav);

#endif
