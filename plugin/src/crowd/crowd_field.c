// Target fields over EHL's hub labels: per hub, the k objects with the smallest A_o(h)
// (crowd_field.h says why that is exact).
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "crowd/crowd_field.h"
#include "map/geometry.h"

bool gt_field_init(gtField* f, const gtEhl* ehl)
{
	memset(f, 0, sizeof *f);
	f->ehl = ehl;
	size_t hubs = (size_t)ehl->n + 1;
	f->filled = gt_calloc(hubs, sizeof *f->filled);
	f->touched = gt_malloc(hubs * sizeof *f->touched);
	gtError err;
	if (!f->filled || !f->touched || gtEhlQuery_Create(ehl, &f->pricing, &err)) {
		gt_field_free(f);
		return false;
	}
	return true;
}

void gt_field_free(gtField* f)
{
	gt_free(f->entries);
	gt_free(f->filled);
	gt_free(f->touched);
	gtEhlQuery_Destroy(f->pricing);
	memset(f, 0, sizeof *f);
}

bool gt_field_reset(gtField* f, int k)
{
	for (int32_t i = 0; i < f->touched_count; i++) f->filled[f->touched[i]] = 0;
	f->touched_count = 0;
	f->objects = 0;
	if (k > f->capacity_k) {
		if (!GT_RESIZE(f->entries, ((int64_t)f->ehl->n + 1) * k)) return false;
		f->capacity_k = k;
	}
	f->k = k;
	return true;
}

// Inserts into an ascending run of `*count` entries with room for k (dropping the last if full).
static void insert_sorted(FieldEntry* run, int* count, int k, double value, int32_t slot)
{
	int i = *count < k ? (*count)++ : k - 1;
	for (; i > 0 && (run[i - 1].value > value || (run[i - 1].value == value && run[i - 1].slot > slot)); i--)
		run[i] = run[i - 1];
	run[i] = (FieldEntry){value, slot};
}

void gt_field_add(gtField* f, gtVec2 p, int32_t slot)
{
	const gtEhl* e = f->ehl;
	gtEhlQuery* q = f->pricing;
	uint32_t generation = gt_ehl_next_generation(&q->generation[1], q->side[1].stamp, (size_t)e->n + 1);
	Side side = {&q->side[1], p, gt_ehl_at_pinch(e->map, p)};
	f->objects++;
	for (const gtEhlHub* h = e->hubs + e->cell_begin[gt_ehl_cell_of(e, p)]; h->hub != e->n; h++) {
		FieldEntry* bucket = f->entries + (size_t)h->hub * (size_t)f->capacity_k;
		int filled = f->filled[h->hub];
		double kth = filled == f->k ? bucket[f->k - 1].value : INFINITY;
		if (gt_hub_lower_bound(h) >= kth) continue; // cannot enter this bucket
		int32_t via = -1;
		double value = gt_ehl_best_via(e, &side, generation, h->hub, h->via_begin, h[1].via_begin, 0, kth, &via);
		if (via < 0) continue;
		if (filled == 0) f->touched[f->touched_count++] = h->hub;
		insert_sorted(bucket, &filled, f->k, value, slot);
		f->filled[h->hub] = (uint8_t)filled;
	}
}

void gt_field_offer(FieldBest* b, double value, int32_t slot, bool replace)
{
	for (int i = 0; i < b->count; i++) {
		if (b->entries[i].slot != slot) continue;
		if (value >= b->entries[i].value && !replace) return;
		for (int j = i; j + 1 < b->count; j++) b->entries[j] = b->entries[j + 1]; // re-inserted below
		b->count--;
		break;
	}
	if (b->count == b->k && !(value < b->entries[b->k - 1].value)) return;
	insert_sorted(b->entries, &b->count, b->k, value, slot);
}

void gt_field_candidates(const gtField* f, gtEhlQuery* q, gtVec2 a, FieldBest* best, FieldEntry* order)
{
	const gtEhl* e = f->ehl;
	uint32_t generation = gt_ehl_next_generation(&q->generation[0], q->side[0].stamp, (size_t)e->n + 1);
	Side side = {&q->side[0], a, gt_ehl_at_pinch(e->map, a)};
	// The agent cell's hubs with a non-empty bucket, with the least any of their candidates can
	// be; priced smallest first (few are priced before the rest is ruled out).
	int count = 0;
	const gtEhlHub* first = e->hubs + e->cell_begin[gt_ehl_cell_of(e, a)];
	for (const gtEhlHub* h = first; h->hub != e->n; h++)
		if (f->filled[h->hub])
			order[count++] = (FieldEntry){(double)gt_hub_lower_bound(h) + f->entries[(size_t)h->hub * (size_t)f->capacity_k].value,
			                              (int32_t)(h - first)};
	for (int left = count; left > 0; left--) {
		int next = 0;
		for (int i = 1; i < left; i++)
			if (order[i].value < order[next].value) next = i;
		if (!(order[next].value < field_bound(best))) break;
		FieldEntry chosen = order[next];
		order[next] = order[left - 1];
		const gtEhlHub* h = first + chosen.slot;
		const FieldEntry* bucket = f->entries + (size_t)h->hub * (size_t)f->capacity_k;
		int32_t via = -1;
		// A_a(h) exactly, as EHL's own query takes it (offset 0: no sum rounds two vias together),
		// but only where A_a(h) + the bucket's best can still enter: a little more room than
		// bound - best, which rounding may shave.
		double bound = field_bound(best), room = bound - bucket[0].value + 4 * DBL_EPSILON * bound;
		double to_hub = gt_ehl_best_via(e, &side, generation, h->hub, h->via_begin, h[1].via_begin, 0, room, &via);
		if (via < 0) continue;
		for (int j = 0; j < f->filled[h->hub]; j++) {
			double value = to_hub + bucket[j].value;
			if (!(value < field_bound(best))) break;
			gt_field_offer(best, value, bucket[j].slot, false);
		}
	}
}
