#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload_format.h"
#include "workload_gen.h"

typedef struct Item { // one line of a keyword item list: a game item's distinct words
	int count;
	char** words;
} Item;

typedef struct Walker {
	int id, word_count;
	const char* words[WL_MAX_WORDS];
	gtVec2 at;
	gtVec2* path; // towards the target; `at` lies on segment path[segment] -> path[segment + 1]
	int path_count, segment;
} Walker;

typedef struct Gen {
	const gtMap* map;
	gtNavQuery* nav;
	gtRandom rng;
	int32_t* free_cells;
	int free_count;
	int clusters;
	int (*rects)[4]; // x0 y0 x1 y1 (exclusive)
	Item* items;
	int item_count;
	gtVec2* scratch;
	int scratch_capacity;
} Gen;

WlGenDef wl_gen_default(void)
{
	WlGenDef def = {0.01, 0.7, 0, 50, 100, 3, 2, 0, 0};
	return def;
}

// A random point of the free space, inside a random cluster rectangle when there are clusters.
static gtVec2 random_point(Gen* g)
{
	int w = gtMap_Width(g->map);
	for (;;) {
		int cx, cy;
		if (g->clusters > 0) {
			int* r = g->rects[gtRandom_Below(&g->rng, g->clusters)];
			cx = r[0] + gtRandom_Below(&g->rng, r[2] - r[0]);
			cy = r[1] + gtRandom_Below(&g->rng, r[3] - r[1]);
			if (gtMap_IsBlocked(g->map, cx, cy)) continue;
		} else {
			int32_t c = g->free_cells[gtRandom_Below(&g->rng, g->free_count)];
			cx = c % w, cy = c / w;
		}
		// A 1/1024 grid keeps the files short and every coordinate exact.
		gtVec2 p = {cx + gtRandom_Below(&g->rng, 1024) / 1024.0, cy + gtRandom_Below(&g->rng, 1024) / 1024.0};
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
		if (gtNavQuery_Path(g->nav, o->at, target, g->scratch, g->scratch_capacity, &count, &d, NULL) || count < 2)
			continue;
		gtVec2* path = realloc(o->path, (size_t)count * sizeof *path);
		if (!path) return false;
		memcpy(path, g->scratch, (size_t)count * sizeof *path);
		o->path = path;
		o->path_count = count;
		o->segment = 0;
		return true;
	}
	o->path_count = 0;
	return false;
}

// One unit along the path (across bends); a walker that arrives picks its next target.
static void walk(Gen* g, Walker* o)
{
	o->at = gtPath_Advance(o->path, o->path_count, &o->segment, o->at, 1.0);
	if (o->segment >= o->path_count - 1) new_target(g, o);
}

static void random_words(Gen* g, Walker* o)
{
	const Item* item = &g->items[gtRandom_Below(&g->rng, g->item_count)];
	int order[WL_MAX_WORDS * 4], n = item->count < WL_MAX_WORDS ? item->count : WL_MAX_WORDS;
	for (int i = 0; i < n; i++) order[i] = i;
	o->word_count = 1 + gtRandom_Below(&g->rng, n); // a random non-empty subset of the item's words
	for (int i = 0; i < o->word_count; i++) {
		int j = i + gtRandom_Below(&g->rng, n - i), t = order[i];
		order[i] = order[j], order[j] = t;
		o->words[i] = item->words[order[i]];
	}
}

static void free_items(Gen* g)
{
	for (int i = 0; i < g->item_count; i++) {
		for (int j = 0; j < g->items[i].count; j++) free(g->items[i].words[j]);
		free(g->items[i].words);
	}
	free(g->items);
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
	bool ok = true;
	while (ok && fgets(line, sizeof line, f)) {
		Item item = {0, NULL};
		for (char* t = strtok(line, " \t\r\n"); t && ok; t = strtok(NULL, " \t\r\n")) {
			if (strlen(t) >= GT_WORD_BYTES) continue;
			bool seen = false; // an item may repeat a word
			for (int i = 0; i < item.count && !seen; i++) seen = strcmp(item.words[i], t) == 0;
			if (seen) continue;
			char** grown = realloc(item.words, (size_t)(item.count + 1) * sizeof *grown);
			if (grown) item.words = grown;
			char* copy = grown ? malloc(strlen(t) + 1) : NULL;
			if (copy) item.words[item.count++] = strcpy(copy, t);
			ok = copy != NULL;
		}
		if (ok && item.count > 0 && g->item_count == capacity) {
			Item* grown = realloc(g->items, (size_t)(capacity ? capacity * 2 : 64) * sizeof *grown);
			if (grown) g->items = grown, capacity = capacity ? capacity * 2 : 64;
			ok = grown != NULL;
		}
		if (ok && item.count > 0) {
			g->items[g->item_count++] = item;
		} else {
			for (int i = 0; i < item.count; i++) free(item.words[i]);
			free(item.words);
		}
	}
	fclose(f);
	if (!ok) fprintf(stderr, "gridtree workload: %s: out of memory\n", path);
	else if (g->item_count == 0) fprintf(stderr, "gridtree workload: %s: no keyword items\n", path);
	return ok && g->item_count > 0;
}

static FILE* open_out(const char* dir, const char* name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE* f = fopen(path, "w");
	if (!f) fprintf(stderr, "gridtree workload: %s: cannot create: %s\n", path, strerror(errno));
	return f;
}

// Cluster rectangles of 1% of the area each, holding at least one free cell where possible.
static bool place_clusters(Gen* g)
{
	if (g->clusters == 0) return true;
	int w = gtMap_Width(g->map), h = gtMap_Height(g->map);
	g->rects = malloc((size_t)g->clusters * sizeof *g->rects);
	if (!g->rects) return false;
	int rw = (w + 9) / 10, rh = (h + 9) / 10;
	for (int i = 0; i < g->clusters; i++) {
		for (int attempt = 0;; attempt++) {
			int* r = g->rects[i];
			r[0] = gtRandom_Below(&g->rng, w - rw + 1), r[1] = gtRandom_Below(&g->rng, h - rh + 1);
			r[2] = r[0] + rw, r[3] = r[1] + rh;
			int free_inside = 0;
			for (int y = r[1]; y < r[3] && !free_inside; y++)
				for (int x = r[0]; x < r[2] && !free_inside; x++) free_inside = !gtMap_IsBlocked(g->map, x, y);
			if (free_inside || attempt > 1000) break;
		}
	}
	return true;
}

static void spawn(Gen* g, Walker* o, int id)
{
	memset(o, 0, sizeof *o);
	o->id = id;
	o->at = random_point(g);
	random_words(g, o);
	new_target(g, o);
}

// One query line: a random point, k, and query_words words of one object that has enough.
static void write_query(Gen* g, FILE* fq, long t, const WlGenDef* def, const Walker* objects, int live)
{
	gtVec2 p = random_point(g);
	const Walker* source = NULL;
	for (int attempt = 0; attempt < 200 && live > 0 && def->query_words > 0; attempt++) {
		const Walker* o = &objects[gtRandom_Below(&g->rng, live)];
		if (o->word_count >= def->query_words) {
			source = o;
			break;
		}
	}
	const char* words[WL_MAX_WORDS];
	int count = 0;
	if (source) {
		int order[WL_MAX_WORDS];
		for (int j = 0; j < source->word_count; j++) order[j] = j;
		for (int j = 0; j < def->query_words; j++) {
			int pick = j + gtRandom_Below(&g->rng, source->word_count - j), tmp = order[j];
			order[j] = order[pick], order[pick] = tmp;
			words[count++] = source->words[order[j]];
		}
	}
	wl_write_query(fq, t, p, def->k, words, count);
}

bool wl_generate(gtNavQuery* nav, const gtMap* map, const WlGenDef* def, const char* items_path, const char* map_name,
                 const char* dir, WlGenCounts* counts)
{
	Gen g;
	memset(&g, 0, sizeof g);
	memset(counts, 0, sizeof *counts);
	g.rng.state = def->seed;
	g.map = map;
	g.nav = nav;
	g.clusters = def->clusters;
	if (!load_items(&g, items_path)) {
		free_items(&g);
		return false;
	}
	int w = gtMap_Width(map), h = gtMap_Height(map), vertices;
	gtMap_Vertices(map, &vertices);
	g.scratch_capacity = vertices + 2;
	g.scratch = malloc((size_t)g.scratch_capacity * sizeof *g.scratch);
	g.free_cells = malloc((size_t)gtMap_FreeCells(map) * sizeof *g.free_cells);
	bool ok = g.scratch && g.free_cells;
	for (int y = 0; y < h && ok; y++)
		for (int x = 0; x < w; x++)
			if (!gtMap_IsBlocked(map, x, y)) g.free_cells[g.free_count++] = y * w + x;
	ok = ok && g.free_count > 0 && place_clusters(&g);
	int initial = (int)ceil(def->density * (double)g.free_count);
	int capacity = initial * 2 + 16, live = 0, next_id = 0;
	Walker* objects = ok ? calloc((size_t)capacity, sizeof *objects) : NULL;
	FILE* fo = open_out(dir, "objects.txt");
	FILE* fu = open_out(dir, "updates.txt");
	FILE* fq = open_out(dir, "queries.txt");
	FILE* fm = open_out(dir, "meta.txt");
	ok = ok && objects && fo && fu && fq && fm;
	for (int i = 0; i < initial && ok; i++) {
		Walker* o = &objects[live++];
		spawn(&g, o, next_id++);
		wl_write_object(fo, o->id, o->at, o->words, o->word_count);
	}
	for (long t = 0; t < def->timestamps && ok; t++) {
		if (t > 0) {
			int churn_count = (int)lround(def->churn / 2 * initial);
			for (int c = 0; c < churn_count && live < capacity; c++) { // insert, then delete as many
				Walker* o = &objects[live++];
				spawn(&g, o, next_id++);
				wl_write_insert(fu, t, o->id, o->at, o->words, o->word_count);
				counts->updates++;
			}
			for (int c = 0; c < churn_count && live > 0; c++) {
				int victim = gtRandom_Below(&g.rng, live);
				wl_write_delete(fu, t, objects[victim].id);
				counts->updates++;
				free(objects[victim].path);
				objects[victim] = objects[--live];
			}
			for (int i = 0; i < live; i++) {
				if (gtRandom_Unit(&g.rng) >= def->mobility || objects[i].path_count == 0) continue;
				walk(&g, &objects[i]);
				wl_write_move(fu, t, objects[i].id, objects[i].at);
				counts->updates++;
			}
		}
		for (long i = 0; i < def->queries_per_timestamp; i++) {
			write_query(&g, fq, t, def, objects, live);
			counts->queries++;
		}
	}
	counts->objects = initial;
	if (fm)
		fprintf(
		    fm,
		    "map %s\nkeywords %s\nseed %llu\ndensity %g\nmobility %g\ntimestamps %d\nqueries_per_timestamp %d\nk %d\n"
		    "query_keywords %d\nclusters %d\nchurn %g\nobjects %d\nupdates %ld\nqueries %ld\n",
		    map_name, items_path, (unsigned long long)def->seed, def->density, def->mobility, def->timestamps,
		    def->queries_per_timestamp, def->k, def->query_words, def->clusters, def->churn, initial, counts->updates,
		    counts->queries);
	FILE* files[4] = {fo, fu, fq, fm};
	for (int i = 0; i < 4; i++)
		if (files[i] && (ferror(files[i]) | fclose(files[i]))) ok = false;
	if (!ok) fprintf(stderr, "gridtree workload: could not write the workload to %s\n", dir);
	for (int i = 0; i < live; i++) free(objects[i].path);
	free(objects);
	free_items(&g);
	free(g.rects);
	free(g.free_cells);
	free(g.scratch);
	return ok;
}
