// gridtree workload: a seeded moving-object workload in the paper's manner (docs/algorithms.md 8):
// objects at a density of the free cells with keyword sets drawn from a game's item list, walking
// 1 unit per timestamp along EHL shortest paths towards random targets, queries with keywords
// taken from a random object.
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "workload.h"

typedef struct Rng {
	uint64_t state;
} Rng;

static uint64_t rng_next(Rng* r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int rng_int(Rng* r, int n)
{
	return n <= 1 ? 0 : (int)(rng_next(r) % (uint64_t)n);
}

static double rng_unit(Rng* r)
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

typedef struct Item {
	int count;
	char** words;
} Item;

typedef struct Walker {
	bool live;
	int id, word_count;
	const char* words[WL_MAX_WORDS];
	gtVec2 at;
	gtVec2* path; // remaining waypoints towards the target
	int path_count, path_next;
} Walker;

typedef struct Gen {
	const gtMap* map;
	gtEhlQuery* ehl;
	Rng rng;
	int32_t* free_cells;
	int free_count;
	int clusters;            // 0: uniform
	int (*rects)[4];          // x0 y0 x1 y1 (exclusive), 1% of the area each
	Item* items;
	int item_count;
	gtVec2* scratch;
	int scratch_capacity;
} Gen;

// A random point of the free space, inside a random cluster rectangle when there are clusters.
static gtVec2 random_point(Gen* g)
{
	int w = gtMap_Width(g->map);
	for (;;) {
		int cx, cy;
		if (g->clusters > 0) {
			int* r = g->rects[rng_int(&g->rng, g->clusters)];
			cx = r[0] + rng_int(&g->rng, r[2] - r[0]);
			cy = r[1] + rng_int(&g->rng, r[3] - r[1]);
			if (gtMap_IsBlocked(g->map, cx, cy)) continue;
		} else {
			int32_t c = g->free_cells[rng_int(&g->rng, g->free_count)];
			cx = c % w, cy = c / w;
		}
		// A 1/1024 grid keeps the files short and every coordinate exact.
		gtVec2 p = {cx + rng_int(&g->rng, 1024) / 1024.0, cy + rng_int(&g->rng, 1024) / 1024.0};
		return p;
	}
}

// A new target reachable from the walker; false after 20 unreachable tries (the walker waits).
static bool new_target(Gen* g, Walker* o)
{
	for (int attempt = 0; attempt < 20; attempt++) {
		gtVec2 target = random_point(g);
		int count;
		double d;
		if (gtEhl_Path(g->ehl, o->at, target, g->scratch, g->scratch_capacity, &count, &d, NULL) || count < 2) continue;
		gtVec2* path = realloc(o->path, (size_t)count * sizeof *path);
		if (!path) return false;
		memcpy(path, g->scratch, (size_t)count * sizeof *path);
		o->path = path;
		o->path_count = count;
		o->path_next = 1;
		return true;
	}
	o->path_count = 0;
	return false;
}

// One unit along the path (across bends); a walker that arrives picks its next target.
static void walk(Gen* g, Walker* o)
{
	double left = 1.0;
	while (left > 0 && o->path_next < o->path_count) {
		gtVec2 to = o->path[o->path_next];
		double dx = to.x - o->at.x, dy = to.y - o->at.y, len = sqrt(dx * dx + dy * dy);
		if (len <= left) {
			o->at = to;
			left -= len;
			o->path_next++;
		} else {
			o->at.x += dx * left / len;
			o->at.y += dy * left / len;
			left = 0;
		}
	}
	if (o->path_next >= o->path_count) new_target(g, o);
}

static void random_words(Gen* g, Walker* o)
{
	const Item* item = &g->items[rng_int(&g->rng, g->item_count)];
	int order[WL_MAX_WORDS * 4], n = item->count < WL_MAX_WORDS ? item->count : WL_MAX_WORDS;
	for (int i = 0; i < n; i++) order[i] = i;
	o->word_count = 1 + rng_int(&g->rng, n); // a random non-empty subset of the item's words
	for (int i = 0; i < o->word_count; i++) {
		int j = i + rng_int(&g->rng, n - i), t = order[i];
		order[i] = order[j], order[j] = t;
		o->words[i] = item->words[order[i]];
	}
}

static void write_object(FILE* f, const Walker* o)
{
	fprintf(f, "%d %.17g %.17g", o->id, o->at.x, o->at.y);
	for (int i = 0; i < o->word_count; i++) fprintf(f, " %s", o->words[i]);
	fputc('\n', f);
}

static bool load_items(Gen* g, const char* path)
{
	FILE* f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "gridtree workload: %s: cannot open: %s\n", path, strerror(errno));
		return false;
	}
	char line[4096];
	int capacity = 0;
	while (fgets(line, sizeof line, f)) {
		Item item = {0, NULL};
		for (char* t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
			if (strlen(t) >= GT_WORD_BYTES) continue;
			bool seen = false; // an item may repeat a word
			for (int i = 0; i < item.count && !seen; i++) seen = strcmp(item.words[i], t) == 0;
			if (seen) continue;
			char** grown = realloc(item.words, (size_t)(item.count + 1) * sizeof *grown);
			char* copy = malloc(strlen(t) + 1);
			if (!grown || !copy) {
				free(copy);
				fclose(f);
				return false;
			}
			item.words = grown;
			item.words[item.count++] = strcpy(copy, t);
		}
		if (item.count == 0) continue;
		if (g->item_count == capacity) {
			capacity = capacity ? capacity * 2 : 64;
			g->items = realloc(g->items, (size_t)capacity * sizeof *g->items);
		}
		g->items[g->item_count++] = item;
	}
	fclose(f);
	if (g->item_count == 0) fprintf(stderr, "gridtree workload: %s: no keyword items\n", path);
	return g->item_count > 0;
}

static FILE* open_out(const char* dir, const char* name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE* f = fopen(path, "w");
	if (!f) fprintf(stderr, "gridtree workload: %s: cannot create: %s\n", path, strerror(errno));
	return f;
}

static bool double_option(const CliArgs* args, const char* name, double fallback, double lo, double hi, double* out)
{
	const char* text = cli_option(args, name, NULL);
	*out = fallback;
	if (!text) return true;
	char* end;
	*out = strtod(text, &end);
	if (*end || end == text || !(*out >= lo && *out <= hi)) {
		fprintf(stderr, "gridtree workload: --%s must be a number from %g to %g, got '%s'\n", name, lo, hi, text);
		return false;
	}
	return true;
}

int cmd_workload(int argc, char** argv)
{
	CliArgs args;
	long timestamps, queries, k, query_words, clusters, seed;
	double density, mobility, churn;
	if (!cli_parse(argc, argv, "workload",
	               "keywords density mobility timestamps queries k query-keywords clusters churn seed o ehl", &args) ||
	    !cli_int_option(&args, "workload", "timestamps", 50, 1, 100000, &timestamps) ||
	    !cli_int_option(&args, "workload", "queries", 100, 0, 1000000, &queries) ||
	    !cli_int_option(&args, "workload", "k", 3, 0, 100000, &k) ||
	    !cli_int_option(&args, "workload", "query-keywords", 2, 0, 8, &query_words) ||
	    !cli_int_option(&args, "workload", "clusters", 0, 0, 10000, &clusters) ||
	    !cli_int_option(&args, "workload", "seed", -1, 0, 2147483647L, &seed) ||
	    !double_option(&args, "density", 0.01, 1e-9, 1, &density) ||
	    !double_option(&args, "mobility", 0.7, 0, 1, &mobility) || !double_option(&args, "churn", 0, 0, 1, &churn))
		return CLI_USAGE;
	const char* keywords = cli_option(&args, "keywords", NULL);
	const char* dir = cli_option(&args, "o", NULL);
	if (args.positional_count != 1 || !keywords || !dir || seed < 0) {
		fprintf(stderr, "usage: gridtree workload MAP --keywords FILE [--density 0.01] [--mobility 0.7] [--timestamps 50]\n"
		                "       [--queries 100] [--k 3] [--query-keywords 2] [--clusters x] [--churn p] [--ehl FILE] --seed S -o DIR\n");
		return CLI_USAGE;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gridtree workload: %s: cannot create: %s\n", dir, strerror(errno));
		return CLI_FAILED;
	}
	Gen g;
	memset(&g, 0, sizeof g);
	g.rng.state = (uint64_t)seed;
	gtMap* map = cli_load_map(args.positional[0]);
	if (!map || !load_items(&g, keywords)) {
		gtMap_Destroy(map);
		return CLI_FAILED;
	}
	g.map = map;
	gtError err;
	gtEhl* ehl = NULL;
	const char* ehl_path = cli_option(&args, "ehl", NULL);
	gtEhlDef def = gtEhl_DefaultDef();
	gtStatus st = ehl_path ? gtEhl_Load(map, ehl_path, &ehl, &err) : gtEhl_Build(map, &def, &ehl, &err);
	if (!st) st = gtEhlQuery_Create(ehl, &g.ehl, &err);
	if (st) {
		fprintf(stderr, "gridtree workload: %s\n", err.message);
		gtEhl_Destroy(ehl);
		gtMap_Destroy(map);
		return CLI_FAILED;
	}
	int w = gtMap_Width(map), h = gtMap_Height(map), vertices;
	gtMap_Vertices(map, &vertices);
	g.scratch_capacity = vertices + 2;
	g.scratch = malloc((size_t)g.scratch_capacity * sizeof *g.scratch);
	g.free_cells = malloc((size_t)gtMap_FreeCells(map) * sizeof *g.free_cells);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (!gtMap_IsBlocked(map, x, y)) g.free_cells[g.free_count++] = y * w + x;
	g.clusters = (int)clusters;
	if (clusters > 0) { // rectangles of 1% of the area each, holding at least one free cell
		g.rects = malloc((size_t)clusters * sizeof *g.rects);
		int rw = (w + 9) / 10, rh = (h + 9) / 10;
		for (int i = 0; i < clusters; i++) {
			for (int attempt = 0;; attempt++) {
				int* r = g.rects[i];
				r[0] = rng_int(&g.rng, w - rw + 1), r[1] = rng_int(&g.rng, h - rh + 1), r[2] = r[0] + rw, r[3] = r[1] + rh;
				int free_inside = 0;
				for (int y = r[1]; y < r[3] && !free_inside; y++)
					for (int x = r[0]; x < r[2] && !free_inside; x++) free_inside = !gtMap_IsBlocked(map, x, y);
				if (free_inside || attempt > 1000) break;
			}
		}
	}
	int initial = (int)ceil(density * (double)g.free_count);
	int capacity = initial * 2 + 16, live = 0, next_id = 0;
	Walker* objects = calloc((size_t)capacity, sizeof *objects);
	FILE* fo = open_out(dir, "objects.txt");
	FILE* fu = open_out(dir, "updates.txt");
	FILE* fq = open_out(dir, "queries.txt");
	FILE* fm = open_out(dir, "meta.txt");
	int status = objects && fo && fu && fq && fm && g.scratch && g.free_cells ? CLI_OK : CLI_FAILED;
	long update_lines = 0, query_lines = 0;
	for (int i = 0; i < initial && status == CLI_OK; i++) {
		Walker* o = &objects[live++];
		o->live = true;
		o->id = next_id++;
		o->at = random_point(&g);
		random_words(&g, o);
		new_target(&g, o);
		write_object(fo, o);
	}
	for (long t = 0; t < timestamps && status == CLI_OK; t++) {
		if (t > 0) {
			int churn_count = (int)lround(churn / 2 * initial);
			for (int c = 0; c < churn_count && live < capacity; c++) { // insert, then delete as many
				Walker* o = &objects[live++];
				memset(o, 0, sizeof *o);
				o->live = true;
				o->id = next_id++;
				o->at = random_point(&g);
				random_words(&g, o);
				new_target(&g, o);
				fprintf(fu, "%ld insert ", t);
				write_object(fu, o);
				update_lines++;
			}
			for (int c = 0; c < churn_count && live > 0; c++) {
				int victim = rng_int(&g.rng, live);
				fprintf(fu, "%ld delete %d\n", t, objects[victim].id);
				update_lines++;
				free(objects[victim].path);
				objects[victim] = objects[--live];
			}
			for (int i = 0; i < live; i++) {
				if (rng_unit(&g.rng) >= mobility || objects[i].path_count == 0) continue;
				walk(&g, &objects[i]);
				fprintf(fu, "%ld move %d %.17g %.17g\n", t, objects[i].id, objects[i].at.x, objects[i].at.y);
				update_lines++;
			}
		}
		for (long i = 0; i < queries; i++) {
			gtVec2 p = random_point(&g);
			fprintf(fq, "%ld %.17g %.17g %ld", t, p.x, p.y, k);
			const Walker* source = NULL; // query words come from one object that has enough
			for (int attempt = 0; attempt < 200 && live > 0 && query_words > 0; attempt++) {
				const Walker* o = &objects[rng_int(&g.rng, live)];
				if (o->word_count >= query_words) {
					source = o;
					break;
				}
			}
			if (source) {
				int order[WL_MAX_WORDS];
				for (int j = 0; j < source->word_count; j++) order[j] = j;
				for (int j = 0; j < query_words; j++) {
					int pick = j + rng_int(&g.rng, source->word_count - j), tmp = order[j];
					order[j] = order[pick], order[pick] = tmp;
					fprintf(fq, " %s", source->words[order[j]]);
				}
			}
			fputc('\n', fq);
			query_lines++;
		}
	}
	if (fm)
		fprintf(fm,
		        "map %s\nkeywords %s\nseed %ld\ndensity %g\nmobility %g\ntimestamps %ld\nqueries_per_timestamp %ld\nk %ld\n"
		        "query_keywords %ld\nclusters %ld\nchurn %g\nobjects %d\nupdates %ld\nqueries %ld\n",
		        args.positional[0], keywords, seed, density, mobility, timestamps, queries, k, query_words, clusters, churn,
		        initial, update_lines, query_lines);
	FILE* files[4] = {fo, fu, fq, fm};
	for (int i = 0; i < 4; i++)
		if (files[i] && (ferror(files[i]) | fclose(files[i]))) status = CLI_FAILED;
	if (status == CLI_OK)
		printf("objects %d\nupdates %ld\nqueries %ld\ndirectory %s\n", initial, update_lines, query_lines, dir);
	else
		fprintf(stderr, "gridtree workload: could not write the workload to %s\n", dir);
	for (int i = 0; i < live; i++) free(objects[i].path);
	free(objects);
	for (int i = 0; i < g.item_count; i++) {
		for (int j = 0; j < g.items[i].count; j++) free(g.items[i].words[j]);
		free(g.items[i].words);
	}
	free(g.items);
	free(g.rects);
	free(g.free_cells);
	free(g.scratch);
	gtEhlQuery_Destroy(g.ehl);
	gtEhl_Destroy(ehl);
	gtMap_Destroy(map);
	return status;
}
