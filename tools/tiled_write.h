// Writes a gtMap as a Tiled map in any variant gtMap_LoadTiled reads (`gridtree tiled-export`):
// the tests make every variant of the same map with it and check that it loads back the same.
#ifndef GRIDTREE_TOOLS_TILED_WRITE_H
#define GRIDTREE_TOOLS_TILED_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "gridtree/gridtree.h"
#include "workload_format.h"

typedef enum TwEncoding { TW_CSV, TW_BASE64, TW_XML } TwEncoding;
typedef enum TwCompression { TW_NONE, TW_ZLIB, TW_GZIP, TW_ZSTD } TwCompression;

typedef struct TiledWriteDef {
	TwEncoding encoding;       // TW_XML: <tile gid> elements, .tmx only
	TwCompression compression; // base64 only
	int chunk;                 // 0: a finite map; else an infinite one in chunks of this side
	int origin_x, origin_y;    // infinite: the Tiled cell of the map's cell (0, 0)
	bool external_tileset;     // a .tsx (for .tmx) or .tsj (for .tmj) next to the map
	bool blocked_by_property;  // walls as tiles with `collides`, else a `Collision` layer
	int tile_width, tile_height;
	const WlObject* objects; // an object layer "objects": name o<id>, type = first keyword
	int object_count;
} TiledWriteDef;

TiledWriteDef tiled_write_default(void);

// Bytes as base64 (with padding), as Tiled's layer data holds them.
void tiled_write_base64(FILE* f, const unsigned char* b, size_t n);

// Writes `path` (.tmx, or .tmj / .json), and its tileset file when external. False with a
// message in err on failure.
bool tiled_write(const gtMap* map, const char* path, const TiledWriteDef* def, gtError* err);

#endif
