// Which points can reach which: the map's free cells in parts joined through shared edges (paths
// never pass a pinch point, docs/algorithms.md 2.1). Two points in different parts have no path
// between them, so a crowd skips objects outside an agent's part without pricing them (pricing
// an object the agent cannot reach costs a whole hub merge for nothing). Internal.
#ifndef GRIDTREE_CROWD_REACH_H
#define GRIDTREE_CROWD_REACH_H

#include "gridtree/gt_map.h"

typedef struct gtReach {
	uint64_t fingerprint; // of the map the parts were made for (edits change it)
	const gtMap* map;
	int width, height;
	int32_t* part; // per cell, row-major; -1 blocked
	int32_t parts;
	// The cells of the largest part, a bit each (row-major): an eighth of a byte where `part` takes
	// four, so the lookups of a batch, one per agent and candidate, stay in the cache (on
	// FloodedPlains `part` is 2.4 MB and its lookups missed it: two thirds of answer_share's time).
	uint64_t* main;
	int32_t main_part;
} gtReach;

// Labels the map's parts unless they are the map's as it is now; false when out of memory (then
// the reach is empty and gt_reach_ready is false).
bool gt_reach_update(gtReach* reach, const gtMap* map);
void gt_reach_free(gtReach* reach);

static inline bool gt_reach_ready(const gtReach* reach)
{
	return reach->part != NULL;
}

// The part of a point of the map: that of the free cell it lies in, or on the border of (a pinch
// point's own side first: the free cell on its +x side); -1 for a point in no free cell.
int32_t gt_reach_part_of(const gtReach* reach, gtVec2 p);

// Whether p lies inside a cell (off its grid lines: one cell holds it) of the largest part: then p
// is a valid point of the map (gtMap_CheckPoint) and its part is main_part.
static inline bool gt_reach_in_main(const gtReach* reach, gtVec2 p)
{
	if (!(p.x > 0 && p.y > 0 && p.x < reach->width && p.y < reach->height)) return false;
	int cx = (int)p.x, cy = (int)p.y;
	int64_t cell = (int64_t)cy * reach->width + cx;
	return p.x != cx && p.y != cy && ((reach->main[cell >> 6] >> (cell & 63)) & 1);
}

// The same as gt_reach_part_of, inline for a point inside a cell of the largest part, as most
// objects and agents are: the walk asks for every candidate's part.
static inline int32_t gt_reach_part(const gtReach* reach, gtVec2 p)
{
	return gt_reach_in_main(reach, p) ? reach->main_part : gt_reach_part_of(reach, p);
}

#endif
