// A repair's search of one hub redone only where its old tree meets the edit (docs/edits.md, "How a
// rebuild repairs the index").
//
// A search pops in (distance, vertex) order (label_from), so its result is a function of the graph and
// the earlier hubs' labels alone: u is labelled at distance D(u), the least over its labelled
// neighbours w of D(w) + |wu| (rounded as the search adds), unless an earlier hub covers the pair at
// D(u); its parent is the least such w in (D(w) + |wu|, D(w), w) order. The old search satisfied the
// same with the old graph and labels. A vertex of the old tree keeps its old entry when its path of
// parents to the root keeps its edges and none of its vertices is covered now at its old distance:
// its distance can then only go down (through vertices labelled anew), never up. So the old tree's
// vertices whose parent edge is gone, or that are covered now (their entries, or the root's, changed:
// only tested where they did, and only against their entries of the hubs searched again), are reset with
// their subtrees; the reset vertices take their distances from the kept ones around them and a
// Dijkstra in the same order labels outwards from them (and from the kept vertices whose edges
// changed, and from the pruned vertices that may be uncovered now, below), offering each vertex it
// reaches its kept neighbours' distances first. A kept vertex offered a shorter distance is searched
// again from there; one covered then (which cannot happen: covered later means covered at its old
// distance) sends the root back to a whole search, as does a reset part larger than the tree's
// 1/LOCAL_RESET_DIV.
//
// Which pruned vertices may be uncovered now: a vertex w next to a kept vertex and outside the tree
// was reached by the old search and covered there by some hub h at its distance then, and it is
// reached now from kept vertices only, at that distance or more. The pair's sum through h grows only
// when w's entry for h or the root's was lost or got longer: w is then marked worse (all of them are
// seeded), or h is one of the root's worse hubs (its entry lost or longer than before: found by
// comparing the root's old entries of the hubs searched again with its new ones), and then w's old
// label holds h. So the kept vertices' neighbours whose old labels hold one of the root's worse hubs
// are seeded too (at most LOCAL_WORSE_MOST such hubs; more: searched whole). Every other pruned
// vertex stays covered through the same hub.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ehl/hub_labels_search.h"

enum { LOCAL_RESET_DIV = 2, LOCAL_WORSE_MOST = 32 };

enum { KEPT = 1, UNRESOLVED, OPEN, IMPROVED, LABELLED, PRUNED };

typedef struct HubLocal {
	int32_t stamp;
	int32_t *tag, *ftag, *ctag;      // per vertex: == stamp when its state (first, worse hubs checked) holds
	uint8_t* state;                  // KEPT ... PRUNED
	double *dist, *pkey;             // distance, and its parent's (the order's second key)
	int32_t *parent, *first;         // tree parent, the vertex next to the root on the tree path
	int32_t *tree, *touched, *stack; // the old tree's vertices, the others reached, a walk's scratch
	int ntree, ntouched;
	int32_t worse_hubs[LOCAL_WORSE_MOST]; // the root's worse hubs (old ranks, ascending), nworse of them
	int nworse;
} HubLocal;

HubLocal* gt_hub_local_create(int n)
{
	HubLocal* L = gt_calloc(1, sizeof *L);
	if (!L) return NULL;
	size_t slots = (size_t)n + 1;
	L->tag = gt_calloc(slots, sizeof *L->tag);
	L->ftag = gt_calloc(slots, sizeof *L->ftag);
	L->ctag = gt_calloc(slots, sizeof *L->ctag);
	L->state = gt_malloc(slots);
	L->dist = gt_malloc(slots * sizeof *L->dist);
	L->pkey = gt_malloc(slots * sizeof *L->pkey);
	L->parent = gt_malloc(slots * sizeof *L->parent);
	L->first = gt_malloc(slots * sizeof *L->first);
	L->tree = gt_malloc(slots * sizeof *L->tree);
	L->touched = gt_malloc(slots * sizeof *L->touched);
	L->stack = gt_malloc(slots * sizeof *L->stack);
	if (!L->tag || !L->ftag || !L->ctag || !L->state || !L->dist || !L->pkey || !L->parent || !L->first || !L->tree ||
	    !L->touched || !L->stack) {
		gt_hub_local_free(L);
		return NULL;
	}
	return L;
}

void gt_hub_local_free(HubLocal* L)
{
	if (!L) return;
	gt_free(L->tag), gt_free(L->ftag), gt_free(L->ctag), gt_free(L->state), gt_free(L->dist), gt_free(L->pkey);
	gt_free(L->parent), gt_free(L->first), gt_free(L->tree), gt_free(L->touched), gt_free(L->stack);
	gt_free(L);
}

// w offered `candidate` through u (at distance `key`): the least in (candidate, key, u) order stays.
// True when w's distance went down.
static bool offer(HubLocal* L, int w, double candidate, double key, int u)
{
	if (candidate < L->dist[w]) {
		L->dist[w] = candidate, L->pkey[w] = key, L->parent[w] = u;
		return true;
	}
	if (candidate == L->dist[w] && (key < L->pkey[w] || (key == L->pkey[w] && u < L->parent[w])))
		L->pkey[w] = key, L->parent[w] = u;
	return false;
}

// w's distance through its kept neighbours (the labelled ones whose entries stay).
static void from_kept(HubLocal* L, const gtVisGraph* g, int w)
{
	L->dist[w] = L->pkey[w] = INFINITY, L->parent[w] = -1;
	for (int64_t k = g->offset[w]; k < g->offset[w + 1]; k++) {
		int u = g->adj[k];
		if (L->tag[u] == L->stamp && L->state[u] == KEPT) offer(L, w, L->dist[u] + g->length[k], L->dist[u], u);
	}
}

static bool push(Search* s, double key, int v)
{
	if (s->heap.size == s->heap.capacity) return false;
	gt_heap_push_ordered(&s->heap, key, v);
	return true;
}

// A vertex outside the old tree reached for the first time: open, at its kept neighbours' distance.
static bool touch(Search* s, HubLocal* L, int w)
{
	L->tag[w] = L->stamp, L->state[w] = OPEN;
	L->touched[L->ntouched++] = w;
	from_kept(L, s->g, w);
	return isinf(L->dist[w]) || push(s, L->dist[w], w);
}

// u labelled at `key` (or kept with new edges): its offers to its neighbours. False: the heap is full.
static bool relax(Search* s, HubLocal* L, int u, double key)
{
	const gtVisGraph* g = s->g;
	for (int64_t k = g->offset[u]; k < g->offset[u + 1]; k++) {
		int w = g->adj[k];
		if (L->tag[w] != L->stamp && !touch(s, L, w)) return false;
		uint8_t st = L->state[w];
		if (st == LABELLED || st == PRUNED) continue;
		if (offer(L, w, key + g->length[k], key, u)) {
			if (st == KEPT) L->state[w] = IMPROVED;
			if (!push(s, L->dist[w], w)) return false;
		}
	}
	return true;
}

static bool has_edge(const gtVisGraph* g, int v, int p)
{
	int64_t lo = g->offset[v], hi = g->offset[v + 1];
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (g->adj[mid] < p) lo = mid + 1;
		else hi = mid;
	}
	return lo < g->offset[v + 1] && g->adj[lo] == p;
}

// The old tree of `old_rank` into L (new numbering; a gone parent: -1), each vertex KEPT (the root)
// or UNRESOLVED, then RESET (OPEN) where its parent edge is gone or it is covered now at its old
// distance. Returns the count reset.
static int load_tree(Search* s, const Replay* rp, HubLocal* L, int root, int old_rank)
{
	const gtHubLabels* old = rp->edit->old;
	const int32_t* new_of = rp->edit->new_of;
	L->ntree = 0;
	for (int64_t i = rp->begin[old_rank]; i < rp->begin[old_rank + 1]; i++) {
		int v = new_of[rp->owner[i]];
		if (v < 0) continue;
		int64_t at = rp->entry[i];
		L->tag[v] = L->stamp, L->state[v] = v == root ? KEPT : UNRESOLVED;
		L->dist[v] = old->dist[at], L->parent[v] = new_of[old->parent[at]];
		L->tree[L->ntree++] = v;
	}
	int reset = 0;
	for (int i = 0; i < L->ntree; i++) {
		int v = L->tree[i], p = L->parent[v];
		if (v == root) continue;
		bool lost = p < 0 || (rp->edit->dirty[v] && !has_edge(s->g, v, p));
		if (!lost && (rp->changed[v] || rp->changed[root])) lost = gt_hub_covered_by_searched(s, v, L->dist[v]);
		if (lost) L->state[v] = OPEN, reset++;
		else L->pkey[v] = L->dist[p];
	}
	return reset;
}

// Every UNRESOLVED vertex KEPT, or OPEN when an ancestor is (its distance came through it).
static int close_resets(HubLocal* L)
{
	int reset = 0;
	for (int i = 0; i < L->ntree; i++) {
		int depth = 0, u = L->tree[i];
		while (L->state[u] == UNRESOLVED) L->stack[depth++] = u, u = L->parent[u];
		uint8_t st = L->state[u];
		reset += st == OPEN ? depth : 0;
		while (depth > 0) L->state[L->stack[--depth]] = st;
	}
	return reset;
}

// The vertex next to the root on v's tree path (memoized per root).
static int first_of(HubLocal* L, int root, int v)
{
	int depth = 0, u = v;
	while (L->ftag[u] != L->stamp && u != root && L->parent[u] != root) L->stack[depth++] = u, u = L->parent[u];
	int f = L->ftag[u] == L->stamp ? L->first[u] : u;
	L->ftag[u] = L->stamp, L->first[u] = f;
	while (depth > 0) u = L->stack[--depth], L->ftag[u] = L->stamp, L->first[u] = f;
	return f;
}

// The hubs (old ranks) whose entry of the root was lost or got longer. False: more than LOCAL_WORSE_MOST.
static bool root_worse_hubs(const Search* s, const Replay* rp, HubLocal* L, int root, int old_rank)
{
	const gtHubLabels* old = rp->edit->old;
	const EntryList* now = &s->lists[root]; // its entries of the hubs searched again, by new rank
	int ov = rp->edit->old_of[root];
	int64_t at = 0;
	for (int64_t k = old->offset[ov]; k < old->offset[ov + 1] && old->hub[k] < old_rank; k++) {
		int32_t h = old->hub[k];
		if (rp->copied[h]) continue; // that search was copied: the entry is the old one
		int hv = rp->edit->new_of[old->vertex_of[h]];
		int32_t rank = hv >= 0 ? rp->rank_of[hv] : -1; // ranks keep the old order
		while (rank >= 0 && at < now->count && now->items[at].hub < rank) at++;
		if (rank >= 0 && at < now->count && now->items[at].hub == rank && now->items[at].dist <= old->dist[k]) continue;
		if (L->nworse == LOCAL_WORSE_MOST) return false;
		L->worse_hubs[L->nworse++] = h;
	}
	return true;
}

// Whether w's old label holds an entry for one of the root's worse hubs.
static bool holds_worse_hub(const Replay* rp, const HubLocal* L, int w)
{
	const gtHubLabels* old = rp->edit->old;
	int ow = rp->edit->old_of[w];
	if (ow < 0) return false; // a new vertex: its kept neighbours have new edges, and offer along them
	int64_t lo = old->offset[ow], end = old->offset[ow + 1];
	for (int i = 0; i < L->nworse; i++) { // both in rank order: the search goes on from the last
		int64_t hi = end;
		while (lo < hi) {
			int64_t mid = lo + (hi - lo) / 2;
			if (old->hub[mid] < L->worse_hubs[i]) lo = mid + 1;
			else hi = mid;
		}
		if (lo < end && old->hub[lo] == L->worse_hubs[i]) return true;
	}
	return false;
}

// The seeds: reset vertices at their kept neighbours' distance, kept vertices with new edges
// offering along them, pruned vertices whose entries got worse and those the root's worse hubs
// covered (see the top) at their kept neighbours' distance.
static bool seed(Search* s, const Replay* rp, HubLocal* L)
{
	for (int i = 0; i < L->ntree; i++) {
		int v = L->tree[i];
		if (L->state[v] != OPEN) continue;
		from_kept(L, s->g, v);
		if (!isinf(L->dist[v]) && !push(s, L->dist[v], v)) return false;
	}
	for (int i = 0; i < L->ntree; i++) {
		int v = L->tree[i];
		if (L->state[v] == KEPT && rp->edit->dirty[v] && !relax(s, L, v, L->dist[v])) return false;
	}
	// Only those next to a kept vertex: the others are reached, if at all, from vertices labelled anew
	// (relax touches them then). Found from the worse list or from the kept vertices, the shorter walk.
	int kept = 0;
	for (int i = 0; i < L->ntree; i++) kept += L->state[L->tree[i]] == KEPT;
	for (int i = 0; L->nworse == 0 && rp->worse_count <= kept && i < rp->worse_count; i++) {
		int w = rp->worse_list[i];
		if (L->tag[w] != L->stamp && !touch(s, L, w)) return false;
	}
	if (L->nworse == 0 && rp->worse_count <= kept) return true;
	for (int i = 0; i < L->ntree; i++) {
		int u = L->tree[i];
		if (L->state[u] != KEPT) continue;
		for (int64_t k = s->g->offset[u]; k < s->g->offset[u + 1]; k++) {
			int w = s->g->adj[k];
			if (L->tag[w] == L->stamp || L->ctag[w] == L->stamp) continue;
			L->ctag[w] = L->stamp;
			if ((rp->worse[w] || (L->nworse > 0 && holds_worse_hub(rp, L, w))) && !touch(s, L, w)) return false;
		}
	}
	return true;
}

// The Dijkstra from the seeds, in (distance, vertex) order. False: a kept vertex came out covered or
// the heap is full (the caller searches whole).
static bool search_open(Search* s, HubLocal* L)
{
	while (s->heap.size > 0) {
		gtHeapItem top = gt_heap_pop_ordered(&s->heap);
		int u = top.id;
		if (L->state[u] == LABELLED || L->state[u] == PRUNED || top.key > L->dist[u]) continue;
		if (gt_hub_covered_at(s, u, top.key)) {
			if (L->state[u] == IMPROVED) return false;
			L->state[u] = PRUNED;
			continue;
		}
		L->state[u] = LABELLED;
		if (!relax(s, L, u, top.key)) return false;
	}
	return true;
}

// The root's entries: the kept and the labelled vertices, each with its parent and first vertex.
static bool emit(Search* s, HubLocal* L, int r, int root)
{
	s->nlabelled = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0, count = pass ? L->ntouched : L->ntree; i < count; i++) {
			int v = pass ? L->touched[i] : L->tree[i];
			if (L->state[v] != KEPT && L->state[v] != LABELLED) continue;
			Entry e = {r, L->parent[v], first_of(L, root, v), -1, L->dist[v]};
			if (!gt_hub_list_push(&s->lists[v], e, s->arena)) return false;
			s->labelled[s->nlabelled++] = v;
		}
	return true;
}

int gt_hub_local_repair(Search* s, const Replay* rp, int r, int root, int old_rank)
{
	HubLocal* L = rp->local;
	// A root the old labels had from a batch: its tree's parents at ties may not be the (distance,
	// vertex) order's this search keeps (merge_root), so it is searched whole, as before the local
	// repair (not shown equal to scratch otherwise).
	if (old_rank < 0 || old_rank >= rp->edit->old->sequential_to) return 0;
	L->stamp++, L->ntouched = 0, L->nworse = 0;
	if (rp->worse[root] && !root_worse_hubs(s, rp, L, root, old_rank)) return 0;
	gt_hub_root_distances(s, root, true);
	int reset = load_tree(s, rp, L, root, old_rank);
	reset += close_resets(L);
	s->heap.size = 0;
	bool done = reset * LOCAL_RESET_DIV <= L->ntree && seed(s, rp, L) && search_open(s, L);
	gt_hub_root_distances(s, root, false);
	s->heap.size = 0;
	if (!done) return 0;
	return emit(s, L, r, root) ? 1 : -1;
}
