// A repair's labels made flat: the searched roots' entries merged with the copied roots' old ones
// (hub_labels_lists.h). A copied root's entries are its old search's, renumbered, so they are read
// in place from the old labels rather than copied into lists while the roots are labelled (the
// labelling is the repair's serial part); here, per vertex and on two workers, both go into the
// flat arrays in rank order, as the lists of a build in this order would.
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "core/task.h"
#include "ehl/hub_labels_lists.h"

typedef struct Merge {
	const gtHubLabelsEdit* edit;
	const EntryList* lists;
	const bool* copied;     // per old rank
	const int32_t* rank_of; // old rank -> new rank (-1: gone)
	const gtVertex* vert;
	int count, n, runs, pass; // pass 0 counts each vertex's entries (into offset[v + 1]), 1 writes them
	gtHubLabels* out;         // with its kept (useful) entries too, when kept_offset is not NULL
	atomic_int next;
} Merge;

enum { MERGE_RUNS = 16 };

static void count_vertex(const Merge* m, int v)
{
	const gtHubLabels* old = m->edit->old;
	int ov = m->edit->old_of[v];
	const EntryList* searched = &m->lists[v];
	int64_t count = searched->count, useful = 0;
	for (int64_t k = ov >= 0 ? old->offset[ov] : 0; ov >= 0 && k < old->offset[ov + 1]; k++)
		count += m->copied[old->hub[k]], useful += m->copied[old->hub[k]] && old->useful[k];
	for (int64_t i = 0; i < searched->count && m->out->kept_offset; i++)
		useful += gt_hub_entry_useful(m->vert, m->count, NULL, v, m->out->vertex_of[searched->items[i].hub],
		                              searched->items[i]);
	m->out->offset[v + 1] = count;
	if (m->out->kept_offset) m->out->kept_offset[v + 1] = (uint32_t)useful;
}

// Entry `at` of out as an index keeps it (at kept_offset[v] + *kept, counted on), when useful.
static void keep_entry(gtHubLabels* out, int v, int64_t at, int64_t* kept)
{
	if (!out->kept_offset || !out->useful[at]) return;
	int64_t to = out->kept_offset[v] + (*kept)++;
	out->kept_hub[to] = (uint32_t)out->hub[at];
	out->kept_parent[to] = (uint32_t)out->parent[at];
	out->kept_dist[to] = out->dist[at];
}

static void write_vertex(const Merge* m, int v)
{
	const gtHubLabels* old = m->edit->old;
	gtHubLabels* out = m->out;
	const EntryList* searched = &m->lists[v];
	int ov = m->edit->old_of[v];
	int64_t k = ov >= 0 ? old->offset[ov] : 0, end = ov >= 0 ? old->offset[ov + 1] : 0, at = out->offset[v], i = 0,
	        kept = 0;
	for (;;) {
		while (k < end && !m->copied[old->hub[k]]) k++;
		int32_t from_old = k < end ? m->rank_of[old->hub[k]] : INT32_MAX;
		int32_t from_search = i < searched->count ? searched->items[i].hub : INT32_MAX;
		if (from_old == INT32_MAX && from_search == INT32_MAX) break;
		if (from_old < from_search) { // a copied root's: hubs copied and searched are distinct
			out->hub[at] = from_old;
			out->parent[at] = m->edit->new_of[old->parent[k]];
			out->dist[at] = old->dist[k];
			out->useful[at] = old->useful[k];
			k++;
		} else {
			Entry e = searched->items[i++];
			out->hub[at] = e.hub;
			out->parent[at] = e.parent;
			out->dist[at] = e.dist;
			out->useful[at] = gt_hub_entry_useful(m->vert, m->count, NULL, v, out->vertex_of[e.hub], e);
		}
		keep_entry(out, v, at, &kept);
		at++;
	}
}

// The kept entries' offsets (prefix sums of pass 0's counts) and room; without room, or past 2^32
// entries, none (gt_ehl_keep_labels copies them out, or says why it cannot).
static void keep_room(gtHubLabels* out, int n)
{
	uint64_t total = 0;
	for (int v = 0; out->kept_offset && v < n && total < UINT32_MAX; v++)
		total += out->kept_offset[v + 1], out->kept_offset[v + 1] = (uint32_t)total;
	if (out->kept_offset && total < UINT32_MAX) {
		out->kept_hub = gt_malloc(((size_t)total + 1) * sizeof *out->kept_hub);
		out->kept_parent = gt_malloc(((size_t)total + 1) * sizeof *out->kept_parent);
		out->kept_dist = gt_malloc(((size_t)total + 1) * sizeof *out->kept_dist);
		if (out->kept_hub && out->kept_parent && out->kept_dist) return;
	}
	gt_free(out->kept_offset), gt_free(out->kept_hub), gt_free(out->kept_parent), gt_free(out->kept_dist);
	out->kept_offset = out->kept_hub = out->kept_parent = NULL, out->kept_dist = NULL;
}

static void merge_worker(void* context, int index)
{
	(void)index;
	Merge* m = context;
	for (int run; (run = atomic_fetch_add(&m->next, 1)) < m->runs;) {
		int from = (int)((int64_t)m->n * run / m->runs), to = (int)((int64_t)m->n * (run + 1) / m->runs);
		for (int v = from; v < to; v++) m->pass == 0 ? count_vertex(m, v) : write_vertex(m, v);
	}
}

static void run_pass(Merge* m, int pass, int workers, gtPool* pool)
{
	m->pass = pass;
	atomic_store(&m->next, 0);
	if (workers > 1) gt_run_tasks_pooled(m->edit->tasks, pool, merge_worker, m, workers);
	else merge_worker(m, 0);
}

gtStatus gt_hub_labels_merge_edit(const gtMap* map, const gtHubLabelsEdit* edit, const EntryList* lists,
                                  const bool* copied, int workers, gtHubLabels* out, gtError* err)
{
	const gtHubLabels* old = edit->old;
	int n = out->n;
	Merge m = {edit, lists, copied, NULL, NULL, 0, n, workers > 1 ? MERGE_RUNS : 1, 0, out, 0};
	m.vert = gtMap_Vertices(map, &m.count);
	int32_t* rank_of = gt_malloc(((size_t)old->n + 1) * sizeof *rank_of);
	out->offset = gt_malloc(((size_t)n + 1) * sizeof *out->offset);
	if (!rank_of || !out->offset) {
		gt_free(rank_of);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for hub labels");
	}
	for (int r = 0; r < old->n; r++) {
		int v = edit->new_of[old->vertex_of[r]];
		rank_of[r] = v >= 0 ? out->rank_of[v] : -1;
	}
	m.rank_of = rank_of;
	gtPool* pool = workers > 1 ? gt_pool_create() : NULL; // NULL: a thread per call
	out->offset[0] = 0;
	out->kept_offset = gt_malloc(((size_t)n + 1) * sizeof *out->kept_offset); // NULL: kept serially later
	if (out->kept_offset) out->kept_offset[0] = 0;
	run_pass(&m, 0, workers, pool);
	for (int v = 0; v < n; v++) out->offset[v + 1] += out->offset[v];
	keep_room(out, n);
	size_t total = (size_t)out->offset[n] + 1;
	out->hub = gt_malloc(total * sizeof *out->hub);
	out->parent = gt_malloc(total * sizeof *out->parent);
	out->dist = gt_malloc(total * sizeof *out->dist);
	out->useful = gt_malloc(total * sizeof *out->useful);
	bool ok = out->hub && out->parent && out->dist && out->useful;
	if (ok) run_pass(&m, 1, workers, pool);
	gt_pool_destroy(pool);
	gt_free(rank_of);
	return ok ? GT_OK
	          : gt_fail(err, GT_ERR_NOMEM, "out of memory for %lld hub label entries", (long long)out->offset[n]);
}
