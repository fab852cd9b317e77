// Batches of queries (gt_crowd.h): every method against the linear scan and against the single
// queries, with 1 and 2 workers, on real maps; agents in walls, at convex vertices, in rooms
// walled off from the objects.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linear_scan.h"
#include "test_support.h"

enum { VOCABULARY = 4, MAX_K = 8 };

typedef struct Scene {
	gtMap* map;
	gtNav* nav;
	gtNavQuery* nq; // for test_world_distance: the scan's distances on the map as it is
	gtWorld* world;
	LsObject* objects;
	int32_t (*words)[3];
	gtObjectId* ids;
	int count;
} Scene;

// Objects at random free points (some at convex vertices) with 1 to 3 of VOCABULARY words.
static void scene_fill(Scene* s, TestRng* rng, int objects, int leaf)
{
	gtError err;
	s->world = test_make_world(s->map, leaf);
	char name[16];
	for (int i = 0; i < VOCABULARY; i++) {
		snprintf(name, sizeof name, "w%d", i);
		assert_int_equal(gtWorld_Keyword(s->world, name), i);
	}
	int vertices;
	const gtVertex* corners = gtMap_Vertices(s->map, &vertices);
	s->objects = calloc((size_t)objects, sizeof *s->objects);
	s->words = calloc((size_t)objects, sizeof *s->words);
	s->ids = calloc((size_t)objects, sizeof *s->ids);
	s->count = objects;
	for (int i = 0; i < objects; i++) {
		gtVec2 p = test_random_point(s->map, rng);
		if (vertices > 0 && test_rng_int(rng, 10) == 0) {
			gtVertex v = corners[test_rng_int(rng, vertices)];
			p = (gtVec2){v.x, v.y};
		}
		int n = 1 + test_rng_int(rng, 3);
		for (int j = 0; j < n; j++) s->words[i][j] = test_rng_int(rng, VOCABULARY);
		assert_int_equal(gtWorld_Add(s->world, p, s->words[i], n, &s->ids[i], &err), GT_OK);
		s->objects[i] = (LsObject){p, s->words[i], n, s->ids[i]};
	}
}

// A map (shared suite/name, or a path when suite is NULL), its EHL index at cell size `cell` and a
// nav query on it; no world yet.
static void scene_open_nav(Scene* s, const char* suite, const char* name, int cell)
{
	memset(s, 0, sizeof *s);
	s->map = suite ? test_load_shared_map(suite, name) : test_load_map(name);
	gtError err;
	assert_int_equal(gtNav_Create(s->map, NULL, &s->nav, &err), GT_OK);
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = cell;
	assert_int_equal(gtNav_BuildIndex(s->nav, &def, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(s->nav, &s->nq, &err), GT_OK);
}

// scene_open_nav, and a world of `objects` objects (leaves of 16 cells).
static void scene_open(Scene* s, const char* suite, const char* name, int cell, TestRng* rng, int objects)
{
	scene_open_nav(s, suite, name, cell);
	scene_fill(s, rng, objects, 16);
}

// Two crowds on the scene: one worker and two.
static void crowd_pair(const Scene* s, gtCrowd** one, gtCrowd** two)
{
	gtError err;
	gtCrowdDef cd = gtCrowd_DefaultDef();
	cd.threads = 1;
	assert_int_equal(gtCrowd_Create(s->world, s->nav, &cd, one, &err), GT_OK);
	cd.threads = 2;
	assert_int_equal(gtCrowd_Create(s->world, s->nav, &cd, two, &err), GT_OK);
}

static void scene_close(Scene* s)
{
	gtNavQuery_Destroy(s->nq);
	gtWorld_Destroy(s->world);
	free(s->objects);
	free(s->words);
	free(s->ids);
	gtNav_Destroy(s->nav);
	gtMap_Destroy(s->map);
}

// Agents: random free points, convex vertices, and now and then a point in a wall.
static gtVec2 agent_point(const gtMap* m, TestRng* rng, bool* in_wall)
{
	int vertices;
	const gtVertex* corners = gtMap_Vertices(m, &vertices);
	*in_wall = false;
	int kind = test_rng_int(rng, 12);
	if (kind == 0 && vertices > 0) {
		gtVertex v = corners[test_rng_int(rng, vertices)];
		return (gtVec2){v.x, v.y};
	}
	if (kind == 1)
		for (int tries = 0; tries < 1000; tries++) {
			gtVec2 p = {test_rng_int(rng, gtMap_Width(m)) + 0.5, test_rng_int(rng, gtMap_Height(m)) + 0.5};
			if (gtMap_CheckPoint(m, p) == GT_POINT_IN_WALL) {
				*in_wall = true;
				return p;
			}
		}
	return test_random_point(m, rng);
}

typedef struct Answers {
	gtObjectId ids[MAX_K * 64];
	double distances[MAX_K * 64];
	int found[64];
	gtStatus status[64];
} Answers;

// A batch of 64 agents with one shared filter through `method`; every answer against the linear
// scan (distances) and, when given, against another run (the same distances exactly).
static void check_batch(const Scene* s, gtCrowd* crowd, gtCrowdMethod method, const gtQuery* shared,
                        const gtVec2* points, const bool* in_wall, gtDistance walk, Answers* a, const Answers* same_as)
{
	gtCrowdQueries batch = {shared, points, 64};
	memset(a, 0, sizeof *a);
	gtCrowdAnswers out = {MAX_K, a->ids, a->distances, a->found, a->status};
	gtCrowdStats stats;
	gtError err;
	assert_int_equal(gtCrowd_Nearest(crowd, &batch, method, &out, &stats, &err), GT_OK);
	if (method != GT_CROWD_AUTO) assert_int_equal(stats.method, method);
	double expect[512];
	int walls = 0;
	for (int i = 0; i < 64; i++) {
		if (in_wall[i]) {
			assert_int_equal(a->status[i], GT_ERR_INVALID_POINT);
			assert_int_equal(a->found[i], 0);
			walls++;
			continue;
		}
		assert_int_equal(a->status[i], GT_OK);
		gtQuery q = *shared;
		q.point = points[i];
		int want = ls_query(s->objects, s->count, &q, VOCABULARY, walk, false, false, expect);
		if (a->found[i] != want)
			fail_msg("%s, agent %d at (%g, %g), k %d: %d answers, the scan has %d", gtCrowdMethod_Name(method), i,
			         points[i].x, points[i].y, q.k, a->found[i], want);
		for (int j = 0; j < want; j++) {
			double got = a->distances[i * MAX_K + j];
			if (fabs(got - expect[j]) > 1e-9 * (1 + expect[j]))
				fail_msg("%s, agent %d at (%g, %g), answer %d: %.12f, the scan says %.12f", gtCrowdMethod_Name(method),
				         i, points[i].x, points[i].y, j, got, expect[j]);
			assert_true(gtWorld_IsValid(s->world, a->ids[i * MAX_K + j]));
		}
		if (same_as)
			for (int j = 0; j < want; j++)
				if (a->distances[i * MAX_K + j] != same_as->distances[i * MAX_K + j])
					fail_msg("%s, agent %d at (%.17g, %.17g), answer %d: %.17g, one by one %.17g",
					         gtCrowdMethod_Name(method), i, points[i].x, points[i].y, j, a->distances[i * MAX_K + j],
					         same_as->distances[i * MAX_K + j]);
	}
	assert_int_equal(stats.failed, walls);
}

static void crowd_session_leaf(const char* suite, const char* name, int cell, int objects, int rounds, int leaf)
{
	Scene s;
	TestRng rng = {(uint64_t)strlen(name) * 7919u + (uint64_t)cell};
	scene_open_nav(&s, suite, name, cell);
	scene_fill(&s, &rng, objects, leaf);
	gtError err;
	gtDistance walk = test_world_distance(s.nq);
	gtCrowd *one, *two;
	crowd_pair(&s, &one, &two);
	assert_int_equal(gtCrowd_Threads(two), 2);
	static Answers each, other;
	for (int round = 0; round < rounds; round++) {
		gtVec2 points[64];
		bool in_wall[64];
		for (int i = 0; i < 64; i++) points[i] = agent_point(s.map, &rng, &in_wall[i]);
		int32_t words[2] = {test_rng_int(&rng, VOCABULARY), test_rng_int(&rng, VOCABULARY)};
		gtQuery shared = gtQuery_Default((gtVec2){0, 0});
		shared.k = 1 + round % MAX_K;
		shared.keywords = words;
		shared.keyword_count = 1 + test_rng_int(&rng, 2);
		check_batch(&s, one, GT_CROWD_EACH, &shared, points, in_wall, walk, &each, NULL);
		check_batch(&s, one, GT_CROWD_BATCH, &shared, points, in_wall, walk, &other, &each);
		check_batch(&s, two, GT_CROWD_BATCH, &shared, points, in_wall, walk, &other, &each);
		check_batch(&s, one, GT_CROWD_FIELD, &shared, points, in_wall, walk, &other, &each);
		check_batch(&s, two, GT_CROWD_FIELD, &shared, points, in_wall, walk, &other, &each);
		check_batch(&s, two, GT_CROWD_AUTO, &shared, points, in_wall, walk, &other, &each);
		if (round % 3 == 0) // objects move between batches: the next field is built afresh
			for (int i = 0; i < s.count; i++) {
				gtVec2 p = test_random_point(s.map, &rng);
				assert_int_equal(gtWorld_Move(s.world, s.ids[i], p, &err), GT_OK);
				s.objects[i].point = p;
			}
	}
	printf("note: %s (leaves of %d cells): every method equals the scan and the single queries, %d batches of 64 "
	       "agents\n",
	       name, leaf, rounds);
	gtCrowd_Destroy(one);
	gtCrowd_Destroy(two);
	scene_close(&s);
}

static void crowd_session(const char* suite, const char* name, int cell, int objects, int rounds)
{
	crowd_session_leaf(suite, name, cell, objects, rounds, 16);
}

static void test_methods_on_generated_map(void** state)
{
	(void)state;
	crowd_session(NULL, "assets/maps/small.map", 1, 40, 24);
	crowd_session(NULL, "assets/maps/small.map", 3, 40, 16);
}

static void test_methods_on_real_maps(void** state)
{
	(void)state;
	crowd_session("dao", "arena", 2, 60, 16);
	crowd_session("bgmaps", "AR0602SR", 4, 400, 8);
	crowd_session("da2", "ht_chantry", 1, 80, 8);
	// Leaves of one cell: a tree of 8 levels, too tall for the ring's offsets (the walks go by the tree).
	crowd_session_leaf("da2", "ht_chantry", 1, 80, 8, 1);
}

static void expect_pick(gtSchedule* s, int count, double budget_us, const int* want, int n)
{
	int agents[32], picked;
	gtError err;
	assert_int_equal(gtSchedule_Pick(s, count, budget_us, agents, 32, &picked, &err), GT_OK);
	assert_int_equal(picked, n);
	for (int i = 0; i < n; i++) assert_int_equal(agents[i], want[i]);
}

// Most stale first: everyone until a cost is known, then what the budget fits, round the queue;
// newcomers before everyone, leavers dropped.
static void test_schedule_order(void** state)
{
	(void)state;
	gtSchedule* s;
	gtError err;
	assert_int_equal(gtSchedule_Create(&s, &err), GT_OK);
	expect_pick(s, 10, 1000, (const int[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 10);
	gtSchedule_Report(s, 10, 10e-6); // 1 us per agent
	expect_pick(s, 10, 3.5, (const int[]){0, 1, 2}, 3);
	expect_pick(s, 10, 3.5, (const int[]){3, 4, 5}, 3);
	expect_pick(s, 12, 3.5, (const int[]){10, 11, 6}, 3);
	expect_pick(s, 5, 3.5, (const int[]){0, 1, 2}, 3);
	expect_pick(s, 5, 0.01, (const int[]){3}, 1); // at least one agent a frame
	expect_pick(s, 0, 3.5, NULL, 0);
	int agents[4], picked;
	assert_int_equal(gtSchedule_Pick(s, 5, 0, agents, 4, &picked, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtSchedule_Pick(s, 5, NAN, agents, 4, &picked, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtSchedule_Pick(s, -1, 5, agents, 4, &picked, &err), GT_ERR_INVALID_ARG);
	gtSchedule_Destroy(s);
}

// A budgeted frame answers the agents it picks exactly as the single queries do and leaves every
// other agent's slots alone; within a few frames every agent has been answered.
static void test_scheduled_frames(void** state)
{
	(void)state;
	Scene s;
	TestRng rng = {99};
	scene_open(&s, NULL, "assets/maps/small.map", 2, &rng, 30);
	gtError err;
	gtDistance walk = test_world_distance(s.nq);
	gtCrowd* crowd;
	assert_int_equal(gtCrowd_Create(s.world, s.nav, NULL, &crowd, &err), GT_OK);
	gtSchedule* schedule;
	assert_int_equal(gtSchedule_Create(&schedule, &err), GT_OK);
	gtVec2 points[64];
	for (int i = 0; i < 64; i++) points[i] = test_random_point(s.map, &rng);
	int32_t word = 1;
	gtQuery shared = gtQuery_Default((gtVec2){0, 0});
	shared.k = 2;
	shared.keywords = &word;
	shared.keyword_count = 1;
	gtCrowdQueries batch = {&shared, points, 64};
	static Answers a;
	for (int i = 0; i < 64; i++) a.found[i] = -7; // "never answered"
	gtCrowdAnswers out = {MAX_K, a.ids, a.distances, a.found, a.status};
	bool seen[64] = {false};
	int frames = 0, total = 0;
	for (; frames < 200 && total < 64; frames++) {
		int before[64];
		memcpy(before, a.found, sizeof before);
		int served;
		gtCrowdMethod method = frames % 2 ? GT_CROWD_FIELD : GT_CROWD_BATCH;
		assert_int_equal(gtCrowd_NearestScheduled(crowd, &batch, method, schedule, frames == 0 ? 1e9 : 1e-3, &out,
		                                          &served, NULL, &err),
		                 GT_OK);
		assert_true(served >= 1);
		int changed = 0;
		for (int i = 0; i < 64; i++) {
			if (a.found[i] == before[i] && a.found[i] == -7) continue; // untouched (or not yet)
			if (!seen[i]) seen[i] = true, total++;
			changed++;
			double expect[64];
			gtQuery q = shared;
			q.point = points[i];
			int want = ls_query(s.objects, s.count, &q, VOCABULARY, walk, false, false, expect);
			assert_int_equal(a.found[i], want);
			for (int j = 0; j < want; j++)
				assert_float_equal(a.distances[i * MAX_K + j], expect[j], 1e-9 * (1 + expect[j]));
		}
		assert_true(changed >= served);
	}
	assert_int_equal(total, 64);
	assert_int_equal(frames, 1); // the first frame, with no cost measured yet, answers everyone
	// Later frames with a budget of a nanosecond: one agent each, the most stale.
	for (int i = 0; i < 64; i++) a.found[i] = -7;
	int served, first = -1;
	for (int f = 0; f < 64; f++) {
		assert_int_equal(
		    gtCrowd_NearestScheduled(crowd, &batch, GT_CROWD_AUTO, schedule, 1e-3, &out, &served, NULL, &err), GT_OK);
		assert_int_equal(served, 1);
	}
	for (int i = 0; i < 64; i++) first = a.found[i] == -7 ? i : first;
	assert_int_equal(first, -1); // 64 frames of one agent: each agent once
	gtSchedule_Destroy(schedule);
	gtCrowd_Destroy(crowd);
	scene_close(&s);
}

// AUTO, once BATCH's cost is known (the BATCH call teaches it), probes a field (a sample of agents
// through it, the rest by the method the costs favour) and probes again later: every answer the
// same as one by one, and the same ids as BATCH.
static void test_auto_samples_a_field(void** state)
{
	(void)state;
	Scene s;
	TestRng rng = {5};
	scene_open(&s, NULL, "assets/maps/small.map", 2, &rng, 40);
	gtError err;
	enum { AGENTS = 700, K = 2 };
	static gtVec2 points[AGENTS];
	for (int i = 0; i < AGENTS; i++) points[i] = test_random_point(s.map, &rng);
	int32_t word = 2;
	gtQuery q = test_keyword_query((gtVec2){0, 0}, K, &word);
	gtCrowdQueries batch = {&q, points, AGENTS};
	static gtObjectId ids[3][AGENTS * K];
	static double dists[3][AGENTS * K];
	static int found[3][AGENTS];
	gtCrowd* crowd;
	assert_int_equal(gtCrowd_Create(s.world, s.nav, NULL, &crowd, &err), GT_OK);
	gtCrowdAnswers each = {K, ids[0], dists[0], found[0], NULL};
	assert_int_equal(gtCrowd_Nearest(crowd, &batch, GT_CROWD_EACH, &each, NULL, &err), GT_OK);
	gtCrowdAnswers batched = {K, ids[2], dists[2], found[2], NULL}; // the ids to match (ties by id)
	assert_int_equal(gtCrowd_Nearest(crowd, &batch, GT_CROWD_BATCH, &batched, NULL, &err), GT_OK);
	int trials = 0;
	for (int call = 0; call < 18; call++) {
		gtCrowdAnswers out = {K, ids[1], dists[1], found[1], NULL};
		gtCrowdStats stats;
		assert_int_equal(gtCrowd_Nearest(crowd, &batch, GT_CROWD_AUTO, &out, &stats, &err), GT_OK);
		trials += stats.field_seconds > 0; // a field built, or a probe
		for (int i = 0; i < AGENTS; i++) {
			assert_int_equal(found[1][i], found[0][i]);
			for (int r = 0; r < found[0][i]; r++) {
				assert_true(dists[1][i * K + r] == dists[0][i * K + r]);
				assert_true(dists[2][i * K + r] == dists[0][i * K + r]);
				assert_true(ids[1][i * K + r] == ids[2][i * K + r]);
			}
		}
	}
	assert_true(trials >= 1);
	gtCrowd_Destroy(crowd);
	scene_close(&s);
}

// A brute force over every object: each priced by the nav's own world distance, sorted by distance
// and then id, the first k.
typedef struct Priced {
	double distance;
	gtObjectId id;
} Priced;

static int by_distance_then_id(const void* a, const void* b)
{
	const Priced *x = a, *y = b;
	if (x->distance != y->distance) return x->distance < y->distance ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

// Ties: objects one to three to a point (some points at convex vertices), agents on objects and
// anywhere (walls too): BATCH, FIELD and AUTO on 1 and 2 workers give byte-identical answers, the
// brute force's ids and distances (ties by ascending id, the k-th place too); EACH its distances.
static void ties_session(const char* suite, const char* name, int cell, int spots)
{
	Scene s;
	TestRng rng = {(uint64_t)strlen(name) * 104729u + (uint64_t)cell};
	scene_open_nav(&s, suite, name, cell);
	gtError err;
	s.world = test_make_world(s.map, 16);
	int32_t words[2] = {gtWorld_Keyword(s.world, "w0"), gtWorld_Keyword(s.world, "w1")};
	int vertices;
	const gtVertex* corners = gtMap_Vertices(s.map, &vertices);
	gtVec2* at = malloc((size_t)spots * 3 * sizeof *at);
	gtObjectId* ids = malloc((size_t)spots * 3 * sizeof *ids);
	int32_t* word_of = malloc((size_t)spots * 3 * sizeof *word_of);
	int count = 0;
	for (int i = 0; i < spots; i++) {
		gtVec2 p = test_random_point(s.map, &rng);
		if (vertices > 0 && test_rng_int(&rng, 4) == 0) {
			gtVertex v = corners[test_rng_int(&rng, vertices)];
			p = (gtVec2){v.x, v.y};
		}
		for (int n = 1 + test_rng_int(&rng, 3); n > 0; n--, count++) {
			at[count] = p;
			word_of[count] = words[test_rng_int(&rng, 2)];
			assert_int_equal(gtWorld_Add(s.world, p, &word_of[count], 1, &ids[count], &err), GT_OK);
		}
	}
	gtDistance walk = test_world_distance(s.nq);
	gtCrowd* crowds[2]; // on 1 and 2 workers
	crowd_pair(&s, &crowds[0], &crowds[1]);
	static Answers first, other;
	Priced* priced = malloc((size_t)count * sizeof *priced);
	int ties = 0;
	for (int round = 0; round < 8; round++) {
		gtVec2 points[64];
		bool in_wall[64];
		for (int i = 0; i < 64; i++)
			points[i] = i % 2 ? at[test_rng_int(&rng, count)] : agent_point(s.map, &rng, &in_wall[i]);
		for (int i = 1; i < 64; i += 2) in_wall[i] = false;
		gtQuery q = test_keyword_query((gtVec2){0, 0}, 1 + round % MAX_K, &words[round % 2]);
		gtCrowdQueries batch = {&q, points, 64};
		const struct {
			int crowd;
			gtCrowdMethod method;
		} runs[] = {{0, GT_CROWD_BATCH}, {1, GT_CROWD_BATCH}, {0, GT_CROWD_FIELD},
		            {1, GT_CROWD_FIELD}, {1, GT_CROWD_AUTO},  {0, GT_CROWD_EACH}};
		for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
			Answers* a = r == 0 ? &first : &other;
			memset(a, 0, sizeof *a);
			gtCrowdAnswers out = {MAX_K, a->ids, a->distances, a->found, a->status};
			assert_int_equal(gtCrowd_Nearest(crowds[runs[r].crowd], &batch, runs[r].method, &out, NULL, &err), GT_OK);
			for (int i = 0; i < 64; i++) {
				assert_int_equal(a->found[i], first.found[i]);
				for (int j = 0; j < a->found[i]; j++) {
					if (memcmp(&a->distances[i * MAX_K + j], &first.distances[i * MAX_K + j], sizeof(double)))
						fail_msg("%s on %d workers, agent %d, answer %d: %.17g, BATCH on 1 %.17g",
						         gtCrowdMethod_Name(runs[r].method), runs[r].crowd + 1, i, j,
						         a->distances[i * MAX_K + j], first.distances[i * MAX_K + j]);
					if (a->ids[i * MAX_K + j] != first.ids[i * MAX_K + j])
						fail_msg("%s on %d workers, agent %d, answer %d: id %llu, BATCH on 1 id %llu",
						         gtCrowdMethod_Name(runs[r].method), runs[r].crowd + 1, i, j,
						         (unsigned long long)a->ids[i * MAX_K + j],
						         (unsigned long long)first.ids[i * MAX_K + j]);
				}
			}
		}
		for (int i = 0; i < 64; i++) {
			if (in_wall[i]) {
				assert_int_equal(first.status[i], GT_ERR_INVALID_POINT);
				continue;
			}
			int n = 0;
			for (int o = 0; o < count; o++) {
				double d = word_of[o] == *q.keywords ? walk.fcn(walk.context, points[i], at[o]) : INFINITY;
				if (d < INFINITY) priced[n++] = (Priced){d, ids[o]};
			}
			qsort(priced, (size_t)n, sizeof *priced, by_distance_then_id);
			int want = n < q.k ? n : q.k;
			assert_int_equal(first.found[i], want);
			for (int j = 0; j < want; j++) {
				assert_true(first.distances[i * MAX_K + j] == priced[j].distance);
				assert_true(first.ids[i * MAX_K + j] == priced[j].id);
				ties += j > 0 && priced[j].distance == priced[j - 1].distance;
			}
		}
	}
	assert_true(ties > 0); // the test is about them
	printf("note: %s: %d ties at equal distances, every method and worker count alike and by id\n", name, ties);
	free(priced);
	for (int t = 0; t < 2; t++) gtCrowd_Destroy(crowds[t]);
	free(at);
	free(ids);
	free(word_of);
	scene_close(&s);
}

static void test_ties_by_id(void** state)
{
	(void)state;
	ties_session("bgmaps", "AR0602SR", 4, 150);
	ties_session("dao", "den312d", 2, 60);
}

// A wall built across the map splits it in two parts, then is taken down: BATCH (its own walk,
// which skips objects in other parts of the map, relabelled after each edit) gives EACH's
// distances and the scan's, on 1 and 2 workers.
static void test_walls_split_the_map(void** state)
{
	(void)state;
	Scene s;
	TestRng rng = {17};
	scene_open(&s, NULL, "assets/maps/small.map", 2, &rng, 60);
	gtError err;
	gtCrowd *one, *two;
	crowd_pair(&s, &one, &two);
	static Answers each, other;
	int w = gtMap_Width(s.map), h = gtMap_Height(s.map);
	for (int edit = 0; edit < 3; edit++) {
		if (edit == 1) assert_int_equal(gtNav_SetBlocked(s.nav, w / 2, 0, w / 2, h - 1, true, &err), GT_OK);
		if (edit == 2) assert_int_equal(gtNav_SetBlocked(s.nav, w / 2, 0, w / 2, h - 1, false, &err), GT_OK);
		gtDistance walk = test_world_distance(s.nq); // the edited map's distances
		gtVec2 points[64];
		bool in_wall[64];
		for (int i = 0; i < 64; i++) {
			points[i] = agent_point(s.map, &rng, &in_wall[i]);
			in_wall[i] = gtMap_CheckPoint(s.map, points[i]) != GT_POINT_VALID; // the wall may cover it now
		}
		int32_t words[1] = {test_rng_int(&rng, VOCABULARY)};
		gtQuery shared = gtQuery_Default((gtVec2){0, 0});
		shared.k = 3;
		shared.keywords = words;
		shared.keyword_count = 1;
		check_batch(&s, one, GT_CROWD_EACH, &shared, points, in_wall, walk, &each, NULL);
		check_batch(&s, one, GT_CROWD_BATCH, &shared, points, in_wall, walk, &other, &each);
		check_batch(&s, two, GT_CROWD_BATCH, &shared, points, in_wall, walk, &other, &each);
	}
	gtCrowd_Destroy(one);
	gtCrowd_Destroy(two);
	scene_close(&s);
}

TEST_MAIN("crowd", test_schedule_order, test_methods_on_generated_map, test_scheduled_frames, test_auto_samples_a_field,
          test_methods_on_real_maps, test_ties_by_id, test_walls_split_the_map)
