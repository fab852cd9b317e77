// A repair's labels made flat: the searched roots' entries merged with the copied roots' old ones
// (hub_labels_lists.h). A copied root's entries are its old search's, renumbered, so they are read
// in place from the old labels rather than copied into lists while the roots are labelled (the
// labelling is the repair's serial part); here, per vertex and on two workers, both go into the
// flat arrays in rank order, as the lists of a build in this order would. On the way, what changed
// against the old labels (gtHubLabelsDiffs: for the cells and the landmarks) is read off the
// entries of the searches that ran, the only ones that can differ.
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "core/task.h"
#include "ehl/hub_labels_lists.h"

enum { MERGE_RUNS = 16 };

// One run's diffs (gtHubLabelsDiffs: begin[v] counted within the run until the runs are joined),
// and where its vertex's entries that can differ are: the old entries of the roots searched again
// or gone (olds: old entry index) and the new entries those searches made (news: entry index in
// out). A copied root's entries are the old ones renumbered, useful alike, so they differ nowhere:
// comparing the rest finds what a comparison of all of them would.
typedef struct MergeRun {
	int32_t* hubs;
	int64_t count, capacity;
	int64_t *olds, *news, olds_capacity, news_capacity;
	bool ok;
} MergeRun;

typedef struct Merge {
	const gtHubLabelsEdit* edit;
	EntryList* lists;       // pass 0 notes each searched entry's P4 flag in it (Entry.useful) for pass 1
	const bool* copied;     // per old rank
	const int32_t* rank_of; // old rank -> new rank (-1: gone)
	const gtVertex* vert;
	int count, n, runs, pass; // pass 0 counts each vertex's entries (into offset[v + 1]), 1 writes them
	gtHubLabels* out;         // with its kept (useful) entries too, when kept_offset is not NULL
	gtHubLabelsDiffs* diffs;  // (or NULL) made in pass 1
	MergeRun run[MERGE_RUNS];
	atomic_int next;
} Merge;

static void count_vertex(const Merge* m, int v)
{
	const gtHubLabels* old = m->edit->old;
	int ov = m->edit->old_of[v];
	EntryList* searched = &m->lists[v];
	int64_t count = searched->count, useful = 0;
	for (int64_t k = ov >= 0 ? old->offset[ov] : 0; ov >= 0 && k < old->offset[ov + 1]; k++)
		count += m->copied[old->hub[k]], useful += m->copied[old->hub[k]] && old->useful[k];
	for (int64_t i = 0; i < searched->count; i++) {
		Entry* e = &searched->items[i];
		e->useful = gt_hub_entry_useful(m->vert, m->count, NULL, v, m->out->vertex_of[e->hub], *e);
		useful += e->useful;
	}
	m->out->offset[v + 1] = count;
	if (m->out->kept_offset) m->out->kept_offset[v + 1] = (uint32_t)useful;
}

static bool push_index(int64_t** list, int64_t* capacity, int64_t count, int64_t value)
{
	if (count == *capacity && !GT_GROW(*list, *capacity, count + 1, 256)) return false;
	(*list)[count] = value;
	return true;
}

// Whether any of the entries write_vertex listed in d (olds, news) differs in hub or distance.
static bool moved_vertex(const Merge* m, const MergeRun* d, int64_t olds, int64_t news)
{
	if (olds != news) return true;
	for (int64_t i = 0; i < olds; i++) {
		int64_t k = d->olds[i], at = d->news[i];
		if (m->rank_of[m->edit->old->hub[k]] != m->out->hub[at] || m->edit->old->dist[k] != m->out->dist[at])
			return true;
	}
	return false;
}

// Vertex v's diffs from the useful entries write_vertex listed in d (olds, news), as the repair's
// plan_diffs finds them from all entries; false when out of memory.
static bool diff_vertex(const Merge* m, MergeRun* d, int v, int64_t olds, int64_t news)
{
	const gtHubLabels* old = m->edit->old;
	const gtHubLabels* out = m->out;
	int64_t listed = d->count, a = 0, b = 0;
	bool gone = m->edit->old_of[v] < 0;
	m->diffs->begin[v] = listed;
	if (m->diffs->moved) m->diffs->moved[v] = gone || moved_vertex(m, d, olds, news);
	for (;;) {
		while (a < news && !out->useful[d->news[a]]) a++;
		while (b < olds && !old->useful[d->olds[b]]) b++;
		if (a == news && b == olds) break;
		int64_t at = a < news ? d->news[a] : 0, k = b < olds ? d->olds[b] : 0;
		int32_t hub = a < news ? out->hub[at] : INT32_MAX, was = b < olds ? m->rank_of[old->hub[k]] : INT32_MAX;
		if (was < 0) { // its hub is gone
			gone = true, b++;
			continue;
		}
		bool same = hub == was && m->edit->new_of[old->parent[k]] == out->parent[at] && old->dist[k] == out->dist[at];
		if (!same && (d->count == d->capacity && !GT_GROW(d->hubs, d->capacity, d->count + 1, 1024))) return false;
		if (!same) d->hubs[d->count++] = hub < was ? hub : was;
		if (was <= hub) b++;
		if (hub <= was) a++;
	}
	m->diffs->changed[v] = gone || d->count > listed;
	return true;
}

// Out's useful entries of v, [out->offset[v], end), into the kept arrays (an index's labels), in
// their order: a pass of its own over the entries just written, so the merge's loop stays short.
static void keep_vertex(gtHubLabels* out, int v, int64_t end)
{
	int64_t to = out->kept_offset[v];
	for (int64_t at = out->offset[v]; at < end; at++) {
		if (!out->useful[at]) continue;
		out->kept_hub[to] = (uint32_t)out->hub[at];
		out->kept_parent[to] = (uint32_t)out->parent[at];
		out->kept_dist[to++] = out->dist[at];
	}
}

// Vertex v's entries in rank order: before each searched entry (and after the last), the run of its
// old entries of copied roots ranked below it, renumbered; the old entries of the roots searched
// again are skipped (listed in d for the diffs). Hubs copied and searched are distinct.
static void write_vertex(const Merge* m, int v, MergeRun* d)
{
	const gtHubLabels* old = m->edit->old;
	gtHubLabels* out = m->out;
	const EntryList* searched = &m->lists[v];
	const int32_t *rank_of = m->rank_of, *new_of = m->edit->new_of, *old_hub = old->hub, *old_parent = old->parent;
	const bool* copied = m->copied;
	int ov = m->edit->old_of[v];
	int64_t k = ov >= 0 ? old->offset[ov] : 0, end = ov >= 0 ? old->offset[ov + 1] : 0, at = out->offset[v], olds = 0,
	        news = 0;
	for (int64_t i = 0;; i++) {
		int32_t next = i < searched->count ? searched->items[i].hub : INT32_MAX;
		for (; k < end; k++) {
			int32_t h = old_hub[k];
			if (!copied[h]) {
				if (d) d->ok = d->ok && push_index(&d->olds, &d->olds_capacity, olds++, k);
				continue;
			}
			if (rank_of[h] > next) break;
			out->hub[at] = rank_of[h];
			out->parent[at] = new_of[old_parent[k]];
			out->dist[at] = old->dist[k];
			out->useful[at++] = old->useful[k];
		}
		if (i == searched->count) break;
		Entry e = searched->items[i];
		out->hub[at] = e.hub;
		out->parent[at] = e.parent;
		out->dist[at] = e.dist;
		out->useful[at] = e.useful; // pass 0's
		if (d) d->ok = d->ok && push_index(&d->news, &d->news_capacity, news++, at);
		at++;
	}
	if (out->kept_offset) keep_vertex(out, v, at);
	if (d && d->ok) d->ok = diff_vertex(m, d, v, olds, news);
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
		MergeRun* d = m->diffs ? &m->run[run] : NULL;
		if (d) d->ok = true;
		for (int v = from; v < to; v++) m->pass == 0 ? count_vertex(m, v) : write_vertex(m, v, d);
	}
}

// The runs' diffs joined in vertex order into m->diffs (made when every run had room).
static void join_diffs(Merge* m)
{
	gtHubLabelsDiffs* diffs = m->diffs;
	int64_t total = 0;
	bool ok = true;
	for (int i = 0; i < m->runs; i++) ok = ok && m->run[i].ok, total += m->run[i].count;
	MergeRun* first = &m->run[0];
	if (ok && !GT_GROW(first->hubs, first->capacity, total + 1, 1024)) ok = false;
	int64_t at = first->count;
	for (int i = 1; ok && i < m->runs; i++) {
		if (m->run[i].count > 0)
			memcpy(first->hubs + at, m->run[i].hubs, (size_t)m->run[i].count * sizeof *first->hubs);
		int from = (int)((int64_t)m->n * i / m->runs), to = (int)((int64_t)m->n * (i + 1) / m->runs);
		for (int v = from; v < to; v++) diffs->begin[v] += at;
		at += m->run[i].count;
	}
	diffs->begin[m->n] = total;
	diffs->made = ok;
	diffs->hub = ok ? first->hubs : NULL;
	for (int i = ok ? 1 : 0; i < m->runs; i++) gt_free(m->run[i].hubs);
	for (int i = 0; i < m->runs; i++) gt_free(m->run[i].olds), gt_free(m->run[i].news);
}

static void run_pass(Merge* m, int pass, int workers, gtPool* pool)
{
	m->pass = pass;
	atomic_store(&m->next, 0);
	if (workers > 1) gt_run_tasks_pooled(m->edit->tasks, pool, merge_worker, m, workers);
	else merge_worker(m, 0);
}

gtStatus gt_hub_labels_merge_edit(const gtMap* map, const gtHubLabelsEdit* edit, EntryList* lists, const bool* copied,
                                  int workers, gtHubLabels* out, gtError* err)
{
	const gtHubLabels* old = edit->old;
	int n = out->n;
	Merge m;
	memset(&m, 0, sizeof m);
	m.edit = edit, m.lists = lists, m.copied = copied, m.n = n, m.runs = workers > 1 ? MERGE_RUNS : 1, m.out = out;
	m.diffs = edit->diffs && edit->diffs->begin && edit->diffs->changed ? edit->diffs : NULL;
	if (m.diffs) m.diffs->made = false, m.diffs->hub = NULL;
	atomic_init(&m.next, 0);
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
	if (m.diffs) join_diffs(&m); // frees the runs' lists on every path
	gt_pool_destroy(pool);
	gt_free(rank_of);
	return ok ? GT_OK
	          : gt_fail(err, GT_ERR_NOMEM, "out of memory for %lld hub label entries", (long long)out->offset[n]);
}

bool gt_hub_labels_unchanged(const gtVisGraph* g, const int32_t* order, const gtHubLabelsEdit* edit)
{
	const gtHubLabels* old = edit->old;
	if (g->n != old->n) return false;
	for (int v = 0; v < g->n; v++)
		if (edit->old_of[v] != v || edit->dirty[v] || order[v] != old->vertex_of[v]) return false;
	return true;
}

// The old index's kept entries into out's (the labels copied whole keep the same ones); false when
// there are none to copy or no room.
static bool copy_old_kept(const gtHubLabelsEdit* edit, gtHubLabels* out)
{
	if (!edit->old_kept_offset || !edit->old_kept_hub || !edit->old_kept_parent || !edit->old_kept_dist) return false;
	size_t slots = (size_t)out->n + 1, count = edit->old_kept_offset[out->n];
	out->kept_offset = gt_malloc(slots * sizeof *out->kept_offset);
	out->kept_hub = gt_malloc((count + 1) * sizeof *out->kept_hub);
	out->kept_parent = gt_malloc((count + 1) * sizeof *out->kept_parent);
	out->kept_dist = gt_malloc((count + 1) * sizeof *out->kept_dist);
	if (!out->kept_offset || !out->kept_hub || !out->kept_parent || !out->kept_dist) {
		gt_free(out->kept_offset), gt_free(out->kept_hub), gt_free(out->kept_parent), gt_free(out->kept_dist);
		out->kept_offset = out->kept_hub = out->kept_parent = NULL, out->kept_dist = NULL;
		return false;
	}
	memcpy(out->kept_offset, edit->old_kept_offset, slots * sizeof *out->kept_offset);
	memcpy(out->kept_hub, edit->old_kept_hub, count * sizeof *out->kept_hub);
	memcpy(out->kept_parent, edit->old_kept_parent, count * sizeof *out->kept_parent);
	memcpy(out->kept_dist, edit->old_kept_dist, count * sizeof *out->kept_dist);
	return true;
}

// Why the old labels are the answer: the vertices are the old ones (same places and corners: the
// matching compares both), numbered alike, each with its old edges (none dirty; a length follows
// from its two ends), ranked in the old order; pruned labelling in a fixed order on a given graph is
// deterministic, and the old labels are the labelling of that order (a build's, or a repair's, which
// the tests hold to a build's). So every search would be copied; here the arrays are, whole.
gtStatus gt_hub_labels_copy_old(const gtHubLabelsEdit* edit, gtHubLabels* out, gtError* err)
{
	const gtHubLabels* old = edit->old;
	int n = old->n;
	int64_t total = old->offset[n];
	size_t slots = (size_t)n + 1, m = (size_t)total + 1;
	memset(out, 0, sizeof *out);
	out->n = n;
	out->rank_of = gt_malloc(slots * sizeof *out->rank_of);
	out->vertex_of = gt_malloc(slots * sizeof *out->vertex_of);
	out->offset = gt_malloc(slots * sizeof *out->offset);
	out->hub = gt_malloc(m * sizeof *out->hub);
	out->parent = gt_malloc(m * sizeof *out->parent);
	out->dist = gt_malloc(m * sizeof *out->dist);
	out->useful = gt_malloc(m * sizeof *out->useful);
	if (!out->rank_of || !out->vertex_of || !out->offset || !out->hub || !out->parent || !out->dist || !out->useful) {
		gt_hub_labels_free(out);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %lld hub label entries", (long long)total);
	}
	memcpy(out->rank_of, old->rank_of, (size_t)n * sizeof *out->rank_of);
	memcpy(out->vertex_of, old->vertex_of, (size_t)n * sizeof *out->vertex_of);
	memcpy(out->offset, old->offset, slots * sizeof *out->offset);
	memcpy(out->hub, old->hub, (size_t)total * sizeof *out->hub);
	memcpy(out->parent, old->parent, (size_t)total * sizeof *out->parent);
	memcpy(out->dist, old->dist, (size_t)total * sizeof *out->dist);
	memcpy(out->useful, old->useful, (size_t)total * sizeof *out->useful);
	out->sequential_to = old->sequential_to;
	if (!copy_old_kept(edit, out) && (out->kept_offset = gt_malloc(slots * sizeof *out->kept_offset)) != NULL) {
		out->kept_offset[0] = 0; // (no room: kept serially later)
		for (int v = 0; v < n; v++) {
			uint32_t useful = 0;
			for (int64_t k = old->offset[v]; k < old->offset[v + 1]; k++) useful += old->useful[k];
			out->kept_offset[v + 1] = useful;
		}
		keep_room(out, n);
		for (int v = 0; out->kept_offset && v < n; v++) keep_vertex(out, v, out->offset[v + 1]);
	}
	gtHubLabelsDiffs* diffs = edit->diffs;
	if (diffs && diffs->begin && diffs->changed) { // nothing differs
		memset(diffs->begin, 0, slots * sizeof *diffs->begin);
		memset(diffs->changed, 0, (size_t)n * sizeof *diffs->changed);
		if (diffs->moved) memset(diffs->moved, 0, (size_t)n * sizeof *diffs->moved);
		diffs->hub = NULL;
		diffs->made = true;
	}
	if (diffs) diffs->copied_whole = true;
	return GT_OK;
}
