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
	bool solid;    // its own wall property (`collidable`) is true: every tile of it is a wall
	int64_t group; // the innermost group layer holding it, -1 for none
	TiledChunk* chunks;
	int64_t chunk_count, chunk_capacity;
} TiledLayer;

// A shape of Tiled's object model: an object of an object layer, or a collision shape of a tile
// (Tiled's collision editor). Positions in pixels; rotation clockwise in degrees about (x, y).
enum { TILED_RECT, TILED_ELLIPSE, TILED_POLYGON, TILED_POLYLINE, TILED_POINT, TILED_CAPSULE, TILED_TEXT };
typedef struct TiledShape {
	int kind;
	double x, y, width, height, rotation;
	uint32_t gid;                     // a tile object's tile (flags kept); 0 for none
	int64_t first_point, point_count; // polygon or polyline points, relative to (x, y), in TiledDoc.points
} TiledShape;

// A map object's place in the wall rules (parallel to gtTiled's objects).
typedef struct TiledObjectWall {
	TiledShape shape;
	int64_t layer; // index into TiledDoc.object_layers
	bool solid;    // its own wall property is true
	bool link;     // its bool property `link` is true: a link between two points, never a wall
} TiledObjectWall;

typedef struct TiledObjectLayer {
	char* name;
	bool solid;
	int64_t group; // the innermost group layer holding it, -1 for none
} TiledObjectLayer;

// A group layer: its parent group (-1 for none) and its own floor number (property `floor`, -1
// for none). A floor group makes the level one of several floors (tiled_floors.c).
typedef struct TiledGroup {
	char* name;
	int64_t parent;
	int64_t floor;
} TiledGroup;

// A tile of a tileset with anything the walls need: the wall property, its own image size
// (image-collection tilesets), its collision shapes.
typedef struct TiledTile {
	uint32_t id;
	bool solid;
	double width, height;             // 0: the tileset's tile size
	int64_t first_shape, shape_count; // in TiledDoc.tile_shapes
} TiledTile;

// A tileset's contents, shared by every reference to the same file (read once per load).
typedef struct TiledSource {
	char* path; // resolved; NULL for an embedded tileset
	double tile_width, tile_height;
	TiledTile* tiles; // sorted by id once read
	int64_t tile_count, tile_capacity;
} TiledSource;

typedef struct TiledTilesetRef {
	uint32_t firstgid;
	int64_t source; // index into TiledDoc.sources
} TiledTilesetRef;

// An object template (.tx) as read once per load: its object's shape (points in TiledDoc.points)
// and whether it is a tile object (origin bottom-left).
typedef struct TiledTemplate {
	char* path;
	TiledShape shape;
	bool tile;
} TiledTemplate;

// The limits of one load (gtTiledDef's, defaults filled in).
typedef struct TiledLimits {
	int64_t cells, decompressed_bytes, file_bytes, objects, tilesets;
} TiledLimits;

struct gtTiled {
	int tile_width, tile_height, origin_x, origin_y;
	char* blocked_by;
	int64_t wall_cells[GT_TILED_RULE_COUNT];
	gtTiledObject* objects;
	int64_t object_count, object_capacity;
	gtTiledProperty* properties;
	int64_t property_count, property_capacity;
	int floors, floor_width;  // floor groups (0: none, one floor) and the cells across each
	const char** floor_names; // each floor group's name, by floor
	gtTiledLink* links;
	int64_t link_count, link_capacity;
	char** strings; // everything the objects and properties point to
	int64_t string_count, string_capacity;
};

typedef struct TiledDoc {
	const char* path; // the map file, for messages
	char* dir;        // its folder, for external tilesets
	gtError* err;
	bool failed;
	bool infinite;
	int width, height;    // in cells (finite maps)
	const char* property; // the bool property chosen by the caller; NULL: `collides` or `collidable`
	const gtTiledDef* def;
	TiledLimits limits;
	TiledLayer* layers;
	int64_t layer_count, layer_capacity;
	TiledObjectLayer* object_layers;
	int64_t object_layer_count, object_layer_capacity;
	TiledObjectWall* object_walls; // one per gtTiled object
	int64_t object_wall_capacity;
	TiledShape* tile_shapes;
	int64_t tile_shape_count, tile_shape_capacity;
	double* points; // x, y pairs
	int64_t point_count, point_capacity;
	TiledSource* sources;
	int64_t source_count, source_capacity;
	TiledTilesetRef* tilesets;
	int64_t tileset_count, tileset_capacity;
	TiledTemplate* templates;
	int64_t template_count, template_capacity;
	TiledGroup* groups;
	int64_t group_count, group_capacity;
	int64_t current_group; // the group being read, -1 at the top
	char* bool_names[12];  // bool properties seen on tiles and layers, for the no-walls message
	int bool_name_count;
	unsigned wall_names; // which wall property names matched: 1 collides, 2 collidable, 4 the caller's
	unsigned tile_names, layer_names, object_names; // the same for tiles, tile layers, objects and object layers
	int64_t cells_read;                             // every chunk's cells so far, against the cell limit
	int64_t decompressed;                           // bytes inflated so far, against the decompressed limit
	int64_t weight; // objects, tiles, shapes and points / 16 so far, against the object limit
	gtTiled* tiled; // the objects go straight here
} TiledDoc;

// Records the first failure (later ones are dropped) and returns false: `return tiled_fail(...)`.
bool tiled_fail(TiledDoc* d, gtStatus status, const char* format, ...);

char* tiled_strdup(const char* s);
// A string the gtTiled owns (NULL when out of memory, with the failure recorded).
const char* tiled_keep(TiledDoc* d, const char* s);

TiledLayer* tiled_add_layer(TiledDoc* d, const char* name);
// A chunk of the last layer, its ids to be filled; NULL on failure (recorded). A compressed
// chunk's bytes count against the decompressed limit here, before anything is allocated.
TiledChunk* tiled_add_chunk(TiledDoc* d, int x, int y, int width, int height, bool compressed);
// Fills a chunk from layer data: `encoding` "csv" or "base64" (NULL or "" with no text: XML
// tiles, filled by the caller), `compression` NULL/"", "zlib", "gzip" or "zstd".
bool tiled_decode(TiledDoc* d, TiledChunk* c, const char* encoding, const char* compression, const char* text,
                  size_t length);
// An object layer (objects added next belong to it) and a map object (shape: its geometry;
// checked finite and in range, the error naming the object and field), then its properties
// (attached to the last object).
bool tiled_add_object_layer(TiledDoc* d, const char* name);
bool tiled_add_object(TiledDoc* d, int id, const char* name, const char* type, const TiledShape* shape);
bool tiled_add_property(TiledDoc* d, const char* name, const char* type, const char* value);
// A property of a tile layer or object layer (the last one added): the wall property marks it.
void tiled_layer_property(TiledDoc* d, bool object_layer, const char* name, const char* type, const char* value);
// Whether a tile's property is a wall property set true (and notes bool names for messages).
bool tiled_wall_property(TiledDoc* d, const char* name, const char* type, const char* value);
// Checks a shape's numbers (what names the object in messages); false with the failure recorded.
bool tiled_check_shape(TiledDoc* d, const char* what, const TiledShape* s);
// Points of the last shape (pixels, relative to it); false with the failure recorded.
bool tiled_add_point(TiledDoc* d, const char* what, double x, double y);

// Tilesets: a new source (embedded, or read from `path`), a reference to one at firstgid, a
// tile of the last source, a collision shape of its last tile.
int64_t tiled_add_source(TiledDoc* d, const char* path, double tile_width, double tile_height);
bool tiled_add_tileset(TiledDoc* d, uint32_t firstgid, int64_t source);
TiledTile* tiled_add_tile(TiledDoc* d, uint32_t id);
bool tiled_add_tile_shape(TiledDoc* d, const TiledShape* shape);
// The last tile is read: dropped when the walls need nothing of it.
void tiled_end_tile(TiledDoc* d);
// The tile a global id names (flags ignored) and its tileset's tile size; NULL when none.
const TiledTile* tiled_find_tile(const TiledDoc* d, uint32_t gid, double* tile_width, double* tile_height);

// Files: the map's folder decides what a level may name (tiled_paths.c). A whole file into a
// NUL-terminated buffer (gt_free it), regular files only, within the file limit; NULL on failure
// (recorded, naming the file).
char* tiled_read_file(TiledDoc* d, const char* path, size_t* length);
// `source` as the file `from` names it (NULL: the map), relative to that file's folder,
// normalised; NULL (recorded) when it leaves the level's folder and the caller did not allow
// that. `what` is "tileset", "template", ...
char* tiled_resolve(TiledDoc* d, const char* from, const char* source, const char* what);

// A .tmj's long arrays of tile ids, taken out of the text before cJSON parses it
// (tiled_tmj_scan.c): `text` is the edited copy (NULL when there were none), spans are (offset,
// length) pairs in the original text, the i-th array's place holding the number -(i + 1).
typedef struct TiledIdArrays {
	char* text;
	size_t* spans;
	int64_t count, capacity;
	int64_t values; // JSON values left, roughly
} TiledIdArrays;
bool tiled_scan_json(TiledDoc* d, const char* text, size_t length, TiledIdArrays* out);
void tiled_free_id_arrays(TiledIdArrays* a);

// The readers: a map file (fills the doc) and a tileset file's text into a source.
bool tiled_read_tmx(TiledDoc* d, const char* text, size_t length);
bool tiled_read_tmj(TiledDoc* d, const char* text, size_t length);
bool tiled_read_tsx(TiledDoc* d, const char* path, const char* text, size_t length);
// An object template named by `from` (read once per load): its index in TiledDoc.templates, -1 on failure.
int64_t tiled_read_template(TiledDoc* d, const char* from, const char* source);
bool tiled_read_tsj(TiledDoc* d, const char* path, const char* text, size_t length);
// An external tileset by its extension, read once per load however often it is named.
bool tiled_read_tileset(TiledDoc* d, const char* source, uint32_t firstgid);

// Group layers (tiled_floors.c): a reader opens and closes each group around its layers and
// hands its own properties to tiled_group_property.
bool tiled_begin_group(TiledDoc* d, const char* name);
void tiled_end_group(TiledDoc* d);
bool tiled_group_property(TiledDoc* d, const char* name, const char* value);
// Once everything is read: each floor group's number checked (0 to floors - 1, once each, none
// inside another, each floor's tile layers the map's size); d->tiled->floors set.
bool tiled_check_floors(TiledDoc* d);
// The floor a tile layer or object layer of `group` is on; -1 outside every floor group.
int tiled_group_floor(const TiledDoc* d, int64_t group);
// Once the map is made: objects from pixels into the map's cells (floor f's moved across by
// f * (floor width + 1), as gtMap_FromFloors lays floors out), and the link objects into links,
// each end checked against the map's free space.
gtStatus tiled_place_objects(TiledDoc* d, const gtMap* map);

// Limits (tiled_limits.c): the defaults, and the checks made before allocating.
TiledLimits tiled_limits(const gtTiledDef* def);
bool tiled_limit_cells(TiledDoc* d, const char* layer, int64_t cells);
bool tiled_limit_decompressed(TiledDoc* d, uint64_t bytes);
bool tiled_limit_file(TiledDoc* d, const char* path, uint64_t bytes);
bool tiled_limit_objects(TiledDoc* d, int64_t objects);

// The walls (tiled_walls.c): every rule's cells into `cells` (w x h from Tiled's cell (x0, y0));
// for a level of floors (d->tiled->floors > 0), floor after floor, each w x h, from the layers of
// its floor group and those outside every floor group.
gtStatus tiled_walls(TiledDoc* d, unsigned char* cells, int64_t x0, int64_t y0, int64_t w, int64_t h);

bool tiled_ends_with(const char* s, const char* suffix); // any case

#endif
