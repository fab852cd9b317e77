// Helpers shared by the cmocka programs: fixtures, benchmark data lookup, a seeded RNG and the
// independent brute-force visibility twin.
#ifndef GRIDTREE_TEST_SUPPORT_H
#define GRIDTREE_TEST_SUPPORT_H

// cmocka needs these before its header.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gridtree/gridtree.h"
#include "scenario.h"

typedef void TestFcn(void** state);

// Runs the test functions as one cmocka group named `group`; `names` is the list of their names
// as written (what TEST_MAIN passes), so the output names every test.
int test_run_group(const char* group, TestFcn* const* tests, const char* names, int count);

// The main() of a test program: TEST_MAIN("world", test_a, test_b, ...).
#define TEST_MAIN(group, ...)                                                                                          \
	int main(void)                                                                                                     \
	{                                                                                                                  \
		TestFcn* const tests[] = {__VA_ARGS__};                                                                        \
		return test_run_group(group, tests, #__VA_ARGS__, (int)(sizeof tests / sizeof *tests));                        \
	}

// Loads a map file (a bundled one: assets/maps/...), failing the test when it cannot.
gtMap* test_load_map(const char* path);

// A new map with the cells `map` has now (an edited map's twin, for a fresh oracle).
gtMap* test_cells_copy(const gtMap* map);

// The same with cells [x0, x1] x [y0, y1] set to `blocked` (an edit's map).
gtMap* test_cells_with_rect(const gtMap* map, int x0, int y0, int x1, int y1, bool blocked);

// An empty world over the map with the given leaf size, failing the test when it cannot.
gtWorld* test_make_world(const gtMap* map, int leaf);

// Two indexes of one map give bit-identical distances on `count` random point pairs.
void test_same_distances(const gtMap* map, const gtEhl* a, const gtEhl* b, uint64_t seed, int count);

// The EHL index of the map with cell size `cell` (two build threads), failing the test when the
// build fails.
gtEhl* test_build_ehl(const gtMap* map, int cell);

// Creates an empty file /tmp/gridtree_<tag>_XXXXXX and writes its name into `path` (the caller
// removes it); fails the test when it cannot.
#define TEST_TEMP_PATH 64
void test_temp_file(char path[TEST_TEMP_PATH], const char* tag);

// Parses map rows given as one string with '\n' between rows ('.' free, '@' blocked).
gtMap* test_map_from_rows(const char* rows);

// A side x side map whose cell (x, y) is blocked where `blocked(x, y)` says so.
gtMap* test_map_from_rule(int side, bool (*blocked)(int x, int y));

// Directory of the shared benchmark data ($GRIDTREE_DATA, else ../shared/data), or NULL with a
// message printed once when it is absent.
const char* test_data_dir(void);

// Loads <data>/maps/<suite>/<name>.map; skips the current test when the data is absent.
gtMap* test_load_shared_map(const char* suite, const char* name);

// Loads <data>/scenarios/<suite>/<name>.map.scen (fails the test when it cannot).
gtScenario* test_load_scenario(const char* suite, const char* name);

// Path of a file inside the data dir (static buffer).
const char* test_data_path(const char* relative);

// The library's generator (gt_random.h) under the tests' names.
typedef gtRandom TestRng;

static inline uint64_t test_rng_next(TestRng* rng)
{
	return gtRandom_Next(rng);
}

static inline int test_rng_int(TestRng* rng, int n) // uniform in [0, n)
{
	return gtRandom_Below(rng, n);
}

// A w x h map whose cells are blocked with the given percentage (0 gives an open map).
gtMap* test_random_map(TestRng* rng, int w, int h, int blocked_percent);

// A random valid point: an integer grid point, a point on a cell edge, or a point inside a free
// cell on a 1/64 grid (kind chosen at random).
gtVec2 test_random_point(const gtMap* map, TestRng* rng);

// The nav query answers `pairs` random point pairs of `map` (an edited map's copy, test_cells_copy)
// as an EHL index built from scratch on it with `def` does; a failure names `what` and the edit.
void test_nav_equals_scratch(gtNavQuery* nq, const gtMap* map, const gtEhlDef* def, TestRng* rng, int pairs,
                             const char* what, int edit);

// A random valid point of the box [x, x + size] x [y, y + size] on a 1/8 grid (interior, walls,
// corners).
gtVec2 test_point_in_box(const gtMap* map, TestRng* rng, int x, int y, int size);

// A query for the k nearest objects with one keyword, from `at`.
gtQuery test_keyword_query(gtVec2 at, int k, const int32_t* keyword);

// The world distance of a navigation query; fails the test when the backend cannot start.
gtDistance test_world_distance(gtNavQuery* query);

// Independent visibility test in exact integer arithmetic, for maps up to 64x64 and coordinates
// on the 2^-40 grid: checks every blocked cell, every edge between two blocked cells and every
// pinch point against the segment.
bool test_brute_visible(const gtMap* map, gtVec2 a, gtVec2 b);

// Asks the oracle for the s-t path and checks it: ends at s and t, consecutive points co-visible
// (brute-force twin on maps up to 64x64, gtMap_Visible beyond), length and reported distance equal
// to `expect` (an unreachable pair must give an empty path).
void test_check_path(gtOracle* oracle, const gtMap* map, gtVec2 s, gtVec2 t, double expect);

#endif
