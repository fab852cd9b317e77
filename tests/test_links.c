// Links (gt_links.h): handles, and every distance, path and world query with links against a
// brute-force twin: Dijkstra over every co-visible pair of corners, link ends and query points
// (visibility by the tests' own integer twin) plus the link edges, on generated maps and link sets
// (teleporters of cost 0 and 1, links cheaper and dearer than their length, one-way drops, links
// across a wall that splits the map in two).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#include "ehl/ehl_cell_pools.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_links.h"
#include "ehl/hub_labels.h"

typedef struct TwinLink {
	gtVec2 a, b;
	double cost;
	bool one_way;
} TwinLink;

// The twin's distances from one source to every node, kept for the next query from the same
// source (the queries come in runs from one point to many objects).
typedef struct TwinFrom {
	bool valid;
	gtVec2 s;
	double* dist; // nodes
	int* order;   // the reached nodes in the order Dijkstra settled them (ascending distance)
	int reached;
} TwinFrom;

// The twin's graph: the map's corners, then the link ends (2 per link), with their co-visibility.
typedef struct Twin {
	const gtMap* map;
	int corners, nodes; // nodes = corners + 2 * links
	gtVec2* point;
	unsigned char* sees; // nodes x nodes
	TwinLink* links;
	int link_count;
	TwinFrom* from;
} Twin;

static void twin_make(Twin* tw, const gtMap* map, const TwinLink* links, int count)
{
	const gtVertex* v = gtMap_Vertices(map, &tw->corners);
	tw->map = map;
	tw->link_count = count;
	tw->nodes = tw->corners + 2 * count;
	tw->point = malloc((size_t)tw->nodes * sizeof *tw->point);
	tw->links = malloc(((size_t)count + 1) * sizeof *tw->links);
	tw->sees = malloc((size_t)tw->nodes * (size_t)tw->nodes);
	tw->from = calloc(1, sizeof *tw->from);
	assert_true(tw->point && tw->links && tw->sees && tw->from);
	tw->from->dist = malloc(((size_t)tw->nodes + 1) * sizeof *tw->from->dist);
	tw->from->order = malloc(((size_t)tw->nodes + 1) * sizeof *tw->from->order);
	assert_true(tw->from->dist && tw->from->order);
	for (int i = 0; i < tw->corners; i++) tw->point[i] = (gtVec2){v[i].x, v[i].y};
	for (int k = 0; k < count; k++) {
		tw->links[k] = links[k];
		tw->point[tw->corners + 2 * k] = links[k].a;
		tw->point[tw->corners + 2 * k + 1] = links[k].b;
	}
	for (int i = 0; i < tw->nodes; i++)
		for (int j = i; j < tw->nodes; j++)
			tw->sees[i * tw->nodes + j] = tw->sees[j * tw->nodes + i] = (unsigned char)test_brute_visible(
			    map, tw->point[i], tw->point[j]);
}

static void twin_free(Twin* tw)
{
	free(tw->from->dist), free(tw->from->order), free(tw->from);
	free(tw->point), free(tw->sees), free(tw->links);
}

// Plain O(N^2) Dijkstra from s over every node, into tw->from.
static void twin_settle(const Twin* tw, gtVec2 s)
{
	int n = tw->nodes;
	TwinFrom* f = tw->from;
	double* dist = f->dist;
	unsigned char* done = calloc((size_t)n + 1, 1);
	assert_non_null(done);
	for (int i = 0; i < n; i++) {
		bool from_s = test_brute_visible(tw->map, s, tw->point[i]);
		dist[i] = from_s ? hypot(tw->point[i].x - s.x, tw->point[i].y - s.y) : INFINITY;
	}
	f->reached = 0;
	for (;;) {
		int u = -1;
		for (int i = 0; i < n; i++)
			if (!done[i] && (u < 0 || dist[i] < dist[u])) u = i;
		if (u < 0 || isinf(dist[u])) break;
		done[u] = 1;
		f->order[f->reached++] = u;
		gtVec2 p = tw->point[u];
		for (int w = 0; w < n; w++)
			if (tw->sees[u * n + w] && dist[u] + hypot(tw->point[w].x - p.x, tw->point[w].y - p.y) < dist[w])
				dist[w] = dist[u] + hypot(tw->point[w].x - p.x, tw->point[w].y - p.y);
		if (u >= tw->corners) {
			int e = u - tw->corners, k = e / 2;
			int other = e % 2 == 0 ? u + 1 : u - 1;
			bool allowed = e % 2 == 0 || !tw->links[k].one_way;
			if (allowed && dist[u] + tw->links[k].cost < dist[other]) dist[other] = dist[u] + tw->links[k].cost;
		}
	}
	free(done);
	f->s = s;
	f->valid = true;
}

// The twin's distance from s to t: the line, or the best settled node that sees t. Nodes are read in
// ascending distance, so the first one no nearer than the best so far ends the search.
static double twin_distance(const Twin* tw, gtVec2 s, gtVec2 t)
{
	const TwinFrom* f = tw->from;
	if (!f->valid || f->s.x != s.x || f->s.y != s.y) twin_settle(tw, s);
	double d = test_brute_visible(tw->map, s, t) ? hypot(t.x - s.x, t.y - s.y) : INFINITY;
	for (int k = 0; k < f->reached; k++) {
		int u = f->order[k];
		if (!(f->dist[u] < d)) break;
		gtVec2 p = tw->point[u];
		double to_target = f->dist[u] + hypot(t.x - p.x, t.y - p.y);
		if (to_target < d && test_brute_visible(tw->map, p, t)) d = to_target;
	}
	return d;
}

static void assert_close(double expect, double got, const char* what, gtVec2 s, gtVec2 t)
{
	if (isinf(expect) && isinf(got)) return;
	if (fabs(expect - got) <= 1e-9 * (1 + expect)) return;
	fail_msg("%s: (%g, %g) -> (%g, %g): twin %.12g, got %.12g", what, s.x, s.y, t.x, t.y, expect, got);
}

// A w x h map with random walls and, when `split`, a wall column in the middle that no walk crosses.
static gtMap* links_map(TestRng* rng, int w, int h, int percent, bool split)
{
	unsigned char* cells = calloc((size_t)w * (size_t)h, 1);
	for (int i = 0; i < w * h; i++) cells[i] = test_rng_int(rng, 100) < percent;
	if (split)
		for (int y = 0; y < h; y++) cells[y * w + w / 2] = 1;
	gtMap* map;
	gtError err;
	if (gtMap_FromCells(w, h, cells, &map, &err)) fail_msg("%s", err.message);
	free(cells);
	return map;
}

// Link kinds the tests mix: teleporters of cost 0 and 1, cheaper and dearer than the line, drops.
static TwinLink random_link(const gtMap* map, TestRng* rng, int kind)
{
	TwinLink l;
	l.a = test_random_point(map, rng);
	l.b = test_random_point(map, rng);
	double length = hypot(l.b.x - l.a.x, l.b.y - l.a.y);
	l.cost = kind == 0 ? 0 : kind == 1 ? 1 : kind == 2 ? 0.3 * length : 2 * length + 1;
	l.one_way = test_rng_int(rng, 3) == 0;
	return l;
}

static gtLinkId add(gtNav* nav, TwinLink l)
{
	gtLinkId id;
	gtError err;
	if (gtNav_AddLink(nav, l.a, l.b, l.cost, l.one_way ? GT_LINK_ONE_WAY : 0, &id, &err)) fail_msg("%s", err.message);
	return id;
}

// The links added to the nav, their twin, and a world of the given leaf size on the map.
static gtWorld* links_world(gtNav* nav, const gtMap* map, const TwinLink* links, int count, int leaf, Twin* tw)
{
	for (int k = 0; k < count; k++) add(nav, links[k]);
	twin_make(tw, map, links, count);
	gtWorldDef wdef = gtWorld_DefaultDef();
	wdef.leaf_size = leaf;
	gtWorld* world;
	gtError err;
	assert_int_equal(gtWorld_Create(map, &wdef, &world, &err), GT_OK);
	return world;
}

static void test_handles(void** state)
{
	(void)state;
	gtMap* map = test_map_from_rows("....\n.@@.\n....");
	gtNav* nav;
	gtError err;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	gtLinkId a, b, c;
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0.5, 0.5}, (gtVec2){3.5, 2.5}, 0, 0, &a, &err), GT_OK);
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0.5, 0.5}, (gtVec2){1.5, 1.5}, 1, 0, &c, &err), GT_ERR_INVALID_POINT);
	assert_non_null(strstr(err.message, "link end b"));
	assert_int_equal(c, GT_LINK_NONE);
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0.5, 0.5}, (gtVec2){3.5, 0.5}, -1, 0, &c, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0.5, 0.5}, (gtVec2){3.5, 0.5}, NAN, 0, &c, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0.5, 0.5}, (gtVec2){3.5, 0.5}, INFINITY, 0, &c, &err),
	                 GT_ERR_INVALID_ARG);
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0.5, 0.5}, (gtVec2){3.5, 0.5}, 1, 8, &c, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0.5, 0.5}, (gtVec2){3.5, 0.5}, 2, GT_LINK_ONE_WAY, &b, &err), GT_OK);
	assert_int_equal(gtNav_LinkCount(nav), 2);
	gtLinkInfo info;
	assert_int_equal(gtNav_GetLink(nav, b, &info, &err), GT_OK);
	assert_true(info.enabled && info.cost == 2 && info.flags == GT_LINK_ONE_WAY && info.b.x == 3.5);
	assert_int_equal(gtNav_EnableLink(nav, b, false, &err), GT_OK);
	assert_int_equal(gtNav_GetLink(nav, b, &info, &err), GT_OK);
	assert_false(info.enabled);
	assert_int_equal(gtNav_RemoveLink(nav, a, &err), GT_OK);
	assert_int_equal(gtNav_RemoveLink(nav, a, &err), GT_ERR_INVALID_ARG); // stale
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0, 0}, (gtVec2){4, 3}, 0, 0, &c, &err), GT_OK);
	assert_int_not_equal(c, a); // the slot is reused, the handle is new
	assert_int_equal(gtNav_GetLink(nav, a, &info, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNav_EnableLink(nav, GT_LINK_NONE, true, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNav_EnableLink(nav, 12345, true, &err), GT_ERR_INVALID_ARG);
	gtLinkId ids[4];
	assert_int_equal(gtNav_Links(nav, ids, 4), 2);
	assert_true((ids[0] == c && ids[1] == b) || (ids[0] == b && ids[1] == c));
	// Polyanya cannot take links: refused when adding, and queries say so when chosen afterwards.
	gtMesh* mesh;
	assert_int_equal(gtMesh_FromMap(map, &mesh, &err), GT_OK);
	assert_int_equal(gtNav_SetMesh(nav, mesh, &err), GT_OK);
	assert_int_equal(gtNav_SetMethod(nav, GT_NAV_POLYANYA, &err), GT_OK);
	gtNavQuery* q;
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	double d;
	assert_int_equal(gtNavQuery_Distance(q, (gtVec2){0.5, 0.5}, (gtVec2){3.5, 2.5}, &d, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "polyanya"));
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){0.5, 0.5}, (gtVec2){3.5, 0.5}, 1, 0, &a, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "polyanya"));
	// Straight lines ignore links.
	assert_int_equal(gtNav_SetMethod(nav, GT_NAV_EUCLID, &err), GT_OK);
	assert_int_equal(gtNavQuery_Distance(q, (gtVec2){0, 0}, (gtVec2){4, 3}, &d, &err), GT_OK);
	assert_true(d == 5);
	assert_int_equal(gtNav_SetMethod(nav, GT_NAV_ORACLE, &err), GT_OK);
	assert_int_equal(gtNavQuery_Distance(q, (gtVec2){0, 0}, (gtVec2){4, 3}, &d, &err), GT_OK);
	assert_true(d == 0); // the teleporter c
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// The path's walk segments are co-visible, its link segments are links of the set, and its cost
// (walks plus link costs) is the distance.
static void check_path(gtNav* nav, gtNavQuery* q, gtVec2 s, gtVec2 t, double expect)
{
	int capacity = gtNav_PathCapacity(nav), count;
	gtVec2* points = malloc((size_t)capacity * sizeof *points);
	gtLinkId* links = malloc((size_t)capacity * sizeof *links);
	double d;
	gtError err;
	if (gtNavQuery_PathLinks(q, s, t, points, links, capacity, &count, &d, &err)) fail_msg("%s", err.message);
	assert_close(expect, d, "path distance", s, t);
	if (isinf(expect)) {
		assert_int_equal(count, 0);
	} else {
		assert_true(count >= 2);
		assert_true(points[0].x == s.x && points[0].y == s.y && points[count - 1].x == t.x &&
		            points[count - 1].y == t.y);
		double cost = 0;
		for (int i = 0; i + 1 < count; i++) {
			gtLinkInfo info;
			if (links[i] == GT_LINK_NONE) {
				assert_true(test_brute_visible(gtNav_Map(nav), points[i], points[i + 1]));
				cost += hypot(points[i + 1].x - points[i].x, points[i + 1].y - points[i].y);
				continue;
			}
			assert_int_equal(gtNav_GetLink(nav, links[i], &info, &err), GT_OK);
			bool forward = info.a.x == points[i].x && info.a.y == points[i].y && info.b.x == points[i + 1].x &&
			               info.b.y == points[i + 1].y;
			bool back = info.b.x == points[i].x && info.b.y == points[i].y && info.a.x == points[i + 1].x &&
			            info.a.y == points[i + 1].y && !(info.flags & GT_LINK_ONE_WAY);
			assert_true(forward || back);
			cost += info.cost;
		}
		assert_close(expect, cost, "path cost", s, t);
	}
	free(points), free(links);
}

// Distances and paths with links equal the twin's, with the oracle and (an index built without
// the links) ehl, on open, walled and split maps, with each kind of link.
static void test_distances_match_twin(void** state)
{
	(void)state;
	TestRng rng = {32};
	for (int round = 0; round < 6; round++) {
		bool split = round % 2 == 1;
		gtMap* map = links_map(&rng, 24 + 4 * round, 20, round == 0 ? 0 : 18, split);
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		TwinLink links[12];
		int count = 2 + round * 2;
		for (int k = 0; k < count; k++) {
			links[k] = random_link(map, &rng, k % 4);
			add(nav, links[k]);
		}
		Twin tw, plain;
		twin_make(&tw, map, links, count);
		twin_make(&plain, map, NULL, 0);
		if (round >= 4) { // an index built without the links: the links still count
			gtEhlDef def = gtEhl_DefaultDef();
			def.cell_size = 2;
			assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
			assert_int_equal(gtNav_Method(nav), GT_NAV_EHL);
		}
		int shorter = 0;
		for (int i = 0; i < 60; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			double expect = twin_distance(&tw, s, t), d;
			assert_int_equal(gtNavQuery_Distance(q, s, t, &d, &err), GT_OK);
			assert_close(expect, d, "distance", s, t);
			if (i % 4 == 0) check_path(nav, q, s, t, expect);
			shorter += expect < twin_distance(&plain, s, t);
		}
		assert_true(shorter > 0); // the links mattered
		twin_free(&tw), twin_free(&plain);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

static int compare_doubles(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

// The twin's distances from p to the points it reaches, ascending; returns how many.
static int reachable_distances(const Twin* tw, gtVec2 p, const gtVec2* at, int count, double* out)
{
	int reachable = 0;
	for (int o = 0; o < count; o++) {
		double d = twin_distance(tw, p, at[o]);
		if (!isinf(d)) out[reachable++] = d;
	}
	qsort(out, (size_t)reachable, sizeof *out, compare_doubles);
	return reachable;
}

// A crowd with links: its own walk and field order by straight line and skip other parts of the
// map, which a link defeats, so every method must give the world's own link-aware answers.
static void crowd_answers_match_world(gtWorld* world, gtNav* nav, gtDistance distance, const gtVec2* points, int count,
                                      int32_t word)
{
	enum { K = 4, MOST = 16 };
	gtError err;
	gtCrowdDef def = gtCrowd_DefaultDef();
	def.threads = 2;
	gtCrowd* crowd;
	assert_int_equal(gtCrowd_Create(world, nav, &def, &crowd, &err), GT_OK);
	gtQuery query = test_keyword_query((gtVec2){0, 0}, K, &word);
	gtCrowdQueries batch = {&query, points, count};
	const gtCrowdMethod methods[] = {GT_CROWD_BATCH, GT_CROWD_AUTO, GT_CROWD_EACH};
	for (size_t m = 0; m < sizeof methods / sizeof *methods; m++) {
		gtObjectId ids[MOST * K];
		double got[MOST * K];
		int found[MOST];
		gtCrowdAnswers out = {K, ids, got, found, NULL};
		assert_true(count <= MOST);
		assert_int_equal(gtCrowd_Nearest(crowd, &batch, methods[m], &out, NULL, &err), GT_OK);
		for (int i = 0; i < count; i++) {
			gtQuery one = query;
			one.point = points[i];
			gtObjectId want_ids[K];
			double want[K];
			int want_found;
			assert_int_equal(gtWorld_Nearest(world, &one, distance, want_ids, want, K, &want_found, NULL, &err), GT_OK);
			assert_int_equal(found[i], want_found);
			for (int k = 0; k < want_found; k++) {
				assert_true(ids[i * K + k] == want_ids[k]);
				assert_true(got[i * K + k] == want[k]);
			}
		}
	}
	gtCrowd_Destroy(crowd);
}

// The world's nearest and within queries with links, against every object's twin distance: the
// tree's bound must stay below the distance through zero-cost teleporters across the map.
static void test_world_queries(void** state)
{
	(void)state;
	TestRng rng = {3232};
	for (int round = 0; round < 7; round++) {
		gtMap* map = links_map(&rng, 40, 32, 15, round % 2 == 1);
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		TwinLink links[12];
		int count = 0;
		// Teleporters of cost 0 between far corners, and a few of every kind.
		links[count++] = (TwinLink){test_random_point(map, &rng), test_random_point(map, &rng), 0, false};
		links[count++] = (TwinLink){test_random_point(map, &rng), test_random_point(map, &rng), 0, true};
		while (count < 4 + round) links[count] = random_link(map, &rng, count % 4), count++;
		for (int k = 0; round >= 4 && k < count; k++) links[k].one_way = false; // an index knows them all
		Twin tw;
		gtWorld* world = links_world(nav, map, links, count, 2 + round, &tw);
		int32_t word = gtWorld_Keyword(world, "x");
		enum { OBJECTS = 50 };
		gtVec2 at[OBJECTS];
		for (int i = 0; i < OBJECTS; i++) {
			at[i] = test_random_point(map, &rng);
			gtObjectId id;
			assert_int_equal(gtWorld_Add(world, at[i], &word, 1, &id, &err), GT_OK);
		}
		if (round >= 2) { // the table over an index built without the links, or an index that knows them
			gtEhlDef def = gtEhl_DefaultDef();
			def.cell_size = 1 + round % 3;
			assert_int_equal(
			    round >= 4 ? gtNav_BuildIndexWithLinks(nav, &def, &err) : gtNav_BuildIndex(nav, &def, &err), GT_OK);
		}
		gtDistance distance = test_world_distance(q);
		gtVec2 points[12];
		for (int i = 0; i < 12; i++) {
			gtVec2 p = points[i] = test_random_point(map, &rng);
			double expect[OBJECTS];
			int reachable = reachable_distances(&tw, p, at, OBJECTS, expect);
			gtQuery query = test_keyword_query(p, 6, &word);
			gtObjectId ids[OBJECTS];
			double got[OBJECTS];
			int found;
			assert_int_equal(gtWorld_Nearest(world, &query, distance, ids, got, OBJECTS, &found, NULL, &err), GT_OK);
			assert_int_equal(found, reachable < 6 ? reachable : 6);
			for (int k = 0; k < found; k++) assert_close(expect[k], got[k], "nearest", p, p);
			query.radius = reachable > 0 ? expect[reachable / 2] : 1;
			assert_int_equal(gtWorld_Within(world, &query, distance, ids, got, OBJECTS, &found, NULL, &err), GT_OK);
			int inside = 0;
			while (inside < reachable && expect[inside] <= query.radius * (1 + 1e-12)) inside++;
			assert_true(abs(found - inside) <= 1); // an object right at the radius may round either way
			for (int k = 0; k < found && k < inside; k++) assert_close(expect[k], got[k], "within", p, p);
		}
		crowd_answers_match_world(world, nav, distance, points, 12, word);
		twin_free(&tw);
		gtWorld_Destroy(world);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// An open map where most points see each other: the world takes a straight line its clearance
// squares certify only when the links' bound stands above it, and zero-cost teleporters beat many
// visible lines. The links' search over the ways' grid and the one over every way (no grid), with
// an index that knows the links, both against the twin.
static void test_world_sight_and_teleporters(void** state)
{
	(void)state;
	TestRng rng = {3241};
	for (int round = 0; round < 4; round++) {
		gtMap* map = links_map(&rng, 48, 40, round < 2 ? 0 : 2, false);
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		TwinLink links[12];
		int count = 5 + 2 * round;
		for (int k = 0; k < count; k++)
			links[k] = (TwinLink){test_random_point(map, &rng), test_random_point(map, &rng), k % 3 == 2 ? 1 : 0,
			                      false};
		Twin tw;
		gtWorld* world = links_world(nav, map, links, count, 2 + round, &tw);
		int32_t word = gtWorld_Keyword(world, "x");
		enum { OBJECTS = 60 };
		gtVec2 at[OBJECTS];
		for (int i = 0; i < OBJECTS; i++) {
			// A few objects right by a teleporter's end, where it beats the lines that see them.
			gtVec2 end = links[i % count].b;
			at[i] = i % 5 == 0 && gtMap_CheckPoint(map, (gtVec2){end.x + 0.5, end.y}) == GT_POINT_VALID
			            ? (gtVec2){end.x + 0.5, end.y}
			            : test_random_point(map, &rng);
			gtObjectId id;
			assert_int_equal(gtWorld_Add(world, at[i], &word, 1, &id, &err), GT_OK);
		}
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + round % 2;
		assert_int_equal(gtNav_BuildIndexWithLinks(nav, &def, &err), GT_OK);
		gtDistance distance = test_world_distance(q);
		assert_non_null(distance.straight_map);
		assert_non_null(distance.shortcuts->grid_begin);
		gtShortcuts every = *distance.shortcuts;
		every.grid_begin = every.grid_way = NULL;
		gtDistance no_grid = distance;
		no_grid.shortcuts = &every;
		for (int i = 0; i < 40; i++) {
			gtVec2 p = i % 4 == 0 ? links[i / 4 % count].a : test_random_point(map, &rng);
			double expect[OBJECTS];
			int reachable = reachable_distances(&tw, p, at, OBJECTS, expect);
			for (int search = 0; search < 2; search++) {
				gtDistance d = search ? no_grid : distance;
				gtQuery query = test_keyword_query(p, 8, &word);
				gtObjectId ids[OBJECTS];
				double got[OBJECTS];
				int found;
				assert_int_equal(gtWorld_Nearest(world, &query, d, ids, got, OBJECTS, &found, NULL, &err), GT_OK);
				assert_int_equal(found, reachable < 8 ? reachable : 8);
				for (int k = 0; k < found; k++) assert_close(expect[k], got[k], "nearest", p, p);
				query.radius = reachable > 0 ? expect[reachable / 3] : 1;
				assert_int_equal(gtWorld_Within(world, &query, d, ids, got, OBJECTS, &found, NULL, &err), GT_OK);
				int inside = 0;
				while (inside < reachable && expect[inside] <= query.radius * (1 + 1e-12)) inside++;
				assert_true(abs(found - inside) <= 1);
				for (int k = 0; k < found && k < inside; k++) assert_close(expect[k], got[k], "within", p, p);
			}
		}
		twin_free(&tw);
		gtWorld_Destroy(world);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// Nearest queries without words over many objects walk the leaves in rings from q and from each
// settled way's exit (ring_traverse_links): teleporters of cost 0 and 1 across the map, one-way
// drops, links dearer than their line and a wall no walk crosses but a link. Every answer equals,
// to the bit, brute force over the same distance (every object priced, ordered by distance then
// id), and each distance the twin's, with the oracle, with an index that knows the links and with
// the search over every way instead of the ways' grid.
static void brute_nearest(gtDistance d, gtVec2 p, const gtObjectId* all, const gtVec2* at, int count, int k,
                          gtObjectId* ids, double* dist, int* found)
{
	*found = 0;
	for (int o = 0; o < count; o++) {
		double v = d.fcn(d.context, p, at[o]);
		if (!(v < INFINITY)) continue;
		int j = (*found)++;
		for (; j > 0 && (dist[j - 1] > v || (dist[j - 1] == v && ids[j - 1] > all[o])); j--)
			ids[j] = ids[j - 1], dist[j] = dist[j - 1];
		ids[j] = all[o], dist[j] = v;
	}
	if (*found > k) *found = k;
}
static void test_world_rings_through_links(void** state)
{
	(void)state;
	TestRng rng = {3290};
	for (int round = 0; round < 6; round++) {
		gtMap* map = links_map(&rng, 48, 32, round < 2 ? 3 : 8, round % 3 == 2);
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		enum { LINKS = 12, OBJECTS = 400, K = 8 };
		bool index = round % 2 == 1;
		TwinLink links[LINKS];
		for (int k = 0; k < LINKS; k++) {
			links[k] = k < 8 ? (TwinLink){test_random_point(map, &rng), test_random_point(map, &rng), k % 3 == 1, false}
			                 : random_link(map, &rng, k % 4);
			links[k].one_way = !index && k % 4 == 3;
			gtVec2 near = {links[k].a.x + 2.5, links[k].a.y + 0.5}; // a short one: q's rings and its exit's meet
			if (k % 4 == 2 && gtMap_CheckPoint(map, near) == GT_POINT_VALID) links[k].b = near;
		}
		Twin tw;
		gtWorld* world = links_world(nav, map, links, LINKS, 2 + round % 3, &tw);
		gtVec2 at[OBJECTS];
		gtObjectId all[OBJECTS];
		for (int i = 0; i < OBJECTS; i++) {
			// Some objects right by a link's end, where a teleporter beats the lines that see them.
			gtVec2 end = i % 2 ? links[i % LINKS].b : links[i % LINKS].a, by = {end.x + 0.25 * (i % 5), end.y};
			at[i] = i % 6 == 0 && gtMap_CheckPoint(map, by) == GT_POINT_VALID ? by : test_random_point(map, &rng);
			assert_int_equal(gtWorld_Add(world, at[i], NULL, 0, &all[i], &err), GT_OK);
		}
		if (index) {
			gtEhlDef def = gtEhl_DefaultDef();
			def.cell_size = 1 + round % 3;
			assert_int_equal(gtNav_BuildIndexWithLinks(nav, &def, &err), GT_OK);
		}
		gtDistance distance = test_world_distance(q);
		assert_non_null(distance.shortcuts);
		gtShortcuts every = *distance.shortcuts;
		every.grid_begin = every.grid_way = NULL;
		gtDistance no_grid = distance;
		no_grid.shortcuts = &every;
		for (int i = 0; i < 36; i++) {
			gtVec2 p = i % 3 == 0 ? links[i / 3 % LINKS].a : test_random_point(map, &rng);
			for (int search = 0; search < 2; search++) {
				gtDistance d = search ? no_grid : distance;
				int k = i % 5 == 4 ? 1 : K;
				gtQuery query = gtQuery_Default(p);
				query.k = k;
				gtObjectId ids[K], want_ids[OBJECTS];
				double got[K], want[OBJECTS];
				int found, want_found;
				assert_int_equal(gtWorld_Nearest(world, &query, d, ids, got, K, &found, NULL, &err), GT_OK);
				brute_nearest(d, p, all, at, OBJECTS, k, want_ids, want, &want_found);
				assert_int_equal(found, want_found);
				for (int j = 0; j < found; j++) {
					assert_true(ids[j] == want_ids[j] && got[j] == want[j]);
					int o = 0;
					while (all[o] != ids[j]) o++;
					if (search == 0) assert_close(twin_distance(&tw, p, at[o]), got[j], "nearest in rings", p, at[o]);
				}
			}
		}
		twin_free(&tw);
		gtWorld_Destroy(world);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// The leaves' gaps in the rings from q and from the links' exits (world_tree_query.c
// ring_source_step): a leaf is passed over when the gap from the ring's source to it, plus the
// source's cost, already reaches the k-th answer. That bound only binds once the results hold
// walks well above their lines: here the objects just past a long wall fill them first (near on
// the line, far on foot), and those near q on its own side come from later rings. Ids and
// distances equal brute force over the same distance (to the bit).
static void test_world_rings_gap_through_links(void** state)
{
	(void)state;
	TestRng rng = {3291};
	enum { W = 64, H = 48, OBJECTS = 360, LINKS = 6, K = 8 };
	unsigned char cells[W * H] = {0};
	for (int x = 0; x < W - 6; x++) cells[24 * W + x] = 1; // a wall, open only at its right end
	gtMap* map;
	gtError err;
	if (gtMap_FromCells(W, H, cells, &map, &err)) fail_msg("%s", err.message);
	int walks = 0, queries = 0;
	for (int round = 0; round < 4; round++) {
		gtNav* nav;
		gtNavQuery* q;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		TwinLink links[LINKS];
		for (int k = 0; k < LINKS; k++) { // teleporters in the upper half, and from it to the lower
			gtVec2 a = test_random_point(map, &rng), b = test_random_point(map, &rng);
			a.y = a.y > 24 ? a.y - 24 : a.y, b.y = k < 3 ? (b.y > 24 ? b.y - 24 : b.y) : (b.y < 25 ? b.y + 24 : b.y);
			links[k] = (TwinLink){a, b, (double)(k % 2), false};
		}
		Twin tw;
		gtWorld* world = links_world(nav, map, links, LINKS, 1 + round % 2, &tw);
		gtVec2 at[OBJECTS];
		gtObjectId all[OBJECTS];
		for (int i = 0; i < OBJECTS; i++) {
			// Most in piles just below the wall, a few anywhere above it.
			at[i] = i % 12 ? (gtVec2){4.5 + 4 * (i % 13), 25.5 + 0.25 * (i % 3)} : test_random_point(map, &rng);
			if (i % 12 == 0 && at[i].y > 24) at[i].y -= 24;
			assert_int_equal(gtWorld_Add(world, at[i], NULL, 0, &all[i], &err), GT_OK);
		}
		gtDistance distance = test_world_distance(q);
		for (int i = 0; i < 40; i++) {
			gtVec2 p = test_random_point(map, &rng);
			p.y = 16 + fmod(p.y, 8); // above the wall, within 8 of it
			int k = 1 + i % K;
			gtQuery query = gtQuery_Default(p);
			query.k = k;
			gtObjectId ids[K], want_ids[OBJECTS];
			double got[K], want[OBJECTS];
			int found, want_found;
			gtQueryStats stats = {0};
			assert_int_equal(gtWorld_Nearest(world, &query, distance, ids, got, K, &found, &stats, &err), GT_OK);
			brute_nearest(distance, p, all, at, OBJECTS, k, want_ids, want, &want_found);
			assert_int_equal(found, want_found);
			for (int j = 0; j < found; j++) {
				if (ids[j] != want_ids[j] || got[j] != want[j])
					fail_msg("round %d query %d (%g, %g) k %d: answer %d is %llu at %.17g, brute force %llu at %.17g",
					         round, i, p.x, p.y, k, j, (unsigned long long)ids[j], got[j],
					         (unsigned long long)want_ids[j], want[j]);
				int o = 0;
				while (all[o] != ids[j]) o++;
				assert_close(twin_distance(&tw, p, at[o]), got[j], "nearest past a wall", p, at[o]);
			}
			walks += stats.nodes_popped > 0, queries++;
		}
		twin_free(&tw);
		gtWorld_Destroy(world);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
	}
	assert_true(walks > queries / 2); // the rings answered, not a scan of every object
	gtMap_Destroy(map);
}

// The world's queries with stairs only (links a hair below or above their length, saving well
// under a map unit in all): no search over the links, a key is the straight line less what all of
// them save. Each round has an object that the straight line puts just past a decoy, though the
// stairs reach it first: a key of the straight line alone answers the decoy.
static void test_world_stairs(void** state)
{
	(void)state;
	TestRng rng = {3234};
	for (int round = 0; round < 4; round++) {
		gtMap* map = links_map(&rng, 44, 24, round < 2 ? 0 : 8, false);
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		enum { LINKS = 12, OBJECTS = 60 };
		TwinLink links[LINKS];
		int count = 0;
		gtVec2 from = {3.5, 3.5}, stair_top = {13.5, 3.5}, decoy = {3.5, 13.5 - 0x1p-11};
		bool open = round < 2;
		if (open) links[count++] = (TwinLink){from, stair_top, 10 - 1e-3, false};
		while (count < LINKS) {
			TwinLink l = random_link(map, &rng, 0);
			double hairs[4] = {-1e-5, 1e-3, -1e-4, 0};
			l.cost = fmax(0, hypot(l.b.x - l.a.x, l.b.y - l.a.y) + hairs[count % 4]);
			l.one_way = round % 2 == 0 && count % 3 == 0;
			links[count++] = l;
		}
		Twin tw;
		gtWorld* world = links_world(nav, map, links, count, 2 + round, &tw);
		int32_t word = gtWorld_Keyword(world, "x"), pair[2] = {word, gtWorld_Keyword(world, "pair")};
		gtVec2 at[OBJECTS];
		for (int i = 0; i < OBJECTS; i++) {
			at[i] = open && i < 2 ? (i == 0 ? decoy : stair_top) : test_random_point(map, &rng);
			if (i >= 2 && i % 4 == 0) at[i] = links[test_rng_int(&rng, count)].b; // at a link's end
			gtObjectId id;
			assert_int_equal(gtWorld_Add(world, at[i], pair, open && i < 2 ? 2 : 1, &id, &err), GT_OK);
		}
		if (round % 2 == 1) { // an index that knows the links (all two-way in these rounds)
			gtEhlDef def = gtEhl_DefaultDef();
			def.cell_size = 2;
			assert_int_equal(gtNav_BuildIndexWithLinks(nav, &def, &err), GT_OK);
		}
		gtDistance distance = test_world_distance(q);
		if (open) { // the stairs' top (9.999 away) before the decoy (9.9995 in a straight line)
			gtQuery query = test_keyword_query(from, 1, &pair[1]);
			gtObjectId id;
			double got;
			int found;
			assert_int_equal(gtWorld_Nearest(world, &query, distance, &id, &got, 1, &found, NULL, &err), GT_OK);
			assert_int_equal(found, 1);
			assert_close(twin_distance(&tw, from, stair_top), got, "the stairs' top", from, stair_top);
			// Shortcuts handed without their savings (0): the query sums them itself.
			gtShortcuts unsummed = *distance.shortcuts;
			unsummed.savings = 0;
			gtDistance plain = distance;
			plain.shortcuts = &unsummed;
			assert_int_equal(gtWorld_Nearest(world, &query, plain, &id, &got, 1, &found, NULL, &err), GT_OK);
			assert_int_equal(found, 1);
			assert_close(twin_distance(&tw, from, stair_top), got, "the stairs' top, savings summed", from, stair_top);
		}
		for (int i = 0; i < 16; i++) {
			gtVec2 p = open && i == 0 ? from
			           : i % 2        ? links[test_rng_int(&rng, count)].a
			                          : test_random_point(map, &rng);
			double expect[OBJECTS];
			int reachable = reachable_distances(&tw, p, at, OBJECTS, expect);
			for (int k = 1; k <= 5; k += 4) {
				gtQuery query = test_keyword_query(p, k, &word);
				gtObjectId ids[OBJECTS];
				double got[OBJECTS];
				int found;
				assert_int_equal(gtWorld_Nearest(world, &query, distance, ids, got, OBJECTS, &found, NULL, &err),
				                 GT_OK);
				assert_int_equal(found, reachable < k ? reachable : k);
				for (int j = 0; j < found; j++) assert_close(expect[j], got[j], "nearest past stairs", p, p);
			}
		}
		twin_free(&tw);
		gtWorld_Destroy(world);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// Stairs a hair below their length under an index that knows them (no search: they save under a
// map unit in all) while the world walks the clearance squares: a line the query sees along stands
// only when the least reach of a stair from q plus the gap from p to the nearest exit is above it.
// Rows of stairs lie on the lines from query points behind their foot to objects past their top
// (and beside them, where the line stands): a sight walk that trusted every visible line would
// answer those 1e-3 too far. Some pricings must skip the backend, or the walk never ran.
static void test_world_stairs_sight(void** state)
{
	(void)state;
	TestRng rng = {3277};
	for (int round = 0; round < 4; round++) {
		gtMap* map = links_map(&rng, 40, 24, round < 2 ? 0 : 3, false);
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		enum { LINKS = 10, OBJECTS = 48 };
		TwinLink links[LINKS];
		int count = 0;
		for (double y = 2.5; y < 24 && count < 4; y += 6) {
			gtVec2 a = {6.5, y}, b = {16.5 + round, y};
			if (gtMap_CheckPoint(map, a) || gtMap_CheckPoint(map, b)) continue;
			links[count++] = (TwinLink){a, b, hypot(b.x - a.x, b.y - a.y) - 1e-3, false};
		}
		int rows = count;
		while (count < LINKS) { // stairs a hair above their length: they never beat a line
			TwinLink l = random_link(map, &rng, 0);
			l.cost = hypot(l.b.x - l.a.x, l.b.y - l.a.y) + 1e-4;
			l.one_way = false;
			links[count++] = l;
		}
		Twin tw;
		gtWorld* world = links_world(nav, map, links, count, 2 + round % 2, &tw);
		int32_t word = gtWorld_Keyword(world, "x");
		gtVec2 at[OBJECTS];
		for (int i = 0; i < OBJECTS; i++) {
			gtVec2 top = links[i % rows].b, beyond = {top.x + 1 + i % 7, top.y + (i % 3 == 2 ? 1 : 0)};
			at[i] = i % 2 == 0 && gtMap_CheckPoint(map, beyond) == GT_POINT_VALID ? beyond
			                                                                      : test_random_point(map, &rng);
			gtObjectId id;
			assert_int_equal(gtWorld_Add(world, at[i], &word, 1, &id, &err), GT_OK);
		}
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + round % 2;
		if (round != 3) assert_int_equal(gtNav_BuildIndexWithLinks(nav, &def, &err), GT_OK);
		gtDistance distance = test_world_distance(q);
		assert_true(round == 3 || distance.straight_map != NULL);
		// Rounds 1 and 2: shortcuts without the reach table (the query asks the ways for q's least
		// reach), round 2 without the ways' grid either.
		gtShortcuts bare = *distance.shortcuts;
		bare.reach_gap = NULL;
		if (round == 2) bare.grid_begin = bare.grid_way = NULL;
		if (round == 1 || round == 2) distance.shortcuts = &bare;
		int64_t calls = 0, answered = 0;
		for (int i = 0; i < 24; i++) {
			gtVec2 foot = links[i % rows].a, behind = {foot.x - 1 - i % 5, foot.y};
			gtVec2 p = i % 3 != 2 && gtMap_CheckPoint(map, behind) == GT_POINT_VALID ? behind
			                                                                         : test_random_point(map, &rng);
			double expect[OBJECTS];
			int reachable = reachable_distances(&tw, p, at, OBJECTS, expect);
			for (int k = 4; k <= OBJECTS; k += OBJECTS - 4) {
				gtQuery query = test_keyword_query(p, k, &word);
				gtObjectId ids[OBJECTS];
				double got[OBJECTS];
				int found;
				gtQueryStats stats = {0};
				assert_int_equal(gtWorld_Nearest(world, &query, distance, ids, got, OBJECTS, &found, &stats, &err),
				                 GT_OK);
				assert_int_equal(found, reachable < k ? reachable : k);
				for (int j = 0; j < found; j++) assert_close(expect[j], got[j], "nearest past stairs in sight", p, p);
				calls += stats.distance_calls, answered += found;
			}
			// Within a radius just past a stair's top (in a straight line): the top still enters.
			gtQuery query = test_keyword_query(p, 0, &word);
			query.radius = reachable > 0 ? expect[reachable / 3] : 1;
			gtObjectId ids[OBJECTS];
			double got[OBJECTS];
			int found;
			assert_int_equal(gtWorld_Within(world, &query, distance, ids, got, OBJECTS, &found, NULL, &err), GT_OK);
			int inside = 0;
			while (inside < reachable && expect[inside] <= query.radius * (1 + 1e-12)) inside++;
			assert_true(abs(found - inside) <= 1);
			for (int j = 0; j < found && j < inside; j++) assert_close(expect[j], got[j], "within past stairs", p, p);
		}
		if (round < 2) assert_true(calls < answered); // the sight walk answered some
		twin_free(&tw);
		gtWorld_Destroy(world);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// Edits and links: after walls are added (one walls in a link's end) and removed, and links are
// disabled and removed, every answer still equals the twin's for the links enabled then.
static void edits_and_toggles(int index) // 0: none, 1: an index without links, 2: one that knows them
{
	TestRng rng = {320};
	gtMap* map = links_map(&rng, 30, 24, 12, false);
	gtNav* nav;
	gtNavQuery* q;
	gtError err;
	gtNavDef nav_def = gtNav_DefaultDef();
	nav_def.manual_rebuild = true; // freed walls: the oracle answers for the index, then the table
	assert_int_equal(gtNav_Create(map, &nav_def, &nav, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	if (index == 1) {
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 3;
		assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	}
	TwinLink links[6];
	gtLinkId ids[6];
	for (int k = 0; k < 6; k++) {
		links[k] = random_link(map, &rng, k % 4);
		links[k].one_way = links[k].one_way && index != 2;
		ids[k] = add(nav, links[k]);
	}
	if (index == 2) {
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 2;
		assert_int_equal(gtNav_BuildIndexWithLinks(nav, &def, &err), GT_OK);
	}
	for (int step = 0; step < 4; step++) {
		TwinLink on[6];
		int count = 0;
		if (step == 1) { // wall in link 0's end a
			int x = (int)floor(links[0].a.x), y = (int)floor(links[0].a.y);
			x = x >= gtMap_Width(map) ? x - 1 : x, y = y >= gtMap_Height(map) ? y - 1 : y;
			assert_int_equal(gtNav_SetBlocked(nav, x > 0 ? x - 1 : x, y > 0 ? y - 1 : y, x, y, true, &err), GT_OK);
		}
		if (step == 2) {
			assert_int_equal(gtNav_SetBlocked(nav, 0, 0, gtMap_Width(map) - 1, gtMap_Height(map) - 1, false, &err),
			                 GT_OK);
			assert_int_equal(gtNav_EnableLink(nav, ids[1], false, &err), GT_OK);
		}
		if (step == 3) {
			assert_int_equal(gtNav_RemoveLink(nav, ids[2], &err), GT_OK);
			assert_int_equal(gtNav_EnableLink(nav, ids[1], true, &err), GT_OK);
		}
		for (int k = 0; k < 6; k++) {
			bool blocked_end = gtMap_CheckPoint(map, links[k].a) || gtMap_CheckPoint(map, links[k].b);
			if (!blocked_end && !(step == 2 && k == 1) && !(step == 3 && k == 2)) on[count++] = links[k];
		}
		Twin tw;
		twin_make(&tw, map, on, count);
		for (int i = 0; i < 40; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			double d;
			assert_int_equal(gtNavQuery_Distance(q, s, t, &d, &err), GT_OK);
			double expect = twin_distance(&tw, s, t);
			assert_close(expect, d, "after edits", s, t);
			if (i % 8 == 0) check_path(nav, q, s, t, expect);
		}
		twin_free(&tw);
	}
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

static void test_edits_and_toggles(void** state)
{
	(void)state;
	edits_and_toggles(0);
	edits_and_toggles(1);
	edits_and_toggles(2);
}

// The path follower crosses a teleporter at once and a ladder at its cost.
static void test_advance(void** state)
{
	(void)state;
	gtMap* map = test_map_from_rows("..........\n..........\n..........");
	gtNav* nav;
	gtError err;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	gtLinkId ladder, teleporter;
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){1, 1}, (gtVec2){3, 1}, 6, 0, &ladder, &err), GT_OK);
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){4, 1}, (gtVec2){9, 1}, 0, 0, &teleporter, &err), GT_OK);
	gtVec2 points[] = {{0, 1}, {1, 1}, {3, 1}, {4, 1}, {9, 1}, {10, 1}};
	gtLinkId links[] = {GT_LINK_NONE, ladder, GT_LINK_NONE, teleporter, GT_LINK_NONE, GT_LINK_NONE};
	int segment = 0;
	gtVec2 at = gtPath_AdvanceLinks(nav, points, links, 6, &segment, points[0], 4); // 1 walked, 3 of 6 climbed
	assert_int_equal(segment, 1);
	assert_true(fabs(at.x - 2) < 1e-12);
	at = gtPath_AdvanceLinks(nav, points, links, 6, &segment, at, 3.5); // the climb, then 0.5 walked
	assert_int_equal(segment, 2);
	assert_true(fabs(at.x - 3.5) < 1e-12);
	at = gtPath_AdvanceLinks(nav, points, links, 6, &segment, at, 0.75); // through the teleporter
	assert_int_equal(segment, 4);
	assert_true(fabs(at.x - 9.25) < 1e-12);
	at = gtPath_AdvanceLinks(nav, points, links, 6, &segment, at, 5);
	assert_int_equal(segment, 5);
	assert_true(at.x == 10);
	// The same walk with the links' costs instead of their handles, step by step (what Lua's
	// advance does with map:path's links.costs); without costs it is gtPath_Advance.
	const double costs[] = {NAN, 6, NAN, 0, NAN, NAN};
	const double steps[] = {4, 3.5, 0.75, 0.1, 5};
	gtVec2 by_links = points[0], by_costs = points[0], plain = points[0];
	int s_links = 0, s_costs = 0, s_plain = 0, s_walk = 0;
	for (int i = 0; i < 5; i++) {
		by_links = gtPath_AdvanceLinks(nav, points, links, 6, &s_links, by_links, steps[i]);
		by_costs = gtPath_AdvanceCosts(points, costs, 6, &s_costs, by_costs, steps[i]);
		assert_int_equal(s_costs, s_links);
		assert_true(by_costs.x == by_links.x && by_costs.y == by_links.y);
		gtVec2 walked = gtPath_AdvanceCosts(points, NULL, 6, &s_walk, plain, steps[i]);
		plain = gtPath_Advance(points, 6, &s_plain, plain, steps[i]);
		assert_int_equal(s_walk, s_plain);
		assert_true(walked.x == plain.x && walked.y == plain.y);
	}
	assert_true(s_costs == 5 && s_plain == 5 && plain.x == 10);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// Reachability against the twin: b is reachable from a exactly when the twin's distance is finite,
// on maps with pinch points and walls that split them, links one way and both; the nearest
// reachable point to an unreachable target is as close as the closest reachable cell comes.
static void test_reachability(void** state)
{
	(void)state;
	gtMap* split = test_map_from_rows("..@..\n..@..\n..@..");
	gtNav* nav;
	gtNavQuery* q;
	gtError err;
	bool yes;
	assert_int_equal(gtNav_Create(split, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	gtVec2 left = {0.5, 0.5}, right = {4.5, 2.5};
	assert_int_equal(gtNavQuery_Reachable(q, left, right, &yes, &err), GT_OK);
	assert_false(yes);
	gtLinkId drop;
	assert_int_equal(gtNav_AddLink(nav, (gtVec2){1, 1}, (gtVec2){4, 1}, 2, GT_LINK_ONE_WAY, &drop, &err), GT_OK);
	assert_int_equal(gtNavQuery_Reachable(q, left, right, &yes, &err), GT_OK);
	assert_true(yes);
	assert_int_equal(gtNavQuery_Reachable(q, right, left, &yes, &err), GT_OK);
	assert_false(yes); // not back up the drop
	gtVec2 point;
	assert_int_equal(gtNavQuery_NearestReachable(q, right, (gtVec2){0.5, 1.5}, &point, NULL, NULL, 0, NULL, NULL, &err),
	                 GT_OK);
	assert_true(fabs(point.x - 3) < 1e-6 && point.y == 1.5); // the wall's far side
	assert_int_equal(gtNav_EnableLink(nav, drop, false, &err), GT_OK);
	assert_int_equal(gtNavQuery_Reachable(q, left, right, &yes, &err), GT_OK);
	assert_false(yes);
	assert_int_equal(gtNavQuery_Reachable(q, left, (gtVec2){2.5, 0.5}, &yes, &err), GT_ERR_INVALID_POINT);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(split);
	TestRng rng = {3200};
	for (int round = 0; round < 4; round++) {
		gtMap* map = links_map(&rng, 24, 18, 30, round % 2 == 0);
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		TwinLink links[4];
		int count = round;
		for (int k = 0; k < count; k++) links[k] = random_link(map, &rng, k % 4), add(nav, links[k]);
		Twin tw;
		twin_make(&tw, map, links, count);
		int differ = 0;
		for (int i = 0; i < 80; i++) {
			gtVec2 a = test_random_point(map, &rng), b = test_random_point(map, &rng);
			bool reachable;
			assert_int_equal(gtNavQuery_Reachable(q, a, b, &reachable, &err), GT_OK);
			double d = twin_distance(&tw, a, b);
			if (reachable != !isinf(d))
				fail_msg("(%g, %g) -> (%g, %g): reachable %d, twin %g", a.x, a.y, b.x, b.y, reachable, d);
			differ += !reachable;
		}
		if (round % 2 == 0) assert_true(differ > 0); // the split leaves pairs apart
		for (int i = 0; i < 3; i++) {
			gtVec2 from = test_random_point(map, &rng);
			gtVec2 to = {test_rng_int(&rng, 24 * 64) / 64.0, test_rng_int(&rng, 18 * 64) / 64.0}; // walls too
			gtVec2 point;
			int capacity = gtNav_PathCapacity(nav), n;
			gtVec2* points = malloc((size_t)capacity * sizeof *points);
			gtLinkId* ids = malloc((size_t)capacity * sizeof *ids);
			double d;
			assert_int_equal(gtNavQuery_NearestReachable(q, from, to, &point, points, ids, capacity, &n, &d, &err),
			                 GT_OK);
			double direct; // the point is off the twin's grid: the nav's own distance, and reachable
			assert_int_equal(gtNavQuery_Distance(q, from, point, &direct, &err), GT_OK);
			assert_close(direct, d, "nearest reachable", from, point);
			assert_true(!isinf(d) && n >= 2);
			double best = INFINITY; // brute force: the reachable cells by the twin
			for (int y = 0; y < gtMap_Height(map); y++)
				for (int x = 0; x < gtMap_Width(map); x++) {
					if (gtMap_IsBlocked(map, x, y) || isinf(twin_distance(&tw, from, (gtVec2){x + 0.5, y + 0.5})))
						continue;
					double cx = to.x < x       ? x
					            : to.x > x + 1 ? x + 1
					                           : to.x,
					       cy = to.y < y       ? y
					            : to.y > y + 1 ? y + 1
					                           : to.y;
					double e = hypot(cx - to.x, cy - to.y);
					if (e < best) best = e;
				}
			assert_true(fabs(hypot(point.x - to.x, point.y - to.y) - best) < 1e-6);
			free(points), free(ids);
		}
		twin_free(&tw);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// Two floors side by side joined by stairs and a one-way lift: the layout, its checks, and
// distances across floors equal to the twin's on the whole map.
static void test_floors(void** state)
{
	(void)state;
	enum { W = 10, H = 6 };
	unsigned char cells[2 * W * H] = {0};
	cells[W * 2 + 4] = cells[W * 3 + 4] = 1;         // a pillar on floor 0
	cells[W * H + W * 1 + 6] = cells[W * H + 7] = 1; // walls on floor 1
	gtMap* map;
	gtError err;
	assert_int_equal(gtMap_FromFloors(2, W, H, cells, &map, &err), GT_OK);
	assert_int_equal(gtMap_Width(map), 2 * W + 1);
	gtNav* nav;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_FloorCount(nav), 1);
	assert_int_equal(gtNav_SetFloors(nav, 3, W, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNav_SetFloors(nav, 2, W, &err), GT_OK);
	assert_int_equal(gtNav_FloorCount(nav), 2);
	gtVec2 local, p = gtNav_FloorPoint(nav, 1, (gtVec2){2.5, 3});
	assert_true(p.x == W + 1 + 2.5 && p.y == 3);
	assert_int_equal(gtNav_PointFloor(nav, p, &local), 1);
	assert_true(local.x == 2.5 && local.y == 3);
	assert_int_equal(gtNav_PointFloor(nav, (gtVec2){W + 0.5, 1}, &local), -1); // between the floors
	assert_int_equal(gtNav_PointFloor(nav, (gtVec2){W, 1}, &local), 0);        // floor 0's edge
	gtLinkId stairs, lift, none;
	assert_int_equal(gtNav_AddFloorLink(nav, 0, (gtVec2){9.5, 0.5}, 1, (gtVec2){0.5, 0.5}, 3, 0, &stairs, &err), GT_OK);
	assert_int_equal(
	    gtNav_AddFloorLink(nav, 1, (gtVec2){9.5, 5.5}, 0, (gtVec2){0.5, 5.5}, 0.5, GT_LINK_ONE_WAY, &lift, &err),
	    GT_OK);
	assert_int_equal(gtNav_AddFloorLink(nav, 0, (gtVec2){1, 1}, 2, (gtVec2){1, 1}, 1, 0, &none, &err),
	                 GT_ERR_INVALID_ARG);
	TwinLink links[2] = {{{9.5, 0.5}, {W + 1 + 0.5, 0.5}, 3, false}, {{W + 1 + 9.5, 5.5}, {0.5, 5.5}, 0.5, true}};
	Twin tw;
	twin_make(&tw, map, links, 2);
	gtNavQuery* q;
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	TestRng rng = {2};
	int across = 0;
	for (int i = 0; i < 60; i++) {
		int fa = test_rng_int(&rng, 2), fb = test_rng_int(&rng, 2);
		gtVec2 a = gtNav_FloorPoint(nav, fa,
		                            (gtVec2){test_rng_int(&rng, W * 4) / 4.0, test_rng_int(&rng, H * 4) / 4.0});
		gtVec2 b = gtNav_FloorPoint(nav, fb,
		                            (gtVec2){test_rng_int(&rng, W * 4) / 4.0, test_rng_int(&rng, H * 4) / 4.0});
		if (gtMap_CheckPoint(map, a) || gtMap_CheckPoint(map, b)) continue;
		double d, expect = twin_distance(&tw, a, b);
		assert_int_equal(gtNavQuery_Distance(q, a, b, &d, &err), GT_OK);
		assert_close(expect, d, "across floors", a, b);
		across += fa != fb && !isinf(d);
	}
	assert_true(across > 5);
	twin_free(&tw);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	unsigned char open[7 * 3] = {0};
	assert_int_equal(gtMap_FromCells(7, 3, open, &map, &err), GT_OK); // no wall between the floors
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_SetFloors(nav, 2, 3, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "between floors 0 and 1 is free"));
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// An index built knowing the links (gtEhl_BuildWithLinks) answers as the twin does, distances and
// paths, at cell sizes 1 to 4, on open, walled and split maps with every kind of two-way link; it
// saves and loads with its links.
static void test_index_knows_links(void** state)
{
	(void)state;
	TestRng rng = {3232};
	for (int round = 0; round < 8; round++) {
		bool split = round % 2 == 1;
		gtMap* map = links_map(&rng, 20 + 3 * round, 18, round == 0 ? 0 : 15 + round, split);
		TwinLink links[16];
		gtEhlLink index_links[16];
		int count = 1 + round * 2;
		for (int k = 0; k < count; k++) {
			links[k] = random_link(map, &rng, k % 4);
			links[k].one_way = false;
			if (k == 3) links[k].b = links[k].a; // a link to itself changes nothing
			index_links[k] = (gtEhlLink){links[k].a, links[k].b, links[k].cost};
		}
		Twin tw;
		twin_make(&tw, map, links, count);
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + round % 4;
		def.threads = 1 + round % 2;
		gtEhl* ehl;
		gtError err;
		if (gtEhl_BuildWithLinks(map, &def, index_links, count, &ehl, &err)) fail_msg("%s", err.message);
		const gtEhlLink* kept;
		assert_int_equal(gtEhl_Links(ehl, &kept), count);
		char path[64];
		snprintf(path, sizeof path, "test_links_index_%d.ehl", round);
		assert_int_equal(gtEhl_Save(ehl, path, &err), GT_OK);
		gtEhl* loaded;
		if (gtEhl_Load(map, path, &loaded, &err)) fail_msg("%s", err.message);
		remove(path);
		assert_int_equal(gtEhl_Links(loaded, &kept), count);
		assert_true(kept[count - 1].a.x == links[count - 1].a.x && kept[count - 1].cost == links[count - 1].cost);
		gtEhlQuery *q, *lq;
		assert_int_equal(gtEhlQuery_Create(ehl, &q, &err), GT_OK);
		assert_int_equal(gtEhlQuery_Create(loaded, &lq, &err), GT_OK);
		gtVec2 points[256];
		for (int i = 0; i < 80; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			if (i % 10 == 0) s = links[i / 10 % count].b; // from a link end itself
			double expect = twin_distance(&tw, s, t), d, ld;
			assert_int_equal(gtEhl_Distance(q, s, t, &d, &err), GT_OK);
			assert_close(expect, d, "index with links", s, t);
			assert_int_equal(gtEhl_Distance(lq, s, t, &ld, &err), GT_OK);
			assert_close(expect, ld, "loaded index with links", s, t);
			int n;
			assert_int_equal(gtEhl_Path(q, s, t, points, 256, &n, &d, &err), GT_OK);
			assert_close(expect, d, "index path", s, t);
		}
		gtEhlQuery_Destroy(q), gtEhlQuery_Destroy(lq);
		gtEhl_Destroy(ehl), gtEhl_Destroy(loaded);
		twin_free(&tw);
		gtMap_Destroy(map);
	}
}

// Whether two files hold the same bytes.
static bool same_bytes(const char* a, const char* b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb;
	while (same) {
		int ca = fgetc(fa), cb = fgetc(fb);
		same = ca == cb;
		if (ca == EOF) break;
	}
	if (fa) fclose(fa);
	if (fb) fclose(fb);
	return same;
}

// The join makes the ends' regions on the build's threads, a batch of one end per thread: the
// index is the same file on 1 and 3 threads (26 ends: the last batch is partial), and its
// distances are the twin's.
static void test_index_links_threads(void** state)
{
	(void)state;
	TestRng rng = {3236};
	for (int round = 0; round < 3; round++) {
		gtMap* map = links_map(&rng, 24, 18, 12 + 3 * round, round == 1);
		TwinLink links[13];
		gtEhlLink index_links[13];
		for (int k = 0; k < 13; k++) {
			links[k] = random_link(map, &rng, k % 4);
			links[k].one_way = false;
			index_links[k] = (gtEhlLink){links[k].a, links[k].b, links[k].cost};
		}
		Twin tw;
		twin_make(&tw, map, links, 13);
		gtEhl* ehl[2];
		gtError err;
		char path[2][64];
		for (int i = 0; i < 2; i++) {
			gtEhlDef def = gtEhl_DefaultDef();
			def.cell_size = 1 + round;
			def.threads = 1 + 2 * i;
			if (gtEhl_BuildWithLinks(map, &def, index_links, 13, &ehl[i], &err)) fail_msg("%s", err.message);
			snprintf(path[i], sizeof path[i], "test_links_threads_%d.ehl", i);
			assert_int_equal(gtEhl_Save(ehl[i], path[i], &err), GT_OK);
		}
		if (!same_bytes(path[0], path[1])) fail_msg("round %d: the index on 3 threads differs from 1 thread's", round);
		remove(path[0]), remove(path[1]);
		gtEhlQuery* q;
		assert_int_equal(gtEhlQuery_Create(ehl[1], &q, &err), GT_OK);
		for (int i = 0; i < 60; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			if (i % 3 == 0) s = i % 2 ? links[i / 3 % 13].a : links[i / 3 % 13].b; // from a link end
			double d;
			assert_int_equal(gtEhl_Distance(q, s, t, &d, &err), GT_OK);
			assert_close(twin_distance(&tw, s, t), d, "index with links on 3 threads", s, t);
		}
		gtEhlQuery_Destroy(q);
		gtEhl_Destroy(ehl[0]), gtEhl_Destroy(ehl[1]);
		twin_free(&tw);
		gtMap_Destroy(map);
	}
}

// The builds test_index_cells_one_pass compares: the first counts every cell, then writes it (the
// path a repair takes); the others write each cell once, into a pool per thread. Round robin hands
// cell c to thread c % threads, so that every pool holds cells and pool 0's move, however the
// threads are scheduled (one thread may otherwise build every cell of a small map on a busy machine).
static const struct {
	int threads, mode;
} one_pass_runs[] = {{2, GT_EHL_CELLS_TWO_PASSES},  {1, 0},
                     {2, GT_EHL_CELLS_ROUND_ROBIN}, {3, GT_EHL_CELLS_ROUND_ROBIN},
                     {4, GT_EHL_CELLS_ROUND_ROBIN}, {3, 0}};

// A whole uniform index's cells are written in one pass, each thread's into its own pool, then put
// in cell order (ehl_cell_pools.c): the same file as the build that counts every cell, then writes
// it, on 1 to 4 threads, with links and without, cells of 1 to 3. The files are removed and the
// switch reset on every path (a failure is reported after).
static void test_index_cells_one_pass(void** state)
{
	(void)state;
	enum { RUNS = sizeof one_pass_runs / sizeof *one_pass_runs };
	TestRng rng = {3238};
	char path[RUNS][TEST_TEMP_PATH], why[sizeof(gtError) + 64] = "";
	for (int i = 0; i < RUNS; i++) test_temp_file(path[i], "links_one_pass");
	for (int round = 0; round < 6 && !why[0]; round++) {
		gtMap* map = links_map(&rng, 48, 36, 16 + 3 * round, round == 2);
		gtEhlLink links[12];
		int count = round % 2 ? 12 : 0;
		for (int k = 0; k < count; k++) {
			TwinLink l = random_link(map, &rng, k % 4);
			links[k] = (gtEhlLink){l.a, l.b, l.cost};
		}
		for (int i = 0; i < RUNS && !why[0]; i++) {
			gtEhlDef def = gtEhl_DefaultDef();
			def.cell_size = 1 + round % 3;
			def.threads = one_pass_runs[i].threads;
			atomic_store(&gt_ehl_cells_test.mode, one_pass_runs[i].mode);
			gtEhl* ehl = NULL;
			gtError err;
			if (gtEhl_BuildWithLinks(map, &def, links, count, &ehl, &err) || gtEhl_Save(ehl, path[i], &err))
				snprintf(why, sizeof why, "round %d, build %d: %s", round, i, err.message);
			gtEhl_Destroy(ehl);
		}
		atomic_store(&gt_ehl_cells_test.mode, 0);
		for (int i = 1; i < RUNS && !why[0]; i++)
			if (!same_bytes(path[0], path[i]))
				snprintf(why, sizeof why,
				         "round %d: the index in one pass on %d threads (mode %d) differs from the two passes'", round,
				         one_pass_runs[i].threads, one_pass_runs[i].mode);
		gtMap_Destroy(map);
	}
	for (int i = 0; i < RUNS; i++) remove(path[i]);
	if (why[0]) fail_msg("%s", why);
}

// The one-pass build puts its pools in order while they are still held (the index beside pools 1..,
// and pool 0's old blocks while they grow into the index's): where that peak would not fit the
// memory available but the pools alone do, the build falls back to the two passes (the index
// alone), and writes the same file. On 4 threads, round robin: pool 0 holds a quarter of the cells,
// so the peak is above the pools' bytes by at least the index's hub list. Where not even the pools
// fit, the one pass stops as they pass it, and the two passes refuse with the index's size.
static void test_index_cells_one_pass_memory(void** state)
{
	(void)state;
	TestRng rng = {3239};
	gtMap* map = links_map(&rng, 48, 36, 20, false);
	char path[2][TEST_TEMP_PATH], why[sizeof(gtError) + 160] = "";
	for (int i = 0; i < 2; i++) test_temp_file(path[i], "links_one_pass_memory");
	atomic_store(&gt_ehl_cells_test.mode, GT_EHL_CELLS_ROUND_ROBIN);
	long long pools = 0, peak = 0;
	for (int i = 0; i < 3 && !why[0]; i++) { // memory 0: for the peak; 1: between the pools' and the peak; 2: none
		long long available = i == 2 ? 1 : i ? (pools + peak) / 2 : 1LL << 40;
		atomic_store(&gt_ehl_cells_test.available, available);
		int fell_back = atomic_load(&gt_ehl_cells_test.fell_back);
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 2;
		def.threads = 4;
		gtEhl* ehl = NULL;
		gtError err;
		gtStatus st = gtEhl_Build(map, &def, &ehl, &err);
		if (i == 2 && (st != GT_ERR_LIMIT || !strstr(err.message, "MB of memory are available")))
			snprintf(why, sizeof why, "build 2: status %d, not the refusal (%s)", (int)st, st ? err.message : "built");
		else if (i < 2 && (st || gtEhl_Save(ehl, path[i], &err)))
			snprintf(why, sizeof why, "build %d: %s", i, err.message);
		gtEhl_Destroy(ehl);
		if (i == 0)
			pools = atomic_load(&gt_ehl_cells_test.pools_bytes), peak = atomic_load(&gt_ehl_cells_test.peak_bytes);
		int fell = atomic_load(&gt_ehl_cells_test.fell_back) - fell_back;
		if (!why[0] && (fell != (i > 0) || !(peak > pools)))
			snprintf(why, sizeof why,
			         "build %d: %d fallbacks to two passes (want %d); pools %lld bytes, peak %lld, available %lld", i,
			         fell, i > 0, pools, peak, available);
	}
	atomic_store(&gt_ehl_cells_test.mode, 0);
	atomic_store(&gt_ehl_cells_test.available, 0);
	if (!why[0] && !same_bytes(path[0], path[1]))
		snprintf(why, sizeof why, "the index of the two passes the build fell back to differs from one pass's");
	for (int i = 0; i < 2; i++) remove(path[i]);
	gtMap_Destroy(map);
	if (why[0]) fail_msg("%s", why);
}

// Stairs: links that cost a hair below or above their length, as a level's stairs priced by their
// drawn length do. The index keeps a straight line s sees t along only when no walk through the
// links can beat it, by each link's segment and what all of them save (gt_ehl_line_wins_paired):
// pairs near the links' ends, and pairs that see each other past two links that save a little each.
static void test_index_links_a_hair_below(void** state)
{
	(void)state;
	TestRng rng = {3233};
	for (int round = 0; round < 4; round++) {
		gtMap* map = links_map(&rng, 44, 14, round < 2 ? 0 : 6, false);
		TwinLink links[20];
		gtEhlLink index_links[20];
		int count = 0;
		// Two links along row 7, each saving 0.01. From s to t, 0.1875 off the row on either side,
		// the walk through both saves 0.02 and bends by ~0.0176; through one, it bends by ~0.011 for
		// 0.01 saved: only a bound that counts what both save sees that the line loses.
		bool row_free = true;
		for (int x = 0; x < 18; x++)
			for (int y = 6; y <= 8; y++) row_free = row_free && !gtMap_IsBlocked(map, x, y);
		if (row_free) {
			links[count++] = (TwinLink){{3.5, 7.5}, {7.5, 7.5}, 3.99, false};
			links[count++] = (TwinLink){{9.5, 7.5}, {13.5, 7.5}, 3.99, false};
		}
		while (count < 20) {
			TwinLink l = random_link(map, &rng, 0);
			double length = hypot(l.b.x - l.a.x, l.b.y - l.a.y);
			double hairs[4] = {-1e-5, 1e-3, -1e-6, 0};
			l.cost = fmax(0, length + hairs[count % 4]);
			l.one_way = false;
			links[count++] = l;
		}
		for (int k = 0; k < count; k++) index_links[k] = (gtEhlLink){links[k].a, links[k].b, links[k].cost};
		Twin tw;
		twin_make(&tw, map, links, count);
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + 2 * (round % 2);
		gtEhl* ehl;
		gtError err;
		if (gtEhl_BuildWithLinks(map, &def, index_links, count, &ehl, &err)) fail_msg("%s", err.message);
		gtEhlQuery* q;
		assert_int_equal(gtEhlQuery_Create(ehl, &q, &err), GT_OK);
		for (int i = 0; i < 240; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			if (i % 3 == 0) { // near a link's end, both
				TwinLink l = links[test_rng_int(&rng, count)];
				gtVec2 ns = {l.a.x + 0.375 * (test_rng_int(&rng, 5) - 2),
				             l.a.y + 0.28125 * (test_rng_int(&rng, 5) - 2)};
				gtVec2 nt = {l.b.x + 0.3125 * (test_rng_int(&rng, 5) - 2),
				             l.b.y + 0.234375 * (test_rng_int(&rng, 5) - 2)};
				if (gtMap_CheckPoint(map, ns) == GT_POINT_VALID) s = ns;
				if (gtMap_CheckPoint(map, nt) == GT_POINT_VALID) t = nt;
			} else if (i % 3 == 1 && row_free) { // past both ends of the two links on row 7
				double off[3] = {0, 0.1875, -0.1875};
				s = (gtVec2){1.5 - test_rng_int(&rng, 2), 7.5 + off[test_rng_int(&rng, 3)]};
				t = (gtVec2){15.5 + test_rng_int(&rng, 2), 7.5 + off[test_rng_int(&rng, 3)]};
				if (gtMap_CheckPoint(map, t) != GT_POINT_VALID) t = (gtVec2){15.5, 7.5};
			}
			double expect = twin_distance(&tw, s, t), d;
			assert_int_equal(gtEhl_Distance(q, s, t, &d, &err), GT_OK);
			assert_close(expect, d, "index with stairs", s, t);
		}
		gtEhlQuery_Destroy(q);
		gtEhl_Destroy(ehl);
		twin_free(&tw);
		gtMap_Destroy(map);
	}
}

// Links an index can leave out (gt_ehl_link_idle: the ends see each other and the link costs at
// least the line between them: stairs priced by their length) beside links it must keep that look
// alike: dearer than their line but through a wall, also across the wall that splits the map in
// two (a join between parts no walk joins), and cheaper than their line between ends that see
// each other. Distances equal the twin's; with only idle links, the index lists exactly the hubs
// and vias of the index without links (their ends are nobody's hubs or vias).
static void test_index_idle_links(void** state)
{
	(void)state;
	TestRng rng = {3234};
	for (int pass = 0; pass < 4; pass++) {
		gtMap* map = links_map(&rng, 30, 20, 10 + 4 * pass, pass % 2 == 0);
		TwinLink links[24];
		gtEhlLink index_links[24];
		int count = 0, idle = 12, tries = 0;
		while (count < 24 && tries++ < 100000) {
			TwinLink l = {test_random_point(map, &rng), {0, 0}, 0, false};
			int kind = count < idle ? 0 : 1 + count % 2; // 12 idle stairs, then the other two kinds in turn
			if (kind == 0) { // stairs: 1 to 3 cells (the twin's grid), 1 to 1.2 their length
				double angle = test_rng_int(&rng, 360) * acos(-1) / 180, length = 1 + test_rng_int(&rng, 9) * 0.25;
				l.b = (gtVec2){round((l.a.x + length * cos(angle)) * 64) / 64,
				               round((l.a.y + length * sin(angle)) * 64) / 64};
			} else {
				l.b = test_random_point(map, &rng);
			}
			if (gtMap_CheckPoint(map, l.b) != GT_POINT_VALID) continue;
			bool sees = test_brute_visible(map, l.a, l.b);
			double length = hypot(l.b.x - l.a.x, l.b.y - l.a.y);
			bool across = (l.a.x < 15) != (l.b.x < 15);
			if (kind == 0 || kind == 2 ? !sees : sees || (pass % 2 == 0 && count == idle && !across)) continue;
			l.cost = kind == 0 ? length * (1 + 0.1 * (count % 3)) : kind == 1 ? 1.5 * length : 0.5 * length;
			links[count] = l;
			index_links[count++] = (gtEhlLink){l.a, l.b, l.cost};
		}
		assert_int_equal(count, 24);
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + pass % 2;
		gtEhl *ehl, *plain, *stairs;
		gtError err;
		if (gtEhl_BuildWithLinks(map, &def, index_links, count, &ehl, &err)) fail_msg("%s", err.message);
		if (gtEhl_BuildWithLinks(map, &def, index_links, idle, &stairs, &err)) fail_msg("%s", err.message);
		if (gtEhl_Build(map, &def, &plain, &err)) fail_msg("%s", err.message);
		gtEhlStats a = gtEhl_GetStats(stairs), b = gtEhl_GetStats(plain);
		assert_int_equal(a.hub_entries, b.hub_entries);
		assert_int_equal(a.via_labels, b.via_labels);
		Twin tw, tw_stairs;
		twin_make(&tw, map, links, count);
		twin_make(&tw_stairs, map, links, idle);
		gtEhlQuery *q, *sq;
		assert_int_equal(gtEhlQuery_Create(ehl, &q, &err), GT_OK);
		assert_int_equal(gtEhlQuery_Create(stairs, &sq, &err), GT_OK);
		for (int i = 0; i < 160; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			if (i % 4 == 0) s = links[12 + i / 4 % 12].a, t = links[12 + i / 4 % 12].b; // across a kept link
			if (i % 4 == 1) s = links[i / 4 % 12].a;                                    // from an idle end
			double d;
			assert_int_equal(gtEhl_Distance(q, s, t, &d, &err), GT_OK);
			assert_close(twin_distance(&tw, s, t), d, "index with idle and kept links", s, t);
			assert_int_equal(gtEhl_Distance(sq, s, t, &d, &err), GT_OK);
			assert_close(twin_distance(&tw_stairs, s, t), d, "index with idle links", s, t);
		}
		gtEhlQuery_Destroy(q), gtEhlQuery_Destroy(sq);
		gtEhl_Destroy(ehl), gtEhl_Destroy(stairs), gtEhl_Destroy(plain);
		twin_free(&tw), twin_free(&tw_stairs);
		gtMap_Destroy(map);
	}
}

// Teleporters first (ehl_links.c early_ends): a link whose ends share a walking component without
// links and that costs at most half its straight length has an end among the first ranks, one per
// such link; tunnels (cost = length) and teleporters across a wall column no walk crosses keep the
// later schedule. Which links share a component: the twin without links. Distances, also from and
// to the ends, equal the twin's with the links.
static void test_index_teleporters_first(void** state)
{
	(void)state;
	TestRng rng = {3237};
	for (int round = 0; round < 4; round++) {
		gtMap* map = links_map(&rng, 32, 22, 10 + 3 * round, round % 2 == 1);
		Twin walk; // no links: a finite distance is a shared component
		twin_make(&walk, map, NULL, 0);
		TwinLink links[14];
		gtEhlLink index_links[14];
		bool first[14];
		int count = 0, firsts = 0, tries = 0;
		while (count < 14 && tries++ < 100000) {
			TwinLink l = {test_random_point(map, &rng), test_random_point(map, &rng), 0, false};
			double length = hypot(l.b.x - l.a.x, l.b.y - l.a.y);
			if (length < 6 || test_brute_visible(map, l.a, l.b)) continue; // never idle
			l.cost = count < 10 ? count % 2 : length;                      // teleporters of cost 0 and 1, then tunnels
			first[count] = count < 10 && isfinite(twin_distance(&walk, l.a, l.b));
			firsts += first[count];
			links[count] = l;
			index_links[count++] = (gtEhlLink){l.a, l.b, l.cost};
		}
		assert_int_equal(count, 14);
		if (round % 2 == 1) assert_true(firsts < 10); // some teleporter crosses the wall column
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + round % 3;
		gtEhl* ehl;
		gtError err;
		// The labelling order, before the ends of links that shorten are ranked last (test_links_ends.c
		// checks the index as built by default against the oracle).
		gtStatus built = gt_ehl_build_with_links(map, &def, index_links, count, false, &ehl, &err);
		if (built) fail_msg("%s", err.message);
		int32_t* rank_of = malloc((size_t)ehl->n * sizeof *rank_of);
		for (int r = 0; r < ehl->n; r++) rank_of[ehl->vertex_of[r]] = r;
		for (int k = 0; k < count; k++) {
			int a = rank_of[ehl->corners + 2 * k], b = rank_of[ehl->corners + 2 * k + 1], least = a < b ? a : b;
			if (first[k] != (least < firsts))
				fail_msg("round %d link %d (cost %g, first %d): its ends rank %d and %d, the first %d ranks hold the "
				         "teleporters",
				         round, k, links[k].cost, first[k], a, b, firsts);
		}
		free(rank_of);
		Twin tw;
		twin_make(&tw, map, links, count);
		gtEhlQuery* q;
		assert_int_equal(gtEhlQuery_Create(ehl, &q, &err), GT_OK);
		for (int i = 0; i < 120; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			if (i % 3 == 0) s = i % 2 ? links[i / 3 % count].a : links[i / 3 % count].b;
			double d;
			assert_int_equal(gtEhl_Distance(q, s, t, &d, &err), GT_OK);
			assert_close(twin_distance(&tw, s, t), d, "teleporters first", s, t);
		}
		gtEhlQuery_Destroy(q);
		gtEhl_Destroy(ehl);
		twin_free(&tw), twin_free(&walk);
		gtMap_Destroy(map);
	}
}

// Floors apart (gt_hub_labels_build_from's early ends): two copies of a floor side by side, stairs
// from points of floor 0 to the same points of floor 1 (each a link no walk along a floor matches:
// a wall column parts the floors), and in some rounds teleporters of cost 0 and 1 across the floors
// and within one. One end of every link is ranked early, and no later hub labels a vertex of
// another floor: every corner's entry for a hub of the other floor is for a hub ranked before the
// last of those ends. Distances within and across floors equal the twin's.
static void test_index_floors_apart(void** state)
{
	(void)state;
	TestRng rng = {3235};
	for (int round = 0; round < 4; round++) {
		enum { W = 26, H = 18 };
		unsigned char cells[2 * W * H];
		for (int i = 0; i < W * H; i++) cells[i] = cells[W * H + i] = test_rng_int(&rng, 100) < 14 + 2 * round;
		gtMap* map;
		gtError err;
		assert_int_equal(gtMap_FromFloors(2, W, H, cells, &map, &err), GT_OK);
		TwinLink links[16];
		gtEhlLink index_links[16];
		int count = 0;
		while (count < 16) {
			gtVec2 a = test_random_point(map, &rng);
			if (a.x >= W) continue;
			TwinLink l = {a, {a.x + W + 1, a.y}, 1 + 0.25 * test_rng_int(&rng, 9), false};
			if (round % 2 == 1 && count >= 12) { // teleporters: across the floors, then within floor 0
				l.b = test_random_point(map, &rng), l.cost = count % 2;
				if ((l.b.x > W) != (count < 14)) continue;
			}
			links[count] = l;
			index_links[count++] = (gtEhlLink){l.a, l.b, l.cost};
		}
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + round % 2;
		gtEhl* ehl;
		// The labels' own order (the ends of links that shorten are ranked last after the labels:
		// test_links_ends.c), whose searches stop at the ends ranked early.
		gtStatus built = gt_ehl_build_with_links(map, &def, index_links, count, false, &ehl, &err);
		if (built) fail_msg("%s", err.message);
		// The rank by which every link has an end ranked, and the corners' entries of the other floor.
		int n = ehl->n, last = 0;
		int32_t* rank_of = malloc((size_t)n * sizeof *rank_of);
		for (int r = 0; r < n; r++) rank_of[ehl->vertex_of[r]] = r;
		for (int k = 0; k < count; k++) {
			int a = rank_of[ehl->corners + 2 * k], b = rank_of[ehl->corners + 2 * k + 1];
			last = (a < b ? a : b) > last ? (a < b ? a : b) : last;
		}
		assert_true(last < GT_HUB_LABELS_EARLY_FROM + GT_HUB_LABELS_EARLY_EVERY * count);
		int across = 0;
		for (int v = 0; v < ehl->corners; v++)
			for (uint32_t k = ehl->label_offset[v]; k < ehl->label_offset[v + 1]; k++) {
				int hub = (int)ehl->label_hub[k];
				if ((ehl->points[v].x > W) == (ehl->points[ehl->vertex_of[hub]].x > W)) continue;
				across++;
				if (hub > last)
					fail_msg("round %d corner %d (%g %g) holds hub rank %d = vertex %d (%g %g) dist %g (ends by %d, "
					         "corners %d)",
					         round, v, ehl->points[v].x, ehl->points[v].y, hub, (int)ehl->vertex_of[hub],
					         ehl->points[ehl->vertex_of[hub]].x, ehl->points[ehl->vertex_of[hub]].y, ehl->label_dist[k],
					         last, ehl->corners);
			}
		assert_true(across > 0);
		free(rank_of);
		Twin tw;
		twin_make(&tw, map, links, count);
		gtEhlQuery* q;
		assert_int_equal(gtEhlQuery_Create(ehl, &q, &err), GT_OK);
		for (int i = 0; i < 120; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			if (i % 2 == 0 && (s.x > W) != (t.x > W)) t = (gtVec2){t.x > W ? t.x - W - 1 : t.x + W + 1, t.y};
			if (gtMap_CheckPoint(map, t) != GT_POINT_VALID) continue;
			double d;
			assert_int_equal(gtEhl_Distance(q, s, t, &d, &err), GT_OK);
			assert_close(twin_distance(&tw, s, t), d, "floors apart", s, t);
		}
		gtEhlQuery_Destroy(q);
		gtEhl_Destroy(ehl);
		twin_free(&tw);
		gtMap_Destroy(map);
	}
}

// The table over an index built without the links, on two floors (nav_links_table.c, parts): stairs
// to the same point of the other floor never shorten a walk within a floor, so such a walk is one
// index query; a teleporter within floor 0 (odd rounds) does, so floor 0's walks still price the
// ends while floor 1's need not; walks across the floors price the ends of the two floors only. A
// wall splits floor 1 in some rounds (a third part, reached through floor 0 only). Distances and
// paths against the twin, also from the ends themselves and from grid points.
static void test_table_floors_by_part(void** state)
{
	(void)state;
	TestRng rng = {3236};
	for (int round = 0; round < 6; round++) {
		enum { W = 24, H = 16 };
		unsigned char cells[2 * W * H];
		for (int i = 0; i < W * H; i++) cells[i] = cells[W * H + i] = test_rng_int(&rng, 100) < 12 + 2 * round;
		if (round >= 2)
			for (int y = 0; y < H; y++) cells[W * H + y * W + W / 2] = 1; // floor 1 split in two
		gtMap* map;
		gtError err;
		assert_int_equal(gtMap_FromFloors(2, W, H, cells, &map, &err), GT_OK);
		gtNav* nav;
		gtNavQuery* q;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + round % 3;
		assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK); // without links
		TwinLink links[12];
		int count = 0;
		while (count < 10) {
			gtVec2 a = test_random_point(map, &rng);
			TwinLink l = {a, {a.x + W + 1, a.y}, 0.5 + 0.25 * test_rng_int(&rng, 9), count % 5 == 4};
			if (a.x >= W || gtMap_CheckPoint(map, l.b) != GT_POINT_VALID) continue;
			links[count++] = l;
		}
		if (round % 2 == 1) { // a teleporter within floor 0, between far points
			gtVec2 a = {0, 0}, b = {0, 0};
			while (!(a.x < W && b.x < W && hypot(b.x - a.x, b.y - a.y) > W / 2))
				a = test_random_point(map, &rng), b = test_random_point(map, &rng);
			links[count++] = (TwinLink){a, b, round % 4 == 1 ? 0 : 1, false};
		}
		for (int k = 0; k < count; k++) add(nav, links[k]);
		Twin tw, plain;
		twin_make(&tw, map, links, count);
		twin_make(&plain, map, NULL, 0);
		int shorter = 0, across = 0;
		for (int i = 0; i < 150; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			if (i % 3 == 0) t = (gtVec2){t.x > W ? t.x - W - 1 : t.x + W + 1, t.y}; // the other floor
			if (i % 5 == 0) s = (gtVec2){floor(s.x), floor(s.y)};                   // a grid point
			if (i % 11 == 0) s = links[i % count].b;
			if (gtMap_CheckPoint(map, s) != GT_POINT_VALID || gtMap_CheckPoint(map, t) != GT_POINT_VALID) continue;
			double expect = twin_distance(&tw, s, t), without = twin_distance(&plain, s, t), d;
			assert_int_equal(gtNavQuery_Distance(q, s, t, &d, &err), GT_OK);
			assert_close(expect, d, "table by part", s, t);
			if (i % 4 == 0) check_path(nav, q, s, t, expect);
			shorter += expect < without && !isinf(without), across += isinf(without) && !isinf(expect);
		}
		assert_true(across > 0);                      // walks across the floors
		if (round % 2 == 1) assert_true(shorter > 0); // the teleporter shortened walks within floor 0
		twin_free(&tw), twin_free(&plain);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// Distances and paths of `count` links (the enabled ones of `links`) against the twin.
static void check_against_twin(gtNav* nav, gtNavQuery* q, const gtMap* map, TestRng* rng, const TwinLink* links,
                               const bool* enabled, int count, int pairs)
{
	TwinLink on[16];
	int n = 0;
	for (int k = 0; k < count; k++)
		if (enabled[k]) on[n++] = links[k];
	Twin tw;
	twin_make(&tw, map, on, n);
	gtError err;
	for (int i = 0; i < pairs; i++) {
		gtVec2 s = test_random_point(map, rng), t = test_random_point(map, rng);
		if (i % 7 == 0 && n > 0) s = on[i % n].a;
		double expect = twin_distance(&tw, s, t), d;
		assert_int_equal(gtNavQuery_Distance(q, s, t, &d, &err), GT_OK);
		assert_close(expect, d, "distance", s, t);
		if (i % 3 == 0) check_path(nav, q, s, t, expect);
	}
	twin_free(&tw);
}

// A nav whose index knows its links (gtNav_BuildIndexWithLinks) answers with it while exactly those
// links are enabled, and stays exact when a one-way link is added, an indexed link is disabled or
// removed, or every link is off.
static void test_nav_index_knows_links(void** state)
{
	(void)state;
	TestRng rng = {3233};
	for (int round = 0; round < 4; round++) {
		gtMap* map = links_map(&rng, 30, 24, 12 + 3 * round, round % 2 == 1);
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		TwinLink links[16];
		gtLinkId ids[16];
		bool enabled[16];
		int count = 4 + round;
		for (int k = 0; k < count; k++) {
			links[k] = random_link(map, &rng, k % 4);
			links[k].one_way = false;
			ids[k] = add(nav, links[k]);
			enabled[k] = true;
		}
		gtEhlDef def = gtEhl_DefaultDef();
		def.cell_size = 1 + round % 3;
		assert_int_equal(gtNav_BuildIndexWithLinks(nav, &def, &err), GT_OK);
		assert_int_equal(gtNav_Method(nav), GT_NAV_EHL);
		assert_int_equal(gtEhl_Links(gtNav_Index(nav), NULL), count);
		check_against_twin(nav, q, map, &rng, links, enabled, count, 40);
		// Once the index has answered, a bad point still gets the nav's message, and another method
		// chosen answers with the links (not the index's query left bound).
		double d;
		assert_int_equal(gtNavQuery_Distance(q, (gtVec2){-1, 2}, links[0].a, &d, &err), GT_ERR_INVALID_POINT);
		assert_non_null(strstr(err.message, "source (-1, 2)"));
		assert_true(isinf(d));
		assert_int_equal(gtNav_SetMethod(nav, GT_NAV_ORACLE, &err), GT_OK);
		check_against_twin(nav, q, map, &rng, links, enabled, count, 10);
		assert_int_equal(gtNav_SetMethod(nav, GT_NAV_EHL, &err), GT_OK);
		check_against_twin(nav, q, map, &rng, links, enabled, count, 10);
		// A one-way drop the index does not know.
		links[count] = random_link(map, &rng, 2);
		links[count].one_way = true;
		ids[count] = add(nav, links[count]);
		enabled[count] = true;
		check_against_twin(nav, q, map, &rng, links, enabled, count + 1, 30);
		assert_int_equal(gtNav_RemoveLink(nav, ids[count], &err), GT_OK);
		// An indexed link off: the index's distances are no walks any more.
		assert_int_equal(gtNav_EnableLink(nav, ids[0], false, &err), GT_OK);
		enabled[0] = false;
		check_against_twin(nav, q, map, &rng, links, enabled, count, 30);
		assert_int_equal(gtNav_EnableLink(nav, ids[0], true, &err), GT_OK);
		enabled[0] = true;
		check_against_twin(nav, q, map, &rng, links, enabled, count, 30);
		for (int k = 0; k < count; k++) assert_int_equal(gtNav_EnableLink(nav, ids[k], false, &err), GT_OK);
		for (int k = 0; k < count; k++) enabled[k] = false;
		check_against_twin(nav, q, map, &rng, links, enabled, count, 30);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// An index that knows links, then a wall built: stale (the oracle answers for it, not the index's
// paths checked), and the background rebuild builds it knowing the links again.
static void test_rebuild_keeps_links(void** state)
{
	(void)state;
	TestRng rng = {77};
	gtMap* map = links_map(&rng, 30, 24, 12, false);
	gtNav* nav;
	gtNavQuery* q;
	gtError err;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	TwinLink links[4];
	bool enabled[4];
	for (int k = 0; k < 4; k++) {
		links[k] = random_link(map, &rng, k % 4);
		links[k].one_way = false;
		add(nav, links[k]);
		enabled[k] = true;
	}
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 2;
	assert_int_equal(gtNav_BuildIndexWithLinks(nav, &def, &err), GT_OK);
	int x, y;
	bool clear;
	do { // a free cell two cells from every link end
		x = test_rng_int(&rng, gtMap_Width(map)), y = test_rng_int(&rng, gtMap_Height(map));
		clear = !gtMap_IsBlocked(map, x, y);
		for (int k = 0; k < 4 && clear; k++)
			clear = fabs(links[k].a.x - x) > 2 && fabs(links[k].a.y - y) > 2 && fabs(links[k].b.x - x) > 2 &&
			        fabs(links[k].b.y - y) > 2;
	} while (!clear);
	assert_int_equal(gtNav_SetBlocked(nav, x, y, x, y, true, &err), GT_OK);
	assert_int_equal(gtNav_IndexState(nav), GT_NAV_INDEX_STALE);
	check_against_twin(nav, q, map, &rng, links, enabled, 4, 20);
	gtNav_WaitForRebuild(nav);
	assert_int_equal(gtNav_IndexState(nav), GT_NAV_INDEX_EXACT);
	assert_int_equal(gtEhl_Links(gtNav_Index(nav), NULL), 4);
	check_against_twin(nav, q, map, &rng, links, enabled, 4, 40);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// Two floors (one random floor twice, as gtMap_FromFloors lays them out) joined by stairs from a cell
// to its copy (cost 0 to 3), with teleporters of cost 0 and 1, one-way drops and links cheaper and
// dearer than their line: nearest queries without words walk the leaves in rings without the links'
// search until their events reach the reach table's bound of the least reach from q (ring_walk),
// then up to the search's least reach, then with sources. Queries by the stairs, objects by their
// ends on both floors (where a stair's walk falls just past that bound), k up to more objects than
// q reaches: every answer equals, to the bit, brute force over the same distance. (Raising the
// bound by one map unit fails here.)
static void test_world_rings_floors_lazy(void** state)
{
	(void)state;
	TestRng rng = {3232};
	for (int round = 0; round < 6; round++) {
		enum { W = 30, H = 20, STAIRS = 10, LINKS = 14, OBJECTS = 300, K = 6 };
		unsigned char cells[2 * W * H];
		for (int i = 0; i < W * H; i++) cells[i] = cells[W * H + i] = test_rng_int(&rng, 100) < 8;
		gtMap* map;
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtMap_FromFloors(2, W, H, cells, &map, &err), GT_OK);
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		bool index = round % 2 == 1, split = round % 3 == 2; // split: no link but stairs, one way up
		TwinLink links[LINKS];
		int count = 0;
		for (int k = 0; k < STAIRS; k++) {
			gtVec2 a = test_random_point(map, &rng);
			if (a.x > W) a.x -= W + 1;
			a.x = floor(a.x) + 0.5, a.y = floor(a.y) + 0.5;
			if (gtMap_CheckPoint(map, a) != GT_POINT_VALID) continue;
			links[count++] = (TwinLink){a, {a.x + W + 1, a.y}, test_rng_int(&rng, 4), split && !index};
		}
		for (int k = 0; k < LINKS - STAIRS && !split; k++) {
			links[count] = random_link(map, &rng, k % 4);
			links[count++].one_way &= !index;
		}
		Twin tw;
		gtWorld* world = links_world(nav, map, links, count, 2 + round % 3, &tw);
		gtVec2 at[OBJECTS];
		gtObjectId all[OBJECTS];
		for (int i = 0; i < OBJECTS; i++) {
			gtVec2 end = i % 2 ? links[i % count].b : links[i % count].a;
			gtVec2 by = {end.x + 0.5 * (i % 7) - 1.5, end.y + 0.25 * (i % 5)};
			at[i] = i % 3 == 0 && gtMap_CheckPoint(map, by) == GT_POINT_VALID ? by : test_random_point(map, &rng);
			assert_int_equal(gtWorld_Add(world, at[i], NULL, 0, &all[i], &err), GT_OK);
		}
		if (index) {
			gtEhlDef def = gtEhl_DefaultDef();
			def.cell_size = 1 + round % 3;
			assert_int_equal(gtNav_BuildIndexWithLinks(nav, &def, &err), GT_OK);
		}
		gtDistance d = test_world_distance(q);
		assert_non_null(d.shortcuts);
		for (int i = 0; i < 80; i++) {
			gtVec2 end = i % 2 ? links[i / 2 % count].a : links[i / 2 % count].b;
			gtVec2 p = {end.x + 0.5 * (i % 9) - 2, end.y + 0.5 * (i % 4) - 0.75};
			if (i % 4 == 3 || gtMap_CheckPoint(map, p) != GT_POINT_VALID) p = test_random_point(map, &rng);
			int k = i % 10 == 9 ? OBJECTS + 5 : 1 + i % K;
			gtQuery query = gtQuery_Default(p);
			query.k = k;
			static gtObjectId ids[OBJECTS + 5], want_ids[OBJECTS];
			static double got[OBJECTS + 5], want[OBJECTS];
			int found, want_found;
			assert_int_equal(gtWorld_Nearest(world, &query, d, ids, got, k, &found, NULL, &err), GT_OK);
			brute_nearest(d, p, all, at, OBJECTS, k, want_ids, want, &want_found);
			assert_int_equal(found, want_found);
			// Within an ulp: a line q sees is hypot, which an index knowing links on floors may miss
			// by one (round 5, the index's own answer, with or without the plain walk first).
			for (int j = 0; j < found; j++)
				if (!(ids[j] == want_ids[j] && fabs(got[j] - want[j]) <= 1e-12 * (1 + want[j])))
					fail_msg("round %d query %d (%g, %g) k %d: #%d is %d at %.17g, brute %d at %.17g", round, i, p.x,
					         p.y, k, j, (int)ids[j], got[j], (int)want_ids[j], want[j]);
			if (i % 8 == 0 && found > 0) { // the last one's distance against the twin's
				int o = 0;
				while (all[o] != ids[found - 1]) o++;
				assert_close(twin_distance(&tw, p, at[o]), got[found - 1], "nearest on floors", p, at[o]);
			}
		}
		twin_free(&tw);
		gtWorld_Destroy(world);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

// gtShortcuts.next_begin: each way's list holds every way cheaper than its line once, in order of
// distance from the way's exit plus cost.
static void next_lists_check(const gtShortcuts* l)
{
	assert_non_null(l->next_begin);
	static char seen[1024];
	assert_true(l->count <= 1024);
	for (int i = 0; i < l->count; i++) {
		memset(seen, 0, sizeof seen);
		double last = -INFINITY;
		int shortening = 0;
		for (int w = 0; w < l->count; w++) {
			double lx = l->exit[w].x - l->entrance[w].x, ly = l->exit[w].y - l->entrance[w].y, c = l->cost[w];
			shortening += c * c < lx * lx + ly * ly;
		}
		assert_int_equal(l->next_begin[i + 1] - l->next_begin[i], shortening);
		for (int k = l->next_begin[i]; k < l->next_begin[i + 1]; k++) {
			int w = l->next_way[k];
			double lx = l->exit[w].x - l->entrance[w].x, ly = l->exit[w].y - l->entrance[w].y, c = l->cost[w];
			assert_true(c * c < lx * lx + ly * ly && !seen[w]);
			seen[w] = 1;
			double dx = l->entrance[w].x - l->exit[i].x, dy = l->entrance[w].y - l->exit[i].y,
			       reach = sqrt(dx * dx + dy * dy) + c;
			assert_true(reach >= last);
			last = reach;
		}
	}
}

// gtShortcuts.first_way at p in `block`: its bounds rise and stay below the reach from p of the way
// listed there, the last below every way not listed.
static void first_lists_check(const gtShortcuts* l, int64_t block, gtVec2 p)
{
	assert_non_null(l->first_way);
	const int32_t* listed = l->first_way + block * l->first_listed;
	const float* lows = l->first_reach + block * (l->first_listed + 1);
	for (int w = 0; w < l->count; w++) {
		double lx = l->exit[w].x - l->entrance[w].x, ly = l->exit[w].y - l->entrance[w].y, c = l->cost[w];
		if (c * c >= lx * lx + ly * ly) continue;
		double dx = l->entrance[w].x - p.x, dy = l->entrance[w].y - p.y, reach = sqrt(dx * dx + dy * dy) + c;
		int k = 0;
		while (k < l->first_listed && listed[k] != w) k++;
		assert_true(lows[k] <= reach);
	}
	for (int k = 0; k < l->first_listed; k++) assert_true(lows[k] <= lows[k + 1]);
}

// gtShortcuts.reach_begin: wherever a block lists ways, the least reach over them (as the world's
// search reads it: line to the entrance + cost) is the least over every way cheaper than its line,
// bit for bit, for points all over the block, its edges and corners too. Blocks of 4 units (a map
// 401 wide: two floors of 200), stairs to the same cell and teleporters of mixed costs; most
// points must find a list (none listed would pass trivially). The last round is a pad of twelve
// one-way teleporters (every block has more ways than a list holds: under AddressSanitizer, the
// lists once overran their array there).
static void test_shortcuts_reach_lists(void** state)
{
	(void)state;
	TestRng rng = {3233};
	for (int round = 0; round < 4; round++) {
		enum { W = 200, H = 120, LINKS = 40 };
		static unsigned char cells[2 * W * H];
		for (int i = 0; i < W * H; i++) cells[i] = cells[W * H + i] = test_rng_int(&rng, 100) < 10;
		cells[W * H + (H - 1) * W + W - 1] = 0; // the pad's square, the last of the second floor
		gtMap* map;
		gtNav* nav;
		gtNavQuery* q;
		gtError err;
		assert_int_equal(gtMap_FromFloors(2, W, H, cells, &map, &err), GT_OK);
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		for (int k = 0; k < (round == 3 ? 12 : 0); k++) { // the pad: entrances in one square, cost 0
			TwinLink l = random_link(map, &rng, 0);
			l.a = (gtVec2){2 * W + 0.1 + 0.07 * k, H - 0.5};
			l.one_way = true; // every block's nearest ways are the pad's twelve
			assert_int_equal(gtMap_CheckPoint(map, l.a), GT_POINT_VALID);
			add(nav, l);
		}
		for (int k = 0; k < (round == 3 ? 0 : LINKS); k++) {
			TwinLink l = random_link(map, &rng, k % 4);
			if (k % 2 == 0) { // a stair up from a cell's centre to the same cell's, cost 0-3
				l.a.x = floor(l.a.x > W ? l.a.x - W - 1 : l.a.x) + 0.5, l.a.y = floor(l.a.y) + 0.5;
				l.b = (gtVec2){l.a.x + W + 1, l.a.y};
				l.cost = 0.5 * test_rng_int(&rng, 7);
				if (gtMap_CheckPoint(map, l.a) != GT_POINT_VALID) continue;
			}
			add(nav, l);
		}
		gtDistance d = test_world_distance(q);
		const gtShortcuts* l = d.shortcuts;
		assert_non_null(l);
		assert_non_null(l->reach_begin);
		assert_true(l->block >= 4);
		next_lists_check(l);
		int listed = 0, points = 0;
		for (int i = 0; i < 4000; i++, points++) {
			gtVec2 p = {test_rng_int(&rng, 2 * W + 1) + test_rng_int(&rng, 1000) / 1000.0,
			            test_rng_int(&rng, H) + test_rng_int(&rng, 1000) / 1000.0};
			if (i % 4 == 1) p.x = floor(p.x / l->block) * l->block;                            // a block's left edge
			if (i % 8 == 2) p.y = floor(p.y / l->block) * l->block + l->block * (1 - 0x1p-40); // its bottom
			double bx = p.x / l->block, by = p.y / l->block;
			if (!(bx < l->columns && by < l->rows)) continue;
			int64_t block = (int64_t)by * l->columns + (int64_t)bx;
			double least = INFINITY, over_list = INFINITY;
			for (int w = 0; w < l->count; w++) {
				double lx = l->exit[w].x - l->entrance[w].x, ly = l->exit[w].y - l->entrance[w].y, c = l->cost[w];
				if (c * c >= lx * lx + ly * ly) continue;
				double dx = l->entrance[w].x - p.x, dy = l->entrance[w].y - p.y, reach = sqrt(dx * dx + dy * dy) + c;
				if (reach < least) least = reach;
			}
			for (int k = l->reach_begin[block]; k < l->reach_begin[block + 1]; k++) {
				int w = l->reach_way[k];
				double dx = l->entrance[w].x - p.x, dy = l->entrance[w].y - p.y,
				       reach = sqrt(dx * dx + dy * dy) + l->cost[w];
				if (reach < over_list) over_list = reach;
			}
			first_lists_check(l, block, p);
			if (l->reach_begin[block] == l->reach_begin[block + 1]) continue; // none listed: the search
			listed++;
			if (over_list != least)
				fail_msg("round %d point (%.17g, %.17g): listed ways reach %.17g, every way %.17g", round, p.x, p.y,
				         over_list, least);
			assert_true(l->reach_gap[block] <= least);
		}
		if (round < 3) assert_true(listed > points / 2);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(map);
	}
}

TEST_MAIN("links", test_index_knows_links, test_index_links_threads, test_index_cells_one_pass,
          test_index_cells_one_pass_memory, test_shortcuts_reach_lists, test_world_sight_and_teleporters,
          test_world_rings_through_links, test_world_rings_floors_lazy, test_world_rings_gap_through_links,
          test_world_stairs, test_world_stairs_sight, test_index_links_a_hair_below, test_index_idle_links,
          test_index_floors_apart, test_index_teleporters_first, test_table_floors_by_part, test_nav_index_knows_links,
          test_handles, test_distances_match_twin, test_world_queries, test_edits_and_toggles, test_advance,
          test_reachability, test_floors, test_rebuild_keeps_links)
