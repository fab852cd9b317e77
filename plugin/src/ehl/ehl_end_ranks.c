// The ends of links that shorten ranked last among an index's hubs (ehl_end_ranks.h).
#include "ehl/ehl_end_ranks.h"

#include "core/alloc.h"

// Vertex v is an end of a link that shortens.
static bool short_end(int v, int corners, const gtEhlLink* links)
{
	return v >= corners && gt_ehl_link_is_short(&links[(v - corners) / 2]);
}

// v's label entries [from, to), sorted by old rank, into the new ranks' order: a stable partition
// (the entries of other hubs first, then those of ends), since the renumbering keeps each group's
// order. `scratch` holds `to - from` entries of each array.
static void sort_label(gtHubLabels* L, int64_t from, int64_t to, const int32_t* new_rank, int32_t first_end,
                       int32_t* hub, int32_t* parent, double* dist, bool* useful)
{
	int64_t at = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int64_t k = from; k < to; k++) {
			int32_t r = new_rank[L->hub[k]];
			if ((r >= first_end) != (pass == 1)) continue;
			hub[at] = r, parent[at] = L->parent[k], dist[at] = L->dist[k], useful[at] = L->useful[k];
			at++;
		}
	size_t count = (size_t)(to - from);
	memcpy(L->hub + from, hub, count * sizeof *hub);
	memcpy(L->parent + from, parent, count * sizeof *parent);
	memcpy(L->dist + from, dist, count * sizeof *dist);
	memcpy(L->useful + from, useful, count * sizeof *useful);
}

bool gt_ehl_rank_ends_last(gtHubLabels* L, int corners, const gtEhlLink* links, int count)
{
	int n = L->n, ends = 0;
	if (L->kept_offset) return true;
	for (int v = corners; v < n && v < corners + 2 * count; v++) ends += short_end(v, corners, links);
	if (ends == 0) return true;
	int64_t longest = 0;
	for (int v = 0; v < n; v++)
		if (L->offset[v + 1] - L->offset[v] > longest) longest = L->offset[v + 1] - L->offset[v];
	int32_t* new_rank = gt_malloc(((size_t)n + 1) * sizeof *new_rank);
	int32_t* hub = gt_malloc(((size_t)longest + 1) * sizeof *hub);
	int32_t* parent = gt_malloc(((size_t)longest + 1) * sizeof *parent);
	double* dist = gt_malloc(((size_t)longest + 1) * sizeof *dist);
	bool* useful = gt_malloc(((size_t)longest + 1) * sizeof *useful);
	bool ok = new_rank && hub && parent && dist && useful;
	if (ok) {
		int32_t first_end = n - ends, other = 0, end = first_end;
		for (int32_t r = 0; r < n; r++) new_rank[r] = short_end(L->vertex_of[r], corners, links) ? end++ : other++;
		for (int32_t r = 0; r < n; r++) L->rank_of[L->vertex_of[r]] = new_rank[r];
		for (int v = 0; v < n; v++) L->vertex_of[L->rank_of[v]] = v;
		L->sequential_to = 0; // ranks moved: no longer the labelling order (an index with links is not repaired)
		for (int v = 0; v < n; v++)
			sort_label(L, L->offset[v], L->offset[v + 1], new_rank, first_end, hub, parent, dist, useful);
	}
	gt_free(new_rank), gt_free(hub), gt_free(parent), gt_free(dist), gt_free(useful);
	return ok;
}

int32_t gt_ehl_end_ranks_from(const gtEhl* e)
{
	int32_t from = e->n;
	while (from > 0 && e->link_count > 0) {
		int v = (int)e->vertex_of[from - 1];
		if (!short_end(v, e->corners, e->links)) break;
		from--;
	}
	return from;
}
