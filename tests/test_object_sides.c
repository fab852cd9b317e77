// Object sides (gtDistance.side_fill, world_sides.c, the EHL backend's gtEhlQuery_FillSide): a
// world keeps the target side of objects that many queries price, and prices them through it. The
// answers are the brute force's (ids and doubles) and those of the same world without sides, while
// objects move between rounds of queries, and after the map is edited and the index rebuilt. Fails
// when a move or a new index does not void the sides made before (a side of the old point, or of
// the old index's hubs, gives another distance), and when no side is ever read; and that the gate
// (gt_sides_pay: sides only in worlds of few objects) changes no answer as the world crosses it.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <sys/stat.h>

#include "core/platform.h"     // gt_cache_bytes
#include "world/world_sides.h" // GT_SIDE_OBJECTS: the gate

// The distance passed through, counting the pricings through a side.
typedef struct Counted {
	gtDistance inner;
	int64_t reads;
} Counted;
static double counted_fcn(void* c, gtVec2 a, gtVec2 b)
{
	Counted* n = c;
	return n->inner.fcn(n->inner.context, a, b);
}
static double counted_below(void* c, gtVec2 a, gtVec2 b, double limit)
{
	Counted* n = c;
	return n->inner.below(n->inner.context, a, b, limit);
}
static double counted_hidden(void* c, gtVec2 a, gtVec2 b, double limit)
{
	Counted* n = c;
	return n->inner.hidden_below(n->inner.context, a, b, limit);
}
static bool counted_fill(void* c, gtVec2 to, void* side, bool made)
{
	Counted* n = c;
	return n->inner.side_fill(n->inner.side_context, to, side, made);
}
static double counted_side(void* c, gtVec2 a, gtVec2 b, void* side, double limit, bool hidden)
{
	Counted* n = c;
	n->reads++;
	return n->inner.side_below(n->inner.side_context, a, b, side, limit, hidden);
}
static gtDistance counted(Counted* n, gtDistance inner)
{
	n->inner = inner;
	gtDistance d = inner;
	d.context = d.side_context = n;
	d.fcn = counted_fcn, d.below = counted_below, d.hidden_below = counted_hidden;
	d.side_fill = counted_fill, d.side_below = counted_side;
	return d;
}

typedef struct Objects {
	int count;
	gtObjectId* ids;
	gtVec2* at;
	bool* rare; // has the keyword most queries ask for (a few objects)
} Objects;

// The brute force of a nearest query (rare: only objects with the word) by `exact`, ties by id.
static int brute(const Objects* o, gtDistance exact, gtVec2 q, int k, bool rare, gtObjectId* want, double* want_dist)
{
	int found = 0;
	for (int i = 0; i < o->count; i++) {
		if (rare && !o->rare[i]) continue;
		double di = exact.fcn(exact.context, q, o->at[i]);
		if (!(di < INFINITY)) continue;
		int j = found < k ? found++ : k;
		for (; j > 0 && (want_dist[j - 1] > di || (want_dist[j - 1] == di && want[j - 1] > o->ids[i])); j--)
			if (j < k) want[j] = want[j - 1], want_dist[j] = want_dist[j - 1];
		if (j < k) want[j] = o->ids[i], want_dist[j] = di;
	}
	return found;
}

// `rounds` rounds of 40 queries (most for the rare word, k 5, which fewer than 5 objects have: every
// one of them priced by each; the others k 1-4 without words), each answered with sides (`with`)
// and without (`plain`), checked against each other and the brute force by `plain`; between rounds
// 70% of the objects move (`move`: MOVE_ANYWHERE to a point drawn anew, MOVE_SHORT a step of at most
// 1.5 in x and y, mostly inside the index's 4 x 4 cell: a side made again in its cell keeps the
// ranks' places, not the parts). Returns the pricings through a side.
enum { MOVE_NONE, MOVE_ANYWHERE, MOVE_SHORT };
static int same_cell_moves; // short moves that stayed in their index cell
static gtVec2 short_step(const gtMap* m, gtVec2 at, TestRng* rng)
{
	for (int tries = 0; tries < 8; tries++) {
		gtVec2 p = {at.x + 0.5 * (test_rng_int(rng, 7) - 3), at.y + 0.5 * (test_rng_int(rng, 7) - 3)};
		if (gtMap_CheckPoint(m, p) != GT_POINT_VALID) continue;
		if (floor(p.x / 4) == floor(at.x / 4) && floor(p.y / 4) == floor(at.y / 4)) same_cell_moves++;
		return p;
	}
	return at; // moved on the spot: its side is made again all the same
}
static int64_t rounds_of_queries(gtWorld* w, const gtMap* m, Objects* o, gtDistance with, gtDistance plain,
                                 int32_t word, int rounds, int move, TestRng* rng)
{
	gtError err;
	Counted count;
	gtDistance d = counted(&count, with);
	count.reads = 0;
	for (int round = 0; round < rounds; round++) {
		for (int step = 0; step < 40; step++) {
			bool rare = test_rng_int(rng, 4) != 0;
			gtQuery q = gtQuery_Default(test_random_point(m, rng));
			q.k = rare ? 5 : 1 + test_rng_int(rng, 4);
			if (rare) q.keywords = &word, q.keyword_count = 1;
			gtObjectId got[2][5], want[5];
			double dist[2][5], want_dist[5];
			int n[2];
			for (int v = 0; v < 2; v++)
				if (gtWorld_Nearest(w, &q, v ? plain : d, got[v], dist[v], 5, &n[v], NULL, &err))
					fail_msg("%s", err.message);
			int found = brute(o, plain, q.point, q.k, rare, want, want_dist);
			for (int v = 0; v < 2; v++) {
				if (n[v] != found)
					fail_msg("round %d step %d: %d found %s sides, %d by brute force", round, step, n[v],
					         v ? "without" : "with", found);
				for (int j = 0; j < found; j++)
					if (got[v][j] != want[j] || dist[v][j] != want_dist[j])
						fail_msg("round %d step %d result %d %s sides: %llu at %.17g, brute force %llu at %.17g", round,
						         step, j, v ? "without" : "with", (unsigned long long)got[v][j], dist[v][j],
						         (unsigned long long)want[j], want_dist[j]);
			}
		}
		if (move == MOVE_NONE) continue;
		for (int i = 0; i < o->count; i++) {
			if (test_rng_int(rng, 10) >= 7) continue;
			o->at[i] = move == MOVE_SHORT ? short_step(m, o->at[i], rng) : test_random_point(m, rng);
			assert_int_equal(gtWorld_Move(w, o->ids[i], o->at[i], &err), GT_OK);
		}
	}
	return count.reads;
}

typedef struct Setup {
	gtMap* map;
	gtNav* nav;
	gtNavQuery* query;
	gtWorld* world;
	Objects o;
	int32_t word;
} Setup;

// A map of `style` with an index of `cell` x `cell` cells, a world of `count` objects (room for
// `room`), four with the rare word.
static void setup(Setup* s, gtMapStyle style, uint64_t seed, int cell, int count, int room, TestRng* rng)
{
	gtError err;
	assert_int_equal(gtMap_Generate(style, 160, 128, seed, &s->map, &err), GT_OK);
	gtNavDef def = gtNav_DefaultDef();
	def.threads = 1;
	assert_int_equal(gtNav_Create(s->map, &def, &s->nav, &err), GT_OK);
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = cell;
	assert_int_equal(gtNav_BuildIndex(s->nav, &ehl, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(s->nav, &s->query, &err), GT_OK);
	s->world = test_make_world(s->map, 16);
	s->word = gtWorld_Keyword(s->world, "rare");
	Objects* o = &s->o;
	o->count = count;
	o->ids = calloc((size_t)room, sizeof *o->ids);
	o->at = calloc((size_t)room, sizeof *o->at);
	o->rare = calloc((size_t)room, sizeof *o->rare);
	for (int i = 0; i < o->count; i++) {
		o->at[i] = test_random_point(s->map, rng);
		o->rare[i] = i % (o->count / 4) == 0 && i / (o->count / 4) < 4;
		assert_int_equal(gtWorld_Add(s->world, o->at[i], o->rare[i] ? &s->word : NULL, o->rare[i], &o->ids[i], &err),
		                 GT_OK);
	}
}

static void teardown(Setup* s)
{
	free(s->o.ids);
	free(s->o.at);
	free(s->o.rare);
	gtWorld_Destroy(s->world);
	gtNavQuery_Destroy(s->query);
	gtNav_Destroy(s->nav);
	gtMap_Destroy(s->map);
}

// Rounds of queries over a world of `count` objects of `style` in cells of `cell`, answers with
// sides against answers without while objects move as `move` says; fails unless at least `least`
// pricings read a side (none when `least` is 0). Returns the distance's side_bytes.
static size_t sides_rounds(gtMapStyle style, uint64_t seed, int cell, int count, int rounds, int move, int64_t least,
                           const char* what)
{
	TestRng rng = {seed};
	Setup s;
	setup(&s, style, seed + 1, cell, count, count, &rng);
	gtDistance with = test_world_distance(s.query), plain = with;
	assert_non_null(with.side_fill);
	plain.side_fill = NULL, plain.side_below = NULL;
	int64_t reads = rounds_of_queries(s.world, s.map, &s.o, with, plain, s.word, rounds, move, &rng);
	printf("note: %lld pricings through a side %s (%d objects, sides of %zu bytes)\n", (long long)reads, what, count,
	       with.side_bytes);
	if (least > 0 ? reads < least : reads > 0)
		fail_msg("%lld pricings through a side %s, %s %lld", (long long)reads, what, least > 0 ? "at least" : "want",
		         (long long)least);
	teardown(&s);
	return with.side_bytes;
}

// Objects move between rounds: a side made for an object's old point must not price it.
static void test_sides_follow_moves(void** state)
{
	(void)state;
	sides_rounds(GT_STYLE_ROOMS, 3060, 4, GT_SIDE_OBJECTS, 8, MOVE_ANYWHERE, 500, "while objects move");
}
// Objects take short steps between rounds, most inside their index cell: a side made again over the
// object's own side of the same cell keeps the ranks' places and must set every part back (a part
// priced for the old point gives the old point's distance), one made in another cell must not keep
// them.
static void test_sides_follow_short_moves(void** state)
{
	(void)state;
	TestRng rng = {3066};
	Setup s;
	setup(&s, GT_STYLE_ROOMS, 3067, 4, GT_SIDE_OBJECTS, GT_SIDE_OBJECTS, &rng);
	gtDistance with = test_world_distance(s.query), plain = with;
	plain.side_fill = NULL, plain.side_below = NULL;
	same_cell_moves = 0;
	int64_t reads = rounds_of_queries(s.world, s.map, &s.o, with, plain, s.word, 10, MOVE_SHORT, &rng);
	printf("note: %lld pricings through a side, %d moves inside a cell\n", (long long)reads, same_cell_moves);
	if (reads < 500 || same_cell_moves < 300)
		fail_msg("only %lld pricings through a side, %d moves inside a cell", (long long)reads, same_cell_moves);
	teardown(&s);
}

// Caves in cells of 16 x 16: some cell lists more than 255 hubs, so the sides' places take 2 bytes a
// rank, not 1 (gtEhlQuery_SideBytes), and the answers stay the same. Sides that big for every one of
// GT_SIDE_OBJECTS objects would take more than GT_SIDE_WORKING bytes: the gate (gt_sides_pay) makes
// none there, and does for 16 objects.
// The budget is set to the measured machine's (3/4 of a 512 KiB L2): on any machine the same gate.
// Then one that holds all 64 entries' sides: the gate lets the sides in past 64 objects.
static void test_sides_with_wide_places(void** state)
{
	(void)state;
	gt_sides_set_working(GT_SIDE_WORKING);
	size_t bytes = sides_rounds(GT_STYLE_CAVES, 3068, 16, 16, 4, MOVE_ANYWHERE, 300, "with wide places");
	assert_true(16 * (int64_t)bytes <= GT_SIDE_WORKING && GT_SIDE_ENTRIES * (int64_t)bytes > GT_SIDE_WORKING);
	sides_rounds(GT_STYLE_CAVES, 3068, 16, GT_SIDE_OBJECTS, 2, MOVE_ANYWHERE, 0, "with wide places past the budget");
	gt_sides_set_working(GT_SIDE_ENTRIES * (int64_t)bytes);
	sides_rounds(GT_STYLE_CAVES, 3068, 16, GT_SIDE_OBJECTS, 2, MOVE_ANYWHERE, 50, "with wide places, a larger budget");
	gt_sides_set_working(0);
}

// Writes `dir`/index`i`/{level,type,size}.
static void fake_cache(const char* dir, int i, const char* level, const char* type, const char* size)
{
	char path[512];
	snprintf(path, sizeof path, "%s/index%d", dir, i);
	assert_int_equal(mkdir(path, 0700), 0);
	const char* names[3] = {"level", "type", "size"};
	const char* values[3] = {level, type, size};
	for (int f = 0; f < 3; f++) {
		snprintf(path, sizeof path, "%s/index%d/%s", dir, i, names[f]);
		FILE* out = fopen(path, "w");
		assert_non_null(out);
		fprintf(out, "%s\n", values[f]);
		fclose(out);
	}
}

// The budget from the cache sizes Linux lists (a copy of this machine's list: L1 32K data and
// instruction, L2 512K, L3 32768K): 3/4 of the L2, the 384 KiB measured here; GT_SIDE_WORKING when
// no L2 is listed. The budget the gate reads is the machine's, read once, until a test sets it.
static void test_budget_from_cache(void** state)
{
	(void)state;
	char dir[] = "/tmp/test_object_sides_XXXXXX";
	assert_non_null(mkdtemp(dir));
	assert_int_equal(gt_cache_bytes(dir, 2), 0);
	assert_int_equal(gt_sides_working_for(gt_cache_bytes(dir, 2)), GT_SIDE_WORKING);
	fake_cache(dir, 0, "1", "Data", "32K");
	fake_cache(dir, 1, "1", "Instruction", "64K");
	fake_cache(dir, 3, "3", "Unified", "32768K"); // no index2 yet: none of level 2
	assert_int_equal(gt_cache_bytes(dir, 2), 0);
	assert_int_equal(gt_cache_bytes(dir, 1), 32 << 10); // the data cache, not the instruction one
	assert_int_equal(gt_cache_bytes(dir, 3), INT64_C(32) << 20);
	fake_cache(dir, 2, "2", "Unified", "512K");
	assert_int_equal(gt_cache_bytes(dir, 2), 512 << 10);
	assert_int_equal(gt_sides_working_for(gt_cache_bytes(dir, 2)), GT_SIDE_WORKING);
	assert_int_equal(gt_sides_working_for(INT64_C(2) << 20), INT64_C(1536) << 10);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
	gt_sides_set_working(0);
	int64_t machine = gt_sides_working();
	printf("note: L2 %lld bytes, sides' budget %lld bytes\n", (long long)gt_l2_cache_bytes(), (long long)machine);
	assert_int_equal(machine, gt_sides_working_for(gt_l2_cache_bytes()));
	gt_sides_set_working(12345);
	assert_int_equal(gt_sides_working(), 12345);
	gt_sides_set_working(0);
	assert_int_equal(gt_sides_working(), machine);
}

// A wall built between rounds: while the index is behind the map, no side; once rebuilt, the sides
// made from the old index are void (its hubs are not the new one's).
static void test_sides_follow_new_index(void** state)
{
	(void)state;
	gtError err;
	TestRng rng = {3062};
	Setup s;
	setup(&s, GT_STYLE_ROOMS, 3063, 4, GT_SIDE_OBJECTS, GT_SIDE_OBJECTS, &rng);
	gtDistance with = test_world_distance(s.query), plain = with;
	plain.side_fill = NULL, plain.side_below = NULL;
	int64_t reads = rounds_of_queries(s.world, s.map, &s.o, with, plain, s.word, 2, MOVE_NONE, &rng);
	// A wall across the map's middle, through no object, with a gap at each end.
	int w = gtMap_Width(s.map), h = gtMap_Height(s.map), y = h / 2;
	while (true) {
		bool clear = true;
		for (int i = 0; i < s.o.count; i++) clear = clear && (int)s.o.at[i].y != y && (int)ceil(s.o.at[i].y) - 1 != y;
		if (clear) break;
		y++;
	}
	uint64_t before = with.side_key;
	assert_int_equal(gtNav_SetBlocked(s.nav, 8, y, w - 9, y, true, &err), GT_OK);
	gtDistance edited = test_world_distance(s.query);
	assert_null(edited.side_fill); // the index is behind the map: its answers are checked
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 4;
	assert_int_equal(gtNav_RebuildIndex(s.nav, &ehl, false, &err), GT_OK);
	assert_int_equal(gtNav_IndexState(s.nav), GT_NAV_INDEX_EXACT);
	with = test_world_distance(s.query), plain = with;
	assert_non_null(with.side_fill);
	assert_true(with.side_key != before);
	plain.side_fill = NULL, plain.side_below = NULL;
	reads += rounds_of_queries(s.world, s.map, &s.o, with, plain, s.word, 2, MOVE_NONE, &rng);
	printf("note: %lld pricings through a side before and after the rebuild\n", (long long)reads);
	if (reads < 100) fail_msg("only %lld pricings through a side", (long long)reads);
	teardown(&s);
}

// Adds objects (their points drawn anew, no word) until `count` are live.
static void grow_to(Setup* s, int count, TestRng* rng)
{
	gtError err;
	for (Objects* o = &s->o; o->count < count; o->count++) {
		o->at[o->count] = test_random_point(s->map, rng);
		o->rare[o->count] = false;
		assert_int_equal(gtWorld_Add(s->world, o->at[o->count], NULL, 0, &o->ids[o->count], &err), GT_OK);
	}
}

// The gate (gt_sides_pay) turns sides off above GT_SIDE_OBJECTS live objects and on again below:
// the same answers either way (against the brute force and the world without sides), no side read
// while off, and a side made before the world grew is void for an object that moved meanwhile.
static void test_gate_keeps_answers(void** state)
{
	(void)state;
	gtError err;
	TestRng rng = {3064};
	Setup s;
	int over = GT_SIDE_OBJECTS + 24;
	setup(&s, GT_STYLE_ROOMS, 3065, 4, GT_SIDE_OBJECTS, over, &rng);
	gtDistance with = test_world_distance(s.query), plain = with;
	plain.side_fill = NULL, plain.side_below = NULL;
	int64_t on = rounds_of_queries(s.world, s.map, &s.o, with, plain, s.word, 2, MOVE_NONE, &rng);
	grow_to(&s, over, &rng); // past the gate: sides off
	int64_t off = rounds_of_queries(s.world, s.map, &s.o, with, plain, s.word, 3, MOVE_ANYWHERE, &rng);
	while (s.o.count > GT_SIDE_OBJECTS) // back under it: the sides kept are of points left since
		assert_int_equal(gtWorld_Remove(s.world, s.o.ids[--s.o.count], &err), GT_OK);
	int64_t again = rounds_of_queries(s.world, s.map, &s.o, with, plain, s.word, 2, MOVE_NONE, &rng);
	printf("note: pricings through a side: %lld at the gate, %lld past it, %lld back\n", (long long)on, (long long)off,
	       (long long)again);
	if (off != 0) fail_msg("%lld pricings through a side with %d objects", (long long)off, over);
	if (on < 100 || again < 100)
		fail_msg("only %lld and %lld pricings through a side", (long long)on, (long long)again);
	teardown(&s);
}

int main(void)
{
	TestFcn* const tests[] = {test_sides_follow_moves,     test_sides_follow_short_moves, test_sides_with_wide_places,
	                          test_sides_follow_new_index, test_gate_keeps_answers,       test_budget_from_cache};
	return test_run_group("object_sides", tests,
	                      "test_sides_follow_moves test_sides_follow_short_moves test_sides_with_wide_places "
	                      "test_sides_follow_new_index test_gate_keeps_answers test_budget_from_cache",
	                      6);
}
