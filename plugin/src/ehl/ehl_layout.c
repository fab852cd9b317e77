// The in-memory index: its number encodings, lifetime, statistics and inspection. Both the builder
// and the loader produce this layout; a program that only loads an index links this, not the builder.
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "ehl/ehl_layout.h"
#include "ehl/hub_labels.h"

struct gtEhlSharedCells {
	atomic_int refs; // indexes holding the arrays
	uint32_t* cell_begin;
	gtEhlHub* hubs;
	gtEhlViaLabel* vias;
};

bool gt_ehl_own_shared_cells(gtEhl* e)
{
	if (e->shared_cells || e->mapping || e->region_of || !e->hubs || !e->vias || !e->cell_begin)
		return e->shared_cells != NULL;
	struct gtEhlSharedCells* s = gt_malloc(sizeof *s);
	if (!s) return false;
	atomic_init(&s->refs, 1);
	s->cell_begin = e->cell_begin, s->hubs = e->hubs, s->vias = e->vias;
	e->shared_cells = s;
	return true;
}

bool gt_ehl_share_cells(gtEhl* e, const gtEhl* from)
{
	struct gtEhlSharedCells* s = from->shared_cells;
	if (!s || e->shared_cells || e->hubs || e->vias || e->cell_begin) return false;
	atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed); // `from` holds one: never 0 here
	e->shared_cells = s;
	e->cell_begin = s->cell_begin, e->hubs = s->hubs, e->vias = s->vias;
	e->hub_count = from->hub_count, e->via_count = from->via_count;
	return true;
}

// The last index to let go frees them; acq_rel orders every other holder's reads before the free.
static void release_cells(gtEhl* e)
{
	struct gtEhlSharedCells* s = e->shared_cells;
	if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1) {
		gt_free(s->cell_begin);
		gt_free(s->hubs);
		gt_free(s->vias);
		gt_free(s);
	}
	e->shared_cells = NULL, e->cell_begin = NULL, e->hubs = NULL, e->vias = NULL;
}

void gt_ehl_free_arrays(gtEhl* e)
{
	gt_free(e->points); // never in a file mapping
	gt_free(e->links);
	gt_free(e->end_gap);
	gt_free(e->short_links);
	e->points = NULL;
	e->links = NULL;
	e->end_gap = NULL;
	e->short_links = NULL;
	if (e->mapping) {
		gt_unmap_file(e->mapping, e->mapping_bytes);
	} else {
		gt_free(e->label_offset);
		gt_free(e->label_hub);
		gt_free(e->label_parent);
		gt_free(e->label_dist);
		gt_free(e->vertex_of);
		if (e->shared_cells) {
			release_cells(e);
		} else {
			gt_free(e->cell_begin);
			gt_free(e->hubs);
			gt_free(e->vias);
		}
		gt_free(e->region_of);
		gt_free(e->cvias);
		gt_free(e->inv_offset);
		gt_free(e->inv_vertex);
		gt_free(e->inv_entry);
	}
	gt_ehl_drop_repair_data(e);
}

void gt_ehl_drop_repair_data(gtEhl* e)
{
	gt_free(e->tuple_begin);
	gt_free(e->tuple_vertex);
	gt_free(e->cell_full);
	gt_free(e->edge_free);
	if (e->hub_labels) { // freed here: a program that only loads indexes does not link the builder
		gtHubLabels* L = e->hub_labels;
		gt_free(L->rank_of);
		gt_free(L->vertex_of);
		gt_free(L->offset);
		gt_free(L->hub);
		gt_free(L->parent);
		gt_free(L->dist);
		gt_free(L->useful);
		gt_free(L);
	}
	e->tuple_begin = NULL, e->tuple_vertex = NULL, e->cell_full = NULL, e->edge_free = NULL, e->hub_labels = NULL;
}

void gtEhl_Destroy(gtEhl* ehl)
{
	if (!ehl) return;
	gt_ehl_free_arrays(ehl);
	gt_free(ehl);
}

int64_t gt_ehl_cell_bytes(const gtEhl* e)
{
	return (int64_t)((size_t)(e->cell_count + 1) * sizeof *e->cell_begin + (size_t)e->hub_count * sizeof *e->hubs +
	                 (size_t)e->via_count * (e->cvias ? sizeof *e->cvias : sizeof *e->vias));
}

const void* gt_ehl_cells_id(const gtEhl* e)
{
	return e->shared_cells;
}

int64_t gt_ehl_index_bytes(const gtEhl* e)
{
	return (int64_t)((size_t)(e->n + 1) * sizeof *e->label_offset + (size_t)e->label_count * 16 +
	                 (size_t)e->n * sizeof *e->vertex_of + (size_t)gt_ehl_cell_bytes(e) +
	                 (e->cvias ? (size_t)(e->n + 1) * 4 + (size_t)e->label_count * 8 : 0) +
	                 (e->region_of ? (size_t)e->columns * (size_t)e->rows * gt_ehl_region_id_bytes(e) : 0));
}

// Inverse entries i, j of one hub in (distance, vertex) order.
static bool inverse_before(const gtEhl* e, uint32_t i, uint32_t j)
{
	double a = e->label_dist[e->inv_entry[i]], b = e->label_dist[e->inv_entry[j]];
	return a != b ? a < b : e->inv_vertex[i] < e->inv_vertex[j];
}

static void inverse_swap(gtEhl* e, uint32_t i, uint32_t j)
{
	uint32_t v = e->inv_vertex[i], k = e->inv_entry[i];
	e->inv_vertex[i] = e->inv_vertex[j], e->inv_entry[i] = e->inv_entry[j];
	e->inv_vertex[j] = v, e->inv_entry[j] = k;
}

static void sift_down(gtEhl* e, uint32_t first, uint32_t at, uint32_t end)
{
	for (uint32_t child; (child = 2 * at + 1) < end; at = child) {
		if (child + 1 < end && inverse_before(e, first + child, first + child + 1)) child++;
		if (!inverse_before(e, first + at, first + child)) break;
		inverse_swap(e, first + at, first + child);
	}
}

// Heap sort of the inverse entries [first, first + count) in place: no scratch beside the arrays
// (a big map's labels are tens of millions of entries).
static void sort_inverse(gtEhl* e, uint32_t first, uint32_t count)
{
	for (uint32_t root = count / 2; root-- > 0;) sift_down(e, first, root, count);
	for (uint32_t end = count; end > 1;) {
		inverse_swap(e, first, first + --end);
		sift_down(e, first, 0, end);
	}
}

bool gt_ehl_inverse_labels(gtEhl* e, bool* fits, uint32_t** place_of)
{
	*fits = false;
	*place_of = NULL;
	size_t labels = (size_t)e->label_count;
	uint32_t* offset = gt_calloc((size_t)e->n + 2, sizeof *offset);
	if (!offset) return false;
	for (size_t k = 0; k < labels; k++) offset[e->label_hub[k] + 2]++;
	for (int h = 0; h < e->n; h++)
		if (offset[h + 2] > GT_EHL_COMPACT_PLACES) {
			gt_free(offset);
			return true; // too long for a 15-bit place
		}
	for (int h = 0; h < e->n; h++) offset[h + 2] += offset[h + 1];
	uint32_t* place = gt_malloc((labels + 1) * sizeof *place);
	e->inv_vertex = gt_malloc((labels + 1) * sizeof *e->inv_vertex);
	e->inv_entry = gt_malloc((labels + 1) * sizeof *e->inv_entry);
	if (!place || !e->inv_vertex || !e->inv_entry) {
		gt_free(offset), gt_free(place);
		gt_free(e->inv_vertex), gt_free(e->inv_entry);
		e->inv_vertex = e->inv_entry = NULL;
		return false;
	}
	for (int v = 0; v < e->n; v++) // offset[h + 1] is where hub h's next entry goes
		for (uint32_t k = e->label_offset[v]; k < e->label_offset[v + 1]; k++) {
			uint32_t at = offset[e->label_hub[k] + 1]++;
			e->inv_vertex[at] = (uint32_t)v, e->inv_entry[at] = k;
		}
	for (int h = 0; h < e->n; h++) {
		sort_inverse(e, offset[h], offset[h + 1] - offset[h]);
		for (uint32_t i = offset[h]; i < offset[h + 1]; i++) place[e->inv_entry[i]] = i - offset[h];
	}
	e->inv_offset = offset; // n + 2 allocated, n + 1 used
	*fits = true;
	*place_of = place;
	return true;
}

gtEhlDef gtEhl_DefaultDef(void)
{
	gtEhlDef def = {4, 0, 0, NULL, NULL, NULL, 0, false, NULL, 0, false};
	return def;
}

gtEhlStats gtEhl_GetStats(const gtEhl* ehl)
{
	return ehl->stats;
}

int64_t gtEhl_SharedBytes(const gtEhl* ehl)
{
	// Shared now, not when built: the other holders may have gone since (or come, by a repair).
	struct gtEhlSharedCells* shared = ehl->shared_cells;
	return shared && atomic_load_explicit(&shared->refs, memory_order_relaxed) > 1 ? gt_ehl_cell_bytes(ehl) : 0;
}

int64_t gt_ehl_label_entry(const gtEhl* e, int v, int32_t hub)
{
	uint32_t lo = e->label_offset[v], hi = e->label_offset[v + 1], want = (uint32_t)hub;
	while (lo < hi) { // entries are sorted by hub rank
		uint32_t mid = lo + (hi - lo) / 2;
		if (e->label_hub[mid] < want) lo = mid + 1;
		else hi = mid;
	}
	return lo < e->label_offset[v + 1] && e->label_hub[lo] == want ? (int64_t)lo : -1;
}

void gtEhl_GridSize(const gtEhl* ehl, int* columns, int* rows)
{
	*columns = ehl->columns;
	*rows = ehl->rows;
}

int64_t gtEhl_CellVias(const gtEhl* ehl, int64_t cell, gtEhlVia* vias, int64_t capacity)
{
	if (ehl->region_of) { // a grid cell stands for its region
		if (cell < 0 || cell >= (int64_t)ehl->columns * ehl->rows) return -1;
		cell = ehl->narrow_regions ? ehl->region16[cell] : ehl->region_of[cell];
	}
	if (cell < 0 || cell >= ehl->cell_count) return -1;
	int64_t count = 0;
	for (uint32_t i = ehl->cell_begin[cell]; ehl->hubs[i].hub != (uint32_t)ehl->n; i++)
		for (uint32_t k = ehl->hubs[i].via_begin, more = 1; ehl->cvias ? more : k < ehl->hubs[i + 1].via_begin;
		     k++, count++) {
			if (ehl->cvias) more = !(ehl->cvias[k] & GT_EHL_COMPACT_LAST);
			if (count >= capacity) continue;
			gtEhlVia* out = &vias[count];
			out->hub_rank = ehl->hubs[i].hub;
			if (ehl->cvias) {
				uint32_t at = gt_cvia_entry(ehl, ehl->hubs[i].hub, ehl->cvias[k]);
				out->vertex = (int)ehl->inv_vertex[at];
				out->hub_distance = ehl->label_dist[ehl->inv_entry[at]];
				out->full = (ehl->cvias[k] & GT_EHL_COMPACT_FULL) != 0;
			} else {
				out->vertex = gt_via_vertex(&ehl->vias[k]);
				int64_t entry = gt_ehl_label_entry(ehl, out->vertex, out->hub_rank);
				out->hub_distance = entry >= 0 ? ehl->label_dist[entry] : INFINITY;
				out->full = gt_via_full(&ehl->vias[k]);
			}
			out->lower_bound = gt_hub_lower_bound(&ehl->hubs[i]);
		}
	return count;
}

void gt_ehl_count_stats(gtEhl* e)
{
	int64_t full_vias = 0;
	if (e->cvias) {
		for (int64_t i = 0; i < e->via_count; i++) full_vias += (e->cvias[i] & GT_EHL_COMPACT_FULL) != 0;
	} else { // FULL is the sign bit of the via's bits: a scan every build and repair ends with
		for (int64_t i = 0; i < e->via_count; i++) full_vias += gt_via_bits(&e->vias[i]) >> 31;
	}
	gt_ehl_set_stats(e, full_vias);
}

void gt_ehl_set_stats(gtEhl* e, int64_t full_vias)
{
	gtEhlStats* s = &e->stats;
	s->cell_size = e->g;
	s->convex_vertices = e->corners;
	s->useful_entries = e->label_count; // the index keeps only these
	s->cells = e->cell_count;
	s->regions = e->region_of ? e->cell_count : 0;
	s->hub_entries = e->hub_count - 1 - e->cell_count;
	s->via_labels = e->via_count;
	s->full_vias = full_vias;
	s->partial_vias = s->via_labels - s->full_vias;
	s->index_bytes = gt_ehl_index_bytes(e);
}
