// The order of a build's roots: the next root after a search (hub_labels.c). Internal to the labels.
#include "ehl/hub_labels_lists.h"

static int64_t degree_of(const gtVisGraph* g, int v)
{
	return g->offset[v + 1] - g->offset[v];
}

// The authors' "significant path" order (docs/algorithms.md 4.3): follow the pruned search tree just
// built from the root towards the unprocessed child covering the largest subtree; the next root is
// taken on that path, or is the highest-degree unprocessed vertex when the path is short.
int gt_hub_next_root(const gtVisGraph* g, const int32_t* labelled, int nlabelled, const int32_t* parent,
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
