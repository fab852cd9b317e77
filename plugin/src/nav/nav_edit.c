// Doors and walls that change: the nav's map edited in place, the index kept as a lower bound
// while walls are only added, and rebuilt in the background after any edit that a rebuild (every
// declared door open) would see: walls built or removed; declared doors closed need none.
#include <string.h>

#include "core/alloc.h"
#include "core/job.h"
#include "core/platform.h"
#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_query.h"
#include "ehl/ehl_repair.h"
#include "map/map_internal.h"
#include "nav/nav_backend.h"
#include "nav/nav_doors.h"
#include "nav/nav_later.h"
#include "nav/nav_links_internal.h"
#include "nav/nav_view.h"

struct NavRebuild {
	gtMap* map; // the map it builds for: a copy, every door open
	gtEhlDef def;
	gtEhl* result;
	uint32_t generation; // the nav's map_generation when it started
	// The visibility graph: out, the graph of `map`, repaired from a copy of `graph_from` (the last
	// index map's, the nav's) around `rects` (x0, y0, x1, y1 each; its vertices `old_vertices`), or
	// built when there is none. The job copies it (1.2 MB on AR0602SR at g = 4) rather than the
	// frame thread at each start; nav_set_index waits for the job while it may read the nav's.
	gtVisGraph graph;
	const gtVisGraph* graph_from;
	gtLandmarks landmarks; // out: the graph's, so queries deriving edited graphs need not compute them
	gtVertex* old_vertices;
	int old_n;
	const gtEhl* base;            // the nav's index, repaired rather than built again (it kept its tuples), or NULL
	const gtVisGraph* base_graph; // the nav's graph, of the base's map
	const gtLandmarks* base_landmarks; // the nav's, of that graph (nav_set_index waits too)
	int* rects;
	int rect_count;
	bool build_graph;     // in: build the graph anew rather than repair it (cheaper on this map lately)
	bool graph_cheap;     // out: walls only added, or walled in: the graph's cheap update (not timed)
	double graph_seconds; // out: what making the graph took
	bool graph_repaired;  // out: it was repaired (else built)
	gtEhlLink* links;     // an index that knew links is rebuilt knowing the ones enabled now (no repair)
	int link_count;
	gtStatus status;
	gtError err;
	gtJob job; // on the host's task system or a thread of our own; joined: it reads nothing of the nav's
};

// ---- the edits against the index ---------------------------------------------------------------

static int32_t* tile_at(gtNav* nav, int x, int y)
{
	return &nav->added_tiles[(y / NAV_TILE) * nav->tile_columns + x / NAV_TILE];
}

// Cell (x, y)'s share of the counts: +1 to `added` or `freed` when it differs from the index's map.
static void count_cell(gtNav* nav, int x, int y, int sign)
{
	bool now = gtMap_IsBlocked(nav->map, x, y), then = gtMap_IsBlocked(nav_index_map(nav), x, y);
	if (now && !then) {
		nav->added += sign;
		*tile_at(nav, x, y) += sign;
	} else if (!now && then) {
		nav->freed += sign;
	}
}

enum { MAX_ADDED_RECTS = 64 };

// Records that cells [x0, x1] x [y0, y1] may hold added (or freed) walls in `*rects`; past
// MAX_ADDED_RECTS the list becomes its bounding box (fewer, larger rectangles: still a superset).
static void note_rect(const gtNav* nav, NavRect** rects, int64_t* count, int64_t* capacity, int x0, int y0, int x1,
                      int y1)
{
	if (*count == MAX_ADDED_RECTS) {
		NavRect box = (*rects)[0];
		for (int64_t i = 1; i < *count; i++) {
			const NavRect* r = &(*rects)[i];
			if (r->x0 < box.x0) box.x0 = r->x0;
			if (r->y0 < box.y0) box.y0 = r->y0;
			if (r->x1 > box.x1) box.x1 = r->x1;
			if (r->y1 > box.y1) box.y1 = r->y1;
		}
		(*rects)[0] = box;
		*count = 1;
	}
	if (!GT_GROW(*rects, *capacity, *count + 1, MAX_ADDED_RECTS)) {
		// No room for one more: cover the whole map (every path is then checked).
		if (*capacity > 0) {
			(*rects)[0] = (NavRect){0, 0, gtMap_Width(nav->map) - 1, gtMap_Height(nav->map) - 1};
			*count = 1;
		}
		return;
	}
	(*rects)[(*count)++] = (NavRect){x0, y0, x1, y1};
}

static void note_added_rect(gtNav* nav, int x0, int y0, int x1, int y1)
{
	note_rect(nav, &nav->added_rects, &nav->added_rect_count, &nav->added_rect_capacity, x0, y0, x1, y1);
}

static void note_freed_rect(gtNav* nav, int x0, int y0, int x1, int y1)
{
	note_rect(nav, &nav->freed_rects, &nav->freed_rect_count, &nav->freed_rect_capacity, x0, y0, x1, y1);
}

// Counts cell (x, y) against the index (recount's step), growing box[0] (added) or box[1] (freed).
static void recount_cell(gtNav* nav, int x, int y, NavRect* box)
{
	int64_t added = nav->added, freed = nav->freed;
	count_cell(nav, x, y, +1);
	if (nav->added == added && nav->freed == freed) return;
	NavRect* b = &box[nav->freed != freed];
	b->x0 = x < b->x0 ? x : b->x0, b->y0 = y < b->y0 ? y : b->y0;
	b->x1 = x > b->x1 ? x : b->x1, b->y1 = y > b->y1 ? y : b->y1;
}

// Notes the boxes recount_cell grew (added cells, freed cells), those that hold any.
static void note_boxes(gtNav* nav, const NavRect* box)
{
	if (box[0].x1 >= 0) note_added_rect(nav, box[0].x0, box[0].y0, box[0].x1, box[0].y1);
	if (box[1].x1 >= 0) note_freed_rect(nav, box[1].x0, box[1].y0, box[1].x1, box[1].y1);
}

// The rectangles (x0, y0, x1, y1 each) holding every cell that may differ between the map and an
// index map made at map generation `since` with every declared door open: the edits logged since
// and the closed doors. NULL when the log no longer holds them all (or no room).
static int* rects_since(const gtNav* nav, uint32_t since, int64_t* count)
{
	uint32_t edits = nav->map_generation - since;
	if (edits >= NAV_EDIT_LOG) return NULL;
	int* rects = gt_malloc(4 * ((size_t)edits + (size_t)nav->door_count + 1) * sizeof *rects);
	if (!rects) return NULL;
	*count = 0;
	for (uint32_t i = 1; i <= edits; i++)
		memcpy(rects + 4 * (*count)++, nav->edit_log[(since + i) % NAV_EDIT_LOG], 4 * sizeof(int));
	for (int64_t i = 0; i < nav->door_count; i++) {
		const NavRect* c = &nav->doors[i].cells;
		if (nav->doors[i].open) continue;
		int* r = rects + 4 * (*count)++;
		r[0] = c->x0, r[1] = c->y0, r[2] = c->x1, r[3] = c->y1;
	}
	return rects;
}

// Counts the cells that differ from the index's map. `since`: the map generation the index map
// was made at (every declared door open), so only the cells rects_since gives are visited (each
// once); else (or no room) the whole map.
static void recount_since(gtNav* nav, const uint32_t* since)
{
	nav->added = nav->freed = 0;
	nav->added_rect_count = nav->freed_rect_count = 0;
	if (nav->added_tiles)
		memset(nav->added_tiles, 0, sizeof *nav->added_tiles * (size_t)nav->tile_columns * (size_t)nav->tile_rows);
	if (!nav->ehl || !nav->index_map) return;
	const NavRect none = {INT32_MAX, INT32_MAX, -1, -1};
	NavRect box[2] = {none, none}; // added, freed cells
	int w = gtMap_Width(nav->map), h = gtMap_Height(nav->map);
	int64_t count = 0;
	int* rects = since ? rects_since(nav, *since, &count) : NULL;
	uint8_t* seen = rects ? gt_calloc((size_t)w * (size_t)h, 1) : NULL;
	if (seen) {
		// A box per edit, not one around them all: edits far apart would make it cover most of the
		// map, and every answer whose ellipse meets it is checked (or searched) again.
		for (int64_t i = 0; i < count; i++) {
			const int* r = rects + 4 * i;
			box[0] = box[1] = none;
			for (int y = r[1]; y <= r[3]; y++)
				for (int x = r[0]; x <= r[2]; x++)
					if (!seen[(size_t)y * (size_t)w + (size_t)x]) {
						seen[(size_t)y * (size_t)w + (size_t)x] = 1;
						recount_cell(nav, x, y, box);
					}
			note_boxes(nav, box);
		}
	} else {
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) recount_cell(nav, x, y, box);
		note_boxes(nav, box);
	}
	gt_free(seen);
	gt_free(rects);
}

// Distance from p to the closed rectangle of cells [x0, x1 + 1] x [y0, y1 + 1] grown by one cell
// (a wall's corner can pinch a gap next to it).
static double to_rect(gtVec2 p, const NavRect* r)
{
	double lx = r->x0 - 1, hx = r->x1 + 2, ly = r->y0 - 1, hy = r->y1 + 2;
	double dx = p.x < lx ? lx - p.x : p.x > hx ? p.x - hx : 0, dy = p.y < ly ? ly - p.y : p.y > hy ? p.y - hy : 0;
	return sqrt(dx * dx + dy * dy);
}

int nav_added_rects(const gtNav* nav, int* out, int room)
{
	int count = 0;
	for (int64_t i = 0; i < nav->added_rect_count; i++) {
		const NavRect* r = &nav->added_rects[i];
		if (count < room) {
			int* o = out + 4 * count++;
			o[0] = r->x0, o[1] = r->y0, o[2] = r->x1, o[3] = r->y1;
			continue;
		}
		int* last = out + 4 * (room - 1); // past the room: the last one grows to cover the rest
		if (r->x0 < last[0]) last[0] = r->x0;
		if (r->y0 < last[1]) last[1] = r->y0;
		if (r->x1 > last[2]) last[2] = r->x1;
		if (r->y1 > last[3]) last[3] = r->y1;
	}
	return count;
}

bool nav_ellipse_hits_rects(const NavRect* rects, int64_t count, gtVec2 s, gtVec2 t, double length)
{
	for (int64_t i = 0; i < count; i++)
		if (to_rect(s, &rects[i]) + to_rect(t, &rects[i]) <= length * (1 + 1e-12) + 1e-9) return true;
	return false;
}

bool nav_ellipse_hits_added(const gtNav* nav, gtVec2 s, gtVec2 t, double length)
{
	return nav_ellipse_hits_rects(nav->added_rects, nav->added_rect_count, s, t, length);
}

bool nav_ellipse_hits_freed(const gtNav* nav, gtVec2 s, gtVec2 t, double length)
{
	return nav_ellipse_hits_rects(nav->freed_rects, nav->freed_rect_count, s, t, length);
}

bool nav_near_added(const gtNav* nav, gtVec2 a, gtVec2 b)
{
	// Cells the segment's box touches, one more each way (a new wall's corner can make a pinch
	// point a segment grazes).
	int x0 = (int)(a.x < b.x ? a.x : b.x) - 1, x1 = (int)(a.x < b.x ? b.x : a.x) + 1;
	int y0 = (int)(a.y < b.y ? a.y : b.y) - 1, y1 = (int)(a.y < b.y ? b.y : a.y) + 1;
	if (x0 < 0) x0 = 0;
	if (y0 < 0) y0 = 0;
	int w = gtMap_Width(nav->map), h = gtMap_Height(nav->map);
	if (x1 >= w) x1 = w - 1;
	if (y1 >= h) y1 = h - 1;
	for (int ty = y0 / NAV_TILE; ty <= y1 / NAV_TILE; ty++)
		for (int tx = x0 / NAV_TILE; tx <= x1 / NAV_TILE; tx++)
			if (nav->added_tiles[ty * nav->tile_columns + tx]) return true;
	return false;
}

static bool ensure_tiles(gtNav* nav)
{
	if (nav->added_tiles) return true;
	nav->tile_columns = (gtMap_Width(nav->map) + NAV_TILE - 1) / NAV_TILE;
	nav->tile_rows = (gtMap_Height(nav->map) + NAV_TILE - 1) / NAV_TILE;
	nav->added_tiles = gt_calloc((size_t)nav->tile_columns * (size_t)nav->tile_rows, sizeof *nav->added_tiles);
	return nav->added_tiles != NULL;
}

// The index reads its map's cells and vertex list: point both at `map` (the same cells as its own).
static void point_index_at(gtEhl* e, const gtMap* map)
{
	int n;
	e->map = map;
	e->vertices = gtMap_Vertices(map, &n);
}

// Every added wall taken away again: nothing left for the ellipse test to look at. (The snapshot
// stays: the next edit would need it again, and copying it costs a pass over the map.)
static void forget_rects_if_none(gtNav* nav)
{
	if (nav->added == 0) nav->added_rect_count = 0;
	if (nav->freed == 0) nav->freed_rect_count = 0;
}

static void rebuild_wait(gtNav* nav);

static void set_index(gtNav* nav, gtEhl* ehl, gtMap* built_for, const uint32_t* since);

void nav_set_index(gtNav* nav, gtEhl* ehl, gtMap* built_for)
{
	set_index(nav, ehl, built_for, NULL);
}

// nav_set_index; `since` (not NULL): `built_for` is the map at that map generation with every
// declared door open, so only the cells edited since (and the closed doors) are counted again.
static void set_index(gtNav* nav, gtEhl* ehl, gtMap* built_for, const uint32_t* since)
{
	NavRebuild* r = nav->rebuild;
	if (r && (r->base || r->graph_from)) rebuild_wait(nav);  // it reads the index or graph this frees
	nav_doors_index_changed(nav);                            // so may the doors' job
	nav_free_later(nav, nav->ehl, nav->index_map);           // off the frame thread
	nav_free_graph_later(nav, &nav->graph, &nav->landmarks); // take_rebuild gives the graph of a rebuilt index map
	nav->ehl = ehl;
	nav->index_map = ehl ? built_for : NULL;
	if (!ehl) gtMap_Destroy(built_for);
	nav->ehl_generation++;
	nav_views_index_changed(nav);
	if (ehl) nav->rebuild_status = GT_OK;         // an index for the map: an older failure is no longer the news
	if (ehl && built_for && !ensure_tiles(nav)) { // no room to track edits: no index rather than a wrong one
		gtEhl_Destroy(ehl);
		gtMap_Destroy(built_for);
		nav->ehl = NULL, nav->index_map = NULL;
	}
	if (!nav_backend_ready(nav, nav->def.method)) nav->def.method = GT_NAV_AUTO; // it needed the index
	nav_choose_backend(nav);
	recount_since(nav, since);
	nav_doors_edited(nav);
}

// ---- background rebuilds ----------------------------------------------------------------------

// Whether every cell of the rectangles (x0, y0, x1, y1 each) is blocked in `map`.
static bool walls_only(const gtMap* map, const int* rects, int count)
{
	for (int i = 0; i < count; i++)
		for (int y = rects[4 * i + 1]; y <= rects[4 * i + 3]; y++)
			for (int x = rects[4 * i]; x <= rects[4 * i + 2]; x++)
				if (!gtMap_IsBlocked(map, x, y)) return false;
	return true;
}

static void rebuild_run(void* context)
{
	NavRebuild* r = context;
	if (r->links) {
		r->status = gtEhl_BuildWithLinks(r->map, &r->def, r->links, r->link_count, &r->result, &r->err);
		if (!r->status) gt_ehl_note_max_hubs(r->result);
		return;
	}
	double start = gtNowSeconds();
	gtError unchecked; // a map the build refuses: it says why below, with no graph made or repaired first
	if (gt_ehl_check_vertices(r->map, &r->def, &unchecked)) r->graph_from = NULL, r->base = NULL;
	r->graph_cheap = r->graph_from &&
	                 (walls_only(r->map, r->rects, r->rect_count) || // see seed_repair
	                  gt_vis_graph_unchanged(r->map, r->old_vertices, r->old_n, r->rects, r->rect_count));
	bool fresh = !r->graph_from || (r->build_graph && !r->graph_cheap);       // built here (and timed), not repaired
	if (!fresh && !gt_vis_graph_copy(r->graph_from, &r->graph)) fresh = true; // no room for the copy: built
	r->graph_repaired = !fresh;
	if (fresh && !gt_ehl_check_vertices(r->map, &r->def, &unchecked) &&
	    gt_vis_graph_build(r->map, r->def.tasks, gt_resolve_threads(r->def.threads), false, &r->graph, &r->err))
		memset(&r->graph, 0, sizeof r->graph); // no room: the build below tries again (and says why)
	if (!fresh && gt_vis_graph_repair_parallel(r->map, r->def.tasks, r->def.threads, r->old_vertices, r->old_n,
	                                           r->rects, r->rect_count, &r->graph, &r->err)) {
		gt_vis_graph_free(&r->graph); // no room to repair it: built anew
		r->graph_repaired = false;
	}
	r->graph_seconds = r->graph.offset ? gtNowSeconds() - start : 0;
	gtEhlRepairFrom from = {r->base,  r->base_graph, r->old_vertices,  r->old_n,
	                        r->rects, r->rect_count, r->base_landmarks};
	bool repair = r->graph.offset && r->base;
	// The landmarks come with it (empty when out of memory: the first query that derives a graph
	// computes them then).
	r->status = gt_ehl_build_keeping_graph(r->map, &r->def, &r->graph, repair ? &from : NULL, &r->result, &r->landmarks,
	                                       &r->err);
	if (!r->status) gt_ehl_note_max_hubs(r->result); // here, not on the first query after it lands
}

static void rebuild_free(NavRebuild* r)
{
	if (!r) return;
	gtEhl_Destroy(r->result);
	gtMap_Destroy(r->map);
	gt_vis_graph_free(&r->graph);
	gt_landmarks_free(&r->landmarks);
	gt_free(r->old_vertices);
	gt_free(r->rects);
	gt_free(r->links);
	gt_free(r);
}

static void rebuild_wait(gtNav* nav)
{
	if (nav->rebuild) gt_job_join(&nav->rebuild->job);
}

// Gives rebuild `r` the last index map's visibility graph to repair, when the nav kept one and the
// edit log still holds every edit since (their rectangles cover every cell that changed, doors
// included: toggles and declarations are logged edits); else `r` builds its graph anew.
static void seed_repair(const gtNav* nav, NavRebuild* r)
{
	uint32_t edits = nav->map_generation - nav->graph_generation;
	if (!nav->graph.offset || !nav->index_map || edits == 0 || edits >= NAV_EDIT_LOG) return;
	int n;
	const gtVertex* vertices = gtMap_Vertices(nav->index_map, &n);
	r->old_vertices = gt_malloc(((size_t)n + 1) * sizeof *r->old_vertices);
	r->rects = gt_malloc((size_t)edits * 4 * sizeof *r->rects);
	if (!r->old_vertices || !r->rects) {
		gt_free(r->old_vertices);
		gt_free(r->rects);
		r->old_vertices = NULL, r->rects = NULL;
		return;
	}
	memcpy(r->old_vertices, vertices, (size_t)n * sizeof *vertices);
	r->old_n = n;
	for (uint32_t i = 0; i < edits; i++)
		memcpy(r->rects + 4 * i, nav->edit_log[(nav->graph_generation + 1 + i) % NAV_EDIT_LOG], 4 * sizeof(int));
	r->rect_count = (int)edits;
	r->graph_from = &nav->graph;
	if (nav->ehl->tuple_begin) // nav_set_index waits for it
		r->base = nav->ehl, r->base_graph = &nav->graph, r->base_landmarks = &nav->landmarks;
	// A repair tests pairs near the edits, a build sweeps every corner once: on some maps (many
	// corners in view of each other) the build is cheaper. Each build halves what the last repair
	// cost, so a repair is tried again now and then. Walls only added, and walls demolished inside
	// thicker walls (gt_vis_graph_unchanged), are always repaired: then only the old edges near them
	// and the new corners are tested, or nothing (a few percent of a build, or none), and that time
	// says nothing of what a repair after walls opened costs.
	r->build_graph = nav->graph_build_seconds > 0 && nav->graph_repair_seconds > nav->graph_build_seconds;
}

// A copy of the map with every declared door open: what indexes are built for.
static gtStatus doors_open_copy(gtNav* nav, gtMap** out, gtError* err)
{
	gtStatus st = gt_map_copy(nav->map, out, err);
	for (int64_t i = 0; !st && i < nav->door_count; i++) {
		const NavRect* c = &nav->doors[i].cells;
		if (!nav->doors[i].open) st = gt_map_set_blocked(*out, c->x0, c->y0, c->x1, c->y1, false, err);
	}
	if (st) {
		gtMap_Destroy(*out);
		*out = NULL;
	}
	return st;
}

static bool any_door_closed(const gtNav* nav)
{
	for (int64_t i = 0; i < nav->door_count; i++)
		if (!nav->doors[i].open) return true;
	return false;
}

gtEhlDef nav_build_def(const gtNav* nav, const gtEhlDef* def)
{
	gtEhlDef d = def ? *def : nav->has_rebuild_def ? nav->rebuild_def : gtEhl_DefaultDef();
	if (!def && !nav->has_rebuild_def && nav->ehl) d.cell_size = nav->ehl->g; // a loaded index: its own cell size
	if (!def && !nav->has_rebuild_def && nav->ehl && nav->ehl->region_of) {   // a loaded region index: its own size
		d.budget_mb = (double)gt_ehl_index_bytes(nav->ehl) * 1.1 / 1e6;       // the edit may add a little
		d.allow_high_peak = true; // no budget was asked for: an edit is not refused for its peak
	}
	d.workload = def ? d.workload : NULL; // a remembered workload may be gone
	d.workload_count = def ? d.workload_count : 0;
	d.progress = def ? d.progress : NULL; // a remembered callback may be gone
	d.progress_user = def ? d.progress_user : NULL;
	if (!d.tasks) d.tasks = nav->def.tasks;
	return d;
}

// A foreground build that keeps what the next edit's repair starts from, as a background whole
// build does: the index its tuples and labels, *graph the visibility graph, *landmarks the graph's
// (empty when out of memory). The index is the one gtEhl_Build makes, from the same stages. A
// budget makes a region index, which no repair starts from: built as gtEhl_Build builds it.
static gtStatus build_keeping(const gtMap* map, const gtEhlDef* d, gtEhl** ehl, gtVisGraph* graph,
                              gtLandmarks* landmarks, gtError* err)
{
	if (d->budget_mb > 0) return gtEhl_Build(map, d, ehl, err);
	int64_t base = gt_ehl_peak_begin(d); // for stats.peak_bytes, as gtEhl_Build gives it
	gtStatus st = gt_ehl_build_keeping_graph(map, d, graph, NULL, ehl, landmarks, err);
	st = gt_ehl_check_peak(d, base, st, ehl, err);
	if (st) {
		gt_vis_graph_free(graph);
		gt_landmarks_free(landmarks);
	}
	return st;
}

// The graph (and its landmarks) of the index map just set, made at map generation `generation`:
// the nav's now, for the next repair (nav_set_index put the last one's away).
static void keep_graph(gtNav* nav, gtVisGraph* graph, gtLandmarks* landmarks, uint32_t generation)
{
	if (!nav->ehl || !graph->offset) { // no index (no room to track edits), or a region index: nothing kept
		gt_vis_graph_free(graph);
		gt_landmarks_free(landmarks);
		return;
	}
	nav->graph = *graph;
	nav->graph_generation = generation;
	memset(graph, 0, sizeof *graph);
	nav->landmarks = *landmarks;
	memset(landmarks, 0, sizeof *landmarks);
}

gtStatus gtNav_RebuildIndex(gtNav* nav, const gtEhlDef* def, bool background, gtError* err)
{
	gtEhlDef d = nav_build_def(nav, def);
	nav->rebuild_def = d, nav->has_rebuild_def = true;
	if (!background) {
		gtMap* map = NULL;
		gtStatus st = any_door_closed(nav) ? doors_open_copy(nav, &map, err) : GT_OK;
		gtEhl* ehl = NULL;
		bool outer_cancelled = nav->build_cancelled; // a build from a build's progress callback
		nav->build_cancelled = false;
		nav->building++;
		gtVisGraph graph = {0};
		gtLandmarks landmarks = {0};
		if (!st) st = build_keeping(map ? map : nav->map, &d, &ehl, &graph, &landmarks, err);
		nav->building--;
		if (!st && nav->build_cancelled) {
			gtEhl_Destroy(ehl);
			st = gt_fail(err, GT_ERR_INVALID_ARG, "the build was cancelled: the nav keeps the index it had");
		}
		nav->build_cancelled = outer_cancelled;
		if (st) {
			gt_vis_graph_free(&graph);
			gt_landmarks_free(&landmarks);
			gtMap_Destroy(map);
			return st;
		}
		nav_set_index(nav, ehl, map);
		keep_graph(nav, &graph, &landmarks, nav->map_generation);
		nav_doors_update(nav); // an index per declared door, in the background
		return GT_OK;
	}
	if (nav->rebuild) return GT_OK; // one at a time: gtNav_Update starts the next if needed
	NavRebuild* r = gt_calloc(1, sizeof *r);
	if (!r) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	gtStatus st = doors_open_copy(nav, &r->map, err);
	if (st) {
		gt_free(r);
		return st;
	}
	r->def = d;
	r->generation = nav->map_generation;
	if (nav->ehl && nav->ehl->link_count > 0) st = nav_links_index_links(nav, &r->links, &r->link_count, err);
	else seed_repair(nav, r);
	if (r->build_graph) nav->graph_repair_seconds /= 2;
	if (st) {
		rebuild_free(r);
		return st;
	}
	r->def.progress = NULL; // nobody is there to watch a background build
	if (!gt_job_start_background(&r->job, nav->def.tasks, nav->def.background_nice, rebuild_run, r)) {
		rebuild_free(r);
		return gt_fail(err, GT_ERR_NOMEM, "cannot start a thread for the rebuild");
	}
	nav->rebuild = r;
	nav->rebuild_status = GT_OK; // a new attempt: the last failure is no longer the news
	nav_doors_stop(nav);
	return GT_OK;
}

// Cells blocked now, free in the index's map, inside a closed declared door (each counted once).
int64_t nav_added_in_closed_doors(const gtNav* nav)
{
	int64_t count = 0;
	for (int64_t i = 0; i < nav->door_count; i++) {
		const NavRect* c = &nav->doors[i].cells;
		if (nav->doors[i].open) continue;
		for (int y = c->y0; y <= c->y1; y++)
			for (int x = c->x0; x <= c->x1; x++) {
				bool earlier = false; // an earlier closed door holding the cell counted it
				for (int64_t j = 0; j < i && !earlier; j++) {
					const NavRect* o = &nav->doors[j].cells;
					earlier = !nav->doors[j].open && x >= o->x0 && x <= o->x1 && y >= o->y0 && y <= o->y1;
				}
				if (!earlier && gtMap_IsBlocked(nav->map, x, y) && !gtMap_IsBlocked(nav_index_map(nav), x, y)) count++;
			}
	}
	return count;
}

// Whether a rebuild (every declared door open) would give another index than the one there is:
// walls were removed, or built outside the closed doors.
static bool rebuild_would_change(const gtNav* nav)
{
	if (!nav->ehl) return false;
	if (nav->freed > 0) return true;
	return nav->added > 0 && nav_added_in_closed_doors(nav) < nav->added;
}

// Starts the background rebuild the edits call for, unless one runs, rebuilds are manual, or the
// last one failed on this very map (it would fail again: the next edit tries again).
static void start_rebuild_if_needed(gtNav* nav, bool would_change)
{
	if (nav->rebuild || nav->def.manual_rebuild || !would_change) return;
	if (nav->rebuild_status && nav->rebuild_failed_generation == nav->map_generation) return;
	gtError err;
	gtStatus st = gtNav_RebuildIndex(nav, NULL, true, &err);
	if (st) { // could not even start: reported like a failed rebuild
		nav->rebuild_status = st;
		nav->rebuild_error = err;
		nav->rebuild_failed_generation = nav->map_generation;
	}
}

// Takes a finished rebuild: it is the index unless the index there needs no rebuild (edits undone
// while it ran, or only declared doors shut since). A failure is kept for gtNav_RebuildStatus.
static bool take_rebuild(gtNav* nav)
{
	NavRebuild* r = nav->rebuild;
	rebuild_wait(nav);
	nav->rebuild = NULL;
	bool taken = false;
	if (r->graph_seconds > 0 && r->graph_repaired && !r->graph_cheap) nav->graph_repair_seconds = r->graph_seconds;
	else if (r->graph_seconds > 0 && !r->graph_repaired) nav->graph_build_seconds = r->graph_seconds;
	if (r->status) {
		nav->rebuild_status = r->status;
		nav->rebuild_error = r->err;
		nav->rebuild_failed_generation = r->generation;
	} else {
		bool bound = true; // no cell free now that was a wall for the build: only edited cells can be
		int64_t count = 0;
		int* rects = rects_since(nav, r->generation, &count);
		int x0 = 0, y0 = 0, x1 = gtMap_Width(nav->map) - 1, y1 = gtMap_Height(nav->map) - 1; // no log: all
		for (int64_t i = 0; i < (rects ? count : 1) && bound; i++) {
			if (rects) x0 = rects[4 * i], y0 = rects[4 * i + 1], x1 = rects[4 * i + 2], y1 = rects[4 * i + 3];
			for (int y = y0; y <= y1 && bound; y++)
				for (int x = x0; x <= x1 && bound; x++)
					bound = gtMap_IsBlocked(nav->map, x, y) || !gtMap_IsBlocked(r->map, x, y);
		}
		gt_free(rects);
		// Walls it saw went while it ran: it is still taken (exact for the map it started from,
		// answered around the edits since as any index is) unless the index there needs no rebuild
		// at all. Kept out, the next rebuild would start again from the older index, and on a map
		// where walls come and go every few hundred milliseconds no rebuild would ever land.
		if (bound || rebuild_would_change(nav)) {
			set_index(nav, r->result, r->map, &r->generation);
			r->result = NULL, r->map = NULL;
			keep_graph(nav, &r->graph, &r->landmarks, r->generation); // the new index map's, for the next repair
			taken = true;
		}
	}
	nav_free_later(nav, r->result, r->map); // not taken: off the frame thread too
	nav_free_graph_later(nav, &r->graph, &r->landmarks);
	r->result = NULL, r->map = NULL;
	rebuild_free(r);
	start_rebuild_if_needed(nav, rebuild_would_change(nav)); // edits landed while it ran
	return taken;
}

bool gtNav_Update(gtNav* nav)
{
	bool taken = nav->rebuild && gt_job_done(&nav->rebuild->job) && !nav_doors_hold_rebuild(nav) && take_rebuild(nav);
	nav_views_update(nav);
	nav_doors_update(nav);
	nav_free_queued(nav);
	return taken;
}

void gtNav_WaitForRebuild(gtNav* nav)
{
	while (nav->rebuild) take_rebuild(nav);
	nav_doors_wait(nav);
	nav_free_now(nav);
}

bool gtNav_Rebuilding(const gtNav* nav)
{
	return nav->rebuild != NULL;
}

void nav_free_edits(gtNav* nav)
{
	nav_doors_free(nav);
	if (nav->rebuild) {
		rebuild_wait(nav);
		rebuild_free(nav->rebuild);
		nav->rebuild = NULL;
	}
	gt_vis_graph_free(&nav->graph);
	gt_landmarks_free(&nav->landmarks);
	gt_free(nav->doors);
	gt_free(nav->added_tiles);
	gt_free(nav->added_rects);
	gt_free(nav->freed_rects);
	nav_free_now(nav);
	gt_free(nav->later);
	nav->doors = NULL, nav->added_tiles = NULL, nav->added_rects = NULL, nav->freed_rects = NULL, nav->later = NULL;
}

// ---- edits and doors ----------------------------------------------------------------------------

// An edit from the progress callback of a build that reads this map would change it under the
// build (use after free while its tiles are swept): refused.
static gtStatus check_not_building(const gtNav* nav, gtError* err)
{
	if (nav->building == 0) return GT_OK;
	return gt_fail(err, GT_ERR_INVALID_ARG, "map is being indexed: edit it after the build returns");
}

gtStatus gtNav_SetBlocked(gtNav* nav, int x0, int y0, int x1, int y1, bool blocked, gtError* err)
{
	gtStatus busy = check_not_building(nav, err);
	if (busy) return busy;
	int w = gtMap_Width(nav->map), h = gtMap_Height(nav->map);
	if (x0 > x1 || y0 > y1 || x0 < 0 || y0 < 0 || x1 >= w || y1 >= h)
		return gt_fail(err, GT_ERR_INVALID_ARG,
		               "cells (%d, %d)-(%d, %d) are not an inclusive rectangle inside the %dx%d map", x0, y0, x1, y1, w,
		               h);
	if (nav->ehl && !nav->index_map) { // the index keeps the map as it was
		gtMap* snapshot;
		gtStatus st = gt_map_copy(nav->map, &snapshot, err);
		if (st) return st;
		if (!ensure_tiles(nav)) {
			gtMap_Destroy(snapshot);
			return gt_fail(err, GT_ERR_NOMEM, "out of memory for a map edit");
		}
		nav->index_map = snapshot;
		point_index_at(nav->ehl, snapshot);
		nav->ehl_generation++;
	}
	bool counted = nav->ehl != NULL;
	if (counted)
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++) count_cell(nav, x, y, -1);
	gtStatus st = gt_map_set_blocked(nav->map, x0, y0, x1, y1, blocked, err);
	if (!st && counted) (blocked ? note_added_rect : note_freed_rect)(nav, x0, y0, x1, y1);
	if (counted)
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++) count_cell(nav, x, y, +1);
	if (st) return st;
	nav->map_generation++;
	int* logged = nav->edit_log[nav->map_generation % NAV_EDIT_LOG];
	logged[0] = x0, logged[1] = y0, logged[2] = x1, logged[3] = y1;
	if (nav->ehl) forget_rects_if_none(nav);
	bool would_change = rebuild_would_change(nav);
	if (nav->ehl && !would_change) nav->rebuild_status = GT_OK; // an old failure no longer matters
	start_rebuild_if_needed(nav, would_change);                 // exact again, later
	nav_doors_edited(nav);                                      // closed doors: their indexes answer
	nav_views_edited(nav);                                      // the oracle of this edit, in the background
	return GT_OK;
}

gtStatus gtNav_AddDoor(gtNav* nav, int x0, int y0, int x1, int y1, int* id, gtError* err)
{
	*id = -1;
	gtStatus busy = check_not_building(nav, err);
	if (busy) return busy;
	if (!GT_GROW(nav->doors, nav->door_capacity, nav->door_count + 1, 8))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for a door");
	if (nav->door_count >= INT32_MAX) return gt_fail(err, GT_ERR_LIMIT, "too many doors");
	gtStatus st = gtNav_SetBlocked(nav, x0, y0, x1, y1, false, err);
	if (st) return st;
	nav->doors[nav->door_count] = (NavDoor){{x0, y0, x1, y1}, true};
	*id = (int)nav->door_count++;
	return GT_OK;
}

gtStatus gtNav_SetDoor(gtNav* nav, int id, bool open, gtError* err)
{
	if (id < 0 || id >= nav->door_count)
		return gt_fail(err, GT_ERR_INVALID_ARG, "no door %d (%lld declared)", id, (long long)nav->door_count);
	NavDoor* d = &nav->doors[id];
	bool was = d->open;
	d->open = open; // first: the edit then knows a closed door's cells need no rebuild
	gtStatus st = gtNav_SetBlocked(nav, d->cells.x0, d->cells.y0, d->cells.x1, d->cells.y1, !open, err);
	if (st) d->open = was;
	return st;
}

int gtNav_DoorCount(const gtNav* nav)
{
	return (int)nav->door_count;
}

bool gtNav_DoorOpen(const gtNav* nav, int id)
{
	return id >= 0 && id < nav->door_count && nav->doors[id].open;
}

void gtNav_CancelBuild(gtNav* nav)
{
	if (nav->building > 0) nav->build_cancelled = true;
}

gtStatus gtNav_RebuildStatus(const gtNav* nav, gtError* err)
{
	if (!nav->rebuild_status) return GT_OK;
	if (err) *err = nav->rebuild_error;
	return nav->rebuild_status;
}

gtNavIndexState gtNav_IndexState(const gtNav* nav)
{
	if (!nav->ehl) return GT_NAV_INDEX_NONE;
	// An index that knows links answers only for the map it was built on: the oracle stands in.
	if (nav->freed > 0 || (nav->ehl->link_count > 0 && nav->added > 0)) return GT_NAV_INDEX_STALE;
	return nav->added > 0 ? GT_NAV_INDEX_LOWER_BOUND : GT_NAV_INDEX_EXACT;
}
