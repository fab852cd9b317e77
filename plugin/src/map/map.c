// MovingAI map parsing, construction and saving (docs/algorithms.md 1.1).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "core/save_file.h"
#include "map/map_internal.h"
#include "core/status.h"

// Large enough for the biggest accepted map plus its newlines and header.
#define GT_MAP_MAX_FILE_BYTES ((size_t)GT_MAP_MAX_CELLS + 2u * GT_MAP_MAX_SIDE + 4096u)

typedef struct LineReader {
	const char* cur;
	const char* end;
	int number; // 1-based number of the line last returned
} LineReader;

// Returns the next line without its terminator (\n or \r\n); false at the end of the text.
static bool next_line(LineReader* r, const char** line, size_t* length)
{
	if (r->cur >= r->end) return false;
	const char* start = r->cur;
	const char* nl = memchr(start, '\n', (size_t)(r->end - start));
	const char* stop = nl ? nl : r->end;
	r->cur = nl ? nl + 1 : r->end;
	if (stop > start && stop[-1] == '\r') stop--;
	*line = start;
	*length = (size_t)(stop - start);
	r->number++;
	return true;
}

static bool is_blank(const char* s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
	return true;
}

// Rejects control bytes other than tab, CR and LF so that binary files fail early and clearly.
static gtStatus check_text(const char* text, size_t length, const char* name, gtError* err)
{
	int line = 1;
	size_t column = 1;
	for (size_t i = 0; i < length; i++, column++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\n') {
			line++;
			column = 0;
		} else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
			return gt_fail(err, GT_ERR_FORMAT, "%s:%d: binary data (byte 0x%02x at column %zu); not a MovingAI map",
			               name, line, c, column);
		}
	}
	return GT_OK;
}

// Parses "<digits>" into 1..INT32 range; returns -1 on anything else.
static long parse_positive(const char* s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t')) s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
	if (n == 0 || n > 9) return -1;
	long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9') return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static bool is_free_char(char c)
{
	return c == '.' || c == 'G' || c == 'S';
}

// The words of bits_x and bits_y together.
static size_t bits_words(const gtMap* m)
{
	return (size_t)(m->height + 2) * (size_t)m->words_x + (size_t)(m->width + 2) * (size_t)m->words_y;
}

static gtMap* map_alloc(int width, int height)
{
	gtMap* m = gt_calloc(1, sizeof *m);
	if (!m) return NULL;
	m->width = width;
	m->height = height;
	m->stride = width + 2;
	m->blocked = gt_malloc((size_t)(width + 2) * (size_t)(height + 2));
	size_t plane = (size_t)(width + 2) * (size_t)(height + 2);
	m->run_x = gt_malloc(2 * plane); // and run_y after it (map_internal.h)
	m->words_x = (width + 2 + 63) / 64;
	m->words_y = (height + 2 + 63) / 64;
	m->bits_x = gt_malloc(bits_words(m) * sizeof *m->bits_x); // and bits_y after it
	if (!m->blocked || !m->run_x || !m->bits_x) {
		gt_free(m->blocked);
		gt_free(m->run_x);
		gt_free(m->bits_x);
		gt_free(m);
		return NULL;
	}
	m->run_y = m->run_x + plane;
	m->bits_y = m->bits_x + (size_t)(height + 2) * (size_t)m->words_x;
	memset(m->blocked, 1, (size_t)(width + 2) * (size_t)(height + 2));
	return m;
}

static uint64_t fnv1a(uint64_t h, const void* data, size_t n)
{
	const unsigned char* p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

// Derives everything computed once per map: free cells, convex vertices, pinches, fingerprint.
static gtStatus map_finish(gtMap* m, gtError* err)
{
	int64_t free_cells = 0;
	uint64_t h = 1469598103934665603ull;
	int32_t dims[2] = {m->width, m->height};
	h = fnv1a(h, dims, sizeof dims);
	for (int y = 0; y < m->height; y++) {
		const unsigned char* row = m->blocked + (y + 1) * m->stride + 1;
		h = fnv1a(h, row, (size_t)m->width);
		for (int x = 0; x < m->width; x++) free_cells += !row[x];
	}
	m->free_cells = free_cells;
	m->fingerprint = h;
	gt_free_runs_all(m);

	// Border grid points always touch two outside cells, so only interior points can be convex.
	int convex = 0, pinch = 0;
	for (int y = 1; y < m->height; y++)
		for (int x = 1; x < m->width; x++) {
			int mask = gt_corner_mask(m, x, y);
			convex += (mask & (mask - 1)) == 0 && mask != 0;
			pinch += gt_is_pinch_mask(mask);
		}
	m->pinch_count = pinch;
	m->vertex_count = convex;
	m->vertices = gt_malloc(sizeof *m->vertices * (size_t)(convex > 0 ? convex : 1));
	if (!m->vertices) return gt_fail(err, GT_ERR_NOMEM, "out of memory for %d convex vertices", convex);
	int n = 0;
	for (int y = 1; y < m->height; y++)
		for (int x = 1; x < m->width; x++) {
			int mask = gt_corner_mask(m, x, y);
			if (mask == 0 || (mask & (mask - 1)) != 0) continue;
			gtVertex v = {x, y, (mask & 0xA) ? 1 : -1, (mask & 0xC) ? 1 : -1};
			m->vertices[n++] = v;
		}
	return GT_OK;
}

void gtMap_Destroy(gtMap* map)
{
	if (!map) return;
	gt_free(map->blocked);
	gt_free(map->run_x);
	gt_free(map->bits_x);
	gt_free(map->vertices);
	gt_free(map);
}

gtStatus gtMap_Parse(const char* text, size_t length, const char* name, gtMap** out, gtError* err)
{
	*out = NULL;
	if (!name) name = "<map>";
	if (!text || length == 0)
		return gt_fail(err, GT_ERR_FORMAT, "%s:1: empty file; expected a MovingAI map header", name);
	gtStatus st = check_text(text, length, name, err);
	if (st) return st;

	LineReader r = {text, text + length, 0};
	const char* line;
	size_t n;
	long width = 0, height = 0;
	int width_line = 0, height_line = 0;
	bool saw_type = false, saw_map = false;
	while (!saw_map && next_line(&r, &line, &n)) {
		if (is_blank(line, n)) continue;
		size_t k = 0;
		while (k < n && line[k] != ' ' && line[k] != '\t') k++;
		const char* value = line + k;
		size_t vlen = n - k;
		if (k == 4 && memcmp(line, "type", 4) == 0) {
			if (saw_type) return gt_fail(err, GT_ERR_FORMAT, "%s:%d: 'type' given twice", name, r.number);
			saw_type = true;
		} else if ((k == 5 && memcmp(line, "width", 5) == 0) || (k == 6 && memcmp(line, "height", 6) == 0)) {
			bool is_width = k == 5;
			const char* field = is_width ? "width" : "height";
			if (is_width ? width_line : height_line)
				return gt_fail(err, GT_ERR_FORMAT, "%s:%d: '%s' given twice", name, r.number, field);
			long v = parse_positive(value, vlen);
			if (v < 1)
				return gt_fail(err, GT_ERR_FORMAT, "%s:%d: '%s' needs a positive integer, got '%.*s'", name, r.number,
				               field, (int)(vlen > 40 ? 40 : vlen), value);
			if (v > GT_MAP_MAX_SIDE)
				return gt_fail(err, GT_ERR_LIMIT, "%s:%d: %s %ld is larger than the limit %d", name, r.number, field, v,
				               GT_MAP_MAX_SIDE);
			if (is_width) width = v, width_line = r.number;
			else height = v, height_line = r.number;
		} else if (k == 3 && memcmp(line, "map", 3) == 0 && is_blank(value, vlen)) {
			saw_map = true;
		} else {
			return gt_fail(err, GT_ERR_FORMAT,
			               "%s:%d: unexpected header line '%.*s' (expected type, height, width, map)", name, r.number,
			               (int)(n > 40 ? 40 : n), line);
		}
	}
	if (!saw_map || !width_line || !height_line) {
		const char* missing = !height_line ? "height" : !width_line ? "width" : "map";
		return gt_fail(err, GT_ERR_FORMAT, "%s:%d: header has no '%s' line", name, r.number > 0 ? r.number : 1,
		               missing);
	}
	if ((uint64_t)width * (uint64_t)height > GT_MAP_MAX_CELLS)
		return gt_fail(err, GT_ERR_LIMIT, "%s:%d: %ldx%ld map has more than %u cells", name, width_line, width, height,
		               GT_MAP_MAX_CELLS);
	// Check the size before allocating so a lying header cannot make us reserve gigabytes.
	size_t remaining = (size_t)(r.end - r.cur);
	if (remaining < (size_t)width * (size_t)height)
		return gt_fail(err, GT_ERR_FORMAT, "%s:%d: header says %ldx%ld but only %zu bytes of rows follow", name,
		               r.number + 1, width, height, remaining);

	gtMap* m = map_alloc((int)width, (int)height);
	if (!m) return gt_fail(err, GT_ERR_NOMEM, "%s: out of memory for a %ldx%ld map", name, width, height);
	for (int y = 0; y < height; y++) {
		if (!next_line(&r, &line, &n)) {
			gtMap_Destroy(m);
			return gt_fail(err, GT_ERR_FORMAT, "%s:%d: file ends after %d of %ld rows", name, r.number + 1, y, height);
		}
		if (n != (size_t)width) {
			gtMap_Destroy(m);
			return gt_fail(err, GT_ERR_FORMAT, "%s:%d: row %d has %zu characters, expected %ld", name, r.number, y, n,
			               width);
		}
		unsigned char* row = m->blocked + (y + 1) * m->stride + 1;
		for (int x = 0; x < width; x++) row[x] = !is_free_char(line[x]);
	}
	while (next_line(&r, &line, &n)) {
		if (!is_blank(line, n)) {
			gtMap_Destroy(m);
			return gt_fail(err, GT_ERR_FORMAT, "%s:%d: more rows than the header's height %ld", name, r.number, height);
		}
	}
	st = map_finish(m, err);
	if (st) {
		gtMap_Destroy(m);
		return st;
	}
	*out = m;
	return GT_OK;
}

static gtStatus parse_map(const char* text, size_t size, const char* name, void* out, gtError* err)
{
	return gtMap_Parse(text, size, name, out, err);
}

gtStatus gtMap_Load(const char* path, gtMap** out, gtError* err)
{
	*out = NULL;
	return gt_load_file(path, GT_MAP_MAX_FILE_BYTES, "map", parse_map, out, err);
}

gtStatus gtMap_FromCells(int width, int height, const unsigned char* blocked, gtMap** out, gtError* err)
{
	*out = NULL;
	if (width < 1 || height < 1 || width > GT_MAP_MAX_SIDE || height > GT_MAP_MAX_SIDE ||
	    (uint64_t)width * (uint64_t)height > GT_MAP_MAX_CELLS)
		return gt_fail(err, GT_ERR_LIMIT, "map size %dx%d is outside 1..%d per side or above %u cells", width, height,
		               GT_MAP_MAX_SIDE, GT_MAP_MAX_CELLS);
	if (!blocked) return gt_fail(err, GT_ERR_INVALID_ARG, "no cells given");
	gtMap* m = map_alloc(width, height);
	if (!m) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a %dx%d map", width, height);
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			m->blocked[(y + 1) * m->stride + x + 1] = blocked[(size_t)y * (size_t)width + (size_t)x] != 0;
	gtStatus st = map_finish(m, err);
	if (st) {
		gtMap_Destroy(m);
		return st;
	}
	*out = m;
	return GT_OK;
}

static bool write_map(FILE* f, void* context)
{
	const gtMap* map = context;
	fprintf(f, "type octile\nheight %d\nwidth %d\nmap\n", map->height, map->width);
	for (int y = 0; y < map->height; y++) {
		for (int x = 0; x < map->width; x++) fputc(gt_blocked(map, x, y) ? '@' : '.', f);
		fputc('\n', f);
	}
	return true; // gt_save_file checks ferror
}

gtStatus gtMap_Save(const gtMap* map, const char* path, gtError* err)
{
	return gt_save_file(path, write_map, (void*)map, err);
}

int gtMap_Width(const gtMap* map)
{
	return map->width;
}
int gtMap_Height(const gtMap* map)
{
	return map->height;
}
int64_t gtMap_FreeCells(const gtMap* map)
{
	return map->free_cells;
}
// FNV-1a of the size and the cells row by row (what index files keep: it must not change).
static uint64_t fingerprint_of(const gtMap* m)
{
	uint64_t h = 1469598103934665603ull;
	int32_t dims[2] = {m->width, m->height};
	h = fnv1a(h, dims, sizeof dims);
	for (int y = 0; y < m->height; y++) h = fnv1a(h, m->blocked + (y + 1) * m->stride + 1, (size_t)m->width);
	return h;
}

uint64_t gtMap_Fingerprint(const gtMap* map)
{
	uint64_t f = atomic_load_explicit(&map->fingerprint, memory_order_relaxed);
	if (f != 0) return f;
	f = fingerprint_of(map); // a map is never made const: the cache may be written
	atomic_store_explicit(&((gtMap*)map)->fingerprint, f, memory_order_relaxed);
	return f;
}
int gtMap_PinchCount(const gtMap* map)
{
	return map->pinch_count;
}

bool gtMap_IsBlocked(const gtMap* map, int cx, int cy)
{
	if (cx < 0 || cy < 0 || cx >= map->width || cy >= map->height) return true;
	return gt_blocked(map, cx, cy) != 0;
}

// The n-th free cell in row-major order (n below the free cell count).
static void nth_free_cell(const gtMap* map, int64_t n, int* cx, int* cy)
{
	for (*cy = 0; *cy < map->height; (*cy)++)
		for (*cx = 0; *cx < map->width; (*cx)++)
			if (!gt_blocked(map, *cx, *cy) && n-- == 0) return;
}

gtStatus gtMap_RandomPoint(const gtMap* map, gtRandom* rng, gtVec2* point, gtError* err)
{
	if (map->free_cells == 0) return gt_fail(err, GT_ERR_INVALID_ARG, "the map has no free cells");
	int cx, cy, misses = 0;
	do {
		cx = gtRandom_Below(rng, map->width);
		cy = gtRandom_Below(rng, map->height);
	} while (gt_blocked(map, cx, cy) && ++misses < 1024);
	// Walls with a few free cells: count to a uniform one rather than draw for ever.
	if (gt_blocked(map, cx, cy)) nth_free_cell(map, (int64_t)(gtRandom_Unit(rng) * (double)map->free_cells), &cx, &cy);
	double x = cx + gtRandom_Unit(rng);
	*point = (gtVec2){x, cy + gtRandom_Unit(rng)};
	return GT_OK;
}

const gtVertex* gtMap_Vertices(const gtMap* map, int* count)
{
	*count = map->vertex_count;
	return map->vertices;
}

// The convex vertices, pinch points and free cells of grid points [gx0, gx1] x [gy0, gy1] (only
// interior points can be convex or pinched): what an edit of the cells around them changes.
static int count_in(const gtMap* m, int gx0, int gy0, int gx1, int gy1, int* pinch)
{
	int convex = 0;
	*pinch = 0;
	for (int y = gy0 < 1 ? 1 : gy0; y <= gy1 && y < m->height; y++)
		for (int x = gx0 < 1 ? 1 : gx0; x <= gx1 && x < m->width; x++) {
			int mask = gt_corner_mask(m, x, y);
			convex += mask != 0 && (mask & (mask - 1)) == 0;
			*pinch += gt_is_pinch_mask(mask);
		}
	return convex;
}

// After cells [x0, x1] x [y0, y1] changed: the vertex list, pinch count and free cells again,
// touching only the grid points around them; the fingerprint is computed when asked for.
static gtStatus rederive_locally(gtMap* m, int x0, int y0, int x1, int y1, int pinch_before, int64_t free_delta,
                                 gtError* err)
{
	int gx0 = x0, gy0 = y0, gx1 = x1 + 1, gy1 = y1 + 1; // grid points touching a changed cell
	int pinch_after, inside = count_in(m, gx0, gy0, gx1, gy1, &pinch_after);
	int outside = 0;
	for (int i = 0; i < m->vertex_count; i++) {
		const gtVertex* v = &m->vertices[i];
		outside += !(v->x >= gx0 && v->x <= gx1 && v->y >= gy0 && v->y <= gy1);
	}
	int total = outside + inside;
	gtVertex* vertices = gt_malloc(sizeof *vertices * (size_t)(total > 0 ? total : 1));
	if (!vertices) return gt_fail(err, GT_ERR_NOMEM, "out of memory for %d convex vertices", total);
	// Row-major merge: the old ones outside the box, the box's own recomputed.
	int n = 0, i = 0;
	for (int y = 1; y < m->height; y++) {
		for (; i < m->vertex_count && m->vertices[i].y == y; i++) {
			const gtVertex* v = &m->vertices[i];
			if (y >= gy0 && y <= gy1 && v->x >= gx0) break; // the box's part of this row comes next
			vertices[n++] = *v;
		}
		if (y >= gy0 && y <= gy1) {
			for (int x = gx0 < 1 ? 1 : gx0; x <= gx1 && x < m->width; x++) {
				int mask = gt_corner_mask(m, x, y);
				if (mask == 0 || (mask & (mask - 1)) != 0) continue;
				vertices[n++] = (gtVertex){x, y, (mask & 0xA) ? 1 : -1, (mask & 0xC) ? 1 : -1};
			}
			for (; i < m->vertex_count && m->vertices[i].y == y && m->vertices[i].x <= gx1; i++) {} // replaced
			for (; i < m->vertex_count && m->vertices[i].y == y; i++) vertices[n++] = m->vertices[i];
		}
	}
	gt_free(m->vertices);
	m->vertices = vertices;
	m->vertex_count = n;
	m->pinch_count += pinch_after - pinch_before;
	m->free_cells += free_delta;
	atomic_store_explicit(&m->fingerprint, 0, memory_order_relaxed);
	return GT_OK;
}

gtStatus gt_map_set_blocked(gtMap* m, int x0, int y0, int x1, int y1, bool blocked, gtError* err)
{
	if (x0 > x1 || y0 > y1 || x0 < 0 || y0 < 0 || x1 >= m->width || y1 >= m->height)
		return gt_fail(err, GT_ERR_INVALID_ARG,
		               "cells (%d, %d)-(%d, %d) are not an inclusive rectangle inside the %dx%d map", x0, y0, x1, y1,
		               m->width, m->height);
	size_t w = (size_t)(x1 - x0 + 1), h = (size_t)(y1 - y0 + 1);
	unsigned char* before = gt_malloc(w * h);
	if (!before) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a map edit");
	int pinch_before;
	count_in(m, x0, y0, x1 + 1, y1 + 1, &pinch_before);
	int64_t free_delta = 0;
	for (size_t j = 0; j < h; j++) {
		unsigned char* row = m->blocked + ((size_t)y0 + j + 1) * (size_t)m->stride + (size_t)x0 + 1;
		memcpy(before + j * w, row, w);
		for (size_t i = 0; i < w; i++) free_delta += (row[i] != 0) - (blocked ? 1 : 0);
		memset(row, blocked ? 1 : 0, w);
	}
	gtStatus st = rederive_locally(m, x0, y0, x1, y1, pinch_before, free_delta, err);
	if (st) // as it was
		for (size_t j = 0; j < h; j++)
			memcpy(m->blocked + ((size_t)y0 + j + 1) * (size_t)m->stride + (size_t)x0 + 1, before + j * w, w);
	else gt_free_runs_update(m, x0, y0, x1, y1);
	gt_free(before);
	return st;
}

gtStatus gt_map_copy(const gtMap* m, gtMap** out, gtError* err)
{
	*out = NULL;
	gtMap* c = map_alloc(m->width, m->height);
	gtVertex* vertices = gt_malloc(sizeof *vertices * (size_t)(m->vertex_count > 0 ? m->vertex_count : 1));
	if (!c || !vertices) {
		gtMap_Destroy(c);
		gt_free(vertices);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory copying a %dx%d map", m->width, m->height);
	}
	unsigned char *cells = c->blocked, *run_x = c->run_x, *run_y = c->run_y;
	uint64_t *bits_x = c->bits_x, *bits_y = c->bits_y;
	*c = *m;
	c->blocked = cells;
	c->run_x = run_x, c->run_y = run_y;
	c->bits_x = bits_x, c->bits_y = bits_y;
	memcpy(c->bits_x, m->bits_x, bits_words(m) * sizeof *m->bits_x);
	memcpy(c->blocked, m->blocked, (size_t)(m->width + 2) * (size_t)(m->height + 2));
	memcpy(c->run_x, m->run_x, 2 * (size_t)(m->width + 2) * (size_t)(m->height + 2));
	memcpy(vertices, m->vertices, sizeof *vertices * (size_t)m->vertex_count);
	c->vertices = vertices;
	*out = c;
	return GT_OK;
}
