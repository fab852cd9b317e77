// Declared doors that cost nothing (issue 31): for each declared door, an index of the index's
// map with that door closed, built once per index in the background (repaired from the index, or
// from the first door's, around the door's cells). While the map differs from the index's only by
// closed declared doors, a closed door's index answers: exact when it is the only one closed,
// else when the ellipse of its answer misses every other closed door. Internal.
#ifndef GRIDTREE_NAV_DOORS_H
#define GRIDTREE_NAV_DOORS_H

#include "nav/nav_internal.h"

// The doors' indexes a query object has bound (one gtEhlQuery per door).
typedef struct NavDoorQueries NavDoorQueries;

// Before the index changes (it may be freed): waits for a running door job, which reads it, and
// drops the doors' indexes, made for it.
void nav_doors_index_changed(gtNav* nav);
// After every edit (and a new index): which doors are closed, and whether the map differs from
// the index's by closed doors alone.
void nav_doors_edited(gtNav* nav);
// Whether a finished rebuild must wait before it is taken: a door job is still reading the index
// (asked to stop after its current door).
bool nav_doors_hold_rebuild(gtNav* nav);
// A background rebuild started: a running door job stops after its current door (it would hold
// the rebuild's index back; the rebuild's index gets door indexes of its own).
void nav_doors_stop(gtNav* nav);
// gtNav_Update: takes a finished door job; starts one when declared doors have no index yet, the
// nav has one and no rebuild runs.
void nav_doors_update(gtNav* nav);
// Starts the door job if one is due and waits for it (gtNav_WaitForRebuild, foreground builds).
void nav_doors_wait(gtNav* nav);
void nav_doors_free(gtNav* nav);

// Whether index query `eq`'s last answer, s to t, still walks on the map as it is (checked against
// the walls added since the nav's index: while only doors are closed, the closed doors).
typedef bool NavAnswerWalks(const gtNav* nav, const gtEhlQuery* eq, gtVec2 s, gtVec2 t);

// The query object of a closed door's index whose answer for s, t is exact on the map as it is,
// with that answer in *d (or any value >= `limit` when the answer is not below it); NULL when no
// door's index can tell (the caller's other ways), or on failure (*status).
gtEhlQuery* nav_doors_pick(gtNavQuery* q, NavDoorQueries** scratch, gtVec2 s, gtVec2 t, double limit,
                           NavAnswerWalks* walks, double* d, gtStatus* status, gtError* err);
// Whether the doors' indexes answer every query as the map is now (only declared doors closed, and
// one index for all of them): the views need not follow the edit.
bool nav_doors_answer_all(const gtNav* nav);
// While one index answers all (above): its map, which is the map as it is (and which that index
// reads during the query anyway), else NULL.
const gtMap* nav_doors_map(const gtNav* nav);
// Whether more than one declared door is closed (a door's index's path must then be checked).
bool nav_doors_several_closed(const gtNav* nav);
void nav_doors_free_queries(NavDoorQueries* queries);

#endif
