// Landmark distances on a visibility graph (A* with landmarks, "ALT"): for a few far-apart vertices
// L, d(L, v) for every vertex v, so |d(L, t) - d(L, v)| bounds d(v, t) from below. Internal.
#ifndef GRIDTREE_LANDMARKS_H
#define GRIDTREE_LANDMARKS_H

#include "core/status.h"
#include "map/vis_graph.h"

enum { GT_LANDMARKS = 16 };

typedef struct gtLandmarks {
	int count, n;
	double* dist; // dist[v * count + l] = d(landmark l, v); +inf when unreachable
	int32_t* vertex;
} gtLandmarks;

// Picks up to GT_LANDMARKS vertices, each the farthest from those picked before, and their
// distances (one Dijkstra each).
gtStatus gt_landmarks_build(const gtVisGraph* g, gtLandmarks* out, gtError* err);
// The same picks over any n vertices whose distances from a vertex `distances` fills in.
gtStatus gt_landmarks_pick(int n, void (*distances)(void* context, int from, double* dist), void* context,
                           gtLandmarks* out, gtError* err);
void gt_landmarks_free(gtLandmarks* l);

#endif
