// The oracle on real MovingAI maps of all four suites (needs ../shared/data or $GRIDTREE_DATA):
// known vertex and edge counts, the scenario upper bounds, symmetry, and valid paths.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

typedef struct Known {
	const char* suite;
	const char* name;
	int vertices;
	int64_t edges; // -1: not checked (graph not built here)
} Known;

// Edge counts are the authors' visibility graphs (.vis, counted once per undirected edge).
static const Known KNOWN[] = {
    {"bgmaps", "AR0011SR", 1133, -1},          {"sc1", "TheHighway", 6591, -1},      {"da2", "ht_store", 21, 130},
    {"da2", "lt_gallowstemplar_n", 364, 3230}, {"da2", "ca_caverns2prc", 764, 8597},
};

static void test_known_counts(void** state)
{
	(void)state;
	for (size_t i = 0; i < sizeof KNOWN / sizeof KNOWN[0]; i++) {
		gtMap* m = test_load_shared_map(KNOWN[i].suite, KNOWN[i].name);
		int n;
		gtMap_Vertices(m, &n);
		assert_int_equal(n, KNOWN[i].vertices);
		if (KNOWN[i].edges >= 0) {
			gtOracle* o;
			gtError err;
			assert_int_equal(gtOracle_Create(m, 0, &o, &err), GT_OK);
			assert_int_equal(gtOracle_EdgeCount(o), KNOWN[i].edges);
			gtOracle_Destroy(o);
		}
		gtMap_Destroy(m);
	}
}

// Polyanya's answer for this line differs from a solver that lets paths through pinch points
// (75.2135): docs/algorithms.md 2.7.
static void test_pinch_scenario_matches_polyanya(void** state)
{
	(void)state;
	gtMap* m = test_load_shared_map("da2", "w_sundermount");
	gtScenario* sc = test_load_scenario("da2", "w_sundermount");
	int count;
	const gtScenarioEntry* e = gtScenario_Entries(sc, &count);
	assert_true(count > 191);
	gtOracle* o;
	gtError err;
	assert_int_equal(gtOracle_Create(m, 0, &o, &err), GT_OK);
	double d;
	assert_int_equal(gtOracle_Distance(o, e[190].start, e[190].goal, &d, &err), GT_OK);
	assert_float_equal(d, 75.2984, 1e-4);
	gtOracle_Destroy(o);
	gtScenario_Destroy(sc);
	gtMap_Destroy(m);
}

static void run_map(const char* suite, const char* name)
{
	gtMap* m = test_load_shared_map(suite, name);
	gtScenario* sc = test_load_scenario(suite, name);
	gtOracle* o;
	gtError err;
	assert_int_equal(gtOracle_Create(m, 0, &o, &err), GT_OK);
	int count;
	const gtScenarioEntry* e = gtScenario_Entries(sc, &count);
	int step = count > 120 ? count / 120 : 1, checked = 0;
	for (int i = 0; i < count; i += step) {
		assert_int_equal(e[i].map_width, gtMap_Width(m));
		double d, back;
		assert_int_equal(gtOracle_Distance(o, e[i].start, e[i].goal, &d, &err), GT_OK);
		assert_int_equal(gtOracle_Distance(o, e[i].goal, e[i].start, &back, &err), GT_OK);
		if (!(d <= e[i].octile + e[i].octile_slack))
			fail_msg("%s/%s entry %d: distance %.6f above octile %.6f", suite, name, i, d, e[i].octile);
		// Euclidean distance is a lower bound; a scenario pair is always connected.
		double straight = hypot(e[i].goal.x - e[i].start.x, e[i].goal.y - e[i].start.y);
		assert_true(d >= straight - 1e-9);
		assert_float_equal(d, back, 1e-9 * (1 + d));
		test_check_path(o, m, e[i].start, e[i].goal, d);
		checked++;
	}
	// Random points of every kind, also across components: symmetry and valid paths.
	TestRng rng = {(uint64_t)count * 7919u};
	for (int q = 0; q < 30; q++) {
		gtVec2 s = test_random_point(m, &rng), t = test_random_point(m, &rng);
		double d, back;
		assert_int_equal(gtOracle_Distance(o, s, t, &d, &err), GT_OK);
		assert_int_equal(gtOracle_Distance(o, t, s, &back, &err), GT_OK);
		assert_true(isinf(d) == isinf(back));
		if (!isinf(d)) assert_float_equal(d, back, 1e-9 * (1 + d));
		test_check_path(o, m, s, t, d);
	}
	printf("note: %s/%s: %d scenario queries and 30 random pairs checked\n", suite, name, checked);
	gtOracle_Destroy(o);
	gtScenario_Destroy(sc);
	gtMap_Destroy(m);
}

static void test_bgmaps_ar0011sr(void** state)
{
	(void)state;
	run_map("bgmaps", "AR0011SR");
}
static void test_bgmaps_ar0602sr(void** state)
{
	(void)state;
	run_map("bgmaps", "AR0602SR");
}
static void test_da2_w_sundermount(void** state)
{
	(void)state;
	run_map("da2", "w_sundermount");
}
static void test_da2_ht_chantry(void** state)
{
	(void)state;
	run_map("da2", "ht_chantry");
}
static void test_dao_arena(void** state)
{
	(void)state;
	run_map("dao", "arena");
}
static void test_dao_lak303d(void** state)
{
	(void)state;
	run_map("dao", "lak303d");
}
static void test_sc1_archipelago(void** state)
{
	(void)state;
	run_map("sc1", "Archipelago");
}

TEST_MAIN("realmaps", test_known_counts, test_pinch_scenario_matches_polyanya, test_bgmaps_ar0011sr,
          test_bgmaps_ar0602sr, test_da2_w_sundermount, test_da2_ht_chantry, test_dao_arena, test_dao_lak303d,
          test_sc1_archipelago)
