// The links' search of a query (Filter, world_tree_query.c) over the ways' grid: the same Dijkstra
// over the ways as links_settle, in which a walk between two links is a straight line, but each
// point it walks from (the query point, each settled way's exit) reads the grid's squares in rings
// around it, nearest first, only as far as the query's keys need. A query near no link reads a
// few squares instead of every way (100 teleporters on AR0602SR: every way was read and rooted
// once per query, and each settled way relaxed every open one).
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "world/world_query.h"

// Kept off a cursor's bound: the squares' edges and the points' coordinates are rounded, and a
// bound must never exceed the reach it stands for (ways settle in order of reach).
#define EDGE_MARGIN 1e-6

static bool search_reserve(gtLinkSearch* g, gtQueryScratch* s, int32_t count)
{
	if (s->way_capacity < count) {
		if (!GT_RESIZE(s->ways, count)) return false;
		s->way_capacity = count;
	}
	if (g->capacity < count) {
		if (!GT_RESIZE(g->stamp, count) || !GT_RESIZE(g->reach, count) || !GT_RESIZE(g->open, count) ||
		    !GT_RESIZE(g->cursors, (int64_t)count + 1))
			return false;
		memset(g->stamp, 0, (size_t)count * sizeof *g->stamp);
		g->capacity = count;
		g->generation = 0;
	}
	if (g->generation >= UINT32_MAX - 2) {
		memset(g->stamp, 0, (size_t)g->capacity * sizeof *g->stamp);
		g->generation = 0;
	}
	g->generation += 2;
	return true;
}

static int clamp_cell(double v, double side, int n)
{
	double i = v / side;
	return !(i > 0) ? 0 : i >= n ? n - 1 : (int)i;
}

// Way i's reach from cursor c.
static inline double reach_from(const gtShortcuts* l, const gtLinkCursor* c, int32_t i)
{
	double dx = l->entrance[i].x - c->at.x, dy = l->entrance[i].y - c->at.y;
	return c->base + sqrt(dx * dx + dy * dy) + l->cost[i];
}

// A list cursor's bound: the next way's reach, or its block's bound of it, kept below by a margin:
// a list's order is by reach from base 0 (adding base rounds each a little differently), and the
// bounds are rounded. Past the end of a block's list that did not hold every way, the squares.
static void list_bound(const gtShortcuts* l, gtLinkCursor* c)
{
	double b = c->lows ? c->base + c->lows[c->next] : c->next < c->end ? reach_from(l, c, c->list[c->next]) : INFINITY;
	b = b == INFINITY ? b : b - EDGE_MARGIN - b * 0x1p-40;
	c->bound = b;
	if (c->next < c->end || b == INFINITY) return;
	c->end = -1; // the squares from q's own on, none of whose ways left out is below b
	c->floor = b;
	c->bound = c->base > b ? c->base : b;
}

// A cursor at `at` walked from for `base`: at the exit of settled way `way` it reads that way's list
// of next ways, at q (way -1) its block's first ways, when there are such lists; else the squares.
static void cursor_start(gtLinkSearch* g, gtVec2 at, double base, int32_t way)
{
	const gtShortcuts* l = g->l;
	gtLinkCursor* c = &g->cursors[g->cursor_count++];
	*c = (gtLinkCursor){.at = at,
	                    .base = base,
	                    .bound = base,
	                    .floor = -INFINITY,
	                    .column = clamp_cell(at.x, l->grid_side, l->grid_columns),
	                    .row = clamp_cell(at.y, l->grid_side, l->grid_rows),
	                    .ring = -1,
	                    .end = -1};
	if (way >= 0 && l->next_begin) {
		c->list = l->next_way, c->next = l->next_begin[way], c->end = l->next_begin[way + 1];
		list_bound(l, c);
		return;
	}
	double bx = at.x / l->block, by = at.y / l->block; // the block as link_table_at finds it
	if (way >= 0 || !l->first_way || !l->first_reach || l->first_listed <= 0 ||
	    !(bx >= 0 && by >= 0 && bx < l->columns && by < l->rows))
		return;
	int64_t block = (int64_t)by * l->columns + (int64_t)bx;
	c->list = l->first_way + block * l->first_listed;
	c->lows = l->first_reach + block * (l->first_listed + 1);
	for (c->next = c->end = 0; c->end < l->first_listed && c->list[c->end] >= 0;) c->end++;
	list_bound(l, c);
}

// Way i reached from cursor c: opened, or its reach lowered; the reach (+infinity: settled).
static inline double read_way(gtLinkSearch* g, const gtLinkCursor* c, int32_t i)
{
	uint32_t stamp = g->stamp[i];
	if (stamp == g->generation + 1) return INFINITY; // settled
	double reach = reach_from(g->l, c, i);
	if (stamp != g->generation) {
		g->stamp[i] = g->generation;
		g->reach[i] = reach;
		g->open[g->open_count++] = i;
	} else if (reach < g->reach[i]) {
		g->reach[i] = reach;
		g->lowered |= reach < g->open_reach;
	}
	return reach;
}

// The ways whose entrance lies in square (column, row), reached from cursor c.
static void read_square(gtLinkSearch* g, const gtLinkCursor* c, int column, int row)
{
	const gtShortcuts* l = g->l;
	if (column < 0 || row < 0 || column >= l->grid_columns || row >= l->grid_rows) return;
	int64_t square = (int64_t)row * l->grid_columns + column;
	for (int32_t k = l->grid_begin[square]; k < l->grid_begin[square + 1]; k++) read_way(g, c, l->grid_way[k]);
}

// A list cursor's next ways until the next one's bound passes the least open reach: until then the
// search cannot settle (a ring of squares read several ways at a time, and the empty squares too:
// 100 teleporters on AR0602SR, most of a search's work).
static void read_list(gtLinkSearch* g, gtLinkCursor* c)
{
	const gtShortcuts* l = g->l;
	double least = g->open_reach;
	do {
		double reach = read_way(g, c, c->list[c->next++]);
		least = reach < least ? reach : least;
		list_bound(l, c);
	} while (c->end >= 0 && c->bound < least);
}

// Reads cursor c's next ring of squares and lowers nothing: its bound grows to the distance from
// its point to the squares not read yet.
static void read_ring(gtLinkSearch* g, gtLinkCursor* c)
{
	const gtShortcuts* l = g->l;
	int r = ++c->ring, x0 = c->column - r, x1 = c->column + r, y0 = c->row - r, y1 = c->row + r;
	if (r == 0) {
		read_square(g, c, c->column, c->row);
	} else {
		for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < l->grid_columns; x++) {
			read_square(g, c, x, y0);
			read_square(g, c, x, y1);
		}
		for (int y = y0 + 1 < 0 ? 0 : y0 + 1; y < y1 && y < l->grid_rows; y++) {
			read_square(g, c, x0, y);
			read_square(g, c, x1, y);
		}
	}
	// Entrances in squares left of x0 are at x <= x0 * side, and so on for the other sides.
	double side = l->grid_side, gap = INFINITY;
	if (x0 > 0 && c->at.x - x0 * side < gap) gap = c->at.x - x0 * side;
	if (x1 < l->grid_columns - 1 && (x1 + 1) * side - c->at.x < gap) gap = (x1 + 1) * side - c->at.x;
	if (y0 > 0 && c->at.y - y0 * side < gap) gap = c->at.y - y0 * side;
	if (y1 < l->grid_rows - 1 && (y1 + 1) * side - c->at.y < gap) gap = (y1 + 1) * side - c->at.y;
	c->bound = c->base + (gap > EDGE_MARGIN ? gap - EDGE_MARGIN : 0);
	if (c->bound < c->floor) c->bound = c->floor;
}

// The least open reach and the least cursor bound; link_frontier, the least of the two, is the
// least reach any unsettled way can still have. The open ways from `from` on only (those opened by
// a read; unless it lowered an older one, which keep their least), or all when from is 0.
static void find_least_from(Filter* f, gtLinkSearch* g, int32_t from)
{
	if (from == 0 || g->lowered) {
		from = 0;
		g->least_open = -1;
		g->open_reach = INFINITY;
	}
	g->lowered = false;
	g->least_cursor = -1;
	g->cursor_bound = INFINITY;
	for (int k = from; k < g->open_count; k++)
		if (g->reach[g->open[k]] < g->open_reach) g->open_reach = g->reach[g->open[k]], g->least_open = k;
	for (int k = 0; k < g->cursor_count; k++)
		if (g->cursors[k].bound < g->cursor_bound) g->cursor_bound = g->cursors[k].bound, g->least_cursor = k;
	f->link_frontier = g->open_reach < g->cursor_bound ? g->open_reach : g->cursor_bound;
}
static void find_least(Filter* f, gtLinkSearch* g)
{
	find_least_from(f, g, 0);
}

// Reads the least cursor's next ring (when it is below every open reach and below `upto`).
static bool read_least(Filter* f, gtLinkSearch* g, double upto)
{
	if (!(g->cursor_bound < g->open_reach && g->cursor_bound <= upto)) return false;
	gtLinkCursor* c = &g->cursors[g->least_cursor];
	int32_t opened = g->open_count;
	if (c->end >= 0) read_list(g, c);
	else read_ring(g, c);
	if (c->bound == INFINITY) *c = g->cursors[--g->cursor_count];
	find_least_from(f, g, opened);
	return true;
}

// Settles the open way of least reach: nothing unread can reach a way for less than the least
// cursor bound, which is at least that reach.
static void settle_least(Filter* f, gtLinkSearch* g)
{
	const gtShortcuts* l = g->l;
	int32_t i = g->open[g->least_open];
	g->open[g->least_open] = g->open[--g->open_count];
	g->stamp[i] = g->generation + 1;
	f->ways[f->ways_settled++] = (gtLinkWay){g->open_reach, l->cost[i], l->entrance[i], l->exit[i]};
	// A point a cursor walks from for no more than this reach reaches every entrance for no more
	// than the exit would: no cursor there (the way back through a teleporter just taken).
	gtVec2 x = l->exit[i];
	bool covered = false;
	for (int k = 0; k < g->cursor_count && !covered; k++) {
		double dx = x.x - g->cursors[k].at.x, dy = x.y - g->cursors[k].at.y;
		covered = g->cursors[k].base + sqrt(dx * dx + dy * dy) <= g->open_reach;
	}
	if (!covered) cursor_start(g, x, g->open_reach, i);
	find_least(f, g);
}

bool gt_link_search_begin(Filter* f, gtQueryScratch* s, const gtShortcuts* l, gtVec2 q)
{
	gtLinkSearch* g = &s->search;
	if (!search_reserve(g, s, l->count)) return false;
	g->l = l;
	g->open_count = g->cursor_count = 0;
	f->search = g;
	f->ways = s->ways;
	cursor_start(g, q, 0, -1);
	find_least(f, g);
	// Read until the least reach is known: every key below it is the straight line.
	while (read_least(f, g, INFINITY)) {}
	f->link_reach = f->link_frontier;
	return true;
}

void gt_link_search_settle(Filter* f, double upto, bool ahead)
{
	gtLinkSearch* g = f->search;
	for (;;) {
		if (!(f->link_frontier * (1 - 0x1p-48) <= upto)) break; // keys are shrunk (link_bound)
		if (g->least_open >= 0 && g->open_reach <= g->cursor_bound) settle_least(f, g);
		else if (!read_least(f, g, INFINITY)) break;
	}
	// A ring ahead for the tree, so that the frontier the keys see does not creep up a square edge
	// at a time (each creep re-keys and queues an item again). The ring walk re-keys nothing: a
	// creep costs it one more settle, less than a ring of squares (two floors joined by 100 stairs:
	// a query near the stairs read a ring of the other floor's squares beyond its answer).
	while (ahead && read_least(f, g, upto + g->l->grid_side)) {}
}

double gt_link_least_reach(gtQueryScratch* s, const gtShortcuts* l, gtVec2 q)
{
	if (!l->grid_begin) {
		double least = INFINITY;
		for (int32_t i = 0; i < l->count; i++) {
			double lx = l->exit[i].x - l->entrance[i].x, ly = l->exit[i].y - l->entrance[i].y, c = l->cost[i];
			if (c * c >= lx * lx + ly * ly) continue; // never shortens a walk (links_begin)
			double dx = q.x - l->entrance[i].x, dy = q.y - l->entrance[i].y, reach = sqrt(dx * dx + dy * dy) + c;
			if (reach < least) least = reach;
		}
		return least;
	}
	Filter f; // the search's own: the query's Filter keeps its keys with the slack
	memset(&f, 0, sizeof f);
	return gt_link_search_begin(&f, s, l, q) ? f.link_reach : 0;
}

// The least reach from q over the ways its block lists, -1 when it lists none.
static double listed_reach(const gtShortcuts* l, gtVec2 q)
{
	double bx = q.x / l->block, by = q.y / l->block; // the block as link_table_at finds it
	if (!l->reach_begin || !(bx >= 0 && by >= 0 && bx < l->columns && by < l->rows)) return -1;
	int64_t block = (int64_t)by * l->columns + (int64_t)bx;
	int32_t k = l->reach_begin[block], end = l->reach_begin[block + 1];
	double least = end > k ? INFINITY : -1;
	for (; k < end; k++) { // the reach as read_square reads it from q (base 0)
		int32_t i = l->reach_way[k];
		double dx = l->entrance[i].x - q.x, dy = l->entrance[i].y - q.y, reach = sqrt(dx * dx + dy * dy) + l->cost[i];
		if (reach < least) least = reach;
	}
	return least;
}

bool gt_link_search_later(Filter* f, gtQueryScratch* s, gtVec2 q)
{
	if (f->search) return true;
	// The list is read once: at the table's bound, before link_frontier rises to its reach.
	double listed = f->link_frontier == f->search_from ? listed_reach(f->shortcuts, q) : -1;
	if (listed > f->link_frontier) {
		f->link_reach = f->link_frontier = listed;
		return true;
	}
	return gt_link_search_begin(f, s, f->shortcuts, q);
}

double gt_shortcuts_savings(const gtShortcuts* l)
{
	double sum = 0;
	for (int32_t i = 0; l && i < l->count; i++) {
		double lx = l->exit[i].x - l->entrance[i].x, ly = l->exit[i].y - l->entrance[i].y,
		       length = sqrt(lx * lx + ly * ly);
		// Each term rounded up by far more than the root's and the sum's rounding.
		sum += (length > l->cost[i] ? length - l->cost[i] : 0) + length * 0x1p-40 + DBL_MIN;
	}
	return sum * (1 + 0x1p-40);
}

// Whether no walk through the links beats the straight line from q to p: their bound (a lower
// bound of every such walk) stands above the line by a margin far beyond rounding, so the
// backend's value is the line's hypot too. With the slack (stairs, no search) the bound is the
// least reach of a way from q plus the gap from p to the nearest exit: a walk through links takes
// a first way and leaves the last at an exit. (Settling the search up to the line first, where
// the bound fell short, saved no pricing: 100 teleporters on AR0602SR, a settled way fell short
// each time.)
static __attribute__((noinline)) bool links_spare_line(Filter* f, gtQueryScratch* s, gtVec2 q, gtVec2 p)
{
	double line = gt_straight_key(p.x - q.x, p.y - q.y) * (1 + 0x1p-40);
	if (f->link_slack != 0) {
		if (isnan(f->slack_reach)) f->slack_reach = gt_link_least_reach(s, f->shortcuts, q);
		return (f->slack_reach + link_table_at(f->shortcuts, f->shortcuts->gap, p.x, p.y)) * (1 - 0x1p-49) >= line;
	}
	return link_bound(f, line, p.x, p.y, 0, 0) >= line;
}

// links_spare_line's first case, without its call and root: a line no longer than the least reach
// from q (or the plain ring walk's bound of it), by a margin above links_spare_line's and rounding.
static inline bool links_spare_near(const Filter* f, gtVec2 q, gtVec2 p)
{
	double dx = p.x - q.x, dy = p.y - q.y;
	return f->link_slack == 0 && (dx * dx + dy * dy) * (1 + 0x1p-36) <= f->link_reach * f->link_reach;
}

bool gt_links_spare(Filter* f, gtQueryScratch* s, gtVec2 q, gtVec2 p)
{
	return links_spare_near(f, q, p) || links_spare_line(f, s, q, p);
}
