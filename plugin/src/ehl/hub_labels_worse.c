// A repair's log of the entries each vertex lost or had made longer (worse), and what it tells the
// replay's checks (hub_labels.c, "labels after an edit"): a vertex an old search pruned is covered
// still by its old witness hub unless that hub's entry of the vertex or of the root got worse.
#include <math.h>

#include "core/alloc.h"
#include "ehl/hub_labels_search.h"

void gt_hub_log_worse(struct WorseLog* log, int u, int32_t old_rank)
{
	int64_t at = log->count;
	if (log->lost) return;
	if (at == log->capacity) { // both arrays to the same new capacity
		int64_t capacity = log->capacity;
		if (!GT_GROW(log->hub, capacity, at + 1, 1024) || !GT_RESIZE(log->next, capacity)) {
			log->lost = true;
			return;
		}
		log->capacity = capacity;
	}
	log->hub[at] = old_rank;
	log->next[at] = log->head[u];
	log->head[u] = at;
	log->count = at + 1;
}

// Vertex v's old entry for the hub of old rank h (+inf: none).
static double old_entry(const gtHubLabels* old, int v, int32_t h)
{
	int64_t lo = old->offset[v], end = old->offset[v + 1], hi = end;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (old->hub[mid] < h) lo = mid + 1;
		else hi = mid;
	}
	return lo < end && old->hub[lo] == h ? old->dist[lo] : INFINITY;
}

// For a vertex w (its edges the old ones) next to the old search from `root` (whose entries are the
// old ones or shorter) that the search pruned at `key`: its old witness hub covers it still unless
// w's entry for that hub was lost or got longer. So only when one of those hubs covered the pair in
// the old labels may w be uncovered now (then it is tested).
bool gt_hub_may_uncover(const Replay* rp, int root, int w, double key)
{
	const gtHubLabels* old = rp->edit->old;
	int ow = rp->edit->old_of[w], oroot = rp->edit->old_of[root];
	if (rp->worse_log.lost || ow < 0 || oroot < 0) return true;
	for (int64_t at = rp->worse_log.head[w]; at >= 0; at = rp->worse_log.next[at]) {
		int32_t h = rp->worse_log.hub[at];
		if (old_entry(old, ow, h) + old_entry(old, oroot, h) <= key) return true;
	}
	return false;
}
