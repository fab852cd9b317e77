// Grid Tree world: updates keep every count exact (validate), handles, and every query kind
// against a linear scan with the same distance function (docs/algorithms.md 6.9).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linear_scan.h"
#include "test_support.h"


static void validate(const gtWorld* w)
{
	gtError err;
	if (gtWorld_Validate(w, &err)) fail_msg("validate: %s", err.message);
}

// docs/algorithms.md 6.6: 8x8 open map, m = 2, query (3.5, 3.5) for "heal", k = 2.
static void test_worked_example(void** state)
{
	(void)state;
	gtMap* m = test_random_map(&(TestRng){1}, 8, 8, 0);
	gtWorld* w = test_make_world(m, 2);
	int height;
	int64_t nodes;
	gtWorld_TreeSize(w, &height, &nodes);
	assert_int_equal(height, 2);
	assert_int_equal(nodes, 21);
	int32_t potion = gtWorld_Keyword(w, "potion"), heal = gtWorld_Keyword(w, "heal"),
	        sword = gtWorld_Keyword(w, "sword");
	gtObjectId o[4];
	gtError err;
	assert_int_equal(gtWorld_Add(w, (gtVec2){1.5, 1.5}, (int32_t[]){potion, heal}, 2, &o[0], &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){2.5, 0.5}, (int32_t[]){sword}, 1, &o[1], &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){6.5, 6.5}, (int32_t[]){potion, heal, heal}, 3, &o[2], &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){5, 2}, (int32_t[]){heal}, 1, &o[3], &err), GT_OK);
	validate(w);
	gtQuery q = gtQuery_Default((gtVec2){3.5, 3.5});
	q.k = 2;
	q.keywords = &heal;
	q.keyword_count = 1;
	gtObjectId ids[4];
	double d[4];
	int count;
	gtQueryStats stats;
	assert_int_equal(gtWorld_Nearest(w, &q, gtDistance_Euclid(), ids, d, 4, &count, &stats, &err), GT_OK);
	assert_int_equal(count, 2);
	assert_true(ids[0] == o[3] && ids[1] == o[0]);
	assert_float_equal(d[0], sqrt(4.5), 1e-12);
	assert_float_equal(d[1], sqrt(8.0), 1e-12);
	assert_int_equal(stats.distance_calls, 2); // o3 is never evaluated
	// Moving o4 to (3.9, 2.5) crosses leaves; counts stay exact.
	assert_int_equal(gtWorld_Move(w, o[3], (gtVec2){3.9, 2.5}, &err), GT_OK);
	validate(w);
	const int32_t* kws;
	assert_int_equal(gtWorld_GetKeywords(w, o[2], &kws), 2); // duplicates merged
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

static void test_handles_and_bad_input(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows("......\n..@@..\n..@@..\n......");
	gtWorld* w = test_make_world(m, 1);
	gtError err;
	int32_t a = gtWorld_Keyword(w, "elf");
	assert_int_equal(gtWorld_Keyword(w, "elf"), a);
	assert_int_equal(gtWorld_FindKeyword(w, "orc"), -1);
	assert_int_equal(gtWorld_Keyword(w, ""), -1);
	assert_int_equal(gtWorld_Keyword(w, "two words"), -1);
	assert_string_equal(gtWorld_KeywordName(w, a), "elf");
	gtObjectId id, other;
	assert_int_equal(gtWorld_Add(w, (gtVec2){0.5, 0.5}, &a, 1, &id, &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){2.5, 1.5}, &a, 1, &other, &err), GT_ERR_INVALID_POINT);
	assert_int_equal(gtWorld_Add(w, (gtVec2){NAN, 1}, &a, 1, &other, &err), GT_ERR_INVALID_POINT);
	assert_int_equal(gtWorld_Add(w, (gtVec2){1, 1}, (int32_t[]){7}, 1, &other, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtWorld_Move(w, id, (gtVec2){9, 1}, &err), GT_ERR_INVALID_POINT);
	// A combined update with a bad point changes neither the position nor the keywords.
	assert_int_equal(gtWorld_MoveAndSetKeywords(w, id, (gtVec2){2.5, 1.5}, NULL, 0, &err), GT_ERR_INVALID_POINT);
	const int32_t* still;
	assert_int_equal(gtWorld_GetKeywords(w, id, &still), 1);
	assert_int_equal(gtWorld_Count(w), 1);
	validate(w);
	// A removed id stays stale when its slot is reused.
	assert_int_equal(gtWorld_Remove(w, id, &err), GT_OK);
	assert_false(gtWorld_IsValid(w, id));
	assert_int_equal(gtWorld_Add(w, (gtVec2){1, 1}, &a, 1, &other, &err), GT_OK);
	assert_true(gtWorld_IsValid(w, other));
	assert_false(gtWorld_IsValid(w, id));
	assert_int_equal(gtWorld_Move(w, id, (gtVec2){1, 1}, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "stale"));
	assert_int_equal(gtWorld_Remove(w, id, &err), GT_ERR_INVALID_ARG);
	assert_false(gtWorld_IsValid(w, 0));
	assert_false(gtWorld_IsValid(w, 12345678901234ull));
	// move_many checks everything first: one bad point changes nothing.
	gtObjectId ids[2] = {other, other};
	gtVec2 pts[2] = {{5, 3}, {2.5, 1.5}};
	assert_int_equal(gtWorld_MoveMany(w, ids, pts, 2, &err), GT_ERR_INVALID_POINT);
	assert_int_equal(strncmp(err.message, "entry 2: ", 9), 0); // the message names the entry once
	assert_null(strstr(err.message + 9, "entry"));
	gtVec2 p;
	assert_int_equal(gtWorld_GetPosition(w, other, &p, &err), GT_OK);
	assert_true(p.x == 1 && p.y == 1);
	validate(w);
	gtWorldDef def = gtWorld_DefaultDef();
	def.leaf_size = 0;
	gtWorld* bad;
	assert_int_equal(gtWorld_Create(m, &def, &bad, &err), GT_ERR_INVALID_ARG);
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

typedef struct Model { // what the test believes about each object, to compare with queries
	gtObjectId id;
	gtVec2 p;
	int32_t kw[6];
	int n;
	bool live;
} Model;

// Odd seeds use words whose signature bits collide in pairs (ids i and 64 + i, gt_word_bit), so
// a set bit that the exact test must refute is common; even seeds use ids 0 .. vocabulary - 1.
static bool colliding;

static int32_t random_word(TestRng* rng, int vocabulary)
{
	int r = test_rng_int(rng, vocabulary);
	return colliding && r >= vocabulary / 2 ? 64 + r - vocabulary / 2 : r;
}

static void random_keywords(TestRng* rng, Model* o, int vocabulary)
{
	o->n = test_rng_int(rng, 5);
	for (int i = 0; i < o->n; i++) o->kw[i] = random_word(rng, vocabulary);
}

// A point in free space, sometimes exactly on a leaf boundary or the map border.
static gtVec2 place(const gtMap* m, TestRng* rng, gtVec2 near, double reach)
{
	for (;;) {
		gtVec2 p = test_random_point(m, rng);
		if (reach > 0) {
			p.x = near.x + (test_rng_int(rng, 2001) - 1000) / 1000.0 * reach;
			p.y = near.y + (test_rng_int(rng, 2001) - 1000) / 1000.0 * reach;
			if (test_rng_int(rng, 4) == 0) p.x = floor(p.x);
		}
		if (gtMap_CheckPoint(m, p) == GT_POINT_VALID) return p;
	}
}

// Runs a random query both ways and compares distance multisets; also the pruning test.
static void check_query(gtWorld* w, const gtMap* m, Model* objs, int n, TestRng* rng, gtDistance dist, int vocabulary,
                        int* nonempty)
{
	int32_t words[4], any[2], none[2];
	gtQuery q = gtQuery_Default(test_random_point(m, rng));
	q.k = test_rng_int(rng, 8);
	q.keyword_count = test_rng_int(rng, 4);
	for (int i = 0; i < q.keyword_count; i++) words[i] = test_rng_int(rng, 12) == 0 ? -1 : random_word(rng, vocabulary);
	q.keywords = words;
	int mode = test_rng_int(rng, 6);
	if (mode == 1) q.min_match = test_rng_int(rng, 3);
	if (mode == 2) {
		q.any = any;
		q.any_count = 2;
		any[0] = random_word(rng, vocabulary);
		any[1] = random_word(rng, vocabulary);
		q.keyword_count = 0;
	}
	if (mode == 3) {
		q.none = none;
		q.none_count = 2;
		none[0] = random_word(rng, vocabulary);
		none[1] = random_word(rng, vocabulary);
	}
	if (mode == 4 || mode == 5) {
		q.use_region = true;
		gtVec2 a = test_random_point(m, rng), b = test_random_point(m, rng);
		q.region[0] = fmin(a.x, b.x), q.region[1] = fmin(a.y, b.y), q.region[2] = fmax(a.x, b.x),
		q.region[3] = fmax(a.y, b.y);
	}
	if (mode == 5) { // every filter at once (docs/grid-tree.md: filters combine)
		q.min_match = test_rng_int(rng, 2);
		q.any = any, q.any_count = 2, any[0] = random_word(rng, vocabulary), any[1] = random_word(rng, vocabulary);
		q.none = none, q.none_count = 1, none[0] = random_word(rng, vocabulary);
	}
	// 0 nearest, 1 within, 2 scored top-k, 3 straight-line nearest, 4 straight-line within
	int kind = test_rng_int(rng, 5);
	bool within = kind == 1 || kind == 4, euclid = kind >= 3, scored = kind == 2;
	q.radius = test_rng_int(rng, 40);
	q.miss_cost = test_rng_int(rng, 30);
	// The linear-scan twin over what the test believes about every live object.
	LsObject* live = malloc(sizeof *live * (size_t)(n + 1));
	int live_count = 0;
	for (int i = 0; i < n; i++)
		if (objs[i].live) live[live_count++] = (LsObject){objs[i].p, objs[i].kw, objs[i].n, objs[i].id};
	double* expect = malloc(sizeof *expect * (size_t)(n + 1));
	gtObjectId* expect_ids = malloc(sizeof *expect_ids * (size_t)(n + 1));
	int want = ls_query_ids(live, live_count, &q, colliding ? 64 + vocabulary : vocabulary,
	                        euclid ? gtDistance_Euclid() : dist, within, scored, expect, expect_ids);
	gtObjectId* ids = malloc(sizeof *ids * (size_t)(n + 1));
	double* got = malloc(sizeof *got * (size_t)(n + 1));
	int count;
	gtQueryStats stats;
	gtError err;
	gtStatus st = kind == 0   ? gtWorld_Nearest(w, &q, dist, ids, got, n + 1, &count, &stats, &err)
	              : kind == 1 ? gtWorld_Within(w, &q, dist, ids, got, n + 1, &count, &stats, &err)
	              : kind == 2 ? gtWorld_Top(w, &q, dist, ids, got, n + 1, &count, &stats, &err)
	              : kind == 3 ? gtWorld_NearestEuclid(w, &q, ids, got, n + 1, &count, &stats, &err)
	                          : gtWorld_WithinEuclid(w, &q, ids, got, n + 1, &count, &stats, &err);
	if (st) fail_msg("%s", err.message);
	if (count != want) fail_msg("query kind %d k=%d: %d results, linear scan says %d", kind, q.k, count, want);
	for (int i = 0; i < count; i++) {
		assert_float_equal(got[i], expect[i], 1e-9 * (1 + expect[i]));
		assert_true(gtWorld_IsValid(w, ids[i]));
		if (i > 0) assert_true(got[i] >= got[i - 1]);
		// Equal distances by ascending id, the k-th place too: the same ids as the twin's.
		if (got[i] == expect[i] && ids[i] != expect_ids[i])
			fail_msg("query kind %d: result %d is id %llu, the linear scan's is %llu (distance %.17g)", kind, i,
			         (unsigned long long)ids[i], (unsigned long long)expect_ids[i], got[i]);
	}
	*nonempty += count > 0;
	free(expect);
	free(expect_ids);
	free(live);
	free(ids);
	free(got);
}

// Sessions take turns at the three ways a node's keyword is tested: every word with a bitmap (the
// default), none (keyword_bitmap_bytes 0: counts only), and the first six words only.
static int sessions_run;

static gtWorld* session_world(const gtMap* m, int leaf)
{
	gtWorldDef def = gtWorld_DefaultDef();
	def.leaf_size = leaf;
	gtWorld* w = NULL;
	gtError err;
	if (gtWorld_Create(m, &def, &w, &err)) fail_msg("%s", err.message);
	int height;
	int64_t nodes;
	gtWorld_TreeSize(w, &height, &nodes);
	int variant = sessions_run++ % 3;
	if (variant == 0) return w;
	gtWorld_Destroy(w);
	def.keyword_bitmap_bytes = variant == 1 ? 0 : 6 * ((nodes + 63) / 64 * 8); // one bit per node and word
	if (gtWorld_Create(m, &def, &w, &err)) fail_msg("%s", err.message);
	return w;
}

static void run_session(const gtMap* m, int leaf, gtDistance dist, int steps, uint64_t seed, int* nonempty)
{
	gtWorld* w = session_world(m, leaf);
	const int vocabulary = 10, max_objects = 120;
	char word[16];
	colliding = seed % 2;
	for (int i = 0; i < (colliding ? 64 + vocabulary : vocabulary); i++) {
		snprintf(word, sizeof word, "w%d", i);
		assert_int_equal(gtWorld_Keyword(w, word), i);
	}
	Model objs[120];
	memset(objs, 0, sizeof objs);
	TestRng rng = {seed};
	gtError err;
	for (int step = 0; step < steps; step++) {
		Model* o = &objs[test_rng_int(&rng, max_objects)];
		int action = test_rng_int(&rng, 10);
		if (!o->live) {
			random_keywords(&rng, o, vocabulary);
			// Some objects share a position exactly.
			o->p = (step > 0 && test_rng_int(&rng, 8) == 0 && objs[0].live) ? objs[0].p : place(m, &rng, o->p, 0);
			assert_int_equal(gtWorld_Add(w, o->p, o->kw, o->n, &o->id, &err), GT_OK);
			o->live = true;
		} else if (action < 4) { // short move: usually the same leaf
			o->p = place(m, &rng, o->p, 0.7);
			assert_int_equal(gtWorld_Move(w, o->id, o->p, &err), GT_OK);
		} else if (action < 6) { // long move
			o->p = place(m, &rng, o->p, 0);
			assert_int_equal(gtWorld_Move(w, o->id, o->p, &err), GT_OK);
		} else if (action < 7) {
			random_keywords(&rng, o, vocabulary);
			assert_int_equal(gtWorld_SetKeywords(w, o->id, o->kw, o->n, &err), GT_OK);
		} else if (action < 8) { // move and change keywords together
			random_keywords(&rng, o, vocabulary);
			o->p = place(m, &rng, o->p, 0);
			assert_int_equal(gtWorld_MoveAndSetKeywords(w, o->id, o->p, o->kw, o->n, &err), GT_OK);
		} else if (action < 9) {
			assert_int_equal(gtWorld_Remove(w, o->id, &err), GT_OK);
			assert_false(gtWorld_IsValid(w, o->id));
			o->live = false;
		} else { // a batch move of every live object
			gtObjectId ids[120];
			gtVec2 pts[120];
			int n = 0;
			for (int i = 0; i < max_objects; i++)
				if (objs[i].live) {
					objs[i].p = place(m, &rng, objs[i].p, 1.5);
					ids[n] = objs[i].id;
					pts[n++] = objs[i].p;
				}
			assert_int_equal(gtWorld_MoveMany(w, ids, pts, n, &err), GT_OK);
		}
		validate(w); // every count, list and leaf recomputed after every step
		if (step % 5 == 0) check_query(w, m, objs, max_objects, &rng, dist, vocabulary, nonempty);
	}
	validate(w);
	gtWorld_Destroy(w);
}

// One leaf filled past the crowded threshold (its keywords then counted), emptied below the sparse
// one (counts dropped, objects looked at again), and filled again, with moves in and out of it
// and keyword changes at every population: validated after every step, queries against the scan.
static void test_crowded_leaves(void** state)
{
	(void)state;
	gtMap* m = test_random_map(&(TestRng){5}, 40, 30, 0);
	const int vocabulary = 10, max_objects = 120;
	char word[16];
	int nonempty = 0;
	for (int variant = 0; variant < 3; variant++) { // bitmaps for every word, none, some
		gtWorld* w = session_world(m, 16);          // leaves of 10 x 7.5 map units
		colliding = variant == 1;
		for (int i = 0; i < (colliding ? 64 + vocabulary : vocabulary); i++) {
			snprintf(word, sizeof word, "w%d", i);
			assert_int_equal(gtWorld_Keyword(w, word), i);
		}
		Model objs[120];
		memset(objs, 0, sizeof objs);
		TestRng rng = {77 + (uint64_t)variant};
		gtError err;
		gtVec2 centre = {15.1, 11.3}; // the leaf [10, 20) x [7.5, 15) holds every point within 2.4
		assert_int_equal(gtMap_CheckPoint(m, centre), GT_POINT_VALID);
		// Fill to 60, empty to 4, fill to 100: the population crosses 32 and 16 both ways.
		const int targets[] = {60, 4, 100, 10};
		for (int phase = 0; phase < 4; phase++) {
			for (int step = 0; step < 400; step++) {
				int live = 0;
				for (int i = 0; i < max_objects; i++) live += objs[i].live;
				if (live == targets[phase]) break;
				Model* o = &objs[test_rng_int(&rng, max_objects)];
				if (live < targets[phase] && !o->live) {
					random_keywords(&rng, o, vocabulary);
					o->p = place(m, &rng, centre, 2.4);
					assert_int_equal(gtWorld_Add(w, o->p, o->kw, o->n, &o->id, &err), GT_OK);
					o->live = true;
				} else if (live > targets[phase] && o->live) {
					assert_int_equal(gtWorld_Remove(w, o->id, &err), GT_OK);
					o->live = false;
				} else if (o->live) {
					int action = test_rng_int(&rng, 3);
					if (action == 0) { // out of the leaf or back in
						o->p = place(m, &rng, centre, test_rng_int(&rng, 2) ? 2.4 : 9);
						assert_int_equal(gtWorld_Move(w, o->id, o->p, &err), GT_OK);
					} else {
						random_keywords(&rng, o, vocabulary);
						assert_int_equal(gtWorld_SetKeywords(w, o->id, o->kw, o->n, &err), GT_OK);
					}
				}
				validate(w);
				if (step % 4 == 0)
					check_query(w, m, objs, max_objects, &rng, gtDistance_Euclid(), vocabulary, &nonempty);
			}
		}
		gtWorld_Destroy(w);
	}
	assert_true(nonempty > 100);
	gtMap_Destroy(m);
}

static void test_random_sessions_euclid(void** state)
{
	(void)state;
	int nonempty = 0;
	gtMap* m = test_random_map(&(TestRng){1}, 40, 30, 0);
	for (int leaf = 1; leaf <= 64; leaf *= 4)
		run_session(m, leaf, gtDistance_Euclid(), 1500, (uint64_t)leaf, &nonempty);
	gtMap_Destroy(m);
	assert_true(nonempty > 300);
}

// Path distances on a map with walls, pinch points and separate components, by EHL and oracle.
static void test_random_sessions_path(void** state)
{
	(void)state;
	gtMap* m = test_load_map("assets/maps/small.map");
	gtError err;
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 2;
	gtNav *nav, *oracle_nav;
	gtNavQuery *q, *oracle;
	gtNavDef oracle_def = gtNav_DefaultDef();
	oracle_def.method = GT_NAV_ORACLE;
	oracle_def.threads = 1;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	assert_int_equal(gtNav_Method(nav), GT_NAV_EHL);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	assert_int_equal(gtNav_Create(m, &oracle_def, &oracle_nav, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(oracle_nav, &oracle, &err), GT_OK);
	int nonempty = 0;
	run_session(m, 4, test_world_distance(q), 1200, 11, &nonempty);
	run_session(m, 16, test_world_distance(oracle), 600, 12, &nonempty);
	assert_true(nonempty > 150);
	gtNavQuery_Destroy(oracle);
	gtNav_Destroy(oracle_nav);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(m);
}

// Real maps of every suite (walls, pinch points, separate components) with EHL distances.
static void real_map_sessions(const char* suite, const char* name, const int* leaves, int count, int steps)
{
	gtMap* m = test_load_shared_map(suite, name);
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 8;
	gtNav* nav;
	gtNavQuery* q;
	gtError err;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	int nonempty = 0;
	for (int i = 0; i < count; i++)
		run_session(m, leaves[i], test_world_distance(q), steps, (uint64_t)(100 + leaves[i]), &nonempty);
	printf("note: %s/%s: Grid Tree equals the linear scan at %d leaf sizes\n", suite, name, count);
	assert_true(nonempty > steps / 25);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(m);
}

static void test_real_maps(void** state)
{
	(void)state;
	real_map_sessions("dao", "arena", (const int[]){1, 4, 16, 64}, 4, 600);
	real_map_sessions("da2", "w_sundermount", (const int[]){4, 16, 64}, 3, 400);
	real_map_sessions("bgmaps", "AR0602SR", (const int[]){16, 64}, 2, 400);
	real_map_sessions("sc1", "Sandstorm", (const int[]){64}, 1, 300);
}

// Objects piled on shared points (so many distances are exactly equal, and the k-th place often
// cuts through a pile) on real maps: every query kind returns the linear scan's ids in its order,
// ties by ascending id. Removing and adding again makes ids that do not follow slot order.
// With few piles the world is sparse and the traversal's cost model reads every object instead
// of the tree on most queries (nodes_popped 0): both ways must then be seen, and agree.
static void tied_session(const char* suite, const char* name, uint64_t seed, int piles)
{
	gtMap* m = test_load_shared_map(suite, name);
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 8;
	gtNav* nav;
	gtNavQuery* nq;
	gtError err;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &nq, &err), GT_OK);
	gtDistance walk = test_world_distance(nq);
	gtWorld* w = test_make_world(m, 16);
	int32_t words[2] = {gtWorld_Keyword(w, "a"), gtWorld_Keyword(w, "b")};
	TestRng rng = {seed};
	enum { PER = 6, N = 40 * PER };
	LsObject objs[N];
	int n = piles * PER;
	for (int i = 0; i < n; i++) {
		gtVec2 p = i % PER == 0 ? test_random_point(m, &rng) : objs[i - 1].point;
		objs[i] = (LsObject){p, &words[i % 2], 1, 0};
		assert_int_equal(gtWorld_Add(w, p, &words[i % 2], 1, &objs[i].id, &err), GT_OK);
	}
	for (int i = 0; i < n; i += 7) { // a new id in the same slot: ids and slots in different orders
		assert_int_equal(gtWorld_Remove(w, objs[i].id, &err), GT_OK);
		assert_int_equal(gtWorld_Add(w, objs[i].point, objs[i].keywords, 1, &objs[i].id, &err), GT_OK);
	}
	gtObjectId ids[N], expect_ids[N];
	double got[N], expect[N];
	int ties = 0, scans = 0, walks = 0;
	for (int t = 0; t < 300; t++) {
		gtQuery q = gtQuery_Default(test_random_point(m, &rng));
		q.k = 1 + test_rng_int(&rng, 3 * PER);
		q.radius = test_rng_int(&rng, 60);
		q.keywords = &words[0];
		q.keyword_count = test_rng_int(&rng, 2);
		int kind = t % 5, count; // nearest, within, top, straight-line nearest and within
		bool within = kind == 1 || kind == 4, euclid = kind >= 3;
		gtQueryStats stats;
		gtStatus st = kind == 0   ? gtWorld_Nearest(w, &q, walk, ids, got, N, &count, &stats, &err)
		              : kind == 1 ? gtWorld_Within(w, &q, walk, ids, got, N, &count, &stats, &err)
		              : kind == 2 ? gtWorld_Top(w, &q, walk, ids, got, N, &count, &stats, &err)
		              : kind == 3 ? gtWorld_NearestEuclid(w, &q, ids, got, N, &count, &stats, &err)
		                          : gtWorld_WithinEuclid(w, &q, ids, got, N, &count, &stats, &err);
		assert_int_equal(st, GT_OK);
		if (kind <= 2) stats.nodes_popped == 0 ? scans++ : walks++;
		int want = ls_query_ids(objs, n, &q, 2, euclid ? gtDistance_Euclid() : walk, within, kind == 2, expect,
		                        expect_ids);
		assert_int_equal(count, want);
		for (int i = 0; i < count; i++) {
			if (ids[i] != expect_ids[i] || got[i] != expect[i])
				fail_msg("%s/%s query %d kind %d k %d: result %d is %llu at %.17g, the scan's %llu at %.17g", suite,
				         name, t, kind, q.k, i, (unsigned long long)ids[i], got[i], (unsigned long long)expect_ids[i],
				         expect[i]);
			ties += i > 0 && got[i] == got[i - 1];
		}
	}
	printf("note: %s/%s, %d objects: %d tied neighbours in the linear scan's order; %d queries read every object, "
	       "%d the tree\n",
	       suite, name, n, ties, scans, walks);
	assert_true(ties > 50); // the piles do tie
	if (piles < 10) assert_true(scans > 20 && walks > 5);
	gtWorld_Destroy(w);
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
	gtMap_Destroy(m);
}

static void test_ties_by_id_on_real_maps(void** state)
{
	(void)state;
	tied_session("dao", "arena", 31, 40);
	tied_session("bgmaps", "AR0602SR", 32, 40);
	tied_session("bgmaps", "AR0602SR", 33, 5);
}

static double counting_euclid(void* context, gtVec2 a, gtVec2 b)
{
	int* calls = context;
	(*calls)++;
	return hypot(b.x - a.x, b.y - a.y);
}

// Algorithm 1 prices exactly the matching objects whose straight-line distance is below the
// final k-th distance (plus ties): any extra call means a bound or the stop test is wrong.
static void test_pruning_is_tight(void** state)
{
	(void)state;
	gtMap* m = test_random_map(&(TestRng){1}, 64, 64, 0);
	gtWorld* w = test_make_world(m, 4);
	int32_t a = gtWorld_Keyword(w, "a"), b = gtWorld_Keyword(w, "b");
	TestRng rng = {5};
	gtVec2 pts[400];
	bool has_a[400];
	gtError err;
	for (int i = 0; i < 400; i++) {
		gtObjectId id;
		pts[i] = test_random_point(m, &rng);
		has_a[i] = test_rng_int(&rng, 3) == 0;
		assert_int_equal(gtWorld_Add(w, pts[i], has_a[i] ? &a : &b, 1, &id, &err), GT_OK);
	}
	for (int t = 0; t < 200; t++) {
		gtQuery q = gtQuery_Default(test_random_point(m, &rng));
		q.k = 1 + test_rng_int(&rng, 10);
		q.keywords = &a;
		q.keyword_count = 1;
		int calls = 0, count;
		gtDistance d = {.fcn = counting_euclid, .context = &calls};
		gtObjectId ids[16];
		double dist[16];
		gtQueryStats stats;
		assert_int_equal(gtWorld_Nearest(w, &q, d, ids, dist, 16, &count, &stats, &err), GT_OK);
		double dk = dist[count - 1];
		int below = 0, at = 0;
		for (int i = 0; i < 400; i++) {
			if (!has_a[i]) continue;
			double e = hypot(pts[i].x - q.point.x, pts[i].y - q.point.y);
			below += e < dk;
			at += e == dk;
		}
		assert_int_equal(calls, stats.distance_calls);
		if (calls < below || calls > below + at)
			fail_msg("query %d: %d distance calls, %d objects below dk", t, calls, below);
	}
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// gtWorld_Top charges miss_cost for every query word an object lacks, words no object has ever
// had included: the same score before and after some object uses them.
static void test_top_scores_unseen_words(void** state)
{
	(void)state;
	gtMap* m = test_random_map(&(TestRng){1}, 8, 8, 0);
	gtWorld* w = test_make_world(m, 2);
	int32_t b = gtWorld_Keyword(w, "b");
	gtObjectId id, ids[2];
	gtError err;
	assert_int_equal(gtWorld_Add(w, (gtVec2){1.5, 1.5}, &b, 1, &id, &err), GT_OK);
	gtQuery q = gtQuery_Default((gtVec2){1.5, 5.5}); // 4 units away
	q.k = 1;
	double score[2];
	int count;
	int32_t unseen[3] = {gtWorld_FindKeyword(w, "fire"), gtWorld_FindKeyword(w, "loot"), b};
	assert_int_equal(unseen[0], -1);
	q.keywords = unseen;
	q.keyword_count = 3;
	assert_int_equal(gtWorld_Top(w, &q, gtDistance_Euclid(), ids, score, 2, &count, NULL, &err), GT_OK);
	assert_int_equal(count, 1);
	assert_float_equal(score[0], 44, 1e-12); // 4 + 20 for fire + 20 for loot
	int32_t never_issued[3] = {999, 999, b}; // an id named twice is one word
	q.keywords = never_issued;
	assert_int_equal(gtWorld_Top(w, &q, gtDistance_Euclid(), ids, score, 2, &count, NULL, &err), GT_OK);
	assert_float_equal(score[0], 24, 1e-12);
	int32_t fire = gtWorld_Keyword(w, "fire"), loot = gtWorld_Keyword(w, "loot"), seen[3] = {fire, loot, b};
	gtObjectId other;
	assert_int_equal(gtWorld_Add(w, (gtVec2){7.5, 7.5}, (int32_t[]){fire, loot}, 2, &other, &err), GT_OK);
	q.keywords = seen;
	q.k = 2;
	assert_int_equal(gtWorld_Top(w, &q, gtDistance_Euclid(), ids, score, 2, &count, NULL, &err), GT_OK);
	assert_int_equal(count, 2);
	assert_true(ids[1] == id && ids[0] == other); // other lacks only b: 6.32 + 20
	assert_float_equal(score[1], 44, 1e-12);      // the same score once the words exist
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// gtWorld_TopWeighted: score = alpha * distance + (1 - alpha) * miss_cost * missing / words, over
// the distinct words (a repeated id once, an unknown word counted), against every object scored
// by hand.
static void test_top_weighted_scores(void** state)
{
	(void)state;
	gtMap* m = test_random_map(&(TestRng){3}, 16, 16, 0);
	gtWorld* w = test_make_world(m, 4);
	int32_t a = gtWorld_Keyword(w, "a"), b = gtWorld_Keyword(w, "b");
	gtError err;
	TestRng rng = {5};
	enum { N = 40 };
	gtVec2 at[N];
	int missing[N];
	gtObjectId id[N];
	for (int i = 0; i < N; i++) {
		at[i] = (gtVec2){test_rng_int(&rng, 1600) / 100.0, test_rng_int(&rng, 1600) / 100.0};
		int kind = test_rng_int(&rng, 4); // none, a, b, both
		int32_t words[2], n = 0;
		if (kind & 1) words[n++] = a;
		if (kind & 2) words[n++] = b;
		missing[i] = 3 - n; // of a, b and the unknown word
		assert_int_equal(gtWorld_Add(w, at[i], words, n, &id[i], &err), GT_OK);
	}
	gtQuery q = gtQuery_Default((gtVec2){8, 8});
	int32_t asked[4] = {a, b, a, -1}; // three distinct words
	q.keywords = asked, q.keyword_count = 4, q.k = 5, q.miss_cost = 100;
	const double alpha = 0.3;
	double want[N];
	for (int i = 0; i < N; i++)
		want[i] = alpha * hypot(at[i].x - 8, at[i].y - 8) + (1 - alpha) * 100 * missing[i] / 3.0;
	gtObjectId ids[5];
	double score[5];
	int count;
	assert_int_equal(gtWorld_TopWeighted(w, &q, alpha, gtDistance_Euclid(), ids, score, 5, &count, NULL, &err), GT_OK);
	assert_int_equal(count, 5);
	for (int r = 0; r < count; r++) {
		int i = 0;
		while (id[i] != ids[r]) i++;
		assert_float_equal(score[r], want[i], 1e-9);
		int better = 0; // objects that beat it: fewer than its rank (ties aside)
		for (int j = 0; j < N; j++) better += want[j] < want[i] - 1e-9;
		assert_true(better <= r);
	}
	assert_int_equal(gtWorld_TopWeighted(w, &q, 0, gtDistance_Euclid(), ids, score, 5, &count, NULL, &err),
	                 GT_ERR_INVALID_ARG);
	assert_int_equal(gtWorld_TopWeighted(w, &q, 1.5, gtDistance_Euclid(), ids, score, 5, &count, NULL, &err),
	                 GT_ERR_INVALID_ARG);
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// Every function taking an id, given `id` of another world (or a stale one): rejected, nothing changes.
static void expect_stale_everywhere(gtWorld* w, gtObjectId id)
{
	gtError err;
	int32_t kw = gtWorld_Keyword(w, "probe");
	gtVec2 p = {1.5, 0.5};
	const int32_t* words;
	int count = gtWorld_Count(w);
	assert_false(gtWorld_IsValid(w, id));
	assert_int_equal(gtWorld_Move(w, id, p, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "stale"));
	assert_int_equal(gtWorld_MoveMany(w, &id, &p, 1, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtWorld_SetKeywords(w, id, &kw, 1, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtWorld_MoveAndSetKeywords(w, id, p, &kw, 1, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtWorld_GetPosition(w, id, &p, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtWorld_GetKeywords(w, id, &words), -1);
	assert_int_equal(gtWorld_Remove(w, id, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtWorld_Count(w), count);
	validate(w);
}

// Two worlds fill the same slots with the same generations: only the tag tells their ids apart.
static void test_ids_tied_to_their_world(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows("......\n......");
	gtWorld* a = test_make_world(m, 1);
	gtWorld* b = test_make_world(m, 1);
	gtError err;
	gtObjectId ia[3], ib[3];
	for (int i = 0; i < 3; i++) {
		assert_int_equal(gtWorld_Add(a, (gtVec2){0.5 + i, 0.5}, NULL, 0, &ia[i], &err), GT_OK);
		assert_int_equal(gtWorld_Add(b, (gtVec2){0.5 + i, 1.5}, NULL, 0, &ib[i], &err), GT_OK);
		assert_int_equal(gtObjectId_Slot(ia[i]), gtObjectId_Slot(ib[i]));
		assert_int_equal(gtObjectId_Generation(ia[i]), gtObjectId_Generation(ib[i]));
		assert_int_not_equal(gtObjectId_Tag(ia[i]), gtObjectId_Tag(ib[i]));
		assert_true(ia[i] < (UINT64_C(1) << 53) && ib[i] < (UINT64_C(1) << 53));
	}
	for (int i = 0; i < 3; i++) {
		expect_stale_everywhere(a, ib[i]);
		expect_stale_everywhere(b, ia[i]);
		assert_true(gtWorld_IsValid(a, ia[i]) && gtWorld_IsValid(b, ib[i]));
	}
	// A batch with one foreign id among valid ones changes nothing.
	gtObjectId batch[2] = {ia[0], ib[1]};
	gtVec2 to[2] = {{5.5, 1.5}, {5.5, 1.5}};
	assert_int_equal(gtWorld_MoveMany(a, batch, to, 2, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(strncmp(err.message, "entry 2: ", 9), 0);
	gtVec2 p;
	assert_int_equal(gtWorld_GetPosition(a, ia[0], &p, &err), GT_OK);
	assert_true(p.x == 0.5 && p.y == 0.5);
	gtWorld_Destroy(a);
	gtWorld_Destroy(b);
	gtMap_Destroy(m);
}

// Live worlds all hold different tags; a destroyed world's ids stay stale in every world made
// after it (tags come round only after 2^GT_OBJECT_ID_TAG_BITS more worlds).
static void test_many_worlds(void** state)
{
	(void)state;
	enum { N = 600 }; // more than the 256 tags there used to be
	gtMap* m = test_map_from_rows("....\n....");
	gtWorld** worlds = calloc(N, sizeof *worlds);
	gtObjectId* ids = calloc(N, sizeof *ids);
	assert_non_null(worlds);
	assert_non_null(ids);
	gtError err;
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < N; i++) {
			if (worlds[i]) continue;
			worlds[i] = test_make_world(m, 1);
			assert_int_equal(gtWorld_Add(worlds[i], (gtVec2){0.5, 0.5}, NULL, 0, &ids[i], &err), GT_OK);
		}
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) assert_true(gtWorld_IsValid(worlds[i], ids[j]) == (i == j));
		for (int i = round; i < N; i += 3) { // destroy a third, recreated in the next round
			gtWorld_Destroy(worlds[i]);
			worlds[i] = NULL;
		}
	}
	for (int i = 1; i < N; i++) expect_stale_everywhere(worlds[0], ids[i]); // live or destroyed, never worlds[0]'s
	// One world at a time, 1,000 times: each new world's first object has slot 0 and generation 1,
	// like every destroyed one's, and no destroyed world's id is valid in it.
	gtObjectId* old = calloc(1000, sizeof *old);
	assert_non_null(old);
	for (int i = 0; i < 1000; i++) {
		gtWorld* w = test_make_world(m, 1);
		assert_int_equal(gtWorld_Add(w, (gtVec2){0.5, 0.5}, NULL, 0, &old[i], &err), GT_OK);
		for (int j = 0; j < i; j++) assert_false(gtWorld_IsValid(w, old[j]));
		gtWorld_Destroy(w);
	}
	free(old);
	for (int i = 0; i < N; i++) gtWorld_Destroy(worlds[i]);
	free(worlds);
	free(ids);
	gtMap_Destroy(m);
}

// Ids that are not ids: the null id, every single bit, bits above 2^53 on a valid id. Never valid,
// never undefined behaviour (0x80000000 used to overflow a signed slot computation).
static void test_ids_out_of_range(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows("....\n....");
	gtWorld* w = test_make_world(m, 1);
	gtError err;
	gtObjectId id;
	assert_int_equal(gtWorld_Add(w, (gtVec2){0.5, 0.5}, NULL, 0, &id, &err), GT_OK);
	assert_false(gtWorld_IsValid(w, 0));
	for (int bit = 0; bit < 64; bit++) {
		gtObjectId v = UINT64_C(1) << bit;
		if (v != id) assert_false(gtWorld_IsValid(w, v));
		if (bit >= 53) assert_false(gtWorld_IsValid(w, id | v));
	}
	assert_false(gtWorld_IsValid(w, UINT64_C(0x80000000)));
	assert_false(gtWorld_IsValid(w, UINT64_C(0xffffffff)));
	assert_false(gtWorld_IsValid(w, ~UINT64_C(0)));
	assert_true(gtWorld_IsValid(w, id));
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// exclude: the answer is the unexcluded one with the excluded objects taken out, still k long
// (nearest, within, top, both metrics); ids of other worlds and removed ones skip nothing.
static void test_exclude(void** state)
{
	(void)state;
	TestRng rng = {7};
	gtMap* m = test_random_map(&rng, 24, 20, 15);
	gtWorld* w = test_make_world(m, 4);
	gtError err;
	enum { N = 60 };
	gtObjectId all[N];
	for (int i = 0; i < N; i++)
		assert_int_equal(gtWorld_Add(w, test_random_point(m, &rng), NULL, 0, &all[i], &err), GT_OK);
	for (int round = 0; round < 200; round++) {
		gtQuery q = gtQuery_Default(test_random_point(m, &rng));
		gtObjectId exclude[6];
		int n = 1 + test_rng_int(&rng, 5);
		for (int i = 0; i < n; i++) exclude[i] = all[test_rng_int(&rng, N)];
		if (round % 7 == 0) exclude[0] = all[0] + 1; // not an id of this world: skips nothing
		q.k = 1 + test_rng_int(&rng, 8);
		q.radius = 6;
		for (int kind = 0; kind < 4; kind++) {
			gtObjectId want[N], got[N];
			double wd[N], gd[N];
			int wn, gn;
			q.exclude = NULL, q.exclude_count = 0;
			int k = q.k;
			q.k = N;
			if (kind == 0)
				assert_int_equal(gtWorld_Nearest(w, &q, gtDistance_Euclid(), want, wd, N, &wn, NULL, &err), GT_OK);
			if (kind == 1) assert_int_equal(gtWorld_NearestEuclid(w, &q, want, wd, N, &wn, NULL, &err), GT_OK);
			if (kind == 2)
				assert_int_equal(gtWorld_Within(w, &q, gtDistance_Euclid(), want, wd, N, &wn, NULL, &err), GT_OK);
			if (kind == 3)
				assert_int_equal(gtWorld_Top(w, &q, gtDistance_Euclid(), want, wd, N, &wn, NULL, &err), GT_OK);
			q.k = k;
			q.exclude = exclude, q.exclude_count = n;
			if (kind == 0)
				assert_int_equal(gtWorld_Nearest(w, &q, gtDistance_Euclid(), got, gd, N, &gn, NULL, &err), GT_OK);
			if (kind == 1) assert_int_equal(gtWorld_NearestEuclid(w, &q, got, gd, N, &gn, NULL, &err), GT_OK);
			if (kind == 2)
				assert_int_equal(gtWorld_Within(w, &q, gtDistance_Euclid(), got, gd, N, &gn, NULL, &err), GT_OK);
			if (kind == 3)
				assert_int_equal(gtWorld_Top(w, &q, gtDistance_Euclid(), got, gd, N, &gn, NULL, &err), GT_OK);
			int kept = 0; // the unexcluded answer without the excluded ids
			for (int i = 0; i < wn; i++) {
				bool skip = false;
				for (int e = 0; e < n; e++) skip |= want[i] == exclude[e];
				if (!skip) wd[kept++] = wd[i];
			}
			int expect = kind == 2 ? kept : (kept < k ? kept : k);
			assert_int_equal(gn, expect);
			for (int i = 0; i < gn; i++) {
				assert_true(gd[i] == wd[i]); // ties may swap ids, never distances
				for (int e = 0; e < n; e++) assert_true(got[i] != exclude[e]);
			}
		}
	}
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// One slot reused for every generation it has: each old id stays stale, and when the generations
// run out the slot is retired instead of wrapping round to an old id.
static void test_slot_reused_many_times(void** state)
{
	(void)state;
	enum { LIVES = 1 << (GT_OBJECT_ID_GENERATION_BITS - 1) };
	gtMap* m = test_map_from_rows("....\n....");
	gtWorld* w = test_make_world(m, 1);
	gtError err;
	gtObjectId* ids = calloc(LIVES + 2, sizeof *ids);
	assert_non_null(ids);
	gtObjectId keep;
	assert_int_equal(gtWorld_Add(w, (gtVec2){3.5, 1.5}, NULL, 0, &keep, &err), GT_OK);
	for (int i = 0; i < LIVES + 2; i++) {
		assert_int_equal(gtWorld_Add(w, (gtVec2){0.5, 0.5}, NULL, 0, &ids[i], &err), GT_OK);
		assert_int_equal(gtObjectId_Slot(ids[i]), i < LIVES ? 1 : 2); // LIFO free list: the same slot
		assert_true(ids[i] != 0 && ids[i] < (UINT64_C(1) << 53));
		assert_int_equal(gtObjectId_Tag(ids[i]), gtObjectId_Tag(keep));
		if (i > 0) assert_false(gtWorld_IsValid(w, ids[i - 1]));
		assert_true(gtWorld_IsValid(w, ids[i]));
		assert_int_equal(gtWorld_Remove(w, ids[i], &err), GT_OK);
	}
	for (int i = 0; i < LIVES + 2; i++) {
		assert_false(gtWorld_IsValid(w, ids[i]));
		for (int j = 0; j < i; j++) assert_true(ids[i] != ids[j]);
	}
	assert_int_equal(gtWorld_Count(w), 1);
	assert_true(gtWorld_IsValid(w, keep));
	validate(w);
	free(ids);
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// Straight-line queries may start anywhere finite, far off the map included (found by fuzzing:
// the leaf guess overflowed an int64 conversion).
static void test_straight_line_queries_far_off_the_map(void** state)
{
	(void)state;
	gtMap* m = test_random_map(&(TestRng){1}, 16, 16, 0);
	gtWorld* w = test_make_world(m, 4);
	gtObjectId id, ids[2];
	gtError err;
	assert_int_equal(gtWorld_Add(w, (gtVec2){3.5, 12.5}, NULL, 0, &id, &err), GT_OK);
	const gtVec2 far[] = {{1e200, -1e200}, {-1e300, 5}, {8, 1e30}, {-3, -4}};
	for (int i = 0; i < 4; i++) {
		gtQuery q = gtQuery_Default(far[i]);
		q.radius = INFINITY;
		double d[2];
		int count;
		assert_int_equal(gtWorld_NearestEuclid(w, &q, ids, d, 2, &count, NULL, &err), GT_OK);
		assert_int_equal(count, 1);
		assert_true(ids[0] == id);
		assert_float_equal(d[0], hypot(far[i].x - 3.5, far[i].y - 12.5), 1e-9 * d[0]);
		assert_int_equal(gtWorld_WithinEuclid(w, &q, ids, d, 2, &count, NULL, &err), GT_OK);
		assert_int_equal(count, 1);
	}
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// The documented defaults (gt_world.h, docs/grid-tree.md): leaves at most 16 map cells wide, room for 1024
// objects; a query asks for 1 object with all of its words, no radius, no region, and charges 20
// map units per missing word.
static void test_defaults(void** state)
{
	(void)state;
	gtWorldDef def = gtWorld_DefaultDef();
	assert_int_equal(def.leaf_size, 16);
	assert_int_equal(def.capacity, 1024);
	assert_true(def.keyword_bitmap_bytes == INT64_C(8) << 20);
	gtQuery q = gtQuery_Default((gtVec2){1, 2});
	assert_true(q.point.x == 1 && q.point.y == 2);
	assert_int_equal(q.k, 1);
	assert_true(isinf(q.radius) && q.radius > 0);
	assert_true(q.keywords == NULL && q.keyword_count == 0 && q.any_count == 0 && q.none_count == 0);
	assert_int_equal(q.min_match, -1);
	assert_false(q.use_region);
	assert_true(q.miss_cost == 20);
	assert_null(q.trace);
	// A NULL def is the default one: on a 256x256 map, 16-cell leaves make a 16x16 grid (height 4).
	gtMap* m = test_load_map("assets/maps/keep.map");
	gtWorld* w;
	gtError err;
	int height;
	int64_t nodes;
	assert_int_equal(gtWorld_Create(m, NULL, &w, &err), GT_OK);
	gtWorld_TreeSize(w, &height, &nodes);
	assert_int_equal(height, 4);
	gtWorld_Destroy(w);
	gtWorld_Destroy(test_make_world(m, GT_WORLD_MAX_LEAF_SIZE)); // the largest leaf is accepted
	def.leaf_size = GT_WORLD_MAX_LEAF_SIZE + 1;
	assert_int_equal(gtWorld_Create(m, &def, &w, &err), GT_ERR_INVALID_ARG);
	def = gtWorld_DefaultDef();
	def.keyword_bitmap_bytes = -1;
	assert_int_equal(gtWorld_Create(m, &def, &w, &err), GT_ERR_INVALID_ARG);
	def.keyword_bitmap_bytes = GT_WORLD_MAX_BITMAP_BYTES + 1;
	assert_int_equal(gtWorld_Create(m, &def, &w, &err), GT_ERR_INVALID_ARG);
	def.keyword_bitmap_bytes = GT_WORLD_MAX_BITMAP_BYTES; // a bound, not an allocation: accepted
	assert_int_equal(gtWorld_Create(m, &def, &w, &err), GT_OK);
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// Keywords: 1 to GT_KEYWORD_MAX_BYTES bytes of printable ASCII without spaces.
static void test_keyword_limits(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows("....");
	gtWorld* w = test_make_world(m, 1);
	char word[GT_KEYWORD_MAX_BYTES + 2];
	memset(word, 'w', sizeof word - 1);
	word[GT_KEYWORD_MAX_BYTES] = '\0';
	int32_t longest = gtWorld_Keyword(w, word);
	assert_true(longest >= 0);
	assert_string_equal(gtWorld_KeywordName(w, longest), word);
	word[GT_KEYWORD_MAX_BYTES] = 'w';
	word[GT_KEYWORD_MAX_BYTES + 1] = '\0';
	assert_int_equal(gtWorld_Keyword(w, word), -1);
	assert_int_equal(gtWorld_Keyword(w, "tab\there"), -1);
	assert_int_equal(gtWorld_Keyword(w, "caf\xc3\xa9"), -1);
	assert_int_equal(gtWorld_KeywordCount(w), 1);
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

// Every filter in one query, objects exactly on the closed region's border, and objects in another
// connected component, which no query returns (docs/grid-tree.md).
static void test_filters_borders_and_components(void** state)
{
	(void)state;
	// Two rooms: x < 4 and x > 5, split by a wall column.
	gtMap* m = test_map_from_rows("....@....\n....@....\n....@....\n....@....");
	gtNav* nav;
	gtNavQuery* nq;
	gtError err;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK); // no index: the exact oracle
	assert_int_equal(gtNavQuery_Create(nav, &nq, &err), GT_OK);
	gtDistance walk = test_world_distance(nq);
	gtWorld* w = test_make_world(m, 2);
	int32_t a = gtWorld_Keyword(w, "a"), b = gtWorld_Keyword(w, "b"), c = gtWorld_Keyword(w, "c");
	gtObjectId on_corner, on_edge, inside, outside, excluded, far_room;
	assert_int_equal(gtWorld_Add(w, (gtVec2){1, 1}, (int32_t[]){a, b}, 2, &on_corner, &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){3, 2}, (int32_t[]){a}, 1, &on_edge, &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){2, 2}, (int32_t[]){b}, 1, &inside, &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){3.000001, 2}, (int32_t[]){a, b}, 2, &outside, &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){2, 1.5}, (int32_t[]){a, b, c}, 3, &excluded, &err), GT_OK);
	assert_int_equal(gtWorld_Add(w, (gtVec2){6.5, 1.5}, (int32_t[]){a, b}, 2, &far_room, &err), GT_OK);
	int32_t words[2] = {a, b}, any[1] = {a}, none[1] = {c};
	gtQuery q = gtQuery_Default((gtVec2){0.5, 0.5});
	q.k = 10;
	q.radius = INFINITY;
	q.keywords = words, q.keyword_count = 2, q.min_match = 1; // at least one of a, b
	q.any = any, q.any_count = 1;                             // and a
	q.none = none, q.none_count = 1;                          // and not c
	q.use_region = true;
	q.region[0] = 1, q.region[1] = 1, q.region[2] = 3, q.region[3] = 2; // closed: corner and edge count
	gtObjectId ids[16];
	double d[16];
	int count;
	for (int kind = 0; kind < 4; kind++) {
		gtStatus st = kind == 0   ? gtWorld_Nearest(w, &q, walk, ids, d, 16, &count, NULL, &err)
		              : kind == 1 ? gtWorld_Within(w, &q, walk, ids, d, 16, &count, NULL, &err)
		              : kind == 2 ? gtWorld_NearestEuclid(w, &q, ids, d, 16, &count, NULL, &err)
		                          : gtWorld_WithinEuclid(w, &q, ids, d, 16, &count, NULL, &err);
		assert_int_equal(st, GT_OK);
		assert_int_equal(count, 2); // inside lacks a, outside is off the region, excluded has c
		assert_true(ids[0] == on_corner && ids[1] == on_edge);
	}
	// The far room: unreachable by walking, so never returned, with or without filters.
	gtQuery all = gtQuery_Default((gtVec2){0.5, 0.5});
	all.k = 10;
	assert_int_equal(gtWorld_Nearest(w, &all, walk, ids, d, 16, &count, NULL, &err), GT_OK);
	assert_int_equal(count, 5);
	assert_int_equal(gtWorld_Within(w, &all, walk, ids, d, 16, &count, NULL, &err), GT_OK);
	assert_int_equal(count, 5);
	assert_int_equal(gtWorld_Top(w, &all, walk, ids, d, 16, &count, NULL, &err), GT_OK);
	assert_int_equal(count, 5);
	for (int i = 0; i < count; i++) assert_true(ids[i] != far_room && isfinite(d[i]));
	assert_int_equal(gtWorld_NearestEuclid(w, &all, ids, d, 16, &count, NULL, &err),
	                 GT_OK); // straight lines ignore the wall
	assert_int_equal(count, 6);
	gtQuery there = gtQuery_Default((gtVec2){8.5, 3.5});
	assert_int_equal(gtWorld_Nearest(w, &there, walk, ids, d, 16, &count, NULL, &err), GT_OK);
	assert_true(count == 1 && ids[0] == far_room);
	gtWorld_Destroy(w);
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
	gtMap_Destroy(m);
}

// Nearest queries on objects that move, leave and come back (slots reused) against a brute force
// with `fcn`: the same ids and the very same distances.
static void check_world_exact(gtWorld* w, gtDistance d, const gtMap* m, TestRng* rng, gtObjectId* ids, int n,
                              const gtVec2* pool, int pool_size, int steps)
{
	gtError err;
	for (int step = 0; step < steps; step++) {
		int i = test_rng_int(rng, n);
		gtVec2 p = test_rng_int(rng, 2) ? pool[test_rng_int(rng, pool_size)] : test_random_point(m, rng);
		if (gtMap_CheckPoint(m, p) != GT_POINT_VALID) continue;
		if (test_rng_int(rng, 4) == 0) {
			assert_int_equal(gtWorld_Remove(w, ids[i], &err), GT_OK);
			assert_int_equal(gtWorld_Add(w, p, NULL, 0, &ids[i], &err), GT_OK);
		} else {
			assert_int_equal(gtWorld_Move(w, ids[i], p, &err), GT_OK);
		}
		gtQuery q = gtQuery_Default(test_rng_int(rng, 3) ? test_random_point(m, rng)
		                                                 : pool[test_rng_int(rng, pool_size)]);
		q.k = 1 + test_rng_int(rng, 8);
		gtObjectId got[8], want[8];
		double dist[8], want_dist[8];
		int count, found = 0;
		assert_int_equal(gtWorld_Nearest(w, &q, d, got, dist, 8, &count, NULL, &err), GT_OK);
		for (int j = 0; j < n; j++) { // insertion into the k best by (distance, id)
			gtVec2 at;
			assert_int_equal(gtWorld_GetPosition(w, ids[j], &at, &err), GT_OK);
			double dj = d.fcn(d.context, q.point, at);
			if (!(dj < INFINITY)) continue;
			int k = found < q.k ? found++ : q.k;
			for (; k > 0 && (want_dist[k - 1] > dj || (want_dist[k - 1] == dj && want[k - 1] > ids[j])); k--)
				if (k < q.k) want[k] = want[k - 1], want_dist[k] = want_dist[k - 1];
			if (k < q.k) want[k] = ids[j], want_dist[k] = dj;
		}
		assert_int_equal(count, found);
		for (int j = 0; j < count; j++)
			if (got[j] != want[j] || dist[j] != want_dist[j])
				fail_msg("step %d, result %d: id %llu at %.17g, brute force id %llu at %.17g", step, j,
				         (unsigned long long)got[j], dist[j], (unsigned long long)want[j], want_dist[j]);
	}
}

// World queries hand back the distance function's own doubles (no rounding on the way, ties by
// id), with objects that move, leave and come back, after the index is rebuilt under the nav's
// query and after a wall is added: what any cache of per-object pricing must keep.
static void test_exact_distances_through_changes(void** state)
{
	(void)state;
	gtMap* m = test_load_map("assets/maps/small.map");
	gtError err;
	gtNavDef nav_def = gtNav_DefaultDef();
	nav_def.manual_rebuild = true;
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 1;
	gtNav* nav;
	gtNavQuery* nq;
	assert_int_equal(gtNav_Create(m, &nav_def, &nav, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &nq, &err), GT_OK);
	TestRng rng = {41};
	gtVec2 pool[40];
	for (int i = 0; i < 40; i++) pool[i] = test_random_point(m, &rng);
	pool[1] = pool[0]; // two objects on one point
	gtWorld* w = test_make_world(m, 4);
	gtObjectId ids[24];
	for (int i = 0; i < 24; i++) assert_int_equal(gtWorld_Add(w, pool[i], NULL, 0, &ids[i], &err), GT_OK);
	check_world_exact(w, test_world_distance(nq), m, &rng, ids, 24, pool, 40, 300);
	// Another index under the same query: nothing priced with the old one may answer.
	def.cell_size = 2;
	assert_int_equal(gtNav_RebuildIndex(nav, &def, false, &err), GT_OK);
	check_world_exact(w, test_world_distance(nq), m, &rng, ids, 24, pool, 40, 100);
	// A wall added (the edited map's distances), then an index of the edited map.
	int x = (int)pool[5].x, y = (int)pool[5].y;
	if (x >= gtMap_Width(m)) x--;
	if (y >= gtMap_Height(m)) y--;
	assert_int_equal(gtNav_SetBlocked(nav, x, y, x, y, true, &err), GT_OK);
	for (int i = 0; i < 40; i++) // objects off the new wall
		if (gtMap_CheckPoint(m, pool[i]) != GT_POINT_VALID) pool[i] = test_random_point(m, &rng);
	for (int i = 0; i < 24; i++) assert_int_equal(gtWorld_Move(w, ids[i], pool[i], &err), GT_OK);
	check_world_exact(w, test_world_distance(nq), m, &rng, ids, 24, pool, 40, 100);
	assert_int_equal(gtNav_RebuildIndex(nav, &def, false, &err), GT_OK);
	check_world_exact(w, test_world_distance(nq), m, &rng, ids, 24, pool, 40, 100);
	gtWorld_Destroy(w);
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
	gtMap_Destroy(m);
}

// Objects a query point sees are answered by the world's clearance squares without a pricing
// (gtDistance.straight_map): at 1% of the free cells on a generated map of rooms, a generated arena
// and AR0602SR, answers equal the brute force's ids and doubles, with objects next to walls and
// in doors, and a query at an object away from walls needs no pricing at all.
static void sight_session(gtMap* m, int cell_size, uint64_t seed, int queries)
{
	gtError err;
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = cell_size;
	gtNav* nav;
	gtNavQuery* nq;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &nq, &err), GT_OK);
	gtDistance d = test_world_distance(nq);
	assert_ptr_not_equal(d.straight_map, NULL);
	TestRng rng = {seed};
	enum { N = 400, POOL = 600 };
	static gtVec2 pool[POOL];
	static gtObjectId ids[N];
	int n = (int)(gtMap_FreeCells(m) / 100);
	if (n > N) n = N;
	for (int i = 0; i < POOL; i++) pool[i] = test_random_point(m, &rng);
	gtWorld* w = test_make_world(m, 16);
	for (int i = 0; i < n; i++) assert_int_equal(gtWorld_Add(w, pool[i], NULL, 0, &ids[i], &err), GT_OK);
	check_world_exact(w, d, m, &rng, ids, n, pool, POOL, queries);
	// A new world (its own cost model, which walks the squares at first) over the same objects.
	gtWorld_Destroy(w);
	w = test_make_world(m, 16);
	for (int i = 0; i < n; i++) assert_int_equal(gtWorld_Add(w, pool[i], NULL, 0, &ids[i], &err), GT_OK);
	int answered = 0;
	for (int i = 0; i < 200; i++) { // at an object: it sees itself unless it is next to a wall
		gtQuery q = gtQuery_Default(pool[test_rng_int(&rng, n)]);
		q.k = 1;
		gtObjectId got[1];
		double dist[1];
		int count;
		gtQueryStats stats = {0};
		if (gtWorld_Nearest(w, &q, d, got, dist, 1, &count, &stats, &err)) fail_msg("%s", err.message);
		assert_int_equal(count, 1);
		assert_true(dist[0] == 0);
		answered += stats.distance_calls == 0;
	}
	assert_true(answered > 0);
	gtWorld_Destroy(w);
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
}

static void test_sight_without_pricing(void** state)
{
	(void)state;
	gtError err;
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 160, 120, 7, &m, &err), GT_OK);
	sight_session(m, 1, 3, 1500);
	gtMap_Destroy(m);
	assert_int_equal(gtMap_Generate(GT_STYLE_ARENA, 128, 96, 5, &m, &err), GT_OK);
	sight_session(m, 2, 4, 1500);
	gtMap_Destroy(m);
	m = test_load_shared_map("bgmaps", "AR0602SR");
	sight_session(m, 8, 5, 800);
	gtMap_Destroy(m);
}

// Pairs that graze walls, each priced against `fcn`: ends at and around the corners of blocked
// cells, on the line through two nearby corners (grazing both, through pinch points and diagonal
// squeezes), and along walls (on the grid line beside them and 1e-9 off it). The world answers many
// without a call (the squares stop next to a wall; the cells between decide) and must give fcn's
// very double for every one, seen or not. Returns how many were answered without a call while the
// query point lay next to a wall (its own square empty: only the cells can tell).
static int sight_near_walls(gtMap* m, int cell_size, uint64_t seed, int pairs)
{
	gtError err;
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = cell_size;
	gtNav* nav;
	gtNavQuery* nq;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &nq, &err), GT_OK);
	gtDistance d = test_world_distance(nq);
	enum { CORNERS = 4096 };
	static gtVec2 corners[CORNERS];
	int n = 0, width = gtMap_Width(m), height = gtMap_Height(m);
	for (int y = 1; y < height && n < CORNERS; y++)
		for (int x = 1; x < width && n < CORNERS; x++) {
			gtCorner kind = gtMap_ClassifyCorner(m, x, y);
			if (kind != GT_CORNER_OPEN && kind != GT_CORNER_INTERIOR) corners[n++] = (gtVec2){x, y};
		}
	assert_true(n > 100);
	TestRng rng = {seed};
	static const double offsets[] = {0, 1e-9, -1e-9, 1e-6, -1e-6, 0.25, -0.25, 0.5};
	gtWorld* w = NULL;
	gtObjectId id = 0;
	int answered_by_cells = 0, seen = 0, tried = 0;
	for (int i = 0; i < pairs; i++) {
		if (i % 16 == 0) { // a new world now and then: its cost model walks the squares again
			gtWorld_Destroy(w);
			w = test_make_world(m, 16);
			assert_int_equal(gtWorld_Add(w, test_random_point(m, &rng), NULL, 0, &id, &err), GT_OK);
		}
		gtVec2 c1 = corners[test_rng_int(&rng, n)], c2 = c1;
		for (int tries = 0; tries < 50 && (c2.x == c1.x && c2.y == c1.y); tries++) {
			gtVec2 c = corners[test_rng_int(&rng, n)];
			if (fabs(c.x - c1.x) <= 12 && fabs(c.y - c1.y) <= 12) c2 = c;
		}
		gtVec2 p, q, along = {c2.x - c1.x, c2.y - c1.y};
		double ox = offsets[test_rng_int(&rng, 8)], oy = offsets[test_rng_int(&rng, 8)];
		switch (test_rng_int(&rng, 3)) {
		case 0: { // through both corners (ends beyond them or on them)
			double t0 = -0.5 * test_rng_int(&rng, 3), t1 = 1 + 0.5 * test_rng_int(&rng, 3);
			p = (gtVec2){c1.x + t0 * along.x + ox, c1.y + t0 * along.y};
			q = (gtVec2){c1.x + t1 * along.x, c1.y + t1 * along.y + oy};
			break;
		}
		case 1: { // along a wall: on the grid line through the corner (or just off it)
			bool vertical = test_rng_int(&rng, 2);
			double a = 1 + test_rng_int(&rng, 8), b = 1 + test_rng_int(&rng, 8);
			p = vertical ? (gtVec2){c1.x + ox, c1.y - a} : (gtVec2){c1.x - a, c1.y + ox};
			q = vertical ? (gtVec2){c1.x + ox, c1.y + b + oy} : (gtVec2){c1.x + b + oy, c1.y + ox};
			break;
		}
		default: // near one corner, to anywhere nearby
			p = (gtVec2){c1.x + ox, c1.y + oy};
			q = (gtVec2){c2.x + offsets[test_rng_int(&rng, 8)], c2.y + offsets[test_rng_int(&rng, 8)]};
		}
		if (test_rng_int(&rng, 2)) {
			gtVec2 t = p;
			p = q, q = t;
		}
		if (gtMap_CheckPoint(m, p) != GT_POINT_VALID || gtMap_CheckPoint(m, q) != GT_POINT_VALID) continue;
		assert_int_equal(gtWorld_Move(w, id, p, &err), GT_OK);
		tried++;
		double want = d.fcn(d.context, q, p);
		gtQuery query = gtQuery_Default(q);
		query.k = 1;
		gtObjectId got[1];
		double dist[1];
		int count;
		gtQueryStats stats = {0};
		assert_int_equal(gtWorld_Nearest(w, &query, d, got, dist, 1, &count, &stats, &err), GT_OK);
		assert_int_equal(count, want < INFINITY);
		if (count && dist[0] != want)
			fail_msg("pair %d: q (%.17g, %.17g), p (%.17g, %.17g): %.17g, fcn %.17g", i, q.x, q.y, p.x, p.y, dist[0],
			         want);
		seen += want == hypot(p.x - q.x, p.y - q.y);
		// Next to a wall: a blocked cell among the nine around q's cell.
		bool near_wall = false;
		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++) near_wall |= gtMap_IsBlocked(m, (int)q.x + dx, (int)q.y + dy);
		answered_by_cells += count && near_wall && stats.distance_calls == 0;
	}
	printf("note: %d pairs near walls, %d in sight, %d answered by the cells without a call\n", tried, seen,
	       answered_by_cells);
	assert_true(seen > tried / 10);
	gtWorld_Destroy(w);
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
	return answered_by_cells;
}

static void test_sight_near_walls(void** state)
{
	(void)state;
	gtError err;
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 96, 72, 11, &m, &err), GT_OK);
	assert_true(sight_near_walls(m, 1, 13, 6000) > 40);
	gtMap_Destroy(m);
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 96, 72, 3, &m, &err), GT_OK);
	assert_true(sight_near_walls(m, 2, 17, 4000) > 20);
	gtMap_Destroy(m);
	m = test_load_shared_map("dao", "lak303d"); // pinch points
	assert_true(sight_near_walls(m, 4, 19, 4000) > 30);
	gtMap_Destroy(m);
}

// Nearest queries without filters walk the leaves in rings (world_tree_query.c ring_traverse) on
// trees of at most 7 levels and the tree above that: both against the brute force on a map that is
// not square (leaves wider than tall), with objects and queries on a few cell centres so that many
// distances tie (broken by id, the k-th place too). A query at an object with k = 1 reads one leaf
// in rings (nodes_popped 1) where the tree pops a node per level.
static void test_ring_against_brute_force(void** state)
{
	(void)state;
	gtError err;
	TestRng rng = {29};
	// Generated caves rather than 20% random walls: the same size (the tree heights below), walls
	// between most pairs, and an index built in about a second instead of a minute under the sanitizers.
	gtMap* m;
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 200, 150, 29, &m, &err), GT_OK);
	gtEhlDef def = gtEhl_DefaultDef();
	gtNav* nav;
	gtNavQuery* nq;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &nq, &err), GT_OK);
	gtDistance d = test_world_distance(nq);
	enum { N = 700, POOL = 40 };
	static gtVec2 pool[POOL];
	static gtObjectId ids[N];
	for (int i = 0; i < POOL; i++) {
		gtVec2 p = test_random_point(m, &rng);
		pool[i] = (gtVec2){floor(p.x) + 0.5, floor(p.y) + 0.5};
		if (gtMap_CheckPoint(m, pool[i]) != GT_POINT_VALID) i--;
	}
	for (int leaf = 2; leaf >= 1; leaf--) { // heights 7 (rings) and 8 (the tree)
		gtWorld* w = test_make_world(m, leaf);
		int height;
		int64_t nodes;
		gtWorld_TreeSize(w, &height, &nodes);
		assert_int_equal(height, leaf == 2 ? 7 : 8);
		for (int i = 0; i < N; i++) assert_int_equal(gtWorld_Add(w, pool[i % POOL], NULL, 0, &ids[i], &err), GT_OK);
		gtQuery q = gtQuery_Default(pool[0]);
		q.k = 1;
		gtObjectId got[1];
		double dist[1];
		int count;
		gtQueryStats stats = {0};
		assert_int_equal(gtWorld_Nearest(w, &q, d, got, dist, 1, &count, &stats, &err), GT_OK);
		assert_int_equal(count, 1);
		assert_true(got[0] == ids[0] && dist[0] == 0); // the smallest id of the objects at the point
		if (leaf == 2) assert_int_equal(stats.nodes_popped, 1);
		else assert_true(stats.nodes_popped > height);
		check_world_exact(w, d, m, &rng, ids, N, pool, POOL, 400);
		gtWorld_Destroy(w);
	}
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
	gtMap_Destroy(m);
}

TEST_MAIN("world", test_defaults, test_keyword_limits, test_filters_borders_and_components,
          test_straight_line_queries_far_off_the_map, test_top_scores_unseen_words, test_top_weighted_scores,
          test_worked_example, test_handles_and_bad_input, test_ids_tied_to_their_world, test_many_worlds,
          test_ids_out_of_range, test_exclude, test_slot_reused_many_times, test_random_sessions_euclid,
          test_crowded_leaves, test_random_sessions_path, test_pruning_is_tight, test_real_maps,
          test_ties_by_id_on_real_maps, test_exact_distances_through_changes, test_sight_without_pricing,
          test_sight_near_walls, test_ring_against_brute_force)
