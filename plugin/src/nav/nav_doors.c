// Declared doors that cost nothing: an index per declared door, of the index's map with that door
// closed (nav_doors.h). Closing a door then swaps which index answers, with no search: the only
// state that needs one is walls built or removed besides the doors (the other backends' ways).
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "core/job.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_query.h"
#include "ehl/ehl_repair.h"
#include "map/map_internal.h"
#include "nav/nav_doors.h"
#include "nav/nav_later.h"

// gtNavDef.door_indexes 0: the doors' (and door sets') indexes together hold at most this many
// times the index's bytes (each is about the index's size); doors past it answer as walls built.
enum { DEFAULT_DOOR_BYTES_PER_INDEX_BYTE = 8 };

typedef struct DoorIndex {
	gtEhl* ehl; // NULL: none
	gtMap* map; // the index's map with the door closed (the index reads it)
	bool tried; // a job tried it for this index (failed or not): not tried again until the index changes
} DoorIndex;

typedef struct DoorJob {
	gtMap* base_map; // a copy of the index's map
	gtEhlDef def;
	const gtEhl* base;            // the nav's index, when it kept what a repair needs; else NULL
	const gtVisGraph* base_graph; // the nav's graph of base_map (with `base`)
	int64_t* doors;               // the door ids it builds for (a combination's: the doors closed together)
	NavRect* cells;               // item k closes cells[begin[k] .. begin[k + 1])
	int* begin;
	DoorIndex* out;   // one per item
	int count;        // items
	bool combination; // one item: every door in `doors` closed at once
	int64_t budget;   // bytes its indexes may hold in all: it stops before one would pass it
	int64_t estimate; // the first one's bytes, guessed: the index's
	atomic_bool stop;
	gtJob job;
} DoorJob;

enum { COMBINATIONS = 4 }; // indexes kept for sets of doors closed at once

typedef struct DoorCombination {
	DoorIndex index;
	int64_t* doors; // its closed doors, ascending
	int64_t count;
	uint64_t used; // when it last matched the doors closed (a clock of edits): the oldest goes first
} DoorCombination;

struct NavDoorIndexes {
	DoorIndex* index; // by door id
	int64_t count;
	DoorCombination combination[COMBINATIONS];
	int now; // the combination of the doors closed now, or -1
	uint64_t clock;
	uint32_t generation; // bumped whenever an index comes or goes: query objects bind again
	DoorJob* job;
	int64_t* closed; // ids of the closed doors
	int64_t closed_count, closed_capacity;
	bool only_doors; // the map is the index's map with the closed doors' cells blocked, no more
};

struct NavDoorQueries {
	uint32_t generation;
	gtEhlQuery** query; // by door id, made on first use
	int64_t count;
};

// ---- the job: one index per door ----------------------------------------------------------------

static void rect_cells(const NavRect* r, int* out)
{
	out[0] = r->x0, out[1] = r->y0, out[2] = r->x1, out[3] = r->y1;
}

// Item k's index: repaired from `from` (an index of from_map, the index's map with the cells of
// item `from_item` closed when >= 0, and from_graph its graph) when there is one, else built
// whole. *graph: out, the new index's graph (freed by the caller).
static gtStatus build_door(DoorJob* j, int k, const gtEhl* from, const gtVisGraph* from_graph, const gtMap* from_map,
                           int from_item, gtVisGraph* graph, gtError* err)
{
	gtMap* map;
	gtStatus st = gt_map_copy(j->base_map, &map, err);
	for (int c = j->begin[k]; !st && c < j->begin[k + 1]; c++)
		st = gt_map_set_blocked(map, j->cells[c].x0, j->cells[c].y0, j->cells[c].x1, j->cells[c].y1, true, err);
	int* rects = gt_malloc(4 * ((size_t)j->begin[j->count] + 1) * sizeof *rects);
	if (!st && !rects) st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
	if (st) {
		gt_free(rects);
		gtMap_Destroy(map);
		return st;
	}
	int rect_count = 0, old_n = 0;
	const gtVertex* old_vertices = from ? gtMap_Vertices(from_map, &old_n) : NULL;
	for (int c = from_item >= 0 ? j->begin[from_item] : 0; from_item >= 0 && c < j->begin[from_item + 1]; c++)
		rect_cells(&j->cells[c], rects + 4 * rect_count++); // opened again
	for (int c = j->begin[k]; c < j->begin[k + 1]; c++) rect_cells(&j->cells[c], rects + 4 * rect_count++);
	memset(graph, 0, sizeof *graph);
	if (from && gt_vis_graph_copy(from_graph, graph) &&
	    gt_vis_graph_repair_parallel(map, j->def.tasks, j->def.threads, old_vertices, old_n, rects, rect_count, graph,
	                                 err))
		gt_vis_graph_free(graph); // no room to repair: built whole
	gtEhlRepairFrom repair = {from, from_graph, old_vertices, old_n, rects, rect_count, NULL}; // no landmarks asked
	st = gt_ehl_build_keeping_graph(map, &j->def, graph, from && graph->offset ? &repair : NULL, &j->out[k].ehl, NULL,
	                                err);
	gt_free(rects);
	if (st) {
		gtMap_Destroy(map);
		return st;
	}
	j->out[k].map = map;
	gt_ehl_note_max_hubs(j->out[k].ehl); // here, not on the first query after the door closes
	return GT_OK;
}

// Without an index to repair from, the first door's is built whole and the others repaired from it.
static void job_run(void* context)
{
	DoorJob* j = context;
	gtVisGraph first_graph = {0};
	const gtEhl* from = j->base;
	const gtVisGraph* from_graph = j->base_graph;
	const gtMap* from_map = j->base_map;
	int from_item = -1;
	gtEhl* first = NULL;                  // the index the others repair from when the nav's cannot be
	int64_t held = 0, each = j->estimate; // each: the last one's size, the next one's estimate
	for (int k = 0; k < j->count && !atomic_load(&j->stop) && held + each <= j->budget; k++) {
		gtVisGraph graph;
		gtError err;
		j->out[k].tried = true;
		if (build_door(j, k, from, from_graph, from_map, from_item, &graph, &err)) continue; // answered as walls
		each = gt_ehl_index_bytes(j->out[k].ehl);
		held += each;
		if (!from) {
			first = j->out[k].ehl;
			first_graph = graph;
			from = first, from_graph = &first_graph, from_map = j->out[k].map, from_item = k;
			continue;
		}
		gt_vis_graph_free(&graph);
		gt_ehl_drop_repair_data(j->out[k].ehl); // only the first is repaired from
	}
	if (first) gt_ehl_drop_repair_data(first);
	gt_vis_graph_free(&first_graph);
}

static void job_free(DoorJob* j)
{
	if (!j) return;
	for (int k = 0; k < j->count && j->out; k++) {
		gtEhl_Destroy(j->out[k].ehl);
		gtMap_Destroy(j->out[k].map);
	}
	gtMap_Destroy(j->base_map);
	gt_free(j->doors);
	gt_free(j->cells);
	gt_free(j->begin);
	gt_free(j->out);
	gt_free(j);
}

static void job_join(DoorJob* j)
{
	gt_job_join(&j->job);
}

// ---- the nav's side ------------------------------------------------------------------------------

static NavDoorIndexes* doors_of(gtNav* nav)
{
	if (!nav->door_indexes && (nav->door_indexes = gt_calloc(1, sizeof *nav->door_indexes)))
		nav->door_indexes->now = -1;
	return nav->door_indexes;
}

// Freed by a background job (nav_later.h): a door index is as big as the index.
static void drop_index(gtNav* nav, DoorIndex* x)
{
	nav_free_later(nav, x->ehl, x->map);
	*x = (DoorIndex){0};
}

static void drop_combination(gtNav* nav, DoorCombination* c)
{
	drop_index(nav, &c->index);
	gt_free(c->doors);
	*c = (DoorCombination){0};
}

// A finished combination job's index into the slot of the oldest (or an empty) one.
static void take_combination(gtNav* nav, DoorJob* j)
{
	NavDoorIndexes* di = nav->door_indexes;
	if (!j->out[0].ehl) return; // failed: the doors' own indexes go on answering
	int slot = 0;
	for (int c = 1; c < COMBINATIONS; c++)
		if (di->combination[c].used < di->combination[slot].used) slot = c;
	DoorCombination* c = &di->combination[slot];
	drop_combination(nav, c);
	c->index = j->out[0];
	j->out[0] = (DoorIndex){0};
	c->doors = j->doors, c->count = j->begin[1];
	j->doors = NULL;
	c->used = ++di->clock;
}

// Moves what a finished job made into the nav's table (the job was for the nav's index: a new
// index waits for it and drops it first).
static void take_job(gtNav* nav)
{
	NavDoorIndexes* di = nav->door_indexes;
	DoorJob* j = di->job;
	job_join(j);
	di->job = NULL;
	for (int k = 0; k < j->count && !j->combination; k++) {
		int64_t door = j->doors[k];
		if (door >= di->count) continue;
		DoorIndex* x = &di->index[door];
		x->tried = x->tried || j->out[k].tried;
		if (!j->out[k].ehl) continue;
		drop_index(nav, x);
		*x = j->out[k];
		x->tried = true;
		j->out[k] = (DoorIndex){0};
	}
	if (j->combination) take_combination(nav, j);
	di->generation++;
	job_free(j);
	nav_doors_edited(nav); // the combination of the doors closed now may be there
}

// Whether door `id`'s cells are all free in the index's map (an index with it closed then differs).
static bool open_in_index(const gtNav* nav, int64_t id)
{
	const NavRect* c = &nav->doors[id].cells;
	for (int y = c->y0; y <= c->y1; y++)
		for (int x = c->x0; x <= c->x1; x++)
			if (gtMap_IsBlocked(nav_index_map(nav), x, y)) return false;
	return true;
}

static bool grow_table(NavDoorIndexes* di, int64_t count)
{
	if (di->count >= count) return true;
	DoorIndex* grown = gt_realloc(di->index, (size_t)count * sizeof *grown);
	if (!grown) return false;
	memset(grown + di->count, 0, (size_t)(count - di->count) * sizeof *grown);
	di->index = grown, di->count = count;
	return true;
}

static bool job_due(gtNav* nav)
{
	return nav->ehl && nav->ehl->link_count == 0 && !nav->rebuild && nav->building == 0 && nav->door_count > 0 &&
	       !(nav->door_indexes && nav->door_indexes->job);
}

// The doors' indexes (by door, then the combinations'), i < door count + COMBINATIONS; NULL: none.
static const gtEhl* door_ehl(const NavDoorIndexes* di, int64_t i)
{
	return i < di->count ? di->index[i].ehl : di->combination[i - di->count].index.ehl;
}

// Bytes the doors' indexes hold: cell arrays an index shares (a repair that changed no cell shares
// the last index's, docs/edits.md) are counted once, and not at all when the nav's index holds them.
static int64_t door_bytes(const gtNav* nav)
{
	const NavDoorIndexes* di = nav->door_indexes;
	int64_t bytes = 0;
	for (int64_t i = 0; di && i < di->count + COMBINATIONS; i++) {
		const gtEhl* e = door_ehl(di, i);
		if (!e) continue;
		bytes += gt_ehl_index_bytes(e);
		const void* cells = gt_ehl_cells_id(e);
		bool counted = cells && nav->ehl && gt_ehl_cells_id(nav->ehl) == cells;
		for (int64_t j = 0; cells && j < i && !counted; j++)
			counted = door_ehl(di, j) && gt_ehl_cells_id(door_ehl(di, j)) == cells;
		if (counted) bytes -= gt_ehl_cell_bytes(e);
	}
	return bytes;
}

// Bytes the doors' indexes may still take: gtNavDef.door_indexes counts doors, else the default
// cap in index bytes.
static int64_t door_budget(const gtNav* nav)
{
	if (nav->def.door_indexes != 0) return INT64_MAX;
	int64_t held = door_bytes(nav);
	int64_t cap = DEFAULT_DOOR_BYTES_PER_INDEX_BYTE * gt_ehl_index_bytes(nav->ehl);
	return cap > held ? cap - held : 0;
}

// A job for `items` indexes over `cells` cell rectangles (its arrays filled by the caller).
static DoorJob* job_new(const gtNav* nav, int items, int cells)
{
	DoorJob* j = gt_calloc(1, sizeof *j);
	if (!j) return NULL;
	j->doors = gt_malloc((size_t)cells * sizeof *j->doors);
	j->cells = gt_malloc((size_t)cells * sizeof *j->cells);
	j->begin = gt_calloc((size_t)items + 1, sizeof *j->begin);
	j->out = gt_calloc((size_t)items, sizeof *j->out);
	gtError err;
	if (!j->doors || !j->cells || !j->begin || !j->out || gt_map_copy(nav_index_map(nav), &j->base_map, &err)) {
		job_free(j);
		return NULL;
	}
	j->def = nav_build_def(nav, NULL);
	j->budget = door_budget(nav);
	j->estimate = nav->def.door_indexes ? 0 : gt_ehl_index_bytes(nav->ehl);
	if (nav->ehl->tuple_begin && nav->graph.offset) j->base = nav->ehl, j->base_graph = &nav->graph;
	atomic_init(&j->stop, false);
	return j;
}

static void job_start(gtNav* nav, DoorJob* j)
{
	if (!gt_job_start_background(&j->job, nav->def.tasks, nav->def.background_nice, job_run, j)) {
		job_free(j); // tried again at the next update
		return;
	}
	nav->door_indexes->job = j;
}

// The doors closed now have no combination index yet: one for them (once every door has its own).
static void start_combination(gtNav* nav)
{
	NavDoorIndexes* di = nav->door_indexes;
	if (!di->only_doors || di->closed_count < 2 || di->now >= 0) return;
	bool slot_free = false; // else it replaces the oldest set's: the bytes stay about the same
	for (int c = 0; c < COMBINATIONS; c++) slot_free |= !di->combination[c].index.ehl;
	if (slot_free && door_budget(nav) < gt_ehl_index_bytes(nav->ehl)) return;
	DoorJob* j = job_new(nav, 1, (int)di->closed_count);
	if (!j) return;
	for (int64_t k = 0; k < di->closed_count; k++)
		j->doors[k] = di->closed[k], j->cells[k] = nav->doors[di->closed[k]].cells;
	j->count = 1, j->begin[1] = (int)di->closed_count, j->combination = true;
	job_start(nav, j);
}

static void start_job(gtNav* nav)
{
	if (!job_due(nav)) return;
	NavDoorIndexes* di = doors_of(nav);
	int64_t most = nav->def.door_indexes < 0 ? 0 : nav->def.door_indexes ? nav->def.door_indexes : nav->door_count;
	int64_t limit = nav->door_count < most ? nav->door_count : most;
	if (!di || !grow_table(di, limit)) return;
	int todo = 0;
	for (int64_t id = 0; id < limit; id++) todo += !di->index[id].tried && !di->index[id].ehl;
	if (nav->def.door_indexes == 0 && door_budget(nav) < gt_ehl_index_bytes(nav->ehl)) todo = 0; // the cap is reached
	if (todo == 0) {
		if (limit > 0) start_combination(nav);
		return;
	}
	DoorJob* j = job_new(nav, todo, todo);
	if (!j) return;
	for (int64_t id = 0; id < limit; id++) {
		if (di->index[id].tried || di->index[id].ehl) continue;
		if (!open_in_index(nav, id)) { // its cells are walls there: an index with it closed is the index
			di->index[id].tried = true;
			continue;
		}
		j->doors[j->count] = id;
		j->cells[j->count++] = nav->doors[id].cells;
		j->begin[j->count] = j->count;
	}
	if (j->count == 0) job_free(j);
	else job_start(nav, j);
}

void nav_doors_index_changed(gtNav* nav)
{
	NavDoorIndexes* di = nav->door_indexes;
	if (!di) return;
	if (di->job) {
		atomic_store(&di->job->stop, true);
		job_join(di->job);
		job_free(di->job);
		di->job = NULL;
	}
	for (int64_t i = 0; i < di->count; i++) drop_index(nav, &di->index[i]);
	for (int c = 0; c < COMBINATIONS; c++) drop_combination(nav, &di->combination[c]);
	di->generation++;
	di->only_doors = false;
	di->now = -1;
}

void nav_doors_edited(gtNav* nav)
{
	NavDoorIndexes* di = nav->door_indexes;
	if (!di) return;
	di->closed_count = 0;
	di->only_doors = false;
	di->now = -1;
	if (!nav->ehl || nav->freed > 0) return;
	for (int64_t id = 0; id < nav->door_count; id++) {
		if (nav->doors[id].open) continue;
		const NavRect* c = &nav->doors[id].cells;
		for (int y = c->y0; y <= c->y1; y++)
			for (int x = c->x0; x <= c->x1; x++)
				if (!gtMap_IsBlocked(nav->map, x, y)) return; // part of it opened again: a wall edit
		if (!GT_GROW(di->closed, di->closed_capacity, di->closed_count + 1, 8)) return;
		di->closed[di->closed_count++] = id;
	}
	di->only_doors = nav_added_in_closed_doors(nav) == nav->added;
	for (int c = 0; c < COMBINATIONS && di->only_doors && di->closed_count > 1; c++) {
		const DoorCombination* k = &di->combination[c];
		if (k->index.ehl && k->count == di->closed_count &&
		    memcmp(k->doors, di->closed, (size_t)k->count * sizeof *k->doors) == 0)
			di->now = c;
	}
	if (di->now >= 0) di->combination[di->now].used = ++di->clock;
}

bool nav_doors_hold_rebuild(gtNav* nav)
{
	NavDoorIndexes* di = nav->door_indexes;
	if (!di || !di->job) return false;
	if (gt_job_done(&di->job->job)) return false; // taken with the rebuild's new index
	atomic_store(&di->job->stop, true);
	return true;
}

void nav_doors_stop(gtNav* nav)
{
	if (nav->door_indexes && nav->door_indexes->job) atomic_store(&nav->door_indexes->job->stop, true);
}

void nav_doors_update(gtNav* nav)
{
	NavDoorIndexes* di = nav->door_indexes;
	if (di && di->job && gt_job_done(&di->job->job)) take_job(nav);
	start_job(nav);
}

void nav_doors_wait(gtNav* nav)
{
	start_job(nav);
	if (nav->door_indexes && nav->door_indexes->job) take_job(nav);
}

void nav_doors_free(gtNav* nav)
{
	NavDoorIndexes* di = nav->door_indexes;
	if (!di) return;
	nav_doors_index_changed(nav);
	gt_free(di->index);
	gt_free(di->closed);
	gt_free(di);
	nav->door_indexes = NULL;
}

int64_t gtNav_DoorIndexBytes(const gtNav* nav, int* ready)
{
	const NavDoorIndexes* di = nav->door_indexes;
	int count = 0;
	for (int64_t i = 0; di && i < di->count; i++) count += di->index[i].ehl != NULL;
	if (ready) *ready = count;
	return door_bytes(nav);
}

// ---- queries ------------------------------------------------------------------------------------

void nav_doors_free_queries(NavDoorQueries* queries)
{
	if (!queries) return;
	for (int64_t i = 0; i < queries->count; i++) gtEhlQuery_Destroy(queries->query[i]);
	gt_free(queries->query);
	gt_free(queries);
}

// Door `id`'s query object (id count + c: combination c's), made on first use (NULL when out of
// memory).
static gtEhlQuery* door_query(const NavDoorIndexes* di, NavDoorQueries** scratch, int64_t id)
{
	NavDoorQueries* qs = *scratch;
	if (qs && (qs->generation != di->generation || qs->count < di->count + COMBINATIONS)) {
		nav_doors_free_queries(qs);
		*scratch = qs = NULL;
	}
	if (!qs) {
		int64_t count = di->count + COMBINATIONS;
		if (!(qs = gt_calloc(1, sizeof *qs)) || !(qs->query = gt_calloc((size_t)count, sizeof *qs->query))) {
			gt_free(qs);
			return NULL;
		}
		qs->generation = di->generation, qs->count = count;
		*scratch = qs;
	}
	const gtEhl* ehl = id < di->count ? di->index[id].ehl : di->combination[id - di->count].index.ehl;
	if (!qs->query[id] && gtEhlQuery_Create(ehl, &qs->query[id], NULL)) qs->query[id] = NULL;
	return qs->query[id];
}

// Whether the answer of door `door`'s index may touch another closed door.
static bool meets_other_door(const gtNav* nav, const NavDoorIndexes* di, int64_t door, gtVec2 s, gtVec2 t, double d)
{
	for (int64_t k = 0; k < di->closed_count; k++)
		if (di->closed[k] != door && nav_ellipse_hits_rects(&nav->doors[di->closed[k]].cells, 1, s, t, d)) return true;
	return false;
}

// The index that answers every query as the map is now, or NULL.
static const DoorIndex* answering_index(const NavDoorIndexes* di)
{
	if (!di || !di->only_doors || di->closed_count == 0) return NULL;
	if (di->now >= 0) return &di->combination[di->now].index;
	if (di->closed_count == 1 && di->closed[0] < di->count && di->index[di->closed[0]].ehl)
		return &di->index[di->closed[0]];
	return NULL;
}

bool nav_doors_answer_all(const gtNav* nav)
{
	return answering_index(nav->door_indexes) != NULL;
}

const gtMap* nav_doors_map(const gtNav* nav)
{
	const DoorIndex* x = answering_index(nav->door_indexes);
	return x ? x->map : NULL;
}

bool nav_doors_several_closed(const gtNav* nav)
{
	return nav->door_indexes && nav->door_indexes->closed_count > 1 && nav->door_indexes->now < 0;
}

gtEhlQuery* nav_doors_pick(gtNavQuery* q, NavDoorQueries** scratch, gtVec2 s, gtVec2 t, double limit,
                           NavAnswerWalks* walks, double* d, gtStatus* status, gtError* err)
{
	const gtNav* nav = q->nav;
	const NavDoorIndexes* di = nav->door_indexes;
	*status = GT_OK;
	if (!di || !di->only_doors || di->closed_count == 0) return NULL;
	if (di->now >= 0) { // the index of the map with these doors closed
		gtEhlQuery* eq = door_query(di, scratch, di->count + di->now);
		if (!eq || (*status = gtEhlQuery_SetSource(eq, s, err))) return NULL;
		*d = isinf(limit) ? gtEhlQuery_DistanceTo(eq, t) : gtEhlQuery_DistanceBelow(eq, t, limit);
		return eq;
	}
	for (int64_t k = 0; k < di->closed_count; k++)
		if (di->closed[k] >= di->count || !di->index[di->closed[k]].ehl) return NULL;
	// Each door's index is a lower bound (the map has more walls: the other closed doors) and exact
	// when its answer keeps clear of them; with one door closed it is the map's own index.
	for (int64_t k = 0; k < di->closed_count; k++) {
		gtEhlQuery* eq = door_query(di, scratch, di->closed[k]);
		if (!eq || (*status = gtEhlQuery_SetSource(eq, s, err))) return NULL;
		*d = isinf(limit) ? gtEhlQuery_DistanceTo(eq, t) : gtEhlQuery_DistanceBelow(eq, t, limit);
		if (di->closed_count == 1 || isinf(*d) || *d >= limit || !meets_other_door(nav, di, di->closed[k], s, t, *d) ||
		    walks(nav, eq, s, t))
			return eq;
	}
	return NULL;
}
