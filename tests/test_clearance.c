// Agents with a size: gtMap_Inflate against its definition (brute force over every cell), and
// paths on an inflated map keeping the clearance from every wall of the original, on real maps.
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

// The definition, cell by cell: blocked when any cell within Chebyshev distance r is blocked or
// off the map.
static bool brute_inflated(const gtMap* map, int r, int x, int y)
{
	for (int j = y - r; j <= y + r; j++)
		for (int i = x - r; i <= x + r; i++)
			if (gtMap_IsBlocked(map, i, j)) return true;
	return false;
}

static void check_inflation(const gtMap* map, int r)
{
	gtMap* inflated = NULL;
	gtError err;
	if (gtMap_Inflate(map, r, &inflated, &err)) fail_msg("%s", err.message);
	assert_int_equal(gtMap_Width(inflated), gtMap_Width(map));
	assert_int_equal(gtMap_Height(inflated), gtMap_Height(map));
	for (int y = 0; y < gtMap_Height(map); y++)
		for (int x = 0; x < gtMap_Width(map); x++)
			if (gtMap_IsBlocked(inflated, x, y) != brute_inflated(map, r, x, y))
				fail_msg("clearance %d: cell (%d, %d) is %s", r, x, y,
				         gtMap_IsBlocked(inflated, x, y) ? "blocked" : "free");
	gtMap_Destroy(inflated);
}

// Up to `want` maps of a suite, the first and last by name (whatever maps the data holds).
static int suite_maps(const char* suite, char names[][128], int want)
{
	char rel[64];
	snprintf(rel, sizeof rel, "maps/%s", suite);
	DIR* dir = opendir(test_data_path(rel));
	if (!dir) return 0;
	char first[128] = "", last[128] = "";
	for (struct dirent* e; (e = readdir(dir));) {
		size_t n = strlen(e->d_name);
		if (n < 5 || n - 4 >= sizeof first || strcmp(e->d_name + n - 4, ".map") != 0) continue;
		char name[128];
		memcpy(name, e->d_name, n - 4);
		name[n - 4] = '\0';
		if (!first[0] || strcmp(name, first) < 0) strcpy(first, name);
		if (!last[0] || strcmp(name, last) > 0) strcpy(last, name);
	}
	closedir(dir);
	int count = 0;
	if (first[0]) strcpy(names[count++], first);
	if (want > 1 && last[0] && strcmp(last, first) != 0) strcpy(names[count++], last);
	return count;
}

static const char* const SUITES[] = {"bgmaps", "dao", "da2", "sc1"};

static void test_inflate_matches_definition(void** state)
{
	(void)state;
	TestRng rng = {11};
	for (int round = 0; round < 40; round++) { // small random maps, thin ones too
		int w = 1 + test_rng_int(&rng, 24), h = 1 + test_rng_int(&rng, 24);
		gtMap* map = test_random_map(&rng, w, h, test_rng_int(&rng, 40));
		for (int r = 0; r <= 4; r++) check_inflation(map, r);
		gtMap_Destroy(map);
	}
	if (!test_data_dir()) return;
	int checked = 0;
	for (size_t s = 0; s < sizeof SUITES / sizeof *SUITES; s++) {
		char names[2][128];
		int n = suite_maps(SUITES[s], names, 2);
		for (int i = 0; i < n; i++) {
			gtMap* map = test_load_shared_map(SUITES[s], names[i]);
			if ((int64_t)gtMap_Width(map) * gtMap_Height(map) <= 1024 * 1024) {
				for (int r = 1; r <= 3; r++) check_inflation(map, r);
				checked++;
			}
			gtMap_Destroy(map);
		}
	}
	assert_true(checked > 0);
}

static void test_inflate_limits(void** state)
{
	(void)state;
	gtMap* map = test_map_from_rows("....\n.@..\n....\n....\n");
	gtMap* out = (gtMap*)1;
	gtError err;
	assert_int_equal(gtMap_Inflate(map, -1, &out, &err), GT_ERR_INVALID_ARG);
	assert_null(out);
	assert_non_null(strstr(err.message, "clearance"));
	assert_int_equal(gtMap_Inflate(map, GT_MAP_MAX_CLEARANCE + 1, &out, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtMap_Inflate(NULL, 1, &out, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtMap_Inflate(map, 0, &out, &err), GT_OK); // a copy
	assert_true(gtMap_Fingerprint(out) == gtMap_Fingerprint(map));
	gtMap_Destroy(out);
	assert_int_equal(gtMap_Inflate(map, 2, &out, &err), GT_OK); // nothing left for so big an agent
	assert_int_equal(gtMap_FreeCells(out), 0);
	gtVec2 centre = {2, 2};
	assert_int_equal(gtMap_CheckPoint(out, centre), GT_POINT_IN_WALL);
	gtMap_Destroy(out);
	assert_int_equal(gtMap_Inflate(map, GT_MAP_MAX_CLEARANCE, &out, &err), GT_OK);
	assert_int_equal(gtMap_FreeCells(out), 0);
	gtMap_Destroy(out);
	gtMap_Destroy(map);
}

// Whether the segment p-q enters the open square of half-width r - 1e-9 around blocked cell
// (cx, cy) grown by r: i.e. comes closer than r (Chebyshev) to it, up to 1e-9 of rounding.
static bool segment_too_close(gtVec2 p, gtVec2 q, int cx, int cy, int r)
{
	double lo[2] = {cx - r + 1e-9, cy - r + 1e-9}, hi[2] = {cx + 1 + r - 1e-9, cy + 1 + r - 1e-9};
	double from[2] = {p.x, p.y}, step[2] = {q.x - p.x, q.y - p.y};
	double t0 = 0, t1 = 1;
	for (int a = 0; a < 2; a++) {
		if (step[a] == 0) {
			if (!(from[a] > lo[a] && from[a] < hi[a])) return false;
			continue;
		}
		double u = (lo[a] - from[a]) / step[a], v = (hi[a] - from[a]) / step[a];
		if (u > v) {
			double swap = u;
			u = v, v = swap;
		}
		t0 = u > t0 ? u : t0;
		t1 = v < t1 ? v : t1;
	}
	return t0 < t1;
}

static void check_clearance(const gtMap* original, int r, const gtVec2* pts, int count)
{
	int w = gtMap_Width(original), h = gtMap_Height(original);
	for (int i = 0; i < count; i++)
		if (pts[i].x < r || pts[i].y < r || pts[i].x > w - r || pts[i].y > h - r)
			fail_msg("clearance %d: path point (%g, %g) is too near the border", r, pts[i].x, pts[i].y);
	for (int i = 0; i + 1 < count; i++) {
		gtVec2 p = pts[i], q = pts[i + 1];
		int x0 = (int)floor(fmin(p.x, q.x)) - r - 1, x1 = (int)ceil(fmax(p.x, q.x)) + r;
		int y0 = (int)floor(fmin(p.y, q.y)) - r - 1, y1 = (int)ceil(fmax(p.y, q.y)) + r;
		for (int cy = y0 > 0 ? y0 : 0; cy <= y1 && cy < h; cy++)
			for (int cx = x0 > 0 ? x0 : 0; cx <= x1 && cx < w; cx++)
				if (gtMap_IsBlocked(original, cx, cy) && segment_too_close(p, q, cx, cy, r))
					fail_msg("clearance %d: step (%g, %g)-(%g, %g) comes nearer than %d to wall cell (%d, %d)", r, p.x,
					         p.y, q.x, q.y, r, cx, cy);
	}
}

// Paths found on the inflated map keep the clearance on the original one, and the checker itself
// catches a path of the original map that hugs its walls.
static void paths_keep_clearance(const gtMap* original, int r, int pairs, uint64_t seed)
{
	gtMap* inflated = NULL;
	gtError err;
	if (gtMap_Inflate(original, r, &inflated, &err)) fail_msg("%s", err.message);
	if (gtMap_FreeCells(inflated) == 0) {
		gtMap_Destroy(inflated);
		return;
	}
	gtOracle* oracle = NULL;
	if (gtOracle_Create(inflated, 2, &oracle, &err)) fail_msg("%s", err.message);
	int n;
	gtMap_Vertices(inflated, &n);
	gtVec2* pts = test_malloc(sizeof *pts * (size_t)(n + 2));
	TestRng rng = {seed};
	int bent = 0, reached = 0;
	for (int i = 0; i < 40 * pairs && reached < pairs; i++) { // pairs that reach each other
		gtVec2 s = test_random_point(inflated, &rng), t = test_random_point(inflated, &rng);
		int count;
		assert_int_equal(gtOracle_Path(oracle, s, t, pts, n + 2, &count, NULL, &err), GT_OK);
		check_clearance(original, r, pts, count);
		bent += count > 2;
		reached += count > 0;
	}
	if (bent == 0) fail_msg("clearance %d: no path of %d bent (reached %d)", r, pairs, reached);
	test_free(pts);
	gtOracle_Destroy(oracle);
	gtMap_Destroy(inflated);
}

static void test_paths_keep_clearance(void** state)
{
	(void)state;
	gtMap* arena = test_load_map("assets/maps/arena.map");
	for (int r = 1; r <= 3; r++) paths_keep_clearance(arena, r, 100, (uint64_t)r);
	// The check is not empty: a step along a wall cell's edge is at distance 0 from it, and one
	// cell away at distance 1.
	gtVec2 edge[2] = {{5, 5}, {6, 5}}, away[2] = {{5, 4}, {6, 4}};
	assert_true(segment_too_close(edge[0], edge[1], 5, 5, 1));
	assert_false(segment_too_close(edge[0], edge[1], 5, 5, 0));
	assert_false(segment_too_close(away[0], away[1], 5, 5, 1));
	assert_true(segment_too_close(away[0], away[1], 5, 5, 2));
	gtMap_Destroy(arena);
	if (!test_data_dir()) return;
	for (size_t s = 0; s < sizeof SUITES / sizeof *SUITES; s++) {
		char names[1][128];
		if (suite_maps(SUITES[s], names, 1) == 0) continue;
		gtMap* map = test_load_shared_map(SUITES[s], names[0]);
		if ((int64_t)gtMap_Width(map) * gtMap_Height(map) <= 512 * 512)
			paths_keep_clearance(map, 1 + (int)s % 3, 60, s);
		gtMap_Destroy(map);
	}
}

TEST_MAIN("clearance", test_inflate_matches_definition, test_inflate_limits, test_paths_keep_clearance)
