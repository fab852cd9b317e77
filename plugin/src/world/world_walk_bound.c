// The walk bounds of world_walk_bound.h: a search per group over crossings of the groups' portals.
//
// The bound is for shortest walks through closed free cells, which touch a pinch point (two blocked
// cells meeting at a corner) only at their ends; a point at a pinch is given no group. Groups
// connect through cell sides, so two free cells of a block that touch are in one group unless they
// meet at a pinch. Cut a walk where it passes from the cells of one group to those of another, at
// the last point it touches the group it leaves (so no group comes twice and the cuts are
// finitely many; a walk whose end is in the cells of another group than the one looked up is cut
// there too). A cut point then lies in free cells of two blocks, on what they share: on a side,
// a run of unit segments with free cells on both sides (a point inside a unit segment needs both;
// a grid point inside the side with free cells only diagonally across is a pinch), cut here into
// pieces of at most a quarter of the side; at a corner of four blocks, the corner when two or
// more of its cells are free and they are not a pinch. These are the portals; each belongs to the
// groups of the free cells touching it. Two consecutive cut points lie in one group's cells, so
// the walk is at least the sum of the least straight lines between consecutive portals of its
// chain, a chain in which no group follows the one before the last (no group comes twice). A
// Dijkstra search from a group over crossings (a portal passed from one of its groups to another)
// with that rule finds at most that sum, so its least value over the crossings into another group
// bounds every walk between their cells. Portals are axis-parallel segments or points: their least
// distance is the root of the squared gaps between their x spans and between their y spans.
#include "world/world_walk_bound.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/heap.h"
#include "core/job.h"

typedef struct Portal {
	double x0, y0, x1, y1; // x0 <= x1, y0 <= y1
	int32_t group[4];      // the groups it belongs to (2 to 4)
	int16_t local[4];      // its place in each group's list
	int groups;
} Portal;

typedef struct Graph {
	const gtWalkBound* b;
	Portal* portals;
	int32_t count, capacity;
	int32_t *first, *list; // per group: its portals list[first[g] .. first[g + 1])
	int64_t* weight_at;    // per group: its portals' pairwise distances, row-major, from weights[weight_at[g]]
	double* weights;
	int64_t edges; // sum over groups of (portals in the group)^2: the most pushes a search makes
} Graph;

// The group of cell (x, y), -1 when blocked or off the map.
static int32_t group_at(const gtWalkBound* b, int x, int y)
{
	if (x < 0 || y < 0 || x >= b->width || y >= b->height) return -1;
	int32_t g = b->group[(int64_t)y * b->width + x];
	return g < 0 ? -1 : g & ~GT_WALK_BOUND_PINCH;
}

int32_t gt_walk_bound_edge_group(const gtWalkBound* b, double x, double y)
{
	int cx = (int)x, cy = (int)y;
	if (cx == b->width) cx--;
	if (cy == b->height) cy--;
	bool on_x = x == (double)cx, on_y = y == (double)cy; // on the cell's left / top edge
	int32_t here = group_at(b, cx, cy);
	if (here >= 0) return on_x && on_y ? -1 : here; // a free cell whose top-left corner is a pinch
	if (on_x && on_y && group_at(b, cx - 1, cy) >= 0 && group_at(b, cx, cy - 1) >= 0 && group_at(b, cx - 1, cy - 1) < 0)
		return -1; // a pinch point
	int32_t g = -1;
	if (on_x) g = group_at(b, cx - 1, cy);
	if (g < 0 && on_y) g = group_at(b, cx, cy - 1);
	if (g < 0 && on_x && on_y) g = group_at(b, cx - 1, cy - 1);
	return g;
}

// Labels the free cells of each block by group (a flood fill per block; cells connect through a
// side: two free cells that only touch at a corner meet at a pinch, which no walk passes); false when
// more than GT_WALK_BOUND_MAX_GROUPS (the caller tries larger blocks) or out of memory.
static bool make_groups(gtWalkBound* b, const gtMap* m, int32_t* stack)
{
	int w = b->width, h = b->height, size = 1 << b->shift;
	int32_t groups = 0;
	for (int64_t i = 0; i < (int64_t)w * h; i++) b->group[i] = -1;
	for (int by = 0; by < h; by += size)
		for (int bx = 0; bx < w; bx += size) {
			int x_end = bx + size < w ? bx + size : w, y_end = by + size < h ? by + size : h;
			for (int y = by; y < y_end; y++)
				for (int x = bx; x < x_end; x++) {
					if (gt_blocked(m, x, y) || b->group[(int64_t)y * w + x] >= 0) continue;
					if (groups == GT_WALK_BOUND_MAX_GROUPS) return false;
					int32_t top = 0;
					stack[top++] = y * w + x;
					b->group[(int64_t)y * w + x] = (int16_t)groups;
					while (top > 0) {
						int32_t c = stack[--top];
						int cx = c % w, cy = c / w;
						for (int d = 0; d < 4; d++) {
							int nx = cx + (d == 0) - (d == 1), ny = cy + (d == 2) - (d == 3);
							if (nx < bx || ny < by || nx >= x_end || ny >= y_end || gt_blocked(m, nx, ny) ||
							    b->group[(int64_t)ny * w + nx] >= 0)
								continue;
							b->group[(int64_t)ny * w + nx] = (int16_t)groups;
							stack[top++] = ny * w + nx;
						}
					}
					groups++;
				}
		}
	// A free cell's top-left corner where its diagonal neighbour is free and the other two blocked.
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (!gt_blocked(m, x, y) && !gt_blocked(m, x - 1, y - 1) && gt_blocked(m, x - 1, y) &&
			    gt_blocked(m, x, y - 1))
				b->group[(int64_t)y * w + x] |= GT_WALK_BOUND_PINCH;
	b->groups = groups;
	return true;
}

static bool add_portal(Graph* g, double x0, double y0, double x1, double y1, const int32_t* groups, int n)
{
	if (g->count == g->capacity) {
		int64_t cap = g->capacity;
		if (!GT_GROW(g->portals, cap, (int64_t)g->count + 1, 1024) || cap > INT32_MAX) return false;
		g->capacity = (int32_t)cap;
	}
	Portal* p = &g->portals[g->count++];
	*p = (Portal){x0, y0, x1, y1, {0}, {0}, n};
	for (int i = 0; i < n; i++) p->group[i] = groups[i];
	return true;
}

// The portals of the side between cells (fixed - 1) and (fixed) across, over [from, to) along
// (vertical: x = fixed; else y = fixed): its runs cut in pieces of at most `piece` units.
static bool add_side(Graph* g, bool vertical, int fixed, int from, int to, int piece)
{
	const gtWalkBound* b = g->b;
#define BEFORE(i) (vertical ? group_at(b, fixed - 1, i) : group_at(b, i, fixed - 1))
#define AFTER(i) (vertical ? group_at(b, fixed, i) : group_at(b, i, fixed))
	int start = -1;
	for (int i = from; i <= to; i++) {
		bool open = i < to && BEFORE(i) >= 0 && AFTER(i) >= 0;
		if (open && start < 0) start = i;
		if (start >= 0 && (!open || i - start == piece)) {
			int32_t two[2] = {BEFORE(start), AFTER(start)};
			bool ok = vertical ? add_portal(g, fixed, start, fixed, i, two, 2)
			                   : add_portal(g, start, fixed, i, fixed, two, 2);
			if (!ok) return false;
			start = open ? i : -1;
		}
	}
#undef BEFORE
#undef AFTER
	return true;
}

static bool make_portals(Graph* g)
{
	const gtWalkBound* b = g->b;
	int w = b->width, h = b->height, size = 1 << b->shift, piece = size / GT_WALK_BOUND_PIECES;
	for (int y = 0; y < h; y += size)
		for (int x = 0; x < w; x += size) {
			int x_end = x + size < w ? x + size : w, y_end = y + size < h ? y + size : h;
			if (x > 0 && !add_side(g, true, x, y, y_end, piece)) return false;
			if (y > 0 && !add_side(g, false, y, x, x_end, piece)) return false;
			if (x > 0 && y > 0) {
				int32_t four[4], n = 0, cells[4][2] = {{x - 1, y - 1}, {x, y - 1}, {x - 1, y}, {x, y}};
				for (int i = 0; i < 4; i++)
					if (group_at(b, cells[i][0], cells[i][1]) >= 0) four[n++] = group_at(b, cells[i][0], cells[i][1]);
				bool pinch = n == 2 && (group_at(b, x - 1, y - 1) >= 0) == (group_at(b, x, y) >= 0);
				if (n >= 2 && !pinch && !add_portal(g, x, y, x, y, four, n)) return false;
			}
		}
	// Each group's list (counting sort by group) and its portals' pairwise distances.
	int n = b->groups;
	g->first = gt_calloc((size_t)n + 1, sizeof *g->first);
	g->list = gt_malloc((size_t)(g->count > 0 ? g->count : 1) * 4 * sizeof *g->list);
	g->weight_at = gt_malloc(((size_t)n + 1) * sizeof *g->weight_at);
	int32_t* cursor = gt_malloc(((size_t)n + 1) * sizeof *cursor);
	if (!g->first || !g->list || !g->weight_at || !cursor) {
		gt_free(cursor);
		return false;
	}
	for (int32_t i = 0; i < g->count; i++)
		for (int k = 0; k < g->portals[i].groups; k++) g->first[g->portals[i].group[k] + 1]++;
	g->weight_at[0] = 0;
	for (int i = 0; i < n; i++) {
		int64_t m_i = g->first[i + 1];
		g->first[i + 1] += g->first[i];
		g->weight_at[i + 1] = g->weight_at[i] + m_i * m_i;
	}
	g->edges = g->weight_at[n];
	memcpy(cursor, g->first, ((size_t)n + 1) * sizeof *cursor);
	for (int32_t i = 0; i < g->count; i++) {
		Portal* p = &g->portals[i];
		for (int k = 0; k < p->groups; k++) {
			int32_t group = p->group[k];
			p->local[k] = (int16_t)(cursor[group] - g->first[group]);
			g->list[cursor[group]++] = i;
		}
	}
	gt_free(cursor);
	g->weights = gt_malloc((size_t)(g->edges > 0 ? g->edges : 1) * sizeof *g->weights);
	if (!g->weights) return false;
	for (int i = 0; i < n; i++) {
		int32_t first = g->first[i], m_i = g->first[i + 1] - first;
		double* wt = g->weights + g->weight_at[i];
		for (int32_t u = 0; u < m_i; u++)
			for (int32_t v = 0; v < m_i; v++) {
				const Portal *p = &g->portals[g->list[first + u]], *q = &g->portals[g->list[first + v]];
				double gx = p->x1 < q->x0 ? q->x0 - p->x1 : q->x1 < p->x0 ? p->x0 - q->x1 : 0;
				double gy = p->y1 < q->y0 ? q->y0 - p->y1 : q->y1 < p->y0 ? p->y0 - q->y1 : 0;
				wt[u * m_i + v] = sqrt(gx * gx + gy * gy);
			}
	}
	return true;
}

// Rounded down to whole map units, less a margin far above the search's rounding, so the bound
// stays at or below the distance backends' own doubles.
static uint16_t bound_of(double d)
{
	// No chain of portals: no walk at all, which the queries skip unpriced (the backend's distance
	// is infinite there). A bound too far for 16 bits is still at most any walk.
	if (d == INFINITY) return GT_WALK_BOUND_NONE;
	if (!(d < 65534)) return 65534;
	d = d - 1e-6 - d * 1e-12;
	return d > 0 ? (uint16_t)d : 0;
}

typedef struct Worker {
	const Graph* g;
	uint16_t* lb;
	int32_t from, step; // the groups from, from + step, ...
	double* dist;       // per crossing (portal * 16 + from * 4 + to): the least chain's length
	gtHeap heap;
} Worker;

// The place of group `group` among the portal's, or -1.
static int place_of(const Portal* p, int32_t group)
{
	for (int i = 0; i < p->groups; i++)
		if (p->group[i] == group) return i;
	return -1;
}

// The search from group a over crossings (a portal passed from one of its groups to another): a
// chain never comes back to the group it just left (a walk's cut groups are all different), which
// keeps it from creeping along a side from piece to piece for nothing.
static void search_from(Worker* k, int32_t a)
{
	const Graph* g = k->g;
	for (int64_t i = 0; i < (int64_t)g->count * 16; i++) k->dist[i] = INFINITY;
	k->heap.size = 0;
	for (int32_t i = g->first[a]; i < g->first[a + 1]; i++) {
		const Portal* p = &g->portals[g->list[i]];
		int from = place_of(p, a);
		for (int to = 0; to < p->groups; to++) {
			if (to == from) continue;
			int32_t state = g->list[i] * 16 + from * 4 + to;
			k->dist[state] = 0;
			gt_heap_push(&k->heap, 0, state);
		}
	}
	while (k->heap.size > 0) {
		gtHeapItem top = gt_heap_pop(&k->heap);
		if (top.key > k->dist[top.id]) continue; // a stale entry
		const Portal* p = &g->portals[top.id >> 4];
		int32_t left = p->group[(top.id >> 2) & 3], group = p->group[top.id & 3];
		int32_t first = g->first[group], m = g->first[group + 1] - first;
		const double* w = g->weights + g->weight_at[group] + (int64_t)p->local[top.id & 3] * m;
		for (int32_t v = 0; v < m; v++) {
			double d = top.key + w[v];
			int32_t next = g->list[first + v];
			const Portal* q = &g->portals[next];
			int in = place_of(q, group);
			for (int out = 0; out < q->groups; out++) {
				int32_t state = next * 16 + in * 4 + out;
				if (out == in || q->group[out] == left || !(d < k->dist[state])) continue;
				k->dist[state] = d;
				gt_heap_push(&k->heap, d, state);
			}
		}
	}
	int32_t n = g->b->groups;
	uint16_t* row = k->lb + (int64_t)a * n;
	for (int32_t c = 0; c < n; c++) {
		double best = c == a ? 0 : INFINITY;
		for (int32_t i = g->first[c]; i < g->first[c + 1]; i++) {
			const Portal* p = &g->portals[g->list[i]];
			int to = place_of(p, c);
			for (int from = 0; from < p->groups; from++) {
				double d = k->dist[g->list[i] * 16 + from * 4 + to];
				if (from != to && d < best) best = d;
			}
		}
		row[c] = bound_of(best);
	}
}

static void search_groups(void* context)
{
	Worker* k = context;
	for (int32_t a = k->from; a < k->g->b->groups; a += k->step) search_from(k, a);
}

static bool worker_init(Worker* k, const Graph* g, uint16_t* lb, int32_t from, int32_t step)
{
	// A push per improvement: at most one per crossing (3 at most) for each edge, plus the starts.
	int64_t pushes = 3 * g->edges + 12 * (int64_t)g->count + 1;
	*k = (Worker){g, lb, from, step, gt_malloc((size_t)(g->count > 0 ? g->count : 1) * 16 * sizeof(double)), {0}};
	if (pushes > INT32_MAX || (int64_t)g->count * 16 > INT32_MAX) return false;
	k->heap.items = gt_malloc((size_t)pushes * sizeof *k->heap.items);
	k->heap.capacity = (int)pushes;
	return k->dist && k->heap.items;
}

static void worker_free(Worker* k)
{
	gt_free(k->dist);
	gt_free(k->heap.items);
}

static void graph_free(Graph* g)
{
	gt_free(g->portals);
	gt_free(g->first);
	gt_free(g->list);
	gt_free(g->weight_at);
	gt_free(g->weights);
	*g = (Graph){0};
}

// The searches' relaxations in all: per group, each crossing of a portal into a group tries every
// portal of that group.
static int64_t search_work(const Graph* g)
{
	int64_t per_search = 0;
	for (int32_t i = 0; i < g->count; i++) {
		const Portal* p = &g->portals[i];
		for (int t = 0; t < p->groups; t++)
			per_search += (int64_t)(p->groups - 1) * (g->first[p->group[t] + 1] - g->first[p->group[t]]);
	}
	return per_search * g->b->groups;
}

bool gt_walk_bound_build(gtWalkBound* b, const gtMap* map)
{
	*b = (gtWalkBound){0};
	int w = gtMap_Width(map), h = gtMap_Height(map);
	if (w <= 0 || h <= 0 || (int64_t)w * h > (INT64_C(1) << 24)) return false;
	gtWalkBound made = {.shift = GT_WALK_BOUND_MIN_SHIFT, .width = w, .height = h, .width_d = w, .height_d = h};
	made.fingerprint = gtMap_Fingerprint(map);
	made.group = gt_malloc((size_t)w * (size_t)h * sizeof *made.group);
	int32_t* stack = gt_malloc((size_t)w * (size_t)h * sizeof *stack);
	Graph g = {.b = &made};
	bool ok = made.group && stack;
	// Larger blocks (fewer groups, fewer portals) until the searches' work fits.
	for (; ok; made.shift++) {
		if (made.shift >= 24) ok = false;
		else if (!make_groups(&made, map, stack)) continue;
		else if (!(ok = make_portals(&g)) || search_work(&g) <= GT_WALK_BOUND_MAX_WORK) break;
		graph_free(&g);
		g.b = &made;
	}
	gt_free(stack);
	Worker workers[2] = {{0}, {0}};
	ok = ok && (made.lb = gt_malloc((size_t)made.groups * (size_t)made.groups * sizeof *made.lb)) != NULL &&
	     worker_init(&workers[0], &g, made.lb, 0, 2) && worker_init(&workers[1], &g, made.lb, 1, 2);
	if (ok) {
		// Half the groups on a second thread (the world's creation waits for both).
		gtJob job = {0};
		bool started = gt_job_start(&job, NULL, search_groups, &workers[1]);
		search_groups(&workers[0]);
		if (started) gt_job_join(&job);
		else search_groups(&workers[1]);
	}
	worker_free(&workers[0]);
	worker_free(&workers[1]);
	graph_free(&g);
	if (!ok) {
		gt_walk_bound_free(&made);
		return false;
	}
	*b = made;
	return true;
}

void gt_walk_bound_free(gtWalkBound* b)
{
	gt_free(b->lb);
	gt_free(b->group);
	*b = (gtWalkBound){0};
}
