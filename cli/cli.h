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
const char* cli_option(const CliArgs* args, const char* name, const char* fallback);
bool cli_int_option(const CliArgs* args, const char* command, const char* name, long fallback, long min, long max,
                    long* out);

// Loads a map, printing "gridtree: message" on failure.
gtMap* cli_load_map(const char* path);
double cli_now_seconds(void);

// Subcommands: each returns an exit code.
int cmd_info(int argc, char** argv);
int cmd_dist(int argc, char** argv);
int cmd_path(int argc, char** argv);
int cmd_scen(int argc, char** argv);
int cmd_genmap(int argc, char** argv);

#endif
