/// @file gt_debug_draw.h
/// Debug drawing: the library draws its own state (a world's Grid Tree, a query's trace, an EHL
/// index's cells and vias, a map's convex vertices and visibility, a path) through callbacks the
/// caller implements with whatever renderer it has, in the manner of Box2D's b2DebugDraw and
/// Detour's DebugUtils. Coordinates are map units (x right, y down, cell (x, y) is the unit square
/// from (x, y)); the caller maps them to the screen. Nothing here allocates: buffers that a
/// function needs are the caller's, so drawing every frame costs no allocation.
///
/// Colours are 32-bit 0xRRGGBBAA (alpha 255 = opaque). Each function documents the colours it uses
/// (the GT_DEBUG_COLOR_* constants below).
///
/// Bad input never crashes: a NULL draw struct, NULL state, an out-of-range cell or vertex draws
/// nothing and returns -1 (or 0 where documented); a NULL callback skips that kind of primitive.
///
/// Contents
///     Callbacks and colours  gtDebugDraw, GT_DEBUG_COLOR_*
///     World                  gtDebugDraw_WorldNodes, gtDebugDraw_WorldLeafGrid
///     Query trace            gtDebugTrace_*, gtDebugDraw_Trace
///     EHL index              gtDebugDraw_EhlCells, gtDebugDraw_EhlCellVias
///     Map                    gtDebugDraw_MapVertices, gtDebugDraw_VisibilityEdges
///     Paths                  gtDebugDraw_Path
#ifndef GRIDTREE_GT_DEBUG_DRAW_H
#define GRIDTREE_GT_DEBUG_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_ehl.h"
#include "gt_map.h"
#include "gt_world.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Callbacks and colours

/// 0xRRGGBBAA.
typedef uint32_t gtColor;

/// The callbacks the library draws through. Any of them may be NULL (that primitive is skipped).
/// `context` is passed back unchanged as every callback's first argument.
typedef struct gtDebugDraw {
	/// A line segment from a to b.
	void (*segment)(void* context, gtVec2 a, gtVec2 b, gtColor color);
	/// A closed polygon of `count` points (the library only draws rectangles: 4 points, clockwise
	/// on screen with y down), filled or as an outline.
	void (*polygon)(void* context, const gtVec2* points, int count, bool filled, gtColor color);
	/// A circle, filled or as an outline.
	void (*circle)(void* context, gtVec2 centre, double radius, bool filled, gtColor color);
	/// A point; `size` is a hint in screen pixels.
	void (*point)(void* context, gtVec2 p, double size, gtColor color);
	/// A short label whose top-left corner is at p (NUL-terminated, ASCII).
	void (*text)(void* context, gtVec2 p, const char* text, gtColor color);
	void* context;
} gtDebugDraw;

/// The colours the drawing functions use.
#define GT_DEBUG_COLOR_TREE_NODE 0x7A6AB4FFu    ///< tree node outlines (alpha fades with depth)
#define GT_DEBUG_COLOR_LEAF_GRID 0x5A4A7AFFu    ///< the leaf grid
#define GT_DEBUG_COLOR_TRACE_POPPED 0x5AAAFF00u ///< popped nodes: leaves filled at alpha 60, the others outlined at 150
#define GT_DEBUG_COLOR_TRACE_KEYWORDS 0xFF9628C8u  ///< nodes pruned by keywords (outline)
#define GT_DEBUG_COLOR_TRACE_DISTANCE 0xD2D2E6C8u  ///< nodes pruned by distance (outline)
#define GT_DEBUG_COLOR_EHL_CELL 0x2E6B4AFFu        ///< EHL cell boundaries
#define GT_DEBUG_COLOR_EHL_SELECTED 0x66FF99FFu    ///< the outline of the cell whose vias are drawn
#define GT_DEBUG_COLOR_EHL_VIA_FULL 0x3CDC78FFu    ///< a via the whole cell sees (cell centre to vertex)
#define GT_DEBUG_COLOR_EHL_VIA_PARTIAL 0xDCC83CFFu ///< a via part of the cell sees
#define GT_DEBUG_COLOR_VERTEX 0xFAFA78FFu          ///< convex vertices
#define GT_DEBUG_COLOR_VISIBILITY 0x78FFC8FFu      ///< visibility edges of one vertex
#define GT_DEBUG_COLOR_VERTEX_SELECTED 0xFF78C8FFu ///< the vertex whose edges are drawn (circle, label)

//------------------------------------------------------------------------------------------------
// World

/// Outlines of the world's tree nodes, level by level from the root down to `max_level`
/// (clamped to the tree height; < 0 means every level), as 4-point polygons in
/// GT_DEBUG_COLOR_TREE_NODE with alpha 255 at the root fading to 64 at the deepest level drawn.
/// With `occupied_only`, nodes without objects are skipped. Returns the number of nodes drawn
/// (at full depth without `occupied_only`, gtWorld_TreeSize's node count), -1 for NULL arguments.
/// Every node of a level is visited: keep `max_level` low on tall trees.
int64_t gtDebugDraw_WorldNodes(const gtDebugDraw* draw, const gtWorld* world, int max_level, bool occupied_only);

/// The leaf grid (2^h x 2^h leaves over the map, h the tree height) as 2^h + 1 vertical and
/// 2^h + 1 horizontal segments spanning the map, in GT_DEBUG_COLOR_LEAF_GRID. Returns the number
/// of segments, -1 for NULL arguments.
int64_t gtDebugDraw_WorldLeafGrid(const gtDebugDraw* draw, const gtWorld* world);

//------------------------------------------------------------------------------------------------
// Query trace

/// One node a traversal reported (gtQuery.trace).
typedef struct gtDebugTraceEntry {
	double rect[4]; ///< x0 y0 x1 y1
	int32_t level;
	gtTraceEvent event;
} gtDebugTraceEntry;

/// A recorder of a query's trace into caller-owned storage: no allocation per query. Events past
/// `capacity` are counted in `dropped` and not stored.
typedef struct gtDebugTrace {
	gtDebugTraceEntry* entries;
	int capacity;
	int count;
	int64_t dropped;
} gtDebugTrace;

/// A recorder over `storage[0..capacity)` (capacity < 0 counts as 0).
gtDebugTrace gtDebugTrace_Make(gtDebugTraceEntry* storage, int capacity);
/// Forgets what was recorded (count and dropped back to 0).
void gtDebugTrace_Clear(gtDebugTrace* trace);
/// Clears the recorder and points query->trace at it; run the query next.
void gtDebugTrace_Attach(gtDebugTrace* trace, gtQuery* query);
/// The gtTraceFcn the recorder uses (context = the gtDebugTrace*); NULL context is ignored.
void gtDebugTrace_Record(void* context, gtTraceEvent event, int level, const double rect[4]);

/// Draws what `trace` recorded, in order:
/// - GT_TRACE_POPPED: a leaf (level >= height) filled in GT_DEBUG_COLOR_TRACE_POPPED at alpha 60,
///   a node above the leaves outlined at alpha 150 (nested fills would hide the map); the root is
///   skipped (it covers the whole map, shading it says nothing);
/// - GT_TRACE_PRUNED_KEYWORDS: outline in GT_DEBUG_COLOR_TRACE_KEYWORDS;
/// - GT_TRACE_PRUNED_DISTANCE: outline in GT_DEBUG_COLOR_TRACE_DISTANCE.
/// `height` is the tree height (gtWorld_TreeSize); <= 0 uses the deepest level recorded. Returns
/// the number of polygons drawn, -1 for NULL arguments.
int64_t gtDebugDraw_Trace(const gtDebugDraw* draw, const gtDebugTrace* trace, int height);

//------------------------------------------------------------------------------------------------
// EHL index

/// The cell grid of the index (gtEhl_GridSize cells of the index's cell size): columns + 1
/// vertical and rows + 1 horizontal segments, clipped to the map, in GT_DEBUG_COLOR_EHL_CELL.
/// Returns the number of segments, -1 for NULL arguments.
int64_t gtDebugDraw_EhlCells(const gtDebugDraw* draw, const gtEhl* ehl);

/// The via labels of one cell (cell = row * columns + column, as gtEhl_CellVias): the cell's
/// outline in GT_DEBUG_COLOR_EHL_SELECTED and, for each via, a segment from the cell's centre to
/// its convex vertex in GT_DEBUG_COLOR_EHL_VIA_FULL or GT_DEBUG_COLOR_EHL_VIA_PARTIAL.
/// `scratch[0..capacity)` receives the vias (the first `capacity` are drawn). Returns how many
/// vias the cell has (more than capacity: call again with a larger buffer), -1 for a cell outside
/// the grid or NULL arguments (nothing drawn).
int64_t gtDebugDraw_EhlCellVias(const gtDebugDraw* draw, const gtEhl* ehl, int64_t cell, gtEhlVia* scratch,
                                int64_t capacity);

//------------------------------------------------------------------------------------------------
// Map

/// Every convex vertex (gtMap_Vertices) as a point of size 3 in GT_DEBUG_COLOR_VERTEX. Returns
/// their number, -1 for NULL arguments.
int gtDebugDraw_MapVertices(const gtDebugDraw* draw, const gtMap* map);

/// The visibility edges of convex vertex `vertex` (an index into gtMap_Vertices): a segment in
/// GT_DEBUG_COLOR_VISIBILITY to every other convex vertex it sees by gtMap_Visible's exact rule, then a
/// circle of radius 0.5 around it and its index as a label in GT_DEBUG_COLOR_VERTEX_SELECTED.
/// Returns the number of edges, -1 for an index out of range or NULL arguments (nothing drawn).
/// O(vertices) visibility tests.
int gtDebugDraw_VisibilityEdges(const gtDebugDraw* draw, const gtMap* map, int vertex);

//------------------------------------------------------------------------------------------------
// Paths

/// A path as `count - 1` segments in `color` and a point of size 3 at each of its `count` points.
/// Returns the number of segments, -1 for NULL arguments or count < 0.
int gtDebugDraw_Path(const gtDebugDraw* draw, const gtVec2* points, int count, gtColor color);

#ifdef __cplusplus
}
#endif

#endif
