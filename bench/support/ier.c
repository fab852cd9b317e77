// IER over the Grid Tree's Euclidean search (see ier.h).
#include <math.h>
#include <stdlib.h>

#include "ier.h"

void ier_scratch_free(IerScratch* s)
{
	free(s->candidates);
	free(s->euclid);
	free(s->priced);
	*s = (IerScratch){0};
}

static bool grow(IerScratch* s, int want)
{
	if (want <= s->capacity) return true;
	gtObjectId* c = realloc(s->candidates, (size_t)want * sizeof *c);
	if (!c) return false;
	s->candidates = c;
	double* e = realloc(s->euclid, (size_t)want * sizeof *e);
	if (!e) return false;
	s->euclid = e;
	s->capacity = want;
	return true;
}

static bool priced_before(const IerScratch* s, gtObjectId id)
{
	for (int i = 0; i < s->priced_count; i++)
		if (s->priced[i] == id) return true;
	return false;
}

static bool remember(IerScratch* s, gtObjectId id)
{
	if (s->priced_count == s->priced_capacity) {
		int grown = s->priced_capacity ? 2 * s->priced_capacity : 64;
		gtObjectId* p = realloc(s->priced, (size_t)grown * sizeof *p);
		if (!p) return false;
		s->priced = p;
		s->priced_capacity = grown;
	}
	s->priced[s->priced_count++] = id;
	return true;
}

void keep_smallest(gtObjectId* ids, double* distances, int* count, int k, gtObjectId id, double d)
{
	if (k <= 0 || (*count == k && d >= distances[k - 1])) return;
	int at = *count < k ? (*count)++ : k - 1; // the largest drops out when full
	while (at > 0 && distances[at - 1] > d) {
		distances[at] = distances[at - 1];
		ids[at] = ids[at - 1];
		at--;
	}
	distances[at] = d;
	ids[at] = id;
}

gtStatus brute_nearest(gtWorld* world, const gtQuery* query, gtDistance distance, IerScratch* s, gtObjectId* ids,
                       double* distances, int capacity, int* count, gtError* err)
{
	*count = 0;
	gtQuery every = *query; // a straight-line range query with no radius: the filters alone
	every.radius = INFINITY;
	int n;
	gtStatus st;
	if (!grow(s, 64)) return gtError_Set(err, GT_ERR_NOMEM, "out of memory in brute force");
	for (;;) {
		st = gtWorld_WithinEuclid(world, &every, s->candidates, s->euclid, s->capacity, &n, NULL, err);
		if (st != GT_ERR_BUFFER_TOO_SMALL) break;
		if (!grow(s, n)) return gtError_Set(err, GT_ERR_NOMEM, "out of memory in brute force");
	}
	if (st) return st;
	int k = query->k < capacity ? query->k : capacity;
	for (int i = 0; i < n; i++) {
		gtVec2 p;
		if ((st = gtWorld_GetPosition(world, s->candidates[i], &p, err))) return st;
		double d = distance.fcn(distance.context, query->point, p);
		if (!isinf(d)) keep_smallest(ids, distances, count, k, s->candidates[i], d);
	}
	return GT_OK;
}

gtStatus ier_nearest(gtWorld* world, const gtQuery* query, gtDistance distance, IerScratch* s, gtObjectId* ids,
                     double* distances, int capacity, int* count, int64_t* priced_calls, gtError* err)
{
	*count = 0;
	if (priced_calls) *priced_calls = 0;
	int k = query->k < capacity ? query->k : capacity;
	if (k <= 0) return GT_OK;
	s->priced_count = 0;
	gtQuery q = *query;
	for (int want = k < 8 ? 8 : k;; want *= 2) {
		if (!grow(s, want)) return gtError_Set(err, GT_ERR_NOMEM, "out of memory in IER");
		int n;
		q.k = want;
		gtStatus st = gtWorld_NearestEuclid(world, &q, s->candidates, s->euclid, want, &n, NULL, err);
		if (st) return st;
		for (int i = 0; i < n; i++) {
			if (*count == k && distances[k - 1] <= s->euclid[i]) return GT_OK; // no straight line left can beat it
			if (priced_before(s, s->candidates[i])) continue;
			if (!remember(s, s->candidates[i])) return gtError_Set(err, GT_ERR_NOMEM, "out of memory in IER");
			gtVec2 p;
			if ((st = gtWorld_GetPosition(world, s->candidates[i], &p, err))) return st;
			double d = distance.fcn(distance.context, query->point, p);
			if (priced_calls) ++*priced_calls;
			if (!isinf(d)) keep_smallest(ids, distances, count, k, s->candidates[i], d);
		}
		if (n < want) return GT_OK; // every matching object was a candidate
	}
}
