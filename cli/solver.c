// The distance method behind dist, path and scen: the oracle, or an EHL index from --ehl FILE.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

bool cli_solver_open(CliSolver* s, const CliArgs* args, const char* command, const char* map_path)
{
	memset(s, 0, sizeof *s);
	long threads;
	if (!cli_int_option(args, command, "threads", 0, 0, 256, &threads)) return false;
	const char* ehl_path = cli_option(args, "ehl", NULL);
	const char* method = cli_option(args, "method", ehl_path ? "ehl" : "oracle");
	if (strcmp(method, "oracle") != 0 && strcmp(method, "ehl") != 0) {
		fprintf(stderr, "gridtree %s: unknown --method '%s' (available: oracle, ehl)\n", command, method);
		return false;
	}
	if (strcmp(method, "ehl") == 0 && !ehl_path) {
		fprintf(stderr, "gridtree %s: --method ehl needs --ehl FILE (build one with 'gridtree ehl-build')\n", command);
		return false;
	}
	s->map = cli_load_map(map_path);
	if (!s->map) return false;
	gtError err;
	gtStatus st;
	if (strcmp(method, "ehl") == 0) {
		st = gtEhl_Load(s->map, ehl_path, &s->ehl, &err);
		if (!st) st = gtEhlQuery_Create(s->ehl, &s->query, &err);
	} else {
		st = gtOracle_Create(s->map, (int)threads, &s->oracle, &err);
	}
	if (st) {
		fprintf(stderr, "gridtree: %s\n", err.message);
		cli_solver_close(s);
		return false;
	}
	int vertices;
	gtMap_Vertices(s->map, &vertices);
	s->capacity = vertices + 2;
	return true;
}

gtStatus cli_solver_distance(CliSolver* s, gtVec2 a, gtVec2 b, double* d, gtError* err)
{
	return s->ehl ? gtEhl_Distance(s->query, a, b, d, err) : gtOracle_Distance(s->oracle, a, b, d, err);
}

gtStatus cli_solver_path(CliSolver* s, gtVec2 a, gtVec2 b, gtVec2* points, int* count, double* d, gtError* err)
{
	return s->ehl ? gtEhl_Path(s->query, a, b, points, s->capacity, count, d, err)
	              : gtOracle_Path(s->oracle, a, b, points, s->capacity, count, d, err);
}

void cli_solver_close(CliSolver* s)
{
	gtEhlQuery_Destroy(s->query);
	gtEhl_Destroy(s->ehl);
	gtOracle_Destroy(s->oracle);
	gtMap_Destroy(s->map);
	memset(s, 0, sizeof *s);
}
