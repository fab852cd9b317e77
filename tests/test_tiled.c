// Tiled maps: the cells, tile size, origin and objects of hand-written files in both formats, and a
// clear error naming the file for every kind of malformed one (the fuzz targets try the rest).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test_support.h"
#include "tiled_write.h"

static void write_text(const char* path, const char* text)
{
	FILE* f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

// A temporary file with this extension and text; its path in `path`.
static void temp_with(char path[TEST_TEMP_PATH + 16], const char* extension, const char* text)
{
	char base[TEST_TEMP_PATH];
	test_temp_file(base, "tiled");
	snprintf(path, TEST_TEMP_PATH + 16, "%s%s", base, extension);
	remove(base); // only its unique name is wanted
	write_text(path, text);
}

static gtMap* load_ok(const char* path, const gtTiledDef* def, gtTiled** tiled)
{
	gtMap* map = NULL;
	gtError err;
	if (gtMap_LoadTiled(path, def, &map, tiled, &err)) fail_msg("%s", err.message);
	return map;
}

// The load fails with `status` and a message holding `file` (the path, or a tileset's) and `what`.
static void load_fails(const char* path, const gtTiledDef* def, gtStatus status, const char* file, const char* what)
{
	gtMap* map = (gtMap*)1;
	gtTiled* tiled = (gtTiled*)1;
	gtError err = {0};
	gtStatus st = gtMap_LoadTiled(path, def, &map, &tiled, &err);
	assert_null(map);
	assert_null(tiled);
	if (st != status) fail_msg("status %s, expected %s: %s", gtStatusName(st), gtStatusName(status), err.message);
	if (!strstr(err.message, file) || !strstr(err.message, what))
		fail_msg("message '%s' lacks '%s' or '%s'", err.message, file, what);
}

// The 6x4 block map of the CLI tests: a 2x2 pillar at (2..3, 1..2).
static const char* const BLOCK_ROWS = "......\n..@@..\n..@@..\n......\n";

static const char* const TMJ = "{\"type\": \"map\", \"orientation\": \"orthogonal\", \"width\": 6, \"height\": 4, "
                               "\"tilewidth\": 32, \"tileheight\": 16,"
                               " \"infinite\": false,"
                               " \"tilesets\": [{\"firstgid\": 1, \"tiles\": [{\"id\": 1, \"properties\": [{\"name\": "
                               "\"collides\", \"type\": \"bool\", \"value\": true}]}]}],"
                               " \"layers\": [{\"type\": \"group\", \"name\": \"g\", \"layers\": [{\"type\": "
                               "\"tilelayer\", \"name\": \"ground\", \"width\": 6, \"height\": 4,"
                               "   \"data\": [1,1,1,1,1,1, 1,1,2,2,1,1, 1,1,2,2147483650,1,1, 1,1,1,1,1,1]}]},"
                               "  {\"type\": \"tilelayer\", \"name\": \"Roof\", \"width\": 6, \"height\": 4, \"data\": "
                               "[0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 3,0,0,0,0,0]},"
                               "  {\"type\": \"objectgroup\", \"name\": \"spawns\", \"objects\": [{\"id\": 7, "
                               "\"name\": \"medic\", \"type\": \"healer\","
                               "   \"x\": 16, \"y\": 8, \"width\": 64, \"height\": 32, \"properties\": [{\"name\": "
                               "\"hp\", \"type\": \"int\", \"value\": 30},"
                               "   {\"name\": \"boss\", \"type\": \"bool\", \"value\": false}, {\"name\": \"title\", "
                               "\"type\": \"string\", \"value\": \"Mo\"}]},"
                               "   {\"id\": 8, \"name\": \"\", \"class\": \"chest\", \"x\": 80, \"y\": 40}]}]}";

static const char* const TMX =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<map version=\"1.10\" orientation=\"orthogonal\" width=\"6\" height=\"4\" tilewidth=\"32\" tileheight=\"16\" "
    "infinite=\"0\">\n"
    " <tileset firstgid=\"1\" name=\"t\" tilewidth=\"32\" tileheight=\"16\" tilecount=\"2\" columns=\"2\">\n"
    "  <tile id=\"1\"><properties><property name=\"collides\" type=\"bool\" value=\"true\"/></properties>\n"
    "   <objectgroup><object id=\"1\" x=\"0\" y=\"0\" width=\"32\" height=\"16\"/></objectgroup></tile>\n"
    " </tileset>\n"
    " <group name=\"g\"><layer id=\"1\" name=\"ground\" width=\"6\" height=\"4\"><data encoding=\"csv\">\n"
    "1,1,1,1,1,1,\n1,1,2,2,1,1,\n1,1,2,2147483650,1,1,\n1,1,1,1,1,1\n</data></layer></group>\n"
    " <layer id=\"2\" name=\"Roof\" width=\"6\" height=\"4\"><data><tile/><tile/><tile/><tile/><tile/><tile/>"
    "<tile/><tile/><tile/><tile/><tile/><tile/><tile/><tile/><tile/><tile/><tile/><tile/>"
    "<tile gid=\"3\"/><tile/><tile/><tile/><tile/><tile/></data></layer>\n"
    " <objectgroup name=\"spawns\">\n"
    "  <object id=\"7\" name=\"medic\" type=\"healer\" x=\"16\" y=\"8\" width=\"64\" height=\"32\"><properties>\n"
    "   <property name=\"hp\" type=\"int\" value=\"30\"/><property name=\"boss\" type=\"bool\" value=\"false\"/>\n"
    "   <property name=\"title\">Mo</property></properties></object>\n"
    "  <object id=\"8\" class=\"chest\" x=\"80\" y=\"40\"/>\n"
    " </objectgroup>\n"
    "</map>\n";

static void check_both_formats(const gtTiled* tiled, const gtMap* map)
{
	gtMap* block = test_map_from_rows(BLOCK_ROWS);
	assert_true(gtMap_Fingerprint(map) == gtMap_Fingerprint(block)); // the flipped wall still blocks
	gtMap_Destroy(block);
	assert_int_equal(gtTiled_TileWidth(tiled), 32);
	assert_int_equal(gtTiled_TileHeight(tiled), 16);
	int ox, oy;
	gtTiled_Origin(tiled, &ox, &oy);
	assert_int_equal(ox, 0);
	assert_int_equal(oy, 0);
	assert_string_equal(gtTiled_BlockedBy(tiled), "property collides"); // no layer named collision
	assert_int_equal(gtTiled_ObjectCount(tiled), 2);                    // the tile's collision shape is not an object
	const gtTiledObject* medic = gtTiled_Object(tiled, 0);
	assert_int_equal(medic->id, 7);
	assert_string_equal(medic->name, "medic");
	assert_string_equal(medic->type, "healer");
	assert_string_equal(medic->layer, "spawns");
	assert_true(medic->x == 0.5 && medic->y == 0.5 && medic->width == 2 && medic->height == 2); // pixels into cells
	assert_int_equal(medic->property_count, 3);
	const gtTiledProperty* hp = gtTiled_Property(tiled, medic->first_property);
	assert_string_equal(hp->name, "hp");
	assert_string_equal(hp->type, "int");
	assert_string_equal(hp->value, "30");
	assert_string_equal(gtTiled_Property(tiled, medic->first_property + 1)->value, "false");
	const gtTiledProperty* title = gtTiled_Property(tiled, medic->first_property + 2);
	assert_string_equal(title->type, "string");
	assert_string_equal(title->value, "Mo");
	const gtTiledObject* chest = gtTiled_Object(tiled, 1);
	assert_string_equal(chest->type, "chest"); // Tiled 1.9's class
	assert_true(chest->x == 2.5 && chest->y == 2.5);
	assert_int_equal(chest->property_count, 0);
	assert_null(gtTiled_Object(tiled, 2));
	assert_null(gtTiled_Property(tiled, -1));
}

static void test_reads_cells_and_objects(void** state)
{
	(void)state;
	const char* const texts[2] = {TMJ, TMX};
	const char* const extensions[2] = {".tmj", ".tmx"};
	for (int i = 0; i < 2; i++) {
		char path[TEST_TEMP_PATH + 16];
		temp_with(path, extensions[i], texts[i]);
		gtTiled* tiled = NULL;
		gtMap* map = load_ok(path, NULL, &tiled);
		check_both_formats(tiled, map);
		gtMap_Destroy(map);
		gtTiled_Destroy(tiled);
		// A named layer blocks every cell with a tile in it, whatever the case of its name.
		gtTiledDef def = gtTiled_DefaultDef();
		def.blocked_layer = "roof";
		map = load_ok(path, &def, &tiled);
		assert_int_equal(gtMap_FreeCells(map), 23);
		assert_true(gtMap_IsBlocked(map, 0, 3));
		assert_string_equal(gtTiled_BlockedBy(tiled), "layer Roof");
		gtMap_Destroy(map);
		gtTiled_Destroy(tiled);
		def.blocked_layer = NULL;
		def.blocked_property = "solid"; // no tile has it: a typo is an error, not an open level
		load_fails(path, &def, GT_ERR_FORMAT, path,
		           "no tile, layer or object has the bool property 'solid' set true (tile layers 'ground', 'Roof'; "
		           "object layers 'spawns'; bool properties 'collides')");
		def.blocked_layer = "nope";
		load_fails(path, &def, GT_ERR_INVALID_ARG, "", "not both");
		def.blocked_property = NULL;
		load_fails(path, &def, GT_ERR_FORMAT, path,
		           "no layer named 'nope' (tile layers 'ground', 'Roof'; object layers 'spawns'");
		remove(path);
	}
}

// The same map as a `collision` layer of an infinite map, in two chunks, one of them zlib.
static void test_infinite_map_origin(void** state)
{
	(void)state;
	// Chunk A: cells (-4..1, -2..-1) free except its (2, 1); chunk B: (-4..1, 0..1), blocked at (3, 0).
	unsigned char raw[48];
	memset(raw, 0, sizeof raw);
	raw[4 * (1 * 6 + 2)] = 5;
	unsigned char packed[256];
	uLongf packed_length = sizeof packed;
	assert_int_equal(compress(packed, &packed_length, raw, sizeof raw), Z_OK);
	char base64[512];
	FILE* encoded = fmemopen(base64, sizeof base64, "w");
	assert_non_null(encoded);
	tiled_write_base64(encoded, packed, packed_length);
	assert_int_equal(fclose(encoded), 0); // fmemopen ends the text with a NUL
	char text[2048];
	snprintf(text, sizeof text,
	         "<map orientation=\"orthogonal\" width=\"6\" height=\"4\" tilewidth=\"8\" tileheight=\"8\" infinite=\"1\">"
	         "<layer name=\"COLLISION\" width=\"6\" height=\"4\"><data encoding=\"base64\" compression=\"zlib\">"
	         "<chunk x=\"-4\" y=\"-2\" width=\"6\" height=\"2\">%s</chunk></data></layer>"
	         "<layer name=\"decor\" width=\"6\" height=\"4\"><data encoding=\"csv\">"
	         "<chunk x=\"-4\" y=\"0\" width=\"6\" height=\"2\">0,0,0,9,0,0,0,0,0,0,0,0</chunk></data></layer>"
	         "<objectgroup name=\"o\"><object id=\"1\" x=\"-32\" y=\"-16\"/></objectgroup></map>",
	         base64);
	char path[TEST_TEMP_PATH + 16];
	temp_with(path, ".tmx", text);
	gtTiled* tiled;
	gtMap* map = load_ok(path, NULL, &tiled);
	assert_int_equal(gtMap_Width(map), 6);
	assert_int_equal(gtMap_Height(map), 4); // both layers' chunks
	int ox, oy;
	gtTiled_Origin(tiled, &ox, &oy);
	assert_int_equal(ox, -4);
	assert_int_equal(oy, -2);
	assert_string_equal(gtTiled_BlockedBy(tiled), "layer COLLISION");
	assert_int_equal(gtMap_FreeCells(map), 23);
	assert_true(gtMap_IsBlocked(map, 2, 1));
	const gtTiledObject* o = gtTiled_Object(tiled, 0);
	assert_true(o->x == 0 && o->y == 0); // Tiled's (-4, -2) is the map's (0, 0)
	gtVec2 pixels = gtTiled_CellsToPixels(tiled, (gtVec2){1.5, 2});
	assert_true(pixels.x == -20 && pixels.y == 0);
	gtVec2 cells = gtTiled_PixelsToCells(tiled, pixels);
	assert_true(cells.x == 1.5 && cells.y == 2);
	gtMap_Destroy(map);
	gtTiled_Destroy(tiled);
	remove(path);
}

typedef struct Bad {
	const char* extension;
	const char* text;
	gtStatus status;
	const char* what;
} Bad;

static const Bad BAD[] = {
    {".tmj", "{\"width\": 2,", GT_ERR_FORMAT, ":1: not valid JSON"},
    {".tmj", "[1, 2]", GT_ERR_FORMAT, "the top level is not a JSON object"},
    {".tmj", "{\"type\": \"tileset\"}", GT_ERR_FORMAT, "not a Tiled map"},
    {".tmj", "{\"orientation\": \"isometric\", \"width\": 2, \"height\": 2, \"tilewidth\": 8, \"tileheight\": 8}",
     GT_ERR_FORMAT, "only orthogonal maps can be read; this one is isometric"},
    {".tmj", "{\"width\": 2, \"tilewidth\": 8, \"tileheight\": 8}", GT_ERR_FORMAT, "missing \"height\""},
    {".tmj", "{\"width\": 70000, \"height\": 2, \"tilewidth\": 8, \"tileheight\": 8}", GT_ERR_FORMAT,
     "\"width\" must be an integer from 1 to 65535"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"tilelayer\", "
     "\"name\": \"a\", \"data\": [1]}]}",
     GT_ERR_FORMAT, "layer 0 ('a'): \"data\" has 1 tile ids, expected 2x1 = 2"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"tilelayer\", "
     "\"data\": [1, -1]}]}",
     GT_ERR_FORMAT, "tile ids must be integers from 0 to 2^32 - 1"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"tilelayer\", "
     "\"encoding\": \"base64\", \"data\": \"AQAAAA==\"}]}",
     GT_ERR_FORMAT, "base64 tile data holds 4 bytes, expected 8"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"tilelayer\", "
     "\"encoding\": \"base64\", \"compression\": \"zlib\", \"data\": \"AQAAAAEAAAA=\"}]}",
     GT_ERR_FORMAT, "zlib tile data is corrupted or cut short"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"tilelayer\", "
     "\"encoding\": \"base64\", \"compression\": \"gzip\", \"data\": \"AQAAAAEAAAA=\"}]}",
     GT_ERR_FORMAT, "gzip tile data is corrupted or cut short"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"tilelayer\", "
     "\"encoding\": \"base64\", \"compression\": \"zstd\", \"data\": \"AQAAAAEAAAA=\"}]}",
     GT_ERR_FORMAT, "zstd tile data is not a zstd frame"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"tilelayer\", "
     "\"encoding\": \"base64\", \"compression\": \"lz4\", \"data\": \"AQAAAAEAAAA=\"}]}",
     GT_ERR_FORMAT, "unknown compression 'lz4' (zlib, gzip or zstd)"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"tilelayer\", "
     "\"encoding\": \"base64\", \"data\": \"AQ*AAA==\"}]}",
     GT_ERR_FORMAT, "base64 tile data has a stray '*'"},
    {".tmj", "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"infinite\": true, \"layers\": []}",
     GT_ERR_FORMAT, "the infinite map has no tiles"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"tilesets\": [{\"firstgid\": 1, \"source\": "
     "\"missing.tsj\"}]}",
     GT_ERR_IO, "missing.tsj: cannot open"},
    {".tmj",
     "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"tilesets\": [{\"firstgid\": 1, \"source\": "
     "\"t.png\"}]}",
     GT_ERR_FORMAT, "tileset 't.png' is neither .tsx nor .tsj"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><layer name=\"a\"><data "
     "compression=\"zlib\"><tile gid=\"1\"/><tile/></data></layer></map>",
     GT_ERR_FORMAT, "compression 'zlib' without base64 encoding"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><layer name=\"a\"><data "
     "encoding=\"csv\">1,2,3</data></layer></map>",
     GT_ERR_FORMAT, "CSV tile data has more than the 2x1 = 2 ids of its layer"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><layer name=\"a\"><data "
     "encoding=\"csv\">1,x</data></layer></map>",
     GT_ERR_FORMAT, "CSV tile data has 'x' where a tile id should be"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><layer name=\"a\"><data "
     "encoding=\"csv\">1</data></layer></map>",
     GT_ERR_FORMAT, "CSV tile data has 1 ids, expected 2x1 = 2"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><layer name=\"a\"><data "
     "encoding=\"xz\">1</data></layer></map>",
     GT_ERR_FORMAT, "unknown tile data encoding 'xz' (csv or base64)"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\"\n tileheight=\"8\"><layer name=\"a\"><data "
     "encoding=\"csv\">1,1</data></layer>",
     GT_ERR_FORMAT, ":2: no element found"},
    {".tmx", "<map width=\"2\" height=\"1\" tileheight=\"8\"/>", GT_ERR_FORMAT, ":1: missing attribute 'tilewidth'"},
    {".tmx", "<map width=\"2\" height=\"-1\" tilewidth=\"8\" tileheight=\"8\"/>", GT_ERR_FORMAT,
     "attribute height='-1' is not an integer from 1 to 65535"},
    {".tmx", "<map orientation=\"hexagonal\" width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"/>",
     GT_ERR_FORMAT, "only orthogonal maps can be read; this one is hexagonal"},
    {".tmx", "<tileset name=\"t\"/>", GT_ERR_FORMAT, "not a Tiled map file (the root element is not <map>)"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><layer "
     "name=\"a\"><data><tile/><tile/><tile/></data></layer></map>",
     GT_ERR_FORMAT, "more <tile> elements than the layer has cells"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><tileset firstgid=\"1\" "
     "source=\"gone.tsx\"/></map>",
     GT_ERR_IO, "gone.tsx: cannot open"},
    {".tmx",
     "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\" infinite=\"1\"><layer name=\"a\" width=\"2\" "
     "height=\"1\"><data encoding=\"csv\">"
     "<chunk x=\"0\" y=\"0\" width=\"70000\" height=\"70000\">1</chunk></data></layer></map>",
     GT_ERR_FORMAT, "attribute width='70000' is not an integer from 1 to 65535"},
};

static void test_malformed_files_name_the_file(void** state)
{
	(void)state;
	for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
		char path[TEST_TEMP_PATH + 16];
		temp_with(path, BAD[i].extension, BAD[i].text);
		load_fails(path, NULL, BAD[i].status, strstr(BAD[i].what, ".ts") ? "" : path, BAD[i].what);
		remove(path);
	}
	load_fails("/nonexistent/level.tmx", NULL, GT_ERR_IO, "/nonexistent/level.tmx", "cannot open");
	gtMap* map = (gtMap*)1;
	gtError err;
	assert_int_equal(gtMap_LoadTiled(NULL, NULL, &map, NULL, &err), GT_ERR_INVALID_ARG);
	assert_null(map);
	assert_true(gtTiled_IsTiledPath("a/B.TMX") && gtTiled_IsTiledPath("x.json") && gtTiled_IsTiledPath("x.tmj"));
	assert_false(gtTiled_IsTiledPath("x.map") || gtTiled_IsTiledPath("tmx") || gtTiled_IsTiledPath(NULL));
}

// External tilesets are found next to the map, and their errors name the tileset's file.
static void test_external_tilesets(void** state)
{
	(void)state;
	char base[TEST_TEMP_PATH];
	test_temp_file(base, "tileset");
	char tsx[TEST_TEMP_PATH + 16], tsj[TEST_TEMP_PATH + 16], map_path[TEST_TEMP_PATH + 16];
	snprintf(tsx, sizeof tsx, "%s.tsx", base);
	snprintf(tsj, sizeof tsj, "%s.tsj", base);
	write_text(tsx, "<tileset name=\"w\" tilewidth=\"8\" tileheight=\"8\"><tile id=\"0\"><properties>"
	                "<property name=\"collides\" type=\"bool\" value=\"true\"/></properties></tile></tileset>");
	write_text(
	    tsj,
	    "{\"tiles\": [{\"id\": 1, \"properties\": [{\"name\": \"collides\", \"type\": \"bool\", \"value\": true}]}]}");
	const char* tsx_name = strrchr(tsx, '/') + 1;
	const char* tsj_name = strrchr(tsj, '/') + 1;
	char text[1024];
	// gid 5 is the .tsx's tile 0; gid 11 the .tsj's tile 1: a .tmj may name either kind.
	snprintf(
	    text, sizeof text,
	    "{\"width\": 3, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"tilesets\": [{\"firstgid\": 5, "
	    "\"source\": \"%s\"},"
	    " {\"firstgid\": 10, \"source\": \"%s\"}], \"layers\": [{\"type\": \"tilelayer\", \"data\": [5, 10, 11]}]}",
	    tsx_name, tsj_name);
	snprintf(map_path, sizeof map_path, "%s-map.tmj", base);
	write_text(map_path, text);
	remove(base);
	gtMap* map = load_ok(map_path, NULL, NULL);
	assert_true(gtMap_IsBlocked(map, 0, 0) && !gtMap_IsBlocked(map, 1, 0) && gtMap_IsBlocked(map, 2, 0));
	gtMap_Destroy(map);
	write_text(tsj, "{\"tiles\": [{\"id\": \"one\"}]}");
	load_fails(map_path, NULL, GT_ERR_FORMAT, tsj, "tileset: \"id\" must be an integer");
	write_text(tsx, "<tileset><tile id=\"0\"></tileset>");
	load_fails(map_path, NULL, GT_ERR_FORMAT, tsx, ":1: mismatched tag");
	remove(tsx);
	remove(tsj);
	remove(map_path);
}

TEST_MAIN("tiled", test_reads_cells_and_objects, test_infinite_map_origin, test_malformed_files_name_the_file,
          test_external_tilesets)
