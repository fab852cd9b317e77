// Every point's neighbours in one call: the asking points split into chunks that workers take in
// turn (gtTaskSystem or the built-in pool); each answer goes to its own stretch of the caller's
// buffer, so no two workers write the same memory and nothing is allocated.
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "core/status.h"
#include "core/task.h"
#include "neighbours/neighbours_internal.h"

#define CHUNK 64

typedef struct AllJob {
	const gtNeighbours* nb;
	const gtNeighboursAll* all;
	const int32_t* slots; // the asking points' slots
	int32_t count;
	gtNeighbourMethod method;
	int k;
	atomic_int next;
	gtNeighbourStats worker[GT_MAX_THREADS];
} AllJob;

static void run_chunks(void* context, int worker)
{
	AllJob* job = context;
	const gtNeighbours* nb = job->nb;
	const gtNeighboursAll* all = job->all;
	gtNeighbourStats st = {0};
	for (;;) {
		int32_t first = atomic_fetch_add(&job->next, CHUNK);
		if (first >= job->count) break;
		int32_t last = first + CHUNK < job->count ? first + CHUNK : job->count;
		for (int32_t i = first; i < last; i++) {
			int32_t s = job->slots[i];
			NbAnswer a;
			gtNeighbour* out = all->out + (size_t)i * (size_t)all->stride;
			nb_answer_begin(&a, nb, nb->pos[s].p, all->radius, job->k, nb_id_of(nb, s), out, all->stride);
			a.packed = true;
			int found;
			nb_run(nb, job->method, &a, true, &found, NULL);
			all->counts[i] = a.n;
			st.cells_visited += a.cells;
			st.points_tested += a.tested;
			// cut at the stride with more points in range than it holds
			st.truncated += a.overflow || (a.want_all && a.total > a.n);
		}
	}
	job->worker[worker] = st;
}

static int32_t slot_of(gtNeighbourId id)
{
	return (int32_t)(id & NB_SLOT_MASK) - 1;
}

// Room for the copy by cell (grown with the index, never shrunk: no allocation per frame).
static bool reserve(gtNeighbours* nb)
{
	if (!nb->cell_start && !(nb->cell_start = gt_malloc(((size_t)nb->cell_count + 1) * sizeof *nb->cell_start)))
		return false;
	if (nb->packed_room < nb->capacity) {
		if (!GT_RESIZE(nb->packed_pos, nb->capacity) || !GT_RESIZE(nb->packed_id, nb->capacity) ||
		    !GT_RESIZE(nb->packed_row, nb->capacity) || !GT_RESIZE(nb->row_of, nb->capacity))
			return false;
		nb->packed_room = nb->capacity;
	}
	return true;
}

// The points copied in cell order, O(points): every query of the batch then reads a cell's points
// side by side instead of chasing its list. In cell-index order when the grid is small beside the
// points (a row of cells is then one stretch of the copy), else over the non-empty cells. With
// `rows`, each entry also says its point's answer row (row_of, set for a batch of every point).
static void pack(gtNeighbours* nb, bool rows)
{
	int32_t at = 0;
	nb->packed_by_cell = nb->cell_count <= 8 * (int64_t)nb->count + 4096;
	int32_t cells = nb->packed_by_cell ? nb->cell_count : nb->nonempty_count;
	for (int32_t j = 0; j < cells; j++) {
		int32_t cell = nb->packed_by_cell ? j : nb->nonempty[j];
		nb->cell_start[cell] = at;
		for (int32_t s = nb->head[cell]; s >= 0; s = nb->next[s]) {
			nb->packed_pos[at] = nb->pos[s];
			if (rows) nb->packed_row[at] = nb->row_of[s];
			nb->packed_id[at++] = nb_id_of(nb, s);
		}
	}
	if (nb->packed_by_cell) nb->cell_start[nb->cell_count] = at;
}

gtStatus gtNeighbours_QueryAll(gtNeighbours* nb, const gtNeighboursAll* all, gtNeighbourMethod method,
                               gtNeighbourStats* stats, gtError* err)
{
	if (!all) return gt_fail(err, GT_ERR_INVALID_ARG, "no batch");
	gtStatus st = nb_check_query(nb, all->radius, all->k, method, err);
	if (st) return st;
	int32_t count = all->objects ? all->count : nb->count;
	if (count < 0 || all->stride < 1 || all->threads < 0 || (count > 0 && (!all->out || !all->counts)))
		return gt_fail(err, GT_ERR_INVALID_ARG, "bad batch buffers (count %d, stride %d)", count, all->stride);
	if (!reserve(nb)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a copy of %d points", nb->count);
	// The asking slots go into counts first (the answers overwrite them one by one, each after
	// reading its own), so the batch needs no memory of its own.
	int32_t* slots = all->counts;
	if (all->objects) {
		for (int32_t i = 0; i < count; i++) {
			if (!gtNeighbours_IsValid(nb, all->objects[i]))
				return gt_fail(err, GT_ERR_INVALID_ARG, "object %d: id %llu is stale", i,
				               (unsigned long long)all->objects[i]);
			slots[i] = slot_of(all->objects[i]);
		}
	} else {
		int32_t n = 0;
		for (int32_t s = 0; s < nb->capacity; s++)
			if (nb->high[s] & 1) {
				if (all->asked) all->asked[n] = nb_id_of(nb, s);
				nb->row_of[s] = n;
				slots[n++] = s;
			}
	}
	pack(nb, !all->objects);
	gtNeighbourStats local;
	if (!stats) stats = &local;
	memset(stats, 0, sizeof *stats);
	bool automatic = method == GT_NEIGHBOURS_AUTO;
	if (automatic) method = nb_choose(nb, all->radius, all->k, stats->estimate);
	stats->method = method;
	int workers = gt_resolve_threads(all->threads);
	// Every point within r by the cube, or by a grid method Auto chose: stretches of the copy by
	// cell index (the same answers, no per-query set-up, one parallel call).
	if (!all->objects && all->k == 0 && nb_pairs_fit(nb, all->radius) &&
	    (method == GT_NEIGHBOURS_CUBE || (automatic && method == GT_NEIGHBOURS_SPHERE))) {
		stats->method = GT_NEIGHBOURS_CUBE;
		nb_pairs_all(nb, all, workers, stats);
		return GT_OK;
	}
	AllJob* job = &(AllJob){.nb = nb, .all = all, .slots = slots, .count = count, .method = method, .k = all->k};
	atomic_init(&job->next, 0);
	if (workers > (count + CHUNK - 1) / CHUNK) workers = (count + CHUNK - 1) / CHUNK;
	if (workers <= 1) run_chunks(job, 0);
	else gt_run_tasks_pooled(gt_task_system(nb->tasks), nb->pool, run_chunks, job, workers);
	for (int w = 0; w < workers; w++) {
		stats->cells_visited += job->worker[w].cells_visited;
		stats->points_tested += job->worker[w].points_tested;
		stats->truncated += job->worker[w].truncated;
	}
	return GT_OK;
}
