// Label checks shared by the tests of the hub labels' repair (they include plugin/src).
#ifndef GT_TEST_HUB_LABELS_CHECK_H
#define GT_TEST_HUB_LABELS_CHECK_H

#include "test_support.h"

#include "ehl/hub_labels.h"

// Repaired labels `a` equal scratch labels `b` entry for entry: hubs, parents, distances, P4 flags.
static inline void expect_same_labels(const gtHubLabels* a, const gtHubLabels* b, const char* what, int step)
{
	assert_int_equal(a->n, b->n);
	for (int v = 0; v < a->n; v++) {
		if (a->offset[v + 1] - a->offset[v] != b->offset[v + 1] - b->offset[v])
			fail_msg("%s, edit %d: vertex %d has %lld entries repaired, %lld from scratch", what, step, v,
			         (long long)(a->offset[v + 1] - a->offset[v]), (long long)(b->offset[v + 1] - b->offset[v]));
		for (int64_t i = 0; i < a->offset[v + 1] - a->offset[v]; i++) {
			int64_t k = a->offset[v] + i, j = b->offset[v] + i;
			if (a->hub[k] != b->hub[j] || a->parent[k] != b->parent[j] || a->dist[k] != b->dist[j] ||
			    a->useful[k] != b->useful[j])
				fail_msg("%s, edit %d: vertex %d entry %lld is hub %d parent %d (%.17g) repaired, hub %d parent %d "
				         "(%.17g) from scratch",
				         what, step, v, (long long)i, a->hub[k], a->parent[k], a->dist[k], b->hub[j], b->parent[j],
				         b->dist[j]);
		}
	}
}

#endif
