// Reading Polyanya `.mesh` files, version 2 (docs/algorithms.md 1.3), with every index checked.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/platform.h"
#include "core/status.h"
#include "mesh/mesh_internal.h"

// A search starts in every polygon around a vertex it starts on: at most MAX_AROUND_VERTEX.
enum { MAX_MESH_ITEMS = 50000000, MAX_POLYGON_SIDES = 1 << 16, MAX_AROUND_VERTEX = GT_MESH_MAX_AROUND_VERTEX };
#define MAX_COORDINATE 1e7 // far beyond any map side gridtree takes
#define MAX_MESH_FILE_BYTES (2ull << 30)

typedef struct Reader {
	const char *at, *end, *name;
	int line;
	gtError* err;
} Reader;

// The next whitespace-separated token as a number; false (with the error set) at the end or on junk.
static bool number(Reader* r, const char* what, double* value)
{
	while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' || *r->at == '\r' || *r->at == '\n')) {
		if (*r->at == '\n') r->line++;
		r->at++;
	}
	if (r->at == r->end) {
		gt_fail(r->err, GT_ERR_FORMAT, "%s:%d: the file ends where %s should be", r->name, r->line, what);
		return false;
	}
	char token[64];
	size_t n = 0;
	while (r->at < r->end && !strchr(" \t\r\n", *r->at) && n + 1 < sizeof token) token[n++] = *r->at++;
	token[n] = 0;
	if (r->at < r->end && !strchr(" \t\r\n", *r->at)) { // no number is this long: not one token read as two
		gt_fail(r->err, GT_ERR_FORMAT, "%s:%d: expected %s, found a token of more than %zu characters", r->name,
		        r->line, what, sizeof token - 1);
		return false;
	}
	char* stop;
	*value = strtod(token, &stop);
	if (n == 0 || *stop || !isfinite(*value)) {
		gt_fail(r->err, GT_ERR_FORMAT, "%s:%d: expected %s, found '%s'", r->name, r->line, what, token);
		return false;
	}
	return true;
}

static bool integer(Reader* r, const char* what, long lo, long hi, int32_t* value)
{
	double v;
	if (!number(r, what, &v)) return false;
	if (v != floor(v) || v < (double)lo || v > (double)hi) {
		gt_fail(r->err, GT_ERR_FORMAT, "%s:%d: %s %g is not a whole number in [%ld, %ld]", r->name, r->line, what, v,
		        lo, hi);
		return false;
	}
	*value = (int32_t)v;
	return true;
}

void gtMesh_Destroy(gtMesh* m)
{
	if (!m) return;
	gt_free(m->x), gt_free(m->y), gt_free(m->first), gt_free(m->corner), gt_free(m->across);
	gt_free(m->around_first), gt_free(m->around), gt_free(m->bucket_first), gt_free(m->bucket_polygons);
	gt_free(m->twin), gt_free(m->corner_vertex), gt_free(m->exits), gt_free(m->ring_xy);
	gt_free(m);
}

// Grows a flat int32 array to hold `need` entries.
static bool room(int32_t** a, int64_t* capacity, int64_t need)
{
	return gt_grow((void**)a, capacity, need, sizeof **a, 1024);
}

static double cross(const gtMesh* m, int a, int b, int c)
{
	return (m->x[b] - m->x[a]) * (m->y[c] - m->y[a]) - (m->y[b] - m->y[a]) * (m->x[c] - m->x[a]);
}

// Polygon p convex and counter-clockwise, each neighbour sharing the edge it is listed for.
static gtStatus check_polygon(gtMesh* m, int p, const char* name, gtError* err)
{
	int32_t begin = m->first[p], n = m->first[p + 1] - begin;
	const int32_t *v = m->corner + begin, *q = m->across + begin;
	for (int i = 0; i < n; i++) {
		int a = v[(i + n - 1) % n], b = v[i], c = v[(i + 1) % n];
		if (a == b) return gt_fail(err, GT_ERR_FORMAT, "%s: polygon %d repeats vertex %d", name, p, b);
		if (cross(m, a, b, c) < 0)
			return gt_fail(err, GT_ERR_FORMAT, "%s: polygon %d is not convex and counter-clockwise at vertex %d", name,
			               p, b);
		if (q[i] < 0) continue;
		// The neighbour across edge a-b lists the same edge the other way round.
		int32_t nb = m->first[q[i]], nn = m->first[q[i] + 1] - nb;
		bool shared = false;
		for (int j = 0; j < nn && !shared; j++)
			if (m->corner[nb + j] == a && m->corner[nb + (j + nn - 1) % nn] == b) shared = true, m->twin[begin + i] = j;
		if (!shared)
			return gt_fail(err, GT_ERR_FORMAT,
			               "%s: polygon %d names %d across edge %d-%d, which does not have that edge", name, p, q[i], a,
			               b);
	}
	return GT_OK;
}

gtStatus gt_mesh_finish(gtMesh* m, const char* name, gtError* err)
{
	int vertex_count = m->vertex_count, polygon_count = m->polygon_count;
	m->twin = gt_malloc(((size_t)m->first[polygon_count] + 1) * sizeof *m->twin);
	m->corner_vertex = gt_calloc((size_t)vertex_count + 1, 1);
	m->exits = gt_calloc((size_t)polygon_count + 1, sizeof *m->exits);
	m->ring_xy = gt_malloc(((size_t)m->first[polygon_count] + 1) * sizeof *m->ring_xy);
	if (!m->twin || !m->corner_vertex || !m->exits || !m->ring_xy)
		return gt_fail(err, GT_ERR_NOMEM, "%s: out of memory", name);
	for (int32_t i = 0; i < m->first[polygon_count]; i++)
		m->ring_xy[i] = (gtVec2){m->x[m->corner[i]], m->y[m->corner[i]]};
	for (int p = 0; p < polygon_count; p++)
		for (int32_t i = m->first[p]; i < m->first[p + 1]; i++) m->exits[p] += m->across[i] >= 0;
	for (int32_t i = 0; i < m->first[polygon_count]; i++) m->twin[i] = -1;
	for (int v = 0; v < vertex_count; v++)
		for (int32_t i = m->around_first[v]; i < m->around_first[v + 1]; i++)
			if (m->around[i] < 0) m->corner_vertex[v] = 1;
	gtStatus st = GT_OK;
	for (int p = 0; p < polygon_count && !st; p++) st = check_polygon(m, p, name, err);
	// Each neighbour names the polygon back across the shared edge: both sides are one edge to the
	// searches (fence labels are kept per edge).
	for (int p = 0; p < polygon_count && !st; p++)
		for (int32_t e = m->first[p]; e < m->first[p + 1] && !st; e++) {
			int32_t q = m->across[e];
			if (q >= 0 && m->across[m->first[q] + m->twin[e]] != p)
				st = gt_fail(err, GT_ERR_FORMAT,
				             "%s: polygon %d names %d across edge %d-%d, but %d does not name %d there", name, p, q,
				             m->corner[e == m->first[p] ? m->first[p + 1] - 1 : e - 1], m->corner[e], q, p);
		}
	return st ? st : gt_mesh_index(m, err);
}

gtStatus gtMesh_Parse(const char* text, size_t length, const char* name, gtMesh** out, gtError* err)
{
	*out = NULL;
	Reader r = {text, text + length, name ? name : "mesh", 1, err};
	while (r.at < r.end && strchr(" \t\r\n", *r.at)) r.line += *r.at++ == '\n';
	if ((size_t)(r.end - r.at) < 4 || memcmp(r.at, "mesh", 4) != 0)
		return gt_fail(err, GT_ERR_FORMAT, "%s:%d: expected 'mesh' (a Polyanya navigation mesh)", r.name, r.line);
	r.at += 4;
	int32_t version, vertex_count, polygon_count;
	if (!integer(&r, "the version", 0, 1000, &version)) return GT_ERR_FORMAT;
	if (version != 2)
		return gt_fail(err, GT_ERR_FORMAT, "%s:%d: mesh version %d, only version 2 is read", r.name, r.line, version);
	if (!integer(&r, "the vertex count", 1, MAX_MESH_ITEMS, &vertex_count) ||
	    !integer(&r, "the polygon count", 1, MAX_MESH_ITEMS, &polygon_count))
		return GT_ERR_FORMAT;
	gtMesh* m = gt_calloc(1, sizeof *m);
	gtStatus st = GT_OK;
	int64_t around_capacity = 0, corner_capacity = 0, across_capacity = 0;
	if (!m) return gt_fail(err, GT_ERR_NOMEM, "%s: out of memory", r.name);
	m->vertex_count = vertex_count, m->polygon_count = polygon_count;
	m->x = gt_malloc((size_t)vertex_count * sizeof *m->x);
	m->y = gt_malloc((size_t)vertex_count * sizeof *m->y);
	m->around_first = gt_malloc(((size_t)vertex_count + 1) * sizeof *m->around_first);
	m->first = gt_malloc(((size_t)polygon_count + 1) * sizeof *m->first);
	if (!m->x || !m->y || !m->around_first || !m->first) goto nomem;
	m->around_first[0] = 0;
	for (int v = 0; v < vertex_count; v++) {
		int32_t n, poly;
		if (!number(&r, "a vertex's x", &m->x[v]) || !number(&r, "a vertex's y", &m->y[v])) goto format;
		if (fabs(m->x[v]) > MAX_COORDINATE || fabs(m->y[v]) > MAX_COORDINATE) {
			st = gt_fail(err, GT_ERR_LIMIT, "%s:%d: vertex %d at (%g, %g) is beyond +-%g", r.name, r.line, v, m->x[v],
			             m->y[v], MAX_COORDINATE);
			goto fail;
		}
		if (!integer(&r, "a vertex's polygon count", 2, MAX_AROUND_VERTEX, &n)) goto format;
		if (!room(&m->around, &around_capacity, (int64_t)m->around_first[v] + n)) goto nomem;
		for (int i = 0; i < n; i++) {
			if (!integer(&r, "a polygon around a vertex", -1, polygon_count - 1, &poly)) goto format;
			m->around[m->around_first[v] + i] = poly;
		}
		if ((int64_t)m->around_first[v] + n > MAX_MESH_ITEMS) goto limit;
		m->around_first[v + 1] = m->around_first[v] + n;
	}
	m->first[0] = 0;
	for (int p = 0; p < polygon_count; p++) {
		int32_t n;
		if (!integer(&r, "a polygon's vertex count", 3, MAX_POLYGON_SIDES, &n)) goto format;
		int64_t end = (int64_t)m->first[p] + n;
		if (end > MAX_MESH_ITEMS) goto limit;
		if (!room(&m->corner, &corner_capacity, end) || !room(&m->across, &across_capacity, end)) goto nomem;
		for (int i = 0; i < n; i++)
			if (!integer(&r, "a polygon's vertex", 0, vertex_count - 1, &m->corner[m->first[p] + i])) goto format;
		// The file lists q_j across v_(j-1)-v_j: stored per vertex as "the edge ending here".
		for (int i = 0; i < n; i++)
			if (!integer(&r, "a polygon's neighbour", -1, polygon_count - 1, &m->across[m->first[p] + i])) goto format;
		m->first[p + 1] = (int32_t)end;
	}
	while (r.at < r.end && strchr(" \t\r\n", *r.at)) r.line += *r.at++ == '\n';
	if (r.at != r.end) {
		st = gt_fail(err, GT_ERR_FORMAT, "%s:%d: text after the last polygon", r.name, r.line);
		goto fail;
	}
	st = gt_mesh_finish(m, r.name, err);
	if (st) goto fail;
	*out = m;
	return GT_OK;
nomem:
	st = gt_fail(err, GT_ERR_NOMEM, "%s: out of memory", r.name);
	goto fail;
limit:
	st = gt_fail(err, GT_ERR_LIMIT, "%s:%d: more than %d entries", r.name, r.line, MAX_MESH_ITEMS);
	goto fail;
format:
	st = GT_ERR_FORMAT;
fail:
	gtMesh_Destroy(m);
	return st;
}

static gtStatus parse_mesh(const char* text, size_t size, const char* name, void* out, gtError* err)
{
	return gtMesh_Parse(text, size, name, out, err);
}

gtStatus gtMesh_Load(const char* path, gtMesh** out, gtError* err)
{
	*out = NULL;
	return gt_load_file(path, MAX_MESH_FILE_BYTES, "mesh", parse_mesh, out, err);
}

int gtMesh_VertexCount(const gtMesh* m)
{
	return m->vertex_count;
}

int gtMesh_PolygonCount(const gtMesh* m)
{
	return m->polygon_count;
}

gtVec2 gtMesh_Vertex(const gtMesh* m, int v)
{
	gtVec2 p = {m->x[v], m->y[v]};
	return p;
}

int gtMesh_Polygon(const gtMesh* m, int p, const int32_t** vertices, const int32_t** neighbours)
{
	if (p < 0 || p >= m->polygon_count) {
		*vertices = *neighbours = NULL;
		return 0;
	}
	*vertices = m->corner + m->first[p];
	*neighbours = m->across + m->first[p];
	return m->first[p + 1] - m->first[p];
}

int64_t gtMesh_Bytes(const gtMesh* m)
{
	int64_t cells = (int64_t)m->bucket_columns * m->bucket_rows;
	// Per vertex: x, y, its ring's start, the corner flag; per polygon: its ring's start and exits;
	// per ring entry: vertex, neighbour, twin, position.
	return (int64_t)sizeof *m + (int64_t)m->vertex_count * (2 * 8 + 4 + 1) + (int64_t)m->polygon_count * 8 +
	       (int64_t)m->first[m->polygon_count] * (3 * 4 + 16) + (int64_t)m->around_first[m->vertex_count] * 4 +
	       (cells + 1) * 4 + (int64_t)m->bucket_first[cells] * 4;
}
