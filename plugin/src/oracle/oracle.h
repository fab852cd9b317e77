// The oracle's constructor with a host job system, for the navigation façade. Internal.
#ifndef GRIDTREE_ORACLE_INTERNAL_H
#define GRIDTREE_ORACLE_INTERNAL_H

#include "gridtree/gt_oracle.h"

// gtOracle_Create whose visibility graph is built on `tasks` (NULL: the built-in pool), so a
// gtNavDef.tasks covers the oracle's build as well as the index's.
gtStatus gt_oracle_create(const gtMap* map, const gtTaskSystem* tasks, int threads, gtOracle** out, gtError* err);

#endif
