// gridtree: command-line front end. Output is `key value` lines or one result per input line.
// Every command is a table (CliCommand) that both parses its arguments and prints its usage.
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int version(const CliArgs* args)
{
	(void)args;
	printf("%s\n", gtVersionString());
	return CLI_OK;
}

static const CliOption NO_OPTIONS[] = {{0}};
static const CliCommand VERSION = {"version", "", "print the version", NULL, NO_OPTIONS, false, version};

static const CliCommand* const COMMANDS[] = {
    &cli_cmd_info,
    &cli_cmd_dist,
    &cli_cmd_path,
    &cli_cmd_scen,
    &cli_cmd_ehl_build,
    &cli_cmd_ehl_verify,
    &cli_cmd_workload,
    &cli_cmd_knn,
    &cli_cmd_bench_knn,
    &cli_cmd_crowd,
    &cli_cmd_bench_crowd,
    &cli_cmd_bench_edits,
    &cli_cmd_bench_living,
    &cli_cmd_genmap,
    &cli_cmd_mesh_build,
    &cli_cmd_bench_peers,
    &cli_cmd_inflate,
    &cli_cmd_tiled_export,
    &cli_cmd_neighbours,
    &cli_cmd_bench_neighbours,
    &VERSION,
};
enum { COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0] };

static const CliCommand* find_command(const char* name)
{
	for (int i = 0; i < COMMAND_COUNT; i++)
		if (strcmp(COMMANDS[i]->name, name) == 0) return COMMANDS[i];
	return NULL;
}

static void usage(FILE* out)
{
	fprintf(out, "usage: gridtree COMMAND [ARGS]\n\ncommands:\n");
	for (int i = 0; i < COMMAND_COUNT; i++) {
		const CliCommand* c = COMMANDS[i];
		int n = fprintf(out, "  %s %s", c->name, c->args);
		fprintf(out, "%*s%s\n", n < 28 ? 28 - n : 1, "", c->summary);
	}
	fprintf(out, "  help [COMMAND]%*sthis list, or a command's usage and every option it takes\n", 28 - 16, "");
	fprintf(out, "\n'gridtree help COMMAND' or 'gridtree COMMAND --help' prints the command's options.\n"
	             "A MAP is a MovingAI .map or a Tiled .tmx, .tmj or .json; every command that takes one takes\n"
	             "the map options:");
	for (const CliOption* o = cli_map_options; o->name; o++)
		fprintf(out, "%s --%s%s%s", o == cli_map_options ? "" : ",", o->name, o->arg ? " " : "",
		        o->arg ? o->arg : ""); // flags have no value
	fprintf(out, ".\nExit status: 0 done, 1 failed, 2 usage error.\n");
}

// gridtree help [COMMAND]
static int help(int argc, char** argv)
{
	bool about_help = argc == 1 &&
	                  (strcmp(argv[0], "help") == 0 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0);
	if (argc == 0 || about_help) { // `help help` and `help --help`: help's own usage is the list
		usage(stdout);
		return CLI_OK;
	}
	const CliCommand* c = argc == 1 ? find_command(argv[0]) : NULL;
	if (!c) {
		if (argc == 1) fprintf(stderr, "gridtree help: unknown command '%s' ('gridtree help' lists them)\n", argv[0]);
		else fprintf(stderr, "usage: gridtree help [COMMAND]\n");
		return CLI_USAGE;
	}
	cli_print_help(c, stdout);
	return CLI_OK;
}

int main(int argc, char** argv)
{
	cli_nav_methods_init(); // the option tables' --method values
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	const char* name = argv[1];
	if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		return help(argc - 2, argv + 2);
	if (strcmp(name, "--version") == 0) name = "version";
	const CliCommand* c = find_command(name);
	if (!c) {
		fprintf(stderr, "gridtree: unknown command '%s'\n\n", name);
		usage(stderr);
		return CLI_USAGE;
	}
	CliArgs args;
	if (!cli_parse(argc - 2, argv + 2, c, &args)) return CLI_USAGE;
	if (args.help) {
		cli_print_help(c, stdout);
		return CLI_OK;
	}
	return c->run(&args);
}
