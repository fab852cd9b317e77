/// @file gt_genmap.h
/// Procedural MovingAI maps made by the project (the bundled assets come from here).
///
/// Contents
///     Generated maps  gtMapStyle, gtMapStyle_Parse, gtMap_Generate
#ifndef GRIDTREE_GT_GENMAP_H
#define GRIDTREE_GT_GENMAP_H

#include "gt_map.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Generated maps

typedef enum gtMapStyle {
	GT_STYLE_ROOMS, ///< rectangular rooms joined by corridors and doors
	GT_STYLE_CAVES, ///< cellular-automaton caves
	GT_STYLE_ARENA  ///< an open arena with pillars and wall segments
} gtMapStyle;

/// Smallest and largest side accepted by gtMap_Generate.
#define GT_GENMAP_MIN_SIDE 8
#define GT_GENMAP_MAX_SIDE 4096

/// "rooms", "caves" or "arena" -> style; GT_ERR_INVALID_ARG for anything else.
gtStatus gtMapStyle_Parse(const char* name, gtMapStyle* style, gtError* err);

/// Generates a map deterministically from `seed` (same bytes on every platform). The result has
/// one connected free region (4-connected through cell edges; every other free cell is filled),
/// a blocked one-cell border, and at least a quarter of its cells free.
gtStatus gtMap_Generate(gtMapStyle style, int width, int height, uint64_t seed, gtMap** out, gtError* err);

#ifdef __cplusplus
}
#endif

#endif
