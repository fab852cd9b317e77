// gridtree neighbours: straight-line neighbours of points in a 2D or 3D world, each axis open or
// wrapping (gt_neighbours.h), one output line per query.
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_neighbours.h"

typedef struct Obj {
	long long id;
	double p[3];
} Obj;

typedef struct Input {
	int dims;
	Obj* objs;
	int count, room;
	double (*queries)[5]; // x y z r k
	int query_count, query_room;
} Input;

static bool grow(void** items, int* room, int count, size_t size)
{
	if (count < *room) return true;
	int want = *room ? *room * 2 : 256;
	void* grown = realloc(*items, (size_t)want * size);
	if (!grown) return false;
	*items = grown;
	*room = want;
	return true;
}

// Reads numbers from text; true when exactly `count` were there.
static bool numbers(const char* text, double* out, int count)
{
	char* end;
	for (int i = 0; i < count; i++) {
		out[i] = strtod(text, &end);
		if (end == text) return false;
		text = end;
	}
	while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n') text++;
	return *text == '\0';
}

static bool object_line(void* user, const char* path, int number, const char* text)
{
	Input* in = user;
	char* end;
	long long id = strtoll(text, &end, 10);
	double p[3] = {0, 0, 0};
	if (end == text || !numbers(end, p, in->dims)) {
		fprintf(stderr, "gridtree neighbours: %s:%d: expected 'id x y%s'\n", path, number, in->dims == 3 ? " z" : "");
		return false;
	}
	if (!grow((void**)&in->objs, &in->room, in->count, sizeof *in->objs)) return false;
	in->objs[in->count++] = (Obj){id, {p[0], p[1], p[2]}};
	return true;
}

static bool query_line(void* user, const char* path, int number, const char* text)
{
	Input* in = user;
	double v[5] = {0, 0, 0, 0, 0}, read[5];
	if (!numbers(text, read, in->dims + 2) || read[in->dims] < 0 || read[in->dims + 1] < 0 ||
	    read[in->dims + 1] != (int)read[in->dims + 1]) {
		fprintf(stderr, "gridtree neighbours: %s:%d: expected 'x y%s r k' with r >= 0 and k a whole number >= 0\n",
		        path, number, in->dims == 3 ? " z" : "");
		return false;
	}
	for (int i = 0; i < in->dims; i++) v[i] = read[i];
	v[3] = read[in->dims];
	v[4] = read[in->dims + 1];
	if (!grow((void**)&in->queries, &in->query_room, in->query_count, sizeof *in->queries)) return false;
	memcpy(in->queries[in->query_count++], v, sizeof v);
	return true;
}

static int by_id(const void* a, const void* b)
{
	long long x = ((const Obj*)a)->id, y = ((const Obj*)b)->id;
	return (x > y) - (x < y);
}

typedef struct Run {
	const gtNeighbours* nb;
	const Input* in;
	gtNeighbourMethod method;
	char** lines;
	const char** errors;
	int threads;
	int next; // guarded by lock
	pthread_mutex_t lock;
} Run;

// Formats one query's answer ("id:dist ..." or "-"); NULL with *error set on failure.
static char* answer(const Run* run, const double* q, gtNeighbour* out, gtError* err)
{
	gtNeighbourQuery query = {{q[0], q[1], q[2]}, q[3] == 0 ? INFINITY : q[3], (int)q[4], 0, false};
	int found;
	if (gtNeighbours_Query(run->nb, &query, run->method, out, run->in->count, &found, NULL, err)) return NULL;
	size_t room = (size_t)found * 48 + 4, used = 0;
	char* line = malloc(room);
	if (!line) return NULL;
	if (found == 0) strcpy(line, "-");
	for (int i = 0; i < found; i++)
		used += (size_t)snprintf(line + used, room - used, "%s%lld:%.9f", i ? " " : "",
		                         run->in->objs[gtNeighbourId_Slot(out[i].id)].id, out[i].distance);
	return line;
}

static void* worker(void* arg)
{
	Run* run = arg;
	gtNeighbour* out = malloc((size_t)(run->in->count + 1) * sizeof *out);
	gtError err;
	for (;;) {
		pthread_mutex_lock(&run->lock);
		int i = run->next++;
		pthread_mutex_unlock(&run->lock);
		if (i >= run->in->query_count) break;
		run->lines[i] = out ? answer(run, run->in->queries[i], out, &err) : NULL;
		if (!run->lines[i]) run->errors[i] = strdup(out ? err.message : "out of memory");
	}
	free(out);
	return NULL;
}

static int answer_all(Run* run)
{
	int n = run->in->query_count;
	run->lines = calloc((size_t)n + 1, sizeof *run->lines);
	run->errors = calloc((size_t)n + 1, sizeof *run->errors);
	if (!run->lines || !run->errors) return CLI_FAILED;
	pthread_mutex_init(&run->lock, NULL);
	pthread_t ids[GT_MAX_THREADS];
	int started = 0;
	for (int t = 1; t < run->threads; t++)
		if (pthread_create(&ids[started], NULL, worker, run) == 0) started++;
	worker(run);
	for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
	pthread_mutex_destroy(&run->lock);
	int rc = CLI_OK;
	for (int i = 0; i < n; i++) {
		if (rc == CLI_OK && run->errors[i]) {
			fprintf(stderr, "gridtree neighbours: query %d: %s\n", i + 1, run->errors[i]);
			rc = CLI_FAILED;
		}
		if (rc == CLI_OK) printf("%s\n", run->lines[i]);
		free(run->lines[i]);
		free((void*)run->errors[i]);
	}
	free(run->lines);
	free((void*)run->errors);
	return rc;
}

static int neighbours(const CliArgs* args)
{
	gtNeighboursDef def;
	long threads;
	gtNeighbourMethod method = GT_NEIGHBOURS_AUTO;
	if (!cli_neighbours_def(args, "neighbours", &def) ||
	    !cli_int_option(args, "neighbours", "threads", 1, 0, 256, &threads))
		return CLI_USAGE;
	gtNeighbourMethod_Parse(cli_option(args, "method", "auto"), &method);
	Input in = {.dims = def.dimensions};
	int rc = CLI_FAILED;
	gtNeighbours* nb = NULL;
	gtError err;
	if (!cli_each_line(cli_option(args, "objects", NULL), object_line, &in) ||
	    !cli_each_line(cli_option(args, "queries", NULL), query_line, &in))
		goto done;
	qsort(in.objs, (size_t)in.count, sizeof *in.objs, by_id); // slot order is id order: ties by id
	for (int i = 1; i < in.count; i++)
		if (in.objs[i].id == in.objs[i - 1].id) {
			fprintf(stderr, "gridtree neighbours: object id %lld appears twice\n", in.objs[i].id);
			goto done;
		}
	def.capacity = in.count;
	if (gtNeighbours_Create(&def, &nb, &err)) {
		fprintf(stderr, "gridtree neighbours: %s\n", err.message);
		rc = CLI_USAGE;
		goto done;
	}
	for (int i = 0; i < in.count; i++) {
		gtNeighbourId id;
		if (gtNeighbours_Add(nb, in.objs[i].p, &id, &err)) {
			fprintf(stderr, "gridtree neighbours: object %lld: %s\n", in.objs[i].id, err.message);
			goto done;
		}
	}
	Run run = {.nb = nb, .in = &in, .method = method, .threads = threads ? (int)threads : 2};
	rc = answer_all(&run);
done:
	gtNeighbours_Destroy(nb);
	free(in.objs);
	free(in.queries);
	return rc;
}

static const CliOption OPTIONS[] = {
    CLI_NEIGHBOURS_WORLD_OPTIONS,
    {"objects", "OBJ", NULL, true, "'id x y [z]' lines: the points (ids are integers, each once)"},
    {"queries", "Q", NULL, true, "'x y [z] r k' lines: the k nearest within r (r 0: no radius; k 0: all within r)"},
    {"method", "METHOD", "auto|sphere|cube|nonempty|brute", false, "how to search (default auto)"},
    {"threads", "N", NULL, false, "threads answering queries, 0 to 256 (default 1; 0: two)"},
    {0},
};

const CliCommand cli_cmd_neighbours = {
    "neighbours",
    "",
    "straight-line neighbours of points in a 2D/3D, open or wrapping world",
    "Prints one line per query: 'id:distance' entries (%.9f) nearest first, ties by id, or '-' when none.\n"
    "Distances on a wrapping axis go the shorter way round. See docs/neighbours.md.",
    OPTIONS,
    false,
    neighbours,
};
