#ifndef GRIDTREE_STATUS_H
#define GRIDTREE_STATUS_H

#include "gridtree/gt_base.h"

// The library's name for gtError_Set: fills err (when non-NULL) and returns status.
#define gt_fail gtError_Set

#endif
