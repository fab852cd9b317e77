// Pruned landmark labeling (Akiba et al. 2013, weighted) over the visibility graph.
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/alloc.h"
#include "core/compare.h"
#include "core/heap.h"
#include "core/task.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_repair.h"
#include "ehl/hub_labels.h"
#include "ehl/hub_labels_lists.h"
#include "ehl/hub_labels_search.h"
#include "core/status.h"

enum { RELEASE_EVERY = 64 << 20 }; // bytes of lists freed between two releases (flatten)

enum { ARENA_BLOCK = 1 << 14 };

static Entry* arena_take(Arena* a, int64_t count)
{
	if (a->used + count > a->size) {
		int64_t size = count > ARENA_BLOCK ? count : ARENA_BLOCK;
		ArenaBlock* block = gt_malloc(sizeof *block + (size_t)size * sizeof(Entry));
		if (!block) return NULL;
		block->next = a->head, a->head = block, a->used = 0, a->size = size;
	}
	a->used += count;
	return a->head->items + a->used - count;
}

static void arena_free(Arena* a)
{
	for (ArenaBlock *b = a ? a->head : NULL, *next; b; b = next) next = b->next, gt_free(b);
}

// Appends e; with an arena (not NULL) the list's room comes from it.
bool gt_hub_list_push(EntryList* list, Entry e, Arena* arena)
{
	if (list->count == list->capacity && !arena && !GT_GROW(list->items, list->capacity, list->count + 1, 8))
		return false;
	if (list->count == list->capacity && arena) {
		int64_t capacity = 2 * list->capacity + 4;
		Entry* items = arena_take(arena, capacity);
		if (!items) return false;
		if (list->count > 0) memcpy(items, list->items, (size_t)list->count * sizeof *items);
		list->items = items, list->capacity = capacity;
	}
	list->items[list->count++] = e;
	return true;
}

static void list_free(EntryList* list)
{
	gt_free(list->items);
	list->items = NULL, list->count = list->capacity = 0;
}

void gt_hub_labels_free(gtHubLabels* labels)
{
	gt_free(labels->rank_of);
	gt_free(labels->vertex_of);
	gt_free(labels->offset);
	gt_free(labels->hub);
	gt_free(labels->parent);
	gt_free(labels->dist);
	gt_free(labels->useful);
	gt_free(labels->kept_offset);
	gt_free(labels->kept_hub);
	gt_free(labels->kept_parent);
	gt_free(labels->kept_dist);
	memset(labels, 0, sizeof *labels);
}

int64_t gt_hub_labels_find(const gtHubLabels* labels, int v, int32_t hub)
{
	int64_t lo = labels->offset[v], hi = labels->offset[v + 1] - 1;
	while (lo <= hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (labels->hub[mid] == hub) return mid;
		if (labels->hub[mid] < hub) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}


enum { CUT_ULPS = 16 };

// The root's distances to the hubs before it into to_root (its searched entries, by rank) and
// to_old (its old entries of the roots copied, by old rank); `set` false: back to +inf.
void gt_hub_root_distances(Search* s, int root, bool set)
{
	const EntryList* at = &s->lists[root];
	for (int64_t i = 0; i < at->count; i++) s->to_root[at->items[i].hub] = set ? at->items[i].dist : INFINITY;
	int ov = s->old && s->first_copied >= 0 ? s->old_of[root] : -1;
	for (int64_t k = ov >= 0 ? s->old_start[root] : 0; ov >= 0 && k < s->old->offset[ov + 1]; k++) {
		if (s->old->hub[k] >= s->old_limit) break; // old entries are in rank order
		if (s->copied[s->old->hub[k]]) s->to_old[s->old->hub[k]] = set ? s->old->dist[k] : INFINITY;
	}
}

// Whether an earlier hub covers the pair (root, u) at `key`, the root's distances set: the prune test.
bool gt_hub_covered_at(const Search* s, int u, double key)
{
	const EntryList* at = &s->lists[u];
	for (int64_t i = 0; i < at->count; i++)
		if (at->items[i].dist + s->to_root[at->items[i].hub] <= key) return true;
	if (!s->old || s->first_copied < 0 || s->old_of[u] < 0) return false;
	const int32_t* hub = s->old->hub;
	const double* dist = s->old->dist;
	int64_t end = s->old->offset[s->old_of[u] + 1];
	for (int64_t k = s->old_start[u]; k < end && hub[k] < s->old_limit; k++) // in rank order
		if (dist[k] + s->to_old[hub[k]] <= key) return true;
	return false;
}

// Whether an entry of label l covers the pair at `bound` (the loop with its count and items held:
// this test is a third of the labels' instructions).
static inline bool label_covers(const EntryList* l, const double* to_root, double bound)
{
	const Entry* item = l->items;
	for (int64_t i = 0, n = l->count; i < n; i++)
		if (item[i].dist + to_root[item[i].hub] <= bound) return true;
	return false;
}

bool gt_hub_covered_by_searched(const Search* s, int u, double key)
{
	return label_covers(&s->lists[u], s->to_root, key);
}

// Pruned Dijkstra from `root`, the hub of rank r: every vertex it reaches before an earlier hub
// covers the pair gets an entry for r. Popped in (distance, vertex) order, so a vertex's parent is
// its first labelled neighbour in that order whose candidate is its distance: a function of the
// labelled vertices and their distances, which a repair of part of the search can match
// (hub_labels_local.c). False when out of memory.
static bool label_from(Search* s, int r, int root)
{
	const gtVisGraph* g = s->g;
	EntryList* lists = s->lists;
	double *to_root = s->to_root, *dist = s->dist;
	int32_t *parent = s->parent, *first = s->first, *visited = s->visited;
	s->nlabelled = 0;
	gt_hub_root_distances(s, root, true);
	int nvisited = 0;
	s->heap.size = 0;
	dist[root] = 0;
	parent[root] = root;
	first[root] = root;
	visited[nvisited++] = root;
	gt_heap_push_ordered(&s->heap, 0, root);
	while (s->heap.size > 0) {
		gtHeapItem top = gt_heap_pop_ordered(&s->heap);
		int u = top.id;
		if (top.key > dist[u]) continue;
		// Prune: an earlier hub already covers root-u at this distance (ties pruned).
		double bound = s->cut && s->cut[u] ? top.key * (1 + CUT_ULPS * DBL_EPSILON) : top.key;
		if (s->old ? gt_hub_covered_at(s, u, top.key) : label_covers(&lists[u], to_root, bound)) continue;
		first[u] = (u == root || parent[u] == root) ? u : first[parent[u]];
		if (s->key) {
			s->key[s->nlabelled] = top.key;
		} else {
			Entry e = {r, parent[u], first[u], -1, top.key};
			if (!gt_hub_list_push(&lists[u], e, s->arena)) return false;
		}
		s->labelled[s->nlabelled++] = u;
		for (int64_t k = g->offset[u]; k < g->offset[u + 1]; k++) {
			int w = g->adj[k];
			double candidate = top.key + g->length[k];
			if (candidate < dist[w]) {
				if (isinf(dist[w])) visited[nvisited++] = w;
				dist[w] = candidate;
				parent[w] = u;
				gt_heap_push_ordered(&s->heap, candidate, w);
			}
		}
	}
	for (int i = 0; i < nvisited; i++) dist[visited[i]] = INFINITY;
	gt_hub_root_distances(s, root, false);
	return true;
}


// ---- batches: the roots after the first BATCH_FROM searched BATCH_ROOTS at a time on workers ----
// Each search of a batch is pruned by the labels of the hubs before the batch only, so it labels a
// superset of what the one-at-a-time search would; merging the batch in rank order then drops the
// entries an earlier root of the same batch covers. What remains is the pruned labelling of this
// order (docs/big-maps.md): a vertex the sequential search labels has every shortest path from the
// root free of earlier hubs, so the batch search reaches it at the same distance, and the earlier
// hubs' coverage is the test both make. The order takes each next root from the significant path
// of a tree of the last batch, so it is the same on any number of threads.
// From 256 roots on, the searches are small enough that taking several roots from a tree costs no
// label entries (caves 512: 3,114,330 entries against 3,117,426 one root at a time; from 64 on:
// +4%); 8 roots a batch keep two workers busy. Smaller maps keep the one-at-a-time build.
enum { BATCH_ROOTS = 8, BATCH_FROM = 256, BATCH_MIN_VERTICES = 16384 };

typedef struct Tree { // a search's labelled vertices in pop order and their tree parents
	int32_t *parent, *first, *labelled;
	double* key;
	int count;
} Tree;

typedef struct Batch {
	EntryList* lists;
	Search* workers; // scratch per worker thread
	Tree trees[BATCH_ROOTS];
	int32_t roots[BATCH_ROOTS];
	int count, first_rank;
	atomic_int next;
} Batch;

static void batch_worker(void* context, int index)
{
	Batch* b = context;
	Search* s = &b->workers[index];
	for (int i; (i = atomic_fetch_add(&b->next, 1)) < b->count;) {
		Tree* t = &b->trees[i];
		s->parent = t->parent, s->first = t->first, s->labelled = t->labelled, s->key = t->key;
		label_from(s, b->first_rank + i, b->roots[i]); // only records: cannot fail
		t->count = s->nlabelled;
	}
}

// Some earlier root of the batch covers root-u at `key` (the hubs the batch's searches did not see).
static bool covered_in_batch(const EntryList* at_u, const EntryList* at_root, int from_rank, double key)
{
	for (int64_t i = at_u->count - 1; i >= 0 && at_u->items[i].hub >= from_rank; i--)
		for (int64_t j = at_root->count - 1; j >= 0 && at_root->items[j].hub >= from_rank; j--)
			if (at_root->items[j].hub == at_u->items[i].hub && at_u->items[i].dist + at_root->items[j].dist <= key)
				return true;
	return false;
}

// The batch's i-th root's entries into the lists (those of the roots before it are there); its
// tree keeps the vertices labelled.
static bool merge_root(Batch* b, int i)
{
	Tree* t = &b->trees[i];
	int kept = 0, root = b->roots[i];
	for (int j = 0; j < t->count; j++) {
		int u = t->labelled[j], rank = b->first_rank + i;
		const EntryList* up = &b->lists[t->parent[u]];
		// Rounding can make a tie cover the parent and not u (each a sum along other edges): the
		// one-at-a-time search would not have reached u through it either, so u goes too.
		bool parent_kept = u == root || (up->count > 0 && up->items[up->count - 1].hub == rank);
		if (!parent_kept || covered_in_batch(&b->lists[u], &b->lists[root], b->first_rank, t->key[j])) continue;
		Entry e = {rank, t->parent[u], t->first[u], -1, t->key[j]};
		if (!gt_hub_list_push(&b->lists[u], e, b->workers[0].arena)) return false;
		t->labelled[kept++] = u;
	}
	t->count = kept;
	return true;
}

// The batch's entries into the lists in rank order.
static bool merge_batch(Batch* b)
{
	for (int i = 0; i < b->count; i++)
		if (!merge_root(b, i)) return false;
	return true;
}

// Hands the pages of freed blocks back to the system where the C library can (glibc keeps small
// freed blocks in its heap otherwise): flatten's lists are most of the labels' peak.
static void release_freed_memory(void)
{
#if defined(__GLIBC__)
	malloc_trim(0);
#endif
}

// The per-vertex lists into `out`'s CSR arrays, with each entry's P4 flag, each vertex's list freed
// once copied (with the pages given back every so often), so the lists and the arrays are not both
// whole at once (rooms 4096: 3 GB of lists). (A repair's labels: gt_hub_labels_merge_edit.)
static gtStatus flatten(const gtMap* map, EntryList* lists, int n, const gtVec2* ends, gtHubLabels* out, gtError* err)
{
	int count;
	const gtVertex* vert = gtMap_Vertices(map, &count);
	int64_t total = 0;
	out->offset = gt_malloc(((size_t)n + 1) * sizeof *out->offset);
	if (!out->offset) return gt_fail(err, GT_ERR_NOMEM, "out of memory for hub labels");
	for (int v = 0; v < n; v++) {
		out->offset[v] = total;
		total += lists[v].count;
	}
	out->offset[n] = total;
	size_t m = (size_t)total + 1;
	out->hub = gt_malloc(m * sizeof *out->hub);
	out->parent = gt_malloc(m * sizeof *out->parent);
	out->dist = gt_malloc(m * sizeof *out->dist);
	out->useful = gt_malloc(m * sizeof *out->useful);
	if (!out->hub || !out->parent || !out->dist || !out->useful)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %lld hub label entries", (long long)total);
	int64_t freed = 0;
	bool released = false;
	for (int v = 0; v < n; v++) {
		EntryList* list = &lists[v];
		for (int i = 0; i < list->count; i++) {
			Entry e = list->items[i];
			int64_t k = out->offset[v] + i;
			out->hub[k] = e.hub;
			out->parent[k] = e.parent;
			out->dist[k] = e.dist;
			out->useful[k] = gt_hub_entry_useful(vert, count, ends, v, out->vertex_of[e.hub], e);
		}
		freed += list->capacity * (int64_t)sizeof(Entry);
		list_free(list);
		if (freed >= RELEASE_EVERY) release_freed_memory(), freed = 0, released = true;
	}
	if (released) release_freed_memory(); // small labels spare the call
	return GT_OK;
}

// ---- labels after an edit: the searches it cannot change copied from the labels before it ----
// Pruned labelling in a fixed order is deterministic: the search from a root pops the same vertices
// in the same order, and labels the same ones, as long as every vertex it labelled before has the
// same edges (renumbered in order, so pushed in the same order) and it and every neighbour the
// same entries for the earlier hubs (so pruned alike). Such a root's entries are copied: marked
// copied and read in place from the old labels (Search), merged with the searched ones at the end.


static void replay_free(Replay* rp)
{
	gt_free(rp->begin);
	gt_free(rp->entry);
	gt_free(rp->owner);
	gt_free(rp->copied);
	gt_free(rp->changed);
	gt_free(rp->near);
	gt_free(rp->worse);
	gt_free(rp->near_worse);
	gt_free(rp->stamp);
	gt_free(rp->in_tree);
	gt_free(rp->was_at);
	gt_free(rp->was);
	gt_free(rp->log_head);
	gt_free(rp->log_next);
	gt_free(rp->log_hub);
	gt_free(rp->worse_list);
	gt_hub_local_free(rp->local);
}

static bool replay_init(Replay* rp, const gtHubLabelsEdit* edit, int n)
{
	const gtHubLabels* old = edit->old;
	int64_t total = old->offset[old->n];
	memset(rp, 0, sizeof *rp);
	rp->edit = edit;
	rp->begin = gt_calloc((size_t)old->n + 2, sizeof *rp->begin);
	rp->entry = gt_malloc(((size_t)total + 1) * sizeof *rp->entry);
	rp->owner = gt_malloc(((size_t)total + 1) * sizeof *rp->owner);
	rp->copied = gt_calloc((size_t)old->n + 1, sizeof *rp->copied);
	rp->changed = gt_calloc((size_t)n + 1, sizeof *rp->changed);
	rp->near = gt_calloc((size_t)n + 1, sizeof *rp->near);
	rp->worse = gt_calloc((size_t)n + 1, sizeof *rp->worse);
	rp->near_worse = gt_calloc((size_t)n + 1, sizeof *rp->near_worse);
	rp->stamp = gt_calloc((size_t)n + 1, sizeof *rp->stamp);
	rp->in_tree = gt_calloc((size_t)n + 1, sizeof *rp->in_tree);
	rp->log_head = gt_malloc(((size_t)n + 1) * sizeof *rp->log_head);
	rp->was_at = gt_calloc((size_t)n + 1, sizeof *rp->was_at);
	rp->was = gt_malloc(((size_t)n + 1) * sizeof *rp->was);
	rp->worse_list = gt_malloc(((size_t)n + 1) * sizeof *rp->worse_list);
	rp->local = gt_hub_local_create(n); // NULL (no room): every search not copied runs whole
	if (!rp->begin || !rp->entry || !rp->owner || !rp->copied || !rp->changed || !rp->near || !rp->worse ||
	    !rp->near_worse || !rp->stamp || !rp->in_tree || !rp->log_head || !rp->was_at || !rp->was || !rp->worse_list)
		return false;
	for (int v = 0; v < n; v++) rp->log_head[v] = -1;
	for (int64_t k = 0; k < total; k++) rp->begin[old->hub[k] + 2]++;
	for (int r = 0; r < old->n; r++) rp->begin[r + 2] += rp->begin[r + 1];
	for (int v = 0; v < old->n; v++)
		for (int64_t k = old->offset[v]; k < old->offset[v + 1]; k++) {
			int64_t at = rp->begin[old->hub[k] + 1]++;
			rp->entry[at] = k;
			rp->owner[at] = v;
		}
	return true;
}

static void mark_changed(Replay* rp, const gtVisGraph* g, int u)
{
	if (rp->changed[u]) return;
	rp->changed[u] = true;
	for (int64_t k = g->offset[u]; k < g->offset[u + 1]; k++) rp->near[g->adj[k]] = true;
}

// u lost an entry or one got longer (changed too).
static void mark_worse(Replay* rp, const gtVisGraph* g, int u)
{
	mark_changed(rp, g, u);
	if (rp->worse[u]) return;
	rp->worse[u] = true;
	rp->worse_list[rp->worse_count++] = u;
	for (int64_t k = g->offset[u]; k < g->offset[u + 1]; k++) rp->near_worse[g->adj[k]] = true;
}

// Old ranks before `rank` whose vertex is gone: the vertices they labelled lost an entry.
static void account_gone(Replay* rp, const gtVisGraph* g, int rank)
{
	const gtHubLabels* old = rp->edit->old;
	for (; rp->next_old < rank; rp->next_old++) {
		if (rp->edit->new_of[old->vertex_of[rp->next_old]] >= 0) continue;
		for (int64_t i = rp->begin[rp->next_old]; i < rp->begin[rp->next_old + 1]; i++) {
			int v = rp->edit->new_of[rp->owner[i]];
			if (v >= 0) mark_worse(rp, g, v);
		}
	}
}

static bool replayable(const Replay* rp, int old_rank)
{
	for (int64_t i = rp->begin[old_rank]; i < rp->begin[old_rank + 1]; i++) {
		int v = rp->edit->new_of[rp->owner[i]];
		if (v < 0 || rp->edit->dirty[v] || rp->changed[v] || rp->near[v]) return false;
	}
	return true;
}

// Vertex u's entry for hub rank r is new or has another distance than before the edit.
static void log_change(Replay* rp, int u, int32_t r)
{
	int64_t at = rp->log_count;
	if (rp->log_lost) return;
	if (at == rp->log_capacity) { // both arrays to the same new capacity
		int64_t capacity = rp->log_capacity;
		if (!GT_GROW(rp->log_hub, capacity, at + 1, 1024) || !GT_RESIZE(rp->log_next, capacity)) {
			rp->log_lost = true;
			return;
		}
		rp->log_capacity = capacity;
	}
	rp->log_hub[at] = r;
	rp->log_next[at] = rp->log_head[u];
	rp->log_head[u] = at;
	rp->log_count = at + 1;
}

// u's entry for hub rank h (lists are in rank order), or NULL.
static const Entry* entry_for(const EntryList* at_u, int32_t h)
{
	int64_t lo = 0, hi = at_u->count;
	while (lo < hi) {
		int64_t mid = (lo + hi) / 2;
		if (at_u->items[mid].hub < h) lo = mid + 1;
		else hi = mid;
	}
	return lo < at_u->count && at_u->items[lo].hub == h ? &at_u->items[lo] : NULL;
}

// For a vertex u the old search from `root` labelled (not covered then): a hub for which neither
// u's entry nor the root's changed sums as before, and a lost entry covers nothing, so only the
// hubs logged for u or for the root (made anew or with another distance) can cover it now.
static bool covered_by_changes(const Replay* rp, const Search* s, int u, int root, double key)
{
	const EntryList* at_u = &s->lists[u];
	for (int from = 0; from < 2; from++)
		for (int64_t at = rp->log_head[from ? root : u]; at >= 0 && (!from || u != root); at = rp->log_next[at]) {
			const Entry* e = entry_for(at_u, rp->log_hub[at]);
			if (e && e->dist + s->to_root[e->hub] <= key) return true;
		}
	return false;
}

// When replayable says no because entries changed near the old search of `old_rank` (root `root`):
// whether that search would still run as before. It does when every vertex it labelled keeps its
// edges and is still not covered at its old distance, and every vertex next to them that it did
// not label (popped and pruned) is still covered at the distance the labelled ones reach it with:
// then it pops the same vertices in the same order and labels the same ones. A vertex whose
// entries and the root's are the old ones decides as before, so only the others are tested, with
// the labels of the earlier hubs as they are now. (Most searches redone after an edit came out the
// same: 6,578 of 6,769 after a 4x4 wall on generated caves 384.) A pruned vertex stays covered by
// its old witness hub unless its entry or the root's for that hub was lost or got longer: when
// neither it nor the root is `worse`, it is not tested (after a wall demolished on AR0602SR, 2,522
// of 2,782 roots checked had only shorter entries, and the pruned vertices next to their trees were
// 1.3 M of the 3.6 M edges read); a labelled one only against the hubs logged for it or the root.
static bool replay_verified(Search* s, Replay* rp, int root, int old_rank)
{
	const gtHubLabels* old = rp->edit->old;
	const gtVisGraph* g = s->g;
	const int32_t* new_of = rp->edit->new_of;
	int64_t first = rp->begin[old_rank], end = rp->begin[old_rank + 1];
	for (int64_t i = first; i < end; i++) {
		int v = new_of[rp->owner[i]];
		if (v < 0 || rp->edit->dirty[v]) return false;
	}
	int32_t stamp = ++rp->tree_stamp;
	for (int64_t i = first; i < end; i++) rp->in_tree[new_of[rp->owner[i]]] = stamp;
	gt_hub_root_distances(s, root, true);
	bool root_changed = rp->changed[root], every = rp->worse[root], same = true;
	int nvisited = 0;
	for (int64_t i = first; i < end && same; i++) {
		int u = new_of[rp->owner[i]];
		double key = old->dist[rp->entry[i]];
		if ((root_changed || rp->changed[u]) && rp->log_lost) same = !gt_hub_covered_at(s, u, key);
		else if (root_changed || rp->changed[u]) same = !covered_by_changes(rp, s, u, root, key);
		if (!every && !rp->near_worse[u]) continue; // no neighbour to test
		for (int64_t k = g->offset[u]; k < g->offset[u + 1] && same; k++) {
			int w = g->adj[k];
			if (rp->in_tree[w] == stamp || !(every || rp->worse[w])) continue;
			double reached = key + g->length[k];
			if (reached < s->dist[w]) {
				if (isinf(s->dist[w])) s->visited[nvisited++] = w;
				s->dist[w] = reached;
			}
		}
	}
	for (int i = 0; i < nvisited; i++) {
		int w = s->visited[i];
		if (same && !gt_hub_covered_at(s, w, s->dist[w])) same = false;
		s->dist[w] = INFINITY;
	}
	gt_hub_root_distances(s, root, false);
	return same;
}

// After a search that ran: the vertices whose entry for this hub is not the old one.
static void note_changes(Replay* rp, const Search* s, int r, int old_rank)
{
	const gtHubLabels* old = rp->edit->old;
	for (int64_t i = old_rank >= 0 ? rp->begin[old_rank] : 0; old_rank >= 0 && i < rp->begin[old_rank + 1]; i++) {
		int v = rp->edit->new_of[rp->owner[i]]; // the old entries of this hub, by vertex
		if (v >= 0) rp->was_at[v] = r + 1, rp->was[v] = old->dist[rp->entry[i]];
	}
	for (int i = 0; i < s->nlabelled; i++) {
		int u = s->labelled[i];
		rp->stamp[u] = r + 1;
		const EntryList* list = &s->lists[u];
		double now = list->items[list->count - 1].dist;
		if (rp->was_at[u] == r + 1 && rp->was[u] < now) mark_worse(rp, s->g, u);
		if (rp->was_at[u] != r + 1 || rp->was[u] != now) {
			mark_changed(rp, s->g, u);
			log_change(rp, u, r);
		}
	}
	if (old_rank < 0) return;
	for (int64_t i = rp->begin[old_rank]; i < rp->begin[old_rank + 1]; i++) {
		int v = rp->edit->new_of[rp->owner[i]];
		if (v >= 0 && rp->stamp[v] != r + 1) mark_worse(rp, s->g, v); // lost
	}
}

// Root `root`'s old rank (-1: a new vertex), the gone hubs before it accounted for.
static int replay_begin(Replay* rp, const gtVisGraph* g, int root)
{
	const gtHubLabels* old = rp->edit->old;
	int ov = rp->edit->old_of[root], old_rank = ov >= 0 ? old->rank_of[ov] : -1;
	account_gone(rp, g, old_rank >= 0 ? old_rank : old->n);
	if (old_rank >= 0) rp->next_old = old_rank + 1;
	return old_rank;
}

// The first root copied, of old rank `first`: each vertex's old entries from it on (binary search).
static void first_copy(Search* s, int first)
{
	s->first_copied = first;
	for (int v = 0; v < s->g->n; v++) {
		int ov = s->old_of[v];
		int64_t lo = ov >= 0 ? s->old->offset[ov] : 0, hi = ov >= 0 ? s->old->offset[ov + 1] : 0;
		while (lo < hi) {
			int64_t mid = lo + (hi - lo) / 2;
			if (s->old->hub[mid] < first) lo = mid + 1;
			else hi = mid;
		}
		s->old_start[v] = lo;
	}
}

// Whether the old search of `old_rank` (root `root`) is copied: the edit cannot change it.
static bool replay_copy(Search* s, Replay* rp, int root, int old_rank)
{
	s->old_limit = old_rank >= 0 ? old_rank : rp->edit->old->n; // the roots before it are decided
	if (old_rank < 0 || !(replayable(rp, old_rank) || replay_verified(s, rp, root, old_rank))) return false;
	rp->copied[old_rank] = true;
	if (s->first_copied < 0) first_copy(s, old_rank);
	return true;
}

// Progress by roots labelled, each tenth (the first roots' searches are the longest).
static void report_roots(const gtEhlDef* def, int rank, int count, int n)
{
	int64_t step = n / 10 + 1;
	if (def && rank > 0 && (rank + count) / step != rank / step)
		gt_ehl_report(def, "hub labels", (double)(rank + count) / n);
}

// Where the next roots come from: the significant path of a search tree, else degree order.
typedef struct Order {
	const gtVisGraph* g;
	int64_t* order_key; // decreasing degree, then vertex index
	int32_t *coverage, *best_child, *path;
	bool* processed;
	int by_degree; // next candidate in degree order
} Order;

static int root_after(Order* o, const int32_t* labelled, int count, const int32_t* parent)
{
	return gt_hub_next_root(o->g, labelled, count, parent, o->coverage, o->best_child, o->path, o->processed,
	                        o->order_key, &o->by_degree);
}

// Scratch for batches of up to `trees` roots searched by `workers` workers (worker 0 shares s's).
static bool batch_init(Batch* b, const Search* s, int workers, int trees)
{
	int n = s->g->n;
	size_t slots = (size_t)n + 1;
	memset(b, 0, sizeof *b);
	b->lists = s->lists;
	b->workers = gt_calloc((size_t)workers, sizeof *b->workers);
	bool ok = b->workers != NULL;
	for (int i = 0; i < trees && ok; i++) {
		Tree* t = &b->trees[i];
		t->parent = gt_malloc(slots * sizeof *t->parent);
		t->first = gt_malloc(slots * sizeof *t->first);
		t->labelled = gt_malloc(slots * sizeof *t->labelled);
		t->key = gt_malloc(slots * sizeof *t->key);
		ok = t->parent && t->first && t->labelled && t->key;
	}
	for (int w = 0; w < workers && ok; w++) {
		Search* ws = &b->workers[w];
		*ws = *s; // worker 0 shares the sequential search's scratch
		if (w == 0) continue;
		ws->to_root = gt_malloc(slots * sizeof *ws->to_root);
		ws->dist = gt_malloc(slots * sizeof *ws->dist);
		ws->visited = gt_malloc(slots * sizeof *ws->visited);
		ws->heap.items = gt_malloc((size_t)s->heap.capacity * sizeof *ws->heap.items);
		ws->to_old = s->old ? gt_malloc(((size_t)s->old->n + 1) * sizeof *ws->to_old) : NULL;
		ok = ws->to_root && ws->dist && ws->visited && ws->heap.items && (ws->to_old || !s->old);
		for (int v = 0; ok && v < n; v++) ws->to_root[v] = ws->dist[v] = INFINITY;
		for (int v = 0; ok && s->old && v < s->old->n; v++) ws->to_old[v] = INFINITY;
	}
	return ok;
}

static void batch_free(Batch* b, int workers)
{
	for (int w = 1; b->workers && w < workers; w++) {
		gt_free(b->workers[w].to_root);
		gt_free(b->workers[w].dist);
		gt_free(b->workers[w].visited);
		gt_free(b->workers[w].heap.items);
		gt_free(b->workers[w].to_old);
	}
	for (int i = 0; i < BATCH_ROOTS; i++) {
		gt_free(b->trees[i].parent);
		gt_free(b->trees[i].first);
		gt_free(b->trees[i].labelled);
		gt_free(b->trees[i].key);
	}
	gt_free(b->workers);
}

// ---- a repair's searches, two (or more) at a time ----
// The roots the replay cannot copy come in runs (the first hubs' trees cross the edit). A run of
// consecutive roots none of which can be copied now (a root copyable before the run's changes is
// decided after them: the rule only gets stricter as searches note changes) is searched as a batch,
// each pruned by the labels before the run, and merged in rank order as label_in_batches merges:
// the labels of this order. Only roots whose old search labelled REPLAY_BATCH_MIN vertices or more
// go in a batch (a small search costs less than waking a worker).
enum { REPLAY_BATCH_MIN = 256 };

static bool big_search(const Replay* rp, int old_rank)
{
	return old_rank >= 0 && rp->begin[old_rank + 1] - rp->begin[old_rank] >= REPLAY_BATCH_MIN;
}

static gtStatus replay_in_batches(Search* s, Replay* rp, const int32_t* order, gtHubLabels* out, gtError* err)
{
	int n = s->g->n, workers = rp->edit->threads > BATCH_ROOTS ? BATCH_ROOTS : rp->edit->threads, olds[BATCH_ROOTS];
	Batch b;
	gtPool* pool = gt_pool_create(); // NULL: threads per batch, as gt_run_tasks
	rp->rank_of = out->rank_of;
	gtStatus st = batch_init(&b, s, workers, workers) ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory");
	for (int r = 0; r < n && !st;) {
		int root = order[r], old_rank = replay_begin(rp, s->g, root), count = 1;
		out->vertex_of[r] = root, out->rank_of[root] = r;
		if (replay_copy(s, rp, root, old_rank)) {
			r++;
			continue;
		}
		int local = rp->local ? gt_hub_local_repair(s, rp, r, root, old_rank) : 0;
		if (local < 0) st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
		if (local != 0) { // repaired where its tree meets the edit
			if (local > 0) note_changes(rp, s, r, old_rank);
			if (local > 0 && rp->edit->local_roots) ++*rp->edit->local_roots;
			r++;
			continue;
		}
		b.roots[0] = root, olds[0] = old_rank;
		while (big_search(rp, old_rank) && count < workers && r + count < n) {
			int next = order[r + count], next_old = replay_begin(rp, s->g, next);
			if (!big_search(rp, next_old) || replayable(rp, next_old)) break;
			out->vertex_of[r + count] = next, out->rank_of[next] = r + count;
			b.roots[count] = next, olds[count++] = next_old;
		}
		if (count == 1) { // alone: searched in place
			if (!label_from(s, r, root)) st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
			else note_changes(rp, s, r, old_rank);
			r++;
			continue;
		}
		b.count = count, b.first_rank = r;
		atomic_store(&b.next, 0);
		for (int w = 0; w < workers; w++) // the labels before the batch
			b.workers[w].old_limit = olds[0], b.workers[w].first_copied = s->first_copied;
		gt_run_tasks_pooled(rp->edit->tasks, pool, batch_worker, &b, count);
		for (int i = 0; i < count && !st; i++) {
			Search view = *s; // root i's labelled vertices: its entries are their last ones now
			if (!merge_root(&b, i)) st = gt_fail(err, GT_ERR_NOMEM, "out of memory for hub label entries");
			view.labelled = b.trees[i].labelled, view.nlabelled = b.trees[i].count;
			if (!st) note_changes(rp, &view, r + i, olds[i]);
		}
		r += count;
	}
	batch_free(&b, workers);
	gt_pool_destroy(pool);
	return st;
}

// Labels the ranks from `rank` on in batches, the first batch's roots taken from the tree of the
// sequential search `s` just made. Workers: the threads given, at most one per root of a batch.
static gtStatus label_in_batches(Search* s, Order* o, int rank, const gtEhlDef* def, int threads, gtHubLabels* out,
                                 gtError* err)
{
	int n = s->g->n, workers = threads < 1 ? 1 : threads > BATCH_ROOTS ? BATCH_ROOTS : threads;
	Batch b;
	bool ok = batch_init(&b, s, workers, BATCH_ROOTS);
	// The trees the next roots come from: first the sequential search's, then the last batch's.
	Tree first_tree = {s->parent, s->first, s->labelled, NULL, s->nlabelled};
	const Tree* from = &first_tree;
	int from_count = 1;
	gtStatus st = ok ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for hub label batches");
	for (int r = rank; r < n && !st; r += b.count) {
		b.count = n - r < BATCH_ROOTS ? n - r : BATCH_ROOTS;
		for (int i = 0; i < b.count; i++) {
			const Tree* t = &from[i % from_count];
			int root = root_after(o, t->labelled, t->count, t->parent);
			o->processed[root] = true;
			b.roots[i] = root;
			out->vertex_of[r + i] = root;
			out->rank_of[root] = r + i;
		}
		b.first_rank = r;
		atomic_store(&b.next, 0);
		gt_run_tasks(def ? def->tasks : NULL, batch_worker, &b, workers < b.count ? workers : b.count);
		report_roots(def, r, b.count, n);
		if (!merge_batch(&b)) st = gt_fail(err, GT_ERR_NOMEM, "out of memory for hub label entries");
		from = b.trees;
		from_count = b.count;
	}
	batch_free(&b, workers);
	return st;
}

typedef struct Early { // link ends ranked early (gt_hub_labels_build_from)
	const int32_t* vertex;
	int count, front; // the first `front` take ranks 0 .. front - 1
} Early;

static gtStatus build_labels(const gtMap* map, const gtVisGraph* g, const gtVec2* ends, const Early* early,
                             const int32_t* order, const gtHubLabelsEdit* edit, const gtEhlDef* def, int threads,
                             gtHubLabels* out, gtError* err);

gtStatus gt_hub_labels_build(const gtMap* map, const gtVisGraph* g, gtHubLabels* out, gtError* err)
{
	return build_labels(map, g, NULL, NULL, NULL, NULL, NULL, 1, out, err);
}

gtStatus gt_hub_labels_build_from(const gtMap* map, const gtVisGraph* g, const gtVec2* ends, const int32_t* early,
                                  int early_count, int early_front, const gtEhlDef* def, int threads, gtHubLabels* out,
                                  gtError* err)
{
	Early first = {early, early_count, early_front};
	return build_labels(map, g, ends, &first, NULL, NULL, def, threads, out, err);
}

gtStatus gt_hub_labels_build_in_order(const gtMap* map, const gtVisGraph* g, const int32_t* order,
                                      const gtHubLabelsEdit* edit, gtHubLabels* out, gtError* err)
{
	return build_labels(map, g, NULL, NULL, order, edit, NULL, 1, out, err);
}

// The early vertex that takes `rank`, if the schedule gives it one (hub_labels.h), else -1.
static int early_root(const Early* early, int rank, int* at, const bool* processed)
{
	if (!early) return -1;
	int from = early->front + GT_HUB_LABELS_EARLY_FROM; // the rest's schedule starts after the front
	if (rank >= early->front && (rank < from || (rank - from) % GT_HUB_LABELS_EARLY_EVERY)) return -1;
	while (*at < early->count && processed[early->vertex[*at]]) (*at)++;
	return *at < early->count ? early->vertex[(*at)++] : -1;
}

// Of the first `upto` early vertices, the one not ranked yet whose subtree in the search just made
// (s's tree) is largest, -1 when the search labelled none of them.
static int early_by_tree(const Early* early, int upto, const Search* s, int32_t* coverage, const bool* processed)
{
	for (int i = 0; i < upto; i++) coverage[early->vertex[i]] = 0;
	for (int i = 0; i < s->nlabelled; i++) coverage[s->labelled[i]] = 1;
	for (int i = s->nlabelled - 1; i > 0; i--) coverage[s->parent[s->labelled[i]]] += coverage[s->labelled[i]];
	int best = -1;
	for (int i = 0; i < upto; i++) {
		int v = early->vertex[i];
		if (!processed[v] && coverage[v] > 0 && (best < 0 || coverage[v] > coverage[best])) best = v;
	}
	return best;
}

// The early vertex that takes `rank` (-1: a rank the schedule leaves to the others): of those not
// ranked yet (the first `front` while the front lasts), the one the most walks of the last search
// pass, the significant-path idea among the ends: ranked next, it covers the most pairs (label
// entries on AR0602SR + 100 teleporters 206,978 -> 173,497, candidate vias -12%; two floors with
// stairs, generated rooms and caves with mixed links 1-3% fewer); the list's next when the search
// reached none.
static int next_early(const Early* early, int rank, int* at, const Search* s, int32_t* coverage, const bool* processed)
{
	int listed = early_root(early, rank, at, processed);
	if (listed < 0) return -1;
	int best = early_by_tree(early, rank < early->front ? early->front : early->count, s, coverage, processed);
	if (best < 0 || best == listed) return listed;
	(*at)--; // the listed one stays next in the list
	return best;
}

// The rank after the early schedule's last (0 without one).
static int64_t early_end(const Early* early)
{
	if (!early) return 0;
	if (early->count <= early->front) return early->front;
	return early->front + GT_HUB_LABELS_EARLY_FROM + (int64_t)GT_HUB_LABELS_EARLY_EVERY * (early->count - early->front);
}

static void free_scratch(Search* s, Order* o, int n)
{
	if (s->lists && !s->arena)
		for (int v = 0; v < n; v++) list_free(&s->lists[v]);
	arena_free(s->arena);
	gt_free(s->lists);
	gt_free(s->to_old);
	gt_free(s->old_start);
	gt_free(o->order_key);
	gt_free(s->to_root);
	gt_free(s->dist);
	gt_free(s->parent);
	gt_free(s->first);
	gt_free(s->visited);
	gt_free(s->labelled);
	gt_free(o->coverage);
	gt_free(o->best_child);
	gt_free(o->path);
	gt_free(o->processed);
	gt_free(s->heap.items);
	gt_free(s->cut);
}

// A repair's labels made one search at a time up to this rank: the kept order keeps the old ranks'
// order (ehl_repair.c), so the roots the old labels had from batches keep their batched entries
// where copied and come after the others. (Searched whole, they are the sequential labelling: the
// bound only has to be low enough.)
static int32_t sequential_after(const gtHubLabelsEdit* edit, int n)
{
	const gtHubLabels* old = edit->old;
	if (old->sequential_to >= old->n) return n;
	int32_t kept = 0;
	for (int r = 0; r < old->sequential_to; r++) kept += edit->new_of[old->vertex_of[r]] >= 0;
	return kept;
}

// Without a given order, maps of BATCH_MIN_VERTICES vertices or more are labelled in batches after the first
// BATCH_FROM roots (on any thread count, so the labels do not depend on it), or after the early vertices.
static gtStatus build_labels(const gtMap* map, const gtVisGraph* g, const gtVec2* ends, const Early* early,
                             const int32_t* order, const gtHubLabelsEdit* edit, const gtEhlDef* def, int threads,
                             gtHubLabels* out, gtError* err)
{
	memset(out, 0, sizeof *out);
	if (order && edit && gt_hub_labels_unchanged(g, order, edit)) return gt_hub_labels_copy_old(edit, out, err);
	int n = g->n;
	size_t slots = (size_t)n + 1;
	Search s = {
	    g,
	    gt_calloc(slots, sizeof *s.lists),
	    gt_malloc(slots * sizeof *s.to_root),
	    gt_malloc(slots * sizeof *s.dist),
	    gt_malloc(slots * sizeof *s.parent),
	    gt_malloc(slots * sizeof *s.first),
	    gt_malloc(slots * sizeof *s.visited),
	    gt_malloc(slots * sizeof *s.labelled),
	    0,
	    {gt_malloc(((size_t)g->offset[n] + slots) * sizeof(gtHeapItem)), 0, (int)((size_t)g->offset[n] + slots)},
	    NULL,
	    NULL,
	    NULL,
	    NULL,
	    NULL,
	    0,
	    NULL,
	    -1,
	    NULL,
	    NULL};
	Order o = {g,
	           gt_malloc(slots * sizeof *o.order_key),
	           gt_malloc(slots * sizeof *o.coverage),
	           gt_malloc(slots * sizeof *o.best_child),
	           gt_malloc(slots * sizeof *o.path),
	           gt_calloc(slots, sizeof *o.processed),
	           0};
	Replay replay, *rp = order && edit ? &replay : NULL;
	if (rp && !replay_init(rp, edit, n)) rp = NULL; // no room: every search runs
	Arena arena = {NULL, 0, 0};
	if (rp && (s.to_old = gt_malloc(((size_t)edit->old->n + 1) * sizeof *s.to_old)) != NULL &&
	    (s.old_start = gt_malloc(slots * sizeof *s.old_start)) != NULL) {
		s.old = edit->old, s.old_of = edit->old_of, s.copied = rp->copied, s.arena = &arena;
		for (int v = 0; v < edit->old->n; v++) s.to_old[v] = INFINITY;
	} else if (rp) { // no room: every search runs
		replay_free(rp);
		rp = NULL;
	}
	out->n = n;
	out->rank_of = gt_malloc(slots * sizeof *out->rank_of);
	out->vertex_of = gt_malloc(slots * sizeof *out->vertex_of);
	gtStatus st = GT_OK;
	if (!o.order_key || !s.lists || !s.to_root || !s.dist || !s.parent || !s.first || !s.visited || !s.labelled ||
	    !o.coverage || !o.best_child || !o.path || !o.processed || !s.heap.items || !out->rank_of || !out->vertex_of) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory building hub labels for %d vertices", n);
		goto done;
	}
	for (int v = 0; v < n; v++) {
		int64_t degree = g->offset[v + 1] - g->offset[v];
		o.order_key[v] = ((INT64_C(1) << 30) - degree) * (INT64_C(1) << 32) + v; // degree < 2^30
		s.to_root[v] = INFINITY;
		s.dist[v] = INFINITY;
	}
	if (!order) qsort(o.order_key, (size_t)n, sizeof *o.order_key, gt_compare_int64); // a given order needs no roots
	int batched_from = !order && n >= BATCH_MIN_VERTICES ? BATCH_FROM : n;
	int64_t early_to = early_end(early);
	if (batched_from < early_to) batched_from = early_to < n ? (int)early_to : n; // the schedule is sequential
	int early_at = 0, early_next;
	if (early && early->count > 0 && !order && (s.cut = gt_calloc(slots, 1)) != NULL) // no room: no slack
		for (int i = 0; i < early->count; i++) s.cut[early->vertex[i]] = 1;

	int root = n == 0 ? 0 : order ? order[0] : (int)(o.order_key[0] & 0xffffffff);
	if (n > 0 && !order && !rp && (early_next = early_root(early, 0, &early_at, o.processed)) >= 0) root = early_next;
	if (rp) st = replay_in_batches(&s, rp, order, out, err); // a repair's own loop
	for (int r = 0; r < n && !st && !rp; r++) {
		if (r == batched_from) {
			st = label_in_batches(&s, &o, r, def, threads, out, err);
			break;
		}
		out->vertex_of[r] = root;
		out->rank_of[root] = r;
		o.processed[root] = true;
		report_roots(def, r, 1, n);
		if (!label_from(&s, r, root)) st = gt_fail(err, GT_ERR_NOMEM, "out of memory for hub label entries");
		else if (r + 1 < n && order) root = order[r + 1];
		else if (r + 1 < n && (early_next = next_early(early, r + 1, &early_at, &s, o.coverage, o.processed)) >= 0)
			root = early_next;
		else if (r + 1 < n && r + 1 < batched_from) root = root_after(&o, s.labelled, s.nlabelled, s.parent);
	}
	// A repair on threads merges its lists on two (the build waits for them: see ehl_repair.c).
	if (!st && rp) st = gt_hub_labels_merge_edit(map, edit, s.lists, rp->copied, edit->threads > 1 ? 2 : 1, out, err);
	if (!st && !rp) st = flatten(map, s.lists, n, ends, out, err);
	if (!st) out->sequential_to = rp ? sequential_after(edit, n) : batched_from;

done:
	if (rp) replay_free(rp);
	free_scratch(&s, &o, n);
	if (st) gt_hub_labels_free(out);
	return st;
}

void gt_ehl_report(const gtEhlDef* def, const char* stage, double fraction)
{
	if (def->progress) def->progress(def->progress_user, stage, fraction);
}

gtStatus gt_hub_labels_of_map(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* out, int64_t* vg_edges,
                              gtError* err)
{
	gtStatus checked = gt_ehl_check_vertices(map, def, err);
	if (checked) return checked;
	gtVisGraph graph;
	gt_ehl_report(def, "visibility graph", 0);
	gtStatus st = gt_vis_graph_build(map, def->tasks, threads, false, &graph, err);
	if (st) return st;
	*vg_edges = graph.offset[graph.n] / 2;
	gt_ehl_report(def, "hub labels", 0);
	st = gt_hub_labels_of_graph(map, &graph, def, threads, out, err);
	gt_vis_graph_free(&graph);
	return st;
}

gtStatus gt_hub_labels_of_graph(const gtMap* map, const gtVisGraph* g, const gtEhlDef* def, int threads,
                                gtHubLabels* out, gtError* err)
{
	return build_labels(map, g, NULL, NULL, NULL, NULL, def, threads, out, err);
}
