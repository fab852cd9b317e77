// Workload files written by `gridtree workload` and replayed by `gridtree bench-knn`:
//   objects.txt  id x y kw kw ...            objects at timestamp 0
//   updates.txt  t move id x y | t insert id x y kw ... | t delete id
//   queries.txt  t x y k kw kw ...           boolean kNN (all of the keywords)
//   meta.txt     key value lines (the parameters and counts)
#ifndef GRIDTREE_CLI_WORKLOAD_H
#define GRIDTREE_CLI_WORKLOAD_H

#include <stdio.h>

#include "cli.h"

#define WL_MAX_WORDS 32

typedef struct WlObject {
	int id;
	double x, y;
	int word_count;
	char words[WL_MAX_WORDS][GT_WORD_BYTES];
} WlObject;

typedef enum WlOp { WL_MOVE, WL_INSERT, WL_DELETE } WlOp;

typedef struct WlUpdate {
	int t;
	WlOp op;
	WlObject object; // id always; position for move and insert; words for insert
} WlUpdate;

typedef struct WlQuery {
	int t, k;
	double x, y;
	int word_count;
	char words[WL_MAX_WORDS][GT_WORD_BYTES];
} WlQuery;

// Parses one line of each file kind; false (with a message naming file:line) when malformed.
bool wl_parse_object(const char* line, const char* where, WlObject* o);
bool wl_parse_update(const char* line, const char* where, WlUpdate* u);
bool wl_parse_query(const char* line, const char* where, bool with_time, WlQuery* q);

// Reads a whole file of one kind into a growable array; NULL on failure (message printed).
void* wl_read_all(const char* path, int kind, int* count); // kind: 0 objects, 1 updates, 2 queries (with t), 3 queries (no t)

#endif
