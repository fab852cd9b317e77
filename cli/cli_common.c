#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static bool known_option(const char* known, const char* name, size_t len)
{
	for (const char* p = known; *p;) {
		size_t n = strcspn(p, " ");
		if (n == len && strncmp(p, name, len) == 0) return true;
		p += n;
		while (*p == ' ') p++;
	}
	return false;
}

bool cli_parse(int argc, char** argv, const char* command, const char* known, CliArgs* out)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < argc; i++) {
		const char* a = argv[i];
		bool short_output = strcmp(a, "-o") == 0; // the one short option: -o FILE
		if (!short_output && (strncmp(a, "--", 2) != 0 || a[2] == '\0')) {
			if (out->positional_count == 8) {
				fprintf(stderr, "gridtree %s: too many arguments\n", command);
				return false;
			}
			out->positional[out->positional_count++] = a;
			continue;
		}
		const char* name = short_output ? "o" : a + 2;
		const char* eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		if (!known_option(known, name, len)) {
			fprintf(stderr, "gridtree %s: unknown option '%.*s' (try 'gridtree help')\n", command, (int)len + 2, a);
			return false;
		}
		bool flag = known_option(CLI_FLAGS, name, len);
		const char* value = eq ? eq + 1 : flag ? "1" : (i + 1 < argc ? argv[++i] : NULL);
		if (!value || out->option_count == 16) {
			fprintf(stderr, "gridtree %s: option '--%.*s' needs a value\n", command, (int)len, name);
			return false;
		}
		// Options are stored by their name inside argv, which outlives the parse.
		out->names[out->option_count] = name;
		out->values[out->option_count++] = value;
	}
	return true;
}

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
	static const char* const limits[5] = {"max-cells", "max-file-bytes", "max-decompressed-bytes", "max-objects", "max-tilesets"};
	int64_t* fields[5] = {&def.max_cells, &def.max_file_bytes, &def.max_decompressed_bytes, &def.max_objects, &def.max_tilesets};
	bool tiled_options = def.blocked_layer || def.blocked_property || def.allow_empty || def.allow_outside_paths;
	for (int i = 0; i < 5; i++) {
		long v;
		if (!cli_int_option(args, command, limits[i], 0, 0, LONG_MAX, &v)) return CLI_USAGE;
		*fields[i] = v;
		tiled_options |= v != 0;
	}
	bool is_tiled = gtTiled_IsTiledPath(path);
	if (tiled_options && !is_tiled) {
		fprintf(stderr, "gridtree %s: --blocked-layer, --blocked-property, --allow-* and --max-* are for Tiled maps (.tmx, .tmj, .json)\n",
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

bool cli_usage_unless(bool ok, const char* usage)
{
	if (!ok) fprintf(stderr, "usage: gridtree %s\n", usage);
	return ok;
}
