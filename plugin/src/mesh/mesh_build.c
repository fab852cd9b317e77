// A navigation mesh made from a grid map: the free cells cut into rectangles (runs of free cells
// stacked while the run below has the same extent), whose sides are split wherever the polygon
// across changes, so that neighbours share whole edges. Also the `.mesh` writer.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/save_file.h"
#include "core/status.h"
#include "mesh/mesh_internal.h"

typedef struct Rect {
	int x0, y0, x1, y1; // cells [x0, x1) x [y0, y1)
} Rect;

typedef struct Builder {
	const gtMap* map;
	int w, h;
	int32_t* cell_rect; // rectangle of each free cell, -1 for walls
	Rect* rects;
	int rect_count;
	int64_t rect_capacity;
	int32_t* vertex_at; // grid point (w + 1) * y + x -> vertex, -1 = none yet
	double *x, *y;
	int vertex_count;
	int64_t x_capacity, y_capacity;
	int32_t *corner, *across; // polygon rings, first[p] .. first[p + 1]
	int64_t ring_count, ring_capacity;
	int32_t* first;
} Builder;

static int32_t rect_at(const Builder* b, int x, int y)
{
	if (x < 0 || y < 0 || x >= b->w || y >= b->h) return -1;
	return b->cell_rect[(size_t)y * (size_t)b->w + (size_t)x];
}

static int32_t vertex_id(Builder* b, int x, int y)
{
	int32_t* slot = &b->vertex_at[(size_t)y * (size_t)(b->w + 1) + (size_t)x];
	if (*slot >= 0) return *slot;
	if (!gt_grow((void**)&b->x, &b->x_capacity, b->vertex_count + 1, sizeof *b->x, 4096) ||
	    !gt_grow((void**)&b->y, &b->y_capacity, b->vertex_count + 1, sizeof *b->y, 4096))
		return -1;
	b->x[b->vertex_count] = x, b->y[b->vertex_count] = y;
	return *slot = b->vertex_count++;
}

// Appends vertex (x, y) to the ring being built; `edge_across` is the polygon across the edge that
// ends there.
static bool ring_add(Builder* b, int x, int y, int32_t edge_across)
{
	int32_t v = vertex_id(b, x, y); // the rings' room is reserved per rectangle (its perimeter)
	if (v < 0) return false;
	b->corner[b->ring_count] = v;
	b->across[b->ring_count] = edge_across;
	b->ring_count++;
	return true;
}

// One side of rectangle r, walked from (x, y) by (dx, dy) for `length` unit steps, with the cell
// across each step found by `across` offsets: a vertex wherever the polygon across changes.
static bool walk_side(Builder* b, int x, int y, int dx, int dy, int length, int ox, int oy, int32_t* current)
{
	for (int i = 0; i < length; i++) {
		// The unit step from (x, y) to (x + dx, y + dy); the cell across it lies towards (ox, oy).
		int cx = x + (dx < 0 ? -1 : 0) + (ox < 0 ? -1 : 0), cy = y + (dy < 0 ? -1 : 0) + (oy < 0 ? -1 : 0);
		int32_t across = rect_at(b, cx, cy);
		if (i > 0 && across != *current && !ring_add(b, x, y, *current)) return false;
		*current = across;
		x += dx, y += dy;
	}
	return true;
}

static bool add_ring(Builder* b, const Rect* r)
{
	int64_t start = b->ring_count;
	int32_t current = -2;
	// Counter-clockwise in (x, y) with y down the rows: top side left to right, right side down,
	// bottom side right to left, left side up. Each corner ends the side before it.
	if (!ring_add(b, r->x0, r->y0, -1)) return false; // its edge's `across` is set at the end
	if (!walk_side(b, r->x0, r->y0, 1, 0, r->x1 - r->x0, 0, -1, &current)) return false;
	if (!ring_add(b, r->x1, r->y0, current)) return false;
	current = -2;
	if (!walk_side(b, r->x1, r->y0, 0, 1, r->y1 - r->y0, 1, 0, &current)) return false;
	if (!ring_add(b, r->x1, r->y1, current)) return false;
	current = -2;
	if (!walk_side(b, r->x1, r->y1, -1, 0, r->x1 - r->x0, 0, 1, &current)) return false;
	if (!ring_add(b, r->x0, r->y1, current)) return false;
	current = -2;
	if (!walk_side(b, r->x0, r->y1, 0, -1, r->y1 - r->y0, -1, 0, &current)) return false;
	b->across[start] = current; // the left side's last piece ends at the first vertex
	return true;
}

// Whether cells [x0, x1) of row y are a whole run of free cells: free, with a wall (or the map's
// edge) on both sides.
static bool same_run(const Builder* b, int y, int x0, int x1)
{
	if ((x0 > 0 && !gtMap_IsBlocked(b->map, x0 - 1, y)) || (x1 < b->w && !gtMap_IsBlocked(b->map, x1, y))) return false;
	for (int x = x0; x < x1; x++)
		if (gtMap_IsBlocked(b->map, x, y)) return false;
	return true;
}

// The rectangles: each row's runs of free cells, a run stacked with the runs of exactly the same
// extent below it. Every side is then a wall or a cut whose ends are where a run ends, at a wall:
// no vertex lies in open space (the search then never meets a ray through a vertex between four
// polygons, and every vertex is an obstacle corner or on a wall, as in the shipped meshes).
static bool cut_rectangles(Builder* b)
{
	for (int y = 0; y < b->h; y++)
		for (int x = 0; x < b->w;) {
			if (gtMap_IsBlocked(b->map, x, y)) {
				x++;
				continue;
			}
			int x1 = x;
			while (x1 < b->w && !gtMap_IsBlocked(b->map, x1, y)) x1++;
			if (b->cell_rect[(size_t)y * (size_t)b->w + (size_t)x] >= 0) { // stacked under a run above
				x = x1;
				continue;
			}
			int y1 = y + 1;
			while (y1 < b->h && same_run(b, y1, x, x1)) y1++;
			if (!gt_grow((void**)&b->rects, &b->rect_capacity, b->rect_count + 1, sizeof *b->rects, 1024)) return false;
			b->rects[b->rect_count] = (Rect){x, y, x1, y1};
			for (int j = y; j < y1; j++)
				for (int i = x; i < x1; i++) b->cell_rect[(size_t)j * (size_t)b->w + (size_t)i] = b->rect_count;
			b->rect_count++;
			x = x1;
		}
	return true;
}

// The polygons around each vertex: its four cells in turn, walls as -1, repeats folded.
static bool vertex_rings(Builder* b, gtMesh* m)
{
	m->around_first = gt_malloc(((size_t)b->vertex_count + 1) * sizeof *m->around_first);
	m->around = gt_malloc(((size_t)b->vertex_count * 4 + 1) * sizeof *m->around);
	if (!m->around_first || !m->around) return false;
	int32_t n = 0;
	for (int v = 0; v < b->vertex_count; v++) {
		int x = (int)m->x[v], y = (int)m->y[v];
		int32_t cells[4] = {rect_at(b, x, y), rect_at(b, x, y - 1), rect_at(b, x - 1, y - 1), rect_at(b, x - 1, y)};
		m->around_first[v] = n;
		for (int i = 0; i < 4; i++)
			if (i == 0 || cells[i] != cells[i - 1]) m->around[n++] = cells[i];
		if (n - m->around_first[v] > 1 && m->around[n - 1] == m->around[m->around_first[v]]) n--; // the ring closes
		if (n - m->around_first[v] == 1) { // one polygon all round (never for a rectangle's vertex): still two entries
			m->around[n] = m->around[n - 1];
			n++;
		}
	}
	m->around_first[b->vertex_count] = n;
	return true;
}

gtStatus gtMesh_FromMap(const gtMap* map, gtMesh** out, gtError* err)
{
	*out = NULL;
	if (!map) return gt_fail(err, GT_ERR_INVALID_ARG, "no map");
	Builder b = {.map = map, .w = gtMap_Width(map), .h = gtMap_Height(map)};
	gtMesh* m = gt_calloc(1, sizeof *m);
	size_t cells = (size_t)b.w * (size_t)b.h, points = (size_t)(b.w + 1) * (size_t)(b.h + 1);
	b.cell_rect = gt_malloc(cells * sizeof *b.cell_rect);
	b.vertex_at = gt_malloc(points * sizeof *b.vertex_at);
	gtStatus st = GT_OK;
	if (!m || !b.cell_rect || !b.vertex_at) goto nomem;
	memset(b.cell_rect, 0xff, cells * sizeof *b.cell_rect);
	memset(b.vertex_at, 0xff, points * sizeof *b.vertex_at);
	if (!cut_rectangles(&b)) goto nomem;
	if (b.rect_count == 0) {
		st = gt_fail(err, GT_ERR_INVALID_ARG, "the map has no free cell: no mesh to make");
		goto done;
	}
	b.first = gt_malloc(((size_t)b.rect_count + 1) * sizeof *b.first);
	if (!b.first) goto nomem;
	int64_t across_capacity = 0;
	for (int r = 0; r < b.rect_count; r++) {
		b.first[r] = (int32_t)b.ring_count;
		// Room for the longest ring: its perimeter in unit steps.
		int64_t most = b.ring_count + 2 * (int64_t)(b.rects[r].x1 - b.rects[r].x0 + b.rects[r].y1 - b.rects[r].y0) + 4;
		if (!gt_grow((void**)&b.corner, &b.ring_capacity, most, sizeof *b.corner, 4096) ||
		    !gt_grow((void**)&b.across, &across_capacity, most, sizeof *b.across, 4096))
			goto nomem;
		if (!add_ring(&b, &b.rects[r])) goto nomem;
	}
	b.first[b.rect_count] = (int32_t)b.ring_count;
	m->vertex_count = b.vertex_count, m->polygon_count = b.rect_count;
	m->x = b.x, m->y = b.y, b.x = b.y = NULL;
	m->first = b.first, m->corner = b.corner, m->across = b.across;
	b.first = b.corner = b.across = NULL;
	if (!vertex_rings(&b, m)) goto nomem;
	st = gt_mesh_finish(m, "the mesh made from the map", err);
	goto done;
nomem:
	st = gt_fail(err, GT_ERR_NOMEM, "out of memory making a mesh");
done:
	gt_free(b.cell_rect), gt_free(b.vertex_at), gt_free(b.rects), gt_free(b.x), gt_free(b.y);
	gt_free(b.first), gt_free(b.corner), gt_free(b.across);
	if (st) {
		gtMesh_Destroy(m);
		return st;
	}
	*out = m;
	return GT_OK;
}

static bool write_mesh(FILE* f, void* context)
{
	const gtMesh* m = context;
	fprintf(f, "mesh\n2\n%d %d\n", m->vertex_count, m->polygon_count);
	for (int v = 0; v < m->vertex_count; v++) {
		fprintf(f, "%.17g %.17g %d", m->x[v], m->y[v], m->around_first[v + 1] - m->around_first[v]);
		for (int32_t i = m->around_first[v]; i < m->around_first[v + 1]; i++) fprintf(f, " %d", m->around[i]);
		fputc('\n', f);
	}
	for (int p = 0; p < m->polygon_count; p++) {
		fprintf(f, "%d", m->first[p + 1] - m->first[p]);
		for (int32_t i = m->first[p]; i < m->first[p + 1]; i++) fprintf(f, " %d", m->corner[i]);
		for (int32_t i = m->first[p]; i < m->first[p + 1]; i++) fprintf(f, " %d", m->across[i]);
		fputc('\n', f);
	}
	return true; // gt_save_file checks ferror
}

gtStatus gtMesh_Save(const gtMesh* m, const char* path, gtError* err)
{
	return gt_save_file(path, write_mesh, (void*)m, err);
}
