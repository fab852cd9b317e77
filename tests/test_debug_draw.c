// Debug drawing (gt_debug_draw.h): counting callbacks record every primitive, and each drawing
// function is checked against brute force over the state it draws.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

// ---- a recording gtDebugDraw -----------------------------------------------------------------

enum { MAX_PRIMS = 1 << 20 };

typedef struct Prim {
	char kind;   // 's' segment, 'p' polygon, 'c' circle, 'o' point, 't' text
	gtVec2 a, b; // segment ends; polygon's first and third point; circle/point/text position
	int count;   // polygon points
	bool filled;
	double size; // circle radius, point size
	gtColor color;
} Prim;

typedef struct Recorder {
	Prim* prims;
	int count;
	int segments, polygons, circles, points, texts;
} Recorder;

static Prim* add(Recorder* r, char kind, gtColor color)
{
	if (r->count >= MAX_PRIMS) fail_msg("too many primitives");
	Prim* p = &r->prims[r->count++];
	memset(p, 0, sizeof *p);
	p->kind = kind;
	p->color = color;
	return p;
}

static void on_segment(void* c, gtVec2 a, gtVec2 b, gtColor color)
{
	Recorder* r = c;
	Prim* p = add(r, 's', color);
	p->a = a, p->b = b;
	r->segments++;
}

static void on_polygon(void* c, const gtVec2* pts, int count, bool filled, gtColor color)
{
	Recorder* r = c;
	assert_int_equal(count, 4);
	// A rectangle, corners in order.
	assert_true(pts[0].y == pts[1].y && pts[1].x == pts[2].x && pts[2].y == pts[3].y && pts[3].x == pts[0].x);
	Prim* p = add(r, 'p', color);
	p->a = pts[0], p->b = pts[2], p->count = count, p->filled = filled;
	r->polygons++;
}

static void on_circle(void* c, gtVec2 centre, double radius, bool filled, gtColor color)
{
	Recorder* r = c;
	Prim* p = add(r, 'c', color);
	p->a = centre, p->size = radius, p->filled = filled;
	r->circles++;
}

static void on_point(void* c, gtVec2 at, double size, gtColor color)
{
	Recorder* r = c;
	Prim* p = add(r, 'o', color);
	p->a = at, p->size = size;
	r->points++;
}

static void on_text(void* c, gtVec2 at, const char* text, gtColor color)
{
	Recorder* r = c;
	assert_non_null(text);
	Prim* p = add(r, 't', color);
	p->a = at;
	r->texts++;
}

static Recorder* recorder_new(void)
{
	Recorder* r = calloc(1, sizeof *r);
	r->prims = malloc(sizeof(Prim) * MAX_PRIMS);
	assert_true(r && r->prims);
	return r;
}

static void recorder_reset(Recorder* r)
{
	r->count = r->segments = r->polygons = r->circles = r->points = r->texts = 0;
}

static void recorder_free(Recorder* r)
{
	free(r->prims);
	free(r);
}

static gtDebugDraw drawer(Recorder* r)
{
	return (gtDebugDraw){on_segment, on_polygon, on_circle, on_point, on_text, r};
}


static gtMap* load_small(void)
{
	gtMap* m = test_load_map("assets/maps/small.map");
	return m;
}

// ---- world -------------------------------------------------------------------------------------

static void test_leaf_grid(void** state)
{
	(void)state;
	Recorder* r = recorder_new();
	gtDebugDraw d = drawer(r);
	const int sizes[][3] = {{64, 48, 4}, {8, 8, 2}, {13, 7, 3}, {5, 9, 16}};
	for (int s = 0; s < 4; s++) {
		int W = sizes[s][0], H = sizes[s][1];
		gtMap* m = test_random_map(&(TestRng){7}, W, H, 0);
		gtWorld* w = test_make_world(m, sizes[s][2]);
		int height;
		int64_t nodes;
		gtWorld_TreeSize(w, &height, &nodes);
		recorder_reset(r);
		int64_t side = INT64_C(1) << height;
		assert_int_equal(gtDebugDraw_WorldLeafGrid(&d, w), 2 * (side + 1));
		assert_int_equal(r->segments, 2 * (side + 1));
		assert_int_equal(r->count, r->segments);
		// Brute force: vertical line i at x = i * W / 2^h from y = 0 to H, then the horizontal ones.
		for (int64_t i = 0; i <= side; i++) {
			const Prim* v = &r->prims[i];
			const Prim* h = &r->prims[side + 1 + i];
			assert_float_equal(v->a.x, (double)i * W / (double)side, 1e-9);
			assert_float_equal(v->b.x, v->a.x, 0);
			assert_true(v->a.y == 0 && v->b.y == H);
			assert_float_equal(h->a.y, (double)i * H / (double)side, 1e-9);
			assert_float_equal(h->b.y, h->a.y, 0);
			assert_true(h->a.x == 0 && h->b.x == W);
			assert_int_equal(v->color, GT_DEBUG_COLOR_LEAF_GRID);
		}
		gtWorld_Destroy(w);
		gtMap_Destroy(m);
	}
	recorder_free(r);
}

static void test_tree_nodes(void** state)
{
	(void)state;
	Recorder* r = recorder_new();
	gtDebugDraw d = drawer(r);
	gtMap* m = test_random_map(&(TestRng){3}, 40, 30, 0);
	gtWorld* w = test_make_world(m, 4);
	int height;
	int64_t nodes;
	gtWorld_TreeSize(w, &height, &nodes);
	assert_int_equal(gtDebugDraw_WorldNodes(&d, w, -1, false), nodes);
	assert_int_equal(r->polygons, nodes);
	recorder_reset(r);
	assert_int_equal(gtDebugDraw_WorldNodes(&d, w, 1000, false), nodes); // clamped to the height
	// Level by level: 4^l nodes of 1 / 4^l of the map each, tiling it.
	for (int level = 0; level <= height; level++) {
		recorder_reset(r);
		int64_t expect = 0;
		for (int l = 0; l <= level; l++) expect += INT64_C(1) << (2 * l);
		assert_int_equal(gtDebugDraw_WorldNodes(&d, w, level, false), expect);
		double area = 0;
		for (int i = (int)(expect - (INT64_C(1) << (2 * level))); i < r->count; i++) {
			const Prim* p = &r->prims[i];
			assert_false(p->filled);
			assert_int_equal(p->color & 0xFFFFFF00u, GT_DEBUG_COLOR_TREE_NODE & 0xFFFFFF00u);
			area += (p->b.x - p->a.x) * (p->b.y - p->a.y);
			assert_float_equal((p->b.x - p->a.x) * (1 << level), 40, 1e-9);
		}
		assert_float_equal(area, 40.0 * 30.0, 1e-6);
	}
	// Occupied nodes only: none in an empty world, one per level for one object.
	recorder_reset(r);
	assert_int_equal(gtDebugDraw_WorldNodes(&d, w, -1, true), 0);
	assert_int_equal(r->count, 0);
	gtObjectId id;
	gtError err;
	assert_int_equal(gtWorld_Add(w, (gtVec2){10.5, 20.5}, NULL, 0, &id, &err), GT_OK);
	assert_int_equal(gtDebugDraw_WorldNodes(&d, w, -1, true), height + 1);
	for (int i = 0; i < r->count; i++) { // every drawn node contains the object
		const Prim* p = &r->prims[i];
		assert_true(p->a.x <= 10.5 && 10.5 <= p->b.x && p->a.y <= 20.5 && 20.5 <= p->b.y);
	}
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
	recorder_free(r);
}

// ---- trace ----------------------------------------------------------------------------------------

typedef struct Events {
	gtDebugTraceEntry e[4096];
	int count;
} Events;

static void own_trace(void* context, gtTraceEvent event, int level, const double rect[4])
{
	Events* ev = context;
	if (ev->count == 4096) fail_msg("trace too long");
	gtDebugTraceEntry* e = &ev->e[ev->count++];
	memcpy(e->rect, rect, sizeof e->rect);
	e->level = level;
	e->event = event;
}

static void test_trace_replays_the_query(void** state)
{
	(void)state;
	TestRng rng = {11};
	gtMap* m = test_random_map(&rng, 64, 64, 20);
	gtWorld* w = test_make_world(m, 2);
	int32_t words[3] = {gtWorld_Keyword(w, "a"), gtWorld_Keyword(w, "b"), gtWorld_Keyword(w, "c")};
	gtError err;
	for (int i = 0; i < 300; i++) {
		gtObjectId id;
		int32_t kw = words[test_rng_int(&rng, 3)];
		assert_int_equal(gtWorld_Add(w, test_random_point(m, &rng), &kw, 1, &id, &err), GT_OK);
	}
	int height;
	int64_t nodes;
	gtWorld_TreeSize(w, &height, &nodes);
	static Events events;
	static gtDebugTraceEntry storage[4096];
	Recorder* r = recorder_new();
	gtDebugDraw d = drawer(r);
	// Path distances (the oracle): with straight lines the search stops before pruning by distance.
	gtNav* nav;
	gtNavQuery* nq;
	assert_int_equal(gtNav_Create(m, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &nq, &err), GT_OK);
	gtDistance metric = test_world_distance(nq);
	int with_keywords = 0, with_distance = 0;
	for (int trial = 0; trial < 40; trial++) {
		gtQuery q = gtQuery_Default(test_random_point(m, &rng));
		q.k = 1 + test_rng_int(&rng, 8);
		q.keywords = &words[trial % 3];
		q.keyword_count = trial % 4 == 3 ? 0 : 1;
		gtObjectId ids[8];
		double dist[8];
		int count;
		gtQueryStats stats;
		events.count = 0;
		q.trace = own_trace;
		q.trace_context = &events;
		assert_int_equal(gtWorld_Nearest(w, &q, metric, ids, dist, 8, &count, &stats, &err), GT_OK);
		gtDebugTrace t = gtDebugTrace_Make(storage, 4096);
		t.count = 99; // Attach clears what was there
		gtDebugTrace_Attach(&t, &q);
		assert_ptr_equal(q.trace_context, &t);
		assert_int_equal(gtWorld_Nearest(w, &q, metric, ids, dist, 8, &count, &stats, &err), GT_OK);
		assert_int_equal(t.count, events.count);
		assert_int_equal(t.dropped, 0);
		int popped = 0, root = 0, expect_drawn = 0;
		for (int i = 0; i < t.count; i++) {
			assert_int_equal(t.entries[i].event, events.e[i].event);
			assert_int_equal(t.entries[i].level, events.e[i].level);
			assert_memory_equal(t.entries[i].rect, events.e[i].rect, sizeof events.e[i].rect);
			popped += t.entries[i].event == GT_TRACE_POPPED;
			root += t.entries[i].event == GT_TRACE_POPPED && t.entries[i].level == 0;
			with_keywords += t.entries[i].event == GT_TRACE_PRUNED_KEYWORDS;
			with_distance += t.entries[i].event == GT_TRACE_PRUNED_DISTANCE;
		}
		assert_int_equal(popped, stats.nodes_popped);
		expect_drawn = t.count - root;
		// Drawing replays the entries in order, the root skipped, colours by event.
		recorder_reset(r);
		assert_int_equal(gtDebugDraw_Trace(&d, &t, height), expect_drawn);
		assert_int_equal(r->polygons, expect_drawn);
		for (int i = 0, j = 0; i < t.count; i++) {
			const gtDebugTraceEntry* e = &t.entries[i];
			if (e->event == GT_TRACE_POPPED && e->level == 0) continue;
			const Prim* p = &r->prims[j++];
			assert_true(p->a.x == e->rect[0] && p->a.y == e->rect[1] && p->b.x == e->rect[2] && p->b.y == e->rect[3]);
			if (e->event == GT_TRACE_POPPED) {
				bool leaf = e->level >= height;
				assert_true(p->filled == leaf);
				assert_int_equal(p->color, (GT_DEBUG_COLOR_TRACE_POPPED & 0xFFFFFF00u) | (gtColor)(leaf ? 60 : 150));
			} else {
				assert_false(p->filled);
				assert_int_equal(p->color, e->event == GT_TRACE_PRUNED_KEYWORDS ? GT_DEBUG_COLOR_TRACE_KEYWORDS
				                                                                : GT_DEBUG_COLOR_TRACE_DISTANCE);
			}
		}
		// A small recorder keeps the first events and counts the rest.
		if (events.count > 3) {
			gtDebugTrace small = gtDebugTrace_Make(storage, 3);
			gtDebugTrace_Attach(&small, &q);
			assert_int_equal(gtWorld_Nearest(w, &q, metric, ids, dist, 8, &count, &stats, &err), GT_OK);
			assert_int_equal(small.count, 3);
			assert_int_equal(small.dropped, events.count - 3);
		}
	}
	if (!(with_keywords > 0 && with_distance > 0))
		fail_msg("keywords %d distance %d", with_keywords, with_distance); // both kinds of pruning were exercised
	// Attach(NULL) turns tracing off; recording into a NULL recorder is ignored.
	gtQuery q = gtQuery_Default((gtVec2){1, 1});
	gtDebugTrace_Attach(NULL, &q);
	assert_null(q.trace);
	gtDebugTrace_Record(NULL, GT_TRACE_POPPED, 0, (double[4]){0, 0, 1, 1});
	gtDebugTrace empty = gtDebugTrace_Make(NULL, 10);
	assert_int_equal(empty.capacity, 0);
	gtDebugTrace_Record(&empty, GT_TRACE_POPPED, 0, (double[4]){0, 0, 1, 1});
	assert_int_equal(empty.dropped, 1);
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
	recorder_free(r);
}

// ---- map -------------------------------------------------------------------------------------------

static int vertex_at(const gtVertex* v, int n, gtVec2 p)
{
	for (int i = 0; i < n; i++)
		if (v[i].x == p.x && v[i].y == p.y) return i;
	return -1;
}

// Every vertex's drawn edges against every pair tested by `visible`.
static void check_visibility(const gtMap* m, bool (*visible)(const gtMap*, gtVec2, gtVec2), int stride)
{
	Recorder* r = recorder_new();
	gtDebugDraw d = drawer(r);
	int n;
	const gtVertex* v = gtMap_Vertices(m, &n);
	assert_true(n > 0);
	assert_int_equal(gtDebugDraw_MapVertices(&d, m), n);
	assert_int_equal(r->points, n);
	for (int i = 0; i < n; i++) {
		assert_true(r->prims[i].a.x == v[i].x && r->prims[i].a.y == v[i].y);
		assert_int_equal(r->prims[i].color, GT_DEBUG_COLOR_VERTEX);
	}
	size_t bytes = n > 0 ? (size_t)n : 1;
	bool* seen = calloc(bytes, 1);
	int64_t edges = 0;
	for (int i = 0; i < n; i += stride) {
		recorder_reset(r);
		int drawn = gtDebugDraw_VisibilityEdges(&d, m, i);
		assert_int_equal(drawn, r->segments);
		memset(seen, 0, bytes);
		for (int k = 0; k < r->count; k++) {
			const Prim* p = &r->prims[k];
			if (p->kind != 's') continue;
			assert_true(p->a.x == v[i].x && p->a.y == v[i].y);
			int j = vertex_at(v, n, p->b);
			assert_true(j >= 0 && j != i && !seen[j]);
			seen[j] = true;
		}
		for (int j = 0; j < n; j++) {
			bool expect = j != i && visible(m, (gtVec2){v[i].x, v[i].y}, (gtVec2){v[j].x, v[j].y});
			if (expect != seen[j])
				fail_msg("vertex %d (%d,%d) to %d (%d,%d): drawn %d, brute force %d", i, v[i].x, v[i].y, j, v[j].x,
				         v[j].y, seen[j], expect);
		}
		assert_int_equal(r->circles, 1);
		assert_int_equal(r->texts, 1);
		edges += drawn;
	}
	assert_true(edges > 0);
	free(seen);
	recorder_free(r);
}

static void test_vertices_and_visibility_small_map(void** state)
{
	(void)state;
	gtMap* m = load_small();
	check_visibility(m, gtMap_Visible, 1);
	gtMap_Destroy(m);
}

static void test_visibility_random_maps(void** state)
{
	(void)state;
	TestRng rng = {5};
	for (int trial = 0; trial < 4; trial++) {
		gtMap* m = test_random_map(&rng, 16 + test_rng_int(&rng, 30), 16 + test_rng_int(&rng, 30), 15 + 5 * trial);
		check_visibility(m, test_brute_visible, 1); // the independent integer twin
		gtMap_Destroy(m);
	}
}

static void test_visibility_bad_vertex(void** state)
{
	(void)state;
	Recorder* r = recorder_new();
	gtDebugDraw d = drawer(r);
	gtMap* m = load_small();
	int n;
	gtMap_Vertices(m, &n);
	assert_int_equal(gtDebugDraw_VisibilityEdges(&d, m, -1), -1);
	assert_int_equal(gtDebugDraw_VisibilityEdges(&d, m, n), -1);
	assert_int_equal(r->count, 0);
	gtMap_Destroy(m);
	recorder_free(r);
}

// ---- EHL and paths ----------------------------------------------------------------------------------

static void test_ehl_cells_and_vias(void** state)
{
	(void)state;
	Recorder* r = recorder_new();
	gtDebugDraw d = drawer(r);
	gtMap* m = load_small();
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 3; // small.map's sides are not multiples of 3: the last cells overhang
	gtEhl* ehl;
	gtError err;
	if (gtEhl_Build(m, &def, &ehl, &err)) fail_msg("%s", err.message);
	int columns, rows;
	gtEhl_GridSize(ehl, &columns, &rows);
	int W = gtMap_Width(m), H = gtMap_Height(m);
	assert_int_equal(gtDebugDraw_EhlCells(&d, ehl), columns + 1 + rows + 1);
	assert_int_equal(r->segments, columns + rows + 2);
	for (int i = 0; i <= columns; i++) {
		const Prim* p = &r->prims[i];
		assert_true(p->a.x == (3 * i < W ? 3 * i : W) && p->b.x == p->a.x && p->a.y == 0 && p->b.y == H);
	}
	for (int i = 0; i <= rows; i++) {
		const Prim* p = &r->prims[columns + 1 + i];
		assert_true(p->a.y == (3 * i < H ? 3 * i : H) && p->b.y == p->a.y && p->a.x == 0 && p->b.x == W);
	}
	int n;
	const gtVertex* v = gtMap_Vertices(m, &n);
	static gtEhlVia vias[4096], expect[4096];
	int64_t cells = (int64_t)columns * rows, with_vias = 0;
	for (int64_t cell = 0; cell < cells; cell++) {
		recorder_reset(r);
		int64_t total = gtEhl_CellVias(ehl, cell, expect, 4096);
		assert_true(total >= 0 && total <= 4096);
		assert_int_equal(gtDebugDraw_EhlCellVias(&d, ehl, cell, vias, 4096), total);
		assert_int_equal(r->polygons, 1);
		assert_int_equal(r->segments, total);
		double x0 = (double)(cell % columns) * 3, y0 = (double)(cell / columns) * 3;
		assert_true(r->prims[0].a.x == x0 && r->prims[0].a.y == y0);
		assert_true(r->prims[0].b.x == fmin(x0 + 3, W) && r->prims[0].b.y == fmin(y0 + 3, H));
		for (int64_t i = 0; i < total; i++) {
			const Prim* p = &r->prims[1 + i];
			assert_true(p->b.x == v[expect[i].vertex].x && p->b.y == v[expect[i].vertex].y);
			assert_int_equal(p->color, expect[i].full ? GT_DEBUG_COLOR_EHL_VIA_FULL : GT_DEBUG_COLOR_EHL_VIA_PARTIAL);
		}
		with_vias += total > 0;
		// A short buffer draws the first vias and reports them all.
		if (total > 2) {
			recorder_reset(r);
			assert_int_equal(gtDebugDraw_EhlCellVias(&d, ehl, cell, vias, 2), total);
			assert_int_equal(r->segments, 2);
		}
	}
	assert_true(with_vias > 0);
	recorder_reset(r);
	assert_int_equal(gtDebugDraw_EhlCellVias(&d, ehl, -1, vias, 4096), -1);
	assert_int_equal(gtDebugDraw_EhlCellVias(&d, ehl, cells, vias, 4096), -1);
	assert_int_equal(gtDebugDraw_EhlCellVias(&d, ehl, 0, NULL, 4), -1);
	assert_int_equal(r->count, 0);
	assert_true(gtDebugDraw_EhlCellVias(&d, ehl, 0, NULL, 0) >= 0); // only the count and the outline
	assert_int_equal(r->segments, 0);
	gtEhl_Destroy(ehl);
	gtMap_Destroy(m);
	recorder_free(r);
}

static void test_path(void** state)
{
	(void)state;
	Recorder* r = recorder_new();
	gtDebugDraw d = drawer(r);
	gtVec2 pts[4] = {{1, 1}, {5, 1}, {5, 7}, {2, 9}};
	assert_int_equal(gtDebugDraw_Path(&d, pts, 4, 0x112233FFu), 3);
	assert_int_equal(r->segments, 3);
	assert_int_equal(r->points, 4);
	for (int i = 0; i < 3; i++) {
		assert_true(r->prims[i].a.x == pts[i].x && r->prims[i].b.y == pts[i + 1].y);
		assert_int_equal(r->prims[i].color, 0x112233FFu);
	}
	recorder_reset(r);
	assert_int_equal(gtDebugDraw_Path(&d, pts, 0, 0), 0);
	assert_int_equal(gtDebugDraw_Path(&d, NULL, 0, 0), 0);
	assert_int_equal(gtDebugDraw_Path(&d, NULL, 3, 0), -1);
	assert_int_equal(gtDebugDraw_Path(&d, pts, -1, 0), -1);
	assert_int_equal(r->count, 0);
	recorder_free(r);
}

// ---- bad input -----------------------------------------------------------------------------------------

static void test_null_callbacks_and_arguments(void** state)
{
	(void)state;
	gtMap* m = load_small();
	gtWorld* w = test_make_world(m, 4);
	gtEhl* ehl = test_build_ehl(m, 4);
	gtDebugTraceEntry storage[8] = {{{0, 0, 4, 4}, 1, GT_TRACE_POPPED}, {{0, 0, 2, 2}, 2, GT_TRACE_PRUNED_KEYWORDS}};
	gtDebugTrace t = gtDebugTrace_Make(storage, 8);
	t.count = 2;
	gtVec2 pts[2] = {{1, 1}, {2, 2}};
	gtEhlVia vias[16];
	int height;
	int64_t nodes;
	gtWorld_TreeSize(w, &height, &nodes);
	int n;
	gtMap_Vertices(m, &n);
	// No callbacks at all: the same counts, nothing called.
	gtDebugDraw none = {NULL, NULL, NULL, NULL, NULL, NULL};
	assert_int_equal(gtDebugDraw_WorldNodes(&none, w, -1, false), nodes);
	assert_int_equal(gtDebugDraw_WorldLeafGrid(&none, w), 2 * ((INT64_C(1) << height) + 1));
	assert_int_equal(gtDebugDraw_Trace(&none, &t, 0), 2);
	assert_true(gtDebugDraw_EhlCells(&none, ehl) > 0);
	assert_true(gtDebugDraw_EhlCellVias(&none, ehl, 0, vias, 16) >= 0);
	assert_int_equal(gtDebugDraw_MapVertices(&none, m), n);
	assert_true(gtDebugDraw_VisibilityEdges(&none, m, 0) >= 0);
	assert_int_equal(gtDebugDraw_Path(&none, pts, 2, 0), 1);
	// One callback only: the others are skipped.
	Recorder* r = recorder_new();
	gtDebugDraw only = {on_segment, NULL, NULL, NULL, NULL, r};
	gtDebugDraw_WorldNodes(&only, w, -1, false);
	gtDebugDraw_Trace(&only, &t, 0);
	gtDebugDraw_MapVertices(&only, m);
	assert_int_equal(r->count, 0);
	gtDebugDraw_VisibilityEdges(&only, m, 0);
	gtDebugDraw_Path(&only, pts, 2, 0);
	assert_int_equal(r->count, r->segments);
	// NULL draw struct or state: -1, nothing drawn.
	assert_int_equal(gtDebugDraw_WorldNodes(NULL, w, -1, false), -1);
	assert_int_equal(gtDebugDraw_WorldNodes(&none, NULL, -1, false), -1);
	assert_int_equal(gtDebugDraw_WorldLeafGrid(NULL, w), -1);
	assert_int_equal(gtDebugDraw_WorldLeafGrid(&none, NULL), -1);
	assert_int_equal(gtDebugDraw_Trace(NULL, &t, 0), -1);
	assert_int_equal(gtDebugDraw_Trace(&none, NULL, 0), -1);
	assert_int_equal(gtDebugDraw_EhlCells(NULL, ehl), -1);
	assert_int_equal(gtDebugDraw_EhlCells(&none, NULL), -1);
	assert_int_equal(gtDebugDraw_EhlCellVias(NULL, ehl, 0, vias, 16), -1);
	assert_int_equal(gtDebugDraw_EhlCellVias(&none, NULL, 0, vias, 16), -1);
	assert_int_equal(gtDebugDraw_MapVertices(NULL, m), -1);
	assert_int_equal(gtDebugDraw_MapVertices(&none, NULL), -1);
	assert_int_equal(gtDebugDraw_VisibilityEdges(NULL, m, 0), -1);
	assert_int_equal(gtDebugDraw_VisibilityEdges(&none, NULL, 0), -1);
	assert_int_equal(gtDebugDraw_Path(NULL, pts, 2, 0), -1);
	gtDebugTrace_Attach(&t, NULL); // nothing to attach to
	gtDebugTrace_Clear(NULL);
	recorder_free(r);
	gtEhl_Destroy(ehl);
	gtWorld_Destroy(w);
	gtMap_Destroy(m);
}

TEST_MAIN("debug_draw", test_leaf_grid, test_tree_nodes, test_trace_replays_the_query,
          test_vertices_and_visibility_small_map, test_visibility_random_maps, test_visibility_bad_vertex,
          test_ehl_cells_and_vias, test_path, test_null_callbacks_and_arguments)
