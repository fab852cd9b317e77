#include <math.h>
#include <stdlib.h>

#include "linear_scan.h"

static bool has_word(const LsObject* o, int32_t k)
{
	for (int i = 0; i < o->keyword_count; i++)
		if (o->keywords[i] == k) return true;
	return false;
}

int ls_match(const LsObject* o, const gtQuery* q, int vocabulary, bool scored, int* query_words)
{
	int distinct = 0, unknown = 0, have = 0;
	for (int i = 0; i < q->keyword_count; i++) {
		int32_t k = q->keywords[i];
		bool seen = false; // each -1 is a word of its own; any other id counts once
		for (int j = 0; j < i && !seen && k >= 0; j++) seen = q->keywords[j] == k;
		if (seen) continue;
		if (k < 0 || k >= vocabulary) {
			unknown++;
			continue;
		}
		distinct++;
		have += has_word(o, k);
	}
	*query_words = distinct + unknown;
	if (q->use_region && (o->point.x < q->region[0] || o->point.x > q->region[2] || o->point.y < q->region[1] ||
	                      o->point.y > q->region[3]))
		return -1;
	int need = q->min_match < 0 ? (scored ? 0 : distinct + unknown) : q->min_match;
	if (have < need) return -1;
	if (q->any_count > 0) {
		bool some = false;
		for (int i = 0; i < q->any_count && !some; i++) some = has_word(o, q->any[i]);
		if (!some) return -1;
	}
	for (int i = 0; i < q->none_count; i++)
		if (has_word(o, q->none[i])) return -1;
	return have;
}

typedef struct Ranked {
	double d;
	gtObjectId id;
} Ranked;

// The library's answer order: by distance (score), ties by ascending object id.
static int by_rank(const void* a, const void* b)
{
	const Ranked *x = a, *y = b;
	return x->d != y->d ? (x->d > y->d) - (x->d < y->d) : (x->id > y->id) - (x->id < y->id);
}

int ls_query_ids(const LsObject* objects, int n, const gtQuery* q, int vocabulary, gtDistance distance, bool within,
                 bool scored, double* out, gtObjectId* ids)
{
	Ranked* ranked = malloc((size_t)(n > 0 ? n : 1) * sizeof *ranked);
	if (!ranked) return -1;
	int found = 0;
	for (int i = 0; i < n; i++) {
		int words, have = ls_match(&objects[i], q, vocabulary, scored, &words);
		if (have < 0) continue;
		double d = distance.fcn(distance.context, q->point, objects[i].point);
		if (isinf(d)) continue; // another component: never an answer
		if (scored) d += q->miss_cost * (words - have);
		if (within && d > q->radius) continue;
		ranked[found++] = (Ranked){d, objects[i].id};
	}
	qsort(ranked, (size_t)found, sizeof *ranked, by_rank);
	for (int i = 0; i < found; i++) {
		out[i] = ranked[i].d;
		if (ids) ids[i] = ranked[i].id;
	}
	free(ranked);
	return within || found < q->k ? found : q->k;
}

int ls_query(const LsObject* objects, int n, const gtQuery* q, int vocabulary, gtDistance distance, bool within,
             bool scored, double* out)
{
	return ls_query_ids(objects, n, q, vocabulary, distance, within, scored, out, NULL);
}
