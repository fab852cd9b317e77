// Constrained Delaunay triangulation of lattice points: points inserted one by one in Hilbert-curve
// order (each found by walking from the last, then made Delaunay by Lawson's flips), constraints
// forced in by flipping the edges that cross them (Sloan's method), then Lawson's flips over the
// edges that are not constraints until none is left.
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "mesh/cdt.h"

static int64_t orient(const gtCdt* c, int a, int b, int p)
{
	return gt_lattice_orient(c->x, c->y, a, b, p);
}

// A signed 128-bit integer in two's complement: the in-circle determinant needs about 70 bits.
typedef struct Wide {
	uint64_t hi, lo;
} Wide;

static Wide wide_product(int64_t a, int64_t b)
{
	uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
	uint64_t x0 = x & 0xffffffffu, x1 = x >> 32, y0 = y & 0xffffffffu, y1 = y >> 32;
	uint64_t low = x0 * y0, cross1 = x0 * y1, cross2 = x1 * y0;
	uint64_t middle = (low >> 32) + (cross1 & 0xffffffffu) + (cross2 & 0xffffffffu);
	Wide w = {x1 * y1 + (cross1 >> 32) + (cross2 >> 32) + (middle >> 32), (low & 0xffffffffu) | (middle << 32)};
	if ((a < 0) != (b < 0)) { // negate
		w.lo = ~w.lo + 1;
		w.hi = ~w.hi + (w.lo == 0);
	}
	return w;
}

static Wide wide_sum(Wide a, Wide b)
{
	Wide s = {a.hi + b.hi, a.lo + b.lo};
	s.hi += s.lo < a.lo;
	return s;
}

// > 0 when d lies inside the circle through a, b, c (counter-clockwise), 0 on it.
static int in_circle(const gtCdt* c, int a, int b, int cc, int d)
{
	int64_t adx = c->x[a] - c->x[d], ady = c->y[a] - c->y[d];
	int64_t bdx = c->x[b] - c->x[d], bdy = c->y[b] - c->y[d];
	int64_t cdx = c->x[cc] - c->x[d], cdy = c->y[cc] - c->y[d];
	Wide sum = wide_product(adx * adx + ady * ady, bdx * cdy - cdx * bdy);
	sum = wide_sum(sum, wide_product(bdx * bdx + bdy * bdy, cdx * ady - adx * cdy));
	sum = wide_sum(sum, wide_product(cdx * cdx + cdy * cdy, adx * bdy - bdx * ady));
	if (sum.hi >> 63) return -1;
	return (sum.hi | sum.lo) != 0;
}

static int next3(int i)
{
	return i == 2 ? 0 : i + 1;
}

static int prev3(int i)
{
	return i == 0 ? 2 : i - 1;
}

static void set_triangle(gtCdt* c, int t, int a, int b, int d, int32_t across_ab, int32_t across_bd, int32_t across_da)
{
	c->t[t] = (gtCdtTriangle){{a, b, d}, {across_ab, across_bd, across_da}, {0, 0, 0}};
	c->vertex_triangle[a] = c->vertex_triangle[b] = c->vertex_triangle[d] = t;
}

// Triangle t's neighbour that was `from` is now `to`.
static void repoint(gtCdt* c, int32_t t, int32_t from, int32_t to)
{
	if (t < 0) return;
	for (int i = 0; i < 3; i++)
		if (c->t[t].n[i] == from) c->t[t].n[i] = to;
}

static int index_of(const gtCdtTriangle* t, int32_t v)
{
	return t->v[0] == v ? 0 : t->v[1] == v ? 1 : 2;
}

static bool push_pending(gtCdt* c, int64_t* count, int32_t a, int32_t b)
{
	if (!GT_GROW(c->pending, c->pending_capacity, *count + 2, 1024)) return false;
	c->pending[(*count)++] = a;
	c->pending[(*count)++] = b;
	return true;
}

// Flips edge e of triangle t (a -> b, with p opposite) and its twin in u (b -> a, with d opposite):
// t becomes (p, a, d) and u (d, b, p), constraint marks moving with their edges.
static int32_t flip(gtCdt* c, int32_t t, int e)
{
	gtCdtTriangle T = c->t[t];
	int32_t a = T.v[e], b = T.v[next3(e)], p = T.v[prev3(e)], u = T.n[e];
	gtCdtTriangle U = c->t[u];
	int j = index_of(&U, b); // U's edge j runs b -> a
	int32_t d = U.v[prev3(j)];
	int32_t across_bp = T.n[next3(e)], across_pa = T.n[prev3(e)], across_ad = U.n[next3(j)], across_db = U.n[prev3(j)];
	c->t[t] = (gtCdtTriangle){{p, a, d}, {across_pa, across_ad, u}, {T.fixed[prev3(e)], U.fixed[next3(j)], 0}};
	c->t[u] = (gtCdtTriangle){{d, b, p}, {across_db, across_bp, t}, {U.fixed[prev3(j)], T.fixed[next3(e)], 0}};
	repoint(c, across_ad, u, t);
	repoint(c, across_bp, t, u);
	c->vertex_triangle[a] = c->vertex_triangle[p] = t;
	c->vertex_triangle[b] = c->vertex_triangle[d] = u;
	return u;
}

// Lawson's flips over the pending (triangle, edge) pairs; each flip queues the quadrilateral's four
// outer edges. Cocircular points are left alone, so the flips end.
static bool legalize(gtCdt* c, int64_t count)
{
	while (count > 0) {
		int e = c->pending[--count];
		int32_t t = c->pending[--count];
		const gtCdtTriangle* T = &c->t[t];
		int32_t u = T->n[e];
		if (u < 0 || T->fixed[e]) continue;
		int32_t a = T->v[e], b = T->v[next3(e)], p = T->v[prev3(e)];
		int32_t d = c->t[u].v[prev3(index_of(&c->t[u], b))];
		// Inside the circle and across a-b: the quadrilateral is convex, the flip valid.
		if (in_circle(c, a, b, p, d) <= 0) continue;
		int32_t flipped = flip(c, t, e);
		if (!push_pending(c, &count, t, 0) || !push_pending(c, &count, t, 1) || !push_pending(c, &count, flipped, 0) ||
		    !push_pending(c, &count, flipped, 1))
			return false;
	}
	return true;
}

// The triangle holding point p, walking from the last one made; *edge is the edge p lies on, -1
// inside. Walks in a Delaunay triangulation always end; the step limit guards the rest.
static int32_t locate(const gtCdt* c, int32_t p, int* edge)
{
	int32_t t = c->last;
	for (int64_t step = 0; step < 4 * (int64_t)c->count + 16; step++) {
		const gtCdtTriangle* T = &c->t[t];
		int32_t next = -1;
		for (int k = 0; k < 3 && next < 0; k++) {
			int e = (int)((step + k) % 3);
			if (orient(c, T->v[e], T->v[next3(e)], p) < 0) next = T->n[e];
		}
		if (next < 0) {
			*edge = -1;
			for (int e = 0; e < 3; e++)
				if (orient(c, T->v[e], T->v[next3(e)], p) == 0) *edge = e;
			return t;
		}
		t = next;
	}
	return -1;
}

static bool insert_inside(gtCdt* c, int32_t t, int32_t p)
{
	gtCdtTriangle T = c->t[t];
	int32_t t2 = c->count++, t3 = c->count++;
	set_triangle(c, t, T.v[0], T.v[1], p, T.n[0], t2, t3);
	set_triangle(c, t2, T.v[1], T.v[2], p, T.n[1], t3, t);
	set_triangle(c, t3, T.v[2], T.v[0], p, T.n[2], t, t2);
	repoint(c, T.n[1], t, t2);
	repoint(c, T.n[2], t, t3);
	int64_t count = 0;
	return push_pending(c, &count, t, 0) && push_pending(c, &count, t2, 0) && push_pending(c, &count, t3, 0) &&
	       legalize(c, count);
}

// p on edge e (a -> b) of t: t and the triangle across are each split in two.
static bool insert_on_edge(gtCdt* c, int32_t t, int e, int32_t p)
{
	gtCdtTriangle T = c->t[t];
	int32_t a = T.v[e], b = T.v[next3(e)], q = T.v[prev3(e)], u = T.n[e];
	int32_t tb = c->count++, ua = u >= 0 ? c->count++ : -1;
	int64_t count = 0;
	set_triangle(c, t, a, p, q, ua, tb, T.n[prev3(e)]);
	set_triangle(c, tb, p, b, q, u, T.n[next3(e)], t);
	repoint(c, T.n[next3(e)], t, tb);
	if (!push_pending(c, &count, t, 2) || !push_pending(c, &count, tb, 1)) return false;
	if (u >= 0) {
		gtCdtTriangle U = c->t[u];
		int j = index_of(&U, b);
		int32_t d = U.v[prev3(j)], across_ad = U.n[next3(j)], across_db = U.n[prev3(j)];
		set_triangle(c, u, b, p, d, tb, ua, across_db);
		set_triangle(c, ua, p, a, d, t, across_ad, u);
		repoint(c, across_ad, u, ua);
		if (!push_pending(c, &count, u, 2) || !push_pending(c, &count, ua, 1)) return false;
	}
	return legalize(c, count);
}

// Position of (x, y) on the Hilbert curve over a 2^16 square: points close on it are close on the
// map, so each walk is short.
static uint64_t hilbert_index(uint32_t x, uint32_t y)
{
	const uint32_t side = 1u << 16;
	uint64_t d = 0;
	for (uint32_t s = side / 2; s > 0; s /= 2) {
		uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
		d += (uint64_t)s * s * ((3 * rx) ^ ry);
		if (ry == 0) {
			if (rx == 1) x = side - 1 - x, y = side - 1 - y;
			uint32_t swap = x;
			x = y, y = swap;
		}
	}
	return d;
}

typedef struct Keyed {
	uint64_t key;
	int32_t point;
} Keyed;

static int by_key(const void* a, const void* b)
{
	uint64_t x = ((const Keyed*)a)->key, y = ((const Keyed*)b)->key;
	return (x > y) - (x < y);
}

gtStatus gt_cdt_triangulate(gtCdt* c, const int32_t* x, const int32_t* y, int count, int w, int h, gtError* err)
{
	memset(c, 0, sizeof *c);
	c->x = x, c->y = y, c->point_count = count;
	if (count < 4 || x[0] != 0 || y[0] != 0 || x[1] != w || y[1] != 0 || x[2] != w || y[2] != h || x[3] != 0 ||
	    y[3] != h)
		return gt_fail(err, GT_ERR_INVALID_ARG, "triangulation: the first points must be the rectangle's corners");
	c->t = gt_malloc(((size_t)count * 2 + 4) * sizeof *c->t); // a triangulation of n points has at most 2n - 5
	c->vertex_triangle = gt_malloc((size_t)count * sizeof *c->vertex_triangle);
	Keyed* order = gt_malloc((size_t)count * sizeof *order);
	if (!c->t || !c->vertex_triangle || !order) {
		gt_free(order);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory triangulating");
	}
	c->count = 2;
	set_triangle(c, 0, 0, 1, 2, -1, -1, 1);
	set_triangle(c, 1, 0, 2, 3, 0, -1, -1);
	for (int i = 4; i < count; i++) order[i - 4] = (Keyed){hilbert_index((uint32_t)x[i], (uint32_t)y[i]), i};
	qsort(order, (size_t)count - 4, sizeof *order, by_key);
	gtStatus st = GT_OK;
	for (int i = 0; i < count - 4 && !st; i++) {
		int32_t p = order[i].point;
		int edge;
		int32_t t = locate(c, p, &edge);
		if (t < 0) {
			st = gt_fail(err, GT_ERR_INVALID_ARG, "triangulation: point (%d, %d) not found", x[p], y[p]);
			break;
		}
		const gtCdtTriangle* T = &c->t[t];
		for (int k = 0; k < 3; k++)
			if (x[T->v[k]] == x[p] && y[T->v[k]] == y[p])
				st = gt_fail(err, GT_ERR_INVALID_ARG, "triangulation: point (%d, %d) given twice", x[p], y[p]);
		if (st) break;
		if (!(edge < 0 ? insert_inside(c, t, p) : insert_on_edge(c, t, edge, p)))
			st = gt_fail(err, GT_ERR_NOMEM, "out of memory triangulating");
		c->last = t;
	}
	gt_free(order);
	return st;
}

// The triangle with directed edge a -> b and that edge's index, or -1: the triangles around a in turn.
static int32_t find_edge(const gtCdt* c, int32_t a, int32_t b, int* edge)
{
	int32_t start = c->vertex_triangle[a], t = start;
	for (int turn = 0; turn < 2; turn++) { // counter-clockwise round a, then clockwise if a side stopped it
		do {
			int i = index_of(&c->t[t], a);
			if (c->t[t].v[next3(i)] == b) {
				*edge = i;
				return t;
			}
			t = turn == 0 ? c->t[t].n[prev3(i)] : c->t[t].n[i];
		} while (t >= 0 && t != start);
		if (t == start) break;
		t = start;
	}
	return -1;
}

static void mark_fixed(gtCdt* c, int32_t t, int e)
{
	c->t[t].fixed[e] = 1;
	int32_t u = c->t[t].n[e];
	if (u >= 0) c->t[u].fixed[index_of(&c->t[u], c->t[t].v[next3(e)])] = 1; // its edge runs the other way
}

// The first edge a-b crosses: the edge opposite a in the triangle at a whose corner holds b. Sets
// *done when a-b is already an edge.
static gtStatus first_crossing(gtCdt* c, int32_t a, int32_t b, int32_t* right, int32_t* left, int32_t* t_out,
                               bool* done, gtError* err)
{
	int32_t start = c->vertex_triangle[a], t = start;
	*done = false;
	for (int turn = 0; turn < 2; turn++) {
		do {
			const gtCdtTriangle* T = &c->t[t];
			int i = index_of(T, a);
			int32_t r = T->v[next3(i)], l = T->v[prev3(i)];
			if (r == b || l == b) {
				mark_fixed(c, t, r == b ? i : prev3(i));
				*done = true;
				return GT_OK;
			}
			if (orient(c, a, r, b) > 0 && orient(c, a, l, b) < 0) {
				*right = r, *left = l, *t_out = t;
				return GT_OK;
			}
			t = turn == 0 ? T->n[prev3(i)] : T->n[i];
		} while (t >= 0 && t != start);
		if (t == start) break;
		t = start;
	}
	return gt_fail(err, GT_ERR_INVALID_ARG, "triangulation: segment (%d, %d)-(%d, %d) leaves the rectangle", c->x[a],
	               c->y[a], c->x[b], c->y[b]);
}

gtStatus gt_cdt_constrain(gtCdt* c, int a, int b, gtError* err)
{
	int32_t right = -1, left = -1, t = -1;
	bool done;
	gtStatus st = first_crossing(c, a, b, &right, &left, &t, &done, err);
	if (st || done) return st;
	// Every edge the segment crosses, walked from a to b, as (right end, left end) pairs.
	int64_t count = 0;
	for (;;) {
		if (!push_pending(c, &count, right, left)) return gt_fail(err, GT_ERR_NOMEM, "out of memory triangulating");
		int e;
		int32_t at = find_edge(c, right, left, &e);
		if (at < 0 || c->t[at].n[e] < 0 || c->t[at].fixed[e])
			return gt_fail(err, GT_ERR_INVALID_ARG, "triangulation: segment (%d, %d)-(%d, %d) crosses a constraint",
			               c->x[a], c->y[a], c->x[b], c->y[b]);
		const gtCdtTriangle* U = &c->t[c->t[at].n[e]];
		int32_t z = U->v[prev3(index_of(U, left))];
		if (z == b) break;
		int64_t side = orient(c, a, b, z);
		if (side == 0)
			return gt_fail(err, GT_ERR_INVALID_ARG,
			               "triangulation: segment (%d, %d)-(%d, %d) passes through point (%d, %d)", c->x[a], c->y[a],
			               c->x[b], c->y[b], c->x[z], c->y[z]);
		if (side > 0) left = z;
		else right = z;
	}
	// Flip each crossing edge whose quadrilateral is convex; an edge still crossing goes back in
	// the queue, as does one whose quadrilateral is not convex yet (Sloan 1993: this ends).
	int64_t limit = 64 * count + 1024;
	for (int64_t head = 0; head < count; head += 2) {
		if (head > limit)
			return gt_fail(err, GT_ERR_INVALID_ARG, "triangulation: segment (%d, %d)-(%d, %d) cannot be forced in",
			               c->x[a], c->y[a], c->x[b], c->y[b]);
		int32_t p = c->pending[head], q = c->pending[head + 1];
		int e;
		int32_t at = find_edge(c, p, q, &e);
		if (at < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "triangulation: lost an edge forcing segment in");
		const gtCdtTriangle* T = &c->t[at];
		int32_t r = T->v[prev3(e)], u = T->n[e];
		int32_t s = c->t[u].v[prev3(index_of(&c->t[u], q))];
		// Quadrilateral p, s, q, r: convex when the diagonal r-s has p and q on opposite sides.
		if (orient(c, r, p, s) <= 0 || orient(c, s, q, r) <= 0) {
			if (!push_pending(c, &count, p, q)) return gt_fail(err, GT_ERR_NOMEM, "out of memory triangulating");
			continue;
		}
		flip(c, at, e);
		int64_t rs = orient(c, a, b, r), ss = orient(c, a, b, s);
		if (((rs > 0 && ss < 0) || (rs < 0 && ss > 0)) && !push_pending(c, &count, r, s))
			return gt_fail(err, GT_ERR_NOMEM, "out of memory triangulating");
	}
	int e;
	int32_t at = find_edge(c, a, b, &e);
	if (at < 0)
		return gt_fail(err, GT_ERR_INVALID_ARG, "triangulation: segment (%d, %d)-(%d, %d) not made", c->x[a], c->y[a],
		               c->x[b], c->y[b]);
	mark_fixed(c, at, e);
	return GT_OK;
}

gtStatus gt_cdt_make_delaunay(gtCdt* c, gtError* err)
{
	int64_t count = 0;
	for (int32_t t = 0; t < c->count; t++)
		for (int e = 0; e < 3; e++)
			if (c->t[t].n[e] > t && !push_pending(c, &count, t, e))
				return gt_fail(err, GT_ERR_NOMEM, "out of memory triangulating");
	return legalize(c, count) ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory triangulating");
}

void gt_cdt_free(gtCdt* c)
{
	gt_free(c->t), gt_free(c->vertex_triangle), gt_free(c->pending);
	memset(c, 0, sizeof *c);
}
