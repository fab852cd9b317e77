/// @file gt_map.h
/// MovingAI grid maps: loading, cell queries, point validity, corner classification, visibility.
///
/// Contents
///     Maps           gtMap_Load, gtMap_Parse, gtMap_FromCells, gtMap_Inflate, gtMap_Save
///     Cells, points  gtMap_Width, gtMap_IsBlocked, gtMap_CheckPoint, gtMap_RandomPoint
///     Visibility     gtMap_ClassifyCorner, gtMap_Vertices, gtMap_Visible, gtMap_FreeRun
#ifndef GRIDTREE_GT_MAP_H
#define GRIDTREE_GT_MAP_H

#include <stdbool.h>

#include "gt_base.h"
#include "gt_random.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Maps

/// An immutable grid map. Safe to share between threads once loaded.
typedef struct gtMap gtMap;

/// Loads a MovingAI `.map` file. On failure returns a status, sets *out to NULL and fills err
/// with "path:line: problem".
gtStatus gtMap_Load(const char* path, gtMap** out, gtError* err);

/// Parses a map held in memory; `name` is used in error messages.
gtStatus gtMap_Parse(const char* text, size_t length, const char* name, gtMap** out, gtError* err);

/// Builds a map from `width * height` row-major cells (row y starts at y * width), non-zero
/// meaning blocked: a game's own tile array, with no file in between. The cells are copied.
gtStatus gtMap_FromCells(int width, int height, const unsigned char* blocked, gtMap** out, gtError* err);

/// Largest clearance gtMap_Inflate takes (any clearance of half the map's side or more blocks it all).
#define GT_MAP_MAX_CLEARANCE 32767

/// The map for agents with a size: an axis-aligned square agent of half-width `clearance` cells,
/// centred on a point, touches no blocked cell exactly when the point is in the free space of the
/// map this returns. Every cell within Chebyshev distance `clearance` of a blocked cell or of the
/// map border becomes blocked; 0 gives a copy. Paths and distances on the result are those of the
/// agent's centre. A round unit of radius r is served conservatively by clearance ceil(r).
gtStatus gtMap_Inflate(const gtMap* map, int clearance, gtMap** out, gtError* err);

/// Writes the map in MovingAI format (`.` free, `@` blocked) through a temporary file and a rename.
gtStatus gtMap_Save(const gtMap* map, const char* path, gtError* err);

void gtMap_Destroy(gtMap* map);

//------------------------------------------------------------------------------------------------
// Cells and points

int gtMap_Width(const gtMap* map);
int gtMap_Height(const gtMap* map);
int64_t gtMap_FreeCells(const gtMap* map);

/// True when cell (cx, cy) is blocked; every cell outside the map is blocked.
bool gtMap_IsBlocked(const gtMap* map, int cx, int cy);

/// 64-bit FNV-1a fingerprint of the dimensions and the blocked/free pattern.
uint64_t gtMap_Fingerprint(const gtMap* map);

/// Why a point is or is not in the closed free space.
typedef enum gtPointCheck {
	GT_POINT_VALID = 0,
	GT_POINT_NOT_FINITE, ///< NaN or infinity
	GT_POINT_OFF_MAP,    ///< outside [0, width] x [0, height]
	GT_POINT_IN_WALL     ///< every closed cell containing the point is blocked
} gtPointCheck;

gtPointCheck gtMap_CheckPoint(const gtMap* map, gtVec2 p);

/// Human-readable reason for a gtPointCheck value.
const char* gtPointCheckName(gtPointCheck check);

/// A random point of the free space, every point equally likely: a uniform free cell, then a
/// uniform point inside it (x drawn before y). The same `rng` state gives the same point on every
/// platform. GT_ERR_INVALID_ARG for a map without free cells.
gtStatus gtMap_RandomPoint(const gtMap* map, gtRandom* rng, gtVec2* point, gtError* err);

//------------------------------------------------------------------------------------------------
// Corners, convex vertices and visibility

/// Classification of a grid point (x, y) by its four incident cells (docs/algorithms.md 2.2).
typedef enum gtCorner {
	GT_CORNER_OPEN = 0, ///< no blocked incident cell
	GT_CORNER_CONVEX,   ///< exactly one blocked cell: a vertex paths can bend around
	GT_CORNER_WALL,     ///< two blocked cells sharing an edge
	GT_CORNER_PINCH,    ///< two diagonally opposite blocked cells: paths may not pass through
	GT_CORNER_CONCAVE,  ///< three blocked cells
	GT_CORNER_INTERIOR  ///< four blocked cells
} gtCorner;

/// Grid points outside [0, width] x [0, height] are GT_CORNER_INTERIOR.
gtCorner gtMap_ClassifyCorner(const gtMap* map, int x, int y);

/// A convex vertex and the direction (bx, by) in {-1, +1}^2 from it into its blocked cell.
typedef struct gtVertex {
	int32_t x, y;
	int8_t bx, by;
} gtVertex;

/// The convex vertices in row-major order (by y, then x); `*count` receives their number.
const gtVertex* gtMap_Vertices(const gtMap* map, int* count);

/// Number of pinch points (docs/algorithms.md 2.1).
int gtMap_PinchCount(const gtMap* map);

/// Exact co-visibility of two points of the closed free space (docs/algorithms.md 2.3):
/// the open segment may graze convex corners and run along walls, but may not enter a blocked
/// cell, run between two blocked cells or pass through a pinch point. An endpoint at a pinch
/// point belongs to the free cell on its +x side, so the segment must leave into that cell's
/// closed quadrant. The answer is exact for every pair of finite double endpoints (a filtered
/// orientation test falls back to error-free arithmetic when rounding could matter); the one
/// exception is coordinates below 1e-150 in magnitude, where products underflow.
/// Returns false when either endpoint is not a valid point.
bool gtMap_Visible(const gtMap* map, gtVec2 a, gtVec2 b);

/// gtMap_Visible by the plain cell walk, one cell at a time, without the free runs
/// (gtMap_FreeRun): the same answer, slower. The reference the tests hold gtMap_Visible to.
bool gtMap_VisibleCellByCell(const gtMap* map, gtVec2 a, gtVec2 b);

/// How many free cells follow from cell (cx, cy) on towards +x (or +y with `along_y`), the cell
/// itself counted, at most GT_MAP_FREE_RUN_CAP; 0 for a blocked cell or one off the map. Kept up
/// to date through edits; gtMap_Visible checks a row (column) of cells at once with them.
int gtMap_FreeRun(const gtMap* map, int cx, int cy, bool along_y);
#define GT_MAP_FREE_RUN_CAP 255

#ifdef __cplusplus
}
#endif

#endif
