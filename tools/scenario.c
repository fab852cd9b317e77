// MovingAI scenario reader (docs/algorithms.md 1.2), for the tests, the CLI and the benchmarks.
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

#define GT_SCEN_MAX_LINE 4096
#define GT_SCEN_MAX_ENTRIES (1 << 24)

struct gtScenario {
	gtScenarioEntry* entries;
	int count, capacity;
};

void gtScenario_Destroy(gtScenario* scenario)
{
	if (!scenario) return;
	free(scenario->entries);
	free(scenario);
}

const gtScenarioEntry* gtScenario_Entries(const gtScenario* scenario, int* count)
{
	*count = scenario->count;
	return scenario->entries;
}

static bool parse_int(const char* s, int* out)
{
	char* end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > 1000000) return false;
	*out = (int)v;
	return true;
}

// Parses a finite non-negative decimal and the rounding slack its printed precision implies.
static bool parse_octile(const char* s, double* value, double* slack)
{
	char* end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(v) || v < 0) return false;
	const char* dot = strchr(s, '.');
	int decimals = dot ? (int)strlen(dot + 1) : 0;
	*value = v;
	*slack = 0.5 * pow(10.0, -decimals) + 1e-9 * (1.0 + v);
	return true;
}

static gtStatus add_entry(gtScenario* sc, const gtScenarioEntry* e)
{
	if (sc->count == sc->capacity) {
		if (sc->capacity >= GT_SCEN_MAX_ENTRIES) return GT_ERR_LIMIT;
		int cap = sc->capacity ? sc->capacity * 2 : 256;
		gtScenarioEntry* grown = realloc(sc->entries, (size_t)cap * sizeof *grown);
		if (!grown) return GT_ERR_NOMEM;
		sc->entries = grown;
		sc->capacity = cap;
	}
	sc->entries[sc->count++] = *e;
	return GT_OK;
}

// Reads scenario lines from an open stream; `path` names the input in messages. Shared by
// gtScenario_Load and gtScenario_Parse so a file and the same bytes in memory read alike.
static gtStatus parse_stream(FILE* f, const char* path, gtScenario** out, gtError* err)
{
	gtScenario* sc = calloc(1, sizeof *sc);
	if (!sc) return gtError_Set(err, GT_ERR_NOMEM, "%s: out of memory", path);
	char line[GT_SCEN_MAX_LINE];
	int number = 0;
	gtStatus st = GT_OK;
	while (fgets(line, sizeof line, f)) {
		number++;
		size_t len = strlen(line);
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			st = gtError_Set(err, GT_ERR_FORMAT, "%s:%d: line longer than %d bytes", path, number, GT_SCEN_MAX_LINE);
			break;
		}
		char* fields[10];
		int nf = 0;
		for (char* tok = strtok(line, " \t\r\n"); tok && nf < 10; tok = strtok(NULL, " \t\r\n")) fields[nf++] = tok;
		if (nf == 0) continue;
		if (number == 1 && strcmp(fields[0], "version") == 0) {
			if (nf != 2 || atof(fields[1]) != 1.0) {
				st = gtError_Set(err, GT_ERR_FORMAT, "%s:1: unsupported scenario version (expected 'version 1')", path);
				break;
			}
			continue;
		}
		gtScenarioEntry e;
		int sx, sy, gx, gy;
		if (nf != 9 || !parse_int(fields[0], &e.bucket) || !parse_int(fields[2], &e.map_width) ||
		    !parse_int(fields[3], &e.map_height) || !parse_int(fields[4], &sx) || !parse_int(fields[5], &sy) ||
		    !parse_int(fields[6], &gx) || !parse_int(fields[7], &gy) ||
		    !parse_octile(fields[8], &e.octile, &e.octile_slack)) {
			st = gtError_Set(err, GT_ERR_FORMAT,
			                 "%s:%d: expected 'bucket map width height sx sy gx gy optimal' with non-negative numbers",
			                 path, number);
			break;
		}
		e.start.x = sx;
		e.start.y = sy;
		e.goal.x = gx;
		e.goal.y = gy;
		st = add_entry(sc, &e);
		if (st) {
			st = gtError_Set(err, st, "%s:%d: too many scenario lines", path, number);
			break;
		}
	}
	if (!st && ferror(f)) st = gtError_Set(err, GT_ERR_IO, "%s: read error", path);
	if (st) {
		gtScenario_Destroy(sc);
		return st;
	}
	*out = sc;
	return GT_OK;
}

gtStatus gtScenario_Load(const char* path, gtScenario** out, gtError* err)
{
	*out = NULL;
	FILE* f = fopen(path, "rb");
	if (!f) return gtError_Set(err, GT_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	gtStatus st = parse_stream(f, path, out, err);
	fclose(f);
	return st;
}

gtStatus gtScenario_Parse(const char* text, size_t length, const char* name, gtScenario** out, gtError* err)
{
	*out = NULL;
	if (!name) name = "<scenario>";
	if (length == 0) { // fmemopen refuses an empty buffer; an empty file is an empty scenario
		gtScenario* sc = calloc(1, sizeof *sc);
		if (!sc) return gtError_Set(err, GT_ERR_NOMEM, "%s: out of memory", name);
		*out = sc;
		return GT_OK;
	}
	// A read-only stream never writes to the buffer, so casting away const is safe.
	FILE* f = fmemopen((void*)text, length, "rb");
	if (!f) return gtError_Set(err, GT_ERR_NOMEM, "%s: cannot open a memory stream: %s", name, strerror(errno));
	gtStatus st = parse_stream(f, name, out, err);
	fclose(f);
	return st;
}
