// Hub labels built in batches on worker threads (ehl/hub_labels.c: maps of 16,384 corners or more):
// the same index on any thread count, with links or without, and distances (and paths) equal to the
// oracle's.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

// Rooms of 3x3 cells with a pillar each, joined by one-cell doors into closed blocks of BLOCK x BLOCK
// rooms: about 12 corners a room, a block a few hundred, so the labels are cheap while the map has
// more corners than the batches' threshold and consecutive roots share a block.
enum { PERIOD = 4, BLOCK = 4, BOXES = 44 };

static bool wall_at(int x, int y)
{
	if (x % PERIOD == 2 && y % PERIOD == 2) return true; // pillar
	bool door_x = x % PERIOD == 0 && y % PERIOD == 2 && (x / PERIOD) % BLOCK != 0;
	bool door_y = y % PERIOD == 0 && x % PERIOD == 2 && (y / PERIOD) % BLOCK != 0;
	return (x % PERIOD == 0 || y % PERIOD == 0) && !door_x && !door_y;
}

static gtMap* blocks_map(void)
{
	return test_map_from_rule(BOXES * PERIOD + 1, wall_at);
}

// A random point of room (bx, by): interior, on its walls or at its pillar's corners.
static gtVec2 point_in_room(const gtMap* m, TestRng* rng, int bx, int by)
{
	return test_point_in_box(m, rng, bx * PERIOD + 1, by * PERIOD + 1, 3);
}

static gtEhl* build(const gtMap* m, int threads)
{
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 4;
	def.threads = threads;
	gtEhl* e = NULL;
	gtError err;
	if (gtEhl_Build(m, &def, &e, &err) != GT_OK) fail_msg("%s", err.message);
	return e;
}

// The bytes of an index as saved (the file holds no time or thread count).
static unsigned char* saved_bytes(const gtEhl* e, long* size)
{
	char path[TEST_TEMP_PATH];
	test_temp_file(path, "ehl_batches");
	gtError err;
	assert_int_equal(gtEhl_Save(e, path, &err), GT_OK);
	FILE* f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char* bytes = malloc((size_t)*size);
	assert_non_null(bytes);
	assert_int_equal(fread(bytes, 1, (size_t)*size, f), (size_t)*size);
	fclose(f);
	remove(path);
	return bytes;
}

static void expect_same_index(const gtEhl* a, const gtEhl* b)
{
	gtEhlStats sa = gtEhl_GetStats(a), sb = gtEhl_GetStats(b);
	assert_int_equal(sa.label_entries, sb.label_entries);
	assert_int_equal(sa.useful_entries, sb.useful_entries);
	assert_int_equal(sa.hub_entries, sb.hub_entries);
	assert_int_equal(sa.via_labels, sb.via_labels);
	long size_a, size_b;
	unsigned char *bytes_a = saved_bytes(a, &size_a), *bytes_b = saved_bytes(b, &size_b);
	assert_int_equal(size_a, size_b);
	assert_memory_equal(bytes_a, bytes_b, (size_t)size_a);
	free(bytes_a);
	free(bytes_b);
}

static void test_batches_equal_on_any_thread_count(void** state)
{
	(void)state;
	gtMap* m = blocks_map();
	int n;
	gtMap_Vertices(m, &n);
	assert_true(n >= 16384); // the batches' threshold
	gtEhl *one = build(m, 1), *two = build(m, 2), *three = build(m, 3);
	expect_same_index(one, two);
	expect_same_index(one, three);
	gtOracle* o;
	gtError err;
	assert_int_equal(gtOracle_Create(m, 0, &o, &err), GT_OK);
	gtEhlQuery* q;
	assert_int_equal(gtEhlQuery_Create(two, &q, &err), GT_OK);
	TestRng rng = {35035};
	for (int i = 0; i < 500; i++) {
		// Two rooms of one block (reachable through its doors), a few of different blocks.
		int block_x = test_rng_int(&rng, BOXES / BLOCK), block_y = test_rng_int(&rng, BOXES / BLOCK);
		int ax = block_x * BLOCK + test_rng_int(&rng, BLOCK), ay = block_y * BLOCK + test_rng_int(&rng, BLOCK);
		int bx = block_x * BLOCK + test_rng_int(&rng, BLOCK), by = block_y * BLOCK + test_rng_int(&rng, BLOCK);
		if (i % 10 == 0) bx = test_rng_int(&rng, BOXES), by = test_rng_int(&rng, BOXES);
		gtVec2 s = point_in_room(m, &rng, ax, ay), t = point_in_room(m, &rng, bx, by);
		double expect, got;
		assert_int_equal(gtOracle_Distance(o, s, t, &expect, &err), GT_OK);
		assert_int_equal(gtEhl_Distance(q, s, t, &got, &err), GT_OK);
		if (isinf(expect) != isinf(got) || (!isinf(expect) && fabs(got - expect) > 1e-9 * (1 + expect)))
			fail_msg("(%g, %g) -> (%g, %g): ehl %.12f oracle %.12f", s.x, s.y, t.x, t.y, got, expect);
		if (isinf(got)) continue;
		gtVec2 path[256];
		int count;
		double d;
		assert_int_equal(gtEhl_Path(q, s, t, path, 256, &count, &d, &err), GT_OK);
		double length = 0;
		for (int k = 1; k < count; k++) length += hypot(path[k].x - path[k - 1].x, path[k].y - path[k - 1].y);
		assert_float_equal(length, d, 1e-9 * (1 + d));
		assert_true(path[0].x == s.x && path[0].y == s.y && path[count - 1].x == t.x && path[count - 1].y == t.y);
	}
	gtEhlQuery_Destroy(q);
	gtOracle_Destroy(o);
	gtEhl_Destroy(one);
	gtEhl_Destroy(two);
	gtEhl_Destroy(three);
	gtMap_Destroy(m);
}

// An index with links labels in batches too, after the early ends (ranked by the searches' trees):
// teleporters of cost 0 and 1 within a block (the first ranks) and across blocks (walls no walk
// crosses: the schedule), the same file on 1, 2 and 3 threads, and its distances the oracle's with
// the same links (the nav's Dijkstra over the visibility graph plus the link edges).
enum { TELEPORTERS = 24 };

static void test_batches_with_links_equal_on_any_thread_count(void** state)
{
	(void)state;
	gtMap* m = blocks_map();
	TestRng rng = {35036};
	gtEhlLink links[TELEPORTERS];
	for (int k = 0; k < TELEPORTERS; k++) {
		int block_x = test_rng_int(&rng, BOXES / BLOCK), block_y = test_rng_int(&rng, BOXES / BLOCK);
		int ax = block_x * BLOCK, ay = block_y * BLOCK, bx = ax + BLOCK - 1, by = ay + BLOCK - 1; // far corners
		if (k % 2) bx = test_rng_int(&rng, BOXES), by = test_rng_int(&rng, BOXES); // most likely another block
		links[k] = (gtEhlLink){point_in_room(m, &rng, ax, ay), point_in_room(m, &rng, bx, by), (double)(k % 3 == 0)};
	}
	gtEhl* index[3];
	gtError err;
	for (int i = 0; i < 3; i++) {
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 4;
		def.threads = i + 1;
		if (gtEhl_BuildWithLinks(m, &def, links, TELEPORTERS, &index[i], &err) != GT_OK) fail_msg("%s", err.message);
	}
	expect_same_index(index[0], index[1]);
	expect_same_index(index[0], index[2]);
	gtNav* nav;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	for (int k = 0; k < TELEPORTERS; k++)
		assert_int_equal(gtNav_AddLink(nav, links[k].a, links[k].b, links[k].cost, 0, NULL, &err), GT_OK);
	assert_int_equal(gtNav_SetMethod(nav, GT_NAV_ORACLE, &err), GT_OK);
	gtNavQuery* oracle;
	assert_int_equal(gtNavQuery_Create(nav, &oracle, &err), GT_OK);
	gtEhlQuery* q;
	assert_int_equal(gtEhlQuery_Create(index[1], &q, &err), GT_OK);
	int through = 0; // pairs of different blocks the links join: the walk takes a link
	for (int i = 0; i < 200; i++) {
		gtVec2 s = point_in_room(m, &rng, test_rng_int(&rng, BOXES), test_rng_int(&rng, BOXES));
		gtVec2 t = point_in_room(m, &rng, test_rng_int(&rng, BOXES), test_rng_int(&rng, BOXES));
		if (i % 2) { // from the room of a link's one end to the room of its other end
			const gtEhlLink* l = &links[test_rng_int(&rng, TELEPORTERS)];
			s = point_in_room(m, &rng, (int)l->a.x / PERIOD, (int)l->a.y / PERIOD);
			t = point_in_room(m, &rng, (int)l->b.x / PERIOD, (int)l->b.y / PERIOD);
		}
		double expect, got;
		assert_int_equal(gtNavQuery_Distance(oracle, s, t, &expect, &err), GT_OK);
		assert_int_equal(gtEhl_Distance(q, s, t, &got, &err), GT_OK);
		if (isinf(expect) != isinf(got) || (!isinf(expect) && fabs(got - expect) > 1e-9 * (1 + expect)))
			fail_msg("(%g, %g) -> (%g, %g): ehl %.12f oracle %.12f", s.x, s.y, t.x, t.y, got, expect);
		int sb = (int)s.x / (PERIOD * BLOCK) + 100 * ((int)s.y / (PERIOD * BLOCK));
		int tb = (int)t.x / (PERIOD * BLOCK) + 100 * ((int)t.y / (PERIOD * BLOCK));
		through += !isinf(expect) && sb != tb;
	}
	assert_true(through >= 20); // the check saw walks through links, not only walks within a block
	gtEhlQuery_Destroy(q);
	gtNavQuery_Destroy(oracle);
	gtNav_Destroy(nav);
	for (int i = 0; i < 3; i++) gtEhl_Destroy(index[i]);
	gtMap_Destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_batches_equal_on_any_thread_count),
	    cmocka_unit_test(test_batches_with_links_equal_on_any_thread_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
