// IER over the IR-tree, brute force and the target heuristic's guide (see ier.h).
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "ier.h"

void ier_scratch_free(IerScratch* s)
{
	free(s->candidates);
	free(s->euclid);
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

void keep_smallest(gtObjectId* ids, double* distances, int* count, int k, gtObjectId id, double d)
{
	if (k <= 0 || (*count == k && (d > distances[k - 1] || (d == distances[k - 1] && id > ids[k - 1])))) return;
	int at = *count < k ? (*count)++ : k - 1; // the last drops out when full
	while (at > 0 && (distances[at - 1] > d || (distances[at - 1] == d && ids[at - 1] > id))) {
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

bool has_all_keywords(const gtWorld* world, gtObjectId id, const int32_t* words, int word_count)
{
	const int32_t* kw;
	int n = gtWorld_GetKeywords(world, id, &kw);
	for (int w = 0; w < word_count; w++) {
		bool found = false;
		for (int i = 0; i < n && !found; i++) found = kw[i] == words[w];
		if (!found) return false;
	}
	return true;
}

// With links (gtDistance.shortcuts) a walk from q may be shorter than the straight line once it
// takes a link, which costs at least this much (+infinity without links).
static double link_reach(const gtShortcuts* links, gtVec2 q)
{
	double reach = INFINITY;
	for (int i = 0; links && i < links->count; i++) {
		double r = hypot(q.x - links->entrance[i].x, q.y - links->entrance[i].y) + links->cost[i];
		if (r < reach) reach = r;
	}
	return reach;
}

void ier_nearest(IrTree* tree, gtVec2 q, const int32_t* words, int word_count, int k, gtDistance distance,
                 gtObjectId* ids, double* distances, int capacity, int* count)
{
	*count = 0;
	if (k > capacity) k = capacity;
	if (k <= 0) return;
	irtree_begin(tree, q, words, word_count);
	int32_t id;
	double euclid, reach = link_reach(distance.shortcuts, q);
	while (irtree_next(tree, &id, &euclid)) {
		// No object left can beat or tie the k-th: each is at least this straight line away (the
		// margin covers the rounding of the IR-tree's straight lines against the distance's own), or
		// takes a link.
		double least = euclid * (1 - 4 * DBL_EPSILON);
		if (*count == k && distances[k - 1] < (least < reach ? least : reach)) return;
		double d = distance.fcn(distance.context, q, irtree_point(tree, id));
		if (!isinf(d)) keep_smallest(ids, distances, count, k, (gtObjectId)id, d);
	}
}

static double to_segment(gtVec2 r, gtVec2 a, gtVec2 b)
{
	double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
	double u = len2 > 0 ? ((r.x - a.x) * dx + (r.y - a.y) * dy) / len2 : 0;
	u = u < 0 ? 0 : u > 1 ? 1 : u;
	return hypot(r.x - (a.x + u * dx), r.y - (a.y + u * dy));
}

// A walk through the interval to any point of the box is no shorter than the straight line to the
// box, nor than the way to the interval.
static double box_bound(void* context, gtVec2 lo, gtVec2 hi)
{
	const TargetGuide* g = context;
	double dx = fmax(fmax(lo.x - g->root.x, 0), g->root.x - hi.x),
	       dy = fmax(fmax(lo.y - g->root.y, 0), g->root.y - hi.y);
	return fmax(sqrt(dx * dx + dy * dy), g->to_interval);
}

static double through_interval(void* context, int32_t id, gtVec2 point)
{
	const TargetGuide* g = context;
	if (gtPolyanya_Returned(g->search, id)) return INFINITY;
	return gtMesh_IntervalBound(g->root, g->right, g->left, point);
}

double target_guide(void* context, const gtPolyanya* search, gtVec2 root, gtVec2 right, gtVec2 left, int32_t edge)
{
	(void)edge;
	TargetGuide* g = context;
	g->search = search, g->root = root, g->right = right, g->left = left;
	g->to_interval = to_segment(root, right, left);
	return irtree_least(g->tree, g->words, g->word_count, box_bound, through_interval, g);
}
