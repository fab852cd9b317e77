// gridtree bench-living: a colony game on a living map, 60 frames per second of game time. E random
// edits a second (4x4 walls built and demolished, declared doors toggled), gtNav_Update every
// frame, and agents of two teams re-targeting their nearest enemy under a 6 ms budget a frame. A
// sample of the answers of each frame is checked, untimed, against the exact oracle of a second
// copy of the map that gets the same edits. Frames are paced to 60 a second of wall time, as a game
// waits for the display, so background rebuilds get what a game leaves them (--unpaced: back to
// back, which leaves them only the other cores). Frame times are wall time and, robust to a loaded
// machine, the CPU time of the thread that runs the frame (background rebuilds run elsewhere).
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum { DOORS = 8, FPS = 60, MAX_WALLS = 4096, MAX_PENDING = 64 };
static const double BUDGET_SECONDS = 0.006; // re-targeting per frame

typedef struct Cells {
	int x0, y0, x1, y1;
} Cells;

typedef struct Living {
	gtMap *map, *check_map;
	gtNav *nav, *check_nav;
	gtNavQuery *query, *check_query;
	gtWorld *world, *check_world;
	int32_t team_word[2], check_word[2];
	gtVec2* at; // agent positions (they stand; the map changes around them)
	int agents;
	Cells doors[DOORS];
	int door_count;
	Cells walls[MAX_WALLS]; // the walls built so far and still standing
	int wall_count;
	// The frame's edits, made on the check nav after the frame's timing (its oracle's work is not
	// the game's): cells blocked or freed, or door `door` set to `open`.
	struct Pending {
		Cells cells;
		int door;
		bool blocked, open;
	} pending[MAX_PENDING];
	int pending_count;
} Living;

// CPU seconds of the calling thread (wall seconds where the platform has no thread clock).
static double thread_cpu_seconds(void)
{
#if defined(CLOCK_THREAD_CPUTIME_ID)
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
	return gtNowSeconds();
}

static bool overlaps(const Cells* a, int x0, int y0, int x1, int y1)
{
	return !(x1 < a->x0 || x0 > a->x1 || y1 < a->y0 || y0 > a->y1);
}

// A w x h block of free cells holding no agent and no door; false after many tries.
static bool find_spot(const Living* g, gtRandom* rng, int w, int h, int* x, int* y)
{
	const gtMap* map = g->map;
	if (gtMap_Width(map) < w + 2 || gtMap_Height(map) < h + 2) return false;
	for (int tries = 0; tries < 2000; tries++) {
		*x = 1 + gtRandom_Below(rng, gtMap_Width(map) - w - 1);
		*y = 1 + gtRandom_Below(rng, gtMap_Height(map) - h - 1);
		bool ok = true;
		for (int j = 0; j < h && ok; j++)
			for (int i = 0; i < w && ok; i++) ok = !gtMap_IsBlocked(map, *x + i, *y + j);
		for (int d = 0; d < g->door_count && ok; d++) ok = !overlaps(&g->doors[d], *x - 1, *y - 1, *x + w, *y + h);
		for (int a = 0; a < g->agents && ok; a++)
			ok = !(g->at[a].x >= *x - 1 && g->at[a].x <= *x + w + 1 && g->at[a].y >= *y - 1 &&
			       g->at[a].y <= *y + h + 1);
		if (ok) return true;
	}
	return false;
}

// The check nav takes the frame's edits (untimed).
static gtStatus apply_pending(Living* g, gtError* err)
{
	gtStatus st = GT_OK;
	for (int i = 0; i < g->pending_count && !st; i++) {
		const struct Pending* p = &g->pending[i];
		const Cells* c = &p->cells;
		st = p->door >= 0 ? gtNav_SetDoor(g->check_nav, p->door, p->open, err)
		                  : gtNav_SetBlocked(g->check_nav, c->x0, c->y0, c->x1, c->y1, p->blocked, err);
	}
	g->pending_count = 0;
	return st;
}

static gtStatus note_pending(Living* g, struct Pending p, gtError* err)
{
	gtStatus st = g->pending_count == MAX_PENDING ? apply_pending(g, err) : GT_OK;
	g->pending[g->pending_count++] = p;
	return st;
}

// The same cells, blocked or free, on the timed map now and on the check map after the frame.
static gtStatus set_both(Living* g, const Cells* c, bool blocked, gtError* err)
{
	gtStatus st = gtNav_SetBlocked(g->nav, c->x0, c->y0, c->x1, c->y1, blocked, err);
	return st ? st : note_pending(g, (struct Pending){*c, -1, blocked, false}, err);
}

// One random edit: a wall built (or, a third of the time each, one of ours demolished or a door
// toggled); *edits counts it (not when there was no room for a wall).
static gtStatus random_edit(Living* g, gtRandom* rng, long* edits, gtError* err)
{
	++*edits;
	int kind = gtRandom_Below(rng, 3);
	if (kind == 1 && g->wall_count > 0) {
		int i = gtRandom_Below(rng, g->wall_count);
		Cells c = g->walls[i];
		g->walls[i] = g->walls[--g->wall_count];
		return set_both(g, &c, false, err);
	}
	if (kind == 2 && g->door_count > 0) {
		int d = gtRandom_Below(rng, g->door_count);
		bool open = !gtNav_DoorOpen(g->nav, d);
		gtStatus st = gtNav_SetDoor(g->nav, d, open, err);
		return st ? st : note_pending(g, (struct Pending){{0, 0, 0, 0}, d, false, open}, err);
	}
	int x, y;
	if (g->wall_count == MAX_WALLS || !find_spot(g, rng, 4, 4, &x, &y)) {
		--*edits;
		return GT_OK;
	}
	Cells c = {x, y, x + 3, y + 3};
	g->walls[g->wall_count++] = c;
	return set_both(g, &c, true, err);
}

static gtStatus open_nav(gtMap* map, const char* ehl, int threads, int nice, gtNav** nav, gtNavQuery** q, gtError* err)
{
	gtNavDef def = gtNav_DefaultDef();
	def.threads = threads;
	def.background_nice = nice;
	def.method = ehl ? GT_NAV_AUTO : GT_NAV_ORACLE;
	gtStatus st = gtNav_Create(map, &def, nav, err);
	if (!st && ehl) st = gtNav_LoadIndex(*nav, ehl, err);
	if (!st) st = gtNavQuery_Create(*nav, q, err);
	return st;
}

// The map, a copy of its cells for the oracle, both navs and worlds, the doors and the agents.
static gtStatus living_open(Living* g, const char* ehl, int threads, int nice, gtRandom* rng, gtError* err)
{
	int w = gtMap_Width(g->map), h = gtMap_Height(g->map);
	unsigned char* cells = malloc((size_t)w * (size_t)h);
	if (!cells) return gtError_Set(err, GT_ERR_NOMEM, "out of memory");
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			cells[(size_t)y * (size_t)w + (size_t)x] = (unsigned char)gtMap_IsBlocked(g->map, x, y);
	gtStatus st = gtMap_FromCells(w, h, cells, &g->check_map, err);
	free(cells);
	if (!st) st = open_nav(g->map, ehl, threads, nice, &g->nav, &g->query, err);
	if (!st) st = open_nav(g->check_map, NULL, threads, nice, &g->check_nav, &g->check_query, err);
	if (!st) st = gtWorld_Create(g->map, NULL, &g->world, err);
	if (!st) st = gtWorld_Create(g->check_map, NULL, &g->check_world, err);
	if (st) return st;
	for (int d = 0; d < DOORS; d++) { // declared before the agents are placed: none stands in one
		int x, y, id;
		if (!find_spot(g, rng, 3, 1, &x, &y)) break;
		g->doors[g->door_count++] = (Cells){x, y, x + 2, y};
		st = gtNav_AddDoor(g->nav, x, y, x + 2, y, &id, err);
		if (!st) st = gtNav_AddDoor(g->check_nav, x, y, x + 2, y, &id, err);
		if (st) return st;
	}
	for (int t = 0; t < 2; t++) {
		g->team_word[t] = gtWorld_Keyword(g->world, t ? "blue" : "red");
		g->check_word[t] = gtWorld_Keyword(g->check_world, t ? "blue" : "red");
	}
	for (int a = 0; a < g->agents; a++) {
		gtObjectId id;
		bool in_door;
		do {
			st = gtMap_RandomPoint(g->map, rng, &g->at[a], err);
			in_door = false;
			for (int d = 0; d < g->door_count && !st; d++)
				in_door |= overlaps(&g->doors[d], (int)g->at[a].x - 1, (int)g->at[a].y - 1, (int)g->at[a].x + 1,
				                    (int)g->at[a].y + 1);
		} while (!st && in_door);
		if (!st) st = gtWorld_Add(g->world, g->at[a], &g->team_word[a % 2], 1, &id, err);
		if (!st) st = gtWorld_Add(g->check_world, g->at[a], &g->check_word[a % 2], 1, &id, err);
		if (st) return st;
	}
	return GT_OK;
}

static void living_close(Living* g)
{
	gtWorld_Destroy(g->world);
	gtWorld_Destroy(g->check_world);
	gtNavQuery_Destroy(g->query);
	gtNavQuery_Destroy(g->check_query);
	gtNav_Destroy(g->nav);
	gtNav_Destroy(g->check_nav);
	gtMap_Destroy(g->check_map);
}

// Agent a's nearest enemy through `q` on `world` (team words `words`): its distance, +inf for none.
static gtStatus nearest_enemy(gtWorld* world, gtNavQuery* q, const int32_t* words, gtVec2 at, int a, double* out,
                              gtError* err)
{
	gtDistance d;
	gtStatus st = gtNavQuery_WorldDistance(q, &d, err);
	if (st) return st;
	gtQuery query = gtQuery_Default(at);
	query.keywords = &words[1 - a % 2];
	query.keyword_count = 1;
	gtObjectId id;
	int found;
	*out = INFINITY;
	return gtWorld_Nearest(world, &query, d, &id, out, 1, &found, NULL, err);
}

// After the game: gtNav_Update every millisecond until no rebuild runs (at most a minute), as a
// game's idle frames would: how long the index takes to be exact again once the edits stop.
static double catch_up_ms(gtNav* nav, long* repairs)
{
	double start = gtNowSeconds();
	struct timespec ms = {0, 1000000};
	while (gtNav_Rebuilding(nav) && gtNowSeconds() - start < 60) {
		*repairs += gtNav_Update(nav);
		nanosleep(&ms, NULL);
	}
	*repairs += gtNav_Update(nav);
	return (gtNowSeconds() - start) * 1e3;
}

static void wait_until(double when)
{
	for (double left = when - gtNowSeconds(); left > 0; left = when - gtNowSeconds()) {
		struct timespec pause = {(time_t)left, (long)((left - floor(left)) * 1e9)};
		nanosleep(&pause, NULL);
	}
}

static int by_value(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : x > y;
}

static int bench_living(const CliArgs* args)
{
	long agents, per_second, seconds, seed, threads, nice;
	if (!cli_int_option(args, "bench-living", "agents", 5000, 2, 1000000, &agents) ||
	    !cli_int_option(args, "bench-living", "edits-per-second", 5, 0, FPS, &per_second) ||
	    !cli_int_option(args, "bench-living", "seconds", 20, 1, 3600, &seconds) ||
	    !cli_int_option(args, "bench-living", "seed", 1, 0, 2147483647L, &seed) ||
	    !cli_int_option(args, "bench-living", "threads", 0, 0, GT_MAX_THREADS, &threads) ||
	    !cli_int_option(args, "bench-living", "background-nice", gtNav_DefaultDef().background_nice, 0, 19, &nice))
		return CLI_USAGE;
	Living g;
	memset(&g, 0, sizeof g);
	int opened = cli_open_map(args, "bench-living", args->positional[0], &g.map, NULL);
	if (opened) return opened;
	long frames = seconds * FPS;
	g.agents = (int)agents;
	g.at = malloc(sizeof *g.at * (size_t)agents);
	double* frame_ms = malloc(sizeof *frame_ms * (size_t)frames);
	double* frame_cpu_ms = malloc(sizeof *frame_cpu_ms * (size_t)frames);
	double* update_cpu_ms = malloc(sizeof *update_cpu_ms * (size_t)frames); // the frame's gtNav_Update
	double* update_ms = malloc(sizeof *update_ms * (size_t)frames);         // the same in wall time
	double edit_cpu_ms_max = 0, edit_ms_max = 0;                            // the frame's edits
	long current_frames = 0; // frames after which no rebuild was due: the index is the map's (doors aside)
	double* answer = malloc(sizeof *answer * (size_t)agents);
	gtRandom rng = {(uint64_t)seed};
	gtError err;
	gtStatus st = g.at && frame_ms && frame_cpu_ms && update_cpu_ms && update_ms && answer
	                  ? GT_OK
	                  : gtError_Set(&err, GT_ERR_NOMEM, "out of memory");
	if (!st && gtMap_FreeCells(g.map) == 0) st = gtError_Set(&err, GT_ERR_INVALID_ARG, "the map has no free cells");
	if (!st) st = living_open(&g, cli_option(args, "ehl", NULL), (int)threads, (int)nice, &rng, &err);
	long edits = 0, repairs = 0, checks = 0, mismatches = 0, retargeted = 0;
	int cursor = 0;
	double owed = 0; // edits due
	bool paced = cli_option(args, "unpaced", NULL) == NULL;
	double game_start = gtNowSeconds();
	for (long f = 0; f < frames && !st; f++) {
		if (paced) wait_until(game_start + (double)f / FPS); // a late frame starts at once
		double start = gtNowSeconds(), cpu_start = thread_cpu_seconds();
		for (owed += (double)per_second / FPS; owed >= 1 && !st; owed -= 1) st = random_edit(&g, &rng, &edits, &err);
		double edited = thread_cpu_seconds(), edited_wall = gtNowSeconds();
		repairs += gtNav_Update(g.nav);
		double updated = thread_cpu_seconds();
		update_cpu_ms[f] = (updated - edited) * 1e3;
		update_ms[f] = (gtNowSeconds() - edited_wall) * 1e3;
		if ((edited - cpu_start) * 1e3 > edit_cpu_ms_max) edit_cpu_ms_max = (edited - cpu_start) * 1e3;
		if ((edited_wall - start) * 1e3 > edit_ms_max) edit_ms_max = (edited_wall - start) * 1e3;
		int first = cursor, done = 0;
		while (!st && done < g.agents && gtNowSeconds() - start < BUDGET_SECONDS) {
			int a = (first + done++) % g.agents;
			st = nearest_enemy(g.world, g.query, g.team_word, g.at[a], a, &answer[a], &err);
		}
		cursor = (first + done) % g.agents;
		retargeted += done;
		frame_ms[f] = (gtNowSeconds() - start) * 1e3;
		frame_cpu_ms[f] = (thread_cpu_seconds() - cpu_start) * 1e3;
		current_frames += !gtNav_Rebuilding(g.nav);
		if (!st) st = apply_pending(&g, &err);
		for (int c = 0; c < 1 && done > 0 && !st; c++, checks++) { // untimed: one answer of the frame
			int a = (first + gtRandom_Below(&rng, done)) % g.agents;
			double expect;
			st = nearest_enemy(g.check_world, g.check_query, g.check_word, g.at[a], a, &expect, &err);
			bool same = isinf(expect) ? isinf(answer[a]) : fabs(answer[a] - expect) <= 1e-9 * (1 + expect);
			if (!st && !same) {
				if (mismatches++ < 5)
					fprintf(
					    stderr,
					    "gridtree bench-living: frame %ld, agent %d: nearest enemy at %.12g, the oracle says %.12g\n",
					    f, a, answer[a], expect);
			}
		}
	}
	int code = CLI_OK;
	if (st) {
		fprintf(stderr, "gridtree bench-living: %s\n", err.message);
		code = CLI_FAILED;
	} else {
		qsort(frame_ms, (size_t)frames, sizeof *frame_ms, by_value);
		qsort(frame_cpu_ms, (size_t)frames, sizeof *frame_cpu_ms, by_value);
		const char* states[] = {"none", "exact", "lower_bound", "stale"};
		printf("agents %ld\npaced %d\nframes %ld\nframe_ms_p50 %.3f\nframe_ms_p99 %.3f\nframe_ms_max %.3f\n", agents,
		       paced, frames, frame_ms[frames / 2], frame_ms[frames * 99 / 100], frame_ms[frames - 1]);
		printf("frame_cpu_ms_p50 %.3f\nframe_cpu_ms_p99 %.3f\nframe_cpu_ms_max %.3f\n", frame_cpu_ms[frames / 2],
		       frame_cpu_ms[frames * 99 / 100], frame_cpu_ms[frames - 1]);
		qsort(update_cpu_ms, (size_t)frames, sizeof *update_cpu_ms, by_value);
		qsort(update_ms, (size_t)frames, sizeof *update_ms, by_value);
		printf("update_cpu_ms_p99 %.3f\nupdate_cpu_ms_max %.3f\nedit_cpu_ms_max %.3f\n",
		       update_cpu_ms[frames * 99 / 100], update_cpu_ms[frames - 1], edit_cpu_ms_max);
		printf("update_ms_p99 %.3f\nupdate_ms_max %.3f\nedit_ms_max %.3f\n", update_ms[frames * 99 / 100],
		       update_ms[frames - 1], edit_ms_max);
		printf("retargets_per_frame %.1f\nedits %ld\nrepairs %ld\nexact_checks %ld\nmismatches %ld\n",
		       (double)retargeted / (double)frames, edits, repairs, checks, mismatches);
		printf("index_current_frames_pct %.1f\nindex_state_at_end %s\n",
		       100.0 * (double)current_frames / (double)frames, states[gtNav_IndexState(g.nav)]);
		long late = 0;
		double caught = catch_up_ms(g.nav, &late);
		printf("catch_up_ms %.1f\nrepairs_catching_up %ld\nindex_state_after_catch_up %s\n", caught, late,
		       states[gtNav_IndexState(g.nav)]);
		if (mismatches) code = CLI_FAILED;
	}
	living_close(&g);
	gtMap_Destroy(g.map);
	free(g.at);
	free(frame_ms);
	free(frame_cpu_ms);
	free(update_cpu_ms);
	free(update_ms);
	free(answer);
	return code;
}

static const CliOption OPTIONS[] = {
    CLI_OPTION_EHL(true),
    {"agents", "N", NULL, false, "agents, half of each team, 2 to 1000000 (default 5000)"},
    {"edits-per-second", "E", NULL, false, "random edits per second of game time, 0 to 60 (default 5)"},
    {"seconds", "S", NULL, false, "seconds of game time at 60 frames a second, 1 to 3600 (default 20)"},
    {"seed", "S", NULL, false, "the random seed (default 1)"},
    CLI_OPTION_THREADS,
    {"background-nice", "N", NULL, false,
     "nice steps of the background rebuilds below the frame, 0 to 19 (default 10)"},
    {"unpaced", NULL, NULL, false, "run the frames back to back instead of 60 a second of wall time"},
    {0},
};

const CliCommand cli_cmd_bench_living = {
    "bench-living",
    "MAP",
    "a colony game on a living map: frame times while walls are built and demolished, doors toggled",
    NULL,
    OPTIONS,
    true,
    bench_living,
};
