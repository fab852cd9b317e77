// Target fields over EHL's hub labels. Internal.
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
#ifndef GRIDTREE_CROWD_FIELD_H
#define GRIDTREE_CROWD_FIELD_H

#include "ehl/ehl_query.h"

typedef struct FieldEntry {
	double value; // A_o(h)
	int32_t slot; // the object's world slot
} FieldEntry;

typedef struct gtField {
	const gtEhl* ehl;
	int k, capacity_k;     // entries per bucket, and the room allocated
	FieldEntry* entries;   // bucket of hub rank h at h * capacity_k, ascending
	uint8_t* filled;       // per hub: entries in its bucket
	int32_t* touched;      // hubs with a non-empty bucket, to clear only those
	int32_t touched_count;
	gtEhlQuery* pricing;   // side caches for the objects
	int objects;           // objects added since the last clear
} gtField;

// The k best (value, slot) pairs of distinct objects seen so far, ascending.
typedef struct FieldBest {
	int k, count;
	FieldEntry* entries; // room for k
} FieldBest;

bool gt_field_init(gtField* f, const gtEhl* ehl);
void gt_field_free(gtField* f);
// Empties the field and sets its k (1 .. 255); false when out of memory.
bool gt_field_reset(gtField* f, int k);
// Adds an object at a valid point p.
void gt_field_add(gtField* f, gtVec2 p, int32_t slot);

static inline double field_bound(const FieldBest* b)
{
	return b->count == b->k ? b->entries[b->k - 1].value : INFINITY;
}
// Offers an object at a candidate distance: kept when it beats the k-th, once per object, at
// its smallest value; `replace` makes this value the object's even when it is larger (a straight
// line the agent sees is the distance EHL gives, even where a path through a vertex on that line
// rounds a unit in the last place lower).
void gt_field_offer(FieldBest* b, double value, int32_t slot, bool replace);
// The hub candidates of an agent at valid point a into `best` (which the caller then offers the
// objects a sees directly). `q` is the worker's EHL query (its source side caches the agent's
// vias); `order` is scratch for the agent cell's hubs (q->max_hubs + 1 entries).
void gt_field_candidates(const gtField* f, gtEhlQuery* q, gtVec2 a, FieldBest* best, FieldEntry* order);

#endif
