// A Tiled map's pieces as the readers add them, and the gtMap and gtTiled made from them.
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "core/status.h"
#include "gridtree/gt_links.h"
#include "tiled/tiled_doc.h"

bool tiled_fail(TiledDoc* d, gtStatus status, const char* format, ...)
{
	if (d->failed) return false;
	d->failed = true;
	char message[sizeof d->err->message];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	gt_fail(d->err, status, "%s", message);
	return false;
}

char* tiled_strdup(const char* s)
{
	size_t n = strlen(s) + 1;
	char* copy = gt_malloc(n);
	if (copy) memcpy(copy, s, n);
	return copy;
}

bool tiled_ends_with(const char* s, const char* suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

const char* tiled_keep(TiledDoc* d, const char* s)
{
	gtTiled* t = d->tiled;
	char* copy = tiled_strdup(s ? s : "");
	if (!copy || !GT_GROW(t->strings, t->string_capacity, t->string_count + 1, 64)) {
		gt_free(copy);
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	t->strings[t->string_count++] = copy;
	return copy;
}

TiledLayer* tiled_add_layer(TiledDoc* d, const char* name)
{
	if (!GT_GROW(d->layers, d->layer_capacity, d->layer_count + 1, 8)) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	TiledLayer* l = &d->layers[d->layer_count];
	memset(l, 0, sizeof *l);
	l->name = tiled_strdup(name ? name : "");
	l->group = d->current_group;
	if (!l->name) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	d->layer_count++;
	return l;
}

TiledChunk* tiled_add_chunk(TiledDoc* d, int x, int y, int width, int height, bool compressed)
{
	if (d->layer_count == 0) {
		tiled_fail(d, GT_ERR_FORMAT, "%s: tile data outside a tile layer", d->path);
		return NULL;
	}
	TiledLayer* l = &d->layers[d->layer_count - 1];
	int64_t cells = (int64_t)width * height;
	if (width < 1 || height < 1 || width > GT_MAP_MAX_SIDE || height > GT_MAP_MAX_SIDE) {
		tiled_fail(d, GT_ERR_LIMIT, "%s: layer '%s' has a %dx%d block of tiles, outside 1..%d per side", d->path,
		           l->name, width, height, GT_MAP_MAX_SIDE);
		return NULL;
	}
	if (!tiled_limit_cells(d, l->name, cells)) return NULL;
	if (compressed && !tiled_limit_decompressed(d, (uint64_t)cells * 4)) return NULL; // before the ids are allocated
	if (x < -(1 << 29) || x > (1 << 29) || y < -(1 << 29) || y > (1 << 29)) {
		tiled_fail(d, GT_ERR_LIMIT, "%s: layer '%s' has a chunk at (%d, %d), too far out", d->path, l->name, x, y);
		return NULL;
	}
	if (!GT_GROW(l->chunks, l->chunk_capacity, l->chunk_count + 1, 4)) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	TiledChunk* c = &l->chunks[l->chunk_count];
	c->gids = gt_calloc((size_t)cells, sizeof *c->gids);
	if (!c->gids) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory for a %dx%d layer", d->path, width, height);
		return NULL;
	}
	c->x = x, c->y = y, c->width = width, c->height = height;
	l->chunk_count++;
	d->cells_read += cells;
	return c;
}

static void note_bool_name(TiledDoc* d, const char* name)
{
	for (int i = 0; i < d->bool_name_count; i++)
		if (strcmp(d->bool_names[i], name) == 0) return;
	if (d->bool_name_count == (int)(sizeof d->bool_names / sizeof *d->bool_names)) return;
	char* copy = tiled_strdup(name);
	if (copy) d->bool_names[d->bool_name_count++] = copy;
}

// Objects' bool properties (`boss`, `locked`) are not named in messages: only tiles' and layers'.
static bool wall_property(TiledDoc* d, const char* name, const char* type, const char* value, bool note,
                          unsigned* names)
{
	if (!name || (type && *type && strcmp(type, "bool") != 0)) return false;
	if (note && type && strcmp(type, "bool") == 0) note_bool_name(d, name);
	unsigned which = d->property                       ? (strcmp(name, d->property) == 0 ? 4u : 0u)
	                 : strcmp(name, "collides") == 0   ? 1u
	                 : strcmp(name, "collidable") == 0 ? 2u
	                                                   : 0u;
	if (!which || !value || strcmp(value, "true") != 0) return false;
	d->wall_names |= which;
	*names |= which;
	return true;
}

bool tiled_wall_property(TiledDoc* d, const char* name, const char* type, const char* value)
{
	return wall_property(d, name, type, value, true, &d->tile_names);
}

void tiled_layer_property(TiledDoc* d, bool object_layer, const char* name, const char* type, const char* value)
{
	bool wall = wall_property(d, name, type, value, true, object_layer ? &d->object_names : &d->layer_names);
	if (object_layer && d->object_layer_count > 0) d->object_layers[d->object_layer_count - 1].solid |= wall;
	else if (!object_layer && d->layer_count > 0) d->layers[d->layer_count - 1].solid |= wall;
}

bool tiled_add_object_layer(TiledDoc* d, const char* name)
{
	if (!GT_GROW(d->object_layers, d->object_layer_capacity, d->object_layer_count + 1, 8))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	TiledObjectLayer* l = &d->object_layers[d->object_layer_count];
	l->solid = false;
	l->group = d->current_group;
	l->name = tiled_strdup(name ? name : "");
	if (!l->name) return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	d->object_layer_count++;
	return true;
}

// Far beyond any level (2^29 cells of 2^20 pixels is 5.6e14) yet safe to scale and square.
#define TILED_MAX_COORDINATE 1e15

static bool check_number(TiledDoc* d, const char* what, const char* field, double v, double lo)
{
	if (isfinite(v) && v >= lo && v <= TILED_MAX_COORDINATE) return true;
	return tiled_fail(d, GT_ERR_FORMAT, "%s: %s has %s = %g, outside %g..%g", d->path, what, field, v, lo,
	                  TILED_MAX_COORDINATE);
}

bool tiled_check_shape(TiledDoc* d, const char* what, const TiledShape* s)
{
	return check_number(d, what, "x", s->x, -TILED_MAX_COORDINATE) &&
	       check_number(d, what, "y", s->y, -TILED_MAX_COORDINATE) && check_number(d, what, "width", s->width, 0) &&
	       check_number(d, what, "height", s->height, 0) &&
	       check_number(d, what, "rotation", s->rotation, -TILED_MAX_COORDINATE);
}

bool tiled_add_point(TiledDoc* d, const char* what, double x, double y)
{
	if (!check_number(d, what, "a point's x", x, -TILED_MAX_COORDINATE) ||
	    !check_number(d, what, "a point's y", y, -TILED_MAX_COORDINATE))
		return false;
	if (d->point_count % 16 == 0 && !tiled_limit_objects(d, 1)) return false; // 16 points weigh one object
	if (!GT_GROW(d->points, d->point_capacity, 2 * (d->point_count + 1), 64))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	d->points[2 * d->point_count] = x, d->points[2 * d->point_count + 1] = y;
	d->point_count++;
	return true;
}

bool tiled_add_object(TiledDoc* d, int id, const char* name, const char* type, const TiledShape* shape)
{
	gtTiled* t = d->tiled;
	char what[64];
	snprintf(what, sizeof what, "object %d", id);
	if (!tiled_check_shape(d, what, shape) || !tiled_limit_objects(d, 1)) return false;
	if (!GT_GROW(t->objects, t->object_capacity, t->object_count + 1, 16) ||
	    !GT_GROW(d->object_walls, d->object_wall_capacity, t->object_count + 1, 16))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	const char* layer = d->object_layer_count > 0 ? d->object_layers[d->object_layer_count - 1].name : "";
	gtTiledObject o = {id,       tiled_keep(d, name), tiled_keep(d, type), tiled_keep(d, layer),   shape->x,
	                   shape->y, shape->width,        shape->height,       (int)t->property_count, 0,
	                   0};
	if (d->failed) return false;
	if (t->object_count >= INT32_MAX / 2) return tiled_fail(d, GT_ERR_LIMIT, "%s: too many objects", d->path);
	TiledObjectWall w = {*shape, d->object_layer_count - 1, false, false};
	if (w.shape.point_count == 0) w.shape.first_point = d->point_count; // its points come next (a template's are read)
	d->object_walls[t->object_count] = w;
	t->objects[t->object_count++] = o;
	return true;
}

bool tiled_add_property(TiledDoc* d, const char* name, const char* type, const char* value)
{
	gtTiled* t = d->tiled;
	if (t->object_count == 0) return true; // a property of the map or a layer: not kept
	if (!GT_GROW(t->properties, t->property_capacity, t->property_count + 1, 16))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	gtTiledProperty p = {tiled_keep(d, name), tiled_keep(d, type && *type ? type : "string"), tiled_keep(d, value)};
	if (d->failed) return false;
	if (t->property_count >= INT32_MAX / 2) return tiled_fail(d, GT_ERR_LIMIT, "%s: too many properties", d->path);
	t->properties[t->property_count++] = p;
	t->objects[t->object_count - 1].property_count++;
	if (wall_property(d, name, type, value, false, &d->object_names)) d->object_walls[t->object_count - 1].solid = true;
	if (name && strcmp(name, "link") == 0 && type && strcmp(type, "bool") == 0 && value && strcmp(value, "true") == 0)
		d->object_walls[t->object_count - 1].link = true;
	return true;
}

int64_t tiled_add_source(TiledDoc* d, const char* path, double tile_width, double tile_height)
{
	if (!GT_GROW(d->sources, d->source_capacity, d->source_count + 1, 8)) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return -1;
	}
	TiledSource* s = &d->sources[d->source_count];
	memset(s, 0, sizeof *s);
	s->tile_width = tile_width, s->tile_height = tile_height;
	if (path && !(s->path = tiled_strdup(path))) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return -1;
	}
	return d->source_count++;
}

bool tiled_add_tileset(TiledDoc* d, uint32_t firstgid, int64_t source)
{
	if (d->tileset_count >= d->limits.tilesets)
		return tiled_fail(d, GT_ERR_LIMIT, "%s: more than %lld tilesets (max_tilesets; raise it to load this level)",
		                  d->path, (long long)d->limits.tilesets);
	if (!GT_GROW(d->tilesets, d->tileset_capacity, d->tileset_count + 1, 8))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	d->tilesets[d->tileset_count++] = (TiledTilesetRef){firstgid, source};
	return true;
}

TiledTile* tiled_add_tile(TiledDoc* d, uint32_t id)
{
	if (d->source_count == 0) return NULL;
	TiledSource* s = &d->sources[d->source_count - 1];
	if (!tiled_limit_objects(d, 1)) return NULL; // tiles with properties or shapes weigh like objects
	if (!GT_GROW(s->tiles, s->tile_capacity, s->tile_count + 1, 16)) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	TiledTile* t = &s->tiles[s->tile_count++];
	memset(t, 0, sizeof *t);
	t->id = id;
	t->first_shape = d->tile_shape_count;
	return t;
}

void tiled_end_tile(TiledDoc* d)
{
	if (d->source_count == 0 || d->sources[d->source_count - 1].tile_count == 0) return;
	TiledSource* s = &d->sources[d->source_count - 1];
	const TiledTile* t = &s->tiles[s->tile_count - 1];
	if (t->solid || t->shape_count > 0 || t->width > 0 || t->height > 0) return;
	s->tile_count--; // nothing the walls need (an animation, a terrain, a name): not kept
	d->weight--;
}

bool tiled_add_tile_shape(TiledDoc* d, const TiledShape* shape)
{
	if (d->source_count == 0 || d->sources[d->source_count - 1].tile_count == 0) return true;
	TiledSource* s = &d->sources[d->source_count - 1];
	TiledTile* t = &s->tiles[s->tile_count - 1];
	char what[64];
	snprintf(what, sizeof what, "tile %u's collision shape", (unsigned)t->id);
	if (!tiled_check_shape(d, what, shape) || !tiled_limit_objects(d, 1)) return false;
	if (!GT_GROW(d->tile_shapes, d->tile_shape_capacity, d->tile_shape_count + 1, 16))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	TiledShape copy = *shape;
	if (copy.point_count == 0) copy.first_point = d->point_count;
	if (t->shape_count == 0) t->first_shape = d->tile_shape_count;
	d->tile_shapes[d->tile_shape_count++] = copy;
	t->shape_count++;
	return true;
}

static int compare_tiles(const void* a, const void* b)
{
	uint32_t x = ((const TiledTile*)a)->id, y = ((const TiledTile*)b)->id;
	return (x > y) - (x < y);
}

static int compare_tilesets(const void* a, const void* b)
{
	uint32_t x = ((const TiledTilesetRef*)a)->firstgid, y = ((const TiledTilesetRef*)b)->firstgid;
	return (x > y) - (x < y);
}

// Sorts what tiled_find_tile searches (once everything is read).
static void sort_tiles(TiledDoc* d)
{
	for (int64_t i = 0; i < d->source_count; i++)
		if (d->sources[i].tile_count > 1)
			qsort(d->sources[i].tiles, (size_t)d->sources[i].tile_count, sizeof(TiledTile), compare_tiles);
	if (d->tileset_count > 1) qsort(d->tilesets, (size_t)d->tileset_count, sizeof *d->tilesets, compare_tilesets);
}

const TiledTile* tiled_find_tile(const TiledDoc* d, uint32_t gid, double* tile_width, double* tile_height)
{
	gid &= TILED_GID_MASK;
	if (gid == 0) return NULL;
	int64_t lo = 0, hi = d->tileset_count; // the last tileset with firstgid <= gid
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (d->tilesets[mid].firstgid <= gid) lo = mid + 1;
		else hi = mid;
	}
	if (lo == 0) return NULL;
	const TiledSource* s = &d->sources[d->tilesets[lo - 1].source];
	TiledTile key = {0};
	key.id = gid - d->tilesets[lo - 1].firstgid;
	const TiledTile* t = s->tile_count ? bsearch(&key, s->tiles, (size_t)s->tile_count, sizeof key, compare_tiles)
	                                   : NULL;
	if (t) {
		*tile_width = t->width > 0 ? t->width : s->tile_width;
		*tile_height = t->height > 0 ? t->height : s->tile_height;
	}
	return t;
}

// ---- the gtMap ------------------------------------------------------------------------------------

// The gtMap's extent in Tiled cells: the map for a finite map, every chunk's box for an infinite one.
static bool extent(TiledDoc* d, int64_t* x0, int64_t* y0, int64_t* x1, int64_t* y1)
{
	if (!d->infinite) {
		*x0 = 0, *y0 = 0, *x1 = d->width, *y1 = d->height;
		return true;
	}
	bool any = false;
	for (int64_t i = 0; i < d->layer_count; i++)
		for (int64_t j = 0; j < d->layers[i].chunk_count; j++) {
			const TiledChunk* c = &d->layers[i].chunks[j];
			if (!any || c->x < *x0) *x0 = c->x;
			if (!any || c->y < *y0) *y0 = c->y;
			if (!any || c->x + c->width > *x1) *x1 = c->x + c->width;
			if (!any || c->y + c->height > *y1) *y1 = c->y + c->height;
			any = true;
		}
	if (!any) return tiled_fail(d, GT_ERR_FORMAT, "%s: the infinite map has no tiles", d->path);
	return true;
}

static gtStatus make_map(TiledDoc* d, gtMap** out)
{
	int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
	if (!extent(d, &x0, &y0, &x1, &y1)) return d->err->status;
	int64_t w = x1 - x0, h = y1 - y0, floors = d->tiled->floors > 0 ? d->tiled->floors : 1;
	if (w < 1 || h < 1 || w > GT_MAP_MAX_SIDE || h > GT_MAP_MAX_SIDE || w * h > (int64_t)GT_MAP_MAX_CELLS)
		return gt_fail(d->err, GT_ERR_LIMIT, "%s: map size %lldx%lld is outside 1..%d per side or above %u cells",
		               d->path, (long long)w, (long long)h, GT_MAP_MAX_SIDE, GT_MAP_MAX_CELLS);
	if (w * h * floors > d->limits.cells)
		return gt_fail(d->err, GT_ERR_LIMIT,
		               "%s: map size %lldx%lld (%lld floors) is above max_cells = %lld (raise max_cells to load it)",
		               d->path, (long long)w, (long long)h, (long long)floors, (long long)d->limits.cells);
	d->tiled->origin_x = (int)x0, d->tiled->origin_y = (int)y0;
	d->tiled->floor_width = (int)w;
	unsigned char* cells = gt_calloc((size_t)(w * h * floors), 1);
	if (!cells)
		return gt_fail(d->err, GT_ERR_NOMEM, "%s: out of memory for a %lldx%lld map", d->path, (long long)w,
		               (long long)h);
	sort_tiles(d);
	gtStatus st = tiled_walls(d, cells, x0, y0, w, h);
	if (!st && d->tiled->floors > 0) st = gtMap_FromFloors((int)floors, (int)w, (int)h, cells, out, d->err);
	else if (!st) st = gtMap_FromCells((int)w, (int)h, cells, out, d->err);
	gt_free(cells);
	return st;
}

static void free_doc(TiledDoc* d)
{
	for (int64_t i = 0; i < d->layer_count; i++) {
		for (int64_t j = 0; j < d->layers[i].chunk_count; j++) gt_free(d->layers[i].chunks[j].gids);
		gt_free(d->layers[i].chunks);
		gt_free(d->layers[i].name);
	}
	gt_free(d->layers);
	for (int64_t i = 0; i < d->object_layer_count; i++) gt_free(d->object_layers[i].name);
	gt_free(d->object_layers);
	gt_free(d->object_walls);
	gt_free(d->tile_shapes);
	gt_free(d->points);
	for (int64_t i = 0; i < d->source_count; i++) {
		gt_free(d->sources[i].path);
		gt_free(d->sources[i].tiles);
	}
	gt_free(d->sources);
	gt_free(d->tilesets);
	for (int64_t i = 0; i < d->template_count; i++) gt_free(d->templates[i].path);
	gt_free(d->templates);
	for (int i = 0; i < d->bool_name_count; i++) gt_free(d->bool_names[i]);
	for (int64_t i = 0; i < d->group_count; i++) gt_free(d->groups[i].name);
	gt_free(d->groups);
	gt_free(d->dir);
}

gtTiledDef gtTiled_DefaultDef(void)
{
	gtTiledDef def;
	memset(&def, 0, sizeof def);
	return def;
}

bool gtTiled_IsTiledPath(const char* path)
{
	return path && (tiled_ends_with(path, ".tmx") || tiled_ends_with(path, ".tmj") || tiled_ends_with(path, ".json"));
}

// Reads a map held in `text` (a whole file's when `text` is NULL) named `path`.
static gtStatus load(const char* path, const char* text, size_t length, const gtTiledDef* def, gtMap** map,
                     gtTiled** tiled, gtError* err)
{
	*map = NULL;
	if (tiled) *tiled = NULL;
	gtError local;
	if (!err) err = &local; // the readers keep the first failure's status here
	gtTiledDef defaults = gtTiled_DefaultDef();
	if (!def) def = &defaults;
	if (!path) return gt_fail(err, GT_ERR_INVALID_ARG, "no path");
	TiledDoc d;
	memset(&d, 0, sizeof d);
	d.path = path;
	d.err = err;
	d.current_group = -1;
	if (def->blocked_layer && def->blocked_property)
		return gt_fail(err, GT_ERR_INVALID_ARG, "give a blocked layer or a blocked property, not both");
	if (def->max_cells < 0 || def->max_decompressed_bytes < 0 || def->max_file_bytes < 0 || def->max_objects < 0 ||
	    def->max_tilesets < 0)
		return gt_fail(err, GT_ERR_INVALID_ARG, "a negative limit (0 takes the default)");
	d.property = def->blocked_property;
	d.def = def;
	d.limits = tiled_limits(def);
	d.tiled = gt_calloc(1, sizeof *d.tiled);
	const char* slash = strrchr(path, '/');
	d.dir = gt_malloc(slash ? (size_t)(slash - path) + 2 : 1);
	if (!d.tiled || !d.dir) {
		gt_free(d.dir);
		gt_free(d.tiled);
		return gt_fail(err, GT_ERR_NOMEM, "%s: out of memory", path);
	}
	if (slash) memcpy(d.dir, path, (size_t)(slash - path));
	d.dir[slash ? slash - path : 0] = '\0';
	if (slash == path) strcpy(d.dir, "/");
	char* owned = NULL;
	if (!text) text = owned = tiled_read_file(&d, path, &length);
	else if (!tiled_limit_file(&d, path, length)) text = NULL;
	if (text) {
		if (tiled_ends_with(path, ".tmx")) tiled_read_tmx(&d, text, length);
		else tiled_read_tmj(&d, text, length);
	}
	gt_free(owned);
	if (!d.failed) tiled_check_floors(&d);
	gtStatus st = d.failed ? err->status : make_map(&d, map);
	if (!st) st = tiled_place_objects(&d, *map);
	free_doc(&d);
	if (st || !tiled) gtTiled_Destroy(d.tiled);
	else *tiled = d.tiled;
	if (st) {
		gtMap_Destroy(*map);
		*map = NULL;
	}
	return st;
}

gtStatus gtMap_LoadTiled(const char* path, const gtTiledDef* def, gtMap** map, gtTiled** tiled, gtError* err)
{
	return load(path, NULL, 0, def, map, tiled, err);
}

gtStatus gtMap_ParseTiled(const char* text, size_t length, const char* name, const gtTiledDef* def, gtMap** map,
                          gtTiled** tiled, gtError* err)
{
	if (!text) {
		*map = NULL;
		if (tiled) *tiled = NULL;
		return gt_fail(err, GT_ERR_INVALID_ARG, "no text");
	}
	return load(name, text, length, def, map, tiled, err);
}

void gtTiled_Destroy(gtTiled* t)
{
	if (!t) return;
	for (int64_t i = 0; i < t->string_count; i++) gt_free(t->strings[i]);
	gt_free(t->strings);
	gt_free(t->objects);
	gt_free(t->properties);
	gt_free(t->floor_names);
	gt_free(t->links);
	gt_free(t->blocked_by);
	gt_free(t);
}

int gtTiled_TileWidth(const gtTiled* t)
{
	return t->tile_width;
}

int gtTiled_TileHeight(const gtTiled* t)
{
	return t->tile_height;
}

void gtTiled_Origin(const gtTiled* t, int* x, int* y)
{
	*x = t->origin_x;
	*y = t->origin_y;
}

gtVec2 gtTiled_CellsToPixels(const gtTiled* t, gtVec2 c)
{
	gtVec2 p = {(c.x + t->origin_x) * t->tile_width, (c.y + t->origin_y) * t->tile_height};
	return p;
}

gtVec2 gtTiled_PixelsToCells(const gtTiled* t, gtVec2 p)
{
	gtVec2 c = {p.x / t->tile_width - t->origin_x, p.y / t->tile_height - t->origin_y};
	return c;
}

const char* gtTiled_BlockedBy(const gtTiled* t)
{
	return t->blocked_by ? t->blocked_by : "";
}

int64_t gtTiled_WallCells(const gtTiled* t, gtTiledRule rule)
{
	return (int)rule >= 0 && rule < GT_TILED_RULE_COUNT ? t->wall_cells[rule] : -1;
}

const char* gtTiled_RuleName(gtTiledRule rule)
{
	static const char* const names[GT_TILED_RULE_COUNT] = {"layer", "tile_property", "tile_shapes", "layer_property",
	                                                       "objects"};
	return (int)rule >= 0 && rule < GT_TILED_RULE_COUNT ? names[rule] : "";
}

int gtTiled_ObjectCount(const gtTiled* t)
{
	return (int)t->object_count;
}

const gtTiledObject* gtTiled_Object(const gtTiled* t, int index)
{
	return index >= 0 && index < t->object_count ? &t->objects[index] : NULL;
}

const gtTiledProperty* gtTiled_Property(const gtTiled* t, int index)
{
	return index >= 0 && index < t->property_count ? &t->properties[index] : NULL;
}
