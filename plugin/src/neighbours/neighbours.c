// The neighbour index: cells, points and their ids. Queries are in the other neighbours_*.c.
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "neighbours/neighbours_internal.h"

#define GENERATION_MASK ((1u << NB_GENERATION_BITS) - 1)

// Index tags, handed out round-robin: an id of another index (or a destroyed one) is stale until
// 2^NB_TAG_BITS more indexes were made.
static atomic_uint tag_cursor;

static gtStatus check_def(const gtNeighboursDef* def, gtError* err)
{
	if (!def) return gt_fail(err, GT_ERR_INVALID_ARG, "no neighbour index definition");
	if (def->dimensions != 2 && def->dimensions != 3)
		return gt_fail(err, GT_ERR_INVALID_ARG, "dimensions must be 2 or 3 (got %d)", def->dimensions);
	for (int i = 0; i < def->dimensions; i++)
		if (!(def->size[i] > 0) || !isfinite(def->size[i]))
			return gt_fail(err, GT_ERR_INVALID_ARG, "the world's size on axis %c must be positive and finite",
			               "xyz"[i]);
	if (def->wrap & ~((1u << def->dimensions) - 1))
		return gt_fail(err, GT_ERR_INVALID_ARG, "wrap names an axis the world does not have");
	if (!(def->cell >= 0) || !isfinite(def->cell))
		return gt_fail(err, GT_ERR_INVALID_ARG, "the cell side must be positive and finite (0: automatic)");
	if (def->capacity < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "capacity must be >= 0");
	return GT_OK;
}

// Cells per axis: each axis tiled exactly, cells no wider than asked (at least one).
static gtStatus lay_out_cells(gtNeighbours* nb, const gtNeighboursDef* def, gtError* err)
{
	double cell = def->cell;
	if (cell == 0) {
		cell = def->size[0];
		for (int i = 1; i < def->dimensions; i++)
			if (def->size[i] < cell) cell = def->size[i];
		cell /= 16;
	}
	int64_t total = 1;
	for (int i = 0; i < 3; i++) {
		bool used = i < def->dimensions;
		double cells = used ? ceil(def->size[i] / cell) : 1;
		if (!(cells <= GT_NEIGHBOURS_MAX_AXIS_CELLS))
			return gt_fail(err, GT_ERR_LIMIT, "%.0f cells on axis %c: at most %d (use a larger cell)", cells, "xyz"[i],
			               GT_NEIGHBOURS_MAX_AXIS_CELLS);
		nb->n[i] = cells < 1 ? 1 : (int)cells;
		nb->size[i] = used ? def->size[i] : 1;
		nb->side[i] = nb->size[i] / nb->n[i];
		nb->inv_side[i] = nb->n[i] / nb->size[i];
		nb->half[i] = (def->wrap >> i) & 1 ? nb->size[i] / 2 : INFINITY;
		nb->wrap_size[i] = (def->wrap >> i) & 1 ? nb->size[i] : INFINITY;
		nb->slack[i] = 1e-9 * nb->side[i];
		total *= nb->n[i];
	}
	if (total > GT_NEIGHBOURS_MAX_CELLS)
		return gt_fail(err, GT_ERR_LIMIT, "%lld cells: at most %d (use a larger cell)", (long long)total,
		               GT_NEIGHBOURS_MAX_CELLS);
	nb->cell_count = (int32_t)total;
	return GT_OK;
}

gtStatus gtNeighbours_Create(const gtNeighboursDef* def, gtNeighbours** out, gtError* err)
{
	if (!out) return gt_fail(err, GT_ERR_INVALID_ARG, "no place for the index");
	*out = NULL;
	gtStatus st = check_def(def, err);
	if (st) return st;
	gtNeighbours* nb = gt_calloc(1, sizeof *nb);
	if (!nb) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	nb->dims = def->dimensions;
	nb->wrap = def->wrap;
	nb->tasks = def->tasks;
	nb->free_head = -1;
	nb->pool = gt_pool_create(); // no threads until a batch needs them; NULL: threads per batch
	nb->costs = gtNeighbours_DefaultCosts();
	nb->tag = (atomic_fetch_add(&tag_cursor, 1u) & ((1u << NB_TAG_BITS) - 1)) << NB_GENERATION_BITS;
	st = lay_out_cells(nb, def, err);
	if (!st) {
		nb->head = gt_malloc((size_t)nb->cell_count * sizeof *nb->head);
		nb->load = gt_calloc((size_t)nb->cell_count, sizeof *nb->load);
		nb->nonempty = gt_malloc((size_t)nb->cell_count * sizeof *nb->nonempty);
		nb->nonempty_at = gt_malloc((size_t)nb->cell_count * sizeof *nb->nonempty_at);
		if (!nb->head || !nb->load || !nb->nonempty || !nb->nonempty_at || !nb_sphere_build(nb))
			st = gt_fail(err, GT_ERR_NOMEM, "out of memory for %d cells", nb->cell_count);
	}
	if (st) {
		gtNeighbours_Destroy(nb);
		return st;
	}
	for (int32_t c = 0; c < nb->cell_count; c++) nb->head[c] = nb->nonempty_at[c] = -1;
	*out = nb;
	return GT_OK;
}

void gtNeighbours_Destroy(gtNeighbours* nb)
{
	if (!nb) return;
	gt_free(nb->head);
	gt_free(nb->load);
	gt_free(nb->nonempty);
	gt_free(nb->nonempty_at);
	gt_free(nb->pos);
	gt_free(nb->cell);
	gt_free(nb->next);
	gt_free(nb->prev);
	gt_free(nb->high);
	gt_free(nb->dense);
	gt_free(nb->dense_at);
	gt_free(nb->sphere);
	gt_free(nb->packed_pos);
	gt_free(nb->packed_id);
	gt_free(nb->packed_row);
	gt_free(nb->row_of);
	gt_pool_destroy(nb->pool);
	gt_free(nb->cell_start);
	gt_free(nb);
}

void gtNeighbours_Cells(const gtNeighbours* nb, int cells[3], double sides[3])
{
	for (int i = 0; i < 3; i++) {
		if (cells) cells[i] = nb->n[i];
		if (sides) sides[i] = nb->side[i];
	}
}

int32_t gtNeighbours_Count(const gtNeighbours* nb)
{
	return nb->count;
}

int32_t gtNeighbours_NonEmptyCells(const gtNeighbours* nb)
{
	return nb->nonempty_count;
}

gtStatus nb_point_in(const gtNeighbours* nb, const double* p, double* dst, gtError* err)
{
	if (!p) return gt_fail(err, GT_ERR_INVALID_ARG, "no point");
	dst[2] = 0;
	for (int i = 0; i < nb->dims; i++) {
		double v = p[i];
		if (!isfinite(v)) return gt_fail(err, GT_ERR_INVALID_POINT, "coordinate %c is not a finite number", "xyz"[i]);
		if ((nb->wrap >> i) & 1) {
			v = fmod(v, nb->size[i]);
			if (v < 0) v += nb->size[i];
			if (v >= nb->size[i]) v = 0; // -tiny + size rounds up to size
		} else if (v < 0 || v > nb->size[i])
			return gt_fail(err, GT_ERR_INVALID_POINT,
			               "coordinate %c = %g is outside the world [0, %g] (axis not cyclic)", "xyz"[i], v,
			               nb -> size[i]);
		dst[i] = v;
	}
	return GT_OK;
}

// ---- slots ------------------------------------------------------------------------------------

static bool grow_slots(gtNeighbours* nb, int32_t want)
{
	const int32_t most = (int32_t)NB_SLOT_MASK;
	if (nb->capacity >= most) return false;
	int32_t cap = nb->capacity ? (nb->capacity > most / 2 ? most : nb->capacity * 2) : 64;
	if (cap < want) cap = want < most ? want : most;
	if (!GT_RESIZE(nb->pos, cap) || !GT_RESIZE(nb->cell, cap) || !GT_RESIZE(nb->next, cap) ||
	    !GT_RESIZE(nb->prev, cap) || !GT_RESIZE(nb->high, cap) || !GT_RESIZE(nb->dense, cap) ||
	    !GT_RESIZE(nb->dense_at, cap))
		return false;
	for (int32_t s = cap - 1; s >= nb->capacity; s--) { // lowest slot first off the free list
		nb->high[s] = nb->tag;                          // generation 0: free
		nb->next[s] = nb->free_head;
		nb->free_head = s;
	}
	nb->capacity = cap;
	return true;
}

static int32_t slot_of_valid(const gtNeighbours* nb, gtNeighbourId id)
{
	uint32_t slot = (uint32_t)(id & NB_SLOT_MASK) - 1u;
	uint64_t high = id >> NB_SLOT_BITS;
	if (slot >= (uint32_t)nb->capacity || high > UINT32_MAX || !(high & 1) || nb->high[slot] != (uint32_t)high)
		return -1;
	return (int32_t)slot;
}

bool gtNeighbours_IsValid(const gtNeighbours* nb, gtNeighbourId id)
{
	return nb && slot_of_valid(nb, id) >= 0;
}

static gtStatus stale(gtNeighbourId id, gtError* err)
{
	return gt_fail(err, GT_ERR_INVALID_ARG, "point id %llu is stale (removed, or of another index)",
	               (unsigned long long)id);
}

static void link_cell(gtNeighbours* nb, int32_t s, int32_t c)
{
	nb->cell[s] = c;
	nb->prev[s] = -1;
	nb->next[s] = nb->head[c];
	if (nb->head[c] >= 0) nb->prev[nb->head[c]] = s;
	nb->head[c] = s;
	if (nb->load[c]++ == 0) {
		nb->nonempty_at[c] = nb->nonempty_count;
		nb->nonempty[nb->nonempty_count++] = c;
	}
}

static void unlink_cell(gtNeighbours* nb, int32_t s)
{
	int32_t c = nb->cell[s];
	if (nb->prev[s] >= 0) nb->next[nb->prev[s]] = nb->next[s];
	else nb->head[c] = nb->next[s];
	if (nb->next[s] >= 0) nb->prev[nb->next[s]] = nb->prev[s];
	if (--nb->load[c] == 0) { // the last non-empty cell takes its place
		int32_t at = nb->nonempty_at[c], last = nb->nonempty[--nb->nonempty_count];
		nb->nonempty[at] = last;
		nb->nonempty_at[last] = at;
		nb->nonempty_at[c] = -1;
	}
}

gtStatus gtNeighbours_Add(gtNeighbours* nb, const double* p, gtNeighbourId* id, gtError* err)
{
	if (!nb || !id) return gt_fail(err, GT_ERR_INVALID_ARG, "no index or no place for the id");
	*id = 0;
	double q[3];
	gtStatus st = nb_point_in(nb, p, q, err);
	if (st) return st;
	if (nb->free_head < 0 && !grow_slots(nb, 0))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %d points", nb->capacity * 2);
	int32_t s = nb->free_head;
	nb->free_head = nb->next[s];
	nb->high[s]++; // odd: alive
	memcpy(nb->pos[s].p, q, sizeof q);
	int c[3];
	nb_cell_of(nb, q, c);
	link_cell(nb, s, nb_cell_index(nb, c));
	nb->dense_at[s] = nb->count;
	nb->dense[nb->count++] = s;
	*id = nb_id_of(nb, s);
	return GT_OK;
}

gtStatus gtNeighbours_Move(gtNeighbours* nb, gtNeighbourId id, const double* p, gtError* err)
{
	if (!nb) return gt_fail(err, GT_ERR_INVALID_ARG, "no index");
	int32_t s = slot_of_valid(nb, id);
	if (s < 0) return stale(id, err);
	double q[3];
	gtStatus st = nb_point_in(nb, p, q, err);
	if (st) return st;
	memcpy(nb->pos[s].p, q, sizeof q);
	int c[3];
	nb_cell_of(nb, q, c);
	int32_t cell = nb_cell_index(nb, c);
	if (cell != nb->cell[s]) { // inside its cell a move is the copy above
		unlink_cell(nb, s);
		link_cell(nb, s, cell);
	}
	return GT_OK;
}

gtStatus gtNeighbours_Remove(gtNeighbours* nb, gtNeighbourId id, gtError* err)
{
	if (!nb) return gt_fail(err, GT_ERR_INVALID_ARG, "no index");
	int32_t s = slot_of_valid(nb, id);
	if (s < 0) return stale(id, err);
	unlink_cell(nb, s);
	int32_t at = nb->dense_at[s], last = nb->dense[--nb->count];
	nb->dense[at] = last;
	nb->dense_at[last] = at;
	if ((nb->high[s] & GENERATION_MASK) == GENERATION_MASK) {
		nb->high[s] = nb->tag; // generations spent: retired, never on the free list again
		return GT_OK;
	}
	nb->high[s]++; // even: free
	nb->next[s] = nb->free_head;
	nb->free_head = s;
	return GT_OK;
}

gtStatus gtNeighbours_Position(const gtNeighbours* nb, gtNeighbourId id, double p[3], gtError* err)
{
	if (!nb || !p) return gt_fail(err, GT_ERR_INVALID_ARG, "no index or no place for the point");
	int32_t s = slot_of_valid(nb, id);
	if (s < 0) return stale(id, err);
	memcpy(p, nb->pos[s].p, 3 * sizeof *p);
	return GT_OK;
}

int32_t gtNeighbours_List(const gtNeighbours* nb, gtNeighbourId* ids, int32_t capacity)
{
	int32_t n = 0;
	for (int32_t s = 0; s < nb->capacity && n < capacity; s++)
		if (nb->high[s] & 1) ids[n++] = nb_id_of(nb, s);
	return n;
}
