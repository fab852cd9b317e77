// Tiled's JSON formats through cJSON: maps (.tmj, .json) and external tilesets (.tsj).
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "tiled/tiled_doc.h"

enum { MAX_GROUP_DEPTH = 64 };

typedef struct Tmj {
	TiledDoc* d;
	const char* file;
	const char* original; // the map's text, where the long id arrays are
	const TiledIdArrays* arrays;
} Tmj;

static bool bad(Tmj* j, const char* where, const char* what)
{
	return tiled_fail(j->d, GT_ERR_FORMAT, "%s: %s%s%s", j->file, where, *where ? ": " : "", what);
}

static const char* string_of(const cJSON* o, const char* key)
{
	const cJSON* v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

// An integer member within [lo, hi] (`fallback` when absent and not `required`).
static bool int_of(Tmj* j, const cJSON* o, const char* where, const char* key, double lo, double hi, double fallback,
                   bool required, long long* out)
{
	const cJSON* v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v) {
		if (required) {
			char what[96];
			snprintf(what, sizeof what, "missing \"%s\"", key);
			return bad(j, where, what);
		}
		*out = (long long)fallback;
		return true;
	}
	double n = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	if (!(n >= lo && n <= hi && n == floor(n))) {
		char what[128];
		snprintf(what, sizeof what, "\"%s\" must be an integer from %.0f to %.0f", key, lo, hi);
		return bad(j, where, what);
	}
	*out = (long long)n;
	return true;
}

static void value_text(const cJSON* v, char* out, size_t room, const char** text);

// A number member as written (0 when absent); tiled_check_shape judges its range.
static double number_of(const cJSON* o, const char* key)
{
	const cJSON* v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

// An object's geometry: kind, position, size, rotation, tile; its points are read after it is added.
static TiledShape read_shape(const cJSON* o)
{
	TiledShape s = {TILED_RECT,
	                number_of(o, "x"),
	                number_of(o, "y"),
	                number_of(o, "width"),
	                number_of(o, "height"),
	                number_of(o, "rotation"),
	                0,
	                0,
	                0};
	double gid = number_of(o, "gid");
	if (gid >= 0 && gid <= 4294967295.0) s.gid = (uint32_t)gid;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "ellipse"))) s.kind = TILED_ELLIPSE;
	else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "point"))) s.kind = TILED_POINT;
	else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "capsule"))) s.kind = TILED_CAPSULE;
	else if (cJSON_GetObjectItemCaseSensitive(o, "text")) s.kind = TILED_TEXT;
	else if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(o, "polygon"))) s.kind = TILED_POLYGON;
	else if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(o, "polyline"))) s.kind = TILED_POLYLINE;
	return s;
}

// The points of the shape just added (`shape` finds it again: the doc's arrays may move).
static bool read_points(Tmj* j, const cJSON* o, TiledShape* (*shape)(TiledDoc*), const char* what)
{
	TiledShape* s = shape(j->d);
	if (s->kind != TILED_POLYGON && s->kind != TILED_POLYLINE) return true;
	const cJSON* points = cJSON_GetObjectItemCaseSensitive(o, s->kind == TILED_POLYGON ? "polygon" : "polyline");
	s->first_point = j->d->point_count, s->point_count = 0;
	for (const cJSON* p = points->child; p; p = p->next) {
		if (!cJSON_IsObject(p)) return bad(j, what, "points must be objects with \"x\" and \"y\"");
		if (!tiled_add_point(j->d, what, number_of(p, "x"), number_of(p, "y"))) return false;
		shape(j->d)->point_count++;
	}
	return true;
}

// An object made from a template: an XML template (.tx) gives its shape under the object's own
// members; a JSON template (.tj) must stay inside the level's folder but is not read.
static bool apply_template(Tmj* j, const cJSON* o, TiledShape* s)
{
	const char* source = string_of(o, "template");
	if (!source) return true;
	if (!tiled_ends_with(source, ".tx")) {
		char* path = tiled_resolve(j->d, NULL, source, "template");
		gt_free(path);
		return path != NULL;
	}
	int64_t t = tiled_read_template(j->d, NULL, source);
	if (t < 0) return false;
	TiledShape own = *s;
	*s = j->d->templates[t].shape;
	static const char* const keys[5] = {"x", "y", "width", "height", "rotation"};
	const double* values[5] = {&own.x, &own.y, &own.width, &own.height, &own.rotation};
	double* fields[5] = {&s->x, &s->y, &s->width, &s->height, &s->rotation};
	for (int i = 0; i < 5; i++)
		if (cJSON_GetObjectItemCaseSensitive(o, keys[i])) *fields[i] = *values[i];
	s->gid = cJSON_GetObjectItemCaseSensitive(o, "gid") ? own.gid : 0; // a template's gid is its own tileset's
	if (own.kind != TILED_RECT) *s = own;                              // the object draws its own shape
	if (j->d->templates[t].tile && !s->gid) s->y -= s->height, s->kind = TILED_RECT; // bottom-left origin
	return true;
}

static TiledShape* last_object_shape(TiledDoc* d)
{
	return &d->object_walls[d->tiled->object_count - 1].shape;
}

static TiledShape* last_tile_shape(TiledDoc* d)
{
	return &d->tile_shapes[d->tile_shape_count - 1];
}

// A layer's own properties: the wall property marks it.
static void layer_properties(Tmj* j, const cJSON* layer, bool object_layer)
{
	const cJSON* props = cJSON_GetObjectItemCaseSensitive(layer, "properties");
	for (const cJSON* p = cJSON_IsArray(props) ? props->child : NULL; p; p = p->next) {
		char buffer[64];
		const char* value;
		value_text(cJSON_GetObjectItemCaseSensitive(p, "value"), buffer, sizeof buffer, &value);
		const char* name = string_of(p, "name");
		if (name) tiled_layer_property(j->d, object_layer, name, string_of(p, "type"), value);
	}
}

// A property's value as text: bools as true/false, numbers as written by %.17g, strings as they are.
static void value_text(const cJSON* v, char* out, size_t room, const char** text)
{
	*text = out;
	if (cJSON_IsString(v)) *text = v->valuestring;
	else if (cJSON_IsBool(v)) snprintf(out, room, "%s", cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNumber(v)) snprintf(out, room, "%.17g", v->valuedouble);
	else snprintf(out, room, "%s", "");
}

// The tile data of one chunk: an array of ids, or a base64 string (compressed or not).
static bool read_data(Tmj* j, TiledChunk* c, const cJSON* layer, const cJSON* data, const char* where)
{
	if (!c) return false;
	const char* encoding = string_of(layer, "encoding");
	const char* compression = string_of(layer, "compression");
	if (cJSON_IsString(data)) {
		if (encoding && strcmp(encoding, "base64") != 0)
			return bad(j, where, "string tile data needs \"encoding\": \"base64\"");
		return tiled_decode(j->d, c, "base64", compression, data->valuestring, strlen(data->valuestring));
	}
	int64_t taken = cJSON_IsNumber(data) && j->arrays ? -(int64_t)data->valuedouble - 1 : -1;
	if (taken >= 0 && taken < j->arrays->count &&
	    data->valuedouble == -(double)(taken + 1)) // a long array, read as CSV
		return tiled_decode(j->d, c, "csv", NULL, j->original + j->arrays->spans[2 * taken],
		                    j->arrays->spans[2 * taken + 1]);
	if (!cJSON_IsArray(data)) return bad(j, where, "\"data\" must be an array of tile ids or a base64 string");
	size_t want = (size_t)c->width * (size_t)c->height, count = 0;
	for (const cJSON* v = data->child; v; v = v->next) {
		double n = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		if (!(n >= 0 && n <= 4294967295.0 && n == floor(n)))
			return bad(j, where, "tile ids must be integers from 0 to 2^32 - 1");
		if (count == want) break;
		c->gids[count++] = (uint32_t)n;
	}
	if (count != want || cJSON_GetArraySize(data) != (int)want) {
		char what[128];
		snprintf(what, sizeof what, "\"data\" has %d tile ids, expected %dx%d = %zu", cJSON_GetArraySize(data),
		         c->width, c->height, want);
		return bad(j, where, what);
	}
	return true;
}

static bool compressed(const cJSON* layer)
{
	const char* compression = string_of(layer, "compression");
	return compression && *compression;
}

static bool read_tile_layer(Tmj* j, const cJSON* layer, const char* where)
{
	TiledDoc* d = j->d;
	if (!tiled_add_layer(d, string_of(layer, "name"))) return false;
	layer_properties(j, layer, false);
	if (!d->infinite) {
		long long w, h;
		if (!int_of(j, layer, where, "width", 1, GT_MAP_MAX_SIDE, d->width, false, &w) ||
		    !int_of(j, layer, where, "height", 1, GT_MAP_MAX_SIDE, d->height, false, &h))
			return false;
		const cJSON* data = cJSON_GetObjectItemCaseSensitive(layer, "data");
		if (!data) return bad(j, where, "a tile layer of a finite map needs \"data\"");
		return read_data(j, tiled_add_chunk(d, 0, 0, (int)w, (int)h, compressed(layer)), layer, data, where);
	}
	const cJSON* chunks = cJSON_GetObjectItemCaseSensitive(layer, "chunks");
	if (!cJSON_IsArray(chunks)) return bad(j, where, "a tile layer of an infinite map needs \"chunks\"");
	for (const cJSON* c = chunks->child; c; c = c->next) {
		long long v[4];
		if (!cJSON_IsObject(c)) return bad(j, where, "chunks must be objects");
		if (!int_of(j, c, where, "x", -(1 << 29), 1 << 29, 0, true, &v[0]) ||
		    !int_of(j, c, where, "y", -(1 << 29), 1 << 29, 0, true, &v[1]) ||
		    !int_of(j, c, where, "width", 1, GT_MAP_MAX_SIDE, 0, true, &v[2]) ||
		    !int_of(j, c, where, "height", 1, GT_MAP_MAX_SIDE, 0, true, &v[3]))
			return false;
		const cJSON* data = cJSON_GetObjectItemCaseSensitive(c, "data");
		if (!read_data(j, tiled_add_chunk(d, (int)v[0], (int)v[1], (int)v[2], (int)v[3], compressed(layer)), layer,
		               data, where))
			return false;
	}
	return true;
}

static bool read_object_layer(Tmj* j, const cJSON* layer, const char* where)
{
	if (!tiled_add_object_layer(j->d, string_of(layer, "name"))) return false;
	layer_properties(j, layer, true);
	const cJSON* objects = cJSON_GetObjectItemCaseSensitive(layer, "objects");
	if (!objects) return true;
	if (!cJSON_IsArray(objects)) return bad(j, where, "\"objects\" must be an array");
	for (const cJSON* o = objects->child; o; o = o->next) {
		if (!cJSON_IsObject(o)) return bad(j, where, "objects must be objects");
		const char* type = string_of(o, "type");
		if (!type || !*type) type = string_of(o, "class");
		long long id;
		if (!int_of(j, o, where, "id", 0, 2147483647.0, 0, false, &id)) return false;
		TiledShape shape = read_shape(o);
		if (!apply_template(j, o, &shape)) return false;
		char what[64];
		snprintf(what, sizeof what, "object %lld", id);
		if (!tiled_add_object(j->d, (int)id, string_of(o, "name"), type, &shape) ||
		    !read_points(j, o, last_object_shape, what))
			return false;
		const cJSON* props = cJSON_GetObjectItemCaseSensitive(o, "properties");
		for (const cJSON* p = cJSON_IsArray(props) ? props->child : NULL; p; p = p->next) {
			const char* name = string_of(p, "name");
			if (!name) return bad(j, where, "a property without a \"name\"");
			char buffer[64];
			const char* value;
			value_text(cJSON_GetObjectItemCaseSensitive(p, "value"), buffer, sizeof buffer, &value);
			if (!tiled_add_property(j->d, name, string_of(p, "type"), value)) return false;
		}
	}
	return true;
}

// A group layer's own properties: `floor` makes it a floor.
static bool group_properties(Tmj* j, const cJSON* group)
{
	const cJSON* props = cJSON_GetObjectItemCaseSensitive(group, "properties");
	for (const cJSON* p = cJSON_IsArray(props) ? props->child : NULL; p; p = p->next) {
		char buffer[64];
		const char* value;
		value_text(cJSON_GetObjectItemCaseSensitive(p, "value"), buffer, sizeof buffer, &value);
		if (!tiled_group_property(j->d, string_of(p, "name"), value)) return false;
	}
	return true;
}

static bool read_layers(Tmj* j, const cJSON* layers, int depth)
{
	if (!cJSON_IsArray(layers)) return bad(j, "", "\"layers\" must be an array");
	if (depth > MAX_GROUP_DEPTH) return bad(j, "", "groups nested too deep");
	int index = 0;
	for (const cJSON* l = layers->child; l; l = l->next, index++) {
		char where[160];
		const char* name = cJSON_IsObject(l) ? string_of(l, "name") : NULL;
		snprintf(where, sizeof where, "layer %d ('%.60s')", index, name ? name : "");
		const char* type = cJSON_IsObject(l) ? string_of(l, "type") : NULL;
		if (!type) return bad(j, where, "a layer needs a \"type\"");
		bool ok = true;
		if (strcmp(type, "tilelayer") == 0) ok = read_tile_layer(j, l, where);
		else if (strcmp(type, "objectgroup") == 0) ok = read_object_layer(j, l, where);
		else if (strcmp(type, "group") == 0) {
			ok = tiled_begin_group(j->d, name) && group_properties(j, l) &&
			     read_layers(j, cJSON_GetObjectItemCaseSensitive(l, "layers"), depth + 1);
			tiled_end_group(j->d);
		}
		if (!ok) return false;
	}
	return true;
}

// A tileset object (embedded, or a .tsj file's root) into a new source: its tile size and the
// tiles with the wall property, their own image size, their collision shapes.
static bool read_tileset(Tmj* j, const cJSON* tileset, const char* path)
{
	if (tiled_add_source(j->d, path, number_of(tileset, "tilewidth"), number_of(tileset, "tileheight")) < 0)
		return false;
	const cJSON* tiles = cJSON_GetObjectItemCaseSensitive(tileset, "tiles");
	if (!tiles) return true;
	if (!cJSON_IsArray(tiles)) return bad(j, "tileset", "\"tiles\" must be an array");
	for (const cJSON* t = tiles->child; t; t = t->next) {
		long long id;
		if (!cJSON_IsObject(t)) return bad(j, "tileset", "tiles must be objects");
		if (!int_of(j, t, "tileset", "id", 0, TILED_GID_MASK, 0, true, &id)) return false;
		TiledTile* tile = tiled_add_tile(j->d, (uint32_t)id);
		if (!tile) return false;
		tile->width = number_of(t, "imagewidth"), tile->height = number_of(t, "imageheight");
		const cJSON* props = cJSON_GetObjectItemCaseSensitive(t, "properties");
		for (const cJSON* p = cJSON_IsArray(props) ? props->child : NULL; p; p = p->next) {
			char buffer[64];
			const char* value;
			value_text(cJSON_GetObjectItemCaseSensitive(p, "value"), buffer, sizeof buffer, &value);
			if (tiled_wall_property(j->d, string_of(p, "name"), string_of(p, "type"), value)) tile->solid = true;
		}
		const cJSON* group = cJSON_GetObjectItemCaseSensitive(t, "objectgroup");
		const cJSON* shapes = cJSON_IsObject(group) ? cJSON_GetObjectItemCaseSensitive(group, "objects") : NULL;
		for (const cJSON* o = cJSON_IsArray(shapes) ? shapes->child : NULL; o; o = o->next) {
			if (!cJSON_IsObject(o)) return bad(j, "tileset", "a tile's collision shapes must be objects");
			TiledShape shape = read_shape(o);
			shape.gid = 0;
			char what[64];
			snprintf(what, sizeof what, "tile %lld's collision shape", id);
			if (!tiled_add_tile_shape(j->d, &shape) || !read_points(j, o, last_tile_shape, what)) return false;
		}
		tiled_end_tile(j->d);
	}
	return true;
}

static cJSON* parse_json(Tmj* j, const char* text, size_t length)
{
	const char* end = NULL;
	cJSON* root = cJSON_ParseWithLengthOpts(text, length, &end, 0);
	if (!root) {
		// cJSON says where it stopped: the line of that byte.
		size_t at = end && end >= text && end <= text + length ? (size_t)(end - text) : 0;
		unsigned long line = 1;
		for (size_t i = 0; i < at; i++) line += text[i] == '\n';
		tiled_fail(j->d, GT_ERR_FORMAT, "%s:%lu: not valid JSON", j->file, line);
		return NULL;
	}
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		bad(j, "", "the top level is not a JSON object");
		return NULL;
	}
	return root;
}

bool tiled_read_tmj(TiledDoc* d, const char* text, size_t length)
{
	TiledIdArrays arrays;
	if (!tiled_scan_json(d, text, length, &arrays)) {
		tiled_free_id_arrays(&arrays);
		return false;
	}
	Tmj j = {d, d->path, text, &arrays};
	cJSON* root = parse_json(&j, arrays.text ? arrays.text : text, length);
	if (!root) {
		tiled_free_id_arrays(&arrays);
		return false;
	}
	bool ok = true;
	const char* orientation = string_of(root, "orientation");
	const cJSON* type = cJSON_GetObjectItemCaseSensitive(root, "type");
	long long v[4];
	if (cJSON_IsString(type) && strcmp(type->valuestring, "map") != 0)
		ok = bad(&j, "", "not a Tiled map (\"type\" is not \"map\")");
	else if (orientation && strcmp(orientation, "orthogonal") != 0) {
		char what[128];
		snprintf(what, sizeof what, "only orthogonal maps can be read; this one is %.60s", orientation);
		ok = bad(&j, "", what);
	} else if (!int_of(&j, root, "", "width", 1, GT_MAP_MAX_SIDE, 0, true, &v[0]) ||
	           !int_of(&j, root, "", "height", 1, GT_MAP_MAX_SIDE, 0, true, &v[1]) ||
	           !int_of(&j, root, "", "tilewidth", 1, 1 << 20, 0, true, &v[2]) ||
	           !int_of(&j, root, "", "tileheight", 1, 1 << 20, 0, true, &v[3])) {
		ok = false;
	}
	if (ok) {
		d->width = (int)v[0], d->height = (int)v[1];
		d->tiled->tile_width = (int)v[2], d->tiled->tile_height = (int)v[3];
		d->infinite = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "infinite"));
		const cJSON* tilesets = cJSON_GetObjectItemCaseSensitive(root, "tilesets");
		for (const cJSON* t = cJSON_IsArray(tilesets) ? tilesets->child : NULL; ok && t; t = t->next) {
			long long firstgid;
			ok = cJSON_IsObject(t) ? int_of(&j, t, "tileset", "firstgid", 1, TILED_GID_MASK, 1, true, &firstgid)
			                       : bad(&j, "", "tilesets must be objects");
			if (!ok) break;
			const char* source = string_of(t, "source");
			if (source) ok = tiled_read_tileset(d, source, (uint32_t)firstgid);
			else ok = read_tileset(&j, t, NULL) && tiled_add_tileset(d, (uint32_t)firstgid, d->source_count - 1);
		}
		if (ok) ok = read_layers(&j, cJSON_GetObjectItemCaseSensitive(root, "layers"), 0);
	}
	cJSON_Delete(root);
	tiled_free_id_arrays(&arrays);
	return ok && !d->failed;
}

bool tiled_read_tsj(TiledDoc* d, const char* path, const char* text, size_t length)
{
	TiledIdArrays arrays; // no tile data in a tileset: this counts its values against the limit
	bool counted = tiled_scan_json(d, text, length, &arrays);
	Tmj j = {d, path, text, &arrays};
	cJSON* root = counted ? parse_json(&j, arrays.text ? arrays.text : text, length) : NULL;
	tiled_free_id_arrays(&arrays);
	j.arrays = NULL;
	if (!root) return false;
	bool ok = read_tileset(&j, root, path);
	cJSON_Delete(root);
	return ok && !d->failed;
}
