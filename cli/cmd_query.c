// dist and path: one query per input line "sx sy tx ty".
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_LINE 1024

// Parses exactly four numbers; "nan"/"inf" parse and are then rejected as invalid points.
static bool parse_query(const char* line, gtVec2* s, gtVec2* t)
{
	double v[4];
	const char* p = line;
	for (int i = 0; i < 4; i++) {
		char* end;
		v[i] = strtod(p, &end);
		if (end == p) return false;
		p = end;
	}
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
	if (*p) return false;
	s->x = v[0], s->y = v[1], t->x = v[2], t->y = v[3];
	return true;
}

static bool blank(const char* line)
{
	return line[strspn(line, " \t\r\n")] == '\0';
}

static int run_queries(int argc, char** argv, const char* command, bool want_path)
{
	CliArgs args;
	if (!cli_parse(argc, argv, command, "method threads ehl mesh edits" CLI_MAP_OPTIONS, &args)) return CLI_USAGE;
	if (args.positional_count != 1) {
		fprintf(stderr, "usage: gridtree %s MAP [--method oracle|ehl] [--ehl FILE] < queries\n", command);
		return CLI_USAGE;
	}
	CliNav solver;
	int opened = cli_nav_open(&solver, &args, command, args.positional[0], false);
	if (opened) return opened;
	gtVec2* points = malloc((size_t)solver.capacity * sizeof *points);
	int status = points ? CLI_OK : CLI_FAILED;
	char line[MAX_LINE];
	gtError err;
	for (int number = 1; status == CLI_OK && fgets(line, sizeof line, stdin); number++) {
		if (strlen(line) == sizeof line - 1 && line[sizeof line - 2] != '\n') {
			fprintf(stderr, "gridtree %s: stdin:%d: line too long\n", command, number);
			status = CLI_FAILED;
			break;
		}
		if (blank(line)) continue;
		gtVec2 s, t;
		if (!parse_query(line, &s, &t)) {
			fprintf(stderr, "gridtree %s: stdin:%d: expected four numbers 'sx sy tx ty'\n", command, number);
			status = CLI_FAILED;
			break;
		}
		double d;
		int count = 0;
		gtStatus st = want_path ? gtNav_Path(solver.query, s, t, points, solver.capacity, &count, &d, &err)
		                        : gtNav_Distance(solver.query, s, t, &d, &err);
		if (st == GT_ERR_INVALID_POINT) {
			puts("invalid");
		} else if (st) {
			fprintf(stderr, "gridtree %s: stdin:%d: %s\n", command, number, err.message);
			status = CLI_FAILED;
		} else if (isinf(d)) {
			puts(want_path ? "unreachable" : "inf");
		} else if (!want_path) {
			printf("%.9f\n", d);
		} else {
			for (int i = 0; i < count; i++) printf(i ? " %.9f %.9f" : "%.9f %.9f", points[i].x, points[i].y);
			putchar('\n');
		}
	}
	if (ferror(stdin)) {
		fprintf(stderr, "gridtree %s: error reading stdin\n", command);
		status = CLI_FAILED;
	}
	free(points);
	cli_nav_close(&solver);
	return status;
}

int cmd_dist(int argc, char** argv)
{
	return run_queries(argc, argv, "dist", false);
}

int cmd_path(int argc, char** argv)
{
	return run_queries(argc, argv, "path", true);
}
