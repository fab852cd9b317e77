// The ends of links that shorten ranked last among an index's hubs (ehl/ehl_end_ranks.h), and the
// query that merges their block only when a walk through such an end (at least end gap(s) + end
// gap(t) long) can beat its best path (ehl/ehl_query.c: price_hubs). The ranks: the block is
// exactly those ends, in a built and in a loaded index. The skip: on maps with zero-cost
// teleporters across the map (and links of cost 1, cheaper and dearer than their line, priced at
// their length, to themselves), every answer is the double the full merge gives (a query object
// told there is no block) through DistanceTo, DistanceBelow (limits as a kNN query's),
// DistanceBelowHidden and target sides, from sources ranked and not, and equals the oracle with
// the same links; both skipped blocks and blocks that give the answer must occur.
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "ehl/ehl_links.h"
#include "ehl/ehl_query.h"

enum { MAX_LINKS = 32 };

// A link that shortens: it costs less than the line between its ends (squared, as docs/links.md
// defines it; stairs priced at their length are on the line and must not count).
static bool shortens(gtEhlLink l)
{
	double dx = l.b.x - l.a.x, dy = l.b.y - l.a.y;
	return l.cost * l.cost < dx * dx + dy * dy;
}

// A random free point whose x lies in [x0, x1) (any free point after many misses).
static gtVec2 point_between(const gtMap* m, TestRng* rng, double x0, double x1)
{
	gtVec2 p = test_random_point(m, rng);
	for (int tries = 0; tries < 200 && !(p.x >= x0 && p.x < x1); tries++) p = test_random_point(m, rng);
	return p;
}

// Teleporters of cost 0 from the left third to the right third, then links of cost 1, cheaper and
// dearer than their line, stairs at their length (never shorter) and a link to itself.
static int make_links(const gtMap* m, TestRng* rng, gtEhlLink* links, int teleporters)
{
	double w = gtMap_Width(m);
	int count = 0;
	for (int k = 0; k < teleporters; k++)
		links[count++] = (gtEhlLink){point_between(m, rng, 0, w / 3), point_between(m, rng, 2 * w / 3, w), 0};
	for (int kind = 0; kind < 4; kind++)
		for (int k = 0; k < 2; k++) {
			gtVec2 a = test_random_point(m, rng), b = test_random_point(m, rng);
			double length = hypot(b.x - a.x, b.y - a.y);
			double cost = kind == 0 ? 1 : kind == 1 ? 0.3 * length : kind == 2 ? 2 * length + 1 : length;
			links[count++] = (gtEhlLink){a, b, cost};
		}
	gtVec2 p = test_random_point(m, rng);
	links[count++] = (gtEhlLink){p, p, 0};
	return count;
}

static gtEhl* build(const gtMap* m, const gtEhlLink* links, int count, int cell, int threads)
{
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = cell;
	def.threads = threads;
	gtEhl* e;
	gtError err;
	if (gtEhl_BuildWithLinks(m, &def, links, count, &e, &err)) fail_msg("%s", err.message);
	return e;
}

// The same map's index in the labels' own order (the ends not ranked last), built on a thread of
// its own while the caller builds the default one: the order is the build's, not the process'.
typedef struct PlainBuild {
	const gtMap* m;
	const gtEhlLink* links;
	int count, cell;
	gtEhl* e;
	gtStatus st;
} PlainBuild;
static void* plain_build(void* arg)
{
	PlainBuild* b = arg;
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = b->cell;
	def.threads = 1;
	gtError err;
	b->st = gt_ehl_build_with_links(b->m, &def, b->links, b->count, false, &b->e, &err);
	return NULL;
}

// The block of the last ranks holds exactly the ends of the links that shorten; every label still
// goes up by rank; a query object finds the block where it starts.
static void check_ranks(const gtEhl* e, const gtEhlLink* links, int count, const char* what)
{
	int ends = 0;
	for (int k = 0; k < count; k++) ends += 2 * shortens(links[k]);
	assert_true(ends > 0);
	int n = e->n, from = n - ends;
	for (int r = 0; r < n; r++) {
		int v = (int)e->vertex_of[r];
		bool end = v >= e->corners && shortens(links[(v - e->corners) / 2]);
		if (end != (r >= from))
			fail_msg("%s: rank %d of %d is vertex %d, %san end of a link that shortens", what, r, n, v,
			         end ? "" : "not ");
	}
	for (int v = 0; v < n; v++)
		for (uint32_t k = e->label_offset[v] + 1; k < e->label_offset[v + 1]; k++)
			assert_true(e->label_hub[k] > e->label_hub[k - 1]);
	gtEhlQuery* q;
	gtError err;
	assert_int_equal(gtEhlQuery_Create(e, &q, &err), GT_OK);
	assert_int_equal((int)q->end_from, from);
	gtEhlQuery_Destroy(q);
}

// The index with the ends ranked last holds the same label entries (hubs as vertices, parents,
// distances) and as many hubs and vias as the one in the labels' own order.
static void check_same_entries(const gtEhl* e, const gtEhl* plain)
{
	assert_int_equal(e->n, plain->n);
	assert_true(e->label_count == plain->label_count && e->hub_count == plain->hub_count &&
	            e->via_count == plain->via_count);
	int32_t* rank_of = malloc((size_t)e->n * sizeof *rank_of);
	assert_non_null(rank_of);
	for (int r = 0; r < e->n; r++) rank_of[e->vertex_of[r]] = r;
	for (int v = 0; v < e->n; v++) {
		assert_int_equal(e->label_offset[v + 1] - e->label_offset[v],
		                 plain->label_offset[v + 1] - plain->label_offset[v]);
		for (uint32_t k = plain->label_offset[v]; k < plain->label_offset[v + 1]; k++) {
			int64_t at = gt_ehl_label_entry(e, v, rank_of[plain->vertex_of[plain->label_hub[k]]]);
			if (at < 0 || e->label_parent[at] != plain->label_parent[k] || e->label_dist[at] != plain->label_dist[k])
				fail_msg("vertex %d: the entry for hub vertex %d differs", v,
				         (int)plain->vertex_of[plain->label_hub[k]]);
		}
	}
	free(rank_of);
}

static void test_ends_ranked_last(void** state)
{
	(void)state;
	TestRng rng = {3240};
	int plain_ranked = 0; // rounds whose labels' order already ranked the ends last
	for (int round = 0; round < 4; round++) {
		gtMap* m = test_random_map(&rng, 36 + 4 * round, 24, 12 + 2 * round);
		gtEhlLink links[MAX_LINKS];
		int count = make_links(m, &rng, links, 4 + 2 * round);
		gtEhl* e = build(m, links, count, 1 + round, 1 + round % 2);
		char what[64];
		snprintf(what, sizeof what, "round %d, g=%d", round, 1 + round);
		check_ranks(e, links, count, what);
		PlainBuild plain_at = {m, links, count, 1 + round, NULL, GT_OK};
		pthread_t thread;
		assert_int_equal(pthread_create(&thread, NULL, plain_build, &plain_at), 0);
		gtEhl* again = build(m, links, count, 1 + round, 1); // meanwhile: still ranked last
		assert_int_equal(pthread_join(thread, NULL), 0);
		assert_int_equal(plain_at.st, GT_OK);
		gtEhl* plain = plain_at.e;
		check_ranks(again, links, count, what);
		assert_memory_equal(again->vertex_of, e->vertex_of, (size_t)e->n * sizeof *e->vertex_of);
		gtEhl_Destroy(again);
		check_same_entries(e, plain);
		plain_ranked += memcmp(plain->vertex_of, e->vertex_of, (size_t)e->n * sizeof *e->vertex_of) == 0;
		gtEhl_Destroy(plain);
		char path[64];
		snprintf(path, sizeof path, "test_links_ends_%d.ehl", round);
		gtError err;
		assert_int_equal(gtEhl_Save(e, path, &err), GT_OK);
		gtEhl* loaded;
		if (gtEhl_Load(m, path, &loaded, &err)) fail_msg("%s", err.message);
		remove(path);
		check_ranks(loaded, links, count, what);
		assert_memory_equal(loaded->vertex_of, e->vertex_of, (size_t)e->n * sizeof *e->vertex_of);
		gtEhl_Destroy(loaded);
		gtEhl_Destroy(e);
		gtMap_Destroy(m);
	}
	if (plain_ranked == 4) fail_msg("the labels' own order ranked the ends last in every round: no switch");
}

// What the skip test counts: answers the end block could not beat (skipped), answers below the
// end gaps' sum's reach (the block priced), and pricings from a ranked source.
typedef struct Tally {
	int skipped, priced, ranked, calls;
} Tally;

static void check_same(double got, double want, double limit, const char* what, gtVec2 s, gtVec2 t)
{
	if (want < limit ? got != want : !(got >= limit))
		fail_msg("%s: (%.17g, %.17g) -> (%.17g, %.17g) below %.17g gives %.17g, the full merge %.17g", what, s.x, s.y,
		         t.x, t.y, limit, got, want);
}

// From s to each of `count` targets: the oracle's distance, the skipping object's and the merge's
// through every call, then the sides.
static void check_source(gtEhlQuery* q, gtEhlQuery* merge, gtNavQuery* oracle, const gtMap* m, gtVec2 s,
                         const gtVec2* targets, int count, void* const* sides, TestRng* rng, Tally* tally)
{
	const gtEhl* e = q->ehl;
	gtError err;
	assert_int_equal(gtEhlQuery_SetSource(q, s, &err), GT_OK);
	assert_int_equal(gtEhlQuery_SetSource(merge, s, &err), GT_OK);
	double kth = INFINITY;
	for (int i = 0; i < count; i++) {
		gtVec2 t = targets[i];
		double exact, d = gtEhlQuery_DistanceTo(q, t), full = gtEhlQuery_DistanceTo(merge, t);
		assert_int_equal(gtNavQuery_Distance(oracle, s, t, &exact, &err), GT_OK);
		check_same(d, full, INFINITY, "DistanceTo", s, t);
		if (!(isinf(exact) && isinf(d)) && !(fabs(exact - d) <= 1e-9 * (1 + exact)))
			fail_msg("(%.17g, %.17g) -> (%.17g, %.17g): oracle %.17g, index %.17g", s.x, s.y, t.x, t.y, exact, d);
		if (!isinf(d)) {
			double gaps = (double)gt_ehl_end_gap(e, s) + gt_ehl_end_gap(e, t);
			tally->skipped += gaps >= d;
			tally->priced += gaps < d;
		}
		double limits[] = {kth, d, nextafter(d, INFINITY), d * 0.75, d * 1.25 + 1};
		double limit = limits[test_rng_int(rng, 5)];
		bool hidden = !gtMap_Visible(m, s, t);
		double want = hidden ? gtEhlQuery_DistanceBelowHidden(merge, t, limit)
		                     : gtEhlQuery_DistanceBelow(merge, t, limit);
		double got = hidden ? gtEhlQuery_DistanceBelowHidden(q, t, limit) : gtEhlQuery_DistanceBelow(q, t, limit);
		check_same(got, want, limit, hidden ? "DistanceBelowHidden" : "DistanceBelow", s, t);
		tally->ranked += q->source_ranked;
		tally->calls += 3;
		if (d < kth) kth = d;
		if (sides && i < 6) {
			got = gtEhlQuery_SideBelow(q, t, sides[i], limit, hidden);
			check_same(got, want, limit, "SideBelow", s, t);
			got = gtEhlQuery_SideBelow(q, t, sides[i], INFINITY, hidden);
			check_same(got, full, INFINITY, "SideBelow", s, t);
		}
	}
}

// One map: sources at link ends and anywhere, targets anywhere (the first six with sides).
static void check_map(const gtMap* m, const gtEhlLink* links, int count, int cell, TestRng* rng, Tally* tally)
{
	gtNav* nav;
	gtNavQuery* oracle;
	gtError err;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	for (int k = 0; k < count; k++) {
		gtLinkId id;
		if (gtNav_AddLink(nav, links[k].a, links[k].b, links[k].cost, 0, &id, &err)) fail_msg("%s", err.message);
	}
	assert_int_equal(gtNav_SetMethod(nav, GT_NAV_ORACLE, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &oracle, &err), GT_OK);
	gtEhl* e = build(m, links, count, cell, 1 + cell % 2);
	gtEhlQuery *q, *merge;
	assert_int_equal(gtEhlQuery_Create(e, &q, &err), GT_OK);
	assert_int_equal(gtEhlQuery_Create(e, &merge, &err), GT_OK);
	assert_true(q->end_from < (uint32_t)e->n);
	merge->end_from = (uint32_t)e->n; // no block: every shared hub merged, as before the ranks
	enum { TARGETS = 40, SIDES = 6 };
	gtVec2 targets[TARGETS];
	void* sides[SIDES];
	size_t bytes = gtEhlQuery_SideBytes(q);
	for (int i = 0; i < TARGETS; i++) targets[i] = test_random_point(m, rng);
	for (int i = 0; i < SIDES && bytes > 0; i++) {
		sides[i] = aligned_alloc(64, bytes);
		assert_non_null(sides[i]);
		assert_true(gtEhlQuery_FillSide(q, targets[i], sides[i], false));
	}
	for (int i = 0; i < 12; i++) {
		gtEhlLink l = links[test_rng_int(rng, count)];
		gtVec2 s = i % 3 == 0 ? l.a : i % 3 == 1 ? l.b : test_random_point(m, rng);
		// Past the sides' targets, half of them near s (where the end gaps rule the block out).
		for (int j = SIDES; j < TARGETS; j++) {
			gtVec2 near = {s.x + 0.375 * (test_rng_int(rng, 17) - 8), s.y + 0.3125 * (test_rng_int(rng, 17) - 8)};
			targets[j] = j % 2 && gtMap_CheckPoint(m, near) == GT_POINT_VALID ? near : test_random_point(m, rng);
		}
		check_source(q, merge, oracle, m, s, targets, TARGETS, bytes > 0 ? sides : NULL, rng, tally);
	}
	for (int i = 0; i < SIDES && bytes > 0; i++) free(sides[i]);
	gtEhlQuery_Destroy(q), gtEhlQuery_Destroy(merge);
	gtEhl_Destroy(e);
	gtNavQuery_Destroy(oracle);
	gtNav_Destroy(nav);
}

static void test_end_block_skip_exact(void** state)
{
	(void)state;
	TestRng rng = {3241};
	Tally tally = {0};
	for (int round = 0; round < 6; round++) {
		gtMap* m = test_random_map(&rng, 40 + 6 * round, 28, 10 + 2 * round);
		gtEhlLink links[MAX_LINKS];
		int count = make_links(m, &rng, links, 3 + 3 * round);
		check_map(m, links, count, 1 + round % 4, &rng, &tally);
		gtMap_Destroy(m);
	}
	printf("note: %d answers the end block could not beat, %d it could; %d of %d calls from ranked sources\n",
	       tally.skipped, tally.priced, tally.ranked, tally.calls);
	if (tally.skipped < 300 || tally.priced < 300)
		fail_msg("skips %d, blocks priced %d: too few of either", tally.skipped, tally.priced);
	if (tally.ranked < 1000) fail_msg("only %d calls from a ranked source", tally.ranked);
}

TEST_MAIN("links_ends", test_ends_ranked_last, test_end_block_skip_exact)
