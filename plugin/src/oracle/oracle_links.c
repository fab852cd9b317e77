// The oracle with links: A* over the visibility graph plus the links' ends. The straight line to t
// is no heuristic with links (a link may be cheaper than its length), so the estimate of a node x
// is min(|x t|, the cheapest link cost plus the straight line from that link's exit to t), which
// never overestimates and stays consistent across link edges.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/heap.h"
#include "core/status.h"
#include "map/geometry.h"
#include "oracle/oracle_links.h"

struct gtLinkGraph {
	const gtOracle* oracle;
	const gtMap* map;
	int n;              // convex vertices: nodes 0 .. n - 1
	int ends;           // link ends: node n + 2k is link k's a, n + 2k + 1 its b
	gtVertex* vertices; // a copy of the map's list when the graph was made
	gtLinkEdge* links;
	int link_count;
	gtVec2* end_point;
	int64_t* end_offset; // an end's neighbours (vertices tangent to it that it sees, and ends it sees)
	int32_t* end_adj;
	double* end_length;
	int64_t* vertex_offset; // a vertex's ends (the same pairs, from the vertex's side)
	int32_t* vertex_adj;
	double* vertex_length;
	// Per-query scratch, sized once.
	double *dist, *estimate;
	int32_t* parent;
	uint8_t* state; // BY_LINK: reached from its parent through the link edge; CLOSED: expanded
	gtHeap heap;
};

// A shortest path only bends at v when it wraps v's blocked cell (as in oracle.c).
static bool tangent(gtVertex v, gtVec2 p)
{
	return v.bx * v.by * (p.x - v.x) * (p.y - v.y) <= 0;
}

static gtVec2 vertex_point(const gtLinkGraph* g, int v)
{
	return (gtVec2){g->vertices[v].x, g->vertices[v].y};
}

static gtVec2 node_point(const gtLinkGraph* g, int node)
{
	return node < g->n ? vertex_point(g, node) : g->end_point[node - g->n];
}

static double length(gtVec2 a, gtVec2 b)
{
	return hypot(b.x - a.x, b.y - a.y);
}

void gt_link_graph_destroy(gtLinkGraph* g)
{
	if (!g) return;
	gt_free(g->vertices), gt_free(g->links), gt_free(g->end_point);
	gt_free(g->end_offset), gt_free(g->end_adj), gt_free(g->end_length);
	gt_free(g->vertex_offset), gt_free(g->vertex_adj), gt_free(g->vertex_length);
	gt_free(g->dist), gt_free(g->estimate), gt_free(g->parent), gt_free(g->state), gt_free(g->heap.items);
	gt_free(g);
}

// Each end's neighbours, then the same pairs from each vertex's side (a counting sort by vertex).
static gtStatus join_ends(gtLinkGraph* g, gtError* err)
{
	int64_t room = 0, used = 0;
	g->end_offset = gt_calloc((size_t)g->ends + 1, sizeof *g->end_offset);
	g->vertex_offset = gt_calloc((size_t)g->n + 2, sizeof *g->vertex_offset);
	if (!g->end_offset || !g->vertex_offset) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	for (int e = 0; e < g->ends; e++) {
		gtVec2 p = g->end_point[e];
		g->end_offset[e] = used;
		for (int node = 0; node < g->n + g->ends; node++) {
			if (node == g->n + e) continue;
			gtVec2 q = node_point(g, node);
			if (node < g->n && !tangent(g->vertices[node], p)) continue;
			if (!gt_visible_unchecked(g->map, p, q)) continue;
			if (used == room && (!GT_GROW(g->end_adj, room, used + 1, 256) || !GT_RESIZE(g->end_length, room)))
				return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
			g->end_adj[used] = node;
			g->end_length[used++] = length(p, q);
			if (node < g->n) g->vertex_offset[node + 1]++;
		}
	}
	g->end_offset[g->ends] = used;
	for (int v = 0; v < g->n; v++) g->vertex_offset[v + 1] += g->vertex_offset[v];
	int64_t pairs = g->vertex_offset[g->n];
	g->vertex_adj = gt_malloc(((size_t)pairs + 1) * sizeof *g->vertex_adj);
	g->vertex_length = gt_malloc(((size_t)pairs + 1) * sizeof *g->vertex_length);
	int64_t* fill = gt_malloc(((size_t)g->n + 1) * sizeof *fill);
	if (!g->vertex_adj || !g->vertex_length || !fill) {
		gt_free(fill);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	}
	if (g->n) memcpy(fill, g->vertex_offset, (size_t)g->n * sizeof *fill);
	for (int e = 0; e < g->ends; e++)
		for (int64_t i = g->end_offset[e]; i < g->end_offset[e + 1]; i++)
			if (g->end_adj[i] < g->n) {
				int64_t at = fill[g->end_adj[i]]++;
				g->vertex_adj[at] = g->n + e;
				g->vertex_length[at] = g->end_length[i];
			}
	gt_free(fill);
	return GT_OK;
}

static gtStatus size_scratch(gtLinkGraph* g, gtError* err)
{
	size_t nodes = (size_t)g->n + (size_t)g->ends + 1;
	g->dist = gt_malloc(nodes * sizeof *g->dist);
	g->estimate = gt_malloc(nodes * sizeof *g->estimate);
	g->parent = gt_malloc(nodes * sizeof *g->parent);
	g->state = gt_malloc(nodes * sizeof *g->state);
	// Every push follows an edge that improved a node, or seeds one: edges + nodes bound it.
	int64_t edges = 2 * gtOracle_EdgeCount(g->oracle) + 2 * g->end_offset[g->ends] + 2 * (int64_t)g->link_count;
	int64_t capacity = edges + (int64_t)nodes;
	if (capacity >= INT32_MAX) return gt_fail(err, GT_ERR_LIMIT, "too many links and vertices for the oracle");
	g->heap.capacity = (int)capacity;
	g->heap.items = gt_malloc((size_t)capacity * sizeof *g->heap.items);
	if (!g->dist || !g->estimate || !g->parent || !g->state || !g->heap.items)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	return GT_OK;
}

gtStatus gt_link_graph_create(const gtOracle* oracle, const gtMap* map, const gtLinkEdge* links, int count,
                              gtLinkGraph** out, gtError* err)
{
	*out = NULL;
	gtLinkGraph* g = gt_calloc(1, sizeof *g);
	if (!g) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	g->oracle = oracle;
	g->map = map;
	const gtVertex* v = gtMap_Vertices(map, &g->n);
	g->vertices = gt_malloc(((size_t)g->n + 1) * sizeof *g->vertices);
	g->links = gt_malloc(((size_t)count + 1) * sizeof *g->links);
	g->end_point = gt_malloc((2 * (size_t)count + 1) * sizeof *g->end_point);
	if (!g->vertices || !g->links || !g->end_point) {
		gt_link_graph_destroy(g);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the links");
	}
	if (g->n) memcpy(g->vertices, v, (size_t)g->n * sizeof *v);
	for (int i = 0; i < count; i++) // an end an edit walled in takes no one anywhere
		if (!gtMap_CheckPoint(map, links[i].a) && !gtMap_CheckPoint(map, links[i].b)) {
			g->links[g->link_count] = links[i];
			g->end_point[2 * g->link_count] = links[i].a;
			g->end_point[2 * g->link_count + 1] = links[i].b;
			g->link_count++;
		}
	g->ends = 2 * g->link_count;
	gtStatus st = join_ends(g, err);
	if (!st) st = size_scratch(g, err);
	if (st) {
		gt_link_graph_destroy(g);
		return st;
	}
	*out = g;
	return GT_OK;
}

// Lower bounds of any walk that takes a link: from s, what it costs to leave the first link
// (*reach) and to t, the straight line from the nearest exit (*gap); and the per-node estimate's
// second term, the cheapest exit's cost plus its straight line to t (*via).
static void link_bounds(const gtLinkGraph* g, gtVec2 s, gtVec2 t, double* reach, double* gap, double* via)
{
	*reach = *gap = *via = INFINITY;
	for (int k = 0; k < g->link_count; k++) {
		const gtLinkEdge* l = &g->links[k];
		for (int side = 0; side < (l->one_way ? 1 : 2); side++) {
			gtVec2 in = side ? l->b : l->a, out = side ? l->a : l->b;
			double r = length(s, in) + l->cost, x = length(out, t);
			if (r < *reach) *reach = r;
			if (x < *gap) *gap = x;
			if (l->cost + x < *via) *via = l->cost + x;
		}
	}
}

enum { BY_LINK = 1, CLOSED = 2 };

// Closed nodes stay closed: rounding can never push one again, so the heap's size bound holds.
static void relax(gtLinkGraph* g, int from, int to, double weight, bool by_link)
{
	double d = g->dist[from] + weight;
	if (d < g->dist[to] && !(g->state[to] & CLOSED)) {
		g->dist[to] = d;
		g->parent[to] = from;
		g->state[to] = by_link ? BY_LINK : 0;
		gt_heap_push(&g->heap, d + g->estimate[to], to);
	}
}

static void expand(gtLinkGraph* g, int u)
{
	if (u < g->n) {
		const int32_t* adj;
		const double* len;
		int degree = gtOracle_Neighbors(g->oracle, u, &adj, &len);
		for (int i = 0; i < degree; i++) relax(g, u, adj[i], len[i], false);
		for (int64_t i = g->vertex_offset[u]; i < g->vertex_offset[u + 1]; i++)
			relax(g, u, g->vertex_adj[i], g->vertex_length[i], false);
		return;
	}
	int e = u - g->n;
	for (int64_t i = g->end_offset[e]; i < g->end_offset[e + 1]; i++)
		relax(g, u, g->end_adj[i], g->end_length[i], false);
	const gtLinkEdge* l = &g->links[e / 2];
	if (e % 2 == 0) relax(g, u, u + 1, l->cost, true);
	else if (!l->one_way) relax(g, u, u - 1, l->cost, true);
}

// Runs the search; returns the last node of the best path (-1 = straight line, -2 = none).
static int search(gtLinkGraph* g, gtVec2 s, gtVec2 t, double* distance)
{
	double best = INFINITY, reach, gap, via;
	int last = -2;
	if (gt_visible_unchecked(g->map, s, t)) best = length(s, t), last = -1;
	link_bounds(g, s, t, &reach, &gap, &via);
	if (best <= reach + gap) { // no link can beat the straight line
		*distance = best;
		return last;
	}
	int nodes = g->n + g->ends;
	g->heap.size = 0;
	for (int u = 0; u < nodes; u++) {
		gtVec2 p = node_point(g, u);
		double straight = length(p, t);
		g->estimate[u] = straight < via ? straight : via;
		g->dist[u] = INFINITY;
		g->parent[u] = -1;
		g->state[u] = 0;
		if ((u >= g->n || tangent(g->vertices[u], s)) && gt_visible_unchecked(g->map, s, p)) {
			g->dist[u] = length(s, p);
			gt_heap_push(&g->heap, g->dist[u] + g->estimate[u], u);
		}
	}
	while (g->heap.size > 0) {
		gtHeapItem top = gt_heap_pop(&g->heap);
		int u = top.id;
		if (top.key != g->dist[u] + g->estimate[u] || (g->state[u] & CLOSED)) continue; // stale entry
		g->state[u] |= CLOSED;
		if (top.key >= best) break;
		gtVec2 p = node_point(g, u);
		if ((u >= g->n || tangent(g->vertices[u], t)) && gt_visible_unchecked(g->map, p, t)) {
			double through = g->dist[u] + length(p, t);
			if (through < best) best = through, last = u;
		}
		expand(g, u);
	}
	*distance = best;
	return last;
}

double gt_link_graph_distance(gtLinkGraph* g, gtVec2 s, gtVec2 t)
{
	double d;
	search(g, s, t, &d);
	return d;
}

gtStatus gt_link_graph_path(gtLinkGraph* g, gtVec2 s, gtVec2 t, gtVec2* points, uint32_t* links, int capacity,
                            int* count, double* distance, gtError* err)
{
	double d;
	int last = search(g, s, t, &d);
	*count = 0;
	if (distance) *distance = d;
	if (last == -2) return GT_OK;
	int nodes = 0;
	for (int u = last; u >= 0; u = g->parent[u]) nodes++;
	*count = nodes + 2;
	if (capacity < *count)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "path has %d points but the buffer holds %d", *count, capacity);
	points[0] = s;
	points[nodes + 1] = t;
	if (links) links[nodes] = links[nodes + 1] = 0;
	int i = nodes;
	for (int u = last; u >= 0; u = g->parent[u], i--) {
		points[i] = node_point(g, u);
		if (links) links[i - 1] = (g->state[u] & BY_LINK) ? g->links[(u - g->n) / 2].id : 0;
	}
	return GT_OK;
}
