// Links over a backend that has no graph to join them to (the EHL index): the walking distances
// d0 between every two link ends, asked of the backend once per change of the links, the map or
// the index, closed under the link edges (Floyd-Warshall) into D. A walk from s to t then either
// takes no link (d0(s, t)) or walks to some end x, goes on to some end y as D says and walks to t:
//     d(s, t) = min(d0(s, t), min over x, y of d0(s, x) + D[x][y] + d0(y, t)).
// A query with no link in reach (its straight-line bound through the links is no shorter than
// d0) costs one backend query.
// Parts: a walk that takes links leaves s's walking component (its part) at its first link's
// entrance x and reaches t's part at its last link's exit y, so only x in s's part and y in t's
// part are priced. Two points of different parts have no walk without links (d0 is not asked),
// and within a part where no two ends x, y gain by links (DL[x][y] >= d0(x, y)) no walk through
// links beats d0(s, t) (d0(s, x) + d0(x, y) + d0(y, t) >= d0(s, t)): floors joined by stairs
// answer a walk within a floor with one backend query, as an index of that floor alone would.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "nav/nav_backend.h"
#include "nav/nav_links_internal.h"
#include "nav/nav_links_table.h"

struct LinkTable {
	int links, ends;  // ends = 2 x links: link k's a at 2k, b at 2k + 1
	gtLinkEdge* edge; // the links
	gtVec2* end;
	double* D;        // ends x ends, with links
	double* DL;       // ends x ends: the least walk from x to y that takes at least one link
	int32_t* way;     // the link DL[x][y] takes first: 2k (link k's a to b) or 2k + 1 (b to a)
	double* leave;    // per end x: min over y of DL[x][y]
	int32_t* next;    // the first hop of the best walk from x to y (ends x ends)
	uint8_t* by_link; // whether the direct hop x -> y is the link (ends x ends)
	double min_cost;  // the cheapest link
	// Parts (walking components, nav_reach.c): by_part when every end has one and the ends' walks
	// agree with them (finite exactly within a part); gains[c]: links shorten a walk within part c.
	const NavReach* reach;
	bool by_part;
	int32_t* part;       // per end
	uint8_t* gains;      // per part
	int32_t* order;      // the ends by part (when by_part; else in their order)
	int32_t* part_begin; // per part c: its ends are order[part_begin[c] .. part_begin[c + 1])
	// Per query.
	double *from_s, *via; // d0(s, x); min over x of d0(s, x) + D[x][y]
	gtVec2 source;        // what `via` is for
	bool has_source;
	gtDistance plain; // the backend's world distance, for world queries
	gtVec2* walk;     // a backend path, before it joins the answer
	int walk_capacity;
	// Lazy pricing (through_ends): straight-line bounds per end, the walks known so far.
	double *line_t, *bound, *to_t; // to_t[y]: the walk from p to y when known[y], else a lower bound of it
	uint8_t *tried, *known;
	// An unedited index answers walks through two queries of its own, one per source side, so
	// walks from s and walks from t never evict each other's source; NULL: the backend answers.
	gtEhlQuery* side[2];
};

void nav_link_table_free(LinkTable* t)
{
	if (!t) return;
	gt_free(t->edge), gt_free(t->end), gt_free(t->D), gt_free(t->next), gt_free(t->by_link);
	gt_free(t->DL), gt_free(t->way), gt_free(t->leave), gt_free(t->part), gt_free(t->gains), gt_free(t->order),
	    gt_free(t->part_begin);
	gt_free(t->from_s), gt_free(t->via), gt_free(t->walk);
	gt_free(t->line_t), gt_free(t->bound), gt_free(t->to_t), gt_free(t->tried), gt_free(t->known);
	gtEhlQuery_Destroy(t->side[0]), gtEhlQuery_Destroy(t->side[1]);
	gt_free(t);
}

static double plain_distance(gtNavQuery* q, const NavBackend* b, gtVec2 s, gtVec2 t, gtStatus* st, gtError* err)
{
	double d = INFINITY;
	*st = b->distance(q, s, t, &d, err);
	return d;
}

// DL from D: a walk from x to y that takes a link walks (as D says) to the entrance of the first
// link it takes, takes it, and goes on as D says. Only such walks can beat d0, so the queries price
// these alone.
static void with_a_link(LinkTable* t)
{
	int n = t->ends;
	for (size_t i = 0; i < (size_t)n * n; i++) t->DL[i] = INFINITY, t->way[i] = -1;
	for (int k = 0; k < t->links; k++)
		for (int dir = 0; dir < (t->edge[k].one_way ? 1 : 2); dir++) {
			int in = 2 * k + dir, out = 2 * k + 1 - dir;
			const double* from_out = t->D + (size_t)out * n;
			for (int x = 0; x < n; x++) {
				double to_in = t->D[(size_t)x * n + in] + t->edge[k].cost;
				if (isinf(to_in)) continue;
				double* row = t->DL + (size_t)x * n;
				int32_t* ways = t->way + (size_t)x * n;
				for (int y = 0; y < n; y++)
					if (to_in + from_out[y] < row[y]) row[y] = to_in + from_out[y], ways[y] = 2 * k + dir;
			}
		}
	for (int x = 0; x < n; x++) {
		t->leave[x] = INFINITY;
		for (int y = 0; y < n; y++)
			if (t->DL[(size_t)x * n + y] < t->leave[x]) t->leave[x] = t->DL[(size_t)x * n + y];
	}
}

// by_part and gains from the walks d0 between the ends (before the links) and DL.
static void find_gains(LinkTable* t, const double* d0)
{
	int n = t->ends;
	for (int x = 0; x < n; x++) t->order[x] = x;
	t->by_part = t->reach != NULL;
	for (int x = 0; x < n && t->by_part; x++) {
		t->part[x] = nav_reach_part(t->reach, t->end[x]);
		t->by_part = t->part[x] >= 0;
	}
	if (!t->by_part) return;
	memset(t->gains, 0, (size_t)nav_reach_parts(t->reach) + 1);
	for (int x = 0; x < n; x++)
		for (int y = 0; y < n; y++) {
			size_t xy = (size_t)x * n + y;
			bool same = t->part[x] == t->part[y];
			if (same != !isinf(d0[xy])) t->by_part = false; // the parts are not the walks' components
			if (same && t->DL[xy] < d0[xy]) t->gains[t->part[x]] = 1;
		}
	if (!t->by_part) return;
	int32_t parts = nav_reach_parts(t->reach), *begin = t->part_begin; // a counting sort by part
	for (int x = 0; x < n; x++) begin[t->part[x] + 2]++;
	for (int32_t c = 0; c < parts; c++) begin[c + 2] += begin[c + 1];
	for (int x = 0; x < n; x++) t->order[begin[t->part[x] + 1]++] = x;
}

// Walks between every two ends, the link edges, then the closure.
static gtStatus close_table(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtError* err)
{
	int n = t->ends;
	for (int x = 0; x < n; x++) {
		for (int y = 0; y < n; y++) {
			size_t xy = (size_t)x * n + y;
			gtStatus st = GT_OK;
			t->D[xy] = x == y  ? 0
			           : y < x ? t->D[(size_t)y * n + x]
			                   : plain_distance(q, b, t->end[x], t->end[y], &st, err);
			if (st) return st;
			t->next[xy] = y;
			t->by_link[xy] = 0;
		}
	}
	double* d0 = gt_malloc(((size_t)n * n + 1) * sizeof *d0); // the walks, before the links
	if (!d0) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	memcpy(d0, t->D, (size_t)n * n * sizeof *d0);
	for (int k = 0; k < t->links; k++) {
		const gtLinkEdge* l = &t->edge[k];
		for (int side = 0; side < (l->one_way ? 1 : 2); side++) {
			size_t xy = side ? (size_t)(2 * k + 1) * n + 2 * k : (size_t)(2 * k) * n + 2 * k + 1;
			if (l->cost < t->D[xy]) t->D[xy] = l->cost, t->by_link[xy] = 1;
		}
	}
	for (int k = 0; k < n; k++)
		for (int x = 0; x < n; x++) {
			double xk = t->D[(size_t)x * n + k];
			if (isinf(xk)) continue;
			for (int y = 0; y < n; y++) {
				double through = xk + t->D[(size_t)k * n + y];
				if (through < t->D[(size_t)x * n + y]) {
					t->D[(size_t)x * n + y] = through;
					t->next[(size_t)x * n + y] = t->next[(size_t)x * n + k];
				}
			}
		}
	with_a_link(t);
	find_gains(t, d0);
	gt_free(d0);
	return GT_OK;
}

gtStatus nav_link_table_create(gtNavQuery* q, const NavBackend* b, const gtLinkEdge* links, int count, LinkTable** out,
                               gtError* err)
{
	*out = NULL;
	LinkTable* t = gt_calloc(1, sizeof *t);
	if (!t) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	size_t n = 2 * (size_t)count;
	t->links = count, t->ends = (int)n;
	t->edge = gt_malloc(((size_t)count + 1) * sizeof *t->edge);
	t->end = gt_malloc((n + 1) * sizeof *t->end);
	t->D = gt_malloc((n * n + 1) * sizeof *t->D);
	t->DL = gt_malloc((n * n + 1) * sizeof *t->DL);
	t->way = gt_malloc((n * n + 1) * sizeof *t->way);
	t->leave = gt_malloc((n + 1) * sizeof *t->leave);
	t->next = gt_malloc((n * n + 1) * sizeof *t->next);
	t->by_link = gt_malloc(n * n + 1);
	t->from_s = gt_malloc((n + 1) * sizeof *t->from_s);
	t->via = gt_malloc((n + 1) * sizeof *t->via);
	t->line_t = gt_malloc((n + 1) * sizeof *t->line_t);
	t->bound = gt_malloc((n + 1) * sizeof *t->bound);
	t->to_t = gt_malloc((n + 1) * sizeof *t->to_t);
	t->tried = gt_malloc(n + 1);
	t->known = gt_malloc(n + 1);
	t->part = gt_malloc((n + 1) * sizeof *t->part);
	t->order = gt_malloc((n + 1) * sizeof *t->order);
	t->walk_capacity = gtNav_PathCapacity(q->nav);
	t->walk = gt_malloc((size_t)t->walk_capacity * sizeof *t->walk);
	if (!t->part || !t->order || !t->DL || !t->way || !t->leave || !t->line_t || !t->bound || !t->to_t || !t->tried ||
	    !t->known || !t->walk || !t->edge || !t->end || !t->D || !t->next || !t->by_link || !t->from_s || !t->via) {
		nav_link_table_free(t);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	}
	t->min_cost = INFINITY;
	t->links = 0;
	for (int i = 0; i < count; i++) {
		const gtMap* map = q->nav->map;
		if (gtMap_CheckPoint(map, links[i].a) || gtMap_CheckPoint(map, links[i].b)) continue; // walled in
		int k = t->links++;
		t->edge[k] = links[i];
		t->end[2 * k] = links[i].a, t->end[2 * k + 1] = links[i].b;
		if (links[i].cost < t->min_cost) t->min_cost = links[i].cost;
	}
	t->ends = 2 * t->links;
	gtStatus st = GT_OK;
	const gtNav* nav = q->nav;
	if (nav->ehl && nav->added == 0 && nav->freed == 0)
		for (int side = 0; side < 2 && !st; side++) st = gtEhlQuery_Create(nav->ehl, &t->side[side], err);
	if (!st) st = nav_reach_made(q, &t->reach, err);
	if (!st && (!(t->gains = gt_malloc((size_t)nav_reach_parts(t->reach) + 1)) ||
	            !(t->part_begin = gt_calloc((size_t)nav_reach_parts(t->reach) + 2, sizeof *t->part_begin))))
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	if (!st) st = close_table(t, q, b, err);
	if (!st) t->plain = b->world_distance(q);
	if (st) {
		nav_link_table_free(t);
		return st;
	}
	*out = t;
	return GT_OK;
}

// sqrt, not hypot: these run per end and per candidate, and only bound or price what d0 decides.
static double line(gtVec2 a, gtVec2 b)
{
	double dx = b.x - a.x, dy = b.y - a.y;
	return sqrt(dx * dx + dy * dy);
}

// A lower bound of any walk from s to t that takes a link: to the nearest end, the cheapest link,
// from the nearest end.
static double link_floor(const LinkTable* t, gtVec2 s, gtVec2 p)
{
	double in = INFINITY, out = INFINITY; // squared until the end
	for (int x = 0; x < t->ends; x++) {
		double ax = t->end[x].x - s.x, ay = t->end[x].y - s.y, bx = p.x - t->end[x].x, by = p.y - t->end[x].y;
		if (ax * ax + ay * ay < in) in = ax * ax + ay * ay;
		if (bx * bx + by * by < out) out = bx * bx + by * by;
	}
	return sqrt(in) + t->min_cost + sqrt(out);
}

// The parts of s and p (nav_reach_part) when the table may use them; else false, both -1, and
// every end is priced.
static bool parts_of(const LinkTable* t, gtVec2 s, gtVec2 p, int32_t* cs, int32_t* cp)
{
	*cs = *cp = -1;
	if (!t->by_part) return false;
	int32_t a = nav_reach_part(t->reach, s), c = nav_reach_part(t->reach, p);
	if (a < 0 || c < 0) return false;
	*cs = a, *cp = c;
	return true;
}

// The walk from src to dst when it is below limit, else some value >= limit (then the walk is at
// least limit): an index prices only the hubs whose bound is below the limit.
static double walk_below(LinkTable* t, gtNavQuery* q, const NavBackend* b, int side, gtVec2 src, gtVec2 dst,
                         double limit, gtStatus* st, gtError* err)
{
	if (!t->side[side]) return plain_distance(q, b, src, dst, st, err);
	*st = GT_OK;
	if (gtEhlQuery_SetSource(t->side[side], src, NULL)) return INFINITY; // points checked before
	return gtEhlQuery_DistanceBelow(t->side[side], dst, limit);
}

// The walk from src to dst (d0) on source side `side` (0: the query's s, 1: its t).
static double walk(LinkTable* t, gtNavQuery* q, const NavBackend* b, int side, gtVec2 src, gtVec2 dst, gtStatus* st,
                   gtError* err)
{
	return walk_below(t, q, b, side, src, dst, INFINITY, st, err);
}

// via[y] for source s: the least walk from s that ends at end y, having walked to some end first.
static gtStatus set_source(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 s, int32_t cs, gtError* err)
{
	if (t->has_source && t->source.x == s.x && t->source.y == s.y) return GT_OK;
	int n = t->ends;
	gtStatus st = GT_OK;
	for (int x = 0; x < n && !st; x++) // a walk from s reaches the ends of its part only
		t->from_s[x] = cs >= 0 && t->part[x] != cs ? INFINITY : walk(t, q, b, 0, s, t->end[x], &st, err);
	if (st) return st;
	for (int y = 0; y < n; y++) t->via[y] = INFINITY;
	for (int x = 0; x < n; x++) {
		if (isinf(t->from_s[x])) continue;
		const double* row = t->DL + (size_t)x * n;
		for (int y = 0; y < n; y++)
			if (t->from_s[x] + row[y] < t->via[y]) t->via[y] = t->from_s[x] + row[y];
	}
	t->source = s;
	t->has_source = true;
	return GT_OK;
}

// The ends of part c (all ends when c < 0), *count of them.
static const int32_t* ends_of(const LinkTable* t, int32_t c, int* count)
{
	if (c < 0) {
		*count = t->ends;
		return t->order;
	}
	*count = t->part_begin[c + 1] - t->part_begin[c];
	return t->order + t->part_begin[c];
}

// The best of d0 and every walk through a link, for one pair: the ends are priced lazily, x in the
// order of its straight-line bound |s x| + min over y of (DL[x][y] + |y p|), the walk from y to p
// only when the bound through y still beats the best. A cheaper bound first, |s x| + leave[x] +
// the straight line from the nearest end to p, settles most pairs no link helps in O(ends).
// *first, *last: the ends it walks between (-1: d0). cs, cp: the parts of s and p (-1: unknown);
// an end x outside s's part, or y outside p's part, is no first entrance nor last exit.
static double through_ends(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 s, gtVec2 p, double d0, int32_t cs,
                           int32_t cp, int* first, int* last, gtStatus* st, gtError* err)
{
	*first = *last = -1;
	*st = GT_OK;
	int n = t->ends, nx, ny;
	const int32_t* xs = ends_of(t, cs, &nx);
	const int32_t* ys = ends_of(t, cp, &ny);
	double gap = INFINITY, least = INFINITY;
	for (int j = 0; j < ny; j++) {
		int y = ys[j];
		t->line_t[y] = t->to_t[y] = line(t->end[y], p), t->known[y] = 0;
		if (t->line_t[y] < gap) gap = t->line_t[y];
	}
	for (int i = 0; i < nx; i++) {
		int x = xs[i];
		t->bound[x] = line(s, t->end[x]) + t->leave[x] + gap;
		if (t->bound[x] < least) least = t->bound[x];
	}
	if (least >= d0) return d0;
	for (int i = 0; i < nx; i++) {
		int x = xs[i];
		t->tried[x] = 0;
		if (t->bound[x] >= d0) continue;
		const double* row = t->DL + (size_t)x * n;
		double through = INFINITY;
		if (ny == n) // every end (one part holds them all): the plain loop, which the compiler vectorises
			for (int y = 0; y < n; y++) through = row[y] + t->line_t[y] < through ? row[y] + t->line_t[y] : through;
		else
			for (int j = 0; j < ny; j++)
				if (row[ys[j]] + t->line_t[ys[j]] < through) through = row[ys[j]] + t->line_t[ys[j]];
		t->bound[x] = line(s, t->end[x]) + through;
	}
	double best = d0;
	for (;;) {
		int x = -1;
		for (int i = 0; i < nx; i++)
			if (!t->tried[xs[i]] && (x < 0 || t->bound[xs[i]] < t->bound[x])) x = xs[i];
		if (x < 0 || t->bound[x] >= best) break;
		t->tried[x] = 1;
		// Only a walk to x below best minus the least way on from x can lead to a better walk (a hair
		// more, so that the way on recomputed from the bound never makes a walk at the limit look better).
		double on = t->bound[x] - line(s, t->end[x]);
		double a = walk_below(t, q, b, 0, s, t->end[x], best - on + 1e-9 * (1 + best), st, err);
		if (*st) return INFINITY;
		if (isinf(a)) continue;
		const double* row = t->DL + (size_t)x * n;
		for (int j = 0; j < ny; j++) {
			int y = ys[j];
			double need = best - a - row[y];    // the walk from y to p must be below this
			if (!(t->to_t[y] < need)) continue; // NaN too: no way on from x to y while best is infinite
			if (!t->known[y]) {                 // walks are symmetric; at or above `need` it stays a lower bound
				double got = walk_below(t, q, b, 1, p, t->end[y], need, st, err);
				if (*st) return INFINITY;
				// Without an index side the walk is exact whatever the limit: keep it.
				t->known[y] = got < need || !t->side[1], t->to_t[y] = t->known[y] ? got : need;
				if (!t->known[y]) continue;
			}
			if (a + row[y] + t->to_t[y] < best) best = a + row[y] + t->to_t[y], *first = x, *last = y;
		}
	}
	return best;
}

gtStatus nav_link_table_distance(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 s, gtVec2 p, double* d,
                                 gtError* err)
{
	int32_t cs, cp;
	bool parts = parts_of(t, s, p, &cs, &cp);
	if (parts && cs == cp && !t->gains[cs]) return b->distance(q, s, p, d, err); // no link helps
	gtStatus st = GT_OK;
	double d0 = parts && cs != cp ? INFINITY : plain_distance(q, b, s, p, &st, err);
	int first, last;
	if (!st) *d = through_ends(t, q, b, s, p, d0, cs, cp, &first, &last, &st, err);
	return st;
}

// Appends the backend's path from a to c after points[*count - 1] (which is a), counting the points
// even where the caller's buffer has no room for them.
static gtStatus append_walk(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 a, gtVec2 c, gtVec2* points,
                            gtLinkId* links, int capacity, int* count, gtError* err)
{
	int got = 0;
	gtStatus st = b->path(q, a, c, t->walk, t->walk_capacity, &got, NULL, err);
	if (st) return st;
	for (int i = 1; i < got; i++, ++*count) {
		if (*count < capacity) points[*count] = t->walk[i];
		if (links && *count - 1 < capacity) links[*count - 1] = GT_LINK_NONE;
	}
	return GT_OK;
}

// Appends D's walk from end x to end y, hop by hop (a hop is a link or a backend path).
static gtStatus append_route(LinkTable* t, gtNavQuery* q, const NavBackend* b, int x, int y, gtVec2* points,
                             gtLinkId* links, int capacity, int* count, gtError* err)
{
	int n = t->ends;
	gtStatus st = GT_OK;
	while (!st && x != y) {
		int hop = t->next[(size_t)x * n + y];
		if (t->by_link[(size_t)x * n + hop]) {
			if (*count < capacity) points[*count] = t->end[hop];
			if (links && *count - 1 < capacity) links[*count - 1] = t->edge[x / 2].id;
			++*count;
		} else {
			st = append_walk(t, q, b, t->end[x], t->end[hop], points, links, capacity, count, err);
		}
		x = hop;
	}
	return st;
}

gtStatus nav_link_table_path(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 s, gtVec2 p, gtVec2* points,
                             gtLinkId* links, int capacity, int* count, double* d, gtError* err)
{
	*count = 0;
	int32_t cs, cp;
	bool parts = parts_of(t, s, p, &cs, &cp);
	gtStatus st = GT_OK;
	double d0 = parts && cs != cp ? INFINITY : plain_distance(q, b, s, p, &st, err);
	int first = -1, last = -1;
	double best = st ? INFINITY
	              : parts && cs == cp && !t->gains[cs]
	                  ? d0
	                  : through_ends(t, q, b, s, p, d0, cs, cp, &first, &last, &st, err);
	if (d) *d = best;
	if (st || isinf(best)) return st;
	if (last < 0) { // no link on the way
		st = b->path(q, s, p, points, capacity, count, NULL, err);
		for (int i = 0; !st && links && i < *count; i++) links[i] = GT_LINK_NONE;
		return st;
	}
	int n = t->ends, k = t->way[(size_t)first * n + last] / 2, dir = t->way[(size_t)first * n + last] % 2;
	*count = 1;
	if (capacity >= 1) points[0] = s;
	st = append_walk(t, q, b, s, t->end[first], points, links, capacity, count, err);
	if (!st) st = append_route(t, q, b, first, 2 * k + dir, points, links, capacity, count, err);
	if (!st) {
		if (*count < capacity) points[*count] = t->end[2 * k + 1 - dir];
		if (links && *count - 1 < capacity) links[*count - 1] = t->edge[k].id;
		++*count;
		st = append_route(t, q, b, 2 * k + 1 - dir, last, points, links, capacity, count, err);
	}
	if (!st) st = append_walk(t, q, b, t->end[last], p, points, links, capacity, count, err);
	if (!st && links && *count <= capacity) links[*count - 1] = GT_LINK_NONE;
	if (!st && *count > capacity)
		st = gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "the path has %d points, the buffer holds %d", *count, capacity);
	return st;
}

// A world query's distances share `from`: via[y] is priced once per source, then each candidate
// walks from the ends whose bound still beats d0.
double nav_link_table_world(LinkTable* t, gtNavQuery* q, const NavBackend* b, gtVec2 from, gtVec2 to)
{
	int32_t cs, cp;
	bool parts = parts_of(t, from, to, &cs, &cp);
	if (parts && cs == cp && !t->gains[cs]) return t->plain.fcn(t->plain.context, from, to);
	double best = parts && cs != cp ? INFINITY : t->plain.fcn(t->plain.context, from, to);
	if (best <= link_floor(t, from, to)) return best;
	gtStatus st = set_source(t, q, b, from, cs, NULL);
	int n = t->ends;
	for (int y = 0; y < n; y++)
		t->bound[y] = cp >= 0 && t->part[y] != cp ? INFINITY : t->via[y] + line(t->end[y], to), t->tried[y] = 0;
	while (!st) { // the exits in the order of their bounds, while one may still beat the best
		int y = -1;
		for (int i = 0; i < n; i++)
			if (!t->tried[i] && (y < 0 || t->bound[i] < t->bound[y])) y = i;
		if (y < 0 || !(t->bound[y] < best)) break;
		t->tried[y] = 1;
		double rest = walk(t, q, b, 1, to, t->end[y], &st, NULL); // walks are symmetric
		if (t->via[y] + rest < best) best = t->via[y] + rest;
	}
	return st ? INFINITY : best;
}
