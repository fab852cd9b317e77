// The convex vertices a convex vertex may see, by an exact octant column sweep over rational slopes
// (docs/algorithms.md 3.3 and 5.6): cost about the vertex's visible area instead of one segment
// test per vertex of the map. Internal to the visibility graph build.
#ifndef GRIDTREE_VIS_SWEEP_H
#define GRIDTREE_VIS_SWEEP_H

#include <stdbool.h>

#include "gridtree/gt_map.h"

typedef struct VisSlope VisSlope;

// Per-thread scratch, reused for every vertex of one map.
typedef struct VisSweep {
	const gtMap* map;
	const int32_t* row_start; // height + 2 entries: the vertices of row y are [row_start[y], row_start[y + 1])
	int32_t* mark;            // per vertex: u + 1 once listed for vertex u
	int32_t* found;           // the vertices listed for the current vertex
	int64_t found_count, found_capacity;
	VisSlope* slopes[2]; // the current slope set and the next one
	int slope_capacity;
} VisSweep;

// row_start of the map's vertices (height + 2 entries), NULL when out of memory.
int32_t* gt_vis_rows(const gtMap* map);
bool gt_vis_sweep_init(VisSweep* sweep, const gtMap* map, const int32_t* row_start);
void gt_vis_sweep_free(VisSweep* sweep);
// Lists in found[0..found_count) every vertex w > u (in gtMap_Vertices order) whose grid point the
// sweep from vertex u reaches: every vertex u sees is listed (and a few it does not, never; the
// caller tests each anyway). False when out of memory.
bool gt_vis_sweep_vertex(VisSweep* sweep, int u);
// The same over the whole plane: every vertex w != u the sweep from u reaches (the four octants
// mirrored to -y too), each listed once.
bool gt_vis_sweep_vertex_all(VisSweep* sweep, int u);

#endif
