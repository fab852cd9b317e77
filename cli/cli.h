// Shared helpers for the gridtree command-line tool.
#ifndef GRIDTREE_CLI_H
#define GRIDTREE_CLI_H

#include <stdbool.h>

#include "gridtree/gridtree.h"

enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };

#define GT_WORD_BYTES 65 // a keyword and its terminating zero

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

// The distance method chosen by --method oracle|ehl and --ehl FILE (which implies ehl).
typedef struct CliSolver {
	gtMap* map;
	gtOracle* oracle;
	gtEhl* ehl;
	gtEhlQuery* query;
	int capacity; // points a path can have
} CliSolver;

// Loads the map and the method; prints the problem and returns false on failure.
bool cli_solver_open(CliSolver* s, const CliArgs* args, const char* command, const char* map_path);
gtStatus cli_solver_distance(CliSolver* s, gtVec2 a, gtVec2 b, double* d, gtError* err);
gtStatus cli_solver_path(CliSolver* s, gtVec2 a, gtVec2 b, gtVec2* points, int* count, double* d, gtError* err);
void cli_solver_close(CliSolver* s);

// Subcommands: each returns an exit code.
int cmd_info(int argc, char** argv);
int cmd_dist(int argc, char** argv);
int cmd_path(int argc, char** argv);
int cmd_scen(int argc, char** argv);
int cmd_genmap(int argc, char** argv);
int cmd_ehl_build(int argc, char** argv);
int cmd_workload(int argc, char** argv);
int cmd_knn(int argc, char** argv);
int cmd_bench_knn(int argc, char** argv);

#endif
