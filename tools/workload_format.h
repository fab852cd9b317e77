// The workload format, reader and writer (written by `gridtree workload`, replayed by `gridtree
// bench-knn`):
//   objects.txt  id x y kw kw ...            objects at timestamp 0
//   updates.txt  t move id x y | t insert id x y kw ... | t delete id
//   queries.txt  t x y k kw kw ...           boolean kNN (all of the keywords)
//   meta.txt     key value lines (the parameters and counts)
#ifndef GRIDTREE_TOOLS_WORKLOAD_FORMAT_H
#define GRIDTREE_TOOLS_WORKLOAD_FORMAT_H

#include <stdio.h>

#include "gridtree/gridtree.h"

#define GT_WORD_BYTES (GT_KEYWORD_MAX_BYTES + 1) // a keyword and its terminating zero

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

// Writers, one line each (numbers with %.17g so a reader gets the same doubles back).
void wl_write_object(FILE* f, int id, gtVec2 at, const char* const* words, int count);
void wl_write_insert(FILE* f, long t, int id, gtVec2 at, const char* const* words, int count);
void wl_write_move(FILE* f, long t, int id, gtVec2 at);
void wl_write_delete(FILE* f, long t, int id);
void wl_write_query(FILE* f, long t, gtVec2 at, int k, const char* const* words, int count);

// Reads a whole file of one kind into a growable array; NULL on failure (message printed).
void* wl_read_all(const char* path, int kind,
                  int* count); // kind: 0 objects, 1 updates, 2 queries (with t), 3 queries (no t)

#endif
