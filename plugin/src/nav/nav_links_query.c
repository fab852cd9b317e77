// Queries with links: the oracle's visibility graph joined to the links' ends (oracle_links.c)
// answers distances, paths and world queries, and the world's lower bound takes the links into
// account (gtShortcuts). Each query keeps its own graph and bound tables, remade when the map,
// the index or the links changed since.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "gridtree/gt_ehl.h"
#include "nav/nav_backend.h"
#include "nav/nav_links_internal.h"
#include "nav/nav_links_table.h"
#include "oracle/oracle.h"
#include "world/world_query.h"

typedef struct LinksScratch {
	const gtMap* map;
	gtNavQuery* query;
	// Over the EHL index: the table of walks between link ends (nav_links_table.c), and the
	// backend that answers the walks.
	LinkTable* table;
	const NavBackend* backend;
	// Else: the oracle's graph joined to the link ends (oracle_links.c).
	gtLinkGraph* graph;
	const gtOracle* oracle; // the graph's, with the generations it was made for
	uint32_t map_generation, ehl_generation, links_generation;
	// Or: the index was built knowing exactly the enabled links (nav_links_index.c) and answers as
	// it is; index_ids[k] is the handle of its link k.
	bool index_answers;
	gtLinkId* index_ids;
	// The world's bound: the ways (both directions of a two-way link), and the exits' gap table.
	gtShortcuts shortcuts;
	gtVec2 *entrance, *exit;
	double* cost;
	int32_t* shortening; // the ways cheaper than their line, the only ones the lists below hold
	int32_t shortenings;
	float* gap;                       // gap and reach_gap, one after the other
	int32_t *grid_begin, *grid_way;   // gtShortcuts.grid_begin
	int32_t *reach_begin, *reach_way; // gtShortcuts.reach_begin
	int64_t reach_capacity;           // of reach_way
	int32_t *next_begin, *next_way;   // gtShortcuts.next_begin
	int32_t* first_way;               // gtShortcuts.first_way
	float* first_reach;
	bool bound_made;
	uint32_t bound_generation;
	NavReach* reach; // reachability (nav_reach.c)
} LinksScratch;

void nav_links_free_scratch(void* scratch)
{
	LinksScratch* l = scratch;
	if (!l) return;
	gt_link_graph_destroy(l->graph);
	nav_link_table_free(l->table);
	nav_reach_free(l->reach);
	gt_free(l->index_ids);
	gt_free(l->entrance), gt_free(l->exit), gt_free(l->cost), gt_free(l->gap);
	gt_free(l->grid_begin), gt_free(l->grid_way);
	gt_free(l->reach_begin), gt_free(l->reach_way);
	gt_free(l->next_begin), gt_free(l->next_way);
	gt_free(l->first_way), gt_free(l->first_reach), gt_free(l->shortening);
	gt_free(l);
}

NavReach** nav_links_reach_slot(gtNavQuery* q, gtError* err)
{
	if (!q->links_scratch && !(q->links_scratch = gt_calloc(1, sizeof(LinksScratch)))) {
		gt_fail(err, GT_ERR_NOMEM, "out of memory");
		return NULL;
	}
	return &((LinksScratch*)q->links_scratch)->reach;
}

static gtStatus refuse(const gtNav* nav, gtError* err)
{
	return gt_fail(err, GT_ERR_INVALID_ARG,
	               "the %s backend cannot take links (%d enabled): choose the oracle or ehl, or disable the links",
	               gtNavMethod_Name(nav->method), nav->links->enabled);
}

static bool up_to_date(const LinksScratch* l, const gtNav* nav)
{
	return l->map_generation == nav->map_generation && l->ehl_generation == nav->ehl_generation &&
	       l->links_generation == nav->links->generation;
}

static gtStatus enabled_links(const gtNav* nav, gtLinkEdge** edges, int* count, gtError* err)
{
	*count = nav_links_enabled(nav, NULL);
	*edges = gt_malloc(((size_t)*count + 1) * sizeof **edges);
	if (!*edges) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	nav_links_enabled(nav, *edges);
	return GT_OK;
}

// Over an index: the table of walks between the link ends, made by the index.
static gtStatus table_ready(gtNavQuery* q, LinksScratch* l, const NavBackend* b, gtError* err)
{
	gtNav* nav = q->nav;
	gtStatus st = b->bind(q, err);
	if (st || (l->table && l->backend == b && up_to_date(l, nav))) return st;
	nav_link_table_free(l->table);
	l->table = NULL;
	gt_link_graph_destroy(l->graph); // one or the other answers
	l->graph = NULL;
	int count;
	gtLinkEdge* edges;
	if ((st = enabled_links(nav, &edges, &count, err))) return st;
	st = nav_link_table_create(q, b, edges, count, &l->table, err);
	gt_free(edges);
	return st;
}

// Else: the oracle's graph joined to the link ends.
static gtStatus graph_ready(gtNavQuery* q, LinksScratch* l, gtError* err)
{
	gtNav* nav = q->nav;
	gtStatus st = nav_oracle_ready(q, err);
	if (st) return st;
	const gtOracle* oracle = nav_oracle(q);
	if (l->graph && l->oracle == oracle && up_to_date(l, nav)) return GT_OK;
	gt_link_graph_destroy(l->graph);
	l->graph = NULL;
	nav_link_table_free(l->table);
	l->table = NULL;
	int count;
	gtLinkEdge* edges;
	if ((st = enabled_links(nav, &edges, &count, err))) return st;
	st = gt_link_graph_create(oracle, nav->map, edges, count, &l->graph, err);
	gt_free(edges);
	l->oracle = oracle;
	return st;
}

// An index built knowing links answers as it is when they are the enabled links, else (a link of
// its disabled, others enabled, the map edited) the oracle's graph: its distances are no walks
// without its links, nor lower bounds of the walks without some of them.
static gtStatus index_ready(gtNavQuery* q, LinksScratch* l, const NavBackend* b, gtError* err)
{
	gtNav* nav = q->nav;
	if (l->index_answers && up_to_date(l, nav)) return b->bind(q, err);
	l->index_answers = false;
	int count;
	gtLinkEdge* edges;
	gtStatus st = enabled_links(nav, &edges, &count, err);
	if (!st && !GT_RESIZE(l->index_ids, count + 1)) st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
	bool fits = !st && nav_links_index_fits(nav, edges, count, l->index_ids);
	gt_free(edges);
	if (st || !fits) return st ? st : graph_ready(q, l, err);
	gt_link_graph_destroy(l->graph), nav_link_table_free(l->table);
	l->graph = NULL, l->table = NULL;
	l->index_answers = true;
	return b->bind(q, err);
}

// What answers with links for the map, index and links as they are now: an index that knows them,
// the table over the EHL index when it answers (and the links are not too many for a table), else
// the oracle's graph.
static gtStatus links_ready(gtNavQuery* q, gtError* err)
{
	gtNav* nav = q->nav;
	if (nav->method == GT_NAV_POLYANYA) return refuse(nav, err);
	if (!q->links_scratch && !(q->links_scratch = gt_calloc(1, sizeof(LinksScratch))))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	LinksScratch* l = q->links_scratch;
	const NavBackend* b = nav->backend;
	gtStatus st;
	if (b == nav_backend(GT_NAV_EHL) && nav->ehl && gtEhl_Links(nav->ehl, NULL) > 0) {
		st = index_ready(q, l, b, err);
	} else {
		l->index_answers = false;
		if (b->outdated && b->outdated(nav)) b = nav_backend(b->stand_in);
		bool table = b == nav_backend(GT_NAV_EHL) && nav->links->enabled <= NAV_LINK_TABLE_MAX;
		st = table ? table_ready(q, l, b, err) : graph_ready(q, l, err);
	}
	if (st) return st;
	l->map = nav->map;
	l->query = q;
	l->backend = b;
	l->map_generation = nav->map_generation, l->ehl_generation = nav->ehl_generation;
	l->links_generation = nav->links->generation;
	return GT_OK;
}

// Whether the index that knows the links answered this query's last call and nothing has changed
// since (map, index, links, method): then links_ready would only bind the backend again.
static bool index_still_answers(const gtNavQuery* q)
{
	const LinksScratch* l = q->links_scratch;
	return l && l->index_answers && l->backend == q->nav->backend && up_to_date(l, q->nav);
}

// nav_links_distance when the index may not answer as it did last time: the points and the links'
// data checked (and made) first. Out of line: the usual call (index_still_answers) stays short.
static __attribute__((noinline)) gtStatus links_distance_checked(gtNavQuery* q, gtVec2 s, gtVec2 t, double* distance,
                                                                 gtError* err)
{
	gtStatus st = nav_check_points(q->nav->map, s, t, err);
	if (!st) st = links_ready(q, err);
	if (st) return st;
	LinksScratch* l = q->links_scratch;
	if (l->index_answers) return l->backend->distance(q, s, t, distance, err);
	if (l->table) return nav_link_table_distance(l->table, q, l->backend, s, t, distance, err);
	*distance = gt_link_graph_distance(l->graph, s, t);
	return GT_OK;
}

gtStatus nav_links_distance(gtNavQuery* q, gtVec2 s, gtVec2 t, double* distance, gtError* err)
{
	*distance = INFINITY;
	if (!index_still_answers(q)) return links_distance_checked(q, s, t, distance, err);
	// The index checks the points itself; the message is the nav's. No bind: this query bound the
	// backend when it last answered, and nothing it binds for (map, index, links) has changed since.
	gtStatus st = q->nav->backend->distance(q, s, t, distance, err);
	if (st == GT_ERR_INVALID_POINT)
		(void)nav_check_points(q->nav->map, s, t, err); // its message, as the checked path's
	return st;
}

gtStatus nav_links_path(gtNavQuery* q, gtVec2 s, gtVec2 t, gtVec2* points, gtLinkId* links, int capacity, int* count,
                        double* distance, gtError* err)
{
	*count = 0;
	if (distance) *distance = INFINITY;
	gtStatus st = nav_check_points(q->nav->map, s, t, err);
	if (!st) st = links_ready(q, err);
	if (st) return st;
	LinksScratch* l = q->links_scratch;
	if (l->index_answers) {
		st = l->backend->path(q, s, t, points, capacity, count, distance, err);
		if (!st && links) nav_links_index_name_links(q->nav, l->index_ids, points, links, *count);
		return st;
	}
	if (l->table)
		return nav_link_table_path(l->table, q, l->backend, s, t, points, links, capacity, count, distance, err);
	return gt_link_graph_path(l->graph, s, t, points, links, capacity, count, distance, err);
}

gtStatus gtNavQuery_PathLinks(gtNavQuery* query, gtVec2 s, gtVec2 t, gtVec2* points, gtLinkId* links, int capacity,
                              int* count, double* distance, gtError* err)
{
	if (nav_links_take(query->nav)) return nav_links_path(query, s, t, points, links, capacity, count, distance, err);
	gtStatus st = gtNavQuery_Path(query, s, t, points, capacity, count, distance, err);
	for (int i = 0; links && i < *count && i < capacity; i++) links[i] = GT_LINK_NONE;
	return st;
}

// Per block of the gap table, the distance from the block to the nearest exit, and the least
// distance to the entrance of a way cheaper than its line plus its cost (reach_gap), each rounded
// down to a float so it stays a lower bound.
static float float_below(double v)
{
	float g = (float)v;
	return (double)g > v ? nextafterf(g, 0) : g;
}
// The squared distance from p to the box [x0, x1] x [y0, y1] (0 inside).
static inline double box_gap2(gtVec2 p, double x0, double y0, double x1, double y1)
{
	double dx = p.x < x0 ? x0 - p.x : p.x > x1 ? p.x - x1 : 0;
	double dy = p.y < y0 ? y0 - p.y : p.y > y1 ? p.y - y1 : 0;
	return dx * dx + dy * dy;
}
// Whether way i is cheaper than its straight line (else it never shortens a walk).
static inline bool way_shortens(const LinksScratch* l, int i)
{
	double lx = l->exit[i].x - l->entrance[i].x, ly = l->exit[i].y - l->entrance[i].y, c = l->cost[i];
	return c * c < lx * lx + ly * ly;
}
static void fill_gaps(LinksScratch* l)
{
	gtShortcuts* sc = &l->shortcuts;
	float* reach_gap = l->gap + (int64_t)sc->columns * sc->rows;
	for (int by = 0; by < sc->rows; by++)
		for (int bx = 0; bx < sc->columns; bx++) {
			double x0 = bx * sc->block, y0 = by * sc->block, x1 = x0 + sc->block, y1 = y0 + sc->block;
			double best = INFINITY, reach = INFINITY;
			for (int i = 0; i < sc->count; i++) {
				double d = box_gap2(l->exit[i], x0, y0, x1, y1);
				if (d < best) best = d;
				if (!way_shortens(l, i)) continue;
				d = sqrt(box_gap2(l->entrance[i], x0, y0, x1, y1)) + l->cost[i];
				if (d < reach) reach = d;
			}
			int64_t block = (int64_t)by * sc->columns + bx;
			l->gap[block] = float_below(sqrt(best));
			reach_gap[block] = float_below(reach);
		}
}

enum { GAP_SIDE = 128 }; // the gap table has at most GAP_SIDE x GAP_SIDE blocks

// Block (bx, by)'s ways that can be the least reach from one of its points (gtShortcuts.reach_begin)
// into out (room for REACH_LISTED), how many: those whose least reach from the block (distance to the
// block + cost) is at most the least over all of their greatest (distance to the block's farthest
// corner + cost), by a margin far above rounding (a point's block is its coordinates over the
// side, truncated). A block with more than REACH_LISTED lists none: a query there searches the
// grid for it (world_links.c).
enum { REACH_LISTED = 8 };
#define REACH_MARGIN 1e-6
static int reach_list(const LinksScratch* l, int bx, int by, int32_t* out)
{
	const gtShortcuts* sc = &l->shortcuts;
	double x0 = bx * sc->block, y0 = by * sc->block, x1 = x0 + sc->block, y1 = y0 + sc->block, most = INFINITY;
	for (int pass = 0, n = 0;; pass++, n = 0) {
		for (int s = 0; s < l->shortenings; s++) {
			int32_t i = l->shortening[s];
			gtVec2 e = l->entrance[i];
			double c = l->cost[i];
			if (pass == 0) { // the farthest corner
				double fx = fabs(e.x - x0) > fabs(e.x - x1) ? fabs(e.x - x0) : fabs(e.x - x1);
				double fy = fabs(e.y - y0) > fabs(e.y - y1) ? fabs(e.y - y0) : fabs(e.y - y1);
				double far = sqrt(fx * fx + fy * fy) + c;
				if (far < most) most = far;
			} else if (sqrt(box_gap2(e, x0, y0, x1, y1)) + c <= most + REACH_MARGIN * (1 + most)) {
				if (n == REACH_LISTED) return 0;
				out[n++] = i;
			}
		}
		if (pass == 1) return n;
	}
}
// Every block's list, placed as it is made; false when out of memory.
static bool fill_reach_lists(LinksScratch* l)
{
	gtShortcuts* sc = &l->shortcuts;
	int64_t blocks = (int64_t)sc->columns * sc->rows, total = 0;
	if (!GT_RESIZE(l->reach_begin, blocks + 1)) return false;
	for (int by = 0; by < sc->rows; by++)
		for (int bx = 0; bx < sc->columns; bx++) {
			if (!GT_GROW(l->reach_way, l->reach_capacity, total + REACH_LISTED + 1, 256)) return false;
			l->reach_begin[(int64_t)by * sc->columns + bx] = (int32_t)total;
			total += reach_list(l, bx, by, l->reach_way + total);
		}
	l->reach_begin[blocks] = (int32_t)total;
	sc->reach_begin = l->reach_begin, sc->reach_way = l->reach_way;
	return true;
}

// Per way, the ways cheaper than their line by distance from its exit to their entrance plus their
// cost (gtShortcuts.next_begin), when there are at most NEXT_WAYS of them (the lists take their
// square); false when out of memory.
enum { NEXT_WAYS = 256 };
typedef struct NextWay {
	double reach;
	int32_t way;
} NextWay;
static int by_reach(const void* a, const void* b)
{
	double x = ((const NextWay*)a)->reach, y = ((const NextWay*)b)->reach;
	return (x > y) - (x < y);
}
static bool fill_next_lists(LinksScratch* l)
{
	gtShortcuts* sc = &l->shortcuts;
	int32_t shortening = l->shortenings;
	sc->next_begin = sc->next_way = NULL;
	if (shortening == 0 || shortening > NEXT_WAYS) return true;
	NextWay* order = gt_malloc((size_t)shortening * sizeof *order);
	if (!order || !GT_RESIZE(l->next_begin, sc->count + 1) ||
	    !GT_RESIZE(l->next_way, (int64_t)sc->count * shortening + 1)) {
		gt_free(order);
		return false;
	}
	for (int i = 0; i < sc->count; i++) {
		gtVec2 x = l->exit[i];
		int n = 0;
		for (int s = 0; s < shortening; s++) {
			int32_t j = l->shortening[s];
			double dx = l->entrance[j].x - x.x, dy = l->entrance[j].y - x.y;
			order[n++] = (NextWay){sqrt(dx * dx + dy * dy) + l->cost[j], j};
		}
		qsort(order, (size_t)n, sizeof *order, by_reach);
		l->next_begin[i] = i * shortening;
		for (int k = 0; k < n; k++) l->next_way[(int64_t)i * shortening + k] = order[k].way;
	}
	l->next_begin[sc->count] = sc->count * shortening;
	gt_free(order);
	sc->next_begin = l->next_begin, sc->next_way = l->next_way;
	return true;
}

// Per block, its FIRST_LISTED nearest ways (gtShortcuts.first_way), by insertion into a list one
// longer (its last gives the bound of the ways not listed); with the next lists only.
enum { FIRST_LISTED = 12 };
static bool fill_first_lists(LinksScratch* l)
{
	gtShortcuts* sc = &l->shortcuts;
	int64_t blocks = (int64_t)sc->columns * sc->rows;
	sc->first_way = NULL, sc->first_reach = NULL, sc->first_listed = 0;
	if (!sc->next_begin) return true;
	if (!GT_RESIZE(l->first_way, blocks * FIRST_LISTED + 1) ||
	    !GT_RESIZE(l->first_reach, blocks * (FIRST_LISTED + 1) + 1))
		return false;
	for (int64_t b = 0; b < blocks; b++) {
		double x0 = (double)(b % sc->columns) * sc->block, y0 = (double)(b / sc->columns) * sc->block;
		NextWay near[FIRST_LISTED + 1];
		int n = 0;
		for (int s = 0; s < l->shortenings; s++) {
			int32_t i = l->shortening[s];
			double d = sqrt(box_gap2(l->entrance[i], x0, y0, x0 + sc->block, y0 + sc->block)) + l->cost[i];
			if (n == FIRST_LISTED + 1 && d >= near[n - 1].reach) continue;
			int k = n < FIRST_LISTED + 1 ? n++ : n - 1;
			for (; k > 0 && near[k - 1].reach > d; k--) near[k] = near[k - 1];
			near[k] = (NextWay){d, i};
		}
		for (int k = 0; k <= FIRST_LISTED; k++) {
			if (k < FIRST_LISTED) l->first_way[b * FIRST_LISTED + k] = k < n ? near[k].way : -1;
			l->first_reach[b * (FIRST_LISTED + 1) + k] = k < n ? float_below(near[k].reach) : INFINITY;
		}
	}
	sc->first_way = l->first_way, sc->first_reach = l->first_reach, sc->first_listed = FIRST_LISTED;
	return true;
}

// The grid of the ways cheaper than their straight line (gtShortcuts.grid_begin): squares of
// about the map's area per such way, so a square holds about one; false when out of memory.
static bool fill_grid(LinksScratch* l, int width, int height)
{
	gtShortcuts* sc = &l->shortcuts;
	int32_t shortening = 0;
	for (int i = 0; i < sc->count; i++) {
		double lx = l->exit[i].x - l->entrance[i].x, ly = l->exit[i].y - l->entrance[i].y;
		shortening += l->cost[i] * l->cost[i] < lx * lx + ly * ly;
	}
	double side = ceil(sqrt((double)width * height / (shortening > 0 ? shortening : 1)));
	side = side < 1 ? 1 : side;
	int columns = (int)ceil(width / side), rows = (int)ceil(height / side);
	columns = columns < 1 ? 1 : columns, rows = rows < 1 ? 1 : rows;
	int64_t squares = (int64_t)columns * rows;
	if (!GT_RESIZE(l->grid_begin, squares + 2) || !GT_RESIZE(l->grid_way, shortening + 1)) return false;
	memset(l->grid_begin, 0, (size_t)(squares + 2) * sizeof *l->grid_begin);
	for (int pass = 0; pass < 2; pass++) { // count per square, then place (counting sort)
		for (int i = 0; i < sc->count; i++) {
			double lx = l->exit[i].x - l->entrance[i].x, ly = l->exit[i].y - l->entrance[i].y;
			if (l->cost[i] * l->cost[i] >= lx * lx + ly * ly) continue; // never shortens a walk
			double fx = l->entrance[i].x / side, fy = l->entrance[i].y / side;
			int x = !(fx > 0) ? 0 : fx >= columns ? columns - 1 : (int)fx;
			int y = !(fy > 0) ? 0 : fy >= rows ? rows - 1 : (int)fy;
			int64_t square = (int64_t)y * columns + x;
			if (pass == 0) l->grid_begin[square + 2]++;
			else l->grid_way[l->grid_begin[square + 1]++] = i;
		}
		for (int64_t c = 0; pass == 0 && c < squares; c++) l->grid_begin[c + 2] += l->grid_begin[c + 1];
	}
	sc->grid_begin = l->grid_begin, sc->grid_way = l->grid_way;
	sc->grid_columns = columns, sc->grid_rows = rows, sc->grid_side = side;
	return true;
}

static gtStatus make_bound(LinksScratch* l, const gtNav* nav, gtError* err)
{
	if (l->bound_made && l->bound_generation == nav->links->generation) return GT_OK;
	int count = nav_links_enabled(nav, NULL);
	gtLinkEdge* edges = gt_malloc(((size_t)count + 1) * sizeof *edges);
	if (!edges) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	nav_links_enabled(nav, edges);
	int width = gtMap_Width(nav->map), height = gtMap_Height(nav->map), side = width > height ? width : height;
	double block = ceil((double)side / GAP_SIDE);
	int columns = (int)ceil(width / block), rows = (int)ceil(height / block);
	bool ok = GT_RESIZE(l->entrance, 2 * count + 1) && GT_RESIZE(l->exit, 2 * count + 1) &&
	          GT_RESIZE(l->cost, 2 * count + 1) && GT_RESIZE(l->gap, 2 * (int64_t)columns * rows + 1);
	if (!ok) {
		gt_free(edges);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	}
	int ways = 0;
	for (int i = 0; i < count; i++) {
		l->entrance[ways] = edges[i].a, l->exit[ways] = edges[i].b, l->cost[ways++] = edges[i].cost;
		if (!edges[i].one_way)
			l->entrance[ways] = edges[i].b, l->exit[ways] = edges[i].a, l->cost[ways++] = edges[i].cost;
	}
	gt_free(edges);
	l->shortcuts = (gtShortcuts){.count = ways,
	                             .entrance = l->entrance,
	                             .exit = l->exit,
	                             .cost = l->cost,
	                             .gap = l->gap,
	                             .columns = columns,
	                             .rows = rows,
	                             .block = block,
	                             .reach_gap = l->gap + (int64_t)columns * rows};
	l->shortcuts.savings = gt_shortcuts_savings(&l->shortcuts);
	fill_gaps(l);
	if (!GT_RESIZE(l->shortening, ways + 1)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	l->shortenings = 0;
	for (int i = 0; i < ways; i++)
		if (way_shortens(l, i)) l->shortening[l->shortenings++] = i;
	if (!fill_grid(l, width, height) || !fill_reach_lists(l) || !fill_next_lists(l) || !fill_first_lists(l))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	l->bound_made = true;
	l->bound_generation = nav->links->generation;
	return GT_OK;
}

static double world_fcn(void* context, gtVec2 from, gtVec2 to)
{
	LinksScratch* l = context;
	if (gtMap_CheckPoint(l->map, from) || gtMap_CheckPoint(l->map, to)) return INFINITY;
	if (l->table) return nav_link_table_world(l->table, l->query, l->backend, from, to);
	return gt_link_graph_distance(l->graph, from, to);
}

gtStatus nav_links_world_distance(gtNavQuery* q, gtDistance* distance, gtError* err)
{
	gtStatus st = links_ready(q, err);
	if (!st) st = make_bound(q->links_scratch, q->nav, err);
	if (st) return st;
	LinksScratch* l = q->links_scratch;
	if (l->index_answers) { // the index's own world distance, with the bound that knows the links
		*distance = l->backend->world_distance(q);
		distance->shortcuts = &l->shortcuts;
		// Two points that see each other get hypot from the index unless a walk through the links
		// is shorter, which the world rules out with the links' bound before it trusts the line.
		if (!q->nav->added && !q->nav->freed) distance->straight_map = q->nav->map;
		return GT_OK;
	}
	*distance = (gtDistance){.fcn = world_fcn, .context = l, .shortcuts = &l->shortcuts};
	return GT_OK;
}
