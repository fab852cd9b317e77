// Views of the map as edited, shared by every query object of a nav: one oracle per map edit
// generation (a copy of the map at that edit and its visibility graph), made once, in the
// background where it can be, and searched by any number of query objects at once, each with its
// own searcher. Internal.
#ifndef GRIDTREE_NAV_VIEW_H
#define GRIDTREE_NAV_VIEW_H

#include <stdatomic.h>

#include "nav/nav_internal.h"
#include "oracle/oracle.h"

typedef struct NavView {
	atomic_int refs;     // the nav's own and each query object's holding it
	uint32_t generation; // the map_generation it answers for
	// Derived (gt_oracle_after_blocks) from the graph of the index map of index `root` (NavViews'
	// count of indexes set): the index then knows every first and last bend it allows.
	bool derived;
	uint32_t root;
	gtMap* map; // its own copy of the map at that generation: the nav's changes in place
	gtOracle* oracle;
} NavView;

// The nav's views and the job that makes the next one (nav->views), made with the nav.
gtStatus nav_views_create(gtNav* nav, gtError* err);
// Waits for a running job and drops every view the nav holds (query objects keep theirs).
void nav_views_free(gtNav* nav);
// Owning thread: after an edit (nav_edit.c), starts the view of the map as it is now in the
// background, when the nav answers through views and no job runs.
void nav_views_edited(gtNav* nav);
// Owning thread: takes a finished job and starts the next one the edits call for (gtNav_Update).
void nav_views_update(gtNav* nav);
// Owning thread: the index changed (nav_set_index): views derived from the old one's map stay
// plain views.
void nav_views_index_changed(gtNav* nav);
// Owning thread: an index was loaded: the visibility graph of its map (and its landmarks), which
// every view derived after walls are added starts from, is built in the background from its
// first edit on (a rebuilt index brings its own).
void nav_views_index_loaded(gtNav* nav);

// The view of the map as it is now for a query object holding `*held` (NULL at first): kept when
// it still fits, else the nav's current one (made here, or waited for, if need be) and the old one
// released. Any thread; query objects of one nav may call it at once.
gtStatus nav_view_acquire(gtNav* nav, NavView** held, gtError* err);
void nav_view_release(NavView* view);
// The same without waiting when the query holds an older view the edit log still covers: it keeps
// that one until the view for now is made (check answers with nav_view_holds_for).
gtStatus nav_view_soon(gtNav* nav, NavView** held, gtError* err);
// Whether `view` is the view of the map as it is now.
bool nav_view_is_now(const gtNav* nav, const NavView* view);
// Whether an answer `length` from s to t on `view`'s map is the answer on the map now.
bool nav_view_holds_for(const gtNav* nav, const NavView* view, gtVec2 s, gtVec2 t, double length);
// Whether the index's first and last bends may seed a search of `view` (derived from its map).
bool nav_view_seeded_by_index(const gtNav* nav, const NavView* view);

#endif
