// One query: its checks, the method that runs it, and Auto's cost model (the paper's section 6:
// each method's cost from the query distance, the cell load, the world size and the non-empty
// cells, weighted by factors calibrated on this machine).
#include <string.h>

#include "core/status.h"
#include "neighbours/neighbours_internal.h"

static const char* const METHOD_NAMES[GT_NEIGHBOURS_METHOD_COUNT] = {"auto", "sphere", "cube", "nonempty", "brute"};

const char* gtNeighbourMethod_Name(gtNeighbourMethod method)
{
	return (unsigned)method < GT_NEIGHBOURS_METHOD_COUNT ? METHOD_NAMES[method] : "?";
}

bool gtNeighbourMethod_Parse(const char* name, gtNeighbourMethod* method)
{
	for (int m = 0; name && m < GT_NEIGHBOURS_METHOD_COUNT; m++)
		if (strcmp(name, METHOD_NAMES[m]) == 0) {
			*method = (gtNeighbourMethod)m;
			return true;
		}
	return false;
}

gtNeighbourCosts gtNeighbours_DefaultCosts(void)
{
	// Fitted by `gridtree bench-neighbours --calibrate` on the development machine (2 shared cores,
	// release build): the paper's benchmark in 3D and 2D, open and wrapping (docs/neighbours.md).
	return (gtNeighbourCosts){
	    .setup = {0, 227, 205, 7060, 239},
	    .cell = {0, 9.76, 2.59, 15.8, 0},
	    .point = {0, 5.96, 5.25, 13.5, 2.17},
	    .answer = {0, 4.15, 8.56, 0, 22.9},
	};
}

gtStatus gtNeighbours_SetCosts(gtNeighbours* nb, const gtNeighbourCosts* costs, gtError* err)
{
	if (!nb) return gt_fail(err, GT_ERR_INVALID_ARG, "no index");
	if (!costs) {
		nb->costs = gtNeighbours_DefaultCosts();
		atomic_store_explicit(&nb->auto_cache, 0, memory_order_relaxed);
		return GT_OK;
	}
	for (int m = 0; m < GT_NEIGHBOURS_METHOD_COUNT; m++)
		if (!(costs->setup[m] >= 0) || !(costs->cell[m] >= 0) || !(costs->point[m] >= 0) || !(costs->answer[m] >= 0) ||
		    !isfinite(costs->setup[m] + costs->cell[m] + costs->point[m] + costs->answer[m]))
			return gt_fail(err, GT_ERR_INVALID_ARG, "the %s method's costs must be finite and >= 0",
			               gtNeighbourMethod_Name((gtNeighbourMethod)m));
	nb->costs = *costs;
	atomic_store_explicit(&nb->auto_cache, 0, memory_order_relaxed);
	return GT_OK;
}

// Expected length of [q - r, q + r] inside the world along an axis, q uniform.
static double overlap(const gtNeighbours* nb, int i, double r)
{
	double L = nb->size[i];
	if (nb->half[i] != INFINITY) return 2 * r < L ? 2 * r : L;
	return r >= L ? L : 2 * r - r * r / L;
}

// Sphere entries with a bound within r (binary search of the sorted table).
static double sphere_entries(const gtNeighbours* nb, double r)
{
	if (r == INFINITY) return (double)nb->sphere_count + nb->nonempty_count;
	double r2 = r * r;
	int64_t lo = 0, hi = nb->sphere_count;
	while (lo < hi) {
		int64_t mid = (lo + hi) / 2;
		if (nb->sphere[mid].bound2 <= r2) lo = mid + 1;
		else hi = mid;
	}
	return (double)lo + (r2 >= nb->sphere_complete2 ? nb->nonempty_count : 0);
}

// Cells of the world a box of half-side r touches.
static double box_cells(const gtNeighbours* nb, double r)
{
	double cells = 1;
	for (int i = 0; i < nb->dims; i++) {
		double c = r == INFINITY ? nb->n[i] : overlap(nb, i, r) * nb->inv_side[i] + 1;
		cells *= c < nb->n[i] ? c : nb->n[i];
	}
	return cells;
}

// Of the sphere's entries within r, the share inside the world (offsets beyond an open axis
// cost a test and hold nothing).
static double inside_share(const gtNeighbours* nb, double r)
{
	double share = 1;
	for (int i = 0; i < nb->dims && r != INFINITY; i++)
		if (nb->half[i] == INFINITY) {
			double span = 2 * r + nb->side[i], in = overlap(nb, i, r + nb->side[i] / 2);
			if (in < span) share *= in / span;
		}
	return share;
}

// The points expected within r of a query (uniform points): the ball's volume, cut by open axes
// (the share of [q - r, q + r] inside the world) and by cyclic ones shorter than 2r.
static double expected_within(const gtNeighbours* nb, double r, double volume)
{
	if (r == INFINITY || nb->count == 0) return nb->count;
	const double pi = 3.14159265358979323846;
	double ball = nb->dims == 2 ? pi * r * r : 4 * pi / 3 * r * r * r;
	for (int i = 0; i < nb->dims; i++)
		if (r > 0) ball *= overlap(nb, i, r) / (2 * r);
	double within = ball / volume * nb->count;
	return within < nb->count ? within : nb->count;
}

static gtNeighbourMethod estimate_costs(const gtNeighbours* nb, double radius, int k, double* estimate);

// Auto's inputs hashed into the bits above the method's 3 (never 0).
static uint64_t auto_key(const gtNeighbours* nb, double radius, int k)
{
	uint64_t bits;
	memcpy(&bits, &radius, sizeof bits);
	uint64_t h = bits * 0x9E3779B97F4A7C15ull;
	h = (h ^ (h >> 29) ^ (uint64_t)(uint32_t)k) * 0xBF58476D1CE4E5B9ull;
	h = (h ^ (h >> 31) ^ ((uint64_t)(uint32_t)nb->count << 32) ^ (uint64_t)(uint32_t)nb->nonempty_count) *
	    0x94D049BB133111EBull;
	return (h ^ (h >> 29)) << 3 | 8;
}

gtNeighbourMethod nb_choose(const gtNeighbours* nb, double radius, int k, double* estimate)
{
	uint64_t key = auto_key(nb, radius, k);
	uint64_t seen = atomic_load_explicit(&((gtNeighbours*)nb)->auto_cache, memory_order_relaxed);
	if ((seen | 7) == (key | 7)) return (gtNeighbourMethod)(seen & 7); // the estimates stay 0
	gtNeighbourMethod best = estimate_costs(nb, radius, k, estimate);
	atomic_store_explicit(&((gtNeighbours*)nb)->auto_cache, (key & ~(uint64_t)7) | (uint64_t)best,
	                      memory_order_relaxed);
	return best;
}

static gtNeighbourMethod estimate_costs(const gtNeighbours* nb, double radius, int k, double* estimate)
{
	double n = nb->count, load = n / nb->cell_count, volume = 1;
	for (int i = 0; i < nb->dims; i++) volume *= nb->size[i];
	double reach = radius; // how far the sphere walks before its early stop
	if (k > 0 && n > 0) {
		const double pi = 3.14159265358979323846;
		double ball = nb->dims == 2 ? pi : 4 * pi / 3;
		double rk = pow((k + 1) * volume / (n * ball), 1.0 / nb->dims);
		if (rk < reach) reach = rk;
	}
	double walked = sphere_entries(nb, reach), inside = walked * inside_share(nb, reach);
	if (inside > nb->cell_count) inside = nb->cell_count;
	double cube = box_cells(nb, radius);
	double cells[GT_NEIGHBOURS_METHOD_COUNT] = {0, walked, cube, nb->nonempty_count, 0};
	double points[GT_NEIGHBOURS_METHOD_COUNT] = {0, inside * load, cube * load, inside * load, n};
	if (k > 0) points[GT_NEIGHBOURS_NONEMPTY] *= 2; // its limit shrinks in no particular order
	// Answers cost every method alike in time but not in the fit: without this term a grid
	// method's point weight carries them, and brute force looks cheap at large radii.
	double answers = expected_within(nb, radius, volume);
	if (k > 0 && answers > k) answers = k;
	gtNeighbourMethod best = GT_NEIGHBOURS_SPHERE;
	for (int m = GT_NEIGHBOURS_SPHERE; m < GT_NEIGHBOURS_METHOD_COUNT; m++) {
		double p = points[m] < n ? points[m] : n;
		estimate[m] = nb->costs.setup[m] + nb->costs.cell[m] * cells[m] + nb->costs.point[m] * p +
		              nb->costs.answer[m] * answers;
		if (estimate[m] < estimate[best]) best = (gtNeighbourMethod)m;
	}
	estimate[GT_NEIGHBOURS_AUTO] = estimate[best];
	return best;
}

gtStatus nb_run(const gtNeighbours* nb, gtNeighbourMethod method, NbAnswer* a, bool sort, int* found, gtError* err)
{
	switch (method) {
	case GT_NEIGHBOURS_SPHERE: nb_query_sphere(nb, a); break;
	case GT_NEIGHBOURS_CUBE: nb_query_cube(nb, a); break;
	case GT_NEIGHBOURS_NONEMPTY: nb_query_nonempty(nb, a); break;
	default: nb_query_brute(nb, a); break;
	}
	nb_answer_finish(a, sort);
	*found = a->n;
	if (a->want_all && a->total > a->n) {
		*found = a->total > INT32_MAX ? INT32_MAX : (int)a->total;
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "%lld points qualify, the buffer holds %d", (long long)a->total,
		               a->room);
	}
	if (a->overflow)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "more than %d points qualify (k = %d), the buffer holds %d",
		               a->room, a->k, a->room);
	return GT_OK;
}

gtStatus nb_check_query(const gtNeighbours* nb, double radius, int k, gtNeighbourMethod method, gtError* err)
{
	if (!nb) return gt_fail(err, GT_ERR_INVALID_ARG, "no index");
	if ((unsigned)method >= GT_NEIGHBOURS_METHOD_COUNT)
		return gt_fail(err, GT_ERR_INVALID_ARG, "unknown neighbour method %d", (int)method);
	if (!(radius >= 0)) return gt_fail(err, GT_ERR_INVALID_ARG, "the radius must be >= 0 (INFINITY: no radius)");
	if (k < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "k must be >= 0 (0: every point within the radius)");
	return GT_OK;
}

gtStatus gtNeighbours_Query(const gtNeighbours* nb, const gtNeighbourQuery* query, gtNeighbourMethod method,
                            gtNeighbour* out, int capacity, int* found, gtNeighbourStats* stats, gtError* err)
{
	if (!found || !query) return gt_fail(err, GT_ERR_INVALID_ARG, "no query or no place for the count");
	*found = 0;
	gtStatus st = nb_check_query(nb, query->radius, query->k, method, err);
	if (st) return st;
	if (capacity < 0 || (capacity > 0 && !out)) return gt_fail(err, GT_ERR_INVALID_ARG, "bad output buffer");
	double q[3];
	st = nb_point_in(nb, query->point, q, err);
	if (st) return st;
	gtNeighbourStats local;
	if (!stats) stats = &local;
	memset(stats, 0, sizeof *stats);
	if (method == GT_NEIGHBOURS_AUTO) method = nb_choose(nb, query->radius, query->k, stats->estimate);
	stats->method = method;
	NbAnswer a;
	nb_answer_begin(&a, nb, q, query->radius, query->k, query->exclude, out, capacity);
	st = nb_run(nb, method, &a, !query->unordered, found, err);
	stats->cells_visited = a.cells;
	stats->points_tested = a.tested;
	return st;
}
