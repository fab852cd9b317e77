// Target fields over EHL's hub labels (ehl_field.h).
//
// EHL writes every distance between points s and t that do not see each other as
//     d(s, t) = min over hubs h of both cells of A_s(h) + A_t(h),
// where A_p(h) is the best |p v| + d(v, h) over the vias v of p's cell for h that p sees. A field
// for a set of objects keeps, for every hub h, the k objects with the smallest A_o(h) (its
// bucket). An agent a then takes, for every hub h of its cell, A_a(h) plus the bucket's entries,
// and the objects it sees directly at their straight-line distance; its k nearest are the k best
// distinct objects among those candidates. Exact: every candidate is the length of a real path;
// if an object o not seen from a is among a's k nearest and its best hub h* does not keep o, h*
// keeps k objects o_i with A_oi(h*) <= A_o(h*), each a candidate no farther than d(a, o), so o's
// distance is still the k-th or better, and an object that is kept is found at its exact
// distance through h*. The same argument per convex vertex is the fence idea of the OkNN paper;
// per hub it needs no search over the visibility graph, only each object's own hub list.
#include <float.h>
#include <math.h>

#include "core/alloc.h"
#include "core/status.h"
#include "ehl/ehl_field.h"
#include "ehl/ehl_query.h"
#include "map/geometry.h"

typedef struct FieldEntry {
	double value;    // A_o(h)
	uint64_t object; // the caller's name for it, which breaks ties
} FieldEntry;

struct gtEhlField {
	const gtEhl* ehl;
	int k, capacity_k;   // entries per bucket, and the room allocated
	FieldEntry* entries; // bucket of hub rank h at h * capacity_k, ascending
	uint8_t* filled;     // per hub: entries in its bucket
	int32_t* touched;    // hubs with a non-empty bucket, to clear only those
	int32_t touched_count;
	gtEhlQuery* pricing; // side caches for the objects
	int objects;         // objects added since the last reset
};

// The k best (value, object) pairs of distinct objects seen so far, ascending (ties by name).
typedef struct FieldBest {
	int k, count;
	FieldEntry* entries; // room for k
} FieldBest;

struct gtEhlFieldAgent {
	gtEhlQuery* query; // its source side caches the agent's vias
	const gtMap* map;  // where sight is judged
	gtVec2 at;         // the agent
	FieldBest best;
	int best_room;
	FieldEntry* order; // the agent cell's hubs (`object`: the index in its list): max_hubs + 1 entries
};

gtStatus gt_ehl_field_create(const gtEhl* ehl, gtEhlField** out, gtError* err)
{
	gtEhlField* f = gt_calloc(1, sizeof *f);
	*out = NULL;
	if (!f) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a target field");
	f->ehl = ehl;
	size_t hubs = (size_t)ehl->n + 1;
	f->filled = gt_calloc(hubs, sizeof *f->filled);
	f->touched = gt_malloc(hubs * sizeof *f->touched);
	gtError ignored;
	if (!f->filled || !f->touched || gtEhlQuery_Create(ehl, &f->pricing, &ignored)) {
		gt_ehl_field_destroy(f);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for a target field");
	}
	*out = f;
	return GT_OK;
}

void gt_ehl_field_destroy(gtEhlField* f)
{
	if (!f) return;
	gt_free(f->entries);
	gt_free(f->filled);
	gt_free(f->touched);
	gtEhlQuery_Destroy(f->pricing);
	gt_free(f);
}

bool gt_ehl_field_reset(gtEhlField* f, int k)
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

int gt_ehl_field_objects(const gtEhlField* f)
{
	return f->objects;
}

// Inserts into an ascending run of `*count` entries with room for k (dropping the last if full),
// ordered by value and then name: a bucket keeps, of objects at the same value, those an agent
// must prefer, so ties come out as the single queries break them.
static void insert_sorted(FieldEntry* run, int* count, int k, double value, uint64_t object)
{
	int i = *count < k ? (*count)++ : k - 1;
	for (; i > 0 && (run[i - 1].value > value || (run[i - 1].value == value && run[i - 1].object > object)); i--)
		run[i] = run[i - 1];
	run[i] = (FieldEntry){value, object};
}

void gt_ehl_field_add(gtEhlField* f, gtVec2 p, uint64_t object)
{
	const gtEhl* e = f->ehl;
	gtEhlQuery* q = f->pricing;
	uint32_t generation = gt_ehl_next_generation(&q->generation[1], q->side[1].stamp, (size_t)e->n + 1);
	Side side = gt_ehl_side(&q->side[1], p, gt_ehl_at_pinch(e->map, p));
	f->objects++;
	for (const gtEhlHub* h = e->hubs + e->cell_begin[gt_ehl_cell_of(e, p)]; h->hub != (uint32_t)e->n; h++) {
		FieldEntry* bucket = f->entries + (size_t)h->hub * (size_t)f->capacity_k;
		int filled = f->filled[h->hub];
		double kth = filled == f->k ? bucket[f->k - 1].value : INFINITY;
		if (gt_hub_lower_bound(h) > kth) continue; // cannot enter this bucket (at kth: a smaller name can)
		int32_t via = -1;
		double value = gt_ehl_best_via(e, &side, generation, h->hub, h->via_begin, h[1].via_begin, 0,
		                               nextafter(kth, INFINITY), &via);
		if (via < 0 || (filled == f->k && (value > kth || (value == kth && object > bucket[f->k - 1].object))))
			continue;
		if (filled == 0) f->touched[f->touched_count++] = h->hub;
		insert_sorted(bucket, &filled, f->k, value, object);
		f->filled[h->hub] = (uint8_t)filled;
	}
}

gtStatus gt_ehl_field_agent_create(const gtEhl* ehl, const gtMap* map, gtEhlFieldAgent** out, gtError* err)
{
	gtEhlFieldAgent* a = gt_calloc(1, sizeof *a);
	*out = NULL;
	if (!a) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	a->map = map;
	gtStatus st = gtEhlQuery_Create(ehl, &a->query, err);
	if (!st) {
		a->order = gt_malloc(((size_t)a->query->max_hubs + 1) * sizeof *a->order);
		if (!a->order) st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
	}
	if (st) {
		gt_ehl_field_agent_destroy(a);
		return st;
	}
	*out = a;
	return GT_OK;
}

void gt_ehl_field_agent_destroy(gtEhlFieldAgent* a)
{
	if (!a) return;
	gtEhlQuery_Destroy(a->query);
	gt_free(a->best.entries);
	gt_free(a->order);
	gt_free(a);
}

bool gt_ehl_field_agent_reserve(gtEhlFieldAgent* a, int k)
{
	if (a->best_room >= k) return true;
	if (!GT_RESIZE(a->best.entries, k)) return false;
	a->best_room = k;
	return true;
}

static inline double field_bound(const FieldBest* b)
{
	return b->count == b->k ? b->entries[b->k - 1].value : INFINITY;
}

// Offers an object at a candidate distance: kept when it beats the k-th, once per object, at its
// smallest value; `replace` makes this value the object's even when it is larger (a straight line
// the agent sees is the distance EHL gives, even where a path through a vertex on that line rounds
// a unit in the last place lower).
static void offer(FieldBest* b, double value, uint64_t object, bool replace)
{
	for (int i = 0; i < b->count; i++) {
		if (b->entries[i].object != object) continue;
		if (value >= b->entries[i].value && !replace) return;
		for (int j = i; j + 1 < b->count; j++) b->entries[j] = b->entries[j + 1]; // re-inserted below
		b->count--;
		break;
	}
	const FieldEntry* kth = &b->entries[b->k - 1];
	if (b->count == b->k && (value > kth->value || (value == kth->value && object > kth->object))) return;
	insert_sorted(b->entries, &b->count, b->k, value, object);
}

// The agent cell's hubs with a non-empty bucket whose candidates can be at most `cap` into
// `order`, with the least any of their candidates can be; returns how many.
static int hubs_in_reach(const gtEhlField* f, const gtEhlHub* first, double cap, FieldEntry* order)
{
	const gtEhl* e = f->ehl;
	int count = 0;
	for (const gtEhlHub* h = first; h->hub != (uint32_t)e->n; h++) {
		if (!f->filled[h->hub]) continue;
		double least = (double)gt_hub_lower_bound(h) + f->entries[(size_t)h->hub * (size_t)f->capacity_k].value;
		if (least <= cap) order[count++] = (FieldEntry){least, (uint64_t)(h - first)};
	}
	return count;
}

void gt_ehl_field_agent_begin(gtEhlFieldAgent* a, const gtEhlField* f, gtVec2 p, int k, double cap)
{
	const gtEhl* e = f->ehl;
	gtEhlQuery* q = a->query;
	FieldBest* best = &a->best;
	best->k = k;
	best->count = 0;
	a->at = p;
	uint32_t generation = gt_ehl_next_generation(&q->generation[0], q->side[0].stamp, (size_t)e->n + 1);
	Side side = gt_ehl_side(&q->side[0], p, gt_ehl_at_pinch(e->map, p));
	// Hubs priced smallest bound first: few are priced before the rest is ruled out.
	const gtEhlHub* first = e->hubs + e->cell_begin[gt_ehl_cell_of(e, p)];
	FieldEntry* order = a->order;
	for (int left = hubs_in_reach(f, first, cap, order); left > 0; left--) {
		// The smallest left, dropping on the way every hub the bound now rules out (at the bound
		// a tie may still enter): once an answer is in, few hubs stay.
		double bound = fmin(field_bound(best), cap);
		int next = -1, kept = 0;
		for (int i = 0; i < left; i++) {
			if (order[i].value > bound) continue;
			order[kept] = order[i];
			if (next < 0 || order[kept].value < order[next].value) next = kept;
			kept++;
		}
		left = kept;
		if (next < 0) break;
		FieldEntry chosen = order[next];
		order[next] = order[left - 1];
		const gtEhlHub* h = first + chosen.object;
		const FieldEntry* bucket = f->entries + (size_t)h->hub * (size_t)f->capacity_k;
		int32_t via = -1;
		// A_a(h) exactly, as EHL's own query takes it (offset 0: no sum rounds two vias together),
		// but only where A_a(h) + the bucket's best can still enter: a little more room than
		// bound - best, which rounding may shave.
		double room = bound - bucket[0].value + 4 * DBL_EPSILON * bound;
		double to_hub = gt_ehl_best_via(e, &side, generation, h->hub, h->via_begin, h[1].via_begin, 0, room, &via);
		if (via < 0) continue;
		for (int j = 0; j < f->filled[h->hub]; j++) {
			double value = to_hub + bucket[j].value;
			if (value > fmin(field_bound(best), cap)) break;
			offer(best, value, bucket[j].object, false);
		}
	}
}

// A few units in the last place to spare: a seen object's straight line replaces a hub value that
// rounded lower.
double gt_ehl_field_agent_limit(const gtEhlFieldAgent* a)
{
	double bound = field_bound(&a->best);
	return bound + 4 * DBL_EPSILON * bound;
}

double gt_ehl_field_agent_offer_seen(gtEhlFieldAgent* a, gtVec2 p, uint64_t object)
{
	// The straight line as EHL prices a pair that sees (the same hypot, the same operands).
	if (gt_visible_unchecked(a->map, a->at, p)) offer(&a->best, hypot(p.x - a->at.x, p.y - a->at.y), object, true);
	return gt_ehl_field_agent_limit(a);
}

int gt_ehl_field_agent_count(const gtEhlFieldAgent* a)
{
	return a->best.count;
}

void gt_ehl_field_agent_answer(const gtEhlFieldAgent* a, int i, uint64_t* object, double* distance)
{
	*object = a->best.entries[i].object;
	*distance = a->best.entries[i].value;
}
