// EHL index layout shared by build, query and file code. Internal.
#ifndef GRIDTREE_EHL_INTERNAL_H
#define GRIDTREE_EHL_INTERNAL_H

#include "gridtree/gt_ehl.h"

#define GT_VIA_FULL 0x80000000u
#define GT_VIA_VERTEX 0x7fffffffu

// One (cell, hub) pair; every cell's list ends with a sentinel whose hub is n, and one final
// entry follows the last cell, so the vias of entry i are [via_begin(i), via_begin(i + 1)).
typedef struct gtEhlHub {
	int32_t hub;
	uint32_t via_begin;
	float lower_bound; // rounded down: only ever used to skip a hub
} gtEhlHub;

// A via label: one record so that a query reads one stream.
typedef struct gtEhlViaLabel {
	uint32_t vertex_full; // vertex | GT_VIA_FULL
	float low;            // distance from the vertex to the hub, rounded down (a bound for skipping)
} gtEhlViaLabel;

struct gtEhl {
	const gtMap* map;
	int g, columns, rows, n;
	const gtVertex* vertices;
	int64_t label_count, cell_count, hub_count, via_count; // hub_count includes sentinels + 1
	// Hub labels, kept for unpacking paths: entries of v are [label_offset[v], label_offset[v+1]).
	uint32_t* label_offset;
	int32_t* label_hub;
	int32_t* label_parent;
	double* label_dist; // VG distance to the hub: the exact value behind a via's rounded one
	int32_t* vertex_of; // hub rank -> vertex
	uint32_t* cell_begin; // cell_count + 1 entries into hubs
	gtEhlHub* hubs;
	gtEhlViaLabel* vias; // within a (cell, hub), sorted by distance to the hub
	void* mapping; // a loaded index: every array above points into this read-only file mapping
	size_t mapping_bytes;
	gtEhlStats stats;
};

// Cell of a valid point: floor(p / g), clamped to the grid (points on the right/bottom border).
static inline int64_t gt_ehl_cell_of(const gtEhl* e, gtVec2 p)
{
	int i = (int)(p.x / e->g), j = (int)(p.y / e->g);
	if (i >= e->columns) i = e->columns - 1;
	if (j >= e->rows) j = e->rows - 1;
	return (int64_t)j * e->columns + i;
}

void gt_ehl_free_arrays(gtEhl* e);
void gt_ehl_unmap(gtEhl* e);

// Index of v's label entry for hub rank `hub`, or -1.
int64_t gt_ehl_label_entry(const gtEhl* e, int v, int32_t hub);

// The largest float not above v (+inf stays +inf).
float gt_round_down(double v);
int64_t gt_ehl_index_bytes(const gtEhl* e);



// Process peak resident memory in MB (Linux /proc; 0 elsewhere).
double gt_peak_rss_mb(void);
#endif
