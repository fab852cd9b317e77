/// @file gt_world.h
/// A world of moving, keyword-tagged objects indexed by a Grid Tree (docs/algorithms.md 6): a fixed
/// quadtree over the map whose leaves form a uniform grid. Moving an object inside its leaf costs
/// O(1); every node keeps exact per-keyword object counts so queries skip whole subtrees that
/// cannot match. Queries take any distance function (EHL, the oracle, straight-line).
///
/// Contents
///     Object ids             gtObjectId, gtObjectId_Slot
///     The world              gtWorldDef, gtWorld_Create, gtWorld_Keyword
///     Objects                gtWorld_Add, gtWorld_Move, gtWorld_Remove, gtWorld_SetKeywords
///     Distances              gtDistance, gtDistance_Euclid
///     Queries                gtWorld_Nearest, gtWorld_Within, gtWorld_Top, gtWorld_TopWeighted
///     Straight-line queries  gtWorld_NearestEuclid, gtWorld_WithinEuclid
#ifndef GRIDTREE_GT_WORLD_H
#define GRIDTREE_GT_WORLD_H

#include <stdbool.h>

#include "gt_map.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Object ids

/// Object handle, tied to the world that issued it. Layout, from the low bit up:
///
///     bits  0..23  slot + 1 (so 0 is never a valid id): GT_OBJECT_ID_SLOT_BITS bits
///     bits 24..33  generation: GT_OBJECT_ID_GENERATION_BITS bits, odd while the object lives
///     bits 34..52  world tag: GT_OBJECT_ID_TAG_BITS bits, the issuing world's
///     bits 53..63  always 0: every id is below 2^53, so it survives a double (LuaJIT, JSON)
///
/// Guarantees: (1) a removed object's id stays stale forever. A slot serves at most
/// 2^(GT_OBJECT_ID_GENERATION_BITS - 1) objects; after the last one the slot is retired (never
/// reused, about 50 bytes kept), so no generation ever comes round again. (2) Every function
/// taking an id rejects an id of another world as stale, also of a destroyed one. Tags are handed
/// out round-robin (process-wide, thread-safe), skipping tags of live worlds: a world's tag comes
/// back only after 2^GT_OBJECT_ID_TAG_BITS (524,288) more worlds were created in the process, so
/// an id of a destroyed world is not valid in the worlds made after it until then. Live worlds
/// never share a tag unless more than 2^GT_OBJECT_ID_TAG_BITS of them are live at once. A world
/// holds at most 2^GT_OBJECT_ID_SLOT_BITS - 1 objects.
typedef uint64_t gtObjectId;

#define GT_OBJECT_ID_SLOT_BITS 24
#define GT_OBJECT_ID_GENERATION_BITS 10
#define GT_OBJECT_ID_TAG_BITS 19

/// The storage slot of an id (0-based; slots are reused after removal, so a slot alone does not
/// name an object), -1 for the null id. Handy as an index into per-object arrays of the game's own.
static inline int32_t gtObjectId_Slot(gtObjectId id)
{
	return (int32_t)(id & ((UINT64_C(1) << GT_OBJECT_ID_SLOT_BITS) - 1)) - 1;
}

/// The generation of an id: odd while the object lives; the slot's next object gets a new one.
static inline uint32_t gtObjectId_Generation(gtObjectId id)
{
	return (uint32_t)(id >> GT_OBJECT_ID_SLOT_BITS) & ((1u << GT_OBJECT_ID_GENERATION_BITS) - 1);
}

/// The tag of the world that issued an id (see gtObjectId).
static inline uint32_t gtObjectId_Tag(gtObjectId id)
{
	return (uint32_t)(id >> (GT_OBJECT_ID_SLOT_BITS + GT_OBJECT_ID_GENERATION_BITS)) &
	       ((1u << GT_OBJECT_ID_TAG_BITS) - 1);
}

//------------------------------------------------------------------------------------------------
// The world

typedef struct gtWorld gtWorld;

typedef struct gtWorldDef {
	int leaf_size; ///< m: nodes split while wider or taller than m map cells (>= 1)
	int capacity;  ///< objects to reserve room for (grows as needed)
	/// Memory for per-node keyword bitmaps (one bit per node and keyword), which make a query's
	/// keyword test of a node one bit instead of a hash lookup. Keywords beyond this budget (in
	/// the order they were first seen) are tested through the counts: slower, same answers.
	/// 0: none. At most GT_WORLD_MAX_BITMAP_BYTES.
	int64_t keyword_bitmap_bytes;
} gtWorldDef;

#define GT_WORLD_MAX_BITMAP_BYTES (INT64_C(1) << 32)

/// leaf_size 16, capacity 1024, keyword_bitmap_bytes 8 MiB.
gtWorldDef gtWorld_DefaultDef(void);

/// The world keeps a pointer to the map, which must outlive it. One thread at a time per world.
/// Reentrancy: a query's trace and distance functions run inside it: they may read this world
/// and query other worlds, but must not change this one (add, move, remove, keywords, destroy)
/// nor start another query on it (the queries share the world's scratch); answers land in the
/// caller's buffers, which the library never touches after the call returns.
gtStatus gtWorld_Create(const gtMap* map, const gtWorldDef* def, gtWorld** out, gtError* err);
void gtWorld_Destroy(gtWorld* world);

/// Keyword id for a word (interned on first use): 1..64 bytes of printable ASCII without spaces.
/// Returns -1 for anything else or when out of memory.
int32_t gtWorld_Keyword(gtWorld* world, const char* word);
/// Keyword id of a known word, or -1 (nothing has that keyword).
int32_t gtWorld_FindKeyword(const gtWorld* world, const char* word);
const char* gtWorld_KeywordName(const gtWorld* world, int32_t keyword);
int32_t gtWorld_KeywordCount(const gtWorld* world);

//------------------------------------------------------------------------------------------------
// Objects

/// Adds an object at a point of the free space with keyword ids (duplicates are merged).
gtStatus gtWorld_Add(gtWorld* world, gtVec2 point, const int32_t* keywords, int count, gtObjectId* out, gtError* err);
gtStatus gtWorld_Remove(gtWorld* world, gtObjectId id, gtError* err);
/// O(1) when the object stays in its leaf; otherwise updates counts up to the common ancestor.
gtStatus gtWorld_Move(gtWorld* world, gtObjectId id, gtVec2 point, gtError* err);
gtStatus gtWorld_SetKeywords(gtWorld* world, gtObjectId id, const int32_t* keywords, int count, gtError* err);
/// Moves an object and replaces its keywords in one update; nothing changes unless all is valid.
gtStatus gtWorld_MoveAndSetKeywords(gtWorld* world, gtObjectId id, gtVec2 point, const int32_t* keywords, int count,
                                    gtError* err);
/// Moves `count` objects; every id and point is checked first, so a bad one changes nothing.
gtStatus gtWorld_MoveMany(gtWorld* world, const gtObjectId* ids, const gtVec2* points, int count, gtError* err);

bool gtWorld_IsValid(const gtWorld* world, gtObjectId id);
gtStatus gtWorld_GetPosition(const gtWorld* world, gtObjectId id, gtVec2* point, gtError* err);
/// The object's keyword ids (sorted); -1 for a stale id.
int gtWorld_GetKeywords(const gtWorld* world, gtObjectId id, const int32_t** keywords);
int gtWorld_Count(const gtWorld* world);
/// Tree height h (leaves form a 2^h x 2^h grid) and the number of nodes.
void gtWorld_TreeSize(const gtWorld* world, int* height, int64_t* nodes);

/// Recomputes every node's keyword and object counts and every leaf list from the objects and
/// compares them with the maintained ones.
gtStatus gtWorld_Validate(const gtWorld* world, gtError* err);

//------------------------------------------------------------------------------------------------
// Distances

/// A distance between two valid points; +infinity when unreachable.
typedef double gtDistanceFcn(void* context, gtVec2 from, gtVec2 to);

/// The distance when it is below `limit`; otherwise any value >= limit. A query asks this once
/// it holds an answer that a farther candidate cannot enter, so a backend may stop early.
typedef double gtDistanceBelowFcn(void* context, gtVec2 from, gtVec2 to, double limit);

/// Ways a distance may beat the straight line (a nav's links, docs/links.md): way i goes from
/// entrance[i] to exit[i] at cost[i]. The world's queries then bound the distance from q to p below
/// by the shortest walk from q to p in which every step between links is a straight line (a search
/// from q over the ways, as far as the query needs it), never by |q p| alone. `gap` holds, per
/// block of `block` x `block` map units (columns x rows of them from the origin), a lower bound of
/// the distance from the block to the nearest exit. `savings`, optional (0: the query sums it), is
/// at least the sum over ways of what each saves on its straight line (|entrance exit| - cost when
/// positive): no walk beats |q p| by more, so links that save almost nothing cost a query nothing.
typedef struct gtShortcuts {
	int count;
	const gtVec2 *entrance, *exit;
	const double* cost;
	const float* gap;
	int columns, rows;
	double block;
	double savings;
	/// Optional (NULL: a query reads every way): the ways cheaper than their straight line by the
	/// square of grid_side x grid_side map units (grid_columns x grid_rows from the origin, points
	/// beyond the last clamped into it) holding their entrance, square c's ways being
	/// grid_way[grid_begin[c] .. grid_begin[c + 1]); a query's search then reads the squares
	/// around the points it walks from, nearest first, instead of every way.
	const int32_t *grid_begin, *grid_way;
	int grid_columns, grid_rows;
	double grid_side;
	/// Optional (NULL: none): per block of the gap table, a lower bound of the least reach from a
	/// point of the block, the distance to the entrance of a way cheaper than its straight line
	/// plus its cost (+infinity without such ways): with ways that save little in all (no search),
	/// a line two points see each other along stands when that bound plus the gap is above it.
	const float* reach_gap;
	/// Optional (NULL: none), with reach_gap and the grid: per block of the gap table, the ways
	/// cheaper than their straight line that can be the first way of least reach from some point
	/// of the block, block b's being reach_way[reach_begin[b] .. reach_begin[b + 1]) (every other
	/// such way is farther from each point of the block than one of these); none listed: not known.
	/// A query then knows its least reach exactly without searching the grid.
	const int32_t *reach_begin, *reach_way;
	/// Optional (NULL: none), with the grid: per way i, every way cheaper than its straight line,
	/// nearest first by the distance from exit[i] to its entrance plus its cost (ties in any order):
	/// way i's are next_way[next_begin[i] .. next_begin[i + 1]). A search then reads the ways from
	/// a settled way's exit in that order instead of the grid's squares around it.
	const int32_t *next_begin, *next_way;
	/// Optional (NULL: none), with the grid: per block b of the gap table, its first_listed nearest
	/// ways cheaper than their straight line by distance from the block to their entrance plus their
	/// cost, nearest first: first_way[b * first_listed + k] (-1 past the last), each with a lower
	/// bound of that reach from any point of the block in first_reach[b * (first_listed + 1) + k]
	/// and, at k = first_listed, one of every way not listed (+infinity: none). A search reads
	/// them from q before the squares around it. first_way, first_reach and first_listed > 0 together.
	const int32_t* first_way;
	const float* first_reach;
	int first_listed;
} gtShortcuts;

/// Object sides (gtDistance.side_fill): makes the side of target `to` in `side` (side_bytes of room,
/// 64-aligned); false, the memory untouched, when it cannot (the world then prices `to` the usual
/// way). `made`: the memory holds a side made under the same side_key before (for this target before it moved, or another),
/// which the function may undo cheaply; false: it holds anything.
typedef bool gtDistanceSideFillFcn(void* context, gtVec2 to, void* side, bool made);
/// `below` (or `hidden_below` when `hidden`: the world knows the two do not see each other, as
/// there) for a target `to` whose side is `side`: the very same double. It may complete the side as
/// it goes (what it learns of `to` for one source holds for the next).
typedef double gtDistanceSideBelowFcn(void* context, gtVec2 from, gtVec2 to, void* side, double limit, bool hidden);

typedef struct gtDistance {
	gtDistanceFcn* fcn;
	void* context;
	gtDistanceBelowFcn* below;    ///< optional: NULL means fcn answers every call
	const gtShortcuts* shortcuts; ///< optional: NULL means the straight line is a lower bound
	/// optional: when set, two points no blocked cell of this map touches the segment between are
	/// exactly hypot(dx, dy) apart (fcn's double), so a world may answer them without a call; with
	/// shortcuts, unless a walk through them is shorter (the world checks that with their bound)
	const gtMap* straight_map;
	/// optional, with straight_map: `below` for two points whose segment crosses a blocked cell of
	/// straight_map (so they do not see each other), which may skip its own test of the straight line;
	/// also for two points that every walk on walk_map between is longer than the line (the world's
	/// walk bound says so), which do not see each other either
	gtDistanceBelowFcn* hidden_below;
	/// optional: when set, fcn's distance between two points is at least the shortest walk between
	/// them through this map's free cells (no links), so a world may bound it from the map
	const gtMap* walk_map;
	/// Optional (side_fill NULL: none), object sides: the part of every distance to a target that
	/// depends on the target alone, made once (side_bytes each) and kept by the world for a few
	/// objects that many queries price while they stand still (a kNN query's few matching objects:
	/// most queries between two moves price them); a pricing through the side (side_below) is
	/// cheaper. The world makes a side at an object's first pricing since it last moved, keeps a
	/// few within a small budget, and uses them on the world's own thread only (not a batch's
	/// workers). side_key, nonzero, names what sides are made from (the EHL backend: its index):
	/// a side made under another key is never used, so a new one must come with anything that would
	/// change a side (another index, another map). side_context: what the side functions take; the
	/// world uses sides only while it is `context`, so a wrapper that puts its own context in front
	/// of a backend's distance (copying the rest) turns them off unless it passes them on too.
	size_t side_bytes;
	uint64_t side_key;
	void* side_context;
	gtDistanceSideFillFcn* side_fill;
	gtDistanceSideBelowFcn* side_below;
} gtDistance;

/// Straight-line distance. Path distances come from a navigation query: gtNavQuery_WorldDistance.
gtDistance gtDistance_Euclid(void);

/// The lower bound the world's queries take for a distance that walks on `map` (gtDistance.walk_map)
/// from one point to another: never above the shortest walk between them (docs/grid-tree.md),
/// infinite when no walk leads there (the queries drop such objects unpriced). 0
/// when the world keeps none for that map (made from other cells, or edited since) or a point is
/// in no free cell. For tests and tools.
double gtWorld_WalkBound(const gtWorld* world, const gtMap* map, gtVec2 from, gtVec2 to);

//------------------------------------------------------------------------------------------------
// Queries

/// What a traversal did with a tree node (for debug drawing): see gtQuery.trace.
typedef enum gtTraceEvent {
	GT_TRACE_POPPED = 1,          ///< taken from the queue and expanded
	GT_TRACE_PRUNED_KEYWORDS = 2, ///< skipped: no object below can have the keywords
	GT_TRACE_PRUNED_DISTANCE = 3  ///< skipped: its lower bound cannot beat the answer
} gtTraceEvent;

typedef void gtTraceFcn(void* context, gtTraceEvent event, int level, const double rect[4]);

/// What a query asks for. Keyword lists hold ids; -1 stands for an unknown word (which no object
/// has), so an all-of query containing one matches nothing. Each -1 counts as one distinct word
/// (gtWorld_Top charges miss_cost for each), so name every unknown word once.
typedef struct gtQuery {
	gtVec2 point;
	int k;                   ///< nearest: how many results (0 returns none)
	double radius;           ///< within: objects with distance <= radius
	const int32_t* keywords; ///< Q
	int keyword_count;
	int min_match;      ///< at least this many distinct words of Q; < 0 means all of them
	const int32_t* any; ///< if given: at least one of these
	int any_count;
	const int32_t* none; ///< none of these
	int none_count;
	bool use_region; ///< only objects inside the closed rectangle region[0..3] = x0 y0 x1 y1
	double region[4];
	double miss_cost;  ///< gtWorld_Top: score = distance + miss_cost * (query words the object lacks)
	gtTraceFcn* trace; ///< optional: told about every node popped or pruned (tree traversals)
	void* trace_context;
	/// Objects the query skips as if they did not match (e.g. the asking agent itself), so k
	/// answers still come back when there are k others. Any order; ids of other worlds or removed
	/// objects skip nothing. Each tested object is compared with every entry: keep it short.
	const gtObjectId* exclude;
	int exclude_count;
} gtQuery;

/// k 1, radius +inf, no keywords, min_match -1 (all; 0 for gtWorld_Top), no region, miss_cost 20,
/// nothing excluded.
gtQuery gtQuery_Default(gtVec2 point);

typedef struct gtQueryStats {
	int64_t nodes_popped;
	int64_t objects_tested; ///< objects whose keywords and region were checked
	int64_t distance_calls;
} gtQueryStats;

/// Up to `capacity` results sorted by distance; objects at infinite distance are never returned.
/// Deterministic: equal distances (compared exactly, as doubles) are ordered by ascending object
/// id, the k-th place too, in every query of this header, the straight-line ones included; the
/// same objects and queries give the same answer from every run, batch worker count and binding.
gtStatus gtWorld_Nearest(gtWorld* world, const gtQuery* query, gtDistance distance, gtObjectId* ids, double* distances,
                         int capacity, int* count, gtQueryStats* stats, gtError* err);
/// Every matching object within query->radius, sorted by distance, ties by ascending id. When more than `capacity`
/// match, `*count` receives the total and GT_ERR_BUFFER_TOO_SMALL is returned.
gtStatus gtWorld_Within(gtWorld* world, const gtQuery* query, gtDistance distance, gtObjectId* ids, double* distances,
                        int capacity, int* count, gtQueryStats* stats, gtError* err);

/// Scored top-k: the k objects with the lowest score = path distance + miss_cost * the number of
/// distinct query words they lack (so a missing tag counts like that many map units of extra
/// walking), ties by ascending id. min_match < 0 means 0 here: every object is a candidate unless the
/// caller asks for more. `scores` receives the scores.
gtStatus gtWorld_Top(gtWorld* world, const gtQuery* query, gtDistance distance, gtObjectId* ids, double* scores,
                     int capacity, int* count, gtQueryStats* stats, gtError* err);
/// Top-k by the weighted score of the spatial-keyword literature, alpha in (0, 1]:
///     score = alpha * distance + (1 - alpha) * query->miss_cost * missing / words
/// with `words` the query's distinct words (unknown ones included) and `missing` those the object
/// lacks: query->miss_cost is what lacking every word costs (the binding and the demo use 100 map
/// units). The same order as gtWorld_Top with a miss cost per word scaled to it; `scores` receives
/// these scores. GT_ERR_INVALID_ARG for an alpha out of range.
gtStatus gtWorld_TopWeighted(gtWorld* world, const gtQuery* query, double alpha, gtDistance distance, gtObjectId* ids,
                             double* scores, int capacity, int* count, gtQueryStats* stats, gtError* err);

//------------------------------------------------------------------------------------------------
// Straight-line queries

/// Straight-line (Euclidean) nearest and within queries, e.g. for hearing or messaging ranges:
/// the leaf grid is scanned outwards from the query's leaf in order of a precomputed table of
/// cell offsets sorted by their minimum distance (Brodu's query-sphere indexing), stopping as soon
/// as no farther cell can qualify. Same filters and results as gtWorld_Nearest/Within with
/// gtDistance_Euclid(); nodes_popped counts the leaves visited.
gtStatus gtWorld_NearestEuclid(gtWorld* world, const gtQuery* query, gtObjectId* ids, double* distances, int capacity,
                               int* count, gtQueryStats* stats, gtError* err);
gtStatus gtWorld_WithinEuclid(gtWorld* world, const gtQuery* query, gtObjectId* ids, double* distances, int capacity,
                              int* count, gtQueryStats* stats, gtError* err);

#ifdef __cplusplus
}
#endif

#endif
