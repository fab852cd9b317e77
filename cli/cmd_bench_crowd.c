// gridtree bench-crowd: every agent finds its k nearest enemies every frame while agents and
// enemies move; each method's time per frame, and AUTO's answers checked against EACH's.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

// A step of up to one cell in a random direction, kept when it lands in the free space.
static gtVec2 wander(const gtMap* map, gtRandom* rng, gtVec2 p)
{
	gtVec2 next = {p.x + 2 * gtRandom_Unit(rng) - 1, p.y + 2 * gtRandom_Unit(rng) - 1};
	return gtMap_CheckPoint(map, next) == GT_POINT_VALID ? next : p;
}

typedef struct Method {
	gtCrowdMethod method;
	gtCrowd* crowd;
	double seconds;
	double cpu_seconds; // of every thread of the process: on a loaded machine, what the wall time hides
	gtObjectId* ids;
	double* distances;
	int* found;
} Method;

// --methods: a comma-separated list of crowd methods, each once; false (with a message) otherwise.
static bool parse_methods(const char* list, Method* methods, int* count)
{
	*count = 0;
	char name[16];
	for (const char* p = list; *p;) {
		size_t n = strcspn(p, ",");
		gtError err;
		gtCrowdMethod m;
		snprintf(name, sizeof name, "%.*s", n < sizeof name ? (int)n : (int)sizeof name - 1, p);
		if (n >= sizeof name || gtCrowdMethod_Parse(name, &m, &err)) {
			fprintf(stderr, "gridtree bench-crowd: --methods: unknown method '%.*s'\n", (int)n, p);
			return false;
		}
		for (int i = 0; i < *count; i++)
			if (methods[i].method == m) {
				fprintf(stderr, "gridtree bench-crowd: --methods: '%s' twice\n", name);
				return false;
			}
		methods[(*count)++] = (Method){m, NULL, 0, 0, NULL, NULL, NULL};
		p += n + (p[n] == ',');
	}
	if (*count == 0) fprintf(stderr, "gridtree bench-crowd: --methods: no method\n");
	return *count > 0;
}

static int bench_crowd(const CliArgs* args)
{
	long agents, objects, k, frames, seed;
	if (!cli_int_option(args, "bench-crowd", "agents", 10000, 1, 10000000, &agents) ||
	    !cli_int_option(args, "bench-crowd", "objects", 0, 0, 10000000, &objects) ||
	    !cli_int_option(args, "bench-crowd", "k", 1, 1, 255, &k) ||
	    !cli_int_option(args, "bench-crowd", "frames", 10, 1, 1000000, &frames) ||
	    !cli_int_option(args, "bench-crowd", "seed", 1, 0, 1000000000, &seed))
		return CLI_USAGE;
	Method methods[4];
	int method_count;
	if (!parse_methods(cli_option(args, "methods", "each,batch,field,auto"), methods, &method_count)) return CLI_USAGE;
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
	bool room = ids && positions && points;
	for (int m = 0; m < method_count; m++) {
		methods[m].ids = malloc(slots * sizeof(gtObjectId));
		methods[m].distances = malloc(slots * sizeof(double));
		methods[m].found = malloc((size_t)agents * sizeof(int));
		room = room && methods[m].ids && methods[m].distances && methods[m].found;
	}
	gtStatus* statuses = malloc((size_t)agents * sizeof *statuses);
	if (!st && (!room || !statuses)) st = gtError_Set(&err, GT_ERR_NOMEM, "out of memory");
	for (long i = 0; i < total && !st; i++) {
		st = gtMap_RandomPoint(nav.map, &rng, &positions[i], &err);
		if (!st) st = gtWorld_Add(world, positions[i], i < objects ? &enemy : &ally, 1, &ids[i], &err);
	}
	for (long i = 0; i < agents && !st; i++) st = gtMap_RandomPoint(nav.map, &rng, &points[i], &err);
	gtCrowdDef def = gtCrowd_DefaultDef();
	def.threads = (int)strtol(cli_option(args, "threads", "0"), NULL, 10);
	gtCrowdDef one = def;
	one.threads = 1;
	for (int m = 0; m < method_count && !st; m++)
		st = gtCrowd_Create(world, nav.nav, methods[m].method == GT_CROWD_EACH ? &one : &def, &methods[m].crowd, &err);
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
		for (int m = 0; m < method_count && !st; m++) {
			Method* run = &methods[m];
			gtCrowdAnswers out = {(int)k, run->ids, run->distances, run->found, statuses};
			gtCrowdStats stats;
			clock_t cpu = clock();
			st = gtCrowd_Nearest(run->crowd, &batch, run->method, &out, &stats, &err);
			run->cpu_seconds += (double)(clock() - cpu) / CLOCKS_PER_SEC;
			run->seconds += stats.seconds;
			if (run->method == GT_CROWD_FIELD) field_build += stats.field_seconds;
			if (run->method == GT_CROWD_AUTO) auto_field += stats.method == GT_CROWD_FIELD;
		}
		// Every method against the first: the same objects (ids) at the same distances, in order.
		for (int m = 1; m < method_count && !st; m++)
			for (long i = 0; i < agents; i++) {
				const Method *a = &methods[0], *b = &methods[m];
				bool same = a->found[i] == b->found[i];
				for (int r = 0; r < a->found[i] && same; r++)
					same = a->distances[i * k + r] == b->distances[i * k + r] && a->ids[i * k + r] == b->ids[i * k + r];
				mismatches += !same;
			}
	}
	int status = CLI_OK;
	if (st) {
		fprintf(stderr, "gridtree bench-crowd: %s\n", err.message);
		status = CLI_FAILED;
	} else {
		printf("agents %ld\nobjects %ld\nk %ld\nframes %ld\nthreads %d\n", agents, objects, k, frames,
		       def.threads > 0 ? (int)def.threads : gtCrowd_Threads(methods[method_count - 1].crowd));
		double seconds[4] = {0}; // by method
		for (int m = 0; m < method_count; m++) {
			seconds[methods[m].method] = methods[m].seconds;
			printf("%s_ms_per_frame %.3f\n", gtCrowdMethod_Name(methods[m].method),
			       methods[m].seconds * 1e3 / (double)frames);
			printf("%s_cpu_ms_per_frame %.3f\n", gtCrowdMethod_Name(methods[m].method),
			       methods[m].cpu_seconds * 1e3 / (double)frames);
		}
		if (seconds[GT_CROWD_FIELD] > 0) printf("field_build_ms_per_frame %.3f\n", field_build * 1e3 / (double)frames);
		if (seconds[GT_CROWD_AUTO] > 0) printf("auto_field_frames %ld\n", auto_field);
		if (seconds[GT_CROWD_AUTO] > 0 && seconds[GT_CROWD_EACH] > 0)
			printf("speedup_auto_vs_each %.2f\n", seconds[GT_CROWD_EACH] / seconds[GT_CROWD_AUTO]);
		// AUTO against the best of the others that ran: 1.00 when it matched the best.
		double best = INFINITY;
		for (int m = GT_CROWD_EACH; m <= GT_CROWD_FIELD; m++)
			if (seconds[m] > 0 && seconds[m] < best) best = seconds[m];
		if (seconds[GT_CROWD_AUTO] > 0 && best < INFINITY) printf("auto_vs_best %.2f\n", seconds[GT_CROWD_AUTO] / best);
		printf("mismatches %ld\n", mismatches);
	}
	for (int m = 0; m < method_count; m++) {
		gtCrowd_Destroy(methods[m].crowd);
		free(methods[m].ids);
		free(methods[m].distances);
		free(methods[m].found);
	}
	gtWorld_Destroy(world);
	cli_nav_close(&nav);
	free(ids);
	free(positions);
	free(points);
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
    {"methods", "LIST", NULL, false,
     "the methods to run, comma-separated among each, batch, field, auto (default all four); every answer is checked "
     "against the first's"},
    CLI_OPTION_THREADS,
    {0},
};

const CliCommand cli_cmd_bench_crowd = {
    "bench-crowd", "MAP",       "every agent's k nearest enemies each frame, by every method", NULL, OPTIONS,
    true,          bench_crowd,
};
