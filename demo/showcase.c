// The start query: where the demo opens before anyone touches it. A query in open floor looks
// the same by walking and by straight-line distance, so the demo looks for one that does not:
// among seeded random free points, every keyword filter and k from 3 to 5, one whose k nearest on
// foot include an answer reached round a wall (its walking distance visibly longer than the
// straight line) and differ from the k nearest in a straight line (that one is drawn as a ghost).
// Of those, the one whose picture reads best: a clear detour, answers spread apart, a compact view.
// The agents move, so while the start query holds it is checked every frame and searched for
// again (near where it is) when the bend is lost.
#include <math.h>
#include <stdio.h>

#include "demo.h"

enum { CANDIDATES = 320, NEAR_CANDIDATES = 96, MIN_SHOW_K = 3, MAX_SHOW_K = 5, RETRY_FRAMES = 30 };

typedef struct Look {
	int level; // 2: a bend and a ghost, 1: a bend, 0: neither, -1: fewer than k answers
	double score;
} Look;

// A detour a person sees: half a cell, or 3% of the straight line, longer.
static bool bends(double walk, double straight)
{
	return isfinite(walk) && walk - straight >= fmax(0.5, 0.03 * straight);
}

static double apart(gtVec2 a, gtVec2 b)
{
	return hypot(a.x - b.x, a.y - b.y);
}

// Scores the k nearest at p by walking (w: ids, distances, positions) and straight-line (e) distance.
// e: ids, straight distances, walking distances and positions.
static Look judge(gtVec2 p, int k, const gtObjectId* w, const double* wd, const gtVec2* wat, int wn,
                  const gtObjectId* e, const double* ed, const double* ewd, const gtVec2* eat, int en)
{
	Look look = {-1, 0};
	if (wn < k || en < k) return look;
	int bent = 0, ghosts = 0;
	double detour = 0, contrast = 0, closest = INFINITY;
	gtVec2 shown[2 * MAX_SHOW_K + 1];
	int n = 0;
	shown[n++] = p;
	for (int i = 0; i < k; i++) {
		double straight = apart(p, wat[i]);
		if (bends(wd[i], straight)) bent++, detour = fmax(detour, (wd[i] - straight) / fmax(straight, 1));
		shown[n++] = wat[i];
	}
	for (int i = 0; i < k; i++) {
		bool chosen = false;
		for (int j = 0; j < k && !chosen; j++) chosen = e[i] == w[j];
		if (chosen) continue;
		ghosts++, shown[n++] = eat[i];
		contrast = fmax(contrast, isfinite(ewd[i]) ? (ewd[i] - ed[i]) / fmax(ed[i], 1) : 1);
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) closest = fmin(closest, apart(shown[i], shown[j]));
	look.level = bent == 0 ? 0 : ghosts == 0 ? 1 : 2;
	double span = wd[k - 1];
	look.score = 2.0 * fmin(bent, 2) + fmin(ghosts, 2) + 3 * fmin(detour, 1) +
	             2 * fmin(contrast, 1) // the point, plainly
	             - (span < 8    ? (8 - span) / 4
	                : span > 30 ? (span - 30) / 8
	                            : 0)               // a view neither cramped nor vast
	             - (closest < 3 ? 3 - closest : 0) // discs and labels apart
	             - 0.25 * (k - MIN_SHOW_K);        // fewer answers read more easily
	return look;
}

// The best k (3 to 5) for point p and keyword filter f; *k receives it.
static Look look_at(Demo* d, gtVec2 p, int filter, int* k_out, int k_only)
{
	gtQuery q = gtQuery_Default(p);
	int32_t word = -1;
	if (filter > 0) {
		word = gtWorld_FindKeyword(d->world, FILTERS[filter]);
		q.keywords = &word, q.keyword_count = 1;
	}
	int most = k_only > 0 ? k_only : MAX_SHOW_K;
	q.k = most;
	gtObjectId w[MAX_K], e[MAX_K];
	double wd[MAX_K], ed[MAX_K], ewd[MAX_K];
	gtVec2 wat[MAX_K], eat[MAX_K];
	int wn = 0, en = 0;
	gtError err;
	Look best = {-1, -INFINITY};
	if (gtWorld_Nearest(d->world, &q, d->distance, w, wd, MAX_K, &wn, NULL, &err) ||
	    gtWorld_NearestEuclid(d->world, &q, e, ed, MAX_K, &en, NULL, &err))
		return best;
	for (int i = 0; i < wn; i++)
		if (gtWorld_GetPosition(d->world, w[i], &wat[i], &err)) return best;
	for (int i = 0; i < en; i++) { // and how far the straight-line nearest are on foot
		if (gtWorld_GetPosition(d->world, e[i], &eat[i], &err)) return best;
		ewd[i] = -1;
		for (int j = 0; j < wn; j++)
			if (w[j] == e[i]) ewd[i] = wd[j];
		if (ewd[i] < 0) ewd[i] = d->distance.fcn(d->distance.context, p, eat[i]);
	}
	for (int k = k_only > 0 ? k_only : MIN_SHOW_K; k <= most; k++) {
		Look look = judge(p, k, w, wd, wat, wn, e, ed, ewd, eat, en);
		if (look.level > best.level || (look.level == best.level && look.score > best.score)) best = look, *k_out = k;
	}
	return best;
}

int showcase_level_here(Demo* d)
{
	int k = d->o.k;
	Look look = look_at(d, (gtVec2){d->qx, d->qy}, d->filter, &k, d->o.k);
	return look.level < 0 ? 0 : look.level;
}

// A free point: uniform over the free space, or within `radius` of `around` when radius > 0.
static bool free_point(Demo* d, gtVec2 around, double radius, gtVec2* p)
{
	gtRandom* r = &d->showcase_rng;
	if (radius <= 0) return gtMap_RandomPoint(d->map, r, p, NULL) == GT_OK;
	for (int tries = 0; tries < 64; tries++) {
		*p = (gtVec2){around.x + (gtRandom_Unit(r) * 2 - 1) * radius, around.y + (gtRandom_Unit(r) * 2 - 1) * radius};
		if (gtMap_CheckPoint(d->map, *p) == GT_POINT_VALID) return true;
	}
	return false;
}

typedef struct Pick {
	gtVec2 at;
	int filter, k, level;
} Pick;

// The best start query among the candidates: false when none has a bend.
static bool search(Demo* d, bool prefer_near, Pick* pick)
{
	double start = gtNowSeconds();
	gtVec2 here = {d->qx, d->qy};
	Look best = {0, -INFINITY}; // a bend at least
	int count = prefer_near ? NEAR_CANDIDATES : CANDIDATES;
	for (int c = 0; c < count; c++) {
		gtVec2 p;
		// Near the current point first when asked (the view stays), a few anywhere in case.
		if (!free_point(d, here, prefer_near && c < count * 3 / 4 ? 40 : 0, &p)) continue;
		for (int f = 0; f < FILTER_COUNT; f++) {
			int k = MIN_SHOW_K;
			Look look = look_at(d, p, f, &k, 0);
			if (look.level < 1) continue;
			if (prefer_near) look.score -= apart(p, here) / 40;
			if (look.level > best.level || (look.level == best.level && look.score > best.score))
				best = look, *pick = (Pick){p, f, k, look.level};
		}
	}
	d->searches++;
	d->search_ms += (gtNowSeconds() - start) * 1e3;
	return best.level >= 1;
}

static void apply(Demo* d, const Pick* pick)
{
	d->qx = pick->at.x, d->qy = pick->at.y, d->filter = pick->filter, d->o.k = pick->k, d->kind = 0;
	d->showcase_level = pick->level;
}

bool showcase_search(Demo* d, bool prefer_near)
{
	Pick pick;
	if (!search(d, prefer_near, &pick)) {
		d->showcase_level = 0;
		return false;
	}
	apply(d, &pick);
	return true;
}

bool showcase_keep(Demo* d, int frame)
{
	if (!d->auto_query) return false;
	int level = showcase_level_here(d);
	if (level >= d->showcase_level && level > 0) return false;
	// The bend lost just after a search that found one: search now. A lost ghost, or a search
	// that found nothing better, waits its turn (a search takes tens of milliseconds).
	if (frame < d->next_search && (level > 0 || d->search_failed)) return false;
	Pick pick;
	bool better = search(d, true, &pick) && pick.level > level;
	if (!better && level == 0) better = search(d, false, &pick) && pick.level > level; // none near: anywhere
	if (better) apply(d, &pick);
	d->search_failed = !better;
	d->next_search = frame + (better || d->showcase_level > 0 ? RETRY_FRAMES : 8 * RETRY_FRAMES);
	return better;
}
