// A source's hub list by rank (ehl/ehl_query.c: gather_ranked): a query object matches each
// target's list against the source's ranks. Every answer must be the double a query object without
// ranks gives (the merge of the two lists), through DistanceTo, DistanceBelow and
// DistanceBelowHidden, below limits that fall as a kNN query's do, with sources revisited after
// others (the ranks put back, also after a refused source), and with places of 1 byte (at most 255 hubs a cell) and of 2.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"
#include "core/alloc.h"
#include "ehl/ehl_query.h" // gtEhlQuery.source_ranked: that the ranks served

enum { CALL_TO, CALL_BELOW, CALL_HIDDEN };

static double price(gtEhlQuery* q, int call, gtVec2 t, double limit)
{
	return call == CALL_TO      ? gtEhlQuery_DistanceTo(q, t)
	       : call == CALL_BELOW ? gtEhlQuery_DistanceBelow(q, t, limit)
	                            : gtEhlQuery_DistanceBelowHidden(q, t, limit);
}

// The merge's answer: a fresh source (another point first, so nothing of an earlier pricing stays).
static double merged(gtEhlQuery* fresh, gtVec2 elsewhere, gtVec2 s, int call, gtVec2 t, double limit)
{
	gtError err;
	assert_int_equal(gtEhlQuery_SetSource(fresh, elsewhere, &err), GT_OK);
	assert_int_equal(gtEhlQuery_SetSource(fresh, s, &err), GT_OK);
	double d = price(fresh, call, t, limit);
	assert_false(fresh->source_ranked);
	return d;
}

// Below the limit, the same double, and with `hub` through the same hub and vias (the same hubs
// priced in the same order; last_hub -1: the straight line); else at least the limit.
static void check_same(const gtEhlQuery* q, const gtEhlQuery* fresh, double got, double want, double limit, bool hub,
                       const char* what, int call, gtVec2 s, gtVec2 t)
{
	if (want < limit ? got != want : !(got >= limit))
		fail_msg("%s: call %d (%.17g, %.17g) -> (%.17g, %.17g) below %.17g gives %.17g, the merge %.17g", what, call,
		         s.x, s.y, t.x, t.y, limit, got, want);
	if (hub && want < limit &&
	    (q->last_hub != fresh->last_hub ||
	     (q->last_hub >= 0 && (q->last_via_s != fresh->last_via_s || q->last_via_t != fresh->last_via_t))))
		fail_msg("%s: (%.17g, %.17g) -> (%.17g, %.17g) through hub %d (vias %d, %d), the merge through %d (%d, %d)",
		         what, s.x, s.y, t.x, t.y, q->last_hub, q->last_via_s, q->last_via_t, fresh->last_hub,
		         fresh->last_via_s, fresh->last_via_t);
}

enum { SIDES = 8 };

// The centre of a blocked square (a source gtEhlQuery_SetSource refuses), or (-1, -1) when none is.
static gtVec2 blocked_point(const gtMap* m)
{
	for (int y = 0; y < gtMap_Height(m); y++)
		for (int x = 0; x < gtMap_Width(m); x++)
			if (gtMap_IsBlocked(m, x, y)) return (gtVec2){x + 0.5, y + 0.5};
	return (gtVec2){-1, -1};
}

// A few targets with sides (gtEhlQuery_FillSide; world_sides.c keeps them for objects many queries
// price), priced from every source with random limits: through the ranks too (gather_side).
static int price_sides(gtEhlQuery* q, gtEhlQuery* fresh, const gtMap* m, TestRng* rng, gtVec2 elsewhere, gtVec2 s,
                       gtVec2* at, void** sides, const char* what)
{
	int below = 0;
	for (int j = 0; j < SIDES; j++) {
		double d = merged(fresh, elsewhere, s, CALL_TO, at[j], INFINITY);
		double limits[] = {d, nextafter(d, INFINITY), d * 0.75, d * 1.25 + 1, INFINITY};
		double limit = limits[test_rng_int(rng, 5)];
		bool hidden = !gtMap_Visible(m, s, at[j]) && test_rng_int(rng, 2);
		int call = hidden ? CALL_HIDDEN : CALL_BELOW;
		double want = merged(fresh, elsewhere, s, call, at[j], limit);
		double got = gtEhlQuery_SideBelow(q, at[j], sides[j], limit, hidden);
		// A side prices its hubs in the order of its parts, exact once priced: on a tie another hub may
		// give the same double.
		check_same(q, fresh, got, want, limit, false, what, call + 10, s, at[j]);
		below += want < limit && !isinf(want);
	}
	return below;
}

// Rounds of `targets` pricings from three sources in turn; returns how many went through the ranks.
static int check_sources(const gtMap* m, const gtEhl* e, TestRng* rng, int targets, const char* what)
{
	gtEhlQuery *q, *fresh;
	gtError err;
	assert_int_equal(gtEhlQuery_Create(e, &q, &err), GT_OK);
	assert_int_equal(gtEhlQuery_Create(e, &fresh, &err), GT_OK);
	assert_non_null(q->source_rank_bound); // places fit 2 bytes: the ranks are on
	// The oracle without ranks, as when they found no memory: every pricing a merge.
	gt_free(fresh->source_rank_bound), gt_free(fresh->source_place);
	fresh->source_rank_bound = NULL, fresh->source_place = NULL;
	gtVec2 sources[3], elsewhere = test_random_point(m, rng);
	for (int i = 0; i < 3; i++) sources[i] = test_random_point(m, rng);
	size_t bytes = gtEhlQuery_SideBytes(q);
	assert_true(bytes > 0);
	gtVec2 at[SIDES];
	void* sides[SIDES];
	for (int j = 0; j < SIDES; j++) {
		at[j] = test_random_point(m, rng);
		sides[j] = aligned_alloc(64, bytes);
		assert_non_null(sides[j]);
		assert_true(gtEhlQuery_FillSide(q, at[j], sides[j], false));
	}
	int ranked = 0, below = 0, side_below = 0;
	gtVec2 blocked = blocked_point(m);
	for (int round = 0; round < 6; round++) {
		gtVec2 s = sources[round % 3];
		if (s.x == elsewhere.x && s.y == elsewhere.y) continue;
		// A refused source between two: the ranks the last one left are put back by the next
		// (set_source fails before it touches the last source's list, which the unranking reads).
		if (round % 2 && blocked.x >= 0) assert_int_equal(gtEhlQuery_SetSource(q, blocked, &err), GT_ERR_INVALID_POINT);
		assert_int_equal(gtEhlQuery_SetSource(q, s, &err), GT_OK);
		double kth = INFINITY; // the least distance so far, as a falling limit
		for (int i = 0; i < targets; i++) {
			gtVec2 t = test_random_point(m, rng);
			double d = merged(fresh, elsewhere, s, CALL_TO, t, INFINITY);
			double limits[] = {kth, d, nextafter(d, INFINITY), d * 0.75, d * 1.25 + 1, INFINITY};
			double limit = limits[test_rng_int(rng, 6)];
			int call = test_rng_int(rng, 3);
			if (call == CALL_HIDDEN && gtMap_Visible(m, s, t)) call = CALL_BELOW; // hidden pairs only
			if (call == CALL_TO) limit = INFINITY;
			double want = merged(fresh, elsewhere, s, call, t, limit), got = price(q, call, t, limit);
			check_same(q, fresh, got, want, limit, true, what, call, s, t);
			ranked += q->source_ranked;
			below += want < limit && !isinf(want);
			if (d < kth) kth = d;
			if (i % (targets / 8) == 0) side_below += price_sides(q, fresh, m, rng, elsewhere, s, at, sides, what);
		}
	}
	for (int j = 0; j < SIDES; j++) free(sides[j]);
	if (side_below < SIDES) fail_msg("%s: only %d side answers below their limit", what, side_below);
	printf("note: %s: %d of %d pricings through the ranks, %d below their limit\n", what, ranked, 6 * targets, below);
	if (below < targets) fail_msg("%s: only %d answers below their limit", what, below);
	gtEhlQuery_Destroy(fresh);
	gtEhlQuery_Destroy(q);
	return ranked;
}

// Random maps full of pinch points, cells of 1 to 4: every cell lists few hubs (1-byte places).
static void test_ranks_on_random_maps(void** state)
{
	(void)state;
	TestRng rng = {30301};
	int ranked = 0;
	for (int round = 0; round < 4; round++) {
		gtMap* m = test_random_map(&rng, 20 + 6 * round, 16 + 4 * round, 18 + 3 * round);
		gtEhl* e = test_build_ehl(m, 1 + round);
		gtEhlQuery* q;
		gtError err;
		assert_int_equal(gtEhlQuery_Create(e, &q, &err), GT_OK);
		assert_true(q->max_hubs <= UINT8_MAX);
		gtEhlQuery_Destroy(q);
		char what[64];
		snprintf(what, sizeof what, "random map %d, g=%d", round, 1 + round);
		ranked += check_sources(m, e, &rng, 120, what);
		gtEhl_Destroy(e);
		gtMap_Destroy(m);
	}
	if (ranked < 1000) fail_msg("only %d pricings through the ranks", ranked);
}

// Generated caves and rooms with cells of 16: more than 255 hubs a cell (2-byte places).
static void test_ranks_with_wide_places(void** state)
{
	(void)state;
	TestRng rng = {30302};
	const gtMapStyle styles[] = {GT_STYLE_CAVES, GT_STYLE_ROOMS};
	int ranked = 0, wide = 0;
	for (int i = 0; i < 2; i++) {
		gtMap* m;
		gtError err;
		assert_int_equal(gtMap_Generate(styles[i], 160, 128, 3068 + (uint64_t)i, &m, &err), GT_OK);
		gtEhl* e = test_build_ehl(m, 16);
		gtEhlQuery* q;
		assert_int_equal(gtEhlQuery_Create(e, &q, &err), GT_OK);
		wide += q->max_hubs > UINT8_MAX;
		gtEhlQuery_Destroy(q);
		char what[64];
		snprintf(what, sizeof what, "%s 160x128, g=16", i == 0 ? "caves" : "rooms");
		ranked += check_sources(m, e, &rng, 150, what);
		gtEhl_Destroy(e);
		gtMap_Destroy(m);
	}
	if (wide == 0) fail_msg("no map with 2-byte places");
	if (ranked < 1000) fail_msg("only %d pricings through the ranks", ranked);
}

TEST_MAIN("ehl_ranked", test_ranks_on_random_maps, test_ranks_with_wide_places)
