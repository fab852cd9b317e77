// Tiled's XML formats through expat: maps (.tmx) and external tilesets (.tsx).
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "tiled/tiled_doc.h"

enum { MAX_DEPTH = 64 };

typedef struct Tmx {
	TiledDoc* d;
	XML_Parser parser;
	const char* file;             // the file being read, for messages
	const char* stack[MAX_DEPTH]; // element names, outermost first
	int depth;
	int64_t tile_id;                 // the <tile> of a tileset being read, or -1
	bool tile_shapes;                // inside a <tile>'s <objectgroup>: collision shapes
	bool in_object;                  // inside a map object
	TiledShape* (*shape)(TiledDoc*); // the <object> being read (a map object or a tile's shape)
	int layer_width, layer_height;   // the <layer> being read
	TiledChunk* chunk;               // the data being read, and its encoding
	char* encoding;
	char* compression;
	size_t xml_tiles; // <tile gid> children seen in it
	char* text;       // character data of <data>, <chunk> or a <property> without value
	size_t text_length, text_room;
	bool collect;
	char* property_name; // a <property> whose value is its text
	char* property_type;
} Tmx;

static const char* attr(const char** atts, const char* name)
{
	for (int i = 0; atts[i]; i += 2)
		if (strcmp(atts[i], name) == 0) return atts[i + 1];
	return NULL;
}

static bool fail_here(Tmx* x, const char* what, const char* detail)
{
	return tiled_fail(x->d, GT_ERR_FORMAT, "%s:%lu: %s%s", x->file, (unsigned long)XML_GetCurrentLineNumber(x->parser),
	                  what, detail ? detail : "");
}

// An integer attribute within [lo, hi]; `fallback` when absent (a missing required one is `required`).
static bool int_attr(Tmx* x, const char** atts, const char* name, long long lo, long long hi, long long fallback,
                     bool required, long long* out)
{
	const char* s = attr(atts, name);
	if (!s) {
		if (required) {
			char what[96];
			snprintf(what, sizeof what, "missing attribute '%s'", name);
			return fail_here(x, what, NULL);
		}
		*out = fallback;
		return true;
	}
	char* end;
	long long v = strtoll(s, &end, 10);
	if (end == s || *end || v < lo || v > hi) {
		char what[160];
		snprintf(what, sizeof what, "attribute %s='%.40s' is not an integer from %lld to %lld", name, s, lo, hi);
		return fail_here(x, what, NULL);
	}
	*out = v;
	return true;
}

static double number_attr(const char** atts, const char* name)
{
	const char* s = attr(atts, name);
	return s ? strtod(s, NULL) : 0;
}

// The element names the reader looks at, kept as constants (expat's strings do not outlive a callback).
static const char* intern(const char* name)
{
	static const char* const known[] = {"map",    "tileset",    "tile",     "data",  "chunk", "layer",   "objectgroup",
	                                    "object", "properties", "property", "group", "image", "template"};
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (strcmp(name, known[i]) == 0) return known[i];
	return "other";
}

// The name of the element `up` levels above the current one ("" above the root).
static const char* above(const Tmx* x, int up)
{
	return x->depth > up ? x->stack[x->depth - 1 - up] : "";
}

static const char* parent(const Tmx* x)
{
	return above(x, 1);
}

static TiledShape* last_object_shape(TiledDoc* d)
{
	return d->tiled->object_count ? &d->object_walls[d->tiled->object_count - 1].shape : NULL;
}

static TiledShape* last_tile_shape(TiledDoc* d)
{
	return d->tile_shape_count ? &d->tile_shapes[d->tile_shape_count - 1] : NULL;
}

static TiledTile* last_tile(TiledDoc* d)
{
	TiledSource* s = d->source_count ? &d->sources[d->source_count - 1] : NULL;
	return s && s->tile_count ? &s->tiles[s->tile_count - 1] : NULL;
}

static TiledShape* last_template_shape(TiledDoc* d)
{
	return d->template_count ? &d->templates[d->template_count - 1].shape : NULL;
}

// The attributes an object gives over its template's (or the defaults).
static void override_shape(const char** atts, TiledShape* s)
{
	static const char* const names[5] = {"x", "y", "width", "height", "rotation"};
	double* fields[5] = {&s->x, &s->y, &s->width, &s->height, &s->rotation};
	for (int i = 0; i < 5; i++)
		if (attr(atts, names[i])) *fields[i] = strtod(attr(atts, names[i]), NULL);
	const char* gid = attr(atts, "gid");
	if (gid) s->gid = (uint32_t)strtoul(gid, NULL, 10);
}

// An object's shape: its template's (read once per load) under its own attributes. A template's
// tile object keeps its bottom-left origin as a rectangle (its tile is the template's own tileset's).
static bool object_shape(Tmx* x, const char** atts, TiledShape* s)
{
	memset(s, 0, sizeof *s);
	s->kind = TILED_RECT;
	const char* source = attr(atts, "template");
	bool tile = false;
	if (source) {
		int64_t t = tiled_read_template(x->d, x->file, source);
		if (t < 0) return false;
		*s = x->d->templates[t].shape;
		tile = x->d->templates[t].tile;
	}
	override_shape(atts, s);
	if (tile && !attr(atts, "gid")) s->gid = 0, s->y -= s->height, s->kind = TILED_RECT;
	return true;
}

static TiledShape read_shape(const char** atts)
{
	TiledShape s = {TILED_RECT,
	                number_attr(atts, "x"),
	                number_attr(atts, "y"),
	                number_attr(atts, "width"),
	                number_attr(atts, "height"),
	                number_attr(atts, "rotation"),
	                0,
	                0,
	                0};
	const char* gid = attr(atts, "gid");
	if (gid) s.gid = (uint32_t)strtoul(gid, NULL, 10);
	return s;
}

// "x,y x,y ..." of a <polygon> or <polyline> into the doc's points, counted on the shape.
static void read_points(Tmx* x, const char* text, TiledShape* shape)
{
	if (!shape || !text) return;
	char what[64];
	const gtTiled* t = x->d->tiled; // an object's points follow the object itself, added at <object>
	if (x->in_object && t->object_count > 0)
		snprintf(what, sizeof what, "object %d's points", t->objects[t->object_count - 1].id);
	else snprintf(what, sizeof what, "%s's points", x->in_object ? "an object" : "a tile's collision shape");
	while (*text && !x->d->failed) {
		char* end;
		double px = strtod(text, &end);
		if (end == text || *end != ',') {
			fail_here(x, "malformed points: ", text);
			return;
		}
		const char* y_text = end + 1;
		double py = strtod(y_text, &end);
		if (end == y_text) {
			fail_here(x, "malformed points: ", text);
			return;
		}
		if (!tiled_add_point(x->d, what, px, py)) return;
		shape = x->shape(x->d); // the points array may have moved, the shape not
		shape->point_count++;
		text = end;
		while (*text == ' ' || *text == '\n' || *text == '\t' || *text == '\r') text++;
	}
}

// A child of an <object> that says what it is.
static void shape_child(Tmx* x, const char* name, const char** atts)
{
	TiledShape* s = x->shape ? x->shape(x->d) : NULL;
	if (!s) return;
	if (strcmp(name, "ellipse") == 0) s->kind = TILED_ELLIPSE;
	else if (strcmp(name, "point") == 0) s->kind = TILED_POINT;
	else if (strcmp(name, "text") == 0) s->kind = TILED_TEXT;
	else if (strcmp(name, "capsule") == 0) s->kind = TILED_CAPSULE;
	else if (strcmp(name, "polygon") == 0 || strcmp(name, "polyline") == 0) {
		s->kind = name[4] == 'g' ? TILED_POLYGON : TILED_POLYLINE;
		s->first_point = x->d->point_count, s->point_count = 0;
		read_points(x, attr(atts, "points"), s);
	}
}

// Starts collecting an element's text, empty (also when no character data follows).
static void start_text(Tmx* x)
{
	x->text_length = 0;
	if (x->text) x->text[0] = '\0';
	x->collect = true;
}

static bool start_data(Tmx* x, const char** atts)
{
	gt_free(x->encoding);
	gt_free(x->compression);
	const char* encoding = attr(atts, "encoding");
	const char* compression = attr(atts, "compression");
	x->encoding = tiled_strdup(encoding ? encoding : "");
	x->compression = tiled_strdup(compression ? compression : "");
	if (!x->encoding || !x->compression) return tiled_fail(x->d, GT_ERR_NOMEM, "%s: out of memory", x->file);
	if (!x->d->infinite) {
		x->chunk = tiled_add_chunk(x->d, 0, 0, x->layer_width, x->layer_height, *x->compression != '\0');
		x->xml_tiles = 0;
		start_text(x);
	}
	return x->chunk != NULL || x->d->infinite;
}

// <map>: its size and tile size (orthogonal maps only).
static void start_map(Tmx* x, const char** atts)
{
	TiledDoc* d = x->d;
	long long v[4];
	const char* orientation = attr(atts, "orientation");
	if (orientation && strcmp(orientation, "orthogonal") != 0) {
		fail_here(x, "only orthogonal maps can be read; this one is ", orientation);
	} else if (int_attr(x, atts, "width", 1, GT_MAP_MAX_SIDE, 0, true, &v[0]) &&
	           int_attr(x, atts, "height", 1, GT_MAP_MAX_SIDE, 0, true, &v[1]) &&
	           int_attr(x, atts, "tilewidth", 1, 1 << 20, 0, true, &v[2]) &&
	           int_attr(x, atts, "tileheight", 1, 1 << 20, 0, true, &v[3])) {
		d->width = (int)v[0], d->height = (int)v[1];
		d->tiled->tile_width = (int)v[2], d->tiled->tile_height = (int)v[3];
		const char* infinite = attr(atts, "infinite");
		d->infinite = infinite && strcmp(infinite, "1") == 0;
	}
}

// <property>: of a tile (walls), a layer, an object layer or an object. False for one without a
// name (the failure is set; on_start returns at once).
static bool start_property(Tmx* x, const char** atts)
{
	TiledDoc* d = x->d;
	const char* pname = attr(atts, "name");
	const char* type = attr(atts, "type");
	const char* value = attr(atts, "value");
	if (!pname) {
		fail_here(x, "a <property> without a name", NULL);
		return false;
	}
	const char* owner = strcmp(parent(x), "properties") == 0 ? above(x, 2) : "";
	if (strcmp(owner, "tile") == 0 && x->tile_id >= 0 && tiled_wall_property(d, pname, type, value) && last_tile(d))
		last_tile(d)->solid = true;
	if (strcmp(owner, "layer") == 0) tiled_layer_property(d, false, pname, type, value);
	if (strcmp(owner, "group") == 0) tiled_group_property(d, pname, value);
	if (strcmp(owner, "objectgroup") == 0 && !x->tile_shapes) tiled_layer_property(d, true, pname, type, value);
	if (x->in_object && strcmp(parent(x), "properties") == 0 && strcmp(above(x, 2), "object") == 0) {
		if (value) {
			tiled_add_property(d, pname, type, value);
		} else { // multi-line strings are the element's text
			gt_free(x->property_name);
			gt_free(x->property_type);
			x->property_name = tiled_strdup(pname);
			x->property_type = tiled_strdup(type ? type : "string");
			if (!x->property_name || !x->property_type) tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", x->file);
			start_text(x);
		}
	}
	return true;
}

static void XMLCALL on_start(void* user, const char* name, const char** atts)
{
	Tmx* x = user;
	TiledDoc* d = x->d;
	if (d->failed) return;
	if (x->depth == MAX_DEPTH) {
		fail_here(x, "elements nested too deep", NULL);
		XML_StopParser(x->parser, XML_FALSE);
		return;
	}
	x->stack[x->depth++] = intern(name);
	long long v[4];
	if (strcmp(name, "map") == 0 && x->depth == 1) {
		start_map(x, atts);
	} else if (strcmp(name, "tileset") == 0) {
		x->tile_id = -1;
		double tw = number_attr(atts, "tilewidth"), th = number_attr(atts, "tileheight");
		if (strcmp(parent(x), "map") == 0) {
			if (!int_attr(x, atts, "firstgid", 1, TILED_GID_MASK, 1, true, &v[0])) return;
			const char* source = attr(atts, "source");
			if (source) tiled_read_tileset(d, source, (uint32_t)v[0]);
			else tiled_add_tileset(d, (uint32_t)v[0], tiled_add_source(d, NULL, tw, th));
		} else if (x->depth == 1) { // an external tileset's root
			tiled_add_source(d, x->file, tw, th);
		}
	} else if (strcmp(name, "tile") == 0 && strcmp(parent(x), "tileset") == 0) {
		if (int_attr(x, atts, "id", 0, TILED_GID_MASK, 0, true, &v[0]) && tiled_add_tile(d, (uint32_t)v[0]))
			x->tile_id = v[0];
	} else if (strcmp(name, "image") == 0 && strcmp(parent(x), "tile") == 0 && x->tile_id >= 0) {
		TiledTile* t = last_tile(d); // an image collection's tile has its own size
		if (t) t->width = number_attr(atts, "width"), t->height = number_attr(atts, "height");
	} else if (strcmp(name, "tile") == 0 && (strcmp(parent(x), "data") == 0 || strcmp(parent(x), "chunk") == 0)) {
		if (!x->chunk) return;
		if (x->xml_tiles == (size_t)x->chunk->width * (size_t)x->chunk->height) {
			fail_here(x, "more <tile> elements than the layer has cells", NULL);
			return;
		}
		if (int_attr(x, atts, "gid", 0, UINT32_MAX, 0, false, &v[0])) x->chunk->gids[x->xml_tiles++] = (uint32_t)v[0];
	} else if (strcmp(name, "property") == 0) {
		if (!start_property(x, atts)) return;
	} else if (strcmp(name, "layer") == 0) {
		if (int_attr(x, atts, "width", 1, GT_MAP_MAX_SIDE, d->width, d->infinite, &v[0]) &&
		    int_attr(x, atts, "height", 1, GT_MAP_MAX_SIDE, d->height, d->infinite, &v[1])) {
			x->layer_width = (int)v[0], x->layer_height = (int)v[1];
			tiled_add_layer(d, attr(atts, "name"));
		}
	} else if (strcmp(name, "data") == 0 && strcmp(parent(x), "layer") == 0) {
		start_data(x, atts);
	} else if (strcmp(name, "chunk") == 0 && strcmp(parent(x), "data") == 0) {
		if (int_attr(x, atts, "x", -(1 << 29), 1 << 29, 0, true, &v[0]) &&
		    int_attr(x, atts, "y", -(1 << 29), 1 << 29, 0, true, &v[1]) &&
		    int_attr(x, atts, "width", 1, GT_MAP_MAX_SIDE, 0, true, &v[2]) &&
		    int_attr(x, atts, "height", 1, GT_MAP_MAX_SIDE, 0, true, &v[3])) {
			x->chunk = tiled_add_chunk(d, (int)v[0], (int)v[1], (int)v[2], (int)v[3],
			                           x->compression && *x->compression);
			x->xml_tiles = 0;
			start_text(x);
		}
	} else if (strcmp(name, "group") == 0 && (strcmp(parent(x), "map") == 0 || strcmp(parent(x), "group") == 0)) {
		tiled_begin_group(d, attr(atts, "name"));
	} else if (strcmp(name, "objectgroup") == 0 && strcmp(parent(x), "tile") == 0) {
		x->tile_shapes = x->tile_id >= 0;
	} else if (strcmp(name, "objectgroup") == 0) {
		tiled_add_object_layer(d, attr(atts, "name"));
	} else if (strcmp(name, "object") == 0 && strcmp(parent(x), "template") == 0 && d->template_count > 0) {
		TiledTemplate* t = &d->templates[d->template_count - 1];
		t->shape = read_shape(atts);
		t->tile = attr(atts, "gid") != NULL;
		x->shape = last_template_shape;
	} else if (strcmp(name, "object") == 0 && strcmp(parent(x), "objectgroup") == 0 && x->tile_shapes) {
		TiledShape shape;
		if (object_shape(x, atts, &shape)) {
			shape.gid = 0;
			if (tiled_add_tile_shape(d, &shape)) x->shape = last_tile_shape;
		}
	} else if (strcmp(name, "object") == 0 && strcmp(parent(x), "objectgroup") == 0 &&
	           (strcmp(above(x, 2), "map") == 0 || strcmp(above(x, 2), "group") == 0)) {
		const char* type = attr(atts, "type");
		if (!type) type = attr(atts, "class");
		long long id = 0;
		TiledShape shape;
		if (object_shape(x, atts, &shape) && int_attr(x, atts, "id", 0, INT32_MAX, 0, false, &id) &&
		    tiled_add_object(d, (int)id, attr(atts, "name"), type, &shape))
			x->shape = last_object_shape;
		x->in_object = true;
	} else if (strcmp(parent(x), "object") == 0) {
		shape_child(x, name, atts);
	}
	if (d->failed) XML_StopParser(x->parser, XML_FALSE);
}

static void finish_chunk(Tmx* x)
{
	if (!x->chunk) return;
	if ((x->encoding && *x->encoding) ||
	    (x->compression && *x->compression)) // tiled_decode refuses compressed CSV or XML
		tiled_decode(x->d, x->chunk, x->encoding, x->compression, x->text, x->text_length);
	else if (x->xml_tiles != 0 && x->xml_tiles != (size_t)x->chunk->width * (size_t)x->chunk->height)
		fail_here(x, "fewer <tile> elements than the layer has cells", NULL);
	x->chunk = NULL;
	x->collect = false;
}

static void XMLCALL on_end(void* user, const char* name)
{
	Tmx* x = user;
	if (x->d->failed) return;
	if (strcmp(name, "chunk") == 0 || (strcmp(name, "data") == 0 && !x->d->infinite)) finish_chunk(x);
	else if (strcmp(name, "data") == 0) x->collect = false;
	else if (strcmp(name, "tile") == 0 && strcmp(parent(x), "tileset") == 0) {
		if (x->tile_id >= 0) tiled_end_tile(x->d);
		x->tile_id = -1;
	} else if (strcmp(name, "object") == 0) x->in_object = false, x->shape = NULL;
	else if (strcmp(name, "objectgroup") == 0) x->tile_shapes = false;
	else if (strcmp(name, "group") == 0 && (strcmp(parent(x), "map") == 0 || strcmp(parent(x), "group") == 0))
		tiled_end_group(x->d);
	else if (strcmp(name, "property") == 0 && x->property_name) {
		tiled_add_property(x->d, x->property_name, x->property_type, x->text ? x->text : "");
		gt_free(x->property_name);
		gt_free(x->property_type);
		x->property_name = x->property_type = NULL;
		x->collect = false;
	}
	x->depth--;
	if (x->d->failed) XML_StopParser(x->parser, XML_FALSE);
}

static void XMLCALL on_text(void* user, const char* s, int length)
{
	Tmx* x = user;
	if (!x->collect || x->d->failed || length <= 0) return;
	int64_t room = (int64_t)x->text_room;
	if (!gt_grow((void**)&x->text, &room, (int64_t)(x->text_length + (size_t)length + 1), 1, 4096)) {
		tiled_fail(x->d, GT_ERR_NOMEM, "%s: out of memory", x->file);
		XML_StopParser(x->parser, XML_FALSE);
		return;
	}
	x->text_room = (size_t)room;
	memcpy(x->text + x->text_length, s, (size_t)length);
	x->text_length += (size_t)length;
	x->text[x->text_length] = '\0';
}

static void* xml_malloc(size_t size)
{
	return gt_malloc(size);
}

static void* xml_realloc(void* p, size_t size)
{
	return gt_realloc(p, size);
}

static void xml_free(void* p)
{
	gt_free(p);
}

// Parses one XML file (a map, or a tileset whose tiles start at firstgid).
static bool parse(TiledDoc* d, const char* file, const char* text, size_t length, const char* root)
{
	XML_Memory_Handling_Suite memory = {xml_malloc, xml_realloc, xml_free};
	Tmx x;
	memset(&x, 0, sizeof x);
	x.d = d, x.file = file, x.tile_id = -1;
	x.parser = XML_ParserCreate_MM(NULL, &memory, NULL);
	if (!x.parser) return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory for an XML parser", file);
	XML_SetUserData(x.parser, &x);
	XML_SetElementHandler(x.parser, on_start, on_end);
	XML_SetCharacterDataHandler(x.parser, on_text);
	bool ok = true;
	// expat takes an int length: feed big files in pieces.
	for (size_t at = 0; ok && !d->failed;) {
		size_t piece = length - at > (1u << 30) ? (1u << 30) : length - at;
		bool last = at + piece == length;
		if (XML_Parse(x.parser, text + at, (int)piece, last) == XML_STATUS_ERROR && !d->failed)
			ok = tiled_fail(d, GT_ERR_FORMAT, "%s:%lu: %s", file, (unsigned long)XML_GetCurrentLineNumber(x.parser),
			                XML_ErrorString(XML_GetErrorCode(x.parser)));
		at += piece;
		if (last) break;
	}
	if (ok && !d->failed && (x.depth != 0 || !x.stack[0] || strcmp(x.stack[0], root) != 0))
		tiled_fail(d, GT_ERR_FORMAT, "%s: not a Tiled %s file (the root element is not <%s>)", file, root, root);
	XML_ParserFree(x.parser);
	gt_free(x.text);
	gt_free(x.encoding);
	gt_free(x.compression);
	gt_free(x.property_name);
	gt_free(x.property_type);
	return !d->failed;
}

bool tiled_read_tmx(TiledDoc* d, const char* text, size_t length)
{
	return parse(d, d->path, text, length, "map");
}

bool tiled_read_tsx(TiledDoc* d, const char* path, const char* text, size_t length)
{
	return parse(d, path, text, length, "tileset");
}

int64_t tiled_read_template(TiledDoc* d, const char* from, const char* source)
{
	char* path = tiled_resolve(d, from, source, "template");
	if (!path) return -1;
	for (int64_t i = 0; i < d->template_count; i++)
		if (strcmp(d->templates[i].path, path) == 0) {
			gt_free(path);
			return i;
		}
	if (!GT_GROW(d->templates, d->template_capacity, d->template_count + 1, 8) || !tiled_limit_objects(d, 1)) {
		gt_free(path);
		if (!d->failed) tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return -1;
	}
	TiledTemplate* t = &d->templates[d->template_count++];
	memset(t, 0, sizeof *t);
	t->path = path;
	t->shape.kind = TILED_RECT;
	size_t length;
	char* text = tiled_read_file(d, path, &length);
	bool ok = text && parse(d, path, text, length, "template");
	gt_free(text);
	return ok ? d->template_count - 1 : -1;
}
