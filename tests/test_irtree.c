// The IR-tree behind IER and the target heuristic (tools/irtree.c) against linear scans:
// straight-line order with keyword filters, and the best-first least value, through inserts,
// moves (in place and far), removals and re-insertions.
#include <math.h>
#include <stdlib.h>

#include "irtree.h"
#include "test_support.h"

enum { OBJECTS = 3000, WORDS = 6 };

typedef struct Model {
	gtVec2 at[OBJECTS];
	int32_t words[OBJECTS][2];
	int word_count[OBJECTS];
	bool present[OBJECTS];
} Model;

static double uniform(TestRng* rng, double limit)
{
	return limit * (double)(test_rng_next(rng) % 1000000) / 1e6;
}

static bool model_has(const Model* m, int i, const int32_t* words, int count)
{
	for (int w = 0; w < count; w++) {
		bool found = false;
		for (int j = 0; j < m->word_count[i]; j++) found |= m->words[i][j] == words[w];
		if (!found) return false;
	}
	return true;
}

typedef struct Probe {
	gtVec2 q;
	const Model* model;
	int evaluated;
} Probe;

static double box_distance(void* context, gtVec2 lo, gtVec2 hi)
{
	const Probe* p = context;
	double dx = fmax(fmax(lo.x - p->q.x, 0), p->q.x - hi.x), dy = fmax(fmax(lo.y - p->q.y, 0), p->q.y - hi.y);
	return sqrt(dx * dx + dy * dy);
}

static double point_distance(void* context, int32_t id, gtVec2 point)
{
	Probe* p = context;
	p->evaluated++;
	if (id % 5 == 0) return INFINITY; // as the target heuristic skips objects already returned
	return hypot(point.x - p->q.x, point.y - p->q.y);
}

static void check_queries(IrTree* tree, const Model* m, TestRng* rng)
{
	for (int qi = 0; qi < 60; qi++) {
		gtVec2 q = {uniform(rng, 500), uniform(rng, 500)};
		int32_t words[2] = {(int32_t)(test_rng_next(rng) % WORDS), (int32_t)(test_rng_next(rng) % WORDS)};
		int word_count = qi % 3; // none, one, two
		// Straight-line order: every matching object once, distances never decreasing.
		irtree_begin(tree, q, words, word_count);
		int32_t id;
		double d, last = 0;
		int seen = 0;
		bool* met = calloc(OBJECTS, sizeof *met);
		while (irtree_next(tree, &id, &d)) {
			assert_true(id >= 0 && id < OBJECTS && m->present[id] && !met[id]);
			assert_true(model_has(m, id, words, word_count));
			assert_true(fabs(d - hypot(m->at[id].x - q.x, m->at[id].y - q.y)) < 1e-9);
			assert_true(d >= last - 1e-12);
			met[id] = true;
			last = d;
			seen++;
		}
		int expected = 0;
		double least = INFINITY;
		for (int i = 0; i < OBJECTS; i++)
			if (m->present[i] && model_has(m, i, words, word_count)) {
				expected++;
				if (i % 5) least = fmin(least, hypot(m->at[i].x - q.x, m->at[i].y - q.y));
			}
		assert_int_equal(seen, expected);
		free(met);
		// Best first: the least value, found without looking at every object.
		Probe probe = {q, m, 0};
		double got = irtree_least(tree, words, word_count, box_distance, point_distance, &probe);
		assert_true(got == least || fabs(got - least) < 1e-9);
		if (word_count == 0 && expected > 500) assert_true(probe.evaluated < expected / 2);
	}
}

static void test_irtree_against_linear_scans(void** state)
{
	(void)state;
	TestRng rng = {11};
	Model* m = calloc(1, sizeof *m);
	IrTree* tree = irtree_create();
	assert_non_null(tree);
	for (int i = 0; i < OBJECTS; i++) {
		// Clustered and spread points, with duplicates, so splits meet equal boxes.
		m->at[i] = i % 4 == 0    ? (gtVec2){100 + uniform(&rng, 20), 300 + uniform(&rng, 20)}
		           : i % 97 == 0 ? (gtVec2){250, 250}
		                         : (gtVec2){uniform(&rng, 500), uniform(&rng, 500)};
		m->word_count[i] = (int)(test_rng_next(&rng) % 3);
		for (int w = 0; w < m->word_count[i]; w++) m->words[i][w] = (int32_t)((i + 3 * w) % WORDS);
		assert_true(irtree_insert(tree, i, m->at[i], m->words[i], m->word_count[i]));
		m->present[i] = true;
	}
	assert_false(irtree_insert(tree, 7, (gtVec2){1, 1}, NULL, 0)); // id taken
	assert_false(irtree_insert(tree, -1, (gtVec2){1, 1}, NULL, 0));
	assert_false(irtree_insert(tree, OBJECTS + 1, (gtVec2){NAN, 1}, NULL, 0));
	assert_int_equal(irtree_count(tree), OBJECTS);
	check_queries(tree, m, &rng);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < OBJECTS; i++) {
			int r = (int)(test_rng_next(&rng) % 10);
			if (r < 5 && m->present[i]) { // small moves and jumps
				gtVec2 to = r < 3 ? (gtVec2){m->at[i].x + uniform(&rng, 2) - 1, m->at[i].y + uniform(&rng, 2) - 1}
				                  : (gtVec2){uniform(&rng, 500), uniform(&rng, 500)};
				assert_true(irtree_move(tree, i, to));
				m->at[i] = to;
			} else if (r == 5 && m->present[i]) {
				assert_true(irtree_remove(tree, i));
				assert_false(irtree_remove(tree, i));
				m->present[i] = false;
			} else if (r == 6 && !m->present[i]) {
				m->at[i] = (gtVec2){uniform(&rng, 500), uniform(&rng, 500)};
				assert_true(irtree_insert(tree, i, m->at[i], m->words[i], m->word_count[i]));
				m->present[i] = true;
			}
		}
		int present = 0;
		for (int i = 0; i < OBJECTS; i++) present += m->present[i];
		assert_int_equal(irtree_count(tree), present);
		check_queries(tree, m, &rng);
	}
	assert_true(irtree_bytes(tree) > 0);
	irtree_destroy(tree);
	free(m);
}

TEST_MAIN("irtree", test_irtree_against_linear_scans)
