// Which cells of a Tiled level are walls: the union of every convention the level uses, or the one
// layer or property the caller names (the rules are in gt_tiled.h and docs/tiled.md).
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "core/status.h"
#include "tiled/tiled_doc.h"
#include "tiled/tiled_shapes.h"

// One bit per gtTiledRule, in its order.
enum { BIT_LAYER = 1, BIT_TILE = 2, BIT_TILE_SHAPES = 4, BIT_LAYER_PROPERTY = 8, BIT_OBJECTS = 16 };

#define FLIP_H 0x80000000u
#define FLIP_V 0x40000000u
#define FLIP_D 0x20000000u

typedef struct Walls {
	TiledDoc* d;
	TiledGrid grid;
	int64_t x0, y0; // Tiled's cell of the grid's (0, 0)
} Walls;

// Whether a layer of `group` walls floor `floor` (-1: the level has no floors): its own floor
// group's, or none (a layer outside every floor group walls every floor).
static bool in_floor(const TiledDoc* d, int64_t group, int floor)
{
	if (floor < 0) return true;
	int f = tiled_group_floor(d, group);
	return f < 0 || f == floor;
}

static const TiledLayer* find_tile_layer(const TiledDoc* d, const char* name, int floor)
{
	for (int64_t i = 0; i < d->layer_count; i++)
		if (strcasecmp(d->layers[i].name, name) == 0 && in_floor(d, d->layers[i].group, floor)) return &d->layers[i];
	return NULL;
}

static int64_t find_object_layer(const TiledDoc* d, const char* name, int floor)
{
	for (int64_t i = 0; i < d->object_layer_count; i++)
		if (strcasecmp(d->object_layers[i].name, name) == 0 && in_floor(d, d->object_layers[i].group, floor)) return i;
	return -1;
}

// Appends "what 'a', 'b'" (or nothing when there are none) to out.
static void list_names(char* out, size_t room, const char* what, char* const* names, size_t stride, int64_t count)
{
	if (count == 0) return;
	size_t used = strlen(out);
	snprintf(out + used, room - used, "%s%s", used ? "; " : "", what);
	for (int64_t i = 0; i < count; i++) {
		used = strlen(out);
		snprintf(out + used, room - used, "%s'%s'", i ? ", " : " ",
		         *(char* const*)((const char*)names + (size_t)i * stride));
	}
}

// "tile layers 'a', 'b'; object layers 'c'; bool properties 'd'" (or "no layers").
static void describe(const TiledDoc* d, char* out, size_t room)
{
	out[0] = '\0';
	if (d->layer_count) list_names(out, room, "tile layers", &d->layers[0].name, sizeof *d->layers, d->layer_count);
	if (d->object_layer_count)
		list_names(out, room, "object layers", &d->object_layers[0].name, sizeof *d->object_layers,
		           d->object_layer_count);
	list_names(out, room, "bool properties", d->bool_names, sizeof *d->bool_names, d->bool_name_count);
	if (!out[0]) snprintf(out, room, "no layers");
}

// The tile's drawing: its image's pixels (size tw x th) into the map's pixels for Tiled's cell
// (cx, cy), flipped as the id says, bottom-aligned in its cell as Tiled draws larger tiles.
static TiledAffine tile_placement(const Walls* w, uint32_t gid, double tw, double th, int64_t cx, int64_t cy)
{
	TiledAffine a = tiled_affine_identity();
	double bw = tw, bh = th;
	if (gid & FLIP_D) a.xx = 0, a.xy = 1, a.yx = 1, a.yy = 0, bw = th, bh = tw; // across the diagonal first
	if (gid & FLIP_H) a.xx = -a.xx, a.xy = -a.xy, a.x0 = bw - a.x0;
	if (gid & FLIP_V) a.yx = -a.yx, a.yy = -a.yy, a.y0 = bh - a.y0;
	a.x0 += (double)cx * w->grid.tile_width;
	a.y0 += (double)(cy + 1) * w->grid.tile_height - bh;
	return a;
}

// A shape's points (NULL when the level has none at all).
static const double* points_of(const TiledDoc* d, const TiledShape* s)
{
	return d->points ? d->points + 2 * s->first_point : NULL;
}

static bool fill_tile_shapes(Walls* w, const TiledTile* t, TiledAffine place)
{
	for (int64_t k = 0; k < t->shape_count; k++) {
		const TiledShape* s = &w->d->tile_shapes[t->first_shape + k];
		if (!tiled_fill_shape(&w->grid, s, points_of(w->d, s), place)) return false;
	}
	return true;
}

// One tile layer: with `all`, every cell holding a tile; otherwise the solid tiles (by their
// shapes when they have some), tiles with collision shapes (unless the caller named a property),
// and every tile when the layer itself is solid.
static bool tile_layer(Walls* w, const TiledLayer* l, bool all)
{
	for (int64_t j = 0; j < l->chunk_count; j++) {
		const TiledChunk* c = &l->chunks[j];
		for (int y = 0; y < c->height; y++)
			for (int x = 0; x < c->width; x++) {
				int64_t cx = (int64_t)c->x + x, cy = (int64_t)c->y + y;
				int64_t mx = cx - w->x0, my = cy - w->y0;
				if (mx < 0 || my < 0 || mx >= w->grid.width || my >= w->grid.height) continue; // beyond a finite map
				uint32_t gid = c->gids[(size_t)y * (size_t)c->width + (size_t)x];
				if ((gid & TILED_GID_MASK) == 0) continue;
				unsigned char* cell = &w->grid.cells[my * w->grid.width + mx];
				if (all) {
					*cell |= BIT_LAYER;
					continue;
				}
				double tw = 0, th = 0;
				const TiledTile* t = tiled_find_tile(w->d, gid, &tw, &th);
				bool shaped = t && t->shape_count > 0 && !w->d->property; // Tiled's collision editor alone
				unsigned char bits = (unsigned char)((t && t->solid ? BIT_TILE : 0) |
				                                     (shaped && !t->solid ? BIT_TILE_SHAPES : 0) |
				                                     (l->solid ? BIT_LAYER_PROPERTY : 0));
				if (!bits) continue;
				if (!t || t->shape_count == 0) {
					*cell |= bits;
					continue;
				}
				w->grid.bit = bits;
				if (!fill_tile_shapes(w, t, tile_placement(w, gid, tw, th, cx, cy))) return false;
			}
	}
	return true;
}

// A map object: its own shape, or for a tile object its tile's shapes (its whole rectangle when
// the tile has none) scaled to the object, whose position is its bottom-left corner.
static bool object(Walls* w, const TiledObjectWall* o)
{
	const TiledShape* s = &o->shape;
	w->grid.bit = BIT_OBJECTS;
	if (!s->gid) return tiled_fill_shape(&w->grid, s, points_of(w->d, s), tiled_affine_identity());
	double tw = 0, th = 0;
	const TiledTile* t = tiled_find_tile(w->d, s->gid, &tw, &th);
	if (!t || tw <= 0 || th <= 0) { // a tile without anything known: its rectangle
		TiledShape rect = *s;
		rect.kind = TILED_RECT, rect.gid = 0, rect.y -= s->height;
		TiledAffine about = tiled_affine_rotation(s->rotation, s->x, s->y);
		rect.rotation = 0;
		return tiled_fill_shape(&w->grid, &rect, NULL, about);
	}
	double ow = s->width > 0 ? s->width : tw, oh = s->height > 0 ? s->height : th;
	TiledAffine a = tiled_affine_identity(); // the tile's pixels, flipped, scaled to the object
	if (s->gid & FLIP_H) a.xx = -1, a.x0 = tw;
	if (s->gid & FLIP_V) a.yy = -1, a.y0 = th;
	TiledAffine scale = {ow / tw, 0, s->x, 0, oh / th, s->y - oh};
	a = tiled_affine_then(tiled_affine_then(a, scale), tiled_affine_rotation(s->rotation, s->x, s->y));
	if (t->shape_count > 0) return fill_tile_shapes(w, t, a);
	TiledShape whole = {TILED_RECT, 0, 0, tw, th, 0, 0, 0, 0};
	return tiled_fill_shape(&w->grid, &whole, NULL, a);
}

// The walling objects of floor `floor` (link objects never wall).
static bool objects(Walls* w, int64_t only_layer, int floor)
{
	const TiledDoc* d = w->d;
	for (int64_t i = 0; i < d->tiled->object_count; i++) {
		const TiledObjectWall* o = &d->object_walls[i];
		bool layer_solid = o->layer >= 0 && d->object_layers[o->layer].solid;
		if (only_layer >= 0 ? o->layer != only_layer : !(o->solid || layer_solid)) continue;
		if (o->link || (floor >= 0 && !in_floor(d, o->layer >= 0 ? d->object_layers[o->layer].group : -1, floor)))
			continue;
		if (!object(w, o)) return false;
	}
	return true;
}

// One floor's walls (floor -1: the level has no floors), by the rules the caller chose.
static bool fill_floor(Walls* w, int floor)
{
	const TiledDoc* d = w->d;
	if (d->def->blocked_layer) {
		const TiledLayer* layer = find_tile_layer(d, d->def->blocked_layer, floor);
		int64_t object_layer = layer ? -1 : find_object_layer(d, d->def->blocked_layer, floor);
		return layer ? tile_layer(w, layer, true) : object_layer < 0 || objects(w, object_layer, floor);
	}
	const TiledLayer* layer = d->property ? NULL : find_tile_layer(d, "collision", floor);
	bool ok = !layer || tile_layer(w, layer, true);
	for (int64_t i = 0; ok && i < d->layer_count; i++)
		if (in_floor(d, d->layers[i].group, floor)) ok = tile_layer(w, &d->layers[i], false);
	return ok && objects(w, -1, floor);
}

// "collides/collidable" or the caller's name: the wall property names that matched.
static const char* wall_names(const TiledDoc* d, unsigned names)
{
	if (d->property) return d->property;
	if ((names & 3) == 3) return "collides/collidable";
	return names & 2 ? "collidable" : "collides";
}

static gtStatus blocked_by(TiledDoc* d, const TiledLayer* layer, int64_t object_layer)
{
	const int64_t* n = d->tiled->wall_cells;
	char by[600] = "";
	size_t used = 0;
	if (layer) used += (size_t)snprintf(by + used, sizeof by - used, "; layer %s", layer->name);
	if (object_layer >= 0)
		used += (size_t)snprintf(by + used, sizeof by - used, "; objects of layer %s",
		                         d->object_layers[object_layer].name);
	if (n[GT_TILED_RULE_TILE_PROPERTY] > 0)
		used += (size_t)snprintf(by + used, sizeof by - used, "; property %s", wall_names(d, d->tile_names));
	if (n[GT_TILED_RULE_TILE_SHAPES] > 0 && used < sizeof by)
		used += (size_t)snprintf(by + used, sizeof by - used, "; tile collision shapes");
	if (n[GT_TILED_RULE_LAYER_PROPERTY] > 0 && used < sizeof by)
		used += (size_t)snprintf(by + used, sizeof by - used, "; layers with property %s",
		                         wall_names(d, d->layer_names));
	if (n[GT_TILED_RULE_OBJECTS] > 0 && object_layer < 0 && used < sizeof by)
		used += (size_t)snprintf(by + used, sizeof by - used, "; objects with property %s",
		                         wall_names(d, d->object_names));
	d->tiled->blocked_by = tiled_strdup(by[0] ? by + 2 : "nothing");
	if (!d->tiled->blocked_by) return gt_fail(d->err, GT_ERR_NOMEM, "%s: out of memory", d->path);
	return GT_OK;
}

gtStatus tiled_walls(TiledDoc* d, unsigned char* cells, int64_t x0, int64_t y0, int64_t w, int64_t h)
{
	const gtTiledDef* def = d->def;
	// Shapes may cover the map many times over, not without end: a level of 100,000 map-sized
	// rectangles would otherwise take an hour.
	int floors = d->tiled->floors > 0 ? d->tiled->floors : 1;
	Walls walls = {
	    d,
	    {cells, w, h, 0, d->tiled->tile_width, d->tiled->tile_height, 0, 0, 0, 64 * w * h * floors + (1 << 24)},
	    x0,
	    y0};
	walls.grid.origin_x = (double)x0 * d->tiled->tile_width, walls.grid.origin_y = (double)y0 * d->tiled->tile_height;
	char found[400];
	// The layer the summary names (a floor's own may differ: each floor takes its first so named).
	const TiledLayer* layer = NULL;
	int64_t object_layer = -1;
	if (def->blocked_layer) {
		layer = find_tile_layer(d, def->blocked_layer, -1);
		object_layer = layer ? -1 : find_object_layer(d, def->blocked_layer, -1);
		if (!layer && object_layer < 0) {
			describe(d, found, sizeof found);
			return gt_fail(d->err, GT_ERR_FORMAT, "%s: no layer named '%s' (%s)", d->path, def->blocked_layer, found);
		}
	} else {
		if (d->property && !d->wall_names) {
			describe(d, found, sizeof found);
			return gt_fail(d->err, GT_ERR_FORMAT,
			               "%s: no tile, layer or object has the bool property '%s' set true (%s)", d->path,
			               d->property, found);
		}
		layer = d->property ? NULL : find_tile_layer(d, "collision", -1);
	}
	bool ok = true;
	for (int f = 0; ok && f < floors; f++) {
		walls.grid.cells = cells + (int64_t)f * w * h;
		ok = fill_floor(&walls, d->tiled->floors > 0 ? f : -1);
	}
	if (!ok) return gt_fail(d->err, GT_ERR_NOMEM, "%s: out of memory", d->path);
	if (walls.grid.work > walls.grid.work_limit)
		return gt_fail(d->err, GT_ERR_LIMIT,
		               "%s: the walls' shapes cover the map more than 64 times over (too many or too large shapes)",
		               d->path);
	int64_t total = 0, *n = d->tiled->wall_cells;
	for (int64_t i = 0; i < w * h * floors; i++) {
		unsigned char c = cells[i];
		total += c != 0;
		for (int r = 0; r < GT_TILED_RULE_COUNT; r++) n[r] += (c >> r) & 1;
		cells[i] = c != 0;
	}
	if (total == 0 && !def->allow_empty) {
		describe(d, found, sizeof found);
		if (def->blocked_layer || def->blocked_property)
			return gt_fail(d->err, GT_ERR_FORMAT, "%s: no walls: %s %s walls no cell (allow_empty to load it open)",
			               d->path, def->blocked_layer ? "layer" : "property",
			               def->blocked_layer ? def->blocked_layer : def->blocked_property);
		return gt_fail(d->err, GT_ERR_FORMAT,
		               "%s: no walls: %s; pass --blocked-layer NAME or --blocked-property NAME, or allow_empty (Lua "
		               "allow_empty = true, "
		               "CLI --allow-empty) for an open level",
		               d->path, found);
	}
	return blocked_by(d, layer, object_layer);
}
