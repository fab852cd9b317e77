// Visibility graph and the Dijkstra oracle on hand-made and random maps, against an independent
// twin (all-pairs Floyd-Warshall over brute-force visibility, no pruning of any kind).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static gtOracle* make_oracle(const gtMap* m)
{
	gtOracle* o = NULL;
	gtError err;
	if (gtOracle_Create(m, 2, &o, &err) != GT_OK) fail_msg("%s", err.message);
	return o;
}

static double distance(gtOracle* o, double sx, double sy, double tx, double ty)
{
	double d;
	gtError err;
	gtVec2 s = {sx, sy}, t = {tx, ty};
	if (gtOracle_Distance(o, s, t, &d, &err) != GT_OK) fail_msg("%s", err.message);
	return d;
}

static bool has_edge(const gtOracle* o, const gtMap* m, int x0, int y0, int x1, int y1, double* length)
{
	int n;
	const gtVertex* v = gtMap_Vertices(m, &n);
	for (int i = 0; i < n; i++) {
		if (v[i].x != x0 || v[i].y != y0) continue;
		const int32_t* adj;
		const double* len;
		int deg = gtOracle_Neighbors(o, i, &adj, &len);
		for (int e = 0; e < deg; e++)
			if (v[adj[e]].x == x1 && v[adj[e]].y == y1) {
				if (length) *length = len[e];
				return true;
			}
	}
	return false;
}

static void test_example_graph_and_distances(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows("......\n..@@..\n..@@..\n......");
	gtOracle* o = make_oracle(m);
	assert_int_equal(gtOracle_EdgeCount(o), 4);
	double len = 0;
	assert_true(has_edge(o, m, 2, 1, 4, 1, &len)); // A-B
	assert_float_equal(len, 2.0, 1e-12);
	assert_true(has_edge(o, m, 2, 1, 2, 3, NULL)); // A-C
	assert_true(has_edge(o, m, 4, 1, 4, 3, NULL)); // B-D
	assert_true(has_edge(o, m, 2, 3, 4, 3, NULL)); // C-D
	assert_false(has_edge(o, m, 2, 1, 4, 3, NULL));
	assert_false(has_edge(o, m, 4, 1, 2, 3, NULL));
	// Around the block: (0,2) -> A -> B -> (6,2).
	assert_float_equal(distance(o, 0, 2, 6, 2), 2 + 2 * sqrt(5.0), 1e-12);
	assert_float_equal(distance(o, 0, 0, 6, 0), 6.0, 1e-12);
	assert_float_equal(distance(o, 3, 0, 3, 4), 2 + 2 * sqrt(2.0), 1e-12);
	assert_float_equal(distance(o, 1, 1, 1, 1), 0.0, 0);
	gtVec2 s = {0, 2}, t = {6, 2}, pts[8];
	int count;
	double d;
	gtError err;
	assert_int_equal(gtOracle_Path(o, s, t, pts, 8, &count, &d, &err), GT_OK);
	assert_int_equal(count, 4);
	assert_float_equal(pts[0].x, 0, 0);
	assert_float_equal(pts[3].x, 6, 0);
	assert_true((pts[1].x == 2 && pts[2].x == 4) && pts[1].y == pts[2].y);
	gtOracle_Destroy(o);
	gtMap_Destroy(m);
}

static void test_collinear_vertices_are_not_joined(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows(".........\n.@...@...\n.........");
	gtOracle* o = make_oracle(m);
	assert_true(has_edge(o, m, 1, 1, 2, 1, NULL));
	assert_true(has_edge(o, m, 2, 1, 5, 1, NULL));
	assert_false(has_edge(o, m, 1, 1, 5, 1, NULL)); // (2,1) lies between
	assert_false(has_edge(o, m, 1, 1, 6, 1, NULL));
	assert_true(has_edge(o, m, 2, 2, 5, 1, NULL)); // not collinear with anything
	// The removal does not change distances.
	assert_float_equal(distance(o, 0, 1, 9, 1), 9.0, 1e-12);
	gtOracle_Destroy(o);
	gtMap_Destroy(m);
}

static void test_errors_and_unreachable(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows("..@..\n..@..\n..@..");
	gtOracle* o = make_oracle(m);
	assert_true(isinf(distance(o, 0, 0, 5, 3)));
	gtVec2 s = {0, 0}, t = {5, 3}, bad = {2.5, 1.5}, nan_point = {NAN, 1}, pts[4];
	int count = -1;
	double d = 0;
	gtError err;
	assert_int_equal(gtOracle_Path(o, s, t, pts, 4, &count, &d, &err), GT_OK);
	assert_int_equal(count, 0);
	assert_true(isinf(d));
	assert_int_equal(gtOracle_Distance(o, s, bad, &d, &err), GT_ERR_INVALID_POINT);
	assert_non_null(strstr(err.message, "target (2.5, 1.5): point is inside a blocked cell"));
	assert_int_equal(gtOracle_Distance(o, nan_point, t, &d, &err), GT_ERR_INVALID_POINT);
	assert_non_null(strstr(err.message, "start"));
	gtVec2 off = {-1, 0};
	assert_int_equal(gtOracle_Path(o, off, t, pts, 4, &count, &d, &err), GT_ERR_INVALID_POINT);
	gtOracle_Destroy(o);
	gtMap_Destroy(m);

	m = test_map_from_rows("......\n..@@..\n..@@..\n......");
	o = make_oracle(m);
	gtVec2 a = {0, 2}, b = {6, 2};
	assert_int_equal(gtOracle_Path(o, a, b, pts, 3, &count, &d, &err), GT_ERR_BUFFER_TOO_SMALL);
	assert_int_equal(count, 4);
	gtOracle_Destroy(o);
	gtMap_Destroy(m);
}

// The diagonal gap at the pinch (2,2) is closed: paths must walk around.
static void test_paths_avoid_pinch_points(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows("@@@@@\n@..@@\n@.@.@\n@@..@\n@@@@@");
	gtOracle* o = make_oracle(m);
	// The two rooms touch only at the pinch points (3,2) and (2,3).
	assert_true(isinf(distance(o, 1.5, 1.5, 3.5, 3.5)));
	gtOracle_Destroy(o);
	gtMap_Destroy(m);
}

// ---- independent twin ---------------------------------------------------------------------------

static double twin_distance(const gtMap* m, gtVec2 s, gtVec2 t)
{
	int n;
	const gtVertex* v = gtMap_Vertices(m, &n);
	int N = n + 2;
	gtVec2* p = malloc(sizeof *p * (size_t)N);
	double* d = malloc(sizeof *d * (size_t)N * (size_t)N);
	assert_true(p && d);
	for (int i = 0; i < n; i++) p[i] = (gtVec2){v[i].x, v[i].y};
	p[n] = s;
	p[n + 1] = t;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			d[i * N + j] = i == j                              ? 0
			               : test_brute_visible(m, p[i], p[j]) ? hypot(p[i].x - p[j].x, p[i].y - p[j].y)
			                                                   : INFINITY;
	for (int k = 0; k < N; k++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				if (d[i * N + k] + d[k * N + j] < d[i * N + j]) d[i * N + j] = d[i * N + k] + d[k * N + j];
	double result = d[n * N + n + 1];
	free(p);
	free(d);
	return result;
}

static void test_oracle_matches_twin_on_random_maps(void** state)
{
	(void)state;
	TestRng rng = {2024};
	int finite = 0, infinite = 0;
	for (int round = 0; round < 10; round++) {
		int w = 10 + round, h = 9 + round / 2;
		unsigned char* cells = malloc((size_t)(w * h));
		for (int i = 0; i < w * h; i++) cells[i] = test_rng_int(&rng, 100) < 12 + 2 * round;
		gtMap* m;
		gtError err;
		assert_int_equal(gtMap_FromCells(w, h, cells, &m, &err), GT_OK);
		free(cells);
		gtOracle* o = make_oracle(m);
		for (int q = 0; q < 25; q++) {
			gtVec2 s = test_random_point(m, &rng), t = test_random_point(m, &rng);
			double expect = twin_distance(m, s, t);
			double got = distance(o, s.x, s.y, t.x, t.y);
			if (isinf(expect)) {
				assert_true(isinf(got));
				infinite++;
			} else {
				if (fabs(got - expect) > 1e-9 * (1 + expect))
					fail_msg("(%g,%g)->(%g,%g): oracle %.12f twin %.12f", s.x, s.y, t.x, t.y, got, expect);
				finite++;
			}
			assert_float_equal(distance(o, t.x, t.y, s.x, s.y), got, 1e-9 * (1 + got)); // symmetry
			test_check_path(o, m, s, t, expect);
		}
		gtOracle_Destroy(o);
		gtMap_Destroy(m);
	}
	assert_true(finite > 150 && infinite > 5);
}

// The graph's edges, vertex by vertex, against every pair tested by brute force: the sweep that
// finds the candidates (vis_sweep.c) must miss no visible pair, on random noise (pinch points,
// rays along walls) and on generated caves and rooms.
static void expect_brute_force_edges(const gtMap* m)
{
	gtOracle* o = make_oracle(m);
	int n;
	const gtVertex* v = gtMap_Vertices(m, &n);
	int64_t edges = 0;
	char* seen = calloc((size_t)n, 1);
	for (int u = 0; u < n; u++) {
		const int32_t* adj;
		const double* len;
		int deg = gtOracle_Neighbors(o, u, &adj, &len);
		memset(seen, 0, (size_t)n);
		for (int e = 0; e < deg; e++) seen[adj[e]] = 1;
		for (int w = 0; w < n; w++) {
			if (w == u) continue;
			gtVec2 a = {v[u].x, v[u].y}, b = {v[w].x, v[w].y};
			bool edge = test_brute_visible(m, a, b);
			int dx = v[w].x - v[u].x, dy = v[w].y - v[u].y;
			for (int x = 0; edge && x < n; x++) { // no vertex strictly inside the segment
				int px = v[x].x - v[u].x, py = v[x].y - v[u].y;
				if (x != u && x != w && dx * py == dy * px && px * (dx - px) + py * (dy - py) > 0) edge = false;
			}
			if (edge != (seen[w] != 0))
				fail_msg("(%d,%d)-(%d,%d): brute force %d, graph %d", v[u].x, v[u].y, v[w].x, v[w].y, edge, !edge);
			edges += edge;
		}
	}
	assert_int_equal(edges, 2 * gtOracle_EdgeCount(o));
	free(seen);
	gtOracle_Destroy(o);
}

static void test_graph_matches_brute_force_pairs(void** state)
{
	(void)state;
	TestRng rng = {77};
	for (int round = 0; round < 12; round++) {
		int w = 12 + 3 * round, h = 10 + 2 * round;
		unsigned char* cells = malloc((size_t)(w * h));
		for (int i = 0; i < w * h; i++) cells[i] = test_rng_int(&rng, 100) < 10 + 3 * round;
		gtMap* m;
		gtError err;
		assert_int_equal(gtMap_FromCells(w, h, cells, &m, &err), GT_OK);
		free(cells);
		expect_brute_force_edges(m);
		gtMap_Destroy(m);
	}
	for (int style = 0; style < 3; style++) {
		gtMap* m;
		gtError err;
		assert_int_equal(gtMap_Generate((gtMapStyle)style, 48, 40, 901 + (uint64_t)style, &m, &err), GT_OK);
		expect_brute_force_edges(m);
		gtMap_Destroy(m);
	}
}

// The bundled map runs on a fresh clone without the benchmark data.
static void test_bundled_map_matches_twin(void** state)
{
	(void)state;
	gtMap* m = test_load_map("assets/maps/small.map");
	gtOracle* o = make_oracle(m);
	TestRng rng = {5};
	for (int q = 0; q < 40; q++) {
		gtVec2 s = test_random_point(m, &rng), t = test_random_point(m, &rng);
		double expect = twin_distance(m, s, t);
		assert_false(isinf(expect)); // one connected region by construction
		assert_float_equal(distance(o, s.x, s.y, t.x, t.y), expect, 1e-9 * (1 + expect));
		test_check_path(o, m, s, t, expect);
	}
	gtOracle_Destroy(o);
	gtMap_Destroy(m);
}

TEST_MAIN("oracle", test_example_graph_and_distances, test_collinear_vertices_are_not_joined,
          test_errors_and_unreachable, test_paths_avoid_pinch_points, test_oracle_matches_twin_on_random_maps,
          test_bundled_map_matches_twin, test_graph_matches_brute_force_pairs)
