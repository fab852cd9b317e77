// The path follower's one walk, for the followers that price some segments differently.
#pragma once

#include "gridtree/gt_nav.h"

// gtPath_Advance where segment i (from points[i] to points[i + 1]) costs link_cost(context, i)
// as a whole, spread along it, or its length where link_cost returns NAN (walked).
gtVec2 gt_path_advance_priced(const gtVec2* points, int count, int* segment, gtVec2 at, double step,
                              double (*link_cost)(const void* context, int segment), const void* context);
