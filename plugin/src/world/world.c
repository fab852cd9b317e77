// Grid Tree world: objects, handles, the implicit quadtree and its exact counts (docs/algorithms.md 6.2-6.5).
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/status.h"
#include "map/map_internal.h"
#include "world/world_internal.h"
#include "world/world_sides.h"

gtWorldDef gtWorld_DefaultDef(void)
{
	gtWorldDef def = {16, 1024, INT64_C(8) << 20};
	return def;
}

#define SLOT_MASK ((UINT64_C(1) << GT_OBJECT_ID_SLOT_BITS) - 1)
#define ID_BITS (GT_OBJECT_ID_SLOT_BITS + GT_OBJECT_ID_GENERATION_BITS + GT_OBJECT_ID_TAG_BITS)

// The slot of an id (UINT32_MAX for the null id: no world has that many slots).
static uint32_t slot_of(gtObjectId id)
{
	return (uint32_t)(id & SLOT_MASK) - 1u;
}

// An id's bits above the slot: tag and generation together, compared whole with the slot's.
static uint32_t high_of(gtObjectId id)
{
	return (uint32_t)(id >> GT_OBJECT_ID_SLOT_BITS);
}

#define GENERATION_MASK ((1u << GT_OBJECT_ID_GENERATION_BITS) - 1)
#define TAG_COUNT (1u << GT_OBJECT_ID_TAG_BITS)

// World tags (gtObjectId): one bit per tag in use. Atomic, as worlds may be created on any thread.
static atomic_uint_least64_t tags_in_use[TAG_COUNT / 64];
static atomic_uint tag_cursor;

// The next free tag after the cursor (round-robin, so a tag just freed is the last to be reused),
// or a shared one when all are taken.
static uint32_t acquire_tag(bool* owned)
{
	uint32_t start = atomic_fetch_add(&tag_cursor, 1u);
	for (uint32_t i = 0; i < TAG_COUNT; i++) {
		uint32_t tag = (start + i) % TAG_COUNT;
		uint_least64_t bit = (uint_least64_t)1 << (tag % 64);
		if (!(atomic_fetch_or(&tags_in_use[tag / 64], bit) & bit)) {
			*owned = true;
			return tag;
		}
	}
	*owned = false;
	return start % TAG_COUNT;
}

static void release_tag(uint32_t tag)
{
	atomic_fetch_and(&tags_in_use[tag / 64], ~((uint_least64_t)1 << (tag % 64)));
}

bool gtWorld_IsValid(const gtWorld* w, gtObjectId id)
{
	uint32_t slot = slot_of(id), high = high_of(id);
	return (id >> ID_BITS) == 0 && slot < (uint32_t)w->capacity && (high & 1) && w->generation[slot] == high;
}

static gtStatus check_id(const gtWorld* w, gtObjectId id, gtError* err)
{
	if (gtWorld_IsValid(w, id)) return GT_OK;
	return gt_fail(err, GT_ERR_INVALID_ARG, "object id %llu is stale or was never issued", (unsigned long long)id);
}

static gtStatus check_point(const gtWorld* w, gtVec2 p, gtError* err)
{
	gtPointCheck c = gtMap_CheckPoint(w->map, p);
	if (c == GT_POINT_VALID) return GT_OK;
	return gt_fail(err, GT_ERR_INVALID_POINT, "(%g, %g): %s", p.x, p.y, gtPointCheckName(c));
}

// Leaf column or row of a coordinate: boundaries go to the larger index, the far border to the
// last leaf. The candidate from a multiplication is corrected against the exact leaf bounds.
static int64_t leaf_index(double v, const double* bounds, double inverse, int height)
{
	int64_t side = INT64_C(1) << height;
	double guess = v * inverse; // clamped as a double: converting a huge value to int64 is undefined
	int64_t i = guess >= (double)(side - 1) ? side - 1 : guess > 0 ? (int64_t)guess : 0;
	while (v < bounds[i]) i--;      // bounds[0] is -inf
	while (v >= bounds[i + 1]) i++; // bounds[side] is +inf
	return i;
}

// Whether a point belongs to `leaf` (the rule of leaf_index, without searching).
static inline bool in_leaf(const gtWorld* w, int32_t leaf, gtVec2 p)
{
	int32_t ix = leaf & ((1 << w->height) - 1), iy = leaf >> w->height;
	return p.x >= w->leaf_x[ix] && p.x < w->leaf_x[ix + 1] && p.y >= w->leaf_y[iy] && p.y < w->leaf_y[iy + 1];
}

int32_t leaf_of_point(const gtWorld* w, double x, double y)
{
	int64_t side = INT64_C(1) << w->height;
	return (int32_t)(leaf_index(y, w->leaf_y, w->inverse_y, w->height) * side +
	                 leaf_index(x, w->leaf_x, w->inverse_x, w->height));
}

bool gt_scratch_init(const gtWorld* w, gtQueryScratch* s)
{
	memset(s, 0, sizeof *s);
	if (w->plane_limit == 0 || w->plane_stride > GT_QUERY_PLANE_WORDS) return true;
	s->plane = gt_malloc((size_t)w->plane_stride * sizeof *s->plane);
	return s->plane != NULL;
}

void gt_scratch_free(gtQueryScratch* s)
{
	gt_free(s->frontier.items);
	gt_free(s->results);
	gt_free(s->words);
	gt_free(s->unissued);
	gt_free(s->plane);
	gt_free(s->ways);
	gt_free(s->search.stamp), gt_free(s->search.reach), gt_free(s->search.open), gt_free(s->search.cursors);
	gt_free(s->sources);
	gt_free(s->ring_leaves);
	gt_free(s->priced);
	memset(s, 0, sizeof *s);
}

gtStatus gtWorld_Create(const gtMap* map, const gtWorldDef* def, gtWorld** out, gtError* err)
{
	*out = NULL;
	gtWorldDef defaults = gtWorld_DefaultDef();
	if (!def) def = &defaults;
	if (def->leaf_size < 1 || def->leaf_size > GT_WORLD_MAX_LEAF_SIZE)
		return gt_fail(err, GT_ERR_INVALID_ARG, "leaf size %d is outside 1..%d", def->leaf_size,
		               GT_WORLD_MAX_LEAF_SIZE);
	if (def->capacity < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "capacity must be >= 0");
	if (def->keyword_bitmap_bytes < 0 || def->keyword_bitmap_bytes > GT_WORLD_MAX_BITMAP_BYTES)
		return gt_fail(err, GT_ERR_INVALID_ARG, "keyword_bitmap_bytes %lld is outside 0..%lld",
		               (long long)def->keyword_bitmap_bytes, (long long)GT_WORLD_MAX_BITMAP_BYTES);
	// The sides' budget reads the L2 size (sysfs files) once a process: here, not in the first query.
	(void)gt_sides_working();
	gtWorld* w = gt_calloc(1, sizeof *w);
	if (!w) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	w->map = map;
	w->tag = acquire_tag(&w->owns_tag) << GT_OBJECT_ID_GENERATION_BITS;
	w->width = gtMap_Width(map);
	w->height_units = gtMap_Height(map);
	while ((double)def->leaf_size * (double)(INT64_C(1) << w->height) < fmax(w->width, w->height_units)) w->height++;
	w->node_count = gt_level_offset(w->height + 1);
	for (int level = 0; level <= w->height && level < 16; level++) {
		w->step_x[level] = w->width / (double)(INT64_C(1) << level);
		w->step_y[level] = w->height_units / (double)(INT64_C(1) << level);
	}
	w->inverse_x = 1.0 / w->step_x[w->height < 16 ? w->height : 15];
	w->inverse_y = 1.0 / w->step_y[w->height < 16 ? w->height : 15];
	if (w->height > GT_MAX_HEIGHT) { // node ids and levels share 32 bits in the query heap
		int height = w->height;
		gtWorld_Destroy(w);
		return gt_fail(err, GT_ERR_LIMIT,
		               "leaf size %d makes a tree of height %d on this map; use a leaf size of at least %d",
		               def->leaf_size, height,
		               (int)ceil(fmax(gtMap_Width(map), gtMap_Height(map)) / (double)(1 << GT_MAX_HEIGHT)));
	}
	int64_t leaves = INT64_C(1) << (2 * w->height), side = INT64_C(1) << w->height;
	w->leaf_x = gt_malloc((size_t)(side + 1) * sizeof *w->leaf_x);
	w->leaf_y = gt_malloc((size_t)(side + 1) * sizeof *w->leaf_y);
	if (w->leaf_x && w->leaf_y)
		for (int64_t i = 0; i <= side; i++) { // leaf bounds: boundaries go to the larger index
			w->leaf_x[i] = i == 0 ? -INFINITY : i == side ? INFINITY : (double)i * w->step_x[w->height];
			w->leaf_y[i] = i == 0 ? -INFINITY : i == side ? INFINITY : (double)i * w->step_y[w->height];
		}
	w->plane_stride = (w->node_count + 63) / 64;
	int64_t planes = def->keyword_bitmap_bytes / (w->plane_stride * (int64_t)sizeof *w->planes);
	w->plane_limit = planes < INT32_MAX ? (int32_t)planes : INT32_MAX;
	w->object_counts = gt_calloc((size_t)w->node_count, sizeof *w->object_counts);
	w->node_words = gt_calloc((size_t)w->node_count, sizeof *w->node_words);
	w->leaf_head = gt_malloc((size_t)leaves * sizeof *w->leaf_head);
	if (w->height <= GT_ROWS_HEIGHT) w->leaf_rows = gt_calloc((size_t)side, sizeof *w->leaf_rows);
	w->leaf_counted = gt_calloc((size_t)leaves, sizeof *w->leaf_counted);
	w->free_head = -1;
	if (!gt_scratch_init(w, &w->scratch) || !w->leaf_counted || !w->object_counts || !w->node_words || !w->leaf_head ||
	    (w->height <= GT_ROWS_HEIGHT && !w->leaf_rows) || !w->leaf_x || !w->leaf_y ||
	    !gt_counts_init(&w->keyword_counts, 4096)) {
		long long nodes = (long long)w->node_count; // read before the world is freed
		gtWorld_Destroy(w);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for a tree of %lld nodes", nodes);
	}
	for (int64_t i = 0; i < leaves; i++) w->leaf_head[i] = -1;
	w->scratch.sides = &w->sides;             // a batch worker's scratch has none
	gt_clearance_build(&w->clearance, map);   // optional: without it every candidate is priced
	gt_walk_bound_build(&w->walk_bound, map); // optional: without it keys are straight lines
	gt_ring_build(w);                         // optional: without it queries take the tree or the scan
	*out = w;
	return GT_OK;
}

void gtWorld_Destroy(gtWorld* w)
{
	if (!w) return;
	if (w->owns_tag) release_tag(w->tag >> GT_OBJECT_ID_GENERATION_BITS);
	gt_clearance_free(&w->clearance);
	gt_walk_bound_free(&w->walk_bound);
	for (int32_t s = 0; s < w->capacity; s++) gt_free(w->keywords[s]);
	gt_free(w->keywords);
	gt_free(w->keyword_count);
	gt_free(w->keyword_capacity);
	gt_free(w->x);
	gt_free(w->y);
	gt_free(w->leaf);
	gt_free(w->next);
	gt_free(w->prev);
	gt_free(w->generation);
	gt_free(w->clear);
	gt_free(w->walk_group);
	gt_free(w->moved);
	gt_sides_free(&w->sides);
	gt_free(w->object_counts);
	gt_free(w->node_words);
	gt_free(w->planes);
	gt_free(w->leaf_x);
	gt_free(w->leaf_y);
	gt_free(w->object_words);
	gt_free(w->spill_words);
	gt_free(w->leaf_head);
	gt_free(w->leaf_rows);
	gt_free(w->leaf_counted);
	gt_scratch_free(&w->scratch);
	gt_free(w->words_new);
	gt_free(w->words_old);
	gt_free(w->sphere);
	gt_free(w->ring);
	gt_counts_free(&w->keyword_counts);
	gt_vocab_free(&w->vocabulary);
	gt_free(w);
}

// A new keyword id gets its presence plane (all clear: nothing has the word yet). When the planes
// cannot grow, no later id gets one: those words are tested through the counts instead.
static void add_plane(gtWorld* w)
{
	if (w->plane_words == w->plane_capacity) {
		int64_t cap = w->plane_capacity < 16 ? 16 : 2 * (int64_t)w->plane_capacity;
		if (cap > w->plane_limit) cap = w->plane_limit;
		if (!GT_RESIZE(w->planes, cap * w->plane_stride)) {
			w->plane_limit = w->plane_words;
			return;
		}
		w->plane_capacity = (int32_t)cap;
	}
	memset(w->planes + w->plane_words * w->plane_stride, 0, (size_t)w->plane_stride * sizeof *w->planes);
	w->plane_words++;
}

int32_t gtWorld_Keyword(gtWorld* w, const char* word)
{
	int32_t id = gt_vocab_intern(&w->vocabulary, word);
	if (id >= 0 && id == w->plane_words && id < w->plane_limit) add_plane(w);
	return id;
}

int32_t gtWorld_FindKeyword(const gtWorld* w, const char* word)
{
	return gt_vocab_find(&w->vocabulary, word);
}

const char* gtWorld_KeywordName(const gtWorld* w, int32_t keyword)
{
	return keyword >= 0 && keyword < w->vocabulary.count ? w->vocabulary.words[keyword] : NULL;
}

int32_t gtWorld_KeywordCount(const gtWorld* w)
{
	return w->vocabulary.count;
}

int gtWorld_Count(const gtWorld* w)
{
	return w->live;
}

void gtWorld_TreeSize(const gtWorld* w, int* height, int64_t* nodes)
{
	*height = w->height;
	*nodes = w->node_count;
}

// ---- slots and keyword lists ------------------------------------------------------------------

// An object's cell's clearance (gtWorld.clear): the very value a sight walk would read there.
static uint8_t object_clearance(const gtWorld* w, gtVec2 p)
{
	return w->clearance.r ? (uint8_t)gt_clearance_at(&w->clearance, p.x, p.y) : 0;
}

// An object's walk bound group (gtWorld.walk_group).
static int16_t object_walk_group(const gtWorld* w, gtVec2 p)
{
	return w->walk_bound.lb ? (int16_t)gt_walk_bound_group(&w->walk_bound, p.x, p.y) : -1;
}

static bool grow_slots(gtWorld* w)
{
	const int32_t most = (int32_t)SLOT_MASK; // slot + 1 must fit the id's slot bits
	if (w->capacity >= most) return false;
	int32_t cap = w->capacity ? (w->capacity > most / 2 ? most : w->capacity * 2) : 64;
	if (!GT_RESIZE(w->x, cap) || !GT_RESIZE(w->y, cap) || !GT_RESIZE(w->leaf, cap) || !GT_RESIZE(w->next, cap) ||
	    !GT_RESIZE(w->prev, cap) || !GT_RESIZE(w->generation, cap) || !GT_RESIZE(w->clear, cap) ||
	    !GT_RESIZE(w->walk_group, cap) || !GT_RESIZE(w->keywords, cap) || !GT_RESIZE(w->keyword_count, cap) ||
	    !GT_RESIZE(w->keyword_capacity, cap) || !GT_RESIZE(w->object_words, cap) || !GT_RESIZE(w->spill_words, cap) ||
	    !GT_RESIZE(w->moved, cap) || !gt_sides_reserve(&w->sides, cap))
		return false;
	for (int32_t s = cap - 1; s >= w->capacity; s--) {
		w->generation[s] = w->tag; // generation 0: free
		w->keywords[s] = NULL;
		w->keyword_count[s] = w->keyword_capacity[s] = 0;
		w->object_words[s] = w->spill_words[s] = 0;
		w->moved[s] = 0;
		w->next[s] = w->free_head; // free list runs through `next`
		w->free_head = s;
	}
	w->capacity = cap;
	return true;
}

static gtStatus check_keywords(const gtWorld* w, const int32_t* keywords, int count, gtError* err)
{
	if (count < 0 || (count > 0 && !keywords)) return gt_fail(err, GT_ERR_INVALID_ARG, "bad keyword list");
	for (int i = 0; i < count; i++)
		if (keywords[i] < 0 || keywords[i] >= w->vocabulary.count)
			return gt_fail(err, GT_ERR_INVALID_ARG, "keyword id %d is not a known keyword", keywords[i]);
	return GT_OK;
}

// Room for `count` keywords in the slot's list (grown only when a longer list arrives).
static gtStatus reserve_keywords(gtWorld* w, int32_t slot, int count, gtError* err)
{
	if (w->keyword_capacity[slot] < count) {
		int32_t* grown = gt_malloc((size_t)count * sizeof *grown);
		if (!grown) return gt_fail(err, GT_ERR_NOMEM, "out of memory for %d keywords", count);
		if (w->keyword_count[slot] > 0)
			memcpy(grown, w->keywords[slot], (size_t)w->keyword_count[slot] * sizeof *grown);
		gt_free(w->keywords[slot]);
		w->keywords[slot] = grown;
		w->keyword_capacity[slot] = count;
	}
	return GT_OK;
}

static int sorted_distinct(const int32_t* in, int count, int32_t* out)
{
	if (count == 0) return 0;
	memcpy(out, in, (size_t)count * sizeof *out);
	qsort(out, (size_t)count, sizeof *out, gt_compare_int32);
	int n = 0;
	for (int i = 0; i < count; i++)
		if (n == 0 || out[n - 1] != out[i]) out[n++] = out[i];
	return n;
}

// ---- tree bookkeeping --------------------------------------------------------------------------

static void link(gtWorld* w, int32_t slot, int32_t leaf)
{
	w->leaf[slot] = leaf;
	w->prev[slot] = -1;
	w->next[slot] = w->leaf_head[leaf];
	if (w->leaf_head[leaf] >= 0) w->prev[w->leaf_head[leaf]] = slot;
	else if (w->leaf_rows) w->leaf_rows[leaf >> w->height] |= UINT64_C(1) << (leaf & ((1 << w->height) - 1));
	w->leaf_head[leaf] = slot;
}

static void unlink_slot(gtWorld* w, int32_t slot)
{
	int32_t leaf = w->leaf[slot];
	if (w->prev[slot] >= 0) w->next[w->prev[slot]] = w->next[slot];
	else w->leaf_head[leaf] = w->next[slot];
	if (w->next[slot] >= 0) w->prev[w->next[slot]] = w->prev[slot];
	if (w->leaf_head[leaf] < 0 && w->leaf_rows)
		w->leaf_rows[leaf >> w->height] &= ~(UINT64_C(1) << (leaf & ((1 << w->height) - 1)));
}

// The signature of the keywords without a plane among a sorted list (they come last).
static uint64_t spill_mask(const gtWorld* w, const int32_t* keywords, int count)
{
	uint64_t bits = 0;
	for (int i = count - 1; i >= 0 && keywords[i] >= w->plane_words; i--) bits |= gt_word_bit(keywords[i]);
	return bits;
}

// Recomputes the keyword signatures of a leaf (from its objects) and of its ancestors (the OR of
// their children), stopping where nothing changed: call after the leaf's objects or their
// keywords changed.
static void refresh_words(gtWorld* w, int32_t leaf)
{
	uint64_t bits = 0;
	for (int32_t s = w->leaf_head[leaf]; s >= 0; s = w->next[s]) bits |= w->spill_words[s];
	int64_t node = gt_level_offset(w->height) + leaf;
	for (int level = w->height;; level--) {
		if (w->node_words[node] == bits) return; // then nothing above changes either
		w->node_words[node] = bits;
		if (level == 0) return;
		int64_t row = INT64_C(1) << level;
		int64_t first = gt_level_offset(level) + ((node - gt_level_offset(level)) & ~(row | 1)); // top-left sibling
		bits = w->node_words[first] | w->node_words[first + 1] | w->node_words[first + row] |
		       w->node_words[first + row + 1];
		node = gt_parent(level, node);
	}
}

// An object with keyword bits `bits` joined the leaf: the signatures only gain bits (no rescan).
static void add_words(gtWorld* w, int32_t leaf, uint64_t bits)
{
	int64_t node = gt_level_offset(w->height) + leaf;
	for (int level = w->height;; level--) {
		if ((w->node_words[node] & bits) == bits) return; // then every ancestor has them too
		w->node_words[node] |= bits;
		if (level == 0) return;
		node = gt_parent(level, node);
	}
}

// Presence planes up the tree. A leaf's bit follows its count (next function); a parent's bit is
// the OR of its children's, so a set climbs until a bit is already set, and a clear climbs while
// no sibling keeps the word.
static void plane_set_up(gtWorld* w, int64_t node, int32_t keyword)
{
	uint64_t* plane = w->planes + keyword * w->plane_stride;
	for (int level = w->height;; level--) {
		uint64_t bit = UINT64_C(1) << (node & 63);
		if (plane[node >> 6] & bit) return; // and every ancestor has it too
		plane[node >> 6] |= bit;
		if (level == 0) return;
		node = gt_parent(level, node);
	}
}

static void plane_clear_up(gtWorld* w, int64_t node, int32_t keyword)
{
	uint64_t* plane = w->planes + keyword * w->plane_stride;
	for (int level = w->height;; level--) {
		plane[node >> 6] &= ~(UINT64_C(1) << (node & 63));
		if (level == 0) return;
		int64_t local = node - gt_level_offset(level), row = INT64_C(1) << level;
		int64_t first = gt_level_offset(level) + (local & ~(row | 1)); // the top-left sibling: even column and row
		node = gt_parent(level, node);
		if (plane_has(plane, first) || plane_has(plane, first + 1) || plane_has(plane, first + row) ||
		    plane_has(plane, first + row + 1))
			return; // a sibling keeps the word here and above
	}
}

// Leaves with many objects count their planes' keywords; the rest find out by looking at their
// objects whether a keyword is still there. Most leaves hold a few objects: no hash lookup per
// keyword of a move, and a crowded leaf never scans more than CROWDED objects.
enum { CROWDED = 32, SPARSE = 16 };

// Whether an object of the leaf other than `except` has the keyword.
static bool leaf_has(const gtWorld* w, int32_t leaf, int32_t keyword, int32_t except)
{
	uint64_t bit = gt_word_bit(keyword);
	for (int32_t s = w->leaf_head[leaf]; s >= 0; s = w->next[s])
		if (s != except && (w->object_words[s] & bit) && gt_object_has(w, s, keyword)) return true;
	return false;
}

// An object's keywords joined (delta +1) or left (-1) a leaf: its counts, and the planes' bits
// when a keyword appears or disappears there. The object's slot is `except` when it is still
// listed in the leaf (a keyword change); a moving or removed object is already unlinked.
static void count_leaf(gtWorld* w, int32_t leaf, const int32_t* keywords, int count, int32_t delta, int32_t except)
{
	int64_t node = gt_level_offset(w->height) + leaf;
	bool counted = w->leaf_counted[leaf];
	for (int i = 0; i < count; i++) {
		int32_t keyword = keywords[i];
		if (keyword >= w->plane_words || counted) {
			int32_t after = gt_counts_add(&w->keyword_counts, (uint32_t)node, keyword, delta); // room was reserved
			if (keyword >= w->plane_words || (after != 0 && after != delta)) continue;
			if (after) plane_set_up(w, node, keyword);
			else plane_clear_up(w, node, keyword);
		} else if (delta > 0) {
			plane_set_up(w, node, keyword);
		} else if (!leaf_has(w, leaf, keyword, except)) {
			plane_clear_up(w, node, keyword);
		}
	}
}

// After the leaf's population changed: a leaf that became crowded starts counting its planes'
// keywords (when the table can grow; otherwise it keeps looking at its objects, which is still
// exact), and one that became sparse drops those counts.
static void update_crowding(gtWorld* w, int32_t leaf)
{
	int64_t node = gt_level_offset(w->height) + leaf;
	int32_t population = w->object_counts[node];
	bool counted = w->leaf_counted[leaf];
	if (counted ? population > SPARSE : population < CROWDED) return;
	size_t words = 0;
	for (int32_t s = w->leaf_head[leaf]; s >= 0; s = w->next[s]) words += (size_t)w->keyword_count[s];
	if (!counted && !gt_counts_reserve(&w->keyword_counts, words)) return;
	for (int32_t s = w->leaf_head[leaf]; s >= 0; s = w->next[s])
		for (int i = 0; i < w->keyword_count[s] && w->keywords[s][i] < w->plane_words; i++)
			gt_counts_add(&w->keyword_counts, (uint32_t)node, w->keywords[s][i], counted ? -1 : +1);
	w->leaf_counted[leaf] = !counted;
}

// The same for an inner node: only words without a plane are counted there.
static void count_inner(gtWorld* w, int64_t node, const int32_t* keywords, int count, int32_t delta)
{
	w->object_counts[node] += delta;
	for (int i = count - 1; i >= 0 && keywords[i] >= w->plane_words; i--) // sorted: those come last
		gt_counts_add(&w->keyword_counts, (uint32_t)node, keywords[i], delta);
}

static void count_path(gtWorld* w, int32_t leaf, const int32_t* keywords, int count, int32_t delta)
{
	int64_t node = gt_level_offset(w->height) + leaf;
	w->object_counts[node] += delta;
	count_leaf(w, leaf, keywords, count, delta, -1);
	update_crowding(w, leaf);
	for (int level = w->height; level > 0; level--) {
		node = gt_parent(level, node);
		count_inner(w, node, keywords, count, delta);
	}
}

static bool reserve_counts(gtWorld* w, int keywords)
{
	return gt_counts_reserve(&w->keyword_counts, (size_t)keywords * (size_t)(w->height + 1));
}

// ---- public updates ------------------------------------------------------------------------------

gtStatus gtWorld_Add(gtWorld* w, gtVec2 p, const int32_t* keywords, int count, gtObjectId* out, gtError* err)
{
	*out = 0;
	gtStatus st = check_point(w, p, err);
	if (st) return st;
	if (w->free_head < 0 && w->capacity >= (int32_t)SLOT_MASK)
		return gt_fail(err, GT_ERR_LIMIT, "a world holds at most %d objects", (int)SLOT_MASK);
	if (w->free_head < 0 && !grow_slots(w)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for objects");
	int32_t slot = w->free_head;
	st = check_keywords(w, keywords, count, err);
	if (!st) st = reserve_keywords(w, slot, count, err);
	if (st) return st;
	if (!reserve_counts(w, count)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for keyword counts");
	w->free_head = w->next[slot];
	if (slot >= w->slots_used) w->slots_used = slot + 1; // the free list hands out low slots first
	w->keyword_count[slot] = sorted_distinct(keywords, count, w->keywords[slot]);
	w->object_words[slot] = gt_words_mask(w->keywords[slot], w->keyword_count[slot]);
	w->spill_words[slot] = spill_mask(w, w->keywords[slot], w->keyword_count[slot]);
	w->x[slot] = p.x;
	w->y[slot] = p.y;
	w->moved[slot]++; // the slot's earlier object's side is void
	w->clear[slot] = object_clearance(w, p);
	w->walk_group[slot] = object_walk_group(w, p);
	w->generation[slot]++; // odd: live
	int32_t leaf = leaf_of_point(w, p.x, p.y);
	link(w, slot, leaf);
	count_path(w, leaf, w->keywords[slot], w->keyword_count[slot], +1);
	add_words(w, leaf, w->spill_words[slot]);
	w->live++;
	*out = gt_slot_id(w, slot);
	return GT_OK;
}

gtStatus gtWorld_Remove(gtWorld* w, gtObjectId id, gtError* err)
{
	gtStatus st = check_id(w, id, err);
	if (st) return st;
	int32_t slot = (int32_t)slot_of(id);
	unlink_slot(w, slot);
	count_path(w, w->leaf[slot], w->keywords[slot], w->keyword_count[slot], -1);
	if (w->spill_words[slot]) refresh_words(w, w->leaf[slot]);
	w->live--;
	if ((w->generation[slot] & GENERATION_MASK) == GENERATION_MASK) {
		// The slot's last generation: retire it (never reused) rather than let the generation wrap
		// and make an old id valid again. It keeps its arrays' entries; its keyword list goes.
		w->generation[slot] &= ~1u; // even: dead
		gt_free(w->keywords[slot]);
		w->keywords[slot] = NULL;
		w->keyword_count[slot] = w->keyword_capacity[slot] = 0;
		w->object_words[slot] = w->spill_words[slot] = 0;
		return GT_OK;
	}
	w->generation[slot]++; // even: free, and every id naming the old generation is stale
	w->next[slot] = w->free_head;
	w->free_head = slot;
	return GT_OK;
}

// Moves a slot whose new point is already checked; `stays` says whether it is in the slot's leaf.
static void move_slot(gtWorld* w, int32_t slot, gtVec2 p, bool stays)
{
	w->x[slot] = p.x;
	w->y[slot] = p.y;
	w->moved[slot]++; // its side, if kept, is void
	w->clear[slot] = object_clearance(w, p);
	w->walk_group[slot] = object_walk_group(w, p);
	if (stays) return; // the O(1) case, most moves
	int32_t from = w->leaf[slot];
	int32_t to = leaf_of_point(w, p.x, p.y);
	unlink_slot(w, slot);
	link(w, slot, to);
	// The new leaf first: its planes' climbs stop where the old path still has the word, and the
	// old leaf's clears then stop where the new path has it. Then both paths up in lock-step until
	// they meet: nothing changes at the common ancestor.
	const int32_t* words = w->keywords[slot];
	int n = w->keyword_count[slot];
	int64_t a = gt_level_offset(w->height) + from, b = gt_level_offset(w->height) + to;
	w->object_counts[b]++;
	w->object_counts[a]--;
	count_leaf(w, to, words, n, +1, -1);
	count_leaf(w, from, words, n, -1, -1);
	update_crowding(w, to);
	update_crowding(w, from);
	for (int level = w->height; a != b; level--) {
		if (level < w->height) {
			count_inner(w, a, words, n, -1);
			count_inner(w, b, words, n, +1);
		}
		a = gt_parent(level, a);
		b = gt_parent(level, b);
	}
	if (w->spill_words[slot]) {
		refresh_words(w, from);
		add_words(w, to, w->spill_words[slot]);
	}
}

gtStatus gtWorld_Move(gtWorld* w, gtObjectId id, gtVec2 p, gtError* err)
{
	gtStatus st = check_id(w, id, err);
	if (!st) st = check_point(w, p, err);
	if (st) return st;
	int32_t slot = (int32_t)slot_of(id);
	bool stays = in_leaf(w, w->leaf[slot], p);
	if (!stays && !reserve_counts(w, w->keyword_count[slot]))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for keyword counts");
	move_slot(w, slot, p, stays);
	return GT_OK;
}

gtStatus gtWorld_MoveMany(gtWorld* w, const gtObjectId* ids, const gtVec2* points, int count, gtError* err)
{
	if (count < 0 || (count > 0 && (!ids || !points))) return gt_fail(err, GT_ERR_INVALID_ARG, "bad arrays");
	enum { AHEAD = 8 }; // cells asked for this many points ahead: each is usually a cache miss
	for (int i = 0; i < count && i < AHEAD; i++) gt_prefetch_cell(w->map, points[i].x, points[i].y);
	for (int i = 0; i < count; i++) {
		if (i + AHEAD < count) gt_prefetch_cell(w->map, points[i + AHEAD].x, points[i + AHEAD].y);
		gtError why; // its own record: formatting err->message into itself is undefined behaviour
		gtStatus st = check_id(w, ids[i], &why);
		if (!st) st = check_point(w, points[i], &why);
		if (st) return gt_fail(err, st, "entry %d: %s", i + 1, why.message);
	}
	for (int i = 0; i < count; i++) {
		int32_t slot = (int32_t)slot_of(ids[i]);
		// Only a move to another leaf adds counts.
		bool stays = in_leaf(w, w->leaf[slot], points[i]);
		if (!stays && !reserve_counts(w, w->keyword_count[slot]))
			return gt_fail(err, GT_ERR_NOMEM, "out of memory for keyword counts");
		move_slot(w, slot, points[i], stays);
	}
	return GT_OK;
}

// One word of an object in place changes at one node of its path (the leaf at level height).
static void change_word(gtWorld* w, int32_t slot, int64_t node, int level, int32_t keyword, int32_t delta)
{
	if (level == w->height) {
		count_leaf(w, w->leaf[slot], &keyword, 1, delta, slot);
	} else if (keyword >= w->plane_words) {
		gt_counts_add(&w->keyword_counts, (uint32_t)node, keyword, delta);
	}
}

gtStatus gtWorld_SetKeywords(gtWorld* w, gtObjectId id, const int32_t* keywords, int count, gtError* err)
{
	gtStatus st = check_id(w, id, err);
	if (!st) st = check_keywords(w, keywords, count, err);
	if (st) return st;
	int32_t slot = (int32_t)slot_of(id);
	int old_count = w->keyword_count[slot];
	int need = (count > old_count ? count : old_count) + 1;
	if (w->words_capacity < need) { // scratch grows once, then keyword changes never allocate
		if (!GT_RESIZE(w->words_new, need) || !GT_RESIZE(w->words_old, need))
			return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		w->words_capacity = need;
	}
	st = reserve_keywords(w, slot, count, err);
	if (!st && !reserve_counts(w, count)) st = gt_fail(err, GT_ERR_NOMEM, "out of memory for keyword counts");
	if (st) return st;
	if (old_count > 0) memcpy(w->words_old, w->keywords[slot], (size_t)old_count * sizeof *w->words_old);
	int n = sorted_distinct(keywords, count, w->words_new);
	// Only the symmetric difference changes along the path.
	int64_t node = gt_level_offset(w->height) + w->leaf[slot];
	for (int level = w->height; level >= 0; level--) {
		for (int i = 0; i < old_count; i++)
			if (!bsearch(&w->words_old[i], w->words_new, (size_t)n, sizeof *w->words_new, gt_compare_int32))
				change_word(w, slot, node, level, w->words_old[i], -1);
		for (int i = 0; i < n; i++)
			if (!bsearch(&w->words_new[i], w->words_old, (size_t)old_count, sizeof *w->words_old, gt_compare_int32))
				change_word(w, slot, node, level, w->words_new[i], +1);
		if (level > 0) node = gt_parent(level, node);
	}
	if (n > 0) memcpy(w->keywords[slot], w->words_new, (size_t)n * sizeof *w->words_new);
	w->keyword_count[slot] = n;
	w->object_words[slot] = gt_words_mask(w->words_new, n);
	uint64_t spill_before = w->spill_words[slot];
	w->spill_words[slot] = spill_mask(w, w->words_new, n);
	if (spill_before || w->spill_words[slot]) refresh_words(w, w->leaf[slot]);
	return GT_OK;
}

gtStatus gtWorld_MoveAndSetKeywords(gtWorld* w, gtObjectId id, gtVec2 p, const int32_t* keywords, int count,
                                    gtError* err)
{
	gtStatus st = check_id(w, id, err);
	if (!st) st = check_point(w, p, err);
	if (!st) st = check_keywords(w, keywords, count, err);
	if (!st) st = gtWorld_SetKeywords(w, id, keywords, count, err); // cannot fail on the move afterwards:
	if (!st) st = gtWorld_Move(w, id, p, err);                      // id and point are already checked
	return st;
}

gtStatus gtWorld_GetPosition(const gtWorld* w, gtObjectId id, gtVec2* p, gtError* err)
{
	gtStatus st = check_id(w, id, err);
	if (st) return st;
	p->x = w->x[slot_of(id)];
	p->y = w->y[slot_of(id)];
	return GT_OK;
}

int gtWorld_GetKeywords(const gtWorld* w, gtObjectId id, const int32_t** keywords)
{
	if (!gtWorld_IsValid(w, id)) return -1;
	*keywords = w->keywords[slot_of(id)];
	return w->keyword_count[slot_of(id)];
}

// ---- validation -----------------------------------------------------------------------------------


// ---- distance modules ------------------------------------------------------------------------------

static double euclid_distance(void* context, gtVec2 from, gtVec2 to)
{
	(void)context;
	return hypot(to.x - from.x, to.y - from.y);
}

gtDistance gtDistance_Euclid(void)
{
	gtDistance d = {.fcn = euclid_distance};
	return d;
}
