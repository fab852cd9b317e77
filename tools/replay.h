// Replaying a workload against a world (what `gridtree bench-knn` times), and the pieces `gridtree
// knn` shares with it: file ids mapped to object handles, workload lines turned into objects and
// queries.
#ifndef GRIDTREE_TOOLS_REPLAY_H
#define GRIDTREE_TOOLS_REPLAY_H

#include "workload_format.h"

// File ids (non-negative integers, at most WL_MAX_ID) to handles and back. A hash table, so
// memory follows the number of objects, not the largest id (a file with the one id 100000000 used
// to allocate 1.6 GB).
#define WL_MAX_ID 100000000
typedef struct WlIds {
	int* keys;           // file id per table entry, -1 = empty
	gtObjectId* handles; // handle per table entry
	int size, count;     // table entries (a power of two, or 0), ids in it
	int* file_id;        // by slot (gtObjectId_Slot)
	int slots;
} WlIds;

void wl_ids_free(WlIds* ids);

// The handle of a file id, or 0 when it has none.
gtObjectId wl_ids_find(const WlIds* ids, int id);

// Forgets a file id (its object was removed).
void wl_ids_forget(WlIds* ids, int id);

// Adds a workload object to the world under its file id; prints the problem (naming `where`) and
// returns false when a keyword, the point or the id is bad.
bool wl_add_object(gtWorld* w, WlIds* ids, const WlObject* o, const char* where);

// A boolean kNN query (all of the words) for a workload line; `words` holds WL_MAX_WORDS ids.
gtQuery wl_make_query(gtWorld* w, const WlQuery* q, int32_t* words);

typedef struct WlReplayStats {
	int objects, timestamps, queries;
	double update_us_per_timestamp, query_us;
	double distance_calls_per_query, nodes_per_query, objects_tested_per_query;
	double euclid_sphere_us, euclid_tree_us, euclid_scan_us; // straight-line kNN three ways
	long euclid_mismatches;
	long checked, mismatches; // answers compared with the linear scan (the first `check` queries)
} WlReplayStats;

// Replays objects.txt, updates.txt and queries.txt of `dir` on an empty world: each timestamp's
// inserts and deletes, its moves in one gtWorld_MoveMany, then its queries by `distance`. Then
// straight-line kNN over the final positions by query sphere, tree and scan, cross-checked.
// Prints the problem and returns false on failure.
bool wl_replay(gtWorld* world, gtDistance distance, const char* dir, long check, WlReplayStats* stats);

#endif
