// Shared helpers for the gridtree command-line tool.
#ifndef GRIDTREE_CLI_H
#define GRIDTREE_CLI_H

#include <stdbool.h>

#include "gridtree/gridtree.h"

enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };


// Command-line arguments after the subcommand: positionals and --name value options.
typedef struct CliArgs {
	const char* positional[8];
	int positional_count;
	const char* names[16];
	const char* values[16];
	int option_count;
} CliArgs;

// Splits argv; options not in `known` (space-separated names without dashes) are a usage error.
bool cli_parse(int argc, char** argv, const char* command, const char* known, CliArgs* out);
// True when ok; otherwise prints "usage: gridtree <usage>" (the command's synopsis) and is false.
bool cli_usage_unless(bool ok, const char* usage);
const char* cli_option(const CliArgs* args, const char* name, const char* fallback);
// The arguments without option `name` (an option a command reads itself, not for a shared helper).
CliArgs cli_args_without(const CliArgs* args, const char* name);
bool cli_int_option(const CliArgs* args, const char* command, const char* name, long fallback, long min, long max,
                    long* out);

// Options every command that takes a MAP accepts (append to cli_parse's `known`):
// a Tiled MAP (.tmx, .tmj, .json) takes --blocked-layer NAME or --blocked-property NAME, the
// flags --allow-empty and --allow-outside-paths and the limits --max-cells N, --max-file-bytes N,
// --max-decompressed-bytes N, --max-objects N, --max-tilesets N (gtTiledDef), and --clearance R
// loads the map for agents of half-width R (gtMap_Inflate).
#define CLI_MAP_OPTIONS                                                                                                     \
	" clearance blocked-layer blocked-property allow-empty allow-outside-paths max-cells max-file-bytes"                    \
	" max-decompressed-bytes max-objects max-tilesets"
// Options that take no value (given, they read as "1").
#define CLI_FLAGS " allow-empty allow-outside-paths "

// Loads the map as the map options say into *out, and a Tiled map's extras into *tiled (when
// tiled is not NULL; NULL for a MovingAI map). Prints the problem and returns CLI_USAGE or
// CLI_FAILED on failure, CLI_OK otherwise.
int cli_open_map(const CliArgs* args, const char* command, const char* path, gtMap** out, gtTiled** tiled);

// The map and its navigation backend, from --method auto|ehl|oracle|euclid, --ehl FILE and --threads.
typedef struct CliNav {
	gtMap* map;
	gtNav* nav;
	gtNavQuery* query;
	int capacity; // points a path can have
} CliNav;

// Loads the map and the backend; `need_index` demands --ehl. Prints the problem and returns
// CLI_USAGE or CLI_FAILED on failure, CLI_OK otherwise.
int cli_nav_open(CliNav* s, const CliArgs* args, const char* command, const char* map_path, bool need_index);
void cli_nav_close(CliNav* s);

// Subcommands: each returns an exit code.
int cmd_info(int argc, char** argv);
int cmd_dist(int argc, char** argv);
int cmd_path(int argc, char** argv);
int cmd_scen(int argc, char** argv);
int cmd_genmap(int argc, char** argv);
int cmd_inflate(int argc, char** argv);
int cmd_mesh_build(int argc, char** argv);
int cmd_bench_peers(int argc, char** argv);
int cmd_tiled_export(int argc, char** argv);
int cmd_ehl_build(int argc, char** argv);
int cmd_ehl_verify(int argc, char** argv);
int cmd_workload(int argc, char** argv);
int cmd_knn(int argc, char** argv);
int cmd_bench_knn(int argc, char** argv);
int cmd_crowd(int argc, char** argv);
int cmd_bench_crowd(int argc, char** argv);
int cmd_bench_edits(int argc, char** argv);

#endif
