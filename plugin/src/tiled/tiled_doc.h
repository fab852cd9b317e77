// A Tiled map as the format readers (TMX through expat, TMJ through cJSON) leave it: tile layers
// as chunks of global tile ids, the ids whose tile carries the blocking property, and the
// objects. tiled_doc.c turns it into a gtMap. Internal.
#ifndef GRIDTREE_TILED_DOC_H
#define GRIDTREE_TILED_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gridtree/gt_tiled.h"

// Tiled keeps flip and rotation flags in the top four bits of a tile id.
#define TILED_GID_MASK 0x0FFFFFFFu

typedef struct TiledChunk {
	int x, y, width, height; // in Tiled's cells
	uint32_t* gids;          // width * height, row-major, flags still set
} TiledChunk;

typedef struct TiledLayer {
	char* name;
	TiledChunk* chunks;
	int64_t chunk_count, chunk_capacity;
} TiledLayer;

struct gtTiled {
	int tile_width, tile_height, origin_x, origin_y;
	char* blocked_by;
	gtTiledObject* objects;
	int64_t object_count, object_capacity;
	gtTiledProperty* properties;
	int64_t property_count, property_capacity;
	char** strings; // everything the objects and properties point to
	int64_t string_count, string_capacity;
};

typedef struct TiledDoc {
	const char* path;     // the map file, for messages
	char* dir;            // its folder, for external tilesets
	gtError* err;
	bool failed;
	bool infinite;
	int width, height;    // in cells (finite maps)
	const char* property; // the bool property that blocks a tile
	TiledLayer* layers;
	int64_t layer_count, layer_capacity;
	uint32_t* flagged;    // global ids whose tile has `property` true (unsorted until the end)
	int64_t flagged_count, flagged_capacity;
	int64_t cells_read;   // every chunk's cells so far, against GT_MAP_MAX_CELLS
	gtTiled* tiled;       // the objects go straight here
} TiledDoc;

// Records the first failure (later ones are dropped) and returns false: `return tiled_fail(...)`.
bool tiled_fail(TiledDoc* d, gtStatus status, const char* format, ...);

char* tiled_strdup(const char* s);
// A string the gtTiled owns (NULL when out of memory, with the failure recorded).
const char* tiled_keep(TiledDoc* d, const char* s);

TiledLayer* tiled_add_layer(TiledDoc* d, const char* name);
// A chunk of the last layer, its ids to be filled; NULL on failure (recorded).
TiledChunk* tiled_add_chunk(TiledDoc* d, int x, int y, int width, int height);
// Fills a chunk from layer data: `encoding` "csv" or "base64" (NULL or "" with no text: XML
// tiles, filled by the caller), `compression` NULL/"", "zlib", "gzip" or "zstd".
bool tiled_decode(TiledDoc* d, TiledChunk* c, const char* encoding, const char* compression, const char* text,
                  size_t length);
bool tiled_add_flagged(TiledDoc* d, uint32_t gid);
// An object, then its properties (attached to the last object).
bool tiled_add_object(TiledDoc* d, int id, const char* name, const char* type, const char* layer, double x, double y,
                      double width, double height);
bool tiled_add_property(TiledDoc* d, const char* name, const char* type, const char* value);

// Whole file into a NUL-terminated buffer (gt_free it); NULL on failure (recorded, naming path).
char* tiled_read_file(TiledDoc* d, const char* path, size_t* length);
// `source` relative to the map's folder (absolute paths stay), into a new string.
char* tiled_resolve(TiledDoc* d, const char* source);

// The readers: a map file (fills the doc) and a tileset file (flags its tiles from firstgid).
bool tiled_read_tmx(TiledDoc* d, const char* text, size_t length);
bool tiled_read_tmj(TiledDoc* d, const char* text, size_t length);
bool tiled_read_tsx(TiledDoc* d, const char* path, uint32_t firstgid);
bool tiled_read_tsj(TiledDoc* d, const char* path, uint32_t firstgid);
// An external tileset by its extension.
bool tiled_read_tileset(TiledDoc* d, const char* source, uint32_t firstgid);

bool tiled_ends_with(const char* s, const char* suffix); // any case

#endif
