// Region indexes (ehl_regions.h): fine cells' via labels merged by a quadtree inside each block.
// A region's hub list is the union of its cells' lists and each hub's vias the union of theirs, so
// every point of the region finds all the vias its own cell would have given it (exact), plus
// some it may not see: a via is FULL only when it was FULL in every merged part, the rest get the
// query's segment test.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "ehl/ehl_regions.h"

static const int level_at[GT_REGION_DEPTH + 1] = {0, 256, 320, 336, 340}; // each level's first node; 0: fine cells

bool gt_region_lists_reserve(gtRegionLists* l, int64_t hubs, int64_t vias)
{
	int64_t hub_cap = l->hub_capacity, via_cap = l->via_capacity;
	if (!GT_GROW(l->hubs, hub_cap, l->hub_count + hubs, 256)) return false;
	l->hub_capacity = hub_cap;
	if (l->via_count + vias <= l->via_capacity) return true;
	if (!GT_GROW(l->vias, via_cap, l->via_count + vias, 1024)) return false;
	if (!l->bare && !GT_RESIZE(l->full, via_cap)) return false;
	l->via_capacity = via_cap;
	return true;
}

static double list_bytes(const gtRegionWork* w, double hubs, double vias)
{
	return (hubs + 1) * sizeof(gtEhlHub) + vias * w->via_bytes + sizeof(uint32_t);
}

static double list_cost(const gtRegionWork* w, int node)
{
	// What a query end in the region walks: its hub list and, for shared hubs, the vias (PARTIAL
	// ones cost a segment test on top).
	return w->weight[node] * (w->hubs[node] + w->vias[node] + 2 * w->partial[node]);
}

static void list_stats(gtRegionWork* w, int node, uint32_t n)
{
	const gtRegionLists* p = &w->pool;
	double hubs = 0, vias = 0, partial = 0;
	for (int64_t h = w->first[node]; p->hubs[h].hub != n; h++) {
		hubs++;
		for (uint32_t k = p->hubs[h].via_begin; k < p->hubs[h + 1].via_begin; k++) {
			vias++;
			partial += !gt_via_full(&p->vias[k]);
		}
	}
	w->hubs[node] = hubs, w->vias[node] = vias, w->partial[node] = partial;
}

static void set_full(gtEhlViaLabel* v, bool full)
{
	uint32_t bits = (gt_via_bits(v) & 0x7FFFFFFFu) | (full ? 0x80000000u : 0);
	memcpy(v->low, &bits, sizeof bits);
}

// Merges one hub's via ranges (each sorted by distance to the hub) into the pool's end, a vertex
// once; `full` counts the ranges that had it FULL.
static void merge_vias(gtRegionLists* p, int64_t* at, const int64_t* end, int m)
{
	int64_t first = p->via_count;
	for (;;) {
		int j = -1;
		for (int i = 0; i < m; i++)
			if (at[i] < end[i] && (j < 0 || gt_via_low(&p->vias[at[i]]) < gt_via_low(&p->vias[at[j]]))) j = i;
		if (j < 0) break;
		gtEhlViaLabel v = p->vias[at[j]++];
		int vertex = gt_via_vertex(&v);
		float low = gt_via_low(&v);
		int64_t d = p->via_count - 1;
		while (d >= first && gt_via_low(&p->vias[d]) == low && gt_via_vertex(&p->vias[d]) != vertex) d--;
		if (d >= first && gt_via_low(&p->vias[d]) == low) { // the same (vertex, hub): the same distance
			p->full[d] += gt_via_full(&v);
			continue;
		}
		p->vias[p->via_count] = v;
		p->full[p->via_count++] = gt_via_full(&v);
	}
}

// Appends the union of the k lists starting at hub entries first[0..k) to the pool.
static bool union_lists(gtRegionWork* w, int node, const int* parts, int k, uint32_t n)
{
	gtRegionLists* p = &w->pool;
	double hubs = 0, vias = 0;
	for (int i = 0; i < k; i++) hubs += w->hubs[parts[i]], vias += w->vias[parts[i]];
	if (!gt_region_lists_reserve(p, (int64_t)hubs + 1, (int64_t)vias)) return false;
	int64_t cur[4];
	for (int i = 0; i < k; i++) cur[i] = w->first[parts[i]];
	w->first[node] = p->hub_count;
	for (;;) {
		uint32_t rank = n;
		for (int i = 0; i < k; i++)
			if (p->hubs[cur[i]].hub < rank) rank = p->hubs[cur[i]].hub;
		if (rank == n) break;
		int64_t at[4], end[4], first = p->via_count;
		int m = 0;
		float lower = INFINITY;
		for (int i = 0; i < k; i++) {
			const gtEhlHub* h = &p->hubs[cur[i]];
			if (h->hub != rank) continue;
			at[m] = h->via_begin, end[m++] = h[1].via_begin;
			lower = fminf(lower, h->lower_bound);
			cur[i]++;
		}
		merge_vias(p, at, end, m);
		for (int64_t d = first; d < p->via_count; d++) set_full(&p->vias[d], p->full[d] == k);
		gtEhlHub entry = {(uint32_t)first, rank, lower};
		p->hubs[p->hub_count++] = entry;
	}
	gtEhlHub sentinel = {(uint32_t)p->via_count, n, INFINITY};
	p->hubs[p->hub_count++] = sentinel;
	list_stats(w, node, n);
	return true;
}

// The node's existing children (up to 4).
static int children(const gtRegionWork* w, int level, int index, int* out)
{
	int side = GT_REGION_SIDE >> level, x = index % side, y = index / side, k = 0;
	for (int dy = 0; dy < 2; dy++)
		for (int dx = 0; dx < 2; dx++) {
			int child = level_at[level - 1] + (2 * y + dy) * (2 * side) + 2 * x + dx;
			if (w->first[child] >= 0) out[k++] = child;
		}
	return k;
}

// The node exists (one of its cells does) but its list was not built: the write pass builds only the
// unions of the merges the plan chose (children() and write_regions() need it to exist, nothing
// reads its list).
#define NOT_BUILT INT64_MAX

// The block's fine cells' lists and their unions up the quadtree: every union for the plan, the
// chosen merges' (`needed`, NULL: all) for the write pass.
static bool block_lists(gtRegionBuild* rb, gtRegionWork* w, int64_t block, const bool* needed, gtRegionFineFcn* fine,
                        void* context)
{
	const gtEhl* e = rb->ehl;
	uint32_t n = (uint32_t)e->n;
	int bx = (int)(block % rb->block_columns), by = (int)(block / rb->block_columns);
	w->pool.hub_count = w->pool.via_count = 0;
	for (int node = 0; node < GT_REGION_SIDE * GT_REGION_SIDE; node++) {
		int cx = bx * GT_REGION_SIDE + node % GT_REGION_SIDE, cy = by * GT_REGION_SIDE + node / GT_REGION_SIDE;
		w->first[node] = -1;
		if (cx >= e->columns || cy >= e->rows) continue;
		int64_t cell = (int64_t)cy * e->columns + cx;
		w->first[node] = w->pool.hub_count;
		if (!fine(context, cell, &w->pool)) return false;
		list_stats(w, node, n);
		w->weight[node] = rb->weight[cell];
	}
	for (int level = 1; level <= GT_REGION_DEPTH; level++) {
		int side = GT_REGION_SIDE >> level;
		for (int index = 0; index < side * side; index++) {
			int node = level_at[level] + index, parts[4];
			int k = children(w, level, index, parts);
			w->first[node] = -1;
			w->weight[node] = 0;
			for (int i = 0; i < k; i++) w->weight[node] += w->weight[parts[i]];
			if (k == 1) {
				w->first[node] = w->first[parts[0]];
				w->hubs[node] = w->hubs[parts[0]], w->vias[node] = w->vias[parts[0]];
				w->partial[node] = w->partial[parts[0]];
			} else if (k > 1 && needed && !needed[node]) {
				w->first[node] = NOT_BUILT;
			} else if (k > 1 && !union_lists(w, node, parts, k, n)) {
				return false;
			}
		}
	}
	return true;
}

// The block's next merge: the inner node whose children are all regions and whose merge adds the
// least query cost per byte saved; -1 when none is left.
static int next_merge(const gtRegionWork* w, double* ratio)
{
	int best = -1;
	for (int level = 1; level <= GT_REGION_DEPTH; level++)
		for (int index = 0; index < (GT_REGION_SIDE >> level) * (GT_REGION_SIDE >> level); index++) {
			int node = level_at[level] + index, parts[4];
			if (w->first[node] < 0 || w->merged[node]) continue;
			int k = children(w, level, index, parts);
			bool ready = true;
			double saved = -list_bytes(w, w->hubs[node], w->vias[node]), cost = list_cost(w, node);
			for (int i = 0; i < k; i++) {
				ready &= w->leaf[parts[i]];
				saved += list_bytes(w, w->hubs[parts[i]], w->vias[parts[i]]);
				cost -= list_cost(w, parts[i]);
			}
			if (!ready) continue;
			double r = saved > 0 ? fmax(cost, 0) / saved : cost > 0 ? 1e30 : 0;
			if (best < 0 || r < *ratio) best = node, *ratio = r;
		}
	return best;
}

static int level_of(int node)
{
	int level = GT_REGION_DEPTH;
	while (node < level_at[level]) level--;
	return level;
}

static void merge_node(gtRegionWork* w, int node)
{
	int level = level_of(node), parts[4];
	int k = children(w, level, node - level_at[level], parts);
	for (int i = 0; i < k; i++) w->leaf[parts[i]] = false;
	w->leaf[node] = w->merged[node] = true;
}

// One hub's pool vias as compact ones (place in the hub's inverse label | FULL), sorted by place,
// which is by distance to the hub (ties by vertex).
static void write_compact(gtRegionBuild* rb, gtRegionWork* w, uint16_t* out, const gtEhlHub* h)
{
	const gtEhl* e = rb->ehl;
	const gtEhlViaLabel* from = w->pool.vias + h->via_begin;
	int count = (int)(h[1].via_begin - h->via_begin);
	for (int i = 0; i < count; i++) {
		int64_t entry = gt_ehl_label_entry(e, gt_via_vertex(&from[i]), (int32_t)h->hub);
		if (entry < 0) {
			w->broken = true;
			entry = 0;
		}
		uint16_t via = (uint16_t)(rb->place_of[entry] | (gt_via_full(&from[i]) ? GT_EHL_COMPACT_FULL : 0));
		int j = i; // insertion: the pool's order (by rounded distance) is nearly the places' order
		for (; j > 0 && (out[j - 1] & (GT_EHL_COMPACT_PLACES - 1)) > (via & (GT_EHL_COMPACT_PLACES - 1)); j--)
			out[j] = out[j - 1];
		out[j] = via;
	}
	if (count > 0) out[count - 1] |= GT_EHL_COMPACT_LAST;
}

// Writes region `node` (a leaf now) and its cells' region ids.
static void write_region(gtRegionBuild* rb, gtRegionWork* w, gtRegionBlock* b, int64_t block, int node)
{
	gtEhl* e = rb->ehl;
	const gtRegionLists* p = &w->pool;
	int64_t first = w->first[node], last = first;
	while (p->hubs[last].hub != (uint32_t)e->n) last++;
	uint32_t base = p->hubs[first].via_begin, vias = p->hubs[last].via_begin - base;
	uint32_t region = (uint32_t)b->region_at++;
	e->cell_begin[region] = (uint32_t)b->hub_at;
	for (int64_t h = first; h <= last; h++) {
		gtEhlHub entry = p->hubs[h];
		entry.via_begin = (uint32_t)(b->via_at + entry.via_begin - base);
		e->hubs[b->hub_at++] = entry;
		if (rb->place_of && h < last) write_compact(rb, w, e->cvias + entry.via_begin, &p->hubs[h]);
	}
	if (!rb->place_of) memcpy(e->vias + b->via_at, p->vias + base, (size_t)vias * sizeof *e->vias);
	b->via_at += vias;
	int level = level_of(node), side = GT_REGION_SIDE >> level, index = node - level_at[level];
	int x0 = (int)(block % rb->block_columns) * GT_REGION_SIDE + (index % side << level);
	int y0 = (int)(block / rb->block_columns) * GT_REGION_SIDE + (index / side << level);
	for (int y = y0; y < y0 + (1 << level) && y < e->rows; y++)
		for (int x = x0; x < x0 + (1 << level) && x < e->columns; x++)
			if (e->narrow_regions) e->region16[(int64_t)y * e->columns + x] = (uint16_t)region;
			else e->region_of[(int64_t)y * e->columns + x] = region;
}

static void write_regions(gtRegionBuild* rb, gtRegionWork* w, gtRegionBlock* b, int64_t block, int node)
{
	if (w->first[node] < 0) return;
	if (w->leaf[node]) {
		write_region(rb, w, b, block, node);
		return;
	}
	int level = level_of(node), parts[4];
	int k = children(w, level, node - level_at[level], parts);
	for (int i = 0; i < k; i++) write_regions(rb, w, b, block, parts[i]);
}

// The write pass: the plan's chosen merges, in its order, then the regions written.
static bool write_block(gtRegionBuild* rb, gtRegionWork* w, int64_t block, gtRegionFineFcn* fine, void* context)
{
	gtRegionBlock* b = &rb->blocks[block];
	bool needed[GT_REGION_NODES] = {false};
	for (int s = 0; s < b->chosen; s++) needed[b->node[s]] = true;
	if (!block_lists(rb, w, block, needed, fine, context)) return false;
	for (int node = 0; node < GT_REGION_NODES; node++) {
		w->leaf[node] = node < level_at[1] && w->first[node] >= 0;
		w->merged[node] = false;
	}
	for (int s = 0; s < b->chosen; s++) merge_node(w, b->node[s]);
	write_regions(rb, w, b, block, level_at[GT_REGION_DEPTH]);
	return !w->broken;
}

bool gt_region_block(gtRegionBuild* rb, gtRegionWork* w, int64_t block, gtRegionFineFcn* fine, void* context)
{
	w->via_bytes = rb->place_of ? sizeof(uint16_t) : sizeof(gtEhlViaLabel);
	if (rb->writing) return write_block(rb, w, block, fine, context);
	if (!block_lists(rb, w, block, NULL, fine, context)) return false;
	gtRegionBlock* b = &rb->blocks[block];
	uint32_t regions = 0;
	uint64_t hubs = 0, vias = 0;
	for (int node = 0; node < GT_REGION_NODES; node++) {
		w->leaf[node] = node < level_at[1] && w->first[node] >= 0;
		w->merged[node] = false;
		if (w->leaf[node]) regions++, hubs += (uint64_t)w->hubs[node] + 1, vias += (uint64_t)w->vias[node];
	}
	int steps = 0;
	b->regions[0] = regions, b->hubs[0] = hubs, b->vias[0] = vias;
	for (double ratio = 0; steps < GT_REGION_STEPS; steps++) {
		int node = next_merge(w, &ratio);
		if (node < 0) break;
		int level = level_of(node), parts[4];
		int k = children(w, level, node - level_at[level], parts);
		for (int i = 0; i < k; i++) hubs -= (uint64_t)w->hubs[parts[i]] + 1, vias -= (uint64_t)w->vias[parts[i]];
		hubs += (uint64_t)w->hubs[node] + 1, vias += (uint64_t)w->vias[node];
		regions -= (uint32_t)k - 1;
		merge_node(w, node);
		b->node[steps] = (uint16_t)node, b->ratio[steps] = (float)ratio;
		b->regions[steps + 1] = regions, b->hubs[steps + 1] = hubs, b->vias[steps + 1] = vias;
	}
	b->steps = steps;
	return true;
}

typedef struct Step {
	double ratio; // never below the block's earlier steps', so sorted steps keep each block's order
	int64_t block;
	int step;
} Step;

static int by_ratio(const void* a, const void* b)
{
	const Step *x = a, *y = b;
	if (x->ratio != y->ratio) return x->ratio < y->ratio ? -1 : 1;
	if (x->block != y->block) return x->block < y->block ? -1 : 1;
	return (x->step > y->step) - (x->step < y->step);
}

static double block_bytes(const gtRegionBuild* rb, const gtRegionBlock* b, int k)
{
	double via_bytes = rb->place_of ? sizeof(uint16_t) : sizeof(gtEhlViaLabel);
	return (double)b->hubs[k] * sizeof(gtEhlHub) + (double)b->vias[k] * via_bytes +
	       (double)b->regions[k] * sizeof(uint32_t);
}

static gtStatus allocate(gtRegionBuild* rb, gtError* err)
{
	gtEhl* e = rb->ehl;
	int64_t blocks = (int64_t)rb->block_columns * rb->block_rows;
	uint64_t regions = 0, hubs = 0, vias = 0;
	for (int64_t i = 0; i < blocks; i++) {
		gtRegionBlock* b = &rb->blocks[i];
		b->region_at = regions, b->hub_at = hubs, b->via_at = vias;
		regions += b->regions[b->chosen], hubs += b->hubs[b->chosen], vias += b->vias[b->chosen];
	}
	if (hubs >= UINT32_MAX || vias >= UINT32_MAX)
		return gt_fail(err, GT_ERR_LIMIT, "the region index needs more than 2^32 entries; use a smaller budget");
	e->cell_count = (int64_t)regions;
	e->hub_count = (int64_t)hubs + 1;
	e->via_count = (int64_t)vias;
	e->cell_begin = gt_malloc(((size_t)regions + 1) * sizeof *e->cell_begin);
	e->hubs = gt_malloc((size_t)e->hub_count * sizeof *e->hubs);
	if (rb->place_of) e->cvias = gt_malloc((size_t)(vias + 1) * sizeof *e->cvias);
	else e->vias = gt_malloc((size_t)(vias + 1) * sizeof *e->vias);
	e->narrow_regions = rb->place_of && regions <= GT_EHL_NARROW_REGIONS;
	e->region_of = gt_malloc((size_t)e->columns * (size_t)e->rows * gt_ehl_region_id_bytes(e));
	if (!e->cell_begin || !e->hubs || !(e->vias || e->cvias) || !e->region_of)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for a region index of %llu vias", (unsigned long long)vias);
	e->cell_begin[regions] = (uint32_t)hubs;
	gtEhlHub last = {(uint32_t)vias, (uint32_t)e->n, INFINITY};
	e->hubs[hubs] = last;
	return GT_OK;
}

// The region ids' bytes (a compact index of few regions names them with 2 bytes).
static double id_bytes(const gtRegionBuild* rb, uint64_t regions)
{
	double cells = (double)rb->ehl->columns * rb->ehl->rows;
	return cells * (rb->place_of && regions <= GT_EHL_NARROW_REGIONS ? sizeof(uint16_t) : sizeof(uint32_t));
}

gtStatus gt_region_choose(gtRegionBuild* rb, double target_bytes, gtError* err)
{
	int64_t blocks = (int64_t)rb->block_columns * rb->block_rows, count = 0;
	double total = sizeof(gtEhlHub) + sizeof(uint32_t); // the final entry and offset
	uint64_t regions = 0;
	for (int64_t i = 0; i < blocks; i++)
		total += block_bytes(rb, &rb->blocks[i], 0), count += rb->blocks[i].steps, regions += rb->blocks[i].regions[0];
	Step* steps = gt_malloc((size_t)(count + 1) * sizeof *steps);
	if (!steps) return gt_fail(err, GT_ERR_NOMEM, "out of memory choosing regions");
	count = 0;
	for (int64_t i = 0; i < blocks; i++) {
		double ratio = 0;
		for (int s = 0; s < rb->blocks[i].steps; s++) {
			ratio = fmax(ratio, (double)rb->blocks[i].ratio[s]);
			Step step = {ratio, i, s};
			steps[count++] = step;
		}
		rb->blocks[i].chosen = 0;
	}
	qsort(steps, (size_t)count, sizeof *steps, by_ratio);
	for (int64_t k = 0; k < count && total + id_bytes(rb, regions) > target_bytes; k++) {
		gtRegionBlock* b = &rb->blocks[steps[k].block];
		total += block_bytes(rb, b, steps[k].step + 1) - block_bytes(rb, b, steps[k].step);
		regions -= b->regions[steps[k].step] - b->regions[steps[k].step + 1];
		b->chosen = steps[k].step + 1;
	}
	gt_free(steps);
	total += id_bytes(rb, regions);
	if (total > target_bytes)
		return gt_fail(err, GT_ERR_LIMIT, "regions do not fit: %.1f MB of cells left", total / 1e6);
	return allocate(rb, err);
}

static uint32_t list_length(const uint16_t* list)
{
	uint32_t length = 1;
	while (!(list[length - 1] & GT_EHL_COMPACT_LAST)) length++;
	return length;
}

static uint64_t list_hash(const uint16_t* list, uint32_t length)
{
	uint64_t hash = 1469598103934665603ull; // FNV-1a
	for (uint32_t i = 0; i < length; i++) hash = (hash ^ list[i]) * 1099511628211ull;
	return hash ^ hash >> 29;
}

bool gt_region_share_lists(gtEhl* e)
{
	// The table is a part of the build's peak. Lists of one via (a third of the entries on AR0602SR,
	// but under 2,000 different ones) are found by their via in `single`; the longer ones by open
	// addressing at a load of at most 0.8.
	uint32_t n = (uint32_t)e->n;
	uint64_t longer = 0;
	for (int64_t i = 0; i + 1 < e->hub_count; i++)
		longer += e->hubs[i].hub != n && !(e->cvias[e->hubs[i].via_begin] & GT_EHL_COMPACT_LAST);
	uint64_t slots = longer + longer / 4 + 16;
	uint32_t* first = gt_calloc((size_t)slots, sizeof *first); // 1 + the entry that first stored a list
	uint32_t* single = gt_calloc((size_t)1 << 16, sizeof *single);
	if (!first || !single) {
		gt_free(first), gt_free(single);
		return false;
	}
	uint32_t at = 0;
	for (int64_t i = 0; i + 1 < e->hub_count; i++) {
		gtEhlHub* h = &e->hubs[i];
		if (h->hub == n) { // a sentinel owns no vias
			h->via_begin = at;
			continue;
		}
		const uint16_t* list = e->cvias + h->via_begin;
		uint32_t length = list_length(list);
		uint32_t* found = &single[list[0]];
		if (length > 1) {
			uint64_t slot = list_hash(list, length) % slots;
			for (; first[slot]; slot = slot + 1 == slots ? 0 : slot + 1) {
				const gtEhlHub* other = &e->hubs[first[slot] - 1];
				if (list_length(e->cvias + other->via_begin) == length &&
				    memcmp(e->cvias + other->via_begin, list, length * sizeof *list) == 0)
					break;
			}
			found = &first[slot];
		}
		if (*found) {
			h->via_begin = e->hubs[*found - 1].via_begin;
			continue;
		}
		// Lists lie in entry order, so the kept ones move down over what was read already.
		memmove(e->cvias + at, list, length * sizeof *list);
		h->via_begin = at;
		at += length;
		*found = (uint32_t)i + 1;
	}
	gt_free(first);
	gt_free(single);
	e->hubs[e->hub_count - 1].via_begin = at;
	e->via_count = at;
	(void)GT_RESIZE(e->cvias, (int64_t)at + 1); // shrinking: on failure the larger block stays
	return true;
}

gtStatus gt_region_weights(gtRegionBuild* rb, const gtVec2* points, int64_t point_count, gtError* err)
{
	gtEhl* e = rb->ehl;
	const gtMap* map = e->map;
	int64_t cells = (int64_t)e->columns * e->rows;
	rb->weight = gt_calloc((size_t)cells, sizeof *rb->weight);
	if (!rb->weight) return gt_fail(err, GT_ERR_NOMEM, "out of memory for region weights");
	double free_cells = 0;
	for (int y = 0; y < gtMap_Height(map); y++)
		for (int x = 0; x < gtMap_Width(map); x++) free_cells += !gtMap_IsBlocked(map, x, y);
	// Without a workload, query ends anywhere on free ground; with one, most land where it says.
	double uniform = point_count > 0 ? 0.1 : 1.0, share = free_cells > 0 ? uniform / free_cells : 0;
	for (int y = 0; y < gtMap_Height(map); y++)
		for (int x = 0; x < gtMap_Width(map); x++)
			if (!gtMap_IsBlocked(map, x, y)) rb->weight[(int64_t)(y / e->g) * e->columns + x / e->g] += (float)share;
	for (int64_t i = 0; i < point_count; i++) {
		gtVec2 p = points[i];
		if (!(p.x >= 0 && p.y >= 0 && p.x <= gtMap_Width(map) && p.y <= gtMap_Height(map))) continue;
		int64_t cell = gt_ehl_cell_of(e, p);
		rb->weight[cell] += (float)(0.9 / (double)point_count);
	}
	return GT_OK;
}

void gt_region_work_free(gtRegionWork* w)
{
	gt_free(w->pool.hubs);
	gt_free(w->pool.vias);
	gt_free(w->pool.full);
	memset(&w->pool, 0, sizeof w->pool);
}

void gt_region_build_free(gtRegionBuild* rb)
{
	gt_free(rb->weight);
	gt_free(rb->blocks);
	rb->weight = NULL, rb->blocks = NULL;
}
