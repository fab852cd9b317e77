// The hub labels an index keeps (exact distances for queries, parents for paths), and the map's
// label entries dropped once kept and restored when a budget's build tries another cell size.
#include "ehl/ehl_kept_labels.h"

#include "core/alloc.h"
#include "core/status.h"

// Copies the useful label entries into the index: exact distances for the query, parents for paths.
gtStatus gt_ehl_keep_labels(gtEhl* e, gtHubLabels* L, gtError* err)
{
	if (L->kept_offset) { // made already (a repair's merge): taken
		e->vertex_of = gt_malloc(((size_t)e->n + 1) * sizeof *e->vertex_of);
		if (!e->vertex_of) return gt_fail(err, GT_ERR_NOMEM, "out of memory for hub labels");
		for (int r = 0; r < e->n; r++) e->vertex_of[r] = (uint32_t)L->vertex_of[r];
		e->label_count = L->kept_offset[e->n];
		e->label_offset = L->kept_offset, e->label_hub = L->kept_hub;
		e->label_parent = L->kept_parent, e->label_dist = L->kept_dist;
		L->kept_offset = L->kept_hub = L->kept_parent = NULL, L->kept_dist = NULL;
		return GT_OK;
	}
	e->label_count = 0;
	for (int64_t k = 0; k < L->offset[e->n]; k++) e->label_count += L->useful[k];
	if (e->label_count >= UINT32_MAX)
		return gt_fail(err, GT_ERR_LIMIT, "too many hub label entries (%lld)", (long long)e->label_count);
	e->label_offset = gt_malloc(((size_t)e->n + 1) * sizeof *e->label_offset);
	e->label_hub = gt_malloc((size_t)(e->label_count + 1) * sizeof *e->label_hub);
	e->label_parent = gt_malloc((size_t)(e->label_count + 1) * sizeof *e->label_parent);
	e->label_dist = gt_malloc((size_t)(e->label_count + 1) * sizeof *e->label_dist);
	e->vertex_of = gt_malloc(((size_t)e->n + 1) * sizeof *e->vertex_of);
	if (!e->label_offset || !e->label_hub || !e->label_parent || !e->label_dist || !e->vertex_of)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for hub labels");
	uint32_t kept = 0;
	for (int v = 0; v < e->n; v++) {
		e->label_offset[v] = kept;
		for (int64_t k = L->offset[v]; k < L->offset[v + 1]; k++) {
			if (!L->useful[k]) continue;
			e->label_hub[kept] = (uint32_t)L->hub[k];
			e->label_parent[kept] = (uint32_t)L->parent[k];
			e->label_dist[kept] = L->dist[k];
			kept++;
		}
	}
	e->label_offset[e->n] = kept;
	for (int r = 0; r < e->n; r++) e->vertex_of[r] = (uint32_t)L->vertex_of[r];
	return GT_OK;
}

// Once the index holds the useful entries (keep_labels), nothing reads the map's labels' entries:
// they go (rooms 4096 at --budget 2048: 48 M entries, 0.8 GB of the peak); the offsets stay.
void gt_ehl_drop_label_entries(gtHubLabels* L)
{
	gt_free(L->hub), gt_free(L->parent), gt_free(L->dist), gt_free(L->useful);
	L->hub = NULL, L->parent = NULL, L->dist = NULL, L->useful = NULL;
}

// Before the index is thrown away for another cell size: its useful entries back in place, the
// others (read by no later build) left blank and not useful.
bool gt_ehl_restore_label_entries(gtHubLabels* L, const gtEhl* e)
{
	size_t entries = (size_t)L->offset[L->n];
	L->hub = gt_calloc(entries + 1, sizeof *L->hub);
	L->parent = gt_calloc(entries + 1, sizeof *L->parent);
	L->dist = gt_calloc(entries + 1, sizeof *L->dist);
	L->useful = gt_calloc(entries + 1, sizeof *L->useful);
	if (!L->hub || !L->parent || !L->dist || !L->useful) return false;
	for (int v = 0; v < L->n; v++) {
		int64_t at = L->offset[v];
		for (uint32_t k = e->label_offset[v]; k < e->label_offset[v + 1]; k++, at++) {
			L->hub[at] = (int32_t)e->label_hub[k], L->parent[at] = (int32_t)e->label_parent[k];
			L->dist[at] = e->label_dist[k], L->useful[at] = true;
		}
	}
	return true;
}
