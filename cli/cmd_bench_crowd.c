// gridtree bench-crowd: every agent finds its k nearest enemies every frame while agents and
// enemies move; each method's time per frame, and AUTO's answers checked against EACH's.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

// A step of up to one cell in a random direction, kept when it lands in the free space.
static gtVec2 wander(const gtMap* map, gtRandom* rng, gtVec2 p)
{
	gtVec2 next = {p.x + 2 * gtRandom_Unit(rng) - 1, p.y + 2 * gtRandom_Unit(rng) - 1};
	return gtMap_CheckPoint(map, next) == GT_POINT_VALID ? next : p;
}

typedef struct Method {
	const char* name;
	gtCrowdMethod method;
	gtCrowd* crowd;
	double seconds;
} Method;

static int bench_crowd(const CliArgs* args)
{
	long agents, objects, k, frames, seed;
	if (!cli_int_option(args, "bench-crowd", "agents", 10000, 1, 10000000, &agents) ||
	    !cli_int_option(args, "bench-crowd", "objects", 0, 0, 10000000, &objects) ||
	    !cli_int_option(args, "bench-crowd", "k", 1, 1, 255, &k) ||
	    !cli_int_option(args, "bench-crowd", "frames", 10, 1, 1000000, &frames) ||
	    !cli_int_option(args, "bench-crowd", "seed", 1, 0, 1000000000, &seed))
		return CLI_USAGE;
	CliNav nav;
	int opened = cli_nav_open(&nav, args, "bench-crowd", args->positional[0], true);
	if (opened) return opened;
	gtError err;
	gtRandom rng = {(uint64_t)seed};
	int64_t free_cells = gtMap_FreeCells(nav.map);
	if (objects == 0) objects = (long)ceil(0.01 * (double)free_cells); // 1% of the free cells
	gtWorld* world = NULL;
	gtStatus st = free_cells > 0 ? gtWorld_Create(nav.map, NULL, &world, &err)
	                             : gtError_Set(&err, GT_ERR_INVALID_ARG, "the map has no free cell");
	int32_t enemy = world ? gtWorld_Keyword(world, "enemy") : -1, ally = world ? gtWorld_Keyword(world, "ally") : -1;
	// Enemies and as many allies, so the filter has something to skip.
	long total = 2 * objects;
	gtObjectId* ids = malloc((size_t)total * sizeof *ids);
	gtVec2* positions = malloc((size_t)total * sizeof *positions);
	gtVec2* points = malloc((size_t)agents * sizeof *points);
	size_t slots = (size_t)agents * (size_t)k;
	gtObjectId* found_ids[2] = {malloc(slots * sizeof(gtObjectId)), malloc(slots * sizeof(gtObjectId))};
	double* found_dist[2] = {malloc(slots * sizeof(double)), malloc(slots * sizeof(double))};
	int* found[2] = {malloc((size_t)agents * sizeof(int)), malloc((size_t)agents * sizeof(int))};
	gtStatus* statuses = malloc((size_t)agents * sizeof *statuses);
	if (!st && (!ids || !positions || !points || !found_ids[0] || !found_ids[1] || !found_dist[0] || !found_dist[1] ||
	            !found[0] || !found[1] || !statuses))
		st = gtError_Set(&err, GT_ERR_NOMEM, "out of memory");
	for (long i = 0; i < total && !st; i++) {
		st = gtMap_RandomPoint(nav.map, &rng, &positions[i], &err);
		if (!st) st = gtWorld_Add(world, positions[i], i < objects ? &enemy : &ally, 1, &ids[i], &err);
	}
	for (long i = 0; i < agents && !st; i++) st = gtMap_RandomPoint(nav.map, &rng, &points[i], &err);
	gtCrowdDef def = gtCrowd_DefaultDef();
	def.threads = (int)strtol(cli_option(args, "threads", "0"), NULL, 10);
	gtCrowdDef one = def;
	one.threads = 1;
	Method methods[] = {{"each", GT_CROWD_EACH, NULL, 0},
	                    {"batch", GT_CROWD_BATCH, NULL, 0},
	                    {"field", GT_CROWD_FIELD, NULL, 0},
	                    {"auto", GT_CROWD_AUTO, NULL, 0}};
	for (int m = 0; m < 4 && !st; m++)
		st = gtCrowd_Create(world, nav.nav, m == 0 ? &one : &def, &methods[m].crowd, &err);
	gtQuery query = gtQuery_Default((gtVec2){0, 0});
	query.k = (int)k;
	query.keywords = &enemy;
	query.keyword_count = 1;
	gtCrowdQueries batch = {&query, points, (int)agents};
	long mismatches = 0, auto_field = 0;
	double field_build = 0;
	for (long frame = 0; frame < frames && !st; frame++) {
		for (long i = 0; i < total; i++) positions[i] = wander(nav.map, &rng, positions[i]);
		for (long i = 0; i < agents; i++) points[i] = wander(nav.map, &rng, points[i]);
		st = gtWorld_MoveMany(world, ids, positions, (int)total, &err);
		for (int m = 0; m < 4 && !st; m++) {
			int into = m == 3; // each's answers stay in buffer 0, auto's go to 1
			gtCrowdAnswers out = {(int)k, found_ids[into], found_dist[into], found[into], statuses};
			gtCrowdStats stats;
			st = gtCrowd_Nearest(methods[m].crowd, &batch, methods[m].method, &out, &stats, &err);
			methods[m].seconds += stats.seconds;
			if (m == 2) field_build += stats.field_seconds;
			if (m == 3) auto_field += stats.method == GT_CROWD_FIELD;
		}
		for (long i = 0; i < agents && !st; i++) {
			bool same = found[0][i] == found[1][i];
			for (int r = 0; r < found[0][i] && same; r++) same = found_dist[0][i * k + r] == found_dist[1][i * k + r];
			mismatches += !same;
		}
	}
	int status = CLI_OK;
	if (st) {
		fprintf(stderr, "gridtree bench-crowd: %s\n", err.message);
		status = CLI_FAILED;
	} else {
		printf("agents %ld\nobjects %ld\nk %ld\nframes %ld\nthreads %d\n", agents, objects, k, frames,
		       gtCrowd_Threads(methods[1].crowd));
		for (int m = 0; m < 4; m++)
			printf("%s_ms_per_frame %.3f\n", methods[m].name, methods[m].seconds * 1e3 / (double)frames);
		printf("field_build_ms_per_frame %.3f\n", field_build * 1e3 / (double)frames);
		printf("auto_field_frames %ld\n", auto_field);
		printf("speedup_auto_vs_each %.2f\n", methods[0].seconds / methods[3].seconds);
		printf("mismatches %ld\n", mismatches);
	}
	for (int m = 0; m < 4; m++) gtCrowd_Destroy(methods[m].crowd);
	gtWorld_Destroy(world);
	cli_nav_close(&nav);
	free(ids);
	free(positions);
	free(points);
	for (int i = 0; i < 2; i++) {
		free(found_ids[i]);
		free(found_dist[i]);
		free(found[i]);
	}
	free(statuses);
	return status;
}

static const CliOption OPTIONS[] = {
    CLI_OPTION_EHL(true),
    {"agents", "N", NULL, false, "agents asking each frame, 1 to 10000000 (default 10000)"},
    {"objects", "N", NULL, false, "enemies (and as many allies), 0 to 10000000 (default 0: 1% of the free cells)"},
    {"k", "K", NULL, false, "enemies per agent, 1 to 255 (default 1)"},
    {"frames", "F", NULL, false, "frames, 1 to 1000000 (default 10)"},
    {"seed", "S", NULL, false, "the random seed (default 1)"},
    CLI_OPTION_THREADS,
    {0},
};

const CliCommand cli_cmd_bench_crowd = {
    "bench-crowd", "MAP",       "every agent's k nearest enemies each frame, by every method", NULL, OPTIONS,
    true,          bench_crowd,
};
