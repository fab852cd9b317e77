// gridtree bench-neighbours: the query sphere paper's benchmark (Brodu 2007, section 5) on this
// machine: a 16x16x16 world of unit cells, objects moved then each finding its neighbours within
// d, 30 rounds, open and wrapping; each method's time over the cube's across d and objects per
// cell, the k-nearest figure, Auto beside the fastest method, and a game's frame (10,000 agents,
// about 10 neighbours each, on 2 workers) in 2D and 3D.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

enum { METHODS = GT_NEIGHBOURS_METHOD_COUNT };

typedef struct Bench {
	gtNeighbours* nb;
	gtNeighbourId* ids;
	double (*pos)[3];
	int count, dims;
	double size;
	gtNeighbour* out;
	gtRandom rng;
} Bench;

static bool bench_open(Bench* b, int dims, double size, double cell, unsigned wrap, int count, uint64_t seed)
{
	memset(b, 0, sizeof *b);
	gtNeighboursDef def = {
	    .dimensions = dims, .size = {size, size, size}, .wrap = wrap, .cell = cell, .capacity = count};
	gtError err;
	if (gtNeighbours_Create(&def, &b->nb, &err)) {
		fprintf(stderr, "gridtree bench-neighbours: %s\n", err.message);
		return false;
	}
	b->ids = malloc((size_t)count * sizeof *b->ids);
	b->pos = malloc((size_t)count * sizeof *b->pos);
	b->out = malloc((size_t)(count + 1) * sizeof *b->out);
	if (!b->ids || !b->pos || !b->out) return false;
	b->count = count;
	b->dims = dims;
	b->size = size;
	b->rng = (gtRandom){seed};
	for (int i = 0; i < count; i++) {
		for (int a = 0; a < 3; a++) b->pos[i][a] = a < dims ? gtRandom_Unit(&b->rng) * size : 0;
		if (gtNeighbours_Add(b->nb, b->pos[i], &b->ids[i], NULL)) return false;
	}
	return true;
}

static void bench_close(Bench* b)
{
	gtNeighbours_Destroy(b->nb);
	free(b->ids);
	free(b->pos);
	free(b->out);
}

// Every object takes a step of up to `step` per axis (kept inside an open world).
static void move_all(Bench* b, double step)
{
	for (int i = 0; i < b->count; i++) {
		for (int a = 0; a < b->dims; a++) {
			double v = b->pos[i][a] + (2 * gtRandom_Unit(&b->rng) - 1) * step;
			if (v < 0) v += b->size;
			if (v >= b->size) v -= b->size; // open worlds: a walker leaving one side enters the other
			b->pos[i][a] = v;
		}
		gtNeighbours_Move(b->nb, b->ids[i], b->pos[i], NULL);
	}
}

// CPU seconds of this thread: on a shared machine, time other processes took is left out.
static double thread_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// Seconds for `queries` objects (the first ones) to find their neighbours by one method.
static double time_queries(Bench* b, gtNeighbourMethod m, int queries, double d, int k, int64_t* answers)
{
	double start = thread_seconds();
	for (int i = 0; i < queries; i++) {
		gtNeighbourQuery q = {{b->pos[i][0], b->pos[i][1], b->pos[i][2]}, d, k, b->ids[i], true};
		int found;
		gtNeighbours_Query(b->nb, &q, m, b->out, b->count, &found, NULL, NULL);
		*answers += found;
	}
	return thread_seconds() - start;
}

static int by_double(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

typedef struct Point {
	double seconds[METHODS];    // per query
	double feature[METHODS][4]; // the cost model's setup, cells, points and answers for each method
	gtNeighbourMethod chosen;
	bool agree; // every method found as many answers
} Point;

// The cost model's terms for a query: Auto's estimate with one unit weight at a time.
static void model_terms(gtNeighbours* nb, const gtNeighbourQuery* q, Point* pt)
{
	for (int term = 0; term < 4; term++) {
		gtNeighbourCosts unit = {0};
		double* weights[4] = {unit.setup, unit.cell, unit.point, unit.answer};
		for (int m = 0; m < METHODS; m++) weights[term][m] = 1;
		gtNeighbours_SetCosts(nb, &unit, NULL);
		gtNeighbourStats stats;
		int found;
		gtNeighbours_Query(nb, q, GT_NEIGHBOURS_AUTO, NULL, 0, &found, &stats, NULL);
		for (int m = 0; m < METHODS; m++) pt->feature[m][term] = stats.estimate[m];
	}
	gtNeighbours_SetCosts(nb, NULL, NULL);
}

// One point of the figures: each method's time per query over `rounds` rounds of move-then-query
// in the paper's world (16^3 unit cells).
static Point figure_point(int dims, unsigned wrap, double load, double d, int k, int rounds, int queries,
                          const gtNeighbourCosts* costs)
{
	Point pt = {.agree = true};
	Bench b;
	int side = dims == 3 ? 16 : 64;
	int count = (int)(load * pow(side, dims));
	if (!bench_open(&b, dims, side, 1, wrap, count, 7)) {
		bench_close(&b);
		pt.agree = false;
		return pt;
	}
	if (costs) gtNeighbours_SetCosts(b.nb, costs, NULL);
	if (queries > count) queries = count;
	int64_t answers[METHODS] = {0};
	double per_round[METHODS][64];
	if (rounds > 64) rounds = 64;
	for (int r = 0; r < rounds; r++) {
		move_all(&b, 0.5);
		int order[METHODS]; // a new order each round: no method always runs after the one that
		for (int j = 0; j < METHODS; j++) order[j] = j; // cools the caches most (brute force)
		for (int j = METHODS - 1; j > 0; j--) {
			int o = gtRandom_Below(&b.rng, j + 1), t = order[j];
			order[j] = order[o];
			order[o] = t;
		}
		for (int j = 0; j < METHODS; j++) {
			int m = order[j];
			per_round[m][r] = time_queries(&b, (gtNeighbourMethod)m, queries, d, k, &answers[m]);
		}
	}
	for (int m = 0; m < METHODS; m++) { // the median round: a round another process disturbed is left out
		qsort(per_round[m], (size_t)rounds, sizeof **per_round, by_double);
		pt.seconds[m] = per_round[m][rounds / 2] / queries;
		pt.agree &= answers[m] == answers[0];
	}
	gtNeighbourStats stats;
	gtNeighbourQuery q = {{b.pos[0][0], b.pos[0][1], b.pos[0][2]}, d, k, b.ids[0], false};
	int found;
	gtNeighbours_Query(b.nb, &q, GT_NEIGHBOURS_AUTO, b.out, b.count, &found, &stats, NULL);
	pt.chosen = stats.method;
	if (!costs) model_terms(b.nb, &q, &pt);
	bench_close(&b);
	return pt;
}

static double fastest(const Point* pt)
{
	double best = INFINITY;
	for (int m = GT_NEIGHBOURS_SPHERE; m < METHODS; m++)
		if (pt->seconds[m] < best) best = pt->seconds[m];
	return best;
}

typedef struct Totals {
	int points, auto_over, disagree;
	double auto_worst;
} Totals;

static void tally(Totals* t, const Point* pt)
{
	double ratio = pt->seconds[GT_NEIGHBOURS_AUTO] / fastest(pt);
	t->points++;
	t->auto_over += ratio > 1.2;
	t->disagree += !pt->agree;
	if (ratio > t->auto_worst) t->auto_worst = ratio;
}

// Least squares of seconds on the model's terms, per method (weights clamped at 0): Auto's
// weights for this machine.
enum { TERMS = 4 };
static void fit(const Point* pts, int n, gtNeighbourCosts* out)
{
	*out = (gtNeighbourCosts){0};
	for (int m = GT_NEIGHBOURS_SPHERE; m < METHODS; m++) {
		bool use[TERMS] = {true, m != GT_NEIGHBOURS_BRUTE, true, true}; // brute force visits no cells
		double w[TERMS] = {0};
		for (int pass = 0; pass < TERMS; pass++) {
			double a[TERMS][TERMS + 1] = {{0}};
			for (int i = 0; i < n; i++) {
				const double* f = pts[i].feature[m];
				double scale = 1 / (pts[i].seconds[m] * 1e9 + 1); // relative error counts, not ns
				for (int r = 0; r < TERMS; r++) {
					for (int c = 0; c < TERMS; c++) a[r][c] += f[r] * f[c] * scale * scale;
					a[r][TERMS] += f[r] * pts[i].seconds[m] * 1e9 * scale * scale;
				}
			}
			for (int r = 0; r < TERMS; r++)
				if (!use[r]) {
					for (int c = 0; c <= TERMS; c++) a[r][c] = 0;
					for (int c = 0; c < TERMS; c++) a[c][r] = 0;
					a[r][r] = 1;
				}
			for (int c = 0; c < TERMS; c++) { // Gauss-Jordan
				int p = c;
				for (int r = c + 1; r < TERMS; r++)
					if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
				for (int x = 0; x <= TERMS; x++) {
					double t = a[c][x];
					a[c][x] = a[p][x];
					a[p][x] = t;
				}
				if (fabs(a[c][c]) < 1e-300) continue;
				for (int r = 0; r < TERMS; r++)
					if (r != c) {
						double f = a[r][c] / a[c][c];
						for (int x = c; x <= TERMS; x++) a[r][x] -= f * a[c][x];
					}
			}
			bool again = false;
			for (int r = 0; r < TERMS; r++) {
				w[r] = use[r] && fabs(a[r][r]) > 1e-300 ? a[r][TERMS] / a[r][r] : 0;
				if (w[r] < 0) use[r] = false, again = true, w[r] = 0;
			}
			if (!again) break;
		}
		out->setup[m] = w[0];
		out->cell[m] = w[1];
		out->point[m] = w[2];
		out->answer[m] = w[3];
	}
}

typedef struct Setup {
	bool quick, calibrate;
	int rounds, queries;
	Point* all; // every figure point, for --calibrate
	int all_count, all_room;
	Totals totals;
} Setup;

static void keep(Setup* s, const Point* pt)
{
	tally(&s->totals, pt);
	if (s->all_count < s->all_room) s->all[s->all_count++] = *pt;
}

// Figures 6 and 7: each method's time over the cube's across objects per cell and d.
static void ratio_figure(Setup* s, int dims, unsigned wrap, const char* title)
{
	static const double LOADS[] = {0.5, 1, 2, 4, 8}, DS[] = {0.8, 1.5, 2.5, 4, 6, 8};
	static const double FEW_LOADS[] = {1, 4}, FEW_DS[] = {0.8, 2.5, 6};
	static const double QUICK_LOADS[] = {1}, QUICK_DS[] = {0.8, 3};
	const double* loads = s->quick ? QUICK_LOADS : dims == 3 ? LOADS : FEW_LOADS;
	const double* ds = s->quick ? QUICK_DS : dims == 3 ? DS : FEW_DS;
	int nl = s->quick ? 1 : dims == 3 ? 5 : 2, nd = s->quick ? 2 : dims == 3 ? 6 : 3;
	printf("\n%s\n\n| objects/cell | d | sphere/cube | nonempty/cube | brute/cube | auto/cube | auto picks | "
	       "auto/fastest | cube us/query |\n|---|---|---|---|---|---|---|---|---|\n",
	       title);
	for (int l = 0; l < nl; l++)
		for (int i = 0; i < nd; i++) {
			Point pt = figure_point(dims, wrap, loads[l], ds[i], 0, s->rounds, s->queries, NULL);
			double cube = pt.seconds[GT_NEIGHBOURS_CUBE];
			printf("| %g | %g | %.2f | %.2f | %.2f | %.2f | %s | %.2f | %.2f |%s\n", loads[l], ds[i],
			       pt.seconds[GT_NEIGHBOURS_SPHERE] / cube, pt.seconds[GT_NEIGHBOURS_NONEMPTY] / cube,
			       pt.seconds[GT_NEIGHBOURS_BRUTE] / cube, pt.seconds[GT_NEIGHBOURS_AUTO] / cube,
			       gtNeighbourMethod_Name(pt.chosen), pt.seconds[GT_NEIGHBOURS_AUTO] / fastest(&pt), cube * 1e6,
			       pt.agree ? "" : " MISMATCH");
			keep(s, &pt);
			fflush(stdout);
		}
}

// Figure 8: each object's nearest neighbour within d, 1 object per cell, open world.
static void nearest_figure(Setup* s)
{
	static const double DS[] = {1, 2, 3, 4, 6, 8, 12, 16}, QUICK_DS[] = {1, 8};
	const double* ds = s->quick ? QUICK_DS : DS;
	int nd = s->quick ? 2 : 8;
	printf("\nFigure 8: nearest neighbour within d, 1 object per cell, open 16x16x16 world (us per query)\n\n"
	       "| d | sphere | cube | nonempty | brute | auto | auto picks | auto/fastest "
	       "|\n|---|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < nd; i++) {
		Point pt = figure_point(3, 0, 1, ds[i], 1, s->rounds, s->queries, NULL);
		printf("| %g | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %.2f |%s\n", ds[i],
		       pt.seconds[GT_NEIGHBOURS_SPHERE] * 1e6, pt.seconds[GT_NEIGHBOURS_CUBE] * 1e6,
		       pt.seconds[GT_NEIGHBOURS_NONEMPTY] * 1e6, pt.seconds[GT_NEIGHBOURS_BRUTE] * 1e6,
		       pt.seconds[GT_NEIGHBOURS_AUTO] * 1e6, gtNeighbourMethod_Name(pt.chosen),
		       pt.seconds[GT_NEIGHBOURS_AUTO] / fastest(&pt), pt.agree ? "" : " MISMATCH");
		keep(s, &pt);
		fflush(stdout);
	}
}

// A game's frame: every agent moves, then finds every neighbour within a radius holding about 10
// of them (QueryAll, 2 workers); the median frame in ms.
// CPU seconds of every thread of the process: what the frame costs, whatever else the machine runs.
static double process_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double frame_ms(int dims, int agents, int frames, gtNeighbourMethod method, gtNeighbourMethod* chosen,
                       double* cpu_ms)
{
	const double pi = 3.14159265358979323846, radius = 1;
	double ball = dims == 2 ? pi : 4 * pi / 3, side = pow(agents * ball / 10, 1.0 / dims);
	Bench b;
	enum { STRIDE = 32 };
	gtNeighbour* out = malloc((size_t)agents * STRIDE * sizeof *out);
	int32_t* counts = malloc((size_t)agents * sizeof *counts);
	double* times = malloc((size_t)frames * sizeof *times);
	double median = NAN;
	if (out && counts && times && bench_open(&b, dims, side, radius, 0, agents, 3)) {
		double cpu = 0;
		for (int f = 0; f < frames; f++) {
			double start = gtNowSeconds(), cpu_start = process_seconds();
			move_all(&b, 0.1);
			gtNeighboursAll all = {.radius = radius, .out = out, .stride = STRIDE, .counts = counts, .threads = 2};
			gtNeighbourStats stats;
			gtNeighbours_QueryAll(b.nb, &all, method, &stats, NULL);
			*chosen = stats.method;
			times[f] = (gtNowSeconds() - start) * 1e3;
			cpu += process_seconds() - cpu_start;
		}
		qsort(times, (size_t)frames, sizeof *times, by_double);
		median = times[frames / 2];
		*cpu_ms = cpu / frames * 1e3;
	}
	bench_close(&b);
	free(out);
	free(counts);
	free(times);
	return median;
}

static void frame_table(Setup* s)
{
	int agents = s->quick ? 2000 : 10000, frames = s->quick ? 3 : 40;
	printf(
	    "\nA frame: %d agents move, then each finds its neighbours within a radius holding about 10 "
	    "(QueryAll on 2 workers; median wall ms per frame, and CPU ms of both workers per frame)\n\n"
	    "| world | auto (picks) | auto CPU | sphere | sphere CPU | cube | cube CPU |\n|---|---|---|---|---|---|---|\n",
	    agents);
	for (int dims = 2; dims <= 3; dims++) {
		double ms[METHODS], cpu[METHODS];
		gtNeighbourMethod chosen = GT_NEIGHBOURS_AUTO, ignored;
		ms[0] = frame_ms(dims, agents, frames, GT_NEIGHBOURS_AUTO, &chosen, &cpu[0]);
		for (int m = GT_NEIGHBOURS_SPHERE; m <= GT_NEIGHBOURS_CUBE; m++)
			ms[m] = frame_ms(dims, agents, frames, (gtNeighbourMethod)m, &ignored, &cpu[m]);
		printf("| %dD | %.3f (%s) | %.3f | %.3f | %.3f | %.3f | %.3f |\n", dims, ms[0], gtNeighbourMethod_Name(chosen),
		       cpu[0], ms[1], cpu[1], ms[2], cpu[2]);
		printf("frame_ms_%dd %.3f\nframe_cpu_ms_%dd %.3f\n", dims, ms[0], dims, cpu[0]);
	}
}

static int bench_neighbours(const CliArgs* args)
{
	Setup s = {.quick = cli_option(args, "quick", NULL) != NULL,
	           .calibrate = cli_option(args, "calibrate", NULL) != NULL};
	s.rounds = s.quick ? 2 : 30;
	s.queries = s.quick ? 16 : 64;
	s.all_room = 256;
	s.all = malloc((size_t)s.all_room * sizeof *s.all);
	if (!s.all) return CLI_FAILED;
	printf("Query sphere benchmark (Brodu 2007, section 5): %d rounds, each moving every object then timing %d of "
	       "them finding their neighbours within d by each method.\n",
	       s.rounds, s.queries);
	if (!cli_option(args, "frame", NULL)) {
		ratio_figure(&s, 3, 0, "Figure 6: open 16x16x16 world, time over the cube's");
		ratio_figure(&s, 3, 7, "Figure 7: wrapping 16x16x16 world, time over the cube's");
		nearest_figure(&s);
		ratio_figure(&s, 2, 0, "2D: open 64x64 world, time over the cube's");
		ratio_figure(&s, 2, 3, "2D: wrapping 64x64 world, time over the cube's");
	}
	frame_table(&s);
	printf("auto_points %d\nauto_within_1.2x %d\nauto_worst %.2f\nmismatches %d\n", s.totals.points,
	       s.totals.points - s.totals.auto_over, s.totals.auto_worst, s.totals.disagree);
	if (s.calibrate && s.all_count > 0) {
		gtNeighbourCosts c;
		fit(s.all, s.all_count, &c);
		printf("\nfitted weights (ns): setup, cell, point, answer per method (auto, sphere, cube, nonempty, brute)\n");
		static const char* const NAMES[TERMS] = {"setup", "cell", "point", "answer"};
		const double* weights[TERMS] = {c.setup, c.cell, c.point, c.answer};
		for (int term = 0; term < TERMS; term++) {
			const double* w = weights[term];
			printf(".%s = {0, %.3g, %.3g, %.3g, %.3g},\n", NAMES[term], w[1], w[2], w[3], w[4]);
		}
	}
	free(s.all);
	return s.totals.disagree ? CLI_FAILED : CLI_OK;
}

static const CliOption OPTIONS[] = {
    {"quick", NULL, NULL, false, "a few points, 2 rounds (a smoke test)"},
    {"calibrate", NULL, NULL, false, "also fit Auto's weights to this machine's times and print them"},
    {"frame", NULL, NULL, false, "only the 10,000-agent frame"},
    {0},
};

const CliCommand cli_cmd_bench_neighbours = {
    "bench-neighbours",
    "",
    "the query sphere paper's benchmark: every method over the cube, Auto, a 10,000-agent frame",
    NULL,
    OPTIONS,
    false,
    bench_neighbours,
};
