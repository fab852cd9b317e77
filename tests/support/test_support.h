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

// Parses map rows given as one string with '\n' between rows ('.' free, '@' blocked).
gtMap* test_map_from_rows(const char* rows);

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
