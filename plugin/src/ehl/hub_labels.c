// Pruned landmark labeling (Akiba et al. 2013, weighted) over the visibility graph.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/heap.h"
#include "ehl/ehl_layout.h"
#include "ehl/hub_labels.h"
#include "core/status.h"

typedef struct Entry {
	int32_t hub, parent, first; // first: vertex next to the hub on the tree path (for P4)
	double dist;
} Entry;

typedef struct EntryList {
	Entry* items;
	int64_t count, capacity;
} EntryList;

static bool list_push(EntryList* list, Entry e)
{
	if (!gt_grow((void**)&list->items, &list->capacity, list->count + 1, sizeof *list->items, 8)) return false;
	list->items[list->count++] = e;
	return true;
}

// Segment a-b is tangent at a: the line does not enter a's blocked cell (docs/algorithms.md 2.6).
static bool tangent_at(gtVertex a, gtVertex b)
{
	return (int64_t)a.bx * a.by * (int64_t)(b.x - a.x) * (b.y - a.y) <= 0;
}

void gt_hub_labels_free(gtHubLabels* labels)
{
	gt_free(labels->rank_of);
	gt_free(labels->vertex_of);
	gt_free(labels->offset);
	gt_free(labels->hub);
	gt_free(labels->parent);
	gt_free(labels->dist);
	gt_free(labels->useful);
	memset(labels, 0, sizeof *labels);
}

int64_t gt_hub_labels_find(const gtHubLabels* labels, int v, int32_t hub)
{
	int64_t lo = labels->offset[v], hi = labels->offset[v + 1] - 1;
	while (lo <= hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (labels->hub[mid] == hub) return mid;
		if (labels->hub[mid] < hub) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

static int64_t degree_of(const gtVisGraph* g, int v)
{
	return g->offset[v + 1] - g->offset[v];
}

// The authors' "significant path" order (docs/algorithms.md 4.3): follow the pruned search tree just
// built from the root towards the unprocessed child covering the largest subtree; the next root is
// taken on that path, or is the highest-degree unprocessed vertex when the path is short.
static int next_root(const gtVisGraph* g, const int32_t* labelled, int nlabelled, const int32_t* parent,
                     int32_t* coverage, int32_t* best_child, int32_t* path, const bool* processed,
                     const int64_t* order_key, int* by_degree)
{
	for (int i = 0; i < nlabelled; i++) {
		coverage[labelled[i]] = 1;
		best_child[labelled[i]] = -1;
	}
	for (int i = nlabelled - 1; i > 0; i--) { // parents pop before their children
		int u = labelled[i], p = parent[u];
		coverage[p] += coverage[u];
	}
	for (int i = 1; i < nlabelled; i++) {
		int u = labelled[i], p = parent[u];
		if (processed[u]) continue;
		int b = best_child[p];
		if (b < 0 || coverage[u] > coverage[b] || (coverage[u] == coverage[b] && u < b)) best_child[p] = u;
	}
	int length = 0;
	for (int u = nlabelled > 0 ? best_child[labelled[0]] : -1; u >= 0; u = best_child[u]) path[length++] = u;
	if (length <= 2) {
		while (processed[order_key[*by_degree] & 0xffffffff]) (*by_degree)++;
		return (int)(order_key[*by_degree] & 0xffffffff);
	}
	int64_t max_degree = 0;
	int widest = path[0];
	for (int i = 0; i < length; i++)
		if (degree_of(g, path[i]) > max_degree) max_degree = degree_of(g, path[i]), widest = path[i];
	if (max_degree < 2 * (int64_t)length && length > 3) {
		int64_t best = -1;
		int chosen = path[0];
		for (int j = 0; j + 1 < length; j++) {
			int64_t drop = coverage[path[j + 1]] - coverage[path[j]];
			int64_t score = degree_of(g, path[j]) * (drop < 0 ? -drop : drop);
			if (score > best) best = score, chosen = path[j];
		}
		return chosen;
	}
	return widest;
}

// Prune: an earlier hub already covers root-u at distance d (ties pruned).
static bool covered_by_earlier_hub(const EntryList* list, const double* to_root, double d)
{
	for (int i = 0; i < list->count; i++)
		if (list->items[i].dist + to_root[list->items[i].hub] <= d) return true;
	return false;
}

// Dijkstra's step from u (settled at distance d): shorter distances to its neighbours, pushed.
static void relax_edges(const gtVisGraph* g, int u, double d, double* dist, int32_t* parent, int32_t* visited, int* nvisited,
                        gtHeap* heap)
{
	for (int64_t k = g->offset[u]; k < g->offset[u + 1]; k++) {
		int w = g->adj[k];
		double candidate = d + g->length[k];
		if (candidate < dist[w]) {
			if (isinf(dist[w])) visited[(*nvisited)++] = w;
			dist[w] = candidate;
			parent[w] = u;
			gt_heap_push(heap, candidate, w);
		}
	}
}

// The per-vertex entry lists into the flat arrays of out, with each entry's usefulness (P4).
static gtStatus flatten_labels(const gtVertex* vert, int n, const EntryList* lists, gtHubLabels* out, gtError* err)
{
	size_t slots = (size_t)n + 1;
	int64_t total = 0;
	out->offset = gt_malloc(slots * sizeof *out->offset);
	if (!out->offset) return gt_fail(err, GT_ERR_NOMEM, "out of memory for hub labels");
	for (int v = 0; v < n; v++) {
		out->offset[v] = total;
		total += lists[v].count;
	}
	out->offset[n] = total;
	size_t m = (size_t)total + 1;
	out->hub = gt_malloc(m * sizeof *out->hub);
	out->parent = gt_malloc(m * sizeof *out->parent);
	out->dist = gt_malloc(m * sizeof *out->dist);
	out->useful = gt_malloc(m * sizeof *out->useful);
	if (!out->hub || !out->parent || !out->dist || !out->useful)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %lld hub label entries", (long long)total);
	for (int v = 0; v < n; v++)
		for (int i = 0; i < lists[v].count; i++) {
			Entry e = lists[v].items[i];
			int64_t k = out->offset[v] + i;
			out->hub[k] = e.hub;
			out->parent[k] = e.parent;
			out->dist[k] = e.dist;
			int h = out->vertex_of[e.hub];
			// P4: an entry can start an optimal path only if its first and last segments are taut.
			out->useful[k] = h == v || (tangent_at(vert[v], vert[e.parent]) && tangent_at(vert[e.parent], vert[v]) &&
			                            tangent_at(vert[e.first], vert[h]) && tangent_at(vert[h], vert[e.first]));
		}
	return GT_OK;
}

gtStatus gt_hub_labels_build(const gtMap* map, const gtVisGraph* g, gtHubLabels* out, gtError* err)
{
	memset(out, 0, sizeof *out);
	int n = g->n;
	int count;
	const gtVertex* vert = gtMap_Vertices(map, &count);
	size_t slots = (size_t)n + 1;
	int64_t* order_key = gt_malloc(slots * sizeof *order_key); // decreasing degree, then vertex index
	EntryList* lists = gt_calloc(slots, sizeof *lists);
	double* to_root = gt_malloc(slots * sizeof *to_root); // T: root label distances by hub rank
	double* dist = gt_malloc(slots * sizeof *dist);
	int32_t* parent = gt_malloc(slots * sizeof *parent);
	int32_t* first = gt_malloc(slots * sizeof *first);
	int32_t* visited = gt_malloc(slots * sizeof *visited);
	int32_t* labelled = gt_malloc(slots * sizeof *labelled); // this search's labelled vertices, in pop order
	int32_t* coverage = gt_malloc(slots * sizeof *coverage);
	int32_t* best_child = gt_malloc(slots * sizeof *best_child);
	int32_t* path = gt_malloc(slots * sizeof *path);
	bool* processed = gt_calloc(slots, sizeof *processed);
	gtHeap heap = {gt_malloc(((size_t)g->offset[n] + slots) * sizeof(gtHeapItem)), 0, (int)((size_t)g->offset[n] + slots)};
	out->n = n;
	out->rank_of = gt_malloc(slots * sizeof *out->rank_of);
	out->vertex_of = gt_malloc(slots * sizeof *out->vertex_of);
	gtStatus st = GT_OK;
	if (!order_key || !lists || !to_root || !dist || !parent || !first || !visited || !labelled || !coverage || !best_child || !path || !processed || !heap.items || !out->rank_of ||
	    !out->vertex_of) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory building hub labels for %d vertices", n);
		goto done;
	}
	for (int v = 0; v < n; v++) {
		int64_t degree = g->offset[v + 1] - g->offset[v];
		order_key[v] = ((INT64_C(1) << 30) - degree) * (INT64_C(1) << 32) + v; // degree < 2^30
		to_root[v] = INFINITY;
		dist[v] = INFINITY;
	}
	qsort(order_key, (size_t)n, sizeof *order_key, gt_compare_int64);
	int by_degree = 0; // next candidate in degree order

	int root = n > 0 ? (int)(order_key[0] & 0xffffffff) : 0;
	for (int r = 0; r < n; r++) {
		out->vertex_of[r] = root;
		out->rank_of[root] = r;
		processed[root] = true;
		int nlabelled = 0;
		for (int i = 0; i < lists[root].count; i++) to_root[lists[root].items[i].hub] = lists[root].items[i].dist;
		int nvisited = 0;
		heap.size = 0;
		dist[root] = 0;
		parent[root] = root;
		first[root] = root;
		visited[nvisited++] = root;
		gt_heap_push(&heap, 0, root);
		while (heap.size > 0) {
			gtHeapItem top = gt_heap_pop(&heap);
			int u = top.id;
			if (top.key > dist[u]) continue;
			if (covered_by_earlier_hub(&lists[u], to_root, top.key)) continue;
			first[u] = (u == root || parent[u] == root) ? u : first[parent[u]];
			labelled[nlabelled++] = u;
			Entry e = {r, parent[u], first[u], top.key};
			if (!list_push(&lists[u], e)) {
				st = gt_fail(err, GT_ERR_NOMEM, "out of memory for hub label entries");
				goto done;
			}
			relax_edges(g, u, top.key, dist, parent, visited, &nvisited, &heap);
		}
		for (int i = 0; i < nvisited; i++) dist[visited[i]] = INFINITY;
		for (int i = 0; i < lists[root].count; i++) to_root[lists[root].items[i].hub] = INFINITY;
		if (r + 1 < n) root = next_root(g, labelled, nlabelled, parent, coverage, best_child, path, processed, order_key, &by_degree);
	}

	st = flatten_labels(vert, n, lists, out, err);

done:
	if (lists)
		for (int v = 0; v < n; v++) gt_free(lists[v].items);
	gt_free(lists);
	gt_free(order_key);
	gt_free(to_root);
	gt_free(dist);
	gt_free(parent);
	gt_free(first);
	gt_free(visited);
	gt_free(labelled);
	gt_free(coverage);
	gt_free(best_child);
	gt_free(path);
	gt_free(processed);
	gt_free(heap.items);
	if (st) gt_hub_labels_free(out);
	return st;
}

void gt_ehl_report(const gtEhlDef* def, const char* stage, double fraction)
{
	if (def->progress) def->progress(def->progress_user, stage, fraction);
}

gtStatus gt_hub_labels_of_map(const gtMap* map, const gtEhlDef* def, int threads, gtHubLabels* out, int64_t* vg_edges,
                              gtError* err)
{
	// Checked before the visibility graph, which alone would take hours on such a map.
	int vertices;
	gtMap_Vertices(map, &vertices);
	if (vertices > GT_EHL_MAX_VERTICES)
		return gt_fail(err, GT_ERR_LIMIT, "EHL supports maps with up to %d convex vertices; this one has %d",
		               GT_EHL_MAX_VERTICES, vertices);
	gtVisGraph graph;
	gt_ehl_report(def, "visibility graph", 0);
	gtStatus st = gt_vis_graph_build(map, def->tasks, threads, false, &graph, err);
	if (st) return st;
	*vg_edges = graph.offset[graph.n] / 2;
	gt_ehl_report(def, "hub labels", 0);
	st = gt_hub_labels_build(map, &graph, out, err);
	gt_vis_graph_free(&graph);
	return st;
}
