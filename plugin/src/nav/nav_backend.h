// One distance backend of the navigation façade (docs/backends.md): every method the façade
// offers is a NavBackend in nav_backends.c's table, implemented in its own backend_*.c file. The
// façade looks a method up in the table and calls it; it switches on methods nowhere else.
// Internal.
#ifndef GRIDTREE_NAV_BACKEND_H
#define GRIDTREE_NAV_BACKEND_H

#include "nav/nav_internal.h"

enum { NAV_CAP_AUTO = 1u << 16 }; // internal: GT_NAV_AUTO picks it (table order) when it is ready

struct NavBackend {
	const char* name;  // the method's name (--method, set_method, messages)
	unsigned caps;     // GT_NAV_CAP_* (gt_nav.h), and NAV_CAP_AUTO
	const char* needs; // what it must have before it answers ("an index"); NULL: nothing
	const char* how;   // how to give it that, for the messages
	// Whether the nav has what it needs (NULL: it needs nothing).
	bool (*ready)(const gtNav* nav);
	// Whether an edit outran its data (NULL: never): `stand_in` then answers for it until the data
	// is replaced. What a backend does after an edit is otherwise its own business: the oracle
	// repairs itself, EHL checks its answers and rebuilds (nav_edit.c).
	bool (*outdated)(const gtNav* nav);
	gtNavMethod stand_in;
	// Makes the query's scratch space (q->scratch[method]) ready for the nav as it is now.
	gtStatus (*bind)(gtNavQuery* q, gtError* err);
	void (*free_scratch)(void* scratch);
	// Distance and path, as gtNavQuery_Distance and gtNavQuery_Path promise (points checked).
	gtStatus (*distance)(gtNavQuery* q, gtVec2 s, gtVec2 t, double* distance, gtError* err);
	gtStatus (*path)(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* distance,
	                 gtError* err);
	// The world's distance function, with its `below` (distance below a limit) when it has one.
	// NULL: the façade's default, `distance` per candidate (INFINITY where it fails).
	gtDistance (*world_distance)(gtNavQuery* q);
};

// The backend of `method`; NULL for GT_NAV_AUTO and for values that are no method.
const NavBackend* nav_backend(gtNavMethod method);
// Whether the nav has what `method` needs (GT_NAV_AUTO always does).
bool nav_backend_ready(const gtNav* nav, gtNavMethod method);
// Sets nav->method and nav->backend from def.method and the data the nav has: call after any
// change of either.
void nav_choose_backend(gtNav* nav);

// Shared by the backends: GT_ERR_INVALID_POINT unless s and t are both in the closed free space of `map`.
gtStatus nav_check_points(const gtMap* map, gtVec2 s, gtVec2 t, gtError* err);
// The oracle of the map as edited, built (or repaired) when first needed after each edit: the
// oracle method's own, and EHL's for the answers an index the edits outran cannot give.
// One view per edit, shared by every query object of the nav (nav_view.c); each searches it with
// its own searcher.
gtStatus nav_oracle_ready(gtNavQuery* q, gtError* err);
// The same, but while the view for now is being made the query keeps the older one it holds
// (nav_view_soon): its answers hold when nav_view_holds_for says so.
gtStatus nav_oracle_soon(gtNavQuery* q, gtError* err);
const gtOracle* nav_oracle(const gtNavQuery* q);
typedef struct gtOracleSearch gtOracleSearch;
gtOracleSearch* nav_oracle_searcher(const gtNavQuery* q);
typedef struct NavView NavView;
const NavView* nav_oracle_view(const gtNavQuery* q);

#endif
