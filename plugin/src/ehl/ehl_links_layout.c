// An index's links as the loader and the builder both keep them (ehl_links.h): the ends'
// positions after the corners, and the bound that tells when no link can beat a straight line.
// Apart from ehl_links.c so that a program that only loads an index links none of the builder.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "ehl/ehl_end_ranks.h"
#include "ehl/ehl_links.h"

// Whether link k may beat a straight line: a link that costs at least the line between its ends
// never does (a walk through it is no shorter than one along that line).
static bool link_shortens(const gtEhl* e, int k)
{
	return gt_ehl_link_is_short(&e->links[k]); // as the ranks of their ends (ehl_end_ranks.h)
}

// e->end_gap and e->cheapest_link (ehl_layout.h) over the links that shorten: a walk from s to t
// (who see each other) beats the line only through one of those, so it spends at least the gap
// from s to such a link's end, its cost and the gap from such an end to t. O(blocks x ends), once
// per build or load.
static gtStatus link_gaps(gtEhl* e, gtError* err)
{
	int width = gtMap_Width(e->map), height = gtMap_Height(e->map), side = width > height ? width : height;
	e->gap_side = (side + 63) / 64;
	e->gap_columns = (width + e->gap_side - 1) / e->gap_side;
	e->gap_rows = (height + e->gap_side - 1) / e->gap_side;
	int64_t blocks = (int64_t)e->gap_columns * e->gap_rows;
	e->end_gap = gt_malloc(((size_t)blocks + 1) * sizeof *e->end_gap);
	if (!e->end_gap) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the index's links");
	// The ends of the links that shorten, gathered once: the blocks' loop reads them alone (with the
	// test per end inside it, 4,096 blocks x 200 ends cost AR0602SR's build 42M instructions).
	gtVec2* ends = gt_malloc(((size_t)2 * e->link_count + 1) * sizeof *ends);
	if (!ends) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the index's links");
	int end_count = 0;
	e->cheapest_link = INFINITY;
	for (int k = 0; k < e->link_count; k++)
		if (link_shortens(e, k)) {
			e->cheapest_link = fmin(e->cheapest_link, e->links[k].cost);
			ends[end_count++] = e->points[e->corners + 2 * k], ends[end_count++] = e->points[e->corners + 2 * k + 1];
		}
	for (int64_t c = 0; c < blocks; c++) {
		double x0 = (double)(c % e->gap_columns) * e->gap_side, y0 = (double)(c / e->gap_columns) * e->gap_side;
		double x1 = x0 + e->gap_side, y1 = y0 + e->gap_side, best = INFINITY;
		for (int i = 0; i < end_count; i++) {
			gtVec2 p = ends[i];
			double dx = p.x < x0 ? x0 - p.x : p.x > x1 ? p.x - x1 : 0;
			double dy = p.y < y0 ? y0 - p.y : p.y > y1 ? p.y - y1 : 0;
			double d = dx * dx + dy * dy; // never NaN: fmin's call is not needed
			best = d < best ? d : best;
		}
		float gap = (float)sqrt(best);
		e->end_gap[c] = (double)gap > sqrt(best) ? nextafterf(gap, 0) : gap;
	}
	gt_free(ends);
	return GT_OK;
}

struct gtEhlShortLink {
	gtVec2 a, b;
	double length;
	double x0, y0, x1, y1; // the box of a and b
};

static int by_length(const void* x, const void* y)
{
	double a = ((const struct gtEhlShortLink*)x)->length, b = ((const struct gtEhlShortLink*)y)->length;
	return (a > b) - (a < b);
}

// e->short_links and e->line_slack: the links that shorten, shortest first, and the sum of what
// each saves on its straight line (its length minus its cost).
static gtStatus short_links(gtEhl* e, gtError* err)
{
	e->short_links = gt_malloc(((size_t)e->link_count + 1) * sizeof *e->short_links);
	if (!e->short_links) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the index's links");
	e->short_count = 0;
	e->line_slack = 0;
	for (int k = 0; k < e->link_count; k++) {
		if (!link_shortens(e, k)) continue;
		gtVec2 a = e->links[k].a, b = e->links[k].b;
		double length = hypot(b.x - a.x, b.y - a.y);
		e->short_links[e->short_count++] = (struct gtEhlShortLink){
		    a, b, length, fmin(a.x, b.x), fmin(a.y, b.y), fmax(a.x, b.x), fmax(a.y, b.y)};
		e->line_slack += length - e->links[k].cost;
	}
	qsort(e->short_links, (size_t)e->short_count, sizeof *e->short_links, by_length);
	return GT_OK;
}

static double distance(gtVec2 p, gtVec2 q)
{
	return sqrt((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y));
}

// Whether both ends of l are at least r from p along an axis. With r a little above a gap (by far
// more than the rounding of distance()'s squares, sum and root), both distances are then >= the gap.
static inline bool ends_apart(const struct gtEhlShortLink* l, gtVec2 p, double r)
{
	double gx = l->x0 - p.x > p.x - l->x1 ? l->x0 - p.x : p.x - l->x1;
	double gy = l->y0 - p.y > p.y - l->y1 ? l->y0 - p.y : p.y - l->y1;
	return gx >= r || gy >= r;
}

// Whether no walk through links beats the line from s to t (who see each other), by the links'
// segments. A walk whose first link cheaper than its line is k (from end x to end y; links that
// cost at least their line only lengthen the straight steps around them) is at least |s x| +
// cost_k + |y t| minus what the other links cheaper than their line save, so at least |s x| +
// |x y| + |y t| - line_slack. The line wins when that is >= line for every such link k, both
// ways. A link shorter than line + line_slack is the only kind that can fail it (|s x| + |y t| >=
// 0), so the links are taken shortest first and the scan stops at the first longer one: for a
// short line and links that save little (stairs), it costs a comparison or two. The margin keeps
// the answer to the merge when a sum is within rounding of the line.
bool gt_ehl_line_wins_paired(const gtEhl* e, gtVec2 s, gtVec2 t, double line)
{
	double need = line * (1 + 0x1p-40) + e->line_slack;
	for (int k = 0; k < e->short_count; k++) {
		const struct gtEhlShortLink* l = &e->short_links[k];
		if (l->length >= need) return true;
		double rest = need - l->length; // |s x| + |y t| must reach it, both ways round
		// First by the ends' box: one of the ends is nearer than rest to s and one to t in a walk
		// that fails. Most links lie far from both (100 stairs on AR0602SR: every kNN pricing in
		// sight measured all of them, ~2,400 instructions a call).
		double far = rest * (1 + 0x1p-50);
		if (ends_apart(l, s, far) || ends_apart(l, t, far)) continue;
		double sa = distance(l->a, s), sb = distance(l->b, s);
		if (sa >= rest && sb >= rest) continue;
		double ta = distance(l->a, t), tb = distance(l->b, t);
		if (sa + tb < rest || sb + ta < rest) return false;
	}
	return true;
}

gtStatus gt_ehl_check_links(const gtEhl* e, const gtEhlLink* links, int count, gtError* err)
{
	if (count < 0 || count > GT_EHL_MAX_LINKS || (count > 0 && !links))
		return gt_fail(err, GT_ERR_INVALID_ARG, "%d links: an index takes 0 to %d", count, GT_EHL_MAX_LINKS);
	if (e->corners + 2 * count > GT_EHL_MAX_VERTICES)
		return gt_fail(err, GT_ERR_LIMIT, "EHL supports up to %d vertices; %d corners and %d link ends are more",
		               GT_EHL_MAX_VERTICES, e->corners, 2 * count);
	for (int k = 0; k < count; k++) {
		gtPointCheck ca = gtMap_CheckPoint(e->map, links[k].a), cb = gtMap_CheckPoint(e->map, links[k].b);
		if (ca != GT_POINT_VALID || cb != GT_POINT_VALID) {
			gtVec2 p = ca != GT_POINT_VALID ? links[k].a : links[k].b;
			return gt_fail(err, GT_ERR_INVALID_POINT, "link %d end %s (%g, %g): %s", k,
			               ca != GT_POINT_VALID ? "a" : "b", p.x, p.y,
			               gtPointCheckName(ca != GT_POINT_VALID ? ca : cb));
		}
		if (!(links[k].cost >= 0) || isinf(links[k].cost))
			return gt_fail(err, GT_ERR_INVALID_ARG, "link %d: cost %g is not a finite number >= 0", k, links[k].cost);
	}
	return GT_OK;
}

gtStatus gt_ehl_take_links(gtEhl* e, const gtEhlLink* links, int count, gtError* err)
{
	gtStatus checked = gt_ehl_check_links(e, links, count, err);
	if (checked) return checked;
	e->link_count = count;
	e->n = e->corners + 2 * count;
	e->links = gt_malloc(((size_t)count + 1) * sizeof *e->links);
	e->points = gt_malloc(((size_t)e->n + 1) * sizeof *e->points);
	if (!e->links || !e->points) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the index's links");
	if (count) memcpy(e->links, links, (size_t)count * sizeof *links);
	for (int v = 0; v < e->corners; v++) e->points[v] = (gtVec2){e->vertices[v].x, e->vertices[v].y};
	for (int k = 0; k < count; k++) {
		e->points[e->corners + 2 * k] = links[k].a;
		e->points[e->corners + 2 * k + 1] = links[k].b;
	}
	if (!count) return GT_OK;
	gtStatus st = link_gaps(e, err);
	return st ? st : short_links(e, err);
}

int gtEhl_Links(const gtEhl* ehl, const gtEhlLink** links)
{
	if (links) *links = ehl->links;
	return ehl->link_count;
}
