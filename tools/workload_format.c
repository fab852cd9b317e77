#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "workload_format.h"

// Splits a line into whitespace-separated tokens (in place); returns the count.
static int tokens(char* line, char** out, int max)
{
	int n = 0;
	for (char* t = strtok(line, " \t\r\n"); t && n < max; t = strtok(NULL, " \t\r\n")) out[n++] = t;
	return n;
}

static bool number(const char* s, double* v)
{
	char* end;
	errno = 0;
	*v = strtod(s, &end);
	return !errno && *end == '\0' && end != s;
}

static bool integer(const char* s, int* v)
{
	char* end;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (errno || *end || end == s || x < -2147483647L || x > 2147483647L) return false;
	*v = (int)x;
	return true;
}

static bool words(char** tok, int n, const char* where, int* count, char dest[][GT_WORD_BYTES])
{
	if (n > WL_MAX_WORDS) {
		fprintf(stderr, "gridtree: %s: more than %d keywords\n", where, WL_MAX_WORDS);
		return false;
	}
	for (int i = 0; i < n; i++) {
		if (strlen(tok[i]) >= GT_WORD_BYTES) {
			fprintf(stderr, "gridtree: %s: keyword longer than %d bytes\n", where, GT_WORD_BYTES - 1);
			return false;
		}
		strcpy(dest[i], tok[i]);
	}
	*count = n;
	return true;
}

bool wl_parse_object(const char* line, const char* where, WlObject* o)
{
	char copy[4096], *tok[WL_MAX_WORDS + 8];
	snprintf(copy, sizeof copy, "%s", line);
	int n = tokens(copy, tok, WL_MAX_WORDS + 8);
	if (n < 3 || !integer(tok[0], &o->id) || !number(tok[1], &o->x) || !number(tok[2], &o->y)) {
		fprintf(stderr, "gridtree: %s: expected 'id x y keyword ...'\n", where);
		return false;
	}
	return words(tok + 3, n - 3, where, &o->word_count, o->words);
}

bool wl_parse_update(const char* line, const char* where, WlUpdate* u)
{
	char copy[4096], *tok[WL_MAX_WORDS + 8];
	snprintf(copy, sizeof copy, "%s", line);
	int n = tokens(copy, tok, WL_MAX_WORDS + 8);
	memset(&u->object, 0, sizeof u->object);
	if (n >= 3 && integer(tok[0], &u->t) && integer(tok[2], &u->object.id)) {
		if (strcmp(tok[1], "delete") == 0 && n == 3) {
			u->op = WL_DELETE;
			return true;
		}
		bool moving = strcmp(tok[1], "move") == 0, inserting = strcmp(tok[1], "insert") == 0;
		if ((moving && n == 5) || (inserting && n >= 5)) {
			u->op = moving ? WL_MOVE : WL_INSERT;
			if (number(tok[3], &u->object.x) && number(tok[4], &u->object.y))
				return words(tok + 5, n - 5, where, &u->object.word_count, u->object.words);
		}
	}
	fprintf(stderr, "gridtree: %s: expected 't move id x y', 't insert id x y keyword ...' or 't delete id'\n", where);
	return false;
}

bool wl_parse_query(const char* line, const char* where, bool with_time, WlQuery* q)
{
	char copy[4096], *tok[WL_MAX_WORDS + 8];
	snprintf(copy, sizeof copy, "%s", line);
	int n = tokens(copy, tok, WL_MAX_WORDS + 8), at = with_time ? 1 : 0;
	q->t = 0;
	if (n < at + 3 || (with_time && !integer(tok[0], &q->t)) || !number(tok[at], &q->x) ||
	    !number(tok[at + 1], &q->y) || !integer(tok[at + 2], &q->k) || q->k < 0) {
		fprintf(stderr, "gridtree: %s: expected '%sx y k keyword ...' with k >= 0\n", where, with_time ? "t " : "");
		return false;
	}
	return words(tok + at + 3, n - at - 3, where, &q->word_count, q->words);
}

void* wl_read_all(const char* path, int kind, int* count)
{
	*count = 0;
	FILE* f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "gridtree: %s: cannot open: %s\n", path, strerror(errno));
		return NULL;
	}
	struct stat info; // a directory opens, then reads as an empty file: refuse it here
	if (fstat(fileno(f), &info) != 0 || !S_ISREG(info.st_mode)) {
		fprintf(stderr, "gridtree: %s: not a regular file\n", path);
		fclose(f);
		return NULL;
	}
	size_t size = kind == 0 ? sizeof(WlObject) : kind == 1 ? sizeof(WlUpdate) : sizeof(WlQuery);
	size_t capacity = 256;
	char* items = malloc(capacity * size);
	char line[4096], where[1100];
	int number_of_line = 0;
	bool ok = items != NULL;
	while (ok && fgets(line, sizeof line, f)) {
		number_of_line++;
		if (line[strspn(line, " \t\r\n")] == '\0' || line[0] == '#') continue;
		if ((size_t)*count == capacity) {
			char* grown = realloc(items, capacity * 2 * size);
			if (!grown) {
				ok = false;
				break;
			}
			items = grown;
			capacity *= 2;
		}
		snprintf(where, sizeof where, "%s:%d", path, number_of_line);
		void* at = items + (size_t)*count * size;
		ok = kind == 0   ? wl_parse_object(line, where, at)
		     : kind == 1 ? wl_parse_update(line, where, at)
		                 : wl_parse_query(line, where, kind == 2, at);
		if (ok) (*count)++;
	}
	fclose(f);
	if (!ok) {
		free(items);
		*count = 0;
		return NULL;
	}
	return items;
}

static void write_words(FILE* f, const char* const* words, int count)
{
	for (int i = 0; i < count; i++) fprintf(f, " %s", words[i]);
	fputc('\n', f);
}

void wl_write_object(FILE* f, int id, gtVec2 at, const char* const* words, int count)
{
	fprintf(f, "%d %.17g %.17g", id, at.x, at.y);
	write_words(f, words, count);
}

void wl_write_insert(FILE* f, long t, int id, gtVec2 at, const char* const* words, int count)
{
	fprintf(f, "%ld insert ", t);
	wl_write_object(f, id, at, words, count);
}

void wl_write_move(FILE* f, long t, int id, gtVec2 at)
{
	fprintf(f, "%ld move %d %.17g %.17g\n", t, id, at.x, at.y);
}

void wl_write_delete(FILE* f, long t, int id)
{
	fprintf(f, "%ld delete %d\n", t, id);
}

void wl_write_query(FILE* f, long t, gtVec2 at, int k, const char* const* words, int count)
{
	fprintf(f, "%ld %.17g %.17g %d", t, at.x, at.y, k);
	write_words(f, words, count);
}
