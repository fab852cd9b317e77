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

// Why a query line is `invalid`, on stderr: which point and what is wrong with it.
static void explain_invalid(const char* command, const gtMap* map, int line, gtVec2 s, gtVec2 t, const gtError* err,
                            bool every_line)
{
	const gtVec2 points[2] = {s, t};
	const char* names[2] = {"source", "target"};
	fprintf(stderr, "gridtree %s: stdin:%d: invalid:", command, line);
	bool said = false;
	for (int i = 0; i < 2; i++) {
		gtPointCheck check = gtMap_CheckPoint(map, points[i]);
		if (check == GT_POINT_VALID) continue;
		fprintf(stderr, "%s %s (%g, %g) ", said ? ";" : "", names[i], points[i].x, points[i].y);
		if (check == GT_POINT_NOT_FINITE) fprintf(stderr, "is not a finite number");
		else if (check == GT_POINT_OFF_MAP)
			fprintf(stderr, "is off the map (%dx%d)", gtMap_Width(map), gtMap_Height(map));
		else fprintf(stderr, "is in a wall");
		said = true;
	}
	if (!said) fprintf(stderr, " %s", err->message); // both in the free space: the backend's reason
	fprintf(stderr, "%s\n", every_line ? "" : " (the first invalid line; --why explains every one)");
}

static int run_queries(const CliArgs* args, bool want_path)
{
	const char* command = args->command->name;
	bool why = cli_option(args, "why", NULL) != NULL;
	bool explained = false;
	CliNav solver;
	int opened = cli_nav_open(&solver, args, command, args->positional[0], false);
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
		gtStatus st = want_path ? gtNavQuery_Path(solver.query, s, t, points, solver.capacity, &count, &d, &err)
		                        : gtNavQuery_Distance(solver.query, s, t, &d, &err);
		if (st == GT_ERR_INVALID_POINT) {
			puts("invalid");
			if (why || !explained) explain_invalid(command, solver.map, number, s, t, &err, why);
			explained = true;
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

static int dist(const CliArgs* args)
{
	return run_queries(args, false);
}

static int path(const CliArgs* args)
{
	return run_queries(args, true);
}

static const CliOption OPTIONS[] = {
    {"method", "M", CLI_NAV_METHODS, false, "what answers (default auto: the index given with --ehl, else the oracle)"},
    CLI_OPTION_EHL(false),
    CLI_OPTION_MESH,
    {"why", NULL, NULL, false, "explain every 'invalid' line on stderr (default: the first one only)"},
    CLI_OPTION_THREADS,
    CLI_OPTION_EDITS,
    CLI_OPTION_LINKS,
    {0},
};

const CliCommand cli_cmd_dist = {
    "dist",
    "MAP",
    "read 'sx sy tx ty' lines on stdin, print one walking distance per line",
    "Distances print with 9 decimals, 'inf' if unreachable, 'invalid' if a point is not in the free\n"
    "space (off the map, in a wall or not a number). A line that is not four numbers is an error (exit 1).",
    OPTIONS,
    true,
    dist,
};

const CliCommand cli_cmd_path = {
    "path",
    "MAP",
    "read 'sx sy tx ty' lines on stdin, print a shortest path 'x0 y0 x1 y1 ...' per line",
    "'unreachable' if there is none, 'invalid' if a point is not in the free space (off the map, in a\n"
    "wall or not a number). A line that is not four numbers is an error (exit 1).",
    OPTIONS,
    true,
    path,
};
