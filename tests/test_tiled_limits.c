// Tiled levels from anyone: decompression bombs and huge files refused before the memory is
// taken (in well under a second, the process growing by less than 64 MB), each limit named in
// its message and raisable; paths kept inside the level's folder; FIFOs refused; a tileset named
// 2,000 times read once; non-finite object fields refused naming the object and field.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "test_support.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static long peak_kb(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss;
}

static void write_bytes(const char* path, const char* bytes, size_t n)
{
	FILE* f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void base64(const unsigned char* in, size_t n, char* out)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
		out[o++] = digits[v >> 18 & 63], out[o++] = digits[v >> 12 & 63];
		out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? digits[v & 63] : '=';
	}
	out[o] = '\0';
}

// A map file holding one layer of `width` x `height` with base64 `data` compressed as `compression`.
static char* bomb_text(int width, int height, const char* compression, const char* data, size_t* length)
{
	size_t room = strlen(data) + 512;
	char* text = malloc(room);
	assert_non_null(text);
	*length = (size_t)snprintf(
	    text, room,
	    "<map orientation=\"orthogonal\" width=\"%d\" height=\"%d\" tilewidth=\"8\" tileheight=\"8\">"
	    "<layer name=\"collision\" width=\"%d\" height=\"%d\"><data encoding=\"base64\"%s%s%s>%s</data></layer></map>",
	    width, height, width, height, *compression ? " compression=\"" : "", compression, *compression ? "\"" : "",
	    data);
	return text;
}

// Loads `text` (a file named `name` in a temporary folder) and expects a refusal naming `what`,
// quickly and without the process growing by 64 MB.
static void refused_within(const char* name, const char* text, size_t length, const gtTiledDef* def, const char* what,
                           long max_growth_kb)
{
	char dir[TEST_TEMP_PATH];
	test_temp_file(dir, "bomb");
	char path[TEST_TEMP_PATH + 32];
	snprintf(path, sizeof path, "%s%s", dir, name);
	remove(dir);
	write_bytes(path, text, length);
	long before = peak_kb();
	double start = now();
	gtMap* map = NULL;
	gtError err;
	gtStatus st = gtMap_LoadTiled(path, def, &map, NULL, &err);
	double seconds = now() - start;
	long grown = peak_kb() - before;
	remove(path);
	assert_null(map);
	if (st == GT_OK || !strstr(err.message, what))
		fail_msg("%s: '%s' lacks '%s'", name, st ? err.message : "loaded", what);
	print_message("%s (%zu bytes): refused in %.3f s, peak grew %ld KB: %s\n", name, length, seconds, grown,
	              err.message);
	assert_true(seconds < 1.0);         // the bound is 1 s; these take milliseconds
	assert_true(grown < max_growth_kb); // and 64 MB
}

static void refused(const char* name, const char* text, size_t length, const gtTiledDef* def, const char* what)
{
	refused_within(name, text, length, def, what, 64 * 1024);
}

// The zstd bomb: a 16384x16384 layer (1 GiB of ids) as one zstd frame of RLE blocks,
// 44 KB of base64.
static void test_zstd_bomb(void** state)
{
	(void)state;
	const size_t total = (size_t)16384 * 16384 * 4, block = 128 * 1024, blocks = total / block;
	size_t n = 0;
	unsigned char* frame = malloc(14 + blocks * 4);
	assert_non_null(frame);
	const unsigned char header[6] = {0x28, 0xB5, 0x2F, 0xFD, 0xE0}; // magic; single segment, 8-byte content size
	memcpy(frame, header, 5), n = 5;
	for (int i = 0; i < 8; i++) frame[n++] = (unsigned char)(total >> (8 * i));
	for (size_t b = 0; b < blocks; b++) {
		uint32_t h = (b + 1 == blocks) | 1u << 1 | (uint32_t)block << 3; // last?, RLE, size
		frame[n++] = (unsigned char)h, frame[n++] = (unsigned char)(h >> 8), frame[n++] = (unsigned char)(h >> 16);
		frame[n++] = 0;
	}
	char* data = malloc(n * 4 / 3 + 8);
	assert_non_null(data);
	base64(frame, n, data);
	size_t length;
	char* text = bomb_text(16384, 16384, "zstd", data, &length);
	assert_true(length > 43000 && length < 46000);
	refused(".tmx", text, length, NULL, "above max_cells = 16777216 (raise max_cells to load this level)");
	gtTiledDef def = gtTiled_DefaultDef();
	def.max_cells = (int64_t)1 << 29; // past the cells: the bytes to decompress are next
	refused(".tmx", text, length, &def, "above max_decompressed_bytes = 67108864 (raise max_decompressed_bytes");
	free(text);
	// A frame claiming more than its layer holds is refused from its header.
	text = bomb_text(64, 64, "zstd", data, &length);
	refused(".tmx", text, length, NULL, "zstd tile data holds 1073741824 bytes, expected 16384");
	free(text);
	free(data);
	free(frame);
}

// zlib and gzip: a stream of 64 MB of zeros (65 KB) for a 2x1 layer stops after the layer's 8
// bytes; the same with a 16384x16384 layer is refused by its size.
static void test_zlib_and_gzip_bombs(void** state)
{
	(void)state;
	const size_t zeros = (size_t)64 << 20;
	unsigned char* in = calloc(1, 1 << 20);
	assert_non_null(in);
	for (int gzip = 0; gzip < 2; gzip++) {
		z_stream z;
		memset(&z, 0, sizeof z);
		assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, gzip ? 16 + 15 : 15, 9, Z_DEFAULT_STRATEGY), Z_OK);
		size_t room = 1 << 20, n = 0;
		unsigned char* out = malloc(room);
		assert_non_null(out);
		for (size_t fed = 0; fed < zeros; fed += 1 << 20) {
			z.next_in = in, z.avail_in = 1 << 20;
			int flush = fed + (1 << 20) == zeros ? Z_FINISH : Z_NO_FLUSH;
			do {
				z.next_out = out + n, z.avail_out = (uInt)(room - n);
				deflate(&z, flush);
				n = room - z.avail_out;
				assert_true(n < room);
			} while (z.avail_in > 0 || (flush == Z_FINISH && z.avail_out == 0));
		}
		deflateEnd(&z);
		char* data = malloc(n * 4 / 3 + 8);
		assert_non_null(data);
		base64(out, n, data);
		size_t length;
		char* text = bomb_text(2, 1, gzip ? "gzip" : "zlib", data, &length);
		refused(".tmx", text, length, NULL,
		        gzip ? "gzip tile data holds more than the 8 bytes of its layer"
		             : "zlib tile data holds more than the 8 bytes of its layer");
		free(text);
		text = bomb_text(16384, 16384, gzip ? "gzip" : "zlib", data, &length);
		refused(".tmx", text, length, NULL, "above max_cells");
		free(text);
		free(data);
		free(out);
	}
	free(in);
}

// The 509-byte file with a 65535x4096 layer of garbage, and a 50 MB .tmj array.
static void test_small_file_big_layer_and_big_json(void** state)
{
	(void)state;
	size_t length;
	char* text = bomb_text(65535, 4096, "", "Z2FyYmFnZQ==", &length);
	refused(".tmx", text, length, NULL,
	        "layer 'collision' brings the tiles read to 268431360, above max_cells = 16777216");
	free(text);
	const size_t values = 25u << 20; // "0," each: 50 MB
	size_t room = 2 * values + 256;
	text = malloc(room);
	assert_non_null(text);
	length = (size_t)snprintf(text, room,
	                          "{\"width\": 5120, \"height\": 5120, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": "
	                          "[{\"type\": \"tilelayer\", "
	                          "\"name\": \"collision\", \"data\": [");
	for (size_t i = 0; i < values; i++) text[length++] = '0', text[length++] = ',';
	text[length - 1] = ']';
	length += (size_t)snprintf(text + length, room - length, "}]}");
	refused(".tmj", text, length, NULL, "above max_file_bytes = 33554432 (raise max_file_bytes to load it)");
	// Allowed through the file limit, its 26M ids are still refused by the cell limit; what it
	// costs is the text, twice (the file, and the copy cJSON reads with the ids taken out), never
	// cJSON's 64 bytes an id.
	gtTiledDef def = gtTiled_DefaultDef();
	def.max_file_bytes = (int64_t)1 << 30;
	refused_within(".tmj", text, length, &def, "above max_cells", (long)(2 * length / 1024) + 32 * 1024);
	free(text);
}

static void test_object_and_tileset_limits(void** state)
{
	(void)state;
	char text[4096] =
	    "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": \"objectgroup\", "
	    "\"name\": \"o\", "
	    "\"properties\": [{\"name\": \"collidable\", \"type\": \"bool\", \"value\": true}], \"objects\": [";
	for (int i = 0; i < 20; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "%s{\"id\": %d, \"width\": 8, \"height\": 8}",
		         i ? ", " : "", i + 1);
	strcat(text, "]}]}");
	gtTiledDef def = gtTiled_DefaultDef();
	def.max_objects = 10;
	gtMap* map = NULL;
	gtError err;
	assert_int_equal(gtMap_ParseTiled(text, strlen(text), "o.tmj", &def, &map, NULL, &err), GT_ERR_LIMIT);
	assert_non_null(strstr(err.message, "more than max_objects = 10 objects"));
	def.max_objects = 0; // the default
	assert_int_equal(gtMap_ParseTiled(text, strlen(text), "o.tmj", &def, &map, NULL, &err), GT_OK);
	assert_int_equal(gtMap_FreeCells(map), 1);
	gtMap_Destroy(map);
	def.max_cells = -1;
	assert_int_equal(gtMap_ParseTiled(text, strlen(text), "o.tmj", &def, &map, NULL, &err), GT_ERR_INVALID_ARG);
	const char* tilesets = "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><tileset "
	                       "firstgid=\"1\"/><tileset firstgid=\"5\"/>"
	                       "<tileset firstgid=\"9\"/></map>";
	def = gtTiled_DefaultDef();
	def.max_tilesets = 2;
	assert_int_equal(gtMap_ParseTiled(tilesets, strlen(tilesets), "t.tmx", &def, &map, NULL, &err), GT_ERR_LIMIT);
	assert_non_null(strstr(err.message, "more than 2 tilesets (max_tilesets"));
	const char* far = "{\"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": "
	                  "\"objectgroup\", \"objects\": "
	                  "[{\"id\": 7, \"x\": 1e400}]}]}";
	assert_int_equal(gtMap_ParseTiled(far, strlen(far), "far.tmj", NULL, &map, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "far.tmj: object 7 has x = inf"));
}

// Shapes that cover the map many times over are refused rather than filled for minutes.
static void test_shapes_covering_the_map_again_and_again(void** state)
{
	(void)state;
	size_t room = 200 * 96 + 512, n = 0;
	char* text = malloc(room);
	assert_non_null(text);
	n += (size_t)snprintf(
	    text, room,
	    "{\"width\": 1024, \"height\": 1024, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [{\"type\": "
	    "\"objectgroup\", \"name\": \"o\", \"properties\": [{\"name\": \"collidable\", \"type\": \"bool\", \"value\": "
	    "true}], "
	    "\"objects\": [");
	for (int i = 0; i < 200; i++)
		n += (size_t)snprintf(text + n, room - n,
		                      "%s{\"id\": %d, \"x\": 0, \"y\": 0, \"width\": 8192, \"height\": 8192}", i ? "," : "",
		                      i + 1);
	snprintf(text + n, room - n, "]}]}");
	gtMap* map = NULL;
	gtError err;
	double start = now();
	assert_int_equal(gtMap_ParseTiled(text, strlen(text), "cover.tmj", NULL, &map, NULL, &err), GT_ERR_LIMIT);
	assert_non_null(strstr(err.message, "cover the map more than 64 times over"));
	assert_true(now() - start < 5);
	free(text);
}

// Non-finite and out-of-range object fields are errors naming the object and field.
static void test_object_fields_must_be_finite(void** state)
{
	(void)state;
	static const struct {
		const char* object;
		const char* what;
	} cases[] = {
	    {"<object id=\"3\" x=\"nan\" y=\"0\"/>", "object 3 has x = nan"},
	    {"<object id=\"4\" x=\"0\" y=\"inf\"/>", "object 4 has y = inf"},
	    {"<object id=\"5\" width=\"1e308\" height=\"8\"/>", "object 5 has width = 1e+308"},
	    {"<object id=\"6\" height=\"-4\"/>", "object 6 has height = -4"},
	    {"<object id=\"7\" rotation=\"-inf\"/>", "object 7 has rotation = -inf"},
	    {"<object id=\"8\"><polygon points=\"0,0 1e308,5 3,nan\"/></object>",
	     "object 8's points has a point's x = 1e+308"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[512];
		snprintf(text, sizeof text,
		         "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><objectgroup "
		         "name=\"o\">%s</objectgroup></map>",
		         cases[i].object);
		gtMap* map = NULL;
		gtError err;
		assert_int_equal(gtMap_ParseTiled(text, strlen(text), "f.tmx", NULL, &map, NULL, &err), GT_ERR_FORMAT);
		if (!strstr(err.message, cases[i].what)) fail_msg("'%s' lacks '%s'", err.message, cases[i].what);
	}
}

// ---- paths --------------------------------------------------------------------------------------

static const char* const TSX =
    "<tileset name=\"w\" tilewidth=\"8\" tileheight=\"8\"><tile id=\"0\"><properties>"
    "<property name=\"collides\" type=\"bool\" value=\"true\"/></properties></tile></tileset>";

static char folder[TEST_TEMP_PATH + 16];

// A fresh folder /tmp/gridtree_paths_XXXXXX.d with a level folder "level" inside.
static void make_folders(void)
{
	char base[TEST_TEMP_PATH];
	test_temp_file(base, "paths");
	snprintf(folder, sizeof folder, "%s.d", base);
	remove(base);
	assert_int_equal(mkdir(folder, 0700), 0);
	char level[TEST_TEMP_PATH + 32];
	snprintf(level, sizeof level, "%s/level", folder);
	assert_int_equal(mkdir(level, 0700), 0);
}

static void put(const char* relative, const char* text)
{
	char path[TEST_TEMP_PATH + 64];
	snprintf(path, sizeof path, "%s/%s", folder, relative);
	write_bytes(path, text, strlen(text));
}

static gtStatus load_level(const char* source, const gtTiledDef* def, gtError* err)
{
	char text[1024], path[TEST_TEMP_PATH + 64];
	snprintf(text, sizeof text,
	         "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><tileset firstgid=\"1\" source=\"%s\"/>"
	         "<layer name=\"g\" width=\"2\" height=\"1\"><data encoding=\"csv\">1,0</data></layer></map>",
	         source);
	put("level/map.tmx", text);
	snprintf(path, sizeof path, "%s/level/map.tmx", folder);
	gtMap* map = NULL;
	gtStatus st = gtMap_LoadTiled(path, def, &map, NULL, err);
	if (!st) assert_true(gtMap_IsBlocked(map, 0, 0) && !gtMap_IsBlocked(map, 1, 0));
	gtMap_Destroy(map);
	return st;
}

static void test_paths_stay_in_the_level_folder(void** state)
{
	(void)state;
	make_folders();
	put("outside.tsx", TSX);
	put("level/inside.tsx", TSX);
	char sub[TEST_TEMP_PATH + 64];
	snprintf(sub, sizeof sub, "%s/level/sub", folder);
	assert_int_equal(mkdir(sub, 0700), 0);
	gtError err, other;
	assert_int_equal(load_level("inside.tsx", NULL, &err), GT_OK);
	assert_int_equal(load_level("sub/../inside.tsx", NULL, &err), GT_OK);
	assert_int_equal(load_level("./sub/./../inside.tsx", NULL, &err), GT_OK);
	// Outside: refused in the same words whether the file exists or not.
	assert_int_equal(load_level("../outside.tsx", NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message,
	                       "tileset '../outside.tsx' is outside the level's folder (allow_outside_paths to allow it)"));
	assert_int_equal(load_level("../nothing.tsx", NULL, &other), GT_ERR_FORMAT);
	assert_non_null(strstr(other.message,
	                       "tileset '../nothing.tsx' is outside the level's folder (allow_outside_paths to allow it)"));
	assert_int_equal(load_level("sub/../../outside.tsx", NULL, &err), GT_ERR_FORMAT);
	char absolute[TEST_TEMP_PATH + 64];
	snprintf(absolute, sizeof absolute, "%s/outside.tsx", folder);
	assert_int_equal(load_level(absolute, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "is outside the level's folder"));
	// A symbolic link inside the folder to a file outside it is refused too.
	char link[TEST_TEMP_PATH + 64];
	snprintf(link, sizeof link, "%s/level/link.tsx", folder);
	assert_int_equal(symlink(absolute, link), 0);
	assert_int_equal(load_level("link.tsx", NULL, &err), GT_ERR_FORMAT);
	assert_non_null(
	    strstr(err.message, "link.tsx' leads outside the level's folder (allow_outside_paths to allow it)"));
	// A dangling link is refused in the same words: "cannot open" would say its target is missing.
	char dangling[TEST_TEMP_PATH + 64], nowhere[TEST_TEMP_PATH + 64];
	snprintf(dangling, sizeof dangling, "%s/level/dangling.tsx", folder);
	snprintf(nowhere, sizeof nowhere, "%s/nothing.tsx", folder);
	assert_int_equal(symlink(nowhere, dangling), 0);
	assert_int_equal(load_level("dangling.tsx", NULL, &other), GT_ERR_FORMAT);
	assert_non_null(
	    strstr(other.message, "dangling.tsx' leads outside the level's folder (allow_outside_paths to allow it)"));
	gtTiledDef def = gtTiled_DefaultDef();
	def.allow_outside_paths = true;
	assert_int_equal(load_level("link.tsx", &def, &err), GT_OK);
	assert_int_equal(load_level("../outside.tsx", &def, &err), GT_OK);
	assert_int_equal(load_level(absolute, &def, &err), GT_OK);
	// A template outside the folder is refused the same way.
	char text[512], path[TEST_TEMP_PATH + 64];
	snprintf(text, sizeof text,
	         "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><objectgroup name=\"o\"><object id=\"1\" "
	         "template=\"../t.tx\"/>"
	         "</objectgroup></map>");
	put("level/t.tmx", text);
	snprintf(path, sizeof path, "%s/level/t.tmx", folder);
	gtMap* map = NULL;
	assert_int_equal(gtMap_LoadTiled(path, NULL, &map, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "template '../t.tx' is outside the level's folder"));
	// A FIFO named like a tileset (or given as the map) is refused at once, never read.
	char fifo[TEST_TEMP_PATH + 64];
	snprintf(fifo, sizeof fifo, "%s/level/pipe.tsx", folder);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	double start = now();
	assert_int_equal(load_level("pipe.tsx", NULL, &err), GT_ERR_IO);
	assert_non_null(strstr(err.message, "pipe.tsx: not a regular file"));
	snprintf(fifo, sizeof fifo, "%s/level/pipe.tmx", folder);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(gtMap_LoadTiled(fifo, NULL, &map, NULL, &err), GT_ERR_IO);
	assert_non_null(strstr(err.message, "not a regular file"));
	assert_true(now() - start < 5);
	char command[TEST_TEMP_PATH + 64];
	snprintf(command, sizeof command, "rm -r '%s'", folder);
	assert_int_equal(system(command), 0);
}

// read_file: the level and its tilesets from memory (a game's archive); a tileset named 2,000
// times is read once.
typedef struct Archive {
	const char* map;
	char* tileset;
	size_t tileset_length;
	int reads;
	char last[128];
} Archive;

static bool archive_read(void* user, const char* name, const char** bytes, size_t* length)
{
	Archive* a = user;
	a->reads++;
	snprintf(a->last, sizeof a->last, "%s", name);
	if (strcmp(name, "levels/one.tmx") == 0) *bytes = a->map, *length = strlen(a->map);
	else if (strcmp(name, "levels/art/big.tsx") == 0) *bytes = a->tileset, *length = a->tileset_length;
	else return false;
	return true;
}

static void test_read_file_and_one_read_per_tileset(void** state)
{
	(void)state;
	// A 2 MB tileset: tile 0 collides, then padding tiles.
	Archive a = {0};
	size_t room = (size_t)2 << 20;
	a.tileset = malloc(room + 256);
	assert_non_null(a.tileset);
	size_t n = (size_t)sprintf(a.tileset, "%s",
	                           "<tileset name=\"w\" tilewidth=\"8\" tileheight=\"8\"><tile id=\"0\"><properties>"
	                           "<property name=\"collides\" type=\"bool\" value=\"true\"/></properties></tile>");
	while (n < room) n += (size_t)sprintf(a.tileset + n, "<!-- padding padding padding padding padding padding -->\n");
	n += (size_t)sprintf(a.tileset + n, "</tileset>");
	a.tileset_length = n;
	size_t map_room = 2000 * 64 + 512;
	char* map_text = malloc(map_room);
	assert_non_null(map_text);
	size_t m = (size_t)sprintf(map_text, "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">");
	for (int i = 0; i < 2000; i++)
		m += (size_t)sprintf(map_text + m, "<tileset firstgid=\"%d\" source=\"art/x/../big.tsx\"/>", 1 + 4 * i);
	sprintf(map_text + m,
	        "<layer name=\"g\" width=\"2\" height=\"1\"><data encoding=\"csv\">0,7997</data></layer></map>");
	a.map = map_text;
	gtTiledDef def = gtTiled_DefaultDef();
	def.read_file = archive_read;
	def.read_file_user = &a;
	gtMap* map = NULL;
	gtError err;
	double start = now();
	if (gtMap_LoadTiled("levels/one.tmx", &def, &map, NULL, &err)) fail_msg("%s", err.message);
	double seconds = now() - start;
	print_message("2,000 references to a %zu-byte tileset: %.3f s, %d reads\n", n, seconds, a.reads);
	assert_int_equal(a.reads, 2); // the map and the tileset, once
	assert_true(seconds < 1.0);
	assert_true(!gtMap_IsBlocked(map, 0, 0) && gtMap_IsBlocked(map, 1, 0)); // gid 7997 is the last reference's tile 0
	gtMap_Destroy(map);
	// A name the archive lacks, and one outside the level's folder (never asked for).
	sprintf(map_text, "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><tileset firstgid=\"1\" "
	                  "source=\"gone.tsx\"/></map>");
	assert_int_equal(gtMap_LoadTiled("levels/one.tmx", &def, &map, NULL, &err), GT_ERR_IO);
	assert_string_equal(a.last, "levels/gone.tsx");
	assert_non_null(strstr(err.message, "levels/gone.tsx: cannot open"));
	a.reads = 0;
	sprintf(map_text, "<map width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\"><tileset firstgid=\"1\" "
	                  "source=\"../../etc/x.tsx\"/></map>");
	assert_int_equal(gtMap_LoadTiled("levels/one.tmx", &def, &map, NULL, &err), GT_ERR_FORMAT);
	assert_int_equal(a.reads, 1);
	free(map_text);
	free(a.tileset);
}

TEST_MAIN("tiled_limits", test_zstd_bomb, test_zlib_and_gzip_bombs, test_small_file_big_layer_and_big_json,
          test_object_and_tileset_limits, test_object_fields_must_be_finite,
          test_shapes_covering_the_map_again_and_again, test_paths_stay_in_the_level_folder,
          test_read_file_and_one_read_per_tileset)
