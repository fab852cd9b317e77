// gridtree ehl-build: build and save an EHL index, with progress on stderr.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

// Query points of a workload: the starts and goals of a MovingAI .scen file, or the numbers of
// other lines taken two by two ('x y' or 'sx sy tx ty'). NULL with a message when unreadable.
static gtVec2* read_workload(const char* path, int64_t* count)
{
	FILE* f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "gridtree ehl-build: cannot open workload %s\n", path);
		return NULL;
	}
	gtVec2* points = NULL;
	int64_t n = 0, capacity = 0;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		double v[8];
		char name[1024];
		int k = 0;
		if (sscanf(line, "%lf %1023s %lf %lf %lf %lf %lf %lf", &v[0], name, &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) ==
		        8 &&
		    strchr(name, '.')) { // bucket map width height sx sy gx gy: cell centres
			v[0] = v[3] + 0.5, v[1] = v[4] + 0.5, v[2] = v[5] + 0.5, v[3] = v[6] + 0.5, k = 4;
		} else {
			for (char *at = line, *end; k < 8; at = end) {
				v[k] = strtod(at, &end);
				if (end == at) break;
				k++;
			}
		}
		for (int i = 0; i + 1 < k; i += 2) {
			if (n == capacity) {
				capacity = capacity ? 2 * capacity : 1024;
				gtVec2* grown = realloc(points, (size_t)capacity * sizeof *points);
				if (!grown) break;
				points = grown;
			}
			points[n].x = v[i], points[n++].y = v[i + 1];
		}
	}
	fclose(f);
	*count = n;
	if (!points) points = malloc(sizeof *points);
	return points;
}

// Before a long build: what it will likely take (gtEhl_EstimateQuick: seconds, no labels of the map),
// and whether a budget is too small for the build's peak to stay within twice it.
static void print_estimate(const gtMap* map, int cell, double budget)
{
	int sizes[] = {cell, 1, 2, 4, 8, 16, 32, 64}, count = cell > 0 ? 1 : 7;
	int64_t bytes[8];
	gtEhlQuickEstimate guess;
	gtError err;
	if (gtEhl_EstimateQuick(map, cell > 0 ? sizes : sizes + 1, count, bytes, &guess, &err)) return; // only a hint
	fprintf(stderr, "estimate: %d corners, about %.3g label entries, labels about %.0f s on one thread; index",
	        guess.corners, guess.label_entries, guess.label_seconds);
	for (int k = 0; k < count; k++)
		fprintf(stderr, "%s about %.0f MB at cell %d", k ? "," : "", (double)bytes[k] / 1e6,
		        cell > 0 ? cell : sizes[k + 1]);
	fprintf(stderr, "\n");
	if (budget > 0 && budget < guess.least_budget_mb)
		fprintf(stderr,
		        "warning: the index will hold %g MB, but the process's peak memory (the program and the map "
		        "included) stays within twice a budget only from about %.3g MB up on this map (the program, the map, "
		        "its hub labels and the build's tuples do not shrink with the budget)\n",
		        budget, guess.least_budget_mb);
}

static int ehl_build(const CliArgs* args)
{
	long cell, threads;
	if (!cli_int_option(args, "ehl-build", "cell", 4, 1, GT_EHL_MAX_CELL_SIZE, &cell) ||
	    !cli_int_option(args, "ehl-build", "threads", 0, 0, GT_MAX_THREADS, &threads))
		return CLI_USAGE;
	const char* output = cli_option(args, "o", NULL);
	const char* budget_text = cli_option(args, "budget", NULL);
	if (budget_text && cli_option(args, "cell", NULL)) {
		fprintf(stderr, "gridtree ehl-build: give either --cell or --budget, not both\n");
		return CLI_USAGE;
	}
	double budget = 0;
	if (budget_text) {
		char* end;
		budget = strtod(budget_text, &end);
		if (*end || end == budget_text || !(budget > 0) || budget > 1e7) {
			fprintf(stderr, "gridtree ehl-build: --budget must be a positive number of megabytes, got '%s'\n",
			        budget_text);
			return CLI_USAGE;
		}
	}
	gtMap* map;
	int opened = cli_open_map(args, "ehl-build", args->positional[0], &map, NULL);
	if (opened) return opened;
	gtProgressPrinter progress = gtProgressPrinter_Make(stderr); // a bar on a terminal, lines in logs
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = (int)cell;
	def.budget_mb = budget;
	def.threads = (int)threads;
	def.progress = gtProgressPrinter_Report;
	def.progress_user = &progress;
	def.uniform = cli_option(args, "uniform", NULL) != NULL;
	def.allow_high_peak = cli_option(args, "allow-high-peak", NULL) != NULL;
	const char* workload_file = cli_option(args, "workload", NULL);
	gtVec2* workload = NULL;
	if (workload_file && !(workload = read_workload(workload_file, &def.workload_count))) {
		gtMap_Destroy(map);
		return CLI_FAILED;
	}
	def.workload = workload;
	gtEhlLink* links = NULL;
	int link_count = 0;
	const char* links_file = cli_option(args, "links", NULL);
	if (links_file && !cli_index_links(map, links_file, &links, &link_count)) {
		gtMap_Destroy(map);
		return CLI_FAILED;
	}
	gtEhl* ehl;
	gtError err;
	print_estimate(map, budget > 0 ? 0 : (int)cell, budget);
	gtStatus st = gtEhl_BuildWithLinks(map, &def, links, link_count, &ehl, &err);
	free(links);
	free(workload);
	gtProgressPrinter_Finish(&progress);
	if (st) {
		fprintf(stderr, "gridtree ehl-build: %s\n", err.message);
		gtMap_Destroy(map);
		return CLI_FAILED;
	}
	gtEhlStats s = gtEhl_GetStats(ehl);
	if (budget > 0 && s.regions)
		fprintf(stderr, "budget %g MB: %lld regions of cells of size %d", budget, (long long)s.regions, s.cell_size);
	else if (budget > 0)
		fprintf(stderr, "budget %g MB: chose cell size %d (estimated before building)", budget, s.cell_size);
	if (budget > 0) fprintf(stderr, "; the build held %.2f MB at its peak\n", (double)s.peak_bytes / 1e6);
	// The budget bounds the index; the build also holds the program, the map, its hub labels and
	// the tuples, which do not shrink with it (docs/big-maps.md "Peak memory"). The rest of the peak
	// grows about 1.25 bytes a byte of budget (ehl_estimate.c), hence the least budget it holds to.
	double peak = s.peak_rss_mb * 1.048576; // MiB (VmHWM) in the budget's MB of 10^6 bytes
	if (budget > 0 && peak > 2 * budget)
		fprintf(stderr,
		        "note: the process's peak memory %.1f MB (the program and the map included, and the heap's "
		        "overhead) is above twice the budget (%g MB); the build's own was %.2f MB; the process's would stay "
		        "within twice a budget from about %.3g MB up\n",
		        peak, budget, (double)s.peak_bytes / 1e6, (peak - 1.25 * budget) / 0.75);
	st = gtEhl_Save(ehl, output, &err);
	if (st) {
		fprintf(stderr, "gridtree ehl-build: %s\n", err.message);
	} else {
		printf("cell_size %d\n", s.cell_size);
		printf("convex_vertices %d\n", s.convex_vertices);
		if (link_count) printf("links %d\n", link_count);
		printf("vg_edges %lld\n", (long long)s.vg_edges);
		printf("label_entries %lld\n", (long long)s.label_entries);
		printf("useful_label_entries %lld\n", (long long)s.useful_entries);
		printf("cells %lld\n", (long long)s.cells);
		if (s.regions) printf("regions %lld\n", (long long)s.regions);
		printf("cell_vertex_pairs %lld\n", (long long)s.cell_vertex_pairs);
		printf("candidate_vias %lld\n", (long long)s.candidate_vias);
		printf("hub_entries %lld\n", (long long)s.hub_entries);
		printf("via_labels %lld\n", (long long)s.via_labels);
		printf("full_vias %lld\n", (long long)s.full_vias);
		printf("partial_vias %lld\n", (long long)s.partial_vias);
		printf("index_bytes %lld\n", (long long)s.index_bytes);
		printf("build_seconds %.3f\n", s.build_seconds);
		printf("peak_rss_mb %.1f\n", s.peak_rss_mb);
	}
	gtEhl_Destroy(ehl);
	gtMap_Destroy(map);
	return st ? CLI_FAILED : CLI_OK;
}

static const CliOption OPTIONS[] = {
    {"o", "FILE", NULL, true, "the index file to write"},
    {"cell", "G", NULL, false, "the EHL cell side, 1 to 4096 (default 4): smaller is faster to query and bigger"},
    {"budget", "MB", NULL, false,
     "instead of --cell: an index of at most MB megabytes, fine cells merged into regions until it fits"},
    {"uniform", NULL, NULL, false, "with --budget: the smallest power-of-two cell whose index fits, no regions"},
    {"allow-high-peak", NULL, NULL, false,
     "with --budget: build even when the build holds more than twice the budget at once (by default it stops "
     "with an error naming the least budget that holds)"},
    {"workload", "FILE", NULL, false,
     "with --budget: query points (a .scen file, or 'x y' / 'sx sy tx ty' lines); regions stay fine there"},
    CLI_OPTION_THREADS,
    {"links", "FILE", NULL, false,
     "'ax ay bx by cost' lines: two-way links the index knows (queries with the same --links use it as it is)"},
    {0},
};

const CliCommand cli_cmd_ehl_build = {
    "ehl-build",
    "MAP",
    "build and save an EHL index; print its statistics",
    "Progress goes to stderr: a bar on a terminal, lines otherwise.",
    OPTIONS,
    true,
    ehl_build,
};
