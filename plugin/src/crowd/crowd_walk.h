// One agent's k nearest by the crowd's own walk (crowd_walk.c): its own Grid Tree leaf first, then
// the leaves near enough or the objects nearest first by straight line; objects outside the
// agent's part of the map skipped, the rest priced (the straight line when the world's clearance
// grid says the agent sees them, else the nav's distance) while they can still enter. Internal to
// the crowd.
#ifndef GRIDTREE_CROWD_WALK_H
#define GRIDTREE_CROWD_WALK_H

#include "crowd/crowd_reach.h"
#include "world/world_visit.h"

// A worker's answer being built: the k best (distance, id) so far.
typedef struct gtCrowdWalk gtCrowdWalk;

gtCrowdWalk* gt_crowd_walk_create(void);
void gt_crowd_walk_destroy(gtCrowdWalk* walk);
// Room for k answers, so that walking allocates nothing; false when out of memory.
bool gt_crowd_walk_reserve(gtCrowdWalk* walk, int k);

// The k nearest of q (k reserved, q->point valid) among the objects that pass the worker's
// compiled filter and lie in `part` of `reach`, into ids/distances (room for k), sorted by
// distance and then id; *found says how many. False when out of memory.
bool gt_crowd_walk_nearest(gtCrowdWalk* walk, const gtWorld* world, gtWorldWorker* worker, const gtReach* reach,
                           int32_t part, gtDistance distance, gtVec2 point, int k, gtObjectId* ids, double* distances,
                           int* found);

#endif
