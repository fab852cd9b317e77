// The Euclidean neighbour index (gt_neighbours.h): every method against an independent brute force
// by minimum image, in 2D and 3D, open, partly and fully cyclic, with ties, moves, removals and
// the all-at-once call.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "gridtree/gt_neighbours.h"

#define MAX_POINTS 700

typedef struct Scene {
	int dims;
	unsigned wrap;
	double size[3];
	gtNeighbours* nb;
	gtNeighbourId ids[MAX_POINTS];
	double pos[MAX_POINTS][3]; // wrapped, as the index stores them
	bool alive[MAX_POINTS];
	int count;
} Scene;

// The oracle's distance: the same arithmetic as the library's (so ties agree to the bit), written
// out again here.
static double oracle_dist2(const Scene* s, const double* a, const double* b)
{
	double sum = 0;
	for (int i = 0; i < 3; i++) {
		double d = fabs(a[i] - b[i]);
		if (((s->wrap >> i) & 1) && d > s->size[i] / 2) d = s->size[i] - d;
		sum += d * d;
	}
	return sum;
}

static int by_distance_then_id(const void* x, const void* y)
{
	const gtNeighbour *a = x, *b = y;
	if (a->distance != b->distance) return a->distance < b->distance ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

// Every live point within radius (k nearest when k > 0), sorted; returns the count.
static int oracle(const Scene* s, const double* q, double radius, int k, gtNeighbourId exclude, gtNeighbour* out)
{
	int n = 0;
	for (int i = 0; i < s->count; i++) {
		if (!s->alive[i] || s->ids[i] == exclude) continue;
		double d2 = oracle_dist2(s, s->pos[i], q);
		if (radius != INFINITY && d2 > radius * radius) continue;
		out[n++] = (gtNeighbour){s->ids[i], d2};
	}
	qsort(out, (size_t)n, sizeof *out, by_distance_then_id);
	if (k > 0 && n > k) n = k;
	for (int i = 0; i < n; i++) out[i].distance = sqrt(out[i].distance);
	return n;
}

static void wrap_point(const Scene* s, double* p)
{
	for (int i = 0; i < s->dims; i++)
		if ((s->wrap >> i) & 1) {
			p[i] = fmod(p[i], s->size[i]);
			if (p[i] < 0) p[i] += s->size[i];
			if (p[i] >= s->size[i]) p[i] = 0;
		}
}

// A coordinate: often on a coarse lattice, so points share positions and distances tie.
static double coordinate(gtRandom* rng, double size)
{
	if (gtRandom_Below(rng, 3) == 0) return floor(gtRandom_Unit(rng) * 8) * size / 8;
	return gtRandom_Unit(rng) * size;
}

static void random_point(const Scene* s, gtRandom* rng, double* p)
{
	p[2] = 0;
	for (int i = 0; i < s->dims; i++) p[i] = coordinate(rng, s->size[i]);
}

static void scene_make(Scene* s, int dims, unsigned wrap, double cell, gtRandom* rng)
{
	memset(s, 0, sizeof *s);
	s->dims = dims;
	s->wrap = wrap;
	for (int i = 0; i < dims; i++) s->size[i] = 5 + gtRandom_Unit(rng) * 40;
	gtNeighboursDef def = {.dimensions = dims, .wrap = wrap, .cell = cell};
	memcpy(def.size, s->size, sizeof def.size);
	gtError err;
	assert_int_equal(gtNeighbours_Create(&def, &s->nb, &err), GT_OK);
}

static void scene_add(Scene* s, const double* p)
{
	assert_true(s->count < MAX_POINTS);
	int i = s->count++;
	assert_int_equal(gtNeighbours_Add(s->nb, p, &s->ids[i], NULL), GT_OK);
	memcpy(s->pos[i], p, sizeof s->pos[i]);
	wrap_point(s, s->pos[i]);
	s->alive[i] = true;
}

static void fill(Scene* s, gtRandom* rng, int n)
{
	for (int i = 0; i < n; i++) {
		double p[3];
		if (s->count > 0 && gtRandom_Below(rng, 6) == 0) memcpy(p, s->pos[gtRandom_Below(rng, s->count)], sizeof p);
		else random_point(s, rng, p);
		scene_add(s, p);
	}
}

static const gtNeighbourMethod METHODS[] = {GT_NEIGHBOURS_AUTO, GT_NEIGHBOURS_SPHERE, GT_NEIGHBOURS_CUBE,
                                            GT_NEIGHBOURS_NONEMPTY, GT_NEIGHBOURS_BRUTE};

// One query by every method equals the oracle.
static void check_query(const Scene* s, const double* q, double radius, int k, gtNeighbourId exclude)
{
	static gtNeighbour sorted[MAX_POINTS], resorted[MAX_POINTS], got[MAX_POINTS];
	double wq[3] = {q[0], q[1], q[2]};
	wrap_point(s, wq);
	int n = oracle(s, wq, radius, k, exclude, sorted);
	// Unordered answers are compared after sorting by the distance as returned (two squared
	// distances may share a square root).
	memcpy(resorted, sorted, (size_t)n * sizeof *sorted);
	qsort(resorted, (size_t)n, sizeof *resorted, by_distance_then_id);
	for (size_t run = 0; run < 2 * sizeof METHODS / sizeof *METHODS; run++) {
		size_t m = run % (sizeof METHODS / sizeof *METHODS);
		bool unordered = run >= sizeof METHODS / sizeof *METHODS; // the same set, sorted here
		const gtNeighbour* want = unordered ? resorted : sorted;
		gtNeighbourQuery query = {{q[0], q[1], q[2]}, radius, k, exclude, unordered};
		int found = -1;
		gtNeighbourStats stats;
		gtError err;
		gtStatus st = gtNeighbours_Query(s->nb, &query, METHODS[m], got, MAX_POINTS, &found, &stats, &err);
		if (st) fail_msg("%s: %s", gtNeighbourMethod_Name(METHODS[m]), err.message);
		assert_true(stats.method != GT_NEIGHBOURS_AUTO);
		if (unordered) qsort(got, (size_t)found, sizeof *got, by_distance_then_id);
		if (found != n)
			fail_msg("%dD wrap %u %s r %g k %d: %d found, brute force %d", s->dims, s->wrap,
			         gtNeighbourMethod_Name(METHODS[m]), radius, k, found, n);
		for (int i = 0; i < n; i++)
			if (got[i].id != want[i].id || got[i].distance != want[i].distance)
				fail_msg("%dD wrap %u %s r %g k %d: entry %d is %llu at %.17g, brute force %llu at %.17g", s->dims,
				         s->wrap, gtNeighbourMethod_Name(METHODS[m]), radius, k, i, (unsigned long long)got[i].id,
				         got[i].distance, (unsigned long long)want[i].id, want[i].distance);
	}
}

static void random_queries(const Scene* s, gtRandom* rng, int count)
{
	const int ks[] = {0, 1, 2, 5, 17, 1000};
	for (int t = 0; t < count; t++) {
		double q[3];
		int pick = gtRandom_Below(rng, 4);
		if (pick == 0 && s->count > 0) memcpy(q, s->pos[gtRandom_Below(rng, s->count)], sizeof q); // on a point
		else random_point(s, rng, q);
		if (pick == 1) // beyond the world on cyclic axes: wrapped
			for (int i = 0; i < s->dims; i++)
				if ((s->wrap >> i) & 1) q[i] += (gtRandom_Below(rng, 5) - 2) * s->size[i];
		double biggest = s->size[0] > s->size[1] ? s->size[0] : s->size[1];
		double radii[] = {0,
		                  gtRandom_Unit(rng) * 2,
		                  gtRandom_Unit(rng) * biggest / 3,
		                  gtRandom_Unit(rng) * biggest * 2,
		                  INFINITY,
		                  biggest / 8};
		double r = radii[gtRandom_Below(rng, 6)];
		int k = ks[gtRandom_Below(rng, 6)];
		gtNeighbourId exclude = gtRandom_Below(rng, 4) == 0 && s->count ? s->ids[gtRandom_Below(rng, s->count)] : 0;
		check_query(s, q, r, k, exclude);
	}
}

static const unsigned WRAPS_2D[] = {0, GT_NEIGHBOURS_WRAP_X, GT_NEIGHBOURS_WRAP_Y,
                                    GT_NEIGHBOURS_WRAP_X | GT_NEIGHBOURS_WRAP_Y};
static const unsigned WRAPS_3D[] = {0, GT_NEIGHBOURS_WRAP_X, GT_NEIGHBOURS_WRAP_X | GT_NEIGHBOURS_WRAP_Z, 7};

static void test_every_method_equals_brute_force(void** state)
{
	(void)state;
	gtRandom rng = {33};
	static Scene s;
	for (int dims = 2; dims <= 3; dims++)
		for (int w = 0; w < 4; w++)
			for (int round = 0; round < 6; round++) {
				unsigned wrap = dims == 2 ? WRAPS_2D[w] : WRAPS_3D[w];
				double cells[] = {0, 0.7, 2.5, 6, 100}; // 100: one cell
				scene_make(&s, dims, wrap, cells[round % 5], &rng);
				fill(&s, &rng, 1 + gtRandom_Below(&rng, 400));
				random_queries(&s, &rng, 60);
				gtNeighbours_Destroy(s.nb);
			}
}

// Points and queries on cell borders and the world's edges, where rounding decides the cell.
static void test_borders_and_edges(void** state)
{
	(void)state;
	static Scene s;
	gtRandom rng = {7};
	for (unsigned wrap = 0; wrap < 4; wrap++) {
		scene_make(&s, 2, wrap, 1, &rng);
		s.size[0] = s.size[1] = 8; // replaced below with a world of exact cells
		gtNeighbours_Destroy(s.nb);
		gtNeighboursDef def = {.dimensions = 2, .size = {8, 8}, .wrap = wrap, .cell = 1};
		assert_int_equal(gtNeighbours_Create(&def, &s.nb, NULL), GT_OK);
		for (int y = 0; y <= 8; y++)
			for (int x = 0; x <= 8; x++) {
				double p[3] = {x, y, 0};
				if (((wrap & 1) && x == 8) || ((wrap & 2) && y == 8)) continue; // the same as 0 there
				scene_add(&s, p);
			}
		for (int t = 0; t < 200; t++) {
			double q[3] = {gtRandom_Below(&rng, 17) * 0.5, gtRandom_Below(&rng, 17) * 0.5, 0};
			double r = gtRandom_Below(&rng, 9) * 0.5;
			check_query(&s, q, r, gtRandom_Below(&rng, 4) * 3, 0);
		}
		gtNeighbours_Destroy(s.nb);
	}
}

// Moves inside and across cells and across the wrap, removals and re-insertions, stale handles.
static void test_moves_removals_and_stale_ids(void** state)
{
	(void)state;
	gtRandom rng = {99};
	static Scene s;
	for (int dims = 2; dims <= 3; dims++)
		for (int w = 0; w < 4; w++) {
			unsigned wrap = dims == 2 ? WRAPS_2D[w] : WRAPS_3D[w];
			scene_make(&s, dims, wrap, 0, &rng);
			fill(&s, &rng, 150);
			for (int step = 0; step < 12; step++) {
				for (int op = 0; op < 120; op++) {
					int i = gtRandom_Below(&rng, s.count);
					int kind = gtRandom_Below(&rng, 10);
					if (!s.alive[i]) {
						gtError err;
						double p[3] = {0, 0, 0};
						assert_int_equal(gtNeighbours_Move(s.nb, s.ids[i], p, &err), GT_ERR_INVALID_ARG);
						assert_int_equal(gtNeighbours_Remove(s.nb, s.ids[i], &err), GT_ERR_INVALID_ARG);
						assert_false(gtNeighbours_IsValid(s.nb, s.ids[i]));
						if (kind < 5 && s.count < MAX_POINTS) { // reinsert
							random_point(&s, &rng, p);
							scene_add(&s, p);
						}
						continue;
					}
					if (kind == 0) {
						assert_int_equal(gtNeighbours_Remove(s.nb, s.ids[i], NULL), GT_OK);
						s.alive[i] = false;
						continue;
					}
					double p[3];
					memcpy(p, s.pos[i], sizeof p);
					for (int a = 0; a < dims; a++) {
						double step_size = kind < 5 ? 0.3 : 6; // small steps stay in the cell mostly
						p[a] += (gtRandom_Unit(&rng) - 0.5) * step_size;
						if (!((wrap >> a) & 1)) p[a] = p[a] < 0 ? 0 : p[a] > s.size[a] ? s.size[a] : p[a];
					}
					assert_int_equal(gtNeighbours_Move(s.nb, s.ids[i], p, NULL), GT_OK);
					wrap_point(&s, p);
					memcpy(s.pos[i], p, sizeof p);
					double stored[3];
					assert_int_equal(gtNeighbours_Position(s.nb, s.ids[i], stored, NULL), GT_OK);
					for (int a = 0; a < 3; a++) assert_true(stored[a] == p[a]);
				}
				int live = 0;
				for (int i = 0; i < s.count; i++) live += s.alive[i];
				assert_int_equal(gtNeighbours_Count(s.nb), live);
				random_queries(&s, &rng, 25);
			}
			gtNeighbours_Destroy(s.nb);
		}
}

static void test_bad_input(void** state)
{
	(void)state;
	gtNeighbours* nb;
	gtError err;
	gtNeighboursDef def = {.dimensions = 4, .size = {10, 10, 10}};
	assert_int_equal(gtNeighbours_Create(&def, &nb, &err), GT_ERR_INVALID_ARG);
	def.dimensions = 2;
	def.size[1] = NAN;
	assert_int_equal(gtNeighbours_Create(&def, &nb, &err), GT_ERR_INVALID_ARG);
	def.size[1] = 10;
	def.wrap = GT_NEIGHBOURS_WRAP_Z;
	assert_int_equal(gtNeighbours_Create(&def, &nb, &err), GT_ERR_INVALID_ARG);
	def.wrap = 0;
	def.cell = 1e-6;
	assert_int_equal(gtNeighbours_Create(&def, &nb, &err), GT_ERR_LIMIT);
	def.cell = 1;
	def.wrap = GT_NEIGHBOURS_WRAP_X;
	assert_int_equal(gtNeighbours_Create(&def, &nb, &err), GT_OK);
	gtNeighbourId id, other;
	double nan_point[2] = {NAN, 1}, outside[2] = {1, 10.5}, wrapped[2] = {-3, 10}, inside[2] = {1, 1};
	assert_int_equal(gtNeighbours_Add(nb, nan_point, &id, &err), GT_ERR_INVALID_POINT);
	assert_int_equal(gtNeighbours_Add(nb, outside, &id, &err), GT_ERR_INVALID_POINT);
	assert_non_null(strstr(err.message, "outside"));
	assert_int_equal(gtNeighbours_Add(nb, wrapped, &id, &err), GT_OK); // x is cyclic, y = 10 is the edge
	double p[3];
	assert_int_equal(gtNeighbours_Position(nb, id, p, &err), GT_OK);
	assert_true(p[0] == 7 && p[1] == 10);
	assert_int_equal(gtNeighbours_Move(nb, id, outside, &err), GT_ERR_INVALID_POINT);
	assert_int_equal(gtNeighbours_Position(nb, id, p, &err), GT_OK); // unchanged by the failed move
	assert_true(p[0] == 7 && p[1] == 10);
	assert_int_equal(gtNeighbours_Add(nb, inside, &other, &err), GT_OK);
	assert_int_equal(gtNeighbours_Move(nb, 0, inside, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNeighbours_Move(nb, id ^ (UINT64_C(1) << 40), inside, &err), GT_ERR_INVALID_ARG); // other tag

	gtNeighbour out[4];
	int found;
	gtNeighbourQuery q = {{1, 1}, -1, 0, 0, false};
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_SPHERE, out, 4, &found, NULL, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "radius"));
	q.radius = NAN;
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_SPHERE, out, 4, &found, NULL, &err), GT_ERR_INVALID_ARG);
	q.radius = 3;
	q.k = -1;
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_SPHERE, out, 4, &found, NULL, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "k must"));
	q.k = 0;
	q.point[1] = -0.5;
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_CUBE, out, 4, &found, NULL, &err), GT_ERR_INVALID_POINT);
	q.point[1] = 1;
	assert_int_equal(gtNeighbours_Query(nb, &q, (gtNeighbourMethod)9, out, 4, &found, NULL, &err), GT_ERR_INVALID_ARG);
	// Too small a buffer: the nearest that fit, and how many qualify.
	q.radius = INFINITY;
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_SPHERE, out, 1, &found, NULL, &err),
	                 GT_ERR_BUFFER_TOO_SMALL);
	assert_int_equal(found, 2);
	assert_true(out[0].id == other && out[0].distance == 0);
	q.k = 2;
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_CUBE, out, 1, &found, NULL, &err),
	                 GT_ERR_BUFFER_TOO_SMALL);
	assert_true(out[0].id == other);
	q.k = 1;
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_CUBE, out, 1, &found, NULL, &err), GT_OK);
	assert_int_equal(found, 1);
	gtNeighbourCosts costs = gtNeighbours_DefaultCosts();
	costs.cell[GT_NEIGHBOURS_CUBE] = -1;
	assert_int_equal(gtNeighbours_SetCosts(nb, &costs, &err), GT_ERR_INVALID_ARG);
	costs = gtNeighbours_DefaultCosts();
	costs.answer[GT_NEIGHBOURS_BRUTE] = NAN;
	assert_int_equal(gtNeighbours_SetCosts(nb, &costs, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNeighbours_Remove(nb, id, &err), GT_OK);
	assert_int_equal(gtNeighbours_Remove(nb, id, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "stale"));
	gtNeighbours_Destroy(nb);
}

// Auto says what it chose, and its weights can be overridden.
static void test_auto_reports_and_obeys_weights(void** state)
{
	(void)state;
	gtNeighboursDef def = {.dimensions = 3, .size = {16, 16, 16}, .cell = 1, .wrap = 7};
	gtNeighbours* nb;
	assert_int_equal(gtNeighbours_Create(&def, &nb, NULL), GT_OK);
	gtRandom rng = {5};
	for (int i = 0; i < 4096; i++) {
		double p[3] = {gtRandom_Unit(&rng) * 16, gtRandom_Unit(&rng) * 16, gtRandom_Unit(&rng) * 16};
		gtNeighbourId id;
		assert_int_equal(gtNeighbours_Add(nb, p, &id, NULL), GT_OK);
	}
	static gtNeighbour out[5000];
	int found;
	gtNeighbourStats stats;
	gtNeighbourQuery q = {{8, 8, 8}, 1.5, 0, 0, false};
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_AUTO, out, 5000, &found, &stats, NULL), GT_OK);
	assert_true(stats.method != GT_NEIGHBOURS_BRUTE && stats.method != GT_NEIGHBOURS_AUTO); // 4096 points, a few near
	assert_true(stats.estimate[stats.method] <= stats.estimate[GT_NEIGHBOURS_BRUTE]);
	gtNeighbourCosts costs = {0};
	costs.setup[GT_NEIGHBOURS_SPHERE] = costs.setup[GT_NEIGHBOURS_CUBE] = costs.setup[GT_NEIGHBOURS_NONEMPTY] = 1e9;
	assert_int_equal(gtNeighbours_SetCosts(nb, &costs, NULL), GT_OK);
	assert_int_equal(gtNeighbours_Query(nb, &q, GT_NEIGHBOURS_AUTO, out, 5000, &found, &stats, NULL), GT_OK);
	assert_int_equal(stats.method, GT_NEIGHBOURS_BRUTE);
	assert_int_equal(gtNeighbours_SetCosts(nb, NULL, NULL), GT_OK);
	gtNeighbours_Destroy(nb);
}

// A grid too large for the whole sphere table: queries reaching past it finish over the
// non-empty cells.
static void test_large_grid_beyond_the_table(void** state)
{
	(void)state;
	gtRandom rng = {12};
	static Scene s;
	for (unsigned wrap = 0; wrap < 4; wrap += 3) {
		memset(&s, 0, sizeof s);
		s.dims = 2;
		s.wrap = wrap;
		s.size[0] = s.size[1] = 1100;
		gtNeighboursDef def = {.dimensions = 2, .size = {1100, 1100}, .cell = 1, .wrap = wrap};
		assert_int_equal(gtNeighbours_Create(&def, &s.nb, NULL), GT_OK);
		fill(&s, &rng, 300);
		for (int t = 0; t < 40; t++) {
			double q[3];
			random_point(&s, &rng, q);
			check_query(&s, q, t % 2 ? INFINITY : 700, 1 + t % 7, 0);
		}
		gtNeighbours_Destroy(s.nb);
	}
}

// The all-at-once call equals one query per point (itself left out), on 1 and 2 threads.
static void test_all_at_once_equals_single_queries(void** state)
{
	(void)state;
	gtRandom rng = {21};
	static Scene s;
	enum { STRIDE = 12 };
	static gtNeighbour out[MAX_POINTS * STRIDE], want[MAX_POINTS];
	static int32_t counts[MAX_POINTS];
	static gtNeighbourId asked[MAX_POINTS];
	for (int dims = 2; dims <= 3; dims++)
		for (int w = 0; w < 4; w += 3) {
			scene_make(&s, dims, dims == 2 ? WRAPS_2D[w] : WRAPS_3D[w], 0, &rng);
			fill(&s, &rng, 500);
			for (int i = 0; i < 50; i++) { // removed points neither ask nor answer
				int v = gtRandom_Below(&rng, s.count);
				if (s.alive[v]) gtNeighbours_Remove(s.nb, s.ids[v], NULL);
				s.alive[v] = false;
			}
			for (int threads = 1; threads <= 2; threads++)
				for (int k = 0; k <= 20; k += 4) {
					for (size_t m = 0; m < sizeof METHODS / sizeof *METHODS; m++) {
						gtNeighboursAll all = {.radius = s.size[0] / 6,
						                       .k = k,
						                       .out = out,
						                       .stride = STRIDE,
						                       .counts = counts,
						                       .asked = asked,
						                       .threads = threads};
						gtNeighbourStats stats;
						gtError err;
						if (gtNeighbours_QueryAll(s.nb, &all, METHODS[m], &stats, &err)) fail_msg("%s", err.message);
						int n = 0, truncated = 0;
						for (int i = 0; i < s.count; i++) {
							if (!s.alive[i]) continue;
							assert_true(asked[n] == s.ids[i]); // slot order is insertion order here
							int full = oracle(&s, s.pos[i], all.radius, 0, s.ids[i], want);
							int expect = k > 0 && k < full ? k : full;
							truncated += expect > STRIDE;
							if (expect > STRIDE) expect = STRIDE;
							assert_int_equal(counts[n], expect);
							for (int j = 0; j < expect; j++) {
								assert_true(out[n * STRIDE + j].id == want[j].id);
								assert_true(out[n * STRIDE + j].distance == want[j].distance);
							}
							n++;
						}
						assert_int_equal(stats.truncated, truncated);
					}
				}
			// An explicit list, with a stale id refused.
			gtNeighbourId some[3] = {s.ids[0], s.ids[1], s.ids[2]};
			gtNeighboursAll all = {.objects = some,
			                       .count = 3,
			                       .radius = INFINITY,
			                       .k = 3,
			                       .out = out,
			                       .stride = 3,
			                       .counts = counts,
			                       .threads = 2};
			gtError err;
			gtStatus st = gtNeighbours_QueryAll(s.nb, &all, GT_NEIGHBOURS_SPHERE, NULL, &err);
			bool any_stale = !s.alive[0] || !s.alive[1] || !s.alive[2];
			assert_int_equal(st, any_stale ? GT_ERR_INVALID_ARG : GT_OK);
			gtNeighbours_Destroy(s.nb);
		}
}

// A slot serves a bounded number of points; then it retires and old ids stay stale.
static void test_generations_retire(void** state)
{
	(void)state;
	gtNeighboursDef def = {.dimensions = 2, .size = {4, 4}};
	gtNeighbours* nb;
	assert_int_equal(gtNeighbours_Create(&def, &nb, NULL), GT_OK);
	double p[2] = {1, 1};
	gtNeighbourId first = 0, id = 0, keep;
	assert_int_equal(gtNeighbours_Add(nb, p, &keep, NULL), GT_OK); // slot 0 stays busy
	for (int i = 0; i < 2000; i++) {
		assert_int_equal(gtNeighbours_Add(nb, p, &id, NULL), GT_OK);
		if (!first) first = id;
		assert_int_equal(gtNeighbours_Remove(nb, id, NULL), GT_OK);
		assert_false(gtNeighbours_IsValid(nb, first));
	}
	assert_int_equal(gtNeighbours_Count(nb), 1);
	gtNeighbours_Destroy(nb);
}

TEST_MAIN("neighbours", test_every_method_equals_brute_force, test_borders_and_edges, test_moves_removals_and_stale_ids,
          test_bad_input, test_auto_reports_and_obeys_weights, test_large_grid_beyond_the_table,
          test_all_at_once_equals_single_queries, test_generations_retire)
