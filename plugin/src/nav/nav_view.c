// Views of the map as edited (nav_view.h): the oracle of each edit generation made once per nav,
// not once per query object, and from the view before it around that edit's cells alone: a wall
// built derives the new graph from the last one (gt_oracle_after_blocks, a few milliseconds), a wall
// removed repairs it (gt_oracle_repaired). A job on the task interface makes the next view as soon
// as an edit lands; a query that needs it first waits for that job, or makes it itself.
//
// Threads: the owning thread edits (and so plans jobs) only while no query runs; queries of one
// nav on several threads take views under `lock`; a job reads only what it was given (copies, or
// views it holds a reference to) and writes only its own result. A view never changes once made.
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "core/job.h"
#include "core/task.h"
#include "map/map_internal.h"
#include "nav/nav_doors.h"
#include "nav/nav_view.h"

typedef enum { MAKE_SCRATCH, MAKE_FROM_GRAPH, MAKE_REPAIR, MAKE_AFTER_BLOCKS } Make;

typedef struct ViewJob {
	Make make;
	bool base;             // the result is the index map's view (with landmarks), not the map's now
	NavView* from;         // a reference: what a repair or a derivation starts from
	NavView* result;       // its map copied when planned, its oracle made when run
	gtVisGraph graph;      // MAKE_FROM_GRAPH: a copy of the graph the last rebuild kept
	gtLandmarks landmarks; // and of its landmarks (none: computed)
	int* rects;            // the changed cells since `from`, x0, y0, x1, y1 each
	int rect_count;
	const gtTaskSystem* tasks; // a graph from scratch: on the nav's tasks when made for a waiting query,
	int threads;               // else on the job's own thread alone (no host work nested in a host job)
	gtStatus status;
	gtError err;
	gtJob job; // not started: it ran where it was planned
} ViewJob;

struct NavViews {
	pthread_mutex_t lock;
	NavView* current;      // the newest view made
	NavView* base;         // the index map's view (plain, with landmarks), for index `base->root`
	uint32_t index_serial; // counts the indexes set: a derived view's root
	ViewJob* job;          // running, or finished and not yet taken
	bool base_at_edit;     // a loaded index: the first edit starts its map's graph from scratch
};

// ---- views --------------------------------------------------------------------------------------

void nav_view_release(NavView* view)
{
	if (!view || atomic_fetch_sub(&view->refs, 1) != 1) return;
	gtOracle_Destroy(view->oracle);
	gtMap_Destroy(view->map);
	gt_free(view);
}

static NavView* view_ref(NavView* view)
{
	atomic_fetch_add(&view->refs, 1);
	return view;
}

static gtStatus new_view(const gtMap* map, uint32_t generation, NavView** out, gtError* err)
{
	NavView* v = *out = gt_calloc(1, sizeof *v);
	if (!v) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a view of the map");
	atomic_init(&v->refs, 1);
	v->generation = generation;
	return gt_map_copy(map, &v->map, err);
}

// Walls only added since the index: views are derived from its map's graph, and the index's first
// and last bends seed their searches.
static bool want_derived(const gtNav* nav)
{
	return nav->ehl && nav->index_map && nav->freed == 0 && nav->added > 0;
}

static bool fits(const gtNav* nav, const NavViews* vs, const NavView* v)
{
	if (!v || !v->oracle || v->generation != nav->map_generation) return false;
	return !want_derived(nav) || (v->derived && v->root == vs->index_serial);
}

bool nav_view_seeded_by_index(const gtNav* nav, const NavView* view)
{
	return view->derived && view->root == nav->views->index_serial;
}

// Whether the nav answers through views after its edits: the oracle method, or an edited index.
static bool uses_views(const gtNav* nav)
{
	if (nav->ehl && nav_doors_answer_all(nav)) return false; // a door's index answers: no search
	return nav->ehl ? nav->added > 0 || nav->freed > 0 : nav->method == GT_NAV_ORACLE;
}

// ---- jobs ---------------------------------------------------------------------------------------

static void job_run(void* context)
{
	ViewJob* j = context;
	gtOracle* o = NULL;
	const gtMap* map = j->result->map;
	gtError* err = &j->err;
	gtStatus st;
	if (j->make == MAKE_SCRATCH) st = gt_oracle_create(map, j->tasks, j->threads, &o, err);
	else if (j->make == MAKE_FROM_GRAPH) st = gt_oracle_take_graph(map, &j->graph, &o, err);
	else if (j->make == MAKE_REPAIR) st = gt_oracle_repaired(j->from->oracle, map, j->rects, j->rect_count, &o, err);
	else st = gt_oracle_after_blocks(j->from->oracle, map, j->rects, j->rect_count, &o, err);
	if (!st && j->base && j->landmarks.dist) st = gt_oracle_copy_landmarks(o, &j->landmarks, err);
	if (!st && j->base) st = gt_oracle_add_landmarks(o, err); // none copied: computed
	if (st) {
		gtOracle_Destroy(o);
		o = NULL;
	}
	j->result->oracle = o;
	j->status = st;
}

static void job_free(ViewJob* j)
{
	if (!j) return;
	nav_view_release(j->from);
	nav_view_release(j->result);
	gt_vis_graph_free(&j->graph);
	gt_landmarks_free(&j->landmarks);
	gt_free(j->rects);
	gt_free(j);
}

static void job_wait(ViewJob* j)
{
	gt_job_join(&j->job);
}

// The cells of the edits after generation `since` up to now, or NULL when the log no longer holds
// them all (or there is no room).
static int* logged_rects(const gtNav* nav, uint32_t since, int* count)
{
	uint32_t edits = nav->map_generation - since;
	*count = 0;
	if (edits == 0 || edits >= NAV_EDIT_LOG) return NULL;
	int* rects = gt_malloc((size_t)edits * 4 * sizeof *rects);
	for (uint32_t i = 0; rects && i < edits; i++)
		memcpy(rects + 4 * i, nav->edit_log[(since + 1 + i) % NAV_EDIT_LOG], 4 * sizeof *rects);
	*count = rects ? (int)edits : 0;
	return rects;
}

// Whether no cell of `rects` went from blocked on `then` to free on `now`.
static bool only_added(const gtMap* then, const gtMap* now, const int* rects, int count)
{
	for (int r = 0; r < count; r++)
		for (int y = rects[4 * r + 1]; y <= rects[4 * r + 3]; y++)
			for (int x = rects[4 * r]; x <= rects[4 * r + 2]; x++)
				if (gtMap_IsBlocked(then, x, y) && !gtMap_IsBlocked(now, x, y)) return false;
	return true;
}

// The job that makes the index map's view: from the graph the last rebuild kept, else from scratch.
static gtStatus plan_base(const gtNav* nav, const NavViews* vs, ViewJob* j, gtError* err)
{
	j->base = true;
	gtStatus st = new_view(nav_index_map(nav), nav->map_generation, &j->result, err);
	if (st) return st;
	j->result->root = vs->index_serial;
	j->make = nav->graph.offset ? MAKE_FROM_GRAPH : MAKE_SCRATCH;
	if (j->make == MAKE_FROM_GRAPH && !gt_vis_graph_copy(&nav->graph, &j->graph))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for a view of the map");
	const gtLandmarks* l = &nav->landmarks;
	if (j->make == MAKE_FROM_GRAPH && l->dist && l->n == nav->graph.n) {
		size_t entries = (size_t)l->n * (size_t)l->count;
		j->landmarks = (gtLandmarks){l->count, l->n, gt_malloc((entries + 1) * sizeof *l->dist),
		                             gt_malloc(((size_t)l->count + 1) * sizeof *l->vertex)};
		if (!j->landmarks.dist || !j->landmarks.vertex) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		if (entries) memcpy(j->landmarks.dist, l->dist, entries * sizeof *l->dist);
		if (l->count) memcpy(j->landmarks.vertex, l->vertex, (size_t)l->count * sizeof *l->vertex);
	}
	return GT_OK;
}

// The job that makes the view of the map as it is now: derived from the current view around the
// edits since when it is derived from this index's map and they only added walls, else from the
// base around every added wall; plain views repaired from the current view; else from scratch.
static gtStatus plan_current(const gtNav* nav, const NavViews* vs, ViewJob* j, gtError* err)
{
	NavView* cur = vs->current;
	gtStatus st = new_view(nav->map, nav->map_generation, &j->result, err);
	if (st) return st;
	if (cur && cur->oracle) j->rects = logged_rects(nav, cur->generation, &j->rect_count);
	if (want_derived(nav)) {
		j->make = MAKE_AFTER_BLOCKS;
		j->result->derived = true;
		j->result->root = vs->index_serial;
		if (j->rects && cur->derived && cur->root == vs->index_serial &&
		    only_added(cur->map, nav->map, j->rects, j->rect_count)) {
			j->from = view_ref(cur);
			return GT_OK;
		}
		gt_free(j->rects);
		j->rects = gt_malloc(4 * 64 * sizeof *j->rects);
		if (!j->rects) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a view of the map");
		j->rect_count = nav_added_rects(nav, j->rects, 64);
		j->from = view_ref(vs->base);
		return GT_OK;
	}
	j->make = j->rects ? MAKE_REPAIR : MAKE_SCRATCH;
	if (j->rects) j->from = view_ref(cur);
	return GT_OK;
}

// The next job the nav needs (its base first when a derived view needs one), not started.
static gtStatus plan(const gtNav* nav, const NavViews* vs, ViewJob** out, gtError* err)
{
	ViewJob* j = *out = gt_calloc(1, sizeof *j);
	if (!j) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a view of the map");
	j->threads = 1;
	bool base_fits = vs->base && vs->base->root == vs->index_serial;
	gtStatus st = want_derived(nav) && !base_fits ? plan_base(nav, vs, j, err) : plan_current(nav, vs, j, err);
	if (st) {
		job_free(j);
		*out = NULL;
	}
	return st;
}

static void start(const gtNav* nav, NavViews* vs, ViewJob* j)
{
	vs->job = j;
	if (!gt_job_start(&j->job, nav->def.tasks, job_run, j)) job_run(j); // no thread: here
}

// Waits for the job and keeps its view when it is newer than the one it would replace.
static void collect(NavViews* vs)
{
	ViewJob* j = vs->job;
	if (!j) return;
	job_wait(j);
	vs->job = NULL;
	NavView* v = j->result;
	if (!j->status && j->base && v->root == vs->index_serial) {
		nav_view_release(vs->base);
		vs->base = v;
		j->result = NULL;
	} else if (!j->status && !j->base && (!vs->current || (int32_t)(v->generation - vs->current->generation) >= 0)) {
		nav_view_release(vs->current);
		vs->current = v;
		j->result = NULL;
	}
	job_free(j);
}

// Makes vs->current fit the nav (lock held): takes the job there is, else plans and runs the next
// one here. At most a base and a view are made here (a third job only if one of them was not kept),
// besides the job that was already running: that one is collected, never counted.
static gtStatus ensure(const gtNav* nav, NavViews* vs, gtError* err)
{
	for (int made = 0; !fits(nav, vs, vs->current);) {
		if (vs->job) {
			collect(vs);
			continue;
		}
		if (made++ == 3) break;
		ViewJob* j;
		gtStatus st = plan(nav, vs, &j, err);
		if (st) return st;
		j->tasks = nav->def.tasks;
		j->threads = nav->def.threads;
		job_run(j);
		if (j->status) {
			st = j->status;
			*err = j->err;
			job_free(j);
			return st;
		}
		vs->job = j; // ran here: collected next round
	}
	return fits(nav, vs, vs->current) ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "no view of the map could be made");
}

static void start_next(gtNav* nav, NavViews* vs);

// Whether the edits since `view` leave the answer `length` from s to t as it was: every path that
// short stays inside the ellipse of foci s and t, and that misses every cell they changed (grown by
// one cell: a new corner can pinch a gap next to it).
bool nav_view_holds_for(const gtNav* nav, const NavView* view, gtVec2 s, gtVec2 t, double length)
{
	uint32_t edits = nav->map_generation - view->generation;
	if (edits >= NAV_EDIT_LOG || isinf(length)) return edits == 0;
	for (uint32_t i = 1; i <= edits; i++) {
		const int* r = nav->edit_log[(view->generation + i) % NAV_EDIT_LOG];
		double lx = r[0] - 1, hx = r[2] + 2, ly = r[1] - 1, hy = r[3] + 2, to = 0;
		for (int end = 0; end < 2; end++) {
			gtVec2 p = end ? t : s;
			double dx = p.x < lx   ? lx - p.x
			            : p.x > hx ? p.x - hx
			                       : 0,
			       dy = p.y < ly   ? ly - p.y
			            : p.y > hy ? p.y - hy
			                       : 0;
			to += sqrt(dx * dx + dy * dy);
		}
		if (to <= length * (1 + 1e-12) + 1e-9) return false;
	}
	return true;
}

bool nav_view_is_now(const gtNav* nav, const NavView* view)
{
	return fits(nav, nav->views, view);
}

gtStatus nav_view_soon(gtNav* nav, NavView** held, gtError* err)
{
	NavViews* vs = nav->views;
	NavView* h = *held;
	if (fits(nav, vs, h)) return GT_OK;
	if (!h || nav->map_generation - h->generation >= NAV_EDIT_LOG) return nav_view_acquire(nav, held, err);
	pthread_mutex_lock(&vs->lock);
	if (vs->job && gt_job_done(&vs->job->job)) collect(vs);
	start_next(nav, vs);
	NavView* now = fits(nav, vs, vs->current) ? vs->current : NULL;
	if (now) {
		nav_view_release(*held);
		*held = view_ref(now);
	}
	pthread_mutex_unlock(&vs->lock);
	return GT_OK;
}

gtStatus nav_view_acquire(gtNav* nav, NavView** held, gtError* err)
{
	NavViews* vs = nav->views;
	if (fits(nav, vs, *held)) return GT_OK;
	gtError ignored;
	pthread_mutex_lock(&vs->lock);
	gtStatus st = ensure(nav, vs, err ? err : &ignored);
	if (!st) {
		nav_view_release(*held);
		*held = view_ref(vs->current);
	}
	pthread_mutex_unlock(&vs->lock);
	return st;
}

// ---- the owning thread's hooks ------------------------------------------------------------------

gtStatus nav_views_create(gtNav* nav, gtError* err)
{
	NavViews* vs = gt_calloc(1, sizeof *vs);
	if (!vs || pthread_mutex_init(&vs->lock, NULL) != 0) {
		gt_free(vs);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	}
	nav->views = vs;
	return GT_OK;
}

void nav_views_free(gtNav* nav)
{
	NavViews* vs = nav->views;
	if (!vs) return;
	collect(vs);
	nav_view_release(vs->current);
	nav_view_release(vs->base);
	pthread_mutex_destroy(&vs->lock);
	gt_free(vs);
	nav->views = NULL;
}

// Starts the job the nav needs next, unless one runs (lock held). Only navs with an index start
// them before a query asks (the oracle method, a correctness tool, makes its views when asked),
// and only a view from a view (a repair, a derivation, a base from a rebuild's graph): a graph
// from scratch costs too much to make for queries that may never come.
static void start_next(gtNav* nav, NavViews* vs)
{
	if (vs->job || !nav->ehl || !uses_views(nav) || fits(nav, vs, vs->current)) return;
	// A plan that would end in a graph from scratch is not even made (it copies the map).
	bool base_ready = vs->base && vs->base->root == vs->index_serial;
	bool repairable = vs->current && nav->map_generation - vs->current->generation < NAV_EDIT_LOG;
	if (want_derived(nav) ? !base_ready && !nav->graph.offset && !vs->base_at_edit : !repairable) return;
	ViewJob* j;
	gtError ignored; // a job that cannot even be planned: the query that needs it plans again and says why
	if (plan(nav, vs, &j, &ignored)) return;
	if (j->make == MAKE_SCRATCH && !(j->base && vs->base_at_edit)) {
		job_free(j);
		return;
	}
	vs->base_at_edit = false;
	start(nav, vs, j);
}

void nav_views_edited(gtNav* nav)
{
	pthread_mutex_lock(&nav->views->lock);
	start_next(nav, nav->views);
	pthread_mutex_unlock(&nav->views->lock);
}

void nav_views_update(gtNav* nav)
{
	NavViews* vs = nav->views;
	pthread_mutex_lock(&vs->lock);
	if (vs->job && gt_job_done(&vs->job->job)) collect(vs);
	start_next(nav, vs);
	pthread_mutex_unlock(&vs->lock);
}

void nav_views_index_changed(gtNav* nav)
{
	NavViews* vs = nav->views;
	pthread_mutex_lock(&vs->lock);
	vs->index_serial++;
	vs->base_at_edit = false;
	nav_view_release(vs->base);
	vs->base = NULL;
	pthread_mutex_unlock(&vs->lock);
}

void nav_views_index_loaded(gtNav* nav)
{
	// Not at load itself: gtNav_Destroy waits for a running job, and a nav that never edits (a
	// command that loads an index to answer queries) would wait for a graph it never uses.
	pthread_mutex_lock(&nav->views->lock);
	nav->views->base_at_edit = nav->ehl != NULL;
	pthread_mutex_unlock(&nav->views->lock);
}
