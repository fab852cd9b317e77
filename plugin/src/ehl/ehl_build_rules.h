// The via stage's geometric pruning rule P3 (docs/algorithms.md 5.7), inline for the loop over
// every candidate via of a cell (ehl_build.c). Internal.
#ifndef GRIDTREE_EHL_BUILD_RULES_H
#define GRIDTREE_EHL_BUILD_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "ehl/ehl_layout.h"

static inline int64_t gt_ehl_p3_cross(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
	return ax * by - ay * bx;
}

static inline int gt_ehl_p3_sgn(int64_t v)
{
	return (v > 0) - (v < 0);
}

// Path x -> v -> p bends tautly around v's blocked cell (docs/algorithms.md 2.6). A corner at v itself
// counts as taut, which only keeps more vias.
static inline bool gt_ehl_taut(gtVertex v, int64_t x, int64_t y, gtVertex p)
{
	int64_t ax = p.x - v.x, ay = p.y - v.y, bx = x - v.x, by = y - v.y;
	if (bx == 0 && by == 0) return true;
	int64_t ab = gt_ehl_p3_cross(ax, ay, bx, by);
	if (ab == 0) return ax * bx + ay * by < 0;
	return gt_ehl_p3_sgn(ab) == gt_ehl_p3_sgn(gt_ehl_p3_cross(ax, ay, v.bx, v.by)) &&
	       gt_ehl_p3_sgn(gt_ehl_p3_cross(v.bx, v.by, bx, by)) != gt_ehl_p3_sgn(gt_ehl_p3_cross(v.bx, v.by, ax, ay));
}

// The cell lies in one closed quadrant around v. A FULL cell's free squares all lie in v's taut
// quadrants, and inside one of them the paths through v towards p that bend tautly start in a
// half-plane, which meets the cell only if a corner of the cell is in it: so P3 may test the
// corners. A cell across a quadrant line (its squares there blocked) is left to the query.
static inline bool gt_ehl_in_one_quadrant(gtVertex v, int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
	return (x1 <= v.x || x0 >= v.x) && (y1 <= v.y || y0 >= v.y);
}

// Whether candidate v (parent p, a FULL via) of hub rank h passes P3: some corner of the cell wraps
// v tautly. Towards or from a link end any bend may take the link; `quadrant`: the cell lies in one
// closed quadrant around v (else the query decides).
static inline bool gt_ehl_passes_p3(const gtEhl* e, int v, int p, int32_t h, bool quadrant, const int64_t corners[4][2])
{
	if (!quadrant || v >= e->corners || p >= e->corners || (int)e->vertex_of[h] == v) return true;
	gtVertex vv = e->vertices[v], pv = e->vertices[p];
	for (int k = 0; k < 4; k++)
		if (gt_ehl_taut(vv, corners[k][0], corners[k][1], pv)) return true;
	return false;
}

#endif
