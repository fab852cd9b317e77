// Shared helpers for the gridtree command-line tool.
#ifndef GRIDTREE_CLI_H
#define GRIDTREE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "gridtree/gridtree.h"

enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };


typedef struct CliCommand CliCommand;

// Command-line arguments after the subcommand: positionals and --name value options.
typedef struct CliArgs {
	const CliCommand* command; // whose table they were parsed by
	const char* positional[8];
	int positional_count;
	const char* names[16];
	const char* values[16];
	int option_count;
	bool help; // --help or -h: print the command's usage instead of running it
} CliArgs;

// One option of a command, as the parser accepts it and as `gridtree CMD --help` shows it: the
// same table does both, so the usage cannot list what is refused or miss what is accepted.
typedef struct CliOption {
	const char* name;   // without dashes; a one-letter name is written -x ("o": -o FILE)
	const char* arg;    // the value's name in the usage ("FILE"); NULL: a flag, which takes no value
	const char* values; // the accepted values, '|'-separated ("csv|base64|xml"); NULL: any
	bool required;
	const char* help; // what it does, one line (defaults and ranges included)
} CliOption;

// A subcommand: its table, and the function that runs it on arguments parsed by that table.
struct CliCommand {
	const char* name;
	const char* args;         // its positionals, space-separated ("MAP SCENFILE"); "" for none
	const char* summary;      // one line, for `gridtree help`
	const char* about;        // more lines for `gridtree CMD --help` (NULL: none)
	const CliOption* options; // ends with {0}
	bool map_options;         // also takes cli_map_options (an own option of the same name wins)
	int (*run)(const CliArgs* args);
};

// The options of every command that takes a MAP (cli_open_map reads them); the one place they are
// declared, in cli_common.c.
extern const CliOption cli_map_options[];

// Splits argv by the command's table. An unknown option, a value outside an option's values, a
// missing required option or the wrong number of positionals prints the problem and the command's
// synopsis and is false (a usage error). --help or -h sets out->help and stops parsing.
bool cli_parse(int argc, char** argv, const CliCommand* command, CliArgs* out);
// `gridtree CMD --help`: synopsis, description and every option with its values.
void cli_print_help(const CliCommand* command, FILE* out);
// Writes "knn MAP --objects OBJ --queries Q [options]" (no newline); returns its length.
int cli_write_synopsis(const CliCommand* command, FILE* out);
// True when ok; otherwise prints the command's synopsis and is false.
bool cli_usage_unless(bool ok, const CliArgs* args);
const char* cli_option(const CliArgs* args, const char* name, const char* fallback);
// The position of an enumerated option's value in its table's values (0 for the first), or
// fallback when the option is absent.
int cli_choice(const CliArgs* args, const char* name, int fallback);
// The arguments without option `name` (an option a command reads itself, not for a shared helper).
CliArgs cli_args_without(const CliArgs* args, const char* name);
bool cli_int_option(const CliArgs* args, const char* command, const char* name, long fallback, long min, long max,
                    long* out);

// Options shared by the commands that answer distances through cli_nav_open.
// The distance backends' names, "auto|ehl|...", from the library's table (cli_nav_methods_init,
// which main runs before parsing any option, fills it).
extern char cli_nav_methods[];
#define CLI_NAV_METHODS cli_nav_methods
void cli_nav_methods_init(void);
#define CLI_OPTION_EHL(required)                                                                                       \
	{                                                                                                                  \
		"ehl", "FILE", NULL, required,                                                                                 \
		    "the map's EHL index (gridtree ehl-build); without it, the exact oracle answers"                           \
	}
#define CLI_OPTION_MESH                                                                                                \
	{                                                                                                                  \
		"mesh", "FILE", NULL, false, "a Polyanya .mesh for --method polyanya (default: one made from the map)"         \
	}
#define CLI_OPTION_THREADS                                                                                             \
	{                                                                                                                  \
		"threads", "N", NULL, false, "worker threads, 0 to 256 (default 0: one per core)"                              \
	}
#define CLI_OPTION_EDITS                                                                                               \
	{                                                                                                                  \
		"edits", "FILE", NULL, false,                                                                                  \
		    "'block x0 y0 x1 y1' / 'free x0 y0 x1 y1' lines (inclusive cells) applied in order to the map and its "    \
		    "index first"                                                                                              \
	}

#define CLI_OPTION_LINKS                                                                                               \
	{                                                                                                                  \
		"links", "FILE", NULL, false,                                                                                  \
		    "'ax ay bx by cost' lines (optionally 'oneway'): links (stairs, teleporters) the walks may take"           \
	}
// Adds the links of a --links file to the nav; prints "FILE:LINE: problem" and is false on failure.
bool cli_apply_links(gtNav* nav, const char* path);
// The two-way links of a --links file for an index (ehl-build); *out malloc'd. False on failure.
bool cli_index_links(gtMap* map, const char* path, gtEhlLink** out, int* count);
// Calls `fcn` on each line of the file at `path` that is not blank or a # comment (leading blanks
// skipped), with its 1-based number, until it returns false; says when the file cannot be opened.
typedef bool CliLineFcn(void* user, const char* path, int number, const char* text);
bool cli_each_line(const char* path, CliLineFcn* fcn, void* user);

// Loads the map as the map options say into *out, and a Tiled map's extras into *tiled (when
// tiled is not NULL; NULL for a MovingAI map). Prints the problem and returns CLI_USAGE or
// CLI_FAILED on failure, CLI_OK otherwise.
int cli_open_map(const CliArgs* args, const char* command, const char* path, gtMap** out, gtTiled** tiled);

// The map and its navigation backend, from --method (a backend), --ehl FILE and --threads.
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

// The subcommands (main.c lists them, for dispatch and for `gridtree help`).
extern const CliCommand cli_cmd_info;
extern const CliCommand cli_cmd_dist;
extern const CliCommand cli_cmd_path;
extern const CliCommand cli_cmd_scen;
extern const CliCommand cli_cmd_genmap;
extern const CliCommand cli_cmd_inflate;
extern const CliCommand cli_cmd_mesh_build;
extern const CliCommand cli_cmd_bench_peers;
extern const CliCommand cli_cmd_tiled_export;
extern const CliCommand cli_cmd_ehl_build;
extern const CliCommand cli_cmd_ehl_verify;
extern const CliCommand cli_cmd_workload;
extern const CliCommand cli_cmd_knn;
extern const CliCommand cli_cmd_bench_knn;
extern const CliCommand cli_cmd_crowd;
extern const CliCommand cli_cmd_bench_crowd;
extern const CliCommand cli_cmd_bench_edits;
extern const CliCommand cli_cmd_bench_living;
extern const CliCommand cli_cmd_neighbours;
extern const CliCommand cli_cmd_bench_neighbours;

#endif
