// EHL past 16-bit vertex ids (ehl_layout.h: 24-bit via vertices, 32-bit hubs and labels) against the
// oracle, and index files of the 16-bit formats (versions 1 and 2) still loading, widened.
#include <math.h>
#include <stdlib.h>

#include "test_support.h"

// A map of `boxes` x `boxes` closed 3x3 rooms, each with a one-cell pillar in the middle: 4 convex
// corners per room, no room reaching another, so the graph and the labels stay small while the
// vertex ids go past 65,535.
enum { PERIOD = 4 };

static bool closed_room_wall(int x, int y)
{
	return x % PERIOD == 0 || y % PERIOD == 0 || (x % PERIOD == 2 && y % PERIOD == 2);
}

static gtMap* rooms_map(int boxes)
{
	return test_map_from_rule(boxes * PERIOD + 1, closed_room_wall);
}

// A random point of room (bx, by), interior, on its walls or at its pillar's corners.
static gtVec2 point_in_room(const gtMap* m, TestRng* rng, int bx, int by)
{
	return test_point_in_box(m, rng, bx * PERIOD + 1, by * PERIOD + 1, 3);
}

static void expect_oracle(gtEhlQuery* q, gtOracle* o, gtVec2 s, gtVec2 t)
{
	double expect, got;
	gtError err;
	assert_int_equal(gtOracle_Distance(o, s, t, &expect, &err), GT_OK);
	assert_int_equal(gtEhl_Distance(q, s, t, &got, &err), GT_OK);
	if (isinf(expect) != isinf(got) || (!isinf(expect) && fabs(got - expect) > 1e-9 * (1 + expect)))
		fail_msg("(%.17g, %.17g) -> (%.17g, %.17g): ehl %.12f oracle %.12f", s.x, s.y, t.x, t.y, got, expect);
}

static void test_past_16_bit_ids(void** state)
{
	(void)state;
	enum { BOXES = 130 };
	gtMap* m = rooms_map(BOXES);
	int n;
	gtMap_Vertices(m, &n);
	assert_int_equal(n, 4 * BOXES * BOXES); // 67,600: beyond 16 bits
	gtEhl* e = test_build_ehl(m, 4);
	assert_int_equal(gtEhl_GetStats(e).convex_vertices, n);
	gtOracle* o;
	gtError err;
	assert_int_equal(gtOracle_Create(m, 0, &o, &err), GT_OK);
	gtEhlQuery* q;
	assert_int_equal(gtEhlQuery_Create(e, &q, &err), GT_OK);
	TestRng rng = {3501};
	int high = 0;
	for (int i = 0; i < 400; i++) {
		// Mostly the rooms whose corners have ids above 65,535 (rows from 128 on), some anywhere.
		int bx = test_rng_int(&rng, BOXES), by = i % 4 ? 128 + test_rng_int(&rng, 2) : test_rng_int(&rng, BOXES);
		high += by >= 128;
		gtVec2 s = point_in_room(m, &rng, bx, by), t = point_in_room(m, &rng, bx, by);
		expect_oracle(q, o, s, t);
		gtVec2 path[16];
		int count;
		double d;
		assert_int_equal(gtEhl_Path(q, s, t, path, 16, &count, &d, &err), GT_OK);
		double length = 0;
		for (int k = 1; k < count; k++) length += hypot(path[k].x - path[k - 1].x, path[k].y - path[k - 1].y);
		assert_float_equal(length, d, 1e-9 * (1 + d));
	}
	assert_true(high > 250);
	for (int i = 0; i < 20; i++) // rooms apart: unreachable
		expect_oracle(q, o, point_in_room(m, &rng, 0, 0),
		              point_in_room(m, &rng, 1 + test_rng_int(&rng, BOXES - 1), 129));
	gtEhlQuery_Destroy(q);
	// Saved and loaded (format version 3): the same answers.
	char path[TEST_TEMP_PATH];
	test_temp_file(path, "ehl_big");
	assert_int_equal(gtEhl_Save(e, path, &err), GT_OK);
	gtEhl* back;
	assert_int_equal(gtEhl_Load(m, path, &back, &err), GT_OK);
	assert_int_equal(gtEhl_GetStats(back).via_labels, gtEhl_GetStats(e).via_labels);
	test_same_distances(m, e, back, 7, 300);
	remove(path);
	gtEhl_Destroy(back);
	gtOracle_Destroy(o);
	gtEhl_Destroy(e);
	gtMap_Destroy(m);
}

// Compares a loaded old index with a fresh build of the same map, cell size and links: the same
// structure (`same_vias`), and both equal to the oracle.
static void expect_like_fresh(const gtMap* m, const gtEhl* loaded, const gtEhl* fresh, gtOracle* o, bool same_vias)
{
	gtEhlStats a = gtEhl_GetStats(loaded), b = gtEhl_GetStats(fresh);
	assert_int_equal(a.cell_size, b.cell_size);
	if (same_vias) {
		assert_int_equal(a.via_labels, b.via_labels);
		assert_int_equal(a.full_vias, b.full_vias);
		assert_int_equal(a.hub_entries, b.hub_entries);
	}
	gtEhlQuery *q, *qf;
	gtError err;
	assert_int_equal(gtEhlQuery_Create(loaded, &q, &err), GT_OK);
	assert_int_equal(gtEhlQuery_Create(fresh, &qf, &err), GT_OK);
	TestRng rng = {35};
	for (int i = 0; i < 300; i++) {
		gtVec2 s = test_random_point(m, &rng), t = test_random_point(m, &rng);
		double d, df;
		assert_int_equal(gtEhl_Distance(q, s, t, &d, &err), GT_OK);
		assert_int_equal(gtEhl_Distance(qf, s, t, &df, &err), GT_OK);
		assert_float_equal(d, df, 1e-9 * (1 + df));
		if (o) expect_oracle(q, o, s, t);
	}
	gtEhlQuery_Destroy(q);
	gtEhlQuery_Destroy(qf);
}

// tests/data holds indexes of assets/maps/small.map written by gridtree before format version 3:
// small_g16_v1.ehl (gridtree ehl-build --cell 16) and small_g8_v2.ehl (--cell 8 --links
// small_v2.links).
static void test_old_format_files_load(void** state)
{
	(void)state;
	gtMap* m = test_load_map("assets/maps/small.map");
	gtError err;
	gtEhl* old;
	assert_int_equal(gtEhl_Load(m, "tests/data/small_g16_v1.ehl", &old, &err), GT_OK);
	gtEhl* fresh = test_build_ehl(m, 16);
	gtOracle* o;
	assert_int_equal(gtOracle_Create(m, 1, &o, &err), GT_OK);
	expect_like_fresh(m, old, fresh, o, true);
	gtEhl_Destroy(old);
	gtEhl_Destroy(fresh);

	assert_int_equal(gtEhl_Load(m, "tests/data/small_g8_v2.ehl", &old, &err), GT_OK);
	const gtEhlLink* links;
	assert_int_equal(gtEhl_Links(old, &links), 1);
	gtEhlLink expect_link = {{6.5, 2.5}, {30.5, 6.5}, 1};
	assert_true(links[0].a.x == expect_link.a.x && links[0].b.y == expect_link.b.y && links[0].cost == 1);
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 8;
	assert_int_equal(gtEhl_BuildWithLinks(m, &def, &expect_link, 1, &fresh, &err), GT_OK);
	// Written before build rule P5, the old file keeps link-end vias (and hub entries) a build now
	// drops (docs/links.md): the same answers from more of them.
	expect_like_fresh(m, old, fresh, NULL, false);
	// Saved again, it is a version 3 file with the same answers.
	char path[TEST_TEMP_PATH];
	test_temp_file(path, "ehl_v2_to_v3");
	assert_int_equal(gtEhl_Save(old, path, &err), GT_OK);
	gtEhl* again;
	assert_int_equal(gtEhl_Load(m, path, &again, &err), GT_OK);
	test_same_distances(m, old, again, 11, 200);
	remove(path);
	gtEhl_Destroy(again);
	gtEhl_Destroy(old);
	gtEhl_Destroy(fresh);
	gtOracle_Destroy(o);
	gtMap_Destroy(m);
}

TEST_MAIN("ehl_big", test_past_16_bit_ids, test_old_format_files_load)
