// The build's tuples grouped by cell (ehl_build.c's stage between the sweep and the via labels).
#include <stdlib.h>

#include "core/alloc.h"
#include "ehl/ehl_build_state.h"

// The worker whose next run has the lowest vertex (each worker's runs are in vertex order: the
// sweep hands vertices out in turn), -1 when every run is placed.
static int next_run(const Worker* workers, int threads, const int64_t* at)
{
	int best = -1;
	for (int i = 0; i < threads; i++)
		if (at[i] < workers[i].run_count && (best < 0 || workers[i].runs[at[i]] < workers[best].runs[at[best]]))
			best = i;
	return best;
}

// Groups every worker's tuples by cell (counting sort), freeing them afterwards. A cell's tuples
// are its FULL ones, then the others, each by vertex (the order of the signed values the last
// step used to sort them into: vertex order decides the order of equal-distance vias): placed
// run by run in vertex order over every worker, each kind from its own fill point, they come
// out in that order with no sort (AR0602SR, cells of 4: 2.4 ms of a repair's build thread).
gtStatus gt_ehl_group_tuples(Build* b, Worker* workers, gtError* err)
{
	int64_t total = 0;
	for (int i = 0; i < b->threads; i++) total += (int64_t)workers[i].tuple_count;
	b->pairs = total;
	b->tuple_begin = gt_calloc((size_t)b->cells + 1, sizeof *b->tuple_begin);
	b->tuple_vertex = gt_malloc((size_t)(total + 1) * sizeof *b->tuple_vertex);
	if (!b->tuple_begin || !b->tuple_vertex)
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for %lld cell tuples", (long long)total);
	int64_t* fill = gt_calloc(2 * ((size_t)b->cells + 1), sizeof *fill); // FULL ones', then the others'
	int64_t* at = gt_calloc((size_t)b->threads + 1, sizeof *at);
	const uint32_t** from = gt_calloc((size_t)b->threads + 1, sizeof *from);
	if (!fill || !at || !from) {
		gt_free(fill), gt_free(at), gt_free(from);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory grouping cell tuples");
	}
	int64_t* rest = fill + b->cells + 1;
	for (int i = 0; i < b->threads; i++)
		for (size_t t = 0; t < workers[i].tuple_count; t++) {
			uint32_t cf = workers[i].tuples[t];
			b->tuple_begin[(cf & TUPLE_VERTEX) + 1]++;
			rest[cf & TUPLE_VERTEX] += (cf & TUPLE_FULL) != 0;
		}
	for (int64_t c = 0; c < b->cells; c++) {
		b->tuple_begin[c + 1] += b->tuple_begin[c];
		fill[c] = b->tuple_begin[c], rest[c] += b->tuple_begin[c];
	}
	for (int i = 0; i < b->threads; i++) from[i] = workers[i].tuples;
	for (int i; (i = next_run(workers, b->threads, at)) >= 0; at[i] += 2) {
		uint32_t v = (uint32_t)workers[i].runs[at[i]];
		for (int32_t k = 0; k < workers[i].runs[at[i] + 1]; k++) {
			uint32_t cf = *from[i]++;
			int64_t* to = cf & TUPLE_FULL ? fill : rest;
			b->tuple_vertex[to[cf & TUPLE_VERTEX]++] = v | (cf & TUPLE_FULL);
		}
	}
	for (int i = 0; i < b->threads; i++) {
		Worker* w = &workers[i];
		gt_free(w->tuples), gt_free(w->runs);
		w->tuples = NULL, w->runs = NULL;
		w->tuple_count = w->tuple_capacity = 0;
		w->run_count = w->run_capacity = 0;
	}
	gt_free(fill), gt_free(at), gt_free(from);
	// A region build (never repaired, so nothing else reads them) halves them when it can: at small
	// budgets they are the largest part of the peak besides the index.
	if (b->most_tuples && !b->repair && b->ehl->n <= (int)FULL_16 && (b->tuple16 = gt_malloc((size_t)total * 2 + 2))) {
		for (int64_t t = 0; t < total; t++)
			b->tuple16[t] = (uint16_t)((b->tuple_vertex[t] & TUPLE_VERTEX) |
			                           (b->tuple_vertex[t] & TUPLE_FULL ? FULL_16 : 0));
		gt_free(b->tuple_vertex);
		b->tuple_vertex = NULL;
	}
	return GT_OK;
}
