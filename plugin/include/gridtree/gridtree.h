/// @file gridtree.h
/// Umbrella header: everything a program embedding gridtree needs.
#ifndef GRIDTREE_GRIDTREE_H
#define GRIDTREE_GRIDTREE_H

#include "gt_base.h"
#include "gt_map.h"
#include "gt_tiled.h"
#include "gt_mesh.h"
#include "gt_ehl.h"
#include "gt_oracle.h"
#include "gt_world.h"
#include "gt_nav.h"
#include "gt_crowd.h"
#include "gt_random.h"
#include "gt_genmap.h"
#include "gt_debug_draw.h"

#endif
