// Corners, point validity and the exact visibility predicate (docs/algorithms.md 2).
#include <math.h>
#include <stdlib.h>

#include "test_support.h"

// The worked example of docs/algorithms.md 2.5: one 2x2 block.
static const char* EXAMPLE = "......\n"
                             "..@@..\n"
                             "..@@..\n"
                             "......";

static bool vis(const gtMap* m, double ax, double ay, double bx, double by)
{
	gtVec2 a = {ax, ay}, b = {bx, by};
	bool forward = gtMap_Visible(m, a, b);
	assert_true(forward == gtMap_Visible(m, b, a)); // symmetric away from pinch endpoints
	return forward;
}

static void test_example_corners(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows(EXAMPLE);
	int n;
	const gtVertex* v = gtMap_Vertices(m, &n);
	assert_int_equal(n, 4);
	// Row-major order: A=(2,1), B=(4,1), C=(2,3), D=(4,3) with the documented directions.
	const int expect[4][4] = {{2, 1, 1, 1}, {4, 1, -1, 1}, {2, 3, 1, -1}, {4, 3, -1, -1}};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(v[i].x, expect[i][0]);
		assert_int_equal(v[i].y, expect[i][1]);
		assert_int_equal(v[i].bx, expect[i][2]);
		assert_int_equal(v[i].by, expect[i][3]);
	}
	assert_int_equal(gtMap_ClassifyCorner(m, 0, 0), GT_CORNER_CONCAVE); // outside counts as blocked
	assert_int_equal(gtMap_ClassifyCorner(m, 3, 0), GT_CORNER_WALL);
	assert_int_equal(gtMap_ClassifyCorner(m, 3, 1), GT_CORNER_WALL);
	assert_int_equal(gtMap_ClassifyCorner(m, 3, 2), GT_CORNER_INTERIOR);
	assert_int_equal(gtMap_ClassifyCorner(m, 1, 1), GT_CORNER_OPEN);
	assert_int_equal(gtMap_ClassifyCorner(m, 7, 1), GT_CORNER_INTERIOR);
	assert_int_equal(gtMap_PinchCount(m), 0);
	gtMap_Destroy(m);
}

static void test_example_visibility(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows(EXAMPLE);
	assert_true(vis(m, 2, 1, 4, 1));  // A-B along the top wall
	assert_true(vis(m, 2, 1, 2, 3));  // A-C along the left wall
	assert_false(vis(m, 2, 1, 4, 3)); // A-D through the block
	assert_false(vis(m, 4, 1, 2, 3)); // B-C through the block
	assert_true(vis(m, 0, 2, 4, 0));  // grazes corner A
	assert_true(vis(m, 2, 4, 6, 2));  // grazes corner D
	assert_false(vis(m, 0, 4, 6, 1)); // through C, then into the block
	assert_false(vis(m, 1, 0, 3, 2)); // enters the block at A
	assert_true(vis(m, 0, 1, 6, 1));  // along the whole top wall
	assert_false(vis(m, 3, 1, 3, 3)); // between two blocked cells
	assert_false(vis(m, 2, 2, 4, 2)); // through the block on a grid line
	assert_true(vis(m, 0, 0, 0, 4));  // along the map border
	assert_true(vis(m, 0, 0, 6, 0));
	assert_true(vis(m, 6, 4, 0, 4));
	assert_true(vis(m, 1.5, 0.5, 5.5, 0.5)); // inside free cells
	assert_false(vis(m, 1.5, 1.5, 4.5, 1.5));
	assert_true(vis(m, 2, 1.5, 2, 2.5)); // on the block's left wall
	assert_true(vis(m, 2, 2, 2, 2));     // a point sees itself
	gtMap_Destroy(m);
}

// Pinch at (2,2) with blocked cells (1,1) and (2,2): the +x side is the free cell (2,1).
static const char* PINCH_MAIN = "....\n"
                                ".@..\n"
                                "..@.\n"
                                "....";
// Pinch at (2,2) with blocked cells (2,1) and (1,2): the +x side is the free cell (2,2).
static const char* PINCH_ANTI = "....\n"
                                "..@.\n"
                                ".@..\n"
                                "....";

static void test_pinch_points(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows(PINCH_MAIN);
	assert_int_equal(gtMap_ClassifyCorner(m, 2, 2), GT_CORNER_PINCH);
	assert_int_equal(gtMap_PinchCount(m), 1);
	// Through the pinch in every direction: never visible.
	assert_false(vis(m, 2, 0, 2, 4));
	assert_false(vis(m, 0, 2, 4, 2));
	assert_false(vis(m, 1, 3, 3, 1));
	assert_false(vis(m, 0.5, 3.5, 3.5, 0.5));
	assert_false(vis(m, 2, 1.5, 2, 2.5));
	// Endpoint at the pinch: only into the closed quadrant of cell (2,1).
	gtVec2 p = {2, 2};
	gtVec2 ok[] = {{4, 0}, {4, 2}, {2, 0}, {3, 1.5}, {2.5, 1}};
	gtVec2 bad[] = {{0, 4}, {2, 4}, {0, 2}, {1.5, 3}, {1, 2.5}};
	for (int i = 0; i < 5; i++) {
		assert_true(gtMap_Visible(m, p, ok[i]));
		assert_true(gtMap_Visible(m, ok[i], p));
		assert_false(gtMap_Visible(m, p, bad[i]));
		assert_false(gtMap_Visible(m, bad[i], p));
	}
	gtMap_Destroy(m);

	m = test_map_from_rows(PINCH_ANTI);
	assert_int_equal(gtMap_ClassifyCorner(m, 2, 2), GT_CORNER_PINCH);
	assert_false(vis(m, 0, 0, 4, 4));
	assert_false(vis(m, 2, 0, 2, 4));
	assert_false(vis(m, 0, 2, 4, 2));
	gtVec2 ok2[] = {{4, 4}, {4, 2}, {2, 4}, {3, 2.5}};
	gtVec2 bad2[] = {{0, 0}, {0, 2}, {2, 0}, {1.5, 1.5}};
	for (int i = 0; i < 4; i++) {
		assert_true(gtMap_Visible(m, p, ok2[i]));
		assert_false(gtMap_Visible(m, p, bad2[i]));
	}
	gtMap_Destroy(m);
}

static void test_point_checks(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows(EXAMPLE);
	const struct {
		double x, y;
		gtPointCheck expect;
	} cases[] = {
	    {0, 0, GT_POINT_VALID},
	    {6, 4, GT_POINT_VALID},
	    {2, 1, GT_POINT_VALID},
	    {2, 1.5, GT_POINT_VALID},
	    {2.5, 1, GT_POINT_VALID},
	    {1.25, 3.75, GT_POINT_VALID},
	    {2.5, 1.5, GT_POINT_IN_WALL},
	    {3, 1.5, GT_POINT_IN_WALL},
	    {3, 2, GT_POINT_IN_WALL},
	    {-0.001, 1, GT_POINT_OFF_MAP},
	    {6.001, 1, GT_POINT_OFF_MAP},
	    {1, 4.5, GT_POINT_OFF_MAP},
	    {NAN, 1, GT_POINT_NOT_FINITE},
	    {1, INFINITY, GT_POINT_NOT_FINITE},
	    {-INFINITY, 1, GT_POINT_NOT_FINITE},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		gtVec2 p = {cases[i].x, cases[i].y};
		assert_int_equal(gtMap_CheckPoint(m, p), cases[i].expect);
	}
	// Invalid endpoints are never visible.
	gtVec2 inside = {2.5, 1.5}, free_point = {0, 0}, nan_point = {NAN, 0};
	assert_false(gtMap_Visible(m, inside, free_point));
	assert_false(gtMap_Visible(m, free_point, nan_point));
	gtMap_Destroy(m);
}

// The cell walk agrees with the independent brute-force test on random maps with many pinches.
static void test_walk_matches_brute_force(void** state)
{
	(void)state;
	TestRng rng = {42};
	int checked = 0, visible = 0;
	for (int round = 0; round < 12; round++) {
		gtMap* m = test_random_map(&rng, 10 + round, 8 + round / 2, 15 + 2 * round);
		int n;
		const gtVertex* v = gtMap_Vertices(m, &n);
		for (int i = 0; i < 1500; i++) {
			gtVec2 a, b;
			if (i % 3 == 0 && n >= 2) { // vertex pairs: the integer case the graph relies on
				gtVertex p = v[test_rng_int(&rng, n)], q = v[test_rng_int(&rng, n)];
				a = (gtVec2){p.x, p.y};
				b = (gtVec2){q.x, q.y};
			} else {
				a = test_random_point(m, &rng);
				b = test_random_point(m, &rng);
			}
			bool expect = test_brute_visible(m, a, b);
			if (gtMap_Visible(m, a, b) != expect)
				fail_msg("round %d: (%.17g, %.17g)-(%.17g, %.17g) walk %d brute %d", round, a.x, a.y, b.x, b.y, !expect,
				         expect);
			checked++;
			visible += expect;
		}
		gtMap_Destroy(m);
	}
	// Both answers must occur often, or the comparison proves little.
	assert_true(visible > checked / 10 && visible < checked * 9 / 10);
}

// Segments passing within 2^-78 of a grid point without touching it, built from Fibonacci pairs
// (Cassini: F(n+1)F(n-1) - F(n)^2 = (-1)^n), so the crossing test's determinant is +-k * 2^-80:
// far below double rounding. Plus segments exactly through the point. Exercises the exact fallback.
// Open maps, where segments are long and cross many grid lines: the same answers as the brute
// force, both directions, with endpoints on grid points and binary fractions so that segments
// often pass exactly through grid points.
static void test_open_maps_match_brute_force(void** state)
{
	(void)state;
	TestRng rng = {99};
	int checked = 0, visible = 0;
	for (int round = 0; round < 9; round++) {
		gtMap* m = test_random_map(&rng, 40 + 3 * round, 40 + round, round % 3);
		for (int i = 0; i < 1500; i++) {
			gtVec2 a = test_random_point(m, &rng), b = test_random_point(m, &rng);
			bool expect = test_brute_visible(m, a, b);
			if (gtMap_Visible(m, a, b) != expect || gtMap_Visible(m, b, a) != expect)
				fail_msg("round %d: (%.17g, %.17g)-(%.17g, %.17g): brute says %d", round, a.x, a.y, b.x, b.y, expect);
			checked++;
			visible += expect;
		}
		gtMap_Destroy(m);
	}
	assert_true(visible > checked / 10 && visible < checked * 19 / 20);
	// Long segments along lattice lines, exactly or within 2^-40 or 3 * 2^-40 of them: they pass through
	// or next to many grid points.
	int near = 0;
	for (int round = 0; round < 6; round++) {
		gtMap* m = test_random_map(&rng, 48, 48, round % 3);
		for (int i = 0; i < 3000; i++) {
			int p = 1 + test_rng_int(&rng, 4), q = test_rng_int(&rng, 5),
			    g[2] = {4 + test_rng_int(&rng, 40), 4 + test_rng_int(&rng, 40)};
			if (test_rng_int(&rng, 2)) p = -p;
			if (test_rng_int(&rng, 2)) q = -q;
			if (test_rng_int(&rng, 2)) {
				int t = p;
				p = q;
				q = t;
			}
			double along = test_rng_int(&rng, 2) ? 0.5 : 0, before = test_rng_int(&rng, 6) + along,
			       after = 1 + test_rng_int(&rng, 8) + along;
			const double nudges[5] = {0, ldexp(1, -40), -ldexp(1, -40), ldexp(3, -40),
			                          -ldexp(3, -40)}; // the twin's grid
			double nudge = nudges[test_rng_int(&rng, 5)];
			gtVec2 a = {g[0] - before * p + nudge, g[1] - before * q}, b = {g[0] + after * p + nudge, g[1] + after * q};
			if (gtMap_CheckPoint(m, a) != GT_POINT_VALID || gtMap_CheckPoint(m, b) != GT_POINT_VALID) continue;
			bool expect = test_brute_visible(m, a, b);
			if (gtMap_Visible(m, a, b) != expect || gtMap_Visible(m, b, a) != expect)
				fail_msg("(%.17g, %.17g)-(%.17g, %.17g): brute says %d", a.x, a.y, b.x, b.y, expect);
			near++;
		}
		gtMap_Destroy(m);
	}
	assert_true(near > 10000);
}

static void test_near_degenerate_segments(void** state)
{
	(void)state;
	TestRng rng = {7};
	const double u = ldexp(1.0, -40);
	int64_t fib[60] = {0, 1};
	for (int i = 2; i < 60; i++) fib[i] = fib[i - 1] + fib[i - 2];
	int naive_wrong = 0, tested = 0;
	for (int round = 0; round < 6; round++) {
		gtMap* m = test_random_map(&rng, 16, 16, 25);
		for (int i = 0; i < 3000; i++) {
			int n = 50 + test_rng_int(&rng, 8); // F(n+1) < 2^40, so offsets stay below one cell
			int k = 2 + test_rng_int(&rng, 3);
			double sx = test_rng_int(&rng, 2) ? 1 : -1, sy = test_rng_int(&rng, 2) ? 1 : -1;
			bool swap = test_rng_int(&rng, 2), exact = test_rng_int(&rng, 4) == 0;
			double A = (double)fib[n + 1], B = (double)fib[n - 1], C = (double)fib[n], D = exact ? A : (double)fib[n];
			if (exact) B = C; // direction parallel to the offset: exactly through the point
			double off_x = sx * A * u, off_y = sy * C * u, dir_x = sx * k * D * u, dir_y = sy * k * B * u;
			if (swap) {
				double t = off_x;
				off_x = off_y, off_y = t, t = dir_x, dir_x = dir_y, dir_y = t;
			}
			int px = 1 + test_rng_int(&rng, 15), py = 1 + test_rng_int(&rng, 15);
			gtVec2 a = {px - off_x, py - off_y}, b = {a.x + dir_x, a.y + dir_y};
			if (gtMap_CheckPoint(m, a) != GT_POINT_VALID || gtMap_CheckPoint(m, b) != GT_POINT_VALID) continue;
			bool expect = test_brute_visible(m, a, b);
			if (gtMap_Visible(m, a, b) != expect || gtMap_Visible(m, b, a) != expect)
				fail_msg("(%.17g, %.17g)-(%.17g, %.17g): brute says %d", a.x, a.y, b.x, b.y, expect);
			tested++;
			if (!exact) { // how often plain doubles misjudge which grid line comes first
				double left = (px - a.x) * (b.y - a.y), right = (py - a.y) * (b.x - a.x);
				int naive = (left > right) - (left < right);
				int truth = (int)(sx * sy) * ((n % 2) ? -1 : 1) * (swap ? -1 : 1);
				naive_wrong += naive != truth;
			}
		}
		gtMap_Destroy(m);
	}
	assert_true(tested > 5000);
	// The construction is only meaningful if rounding really misleads plain arithmetic.
	assert_true(naive_wrong > tested / 10);
}

TEST_MAIN("geometry", test_example_corners, test_example_visibility, test_pinch_points, test_point_checks,
          test_open_maps_match_brute_force, test_walk_matches_brute_force, test_near_degenerate_segments)
