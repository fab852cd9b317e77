// Index size estimates (docs/algorithms.md 5.9): sweep a sample of the vertices and count the cells
// each would be copied into, instead of building.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "core/status.h"
#include "ehl/ehl_estimate.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_sweep.h"

// Share of candidate vias that survive P2 and P3, by cell size: conservative (high) values from
// builds on maps of all four suites (measured 0.21-0.36 at g = 1, 0.59-0.72 at g = 4, 0.78-1 at 16).
static double survival(int g)
{
	return g <= 1 ? 0.45 : g <= 2 ? 0.6 : g <= 4 ? 0.8 : g <= 8 ? 0.95 : 1.0;
}

// Estimated index bytes for each cell size in `sizes`.
// `labels` NULL: every vertex counts `useful_each` useful entries (a quick estimate's guess).
// `pairs` (or NULL): the (cell, vertex) pairs each size's sweep makes, the build's tuples.
static gtStatus estimate(const gtMap* map, const gtHubLabels* labels, double useful_each, const int* sizes, int count,
                         int64_t* bytes, double* pairs, gtError* err)
{
	int n;
	const gtVertex* vert = gtMap_Vertices(map, &n);
	int width = gtMap_Width(map), height = gtMap_Height(map);
	// Vertices differ a lot in what they see: 96 samples read within 2x on the benchmark maps, but on
	// maps of 100,000 corners the noise decided between two cell sizes; a sweep costs microseconds.
	int samples = n < 96 ? n : n / 64 < 96 ? 96 : n / 64 > 2048 ? 2048 : n / 64;
	double* candidates = gt_calloc((size_t)count, sizeof *candidates);
	uint32_t** stamp = gt_calloc((size_t)count, sizeof *stamp);
	gtSweep sweep;
	gtStatus st = candidates && stamp ? gt_sweep_init(&sweep, map, err) : gt_fail(err, GT_ERR_NOMEM, "out of memory");
	for (int k = 0; k < count && !st; k++) {
		int64_t cells = (int64_t)((width + sizes[k] - 1) / sizes[k]) * ((height + sizes[k] - 1) / sizes[k]);
		stamp[k] = gt_calloc((size_t)cells, sizeof **stamp);
		if (!stamp[k]) st = gt_fail(err, GT_ERR_NOMEM, "out of memory estimating the index size");
	}
	for (int i = 0; i < samples && !st; i++) {
		int v = (int)((int64_t)i * n / samples);
		st = gt_sweep_vertex(&sweep, vert[v], err);
		double useful = useful_each;
		if (labels) {
			useful = 0;
			for (int64_t k = labels->offset[v]; k < labels->offset[v + 1]; k++) useful += labels->useful[k];
		}
		for (int t = 0; t < sweep.touched_count && !st; t++) {
			int32_t unit = sweep.touched[t];
			if (!gt_sweep_status(&sweep, unit)) continue;
			for (int k = 0; k < count; k++) {
				int g = sizes[k], columns = (width + g - 1) / g;
				int64_t cell = (int64_t)(unit / width / g) * columns + (unit % width) / g;
				if (stamp[k][cell] == (uint32_t)i + 1) continue;
				stamp[k][cell] = (uint32_t)i + 1;
				candidates[k] += useful;
				if (pairs) pairs[k] += (double)n / samples;
			}
		}
	}
	double useful = useful_each * n; // the label entries the index keeps
	for (int64_t k = 0; !st && labels && k < labels->offset[n]; k++) useful += labels->useful[k] - useful_each;
	if (!st)
		for (int k = 0; k < count; k++) {
			int g = sizes[k];
			double cells = (double)((width + g - 1) / g) * ((height + g - 1) / g);
			double cand = samples ? candidates[k] * n / samples : 0;
			double hubs = 0.15 * cand + cells; // hub entries were under 15% of candidates on every map measured
			bytes[k] = (int64_t)(cand * survival(g) * 8 + hubs * sizeof(gtEhlHub) + cells * 4 + useful * 16 +
			                     (n + 1.0) * 8); // 8 bytes per 6-byte via: the sample tends to read low
		}
	if (candidates && stamp) gt_sweep_free(&sweep);
	if (stamp)
		for (int k = 0; k < count; k++) gt_free(stamp[k]);
	gt_free(stamp);
	gt_free(candidates);
	return st;
}

gtStatus gtEhl_EstimateBytes(const gtMap* map, int cell_size, int threads, int64_t* bytes, gtError* err)
{
	*bytes = 0;
	if (cell_size < 1 || cell_size > GT_EHL_MAX_CELL_SIZE)
		return gt_fail(err, GT_ERR_INVALID_ARG, "cell size %d is outside 1..%d", cell_size, GT_EHL_MAX_CELL_SIZE);
	gtEhlDef def = gtEhl_DefaultDef();
	gtHubLabels labels;
	int64_t vg_edges;
	gtStatus st = gt_hub_labels_of_map(map, &def, gt_resolve_threads(threads), &labels, &vg_edges, err);
	if (st) return st;
	st = estimate(map, &labels, 0, &cell_size, 1, bytes, NULL, err);
	gt_hub_labels_free(&labels);
	return st;
}


gtStatus gt_ehl_budget_sizes(const gtMap* map, const gtHubLabels* labels, double budget_mb,
                             int sizes[GT_EHL_BUDGET_SIZES], int* count, int* chosen, gtError* err)
{
	int side = gtMap_Width(map) > gtMap_Height(map) ? gtMap_Width(map) : gtMap_Height(map);
	*count = 0;
	*chosen = -1;
	for (int size = 1; *count < GT_EHL_BUDGET_SIZES && (size <= side || *count == 0); size *= 2)
		sizes[(*count)++] = size;
	int64_t bytes[GT_EHL_BUDGET_SIZES];
	gtStatus st = estimate(map, labels, 0, sizes, *count, bytes, NULL, err);
	for (int k = 0; k < *count && !st && *chosen < 0; k++)
		if ((double)bytes[k] <= budget_mb * 1e6) *chosen = k;
	if (!st && *chosen < 0)
		st = gt_fail(err, GT_ERR_LIMIT, "no cell size fits %g MB: even cell size %d needs about %.1f MB", budget_mb,
		             sizes[*count - 1], (double)bytes[*count - 1] / 1e6);
	return st;
}

// ---- quick estimates: no visibility graph or labels of the whole map ----
// The labels of a window of the map (at most QUICK_WINDOW cells a side, of 5 candidates the one
// densest in corners) are built, and their entries per corner scaled to the whole map by the growth
// measured on generated maps (docs/big-maps.md): entries per corner x n^0.3 (caves 0.22, rooms
// 0.32), label time x n^1.6. The window's time is wall time: on a loaded machine it reads high.
enum { QUICK_WINDOW = 256 };
#define QUICK_ENTRY_EXPONENT 0.3
#define QUICK_TIME_EXPONENT 1.6

static gtStatus window_map(const gtMap* map, int x0, int y0, int side, gtMap** out, gtError* err)
{
	unsigned char* cells = gt_malloc((size_t)side * (size_t)side);
	if (!cells) return gt_fail(err, GT_ERR_NOMEM, "out of memory for an estimate");
	for (int y = 0; y < side; y++)
		for (int x = 0; x < side; x++)
			cells[(size_t)y * (size_t)side + (size_t)x] = gtMap_IsBlocked(map, x0 + x, y0 + y);
	gtStatus st = gtMap_FromCells(side, side, cells, out, err);
	gt_free(cells);
	return st;
}

// The window of the map (of 5: centre and the quarters' centres) with the most corners.
static gtStatus densest_window(const gtMap* map, int side, gtMap** out, gtError* err)
{
	int width = gtMap_Width(map), height = gtMap_Height(map), best = -1;
	*out = NULL;
	static const double at[5][2] = {{0.5, 0.5}, {0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}};
	for (int i = 0; i < 5; i++) {
		int x0 = (int)(at[i][0] * width) - side / 2, y0 = (int)(at[i][1] * height) - side / 2;
		x0 = x0 < 0 ? 0 : x0 + side > width ? width - side : x0;
		y0 = y0 < 0 ? 0 : y0 + side > height ? height - side : y0;
		gtMap* window;
		gtStatus st = window_map(map, x0, y0, side, &window, err);
		if (st) {
			gtMap_Destroy(*out);
			return st;
		}
		int corners;
		gtMap_Vertices(window, &corners);
		if (corners > best) {
			best = corners;
			gtMap_Destroy(*out);
			*out = window;
		} else {
			gtMap_Destroy(window);
		}
	}
	return GT_OK;
}

// The least budget whose region build peaks within twice it. Besides its index the build holds, whatever
// the budget: the process (program, map), the index's hub labels (16 bytes a kept entry) with their
// inverse (8) and places (4), and at its fine cells g the tuples (2 bytes each under 2^15 vertices,
// else 4) and per cell a tuple offset, plan, weight and region id (about 25 bytes). The finest g
// whose tuples are within an eighth of the budget is the one built (ehl_build.c). What this leaves
// out (a block's union lists, a cell's candidates, the glibc heap's holes) was another 5-55% of it
// on AR0602SR, sc1/IceFloes and sc1/FloodedPlains: PEAK_FIXED. The rest grows about 1.25 bytes a
// byte of budget: the index, its hub entries and vias before equal lists are shared, the sharing
// table (the same maps at budgets of 10-80 MB).
#define PEAK_GROWTH 1.25
#define PEAK_FIXED 1.4
enum { FINE_SIZES = 5 }; // fine cells of 1, 2, 4, 8, 16
static double least_budget_mb(const gtMap* map, int n, double useful, const double pairs[FINE_SIZES], double rss)
{
	double fixed = rss + useful * 28 + n * 24.0, cells = (double)gtMap_Width(map) * gtMap_Height(map);
	for (double budget = 0.25e6;; budget *= 1.02) {
		int f = 0;
		while (f + 1 < FINE_SIZES && pairs[f] > budget / 8) f++;
		double at_fine = pairs[f] * (n <= 32768 ? 2 : 4) + cells / (1 << 2 * f) * 25;
		if (PEAK_FIXED * (fixed + at_fine) + PEAK_GROWTH * budget <= 2 * budget || budget > 1e13) return budget / 1e6;
	}
}

gtStatus gtEhl_EstimateQuick(const gtMap* map, const int* cell_sizes, int count, int64_t* bytes,
                             gtEhlQuickEstimate* out, gtError* err)
{
	memset(out, 0, sizeof *out);
	for (int k = 0; k < count; k++)
		if (cell_sizes[k] < 1 || cell_sizes[k] > GT_EHL_MAX_CELL_SIZE)
			return gt_fail(err, GT_ERR_INVALID_ARG, "cell size %d is outside 1..%d", cell_sizes[k],
			               GT_EHL_MAX_CELL_SIZE);
	int n, wn = 0, side = gtMap_Width(map) < gtMap_Height(map) ? gtMap_Width(map) : gtMap_Height(map);
	gtMap_Vertices(map, &n);
	out->corners = n;
	double start = gtNowSeconds(), entries = 0, useful = 0, rss = gt_rss_bytes();
	gtMap* window;
	gtStatus st = densest_window(map, side > QUICK_WINDOW ? QUICK_WINDOW : side, &window, err);
	if (st) return st;
	gtMap_Vertices(window, &wn);
	gtHubLabels labels;
	int64_t edges;
	gtEhlDef def = gtEhl_DefaultDef();
	st = gt_hub_labels_of_map(window, &def, 1, &labels, &edges, err);
	gtMap_Destroy(window);
	if (st) return st;
	for (int64_t k = 0; k < labels.offset[wn]; k++) useful += labels.useful[k];
	entries = (double)labels.offset[wn];
	gt_hub_labels_free(&labels);
	double seconds = gtNowSeconds() - start, scale = wn > 0 && n > wn ? (double)n / wn : 1;
	// A window without corners says nothing: then 100 entries a corner (60 kept), a small cave map's.
	double grow = pow(scale, QUICK_ENTRY_EXPONENT);
	out->label_entries = (wn > 0 ? entries / wn * grow : 100) * n;
	out->useful_entries = (wn > 0 ? useful / wn * grow : 60) * n;
	out->label_seconds = seconds * pow(scale, QUICK_TIME_EXPONENT);
	// The sizes asked for and the fine cells' (their tuples) in one sweep.
	int* sizes = gt_malloc(((size_t)count + FINE_SIZES) * sizeof *sizes);
	int64_t* all = gt_malloc(((size_t)count + FINE_SIZES) * sizeof *all);
	double* pairs = gt_calloc((size_t)count + FINE_SIZES, sizeof *pairs);
	st = sizes && all && pairs ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for an estimate");
	int at[FINE_SIZES], total = count; // where each fine size is in `sizes` (asked for, or added)
	if (!st) {
		if (count) memcpy(sizes, cell_sizes, (size_t)count * sizeof *sizes);
		for (int f = 0; f < FINE_SIZES; f++) {
			for (at[f] = 0; at[f] < total && sizes[at[f]] != 1 << f; at[f]++) continue;
			if (at[f] == total) sizes[total++] = 1 << f;
		}
		st = estimate(map, NULL, n > 0 ? out->useful_entries / n : 0, sizes, total, all, pairs, err);
	}
	if (!st) {
		if (count) memcpy(bytes, all, (size_t)count * sizeof *bytes);
		double fine[FINE_SIZES];
		for (int f = 0; f < FINE_SIZES; f++) fine[f] = pairs[at[f]];
		out->least_budget_mb = least_budget_mb(map, n, out->useful_entries, fine, rss);
	}
	gt_free(sizes), gt_free(all), gt_free(pairs);
	return st;
}
