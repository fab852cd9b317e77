// A Tiled level's floors and links (docs/links.md, Floors in Tiled): group layers with an int
// property `floor` are the floors, laid side by side in one map as gtMap_FromFloors does; objects
// with the bool property `link` join two points, maybe on two floors. Layers outside every floor
// group wall every floor.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "gridtree/gt_links.h"
#include "tiled/tiled_doc.h"
#include "tiled/tiled_shapes.h"

enum { MAX_FLOORS = 1024 };

bool tiled_begin_group(TiledDoc* d, const char* name)
{
	if (!GT_GROW(d->groups, d->group_capacity, d->group_count + 1, 8))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	TiledGroup* g = &d->groups[d->group_count];
	g->name = tiled_strdup(name ? name : "");
	if (!g->name) return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	g->parent = d->current_group, g->floor = -1;
	d->current_group = d->group_count++;
	return true;
}

void tiled_end_group(TiledDoc* d)
{
	if (d->current_group >= 0) d->current_group = d->groups[d->current_group].parent;
}

// A whole number within [lo, hi] written as text ("2", or "2" as JSON's %.17g writes it).
static bool whole_number(const char* text, long long lo, long long hi, long long* out)
{
	if (!text || !*text) return false;
	char* end;
	double v = strtod(text, &end);
	if (*end || !(v >= (double)lo && v <= (double)hi) || v != floor(v)) return false;
	*out = (long long)v;
	return true;
}

bool tiled_group_property(TiledDoc* d, const char* name, const char* value)
{
	if (!name || strcmp(name, "floor") != 0 || d->current_group < 0) return true;
	TiledGroup* g = &d->groups[d->current_group];
	long long f;
	if (!whole_number(value, 0, MAX_FLOORS - 1, &f))
		return tiled_fail(d, GT_ERR_FORMAT,
		                  "%s: group '%s' has floor = '%.40s': a floor is a whole number from 0 to %d", d->path,
		                  g->name, value ? value : "", MAX_FLOORS - 1);
	g->floor = f;
	return true;
}

int tiled_group_floor(const TiledDoc* d, int64_t group)
{
	for (; group >= 0; group = d->groups[group].parent)
		if (d->groups[group].floor >= 0) return (int)d->groups[group].floor;
	return -1;
}

// Every floor's tile layers cover the whole map (a finite map's; an infinite map's floors share
// the box of every chunk), so that floors stack cell on cell as drawn.
static bool check_floor_sizes(TiledDoc* d)
{
	if (d->infinite) return true;
	for (int64_t i = 0; i < d->layer_count; i++) {
		const TiledLayer* l = &d->layers[i];
		int f = tiled_group_floor(d, l->group);
		if (f < 0 || l->chunk_count == 0) continue;
		const TiledChunk* c = &l->chunks[0];
		if (c->width != d->width || c->height != d->height)
			return tiled_fail(d, GT_ERR_FORMAT,
			                  "%s: floor %d ('%s'): layer '%s' is %dx%d cells, the map %dx%d: floors of different "
			                  "sizes (every floor covers the whole map)",
			                  d->path, f, d->tiled->floor_names[f], l->name, c->width, c->height, d->width, d->height);
	}
	return true;
}

bool tiled_check_floors(TiledDoc* d)
{
	int64_t floors = 0;
	for (int64_t i = 0; i < d->group_count; i++) {
		const TiledGroup* g = &d->groups[i];
		if (g->floor < 0) continue;
		floors++;
		for (int64_t p = g->parent; p >= 0; p = d->groups[p].parent)
			if (d->groups[p].floor >= 0)
				return tiled_fail(d, GT_ERR_FORMAT,
				                  "%s: group '%s' (floor %lld) is inside group '%s' (floor %lld): a floor cannot hold "
				                  "another",
				                  d->path, g->name, (long long)g->floor, d->groups[p].name,
				                  (long long)d->groups[p].floor);
	}
	if (floors == 0) return true;
	gtTiled* t = d->tiled;
	t->floor_names = gt_calloc((size_t)floors, sizeof *t->floor_names);
	if (!t->floor_names) return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	for (int64_t i = 0; i < d->group_count; i++) {
		const TiledGroup* g = &d->groups[i];
		if (g->floor < 0) continue;
		if (g->floor >= floors)
			return tiled_fail(
			    d, GT_ERR_FORMAT,
			    "%s: group '%s' is floor %lld, but the level has %lld floor groups: number them 0 to %lld", d->path,
			    g->name, (long long)g->floor, (long long)floors, (long long)floors - 1);
		if (t->floor_names[g->floor])
			return tiled_fail(d, GT_ERR_FORMAT, "%s: groups '%s' and '%s' are both floor %lld", d->path,
			                  t->floor_names[g->floor], g->name, (long long)g->floor);
		if (!(t->floor_names[g->floor] = tiled_keep(d, g->name))) return false;
	}
	t->floors = (int)floors;
	return check_floor_sizes(d);
}

static const gtTiledProperty* property_of(const gtTiled* t, const gtTiledObject* o, const char* name)
{
	for (int i = 0; i < o->property_count; i++)
		if (strcmp(t->properties[o->first_property + i].name, name) == 0) return &t->properties[o->first_property + i];
	return NULL;
}

static const gtTiledObject* object_by_id(const gtTiled* t, long long id)
{
	for (int64_t i = 0; i < t->object_count; i++)
		if (t->objects[i].id == id) return &t->objects[i];
	return NULL;
}

// A point of the level in pixels into floor-local cells.
static gtVec2 local_cells(const gtTiled* t, double px, double py)
{
	return (gtVec2){px / t->tile_width - t->origin_x, py / t->tile_height - t->origin_y};
}

static gtVec2 on_floor(const gtTiled* t, gtVec2 local, int floor)
{
	return (gtVec2){local.x + (double)floor * (t->floor_width + 1), local.y};
}

// Where a link object's ends are: a point's position, or a line's first and last points (Tiled's
// rotation applied); `b` only for a line.
static bool link_shape(TiledDoc* d, const char* what, const TiledShape* s, gtVec2* a, gtVec2* b)
{
	const gtTiled* t = d->tiled;
	if (s->kind == TILED_POINT) {
		*a = local_cells(t, s->x, s->y);
		return true;
	}
	if (s->kind != TILED_POLYLINE)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: draw a link as a point or a line (a polyline of two points)",
		                  d->path, what);
	if (s->point_count != 2)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: a line link has two points, this one %lld", d->path, what,
		                  (long long)s->point_count);
	const double* p = d->points + 2 * s->first_point;
	TiledAffine r = tiled_affine_rotation(s->rotation, s->x, s->y);
	gtVec2 ends[2];
	for (int i = 0; i < 2; i++) {
		double x = s->x + p[2 * i], y = s->y + p[2 * i + 1];
		ends[i] = local_cells(t, r.xx * x + r.xy * y + r.x0, r.yx * x + r.yy * y + r.y0);
	}
	*a = ends[0], *b = ends[1];
	return true;
}

// The far end of a link: the object `to` names, the same place (or the line's last point) on
// floor `to_floor`, or for a line the last point on its own floor.
static bool link_target(TiledDoc* d, const char* what, const gtTiledObject* o, bool line, gtVec2* b, int* floor_b)
{
	const gtTiled* t = d->tiled;
	const gtTiledProperty* to = property_of(t, o, "to");
	const gtTiledProperty* to_floor = property_of(t, o, "to_floor");
	long long n;
	if (to && strcmp(to->value, "0") == 0) to = NULL; // Tiled's empty object reference
	if (to && to_floor) return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: give 'to' or 'to_floor', not both", d->path, what);
	if (to) {
		const gtTiledObject* target = whole_number(to->value, 1, INT32_MAX, &n) ? object_by_id(t, n) : NULL;
		if (line)
			return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: a line link ends at its last point ('to' is for points)",
			                  d->path, what);
		if (!target)
			return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: 'to' names object '%.40s', which the level does not have",
			                  d->path, what, to->value);
		*floor_b = target->floor;
		*b = (gtVec2){target->x - (double)target->floor * (t->floor_width + 1), target->y};
		return true;
	}
	int floors = t->floors > 0 ? t->floors : 1;
	if (to_floor) {
		if (!whole_number(to_floor->value, 0, floors - 1, &n))
			return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: to_floor = '%.40s', but the level's floors are 0 to %d",
			                  d->path, what, to_floor->value, floors - 1);
		*floor_b = (int)n;
		return true;
	}
	if (!line)
		return tiled_fail(d, GT_ERR_FORMAT,
		                  "%s: %s: a point link needs 'to' (the object at its other end) or 'to_floor' (the same place "
		                  "on another floor)",
		                  d->path, what);
	return true;
}

static bool check_end(TiledDoc* d, const gtMap* map, const char* what, const char* end, gtVec2 local, int floor,
                      gtVec2* at)
{
	*at = on_floor(d->tiled, local, floor);
	gtPointCheck c = gtMap_CheckPoint(map, *at);
	if (d->tiled->floors > 0 && !(local.x >= 0 && local.x <= d->tiled->floor_width)) // else on the next floor
		c = GT_POINT_OFF_MAP;
	if (c == GT_POINT_VALID) return true;
	return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: its end %s, (%g, %g) on floor %d: %s", d->path, what, end, local.x,
	                  local.y, floor, gtPointCheckName(c));
}

static bool read_link(TiledDoc* d, const gtMap* map, int64_t index)
{
	gtTiled* t = d->tiled;
	const gtTiledObject* o = &t->objects[index];
	const TiledShape* s = &d->object_walls[index].shape;
	char what[96];
	snprintf(what, sizeof what, "link object %d%s%.40s%s", o->id, *o->name ? " '" : "", o->name, *o->name ? "'" : "");
	gtVec2 a, b = {0, 0};
	int floor_b = o->floor;
	if (!link_shape(d, what, s, &a, &b)) return false;
	if (s->kind == TILED_POINT) b = a;
	if (!link_target(d, what, o, s->kind == TILED_POLYLINE, &b, &floor_b)) return false;
	gtTiledLink link = {o->id, {0, 0}, {0, 0}, o->floor, floor_b, hypot(b.x - a.x, b.y - a.y), false};
	const gtTiledProperty* cost = property_of(t, o, "cost");
	const gtTiledProperty* oneway = property_of(t, o, "oneway");
	char* end = NULL;
	if (cost) link.cost = strtod(cost->value, &end);
	if (cost && (end == cost->value || *end || !isfinite(link.cost) || link.cost < 0))
		return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: cost = '%.40s': a cost is a number >= 0", d->path, what,
		                  cost->value);
	if (oneway && strcmp(oneway->value, "true") != 0 && strcmp(oneway->value, "false") != 0)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: %s: oneway = '%.40s': true or false", d->path, what, oneway->value);
	link.one_way = oneway && strcmp(oneway->value, "true") == 0;
	if (!check_end(d, map, what, "a", a, link.floor_a, &link.a) || !check_end(d, map, what, "b", b, floor_b, &link.b))
		return false;
	if (t->link_count >= GT_NAV_MAX_LINKS)
		return tiled_fail(d, GT_ERR_LIMIT, "%s: more than %d link objects", d->path, GT_NAV_MAX_LINKS);
	if (!GT_GROW(t->links, t->link_capacity, t->link_count + 1, 8))
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
	t->links[t->link_count++] = link;
	return true;
}

gtStatus tiled_place_objects(TiledDoc* d, const gtMap* map)
{
	gtTiled* t = d->tiled;
	double sx = t->tile_width, sy = t->tile_height;
	for (int64_t i = 0; i < t->object_count; i++) {
		gtTiledObject* o = &t->objects[i];
		int64_t layer = d->object_walls[i].layer;
		int f = layer >= 0 ? tiled_group_floor(d, d->object_layers[layer].group) : -1;
		const gtTiledProperty* own = t->floors > 0 && f < 0 ? property_of(t, o, "floor") : NULL;
		long long n;
		if (own && !whole_number(own->value, 0, t->floors - 1, &n)) {
			tiled_fail(d, GT_ERR_FORMAT, "%s: object %d: floor = '%.40s', but the level's floors are 0 to %d", d->path,
			           o->id, own->value, t->floors - 1);
			return d->err->status;
		}
		o->floor = f >= 0 ? f : own ? (int)n : 0;
		gtVec2 local = local_cells(t, o->x, o->y);
		// Past its floor's edge an object would land on another floor (a link's own check names its end).
		if (t->floors > 0 && !d->object_walls[i].link && !(local.x >= 0 && local.x <= t->floor_width)) {
			tiled_fail(d, GT_ERR_FORMAT,
			           "%s: object %d ('%.40s'): x = %g cells on floor %d, outside the floor's width %d", d->path,
			           o->id, o->name ? o->name : "", local.x, o->floor, t->floor_width);
			return d->err->status;
		}
		gtVec2 at = on_floor(t, local, o->floor);
		o->x = at.x, o->y = at.y;
		o->width /= sx, o->height /= sy;
	}
	for (int64_t i = 0; i < t->object_count; i++)
		if (d->object_walls[i].link && !read_link(d, map, i)) return d->err->status;
	return GT_OK;
}

int gtTiled_FloorCount(const gtTiled* t)
{
	return t->floors > 0 ? t->floors : 1;
}

int gtTiled_FloorWidth(const gtTiled* t)
{
	return t->floor_width;
}

const char* gtTiled_FloorName(const gtTiled* t, int floor)
{
	return floor >= 0 && floor < t->floors ? t->floor_names[floor] : "";
}

int gtTiled_LinkCount(const gtTiled* t)
{
	return (int)t->link_count;
}

const gtTiledLink* gtTiled_Link(const gtTiled* t, int index)
{
	return index >= 0 && index < t->link_count ? &t->links[index] : NULL;
}
