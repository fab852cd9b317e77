// gtEhl_Verify: sampled answers of an index against the exact oracle. Loading proves an index
// memory-safe, not right; this is how a user tells a trustworthy index from a wrong one.
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "gridtree/gt_oracle.h"
#include "gridtree/gt_random.h"

// A valid point of one of the kinds an index can get wrong separately: convex vertices (where
// paths bend), cell corners (where a cell's FULL flags are decided), points on cell edges, and
// points inside free cells. False when none was found (a map with almost no free space).
static bool sample_point(const gtEhl* e, gtRandom* rng, gtVec2* out)
{
	const gtMap* m = e->map;
	int w = gtMap_Width(m), h = gtMap_Height(m);
	for (int attempt = 0; attempt < 1000; attempt++) {
		gtVec2 p;
		switch (gtRandom_Below(rng, 4)) {
		case 0: {
			if (e->corners == 0) continue;
			const gtVertex* v = &e->vertices[gtRandom_Below(rng, e->corners)];
			p.x = v->x, p.y = v->y;
			break;
		}
		case 1: {
			int i = gtRandom_Below(rng, e->columns + 1), j = gtRandom_Below(rng, e->rows + 1);
			p.x = fmin((double)i * e->g, w), p.y = fmin((double)j * e->g, h);
			break;
		}
		case 2: // on a cell edge: one integer coordinate
			if (gtRandom_Below(rng, 2)) p.x = gtRandom_Below(rng, w + 1), p.y = gtRandom_Unit(rng) * h;
			else p.x = gtRandom_Unit(rng) * w, p.y = gtRandom_Below(rng, h + 1);
			break;
		default: {
			int cx = gtRandom_Below(rng, w), cy = gtRandom_Below(rng, h);
			p.x = cx + gtRandom_Unit(rng), p.y = cy + gtRandom_Unit(rng);
			break;
		}
		}
		if (gtMap_CheckPoint(m, p) == GT_POINT_VALID) {
			*out = p;
			return true;
		}
	}
	return false;
}

static double relative_error(double got, double exact)
{
	if (isinf(got) || isinf(exact)) return isinf(got) && isinf(exact) ? 0 : INFINITY;
	return fabs(got - exact) / fmax(exact, 1); // absolute near 0: two points may coincide
}

// The path the index gives for a reachable pair is a real path: s, steps each visible, t, and
// as long as the exact distance. Returns its relative length error (+inf when it is no path).
static double path_error(gtEhlQuery* q, const gtMap* m, gtVec2 s, gtVec2 t, double exact, gtVec2* points, int capacity)
{
	int count;
	double distance;
	if (gtEhl_Path(q, s, t, points, capacity, &count, &distance, NULL) != GT_OK || count < 2) return INFINITY;
	if (points[0].x != s.x || points[0].y != s.y || points[count - 1].x != t.x || points[count - 1].y != t.y)
		return INFINITY;
	double length = 0;
	for (int k = 0; k + 1 < count; k++) {
		if (!gtMap_Visible(m, points[k], points[k + 1])) return INFINITY;
		length += hypot(points[k + 1].x - points[k].x, points[k + 1].y - points[k].y);
	}
	return relative_error(length, exact);
}

gtStatus gtEhl_Verify(const gtEhl* ehl, int samples, uint64_t seed, gtEhlVerifyReport* out, gtError* err)
{
	gtEhlVerifyReport r = {0, 0, 0, NULL, {0, 0}, {0, 0}, 0, 0};
	if (ehl->link_count > 0) // the oracle here walks without links
		return gt_fail(err, GT_ERR_INVALID_ARG, "the index knows %d links: check it against the oracle with links",
		               ehl->link_count);
	if (out) *out = r;
	if (!ehl || samples < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "gtEhl_Verify: needs an index and samples >= 0");
	const gtMap* m = ehl->map;
	gtOracle* oracle = NULL;
	gtEhlQuery* q = NULL;
	// A forged index's path can climb n + 1 steps on each side; anything longer is reported too small.
	int capacity = 2 * ehl->n + 8;
	gtVec2* points = gt_malloc((size_t)capacity * sizeof *points);
	gtStatus st = points ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for verifying an index");
	// Threads only pay for themselves on a large visibility graph.
	if (!st) st = gtOracle_Create(m, ehl->n < 1024 ? 1 : 0, &oracle, err);
	if (!st) st = gtEhlQuery_Create(ehl, &q, err);
	gtRandom rng = {seed};
	for (int i = 0; i < samples && !st; i++) {
		gtVec2 s, t;
		if (!sample_point(ehl, &rng, &s) || !sample_point(ehl, &rng, &t)) break;
		double exact, got;
		st = gtOracle_Distance(oracle, s, t, &exact, err);
		if (st) break;
		double error = gtEhl_Distance(q, s, t, &got, NULL) == GT_OK ? relative_error(got, exact) : INFINITY;
		const char* wrong = error > 1e-9 ? "distance" : NULL;
		if (!wrong && !isinf(exact)) {
			double length_error = path_error(q, m, s, t, exact, points, capacity);
			if (length_error > 1e-9) wrong = "path";
			error = fmax(error, length_error);
		}
		r.samples++;
		r.max_relative_error = fmax(r.max_relative_error, error);
		if (!wrong) continue;
		if (r.mismatches++ == 0) {
			r.failure = wrong;
			r.failure_source = s, r.failure_target = t;
			r.failure_exact = exact, r.failure_index = got;
		}
	}
	gtEhlQuery_Destroy(q);
	gtOracle_Destroy(oracle);
	gt_free(points);
	if (st) return st;
	if (out) *out = r;
	if (r.mismatches)
		return gt_fail(err, GT_ERR_FORMAT,
		               "the index is wrong: %d of %d sampled pairs disagree with the exact oracle; the first, "
		               "(%.17g, %.17g) -> (%.17g, %.17g), has a wrong %s (index %.9g, exact %.9g)",
		               r.mismatches, r.samples, r.failure_source.x, r.failure_source.y, r.failure_target.x,
		               r.failure_target.y, r.failure, r.failure_index, r.failure_exact);
	return GT_OK;
}
