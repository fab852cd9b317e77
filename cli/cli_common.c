#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

const char* cli_option(const CliArgs* args, const char* name, const char* fallback)
{
	size_t len = strlen(name);
	const char* found = fallback;
	for (int i = 0; i < args->option_count; i++) {
		const char* n = args->names[i];
		if (strncmp(n, name, len) == 0 && (n[len] == '\0' || n[len] == '=')) found = args->values[i];
	}
	return found;
}

bool cli_int_option(const CliArgs* args, const char* command, const char* name, long fallback, long min, long max,
                    long* out)
{
	const char* text = cli_option(args, name, NULL);
	if (!text) {
		*out = fallback;
		return true;
	}
	char* end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || *end || end == text || v < min || v > max) {
		fprintf(stderr, "gridtree %s: --%s must be an integer from %ld to %ld, got '%s'\n", command, name, min, max,
		        text);
		return false;
	}
	*out = v;
	return true;
}

CliArgs cli_args_without(const CliArgs* args, const char* name)
{
	CliArgs out = *args;
	out.option_count = 0;
	for (int i = 0; i < args->option_count; i++)
		if (strcmp(args->names[i], name) != 0) {
			out.names[out.option_count] = args->names[i];
			out.values[out.option_count++] = args->values[i];
		}
	return out;
}

// A new map option is one line here and its reading in cli_open_map: every command that takes a
// MAP then accepts it and lists it in its --help.
const CliOption cli_map_options[] = {
    {"clearance", "R", NULL, false,
     "load the map for square agents of half-width R cells, 0 to 32767, as inflate writes it"},
    {"blocked-layer", "NAME", NULL, false, "a Tiled map's walls: the non-empty cells of the tile layer NAME"},
    {"blocked-property", "NAME", NULL, false, "a Tiled map's walls: the tiles whose bool property NAME is true"},
    {"allow-empty", NULL, NULL, false,
     "load a Tiled map in which no rule finds a wall (an open level), instead of refusing it"},
    {"allow-outside-paths", NULL, NULL, false, "let a Tiled map name tilesets and templates outside its own folder"},
    {"max-cells", "N", NULL, false, "a Tiled map's limit on tile ids over all layers (default 16777216)"},
    {"max-file-bytes", "N", NULL, false, "a Tiled map's limit on each file's size in bytes (default 33554432)"},
    {"max-decompressed-bytes", "N", NULL, false, "a Tiled map's limit on decompressed layer bytes (default 67108864)"},
    {"max-objects", "N", NULL, false, "a Tiled map's limit on objects (default 100000)"},
    {"max-tilesets", "N", NULL, false, "a Tiled map's limit on tileset references (default 4096)"},
    {0},
};

int cli_open_map(const CliArgs* args, const char* command, const char* path, gtMap** out, gtTiled** tiled)
{
	*out = NULL;
	if (tiled) *tiled = NULL;
	long clearance;
	if (!cli_int_option(args, command, "clearance", 0, 0, GT_MAP_MAX_CLEARANCE, &clearance)) return CLI_USAGE;
	gtTiledDef def = gtTiled_DefaultDef();
	def.blocked_layer = cli_option(args, "blocked-layer", NULL);
	def.blocked_property = cli_option(args, "blocked-property", NULL);
	def.allow_empty = cli_option(args, "allow-empty", NULL) != NULL;
	def.allow_outside_paths = cli_option(args, "allow-outside-paths", NULL) != NULL;
	static const char* const limits[5] = {"max-cells", "max-file-bytes", "max-decompressed-bytes", "max-objects",
	                                      "max-tilesets"};
	int64_t* fields[5] = {&def.max_cells, &def.max_file_bytes, &def.max_decompressed_bytes, &def.max_objects,
	                      &def.max_tilesets};
	bool tiled_options = def.blocked_layer || def.blocked_property || def.allow_empty || def.allow_outside_paths;
	for (int i = 0; i < 5; i++) {
		long v;
		if (!cli_int_option(args, command, limits[i], 0, 0, LONG_MAX, &v)) return CLI_USAGE;
		*fields[i] = v;
		tiled_options |= v != 0;
	}
	bool is_tiled = gtTiled_IsTiledPath(path);
	if (tiled_options && !is_tiled) {
		fprintf(stderr,
		        "gridtree %s: --blocked-layer, --blocked-property, --allow-* and --max-* are for Tiled maps (.tmx, "
		        ".tmj, .json)\n",
		        command);
		return CLI_USAGE;
	}
	if (def.blocked_layer && def.blocked_property) {
		fprintf(stderr, "gridtree %s: give --blocked-layer or --blocked-property, not both\n", command);
		return CLI_USAGE;
	}
	gtMap* map = NULL;
	gtError err;
	gtStatus st = is_tiled ? gtMap_LoadTiled(path, &def, &map, tiled, &err) : gtMap_Load(path, &map, &err);
	if (st != GT_OK) {
		fprintf(stderr, "gridtree: %s\n", err.message);
		return CLI_FAILED;
	}
	if (clearance > 0) {
		gtMap* inflated = NULL;
		gtStatus st = gtMap_Inflate(map, (int)clearance, &inflated, &err);
		gtMap_Destroy(map);
		if (st) {
			fprintf(stderr, "gridtree %s: %s\n", command, err.message);
			if (tiled) gtTiled_Destroy(*tiled), *tiled = NULL;
			return CLI_FAILED;
		}
		map = inflated;
	}
	*out = map;
	return CLI_OK;
}
