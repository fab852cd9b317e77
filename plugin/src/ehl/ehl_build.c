// EHL construction (docs/algorithms.md 5.6-5.8): visibility graph, hub labels, the sweep of every
// vertex, then per cell the via labels with pruning rules P2, P3 and the (cell, hub) bounds.
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/alloc.h"
#include "core/compare.h"
#include "core/platform.h"
#include "core/task.h"
#include "ehl/ehl_estimate.h"
#include "ehl/ehl_kept_labels.h"
#include "ehl/ehl_build_lists.h"
#include "ehl/ehl_build_rules.h"
#include "ehl/ehl_cell_pools.h"
#include "ehl/ehl_cells.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_links.h"
#include "ehl/ehl_regions.h"
#include "ehl/ehl_sweep.h"
#include "ehl/hub_labels.h"
#include "core/status.h"
#include "map/map_internal.h"
#include "map/vis_graph.h"
#include "ehl/ehl_repair.h"
#include "ehl/ehl_build_state.h"

// The via-label stage runs twice over the cells (count, then write): each pass is reported as its
// share of one stage, so a progress display runs 0-100% once.
static void report(const Build* b, double fraction)
{
	int passes = b->passes > 1 ? b->passes : 1, pass = b->regions ? b->regions->writing : b->pass;
	gt_ehl_report(b->def, b->stage, ((passes > 1 ? pass : 0) + fraction) / passes);
}

// ---- stage: sweep every vertex, emit (cell, vertex | full) tuples ---------------------------

// Vertex v's tuples from the last index, which a repair found unchanged (cell | TUPLE_FULL each).
static bool push_kept(Worker* w, int v, const uint32_t* kept, int64_t count)
{
	int64_t cap = (int64_t)w->tuple_capacity;
	if (!GT_GROW(w->tuples, cap, (int64_t)w->tuple_count + count, 1024)) return false;
	w->tuple_capacity = (size_t)cap;
	(void)v;
	memcpy(w->tuples + w->tuple_count, kept, (size_t)count * sizeof *kept);
	w->tuple_count += (size_t)count;
	return true;
}

// A vertex swept towards the edits only: its last tuples of the cells outside that sector.
static bool push_kept_outside(Worker* w, int v, const uint32_t* kept, int64_t count, const gtSweepSector* sector)
{
	const gtEhl* e = w->build->ehl;
	for (int64_t i = 0; i < count; i++)
		if (!gt_ehl_repair_sector_holds(e, sector, kept[i] & TUPLE_VERTEX) && !push_kept(w, v, kept + i, 1))
			return false;
	return true;
}

#define CELL_LISTED 0x80000000u

static void count_full(Worker* w, int x, int y, uint32_t stamp)
{
	int64_t cells[4];
	int k = gt_ehl_cells_needing(w->build->map, w->build->ehl, x, y, cells);
	for (int i = 0; i < k; i++) {
		if (w->ehl_stamp[cells[i]] != stamp) w->ehl_stamp[cells[i]] = stamp, w->ehl_full[cells[i]] = 0;
		w->ehl_full[cells[i]]++;
	}
}

static bool sweep_tuples(Worker* w, int v)
{
	Build* b = w->build;
	gtEhl* e = b->ehl;
	const uint32_t* kept;
	int64_t kept_count;
	if (b->repair && gt_ehl_repair_kept_tuples(b->repair, e, v, &kept, &kept_count))
		return push_kept(w, v, kept, kept_count);
	gtSweepSector sector; // a repair: only the directions the edits can change are swept again
	bool towards = b->repair && gt_ehl_repair_sector(b->repair, e, v, &sector, &kept, &kept_count);
	if (v >= e->corners ? gt_ehl_end_region(&w->sweep, b->end_regions, v - e->corners, e->points[v], &w->err)
	    : towards       ? gt_sweep_vertex_in(&w->sweep, e->vertices[v], &sector, &w->err)
	                    : gt_sweep_vertex(&w->sweep, e->vertices[v], &w->err))
		return false;
	if (towards && !push_kept_outside(w, v, kept, kept_count, &sector)) return false;
	int width = gtMap_Width(b->map), g = e->g;
	uint32_t stamp = (uint32_t)v + 1;
	int listed = 0;
	for (int i = 0; i < w->sweep.touched_count; i++) {
		int32_t unit = w->sweep.touched[i];
		int status = v >= e->corners ? gt_ehl_end_status(w->sweep.cell_flags[unit]) : gt_sweep_status(&w->sweep, unit);
		if (!status) continue;
		int ux = unit % width, uy = unit / width, ci = ux / g, cj = uy / g;
		int64_t cell = (int64_t)cj * e->columns + ci;
		if (w->ehl_stamp[cell] != stamp) w->ehl_stamp[cell] = stamp, w->ehl_full[cell] = 0;
		if (!(w->ehl_full[cell] & CELL_LISTED)) {
			w->ehl_full[cell] |= CELL_LISTED;
			w->ehl_list[listed++] = (int32_t)cell;
		}
		if (status == GT_UNIT_FULL) count_full(w, ux, uy, stamp);
	}
	if (b->most_tuples && atomic_fetch_add(&b->tuples, listed) + listed > b->most_tuples) {
		gt_fail(&w->err, GT_ERR_LIMIT, "cells of %d are too fine for the budget", g);
		return false;
	}
	int64_t cap = (int64_t)w->tuple_capacity;
	if (!GT_GROW(w->tuples, cap, (int64_t)w->tuple_count + listed, 1024)) return false;
	w->tuple_capacity = (size_t)cap;
	for (int i = 0; i < listed; i++) {
		int32_t cell = w->ehl_list[i];
		if (towards && !gt_ehl_repair_sector_holds(e, &sector, cell)) continue; // kept above
		// FULL: every free square a point of the cell can lie in sees v whole.
		bool full = (w->ehl_full[cell] & ~CELL_LISTED) == b->edge_free[cell];
		w->tuples[w->tuple_count++] = (uint32_t)cell | (full ? TUPLE_FULL : 0);
	}
	return true;
}

// Vertex v's tuples and their run.
static bool sweep_one(Worker* w, int v)
{
	size_t first = w->tuple_count;
	if (!sweep_tuples(w, v)) return false;
	if (!GT_GROW(w->runs, w->run_capacity, w->run_count + 2, 256)) return false;
	w->runs[w->run_count++] = v;
	w->runs[w->run_count++] = (int32_t)(w->tuple_count - first);
	return true;
}

// ---- stage: via labels of one cell ------------------------------------------------------------

// A repair: a cell the last index has right is copied from it.
static bool copied_cell(Worker* w, Build* b, int64_t cell)
{
	if (!b->repair || gt_ehl_repair_whole(b->repair)) return false; // (a whole build's one pass has no via_start)
	int64_t first = b->tuple_begin[cell], tuples = b->tuple_begin[cell + 1] - first;
	uint32_t kept_hubs, kept_vias;
	if (!gt_ehl_repair_cell(b->repair, b->ehl, cell, b->pass, b->tuple_vertex + first, tuples,
	                        b->pass ? b->via_start[cell] : 0, &kept_hubs, &kept_vias, &w->full_vias))
		return false;
	if (!b->pass) b->cell_hubs[cell] = kept_hubs, b->cell_vias[cell] = kept_vias;
	return true;
}

// The cell's sentinel (pass 1 and 2; the pool's counts move now) or its counts (pass 0).
static bool end_cell(Worker* w, int64_t cell, int64_t hub_at, uint64_t via_at, uint32_t out_hubs, uint32_t out_vias)
{
	Build* b = w->build;
	gtEhlHub sentinel = {(uint32_t)(via_at + out_vias), (uint32_t)b->ehl->n, INFINITY};
	if (b->pass == 2) {
		if (!gt_region_lists_reserve(w->pool, out_hubs + 1, out_vias)) return false;
		w->pool->hubs[hub_at + out_hubs] = sentinel;
		w->pool->hub_count += out_hubs + 1;
		w->pool->via_count += out_vias;
	} else if (b->pass) {
		b->ehl->hubs[hub_at + out_hubs] = sentinel;
	} else {
		b->cell_hubs[cell] = out_hubs;
		b->cell_vias[cell] = out_vias;
	}
	return true;
}

// P2's margin: a via whose bound is above this for the hub's U so far can never be kept (U only
// falls, and the margin grows with U).
static double keep_below(double upper)
{
	return upper * (1 + 1e-12) + 1e-12; // ties and rounding stay
}

// The hub's first candidate in this cell: listed, and its P2 bound reset.
static void meet_hub(Worker* w, int32_t h, int* hubs)
{
	w->hub_stamp[h] = w->stamp;
	w->hub_head[h] = -1;
	w->hub_below[h] = INFINITY;
	w->hub_list[(*hubs)++] = h;
}

// Room for `more` candidates past `count` (the arrays grow together); false when out of memory.
static bool reserve_candidates(Worker* w, int count, int64_t more)
{
	if (count + more <= w->cand_capacity) return true;
	int64_t cap = w->cand_capacity;
	if (!GT_GROW(w->cand, cap, count + more, 1024)) return false;
	w->cand_capacity = (int)cap;
	return GT_RESIZE(w->kept, cap) && GT_RESIZE(w->scratch, cap);
}

// Heads its hub's chain, in room reserved per tuple (a call testing the room each time: ~4% of a build).
static inline void store_candidate(Worker* w, int32_t h, uint32_t vf, uint32_t entry, double bound, int* count)
{
	w->cand[*count] = (Candidate){vf, w->hub_head[h], entry, bound};
	w->hub_head[h] = (*count)++;
}

// A corner's entries outside a repair, most of a cell's (no P5, every hub): gather's loop without
// those checks, made once for FULL corners and once for the others (`full` a constant in each). The
// arrays and counts are locals: a store through a uint32_t (a stamp, a candidate) may alias the label
// offsets or w->stamp, so the compiler would load them again for every entry.
static inline __attribute__((always_inline)) bool gather_corner(Worker* w, const gtEhl* e, uint32_t vf, bool full,
                                                                double mindist, double far, int* hubs, int* count)
{
	int v = (int)(vf & TUPLE_VERTEX);
	uint32_t begin = e->label_offset[v], end = e->label_offset[v + 1];
	if (!reserve_candidates(w, *count, (int64_t)end - begin)) return false;
	const uint32_t* hub_of = e->label_hub;
	const double* dist_of = e->label_dist;
	uint32_t* stamp_of = w->hub_stamp;
	int32_t* head_of = w->hub_head;
	double* below_of = w->hub_below;
	int32_t* list = w->hub_list;
	Candidate* cand = w->cand;
	uint32_t stamp = w->stamp;
	int met = *hubs, n = *count;
	for (uint32_t k = begin; k < end; k++) {
		int32_t h = (int32_t)hub_of[k];
		double dist = dist_of[k], bound = mindist + dist, below;
		if (stamp_of[h] != stamp) {
			stamp_of[h] = stamp, head_of[h] = -1, list[met++] = h;
			below = full ? keep_below(far + dist) : INFINITY;
			below_of[h] = below;
		} else {
			below = below_of[h];
			if (full) {
				double through = keep_below(far + dist);
				if (through < below) below_of[h] = below = through;
			}
		}
		if (!(bound > below)) cand[n] = (Candidate){vf, head_of[h], k, bound}, head_of[h] = n++;
	}
	*hubs = met, *count = n;
	return true;
}

// The cell's candidate vias, chained per hub from w->hub_head (the hubs in w->hub_list): every useful
// label entry of every tuple's vertex, or in a repair only those of the hubs `affected` marks. P5
// drops a candidate here, P2 one already above the hub's U so far (U, over every FULL candidate, only
// falls: build_cell applies the final U, then P3). The FULL tuples are taken nearest first (by steps
// of g), so U is near its last value early (100 links on AR0602SR, g = 1: 42.9M of 86.3M FULL
// entries kept as candidates in the grouped order, 22.4M sorted). *out_count: those before P2, P3
// and P5's FULL part.
static bool gather(Worker* w, int64_t cell, const int64_t corners[4][2], const uint32_t* affected, uint32_t token,
                   int* out_hubs, int64_t* out_count)
{
	Build* b = w->build;
	gtEhl* e = b->ehl;
	int64_t x0 = corners[0][0], y0 = corners[0][1], x1 = corners[3][0], y1 = corners[3][1];
	int hubs = 0, count = 0;
	int64_t gathered = 0;
	if (++w->stamp == 0) { // wrapped: no hub may look met
		memset(w->hub_stamp, 0, ((size_t)e->n + 1) * sizeof *w->hub_stamp);
		w->stamp = 1;
	}
	int64_t first = b->tuple_begin[cell], tuples = b->tuple_begin[cell + 1] - first;
	if (tuples > w->order_capacity) {
		int64_t cap = w->order_capacity;
		if (!GT_GROW(w->order, cap, tuples, 256) || !GT_RESIZE(w->order_in, cap)) return false;
		w->order_capacity = cap;
	}
	for (int64_t t = 0; t < tuples; t++) {
		uint32_t vf = b->tuple16
		                  ? (b->tuple16[first + t] & ~FULL_16) | (b->tuple16[first + t] & FULL_16 ? TUPLE_FULL : 0)
		                  : b->tuple_vertex[first + t];
		gtVec2 vx = e->points[vf & TUPLE_VERTEX];
		double dx = (double)x0 - vx.x > 0 ? (double)x0 - vx.x : vx.x - (double)x1 > 0 ? vx.x - (double)x1 : 0.0;
		double dy = (double)y0 - vx.y > 0 ? (double)y0 - vx.y : vx.y - (double)y1 > 0 ? vx.y - (double)y1 : 0.0;
		double far = INFINITY; // the others' far is never read; squared, one root after
		if (vf & TUPLE_FULL) {
			far = 0;
			for (int k = 0; k < 4; k++) {
				double cx = (double)corners[k][0] - vx.x, cy = (double)corners[k][1] - vx.y, d = cx * cx + cy * cy;
				far = d > far ? d : far;
			}
			far = sqrt(far);
		}
		w->order_in[t] = (TupleAt){far, sqrt(dx * dx + dy * dy), vf};
	}
	gt_ehl_order_tuples(w->order_in, w->order, tuples, e->g);
	for (int64_t t = 0; t < tuples; t++) {
		uint32_t vf = w->order[t].vertex_full;
		int v = (int)(vf & TUPLE_VERTEX);
		bool full = (vf & TUPLE_FULL) != 0;
		double mindist = w->order[t].mindist, far = w->order[t].far;
		if (!affected && v < e->corners) {
			gathered += e->label_offset[v + 1] - e->label_offset[v];
			if (!(full ? gather_corner(w, e, vf, true, mindist, far, &hubs, &count)
			           : gather_corner(w, e, vf, false, mindist, far, &hubs, &count)))
				return false;
			continue;
		}
		// P5: a walk from the cell turns at a link end only to take its link (anywhere else it could
		// be cut short), so an end is a via only for hubs its label reaches by its link, or itself.
		// A non-FULL end P5 drops is never met (it feeds no U); a FULL one feeds U first.
		int32_t partner = v >= e->corners ? e->corners + ((v - e->corners) ^ 1) : -1;
		bool p5 = partner >= 0 && !full;
		if (!reserve_candidates(w, count, (int64_t)e->label_offset[v + 1] - e->label_offset[v])) return false;
		for (uint32_t k = e->label_offset[v]; k < e->label_offset[v + 1]; k++) { // the useful entries
			int32_t parent = (int32_t)e->label_parent[k];
			int32_t h = (int32_t)e->label_hub[k];
			bool dropped_p5 = partner >= 0 && parent != partner && (int)e->vertex_of[h] != v;
			if (p5 && dropped_p5) continue;
			if (affected && affected[h] != token) continue;
			gathered++;
			if (w->hub_stamp[h] != w->stamp) meet_hub(w, h, &hubs);
			double dist = e->label_dist[k], bound = mindist + dist;
			double below = w->hub_below[h], through = keep_below(far + dist); // no fmin call: nothing here is NaN
			if (full && through < below) w->hub_below[h] = below = through;
			if (!dropped_p5 && !(bound > below)) store_candidate(w, h, vf, k, bound, &count);
		}
	}
	*out_hubs = hubs, *out_count = gathered;
	return true;
}

static bool build_cell(Worker* w, int64_t cell)
{
	Build* b = w->build;
	gtEhl* e = b->ehl;
	int g = e->g;
	if (copied_cell(w, b, cell)) return true;
	// A repair: only the hubs it marks are computed, the others copied from the last index.
	const uint32_t* affected = NULL;
	uint32_t token = 0;
	int64_t first = b->tuple_begin[cell];
	if (b->repair) // leaves `affected` NULL when the cell is built whole
		gt_ehl_repair_affected(b->repair, w->index, e, cell, b->pass, b->tuple_vertex + first,
		                       b->tuple_begin[cell + 1] - first, &affected, &token);
	int64_t x0 = (cell % e->columns) * g, y0 = (cell / e->columns) * g, x1 = x0 + g, y1 = y0 + g;
	const int64_t corners[4][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}};
	int hubs = 0;
	int64_t count = 0;
	if (!gather(w, cell, corners, affected, token, &hubs, &count)) return false;
	gt_ehl_order_hubs(w->hub_bits, w->hub_words, w->hub_list, hubs);
	if (!b->pass || (b->pass == 2 && !(b->regions && b->regions->writing))) atomic_fetch_add(&b->candidates, count);
	uint32_t out_hubs = 0, out_vias = 0;
	int64_t hub_at = b->pass == 1 ? (int64_t)e->cell_begin[cell] : b->pass ? w->pool->hub_count : 0;
	uint64_t via_at = b->pass == 1 ? b->via_start[cell] : b->pass ? (uint64_t)w->pool->via_count : 0;
	gtEhlHub* hub_to = e->hubs;
	gtEhlViaLabel* via_to = e->vias;
	for (int i = 0; i < hubs; i++) {
		int32_t h = w->hub_list[i];
		if (affected)
			gt_ehl_repair_copy_hubs(b->repair, w->index, e, cell, b->pass, h, hub_at, via_at, &out_hubs, &out_vias,
			                        &w->full_vias);
		// P2: U bounds d(s, h) for every s in the cell through any FULL via.
		double below = w->hub_below[h];
		int kept = 0;
		double lower = INFINITY;
		for (int c = w->hub_head[h]; c >= 0; c = w->cand[c].next) {
			Candidate* cd = &w->cand[c];
			if (cd->bound > below) continue;
			int v = (int)(cd->vertex_full & TUPLE_VERTEX);
			bool quadrant = (cd->vertex_full & TUPLE_FULL) && v < e->corners &&
			                gt_ehl_in_one_quadrant(e->vertices[v], x0, y0, x1, y1);
			if (!gt_ehl_passes_p3(e, v, (int)e->label_parent[cd->entry], h, quadrant, corners)) continue;
			lower = cd->bound < lower ? cd->bound : lower;
			if (b->pass) w->kept[kept] = (KeptVia){e->label_dist[cd->entry], cd->vertex_full}; // pass 0 counts
			kept++;
		}
		if (kept == 0) continue;
		if (b->pass == 2) { // the pool's counts move at the sentinel
			if (!gt_region_lists_room(w->pool, out_hubs + 2, (int64_t)out_vias + kept)) return false;
			hub_to = w->pool->hubs, via_to = w->pool->vias;
		}
		if (b->pass) {
			gt_ehl_sort_by_dist(w->kept, w->scratch, kept);
			gtEhlHub entry = {(uint32_t)(via_at + out_vias), (uint32_t)h, gt_round_down(lower)};
			hub_to[hub_at + out_hubs] = entry;
			for (int k = 0; k < kept; k++) {
				uint32_t vf = w->kept[k].vertex_full;
				gt_via_set(&via_to[via_at + out_vias + (uint32_t)k], (int)(vf & TUPLE_VERTEX), w->kept[k].dist,
				           (vf & TUPLE_FULL) != 0);
				w->full_vias += (vf & TUPLE_FULL) != 0;
			}
		}
		out_hubs++;
		out_vias += (uint32_t)kept;
	}
	if (affected)
		gt_ehl_repair_copy_hubs(b->repair, w->index, e, cell, b->pass, e->n, hub_at, via_at, &out_hubs, &out_vias,
		                        &w->full_vias);
	return end_cell(w, cell, hub_at, via_at, out_hubs, out_vias);
}

// A fine cell's lists into a worker's pool (the region stage).
static bool fine_cell(void* context, int64_t cell, gtRegionLists* out)
{
	Worker* w = context;
	w->pool = out;
	return build_cell(w, cell);
}

// A uniform index's cell in one pass: into the worker's pool, where the cell's lists are noted. As a
// pool grows, the pools' bytes so far are held against the memory there was: past it, the stage stops.
static bool pooled_cell(Worker* w, int64_t cell)
{
	Build* b = w->build;
	gtRegionLists* p = &w->cells;
	w->pool = p;
	p->bare = true;
	int64_t at = p->hub_count, vias = p->via_count, hub_room = p->hub_capacity, via_room = p->via_capacity;
	if (at >= UINT32_MAX || vias >= UINT32_MAX) // so would the index's: its arrays are indexed by 32 bits
		return !gt_fail(&w->err, GT_ERR_LIMIT,
		                "the index at cell size %d needs more than 2^32 entries; use a larger cell size", b->ehl->g);
	if (!build_cell(w, cell)) return false;
	b->cell_at[cell] = (uint32_t)at, b->cell_pool[cell] = (uint8_t)w->index;
	b->cell_hubs[cell] = (uint32_t)(p->hub_count - at - 1);
	b->cell_vias[cell] = (uint32_t)(p->via_count - vias);
	if (p->hub_capacity == hub_room && p->via_capacity == via_room) return true;
	int64_t bytes = (int64_t)gt_ehl_pool_bytes(p);
	long long all = atomic_fetch_add(&b->pooled, bytes - w->cells_told) + bytes - w->cells_told;
	w->cells_told = bytes;
	if ((double)all / 1e6 > b->available)
		atomic_store(&b->pools_over, true), atomic_store(&b->next_item, b->item_count);
	return true;
}

// ---- parallel driver --------------------------------------------------------------------------

static void run_worker(void* context, int index)
{
	Worker* w = (Worker*)context + index;
	Build* b = w->build;
	long step = b->item_count / 200 + 1;
	for (long turn = 0;; turn++) { // (a failed worker sets next_item past the end: the others stop)
		long item = b->round_robin ? turn * b->threads + index : atomic_fetch_add(&b->next_item, 1);
		if (item >= b->item_count || (b->round_robin && atomic_load(&b->next_item) >= b->item_count)) break;
		int64_t full_before = w->full_vias;
		bool ok = b->stage[0] == 'c' ? sweep_one(w, (int)item)
		          : b->regions       ? gt_region_block(b->regions, &w->region, item, fine_cell, w)
		          : b->pass == 2     ? pooled_cell(w, item)
		                             : build_cell(w, item);
		if (ok && b->pass != 0 && !b->regions && b->ehl->cell_full) // kept for the next repair's copies
			b->ehl->cell_full[item] = (uint32_t)(w->full_vias - full_before);
		if (!ok) {
			if (!w->err.message[0]) gt_fail(&w->err, GT_ERR_NOMEM, "out of memory in the EHL build (%s)", b->stage);
			w->failed = true;
			atomic_store(&b->next_item, b->item_count); // stop the others early
			break;
		}
		if (w->index == 0 && item % step == 0) report(b, (double)item / (double)b->item_count);
	}
}

static gtStatus run_stage(Build* b, Worker* workers, const char* stage, long items, gtError* err)
{
	b->stage = stage;
	b->item_count = items;
	atomic_store(&b->next_item, 0);
	report(b, 0);
	gt_run_tasks(b->def->tasks, run_worker, workers, b->threads);
	for (int i = 0; i < b->threads; i++)
		if (workers[i].failed) {
			if (err) *err = workers[i].err;
			return workers[i].err.status ? workers[i].err.status : GT_ERR_NOMEM;
		}
	report(b, 1);
	return GT_OK;
}

// Hands the pages of freed blocks back to the system where the C library can (glibc keeps freed
// blocks in its heap otherwise): the build's stages free scratch the next ones would not reuse.
static void release_freed_memory(void)
{
#if defined(__GLIBC__)
	malloc_trim(0);
#endif
}

// The sweeps' scratch (a byte and a stamp per map square, per thread; stamps, counts and a list per
// cell, per thread) is done with once the tuples are made: at small budgets it is a good part of
// the build's peak.
static void free_sweep_scratch(Build* b, Worker* workers)
{
	for (int i = 0; i < b->threads; i++) {
		Worker* w = &workers[i];
		gt_sweep_free(&w->sweep);
		gt_free(w->ehl_stamp), gt_free(w->ehl_full), gt_free(w->ehl_list);
		w->ehl_stamp = NULL, w->ehl_full = NULL, w->ehl_list = NULL;
	}
	if (b->repair) b->ehl->edge_free = b->edge_free; // kept for the next repair (freed with the index)
	else gt_free(b->edge_free);
	b->edge_free = NULL;
}

static void free_worker(Worker* w)
{
	gt_sweep_free(&w->sweep);
	gt_free(w->ehl_stamp), gt_free(w->ehl_full), gt_free(w->ehl_list);
	gt_free(w->tuples), gt_free(w->runs);
	gt_free(w->hub_head), gt_free(w->hub_below), gt_free(w->hub_stamp);
	gt_free(w->hub_bits), gt_free(w->hub_words), gt_free(w->hub_list);
	gt_free(w->cand), gt_free(w->kept), gt_free(w->scratch), gt_free(w->order), gt_free(w->order_in);
	gt_region_work_free(&w->region);
	gt_free(w->cells.hubs), gt_free(w->cells.vias), gt_free(w->cells.full);
}

static gtStatus init_workers(Build* b, Worker* workers, gtError* err)
{
	gtEhl* e = b->ehl;
	b->edge_free = gt_malloc(((size_t)b->cells + 1) * sizeof *b->edge_free);
	if (!b->edge_free) return gt_fail(err, GT_ERR_NOMEM, "out of memory for build scratch space");
	// A repair counts again only the cells around the edits (a pass over the map took 1.1-1.3 ms of
	// each repair on AR0602SR and generated rooms 384); the index keeps the counts for the next one.
	const uint32_t* old = NULL;
	const int* rects = NULL;
	int rect_count = 0;
	if (b->repair && gt_ehl_repair_edge_free(b->repair, e, &old, &rects, &rect_count))
		gt_ehl_edge_free_after(b->map, e, old, rects, rect_count, b->edge_free);
	else gt_ehl_edge_free(b->map, e, b->edge_free);
	for (int i = 0; i < b->threads; i++) {
		Worker* w = &workers[i];
		w->build = b;
		w->index = i;
		gtStatus st = gt_sweep_init(&w->sweep, b->map, err);
		if (st) return st;
		w->ehl_stamp = gt_calloc((size_t)b->cells, sizeof *w->ehl_stamp);
		w->ehl_full = gt_malloc((size_t)b->cells * sizeof *w->ehl_full);
		w->ehl_list = gt_malloc((size_t)b->cells * sizeof *w->ehl_list);
		size_t ranks = (size_t)e->n + 1, words = ranks / 64 + 1;
		w->hub_head = gt_malloc(ranks * sizeof *w->hub_head);
		w->hub_below = gt_malloc(ranks * sizeof *w->hub_below);
		w->hub_stamp = gt_calloc(ranks, sizeof *w->hub_stamp);
		w->hub_bits = gt_calloc(words, sizeof *w->hub_bits);
		w->hub_words = gt_calloc(words / 64 + 1, sizeof *w->hub_words);
		w->hub_list = gt_malloc(ranks * sizeof *w->hub_list);
		if (!w->ehl_stamp || !w->ehl_full || !w->ehl_list || !w->hub_head || !w->hub_below || !w->hub_stamp ||
		    !w->hub_bits || !w->hub_words || !w->hub_list)
			return gt_fail(err, GT_ERR_NOMEM, "out of memory for build scratch space");
	}
	return GT_OK;
}

// A block of `bytes`: the room made for it (shrunk), else a new one. A room too small is freed
// first: growing it would copy its meaningless contents.
static void* room_or_new(void** room, size_t bytes)
{
	if (*room && gt_block_size(*room) < bytes) gt_free(*room), *room = NULL;
	void* block = *room ? gt_realloc(*room, bytes) : gt_malloc(bytes);
	if (block) *room = NULL;
	return block;
}

// Prefix sums of pass 0 into the final arrays, once the memory is there (refused clearly rather than
// let the system swap or kill us).
static gtStatus allocate_cells(Build* b, gtError* err)
{
	gtEhl* e = b->ehl;
	gtStatus st = gt_ehl_cell_offsets(e, b->cells, b->cell_hubs, b->cell_vias, &b->via_start, err);
	// Again: pass 0's scratch (the candidates) is held now. A repair's room is the arrays' own memory.
	b->available = gt_ehl_available_mb() + b->room_mb;
	double mb = ((double)(e->hub_count - 1) * sizeof *e->hubs + (double)e->via_count * sizeof *e->vias) / 1e6;
	if (!st && mb > b->available)
		st = gt_fail(err, GT_ERR_LIMIT,
		             "the index at cell size %d needs %.0f MB but only %.0f MB of memory are available; use a larger "
		             "cell size or a budget",
		             e->g, mb, b->available);
	if (st) return st;
	size_t hub_bytes = (size_t)e->hub_count * sizeof *e->hubs, via_bytes = (size_t)(e->via_count + 1) * sizeof *e->vias;
	e->hubs = room_or_new(&b->room_hubs, hub_bytes);
	e->vias = room_or_new(&b->room_vias, via_bytes);
	gt_advise_huge_block(e->hubs, hub_bytes), gt_advise_huge_block(e->vias, via_bytes); // pass 1 writes them whole
	if (!e->hubs || !e->vias)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %llu via labels (%.0f MB)",
		               (unsigned long long)e->via_count, (double)e->via_count * 8 / 1e6);
	gtEhlHub last = {(uint32_t)e->via_count, (uint32_t)e->n, INFINITY};
	e->hubs[e->hub_count - 1] = last;
	return GT_OK;
}

static void fill_stats(gtEhl* e, const Build* b, const gtHubLabels* L, int64_t vg_edges, double seconds)
{
	gtEhlStats* s = &e->stats;
	memset(s, 0, sizeof *s);
	s->cell_vertex_pairs = b->pairs;
	s->candidate_vias = (int64_t)atomic_load(&b->candidates);
	if (b->full_vias >= 0) gt_ehl_set_stats(e, b->full_vias);
	else gt_ehl_count_stats(e);
	s->vg_edges = vg_edges;
	s->label_entries = L->offset[e->n];
	s->build_seconds = seconds;
	s->peak_rss_mb = gt_peak_rss_mb();
}

// A worker's region pool (the union lists of every level of its last block) is scratch of one pass
// over the blocks: freed before the index's arrays are allocated or its lists shared.
static void free_region_pools(Build* b, Worker* workers)
{
	for (int i = 0; i < b->threads; i++) gt_region_work_free(&workers[i].region);
	release_freed_memory();
}

// A compact index's equal lists are stored once (gt_region_share_lists), which the plan cannot
// foresee: so the plan is chosen again for a larger target, a few times, until the shared index
// is just within the budget (the largest target known to fit is written last).
static gtStatus share_and_fit(Build* b, Worker* workers, gtRegionBuild* rb, double budget, double fixed, gtError* err)
{
	gtEhl* e = b->ehl;
	int64_t blocks = (int64_t)rb->block_columns * rb->block_rows;
	double target = budget - fixed, fits = -1, over = INFINITY;
	for (int round = 0;; round++) {
		if (!gt_region_share_lists(e)) return gt_fail(err, GT_ERR_NOMEM, "out of memory sharing via lists");
		double bytes = (double)gt_ehl_index_bytes(e);
		if (bytes <= budget) fits = target;
		else over = target;
		if (bytes <= budget && (bytes > 0.995 * budget || round >= 3)) return GT_OK;
		double next = round >= 4 ? fits : target * (budget - fixed) / (bytes - fixed);
		if (round < 4 && (next <= fits || next >= over)) next = isinf(over) ? fits * 1.05 : (fits + over) / 2;
		target = next;
		gt_free(e->cell_begin), gt_free(e->hubs), gt_free(e->cvias), gt_free(e->region_of);
		e->cell_begin = NULL, e->hubs = NULL, e->cvias = NULL, e->region_of = NULL;
		gtStatus st = gt_region_choose(rb, target, err);
		if (!st) st = run_stage(b, workers, "via labels", blocks, err);
		free_region_pools(b, workers);
		if (st) return st;
	}
}

// The via-label stage of a region index: plan every block's merges, choose them to fit `budget`
// bytes (the whole index), then build the blocks again and write the chosen regions.
static gtStatus build_regions(Build* b, Worker* workers, double budget, gtError* err)
{
	gtEhl* e = b->ehl;
	gtRegionBuild rb;
	memset(&rb, 0, sizeof rb);
	rb.ehl = e;
	rb.block_columns = (e->columns + GT_REGION_SIDE - 1) / GT_REGION_SIDE;
	rb.block_rows = (e->rows + GT_REGION_SIDE - 1) / GT_REGION_SIDE;
	int64_t blocks = (int64_t)rb.block_columns * rb.block_rows;
	rb.blocks = gt_calloc((size_t)blocks, sizeof *rb.blocks);
	gtStatus st = rb.blocks ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for region plans");
	if (!st) st = gt_region_weights(&rb, b->def->workload, b->def->workload_count, err);
	// Compact vias (2 bytes, not 6) when every hub's inverse label is short enough: the inverse
	// labels cost 8 bytes per label entry, the vias a third of their bytes.
	bool compact = false;
	uint32_t* place_of = NULL;
	if (!st && !gt_ehl_inverse_labels(e, &compact, &place_of))
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory for inverse labels");
	rb.place_of = place_of;
	b->regions = &rb;
	b->pass = 2, b->passes = 2;
	if (!st) st = run_stage(b, workers, "via labels", blocks, err);
	free_region_pools(b, workers);
	// The labels' part is fixed; the cells' part (and the region ids' width) is what merging shrinks.
	double fixed = (e->n + 1.0) * sizeof *e->label_offset + (double)e->label_count * 16 + e->n * 4.0 +
	               (compact ? (e->n + 1.0) * 4 + (double)e->label_count * 8 : 0);
	if (!st) st = gt_region_choose(&rb, budget - fixed, err);
	rb.writing = true;
	if (!st) st = run_stage(b, workers, "via labels", blocks, err);
	free_region_pools(b, workers);
	if (!st && compact) st = share_and_fit(b, workers, &rb, budget, fixed, err);
	b->regions = NULL;
	gt_region_build_free(&rb);
	gt_free(place_of);
	return st;
}

// Back to before the one-pass stage, for the two passes: its pools, offsets and counts dropped.
static void start_over(Build* b, Worker* workers, gtRegionLists* const* pools)
{
	gt_ehl_pools_free(pools, b->threads);
	for (int i = 0; i < b->threads; i++) workers[i].cells_told = 0, workers[i].full_vias = 0;
	gt_free(b->ehl->cell_begin), gt_free(b->via_start);
	b->ehl->cell_begin = NULL, b->via_start = NULL;
	atomic_store(&b->pooled, 0), atomic_store(&b->candidates, 0), atomic_store(&b->pools_over, false);
	atomic_fetch_add(&gt_ehl_cells_test.fell_back, 1);
	release_freed_memory();
}

// The via-label stage of a whole uniform index in one pass: each worker's cells into its pool, then
// the pools into the index. (A repair copies the last index's cells by pass: it counts, then writes.)
// Where the index beside the pools (gt_ehl_pools_fit), or the pools alone as they grow, would not
// fit: *again, the pools freed, for the two passes (which hold the index alone; the same file).
static gtStatus build_pooled(Build* b, Worker* workers, bool* again, gtError* err)
{
	gtEhl* e = b->ehl;
	b->cell_at = gt_malloc((size_t)b->cells * sizeof *b->cell_at);
	b->cell_pool = gt_malloc((size_t)b->cells * sizeof *b->cell_pool);
	gtStatus st = b->cell_at && b->cell_pool ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for cell counts");
	b->pass = 2, b->passes = 1;
	if (!st) st = run_stage(b, workers, "via labels", b->cells, err);
	b->round_robin = false;
	gtRegionLists* pools[256];
	for (int i = 0; i < b->threads; i++) pools[i] = &workers[i].cells;
	bool over = atomic_load(&b->pools_over); // then some cells were not built
	if (!st && !over) st = gt_ehl_cell_offsets(e, b->cells, b->cell_hubs, b->cell_vias, &b->via_start, err);
	*again = !st && (over || !gt_ehl_pools_fit(e, pools, b->threads, b->available));
	if (!st && !*again)
		st = gt_ehl_cells_from_pools(e, b->cells, pools, b->threads, b->cell_at, b->cell_pool, b->cell_hubs,
		                             b->cell_vias, b->via_start, err);
	gt_free(b->cell_at), gt_free(b->cell_pool);
	b->cell_at = NULL, b->cell_pool = NULL;
	if (!*again) return st;
	start_over(b, workers, pools);
	return GT_OK;
}

// The via-label stage of a uniform index: count every cell's vias, allocate, write them.
static gtStatus build_uniform(Build* b, Worker* workers, gtError* err)
{
	b->cell_hubs = gt_malloc((size_t)b->cells * sizeof *b->cell_hubs);
	b->cell_vias = gt_malloc((size_t)b->cells * sizeof *b->cell_vias);
	gtStatus st = b->cell_hubs && b->cell_vias ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for cell counts");
	b->available = gt_ehl_available_mb();
	// One pass when nothing bounds the peak and the pools beside the index fit (build_pooled).
	int mode = atomic_load(&gt_ehl_cells_test.mode);
	bool whole = !b->repair || gt_ehl_repair_whole(b->repair);
	bool pooled = whole && b->def->budget_mb <= 0 && b->threads <= 256 && !(mode & GT_EHL_CELLS_TWO_PASSES);
	b->round_robin = pooled && (mode & GT_EHL_CELLS_ROUND_ROBIN);
	// An index that keeps its tuples keeps its cells' FULL counts too (NULL: no room, a repair scans).
	if (!st && b->repair) b->ehl->cell_full = gt_malloc(((size_t)b->cells + 1) * sizeof *b->ehl->cell_full);
	if (!st && pooled) {
		bool again = false;
		st = build_pooled(b, workers, &again, err);
		if (st || !again) return st;
	}
	if (!st) {
		b->pass = 0, b->passes = 2;
		st = run_stage(b, workers, "via labels", b->cells, err);
	}
	int64_t full = 0; // every cell as the last index has it: its arrays, shared (no pass 1)
	if (!st && b->repair && gt_ehl_repair_share_cells(b->repair, b->ehl, &full)) {
		for (int i = 0; i < b->threads; i++) workers[i].full_vias = i ? 0 : full;
		return GT_OK;
	}
	if (!st) st = allocate_cells(b, err);
	if (!st) {
		b->pass = 1;
		st = run_stage(b, workers, "via labels", b->cells, err);
	}
	return st;
}

static gtStatus build_cells(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* labels,
                            gtEhlRepair* repair, int64_t vg_edges, int g, double region_budget, double start,
                            const gtEhlLink* links, int link_count, const gtEhlEndRegions* end_regions, gtEhl** out,
                            gtError* err)
{
	*out = NULL;
	gtEhl* e = gt_calloc(1, sizeof *e);
	if (!e) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	e->map = map;
	e->g = g;
	e->serial = gt_ehl_next_serial();
	e->columns = (gtMap_Width(map) + g - 1) / g;
	e->rows = (gtMap_Height(map) + g - 1) / g;
	e->cell_count = (int64_t)e->columns * e->rows;
	e->vertices = gtMap_Vertices(map, &e->corners); // with the ends, at most GT_EHL_MAX_VERTICES: checked
	Build b;
	memset(&b, 0, sizeof b);
	b.map = map;
	b.def = def;
	b.ehl = e;
	b.repair = repair;
	b.end_regions = end_regions;
	b.cells = e->cell_count;
	b.threads = threads;
	atomic_init(&b.candidates, 0);
	atomic_init(&b.tuples, 0);
	atomic_init(&b.pooled, 0);
	atomic_init(&b.pools_over, false);
	// A tuple is 8 bytes while sweeping and 4 once grouped: at most an eighth of the budget in
	// tuples keeps them near it (AR0602SR at 7.07 MB: 784,883 tuples of cells of 2 fit).
	b.most_tuples = region_budget > 0 ? (int64_t)(region_budget / 8) : 0;
	Worker* workers = gt_calloc((size_t)b.threads, sizeof *workers);
	gtStatus st = workers ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory");
	if (!st) st = gt_ehl_take_links(e, links, link_count, err);
	if (!st) st = init_workers(&b, workers, err);
	b.passes = 1;
	b.threads = repair && gt_ehl_repair_labelling(repair) && threads > 1 ? threads - 1 : threads; // one labels
	bool same = repair && gt_ehl_repair_same_tuples(repair, e); // no corner to sweep: the last tuples, copied
	if (!st) st = run_stage(&b, workers, "cells", same ? 0 : e->n, err);
	b.threads = threads;
	if (workers) free_sweep_scratch(&b, workers);
	if (!st)
		st = same ? gt_ehl_repair_copy_tuples(repair, &b.tuple_begin, &b.tuple_vertex, &b.pairs, err)
		          : gt_ehl_group_tuples(&b, workers, err);
	// A whole build's sweep freed scratch the cells will not reuse; a repair's is the re-swept
	// corners' only, which its cells and the next repair reuse. Trimming it cost a repair 1-5 ms of
	// CPU (0.9-3 on generated rooms 384, 2.4-13 on caves 384: the heap walked, the pages given back
	// and faulted in again), a tenth of some repairs' CPU on a loaded machine.
	if (!repair || gt_ehl_repair_whole(repair)) release_freed_memory();
	if (!st && repair) b.room_mb = gt_ehl_repair_room(repair, e, &b.room_hubs, &b.room_vias);
	gtStatus labelled = repair ? gt_ehl_repair_await_labels(repair, err) : GT_OK; // on every path: read below
	if (!st) st = labelled;
	if (!st) st = gt_ehl_keep_labels(e, labels, err);
	bool dropped = !st && !repair; // a repair may keep the labels for the next one
	if (dropped) gt_ehl_drop_label_entries(labels);
	if (!st) st = region_budget > 0 ? build_regions(&b, workers, region_budget, err) : build_uniform(&b, workers, err);
	b.full_vias = region_budget > 0 || !workers ? -1 : 0;
	for (int i = 0; b.full_vias >= 0 && i < b.threads; i++) b.full_vias += workers[i].full_vias;
	for (int i = 0; workers && i < b.threads; i++) free_worker(&workers[i]);
	gt_free(workers);
	if (!st && repair) { // kept for the next repair
		e->tuple_begin = b.tuple_begin, e->tuple_vertex = b.tuple_vertex;
		b.tuple_begin = NULL, b.tuple_vertex = NULL;
	}
	gt_free(b.tuple_begin);
	gt_free(b.tuple_vertex);
	gt_free(b.tuple16);
	gt_free(b.edge_free);
	gt_free(b.cell_hubs), gt_free(b.cell_vias), gt_free(b.via_start);
	gt_free(b.room_hubs), gt_free(b.room_vias);
	if (!st) fill_stats(e, &b, labels, vg_edges, gtNowSeconds() - start);
	if (st && dropped && !gt_ehl_restore_label_entries(labels, e))
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory for hub labels");
	if (st) {
		gtEhl_Destroy(e);
		return st;
	}
	*out = e;
	return GT_OK;
}

gtStatus gtEhl_Build(const gtMap* map, const gtEhlDef* def, gtEhl** out, gtError* err)
{
	double start = gtNowSeconds();
	*out = NULL;
	gtEhlDef defaults = gtEhl_DefaultDef();
	if (!def) def = &defaults;
	gtStatus checked = gt_ehl_check_def(def, err);
	if (checked) return checked;
	int threads = gt_resolve_threads(def->threads);
	gtHubLabels labels;
	int64_t vg_edges, base = gt_ehl_peak_begin(def);
	gtStatus st = gt_hub_labels_of_map(map, def, threads, &labels, &vg_edges, err);
	if (!st) st = gt_ehl_build_from_labels(map, def, threads, &labels, NULL, vg_edges, start, out, err);
	return gt_ehl_check_peak(def, base, st, out, err);
}

gtStatus gt_ehl_build_from_labels(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* labels_in,
                                  gtEhlRepair* repair, int64_t vg_edges, double start, gtEhl** out, gtError* err)
{
	return gt_ehl_build_from_link_labels(map, def, threads, labels_in, repair, vg_edges, start, NULL, 0, NULL, out,
	                                     err);
}

// A budgeted build may try several cell sizes (cells too fine for the budget, or an index past it),
// each try running the cells' stages again from 0%. Shown as one progress: a stage reports only past
// the most any try reached, and a stage once left is not shown again (a later try runs it silently).
enum { ONE_PROGRESS_STAGES = 8 };
typedef struct OneProgress {
	gtProgressFcn* progress;
	void* user;
	const char* stage[ONE_PROGRESS_STAGES]; // the stages seen, in order, and the most each reached
	double most[ONE_PROGRESS_STAGES];
	int count;
} OneProgress;

static void one_progress(void* user, const char* stage, double fraction)
{
	OneProgress* p = user;
	int s = 0;
	while (s < p->count && strcmp(p->stage[s], stage) != 0) s++;
	if (s == ONE_PROGRESS_STAGES) { // more stages than kept: shown as they come
		p->progress(p->user, stage, fraction);
		return;
	}
	if (s == p->count) p->stage[p->count] = stage, p->most[p->count++] = -1;
	if (s + 1 < p->count || fraction <= p->most[s]) return; // left already, or not past the last try
	p->most[s] = fraction;
	p->progress(p->user, stage, fraction);
}

gtStatus gt_ehl_build_from_link_labels(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* labels_in,
                                       gtEhlRepair* repair, int64_t vg_edges, double start, const gtEhlLink* links,
                                       int link_count, const gtEhlEndRegions* regions, gtEhl** out, gtError* err)
{
	gtStatus st = GT_OK;
	if (!(def->budget_mb > 0)) { // a repair's labels may still be in the making: not copied before
		st = build_cells(map, def, threads, labels_in, repair, vg_edges, def->cell_size, 0, start, links, link_count,
		                 regions, out, err);
		if (repair) gt_ehl_repair_join(repair); // its job reads the labels: also when the build stopped early
		if (st || !repair || !gt_ehl_repair_keep_labels(*out, labels_in)) gt_hub_labels_free(labels_in);
		return st;
	}
	gtHubLabels labels = *labels_in;
	OneProgress one = {def->progress, def->progress_user, {0}, {0}, 0};
	gtEhlDef tries = *def;
	if (def->progress) tries.progress = one_progress, tries.progress_user = &one, def = &tries;
	int sizes[GT_EHL_BUDGET_SIZES], count = 0, chosen = -1;
	st = gt_ehl_budget_sizes(map, &labels, def->budget_mb, sizes, &count, &chosen, err);
	if (!st) st = gt_ehl_peak_so_far(def, "hub labels", err); // the labels are the peak of big maps' builds
	// Regions: fine cells a sixteenth of the uniform size the estimate allows, merged up to that
	// size (ehl_regions.h) until the index fits; when they cannot, from the next size's, and when
	// even that does not fit, the uniform sizes below. The finer the cells, the more P2 and P3 prune
	// and the smaller a region's union (AR0602SR at 7.07 MB: 16,079 instructions a query from
	// cells of 4, 14,026 from 2), but both passes over the fine cells and their tuples (4 bytes per
	// cell and vertex it sees) grow with their number: at most 2^18 of them, and tuples within the
	// budget (build_cells stops the sweep past that, and the next size's cells are tried).
	// A second thread's scratch (its sweep's per-cell arrays, its block's region lists) is a few MB:
	// a small budget's build runs on one, so that its peak stays within twice the budget.
	int region_threads = def->budget_mb < 32 ? 1 : threads;
	for (int k = chosen, last = 0; !st && !def->uniform && k < count; k++) {
		int fine = sizes[k] / 16 > 1 ? sizes[k] / 16 : 1;
		while (fine < sizes[k] &&
		       (double)((gtMap_Width(map) + fine - 1) / fine) * ((gtMap_Height(map) + fine - 1) / fine) > 262144)
			fine *= 2;
		if (fine == last) continue;
		last = fine;
		gtError why;
		st = build_cells(map, def, region_threads, &labels, NULL, vg_edges, fine, def->budget_mb * 1e6, start, links,
		                 link_count, regions, out, &why);
		// Cells too fine for the budget: the next size's, unless the build already passed twice it.
		bool too_fine = st == GT_ERR_LIMIT && !gt_ehl_peak_so_far(def, "fine cells", &why);
		if (!too_fine) {
			if (st && err) *err = why;
			gt_hub_labels_free(&labels);
			return st;
		}
		st = GT_OK;
	}
	// The estimate is conservative at small sizes but can fall a little short at large ones: then
	// the next size is built instead.
	for (int k = chosen; !st && k < count; k++) {
		st = build_cells(map, def, threads, &labels, repair, vg_edges, sizes[k], 0, start, links, link_count, regions,
		                 out, err);
		if (st || (double)(*out)->stats.index_bytes <= def->budget_mb * 1e6) break;
		double got = (double)(*out)->stats.index_bytes / 1e6;
		bool restored = repair || gt_ehl_restore_label_entries(&labels, *out);
		gtEhl_Destroy(*out);
		*out = NULL;
		if (!restored) st = gt_fail(err, GT_ERR_NOMEM, "out of memory for hub labels");
		else if (k + 1 == count)
			st = gt_fail(err, GT_ERR_LIMIT, "no cell size fits %g MB: cell size %d needs %.1f MB", def->budget_mb,
			             sizes[k], got);
	}
	gt_hub_labels_free(&labels);
	return st;
}
