// The neighbour index's layout and the pieces every method shares: distances by minimum image,
// a cell's distance to the query, and the answer kept in the caller's buffer. Internal.
#ifndef GRIDTREE_NEIGHBOURS_INTERNAL_H
#define GRIDTREE_NEIGHBOURS_INTERNAL_H

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "core/task.h"
#include "gridtree/gt_neighbours.h"

#define NB_SLOT_BITS 24
#define NB_GENERATION_BITS 10
#define NB_TAG_BITS 19
#define NB_SLOT_MASK ((UINT64_C(1) << NB_SLOT_BITS) - 1)

typedef struct NbPoint {
	double p[3];
} NbPoint;

// One entry of the query sphere: a cell offset and the smallest squared distance between a point
// of the query's cell and one of the offset cell (shrunk a little so rounding never prunes a cell
// that holds an answer).
typedef struct NbOffset {
	double bound2;
	double far2; // the largest squared distance between the two cells: within the radius, no test
	int16_t o[3];
} NbOffset;

struct gtNeighbours {
	int dims;
	unsigned wrap;
	double size[3];
	double half[3];      // size / 2 on cyclic axes (the longest minimum-image gap), INFINITY on open ones
	double wrap_size[3]; // size on cyclic axes, INFINITY on open ones (the other way round)
	int n[3];            // cells per axis (1 on z in 2D)
	double side[3], inv_side[3];
	double slack[3]; // subtracted from cell gaps: rounding in cell_of never prunes a cell wrongly
	int32_t cell_count;
	const gtTaskSystem* tasks;
	uint32_t tag; // shifted into place above the generation
	bool owns_tag;

	// cells
	int32_t* head; // first slot of the cell's list, -1 when empty
	int32_t* load;
	int32_t* nonempty;    // the non-empty cells, any order
	int32_t* nonempty_at; // a cell's place in nonempty (-1 when empty)
	int32_t nonempty_count;

	// points, by slot
	int32_t capacity, count, free_head;
	NbPoint* pos;
	int32_t *cell, *next, *prev;
	uint32_t* high; // tag | generation; generation even: free
	int32_t* dense; // live slots, any order (brute force)
	int32_t* dense_at;

	// QueryAll's copy of the points sorted by cell (contiguous per cell; grown, never shrunk)
	NbPoint* packed_pos;
	gtNeighbourId* packed_id;
	int32_t* packed_row; // the entry's answer row in the batch (every point asking, in slot order)
	int32_t* row_of;     // by slot: its answer row, while a batch of every point runs
	int32_t* cell_start; // a non-empty cell's first entry in the copy (its count is load[cell])
	int32_t packed_room;
	// The copy is in cell-index order (then cell_start has an entry for every cell and one past the
	// last, and a row of cells is one stretch), made when the grid is small beside the points.
	bool packed_by_cell;
	gtPool* pool; // QueryAll's workers on the built-in pool, parked between calls

	// the query sphere, precomputed for these cells
	NbOffset* sphere;
	int64_t sphere_count;
	double sphere_complete2; // every cell with a smaller bound is in the table

	gtNeighbourCosts costs;
	// Auto's last choice: a hash of its inputs (radius, k, points, non-empty cells) above the
	// method's 3 bits. Queries run on many threads, so it is one relaxed atomic word; a stale or
	// colliding entry only costs speed, never an answer.
	_Atomic uint64_t auto_cache;
};

static inline gtNeighbourId nb_id_of(const gtNeighbours* nb, int32_t slot)
{
	return ((gtNeighbourId)nb->high[slot] << NB_SLOT_BITS) | (gtNeighbourId)(slot + 1);
}

// Squared distance the shorter way round on cyclic axes. Every method computes it with this one
// function, so their answers agree to the bit.
static inline double nb_dist2(const gtNeighbours* nb, const double* a, const double* b)
{
	double sum = 0;
	for (int i = 0; i < nb->dims; i++) {                            // z is 0 for every point in 2D
		double d = fabs(a[i] - b[i]), round = nb->wrap_size[i] - d; // exact (Sterbenz) where it wins
		d = round < d ? round : d; // no branch: random points would mispredict half the time
		sum += d * d;
	}
	return sum;
}

// The query's point, its cell and its answer so far, kept in the caller's buffer: appended while
// every point within the radius is wanted, a max-heap on (distance, id) once only the nearest are.
typedef struct NbAnswer {
	double q[3];
	int c[3]; // the query's cell
	gtNeighbourId exclude;
	gtNeighbour* out; // distances are squared until nb_answer_finish
	int room;         // entries the heap may hold: min(k, capacity), or capacity when k = 0
	int n;
	bool heap;
	bool want_all; // k = 0
	int k;
	bool overflow; // a point qualified with no room left (k > capacity)
	int64_t total; // k = 0: points within the radius
	double radius2;
	double limit2; // a point farther than this cannot enter
	int64_t cells, tested;
	bool packed; // scan QueryAll's copy sorted by cell instead of the cells' lists
} NbAnswer;

void nb_answer_push(NbAnswer* a, double d2, gtNeighbourId id);
void nb_answer_finish(NbAnswer* a, bool sort);

static inline void nb_offer(NbAnswer* a, double d2, gtNeighbourId id)
{
	if (d2 > a->limit2 || id == a->exclude) return;
	if (a->want_all && a->n < a->room) { // the common case, without a call
		a->total++;
		a->out[a->n++] = (gtNeighbour){id, d2};
		return;
	}
	nb_answer_push(a, d2, id);
}

// Offers every point of a cell.
static inline void nb_scan_cell(const gtNeighbours* nb, int32_t cell, NbAnswer* a)
{
	a->cells++;
	if (a->packed) { // the cell's points side by side in memory
		int32_t first = nb->cell_start[cell], end = first + nb->load[cell];
		for (int32_t i = first; i < end; i++) nb_offer(a, nb_dist2(nb, nb->packed_pos[i].p, a->q), nb->packed_id[i]);
		a->tested += end - first;
		return;
	}
	int64_t tested = 0; // counted here, not through `a` at every point
	for (int32_t s = nb->head[cell]; s >= 0; s = nb->next[s], tested++)
		nb_offer(a, nb_dist2(nb, nb->pos[s].p, a->q), nb_id_of(nb, s));
	a->tested += tested;
}

// A lower bound of the squared distance from the query's point to any point of cell (c0, c1, c2).
static inline double nb_cell_gap2(const gtNeighbours* nb, const int* c, const double* q)
{
	double sum = 0;
	for (int i = 0; i < 3; i++) {
		double lo = c[i] * nb->side[i], hi = lo + nb->side[i], g = 0;
		if (q[i] < lo) {
			g = lo - q[i];
			if (nb->half[i] != INFINITY && q[i] + nb->size[i] - hi < g) g = q[i] + nb->size[i] - hi;
		} else if (q[i] > hi) {
			g = q[i] - hi;
			if (nb->half[i] != INFINITY && lo + nb->size[i] - q[i] < g) g = lo + nb->size[i] - q[i];
		}
		g -= nb->slack[i];
		if (g > 0) sum += g * g;
	}
	return sum;
}

static inline int32_t nb_cell_index(const gtNeighbours* nb, const int* c)
{
	return ((int32_t)c[2] * nb->n[1] + c[1]) * nb->n[0] + c[0];
}

// The cell of a point inside the world.
static inline void nb_cell_of(const gtNeighbours* nb, const double* p, int* c)
{
	for (int i = 0; i < 3; i++) {
		int v = (int)(p[i] * nb->inv_side[i]);
		c[i] = v < 0 ? 0 : v >= nb->n[i] ? nb->n[i] - 1 : v;
	}
}

// The sphere table's bound for an offset (shared by the table and its fallback scan).
double nb_offset_bound2(const gtNeighbours* nb, const int* o);
bool nb_sphere_build(gtNeighbours* nb);

void nb_query_sphere(const gtNeighbours* nb, NbAnswer* a);
void nb_query_cube(const gtNeighbours* nb, NbAnswer* a);
void nb_query_nonempty(const gtNeighbours* nb, NbAnswer* a);
void nb_query_brute(const gtNeighbours* nb, NbAnswer* a);

// QueryAll of every point within a radius (k 0) by stretches of the copy (neighbours_pairs.c):
// whether the radius and the copy suit it, and the batch itself (after the copy by cell index
// with its rows is made).
bool nb_pairs_fit(const gtNeighbours* nb, double radius);
void nb_pairs_all(const gtNeighbours* nb, const gtNeighboursAll* all, int workers, gtNeighbourStats* stats);

// Checks and wraps a point into dst (3 doubles; z 0 in 2D).
gtStatus nb_point_in(const gtNeighbours* nb, const double* p, double* dst, gtError* err);

// Auto's choice for a radius and k, with its estimates (ns per query).
gtNeighbourMethod nb_choose(const gtNeighbours* nb, double radius, int k, double* estimate);

// Checks a query's radius, k and method.
gtStatus nb_check_query(const gtNeighbours* nb, double radius, int k, gtNeighbourMethod method, gtError* err);

// Runs one query with a concrete method (no checks) and sorts the answer; returns the status.
gtStatus nb_run(const gtNeighbours* nb, gtNeighbourMethod method, NbAnswer* a, bool sort, int* found, gtError* err);
void nb_answer_begin(NbAnswer* a, const gtNeighbours* nb, const double* q, double radius, int k, gtNeighbourId exclude,
                     gtNeighbour* out, int capacity);

#endif
