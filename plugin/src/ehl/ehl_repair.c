// EHL builds after map edits: the last index repaired around the edited cells (ehl_repair.h). Why it is exact: with the
// hub order kept, a vertex's labels come out of pruned labelling as they would from scratch with that order; a vertex's
// sweep reads only the cells it sees and their neighbours, so one that saw no edited cell (nor a neighbour of one)
// sweeps as before; and a cell's via labels depend only on its tuples and the useful label entries of their vertices,
// so a cell whose tuples and vertices' entries are unchanged (up to the new numbering, which keeps the order of both
// vertices and hubs) has the same lists, renumbered.
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/job.h"
#include "core/compare.h"
#include "core/platform.h"
#include "core/task.h"
#include "core/status.h"
#include "ehl/ehl_cell_pools.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_repair.h"
#include "oracle/landmarks.h"

struct gtEhlRepair {
	const gtEhl* old;          // NULL: nothing to reuse (the build only keeps its tuples)
	const gtHubLabels* labels; // the new labels
	int n;
	int32_t *old_of, *new_of; // vertex matching, -1 for a vertex on one side only
	int same_below;           // old vertices below keep their number (none before them came or went)
	int shift_from, shift;    // old vertices from shift_from on are numbered shift higher now (none gone)
	int32_t* rank_of_old;     // old hub rank -> new rank, -1 for a vertex gone
	bool none_gone;           // every old vertex stayed (no rank_of_old is -1)
	int32_t* old_rank_of;     // new rank -> old rank, -1 for a new vertex
	int32_t* order;           // new rank -> new vertex
	bool* dirty;              // new vertex: its edges are not its old ones (or it is new)
	bool* changed;            // new vertex: its useful label entries differ from the last index's
	bool* moved;              // new vertex: some label entry (useful or not) is new, gone or has another distance
	int64_t* diff_begin;      // new vertex -> the hubs (new ranks) of those entries [diff_begin[v], diff_begin[v + 1])
	int32_t* diff;
	bool* resweep;    // new vertex: new, or it saw an edited cell
	bool* towards;    // new vertex: resweeps only the directions of `box` (it kept its other tuples)
	int box[4];       // grid points (x0, y0, x1, y1) whose shadows hold every cell an edit can change
	const int* rects; // the edited cells (x0, y0, x1, y1 each), as gtEhlRepairFrom gives them
	int rect_count;
	int64_t* kept_begin;       // new vertex -> its kept tuples [kept_begin[v], kept_begin[v + 1])
	uint32_t* kept;            // cell | GT_EHL_TUPLE_FULL
	bool swept;                // the above are planned (plan_sweep; else every vertex sweeps whole)
	bool same_tuples;          // no vertex sweeps again nor is renumbered: the tuples are the last index's
	uint8_t* clean;            // per cell, decided in pass 0 (enum below)
	atomic_bool some_rebuilt;  // pass 0 found a cell the last index does not have right
	struct Affected* affected; // per worker of the build
	int workers;
	// The labels, made on a job of their own while the build sweeps (the sweeps read no labels).
	const gtMap* map;
	const gtVisGraph* graph;
	const gtEhlDef* def; // a whole build's labels: as gtEhl_Build makes them (batches on `threads`, progress)
	int threads;
	gtHubLabelsEdit edit;
	gtHubLabelsDiffs diffs; // made by the labels' merge into diff_begin, diff and changed (else plan_diffs)
	gtHubLabels* out;
	gtJob job;
	bool labelling;  // the job runs (or ran) and is not joined yet
	bool by_cell;    // false: no room for the label diffs, the cells are built whole
	gtStatus status; // of the labels
	gtError err;
	pthread_mutex_t lock; // labels_ready, set by the job once the labels are there
	pthread_cond_t ready;
	bool labels_ready;
	struct gtLandmarks* landmarks; // (or NULL) made by the job from the labels while the cells are built
	const struct gtLandmarks* old_landmarks;
};

// The hubs (new ranks) whose candidates in one cell may differ from the last index's: the useful entries of the tuples
// on one side only (or FULL on one side only) and the changed entries of the others, marked with the (cell, pass)'s
// token. The cell's other hubs are copied from the last index's entries, walked in order by `at` (old rank order is the
// new one's).
typedef struct Affected {
	int64_t cell;
	int pass;
	uint32_t* mark; // per new hub rank: == token when affected
	uint32_t token;
	uint32_t at; // next old hub entry of the cell to copy
	int moves;   // how the vertices of the cell's old tuples are numbered now (cell_moves)
} Affected;

gtEhlKeepingCounts gt_ehl_keeping_counts;

enum { CELL_BUILT, CELL_COPIED, CELL_BY_HUB }; // by hub: each hub's vias copied unless its candidates changed

static void repair_free(gtEhlRepair* r)
{
	gt_free(r->old_of);
	gt_free(r->new_of);
	gt_free(r->rank_of_old);
	gt_free(r->old_rank_of);
	gt_free(r->order);
	gt_free(r->diff_begin);
	gt_free(r->diff);
	gt_free(r->dirty);
	gt_free(r->changed);
	gt_free(r->moved);
	gt_free(r->resweep);
	gt_free(r->towards);
	gt_free(r->kept_begin);
	gt_free(r->kept);
	gt_free(r->clean);
	for (int i = 0; r->affected && i < r->workers; i++) gt_free(r->affected[i].mark);
	gt_free(r->affected);
	memset(r, 0, sizeof *r);
}

static int64_t degree(const gtVisGraph* g, int v)
{
	return g->offset[v + 1] - g->offset[v];
}

// The kept hub order: the old ranks of the vertices that stayed, then the new corners by
// decreasing degree (as a fresh build starts).
static bool plan_order(gtEhlRepair* r, const gtEhlRepairFrom* from, const gtVisGraph* g)
{
	int n = g->n, count = 0;
	const gtEhl* old = from->old;
	for (int rank = 0; rank < old->n; rank++) {
		int v = r->new_of[old->vertex_of[rank]];
		r->rank_of_old[rank] = v >= 0 ? count : -1;
		if (v >= 0) r->old_rank_of[count] = rank, r->order[count++] = v;
	}
	int first_new = count;
	r->none_gone = count == old->n;
	int64_t* key = gt_malloc(((size_t)(n - count) + 1) * sizeof *key);
	if (!key) return false;
	for (int v = 0; v < n; v++)
		if (r->old_of[v] < 0) key[count++ - first_new] = ((INT64_C(1) << 30) - degree(g, v)) * (INT64_C(1) << 32) + v;
	qsort(key, (size_t)(count - first_new), sizeof *key, gt_compare_int64);
	for (int i = first_new; i < count; i++) {
		r->order[i] = (int32_t)(key[i - first_new] & 0xffffffff);
		r->old_rank_of[i] = -1;
	}
	gt_free(key);
	return count == n;
}

// The label diffs in runs of vertices, each with its own list of hubs, taken in turn by the workers
// (a worker that waits for a core leaves its runs to the caller); joined in order afterwards.
enum { DIFF_RUNS = 16 };

typedef struct Diffs {
	gtEhlRepair* r;
	const gtHubLabels* L;
	int runs;
	atomic_int next;
	struct DiffRun {
		int32_t* hubs;
		int64_t count, capacity;
		bool ok;
	} run[DIFF_RUNS];
} Diffs;

static bool push_diff(struct DiffRun* d, int32_t h)
{
	if (d->count == d->capacity && !GT_GROW(d->hubs, d->capacity, d->count + 1, 1024)) return false;
	d->hubs[d->count++] = h;
	return true;
}

// New vertex v's useful entries against the old index's entries of the same vertex, renumbered: the hubs whose entry is
// on one side only or has another parent or distance go to d (from r->diff_begin[v], counted within d); changed[v] when
// there is any difference (a hub gone too). False when out of memory.
static bool diff_entries(gtEhlRepair* r, const gtHubLabels* L, int v, struct DiffRun* d)
{
	const gtEhl* old = r->old;
	int ov = r->old_of[v];
	uint32_t j = ov >= 0 ? old->label_offset[ov] : 0, end = ov >= 0 ? old->label_offset[ov + 1] : 0;
	int64_t k = L->offset[v], k_end = L->offset[v + 1], listed = d->count;
	bool gone = ov < 0;
	r->diff_begin[v] = listed;
	for (;;) {
		while (k < k_end && !L->useful[k]) k++;
		if (k == k_end && j == end) break;
		int32_t hub = k < k_end ? L->hub[k] : INT32_MAX, was = j < end ? r->rank_of_old[old->label_hub[j]] : INT32_MAX;
		if (was < 0) { // its hub is gone
			gone = true, j++;
			continue;
		}
		bool same = hub == was && r->new_of[old->label_parent[j]] == L->parent[k] && old->label_dist[j] == L->dist[k];
		if (!same && !push_diff(d, hub < was ? hub : was)) return false;
		if (was <= hub) j++;
		if (hub <= was) k++;
	}
	r->changed[v] = gone || d->count > listed;
	return true;
}

static int run_start(const Diffs* ds, int run)
{
	return (int)((int64_t)ds->r->n * run / ds->runs);
}

static void diff_worker(void* context, int index)
{
	(void)index;
	Diffs* ds = context;
	for (int run; (run = atomic_fetch_add(&ds->next, 1)) < ds->runs;) {
		struct DiffRun* d = &ds->run[run];
		d->ok = true;
		for (int v = run_start(ds, run); v < run_start(ds, run + 1) && d->ok; v++)
			d->ok = diff_entries(ds->r, ds->L, v, d);
	}
}

// Every vertex's diffs, on two workers when the labels were made on threads (the build waits for
// them); each run's hubs then follow the runs' before it.
static bool plan_diffs(gtEhlRepair* r, const gtHubLabels* L)
{
	Diffs ds;
	memset(&ds, 0, sizeof ds);
	ds.r = r, ds.L = L, ds.runs = r->edit.threads > 1 ? DIFF_RUNS : 1;
	atomic_init(&ds.next, 0);
	if (!r->diff_begin) r->diff_begin = gt_calloc((size_t)r->n + 1, sizeof *r->diff_begin);
	bool ok = r->diff_begin != NULL;
	if (ok && ds.runs == 1) diff_worker(&ds, 0);
	if (ok && ds.runs > 1) {
		gtPool* pool = gt_pool_create(); // NULL: a thread per call
		gt_run_tasks_pooled(r->edit.tasks, pool, diff_worker, &ds, 2);
		gt_pool_destroy(pool);
	}
	int64_t total = 0;
	for (int i = 0; i < ds.runs; i++) ok = ok && ds.run[i].ok, total += ds.run[i].count;
	struct DiffRun* first = &ds.run[0];
	if (ok && ds.runs > 1 && !GT_GROW(first->hubs, first->capacity, total, 1024)) ok = false;
	int64_t at = first->count;
	for (int i = 1; ok && i < ds.runs; i++) {
		if (ds.run[i].count > 0)
			memcpy(first->hubs + at, ds.run[i].hubs, (size_t)ds.run[i].count * sizeof *first->hubs);
		for (int v = run_start(&ds, i); v < run_start(&ds, i + 1); v++) r->diff_begin[v] += at;
		at += ds.run[i].count;
	}
	r->diff = first->hubs;
	if (r->diff_begin) r->diff_begin[r->n] = total;
	for (int i = 1; i < ds.runs; i++) gt_free(ds.run[i].hubs);
	return ok;
}

// Where the edits can change what a vertex sees: a unit cell's status depends on the visibility of the points of its
// closed square and on whether it and its neighbours are blocked, and a point's visibility from v changes only when the
// segment from v meets an edited cell. So every unit cell whose status changes meets the edited cells grown by a cell
// (two, for margin) or their shadow from v. A cell of the index (g x g, with the squares beside its left and top edges
// that its FULL flags read: g + 1 wide) that meets that region lies, seen from v, within the directions of the region
// grown by g + 1 (scale the cell down towards v from a point of the shadow to the point of the grown rectangle before
// it), so a vertex outside that box keeps its tuples of the cells outside those directions and sweeps only within them.
static void plan_box(gtEhlRepair* r, const gtEhlRepairFrom* from)
{
	int grow = 3 + r->old->g;
	for (int i = 0; i < from->rect_count; i++) {
		const int* q = from->rects + 4 * i;
		int box[4] = {q[0] - grow, q[1] - grow, q[2] + 1 + grow, q[3] + 1 + grow}; // cells to grid points
		for (int k = 0; k < 4; k++)
			if (i == 0 || (k < 2 ? box[k] < r->box[k] : box[k] > r->box[k])) r->box[k] = box[k];
	}
}

// Vertices to sweep again: the new ones and those with a tuple in a cell within one unit cell of an edited one (a sweep
// reads the cells it sees and their neighbours); the others keep their tuples, gathered per vertex, as do those that
// sweep only towards the edits (their tuples outside those directions).
static bool plan_sweep(gtEhlRepair* r, const gtEhlRepairFrom* from)
{
	const gtEhl* old = r->old;
	int n = r->n, g = old->g;
	for (int v = 0; v < n; v++) r->resweep[v] = r->old_of[v] < 0, r->towards[v] = false;
	plan_box(r, from);
	for (int i = 0; i < from->rect_count; i++) {
		const int* q = from->rects + 4 * i;
		int c0 = (q[0] - 1) / g, c1 = (q[2] + 1) / g, r0 = (q[1] - 1) / g, r1 = (q[3] + 1) / g;
		c0 = c0 < 0 ? 0 : c0, r0 = r0 < 0 ? 0 : r0;
		c1 = c1 >= old->columns ? old->columns - 1 : c1, r1 = r1 >= old->rows ? old->rows - 1 : r1;
		for (int row = r0; row <= r1; row++)
			for (int col = c0; col <= c1; col++) {
				int64_t c = (int64_t)row * old->columns + col;
				for (int64_t t = old->tuple_begin[c]; t < old->tuple_begin[c + 1]; t++) {
					int v = r->new_of[old->tuple_vertex[t] & ~GT_EHL_TUPLE_FULL];
					if (v >= 0) r->resweep[v] = true;
				}
			}
	}
	bool any = false;
	for (int v = 0; v < n && !any; v++) any = r->resweep[v];
	// (a block of walls demolished deep inside a wall): no kept lists, the build copies the tuples whole
	r->same_tuples = !any && n == old->n && r->same_below == old->n;
	if (r->same_tuples) return true;
	gtSweepSector sector;
	for (int v = 0; v < n; v++)
		r->towards[v] = r->resweep[v] && r->old_of[v] >= 0 && r->old_of[v] < old->corners &&
		                gt_sweep_sector(from->old_vertices[r->old_of[v]], r->box, &sector);
	r->kept_begin = gt_calloc((size_t)n + 2, sizeof *r->kept_begin);
	if (!r->kept_begin) return false;
	int64_t total = old->tuple_begin[old->cell_count];
	for (int64_t t = 0; t < total; t++) {
		int v = r->new_of[old->tuple_vertex[t] & ~GT_EHL_TUPLE_FULL];
		if (v >= 0 && (!r->resweep[v] || r->towards[v])) r->kept_begin[v + 2]++;
	}
	for (int v = 0; v < n; v++) r->kept_begin[v + 2] += r->kept_begin[v + 1];
	r->kept = gt_malloc(((size_t)r->kept_begin[n + 1] + 1) * sizeof *r->kept);
	if (!r->kept) return false;
	for (int64_t c = 0; c < old->cell_count; c++) // kept_begin[v + 1] is v's fill point
		for (int64_t t = old->tuple_begin[c]; t < old->tuple_begin[c + 1]; t++) {
			uint32_t vf = old->tuple_vertex[t];
			int v = r->new_of[vf & ~GT_EHL_TUPLE_FULL];
			if (v >= 0 && (!r->resweep[v] || r->towards[v]))
				r->kept[r->kept_begin[v + 1]++] = (uint32_t)c | (vf & GT_EHL_TUPLE_FULL);
		}
	return true;
}

// The plan up to the labels: the vertex matching and the kept order. False: no room (build whole).
static bool plan_start(gtEhlRepair* r, const gtEhlRepairFrom* from, const gtMap* map, const gtVisGraph* g)
{
	int n;
	const gtVertex* vertices = gtMap_Vertices(map, &n);
	if (n != g->n) return false;
	r->n = n;
	r->old = from->old;
	r->rects = from->rects, r->rect_count = from->rect_count;
	r->old_of = gt_malloc(((size_t)n + 1) * sizeof *r->old_of);
	r->new_of = gt_malloc(((size_t)from->old_n + 1) * sizeof *r->new_of);
	r->rank_of_old = gt_malloc(((size_t)from->old_n + 1) * sizeof *r->rank_of_old);
	r->order = gt_malloc(((size_t)n + 1) * sizeof *r->order);
	r->old_rank_of = gt_malloc(((size_t)n + 1) * sizeof *r->old_rank_of);
	r->changed = gt_malloc(((size_t)n + 1) * sizeof *r->changed);
	r->diff_begin = gt_calloc((size_t)n + 1, sizeof *r->diff_begin);
	r->moved = gt_malloc(((size_t)n + 1) * sizeof *r->moved);
	r->old_landmarks = from->old_landmarks;
	r->dirty = gt_malloc(((size_t)n + 1) * sizeof *r->dirty);
	r->resweep = gt_malloc(((size_t)n + 1) * sizeof *r->resweep);
	r->towards = gt_malloc(((size_t)n + 1) * sizeof *r->towards);
	r->clean = gt_calloc((size_t)from->old->cell_count + 1, sizeof *r->clean);
	if (!r->old_of || !r->new_of || !r->rank_of_old || !r->order || !r->changed || !r->resweep || !r->towards ||
	    !r->clean || !r->dirty || !r->old_rank_of || !r->diff_begin || !r->moved)
		return false;
	gt_vis_match_vertices(from->old_vertices, from->old_n, vertices, n, r->old_of, r->new_of);
	while (r->same_below < from->old_n && r->new_of[r->same_below] == r->same_below) r->same_below++;
	r->shift_from = from->old_n, r->shift = 0; // the last run of old vertices moved by one amount
	if (from->old_n > 0 && r->new_of[from->old_n - 1] >= 0) r->shift = r->new_of[from->old_n - 1] - (from->old_n - 1);
	while (r->shift_from > 0 && r->new_of[r->shift_from - 1] == r->shift_from - 1 + r->shift) r->shift_from--;
	const gtVisGraph* old = from->old_graph;
	for (int v = 0; v < n; v++) { // edges are sorted by index, which the matching keeps in order
		int ov = r->old_of[v];
		int64_t k = ov >= 0 ? old->offset[ov] : 0, e = g->offset[v];
		bool same = ov >= 0 && old->offset[ov + 1] - k == g->offset[v + 1] - e;
		for (; same && e < g->offset[v + 1]; k++, e++) same = r->new_of[old->adj[k]] == g->adj[e];
		r->dirty[v] = !same;
	}
	return plan_order(r, from, g);
}

// Whether the last index can be repaired: it kept its tuples, its vertices are the ones given, and
// the build makes the same cells.
static bool repairable(const gtEhlRepairFrom* from, const gtMap* map, const gtEhlDef* def, const gtVisGraph* g)
{
	const gtEhl* old = from ? from->old : NULL;
	if (!old || !old->tuple_begin || !old->hub_labels || old->n != from->old_n || !g->offset || def->budget_mb > 0 ||
	    old->region_of) // a region index is rebuilt whole
		return false;
	// Nor is an index with links: its labels rank the link ends apart (ehl_end_ranks.c) and its searches
	// stop at cut vertices, neither of which the repair (or its local searches) knows. The callers
	// (nav_edit.c, nav_doors.c) already build those whole; this keeps any other caller from a repair.
	if (old->link_count > 0) return false;
	if (!from->old_graph || !from->old_graph->offset || from->old_graph->n != old->n) return false;
	return old->g == def->cell_size && old->columns == (gtMap_Width(map) + old->g - 1) / old->g &&
	       old->rows == (gtMap_Height(map) + old->g - 1) / old->g;
}

static gtStatus landmarks_after(const gtEhlRepair* r, const gtHubLabels* L, gtLandmarks* out, gtError* err);

// The labels in the kept order (searches the edits cannot change copied) with what changed in them
// for the cells (from the labels' merge, which reads only the entries that can differ; else
// plan_diffs compares every vertex's), then the landmarks. On the label job, or on the build's thread.
static void make_labels(void* context)
{
	gtEhlRepair* r = context;
	r->status = r->old ? gt_hub_labels_build_in_order(r->map, r->graph, r->order, &r->edit, r->out, &r->err)
	                   : gt_hub_labels_of_graph(r->map, r->graph, r->def, r->threads, r->out, &r->err);
	if (r->diffs.made) r->diff = r->diffs.hub; // freed with the repair
	// no room: the cells are built whole
	r->by_cell = !r->status && r->old && (r->diffs.made || plan_diffs(r, r->out));
	gtHubLabels labels = *r->out; // the build moves them into the index: their arrays stay
	pthread_mutex_lock(&r->lock);
	r->labels_ready = true;
	pthread_cond_signal(&r->ready);
	pthread_mutex_unlock(&r->lock);
	gtError ignored; // without landmarks the first query that derives a graph computes them
	if (r->landmarks && (r->status || landmarks_after(r, &labels, r->landmarks, &ignored)))
		memset(r->landmarks, 0, sizeof *r->landmarks);
}

gtStatus gt_ehl_repair_await_labels(gtEhlRepair* r, gtError* err)
{
	if (r->labelling) {
		pthread_mutex_lock(&r->lock);
		while (!r->labels_ready) pthread_cond_wait(&r->ready, &r->lock);
		pthread_mutex_unlock(&r->lock);
	}
	if (r->status && err) *err = r->err;
	return r->status;
}

static bool labels_there(gtEhlRepair* r)
{
	pthread_mutex_lock(&r->lock);
	bool ready = r->labels_ready;
	pthread_mutex_unlock(&r->lock);
	return ready;
}

// A block of about `bytes` (the last index's array, a little more), written once per 4 KB until the
// labels are there: the pages the system gives now are not faults of pass 1.
static void* room_written(gtEhlRepair* r, double bytes, double* made)
{
	enum { PAGE = 4096, CHECK = 2 << 20 };
	bool small = atomic_load(&gt_ehl_cells_test.mode) & GT_EHL_CELLS_SMALL_ROOM;
	size_t size = small ? (size_t)(bytes / 4) + 1 : (size_t)(bytes * 1.02) + CHECK;
	*made = (double)size;
	char* block = gt_malloc(size);
	gt_advise_huge_block(block, size);
	for (size_t at = 0; block && at < size && (at % CHECK || !labels_there(r)); at += PAGE) block[at] = 0;
	return block;
}

double gt_ehl_repair_room(gtEhlRepair* r, const gtEhl* e, void** hubs, void** vias)
{
	*hubs = *vias = NULL;
	atomic_store(&gt_ehl_cells_test.room_bytes, 0);
	if (!r->old || !r->labelling) return 0; // no wait: the labels are made before the sweep
	// The tuples the last index's, its cells shareable: pass 0 most likely finds every cell as it was
	// (door indexes over pockets, walled-in demolitions) and pass 1 does not run.
	if (gt_ehl_repair_same_tuples(r, e) && r->none_gone && r->old->cell_full && r->old->shared_cells) return 0;
	double via_bytes = (double)(r->old->via_count + 1) * sizeof *r->old->vias;
	double hub_bytes = (double)r->old->hub_count * sizeof *r->old->hubs;
	*vias = room_written(r, via_bytes, &via_bytes);
	*hubs = room_written(r, hub_bytes, &hub_bytes);
	double made = (*vias ? via_bytes : 0) + (*hubs ? hub_bytes : 0);
	atomic_store(&gt_ehl_cells_test.room_bytes, (long long)made);
	return made / 1e6;
}

void gt_ehl_repair_join(gtEhlRepair* r)
{
	if (r->labelling) gt_job_join(&r->job);
	r->labelling = false;
}

bool gt_ehl_repair_labelling(const gtEhlRepair* r)
{
	return r->labelling;
}

gtStatus gt_ehl_build_keeping_graph(const gtMap* map, const gtEhlDef* def, gtVisGraph* graph,
                                    const gtEhlRepairFrom* from, gtEhl** out, struct gtLandmarks* landmarks,
                                    gtError* err)
{
	if (landmarks) memset(landmarks, 0, sizeof *landmarks);
	double start = gtNowSeconds();
	*out = NULL;
	gtStatus checked = gt_ehl_check_def(def, err);
	if (checked) return checked;
	checked = gt_ehl_check_vertices(map, def, err);
	if (checked) return checked;
	int threads = gt_resolve_threads(def->threads);
	bool reuse = repairable(from, map, def, graph);
	gtStatus st = GT_OK;
	if (!graph->offset) {
		gt_ehl_report(def, "visibility graph", 0);
		st = gt_vis_graph_build(map, def->tasks, threads, false, graph, err);
		if (st) {
			memset(graph, 0, sizeof *graph);
			return st;
		}
	}
	gtEhlRepair repair;
	memset(&repair, 0, sizeof repair);
	atomic_init(&repair.some_rebuilt, false);
	if (reuse && !plan_start(&repair, from, map, graph)) repair_free(&repair); // no room: built whole
	gtHubLabels labels;
	memset(&labels, 0, sizeof labels);
	gt_ehl_report(def, "hub labels", 0);
	repair.diffs = (gtHubLabelsDiffs){repair.diff_begin, repair.changed, NULL, false, repair.moved, false};
	gtHubLabelsEdit edit = {repair.old ? repair.old->hub_labels : NULL,
	                        repair.new_of,
	                        repair.old_of,
	                        repair.dirty,
	                        def->tasks,
	                        threads,
	                        repair.old ? &repair.diffs : NULL,
	                        repair.old ? repair.old->label_offset : NULL,
	                        repair.old ? repair.old->label_hub : NULL,
	                        repair.old ? repair.old->label_parent : NULL,
	                        repair.old ? repair.old->label_dist : NULL,
	                        NULL};
	repair.map = map, repair.graph = graph, repair.edit = edit, repair.out = &labels, repair.landmarks = landmarks;
	repair.def = def, repair.threads = threads;
	pthread_mutex_init(&repair.lock, NULL);
	pthread_cond_init(&repair.ready, NULL);
	// With a thread to spare, the labels are made while the build sweeps (on one thread fewer), and
	// the landmarks from them while it builds the cells.
	repair.labelling = repair.old && threads > 1 && gt_job_start(&repair.job, def->tasks, make_labels, &repair);
	// The sweep's plan reads nothing the labels do: made while they are (no room: every vertex sweeps).
	repair.swept = repair.old && plan_sweep(&repair, from);
	if (!repair.labelling) {
		make_labels(&repair);
		st = repair.status;
		if (st && err) *err = repair.err;
		if (st) {
			pthread_mutex_destroy(&repair.lock);
			pthread_cond_destroy(&repair.ready);
			repair_free(&repair);
			return st;
		}
	}
	repair.labels = &labels;
	repair.affected = repair.old ? gt_calloc((size_t)threads, sizeof *repair.affected) : NULL;
	repair.workers = repair.affected ? threads : 0;
	for (int i = 0; i < repair.workers; i++) {
		repair.affected[i].cell = -1;
		repair.affected[i].mark = gt_calloc((size_t)repair.n + 1, sizeof *repair.affected[i].mark);
		if (!repair.affected[i].mark) repair.workers = 0; // no room: the cells are built whole
	}
	st = gt_ehl_build_from_labels(map, def, threads, &labels, &repair, graph->offset[graph->n] / 2, start, out, err);
	gt_ehl_repair_join(&repair); // on every path (the build joins it on its own)
	// So that the next repair may share its cells (false: no room, that repair copies them).
	if (!st) gt_ehl_own_shared_cells(*out);
	pthread_mutex_destroy(&repair.lock);
	pthread_cond_destroy(&repair.ready);
	if (st && landmarks) gt_landmarks_free(landmarks);
	if (!st) atomic_fetch_add(repair.old ? &gt_ehl_keeping_counts.repaired : &gt_ehl_keeping_counts.whole, 1);
	repair_free(&repair);
	return st;
}

bool gt_ehl_repair_whole(const gtEhlRepair* r)
{
	return !r->old;
}

bool gt_ehl_repair_kept_tuples(const gtEhlRepair* r, const gtEhl* e, int v, const uint32_t** cells, int64_t* count)
{
	if (!r->old || !r->swept || r->same_tuples || r->old->g != e->g || r->resweep[v]) return false;
	*cells = r->kept + r->kept_begin[v];
	*count = r->kept_begin[v + 1] - r->kept_begin[v];
	return true;
}

bool gt_ehl_repair_sector(const gtEhlRepair* r, const gtEhl* e, int v, gtSweepSector* sector, const uint32_t** cells,
                          int64_t* count)
{
	if (!r->old || !r->swept || r->same_tuples || r->old->g != e->g || v >= e->corners || !r->towards[v] ||
	    !gt_sweep_sector(e->vertices[v], r->box, sector))
		return false;
	*cells = r->kept + r->kept_begin[v];
	*count = r->kept_begin[v + 1] - r->kept_begin[v];
	return true;
}

bool gt_ehl_repair_same_tuples(const gtEhlRepair* r, const gtEhl* e)
{
	return r->old && r->swept && r->same_tuples && r->old->g == e->g && r->old->cell_count == e->cell_count;
}

gtStatus gt_ehl_repair_copy_tuples(const gtEhlRepair* r, int64_t** begin, uint32_t** vertex, int64_t* pairs,
                                   gtError* err)
{
	const gtEhl* old = r->old;
	int64_t cells = old->cell_count, total = old->tuple_begin[cells];
	*begin = gt_malloc(((size_t)cells + 1) * sizeof **begin);
	*vertex = gt_malloc(((size_t)total + 1) * sizeof **vertex);
	if (!*begin || !*vertex) return gt_fail(err, GT_ERR_NOMEM, "out of memory for %lld cell tuples", (long long)total);
	memcpy(*begin, old->tuple_begin, ((size_t)cells + 1) * sizeof **begin);
	memcpy(*vertex, old->tuple_vertex, (size_t)total * sizeof **vertex);
	*pairs = total;
	return GT_OK;
}

bool gt_ehl_repair_edge_free(const gtEhlRepair* r, const gtEhl* e, const uint32_t** old, const int** rects, int* count)
{
	if (!r->old || !r->old->edge_free || r->old->g != e->g || r->old->columns != e->columns || r->old->rows != e->rows)
		return false;
	*old = r->old->edge_free, *rects = r->rects, *count = r->rect_count;
	return true;
}

bool gt_ehl_repair_sector_holds(const gtEhl* e, const gtSweepSector* sector, int64_t cell)
{
	// A cell's FULL flags also read the squares beside its left and top edges (its edge points).
	int x = (int)(cell % e->columns) * e->g, y = (int)(cell / e->columns) * e->g;
	return gt_sweep_sector_holds(sector, x - 1, y - 1, x + e->g, y + e->g);
}

// How a cell's copied vias are renumbered: not at all (no vertex of its old tuples has another number now; a via's
// vertex is one of its cell's tuples), by one amount (all of them lie in the last run of old vertices that moved
// together: a wall built adds its corners, and every later vertex moves by their count), or through new_of.
enum { MOVES_NONE, MOVES_SHIFT, MOVES_TABLE };

static int cell_moves(const gtEhlRepair* r, int64_t cell)
{
	const gtEhl* old = r->old;
	uint32_t most = 0, least = UINT32_MAX;
	for (int64_t t = old->tuple_begin[cell]; t < old->tuple_begin[cell + 1]; t++) {
		uint32_t v = old->tuple_vertex[t] & ~GT_EHL_TUPLE_FULL;
		most = v > most ? v : most, least = v < least ? v : least;
	}
	return (int64_t)most < r->same_below ? MOVES_NONE : (int64_t)least >= r->shift_from ? MOVES_SHIFT : MOVES_TABLE;
}

// Vias copied by memcpy renumbered in place. A via's vertex is its first 3 bytes, little-endian (vertex_low, then the
// float's lowest byte: GT_VIA_VERTEX_BITS): on such a machine each via's first 4 bytes are rewritten through new_of
// without a test (new_of[v] is v below same_below): a load, a table read and a store a via rather than the fields taken
// apart and compared.
static void renumber_vias(const gtEhlRepair* r, gtEhlViaLabel* vias, uint32_t count, int moves)
{
	const int32_t* new_of = r->new_of;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_Static_assert(sizeof(gtEhlViaLabel) == 6 && GT_VIA_VERTEX_BITS == 0xFF, "a via's vertex is its first 3 bytes");
	unsigned char* at = (unsigned char*)vias;
	if (moves == MOVES_SHIFT) { // the new number fits the 3 bytes: the add carries into none beyond
		uint32_t shift = (uint32_t)r->shift;
		for (uint32_t k = 0; k < count; k++, at += sizeof(gtEhlViaLabel)) {
			uint32_t word;
			memcpy(&word, at, sizeof word);
			word += shift;
			memcpy(at, &word, sizeof word);
		}
		return;
	}
	for (uint32_t k = 0; k < count; k++, at += sizeof(gtEhlViaLabel)) {
		uint32_t word;
		memcpy(&word, at, sizeof word);
		word = (word & 0xFF000000u) | (uint32_t)new_of[word & 0xFFFFFFu];
		memcpy(at, &word, sizeof word);
	}
#else
	(void)moves;
	for (uint32_t k = 0; k < count; k++) {
		int v = gt_via_vertex(&vias[k]);
		if (v >= r->same_below) gt_via_renumber(&vias[k], new_of[v]);
	}
#endif
}

// The last index's vias copied (renumbered when `moves`, see cell_moves), their FULL bits counted
// for the index's stats. Returns the FULL vias.
static int64_t copy_vias(const gtEhlRepair* r, gtEhlViaLabel* to, const gtEhlViaLabel* from, uint32_t count, int moves)
{
	int64_t full = 0;
	memcpy(to, from, (size_t)count * sizeof *to);
	for (uint32_t k = 0; k < count; k++) full += gt_via_bits(&from[k]) >> 31; // FULL is the sign bit
	if (moves != MOVES_NONE) renumber_vias(r, to, count, moves);
	return full;
}

// A copied cell's vias: a memcpy, then renumbered (when cell_moves). Its FULL vias are the last
// index's count (cell_full), so no via is read for them.
static void copy_cell_vias(const gtEhlRepair* r, int64_t cell, gtEhlViaLabel* to, const gtEhlViaLabel* from,
                           uint32_t count)
{
	memcpy(to, from, (size_t)count * sizeof *to);
	int moves = cell_moves(r, cell);
	if (moves != MOVES_NONE) renumber_vias(r, to, count, moves);
}

// Pass 0: whether cell c of the last index holds the lists the new tuples call for (see the top);
// else each hub's are checked (gt_ehl_repair_affected).
static uint8_t cell_state(const gtEhlRepair* r, int64_t c, const uint32_t* tuples, int64_t count)
{
	const gtEhl* old = r->old;
	int64_t first = old->tuple_begin[c];
	if (old->tuple_begin[c + 1] - first != count) return CELL_BY_HUB;
	for (int64_t i = 0; i < count; i++) {
		uint32_t vf = old->tuple_vertex[first + i];
		int v = r->new_of[vf & ~GT_EHL_TUPLE_FULL];
		if (v < 0 || r->changed[v] || ((uint32_t)v | (vf & GT_EHL_TUPLE_FULL)) != tuples[i]) return CELL_BY_HUB;
	}
	for (uint32_t h = old->cell_begin[c]; !r->none_gone && h + 1 < old->cell_begin[c + 1]; h++)
		if (r->rank_of_old[old->hubs[h].hub] < 0) return CELL_BY_HUB;
	return CELL_COPIED;
}

bool gt_ehl_repair_cell(gtEhlRepair* r, gtEhl* e, int64_t cell, int pass, const uint32_t* tuples, int64_t count,
                        uint64_t via_at, uint32_t* hubs, uint32_t* vias, int64_t* full)
{
	const gtEhl* old = r->old;
	if (!old || old->g != e->g || !r->by_cell) return false;
	if (pass == 0) r->clean[cell] = cell_state(r, cell, tuples, count);
	if (pass == 0 && r->clean[cell] != CELL_COPIED) atomic_store_explicit(&r->some_rebuilt, true, memory_order_relaxed);
	if (r->clean[cell] != CELL_COPIED) return false;
	uint32_t first = old->cell_begin[cell], sentinel = old->cell_begin[cell + 1] - 1;
	uint32_t via0 = old->hubs[first].via_begin, via_count = old->hubs[sentinel].via_begin - via0;
	*hubs = sentinel - first;
	*vias = via_count;
	if (pass == 0) return true;
	gtEhlHub* to = e->hubs + e->cell_begin[cell];
	if (r->none_gone) { // every old rank is its new one (plan_order): the entries copied, their vias moved
		memcpy(to, old->hubs + first, (size_t)(sentinel - first) * sizeof *to);
		for (uint32_t h = 0; h < sentinel - first; h++) to[h].via_begin += (uint32_t)(via_at - via0);
		to += sentinel - first;
	}
	for (uint32_t h = first; !r->none_gone && h < sentinel; h++) {
		gtEhlHub entry = {(uint32_t)(via_at + (old->hubs[h].via_begin - via0)),
		                  (uint32_t)r->rank_of_old[old->hubs[h].hub], old->hubs[h].lower_bound};
		*to++ = entry;
	}
	gtEhlHub end = {(uint32_t)(via_at + via_count), (uint32_t)e->n, INFINITY};
	*to = end;
	if (old->cell_full) {
		*full += old->cell_full[cell];
		copy_cell_vias(r, cell, e->vias + via_at, old->vias + via0, via_count);
	} else {
		*full += copy_vias(r, e->vias + via_at, old->vias + via0, via_count, cell_moves(r, cell));
	}
	return true;
}

bool gt_ehl_repair_share_cells(gtEhlRepair* r, gtEhl* e, int64_t* full)
{
	const gtEhl* old = r->old;
	// Every cell copied and every vertex numbered as before (so every hub ranked as before): pass 1
	// would write the last index's arrays byte for byte (the same lists, via offsets and vias). none_gone
	// follows from n and same_below today; tested so that the invariant stays pinned.
	if (!old || !r->none_gone || !r->by_cell || old->g != e->g || old->cell_count != e->cell_count || old->n != e->n ||
	    r->n != old->n || r->same_below != old->n || !old->cell_full || !old->shared_cells ||
	    atomic_load_explicit(&r->some_rebuilt, memory_order_relaxed)) // the stage's join ordered its stores
		return false;
	uint32_t* cell_full = gt_malloc(((size_t)e->cell_count + 1) * sizeof *cell_full);
	if (!cell_full || !gt_ehl_share_cells(e, old)) {
		gt_free(cell_full);
		return false;
	}
	memcpy(cell_full, old->cell_full, (size_t)e->cell_count * sizeof *cell_full);
	*full = 0;
	for (int64_t c = 0; c < e->cell_count; c++) *full += cell_full[c];
	gt_free(e->cell_full); // the build's, for a pass 1 not run
	e->cell_full = cell_full;
	return true;
}

bool gt_ehl_repair_keep_labels(gtEhl* e, gtHubLabels* labels)
{
	e->hub_labels = gt_malloc(sizeof *e->hub_labels);
	if (!e->hub_labels) return false;
	*e->hub_labels = *labels;
	memset(labels, 0, sizeof *labels);
	return true;
}

static void affect(Affected* a, int32_t h)
{
	a->mark[h] = a->token;
}

// A tuple on one side only: every useful entry of its vertex, in the old index or the new labels.
static void affect_vertex(const gtEhlRepair* r, Affected* a, uint32_t vf, bool old_side)
{
	int v = (int)(vf & ~GT_EHL_TUPLE_FULL);
	if (old_side) {
		for (uint32_t k = r->old->label_offset[v]; k < r->old->label_offset[v + 1]; k++)
			if (r->rank_of_old[r->old->label_hub[k]] >= 0) affect(a, r->rank_of_old[r->old->label_hub[k]]);
		return;
	}
	for (int64_t k = r->labels->offset[v]; k < r->labels->offset[v + 1]; k++)
		if (r->labels->useful[k]) affect(a, r->labels->hub[k]);
}

// Marks a's set for `cell` by merging the old tuples (renumbered: the order stays) with the new.
// A hub new to the index is always marked: only changed entries and new tuples can name it.
static void affected_hubs(const gtEhlRepair* r, Affected* a, int64_t cell, const uint32_t* tuples, int64_t count)
{
	const uint32_t* old_tuples = r->old->tuple_vertex + r->old->tuple_begin[cell];
	int64_t old_count = r->old->tuple_begin[cell + 1] - r->old->tuple_begin[cell], i = 0, j = 0;
	if (++a->token == 0) { // wrapped: clear the marks
		memset(a->mark, 0, (size_t)r->n * sizeof *a->mark);
		a->token = 1;
	}
	a->at = r->old->cell_begin[cell];
	a->moves = cell_moves(r, cell);
	while (i < old_count || j < count) {
		int64_t before = i < old_count ? r->new_of[old_tuples[i] & ~GT_EHL_TUPLE_FULL] : INT64_MAX;
		int64_t now = j < count ? (int64_t)(tuples[j] & ~GT_EHL_TUPLE_FULL) : INT64_MAX;
		if (before < 0) { // a vertex gone
			affect_vertex(r, a, old_tuples[i++], true);
			continue;
		}
		if (before < now) affect_vertex(r, a, old_tuples[i], true);
		if (now < before) affect_vertex(r, a, tuples[j], false);
		if (before == now && ((old_tuples[i] ^ tuples[j]) & GT_EHL_TUPLE_FULL)) {
			affect_vertex(r, a, old_tuples[i], true);
			affect_vertex(r, a, tuples[j], false);
		} else if (before == now && r->changed[now]) {
			for (int64_t k = r->diff_begin[now]; k < r->diff_begin[now + 1]; k++) affect(a, r->diff[k]);
		}
		if (before <= now) i++;
		if (now <= before) j++;
	}
}

bool gt_ehl_repair_affected(const gtEhlRepair* r, int worker, const gtEhl* e, int64_t cell, int pass,
                            const uint32_t* tuples, int64_t count, const uint32_t** mark, uint32_t* token)
{
	const gtEhl* old = r->old;
	if (!old || old->g != e->g || !r->by_cell || r->clean[cell] != CELL_BY_HUB || worker >= r->workers) return false;
	Affected* a = &r->affected[worker];
	a->cell = cell, a->pass = pass;
	affected_hubs(r, a, cell, tuples, count);
	*mark = a->mark;
	*token = a->token;
	return true;
}

void gt_ehl_repair_copy_hubs(const gtEhlRepair* r, int worker, gtEhl* e, int64_t cell, int pass, int32_t below,
                             int64_t hub_at, uint64_t via_at, uint32_t* hubs, uint32_t* vias, int64_t* full)
{
	const gtEhl* old = r->old;
	Affected* a = &r->affected[worker];
	uint32_t end = old->cell_begin[cell + 1] - 1; // the sentinel
	for (; a->at < end; a->at++) {
		const gtEhlHub* at = &old->hubs[a->at];
		int32_t h = r->rank_of_old[at->hub];
		if (h >= below) break;
		if (h < 0 || a->mark[h] == a->token) continue; // its hub gone, or computed again
		uint32_t count = at[1].via_begin - at[0].via_begin;
		if (pass == 1) {
			gtEhlHub entry = {(uint32_t)(via_at + *vias), (uint32_t)h, at->lower_bound};
			e->hubs[hub_at + *hubs] = entry;
			*full += copy_vias(r, e->vias + via_at + *vias, old->vias + at->via_begin, count, a->moves);
		}
		*hubs += 1;
		*vias += count;
	}
}

// Distances from vertex `from` to every vertex by its hub labels (exact on the graph, as a Dijkstra's; +inf when no hub
// is shared). With the labels inverted (per hub, the vertices that have an entry for it), only the hubs of `from`'s own
// label are walked: a vertex's distance is the least d(from, h) + d(v, h) over the hubs h both labels hold, so the
// entries of other hubs add nothing (rooms 384: 5.0 M instructions for the landmarks' distances against 17.5 M for a
// scan of every label, plus about 2.5 M to invert them once). Without room for the inverse, every label is scanned
// against `to_from` (per hub rank: the distance from `from`, else +inf).
typedef struct LabelSearch {
	const gtHubLabels* labels;
	double* to_from;
	int64_t* inv_begin; // per hub rank (n + 1): its entries [inv_begin[h], inv_begin[h + 1]) (or NULL)
	int32_t* inv_vertex;
	double* inv_dist;
} LabelSearch;

static bool invert_labels(LabelSearch* s)
{
	const gtHubLabels* L = s->labels;
	int64_t total = L->offset[L->n];
	s->inv_begin = gt_calloc((size_t)L->n + 2, sizeof *s->inv_begin);
	s->inv_vertex = gt_malloc(((size_t)total + 1) * sizeof *s->inv_vertex);
	s->inv_dist = gt_malloc(((size_t)total + 1) * sizeof *s->inv_dist);
	if (!s->inv_begin || !s->inv_vertex || !s->inv_dist) return false;
	for (int64_t k = 0; k < total; k++) s->inv_begin[L->hub[k] + 2]++;
	for (int h = 0; h < L->n; h++) s->inv_begin[h + 2] += s->inv_begin[h + 1];
	for (int v = 0; v < L->n; v++) // inv_begin[h + 1] is h's fill point
		for (int64_t k = L->offset[v]; k < L->offset[v + 1]; k++) {
			int64_t at = s->inv_begin[L->hub[k] + 1]++;
			s->inv_vertex[at] = v;
			s->inv_dist[at] = L->dist[k];
		}
	return true;
}

static void label_distances(void* context, int from, double* dist)
{
	const LabelSearch* search = context;
	const gtHubLabels* L = search->labels;
	if (search->inv_begin) {
		for (int v = 0; v < L->n; v++) dist[v] = INFINITY;
		for (int64_t k = L->offset[from]; k < L->offset[from + 1]; k++) {
			double to_hub = L->dist[k];
			int32_t h = L->hub[k];
			for (int64_t i = search->inv_begin[h]; i < search->inv_begin[h + 1]; i++) {
				double through = search->inv_dist[i] + to_hub; // the scan's sum, the same double
				int v = search->inv_vertex[i];
				dist[v] = through < dist[v] ? through : dist[v];
			}
		}
		return;
	}
	double* to_from = search->to_from;
	for (int64_t k = L->offset[from]; k < L->offset[from + 1]; k++) to_from[L->hub[k]] = L->dist[k];
	for (int v = 0; v < L->n; v++) {
		double best = INFINITY;
		for (int64_t k = L->offset[v]; k < L->offset[v + 1]; k++) {
			double through = L->dist[k] + to_from[L->hub[k]];
			best = through < best ? through : best;
		}
		dist[v] = best;
	}
	for (int64_t k = L->offset[from]; k < L->offset[from + 1]; k++) to_from[L->hub[k]] = INFINITY;
}

static gtStatus landmarks_of(const gtHubLabels* L, gtLandmarks* out, gtError* err)
{
	memset(out, 0, sizeof *out);
	int n = L ? L->n : 0;
	if (n == 0) return L ? GT_OK : gt_fail(err, GT_ERR_INVALID_ARG, "the index kept no hub labels");
	LabelSearch search = {L, gt_malloc((size_t)n * sizeof(double)), NULL, NULL, NULL};
	if (!search.to_from) return gt_fail(err, GT_ERR_NOMEM, "out of memory for landmark distances");
	for (int v = 0; v < n; v++) search.to_from[v] = INFINITY;
	if (!invert_labels(&search)) { // no room: each label scanned
		gt_free(search.inv_begin);
		search.inv_begin = NULL;
	}
	// As gt_landmarks_pick picks them, with distances from the labels instead of Dijkstra.
	gtStatus st = gt_landmarks_pick(n, label_distances, &search, out, err);
	gt_free(search.to_from);
	gt_free(search.inv_begin);
	gt_free(search.inv_vertex);
	gt_free(search.inv_dist);
	return st;
}

gtStatus gt_ehl_repair_landmarks(const gtEhl* e, gtLandmarks* out, gtError* err)
{
	return landmarks_of(e->hub_labels, out, err);
}

// The least sum over the hubs the labels of a and b share (+inf: none), as label_distances sums
// them for b from a.
static double labels_meet(const gtHubLabels* L, int a, int b)
{
	double best = INFINITY;
	int64_t i = L->offset[a], j = L->offset[b];
	while (i < L->offset[a + 1] && j < L->offset[b + 1]) {
		if (L->hub[i] != L->hub[j]) {
			L->hub[i] < L->hub[j] ? i++ : j++;
			continue;
		}
		double through = L->dist[j] + L->dist[i];
		best = through < best ? through : best;
		i++, j++;
	}
	return best;
}

// The last index's landmarks kept (the same vertices, renumbered) when none of them is gone. A vertex whose label
// entries did not move keeps its old distance from a landmark whose entries did not either (the least sum over the same
// entries as before); the other vertices get theirs from the two labels, and a landmark whose entries moved all of its
// distances from the labels inverted. Not the picks a build makes now, but exact distances from vertices picked far
// apart (the bounds A* reads): a repair skips most of 16 label searches (rooms 384: 8.2 M instructions a repair).
// False: nothing to keep, or no room.
static bool kept_landmarks(const gtEhlRepair* r, const gtHubLabels* L, gtLandmarks* out)
{
	const gtLandmarks* old = r->old_landmarks;
	int n = r->n, count = old ? old->count : 0;
	int32_t at[GT_LANDMARKS];
	bool whole[GT_LANDMARKS], any = false; // whole: the landmark's own entries moved
	if (!r->old || !r->diffs.made || !old || !old->dist || !old->vertex || old->n != r->old->n || n == 0 ||
	    count != (GT_LANDMARKS < n ? GT_LANDMARKS : n))
		return false;
	// Many corners moved (a top hub's distances changed): a row from the inverted labels costs less
	// than a label pair per moved corner (rooms 384, a quarter moved: 6 M instructions against 4 M).
	int moved = 0;
	for (int v = 0; v < n; v++) moved += r->moved[v];
	for (int l = 0; l < count; l++) {
		int v = old->vertex[l] >= 0 && old->vertex[l] < old->n ? r->new_of[old->vertex[l]] : -1;
		if (v < 0) return false;
		at[l] = v, whole[l] = r->moved[v] || 4 * (int64_t)moved > n, any |= whole[l];
	}
	LabelSearch search = {L, NULL, NULL, NULL, NULL};
	double* dist = any ? gt_malloc((size_t)n * sizeof *dist) : NULL;
	out->dist = gt_malloc((size_t)n * (size_t)count * sizeof *out->dist);
	out->vertex = gt_malloc((size_t)count * sizeof *out->vertex);
	bool ok = out->dist && out->vertex && (!any || (dist && invert_labels(&search)));
	out->n = n, out->count = count;
	for (int l = 0; ok && l < count; l++) {
		out->vertex[l] = at[l];
		if (!whole[l]) continue;
		label_distances(&search, at[l], dist);
		for (int v = 0; v < n; v++) out->dist[(size_t)v * (size_t)count + (size_t)l] = dist[v];
	}
	for (int v = 0; ok && v < n; v++) {
		double* row = out->dist + (size_t)v * (size_t)count;
		int ov = r->old_of[v];
		const double* was = ov >= 0 && !r->moved[v] ? old->dist + (size_t)ov * (size_t)count : NULL;
		for (int l = 0; l < count; l++)
			if (!whole[l]) row[l] = was ? was[l] : labels_meet(L, at[l], v);
	}
	gt_free(dist);
	gt_free(search.inv_begin), gt_free(search.inv_vertex), gt_free(search.inv_dist);
	if (!ok) gt_landmarks_free(out);
	return ok;
}

static gtStatus landmarks_after(const gtEhlRepair* r, const gtHubLabels* L, gtLandmarks* out, gtError* err)
{
	return kept_landmarks(r, L, out) ? GT_OK : landmarks_of(L, out, err);
}
