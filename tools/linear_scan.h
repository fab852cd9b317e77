// The query rules written plainly, as a scan over every object: the twin that every fast query
// path (the Grid Tree, the query sphere) is checked against, in the tests and in bench-knn --check.
#ifndef GRIDTREE_TOOLS_LINEAR_SCAN_H
#define GRIDTREE_TOOLS_LINEAR_SCAN_H

#include <stdbool.h>

#include "gridtree/gridtree.h"

typedef struct LsObject {
	gtVec2 point;
	const int32_t* keywords; // duplicates allowed
	int keyword_count;
	gtObjectId id; // the library's id, for ls_query_ids (ties by ascending id)
} LsObject;

// -1 when the object fails the query's filters (region, at least min_match of the distinct query
// words, any, none), else how many distinct query words it has. *query_words receives the number
// of distinct query words: each -1 entry is one unknown word, other ids outside [0, vocabulary)
// count once per value. `scored`:
// the gtWorld_Top rule, where min_match < 0 means 0 instead of all.
int ls_match(const LsObject* o, const gtQuery* q, int vocabulary, bool scored, int* query_words);

// The answer of a nearest (k smallest) or within (every one up to q->radius) query by a scan:
// the sorted finite distances (scores when `scored`: distance + miss_cost per missing word) into
// out[0..return value). `out` holds n values.
int ls_query(const LsObject* objects, int n, const gtQuery* q, int vocabulary, gtDistance distance, bool within,
             bool scored, double* out);
// The same, in the library's order (ties by ascending id, the k-th place too) with the objects'
// ids into ids[0..return value) when ids is not NULL; -1 when out of memory.
int ls_query_ids(const LsObject* objects, int n, const gtQuery* q, int vocabulary, gtDistance distance, bool within,
                 bool scored, double* out, gtObjectId* ids);

#endif
