// gridtree tiled-export: a map as a Tiled file, in any variant gridtree reads (to edit a MovingAI
// map in Tiled, and for the tests, which write every variant of the same map).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tiled_write.h"

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
	fprintf(stderr, "gridtree tiled-export: --%s must be two integers A,B from %d to %d, got '%s'\n", option, lo, hi,
	        text);
	return false;
}

static int tiled_export(const CliArgs* args)
{
	long chunk;
	if (!cli_int_option(args, "tiled-export", "chunk", 0, 0, 65535, &chunk)) return CLI_USAGE;
	const char* output = cli_option(args, "o", NULL);
	if (!gtTiled_IsTiledPath(output)) {
		fprintf(stderr, "gridtree tiled-export: -o names a Tiled file: .tmx, .tmj or .json, got '%s'\n", output);
		cli_usage_unless(false, args);
		return CLI_USAGE;
	}
	TiledWriteDef def = tiled_write_default();
	// Each value's position in its option's list below (the parser has checked the value) is the enum.
	def.encoding = (TwEncoding)cli_choice(args, "encoding", TW_CSV);
	def.compression = (TwCompression)cli_choice(args, "compression", TW_NONE);
	def.external_tileset = cli_choice(args, "tileset", 0) == 1;
	def.blocked_by_property = cli_choice(args, "blocked", 0) == 1;
	def.chunk = (int)chunk;
	const char* origin = cli_option(args, "origin", NULL);
	const char* tile = cli_option(args, "tile", NULL);
	if ((origin && !pair_option(origin, "origin", -(1 << 28), 1 << 28, &def.origin_x, &def.origin_y)) ||
	    (tile && !pair_option(tile, "tile", 1, 4096, &def.tile_width, &def.tile_height)))
		return CLI_USAGE;
	if (origin && !chunk) {
		fprintf(stderr, "gridtree tiled-export: --origin is for infinite maps (--chunk N)\n");
		return CLI_USAGE;
	}
	gtMap* map;
	int opened = cli_open_map(args, "tiled-export", args->positional[0], &map, NULL);
	if (opened) return opened;
	const char* objects_path = cli_option(args, "objects", NULL);
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
		printf("file %s\nwidth %d\nheight %d\nobjects %d\n", output, gtMap_Width(map), gtMap_Height(map),
		       def.object_count);
	}
	free(objects);
	gtMap_Destroy(map);
	return code;
}

static const CliOption OPTIONS[] = {
    {"o", "FILE", NULL, true, "the Tiled file to write: FILE.tmx (XML) or FILE.tmj / FILE.json (JSON)"},
    {"encoding", "E", "csv|base64|xml", false, "how tile layers are stored (default csv; xml is for .tmx)"},
    {"compression", "C", "none|zlib|gzip|zstd", false, "compression of base64 layers (default none)"},
    {"chunk", "N", NULL, false, "write an infinite map in chunks of N x N cells, 0 to 65535 (default 0: a finite map)"},
    {"origin", "X,Y", NULL, false, "the Tiled cell of the map's cell (0, 0), with --chunk (default 0,0)"},
    {"tileset", "T", "embedded|external", false,
     "the tileset inside the map or in a file beside it (default embedded)"},
    {"blocked", "B", "layer|property", false,
     "walls as a 'Collision' tile layer or as tiles with the property 'collides' (default layer)"},
    {"tile", "W,H", NULL, false, "the tile size in pixels, 1 to 4096 (default 32,32)"},
    {"objects", "OBJ", NULL, false, "an object layer from a knn objects file (lines 'id x y kw ...')"},
    {0},
};

const CliCommand cli_cmd_tiled_export = {
    "tiled-export",
    "MAP",
    "write the map as a Tiled map (.tmx or .tmj), in any variant gridtree reads",
    "To edit a MovingAI map in Tiled; the tests write every variant of the same map with it.",
    OPTIONS,
    true,
    tiled_export,
};
