// The sphere's rivals: the bin-lattice cube, the non-empty cell list and brute force.
#include "neighbours/neighbours_internal.h"

// The cells overlapping [q - r, q + r] on one axis: first and last (wrapped at query time on a
// cyclic axis; the whole axis once the box covers it).
static void cube_range(const gtNeighbours* nb, int i, double q, double r, int* lo, int* hi)
{
	int n = nb->n[i];
	*lo = 0;
	*hi = n - 1;
	if (!(r < nb->size[i])) return;
	double a = floor((q - r - nb->slack[i]) * nb->inv_side[i]), b = floor((q + r + nb->slack[i]) * nb->inv_side[i]);
	if (nb->half[i] == INFINITY) {
		if (a > 0) *lo = (int)a;
		if (b < n - 1) *hi = (int)b;
	} else if (b - a + 1 < n) {
		*lo = (int)a;
		*hi = (int)b;
	}
}

static inline int wrapped(int v, int n)
{
	return v < 0 ? v + n : v >= n ? v - n : v;
}

void nb_query_cube(const gtNeighbours* nb, NbAnswer* a)
{
	double r = sqrt(a->radius2);
	int lo[3], hi[3];
	for (int i = 0; i < 3; i++) cube_range(nb, i, a->q[i], r, &lo[i], &hi[i]);
	for (int z = lo[2]; z <= hi[2]; z++) {
		int cz = wrapped(z, nb->n[2]);
		for (int y = lo[1]; y <= hi[1]; y++) {
			int32_t row = ((int32_t)cz * nb->n[1] + wrapped(y, nb->n[1])) * nb->n[0];
			for (int x = lo[0]; x <= hi[0]; x++) {
				int32_t cell = row + wrapped(x, nb->n[0]);
				if (nb->head[cell] >= 0) nb_scan_cell(nb, cell, a);
			}
		}
	}
}

void nb_query_nonempty(const gtNeighbours* nb, NbAnswer* a)
{
	int n01 = nb->n[0] * nb->n[1];
	for (int32_t j = 0; j < nb->nonempty_count; j++) {
		int32_t cell = nb->nonempty[j];
		int c[3] = {cell % nb->n[0], (cell / nb->n[0]) % nb->n[1], cell / n01};
		if (nb_cell_gap2(nb, c, a->q) > a->limit2) continue;
		nb_scan_cell(nb, cell, a);
	}
}

void nb_query_brute(const gtNeighbours* nb, NbAnswer* a)
{
	if (a->packed) {
		for (int32_t i = 0; i < nb->count; i++) nb_offer(a, nb_dist2(nb, nb->packed_pos[i].p, a->q), nb->packed_id[i]);
		a->tested += nb->count;
		a->cells++;
		return;
	}
	for (int32_t j = 0; j < nb->count; j++) {
		int32_t s = nb->dense[j];
		nb_offer(a, nb_dist2(nb, nb->pos[s].p, a->q), nb_id_of(nb, s));
	}
	a->tested += nb->count;
	a->cells++;
}
