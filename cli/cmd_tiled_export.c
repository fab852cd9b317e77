// gridtree tiled-export: a map as a Tiled file, in any variant gridtree reads (to edit a MovingAI
// map in Tiled, and for the tests, which write every variant of the same map).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tiled_write.h"

static const char* const USAGE =
    "tiled-export MAP -o FILE.tmx|FILE.tmj [--encoding csv|base64|xml] [--compression none|zlib|gzip|zstd]\n"
    "       [--chunk N --origin X,Y] [--tileset embedded|external] [--blocked layer|property] [--tile W,H] [--objects OBJ]";

static int pick(const char* value, const char* const* names, int count, const char* option)
{
	for (int i = 0; i < count; i++)
		if (strcmp(value, names[i]) == 0) return i;
	fprintf(stderr, "gridtree tiled-export: unknown --%s '%s'\n", option, value);
	return -1;
}

static bool pair_option(const char* text, const char* option, int lo, int hi, int* a, int* b)
{
	char* end;
	long x = strtol(text, &end, 10);
	if (*end == ',') {
		long y = strtol(end + 1, &end, 10);
		if (!*end && x >= lo && x <= hi && y >= lo && y <= hi) {
			*a = (int)x, *b = (int)y;
			return true;
		}
	}
	fprintf(stderr, "gridtree tiled-export: --%s must be two integers A,B from %d to %d, got '%s'\n", option, lo, hi, text);
	return false;
}

int cmd_tiled_export(int argc, char** argv)
{
	CliArgs args;
	long chunk;
	if (!cli_parse(argc, argv, "tiled-export", "o encoding compression chunk origin tileset blocked tile objects" CLI_MAP_OPTIONS,
	               &args) ||
	    !cli_int_option(&args, "tiled-export", "chunk", 0, 0, 65535, &chunk))
		return CLI_USAGE;
	const char* output = cli_option(&args, "o", NULL);
	if (!cli_usage_unless(args.positional_count == 1 && output && gtTiled_IsTiledPath(output), USAGE)) return CLI_USAGE;
	TiledWriteDef def = tiled_write_default();
	static const char* const encodings[] = {"csv", "base64", "xml"};
	static const char* const compressions[] = {"none", "zlib", "gzip", "zstd"};
	static const char* const tilesets[] = {"embedded", "external"};
	static const char* const blocked[] = {"layer", "property"};
	int e = pick(cli_option(&args, "encoding", "csv"), encodings, 3, "encoding");
	int c = pick(cli_option(&args, "compression", "none"), compressions, 4, "compression");
	int t = pick(cli_option(&args, "tileset", "embedded"), tilesets, 2, "tileset");
	int b = pick(cli_option(&args, "blocked", "layer"), blocked, 2, "blocked");
	if (e < 0 || c < 0 || t < 0 || b < 0) return CLI_USAGE;
	def.encoding = (TwEncoding)e, def.compression = (TwCompression)c;
	def.external_tileset = t == 1, def.blocked_by_property = b == 1;
	def.chunk = (int)chunk;
	const char* origin = cli_option(&args, "origin", NULL);
	const char* tile = cli_option(&args, "tile", NULL);
	if ((origin && !pair_option(origin, "origin", -(1 << 28), 1 << 28, &def.origin_x, &def.origin_y)) ||
	    (tile && !pair_option(tile, "tile", 1, 4096, &def.tile_width, &def.tile_height)))
		return CLI_USAGE;
	if (origin && !chunk) {
		fprintf(stderr, "gridtree tiled-export: --origin is for infinite maps (--chunk N)\n");
		return CLI_USAGE;
	}
	gtMap* map;
	int opened = cli_open_map(&args, "tiled-export", args.positional[0], &map, NULL);
	if (opened) return opened;
	const char* objects_path = cli_option(&args, "objects", NULL);
	WlObject* objects = NULL;
	if (objects_path) {
		objects = wl_read_all(objects_path, 0, &def.object_count);
		if (!objects) {
			gtMap_Destroy(map);
			return CLI_FAILED;
		}
		def.objects = objects;
	}
	gtError err;
	int code = CLI_OK;
	if (!tiled_write(map, output, &def, &err)) {
		fprintf(stderr, "gridtree tiled-export: %s\n", err.message);
		code = err.status == GT_ERR_INVALID_ARG ? CLI_USAGE : CLI_FAILED;
	} else {
		printf("file %s\nwidth %d\nheight %d\nobjects %d\n", output, gtMap_Width(map), gtMap_Height(map), def.object_count);
	}
	free(objects);
	gtMap_Destroy(map);
	return code;
}
