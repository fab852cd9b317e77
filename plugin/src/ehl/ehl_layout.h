// EHL index layout shared by build, query and file code (docs/algorithms.md 5.9). Internal.
#ifndef GRIDTREE_EHL_INTERNAL_H
#define GRIDTREE_EHL_INTERNAL_H

#include <math.h>
#include <string.h>

#include "gridtree/gt_ehl.h"

// Vertex and hub ids fit 24 bits: a via label keeps the vertex's low 16 bits beside its float and
// the high 8 in the float's lowest mantissa bits (the float is only a lower bound, and truncating
// its mantissa rounds it down), so the most numerous records stay 6 bytes on maps of any size.
#define GT_EHL_MAX_VERTICES 16777215

// A (cell, vertex) pair of the sweep: the whole cell sees the vertex.
#define GT_EHL_TUPLE_FULL 0x80000000u

// One (cell, hub) pair; every cell's list ends with a sentinel whose hub is n, and one final
// entry follows the last cell, so the vias of entry i are [via_begin(i), via_begin(i + 1)).
typedef struct gtEhlHub {
	uint32_t via_begin;
	uint32_t hub;
	float lower_bound; // rounded down: only ever used to skip a hub
} gtEhlHub;

// A via label, 6 bytes: the vertex and the float distance to the hub rounded down (a bound for
// skipping; the exact value is in the vertex's label), whose sign bit says FULL (distances are
// never negative, so the bit is free) and whose lowest 8 mantissa bits hold the vertex's bits 16-23.
typedef struct gtEhlViaLabel {
	uint16_t vertex_low;
	uint16_t low[2]; // the float's bytes, kept 2-aligned so the record stays 6 bytes
} gtEhlViaLabel;

#define GT_VIA_VERTEX_BITS 0xFFu // of the float's bits

// A compact via (gtEhl.cvias): its place in the hub's inverse label, FULL, and LAST on the last via
// of its list (lists are shared, so a list ends by itself rather than where the next begins).
#define GT_EHL_COMPACT_FULL 0x8000u
#define GT_EHL_COMPACT_LAST 0x4000u
#define GT_EHL_COMPACT_PLACES 0x4000u
// A compact index with at most this many regions names them with 2 bytes per grid cell.
#define GT_EHL_NARROW_REGIONS 65536

static inline uint32_t gt_via_bits(const gtEhlViaLabel* v)
{
	uint32_t bits;
	memcpy(&bits, v->low, sizeof bits);
	return bits;
}

static inline int gt_via_vertex(const gtEhlViaLabel* v)
{
	return (int)(v->vertex_low | (gt_via_bits(v) & GT_VIA_VERTEX_BITS) << 16);
}

// The same via for another vertex id (inline: a repair renumbers every via it copies).
static inline void gt_via_renumber(gtEhlViaLabel* v, int vertex)
{
	uint32_t bits = (gt_via_bits(v) & ~GT_VIA_VERTEX_BITS) | (((uint32_t)vertex >> 16) & GT_VIA_VERTEX_BITS);
	memcpy(v->low, &bits, sizeof bits);
	v->vertex_low = (uint16_t)vertex;
}

static inline float gt_via_signed_low(const gtEhlViaLabel* v)
{
	uint32_t bits = gt_via_bits(v) & ~GT_VIA_VERTEX_BITS;
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static inline float gt_via_low(const gtEhlViaLabel* v)
{
	return fabsf(gt_via_signed_low(v));
}

static inline bool gt_via_full(const gtEhlViaLabel* v)
{
	return signbit(gt_via_signed_low(v)) != 0;
}

// Half-precision bits back to a float (no NaN or subnormal is ever stored; the sign is ignored):
// the hub bounds of format 1 and 2 files. The half's exponent and mantissa, moved to a float's
// places, read 2^-112 times the value (a float subnormal for the half 0), so one exact product by
// 2^112 rescales it. tests/test_ehl.c compares it with the field-by-field decoding.
static inline float gt_half_to_float(uint16_t h)
{
	uint32_t magnitude = h & 0x7FFFu;
	if (magnitude >= 0x7C00u) return INFINITY;
	uint32_t bits = magnitude << 13;
	float f;
	memcpy(&f, &bits, sizeof f);
	return f * 0x1p112f;
}

static inline float gt_hub_lower_bound(const gtEhlHub* h)
{
	return h->lower_bound;
}

// The largest float not above v (+inf stays +inf). Inline, as gt_via_set: the build writes every
// via and (cell, hub) bound through them (~0.4G instructions of calls with 100 links on two floors).
static inline float gt_round_down(double v)
{
	if (isinf(v)) return INFINITY;
	float f = (float)v;
	if (!((double)f > v)) return f;
	if (f > 0 && isfinite(f)) { // the next float down, without nextafterf's call (the builder's vias)
		uint32_t bits;
		memcpy(&bits, &f, sizeof bits);
		bits--;
		memcpy(&f, &bits, sizeof f);
		return f;
	}
	return nextafterf(f, -INFINITY);
}

// The same via for another vertex id.
static inline void gt_via_set_vertex(gtEhlViaLabel* via, int vertex)
{
	uint32_t bits = (gt_via_bits(via) & ~GT_VIA_VERTEX_BITS) | (((uint32_t)vertex >> 16) & GT_VIA_VERTEX_BITS);
	memcpy(via->low, &bits, sizeof bits);
	via->vertex_low = (uint16_t)vertex;
}

static inline void gt_via_set(gtEhlViaLabel* via, int vertex, double dist, bool full)
{
	float low = gt_round_down(dist);
	uint32_t bits;
	memcpy(&bits, &low, sizeof bits);
	bits &= ~GT_VIA_VERTEX_BITS;   // truncating a non-negative float's mantissa rounds it down
	if (full) bits |= 0x80000000u; // also for a zero distance: the sign survives
	memcpy(via->low, &bits, sizeof bits);
	gt_via_set_vertex(via, vertex);
}

struct gtEhl {
	const gtMap* map;
	int g, columns, rows, n;
	const gtVertex* vertices; // the map's convex vertices: ids 0 .. corners - 1
	// Link ends (ehl_links.c): ids corners + 2k and corners + 2k + 1 are link k's a and b, vertices
	// of the labelled graph like the corners. points[v] is every id's position (n of them).
	int corners, link_count;
	gtEhlLink* links;
	gtVec2* points;
	// With links: per block of gap_side x gap_side cells (at most 64 x 64 blocks) the least distance
	// from it to an end of a link cheaper than its straight line (rounded down), and the cheapest
	// such link (+infinity when none). A walk that takes one from s to t is at least gap(s) +
	// cheapest + gap(t) long; a walk through other links only is no shorter than the line.
	float* end_gap;
	int gap_side, gap_columns, gap_rows;
	double cheapest_link;
	// The links cheaper than their straight line, shortest first, and the sum of what they save on
	// their lines (gt_ehl_line_wins_paired).
	struct gtEhlShortLink* short_links;
	int short_count;
	double line_slack;
	int64_t label_count, cell_count, hub_count, via_count; // hub_count includes sentinels + 1
	// Hub labels, kept for unpacking paths: entries of v are [label_offset[v], label_offset[v+1]).
	// Only entries that survive rule P4: the optimal paths the query unpacks are taut at every
	// bend, so every entry their parent chains visit is one of these.
	uint32_t* label_offset;
	uint32_t* label_hub;
	uint32_t* label_parent;
	double* label_dist;   // VG distance to the hub: the exact value behind a via's rounded one
	uint32_t* vertex_of;  // hub rank -> vertex
	uint32_t* cell_begin; // cell_count + 1 entries into hubs
	// (or NULL) The owner of cell_begin, hubs and vias when indexes may share them: a repair that
	// finds every cell as it was points at the last index's arrays rather than copying them
	// (gt_ehl_share_cells); the last index that holds them frees them.
	struct gtEhlSharedCells* shared_cells;
	// The most entries (with its sentinel) a cell's list has, which sizes a query object's scratch;
	// 0: not found yet (gtEhlQuery_Create scans every cell). Background jobs find it (ehl_query.h).
	int32_t max_cell_entries;
	// A region index (ehl_regions.h): per cell of the g grid (columns x rows) its region, the
	// index's "cell" for the arrays here (cell_count regions); NULL: every grid cell is its own. A
	// compact index of at most GT_EHL_NARROW_REGIONS regions keeps them as uint16_t (region16).
	union {
		uint32_t* region_of;
		uint16_t* region16;
	};
	bool narrow_regions;
	gtEhlHub* hubs;
	gtEhlViaLabel* vias; // within a (cell, hub), sorted by distance to the hub; NULL in a compact index
	// A compact region index (format 5) has 2-byte vias instead: a via of hub h is its place in h's
	// inverse label, every vertex whose label holds h sorted by (distance, vertex), with the FULL and
	// LAST bits on top. The place gives the exact distance (label_dist[inv_entry[.]]) and the vertex
	// with no search, and a list sorted by place is sorted by distance. A (region, hub) entry's list
	// starts at its via_begin and ends at its LAST via: equal lists of one hub are stored once, so
	// via_begin does not grow along the entries. Only when every inverse label has at most
	// GT_EHL_COMPACT_PLACES entries (else the region index keeps 6-byte vias).
	uint16_t* cvias;
	uint32_t* inv_offset; // per hub rank (n + 1): its inverse label's entries [inv_offset[h], inv_offset[h + 1])
	uint32_t* inv_vertex; // per inverse entry: the vertex
	uint32_t* inv_entry;  // per inverse entry: its label entry (label_dist, label_parent)
	// A background rebuild's index keeps its sweep for the next repair (ehl_repair.c): every (cell,
	// vertex | GT_EHL_TUPLE_FULL) pair, grouped by cell and sorted (cell_count + 1 offsets); NULL
	// otherwise, never saved.
	int64_t* tuple_begin;
	uint32_t* tuple_vertex;
	uint32_t* cell_full; // and per cell its FULL vias (or NULL): a repair's copied cell adds them without a scan
	uint32_t* edge_free; // and per cell the free squares that make it FULL (ehl_cells.h), or NULL
	struct gtHubLabels* hub_labels; // and its whole hub labels (hub_labels.h), kept the same way
	// Names this index among every one made in the process (gt_ehl_next_serial, at build and load):
	// a world's object sides made from it (gtDistance.side_key) are void for any other.
	uint64_t serial;
	void* mapping; // a loaded index: every array above points into this read-only file mapping
	size_t mapping_bytes;
	gtEhlStats stats;
};

// Cell of a valid point: floor(p / g), clamped to the grid (points on the right/bottom border); in a
// region index, its region.
static inline int64_t gt_ehl_cell_of(const gtEhl* e, gtVec2 p)
{
	int i = (int)(p.x / e->g), j = (int)(p.y / e->g);
	if (i >= e->columns) i = e->columns - 1;
	if (j >= e->rows) j = e->rows - 1;
	int64_t cell = (int64_t)j * e->columns + i;
	if (!e->region_of) return cell;
	return e->narrow_regions ? (int64_t)e->region16[cell] : (int64_t)e->region_of[cell];
}

// Bytes of a region id per grid cell.
static inline size_t gt_ehl_region_id_bytes(const gtEhl* e)
{
	return e->narrow_regions ? sizeof(uint16_t) : sizeof(uint32_t);
}

// Whether the straight line from s to t (which see each other) is their distance: no link can beat it.
static inline float gt_ehl_end_gap(const gtEhl* e, gtVec2 p)
{
	int i = (int)(p.x / e->gap_side), j = (int)(p.y / e->gap_side);
	return e->end_gap[(int64_t)(j < e->gap_rows ? j : e->gap_rows - 1) * e->gap_columns +
	                  (i < e->gap_columns ? i : e->gap_columns - 1)];
}

bool gt_ehl_line_wins_paired(const gtEhl* e, gtVec2 s, gtVec2 t, double line);

static inline bool gt_ehl_line_wins(const gtEhl* e, gtVec2 s, gtVec2 t, double line)
{
	return !e->link_count || line <= (double)gt_ehl_end_gap(e, s) + e->cheapest_link + (double)gt_ehl_end_gap(e, t) ||
	       gt_ehl_line_wins_paired(e, s, t, line);
}

static inline const gtMap* gt_ehl_map(const gtEhl* e)
{
	return e->map;
}

// The inverse entry of a compact via of hub rank `hub`.
static inline uint32_t gt_cvia_entry(const gtEhl* e, uint32_t hub, uint16_t via)
{
	return e->inv_offset[hub] + (via & (GT_EHL_COMPACT_PLACES - 1));
}

// Builds the inverse labels of a region index (inv_*); false when out of memory. *fits: every
// inverse label has at most GT_EHL_COMPACT_PLACES entries (else nothing is kept). `place_of`
// (label_count entries, the caller frees it) gets each label entry's place in its hub's list.
bool gt_ehl_inverse_labels(gtEhl* e, bool* fits, uint32_t** place_of);

// A serial no index had before (thread-safe), from 1.
uint64_t gt_ehl_next_serial(void);

// Frees the arrays (or unmaps a loaded file); gtEhl_Destroy also frees the struct.
void gt_ehl_free_arrays(gtEhl* e);
// Frees what a background build kept for the next repair (tuples, whole hub labels): the index
// still answers, but cannot be repaired from.
void gt_ehl_drop_repair_data(gtEhl* e);

// Makes e's cell arrays (cell_begin, hubs, vias; allocated, not mapped) shareable: e holds the
// first reference. Done when a build keeps what a repair needs, so that a repair only ever adds a
// reference to an index others may be reading or repairing from too (the doors' job and a rebuild
// may repair from one index at once). False: out of memory (e keeps its arrays as they were).
bool gt_ehl_own_shared_cells(gtEhl* e);
// e (being built, no cell arrays yet) takes `from`'s cell arrays and counts with a new reference;
// false when `from`'s are not shareable. Nothing writes them afterwards: every index reads them.
bool gt_ehl_share_cells(gtEhl* e, const gtEhl* from);

// Fills the stats that follow from the arrays (counts, FULL vias, bytes); the builder adds the rest.
void gt_ehl_count_stats(gtEhl* e);
// The same with the FULL vias already counted (loading counts them while validating).
void gt_ehl_set_stats(gtEhl* e, int64_t full_vias);

// Index of v's label entry for hub rank `hub`, or -1.
int64_t gt_ehl_label_entry(const gtEhl* e, int v, int32_t hub);

int64_t gt_ehl_index_bytes(const gtEhl* e);
// Of those, the cell arrays' (cell_begin, hubs, vias): what indexes sharing them hold once.
int64_t gt_ehl_cell_bytes(const gtEhl* e);
// Names e's cell arrays when they are shareable (gt_ehl_own_shared_cells): indexes with the same
// non-NULL id hold the same arrays. NULL: e's own.
const void* gt_ehl_cells_id(const gtEhl* e);

#endif
