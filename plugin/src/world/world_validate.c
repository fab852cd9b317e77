// The Grid Tree's invariant check: every count and list recomputed from the objects alone.
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/compare.h"
#include "core/status.h"
#include "world/world_internal.h"

// The objects' own fields, and what the tree should count for them: objects per node and
// (node, keyword) counts into `expect`.
static gtStatus recount(const gtWorld* w, gtCountTable* expect, int32_t* objects, int* live, gtError* err)
{
	gtStatus st = GT_OK;
	for (int32_t s = 0; s < w->capacity && !st; s++) {
		if (!(w->generation[s] & 1)) continue;
		++*live;
		if (w->leaf[s] != leaf_of_point(w, w->x[s], w->y[s]))
			st = gt_fail(err, GT_ERR_FORMAT, "object slot %d is in leaf %d, its position belongs to leaf %d", s,
			             w->leaf[s], leaf_of_point(w, w->x[s], w->y[s]));
		if (!st && w->clearance.r && w->clear[s] != (uint8_t)gt_clearance_at(&w->clearance, w->x[s], w->y[s]))
			st = gt_fail(err, GT_ERR_FORMAT, "object slot %d keeps clearance %d, its cell has %d", s, w->clear[s],
			             (int)gt_clearance_at(&w->clearance, w->x[s], w->y[s]));
		if (!st && w->walk_bound.lb && w->walk_group[s] != gt_walk_bound_group(&w->walk_bound, w->x[s], w->y[s]))
			st = gt_fail(err, GT_ERR_FORMAT, "object slot %d keeps walk group %d, its point has %d", s,
			             w->walk_group[s], (int)gt_walk_bound_group(&w->walk_bound, w->x[s], w->y[s]));
		for (int i = 1; i < w->keyword_count[s] && !st; i++)
			if (w->keywords[s][i] <= w->keywords[s][i - 1])
				st = gt_fail(err, GT_ERR_FORMAT, "slot %d keywords unsorted", s);
		if (!st && w->object_words[s] != gt_words_mask(w->keywords[s], w->keyword_count[s]))
			st = gt_fail(err, GT_ERR_FORMAT, "slot %d keyword bits do not match its keywords", s);
		uint64_t spill = 0;
		for (int i = 0; i < w->keyword_count[s]; i++)
			if (w->keywords[s][i] >= w->plane_words) spill |= gt_word_bit(w->keywords[s][i]);
		if (!st && w->spill_words[s] != spill)
			st = gt_fail(err, GT_ERR_FORMAT, "slot %d bits of keywords without a plane do not match its keywords", s);
		int64_t node = gt_level_offset(w->height) + w->leaf[s];
		for (int level = w->height; level >= 0 && !st; level--) {
			objects[node]++;
			for (int i = 0; i < w->keyword_count[s]; i++)
				if (gt_counts_add(expect, (uint32_t)node, w->keywords[s][i], +1) < 0)
					st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
			if (level > 0) node = gt_parent(level, node);
		}
	}
	return st;
}

static gtStatus check_object_counts(const gtWorld* w, const int32_t* objects, int live, gtError* err)
{
	if (live != w->live) return gt_fail(err, GT_ERR_FORMAT, "%d live objects, counter says %d", live, w->live);
	for (int64_t n = 0; n < w->node_count; n++)
		if (objects[n] != w->object_counts[n])
			return gt_fail(err, GT_ERR_FORMAT, "node %lld holds %d objects, counter says %d", (long long)n, objects[n],
			               w->object_counts[n]);
	return GT_OK;
}

// Whether the world keeps a count for this (node, keyword) key: keywords without a plane, and
// every keyword at a crowded leaf.
static bool count_kept(const gtWorld* w, uint64_t key)
{
	int64_t leaf_base = gt_level_offset(w->height), node = (int64_t)(key >> 32);
	return (int32_t)(key & 0xffffffffu) >= w->plane_words || (node >= leaf_base && w->leaf_counted[node - leaf_base]);
}

// Counts are kept for keywords without a plane, and at crowded leaves for every keyword.
static gtStatus check_count_total(const gtWorld* w, const gtCountTable* expect, gtError* err)
{
	size_t kept_expected = 0;
	for (size_t i = 0; i < expect->capacity; i++)
		if (expect->keys[i] && expect->counts[i]) kept_expected += count_kept(w, expect->keys[i] - 1);
	if (kept_expected != w->keyword_counts.live)
		return gt_fail(err, GT_ERR_FORMAT, "%zu (node, keyword) counts expected, %zu kept", kept_expected,
		               w->keyword_counts.live);
	return GT_OK;
}

// Node signatures: exactly the bits of the keywords without a plane that occur below.
static gtStatus check_node_bits(const gtWorld* w, const gtCountTable* expect, gtError* err)
{
	uint64_t* bits = gt_calloc((size_t)w->node_count, sizeof *bits);
	if (!bits) return gt_fail(err, GT_ERR_NOMEM, "out of memory validating");
	for (size_t i = 0; i < expect->capacity; i++) {
		int32_t keyword = (int32_t)((expect->keys[i] - 1) & 0xffffffffu);
		if (expect->keys[i] && keyword >= w->plane_words) bits[(expect->keys[i] - 1) >> 32] |= gt_word_bit(keyword);
	}
	gtStatus st = GT_OK;
	for (int64_t n = 0; n < w->node_count && !st; n++)
		if (bits[n] != w->node_words[n])
			st = gt_fail(err, GT_ERR_FORMAT, "node %lld keyword bits %#llx, expected %#llx", (long long)n,
			             (unsigned long long)w->node_words[n], (unsigned long long)bits[n]);
	gt_free(bits);
	return st;
}

// Presence planes: exactly the (node, keyword) pairs with a non-zero count.
static gtStatus check_planes(const gtWorld* w, const gtCountTable* expect, gtError* err)
{
	uint64_t* planes = gt_calloc((size_t)(w->plane_words * w->plane_stride) + 1, sizeof *planes);
	if (!planes) return gt_fail(err, GT_ERR_NOMEM, "out of memory validating");
	for (size_t i = 0; i < expect->capacity; i++) {
		if (!expect->keys[i] || !expect->counts[i]) continue;
		uint64_t node = (expect->keys[i] - 1) >> 32;
		int32_t keyword = (int32_t)((expect->keys[i] - 1) & 0xffffffffu);
		if (keyword < w->plane_words)
			planes[keyword * w->plane_stride + (int64_t)(node >> 6)] |= UINT64_C(1) << (node & 63);
	}
	gtStatus st = GT_OK;
	for (int64_t i = 0; i < w->plane_words * w->plane_stride && !st; i++) {
		uint64_t wrong = planes[i] ^ w->planes[i];
		if (!wrong) continue;
		int64_t node = (i % w->plane_stride) * 64 + __builtin_ctzll(wrong);
		st = gt_fail(err, GT_ERR_FORMAT, "node %lld keyword %lld: presence bit is %d, its count says %d",
		             (long long)node, (long long)(i / w->plane_stride), (int)((w->planes[i] >> (node & 63)) & 1),
		             (int)((planes[i] >> (node & 63)) & 1));
	}
	gt_free(planes);
	return st;
}

// Every kept count as recounted.
static gtStatus check_counts(const gtWorld* w, const gtCountTable* expect, gtError* err)
{
	for (size_t i = 0; i < expect->capacity; i++) {
		if (!expect->keys[i]) continue;
		uint64_t key = expect->keys[i] - 1;
		if (!count_kept(w, key)) continue; // a plane's keyword where it is not counted
		int32_t kept = gt_counts_get(&w->keyword_counts, (uint32_t)(key >> 32), (int32_t)(key & 0xffffffffu));
		if (kept != expect->counts[i])
			return gt_fail(err, GT_ERR_FORMAT, "node %u keyword %d: count %d, expected %d", (unsigned)(key >> 32),
			               (int)(key & 0xffffffffu), kept, expect->counts[i]);
	}
	return GT_OK;
}

// Leaf lists: consistent links, each object once, in the leaf it claims.
static gtStatus check_leaf_lists(const gtWorld* w, int live, gtError* err)
{
	int listed = 0;
	int64_t leaves = INT64_C(1) << (2 * w->height);
	for (int64_t leaf = 0; leaf < leaves; leaf++) {
		for (int32_t s = w->leaf_head[leaf], prev = -1; s >= 0; prev = s, s = w->next[s]) {
			if (!(w->generation[s] & 1) || w->leaf[s] != leaf || w->prev[s] != prev || ++listed > live)
				return gt_fail(err, GT_ERR_FORMAT, "leaf %lld list is broken at slot %d", (long long)leaf, s);
		}
		if (w->leaf_rows &&
		    (w->leaf_rows[leaf >> w->height] >> (leaf & ((1 << w->height) - 1)) & 1) != (w->leaf_head[leaf] >= 0))
			return gt_fail(err, GT_ERR_FORMAT, "leaf %lld: its row's bit says the wrong thing", (long long)leaf);
	}
	if (listed != live) return gt_fail(err, GT_ERR_FORMAT, "%d objects listed in leaves, %d live", listed, live);
	return GT_OK;
}

gtStatus gtWorld_Validate(const gtWorld* w, gtError* err)
{
	gtCountTable expect;
	int32_t* objects = gt_calloc((size_t)w->node_count, sizeof *objects);
	if (!objects || !gt_counts_init(&expect, w->keyword_counts.live + 16)) {
		gt_free(objects);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory validating");
	}
	int live = 0;
	gtStatus st = recount(w, &expect, objects, &live, err);
	if (!st) st = check_object_counts(w, objects, live, err);
	if (!st) st = check_count_total(w, &expect, err);
	if (!st) st = check_node_bits(w, &expect, err);
	if (!st) st = check_planes(w, &expect, err);
	if (!st) st = check_counts(w, &expect, err);
	if (!st) st = check_leaf_lists(w, live, err);
	gt_counts_free(&expect);
	gt_free(objects);
	return st;
}
