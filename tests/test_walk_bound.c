// The world's walk bounds (world_walk_bound.c, docs/grid-tree.md): never above the exact walking
// distance on real, generated and hand-made maps (points inside cells, on cell edges, on block
// sides and at block corners), and queries that use them answer exactly what they answer without.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "world/world_query.h"      // gt_scan_select
#include "world/world_walk_bound.h" // GT_WALK_BOUND_MIN_SHIFT

enum { BLOCK = 1 << GT_WALK_BOUND_MIN_SHIFT }; // the smallest block: points on its sides and corners

// A random valid point on a block side or at a block corner (or, failing that, anywhere).
static gtVec2 block_edge_point(const gtMap* m, TestRng* rng)
{
	int w = gtMap_Width(m), h = gtMap_Height(m);
	for (int tries = 0; tries < 50 && w > BLOCK && h > BLOCK; tries++) {
		gtVec2 p = {test_rng_int(rng, w * 8) / 8.0, test_rng_int(rng, h * 8) / 8.0};
		int kind = test_rng_int(rng, 3);
		if (kind != 1) p.x = BLOCK * (1 + test_rng_int(rng, (w - 1) / BLOCK));
		if (kind != 0) p.y = BLOCK * (1 + test_rng_int(rng, (h - 1) / BLOCK));
		if (kind == 2 && test_rng_int(rng, 2)) { // just off a corner, on either side
			p.x += (test_rng_int(rng, 9) - 4) / 8.0;
			p.y += (test_rng_int(rng, 9) - 4) / 8.0;
		}
		if (gtMap_CheckPoint(m, p) == GT_POINT_VALID) return p;
	}
	return test_random_point(m, rng);
}

// Pairs of points (random, near each other across block sides and corners, far apart): the world's
// bound is at most the distance `d`, and above the straight line for some pairs (`raised`, so the
// check is not empty: a map of rooms or caves makes walks longer than straight lines).
static void check_bound(const gtMap* m, gtDistance d, int pairs, uint64_t seed, int min_raised)
{
	TestRng rng = {seed};
	gtWorld* w = test_make_world(m, 16);
	int raised = 0, apart = 0;
	for (int i = 0; i < pairs; i++) {
		gtVec2 a = test_rng_int(&rng, 2) ? block_edge_point(m, &rng) : test_random_point(m, &rng);
		gtVec2 b = test_rng_int(&rng, 2) ? block_edge_point(m, &rng) : test_random_point(m, &rng);
		if (test_rng_int(&rng, 4) == 0) { // b a step away from a
			gtVec2 c = {a.x + (test_rng_int(&rng, 33) - 16) / 8.0, a.y + (test_rng_int(&rng, 33) - 16) / 8.0};
			if (gtMap_CheckPoint(m, c) == GT_POINT_VALID) b = c;
		}
		double lb = gtWorld_WalkBound(w, m, a, b), exact = d.fcn(d.context, a, b);
		if (!(lb <= exact))
			fail_msg("pair %d: bound %.17g above the walk %.17g from (%.9g, %.9g) to (%.9g, %.9g)", i, lb, exact, a.x,
			         a.y, b.x, b.y);
		assert_true(lb >= 0);
		raised += lb > hypot(b.x - a.x, b.y - a.y);
		apart += lb == INFINITY; // no walk (lb <= exact: the distance is infinite too)
	}
	if (apart > 0)
		printf("note: seed %llu: %d of %d pairs with no walk by the bound\n", (unsigned long long)seed, apart, pairs);
	if (raised < min_raised)
		fail_msg("seed %llu: only %d of %d pairs have a bound above the straight line", (unsigned long long)seed,
		         raised, pairs);
	gtWorld_Destroy(w);
}

// The exact distance of an EHL index of cell `cell` (exact whatever the cell) on map m.
typedef struct Exact {
	gtNav* nav;
	gtNavQuery* query;
} Exact;

static gtDistance exact_open(Exact* e, gtMap* m, int cell, bool oracle)
{
	gtError err;
	gtNavDef def = gtNav_DefaultDef();
	if (oracle) def.method = GT_NAV_ORACLE;
	def.threads = 1;
	assert_int_equal(gtNav_Create(m, &def, &e->nav, &err), GT_OK);
	if (!oracle) {
		gtEhlDef ehl = gtEhl_DefaultDef();
		ehl.cell_size = cell;
		assert_int_equal(gtNav_BuildIndex(e->nav, &ehl, &err), GT_OK);
	}
	assert_int_equal(gtNavQuery_Create(e->nav, &e->query, &err), GT_OK);
	return test_world_distance(e->query);
}

static void exact_close(Exact* e)
{
	gtNavQuery_Destroy(e->query);
	gtNav_Destroy(e->nav);
}

static void check_map(gtMap* m, int cell, bool oracle, int pairs, uint64_t seed, int min_raised)
{
	Exact e;
	gtDistance d = exact_open(&e, m, cell, oracle);
	check_bound(m, d, pairs, seed, min_raised);
	exact_close(&e);
}

static void test_bound_below_real_maps(void** state)
{
	(void)state;
	gtMap* m = test_load_shared_map("bgmaps", "AR0602SR");
	check_map(m, 8, false, 3000, 3001, 100);
	gtMap_Destroy(m);
	m = test_load_shared_map("dao", "orz103d");
	check_map(m, 8, false, 3000, 3002, 100);
	gtMap_Destroy(m);
}

static void test_bound_below_generated_maps(void** state)
{
	(void)state;
	gtError err;
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 200, 160, 3003, &m, &err), GT_OK);
	check_map(m, 4, false, 3000, 3004, 100);
	gtMap_Destroy(m);
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 160, 160, 3005, &m, &err), GT_OK);
	check_map(m, 4, false, 3000, 3006, 10);
	gtMap_Destroy(m);
}

// Hand-made maps where blocks meet: a wall along a block side with one-cell doors, a diagonal wall
// of single cells whose only crossings are pinch points (no walk passes them) and a diagonal gap
// across a block corner, a one-cell corridor winding through several blocks.
static bool side_wall(int x, int y)
{
	return (x == 32 || x == 63) && y % 40 != 17;
}
static bool pinch_wall(int x, int y)
{
	return x == y || (x + y == 95 && x != 31 && x != 32) || (x == 64 && y < 90);
}
static bool corridor(int x, int y)
{
	// Free: a one-cell corridor going right along y = 5, down x = 90, left along y = 70, down x = 3.
	bool free = (y == 5 && x >= 3 && x <= 90) || (x == 90 && y >= 5 && y <= 70) || (y == 70 && x >= 3 && x <= 90) ||
	            (x == 3 && y >= 70 && y <= 92);
	return !free;
}
// Pinch points of the diagonal wall, both ways to a point on either side of it and to the far
// side of the map: a walk may start at a pinch on either of its cells.
static void check_pinches(const gtMap* m, gtDistance d)
{
	gtWorld* w = test_make_world(m, 16);
	int checked = 0;
	for (int i = 2; i < 190; i++) {
		gtVec2 pinch = {i / 2, i % 2 ? 96 - i / 2 : i / 2}; // on x == y and on x + y == 96
		gtVec2 ends[6] = {{pinch.x - 0.5, pinch.y + 0.5},
		                  {pinch.x + 0.5, pinch.y - 0.5},
		                  {pinch.x - 0.5, pinch.y - 0.5},
		                  {pinch.x + 0.5, pinch.y + 0.5},
		                  {2, 90},
		                  {90, 2}};
		if (gtMap_CheckPoint(m, pinch) != GT_POINT_VALID) continue;
		for (int e = 0; e < 6; e++) {
			if (gtMap_CheckPoint(m, ends[e]) != GT_POINT_VALID) continue;
			for (int way = 0; way < 2; way++) {
				gtVec2 a = way ? ends[e] : pinch, b = way ? pinch : ends[e];
				double lb = gtWorld_WalkBound(w, m, a, b), exact = d.fcn(d.context, a, b);
				if (!(lb <= exact))
					fail_msg("bound %.17g above the walk %.17g from (%g, %g) to (%g, %g)", lb, exact, a.x, a.y, b.x,
					         b.y);
				checked++;
			}
		}
	}
	assert_true(checked > 100);
	gtWorld_Destroy(w);
}

static void test_bound_below_hand_maps(void** state)
{
	(void)state;
	bool (*rules[])(int, int) = {side_wall, pinch_wall, corridor};
	int raised[] = {20, 20, 100};
	for (int i = 0; i < 3; i++) {
		gtMap* m = test_map_from_rule(96, rules[i]);
		check_map(m, 0, true, 1500, 3010 + i, raised[i]);
		if (rules[i] == pinch_wall) {
			Exact e;
			check_pinches(m, exact_open(&e, m, 0, true));
			exact_close(&e);
		}
		gtMap_Destroy(m);
	}
}

// Queries with the bound (the EHL distance sets walk_map) and without (the same distance, walk_map
// cleared): the same ids and the very same doubles, both equal to the brute force; and the bound
// saves pricings (at 0.1%; at 1% it prices no more). Objects at 0.1% and 1% of the free cells (the world reads them whole or walks
// the tree), no words and two words.
static void same_answers(gtMap* m, int cell, uint64_t seed)
{
	gtError err;
	Exact e;
	gtDistance with = exact_open(&e, m, cell, false), without = with;
	assert_ptr_not_equal(with.walk_map, NULL);
	without.walk_map = NULL;
	// No sight walks in either: their gate, shared by both kinds of query in one world, would turn
	// them on and off differently for each, and the pricings compared below would differ by that.
	with.straight_map = without.straight_map = NULL;
	with.hidden_below = without.hidden_below = NULL;
	TestRng rng = {seed};
	int32_t words[2];
	for (int per_mille = 1; per_mille <= 10; per_mille += 9) {
		int n = (int)(gtMap_FreeCells(m) * per_mille / 1000);
		gtWorld* w = test_make_world(m, 16);
		words[0] = gtWorld_Keyword(w, "red");
		words[1] = gtWorld_Keyword(w, "blue");
		gtObjectId* ids = calloc((size_t)n, sizeof *ids);
		gtVec2* at = calloc((size_t)n, sizeof *at);
		for (int i = 0; i < n; i++) {
			at[i] = test_rng_int(&rng, 3) ? test_random_point(m, &rng) : block_edge_point(m, &rng);
			int32_t own[2] = {words[test_rng_int(&rng, 2)], words[test_rng_int(&rng, 2)]};
			assert_int_equal(gtWorld_Add(w, at[i], own, test_rng_int(&rng, 3), &ids[i], &err), GT_OK);
		}
		int64_t calls[2] = {0, 0};
		for (int step = 0; step < 300; step++) {
			int mover = test_rng_int(&rng, n);
			gtVec2 to = test_random_point(m, &rng);
			assert_int_equal(gtWorld_Move(w, ids[mover], to, &err), GT_OK);
			at[mover] = to;
			gtQuery q = gtQuery_Default(test_rng_int(&rng, 4) ? test_random_point(m, &rng) : block_edge_point(m, &rng));
			q.k = 1 + test_rng_int(&rng, 8);
			int word_count = step % 3 == 0 ? 2 : 0;
			q.keywords = words;
			q.keyword_count = word_count;
			q.min_match = word_count == 2 ? 1 : -1;
			gtObjectId got[2][8];
			double dist[2][8];
			int count[2];
			for (int v = 0; v < 2; v++) {
				gtQueryStats stats = {0};
				if (gtWorld_Nearest(w, &q, v ? without : with, got[v], dist[v], 8, &count[v], &stats, &err))
					fail_msg("%s", err.message);
				calls[v] += stats.distance_calls;
			}
			assert_int_equal(count[0], count[1]);
			for (int j = 0; j < count[0]; j++)
				if (got[0][j] != got[1][j] || dist[0][j] != dist[1][j])
					fail_msg("step %d result %d: %llu at %.17g with the bound, %llu at %.17g without", step, j,
					         (unsigned long long)got[0][j], dist[0][j], (unsigned long long)got[1][j], dist[1][j]);
			// The brute force: the k best by (distance, id) among the objects with a word when asked.
			int found = 0;
			gtObjectId want[8];
			double want_dist[8];
			for (int i = 0; i < n; i++) {
				if (word_count) {
					const int32_t* have;
					if (gtWorld_GetKeywords(w, ids[i], &have) <= 0) continue;
				}
				double di = with.fcn(with.context, q.point, at[i]);
				if (!(di < INFINITY)) continue;
				int k = found < q.k ? found++ : q.k;
				for (; k > 0 && (want_dist[k - 1] > di || (want_dist[k - 1] == di && want[k - 1] > ids[i])); k--)
					if (k < q.k) want[k] = want[k - 1], want_dist[k] = want_dist[k - 1];
				if (k < q.k) want[k] = ids[i], want_dist[k] = di;
			}
			assert_int_equal(count[0], found);
			for (int j = 0; j < found; j++)
				if (got[0][j] != want[j] || dist[0][j] != want_dist[j])
					fail_msg("step %d result %d: %llu at %.17g, brute force %llu at %.17g", step, j,
					         (unsigned long long)got[0][j], dist[0][j], (unsigned long long)want[j], want_dist[j]);
		}
		// At 1% the bound may stop for this kind of query (it rarely saves a pricing there).
		if (per_mille == 1 ? !(calls[0] < calls[1]) : calls[0] > calls[1])
			fail_msg("%d objects: %lld pricings with the bound, %lld without", n, (long long)calls[0],
			         (long long)calls[1]);
		free(ids);
		free(at);
		gtWorld_Destroy(w);
	}
	exact_close(&e);
}

// A scan's selection (gt_scan_select) against sorting: the front m hold m smallest keys and the
// whole is a permutation, on random keys with many ties (few distinct values, so pivots meet equal
// keys), with n on both sides of where it partitions (32 and 4m) and m from 1 to n - 1.
static void test_scan_select_against_sort(void** state)
{
	(void)state;
	enum { MOST = 300 };
	gtHeapItem items[MOST], tmp[MOST], before[MOST];
	TestRng rng = {4242};
	int partitioned = 0;
	for (int t = 0; t < 4000; t++) {
		int n = 2 + test_rng_int(&rng, t % 2 ? 60 : MOST - 1), m = 1 + test_rng_int(&rng, n - 1);
		if (t % 3 == 0) m = 1 + test_rng_int(&rng, n / 4 > 1 ? n / 4 : 1); // the usual: few of many
		int values = 1 + test_rng_int(&rng, t % 4 ? 1000 : 6);
		for (int i = 0; i < n; i++) before[i] = items[i] = (gtHeapItem){test_rng_int(&rng, values) * 0.5, i};
		partitioned += n >= 32 && n >= 4 * m;
		gt_scan_select(items, tmp, n, m);
		double front = -1, back = INFINITY;
		int seen[MOST] = {0};
		for (int i = 0; i < n; i++) {
			assert_true(items[i].id >= 0 && items[i].id < n);
			assert_true(items[i].key == before[items[i].id].key);
			seen[items[i].id]++;
			if (i < m && items[i].key > front) front = items[i].key;
			if (i >= m && items[i].key < back) back = items[i].key;
		}
		for (int i = 0; i < n; i++) assert_int_equal(seen[i], 1);
		if (front > back) fail_msg("n %d m %d: %g among the first m, %g after them", n, m, front, back);
	}
	assert_true(partitioned > 500);
}

// The scan's split (gt_scan_split) against its definition: items[0..live) hold every live object
// once with its squared line from q, and every key before the split is below every key after it;
// objects at shared points (ties), removed ones (free slots) and wants on both sides of sampling.
static void test_scan_split_partitions(void** state)
{
	(void)state;
	gtError err;
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 96, 64, 3030, &m, &err), GT_OK);
	TestRng rng = {3031};
	int sampled = 0, near_want = 0;
	for (int t = 0; t < 60; t++) {
		gtWorld* w;
		assert_int_equal(gtWorld_Create(m, NULL, &w, &err), GT_OK);
		int count = 1 + test_rng_int(&rng, t % 2 ? 40 : 150), live = 0;
		gtObjectId ids[150];
		gtVec2 at[150];
		for (int i = 0; i < count; i++) {
			do
				at[i] = i > 0 && i % 5 == 0
				            ? at[i - 1]
				            : (gtVec2){1 + test_rng_int(&rng, 94) + 0.5, 1 + test_rng_int(&rng, 62) + 0.5};
			while (gtMap_IsBlocked(m, (int)at[i].x, (int)at[i].y));
			assert_int_equal(gtWorld_Add(w, at[i], NULL, 0, &ids[i], &err), GT_OK);
		}
		bool gone[150] = {false};
		for (int i = 0; i < count; i++)
			if (test_rng_int(&rng, 4) == 0) gone[i] = gtWorld_Remove(w, ids[i], &err) == GT_OK;
		for (int i = 0; i < count; i++) live += !gone[i];
		gtHeapItem items[150];
		for (int want = 0; want <= 30; want += 1 + test_rng_int(&rng, 6)) {
			gtVec2 q = {1 + test_rng_int(&rng, 94) + 0.25, 1 + test_rng_int(&rng, 62) + 0.75};
			int below = gt_scan_split(w, items, q, want);
			assert_true(below >= 0 && below <= live);
			sampled += below < live;
			near_want += want > 0 && below >= want / 2 && below <= 2 * want;
			double front = -1, back = INFINITY;
			int seen[150] = {0};
			for (int i = 0; i < live; i++) {
				int slot = -items[i].id - 1, o = 0;
				while (o < count && (gone[o] || gtObjectId_Slot(ids[o]) != slot)) o++;
				assert_true(o < count);
				double dx = at[o].x - q.x, dy = at[o].y - q.y;
				assert_true(items[i].key == dx * dx + dy * dy);
				seen[o]++;
				if (i < below && items[i].key > front) front = items[i].key;
				if (i >= below && items[i].key < back) back = items[i].key;
			}
			for (int o = 0; o < count; o++) assert_int_equal(seen[o], !gone[o]);
			if (!(front < back)) fail_msg("live %d want %d: %g before the split, %g after it", live, want, front, back);
		}
		gtWorld_Destroy(w);
	}
	assert_true(sampled > 50 && near_want > 50);
	gtMap_Destroy(m);
}

static void test_same_answers_with_and_without(void** state)
{
	(void)state;
	gtError err;
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 256, 192, 3020, &m, &err), GT_OK);
	same_answers(m, 4, 3021);
	gtMap_Destroy(m);
	m = test_load_shared_map("bgmaps", "AR0602SR");
	same_answers(m, 8, 3022);
	gtMap_Destroy(m);
}

// A closed room in the corner: no walk leads in or out.
static bool closed_room(int x, int y)
{
	return (x == 12 && y <= 12) || (y == 12 && x <= 12);
}

// A query in the closed room with one object there and 24 outside (k = 5): the bound says no walk
// leads out, so the others are dropped unpriced (with the bound one pricing; without it every
// object's, each infinite). Both a scan (25 objects) and the tree (after 400 more outside), and a
// query from outside prices the room's object neither.
static void test_no_walk_unpriced(void** state)
{
	(void)state;
	gtError err;
	gtMap* m = test_map_from_rule(96, closed_room);
	Exact e;
	gtDistance with = exact_open(&e, m, 4, false), without = with;
	assert_ptr_not_equal(with.walk_map, NULL);
	without.walk_map = NULL;
	with.straight_map = without.straight_map = NULL;
	with.hidden_below = without.hidden_below = NULL;
	gtWorld* w = test_make_world(m, 16);
	gtObjectId inside, id;
	assert_int_equal(gtWorld_Add(w, (gtVec2){6.5, 6.5}, NULL, 0, &inside, &err), GT_OK);
	TestRng rng = {3030};
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < (round ? 400 : 24); i++) {
			gtVec2 p = {14 + test_rng_int(&rng, 80) + 0.5, 14 + test_rng_int(&rng, 80) + 0.5};
			assert_int_equal(gtWorld_Add(w, p, NULL, 0, &id, &err), GT_OK);
		}
		for (int v = 0; v < 2; v++) {
			gtQuery q = gtQuery_Default((gtVec2){3.5, 4.5});
			q.k = 5;
			gtObjectId got[5];
			double dist[5];
			int found;
			gtQueryStats stats = {0};
			assert_int_equal(gtWorld_Nearest(w, &q, v ? without : with, got, dist, 5, &found, &stats, &err), GT_OK);
			assert_int_equal(found, 1);
			assert_true(got[0] == inside && dist[0] == with.fcn(with.context, q.point, (gtVec2){6.5, 6.5}));
			if (v == 0) assert_int_equal(stats.distance_calls, 1);
			else assert_true(stats.distance_calls > 20);
		}
		gtQuery q = gtQuery_Default((gtVec2){10.5, 40.5});
		q.k = 30;
		gtObjectId got[30];
		double dist[30];
		int found;
		gtQueryStats stats = {0};
		assert_int_equal(gtWorld_Nearest(w, &q, with, got, dist, 30, &found, &stats, &err), GT_OK);
		assert_int_equal(found, round ? 30 : 24);
		for (int j = 0; j < found; j++) assert_true(got[j] != inside);
		if (round == 0) assert_true(stats.distance_calls <= 24);
	}
	gtWorld_Destroy(w);
	exact_close(&e);
	gtMap_Destroy(m);
}

// A distance that passes every call on and checks each hidden pricing: its two points must not see
// each other (hidden_below skips the straight line).
typedef struct Watched {
	gtDistance inner;
	const gtMap* map;
	int64_t hidden, seen; // hidden pricings, and those of points that see each other (must stay 0)
} Watched;
static double watched_fcn(void* c, gtVec2 a, gtVec2 b)
{
	Watched* w = c;
	return w->inner.fcn(w->inner.context, a, b);
}
static double watched_below(void* c, gtVec2 a, gtVec2 b, double limit)
{
	Watched* w = c;
	return w->inner.below(w->inner.context, a, b, limit);
}
static double watched_hidden(void* c, gtVec2 a, gtVec2 b, double limit)
{
	Watched* w = c;
	w->hidden++;
	w->seen += gtMap_Visible(w->map, a, b);
	return w->inner.hidden_below(w->inner.context, a, b, limit);
}

// A popped key above the straight line is the walk bound: the object is priced as hidden, without
// the line test (price_object). With no sight walks (straight_map NULL for the world's part, as
// same_answers), every hidden pricing comes from that: its points never see each other, there are
// some with the bound and none without, and the answers are the brute force's. Objects at 0.1% and
// 1% of the free cells (scan and tree), no words.
// `probe`: the same with the map's cells instead of the bound (no walk_map): a pricing the sight
// walk skips probes points of its segment (gt_segment_hidden), those inside a wall make it hidden;
// points on cell edges and grid points (test_random_point) test the probes' margin, and pairs
// along a wall or through a corner must still be priced with their line.
static void hidden_by(gtMap* m, int cell, uint64_t seed, bool probe, int64_t min_hidden)
{
	gtError err;
	Exact e;
	gtDistance exact = exact_open(&e, m, cell, false);
	assert_ptr_not_equal(exact.hidden_below, NULL);
	assert_ptr_not_equal(exact.straight_map, NULL);
	Watched watch[2] = {{exact, m, 0, 0}, {exact, m, 0, 0}};
	gtDistance d[2];
	for (int v = 0; v < 2; v++) {
		d[v] = exact;
		d[v].context = &watch[v];
		d[v].fcn = watched_fcn, d[v].below = watched_below, d[v].hidden_below = watched_hidden;
		d[v].straight_map = probe && v == 0 ? exact.straight_map : NULL;
		if (probe) d[v].walk_map = NULL;
	}
	d[1].walk_map = NULL;
	TestRng rng = {seed};
	for (int per_mille = 1; per_mille <= 10; per_mille += 9) {
		int n = (int)(gtMap_FreeCells(m) * per_mille / 1000);
		gtWorld* w = test_make_world(m, 16);
		gtObjectId* ids = calloc((size_t)n, sizeof *ids);
		gtVec2* at = calloc((size_t)n, sizeof *at);
		for (int i = 0; i < n; i++) {
			at[i] = test_rng_int(&rng, 3) ? test_random_point(m, &rng) : block_edge_point(m, &rng);
			assert_int_equal(gtWorld_Add(w, at[i], NULL, 0, &ids[i], &err), GT_OK);
		}
		for (int step = 0; step < 200; step++) {
			gtQuery q = gtQuery_Default(test_rng_int(&rng, 4) ? test_random_point(m, &rng) : block_edge_point(m, &rng));
			q.k = 1 + test_rng_int(&rng, 8);
			gtObjectId got[2][8];
			double dist[2][8];
			int count[2];
			for (int v = 0; v < 2; v++)
				if (gtWorld_Nearest(w, &q, d[v], got[v], dist[v], 8, &count[v], NULL, &err))
					fail_msg("%s", err.message);
			int found = 0;
			gtObjectId want[8];
			double want_dist[8];
			for (int i = 0; i < n; i++) {
				double di = exact.fcn(exact.context, q.point, at[i]);
				if (!(di < INFINITY)) continue;
				int k = found < q.k ? found++ : q.k;
				for (; k > 0 && (want_dist[k - 1] > di || (want_dist[k - 1] == di && want[k - 1] > ids[i])); k--)
					if (k < q.k) want[k] = want[k - 1], want_dist[k] = want_dist[k - 1];
				if (k < q.k) want[k] = ids[i], want_dist[k] = di;
			}
			for (int v = 0; v < 2; v++) {
				assert_int_equal(count[v], found);
				for (int j = 0; j < found; j++)
					if (got[v][j] != want[j] || dist[v][j] != want_dist[j])
						fail_msg("%s %s, step %d result %d: %llu at %.17g, brute force %llu at %.17g",
						         v ? "without" : "with", probe ? "probes" : "bound", step, j,
						         (unsigned long long)got[v][j], dist[v][j], (unsigned long long)want[j], want_dist[j]);
			}
		}
		free(ids);
		free(at);
		gtWorld_Destroy(w);
	}
	if (watch[0].seen || watch[1].seen)
		fail_msg("%lld and %lld hidden pricings of points that see each other", (long long)watch[0].seen,
		         (long long)watch[1].seen);
	if (watch[0].hidden < min_hidden || watch[1].hidden != 0)
		fail_msg("%lld hidden pricings with the %s, %lld without", (long long)watch[0].hidden,
		         probe ? "probes" : "bound", (long long)watch[1].hidden);
	exact_close(&e);
}

static void test_hidden_by_bound(void** state)
{
	(void)state;
	gtError err;
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 256, 192, 3040, &m, &err), GT_OK);
	hidden_by(m, 4, 3041, false, 20);
	gtMap_Destroy(m);
	m = test_load_shared_map("dao", "lak303d");
	hidden_by(m, 8, 3042, false, 20);
	gtMap_Destroy(m);
}

static void test_hidden_by_probe(void** state)
{
	(void)state;
	gtError err;
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 256, 192, 3043, &m, &err), GT_OK);
	hidden_by(m, 4, 3044, true, 1000); // 3,254 (181 from the sight walks alone, without the probes)
	gtMap_Destroy(m);
	m = test_load_shared_map("dao", "lak303d");
	hidden_by(m, 8, 3045, true, 700); // 1,284 (239 without the probes)
	gtMap_Destroy(m);
}

// The pricings of a fixed set of queries (k = 5, no words), `rounds` times over, with `d`.
static int64_t pricings(gtWorld* w, gtDistance d, const gtVec2* at, int count, int rounds)
{
	gtError err;
	int64_t calls = 0;
	for (int round = 0; round < rounds; round++)
		for (int i = 0; i < count; i++) {
			gtQuery q = gtQuery_Default(at[i]);
			q.k = 5;
			gtObjectId got[5];
			double dist[5];
			int found;
			gtQueryStats stats = {0};
			if (gtWorld_Nearest(w, &q, d, got, dist, 5, &found, &stats, &err)) fail_msg("%s", err.message);
			calls += stats.distance_calls;
		}
	return calls;
}

// The bound stops for a kind of query on which it costs more than it saves (world_tree_query.c
// walk_begin), and comes back: after 300 queries it cannot help (k = 1 at an object's own point),
// 600 queries where it saves pricings get at least a third of that saving again. Catches a gate that never
// re-enables (no retry after the back-off: they price as many as without the bound).
static void test_gate_comes_back(void** state)
{
	(void)state;
	gtError err;
	gtMap* m = test_load_shared_map("bgmaps", "AR0602SR");
	Exact e;
	gtDistance with = exact_open(&e, m, 8, false), without = with;
	without.walk_map = NULL;
	TestRng rng = {3041};
	int n = (int)(gtMap_FreeCells(m) / 1000);
	gtWorld* w = test_make_world(m, 16);
	gtVec2* at = calloc((size_t)n, sizeof *at);
	for (int i = 0; i < n; i++) {
		gtObjectId id;
		at[i] = test_random_point(m, &rng);
		assert_int_equal(gtWorld_Add(w, at[i], NULL, 0, &id, &err), GT_OK);
	}
	enum { QUERIES = 200 };
	gtVec2 qs[QUERIES];
	for (int i = 0; i < QUERIES; i++) qs[i] = test_random_point(m, &rng);
	int64_t fresh = pricings(w, with, qs, QUERIES, 3), plain = pricings(w, without, qs, QUERIES, 3);
	if (!(fresh < plain * 0.95))
		fail_msg("%lld pricings with the bound, %lld without: the map should make it pay", (long long)fresh,
		         (long long)plain);
	for (int i = 0; i < 300; i++) {
		gtQuery q = gtQuery_Default(at[i % n]);
		gtObjectId got;
		double dist;
		int found;
		gtQueryStats stats = {0};
		if (gtWorld_Nearest(w, &q, with, &got, &dist, 1, &found, &stats, &err)) fail_msg("%s", err.message);
		assert_true(found == 1 && dist == 0);
	}
	int64_t after = pricings(w, with, qs, QUERIES, 3);
	// Two thirds of the way back at most: the back-off skips up to 128 queries before its retry
	// (the ring traversal's unhelpful queries reach it); a gate that never comes back prices ~plain.
	if (!(after < fresh + (plain - fresh) * 2 / 3))
		fail_msg("after unhelpful queries: %lld pricings (fresh %lld, without the bound %lld)", (long long)after,
		         (long long)fresh, (long long)plain);
	free(at);
	gtWorld_Destroy(w);
	exact_close(&e);
	gtMap_Destroy(m);
}

// An edit in place turns the bound off (the map's fingerprint changes): the world answers 0.
static void test_edit_turns_it_off(void** state)
{
	(void)state;
	gtError err;
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 128, 128, 3030, &m, &err), GT_OK);
	gtWorld* w = test_make_world(m, 16);
	TestRng rng = {3031};
	int raised = 0;
	gtVec2 a = {0, 0}, b = {0, 0};
	for (int i = 0; i < 2000 && !raised; i++) {
		a = test_random_point(m, &rng);
		b = test_random_point(m, &rng);
		raised = gtWorld_WalkBound(w, m, a, b) > hypot(b.x - a.x, b.y - a.y);
	}
	assert_true(raised);
	gtMap* copy = test_cells_copy(m);
	assert_true(gtWorld_WalkBound(w, copy, a, b) > 0); // the same cells: it holds
	gtMap_Destroy(copy);
	gtNav* nav;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	int x = 0, y = 0; // a free cell away from a and b, walled in place
	do {
		gtVec2 p = test_random_point(m, &rng);
		x = (int)p.x < gtMap_Width(m) ? (int)p.x : (int)p.x - 1;
		y = (int)p.y < gtMap_Height(m) ? (int)p.y : (int)p.y - 1;
	} while (gtMap_IsBlocked(m, x, y) || fabs(x - a.x) < 2 || fabs(y - a.y) < 2 || fabs(x - b.x) < 2 ||
	         fabs(y - b.y) < 2);
	assert_int_equal(gtNav_SetBlocked(nav, x, y, x, y, true, &err), GT_OK);
	assert_true(gtWorld_WalkBound(w, m, a, b) == 0);
	gtNav_Destroy(nav);
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

TEST_MAIN("walk_bound", test_no_walk_unpriced, test_bound_below_real_maps, test_bound_below_generated_maps,
          test_bound_below_hand_maps, test_scan_select_against_sort, test_scan_split_partitions,
          test_same_answers_with_and_without, test_hidden_by_bound, test_hidden_by_probe, test_gate_comes_back,
          test_edit_turns_it_off)
