// The 10,000-agent frame of docs/neighbours.md on its own, for callgrind (bench/neighbours_frame.sh):
// agents in a 2D or 3D world sized so that a radius of 1 holds about 10 of them (cell = radius),
// each frame every agent takes a step of up to 0.1 per axis, then one gtNeighbours_QueryAll finds
// everyone's neighbours within the radius (the 32 nearest kept). Prints CPU ms per frame (all
// threads of the process), wall ms per frame (median and best of the frames, the moves and the
// call together, and the call alone) and a hash of the answers (equal hashes: equal answers,
// whatever the build).
// Usage: neighbours_frame DIMS FRAMES THREADS
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

#include "gridtree/gridtree.h"
#include "gridtree/gt_random.h"

enum { AGENTS = 10000, STRIDE = 32 };

int main(int argc, char** argv)
{
	int dims = argc > 1 ? atoi(argv[1]) : 2, frames = argc > 2 ? atoi(argv[2]) : 1;
	int threads = argc > 3 ? atoi(argv[3]) : 1;
	if (dims < 2 || dims > 3 || frames < 1 || threads < 1) {
		fprintf(stderr, "usage: neighbours_frame DIMS FRAMES THREADS\n");
		return 2;
	}
	const double pi = 3.14159265358979323846, radius = 1;
	double ball = dims == 2 ? pi : 4 * pi / 3, side = pow(AGENTS * ball / 10, 1.0 / dims);
	gtNeighboursDef def = {.dimensions = dims, .size = {side, side, side}, .cell = radius, .capacity = AGENTS};
	gtNeighbours* nb;
	gtError err;
	if (gtNeighbours_Create(&def, &nb, &err)) {
		fprintf(stderr, "neighbours_frame: %s\n", err.message);
		return 1;
	}
	gtRandom rng = {3};
	static gtNeighbourId ids[AGENTS];
	static double pos[AGENTS][3];
	for (int i = 0; i < AGENTS; i++) {
		for (int a = 0; a < dims; a++) pos[i][a] = gtRandom_Unit(&rng) * side;
		gtNeighbours_Add(nb, pos[i], &ids[i], NULL);
	}
	static gtNeighbour out[AGENTS * STRIDE];
	static int32_t counts[AGENTS];
	unsigned long long hash = 0, answers = 0;
	double cpu = 0, *wall = malloc(2 * (size_t)frames * sizeof *wall), *call = wall + frames;
	for (int f = 0; f < frames; f++) {
		double start = seconds(CLOCK_PROCESS_CPUTIME_ID), wall_start = seconds(CLOCK_MONOTONIC);
		for (int i = 0; i < AGENTS; i++) {
			for (int a = 0; a < dims; a++) {
				double v = pos[i][a] + (2 * gtRandom_Unit(&rng) - 1) * 0.1;
				pos[i][a] = v < 0 ? v + side : v >= side ? v - side : v;
			}
			gtNeighbours_Move(nb, ids[i], pos[i], NULL);
		}
		double call_start = seconds(CLOCK_MONOTONIC);
		gtNeighboursAll all = {.radius = radius, .out = out, .stride = STRIDE, .counts = counts, .threads = threads};
		if (gtNeighbours_QueryAll(nb, &all, GT_NEIGHBOURS_AUTO, NULL, &err)) {
			fprintf(stderr, "neighbours_frame: %s\n", err.message);
			return 1;
		}
		double end = seconds(CLOCK_MONOTONIC);
		cpu += seconds(CLOCK_PROCESS_CPUTIME_ID) - start;
		wall[f] = end - wall_start;
		call[f] = end - call_start;
		for (int i = 0; i < AGENTS; i++)
			for (int j = 0; j < counts[i]; j++, answers++)
				hash = hash * 1000003u + out[i * STRIDE + j].id +
				       (unsigned long long)(out[i * STRIDE + j].distance * 1e12);
	}
	qsort(wall, (size_t)frames, sizeof *wall, by_value);
	qsort(call, (size_t)frames, sizeof *call, by_value);
	printf("dims %d threads %d frames %d cpu_ms_per_frame %.3f answers_per_frame %llu hash %016llx"
	       " wall_ms_median %.3f wall_ms_best %.3f call_ms_median %.3f call_ms_best %.3f\n",
	       dims, threads, frames, cpu * 1e3 / frames, answers / (unsigned long long)frames, hash,
	       wall[frames / 2] * 1e3, wall[0] * 1e3, call[frames / 2] * 1e3, call[0] * 1e3);
	free(wall);
	gtNeighbours_Destroy(nb);
	return 0;
}
