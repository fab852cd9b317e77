// Procedural maps: rooms, caves and arenas, deterministic from a 64-bit seed.
//
// Every decision uses the library's integer generator (gt_random.h; never rand() or floating
// point), so a seed gives the same bytes on every platform and compiler.
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "gridtree/gt_genmap.h"
#include "gridtree/gt_random.h"
#include "core/status.h"

// Retries for sizes where a style sometimes leaves too little connected floor (tiny caves).
#define GT_GENMAP_ATTEMPTS 256

// Cell values while generating; anything non-zero is blocked in the final map.
enum { CELL_FREE = 0, CELL_WALL = 1, CELL_KEEP = 2 }; // KEEP: a wall corridors must not widen into

// Uniform in [0, n) for n >= 1 (gtRandom_Below), drawing even for n = 1 as the generator always
// has: skipping that draw would change every map made from a seed, the bundled assets among them.
static int rng_below(gtRandom* r, int n)
{
	if (n == 1) {
		gtRandom_Next(r);
		return 0;
	}
	return gtRandom_Below(r, n);
}

// Uniform in [lo, hi]; an empty range yields lo.
static int rng_range(gtRandom* r, int lo, int hi)
{
	return hi <= lo ? lo : lo + rng_below(r, hi - lo + 1);
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}
static int imax(int a, int b)
{
	return a > b ? a : b;
}

typedef struct Grid {
	unsigned char* c; // width * height, row-major
	int w, h;
} Grid;

static unsigned char* at(Grid* g, int x, int y)
{
	return g->c + (size_t)y * (size_t)g->w + (size_t)x;
}

static bool interior(const Grid* g, int x, int y)
{
	return x >= 1 && y >= 1 && x <= g->w - 2 && y <= g->h - 2;
}

static void fill_rect(Grid* g, int x0, int y0, int x1, int y1, unsigned char v)
{
	for (int y = y0; y <= y1; y++) memset(at(g, x0, y), v, (size_t)(x1 - x0 + 1));
}

static void block_border(Grid* g)
{
	memset(at(g, 0, 0), CELL_WALL, (size_t)g->w);
	memset(at(g, 0, g->h - 1), CELL_WALL, (size_t)g->w);
	for (int y = 0; y < g->h; y++) *at(g, 0, y) = *at(g, g->w - 1, y) = CELL_WALL;
}

// ---------------------------------------------------------------------------------------------
// Rooms. The map is cut into a jittered grid of sectors, each holding one room, a bare corridor
// junction, or half of a large hall spanning two sectors. A random spanning tree over
// neighbouring sectors, plus a few extra links for loops, is carved as corridors, so everything is
// connected by construction. Floor keeps two cells from each inner sector cut, which leaves three
// or more wall cells between neighbours: room for a door on each side and a corridor bend between.

typedef struct Node {
	int x0, y0, x1, y1; // inclusive floor rectangle
	bool room;          // false: a one-cell corridor junction
} Node;

typedef struct Link {
	int a, b;      // sectors; b is the right or lower neighbour of a
	bool vertical; // stored, since with one sector column b == a + 1 is a vertical link too
} Link;

typedef struct Axis {
	int* lo; // per sector, the first and last row or column floor may use
	int* hi;
} Axis;

static int uf_find(int* parent, int i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]]; // path halving keeps the trees shallow without recursion
		i = parent[i];
	}
	return i;
}

// Cuts one axis into n sectors of roughly equal length with jittered boundaries.
static void cut_axis(gtRandom* rng, int length, int n, Axis* axis)
{
	int piece = length / n, prev = 0;
	for (int i = 0; i < n; i++) {
		int next = i + 1 == n ? length : (i + 1) * length / n + rng_range(rng, -piece / 4, piece / 4);
		// The map's own border already separates the outer sectors from the outside.
		axis->lo[i] = i == 0 ? 1 : prev + 2;
		axis->hi[i] = next - 2;
		prev = next;
	}
}

// A side of at least `least` between lo and hi, favouring larger sides while still giving some
// small ones.
static int room_side(gtRandom* rng, int lo, int hi, int least)
{
	int span = hi - lo + 1, min_side = imin(least, span);
	return min_side + imax(rng_below(rng, span - min_side + 1), rng_below(rng, span - min_side + 1));
}

// Offset from a hall's outer edge: small, so the hall spans most of its two sectors.
static int hall_inset(gtRandom* rng, int lo, int hi)
{
	int span = hi - lo + 1;
	return imin(rng_below(rng, span), rng_below(rng, span));
}

// Opens the cell, then widens the corridor around it without breaching any room's wall ring.
static void carve_wide(Grid* g, int x, int y, int width)
{
	*at(g, x, y) = CELL_FREE;
	for (int dy = -(width - 1) / 2; dy <= width / 2; dy++)
		for (int dx = -(width - 1) / 2; dx <= width / 2; dx++) {
			int cx = x + dx, cy = y + dy;
			if (interior(g, cx, cy) && *at(g, cx, cy) == CELL_WALL) *at(g, cx, cy) = CELL_FREE;
		}
}

// Carves a Z-shaped corridor from a door on a's far side to a door on b's near side, with both
// doors within [lo, hi] across the link (the shared sector row or column, so the corridor never
// meets a third room). Coordinates are (u along the link, v across it) so one routine serves both
// directions.
static void carve_link(Grid* g, gtRandom* rng, const Node* a, const Node* b, bool vertical, int lo, int hi)
{
	int a_u1 = vertical ? a->y1 : a->x1, b_u0 = vertical ? b->y0 : b->x0;
	int a_v0 = vertical ? a->x0 : a->y0, a_v1 = vertical ? a->x1 : a->y1;
	int b_v0 = vertical ? b->x0 : b->y0, b_v1 = vertical ? b->x1 : b->y1;
	int va = rng_range(rng, imax(a_v0, lo), imin(a_v1, hi));
	int vb = rng_range(rng, imax(b_v0, lo), imin(b_v1, hi));
	// The bend stays off both wall rings, so only the door cells pierce them.
	int mid = rng_range(rng, a_u1 + 2, b_u0 - 2);
	int roll = rng_below(rng, 100);
	int width = roll < 60 ? 1 : roll < 85 ? 2 : 3;
	int door_a = a_u1 + 1, door_b = b_u0 - 1;

	// Doors are single cells; carve_wide would otherwise skip them as protected ring cells.
	*at(g, vertical ? va : door_a, vertical ? door_a : va) = CELL_FREE;
	*at(g, vertical ? vb : door_b, vertical ? door_b : vb) = CELL_FREE;
	for (int u = door_a + 1; u <= mid; u++) carve_wide(g, vertical ? va : u, vertical ? u : va, width);
	for (int v = imin(va, vb); v <= imax(va, vb); v++) carve_wide(g, vertical ? v : mid, vertical ? mid : v, width);
	for (int u = mid; u < door_b; u++) carve_wide(g, vertical ? vb : u, vertical ? u : vb, width);
}

static void carve_room(Grid* g, const Node* n)
{
	// Mark the ring so widened corridors leave the walls whole except at doors.
	for (int y = n->y0 - 1; y <= n->y1 + 1; y++)
		for (int x = n->x0 - 1; x <= n->x1 + 1; x++)
			if (interior(g, x, y)) *at(g, x, y) = CELL_KEEP;
	fill_rect(g, n->x0, n->y0, n->x1, n->y1, CELL_FREE);
}

// Fisher-Yates: every order of the links equally likely.
static void shuffle_links(Link* links, int n_links, gtRandom* rng)
{
	for (int k = n_links - 1; k > 0; k--) {
		int r = rng_below(rng, k + 1);
		Link t = links[k];
		links[k] = links[r];
		links[r] = t;
	}
}

static gtStatus gen_rooms(Grid* g, gtRandom* rng, gtError* err)
{
	// About one sector per 15 cells; small maps still get two sectors along a side of 20.
	int nx = imax(1, (g->w + 10) / 15), ny = imax(1, (g->h + 10) / 15);
	int count = nx * ny;
	int links_max = (nx - 1) * ny + nx * (ny - 1);
	int* bounds = gt_malloc(sizeof *bounds * (size_t)(2 * (nx + ny)));
	int* node_of = gt_malloc(sizeof *node_of * (size_t)count);
	int* parent = gt_malloc(sizeof *parent * (size_t)count);
	Node* nodes = gt_malloc(sizeof *nodes * (size_t)count);
	Link* links = gt_malloc(sizeof *links * (size_t)imax(links_max, 1));
	if (!bounds || !node_of || !parent || !nodes || !links) {
		gt_free(bounds), gt_free(node_of), gt_free(parent), gt_free(nodes), gt_free(links);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %d rooms of a %dx%d map", count, g->w, g->h);
	}
	Axis ax = {bounds, bounds + nx}, ay = {bounds + 2 * nx, bounds + 2 * nx + ny};

	memset(g->c, CELL_WALL, (size_t)g->w * (size_t)g->h);
	cut_axis(rng, g->w, nx, &ax);
	cut_axis(rng, g->h, ny, &ay);
	for (int k = 0; k < count; k++) node_of[k] = -1;
	int n_nodes = 0;
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			int s = j * nx + i;
			if (node_of[s] >= 0) continue; // already the second half of a hall
			Node* n = &nodes[n_nodes];
			node_of[s] = n_nodes++;
			int lx = ax.lo[i], hx = ax.hi[i], ly = ay.lo[j], hy = ay.hi[j];
			int roll = rng_below(rng, 100);
			bool right = i + 1 < nx && node_of[s + 1] < 0, down = j + 1 < ny;
			if (roll < 10 && (right || down)) {
				// A hall over this sector and its right (or lower) neighbour. It reaches into
				// both halves, so links to either sector's neighbours find a wall to put a door in.
				bool wide = right && (!down || rng_below(rng, 2) == 0);
				if (wide) {
					node_of[s + 1] = node_of[s];
					n->x0 = lx + hall_inset(rng, lx, hx);
					n->x1 = ax.hi[i + 1] - hall_inset(rng, ax.lo[i + 1], ax.hi[i + 1]);
					int rh = room_side(rng, ly, hy, 5); // a thinner hall would read as a corridor
					n->y0 = rng_range(rng, ly, hy - rh + 1);
					n->y1 = n->y0 + rh - 1;
				} else {
					node_of[s + nx] = node_of[s];
					n->y0 = ly + hall_inset(rng, ly, hy);
					n->y1 = ay.hi[j + 1] - hall_inset(rng, ay.lo[j + 1], ay.hi[j + 1]);
					int rw = room_side(rng, lx, hx, 5);
					n->x0 = rng_range(rng, lx, hx - rw + 1);
					n->x1 = n->x0 + rw - 1;
				}
				n->room = true;
				carve_room(g, n);
			} else if (count == 1 || roll >= 22) {
				int rw = room_side(rng, lx, hx, 3), rh = room_side(rng, ly, hy, 3);
				n->x0 = rng_range(rng, lx, hx - rw + 1);
				n->y0 = rng_range(rng, ly, hy - rh + 1);
				n->x1 = n->x0 + rw - 1;
				n->y1 = n->y0 + rh - 1;
				n->room = true;
				carve_room(g, n);
			} else {
				// Keep junctions near the sector's middle so their corridors look deliberate.
				int mx = (lx + hx) / 2, my = (ly + hy) / 2;
				n->x0 = n->x1 = rng_range(rng, imax(lx, mx - 2), imin(hx, mx + 2));
				n->y0 = n->y1 = rng_range(rng, imax(ly, my - 2), imin(hy, my + 2));
				n->room = false;
				*at(g, n->x0, n->y0) = CELL_FREE;
			}
		}

	int n_links = 0;
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			int s = j * nx + i;
			if (i + 1 < nx && node_of[s] != node_of[s + 1]) links[n_links++] = (Link){s, s + 1, false};
			if (j + 1 < ny && node_of[s] != node_of[s + nx]) links[n_links++] = (Link){s, s + nx, true};
		}
	shuffle_links(links, n_links, rng);
	// Kruskal over the shuffled links gives a random spanning tree; a few leftovers make loops.
	for (int k = 0; k < n_nodes; k++) parent[k] = k;
	for (int k = 0; k < n_links; k++) {
		const Link* l = &links[k];
		int a = node_of[l->a], b = node_of[l->b];
		int ra = uf_find(parent, a), rb = uf_find(parent, b);
		bool tree = ra != rb;
		if (tree) parent[ra] = rb;
		if (!tree && rng_below(rng, 100) >= 12) continue;
		// Across a horizontal link the doors share the sector row, across a vertical one its column.
		int lo = l->vertical ? ax.lo[l->a % nx] : ay.lo[l->a / nx];
		int hi = l->vertical ? ax.hi[l->a % nx] : ay.hi[l->a / nx];
		carve_link(g, rng, &nodes[a], &nodes[b], l->vertical, lo, hi);
	}

	gt_free(bounds), gt_free(node_of), gt_free(parent), gt_free(nodes), gt_free(links);
	return GT_OK;
}

// ---------------------------------------------------------------------------------------------
// Caves. Random fill, then the usual 4-5 smoothing: a cell becomes wall when five or more of the
// nine cells around it (itself included) are walls. A fill slightly above 45% gives rock-bounded
// caves rather than open ground with boulders; the 4-5 rule turns sharply open near 45%.

#define CAVE_FILL_PERCENT 47
#define CAVE_PASSES 5

static gtStatus gen_caves(Grid* g, gtRandom* rng, gtError* err)
{
	int w = g->w, h = g->h;
	unsigned char* next = gt_malloc((size_t)w * (size_t)h);
	// Walls among the three cells of each column around the current row; one column of margin.
	int* col = gt_malloc(sizeof *col * (size_t)(w + 2));
	if (!next || !col) {
		gt_free(next), gt_free(col);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for a %dx%d cave", w, h);
	}

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) *at(g, x, y) = !interior(g, x, y) || rng_below(rng, 100) < CAVE_FILL_PERCENT;

	for (int pass = 0; pass < CAVE_PASSES; pass++) {
		memcpy(next, g->c, (size_t)w * (size_t)h); // keeps the border
		for (int y = 1; y < h - 1; y++) {
			for (int x = 0; x < w; x++) col[x + 1] = *at(g, x, y - 1) + *at(g, x, y) + *at(g, x, y + 1);
			for (int x = 1; x < w - 1; x++)
				next[(size_t)y * (size_t)w + (size_t)x] = col[x] + col[x + 1] + col[x + 2] >= 5;
		}
		// Swap buffers; whichever is not g->c at the end is freed, so ownership is unchanged.
		unsigned char* t = g->c;
		g->c = next;
		next = t;
	}

	gt_free(next), gt_free(col);
	return GT_OK;
}

// ---------------------------------------------------------------------------------------------
// Arena. Open floor with pillars, short walls and L-shaped walls, placed in pairs mirrored through
// the centre (fair for both sides) around a central piece. Every piece keeps two free cells from
// the border and from every other piece, so no pocket or narrow squeeze can form.

typedef struct Rect {
	int x0, y0, x1, y1;
} Rect;

#define ARENA_GAP 2

static bool rect_clear(Grid* g, const Rect* r)
{
	if (r->x0 - ARENA_GAP < 1 || r->y0 - ARENA_GAP < 1 || r->x1 + ARENA_GAP > g->w - 2 || r->y1 + ARENA_GAP > g->h - 2)
		return false;
	for (int y = r->y0 - ARENA_GAP; y <= r->y1 + ARENA_GAP; y++)
		for (int x = r->x0 - ARENA_GAP; x <= r->x1 + ARENA_GAP; x++)
			if (*at(g, x, y) != CELL_FREE) return false;
	return true;
}

// Places a piece of one or two rectangles (the second shares cells with the first for an L).
static bool place_piece(Grid* g, const Rect* parts, int n)
{
	for (int i = 0; i < n; i++)
		if (!rect_clear(g, &parts[i])) return false;
	for (int i = 0; i < n; i++) fill_rect(g, parts[i].x0, parts[i].y0, parts[i].x1, parts[i].y1, CELL_WALL);
	return true;
}

static void remove_piece(Grid* g, const Rect* parts, int n)
{
	for (int i = 0; i < n; i++) fill_rect(g, parts[i].x0, parts[i].y0, parts[i].x1, parts[i].y1, CELL_FREE);
}

// The central piece: a block or a plus, sized so it is its own mirror image.
static void arena_centre(Grid* g, gtRandom* rng)
{
	int w = g->w, h = g->h;
	if (imin(w, h) < 16) return;
	Rect parts[2];
	int n;
	if (rng_below(rng, 2) == 0) {
		int bw = 2 + (w & 1) + 2 * rng_below(rng, 2), bh = 2 + (h & 1) + 2 * rng_below(rng, 2);
		if (bw > 3 && bh > 3) bw -= 2; // a 4x4 or 5x5 lump looks heavy; keep one side slim
		parts[0] = (Rect){(w - bw) / 2, (h - bh) / 2, (w + bw) / 2 - 1, (h + bh) / 2 - 1};
		n = 1;
	} else {
		int arm = imin(w, h) / 8;
		int aw = 2 * (arm / 2) + 2 + (w & 1), ah = 2 * (arm / 2) + 2 + (h & 1); // parity of the side
		int tw = 1 + (w & 1 ? 0 : 1), th = 1 + (h & 1 ? 0 : 1);
		parts[0] = (Rect){(w - aw) / 2, (h - th) / 2, (w + aw) / 2 - 1, (h + th) / 2 - 1};
		parts[1] = (Rect){(w - tw) / 2, (h - ah) / 2, (w + tw) / 2 - 1, (h + ah) / 2 - 1};
		n = 2;
	}
	// Check both arms before drawing so the second never sees the first as an obstacle.
	for (int i = 0; i < n; i++)
		if (!rect_clear(g, &parts[i])) return;
	for (int i = 0; i < n; i++) fill_rect(g, parts[i].x0, parts[i].y0, parts[i].x1, parts[i].y1, CELL_WALL);
}

static gtStatus gen_arena(Grid* g, gtRandom* rng, gtError* err)
{
	(void)err; // nothing here allocates
	int w = g->w, h = g->h;
	memset(g->c, CELL_FREE, (size_t)w * (size_t)h);
	block_border(g);
	arena_centre(g, rng);

	int side = imin(w, h);
	int long_max = imax(3, imin(10, side / 6));
	int thick_max = side >= 48 ? 2 : 1;
	int tries = (int)((int64_t)w * h / 100) + 8; // many fail the gap test; that spaces pieces out
	for (int t = 0; t < tries; t++) {
		Rect parts[2];
		int n = 1;
		int x = rng_range(rng, 1, w - 2), y = rng_range(rng, 1, h - 2);
		int kind = rng_below(rng, 100);
		if (kind < 60) {
			// Pillars: mostly square, now and then an oblong post (1x2, 2x1, 3x2 or 2x3).
			int s = rng_range(rng, 1, 3), s2 = s;
			if (rng_below(rng, 4) == 0) s2 = s == 1 ? 2 : s - 1;
			if (rng_below(rng, 2)) parts[0] = (Rect){x, y, x + s - 1, y + s2 - 1};
			else parts[0] = (Rect){x, y, x + s2 - 1, y + s - 1};
		} else if (kind < 85) {
			int len = rng_range(rng, 3, long_max), th = rng_range(rng, 1, thick_max);
			parts[0] = rng_below(rng, 2) ? (Rect){x, y, x + len - 1, y + th - 1}
			                             : (Rect){x, y, x + th - 1, y + len - 1};
		} else {
			// An L: a horizontal and a vertical arm meeting at one of the four corners of their box.
			int a = rng_range(rng, 3, imax(3, long_max - 2)), b = rng_range(rng, 3, imax(3, long_max - 2));
			bool right = rng_below(rng, 2), down = rng_below(rng, 2);
			int hy = down ? y + b - 1 : y, vx = right ? x + a - 1 : x;
			parts[0] = (Rect){x, hy, x + a - 1, hy};
			parts[1] = (Rect){vx, y, vx, y + b - 1};
			n = 2;
		}
		if (!place_piece(g, parts, n)) continue;
		Rect mirror[2];
		for (int i = 0; i < n; i++)
			mirror[i] = (Rect){w - 1 - parts[i].x1, h - 1 - parts[i].y1, w - 1 - parts[i].x0, h - 1 - parts[i].y0};
		// The mirror is checked against the original too, so pieces near the centre cannot merge.
		if (!place_piece(g, mirror, n)) remove_piece(g, parts, n);
	}
	return GT_OK;
}

// ---------------------------------------------------------------------------------------------
// Keeps the largest 4-connected free region and fills the rest. Returns its size, or -1 when the
// flood-fill stack cannot grow. The border must already be blocked: every free cell then has all
// four neighbours inside the grid.

typedef struct Stack {
	uint32_t* items;
	int64_t size, cap;
} Stack;

static bool stack_push(Stack* s, uint32_t v)
{
	if (!GT_GROW(s->items, s->cap, s->size + 1, 4096)) return false;
	s->items[s->size++] = v;
	return true;
}

// Relabels the region of `from` cells around `seed` as `to`; returns its size or -1.
static int64_t flood(Grid* g, Stack* s, uint32_t seed, unsigned char from, unsigned char to)
{
	int64_t size = 0;
	uint32_t w = (uint32_t)g->w;
	s->size = 0;
	g->c[seed] = to; // mark on push so each cell enters the stack at most once
	if (!stack_push(s, seed)) return -1;
	while (s->size > 0) {
		uint32_t i = s->items[--s->size];
		size++;
		uint32_t nb[4] = {i - 1, i + 1, i - w, i + w};
		for (int k = 0; k < 4; k++) {
			if (g->c[nb[k]] != from) continue;
			g->c[nb[k]] = to;
			if (!stack_push(s, nb[k])) return -1;
		}
	}
	return size;
}

enum { CELL_SEEN = 3, CELL_BEST = 4 };

static int64_t keep_largest(Grid* g)
{
	size_t n = (size_t)g->w * (size_t)g->h;
	Stack s = {NULL, 0, 0};
	int64_t best = 0;
	uint32_t best_seed = 0;
	for (size_t i = 0; i < n; i++) g->c[i] = g->c[i] != CELL_FREE;
	for (size_t i = 0; i < n; i++) {
		if (g->c[i] != CELL_FREE) continue;
		int64_t size = flood(g, &s, (uint32_t)i, CELL_FREE, CELL_SEEN);
		if (size < 0) {
			gt_free(s.items);
			return -1;
		}
		if (size > best) best = size, best_seed = (uint32_t)i;
	}
	if (best > 0 && flood(g, &s, best_seed, CELL_SEEN, CELL_BEST) < 0) best = -1;
	gt_free(s.items);
	for (size_t i = 0; i < n; i++) g->c[i] = g->c[i] != CELL_BEST;
	return best;
}

// ---------------------------------------------------------------------------------------------

gtStatus gtMapStyle_Parse(const char* name, gtMapStyle* style, gtError* err)
{
	if (!style) return gt_fail(err, GT_ERR_INVALID_ARG, "no output given for the map style");
	if (!name) return gt_fail(err, GT_ERR_INVALID_ARG, "no map style given (expected rooms, caves or arena)");
	if (strcmp(name, "rooms") == 0) *style = GT_STYLE_ROOMS;
	else if (strcmp(name, "caves") == 0) *style = GT_STYLE_CAVES;
	else if (strcmp(name, "arena") == 0) *style = GT_STYLE_ARENA;
	else return gt_fail(err, GT_ERR_INVALID_ARG, "unknown map style '%.64s' (expected rooms, caves or arena)", name);
	return GT_OK;
}

static const char* style_name(gtMapStyle style)
{
	switch (style) {
	case GT_STYLE_ROOMS: return "rooms";
	case GT_STYLE_CAVES: return "caves";
	case GT_STYLE_ARENA: return "arena";
	}
	return "unknown";
}

gtStatus gtMap_Generate(gtMapStyle style, int width, int height, uint64_t seed, gtMap** out, gtError* err)
{
	if (!out) return gt_fail(err, GT_ERR_INVALID_ARG, "no output given for the generated map");
	*out = NULL;
	if (style != GT_STYLE_ROOMS && style != GT_STYLE_CAVES && style != GT_STYLE_ARENA)
		return gt_fail(err, GT_ERR_INVALID_ARG, "unknown map style %d (expected rooms, caves or arena)", (int)style);
	if (width < GT_GENMAP_MIN_SIDE || width > GT_GENMAP_MAX_SIDE)
		return gt_fail(err, GT_ERR_INVALID_ARG, "map width %d is outside %d..%d", width, GT_GENMAP_MIN_SIDE,
		               GT_GENMAP_MAX_SIDE);
	if (height < GT_GENMAP_MIN_SIDE || height > GT_GENMAP_MAX_SIDE)
		return gt_fail(err, GT_ERR_INVALID_ARG, "map height %d is outside %d..%d", height, GT_GENMAP_MIN_SIDE,
		               GT_GENMAP_MAX_SIDE);

	Grid g = {gt_malloc((size_t)width * (size_t)height), width, height};
	if (!g.c) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a %dx%d map", width, height);
	gtRandom rng = {seed};
	int64_t cells = (int64_t)width * height;
	for (int attempt = 0; attempt < GT_GENMAP_ATTEMPTS; attempt++) {
		// A failed attempt simply continues the PRNG stream, so retries stay deterministic.
		gtStatus st = style == GT_STYLE_ROOMS   ? gen_rooms(&g, &rng, err)
		              : style == GT_STYLE_CAVES ? gen_caves(&g, &rng, err)
		                                        : gen_arena(&g, &rng, err);
		if (st) {
			gt_free(g.c);
			return st;
		}
		block_border(&g);
		int64_t kept = keep_largest(&g);
		if (kept < 0) {
			gt_free(g.c);
			return gt_fail(err, GT_ERR_NOMEM, "out of memory labelling the regions of a %dx%d map", width, height);
		}
		if (kept * 4 >= cells) {
			st = gtMap_FromCells(width, height, g.c, out, err);
			gt_free(g.c);
			return st;
		}
	}
	gt_free(g.c);
	return gt_fail(err, GT_ERR_INVALID_ARG,
	               "no connected %s map of %dx%d with a quarter of its cells free could be made in %d attempts; "
	               "try a larger size",
	               style_name(style), width, height, GT_GENMAP_ATTEMPTS);
}
