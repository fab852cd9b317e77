/// @file gt_tiled.h
/// Tiled levels (`.tmx`, `.tmj`, `.json`): the blocked cells of an orthogonal map, its tile size
/// and origin, and its objects (spawn points, items).
///
/// Contents
///     Reading a level        gtTiledDef, gtMap_LoadTiled, gtMap_ParseTiled
///     What it brings         gtTiled_TileWidth, gtTiled_CellsToPixels, gtTiled_Object
///     Where walls came from  gtTiled_BlockedBy, gtTiled_WallCells
///     Floors and links       gtTiled_FloorCount, gtTiled_Link (docs/links.md, Floors in Tiled)
#ifndef GRIDTREE_GT_TILED_H
#define GRIDTREE_GT_TILED_H

#include "gt_map.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Reading a level

/// Reads a file a level names (and the map itself for gtMap_LoadTiled): `name` is the level's
/// path joined with the name the level gives, normalised ("levels/a/../t.tsx" is "levels/t.tsx").
/// True with `*bytes` valid until the load returns (e.g. inside a game's archive), false when
/// there is no such file. Also how a game reads levels from its own archive.
typedef bool (*gtTiledReadFile)(void* user, const char* name, const char** bytes, size_t* length);

/// How a Tiled level is read. Start from gtTiled_DefaultDef(). See docs/tiled.md.
///
/// Walls. With neither `blocked_layer` nor `blocked_property`, the walls are the union of every
/// convention the level uses (gtTiled_WallCells counts each):
/// - a tile layer named `collision` (any case): its cells holding a tile;
/// - tiles with the bool property `collides` or `collidable` true, tiles with collision shapes in
///   their tileset (Tiled's collision editor), and every tile of a tile layer whose own property
///   `collidable` (or `collides`) is true. A tile with collision shapes walls the cells its shapes
///   cover, by the rule below, placed as Tiled draws the tile (flip flags, images larger than a
///   cell bottom-aligned); without shapes its whole cell;
/// - objects of object layers whose property `collidable` (or `collides`) is true, and objects
///   with that property: rectangles, ellipses, capsules and polygons (even-odd; Tiled's rotation,
///   clockwise in degrees about the object's position) wall every cell whose CENTRE lies inside
///   or on the shape; polylines wall every cell whose interior one of their segments passes
///   through; points, text and shapes of zero area wall nothing; tile objects use their tile's
///   shapes scaled to the object (its whole rectangle when the tile has none).
/// The centre, because a cell is blocked exactly when an agent standing at its centre would stand
/// inside the shape: the rule is exact for axis-aligned shapes on the grid, and it never walls a
/// cell that a shape only grazes.
/// A level where no rule finds a wall is refused (naming the layers and properties it has), unless
/// `allow_empty`. A named layer or property that matches nothing is an error.
///
/// Untrusted levels. Tileset paths must stay inside the level's folder (no absolute path, no `..`
/// above it, no symbolic link out of it) unless `allow_outside_paths`; a refusal of a path never
/// says whether the file exists. Only
/// regular files are opened; each external tileset is read once per load. `read_file` (with
/// `read_file_user`), when set, reads every file instead of the disk (the folder rule still holds).
///
/// Limits, checked before allocating; 0 takes the default, and each refusal names its field.
typedef struct gtTiledDef {
	const char*
	    blocked_layer; ///< only this layer (any case; it must exist): a tile layer's cells with a tile, an object layer's shapes
	const char*
	    blocked_property; ///< only this bool property (on tiles, tile layers, object layers, objects); it must be set somewhere
	bool allow_empty;          ///< a level without walls loads (all cells free)
	bool allow_outside_paths;  ///< tileset paths may be absolute or leave the level's folder
	gtTiledReadFile read_file; ///< NULL: read the disk
	void* read_file_user;
	int64_t max_cells; ///< tile ids read over all layers and chunks, and the map's cells (default 16,777,216)
	int64_t max_decompressed_bytes; ///< bytes of zlib, gzip and zstd layer data in all (default 64 MiB)
	int64_t max_file_bytes;         ///< size of each file read: the map, each tileset (default 32 MiB)
	int64_t max_objects;            ///< objects, tile collision shapes and polygon points / 16 (default 100,000)
	int64_t max_tilesets;           ///< tileset references in the map, embedded or external (default 4,096)
} gtTiledDef;

gtTiledDef gtTiled_DefaultDef(void);

//------------------------------------------------------------------------------------------------
// What a level brings besides its cells

/// What a Tiled file brings besides its cells. Owns every string it hands out.
typedef struct gtTiled gtTiled;

/// One custom property: its name, Tiled type (`string`, `int`, `float`, `bool`, `color`, `file`,
/// `object`, `class`) and value as text (`true`/`false` for bools).
typedef struct gtTiledProperty {
	const char* name;
	const char* type;
	const char* value;
} gtTiledProperty;

/// An object of an object layer, in map cells from the gtMap's origin (pixels divided by the tile
/// size, less the origin): a spawn point or an item. `type` is Tiled's type (or class); "" when
/// none; `layer` is the object layer's name. In a level of floors, an object on floor f lies in
/// that floor's part of the map (x moved across by f * (gtTiled_FloorWidth + 1)).
typedef struct gtTiledObject {
	int id;
	const char* name;
	const char* type;
	const char* layer;
	double x, y, width, height;
	int first_property, property_count; ///< its properties: gtTiled_Property(first .. first + count - 1)
	int floor; ///< its floor group's number; outside floor groups its int property `floor`, else 0
} gtTiledObject;

/// A link object of the level (bool property `link`): a point or a line joining two points of the
/// map, maybe on two floors, at `cost`. Ends in map cells, floors laid out as gtMap_FromFloors does.
typedef struct gtTiledLink {
	int object; ///< the link object's id
	gtVec2 a, b;
	int floor_a, floor_b;
	double cost;  ///< its property `cost`, else the length of the line as drawn (0 for a point)
	bool one_way; ///< its bool property `oneway`: from a to b only
} gtTiledLink;

/// Loads the blocked cells of an orthogonal Tiled map: finite or infinite (chunks), CSV, base64,
/// base64 with zlib, gzip or zstd, or XML tiles; embedded and external tilesets (`.tsx`, `.tsj`);
/// tile ids with flip flags. For an infinite map the gtMap covers the bounding box of every tile
/// layer's chunks: its cell (0, 0) is Tiled's cell (origin x, origin y). `tiled` (may be NULL)
/// receives the tile size, origin and objects; destroy it with gtTiled_Destroy. Errors name the
/// file (the map's or the tileset's) and what is wrong.
gtStatus gtMap_LoadTiled(const char* path, const gtTiledDef* def, gtMap** map, gtTiled** tiled, gtError* err);

/// The same from a file's contents held in memory (a game's packed assets). `name` gives the
/// format by its extension (`.tmx` is XML, anything else JSON), names the map in messages, and
/// its folder is where external tilesets are looked for.
gtStatus gtMap_ParseTiled(const char* text, size_t length, const char* name, const gtTiledDef* def, gtMap** map,
                          gtTiled** tiled, gtError* err);

/// Whether a path names a Tiled file by its extension (`.tmx`, `.tmj`, `.json`, any case).
bool gtTiled_IsTiledPath(const char* path);

void gtTiled_Destroy(gtTiled* tiled);

int gtTiled_TileWidth(const gtTiled* tiled);  ///< pixels per cell across
int gtTiled_TileHeight(const gtTiled* tiled); ///< pixels per cell down
/// Tiled's cell coordinates of the gtMap's cell (0, 0): (0, 0) for finite maps, the top-left
/// chunk's corner for infinite ones (may be negative).
void gtTiled_Origin(const gtTiled* tiled, int* x, int* y);
/// Game units: Tiled's pixel position of a point of the gtMap, and back. The library works in
/// cells; pixel = (cell + origin) * tile size, per axis.
gtVec2 gtTiled_CellsToPixels(const gtTiled* tiled, gtVec2 cells);
gtVec2 gtTiled_PixelsToCells(const gtTiled* tiled, gtVec2 pixels);
//------------------------------------------------------------------------------------------------
// Where the walls came from

/// How the blocked cells were chosen: the rules that found walls, joined by "; ": "layer NAME"
/// (a tile layer's cells), "property NAME" (tiles; NAME may be "collides/collidable"), "tile collision shapes", "layers
/// with property NAME", "objects with property NAME", "objects of layer NAME"; "nothing" for an
/// empty level loaded with allow_empty.
const char* gtTiled_BlockedBy(const gtTiled* tiled);

/// The wall rules, in the order above.
typedef enum gtTiledRule {
	GT_TILED_RULE_LAYER,          ///< a tile layer's cells (`collision`, or blocked_layer)
	GT_TILED_RULE_TILE_PROPERTY,  ///< tiles with the wall property (their shapes, or their cells)
	GT_TILED_RULE_TILE_SHAPES,    ///< other tiles with collision shapes (Tiled's collision editor alone)
	GT_TILED_RULE_LAYER_PROPERTY, ///< every tile of tile layers with the wall property
	GT_TILED_RULE_OBJECTS,        ///< objects with the property or in object layers with it (or of blocked_layer)
	GT_TILED_RULE_COUNT
} gtTiledRule;
/// How many cells a rule walled (cells walled by several rules count in each); -1 for no rule.
int64_t gtTiled_WallCells(const gtTiled* tiled, gtTiledRule rule);
/// A rule's short name, for reports: "layer", "tile_property", "tile_shapes", "layer_property", "objects".
const char* gtTiled_RuleName(gtTiledRule rule);
int gtTiled_ObjectCount(const gtTiled* tiled);
//------------------------------------------------------------------------------------------------
// Floors and links (docs/links.md, Floors in Tiled)

/// Floors of the level: its group layers with an int property `floor` (0, 1, ...), laid side by
/// side in the gtMap as gtMap_FromFloors does, or 1 for a level without floor groups.
int gtTiled_FloorCount(const gtTiled* tiled);
/// Cells across one floor (the map's width for a level of one floor).
int gtTiled_FloorWidth(const gtTiled* tiled);
/// A floor group's name ("" for a level without floor groups or a floor out of range).
const char* gtTiled_FloorName(const gtTiled* tiled, int floor);
/// The level's link objects, ends checked in the free space; add them to a nav with
/// gtNav_AddTiledLinks (gt_links.h), which also declares the floors.
int gtTiled_LinkCount(const gtTiled* tiled);
const gtTiledLink* gtTiled_Link(const gtTiled* tiled, int index);
const gtTiledObject* gtTiled_Object(const gtTiled* tiled, int index);
const gtTiledProperty* gtTiled_Property(const gtTiled* tiled, int index);

#ifdef __cplusplus
}
#endif

#endif
