// Object sides (gtDistance.side_fill): the target's part of the distance, made for a few objects
// that many queries price while they stand still, and kept by the world. Internal.
#ifndef GRIDTREE_WORLD_SIDES_H
#define GRIDTREE_WORLD_SIDES_H

#include "world/world_internal.h"

// What a query may read and make: the world's sides when the distance offers them (else NULL).
// A distance with another side_key than the last one's voids every side kept (a new generation).
// Sized once for the distance's side_bytes (grown, never per query): at most GT_SIDE_ENTRIES
// sides within GT_SIDE_BUDGET bytes; NULL when not one fits (or out of memory).
#define GT_SIDE_ENTRIES 64
#define GT_SIDE_BUDGET (INT64_C(4) << 20)
gtSideMemo* gt_sides_begin(gtSideMemo* m, gtDistance distance);

// The cost model's gate, before gt_sides_begin: a query reads and makes sides only in a world of
// at most GT_SIDE_OBJECTS live objects. A side pays back its making (the cell's hubs written into
// a cold table) after a read or two, and it is read only while it stays in one of the
// GT_SIDE_ENTRIES entries; the objects that queries price between two moves are any of the live
// ones (a query's words vary from query to query: orz103d at 0.1% with two words prices ~27
// distinct objects a timestamp), so with many more live objects than entries the sides are swapped
// out before they are read enough. Measured (bench-peers, EHL): 15 to 69 objects (0.1% of the
// cells) gain (lak303d 0.1%/0w gt/ier 0.86 -> 0.62), 148 to 690 (1%) lose 0.01 to 0.09 even with
// the reads gate (lak303d 1%/0w 0.89 -> 0.98). The live count is a field the query reads anyway
// (no cold line, O(1)); the root's keyword counts would not do: they are per query, the sides
// are kept across queries. The answers are the same either way (test_object_sides).
// Nor where the sides the world would keep (an entry for each live object, up to GT_SIDE_ENTRIES)
// take more than GT_SIDE_WORKING bytes: a pricing through a side reads the side's parts beside t's
// list, and its ranks' table (at each of the source's hubs before the source is ranked, at the
// hubs priced after), where a pricing without reads t's list alone; so a side pays only while its
// lines stay cached between reads, and the index's labels pass through the caches at every pricing.
// bench-peers at 0.1%, gt/IER-EHL with and without sides (trimmed medians of 6-16 alternated runs,
// EHL with the ranked source, side pricings not ranking it): AR0300SR (69 objects, sides of 7,040
// bytes, 440 KiB in all) 0.92 / 0.83 without words, 0.88 / 0.81 with two; AR0602SR (67 x 4,864,
// 304 KiB) 0.79 / 0.79, 0.77 / 0.83; orz103d (41 x 4,416, 177 KiB) 0.64 / 0.67, 0.74 / 0.81;
// lak303d (15 x 3,904, 57 KiB) 0.80 / 0.89, 0.87 / 0.91. Callgrind with a 512 KiB last level,
// AR0300SR without words: 81 last-level misses a query with sides, 29 without. The budget lies
// between the two AR maps' (a guess between two measured points): 384 KiB, 3/4 of the 512 KiB L2
// of a core of the machine it was measured on (AMD EPYC, L2 per core, 32 MiB L3 shared). So it is
// 3/4 of the L2 the machine reports (gt_sides_working; GT_SIDE_WORKING when it reports none).
#define GT_SIDE_OBJECTS (2 * GT_SIDE_ENTRIES)
#define GT_SIDE_WORKING (INT64_C(384) << 10)
// The budget: read once (by the first gtWorld_Create), then kept. gt_sides_set_working sets it for tests
// (0: from the machine again); gt_sides_working_for is the rule from an L2 size (0: unknown).
int64_t gt_sides_working(void);
void gt_sides_set_working(int64_t bytes);
int64_t gt_sides_working_for(int64_t l2_bytes);
static inline bool gt_sides_pay(const gtWorld* w, size_t side_bytes)
{
	int64_t kept = w->live < GT_SIDE_ENTRIES ? w->live : GT_SIDE_ENTRIES;
	return w->live <= GT_SIDE_OBJECTS && kept * (int64_t)side_bytes <= gt_sides_working();
}
// Makes the side of the object in `slot` at p in the next entry in turn that was not read since the
// turn last passed it; NULL when there is none, or the distance cannot; GT_SIDE_SEEN when q sees p
// (gt_side_of), no side made.
#define GT_SIDE_SEEN ((void*)1)
void* gt_side_make(gtSideMemo* m, const gtWorld* w, int32_t slot, gtVec2 q, gtVec2 p, gtDistance distance,
                   bool* hidden);
// Room for `capacity` slots (grow_slots); false when out of memory.
bool gt_sides_reserve(gtSideMemo* m, int32_t capacity);
void gt_sides_free(gtSideMemo* m);

// The side of the object in `slot` (at p) to price it with, or NULL to price it the usual way:
// the first pricing since it last moved makes its side (it prices through it at once), the later
// ones read it while it stands and the key stays. Made at the first pricing, not the second: in the
// few-object worlds the gate lets in, most objects priced once are priced again before they move
// (AR0602SR at 0.1%, two words: 67 objects, 2,349 pricings, 420 objects priced since their move),
// and a side pricing costs less than the merge it replaces, so the making's cost is the cell's
// hubs written into the table and little more (bench-peers gt/ier on the 0.1% rows of AR0602SR,
// lak303d, orz103d: 0.01 to 0.05 lower than making at the second pricing; docs/grid-tree.md).
// Made only for a pair that does not see each other (q and p, unless *hidden says so already):
// a pair that does is the straight line, which the side would not serve (the distance tests the
// line before its hubs). gt_side_make tests the line with the distance's own straight_map, as the
// distance would (without shortcuts: a walk through one may beat the line): GT_SIDE_SEEN when q
// sees p, else *hidden for the distance not to test it again. Fewer sides made leave more entries
// to the objects priced through them (AR0602SR at 0.1%, 67 objects for 64 entries, callgrind:
// 19,244 -> 18,620 instructions a query; AR0205SR 17,351 -> 17,003; ht_0_hightown_n and IceFloes,
// which make few sides, +0.1%).
static inline void* gt_side_of(gtSideMemo* m, const gtWorld* w, int32_t slot, gtVec2 q, gtVec2 p, gtDistance distance,
                               bool* hidden)
{
	int32_t e = m->entry[slot];
	if (e >= 0 && m->entries[e].slot == slot && m->entries[e].moved == w->moved[slot] &&
	    m->entries[e].generation == m->generation) {
		m->entries[e].used = true;
		m->reads++;
		return m->data + (size_t)e * m->bytes;
	}
	return gt_side_make(m, w, slot, q, p, distance, hidden);
}

#endif
