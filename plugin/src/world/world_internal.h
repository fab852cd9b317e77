// Grid Tree world layout shared by updates and queries. Internal.
#ifndef GRIDTREE_WORLD_INTERNAL_H
#define GRIDTREE_WORLD_INTERNAL_H

#include "world/count_table.h"
#include "gridtree/gt_world.h"
#include "core/heap.h"
#include "world/keywords.h"
#include "world/world_clearance.h"
#include "world/world_walk_bound.h"

// A way of a query's links' search (world_tree_query.c): its link's ends and cost, and the least a
// walk can have spent when it leaves the link.
typedef struct gtLinkWay {
	double reach, cost;
	gtVec2 entrance, exit;
} gtLinkWay;

// The links' search over the ways' grid (world_links.c, gtShortcuts.grid_begin): a point it walks
// from (the query point, or a settled way's exit at its reach `base`) and the rings of squares
// around it read so far; `bound` is at most base + the distance to any entrance in a square not
// read yet (+infinity once all are), and at least `floor` (-infinity, or the bound of the ways its
// list did not hold). Or, while it reads a list (at a settled way's exit, the way's list of next
// ways, gtShortcuts.next_begin; at q, its block's first ways, gtShortcuts.first_way), the ways
// list[next, end) not read yet: `bound` is at most the reach of the next (from `lows`, the block's
// bounds, when not NULL) or, past the list's end, of every way it did not hold.
typedef struct gtLinkCursor {
	gtVec2 at;
	double base, bound, floor;
	int column, row, ring;
	const int32_t* list;
	const float* lows;
	int32_t next, end; // end < 0: the grid's squares
} gtLinkCursor;
typedef struct gtLinkSearch {
	const gtShortcuts* l;
	uint32_t* stamp; // per way: generation (seen, open) or generation + 1 (settled)
	double* reach;   // per way seen: the least reach found so far
	int32_t* open;
	gtLinkCursor* cursors;
	int32_t capacity, open_count, cursor_count;
	uint32_t generation;
	int32_t least_open, least_cursor; // places in open and cursors (-1: none)
	double open_reach, cursor_bound;  // their reach and bound (+infinity: none)
	bool lowered;                     // a way open before a read got a reach below open_reach
} gtLinkSearch;

// A source of the ring traversal with links (world_tree_query.c): q (base 0) or a settled way's
// exit (base its reach), reading the leaves in rings around its own leaf (hx, hy) by the world's
// ring offsets; `next` is its next offset and next_key that offset's key (+infinity: none left).
typedef struct gtRingSource {
	gtVec2 at;
	double base, next_key;
	int32_t next;
	int hx, hy;
} gtRingSource;
// A leaf a source's ring reached, queued whole at its gap's key (a heap id >= 0 names one):
// its objects are keyed when it comes up.
typedef struct gtRingLeaf {
	int32_t leaf, source;
} gtRingLeaf;

// Object sides (gtDistance.side_fill, world_sides.h): the sides of a few objects that many queries
// price, kept while they stand still. An entry holds the side of `slot` as it was when the slot had
// moved `moved` times (gtWorld.moved), made under the key of `generation` (-1 or 0: its memory
// holds no side of that generation, or none at all).
typedef struct gtSideEntry {
	int32_t slot;
	uint32_t moved, generation;
	bool used; // read since the reuse turn last passed it (gt_side_make)
} gtSideEntry;
typedef struct gtSideMemo {
	uint64_t key;        // the side_key of the distance the entries are made for (0: none)
	uint32_t generation; // bumped whenever the key changes: entries of older generations are void
	size_t bytes;        // one side (the distance's side_bytes)
	int32_t count, next; // entries, and the next one to reuse (in turn)
	// Recent sides made and reads of them (both halved as makes reach GT_SIDE_WINDOW), and the
	// makings refused in a row while reads were too few (world_sides.c).
	uint32_t makes, reads, refused;
	unsigned char* data; // count sides, each at a cache line
	gtSideEntry* entries;
	void* block; // data's allocation
	size_t block_bytes;
	// Per slot: the entry that may hold its side (-1: none; slots of them, grown with the world's).
	int32_t* entry;
	int32_t slots;
} gtSideMemo;

// What a query writes while it runs, grown when needed and reused: the world's own for single
// queries, one per worker for a batch, so queries can run at once while nothing updates the world.
typedef struct gtQueryScratch {
	gtHeap frontier;
	gtHeapItem* results;
	int32_t result_capacity;
	int32_t *words, *unissued; // a query's distinct known words, and ids never issued
	int32_t words_capacity;
	uint64_t* plane; // the AND of an all-of query's planes (plane_stride words); NULL on big trees
	// The traversal's cost model (world_tree_query.c), per query mode and kind of filter: the nodes
	// the tree popped on recent queries, the queries answered by a scan since it last ran, and how
	// often in a row its runs since the last scan left the scan cheaper (it runs again after
	// 16 << scan_backoff scans).
	float tree_nodes[9];
	uint8_t scans_since_tree[9], scan_backoff[9];
	// The clearance squares' walk (world_clearance.h), per cost class and for pricings without and
	// with a limit: the share of recent walks that did not certify sight, and the queries that
	// skipped it since it last ran (it runs again after 16 << sight_backoff, which grows while the
	// retries fail), the queries left before either runs again; this query's walks and those that
	// certified.
	float sight_misses[9][2];
	uint8_t sight_skips[9][2], sight_backoff[9][2], sight_idle[9];
	int32_t sight_tries[2], sight_hits[2];
	// The walk bound's re-keying (world_tree_query.c walk_begin), per cost class: the recent queries'
	// estimated gain (instructions, negative: it cost more than it saved; judged after 16 queries
	// that ran it, walk_runs), the queries that skipped it since it last ran (it runs again after 16 << walk_backoff); this query's lookups, objects
	// re-keyed and those of them priced all the same.
	float walk_gain[9];
	uint8_t walk_skips[9], walk_backoff[9], walk_runs[9];
	int32_t walk_looks, walk_rekeys, walk_repriced;
	// A query's bound through links (world_tree_query.c): the ways, settled then open (Filter).
	gtLinkWay* ways;
	int32_t way_capacity;
	gtLinkSearch search;
	// The ring traversal with links: its sources, and per object slot the generation of the last
	// query that priced it (an object comes from several sources and is priced once).
	gtRingSource* sources;
	int64_t source_capacity;
	gtRingLeaf* ring_leaves;
	int64_t ring_leaf_capacity;
	uint32_t* priced;
	int32_t priced_capacity;
	uint32_t priced_generation;
	// The world's object sides for the world's own scratch; NULL for a batch worker's (its queries
	// run at once with others').
	gtSideMemo* sides;
} gtQueryScratch;

// The quadtree is implicit: level i has 2^i x 2^i nodes in row-major order after all shallower
// levels, so node (i, ix, iy) is (4^i - 1) / 3 + iy * 2^i + ix; leaves are level `height`.
struct gtWorld {
	const gtMap* map;
	int height;
	int64_t node_count;
	double width, height_units; // the map extent
	gtVocabulary vocabulary;
	// (node, keyword) -> objects below the node with that keyword, for keywords without a presence
	// plane, and at crowded leaves (leaf_counted) for every keyword. Elsewhere the planes say all a
	// query needs, and a leaf's few objects say whether a keyword is still there.
	gtCountTable keyword_counts;
	uint64_t* node_words; // per node: the bits (gt_word_bit) of keywords without a plane below it
	// Presence planes, one per keyword id below plane_words: bit n of plane k is set exactly when
	// node n has a non-zero count of k. A query tests a node's word with one bit instead of a
	// signature test and a hash lookup. Memory is bounded (gtWorldDef.keyword_bitmap_bytes): ids
	// beyond the budget, or beyond a failed growth, fall back to node_words and keyword_counts.
	uint64_t* planes;
	int64_t plane_stride; // 64-bit words per plane
	int32_t plane_words, plane_capacity, plane_limit;
	int32_t* object_counts; // per node
	int32_t* leaf_head;     // per leaf: first object slot, -1 when empty
	// per row of leaves on a grid of at most 64 x 64 (else NULL): bit x set exactly when leaf (x, row)
	// holds objects, so the ring walk tests an offset's four mirror leaves with two reads (gt_ring_empty)
	uint64_t* leaf_rows;
	uint8_t* leaf_counted; // per leaf: its planes' keywords are in keyword_counts (a crowded leaf)
	// Objects: struct of arrays indexed by slot.
	int32_t capacity, live, free_head;
	int32_t slots_used; // slots [0, slots_used) have held an object: what a scan of every object reads
	double *x, *y;
	int32_t *leaf, *next, *prev; // next doubles as the free-list link of an unused slot
	uint32_t* generation;   // per slot: its id's bits above the slot (tag and generation, see gtObjectId); odd = live
	uint32_t tag;           // this world's tag, already shifted into place in `generation`
	bool owns_tag;          // false when every tag was taken and this world shares one
	int32_t** keywords;     // sorted, distinct
	uint64_t* object_words; // per slot: its keywords' bits
	uint64_t* spill_words;  // per slot: the bits of its keywords without a plane (0 for most)
	int32_t *keyword_count, *keyword_capacity;
	// per slot: the clearance r of its point's cell (gt_clearance_at; 0 without clearance), set where
	// the point is: a sight walk's read at the object, from an array small enough to stay cached
	// where the clearance map is not (bench-peers AR0602SR at 1%: 664 bytes against 256 KiB)
	uint8_t* clear;
	// per slot: the walk bound's group of its point (gt_walk_bound_group; -1 for none, or without the
	// bound), set where the point is: a scan looks up 2k objects' bounds, and the group map (512 KiB
	// on AR0300SR) is cold when a query starts, where these bytes are not
	int16_t* walk_group;
	// per slot: bumped whenever its object's point is set (added, moved), so a side made for the
	// point before (gtSideMemo) is known void
	uint32_t* moved;
	gtSideMemo sides;
	gtQueryScratch scratch;         // the single queries' (a batch brings one per worker)
	int32_t *words_new, *words_old; // keyword-change scratch
	int32_t words_capacity;
	struct gtSphereOffset* sphere; // straight-line queries: leaf offsets by increasing distance bound
	int64_t sphere_count;
	struct gtRingOffset* ring; // the ring traversal's quadrant offsets by increasing bound (NULL: none)
	int32_t ring_count;
	double step_x[16], step_y[16]; // node size at each level (exact: divisions by powers of two)
	double inverse_x, inverse_y;   // 1 / leaf size: a first guess of a point's leaf
	double *leaf_x, *leaf_y;       // leaf column / row i spans [leaf_x[i], leaf_x[i + 1]); -inf and +inf at the ends
	gtClearance clearance;         // the map's at creation: objects a query point sees need no pricing
	gtWalkBound walk_bound;        // the map's at creation: keys above the straight line (world_walk_bound.h)
};

// The query heap names a node by its index and level together (the level in the top bits).
#define GT_NODE_BITS 27
#define GT_MAX_HEIGHT 12 // (4^13 - 1) / 3 nodes fit in GT_NODE_BITS

typedef struct gtSphereOffset {
	double bound;
	int32_t dx, dy;
} gtSphereOffset;

// The ring traversal's leaf offsets (world_tree_query.c): a quadrant's (dx, dy >= 0) by increasing
// bound, each standing for its four mirror images; `bound` is at most the straight line between a
// point of a leaf and any point of the leaves (+-dx, +-dy) away, rounded down. 8 bytes: a query
// reads a few hundred of them in order. Made with the world, for trees of at most GT_RING_HEIGHT.
typedef struct gtRingOffset {
	float bound;
	uint8_t dx, dy;
} gtRingOffset;
#define GT_RING_HEIGHT 7 // a 128 x 128 quadrant, 128 KiB
bool gt_ring_build(gtWorld* w);

// The walks over the ring (the query's, the links' sources', the crowd's) visit an offset's
// mirror images m = 0 to 3 (bit 0 flips dx, bit 1 dy) around the home leaf (hx, hy) of the
// side x side leaves. The leaf of image m, its column and row in *cx, *cy; -1 when the image is
// another's (a zero offset flipped) or off the grid. Inline: it is the walks' inner loop.
static inline int32_t gt_ring_leaf(gtRingOffset o, int m, int hx, int hy, int side, int* cx, int* cy)
{
	if (((m & 1) && o.dx == 0) || ((m & 2) && o.dy == 0)) return -1;
	int x = m & 1 ? hx - o.dx : hx + o.dx, y = m & 2 ? hy - o.dy : hy + o.dy;
	if ((unsigned)x >= (unsigned)side || (unsigned)y >= (unsigned)side) return -1;
	*cx = x;
	*cy = y;
	return y * side + x;
}
// Whether the leaves of offset o's four mirror images around (hx, hy) on the side x side grid
// (leaf_rows) all hold no object: the columns' bits of the two rows, or of one where the other is
// off the grid. Images off the grid are left out; a zero offset's image is its own.
#define GT_ROWS_HEIGHT 6
static inline bool gt_ring_empty(const uint64_t* rows, gtRingOffset o, int hx, int hy, int side)
{
	int xa = hx + o.dx, xb = hx - o.dx, ya = hy + o.dy, yb = hy - o.dy;
	uint64_t cols = (xa < side ? UINT64_C(1) << xa : 0) | (xb >= 0 ? UINT64_C(1) << xb : 0);
	return (((ya < side ? rows[ya] : 0) | (yb >= 0 ? rows[yb] : 0)) & cols) == 0;
}
// The gaps on x and y between p, in the home leaf (hx, hy), and the leaf (cx, cy): its inner
// edges are finite (it is not the home's column or row on that axis where the gap is not 0).
static inline gtVec2 gt_ring_gap(const gtWorld* w, int cx, int cy, int hx, int hy, gtVec2 p)
{
	double gx = cx > hx ? w->leaf_x[cx] - p.x : cx < hx ? p.x - w->leaf_x[cx + 1] : 0;
	double gy = cy > hy ? w->leaf_y[cy] - p.y : cy < hy ? p.y - w->leaf_y[cy + 1] : 0;
	return (gtVec2){gx, gy};
}

// The id of the object in `slot` (gtObjectId's layout).
static inline gtObjectId gt_slot_id(const gtWorld* w, int32_t slot)
{
	return ((gtObjectId)w->generation[slot] << GT_OBJECT_ID_SLOT_BITS) | (gtObjectId)(slot + 1);
}

static inline int64_t gt_level_offset(int level)
{
	// (4^level - 1) / 3 from a table: the traversal asks for it twice per node it pops.
	static const int64_t offsets[GT_MAX_HEIGHT + 2] = {0,    1,     5,     21,     85,      341,     1365,
	                                                   5461, 21845, 87381, 349525, 1398101, 5592405, 22369621};
	return offsets[level];
}

static inline int64_t gt_node(int level, int64_t ix, int64_t iy)
{
	return gt_level_offset(level) + iy * (INT64_C(1) << level) + ix;
}

// Parent of a node index at `level` (> 0).
static inline int64_t gt_parent(int level, int64_t node)
{
	int64_t local = node - gt_level_offset(level); // >= 0: shifts and masks, not divisions
	return gt_node(level - 1, (local & ((INT64_C(1) << level) - 1)) >> 1, local >> (level + 1));
}

// A 64-bit signature of keyword sets: keyword k sets bit k mod 64. Every object and node keeps the
// signature of its words (a node's is the OR of its children's, kept exact on every update), so a
// query word whose bit is clear is absent without a count-table lookup or a search of the object's
// list; a set bit is confirmed by the exact test.
static inline uint64_t gt_word_bit(int32_t keyword)
{
	return keyword >= 0 ? UINT64_C(1) << (keyword & 63) : 0;
}
static inline uint64_t gt_words_mask(const int32_t* keywords, int count)
{
	uint64_t mask = 0;
	for (int i = 0; i < count; i++) mask |= gt_word_bit(keywords[i]);
	return mask;
}

static inline bool plane_has(const uint64_t* plane, int64_t node)
{
	return (plane[node >> 6] >> (node & 63)) & 1;
}

// Whether some object below the node has the keyword (exact).
static inline bool gt_node_has(const gtWorld* w, int64_t node, int32_t keyword)
{
	if (keyword < w->plane_words) return plane_has(w->planes + keyword * w->plane_stride, node);
	return (w->node_words[node] & gt_word_bit(keyword)) &&
	       gt_counts_get(&w->keyword_counts, (uint32_t)node, keyword) > 0;
}

// Trees of up to this many 64-bit words per plane get a query plane: ANDing a query's planes
// costs at most this much per word, and then each node's test is a single bit.
#define GT_QUERY_PLANE_WORDS 512

// Whether the object in `slot` has `keyword` (its sorted list, binary search). Inline: the
// keyword tests of queries whose words share signature bits call it per candidate.
static inline bool gt_object_has(const gtWorld* w, int32_t slot, int32_t keyword)
{
	const int32_t* k = w->keywords[slot];
	int lo = 0, hi = w->keyword_count[slot] - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (k[mid] == keyword) return true;
		if (k[mid] < keyword) lo = mid + 1;
		else hi = mid - 1;
	}
	return false;
}
// A worker's scratch for this world (its plane sized for the tree); free with gt_scratch_free.
bool gt_scratch_init(const gtWorld* w, gtQueryScratch* s);
void gt_scratch_free(gtQueryScratch* s);
int32_t leaf_of_point(const gtWorld* w, double x, double y);

#endif
