// Point location in a navigation mesh: a uniform bucket grid over the polygons' bounding boxes,
// then exact orientation tests against the few polygons of the point's bucket.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "mesh/mesh_internal.h"

enum { MAX_BUCKETS = 1 << 22, MAX_SIDE = 2048 };

static void polygon_box(const gtMesh* m, int p, double* x0, double* y0, double* x1, double* y1)
{
	*x0 = *y0 = INFINITY;
	*x1 = *y1 = -INFINITY;
	for (int32_t i = m->first[p]; i < m->first[p + 1]; i++) {
		double x = m->x[m->corner[i]], y = m->y[m->corner[i]];
		if (x < *x0) *x0 = x;
		if (x > *x1) *x1 = x;
		if (y < *y0) *y0 = y;
		if (y > *y1) *y1 = y;
	}
}

static int clamp(int v, int hi)
{
	return v < 0 ? 0 : v > hi ? hi : v;
}

// The buckets [*c0, *c1] x [*r0, *r1] a box meets (closed: a point on a bucket line finds both).
static void box_buckets(const gtMesh* m, double x0, double y0, double x1, double y1, int* c0, int* r0, int* c1, int* r1)
{
	*c0 = clamp((int)floor((x0 - m->min_x) / m->bucket_size), m->bucket_columns - 1);
	*c1 = clamp((int)floor((x1 - m->min_x) / m->bucket_size), m->bucket_columns - 1);
	*r0 = clamp((int)floor((y0 - m->min_y) / m->bucket_size), m->bucket_rows - 1);
	*r1 = clamp((int)floor((y1 - m->min_y) / m->bucket_size), m->bucket_rows - 1);
}

gtStatus gt_mesh_index(gtMesh* m, gtError* err)
{
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	for (int v = 0; v < m->vertex_count; v++) {
		if (m->x[v] < x0) x0 = m->x[v];
		if (m->x[v] > x1) x1 = m->x[v];
		if (m->y[v] < y0) y0 = m->y[v];
		if (m->y[v] > y1) y1 = m->y[v];
	}
	// About two polygons per bucket, on a square grid over the bounding box.
	double w = x1 - x0 + 1, h = y1 - y0 + 1;
	double buckets = m->polygon_count / 2.0 + 1;
	if (buckets > MAX_BUCKETS) buckets = MAX_BUCKETS;
	m->bucket_size = sqrt(w * h / buckets);
	if (m->bucket_size < 1) m->bucket_size = 1;
	// At most MAX_SIDE buckets a side, however long and thin the mesh.
	if (m->bucket_size < w / MAX_SIDE) m->bucket_size = w / MAX_SIDE;
	if (m->bucket_size < h / MAX_SIDE) m->bucket_size = h / MAX_SIDE;
	m->min_x = x0, m->min_y = y0;
	m->bucket_columns = (int)ceil(w / m->bucket_size) + 1;
	m->bucket_rows = (int)ceil(h / m->bucket_size) + 1;
	size_t cells = (size_t)m->bucket_columns * (size_t)m->bucket_rows;
	m->bucket_first = gt_calloc(cells + 1, sizeof *m->bucket_first);
	if (!m->bucket_first) return gt_fail(err, GT_ERR_NOMEM, "out of memory indexing a mesh");
	// Two passes: count, then fill (bucket_first ends as each bucket's start).
	for (int pass = 0; pass < 2; pass++) {
		for (int p = 0; p < m->polygon_count; p++) {
			double a, b, c, d;
			int c0, r0, c1, r1;
			polygon_box(m, p, &a, &b, &c, &d);
			box_buckets(m, a, b, c, d, &c0, &r0, &c1, &r1);
			for (int r = r0; r <= r1; r++)
				for (int c = c0; c <= c1; c++) {
					size_t cell = (size_t)r * (size_t)m->bucket_columns + (size_t)c;
					if (pass == 0) m->bucket_first[cell + 1]++;
					else m->bucket_polygons[m->bucket_first[cell]++] = p;
				}
		}
		if (pass == 0) {
			for (size_t i = 0; i < cells; i++) {
				if ((int64_t)m->bucket_first[i] + m->bucket_first[i + 1] > INT32_MAX)
					return gt_fail(err, GT_ERR_LIMIT, "a mesh with too many polygons per bucket");
				m->bucket_first[i + 1] += m->bucket_first[i];
			}
			m->bucket_polygons = gt_malloc(((size_t)m->bucket_first[cells] + 1) * sizeof *m->bucket_polygons);
			if (!m->bucket_polygons) return gt_fail(err, GT_ERR_NOMEM, "out of memory indexing a mesh");
		}
	}
	// The fill advanced every start to the next bucket's: shift them back.
	memmove(m->bucket_first + 1, m->bucket_first, cells * sizeof *m->bucket_first);
	m->bucket_first[0] = 0;
	return GT_OK;
}

// Where p is relative to polygon q: -1 outside, 0 inside, 1 on an edge (*edge = index of its end
// vertex in the polygon), 2 on a vertex (*edge = its index).
static int classify(const gtMesh* m, int q, gtVec2 p, int* edge)
{
	int32_t begin = m->first[q], n = m->first[q + 1] - begin;
	int zeros = 0, zero_at = 0;
	for (int i = 0; i < n; i++) {
		int a = m->corner[begin + (i + n - 1) % n], b = m->corner[begin + i];
		if (m->x[b] == p.x && m->y[b] == p.y) {
			*edge = i;
			return 2;
		}
		double c = (m->x[b] - m->x[a]) * (p.y - m->y[a]) - (m->y[b] - m->y[a]) * (p.x - m->x[a]);
		if (c < 0) return -1;
		// On this edge's line: on the edge itself only between its ends (polygons may have
		// collinear vertices, so a point can be on the line of two edges and on one of them).
		if (c == 0 && (p.x - m->x[a]) * (p.x - m->x[b]) <= 0 && (p.y - m->y[a]) * (p.y - m->y[b]) <= 0)
			zeros++, zero_at = i;
	}
	if (zeros == 0) return 0;
	*edge = zero_at;
	return 1;
}

gtMeshLocation gtMesh_Locate(const gtMesh* m, gtVec2 p)
{
	gtMeshLocation at = {GT_MESH_OUTSIDE, -1, -1, -1};
	if (!isfinite(p.x) || !isfinite(p.y)) return at;
	double fx = (p.x - m->min_x) / m->bucket_size, fy = (p.y - m->min_y) / m->bucket_size;
	if (fx < 0 || fy < 0 || fx >= m->bucket_columns || fy >= m->bucket_rows) return at;
	size_t cell = (size_t)(int)fy * (size_t)m->bucket_columns + (size_t)(int)fx;
	for (int32_t i = m->bucket_first[cell]; i < m->bucket_first[cell + 1]; i++) {
		int q = m->bucket_polygons[i], edge;
		int where = classify(m, q, p, &edge);
		if (where < 0) continue;
		at.polygon = q;
		if (where == 0) at.place = GT_MESH_IN_POLYGON;
		else if (where == 1) {
			at.place = GT_MESH_ON_EDGE;
			at.other = m->across[m->first[q] + edge];
		} else {
			at.place = GT_MESH_ON_VERTEX;
			at.vertex = m->corner[m->first[q] + edge];
		}
		return at;
	}
	return at;
}

// The polygons a point belongs to for the search: all that hold it, except at a pinch vertex
// (two obstacle sectors), where only the polygon of the point nudged by (+1e-5, +1e-5) counts, as
// the grid's rule (docs/algorithms.md 2.3) sends such a point into cell (x, y).
int gt_mesh_point_polygons(const gtMesh* m, gtVec2 q, int32_t* out, int room)
{
	gtMeshLocation at = gtMesh_Locate(m, q);
	if (at.place == GT_MESH_OUTSIDE) return 0;
	if (at.place == GT_MESH_IN_POLYGON) {
		out[0] = at.polygon;
		return 1;
	}
	if (at.place == GT_MESH_ON_EDGE) {
		out[0] = at.polygon;
		if (at.other < 0) return 1;
		out[1] = at.other;
		return 2;
	}
	int obstacles = 0, count = 0;
	for (int32_t i = m->around_first[at.vertex]; i < m->around_first[at.vertex + 1]; i++) obstacles += m->around[i] < 0;
	if (obstacles >= 2) {
		gtMeshLocation nudged = gtMesh_Locate(m, (gtVec2){q.x + 1e-5, q.y + 1e-5});
		if (nudged.place == GT_MESH_OUTSIDE) return 0;
		out[0] = nudged.polygon;
		return 1;
	}
	for (int32_t i = m->around_first[at.vertex]; i < m->around_first[at.vertex + 1] && count < room; i++)
		if (m->around[i] >= 0) out[count++] = m->around[i];
	return count;
}
