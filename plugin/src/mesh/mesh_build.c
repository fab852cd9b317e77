// A navigation mesh made from a grid map the way the shipped meshes were made (docs/algorithms.md
// 1.3): the obstacle corners and the walls between them are triangulated (constrained Delaunay,
// cdt.c), the triangles over free cells kept and merged into convex polygons (mesh_merge.c). Every
// vertex is then an obstacle corner; none lies in open space or in the middle of a wall.
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "mesh/cdt.h"
#include "mesh/mesh_internal.h"
#include "mesh/mesh_merge.h"

typedef struct Builder {
	const gtMap* map;
	int w, h;
	int32_t *x, *y;
	// The next obstacle corner to the right in the same row and down in the same column, -1 = none:
	// a wall leaving a corner that way ends there.
	int32_t *row_next, *column_next;
	int count;
	int64_t x_capacity, y_capacity, row_capacity, column_capacity;
	gtCdt cdt;
	gtPolygonSet polygons;
} Builder;

static bool blocked(const Builder* b, int x, int y)
{
	return x < 0 || y < 0 || x >= b->w || y >= b->h || gtMap_IsBlocked(b->map, x, y);
}

// A grid point where the free space's boundary turns or pinches (docs/algorithms.md 2.2).
static bool obstacle_corner(const Builder* b, int x, int y)
{
	gtCorner kind = gtMap_ClassifyCorner(b->map, x, y);
	return kind == GT_CORNER_CONVEX || kind == GT_CORNER_CONCAVE || kind == GT_CORNER_PINCH;
}

static int32_t add_point(Builder* b, int x, int y)
{
	if (!GT_GROW(b->x, b->x_capacity, b->count + 1, 4096) || !GT_GROW(b->y, b->y_capacity, b->count + 1, 4096) ||
	    !GT_GROW(b->row_next, b->row_capacity, b->count + 1, 4096) ||
	    !GT_GROW(b->column_next, b->column_capacity, b->count + 1, 4096))
		return -1;
	b->x[b->count] = x, b->y[b->count] = y;
	b->row_next[b->count] = b->column_next[b->count] = -1;
	return b->count++;
}

// The rectangle's corners first (the triangulation starts from them), then every obstacle corner,
// row by row, linked to the next one in its row and column. Memory grows with the corners, not
// with the map.
static bool collect_points(Builder* b)
{
	const int corners[4][2] = {{0, 0}, {b->w, 0}, {b->w, b->h}, {0, b->h}};
	for (int i = 0; i < 4; i++)
		if (add_point(b, corners[i][0], corners[i][1]) < 0) return false;
	int32_t* column_last = gt_malloc(((size_t)b->w + 1) * sizeof *column_last);
	if (!column_last) return false;
	memset(column_last, 0xff, ((size_t)b->w + 1) * sizeof *column_last);
	bool ok = true;
	for (int y = 0; y <= b->h && ok; y++) {
		int32_t row_last = -1;
		for (int x = 0; x <= b->w && ok; x++) {
			if (!obstacle_corner(b, x, y)) continue;
			int32_t p = y == 0 ? (x == 0 ? 0 : x == b->w ? 1 : -1) : y == b->h ? (x == 0 ? 3 : x == b->w ? 2 : -1) : -1;
			if (p < 0 && (p = add_point(b, x, y)) < 0) ok = false;
			if (!ok) break;
			if (row_last >= 0) b->row_next[row_last] = p;
			if (column_last[x] >= 0) b->column_next[column_last[x]] = p;
			row_last = column_last[x] = p;
		}
	}
	gt_free(column_last);
	return ok;
}

// Each wall between two neighbouring corners becomes a constraint, found from its left or top end:
// a unit edge with a free cell on one side only, followed to the next corner.
static gtStatus constrain_walls(Builder* b, gtError* err)
{
	for (int p = 0; p < b->count; p++) {
		int x = b->x[p], y = b->y[p];
		gtStatus st = GT_OK;
		if (x < b->w && blocked(b, x, y - 1) != blocked(b, x, y))
			st = b->row_next[p] < 0 ? gt_fail(err, GT_ERR_INVALID_ARG, "mesh: the wall from (%d, %d) has no end", x, y)
			                        : gt_cdt_constrain(&b->cdt, p, b->row_next[p], err);
		if (!st && y < b->h && blocked(b, x - 1, y) != blocked(b, x, y))
			st = b->column_next[p] < 0
			         ? gt_fail(err, GT_ERR_INVALID_ARG, "mesh: the wall from (%d, %d) has no end", x, y)
			         : gt_cdt_constrain(&b->cdt, p, b->column_next[p], err);
		if (st) return st;
	}
	return GT_OK;
}

// The triangles over free cells, as polygons: a triangle lies wholly on free or blocked cells (the
// walls are its edges), so the cell holding its centroid tells which.
static gtStatus keep_free_triangles(Builder* b, gtError* err)
{
	const gtCdt* c = &b->cdt;
	int32_t* polygon_of = gt_malloc(((size_t)c->count + 1) * sizeof *polygon_of);
	if (!polygon_of) return gt_fail(err, GT_ERR_NOMEM, "out of memory making a mesh");
	int kept = 0;
	for (int t = 0; t < c->count; t++) {
		const int32_t* v = c->t[t].v;
		int cx = (b->x[v[0]] + b->x[v[1]] + b->x[v[2]]) / 3, cy = (b->y[v[0]] + b->y[v[1]] + b->y[v[2]]) / 3;
		polygon_of[t] = blocked(b, cx, cy) ? -1 : kept++;
	}
	gtStatus st = GT_OK;
	for (int t = 0; t < c->count && !st; t++) {
		if (polygon_of[t] < 0) continue;
		const gtCdtTriangle* T = &c->t[t];
		int32_t across[3];
		for (int i = 0; i < 3; i++) { // the edge ending at v[i] is edge i - 1
			int32_t n = T->n[(i + 2) % 3];
			across[i] = n < 0 ? -1 : polygon_of[n];
		}
		if (gt_polygons_add(&b->polygons, T->v, across, 3) < 0)
			st = gt_fail(err, GT_ERR_NOMEM, "out of memory making a mesh");
	}
	gt_free(polygon_of);
	return st;
}

// Half-plane then cross product: the counter-clockwise order of directions, starting along +x.
static bool turns_before(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
	int half_a = ay < 0 || (ay == 0 && ax < 0), half_b = by < 0 || (by == 0 && bx < 0);
	if (half_a != half_b) return half_a < half_b;
	return ax * by - ay * bx > 0;
}

typedef struct Visit {
	int32_t polygon, entry;
	int64_t dx, dy; // towards the next vertex of the polygon: where its sector at the vertex starts
} Visit;

// The polygons round each vertex in counter-clockwise order, -1 after each one whose edge ending
// at the vertex is a wall.
static gtStatus vertex_rings(gtMesh* m, gtError* err)
{
	int32_t total = m->first[m->polygon_count];
	int32_t* visit_first = gt_calloc((size_t)m->vertex_count + 1, sizeof *visit_first);
	Visit* visits = gt_malloc(((size_t)total + 1) * sizeof *visits);
	m->around_first = gt_malloc(((size_t)m->vertex_count + 1) * sizeof *m->around_first);
	m->around = gt_malloc(((size_t)total * 2 + 1) * sizeof *m->around);
	gtStatus st = GT_OK;
	if (!visit_first || !visits || !m->around_first || !m->around) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory making a mesh");
		goto done;
	}
	for (int32_t e = 0; e < total; e++) visit_first[m->corner[e] + 1]++;
	for (int v = 0; v < m->vertex_count; v++) visit_first[v + 1] += visit_first[v];
	for (int p = 0; p < m->polygon_count; p++)
		for (int32_t e = m->first[p]; e < m->first[p + 1]; e++) {
			int32_t v = m->corner[e], next = m->corner[e + 1 < m->first[p + 1] ? e + 1 : m->first[p]];
			// Filling moves each start up to the next vertex's: below, vertex v's visits begin at
			// visit_first[v - 1].
			visits[visit_first[v]++] = (Visit){p, e, (int64_t)(m->x[next] - m->x[v]), (int64_t)(m->y[next] - m->y[v])};
		}
	int32_t n = 0;
	for (int v = 0; v < m->vertex_count; v++) {
		int32_t begin = v == 0 ? 0 : visit_first[v - 1], end = visit_first[v];
		for (int32_t i = begin + 1; i < end; i++) { // a few polygons each: insertion sort
			Visit visit = visits[i];
			int32_t at = i;
			for (; at > begin && turns_before(visit.dx, visit.dy, visits[at - 1].dx, visits[at - 1].dy); at--)
				visits[at] = visits[at - 1];
			visits[at] = visit;
		}
		m->around_first[v] = n;
		for (int32_t i = begin; i < end; i++) {
			m->around[n++] = visits[i].polygon;
			if (m->across[visits[i].entry] < 0) m->around[n++] = -1;
		}
		if (n - m->around_first[v] > GT_MESH_MAX_AROUND_VERTEX) {
			st = gt_fail(err, GT_ERR_LIMIT,
			             "the mesh made from the map has more than %d polygons round vertex (%g, %g)",
			             GT_MESH_MAX_AROUND_VERTEX, m->x[v], m->y[v]);
			goto done;
		}
	}
	m->around_first[m->vertex_count] = n;
done:
	gt_free(visit_first), gt_free(visits);
	return st;
}

// The merged polygons numbered in order, with only the vertices they use.
static gtStatus assemble(const Builder* b, gtMesh* m, gtError* err)
{
	const gtPolygonSet* s = &b->polygons;
	int32_t* polygon_id = gt_malloc(((size_t)s->count + 1) * sizeof *polygon_id);
	int32_t* vertex_id = gt_malloc(((size_t)b->count + 1) * sizeof *vertex_id);
	gtStatus st = GT_OK;
	int64_t ring = 0;
	if (!polygon_id || !vertex_id) goto nomem;
	memset(vertex_id, 0xff, (size_t)b->count * sizeof *vertex_id);
	for (int p = 0; p < s->count; p++) {
		polygon_id[p] = s->size[p] > 0 ? m->polygon_count++ : -1;
		ring += s->size[p];
		for (int i = 0; i < s->size[p]; i++) {
			int32_t* id = &vertex_id[s->corner[s->start[p] + i]];
			if (*id < 0) *id = m->vertex_count++;
		}
	}
	m->x = gt_malloc((size_t)m->vertex_count * sizeof *m->x);
	m->y = gt_malloc((size_t)m->vertex_count * sizeof *m->y);
	m->first = gt_malloc(((size_t)m->polygon_count + 1) * sizeof *m->first);
	m->corner = gt_malloc(((size_t)ring + 1) * sizeof *m->corner);
	m->across = gt_malloc(((size_t)ring + 1) * sizeof *m->across);
	if (!m->x || !m->y || !m->first || !m->corner || !m->across) goto nomem;
	for (int v = 0; v < b->count; v++)
		if (vertex_id[v] >= 0) m->x[vertex_id[v]] = b->x[v], m->y[vertex_id[v]] = b->y[v];
	int32_t at = 0;
	for (int p = 0; p < s->count; p++) {
		if (polygon_id[p] < 0) continue;
		m->first[polygon_id[p]] = at;
		for (int i = 0; i < s->size[p]; i++) {
			int32_t across = s->across[s->start[p] + i];
			m->corner[at] = vertex_id[s->corner[s->start[p] + i]];
			m->across[at++] = across < 0 ? -1 : polygon_id[across];
		}
	}
	m->first[m->polygon_count] = at;
	st = vertex_rings(m, err);
	goto done;
nomem:
	st = gt_fail(err, GT_ERR_NOMEM, "out of memory making a mesh");
done:
	gt_free(polygon_id), gt_free(vertex_id);
	return st;
}

gtStatus gtMesh_FromMap(const gtMap* map, gtMesh** out, gtError* err)
{
	*out = NULL;
	if (!map) return gt_fail(err, GT_ERR_INVALID_ARG, "no map");
	if (gtMap_FreeCells(map) == 0) return gt_fail(err, GT_ERR_INVALID_ARG, "the map has no free cell: no mesh to make");
	Builder b = {.map = map, .w = gtMap_Width(map), .h = gtMap_Height(map)};
	gtMesh* m = gt_calloc(1, sizeof *m);
	gtStatus st = GT_OK;
	if (!m || !collect_points(&b)) {
		st = gt_fail(err, GT_ERR_NOMEM, "out of memory making a mesh");
		goto done;
	}
	b.polygons.x = b.x, b.polygons.y = b.y;
	if ((st = gt_cdt_triangulate(&b.cdt, b.x, b.y, b.count, b.w, b.h, err)) || (st = constrain_walls(&b, err)) ||
	    (st = gt_cdt_make_delaunay(&b.cdt, err)) || (st = keep_free_triangles(&b, err)))
		goto done;
	gt_cdt_free(&b.cdt); // the polygons hold what is left
	if ((st = gt_polygons_merge(&b.polygons, err)) || (st = assemble(&b, m, err))) goto done;
	st = gt_mesh_finish(m, "the mesh made from the map", err);
done:
	gt_cdt_free(&b.cdt), gt_polygons_free(&b.polygons);
	gt_free(b.x), gt_free(b.y), gt_free(b.row_next), gt_free(b.column_next);
	if (st) {
		gtMesh_Destroy(m);
		return st;
	}
	*out = m;
	return GT_OK;
}
