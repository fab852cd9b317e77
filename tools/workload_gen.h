// The moving-object workload generator (docs/algorithms.md 8.3): objects at a density of the free
// cells with keyword sets drawn from a game's item list, walking 1 unit per timestamp along
// shortest paths towards random targets, and queries whose keywords come from a random object.
#ifndef GRIDTREE_TOOLS_WORKLOAD_GEN_H
#define GRIDTREE_TOOLS_WORKLOAD_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "gridtree/gridtree.h"

typedef struct WlGenDef {
	double density;  // share of the free cells holding an object at timestamp 0
	double mobility; // share of the objects that move each timestamp
	double churn;    // share of the objects inserted and deleted (half each) per timestamp
	int timestamps, queries_per_timestamp, k, query_words;
	int clusters; // 0: uniform; else starts and targets in this many rectangles of 1% of the area
	uint64_t seed;
} WlGenDef;

// The paper's defaults: density 0.01, mobility 0.7, no churn, 50 timestamps of 100 queries,
// k 3, 2 query keywords, uniform, seed 0.
WlGenDef wl_gen_default(void);

typedef struct WlGenCounts {
	int objects;
	long updates, queries;
} WlGenCounts;

// Writes objects.txt, updates.txt, queries.txt and meta.txt into `dir` (which must exist); paths
// come from `nav`. `map_name` and `items_path` are recorded in meta.txt. Prints the problem
// ("gridtree workload: ...") and returns false on failure. The same seed writes the same bytes.
bool wl_generate(gtNavQuery* nav, const gtMap* map, const WlGenDef* def, const char* items_path, const char* map_name,
                 const char* dir, WlGenCounts* counts);

#endif
