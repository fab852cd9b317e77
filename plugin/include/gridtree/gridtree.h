/// @file gridtree.h
/// Umbrella header: everything a game embedding gridtree needs.
///
/// Contents
///     gt_base.h        version, status and errors, limits, allocator hook, task interface, clock
///     gt_random.h      the seeded random number generator
///     gt_map.h         grid maps: loading, cells, points, visibility
///     gt_genmap.h      generated maps
///     gt_tiled.h       Tiled levels
///     gt_mesh.h        navigation meshes and Polyanya
///     gt_ehl.h         the EHL index
///     gt_oracle.h      the exact oracle
///     gt_world.h       worlds of moving, keyword-tagged objects and their queries
///     gt_nav.h         the navigation façade: distances, paths, edits
///     gt_links.h       links: stairs, ladders, teleporters, jump-downs
///     gt_crowd.h       many queries at once, schedules
///     gt_neighbours.h  straight-line neighbours of moving points, 2D and 3D, wrapping worlds
///     gt_debug_draw.h  the library draws its own state through your callbacks
/// Opt-in, not included here: gt_research.h (the OkNN k-nearest searches on a mesh, research
/// tools) and gt_lua.h (for hosts that compile the Lua binding in).
#ifndef GRIDTREE_GRIDTREE_H
#define GRIDTREE_GRIDTREE_H

#include "gt_base.h"
#include "gt_random.h"
#include "gt_map.h"
#include "gt_genmap.h"
#include "gt_tiled.h"
#include "gt_mesh.h"
#include "gt_ehl.h"
#include "gt_oracle.h"
#include "gt_world.h"
#include "gt_nav.h"
#include "gt_links.h"
#include "gt_crowd.h"
#include "gt_neighbours.h"
#include "gt_debug_draw.h"

#endif
