// Object sides (world_sides.h): a few entries, reused in turn; per slot, the entry that may hold
// its side (an object that moved takes its own entry back).
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "map/geometry.h"
#include "world/world_sides.h"

// Room for the entries of sides of `bytes` each; false (no entry) when not one fits the budget or
// memory runs out. The block only grows, so alternating distances never allocate per query.
static bool sides_size(gtSideMemo* m, size_t bytes)
{
	int64_t fit = GT_SIDE_BUDGET / (int64_t)bytes;
	int32_t count = fit < GT_SIDE_ENTRIES ? (int32_t)fit : GT_SIDE_ENTRIES;
	m->bytes = bytes;
	m->count = 0;
	m->next = 0;
	if (count == 0) return false;
	size_t want = (size_t)count * bytes + 63; // aligned to a cache line by hand
	if (want > m->block_bytes) {
		void* block = gt_malloc(want);
		gtSideEntry* entries = gt_malloc((size_t)GT_SIDE_ENTRIES * sizeof *entries);
		if (!block || !entries) {
			gt_free(block);
			gt_free(entries);
			return false;
		}
		gt_free(m->block);
		gt_free(m->entries);
		m->block = block;
		m->block_bytes = want;
		m->entries = entries;
		m->data = (unsigned char*)(((uintptr_t)block + 63) & ~(uintptr_t)63);
	}
	for (int32_t e = 0; e < count; e++) m->entries[e] = (gtSideEntry){-1, 0, 0, false};
	m->count = count;
	return true;
}

int64_t gt_sides_working_for(int64_t l2_bytes)
{
	return l2_bytes > 0 ? l2_bytes / 4 * 3 : GT_SIDE_WORKING;
}

static atomic_int_least64_t side_working; // 0: not read yet (threads that race read the same)

int64_t gt_sides_working(void)
{
	int64_t bytes = atomic_load_explicit(&side_working, memory_order_relaxed);
	if (bytes == 0) {
		bytes = gt_sides_working_for(gt_l2_cache_bytes());
		atomic_store_explicit(&side_working, bytes, memory_order_relaxed);
	}
	return bytes;
}

void gt_sides_set_working(int64_t bytes)
{
	atomic_store_explicit(&side_working, bytes > 0 ? bytes : 0, memory_order_relaxed);
}

gtSideMemo* gt_sides_begin(gtSideMemo* m, gtDistance distance)
{
	if (!distance.side_fill || !distance.side_below || distance.side_bytes == 0 || distance.side_key == 0 ||
	    distance.side_context != distance.context || !m->entry)
		return NULL;
	if (distance.side_key != m->key || distance.side_bytes != m->bytes) {
		// Sides of another index (or map) are void: a new generation, whatever the entries hold.
		m->key = 0;
		if (distance.side_bytes != m->bytes && !sides_size(m, distance.side_bytes)) return NULL;
		if (++m->generation == 0) { // wrapped: no entry may pass for a current one
			for (int32_t e = 0; e < m->count; e++) m->entries[e] = (gtSideEntry){-1, 0, 0, false};
			m->generation = 1;
		}
		m->key = distance.side_key;
	}
	return m->count > 0 ? m : NULL;
}

// A side pays when it is read at least this many times on average after the pricing that made it:
// making one writes its cell's hubs into the ranks' table (cold lines), a read saves a merge. Where
// objects are seldom priced again between moves (1% of the cells: 0.2 to 1.6 reads a side made),
// sides are made for one object in GT_SIDE_PROBE only, enough to notice when the world comes back.
// One read, not three as when sides were made at the second pricing: that refused 266 of AR0602SR's
// 599 makings at 0.1% with two words (3.7 reads a side made at the first pricing; bench-peers gt/ier
// 0.01 to 0.03 lower than with three on the 0.1% rows of AR0602SR, lak303d and orz103d).
#define GT_SIDE_READS 1
#define GT_SIDE_WINDOW 64
#define GT_SIDE_PROBE 16

void* gt_side_make(gtSideMemo* m, const gtWorld* w, int32_t slot, gtVec2 q, gtVec2 p, gtDistance distance, bool* hidden)
{
	if (!*hidden && distance.straight_map && distance.hidden_below && !distance.shortcuts) {
		if (gt_visible_unchecked(distance.straight_map, q, p)) return GT_SIDE_SEEN;
		*hidden = true;
	}
	if (m->makes >= GT_SIDE_PROBE && m->reads < GT_SIDE_READS * m->makes && ++m->refused < GT_SIDE_PROBE) return NULL;
	m->refused = 0;
	if (++m->makes >= GT_SIDE_WINDOW) m->makes /= 2, m->reads /= 2;
	// An object that moved takes its own entry back: its old side is void, and no other object's
	// side is swapped out for it (AR0602SR at 0.1%: 67 objects, 64 entries). Else a second chance
	// (the clock): an entry read since the turn last passed it stays, once. When every entry was
	// (more objects priced often than there are entries), none is taken for this object: swapping
	// sides in and out costs a making per pricing (FloodedPlains at 0.1%, two words: more sides
	// made than read).
	int32_t e = m->entry[slot];
	if (e >= 0 && (m->entries[e].slot != slot || m->entries[e].generation != m->generation)) e = -1;
	for (int32_t tries = 0; tries < m->count && e < 0; tries++) {
		int32_t at = m->next;
		m->next = at + 1 < m->count ? at + 1 : 0;
		if (!m->entries[at].used) e = at;
		m->entries[at].used = false;
	}
	if (e < 0) return NULL;
	gtSideEntry* entry = &m->entries[e];
	void* side = m->data + (size_t)e * m->bytes;
	entry->slot = -1;
	if (!distance.side_fill(distance.side_context, p, side, entry->generation == m->generation)) return NULL;
	*entry = (gtSideEntry){slot, w->moved[slot], m->generation, false};
	m->entry[slot] = e;
	return side;
}

bool gt_sides_reserve(gtSideMemo* m, int32_t capacity)
{
	int32_t had = m->slots;
	if (capacity <= had) return true;
	if (!GT_RESIZE(m->entry, capacity)) return false;
	for (int32_t s = had; s < capacity; s++) m->entry[s] = -1;
	m->slots = capacity;
	return true;
}

void gt_sides_free(gtSideMemo* m)
{
	gt_free(m->block);
	gt_free(m->entries);
	gt_free(m->entry);
	memset(m, 0, sizeof *m);
}
