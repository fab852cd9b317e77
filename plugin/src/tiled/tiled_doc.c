// A Tiled map's pieces as the readers add them, and the gtMap and gtTiled made from them.
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "core/status.h"
#include "tiled/tiled_doc.h"

// A Tiled file of a map at the cell limit, as CSV, is about 11 bytes a cell.
#define TILED_MAX_FILE_BYTES ((size_t)1 << 32)

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
	if (!copy || !gt_grow((void**)&t->strings, &t->string_capacity, t->string_count + 1, sizeof *t->strings, 64)) {
		gt_free(copy);
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	t->strings[t->string_count++] = copy;
	return copy;
}

TiledLayer* tiled_add_layer(TiledDoc* d, const char* name)
{
	if (!gt_grow((void**)&d->layers, &d->layer_capacity, d->layer_count + 1, sizeof *d->layers, 8)) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	TiledLayer* l = &d->layers[d->layer_count];
	memset(l, 0, sizeof *l);
	l->name = tiled_strdup(name ? name : "");
	if (!l->name) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	d->layer_count++;
	return l;
}

TiledChunk* tiled_add_chunk(TiledDoc* d, int x, int y, int width, int height)
{
	if (d->layer_count == 0) {
		tiled_fail(d, GT_ERR_FORMAT, "%s: tile data outside a tile layer", d->path);
		return NULL;
	}
	TiledLayer* l = &d->layers[d->layer_count - 1];
	int64_t cells = (int64_t)width * height;
	if (width < 1 || height < 1 || width > GT_MAP_MAX_SIDE || height > GT_MAP_MAX_SIDE ||
	    d->cells_read + cells > (int64_t)GT_MAP_MAX_CELLS) {
		tiled_fail(d, GT_ERR_LIMIT, "%s: layer '%s' has a %dx%d block of tiles, outside 1..%d per side or beyond %u cells in all",
		           d->path, l->name, width, height, GT_MAP_MAX_SIDE, GT_MAP_MAX_CELLS);
		return NULL;
	}
	if (x < -(1 << 29) || x > (1 << 29) || y < -(1 << 29) || y > (1 << 29)) {
		tiled_fail(d, GT_ERR_LIMIT, "%s: layer '%s' has a chunk at (%d, %d), too far out", d->path, l->name, x, y);
		return NULL;
	}
	if (!gt_grow((void**)&l->chunks, &l->chunk_capacity, l->chunk_count + 1, sizeof *l->chunks, 4)) {
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

bool tiled_add_flagged(TiledDoc* d, uint32_t gid)
{
	if (!gt_grow((void**)&d->flagged, &d->flagged_capacity, d->flagged_count + 1, sizeof *d->flagged, 64))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	d->flagged[d->flagged_count++] = gid;
	return true;
}

bool tiled_add_object(TiledDoc* d, int id, const char* name, const char* type, const char* layer, double x, double y,
                      double width, double height)
{
	gtTiled* t = d->tiled;
	if (!gt_grow((void**)&t->objects, &t->object_capacity, t->object_count + 1, sizeof *t->objects, 16))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	gtTiledObject o = {id, tiled_keep(d, name), tiled_keep(d, type), tiled_keep(d, layer), x, y, width, height,
	                   (int)t->property_count, 0};
	if (d->failed) return false;
	if (t->object_count >= INT32_MAX / 2) return tiled_fail(d, GT_ERR_LIMIT, "%s: too many objects", d->path);
	t->objects[t->object_count++] = o;
	return true;
}

bool tiled_add_property(TiledDoc* d, const char* name, const char* type, const char* value)
{
	gtTiled* t = d->tiled;
	if (t->object_count == 0) return true; // a property of the map or a layer: not kept
	if (!gt_grow((void**)&t->properties, &t->property_capacity, t->property_count + 1, sizeof *t->properties, 16))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	gtTiledProperty p = {tiled_keep(d, name), tiled_keep(d, type && *type ? type : "string"), tiled_keep(d, value)};
	if (d->failed) return false;
	if (t->property_count >= INT32_MAX / 2) return tiled_fail(d, GT_ERR_LIMIT, "%s: too many properties", d->path);
	t->properties[t->property_count++] = p;
	t->objects[t->object_count - 1].property_count++;
	return true;
}

char* tiled_read_file(TiledDoc* d, const char* path, size_t* length)
{
	char* text;
	gtError err;
	if (gt_read_file(path, TILED_MAX_FILE_BYTES - 1, "map", &text, length, &err)) {
		tiled_fail(d, err.status, "%s", err.message);
		return NULL;
	}
	return text;
}

char* tiled_resolve(TiledDoc* d, const char* source)
{
	size_t n = strlen(d->dir), m = strlen(source);
	char* full = gt_malloc(n + m + 2);
	if (!full) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	if (source[0] == '/' || n == 0) memcpy(full, source, m + 1);
	else {
		memcpy(full, d->dir, n);
		full[n] = '/';
		memcpy(full + n + 1, source, m + 1);
	}
	return full;
}

bool tiled_read_tileset(TiledDoc* d, const char* source, uint32_t firstgid)
{
	char* path = tiled_resolve(d, source);
	if (!path) return false;
	bool ok;
	if (tiled_ends_with(path, ".tsx")) ok = tiled_read_tsx(d, path, firstgid);
	else if (tiled_ends_with(path, ".tsj") || tiled_ends_with(path, ".json")) ok = tiled_read_tsj(d, path, firstgid);
	else ok = tiled_fail(d, GT_ERR_FORMAT, "%s: tileset '%s' is neither .tsx nor .tsj", d->path, source);
	gt_free(path);
	return ok;
}

// ---- the gtMap ------------------------------------------------------------------------------------

static int compare_gids(const void* a, const void* b)
{
	uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
	return (x > y) - (x < y);
}

static bool is_flagged(const TiledDoc* d, uint32_t gid)
{
	return gid != 0 && d->flagged_count > 0 && bsearch(&gid, d->flagged, (size_t)d->flagged_count, sizeof gid, compare_gids) != NULL;
}

static TiledLayer* find_layer(TiledDoc* d, const char* name)
{
	for (int64_t i = 0; i < d->layer_count; i++)
		if (strcasecmp(d->layers[i].name, name) == 0) return &d->layers[i];
	return NULL;
}

static bool layer_names(const TiledDoc* d, char* out, size_t room)
{
	out[0] = '\0';
	for (int64_t i = 0; i < d->layer_count; i++) {
		size_t used = strlen(out);
		snprintf(out + used, room - used, "%s'%s'", i ? ", " : "", d->layers[i].name);
	}
	return d->layer_count > 0;
}

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

static gtStatus make_map(TiledDoc* d, const gtTiledDef* def, gtMap** out)
{
	if (def->blocked_layer && def->blocked_property)
		return gt_fail(d->err, GT_ERR_INVALID_ARG, "give a blocked layer or a blocked property, not both");
	const TiledLayer* layer = NULL;
	char names[512];
	if (def->blocked_layer) {
		layer = find_layer(d, def->blocked_layer);
		if (!layer)
			return gt_fail(d->err, GT_ERR_FORMAT, "%s: no tile layer named '%s' (%s%s)", d->path, def->blocked_layer,
			               layer_names(d, names, sizeof names) ? "tile layers: " : "no tile layers", names);
	} else if (!def->blocked_property) {
		layer = find_layer(d, "collision");
	}
	char by[300];
	if (layer) snprintf(by, sizeof by, "layer %s", layer->name);
	else snprintf(by, sizeof by, "property %s", d->property);
	d->tiled->blocked_by = tiled_strdup(by);
	if (!d->tiled->blocked_by) return gt_fail(d->err, GT_ERR_NOMEM, "%s: out of memory", d->path);
	int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
	if (!extent(d, &x0, &y0, &x1, &y1)) return d->err->status;
	int64_t w = x1 - x0, h = y1 - y0;
	if (w < 1 || h < 1 || w > GT_MAP_MAX_SIDE || h > GT_MAP_MAX_SIDE || w * h > (int64_t)GT_MAP_MAX_CELLS)
		return gt_fail(d->err, GT_ERR_LIMIT, "%s: map size %lldx%lld is outside 1..%d per side or above %u cells", d->path,
		               (long long)w, (long long)h, GT_MAP_MAX_SIDE, GT_MAP_MAX_CELLS);
	d->tiled->origin_x = (int)x0, d->tiled->origin_y = (int)y0;
	unsigned char* cells = gt_calloc((size_t)(w * h), 1);
	if (!cells) return gt_fail(d->err, GT_ERR_NOMEM, "%s: out of memory for a %lldx%lld map", d->path, (long long)w, (long long)h);
	if (!layer && d->flagged_count > 0) qsort(d->flagged, (size_t)d->flagged_count, sizeof *d->flagged, compare_gids);
	for (int64_t i = 0; i < d->layer_count; i++) {
		const TiledLayer* l = &d->layers[i];
		if (layer && l != layer) continue;
		for (int64_t j = 0; j < l->chunk_count; j++) {
			const TiledChunk* c = &l->chunks[j];
			for (int y = 0; y < c->height; y++)
				for (int x = 0; x < c->width; x++) {
					int64_t mx = c->x + x - x0, my = c->y + y - y0;
					if (mx < 0 || my < 0 || mx >= w || my >= h) continue; // a finite layer larger than its map
					uint32_t gid = c->gids[(size_t)y * (size_t)c->width + (size_t)x] & TILED_GID_MASK;
					if (layer ? gid != 0 : is_flagged(d, gid)) cells[my * w + mx] = 1;
				}
		}
	}
	gtStatus st = gtMap_FromCells((int)w, (int)h, cells, out, d->err);
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
	gt_free(d->flagged);
	gt_free(d->dir);
}

gtTiledDef gtTiled_DefaultDef(void)
{
	gtTiledDef def = {NULL, NULL};
	return def;
}

bool gtTiled_IsTiledPath(const char* path)
{
	return path && (tiled_ends_with(path, ".tmx") || tiled_ends_with(path, ".tmj") || tiled_ends_with(path, ".json"));
}

// Reads a map held in `text` (a whole file's when `text` is NULL) named `path`.
static gtStatus load(const char* path, const char* text, size_t length, const gtTiledDef* def, gtMap** map, gtTiled** tiled,
                     gtError* err)
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
	d.property = def->blocked_property ? def->blocked_property : "collides";
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
	if (text) {
		if (tiled_ends_with(path, ".tmx")) tiled_read_tmx(&d, text, length);
		else tiled_read_tmj(&d, text, length);
	}
	gt_free(owned);
	gtStatus st = d.failed ? err->status : make_map(&d, def, map);
	free_doc(&d);
	if (!st && d.tiled->tile_width > 0 && d.tiled->tile_height > 0) {
		double sx = d.tiled->tile_width, sy = d.tiled->tile_height; // objects from pixels into cells
		for (int64_t i = 0; i < d.tiled->object_count; i++) {
			gtTiledObject* o = &d.tiled->objects[i];
			o->x = o->x / sx - d.tiled->origin_x, o->y = o->y / sy - d.tiled->origin_y;
			o->width /= sx, o->height /= sy;
		}
	}
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
