/// @file gt_tiled.h
/// Tiled levels (`.tmx`, `.tmj`, `.json`): the blocked cells of an orthogonal map, its tile size
/// and origin, and its objects (spawn points, items).
#ifndef GRIDTREE_GT_TILED_H
#define GRIDTREE_GT_TILED_H

#include "gt_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Which cells are blocked. With both NULL (the default): the cells holding a tile in a tile
/// layer named `collision` (any case), or, when the map has no such layer, the cells whose tile
/// has the bool property `collides` set to true in any tile layer. Give at most one of the two.
typedef struct gtTiledDef {
	const char* blocked_layer;    ///< cells with any tile in this tile layer (any case; it must exist)
	const char* blocked_property; ///< cells whose tile has this bool property true, in any tile layer
} gtTiledDef;

gtTiledDef gtTiled_DefaultDef(void);

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
/// none; `layer` is the object layer's name.
typedef struct gtTiledObject {
	int id;
	const char* name;
	const char* type;
	const char* layer;
	double x, y, width, height;
	int first_property, property_count; ///< its properties: gtTiled_Property(first .. first + count - 1)
} gtTiledObject;

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
/// How the blocked cells were chosen: "layer NAME" or "property NAME".
const char* gtTiled_BlockedBy(const gtTiled* tiled);
int gtTiled_ObjectCount(const gtTiled* tiled);
const gtTiledObject* gtTiled_Object(const gtTiled* tiled, int index);
const gtTiledProperty* gtTiled_Property(const gtTiled* tiled, int index);

#ifdef __cplusplus
}
#endif

#endif
