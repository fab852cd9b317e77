// gridtree bench-edits: what map edits cost. Walls of 4x4 cells are built in free space and
// doors of 3 cells closed, one at a time, and taken away again; the same point-to-point queries
// (and kNN queries) are timed before and after each, split by whether the answer crossed the
// edit; then walls are demolished and the index rebuilt; then each kind of edit again, timed until
// the index is exact again (repair_ms), and declared doors closed (door_crossing_us).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

typedef struct Pair {
	gtVec2 s, t;
	double d;      // on the map as loaded
	bool crossing; // after the current edit
} Pair;

typedef struct Totals {
	double seconds;
	long count;
	// Optional: each time (the first `room`), for a median, which a query the OS preempted (a
	// time slice of another process: milliseconds) does not move as it moves the mean.
	double* sample;
	long room;
} Totals;

static void add(Totals* t, double seconds)
{
	if (t->sample && t->count < t->room) t->sample[t->count] = seconds;
	t->seconds += seconds;
	t->count++;
}

enum { MOST_SAMPLES = 1000000 };

static bool sampled(Totals* t, long count)
{
	t->room = count < MOST_SAMPLES ? count : MOST_SAMPLES;
	return (t->sample = malloc(sizeof *t->sample * (size_t)t->room)) != NULL;
}

// CPU seconds of the calling thread (NAN where the platform has no thread clock): a pass's wall
// time on a shared machine includes other processes' turns on the core; its CPU time does not.
static double thread_cpu_seconds(void)
{
#if defined(CLOCK_THREAD_CPUTIME_ID)
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
	return NAN;
}

// CPU seconds of the process' other threads so far (NAN where the platform cannot tell): work
// running in the background while queries are timed competes with them for the caches and cores.
static double others_cpu_seconds(void)
{
#if defined(CLOCK_THREAD_CPUTIME_ID) && defined(CLOCK_PROCESS_CPUTIME_ID)
	struct timespec process, thread;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &thread) == 0 && clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &process) == 0)
		return (double)(process.tv_sec - thread.tv_sec) + (double)(process.tv_nsec - thread.tv_nsec) * 1e-9;
#endif
	return NAN;
}

static double micro(const Totals* t)
{
	return t->count ? t->seconds / (double)t->count * 1e6 : NAN;
}

static double median(double* v, int n);

static double median_micro(const Totals* t)
{
	return median(t->sample, (int)(t->count < t->room ? t->count : t->room)) * 1e6;
}


// A w x h block of cells all free (or all blocked), away from the border; false after many tries.
static bool find_block(const gtMap* map, gtRandom* rng, int w, int h, bool blocked, int* x, int* y)
{
	for (int tries = 0; tries < 100000; tries++) {
		*x = 1 + gtRandom_Below(rng, gtMap_Width(map) - w - 1);
		*y = 1 + gtRandom_Below(rng, gtMap_Height(map) - h - 1);
		bool all = true;
		for (int j = 0; j < h && all; j++)
			for (int i = 0; i < w && all; i++) all = gtMap_IsBlocked(map, *x + i, *y + j) == blocked;
		if (all) return true;
	}
	return false;
}

// Times every still-valid pair; a pair whose distance moved crossed the edit. The pairs that did
// not are timed again by themselves: between crossing answers (whose searches sweep the caches)
// they would also pay for their neighbours' cache misses.
static void time_pairs(gtNavQuery* q, const gtMap* map, Pair* pairs, int n, Totals* all, Totals* crossing,
                       Totals* clear, Totals* clear_mixed)
{
	for (int i = 0; i < n; i++) {
		if (gtMap_CheckPoint(map, pairs[i].s) || gtMap_CheckPoint(map, pairs[i].t)) {
			if (crossing) pairs[i].crossing = false; // not asked: an end is in the edit
			continue;
		}
		double d, start = gtNowSeconds();
		gtNavQuery_Distance(q, pairs[i].s, pairs[i].t, &d, NULL);
		double took = gtNowSeconds() - start;
		add(all, took);
		if (!crossing) continue;
		pairs[i].crossing = !(d == pairs[i].d || (isinf(d) && isinf(pairs[i].d)));
		add(pairs[i].crossing ? crossing : clear_mixed, took);
	}
	for (int i = 0; i < n && clear; i++) {
		if (gtMap_CheckPoint(map, pairs[i].s) || gtMap_CheckPoint(map, pairs[i].t) || pairs[i].crossing) continue;
		double d, start = gtNowSeconds();
		gtNavQuery_Distance(q, pairs[i].s, pairs[i].t, &d, NULL);
		add(clear, gtNowSeconds() - start);
	}
}

// A whole pass of time_pairs on the thread's CPU clock: `pass` gets its seconds and query count.
static void cpu_pass(gtNavQuery* q, const gtMap* map, Pair* pairs, int n, Totals* all, Totals* crossing,
                     Totals* clear_mixed, Totals* pass)
{
	long before = all->count;
	double start = thread_cpu_seconds();
	time_pairs(q, map, pairs, n, all, crossing, NULL, clear_mixed);
	pass->seconds += thread_cpu_seconds() - start;
	pass->count += all->count - before;
}

static void time_knn(gtWorld* world, gtNavQuery* q, const gtMap* map, const gtVec2* points, int n, Totals* t)
{
	gtDistance d;
	if (gtNavQuery_WorldDistance(q, &d, NULL)) return;
	for (int i = 0; i < n; i++) {
		if (gtMap_CheckPoint(map, points[i])) continue;
		gtQuery query = gtQuery_Default(points[i]);
		query.k = 5;
		gtObjectId ids[5];
		double dists[5];
		int found;
		double start = gtNowSeconds();
		gtWorld_Nearest(world, &query, d, ids, dists, 5, &found, NULL, NULL);
		add(t, gtNowSeconds() - start);
	}
}

static int by_value(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : x > y;
}

static double median(double* v, int n)
{
	if (n == 0) return NAN;
	qsort(v, (size_t)n, sizeof *v, by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// From an edit to the index exact again: the background job started (the CLI's nav starts none by
// itself), waited for and swapped in. NAN when it did not come back exact.
static double until_exact(gtNav* nav)
{
	double start = gtNowSeconds();
	if (gtNav_IndexState(nav) != GT_NAV_INDEX_EXACT && gtNav_RebuildIndex(nav, NULL, true, NULL)) return NAN;
	gtNav_WaitForRebuild(nav);
	double took = gtNowSeconds() - start;
	return gtNav_IndexState(nav) == GT_NAV_INDEX_EXACT ? took : NAN;
}

// The pairs that crossed the door just opened again, on the index itself: a pass over them, then
// the timed one (as the static figure is taken): what those same answers cost with no door closed.
static void time_same_pairs_open(gtNavQuery* q, const Pair* pairs, int n, Totals* open)
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++) {
			if (!pairs[i].crossing) continue;
			double d, start = gtNowSeconds();
			gtNavQuery_Distance(q, pairs[i].s, pairs[i].t, &d, NULL);
			if (pass == 1) add(open, gtNowSeconds() - start);
		}
}

enum { REPAIRS = 5, KINDS = 3 }; // edits timed per kind (at most): a 4x4 wall, a 3-cell door, a 2x2 wall demolished

typedef struct Repairs {
	double ms[KINDS][REPAIRS];
	int count[KINDS];
	Totals after, after_cold, door_crossing, door_crossing_cold;
	Totals door_crossing_open;  // the same crossing pairs with the door open again (warm, as static)
	Totals after_cpu, door_cpu; // the same warm passes (every query of them) on the thread's CPU clock
	double background_ms;       // CPU the process' other threads used while these were timed
	double door_index_ms;       // from the doors declared to their indexes ready
	int64_t door_index_bytes;
	int door_indexes;
} Repairs;

// Each kind of edit, then the time until the index is exact again and the queries once it is;
// then the edit taken back (and the index exact again, untimed). Declared doors closed: the
// queries whose answer crosses one, right after it closes.
static bool time_repairs(gtNav* nav, gtNavQuery* q, const gtMap* map, gtRandom* rng, Pair* pairs, int n, int per_kind,
                         Repairs* r)
{
	static const int sizes[KINDS][2] = {{4, 4}, {3, 1}, {2, 2}};
	for (int kind = 0; kind < KINDS; kind++)
		for (int e = 0; e < per_kind; e++) {
			int w = sizes[kind][0], h = sizes[kind][1], x, y;
			bool build = kind < 2;
			if (!find_block(map, rng, w, h, !build, &x, &y)) break;
			if (gtNav_SetBlocked(nav, x, y, x + w - 1, y + h - 1, build, NULL)) return false;
			double took = until_exact(nav);
			if (isnan(took)) return false;
			r->ms[kind][r->count[kind]++] = took * 1e3;
			// The static figure is taken after one pass over the same pairs (their distances): so is
			// this one, on the repaired index. The first pass is reported by itself (cold caches:
			// the index was just written by other threads).
			double others = others_cpu_seconds();
			time_pairs(q, map, pairs, n, &r->after_cold, NULL, NULL, NULL);
			cpu_pass(q, map, pairs, n, &r->after, NULL, NULL, &r->after_cpu);
			r->background_ms += (others_cpu_seconds() - others) * 1e3;
			if (gtNav_SetBlocked(nav, x, y, x + w - 1, y + h - 1, !build, NULL) || isnan(until_exact(nav)))
				return false;
		}
	// Doors are declared up front (their indexes are built in the background), then closed one at
	// a time. The first pass after a door closes reads that door's index for the first time (cold
	// caches: a game pays it once per toggle); the second is timed as the static figure is, after a
	// pass over the same pairs.
	Totals all = {0}, clear = {0};
	int doors = 0;
	for (int e = 0; e < per_kind; e++, doors++) {
		int x, y, door;
		if (!find_block(map, rng, 3, 1, false, &x, &y) || gtNav_AddDoor(nav, x, y, x + 2, y, &door, NULL)) break;
	}
	double start = gtNowSeconds();
	gtNav_WaitForRebuild(nav);
	r->door_index_ms = (gtNowSeconds() - start) * 1e3;
	r->door_index_bytes = gtNav_DoorIndexBytes(nav, &r->door_indexes);
	int first = gtNav_DoorCount(nav) - doors;
	for (int door = first; door < first + doors; door++) {
		if (gtNav_SetDoor(nav, door, false, NULL)) return false;
		double others = others_cpu_seconds();
		time_pairs(q, map, pairs, n, &all, &r->door_crossing_cold, NULL, &clear);
		cpu_pass(q, map, pairs, n, &all, &r->door_crossing, &clear, &r->door_cpu);
		r->background_ms += (others_cpu_seconds() - others) * 1e3;
		if (gtNav_SetDoor(nav, door, true, NULL)) return false;
		time_same_pairs_open(q, pairs, n, &r->door_crossing_open);
	}
	return true;
}

static int bench_edits(const CliArgs* args)
{
	long edits, queries, seed;
	if (!cli_int_option(args, "bench-edits", "edits", 20, 1, 100000, &edits) ||
	    !cli_int_option(args, "bench-edits", "queries", 1000, 1, 10000000, &queries) ||
	    !cli_int_option(args, "bench-edits", "seed", 1, 0, 2147483647L, &seed))
		return CLI_USAGE;
	CliArgs nav_args = cli_args_without(args, "edits"); // a count here, not an edits file
	CliNav s;
	int opened = cli_nav_open(&s, &nav_args, "bench-edits", args->positional[0], true);
	if (opened) return opened;
	const gtMap* map = s.map;
	gtRandom rng = {(uint64_t)seed};
	Pair* pairs = malloc(sizeof *pairs * (size_t)queries);
	gtVec2 knn_points[200];
	gtWorld* world = NULL;
	gtWorldDef wdef = gtWorld_DefaultDef();
	gtError err;
	int code = CLI_OK;
	Totals stat = {0}, knn_static = {0}, stat_cpu = {0};
	Repairs repairs;
	memset(&repairs, 0, sizeof repairs);
	if (!pairs || !sampled(&stat, queries) || !sampled(&repairs.after, queries * KINDS * REPAIRS) ||
	    !sampled(&repairs.door_crossing, queries * REPAIRS) ||
	    !sampled(&repairs.door_crossing_open, queries * REPAIRS) || gtWorld_Create(map, &wdef, &world, &err)) {
		fprintf(stderr, "gridtree bench-edits: out of memory\n");
		code = CLI_FAILED;
		goto done;
	}
	if (gtMap_FreeCells(map) == 0) { // nowhere to draw points from
		fprintf(stderr, "gridtree bench-edits: the map has no free cells\n");
		code = CLI_FAILED;
		goto done;
	}
	Totals stat_cold = {0}; // the first pass over the pairs: the index read for the first time
	for (long i = 0; i < queries; i++) {
		gtMap_RandomPoint(map, &rng, &pairs[i].s, NULL);
		gtMap_RandomPoint(map, &rng, &pairs[i].t, NULL);
		pairs[i].crossing = false;
	}
	for (long i = 0; i < queries; i++) {
		double start = gtNowSeconds();
		gtNavQuery_Distance(s.query, pairs[i].s, pairs[i].t, &pairs[i].d, NULL);
		add(&stat_cold, gtNowSeconds() - start);
	}
	for (int i = 0; i < 200; i++) gtMap_RandomPoint(map, &rng, &knn_points[i], NULL);
	for (int64_t i = 0; i < gtMap_FreeCells(map) / 100; i++) { // 1% of the free cells hold objects
		gtObjectId id;
		gtVec2 at;
		gtMap_RandomPoint(map, &rng, &at, NULL);
		gtWorld_Add(world, at, NULL, 0, &id, NULL);
	}
	cpu_pass(s.query, map, pairs, (int)queries, &stat, NULL, NULL, &stat_cpu);
	time_knn(world, s.query, map, knn_points, 200, &knn_static);

	// Walls built and doors closed: the index stays a lower bound.
	Totals edit = {0}, door = {0}, after = {0}, crossing = {0}, clear = {0}, clear_mixed = {0}, knn_after = {0};
	for (long e = 0; e < edits; e++) {
		bool is_door = e % 2 == 1;
		int w = is_door ? 3 : 4, h = is_door ? 1 : 4, x, y;
		if (!find_block(map, &rng, w, h, false, &x, &y)) break;
		double start = gtNowSeconds();
		gtStatus st = gtNav_SetBlocked(s.nav, x, y, x + w - 1, y + h - 1, true, &err);
		add(is_door ? &door : &edit, gtNowSeconds() - start);
		if (st) {
			fprintf(stderr, "gridtree bench-edits: %s\n", err.message);
			code = CLI_FAILED;
			goto done;
		}
		time_pairs(s.query, map, pairs, (int)queries, &after, &crossing, &clear, &clear_mixed);
		time_knn(world, s.query, map, knn_points, 200, &knn_after);
		gtNav_SetBlocked(s.nav, x, y, x + w - 1, y + h - 1, false, NULL); // as it was: exact again
	}

	// Walls demolished: the oracle answers until the rebuild.
	Totals free_edit = {0}, after_free = {0};
	for (long e = 0; e < (edits < 4 ? edits : 4); e++) {
		int x, y;
		if (!find_block(map, &rng, 2, 2, true, &x, &y)) break;
		double start = gtNowSeconds();
		gtNav_SetBlocked(s.nav, x, y, x + 1, y + 1, false, NULL);
		add(&free_edit, gtNowSeconds() - start);
		time_pairs(s.query, map, pairs, (int)(queries < 200 ? queries : 200), &after_free, NULL, NULL, NULL);
		gtNav_SetBlocked(s.nav, x, y, x + 1, y + 1, true, NULL);
	}
	double start = gtNowSeconds();
	gtStatus st = gtNav_RebuildIndex(s.nav, NULL, false, &err);
	double rebuild = gtNowSeconds() - start;
	if (st) {
		fprintf(stderr, "gridtree bench-edits: %s\n", err.message);
		code = CLI_FAILED;
		goto done;
	}
	if (!time_repairs(s.nav, s.query, map, &rng, pairs, (int)queries, edits < REPAIRS ? (int)edits : REPAIRS,
	                  &repairs)) {
		gtNav_RebuildStatus(s.nav, &err);
		fprintf(stderr, "gridtree bench-edits: the index did not come back exact after an edit: %s\n", err.message);
		code = CLI_FAILED;
		goto done;
	}
	double all_ms[KINDS * REPAIRS];
	int all_count = 0;
	for (int k = 0; k < KINDS; k++)
		for (int i = 0; i < repairs.count[k]; i++) all_ms[all_count++] = repairs.ms[k][i];
	printf("queries %ld\nedits %ld\n", queries, edit.count + door.count);
	printf("query_us_static %.3f\nquery_us_static_cold %.3f\n", micro(&stat), micro(&stat_cold));
	printf("edit_us %.1f\ndoor_edit_us %.1f\n", micro(&edit), micro(&door));
	printf("query_us_after_block %.3f\nquery_us_not_crossing %.3f\nquery_us_not_crossing_mixed %.3f\n", micro(&after),
	       micro(&clear), micro(&clear_mixed));
	printf("query_us_crossing %.3f\ncrossing_queries %ld\n", micro(&crossing), crossing.count);
	printf("knn_us_static %.3f\nknn_us_after_block %.3f\n", micro(&knn_static), micro(&knn_after));
	printf("free_edit_us %.1f\nquery_us_after_free %.3f\n", micro(&free_edit), micro(&after_free));
	printf("rebuild_ms %.1f\n", rebuild * 1e3);
	printf("repair_ms %.1f\nrepair_ms_block %.1f\nrepair_ms_door %.1f\nrepair_ms_free %.1f\n",
	       median(all_ms, all_count), median(repairs.ms[0], repairs.count[0]), median(repairs.ms[1], repairs.count[1]),
	       median(repairs.ms[2], repairs.count[2]));
	printf("query_us_after_repair %.3f\nquery_us_after_repair_cold %.3f\n", micro(&repairs.after),
	       micro(&repairs.after_cold));
	printf("query_us_static_p50 %.3f\nquery_us_after_repair_p50 %.3f\ndoor_crossing_us_p50 %.3f\n", median_micro(&stat),
	       median_micro(&repairs.after), median_micro(&repairs.door_crossing));
	printf("door_crossing_us %.3f\ndoor_crossing_us_cold %.3f\ndoor_crossing_queries %ld\n",
	       micro(&repairs.door_crossing), micro(&repairs.door_crossing_cold), repairs.door_crossing.count);
	printf("door_crossing_us_open %.3f\ndoor_crossing_us_open_p50 %.3f\n", micro(&repairs.door_crossing_open),
	       median_micro(&repairs.door_crossing_open));
	printf("door_indexes %d\ndoor_index_ms %.1f\ndoor_index_bytes %lld\n", repairs.door_indexes, repairs.door_index_ms,
	       (long long)repairs.door_index_bytes);
	printf("background_cpu_ms_while_timed %.1f\n", fmax(0, repairs.background_ms)); // clocks read a moment apart
	printf("cpu_us_static %.3f\ncpu_us_after_repair %.3f\ncpu_us_door_closed %.3f\n", micro(&stat_cpu),
	       micro(&repairs.after_cpu), micro(&repairs.door_cpu));
done:
	free(pairs);
	free(stat.sample);
	free(repairs.after.sample);
	free(repairs.door_crossing.sample);
	free(repairs.door_crossing_open.sample);
	gtWorld_Destroy(world);
	cli_nav_close(&s);
	return code;
}

static const CliOption OPTIONS[] = {
    CLI_OPTION_EHL(true),
    {"edits", "N", NULL, false, "walls built and doors closed, 1 to 100000 (default 20)"},
    {"queries", "N", NULL, false, "point-to-point queries timed around each edit, 1 to 10000000 (default 1000)"},
    {"seed", "S", NULL, false, "the random seed (default 1)"},
    CLI_OPTION_THREADS,
    {0},
};

const CliCommand cli_cmd_bench_edits = {
    "bench-edits", "MAP",       "what map edits cost: walls built, doors closed, walls removed", NULL, OPTIONS,
    true,          bench_edits,
};
