// Tiled maps written from a gtMap, in every variant the reader takes.
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#include "tiled_write.h"

enum { FLOOR = 1, WALL = 2 };

TiledWriteDef tiled_write_default(void)
{
	TiledWriteDef def;
	memset(&def, 0, sizeof def);
	def.tile_width = def.tile_height = 32;
	return def;
}

static bool ends_with(const char* s, const char* suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

// The id of map cell (x, y) in a layer: the ground layer has walls (WALL, with a flip flag on
// some, which the reader must drop) when walls are a property; the Collision layer has walls only.
static uint32_t gid_at(const gtMap* map, int x, int y, bool collision_layer, bool by_property)
{
	bool wall = gtMap_IsBlocked(map, x, y);
	uint32_t flip = (x * 7 + y) % 5 == 0 ? 0x80000000u : (x + y) % 7 == 0 ? 0x40000000u | 0x20000000u : 0;
	if (collision_layer) return wall ? (WALL | flip) : 0;
	return by_property && wall ? (WALL | flip) : FLOOR;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void tiled_write_base64(FILE* f, const unsigned char* b, size_t n)
{
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0) | (i + 2 < n ? b[i + 2] : 0);
		fputc(B64[v >> 18 & 63], f);
		fputc(B64[v >> 12 & 63], f);
		fputc(i + 1 < n ? B64[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? B64[v & 63] : '=', f);
	}
}

// The block's ids as the encoding wants them (the caller writes the quotes or tags around).
static bool put_data(FILE* f, const gtMap* map, const TiledWriteDef* def, bool collision, int x0, int y0, int w, int h,
                     bool json, gtError* err)
{
	size_t n = (size_t)w * (size_t)h;
	if (def->encoding == TW_CSV) {
		for (int y = 0; y < h; y++) {
			if (!json) fputc('\n', f);
			for (int x = 0; x < w; x++)
				fprintf(f, "%s%u", x + y ? "," : "", gid_at(map, x0 + x, y0 + y, collision, def->blocked_by_property));
		}
		if (!json) fputc('\n', f);
		return true;
	}
	if (def->encoding == TW_XML) {
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				uint32_t gid = gid_at(map, x0 + x, y0 + y, collision, def->blocked_by_property);
				if (gid) fprintf(f, "<tile gid=\"%u\"/>", gid);
				else fputs("<tile/>", f);
			}
		return true;
	}
	unsigned char* raw = malloc(n * 4);
	size_t room = ZSTD_compressBound(n * 4) + compressBound((uLong)(n * 4)) + 64;
	unsigned char* packed = malloc(room);
	if (!raw || !packed) {
		free(raw);
		free(packed);
		gtError_Set(err, GT_ERR_NOMEM, "out of memory");
		return false;
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t gid = gid_at(map, x0 + x, y0 + y, collision, def->blocked_by_property);
			unsigned char* p = raw + 4 * ((size_t)y * (size_t)w + (size_t)x);
			p[0] = (unsigned char)gid, p[1] = (unsigned char)(gid >> 8), p[2] = (unsigned char)(gid >> 16),
			p[3] = (unsigned char)(gid >> 24);
		}
	size_t packed_length = n * 4;
	bool ok = true;
	if (def->compression == TW_NONE) {
		memcpy(packed, raw, n * 4);
	} else if (def->compression == TW_ZSTD) {
		packed_length = ZSTD_compress(packed, room, raw, n * 4, 3);
		ok = !ZSTD_isError(packed_length);
	} else {
		z_stream z;
		memset(&z, 0, sizeof z);
		ok = deflateInit2(&z, 6, Z_DEFLATED, def->compression == TW_GZIP ? 16 + 15 : 15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
		if (ok) {
			z.next_in = raw, z.avail_in = (uInt)(n * 4), z.next_out = packed, z.avail_out = (uInt)room;
			ok = deflate(&z, Z_FINISH) == Z_STREAM_END;
			packed_length = z.total_out;
			deflateEnd(&z);
		}
	}
	if (ok) tiled_write_base64(f, packed, packed_length);
	else gtError_Set(err, GT_ERR_IO, "compressing tile data failed");
	free(raw);
	free(packed);
	return ok;
}

static const char* compression_name(TwCompression c)
{
	return c == TW_ZLIB ? "zlib" : c == TW_GZIP ? "gzip" : c == TW_ZSTD ? "zstd" : "";
}

static void put_tileset_xml(FILE* f, const TiledWriteDef* def, bool root)
{
	fprintf(f, "%s<tileset %sname=\"walls\" tilewidth=\"%d\" tileheight=\"%d\" tilecount=\"2\" columns=\"2\">\n",
	        root ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : " ", root ? "version=\"1.10\" " : "firstgid=\"1\" ",
	        def->tile_width, def->tile_height);
	fprintf(f,
	        "  <tile id=\"1\">\n   <properties>\n    <property name=\"collides\" type=\"bool\" value=\"true\"/>\n"
	        "   </properties>\n  </tile>\n%s</tileset>\n",
	        root ? "" : " ");
}

static void put_tileset_json(FILE* f, const TiledWriteDef* def, bool embedded)
{
	fprintf(
	    f,
	    "{%s\"name\": \"walls\", \"tilewidth\": %d, \"tileheight\": %d, \"tilecount\": 2, \"columns\": 2,\n"
	    " \"tiles\": [{\"id\": 1, \"properties\": [{\"name\": \"collides\", \"type\": \"bool\", \"value\": true}]}]}",
	    embedded ? "\"firstgid\": 1, " : "", def->tile_width, def->tile_height);
}

static void put_layer_xml(FILE* f, const gtMap* map, const TiledWriteDef* def, bool collision, int id, bool* ok,
                          gtError* err)
{
	int w = gtMap_Width(map), h = gtMap_Height(map);
	fprintf(f, " <layer id=\"%d\" name=\"%s\" width=\"%d\" height=\"%d\">\n  <data", id,
	        collision ? "Collision" : "ground", w, h);
	if (def->encoding != TW_XML) fprintf(f, " encoding=\"%s\"", def->encoding == TW_CSV ? "csv" : "base64");
	if (def->encoding == TW_BASE64 && def->compression)
		fprintf(f, " compression=\"%s\"", compression_name(def->compression));
	fputs(">", f);
	if (!def->chunk) {
		*ok = *ok && put_data(f, map, def, collision, 0, 0, w, h, false, err);
	} else {
		for (int y = 0; y < h; y += def->chunk)
			for (int x = 0; x < w; x += def->chunk) {
				int cw = w - x < def->chunk ? w - x : def->chunk, ch = h - y < def->chunk ? h - y : def->chunk;
				fprintf(f, "\n   <chunk x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\">", def->origin_x + x,
				        def->origin_y + y, cw, ch);
				*ok = *ok && put_data(f, map, def, collision, x, y, cw, ch, false, err);
				fputs("</chunk>", f);
			}
	}
	fputs("</data>\n </layer>\n", f);
}

static void put_layer_json(FILE* f, const gtMap* map, const TiledWriteDef* def, bool collision, int id, bool* ok,
                           gtError* err)
{
	int w = gtMap_Width(map), h = gtMap_Height(map);
	fprintf(
	    f,
	    "  {\"id\": %d, \"type\": \"tilelayer\", \"name\": \"%s\", \"width\": %d, \"height\": %d, \"x\": 0, \"y\": 0,"
	    " \"opacity\": 1, \"visible\": true",
	    id, collision ? "Collision" : "ground", w, h);
	bool b64 = def->encoding == TW_BASE64;
	if (b64) fprintf(f, ", \"encoding\": \"base64\", \"compression\": \"%s\"", compression_name(def->compression));
	const char *open = b64 ? "\"" : "[", *close = b64 ? "\"" : "]";
	if (!def->chunk) {
		fprintf(f, ",\n   \"data\": %s", open);
		*ok = *ok && put_data(f, map, def, collision, 0, 0, w, h, true, err);
		fputs(close, f);
	} else {
		fputs(",\n   \"chunks\": [", f);
		bool first = true;
		for (int y = 0; y < h; y += def->chunk)
			for (int x = 0; x < w; x += def->chunk) {
				int cw = w - x < def->chunk ? w - x : def->chunk, ch = h - y < def->chunk ? h - y : def->chunk;
				fprintf(f, "%s\n    {\"x\": %d, \"y\": %d, \"width\": %d, \"height\": %d, \"data\": %s",
				        first ? "" : ",", def->origin_x + x, def->origin_y + y, cw, ch, open);
				*ok = *ok && put_data(f, map, def, collision, x, y, cw, ch, true, err);
				fprintf(f, "%s}", close);
				first = false;
			}
		fputs("]", f);
	}
	fputs("}", f);
}

// Keeps XML and JSON strings simple: the words gridtree takes are printable ASCII without spaces.
static void put_escaped(FILE* f, const char* s, bool json)
{
	for (; *s; s++) {
		if (*s == '"') fputs(json ? "\\\"" : "&quot;", f);
		else if (*s == '\\' && json) fputs("\\\\", f);
		else if (*s == '&' && !json) fputs("&amp;", f);
		else if (*s == '<' && !json) fputs("&lt;", f);
		else fputc(*s, f);
	}
}

static void put_objects(FILE* f, const TiledWriteDef* def, bool json, int id)
{
	if (json) fprintf(f, ",\n  {\"id\": %d, \"type\": \"objectgroup\", \"name\": \"objects\", \"objects\": [", id);
	else fprintf(f, " <objectgroup id=\"%d\" name=\"objects\">\n", id);
	for (int i = 0; i < def->object_count; i++) {
		const WlObject* o = &def->objects[i];
		double x = (o->x + (def->chunk ? def->origin_x : 0)) * def->tile_width;
		double y = (o->y + (def->chunk ? def->origin_y : 0)) * def->tile_height;
		const char* type = o->word_count ? o->words[0] : "";
		if (json) {
			fprintf(f, "%s\n   {\"id\": %d, \"name\": \"o%d\", \"type\": \"", i ? "," : "", o->id, o->id);
			put_escaped(f, type, true);
			fprintf(f,
			        "\", \"x\": %.17g, \"y\": %.17g, \"width\": 0, \"height\": 0, \"point\": true, \"properties\": ["
			        "{\"name\": \"keywords\", \"type\": \"string\", \"value\": \"",
			        x, y);
		} else {
			fprintf(f, "  <object id=\"%d\" name=\"o%d\" type=\"", o->id, o->id);
			put_escaped(f, type, false);
			fprintf(f, "\" x=\"%.17g\" y=\"%.17g\">\n   <properties>\n    <property name=\"keywords\" value=\"", x, y);
		}
		for (int k = 0; k < o->word_count; k++) {
			if (k) fputc(' ', f);
			put_escaped(f, o->words[k], json);
		}
		fputs(json ? "\"}]}" : "\"/>\n   </properties>\n   <point/>\n  </object>\n", f);
	}
	fputs(json ? "]}" : " </objectgroup>\n", f);
}

static FILE* create(const char* path, gtError* err)
{
	FILE* f = fopen(path, "wb");
	if (!f) gtError_Set(err, GT_ERR_IO, "%s: cannot create", path);
	return f;
}

static bool finish(FILE* f, const char* path, bool ok, gtError* err)
{
	bool closed = fclose(f) == 0;
	if (ok && !closed) return gtError_Set(err, GT_ERR_IO, "%s: write error", path), false;
	return ok;
}

bool tiled_write(const gtMap* map, const char* path, const TiledWriteDef* def, gtError* err)
{
	bool xml = ends_with(path, ".tmx");
	if (def->encoding == TW_XML && !xml)
		return gtError_Set(err, GT_ERR_INVALID_ARG, "XML tiles are for .tmx files"), false;
	if (def->compression && def->encoding != TW_BASE64)
		return gtError_Set(err, GT_ERR_INVALID_ARG, "compression needs base64 encoding"), false;
	// An external tileset: the map's name with .tsx or .tsj, in the same folder.
	char source[4096], tileset[8192 + 16];
	const char* slash = strrchr(path, '/');
	const char* base = slash ? slash + 1 : path;
	size_t stem = strlen(base) - (strrchr(base, '.') ? strlen(strrchr(base, '.')) : 0);
	snprintf(source, sizeof source, "%.*s-tiles.%s", (int)stem, base, xml ? "tsx" : "tsj");
	snprintf(tileset, sizeof tileset, "%.*s%s", (int)(base - path), path, source);
	if (def->external_tileset) {
		FILE* t = create(tileset, err);
		if (!t) return false;
		if (xml) put_tileset_xml(t, def, true);
		else put_tileset_json(t, def, false);
		if (!finish(t, tileset, true, err)) return false;
	}
	FILE* f = create(path, err);
	if (!f) return false;
	int w = gtMap_Width(map), h = gtMap_Height(map);
	bool ok = true;
	int layers = def->blocked_by_property ? 1 : 2;
	if (xml) {
		fprintf(
		    f,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.10\" tiledversion=\"1.10.2\" "
		    "orientation=\"orthogonal\""
		    " renderorder=\"right-down\" width=\"%d\" height=\"%d\" tilewidth=\"%d\" tileheight=\"%d\" infinite=\"%d\""
		    " nextlayerid=\"%d\" nextobjectid=\"1\">\n",
		    w, h, def->tile_width, def->tile_height, def->chunk ? 1 : 0, layers + 2);
		if (def->external_tileset) fprintf(f, " <tileset firstgid=\"1\" source=\"%s\"/>\n", source);
		else put_tileset_xml(f, def, false);
		put_layer_xml(f, map, def, false, 1, &ok, err);
		if (!def->blocked_by_property) put_layer_xml(f, map, def, true, 2, &ok, err);
		if (def->object_count) put_objects(f, def, false, layers + 1);
		fputs("</map>\n", f);
	} else {
		fprintf(
		    f,
		    "{\"type\": \"map\", \"version\": \"1.10\", \"tiledversion\": \"1.10.2\", \"orientation\": \"orthogonal\","
		    " \"renderorder\": \"right-down\",\n \"width\": %d, \"height\": %d, \"tilewidth\": %d, \"tileheight\": %d,"
		    " \"infinite\": %s, \"nextlayerid\": %d, \"nextobjectid\": 1,\n \"tilesets\": [",
		    w, h, def->tile_width, def->tile_height, def->chunk ? "true" : "false", layers + 2);
		if (def->external_tileset) fprintf(f, "{\"firstgid\": 1, \"source\": \"%s\"}", source);
		else put_tileset_json(f, def, true);
		fputs("],\n \"layers\": [\n", f);
		put_layer_json(f, map, def, false, 1, &ok, err);
		if (!def->blocked_by_property) {
			fputs(",\n", f);
			put_layer_json(f, map, def, true, 2, &ok, err);
		}
		if (def->object_count) put_objects(f, def, true, layers + 1);
		fputs("]}\n", f);
	}
	return finish(f, path, ok, err);
}
