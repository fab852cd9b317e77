#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"

gtMap* test_map_from_rows(const char* rows)
{
	int width = (int)strcspn(rows, "\n"), height = 0;
	unsigned char* cells = malloc(strlen(rows) + 1);
	assert_non_null(cells);
	for (const char* p = rows; *p;) {
		size_t n = strcspn(p, "\n");
		assert_int_equal(n, width);
		for (size_t x = 0; x < n; x++) cells[height * width + (int)x] = p[x] != '.';
		height++;
		p += n;
		if (*p) p++;
	}
	gtMap* map = NULL;
	gtError err;
	assert_int_equal(gtMap_FromCells(width, height, cells, &map, &err), GT_OK);
	free(cells);
	return map;
}

gtMap* test_map_from_rule(int side, bool (*blocked)(int x, int y))
{
	unsigned char* cells = malloc((size_t)side * (size_t)side);
	assert_non_null(cells);
	for (int y = 0; y < side; y++)
		for (int x = 0; x < side; x++) cells[(size_t)y * (size_t)side + (size_t)x] = blocked(x, y);
	gtMap* map = NULL;
	gtError err;
	assert_int_equal(gtMap_FromCells(side, side, cells, &map, &err), GT_OK);
	free(cells);
	return map;
}

gtVec2 test_point_in_box(const gtMap* map, TestRng* rng, int x, int y, int size)
{
	for (;;) {
		gtVec2 p = {x + test_rng_int(rng, size * 8 + 1) / 8.0, y + test_rng_int(rng, size * 8 + 1) / 8.0};
		if (gtMap_CheckPoint(map, p) == GT_POINT_VALID) return p;
	}
}

const char* test_data_dir(void)
{
	static char dir[1024];
	static int state; // 0 unknown, 1 found, -1 absent
	if (state == 0) {
		const char* env = getenv("GRIDTREE_DATA");
		snprintf(dir, sizeof dir, "%s", env && *env ? env : "../shared/data");
		char probe[1100];
		snprintf(probe, sizeof probe, "%s/maps", dir);
		state = access(probe, R_OK) == 0 ? 1 : -1;
		if (state < 0)
			fprintf(stderr,
			        "note: benchmark data not found at %s (set GRIDTREE_DATA); tests that need it are skipped\n", dir);
	}
	return state > 0 ? dir : NULL;
}

const char* test_data_path(const char* relative)
{
	static char path[2048];
	snprintf(path, sizeof path, "%s/%s", test_data_dir(), relative);
	return path;
}

gtMap* test_load_shared_map(const char* suite, const char* name)
{
	if (!test_data_dir()) {
		skip();
		return NULL;
	}
	char rel[256];
	snprintf(rel, sizeof rel, "maps/%s/%s.map", suite, name);
	return test_load_map(test_data_path(rel));
}

gtScenario* test_load_scenario(const char* suite, const char* name)
{
	char rel[256];
	snprintf(rel, sizeof rel, "scenarios/%s/%s.map.scen", suite, name);
	gtScenario* sc = NULL;
	gtError err;
	if (gtScenario_Load(test_data_path(rel), &sc, &err) != GT_OK) fail_msg("%s", err.message);
	return sc;
}

gtMap* test_random_map(TestRng* rng, int w, int h, int blocked_percent)
{
	unsigned char* cells = malloc((size_t)(w * h));
	assert_non_null(cells);
	for (int i = 0; i < w * h; i++) cells[i] = blocked_percent > 0 && test_rng_int(rng, 100) < blocked_percent;
	gtMap* m = NULL;
	gtError err;
	assert_int_equal(gtMap_FromCells(w, h, cells, &m, &err), GT_OK);
	free(cells);
	return m;
}

gtVec2 test_random_point(const gtMap* map, TestRng* rng)
{
	int w = gtMap_Width(map), h = gtMap_Height(map);
	for (;;) {
		gtVec2 p;
		int kind = test_rng_int(rng, 3);
		p.x = test_rng_int(rng, w + 1);
		p.y = test_rng_int(rng, h + 1);
		if (kind >= 1) p.x += test_rng_int(rng, 64) / 64.0; // on a horizontal cell edge
		if (kind == 2) p.y += test_rng_int(rng, 64) / 64.0; // inside a cell
		if (gtMap_CheckPoint(map, p) == GT_POINT_VALID) return p;
	}
}

// Exact arithmetic for the twin: coordinates are scaled by 2^40 to integers (< 2^47 on maps up to
// 64 cells) and products are taken in 128 bits.
__extension__ typedef __int128 Wide;
#define TWIN_SCALE ((int64_t)1 << 40)

typedef struct Frac {
	int64_t num, den; // den > 0
} Frac;

static bool frac_less(Frac a, Frac b)
{
	return (Wide)a.num * b.den < (Wide)b.num * a.den;
}

// Narrows the open parameter interval (lo, hi) to where lo_bound < a + t*d < hi_bound.
static bool clip_axis(int64_t a, int64_t d, int64_t lo_bound, int64_t hi_bound, Frac* lo, Frac* hi)
{
	if (d == 0) return lo_bound < a && a < hi_bound;
	Frac t0 = {lo_bound - a, d}, t1 = {hi_bound - a, d};
	if (d < 0) { // dividing by a negative swaps the bounds
		t0.num = a - hi_bound;
		t0.den = -d;
		t1.num = a - lo_bound;
		t1.den = -d;
	}
	if (frac_less(*lo, t0)) *lo = t0;
	if (frac_less(t1, *hi)) *hi = t1;
	return frac_less(*lo, *hi);
}

static int64_t to_fixed(double v)
{
	double scaled = v * (double)TWIN_SCALE;
	if (scaled != floor(scaled)) fail_msg("twin needs coordinates on the 2^-40 grid, got %.17g", v);
	return (int64_t)scaled;
}

bool test_brute_visible(const gtMap* map, gtVec2 a, gtVec2 b)
{
	const int64_t S = TWIN_SCALE;
	int w = gtMap_Width(map), h = gtMap_Height(map);
	assert_true(w <= 64 && h <= 64);
	int64_t ax = to_fixed(a.x), ay = to_fixed(a.y), bx = to_fixed(b.x), by = to_fixed(b.y);
	int64_t dx = bx - ax, dy = by - ay;
	if (dx == 0 && dy == 0) return true;
	// Endpoint at a pinch point: must leave into the free cell on its +x side.
	int64_t ends[2][4] = {{ax, ay, dx, dy}, {bx, by, -dx, -dy}};
	for (int e = 0; e < 2; e++) {
		if (ends[e][0] % S || ends[e][1] % S) continue;
		int x = (int)(ends[e][0] / S), y = (int)(ends[e][1] / S);
		if (gtMap_ClassifyCorner(map, x, y) != GT_CORNER_PINCH) continue;
		bool free_below = !gtMap_IsBlocked(map, x, y);
		if (ends[e][2] < 0 || (free_below ? ends[e][3] < 0 : ends[e][3] > 0)) return false;
	}
	// Only cells and corners within the segment's bounding box can meet it; one more on each side
	// covers the division's rounding toward zero. (A scan of the whole map made this twin most of
	// the sanitizer run of the tests that call it thousands of times.)
	int x0 = (int)((ax < bx ? ax : bx) / S) - 1, x1 = (int)((ax > bx ? ax : bx) / S) + 1;
	int y0 = (int)((ay < by ? ay : by) / S) - 1, y1 = (int)((ay > by ? ay : by) / S) + 1;
	// 1. the open segment meets the interior of a blocked cell (cells one outside the map too)
	for (int cy = y0 < -1 ? -1 : y0; cy <= (y1 > h ? h : y1); cy++)
		for (int cx = x0 < -1 ? -1 : x0; cx <= (x1 > w ? w : x1); cx++) {
			if (!gtMap_IsBlocked(map, cx, cy)) continue;
			Frac lo = {0, 1}, hi = {1, 1};
			if (clip_axis(ax, dx, cx * S, (cx + 1) * S, &lo, &hi) && clip_axis(ay, dy, cy * S, (cy + 1) * S, &lo, &hi))
				return false;
		}
	// 2. the segment runs along an edge between two blocked cells
	if (dx == 0 && ax % S == 0) {
		int X = (int)(ax / S);
		for (int j = 0; j < h; j++)
			if (gtMap_IsBlocked(map, X - 1, j) && gtMap_IsBlocked(map, X, j) && (ay < by ? ay : by) < (j + 1) * S &&
			    (ay > by ? ay : by) > j * S)
				return false;
	}
	if (dy == 0 && ay % S == 0) {
		int Y = (int)(ay / S);
		for (int j = 0; j < w; j++)
			if (gtMap_IsBlocked(map, j, Y - 1) && gtMap_IsBlocked(map, j, Y) && (ax < bx ? ax : bx) < (j + 1) * S &&
			    (ax > bx ? ax : bx) > j * S)
				return false;
	}
	// 3. a pinch point strictly inside the segment
	for (int y = y0 < 0 ? 0 : y0; y <= (y1 > h ? h : y1); y++)
		for (int x = x0 < 0 ? 0 : x0; x <= (x1 > w ? w : x1); x++) {
			if (gtMap_ClassifyCorner(map, x, y) != GT_CORNER_PINCH) continue;
			int64_t px = x * S - ax, py = y * S - ay;
			if ((Wide)px * dy - (Wide)py * dx != 0) continue;
			Wide dot = (Wide)px * dx + (Wide)py * dy;
			if (dot > 0 && dot < (Wide)dx * dx + (Wide)dy * dy) return false;
		}
	return true;
}

void test_check_path(gtOracle* oracle, const gtMap* map, gtVec2 s, gtVec2 t, double expect)
{
	int n, count;
	gtMap_Vertices(map, &n);
	gtVec2* pts = test_malloc(sizeof *pts * (size_t)(n + 2));
	double d;
	gtError err;
	assert_int_equal(gtOracle_Path(oracle, s, t, pts, n + 2, &count, &d, &err), GT_OK);
	bool small = gtMap_Width(map) <= 64 && gtMap_Height(map) <= 64;
	if (isinf(expect)) {
		assert_true(isinf(d));
		assert_int_equal(count, 0);
	} else {
		assert_true(count >= 2);
		assert_true(pts[0].x == s.x && pts[0].y == s.y && pts[count - 1].x == t.x && pts[count - 1].y == t.y);
		double length = 0;
		for (int i = 0; i + 1 < count; i++) {
			bool seen = small ? test_brute_visible(map, pts[i], pts[i + 1]) : gtMap_Visible(map, pts[i], pts[i + 1]);
			if (!seen)
				fail_msg("path step (%g,%g)-(%g,%g) is not visible", pts[i].x, pts[i].y, pts[i + 1].x, pts[i + 1].y);
			length += hypot(pts[i + 1].x - pts[i].x, pts[i + 1].y - pts[i].y);
		}
		assert_float_equal(length, expect, 1e-9 * (1 + expect));
		assert_float_equal(d, expect, 1e-9 * (1 + expect));
	}
	test_free(pts);
}

gtQuery test_keyword_query(gtVec2 at, int k, const int32_t* keyword)
{
	gtQuery q = gtQuery_Default(at);
	q.k = k;
	q.keywords = keyword;
	q.keyword_count = 1;
	return q;
}

gtDistance test_world_distance(gtNavQuery* query)
{
	gtDistance d;
	gtError err;
	if (gtNavQuery_WorldDistance(query, &d, &err)) fail_msg("%s", err.message);
	return d;
}

// GT_TEST_TIMES=1: each test's wall and CPU seconds on stderr ("time: NAME ..."), to find where
// a program's run goes. The test's name comes in as its initial state.
static struct timespec test_wall_start;
static clock_t test_cpu_start;

static int test_timer_start(void** state)
{
	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &test_wall_start);
	test_cpu_start = clock();
	return 0;
}

static int test_timer_stop(void** state)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double wall = (double)(now.tv_sec - test_wall_start.tv_sec) +
	              (double)(now.tv_nsec - test_wall_start.tv_nsec) * 1e-9;
	fprintf(stderr, "time: %s %.2f s (cpu %.2f s)\n", (const char*)*state, wall,
	        (double)(clock() - test_cpu_start) / CLOCKS_PER_SEC);
	return 0;
}

// GT_TEST_FILTER=PATTERN runs only the tests whose names match (cmocka's '*' and '?').
int test_run_group(const char* group, TestFcn* const* tests, const char* names, int count)
{
	const char* filter = getenv("GT_TEST_FILTER");
	const char* times = getenv("GT_TEST_TIMES");
	if (filter && *filter) cmocka_set_test_filter(filter);
	struct CMUnitTest* list = calloc((size_t)count, sizeof *list);
	char* copy = strdup(names);
	assert_non_null(list);
	assert_non_null(copy);
	char* next = copy;
	for (int i = 0; i < count; i++) {
		while (*next == ' ' || *next == ',') next++;
		list[i].name = next;
		list[i].test_func = tests[i];
		if (times && *times) {
			list[i].setup_func = test_timer_start;
			list[i].teardown_func = test_timer_stop;
			list[i].initial_state = (void*)list[i].name;
		}
		next += strcspn(next, " ,");
		if (*next) *next++ = '\0';
	}
	int failed = _cmocka_run_group_tests(group, list, (size_t)count, NULL, NULL);
	free(copy);
	free(list);
	return failed;
}

gtEhl* test_build_ehl(const gtMap* map, int cell)
{
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = cell;
	def.threads = 2;
	gtEhl* ehl = NULL;
	gtError err;
	if (gtEhl_Build(map, &def, &ehl, &err) != GT_OK) fail_msg("%s", err.message);
	return ehl;
}

void test_temp_file(char path[TEST_TEMP_PATH], const char* tag)
{
	snprintf(path, TEST_TEMP_PATH, "/tmp/gridtree_%s_XXXXXX", tag);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
}

gtMap* test_load_map(const char* path)
{
	gtMap* map = NULL;
	gtError err;
	if (gtMap_Load(path, &map, &err)) fail_msg("%s", err.message);
	return map;
}

gtMap* test_cells_copy(const gtMap* map)
{
	return test_cells_with_rect(map, 0, 0, -1, -1, false);
}

gtMap* test_cells_with_rect(const gtMap* map, int x0, int y0, int x1, int y1, bool blocked)
{
	int w = gtMap_Width(map), h = gtMap_Height(map);
	unsigned char* cells = test_malloc((size_t)w * (size_t)h);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			bool inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
			cells[(size_t)y * (size_t)w + (size_t)x] = (unsigned char)(inside ? blocked : gtMap_IsBlocked(map, x, y));
		}
	gtError err;
	gtMap* copy;
	if (gtMap_FromCells(w, h, cells, &copy, &err)) fail_msg("%s", err.message);
	test_free(cells);
	return copy;
}

gtWorld* test_make_world(const gtMap* map, int leaf)
{
	gtWorldDef def = gtWorld_DefaultDef();
	def.leaf_size = leaf;
	gtWorld* world = NULL;
	gtError err;
	if (gtWorld_Create(map, &def, &world, &err)) fail_msg("%s", err.message);
	return world;
}

void test_same_distances(const gtMap* map, const gtEhl* a, const gtEhl* b, uint64_t seed, int count)
{
	gtEhlQuery *qa, *qb;
	gtError err;
	if (gtEhlQuery_Create(a, &qa, &err) || gtEhlQuery_Create(b, &qb, &err)) fail_msg("%s", err.message);
	TestRng rng = {seed};
	for (int i = 0; i < count; i++) {
		gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
		double da, db;
		assert_int_equal(gtEhl_Distance(qa, s, t, &da, &err), GT_OK);
		assert_int_equal(gtEhl_Distance(qb, s, t, &db, &err), GT_OK);
		assert_true(da == db);
	}
	gtEhlQuery_Destroy(qa);
	gtEhlQuery_Destroy(qb);
}

void test_nav_equals_scratch(gtNavQuery* nq, const gtMap* map, const gtEhlDef* def, TestRng* rng, int pairs,
                             const char* what, int edit)
{
	gtError err;
	gtEhl* scratch;
	gtEhlQuery* q;
	assert_int_equal(gtEhl_Build(map, def, &scratch, &err), GT_OK);
	assert_int_equal(gtEhlQuery_Create(scratch, &q, &err), GT_OK);
	for (int i = 0; i < pairs; i++) {
		gtVec2 a = test_random_point(map, rng), b = test_random_point(map, rng);
		double want, got;
		assert_int_equal(gtEhl_Distance(q, a, b, &want, &err), GT_OK);
		assert_int_equal(gtNavQuery_Distance(nq, a, b, &got, &err), GT_OK);
		if (!(isinf(want) ? isinf(got) : fabs(got - want) <= 1e-9 * (1 + want)))
			fail_msg("%s, edit %d: (%g, %g)-(%g, %g) is %.12g, from scratch %.12g", what, edit, a.x, a.y, b.x, b.y, got,
			         want);
	}
	gtEhlQuery_Destroy(q);
	gtEhl_Destroy(scratch);
}
