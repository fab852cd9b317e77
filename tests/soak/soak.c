// Model-based soak of the Grid Tree: random adds, removes, short and long moves, batch moves and
// keyword changes, every query kind with random filters, each answer compared with the linear-scan
// twin (tools/linear_scan.c) over what the soak believes about every object, and
// gtWorld_Validate after every step. Ends with `key value` lines; exit 1 on any mismatch.
//   gridtree-soak [--ops N] [--seed S] [--map FILE] [--cell g] [--leaf m] [--desync N]
// --desync N moves the untagged objects in the model only, at operation N: the soak must then report
// mismatches (the tests check that it can fail).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridtree/gridtree.h"
#include "linear_scan.h"

enum { MAX_OBJECTS = 200, VOCABULARY = 12, MAX_WORDS = 5 };

typedef struct Model { // what the soak believes about one object
	gtObjectId id;
	gtVec2 p;
	int32_t kw[MAX_WORDS];
	int n;
	bool live;
} Model;

typedef struct Soak {
	const gtMap* map;
	gtWorld* world;
	gtDistance walking;
	gtRandom rng;
	Model objects[MAX_OBJECTS];
	long operations, queries, answers, mismatches, invalid;
	char first_problem[600];
} Soak;

static void problem(Soak* s, const char* what, const char* detail)
{
	s->mismatches++;
	if (!s->first_problem[0])
		snprintf(s->first_problem, sizeof s->first_problem, "operation %ld: %s: %s", s->operations, what, detail);
}

static gtVec2 random_point(Soak* s, gtVec2 near, double reach)
{
	int w = gtMap_Width(s->map), h = gtMap_Height(s->map);
	for (;;) {
		gtVec2 p = {gtRandom_Unit(&s->rng) * w, gtRandom_Unit(&s->rng) * h};
		if (reach > 0)
			p = (gtVec2){near.x + (gtRandom_Unit(&s->rng) * 2 - 1) * reach,
			             near.y + (gtRandom_Unit(&s->rng) * 2 - 1) * reach};
		if (gtRandom_Below(&s->rng, 6) == 0) p.x = floor(p.x); // leaf and cell borders, grid points
		if (gtMap_CheckPoint(s->map, p) == GT_POINT_VALID) return p;
	}
}

static void random_words(Soak* s, Model* o)
{
	o->n = gtRandom_Below(&s->rng, MAX_WORDS + 1);
	for (int i = 0; i < o->n; i++) o->kw[i] = gtRandom_Below(&s->rng, VOCABULARY);
}

static void expect_ok(Soak* s, gtStatus st, const char* what, const gtError* err)
{
	if (st) problem(s, what, err->message);
}

static void update(Soak* s)
{
	Model* o = &s->objects[gtRandom_Below(&s->rng, MAX_OBJECTS)];
	int action = gtRandom_Below(&s->rng, 10);
	gtError err;
	if (!o->live) {
		random_words(s, o);
		o->p = random_point(s, o->p, 0);
		expect_ok(s, gtWorld_Add(s->world, o->p, o->kw, o->n, &o->id, &err), "add", &err);
		o->live = true;
	} else if (action < 4) {
		o->p = random_point(s, o->p, 0.7);
		expect_ok(s, gtWorld_Move(s->world, o->id, o->p, &err), "short move", &err);
	} else if (action < 6) {
		o->p = random_point(s, o->p, 0);
		expect_ok(s, gtWorld_Move(s->world, o->id, o->p, &err), "long move", &err);
	} else if (action < 7) {
		random_words(s, o);
		expect_ok(s, gtWorld_SetKeywords(s->world, o->id, o->kw, o->n, &err), "set keywords", &err);
	} else if (action < 8) {
		random_words(s, o);
		o->p = random_point(s, o->p, 0);
		expect_ok(s, gtWorld_MoveAndSetKeywords(s->world, o->id, o->p, o->kw, o->n, &err), "move and set", &err);
	} else if (action < 9) {
		expect_ok(s, gtWorld_Remove(s->world, o->id, &err), "remove", &err);
		if (gtWorld_IsValid(s->world, o->id)) problem(s, "remove", "the id is still valid");
		o->live = false;
	} else {
		gtObjectId ids[MAX_OBJECTS];
		gtVec2 points[MAX_OBJECTS];
		int n = 0;
		for (int i = 0; i < MAX_OBJECTS; i++)
			if (s->objects[i].live && gtRandom_Below(&s->rng, 2)) {
				s->objects[i].p = random_point(s, s->objects[i].p, 1.5);
				ids[n] = s->objects[i].id;
				points[n++] = s->objects[i].p;
			}
		expect_ok(s, gtWorld_MoveMany(s->world, ids, points, n, &err), "move many", &err);
	}
	if (gtWorld_Validate(s->world, &err)) problem(s, "validate", err.message);
}

static void query(Soak* s)
{
	int32_t words[4], any[2], none[2];
	gtQuery q = gtQuery_Default(random_point(s, (gtVec2){0, 0}, 0));
	q.k = gtRandom_Below(&s->rng, 9);
	q.keyword_count = gtRandom_Below(&s->rng, 4);
	for (int i = 0; i < q.keyword_count; i++)
		words[i] = gtRandom_Below(&s->rng, 15) == 0 ? -1 : gtRandom_Below(&s->rng, VOCABULARY);
	q.keywords = words;
	int mode = gtRandom_Below(&s->rng, 6);
	if (mode == 1) q.min_match = gtRandom_Below(&s->rng, 3);
	if (mode == 2) {
		q.any = any, q.any_count = 2, q.keyword_count = 0;
		any[0] = gtRandom_Below(&s->rng, VOCABULARY), any[1] = gtRandom_Below(&s->rng, VOCABULARY);
	}
	if (mode == 3) q.none = none, q.none_count = 1, none[0] = gtRandom_Below(&s->rng, VOCABULARY);
	if (mode == 4) {
		gtVec2 a = random_point(s, q.point, 0), b = random_point(s, q.point, 0);
		q.use_region = true;
		q.region[0] = fmin(a.x, b.x), q.region[1] = fmin(a.y, b.y), q.region[2] = fmax(a.x, b.x),
		q.region[3] = fmax(a.y, b.y);
	}
	int kind = gtRandom_Below(&s->rng, 5); // nearest, within, top, straight nearest, straight within
	bool within = kind == 1 || kind == 4, euclid = kind >= 3, scored = kind == 2;
	q.radius = gtRandom_Below(&s->rng, 60);
	q.miss_cost = gtRandom_Below(&s->rng, 30);
	LsObject live[MAX_OBJECTS];
	int n = 0;
	for (int i = 0; i < MAX_OBJECTS; i++)
		if (s->objects[i].live)
			live[n++] = (LsObject){s->objects[i].p, s->objects[i].kw, s->objects[i].n, s->objects[i].id};
	double expect[MAX_OBJECTS + 1], got[MAX_OBJECTS + 1];
	gtObjectId ids[MAX_OBJECTS + 1], expect_ids[MAX_OBJECTS + 1];
	int want = ls_query_ids(live, n, &q, VOCABULARY, euclid ? gtDistance_Euclid() : s->walking, within, scored, expect,
	                        expect_ids);
	int count;
	gtError err;
	gtStatus st = kind == 0   ? gtWorld_Nearest(s->world, &q, s->walking, ids, got, MAX_OBJECTS + 1, &count, NULL, &err)
	              : kind == 1 ? gtWorld_Within(s->world, &q, s->walking, ids, got, MAX_OBJECTS + 1, &count, NULL, &err)
	              : kind == 2 ? gtWorld_Top(s->world, &q, s->walking, ids, got, MAX_OBJECTS + 1, &count, NULL, &err)
	              : kind == 3 ? gtWorld_NearestEuclid(s->world, &q, ids, got, MAX_OBJECTS + 1, &count, NULL, &err)
	                          : gtWorld_WithinEuclid(s->world, &q, ids, got, MAX_OBJECTS + 1, &count, NULL, &err);
	s->queries++;
	if (st) {
		problem(s, "query", err.message);
		return;
	}
	s->answers += count;
	char detail[200];
	if (count != want) {
		snprintf(detail, sizeof detail, "kind %d k=%d: %d results, the linear scan says %d", kind, q.k, count, want);
		problem(s, "query", detail);
		return;
	}
	for (int i = 0; i < count; i++)
		if (!(fabs(got[i] - expect[i]) <= 1e-9 * (1 + expect[i])) || !gtWorld_IsValid(s->world, ids[i]) ||
		    (got[i] == expect[i] && ids[i] != expect_ids[i])) { // ties by ascending id
			snprintf(detail, sizeof detail, "kind %d result %d: %.17g id %llu, the linear scan says %.17g id %llu",
			         kind, i, got[i], (unsigned long long)ids[i], expect[i], (unsigned long long)expect_ids[i]);
			problem(s, "query", detail);
			return;
		}
}

static const char* option(int argc, char** argv, const char* name, const char* fallback)
{
	for (int i = 1; i + 1 < argc; i += 2)
		if (strcmp(argv[i], name) == 0) return argv[i + 1];
	return fallback;
}

int main(int argc, char** argv)
{
	if (argc % 2 == 0 || (argc > 1 && strcmp(argv[1], "--help") == 0)) {
		fprintf(argc > 1 ? stdout : stderr,
		        "usage: gridtree-soak [--ops N] [--seed S] [--map FILE] [--cell g] [--leaf m] [--desync N]\n");
		return argc > 1 ? 0 : 2;
	}
	long ops = atol(option(argc, argv, "--ops", "100000")), desync = atol(option(argc, argv, "--desync", "-1"));
	int cell = atoi(option(argc, argv, "--cell", "4")), leaf = atoi(option(argc, argv, "--leaf", "8"));
	const char* map_path = option(argc, argv, "--map", "assets/maps/caves.map");
	static Soak s;
	s.rng.state = strtoull(option(argc, argv, "--seed", "1"), NULL, 10);
	gtMap* map = NULL;
	gtNav* nav = NULL;
	gtNavQuery* nq = NULL;
	gtError err;
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = cell;
	gtWorldDef wdef = gtWorld_DefaultDef();
	wdef.leaf_size = leaf;
	gtStatus st = gtMap_Load(map_path, &map, &err);
	if (!st) st = gtNav_Create(map, NULL, &nav, &err);
	if (!st) st = gtNav_BuildIndex(nav, &def, &err);
	if (!st) st = gtNavQuery_Create(nav, &nq, &err);
	if (!st) st = gtNavQuery_WorldDistance(nq, &s.walking, &err);
	if (!st) st = gtWorld_Create(map, &wdef, &s.world, &err);
	if (st || ops < 0) {
		fprintf(stderr, "gridtree-soak: %s\n", st ? err.message : "--ops must be >= 0");
		return 2;
	}
	s.map = map;
	char word[16];
	for (int i = 0; i < VOCABULARY; i++) {
		snprintf(word, sizeof word, "w%d", i);
		gtWorld_Keyword(s.world, word);
	}
	double start = gtNowSeconds();
	for (s.operations = 0; s.operations < ops; s.operations++) {
		if (s.operations == desync)
			for (int i = 0; i < MAX_OBJECTS; i++)
				if (s.objects[i].live && s.objects[i].n == 0) // found by every unfiltered query
					s.objects[i].p = random_point(&s, s.objects[i].p, 0);
		if (gtRandom_Below(&s.rng, 3) == 0) query(&s);
		else update(&s);
	}
	int live = gtWorld_Count(s.world);
	printf(
	    "map %s\nseed %llu\noperations %ld\nqueries %ld\nanswers %ld\nlive_objects %d\nmismatches %ld\nseconds %.1f\n",
	    map_path, (unsigned long long)strtoull(option(argc, argv, "--seed", "1"), NULL, 10), s.operations, s.queries,
	    s.answers, live, s.mismatches, gtNowSeconds() - start);
	if (s.first_problem[0]) printf("first_mismatch %s\n", s.first_problem);
	gtWorld_Destroy(s.world);
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	return s.mismatches ? 1 : 0;
}
