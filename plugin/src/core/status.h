#ifndef GRIDTREE_STATUS_H
#define GRIDTREE_STATUS_H

#include "gridtree/gt_base.h"

// Fills err (when non-NULL) with a formatted message and returns status.
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
gtStatus gt_fail(gtError* err, gtStatus status, const char* fmt, ...);

#endif
