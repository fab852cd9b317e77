// The query sphere (Brodu 2007): every cell offset sorted by the smallest distance between a point
// of the query's cell and one of the offset cell, built once per index. A query walks it outwards
// and stops at the first offset farther than its radius or its k-th answer so far.
#include <stdlib.h>

#include "core/alloc.h"
#include "neighbours/neighbours_internal.h"

// Entries kept at most (16 bytes each): a larger grid keeps the nearest offsets, and a query
// reaching beyond them finishes with the non-empty cells.
#define SPHERE_MAX_ENTRIES (1 << 19)

double nb_offset_bound2(const gtNeighbours* nb, const int* o)
{
	double sum = 0;
	for (int i = 0; i < 3; i++) {
		int a = abs(o[i]);
		if (a <= 1) continue; // neighbouring cells touch
		double g = (a - 1) * nb->side[i] - nb->slack[i];
		sum += g * g;
	}
	return sum;
}

static double offset_far2(const gtNeighbours* nb, const int* o)
{
	double sum = 0;
	for (int i = 0; i < 3; i++) {
		double g = (abs(o[i]) + 1) * nb->side[i];
		sum += g * g;
	}
	return sum;
}

// Offsets along an axis: a cyclic axis reaches each cell once, the shorter way round; an open one
// reaches every cell from any cell (the "outside" ones are skipped at query time).
static void axis_range(const gtNeighbours* nb, int i, int* lo, int* hi)
{
	int n = nb->n[i];
	if ((nb->wrap >> i) & 1) {
		*lo = -((n - 1) / 2);
		*hi = n / 2;
	} else {
		*lo = -(n - 1);
		*hi = n - 1;
	}
}

static int by_bound(const void* a, const void* b)
{
	const NbOffset *x = a, *y = b;
	return (x->bound2 > y->bound2) - (x->bound2 < y->bound2);
}

bool nb_sphere_build(gtNeighbours* nb)
{
	int lo[3], hi[3];
	int64_t total = 1;
	for (int i = 0; i < 3; i++) {
		axis_range(nb, i, &lo[i], &hi[i]);
		total *= hi[i] - lo[i] + 1;
	}
	nb->sphere_complete2 = INFINITY;
	if (total > SPHERE_MAX_ENTRIES) { // keep the box |o| <= h; outside it every bound is >= complete2
		int h = 1;
		for (;; h++) {
			int64_t t = 1;
			for (int i = 0; i < 3; i++) t *= (hi[i] < h ? hi[i] : h) - (lo[i] > -h ? lo[i] : -h) + 1;
			if (t > SPHERE_MAX_ENTRIES) break;
		}
		h--;
		total = 1;
		for (int i = 0; i < 3; i++) {
			if (hi[i] > h || lo[i] < -h) {
				int o[3] = {0, 0, 0};
				o[i] = h + 1;
				double b = nb_offset_bound2(nb, o);
				if (b < nb->sphere_complete2) nb->sphere_complete2 = b;
			}
			if (hi[i] > h) hi[i] = h;
			if (lo[i] < -h) lo[i] = -h;
			total *= hi[i] - lo[i] + 1;
		}
	}
	nb->sphere = gt_malloc((size_t)total * sizeof *nb->sphere);
	if (!nb->sphere) return false;
	int64_t n = 0;
	for (int z = lo[2]; z <= hi[2]; z++)
		for (int y = lo[1]; y <= hi[1]; y++)
			for (int x = lo[0]; x <= hi[0]; x++) {
				int o[3] = {x, y, z};
				double b = nb_offset_bound2(nb, o);
				if (b >= nb->sphere_complete2) continue; // the fallback visits it
				nb->sphere[n++] = (NbOffset){b, offset_far2(nb, o), {(int16_t)x, (int16_t)y, (int16_t)z}};
			}
	qsort(nb->sphere, (size_t)n, sizeof *nb->sphere, by_bound);
	nb->sphere_count = n;
	return true;
}

// Cells beyond the table: the non-empty ones whose offset was left out of it.
static void sphere_fallback(const gtNeighbours* nb, NbAnswer* a)
{
	int n01 = nb->n[0] * nb->n[1];
	for (int32_t j = 0; j < nb->nonempty_count; j++) {
		int32_t cell = nb->nonempty[j];
		int c[3] = {cell % nb->n[0], (cell / nb->n[0]) % nb->n[1], cell / n01}, o[3];
		for (int i = 0; i < 3; i++) {
			int lo, hi;
			axis_range(nb, i, &lo, &hi);
			o[i] = c[i] - a->c[i];
			if (o[i] > hi) o[i] -= nb->n[i];
			if (o[i] < lo) o[i] += nb->n[i];
		}
		if (nb_offset_bound2(nb, o) < nb->sphere_complete2) continue; // walked already
		if (nb_cell_gap2(nb, c, a->q) > a->limit2) continue;
		nb_scan_cell(nb, cell, a);
	}
}

// The squared distance from the query to an offset cell, from where the query sits in its own
// cell (the paper's 4.1, tested at run time instead of its 64 tables).
static inline double offset_gap2(const gtNeighbours* nb, const int16_t* o, const double* below, const double* above)
{
	double sum = 0;
	for (int i = 0; i < 3; i++) {
		int a = o[i];
		if (a == 0) continue;
		double base = (abs(a) - 1) * nb->side[i], g = base + (a > 0 ? above[i] : below[i]);
		if (2 * a == nb->n[i] && nb->half[i] != INFINITY && base + below[i] < g) g = base + below[i]; // both ways round
		g -= nb->slack[i];
		if (g > 0) sum += g * g;
	}
	return sum;
}

// Offsets walked with per-axis tables: an offset's cell is three lookups and two adds (the
// paper's packed offsets, for any number of cells), a cell beyond an open axis negative.
enum { TABLE_REACH = 256, OUTSIDE = -(1 << 29) };

static bool axis_tables(const gtNeighbours* nb, const NbAnswer* a, int32_t (*t)[2 * TABLE_REACH + 1], int* reach)
{
	int32_t stride = 1;
	for (int i = 0; i < 3; i++) {
		int lo, hi;
		axis_range(nb, i, &lo, &hi);
		int most = -lo > hi ? -lo : hi;
		double cells = a->limit2 == INFINITY ? most : sqrt(a->limit2) * nb->inv_side[i] + 2;
		reach[i] = cells < most ? (int)cells : most;
		if (reach[i] > TABLE_REACH) return false;
		for (int o = -reach[i]; o <= reach[i]; o++) {
			int v = a->c[i] + o;
			if (v < 0 || v >= nb->n[i]) {
				if (nb->half[i] == INFINITY) v = OUTSIDE / stride;
				else v += v < 0 ? nb->n[i] : -nb->n[i];
			}
			t[i][o + reach[i]] = v * stride;
		}
		stride *= nb->n[i];
	}
	return true;
}

void nb_query_sphere(const gtNeighbours* nb, NbAnswer* a)
{
	double below[3], above[3]; // the query's distances to its cell's faces
	for (int i = 0; i < 3; i++) {
		below[i] = a->q[i] - a->c[i] * nb->side[i];
		if (below[i] < 0) below[i] = 0;
		above[i] = nb->side[i] - below[i];
		if (above[i] < 0) above[i] = 0;
	}
	int32_t t[3][2 * TABLE_REACH + 1];
	int reach[3];
	bool tables = axis_tables(nb, a, t, reach);
	const NbOffset* e = nb->sphere;
	const NbOffset* end = e + nb->sphere_count;
	for (; e < end; e++) {
		if (e->bound2 > a->limit2) return; // and every later offset, and the fallback's cells
		int32_t cell;
		if (tables) { // the offsets within the radius are within reach
			cell = t[0][e->o[0] + reach[0]] + t[1][e->o[1] + reach[1]] + t[2][e->o[2] + reach[2]];
			if (cell < 0) continue; // beyond an open axis: no cell there
		} else {
			int c[3];
			bool outside = false;
			for (int i = 0; i < 3; i++) {
				int v = a->c[i] + e->o[i];
				if (v < 0 || v >= nb->n[i]) {
					if (nb->half[i] == INFINITY) outside = true;
					else v += v < 0 ? nb->n[i] : -nb->n[i];
				}
				c[i] = v;
			}
			if (outside) continue;
			cell = nb_cell_index(nb, c);
		}
		if (nb->head[cell] < 0) continue;
		if (e->far2 > a->limit2 && offset_gap2(nb, e->o, below, above) > a->limit2) continue;
		nb_scan_cell(nb, cell, a);
	}
	if (a->limit2 >= nb->sphere_complete2) sphere_fallback(nb, a);
}
