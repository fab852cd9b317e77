// Navigation meshes: reading Polyanya `.mesh` files (every malformation named) and point location,
// against a linear scan over every polygon on the shared meshes of each suite.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridtree/gt_research.h" // the OkNN searches on a mesh (opt-in header)
#include "test_support.h"

// A 2x1 rectangle cut into two triangles along (0,0)-(2,1)... as a square of two triangles:
// vertices 0 (0,0), 1 (2,0), 2 (2,1), 3 (0,1); polygon 0 = 0 1 2, polygon 1 = 0 2 3.
static const char square[] = "mesh\n2\n4 2\n"
                             "0 0 3 0 1 -1\n"
                             "2 0 2 0 -1\n"
                             "2 1 3 0 1 -1\n"
                             "0 1 2 1 -1\n"
                             "3 0 1 2 1 -1 -1\n"
                             "3 0 2 3 -1 0 -1\n";

static gtMesh* parse(const char* text)
{
	gtMesh* mesh = NULL;
	gtError err;
	gtStatus st = gtMesh_Parse(text, strlen(text), "square.mesh", &mesh, &err);
	if (st) fprintf(stderr, "%s\n", err.message);
	assert_int_equal(st, GT_OK);
	return mesh;
}

static void test_locates_points_of_every_kind(void** state)
{
	(void)state;
	gtMesh* m = parse(square);
	assert_int_equal(gtMesh_VertexCount(m), 4);
	assert_int_equal(gtMesh_PolygonCount(m), 2);
	gtMeshLocation at = gtMesh_Locate(m, (gtVec2){1.5, 0.25});
	assert_int_equal(at.place, GT_MESH_IN_POLYGON);
	assert_int_equal(at.polygon, 0);
	at = gtMesh_Locate(m, (gtVec2){0.5, 0.75});
	assert_int_equal(at.place, GT_MESH_IN_POLYGON);
	assert_int_equal(at.polygon, 1);
	at = gtMesh_Locate(m, (gtVec2){1, 0.5}); // on the shared diagonal
	assert_int_equal(at.place, GT_MESH_ON_EDGE);
	assert_true((at.polygon == 0 && at.other == 1) || (at.polygon == 1 && at.other == 0));
	at = gtMesh_Locate(m, (gtVec2){1, 0}); // on the border
	assert_int_equal(at.place, GT_MESH_ON_EDGE);
	assert_int_equal(at.polygon, 0);
	assert_int_equal(at.other, -1);
	at = gtMesh_Locate(m, (gtVec2){2, 1});
	assert_int_equal(at.place, GT_MESH_ON_VERTEX);
	assert_int_equal(at.vertex, 2);
	assert_int_equal(gtMesh_Locate(m, (gtVec2){2.5, 0.5}).place, GT_MESH_OUTSIDE);
	assert_int_equal(gtMesh_Locate(m, (gtVec2){-1e9, 0.5}).place, GT_MESH_OUTSIDE);
	assert_int_equal(gtMesh_Locate(m, (gtVec2){NAN, 0.5}).place, GT_MESH_OUTSIDE);
	assert_int_equal(gtMesh_Locate(m, (gtVec2){0.5, INFINITY}).place, GT_MESH_OUTSIDE);
	gtMesh_Destroy(m);
}

static void test_malformed_meshes_name_the_problem(void** state)
{
	(void)state;
	static const struct {
		const char *text, *message;
	} cases[] = {
	    {"", "square.mesh:1: expected 'mesh'"},
	    {"mesh\n3\n", "only version 2 is read"},
	    {"mesh\n2\n4", "the file ends where the polygon count should be"},
	    {"mesh\n2\n1 1\n0 0 2 0 x\n", "square.mesh:4: expected a polygon around a vertex, found 'x'"},
	    {"mesh\n2\n1 1\n0 0 2 0 5\n", "a polygon around a vertex 5 is not a whole number in [-1, 0]"},
	    {"mesh\n2\n3 1\n0 0 2 0 -1\n1 0 2 0 -1\n0 1 2 0 -1\n3 0 1 7 -1 -1 -1\n",
	     "a polygon's vertex 7 is not a whole number"},
	    {"mesh\n2\n3 1\n0 0 2 0 -1\n1 0 2 0 -1\n0 1 2 0 -1\n3 0 2 1 -1 -1 -1\n",
	     "polygon 0 is not convex and counter-clockwise"},
	    {"mesh\n2\n3 1\n0 0 2 0 -1\n1 0 2 0 -1\n0 1 2 0 -1\n3 0 1 2 -1 -1 -1\n7\n",
	     "square.mesh:8: text after the last polygon"},
	    {"mesh\n2\n3 1\n0 0 2 0 -1\n1 0 2 0 -1\n0 1 2 0 -1\n3 0 1 2 -1 -1 -1", NULL}, // valid: no newline at the end
	    {"mesh\n2\n4 2\n0 0 3 0 1 -1\n2 0 2 0 -1\n2 1 3 0 1 -1\n0 1 2 1 -1\n3 0 1 2 1 -1 -1\n3 0 2 3 -1 -1 0\n",
	     "polygon 1 names 0 across edge 2-3"},
	    {"mesh\n2\n4 2\n0 0 3 0 1 -1\n2 0 2 0 -1\n2 1 3 0 1 -1\n0 1 2 1 -1\n3 0 1 2 1 -1 -1\n3 0 2 3 -1 -1 -1\n",
	     "polygon 0 names 1 across edge 2-0, but 1 does not name 0 there"},
	    {"mesh\n2\n1 1\n0 0 1025 0 -1\n", "a vertex's polygon count 1025 is not a whole number in [2, 1024]"},
	    {"mesh\n2\n1 1\n0 0 2 0 -1\n2.5", "a polygon's vertex count 2.5 is not a whole number"},
	    {"mesh\n2\n1 1\n1e999 0 2 0 -1\n", "expected a vertex's x, found '1e999'"},
	    {"mesh\n2\n1 1\n0 -2e7 2 0 -1\n", "square.mesh:4: vertex 0 at (0, -2e+07) is beyond +-1e+07"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		gtMesh* m = (gtMesh*)1;
		gtError err = {0};
		gtStatus st = gtMesh_Parse(cases[i].text, strlen(cases[i].text), "square.mesh", &m, &err);
		if (!cases[i].message) {
			assert_int_equal(st, GT_OK);
			gtMesh_Destroy(m);
			continue;
		}
		if (!st || !strstr(err.message, cases[i].message))
			fail_msg("case %zu: status %d, message '%s', expected '%s'", i, st, err.message, cases[i].message);
		assert_null(m);
	}
	gtMesh* m;
	gtError err;
	assert_int_equal(gtMesh_Load("/nonexistent/x.mesh", &m, &err), GT_ERR_IO);
	assert_non_null(strstr(err.message, "/nonexistent/x.mesh: cannot open"));
}

// Every polygon containing p (closed), by brute force.
static bool contains(const gtMesh* m, int q, gtVec2 p)
{
	const int32_t *v, *nb;
	int n = gtMesh_Polygon(m, q, &v, &nb);
	for (int i = 0; i < n; i++) {
		gtVec2 a = gtMesh_Vertex(m, v[(i + n - 1) % n]), b = gtMesh_Vertex(m, v[i]);
		if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0) return false;
	}
	return true;
}

// The first mesh of each suite in the shared data, and a loader for its merged mesh.
static const char* const maps[][2] = {
    {"bgmaps", "AR0011SR"}, {"da2", "ca_cave"}, {"dao", "arena"}, {"sc1", "AcrosstheCape"}};

static gtMesh* load_shared_mesh(const char* suite, const char* name)
{
	char rel[256];
	snprintf(rel, sizeof rel, "meshes/%s/%s-merged.mesh", suite, name);
	gtMesh* m;
	gtError err;
	if (gtMesh_Load(test_data_path(rel), &m, &err)) fail_msg("%s", err.message);
	return m;
}

// On the first mesh of each suite: a point is located exactly when some polygon holds it, the
// polygon found holds it, free cells' points are on the mesh and blocked cells' centres are not.
static void test_shared_meshes_against_a_linear_scan(void** state)
{
	(void)state;
	const char* data = test_data_dir();
	if (!data) skip();
	TestRng rng = {7};
	for (int k = 0; k < 4; k++) {
		gtMesh* m = load_shared_mesh(maps[k][0], maps[k][1]);
		gtMap* map = test_load_shared_map(maps[k][0], maps[k][1]);
		int located = 0;
		for (int i = 0; i < 3000; i++) {
			int cx = test_rng_int(&rng, gtMap_Width(map)), cy = test_rng_int(&rng, gtMap_Height(map));
			// cell centres, cell corners and points on cell edges
			double fx = (i % 3 == 0) ? 0.5 : (i % 3 == 1) ? 0 : (double)test_rng_int(&rng, 1000) / 1000;
			gtVec2 p = {cx + fx, cy + (i % 3 == 2 ? 0 : 0.5)};
			gtMeshLocation at = gtMesh_Locate(m, p);
			bool any = false;
			for (int q = 0; q < gtMesh_PolygonCount(m) && !any; q++) any = contains(m, q, p);
			if (any != (at.place != GT_MESH_OUTSIDE))
				fail_msg("%s (%g, %g): located %d, scan %d", maps[k][1], p.x, p.y, at.place, any);
			if (!any) continue;
			located++;
			assert_true(contains(m, at.polygon, p));
			if (at.place == GT_MESH_ON_EDGE && at.other >= 0 && !contains(m, at.other, p))
				fail_msg("%s (%.17g, %.17g): on the edge of %d and %d, which does not hold it", maps[k][1], p.x, p.y,
				         at.polygon, at.other);
			if (at.place == GT_MESH_ON_VERTEX)
				assert_true(gtMesh_Vertex(m, at.vertex).x == p.x && gtMesh_Vertex(m, at.vertex).y == p.y);
			if (i % 3 == 0) assert_false(gtMap_IsBlocked(map, cx, cy)); // a centre on the mesh is a free cell's
		}
		for (int i = 0; i < 2000; i++) { // every free cell's centre is on the mesh
			int cx = test_rng_int(&rng, gtMap_Width(map)), cy = test_rng_int(&rng, gtMap_Height(map));
			if (gtMap_IsBlocked(map, cx, cy)) continue;
			assert_int_not_equal(gtMesh_Locate(m, (gtVec2){cx + 0.5, cy + 0.5}).place, GT_MESH_OUTSIDE);
		}
		assert_true(located > 100);
		gtMap_Destroy(map);
		gtMesh_Destroy(m);
	}
}

// A random valid point of the map: cell interiors, cell corners and points on cell edges.
static gtVec2 random_point(const gtMap* map, TestRng* rng)
{
	for (;;) {
		int cx = test_rng_int(rng, gtMap_Width(map)), cy = test_rng_int(rng, gtMap_Height(map));
		int kind = test_rng_int(rng, 4);
		double fx = kind == 1 ? 0 : (double)test_rng_int(rng, 1024) / 1024,
		       fy = kind == 1 || kind == 2 ? 0 : (double)test_rng_int(rng, 1024) / 1024;
		gtVec2 p = {cx + fx, cy + fy};
		if (gtMap_CheckPoint(map, p) == GT_POINT_VALID) return p;
	}
}

// Polyanya on the shared meshes equals the oracle (visibility graph Dijkstra) on the same map, for
// random points of every kind, and its paths are as long as its distances.
static void test_polyanya_equals_the_oracle(void** state)
{
	(void)state;
	const char* data = test_data_dir();
	if (!data) skip();
	TestRng rng = {11};
	int total_pinches = 0;
	for (int k = 0; k < 4; k++) {
		gtMesh* m = load_shared_mesh(maps[k][0], maps[k][1]);
		gtMap* map = test_load_shared_map(maps[k][0], maps[k][1]);
		gtError err;
		gtOracle* oracle;
		gtPolyanya* search;
		assert_int_equal(gtOracle_Create(map, 2, &oracle, &err), GT_OK);
		assert_int_equal(gtPolyanya_Create(m, &search, &err), GT_OK);
		gtVec2 path[4096];
		int bad = 0;
		for (int i = 0; i < 300; i++) {
			gtVec2 s = random_point(map, &rng), t = random_point(map, &rng);
			double expected, got, path_length = 0;
			int n;
			assert_int_equal(gtOracle_Distance(oracle, s, t, &expected, &err), GT_OK);
			if (gtPolyanya_Path(search, s, t, path, 4096, &n, &got, &err)) fail_msg("%s", err.message);
			for (int j = 0; j + 1 < n; j++) path_length += hypot(path[j + 1].x - path[j].x, path[j + 1].y - path[j].y);
			bool same = isinf(expected) ? isinf(got) : fabs(got - expected) <= 1e-6 * (1 + expected);
			if (!same || (!isinf(got) && fabs(path_length - got) > 1e-6 * (1 + got))) {
				if (bad++ < 5)
					fprintf(stderr, "%s: (%.10g, %.10g)-(%.10g, %.10g): polyanya %.9f (path %.9f), oracle %.9f\n",
					        maps[k][1], s.x, s.y, t.x, t.y, got, path_length, expected);
			}
		}
		// Points on edges between polygons, interpolated in floating point: a rounding error inside
		// one polygon or the other, never exactly on the edge's line. A start there once lost every
		// straight way through that edge (the root looked collinear with it).
		for (int i = 0; i < 150; i++) {
			const int32_t *corners, *across;
			int p = test_rng_int(&rng, gtMesh_PolygonCount(m)), count = gtMesh_Polygon(m, p, &corners, &across);
			int e = test_rng_int(&rng, count);
			if (across[e] < 0) continue;
			gtVec2 a = gtMesh_Vertex(m, corners[e == 0 ? count - 1 : e - 1]), b = gtMesh_Vertex(m, corners[e]);
			double u = (1 + test_rng_int(&rng, 999)) / 1000.0 + 1e-7;
			gtVec2 s = {a.x + u * (b.x - a.x), a.y + u * (b.y - a.y)}, t = random_point(map, &rng);
			double expected, got, back;
			assert_int_equal(gtOracle_Distance(oracle, s, t, &expected, &err), GT_OK);
			assert_int_equal(gtPolyanya_Distance(search, s, t, &got, &err), GT_OK);
			assert_int_equal(gtPolyanya_Distance(search, t, s, &back, &err), GT_OK);
			if (fabs(got - expected) > 1e-6 * (1 + expected) || fabs(back - expected) > 1e-6 * (1 + expected)) {
				if (bad++ < 5)
					fprintf(stderr, "%s: on an edge (%.17g, %.17g) and (%g, %g): polyanya %.9f / %.9f, oracle %.9f\n",
					        maps[k][1], s.x, s.y, t.x, t.y, got, back, expected);
			}
		}
		// Pinch points (two blocked cells touching at a corner) as starts and goals.
		int pinches = 0;
		for (int y = 1; y < gtMap_Height(map) && pinches < 30; y++)
			for (int x = 1; x < gtMap_Width(map) && pinches < 30; x++) {
				if (gtMap_ClassifyCorner(map, x, y) != GT_CORNER_PINCH) continue;
				gtVec2 s = {x, y}, t = random_point(map, &rng);
				if (gtMap_CheckPoint(map, s) != GT_POINT_VALID) continue;
				double expected, got;
				if (gtMap_IsBlocked(map, x, y)) { // Polyanya's nudge lands in a wall: refused, and said so
					assert_int_equal(gtPolyanya_Distance(search, s, t, &got, &err), GT_ERR_INVALID_POINT);
					assert_non_null(strstr(err.message, "a pinch vertex whose cell at (+1e-5, +1e-5) is a wall"));
					continue;
				}
				pinches++;
				assert_int_equal(gtOracle_Distance(oracle, s, t, &expected, &err), GT_OK);
				assert_int_equal(gtPolyanya_Distance(search, s, t, &got, &err), GT_OK);
				double back_expected, back;
				assert_int_equal(gtOracle_Distance(oracle, t, s, &back_expected, &err), GT_OK);
				assert_int_equal(gtPolyanya_Distance(search, t, s, &back, &err), GT_OK);
				if (fabs(got - expected) > 1e-6 * (1 + expected) ||
				    fabs(back - back_expected) > 1e-6 * (1 + back_expected)) {
					if (bad++ < 5)
						fprintf(stderr, "%s: pinch (%d, %d) and (%g, %g): polyanya %.9f / %.9f, oracle %.9f / %.9f\n",
						        maps[k][1], x, y, t.x, t.y, got, back, expected, back_expected);
				}
			}
		total_pinches += pinches;
		assert_int_equal(bad, 0);
		gtPolyanya_Destroy(search);
		gtOracle_Destroy(oracle);
		gtMap_Destroy(map);
		gtMesh_Destroy(m);
	}
	assert_true(total_pinches > 0); // some of the maps have pinch points: the rule above was exercised
}

// A random map (the tests' generator) where a ray from (6, 30) grazes the corner (10, 18) on its
// way to the corner (12, 12): the interval it cut ended a rounding error away from (10, 18), so the
// exact comparison with the vertex failed and the turn at (12, 12) was never made (28.3527 instead
// of 28.3328 from (5, 37) to (13, 10)).
static const char grazing_map[] = "...........@..............@......\n"
                                  "...........................@.....\n"
                                  "........@@......@.........@@.....\n"
                                  "................@...@.......@....\n"
                                  "..@...@........@..@@.....@@..@...\n"
                                  ".......@@...............@........\n"
                                  "....@.......................@....\n"
                                  "@....@...........@..@............\n"
                                  ".........@.......................\n"
                                  "..........@......................\n"
                                  ".................................\n"
                                  ".......................@@........\n"
                                  "............@.@...........@......\n"
                                  "...@........@............@@......\n"
                                  "........................@...@....\n"
                                  ".................................\n"
                                  ".@..............................@\n"
                                  "........................@........\n"
                                  "..@.......@......@.....@.@@@..@.@\n"
                                  "...@.............................\n"
                                  "......................@@.......@.\n"
                                  "...........@.@.@.................\n"
                                  ".....@...........................\n"
                                  ".....@.............@....@....@...\n"
                                  "......@.........@..@.............\n"
                                  "........@...@.............@......\n"
                                  "........@@....@....@....@........\n"
                                  "@....@...@....@.........@.......@\n"
                                  "......................@......@...\n"
                                  "....................@.@.@.....@..\n"
                                  "...@@.@............@..@..........\n"
                                  "........@..@....@.........@......\n"
                                  ".................@@..............\n"
                                  ".......@.............@...........\n"
                                  ".....@.........@@.....@..........\n"
                                  "@.....@..@.......................\n"
                                  "..@.................@@@.....@@...\n"
                                  "...@.....@.......................\n"
                                  "..........@@.@...@...........@...\n"
                                  ".................@...............\n"
                                  "......................@.@....@...\n"
                                  "....@........@.@.................\n"
                                  "...............@................@\n";

// Where the free space's boundary turns or pinches.
static bool obstacle_corner(const gtMap* map, int x, int y)
{
	gtCorner kind = gtMap_ClassifyCorner(map, x, y);
	return kind == GT_CORNER_CONVEX || kind == GT_CORNER_CONCAVE || kind == GT_CORNER_PINCH;
}

// A corridor `length` cells long and 3 wide, across or down, with a pillar every 7,000 cells:
// coordinates up to 60,000, near the largest a map may have.
static gtMap* long_corridor(int length, bool down)
{
	int w = down ? 3 : length, h = down ? length : 3;
	unsigned char* cells = calloc((size_t)w * (size_t)h, 1);
	for (int i = 3500; i < length; i += 7000) cells[down ? (size_t)i * 3 + 1 : (size_t)w + (size_t)i] = 1;
	gtMap* map;
	gtError err;
	assert_int_equal(gtMap_FromCells(w, h, cells, &map, &err), GT_OK);
	free(cells);
	return map;
}

// Meshes made from maps (the bundled one, random ones with pinches and islands, corridors 60,000
// cells long): each covers exactly the free cells, its vertices are exactly the obstacle corners,
// it survives a save and a load, and Polyanya on it equals the oracle.
static void test_built_meshes_equal_the_oracle(void** state)
{
	(void)state;
	TestRng rng = {23};
	for (int k = 0; k < 47; k++) {
		gtMap* map = k == 0   ? test_load_map("assets/maps/small.map")
		             : k == 1 ? test_map_from_rows(grazing_map)
		             : k == 2 ? long_corridor(60000, false)
		             : k == 3 ? long_corridor(60000, true)
		             : k < 27
		                 ? test_random_map(&rng, 8 + test_rng_int(&rng, 30), 8 + test_rng_int(&rng, 30), k % 5 * 10)
		                 : test_random_map(&rng, 30 + test_rng_int(&rng, 40), 30 + test_rng_int(&rng, 40),
		                                   10 + k % 4 * 10);
		gtMesh *m, *loaded;
		gtError err;
		if (gtMesh_FromMap(map, &m, &err)) fail_msg("map %d: %s", k, err.message);
		int corners = 0;
		for (int y = 0; y <= gtMap_Height(map); y++)
			for (int x = 0; x <= gtMap_Width(map); x++) corners += obstacle_corner(map, x, y);
		assert_int_equal(gtMesh_VertexCount(m), corners);
		for (int v = 0; v < gtMesh_VertexCount(m); v++) {
			gtVec2 p = gtMesh_Vertex(m, v);
			if (p.x != floor(p.x) || p.y != floor(p.y) || !obstacle_corner(map, (int)p.x, (int)p.y))
				fail_msg("map %d: vertex (%g, %g) is no obstacle corner", k, p.x, p.y);
		}
		for (int y = 0; y < gtMap_Height(map); y++)
			for (int x = 0; x < gtMap_Width(map); x++)
				assert_int_equal(gtMesh_Locate(m, (gtVec2){x + 0.5, y + 0.5}).place != GT_MESH_OUTSIDE,
				                 !gtMap_IsBlocked(map, x, y));
		char path[TEST_TEMP_PATH];
		test_temp_file(path, "mesh");
		assert_int_equal(gtMesh_Save(m, path, &err), GT_OK);
		if (gtMesh_Load(path, &loaded, &err)) fail_msg("map %d: %s", k, err.message);
		remove(path);
		assert_int_equal(gtMesh_PolygonCount(loaded), gtMesh_PolygonCount(m));
		assert_int_equal(gtMesh_VertexCount(loaded), gtMesh_VertexCount(m));
		gtOracle* oracle;
		gtPolyanya* search;
		assert_int_equal(gtOracle_Create(map, 1, &oracle, &err), GT_OK);
		assert_int_equal(gtPolyanya_Create(loaded, &search, &err), GT_OK);
		for (int i = 0; i < 100 && gtMap_FreeCells(map) > 0; i++) {
			gtVec2 s = random_point(map, &rng), t = random_point(map, &rng);
			if (k == 1 && i == 0) s = (gtVec2){5, 37}, t = (gtVec2){13, 10};
			double expected, got;
			assert_int_equal(gtOracle_Distance(oracle, s, t, &expected, &err), GT_OK);
			gtStatus st = gtPolyanya_Distance(search, s, t, &got, &err);
			if (st == GT_ERR_INVALID_POINT &&
			    strstr(err.message, "a pinch vertex whose cell at (+1e-5, +1e-5) is a wall"))
				continue;
			if (st) fail_msg("map %d: %s", k, err.message);
			if (isinf(expected) ? !isinf(got) : fabs(got - expected) > 1e-6 * (1 + expected))
				fail_msg("map %d (%dx%d): (%.10g, %.10g)-(%.10g, %.10g): polyanya %.9f, oracle %.9f", k,
				         gtMap_Width(map), gtMap_Height(map), s.x, s.y, t.x, t.y, got, expected);
		}
		gtPolyanya_Destroy(search);
		gtOracle_Destroy(oracle);
		gtMesh_Destroy(loaded);
		gtMesh_Destroy(m);
		gtMap_Destroy(map);
	}
}

// A lattice of pillars: paths through its rows of collinear corners reach each corner as a root
// twice at the same cost. Before such roots' nodes were pushed once each, every copy doubled at the
// next corner, and this search ran out of memory (2^17 copies of one node).
static void test_polyanya_through_rows_of_collinear_corners(void** state)
{
	(void)state;
	enum { SIDE = 78 };
	unsigned char cells[SIDE * SIDE];
	for (int y = 0; y < SIDE; y++)
		for (int x = 0; x < SIDE; x++) cells[y * SIDE + x] = (x % 3 == 1 && y % 3 == 1) || (x % 7 == 3 && y % 5 == 2);
	gtMap* map;
	gtMesh* mesh;
	gtOracle* oracle;
	gtPolyanya* search;
	gtError err;
	assert_int_equal(gtMap_FromCells(SIDE, SIDE, cells, &map, &err), GT_OK);
	assert_int_equal(gtMesh_FromMap(map, &mesh, &err), GT_OK);
	assert_int_equal(gtOracle_Create(map, 1, &oracle, &err), GT_OK);
	assert_int_equal(gtPolyanya_Create(mesh, &search, &err), GT_OK);
	gtVec2 s = {44.2201, 77.3577}, t = {10.4206, 11.0975};
	double expected, got;
	assert_int_equal(gtOracle_Distance(oracle, s, t, &expected, &err), GT_OK);
	if (gtPolyanya_Distance(search, s, t, &got, &err)) fail_msg("%s", err.message);
	assert_true(fabs(got - expected) < 1e-6 * (1 + expected));
	assert_true(gtPolyanya_Expanded(search) < 20000);
	gtPolyanya_Destroy(search);
	gtOracle_Destroy(oracle);
	gtMesh_Destroy(mesh);
	gtMap_Destroy(map);
}

// Maps that once broke the builder: a round pillar in a big room (92 polygons round a corner of the
// room, over the limit of 64 a mesh once had) and a corridor as long as a map may be with a notch
// in every other cell (merging it one triangle at a time cost its length squared in time and
// memory). Both are made, cover the free cells, and Polyanya on the room equals the oracle.
static void test_built_meshes_of_awkward_maps(void** state)
{
	(void)state;
	enum { ROOM = 2400, RADIUS = 1000, CORRIDOR = 65535 };
	unsigned char* cells = malloc((size_t)ROOM * ROOM);
	for (int y = 0; y < ROOM; y++)
		for (int x = 0; x < ROOM; x++) {
			double dx = x + 0.5 - ROOM / 2, dy = y + 0.5 - ROOM / 2;
			cells[(size_t)y * ROOM + (size_t)x] = dx * dx + dy * dy <= (double)RADIUS * RADIUS;
		}
	gtMap *room, *corridor;
	gtMesh *room_mesh, *corridor_mesh;
	gtError err;
	assert_int_equal(gtMap_FromCells(ROOM, ROOM, cells, &room, &err), GT_OK);
	for (int x = 0; x < CORRIDOR; x++) cells[x] = x % 2, cells[CORRIDOR + x] = 0;
	assert_int_equal(gtMap_FromCells(CORRIDOR, 2, cells, &corridor, &err), GT_OK);
	free(cells);
	if (gtMesh_FromMap(room, &room_mesh, &err)) fail_msg("room: %s", err.message);
	if (gtMesh_FromMap(corridor, &corridor_mesh, &err)) fail_msg("corridor: %s", err.message);
	for (int x = 0; x < CORRIDOR; x += 7)
		for (int y = 0; y < 2; y++)
			assert_int_equal(gtMesh_Locate(corridor_mesh, (gtVec2){x + 0.5, y + 0.5}).place != GT_MESH_OUTSIDE,
			                 !gtMap_IsBlocked(corridor, x, y));
	gtOracle* oracle;
	gtPolyanya* search;
	assert_int_equal(gtOracle_Create(room, 1, &oracle, &err), GT_OK);
	assert_int_equal(gtPolyanya_Create(room_mesh, &search, &err), GT_OK);
	TestRng rng = {41};
	for (int i = 0; i < 30; i++) {
		gtVec2 a = random_point(room, &rng), b = random_point(room, &rng);
		double expected, got;
		assert_int_equal(gtOracle_Distance(oracle, a, b, &expected, &err), GT_OK);
		if (gtPolyanya_Distance(search, a, b, &got, &err)) fail_msg("%s", err.message);
		if (fabs(got - expected) > 1e-6 * (1 + expected))
			fail_msg("(%g, %g)-(%g, %g): polyanya %.9f, oracle %.9f", a.x, a.y, b.x, b.y, got, expected);
	}
	gtPolyanya_Destroy(search);
	gtOracle_Destroy(oracle);
	gtMesh_Destroy(room_mesh), gtMesh_Destroy(corridor_mesh);
	gtMap_Destroy(room), gtMap_Destroy(corridor);
}

static bool skip_every_third(void* context, int32_t id)
{
	(void)context;
	return id % 3 != 0;
}

static int by_value(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

// The interval, target and fence heuristics' k nearest equal a brute force over the oracle's
// distances to every accepted object, on a shared mesh and a built one, before and after objects
// move (in their polygon and across polygons) and some are removed, with many targets and few.
// A point on an edge between two polygons, interpolated in floating point (a rounding error off
// the edge's line, on either side): fence labels once missed the straight ways out of such a target.
static gtVec2 point_on_an_edge(const gtMesh* m, const gtMap* map, TestRng* rng)
{
	for (;;) {
		const int32_t *corners, *across;
		int p = test_rng_int(rng, gtMesh_PolygonCount(m)), count = gtMesh_Polygon(m, p, &corners, &across);
		int e = test_rng_int(rng, count);
		if (across[e] < 0) continue;
		gtVec2 a = gtMesh_Vertex(m, corners[e == 0 ? count - 1 : e - 1]), b = gtMesh_Vertex(m, corners[e]);
		double u = (1 + test_rng_int(rng, 999)) / 1000.0 + 1e-7;
		gtVec2 q = {a.x + u * (b.x - a.x), a.y + u * (b.y - a.y)};
		if (gtMap_CheckPoint(map, q) == GT_POINT_VALID) return q;
	}
}

// The target heuristic's bound taken over every wanted object (the CLI's finds the nearest
// through an R-tree): the least walk through the interval to one not yet returned.
typedef struct TestTargets {
	const gtVec2* where;
	const bool* placed;
	int count;
	gtMeshAcceptFcn* accept;
} TestTargets;

static double nearest_target_bound(void* context, const gtPolyanya* search, gtVec2 root, gtVec2 right, gtVec2 left,
                                   int32_t edge)
{
	(void)edge;
	const TestTargets* t = context;
	double best = INFINITY;
	for (int i = 0; i < t->count; i++) {
		if (!t->placed[i] || !t->accept(NULL, i) || gtPolyanya_Returned(search, i)) continue;
		double d = gtMesh_IntervalBound(root, right, left, t->where[i]);
		if (d < best) best = d;
	}
	return best;
}

static bool one_in_25(void* context, int32_t id)
{
	(void)context;
	return id % 25 == 1;
}

static void test_nearest_equals_brute_force(void** state)
{
	(void)state;
	TestRng rng = {31};
	for (int k_map = 0; k_map < 3; k_map++) {
		gtMap* map;
		gtMesh* mesh;
		gtError err;
		if (k_map < 2) {
			if (!test_data_dir()) continue;
			map = test_load_shared_map(k_map == 0 ? "dao" : "bgmaps", k_map == 0 ? "arena" : "AR0011SR");
			if (gtMesh_Load(
			        test_data_path(k_map == 0 ? "meshes/dao/arena-merged.mesh" : "meshes/bgmaps/AR0011SR-merged.mesh"),
			        &mesh, &err))
				fail_msg("%s", err.message);
		} else {
			map = test_random_map(&rng, 40, 30, 25);
			assert_int_equal(gtMesh_FromMap(map, &mesh, &err), GT_OK);
		}
		enum { OBJECTS = 150 };
		gtVec2 where[OBJECTS];
		bool placed[OBJECTS];
		gtMeshObjects* objects;
		gtPolyanya* search;
		gtOracle* oracle;
		gtMeshFence* fence;
		assert_int_equal(gtMeshFence_Create(mesh, &fence, &err), GT_OK);
		assert_int_equal(gtMeshObjects_Create(mesh, &objects, &err), GT_OK);
		assert_int_equal(gtPolyanya_Create(mesh, &search, &err), GT_OK);
		assert_int_equal(gtOracle_Create(map, 2, &oracle, &err), GT_OK);
		for (int i = 0; i < OBJECTS; i++) {
			do where[i] = i % 10 == 0 ? point_on_an_edge(mesh, map, &rng) : random_point(map, &rng);
			while (gtMeshObjects_Set(objects, i, where[i], &err) !=
			       GT_OK); // pinch points off the mesh's rule are refused
			placed[i] = true;
		}
		assert_int_equal(gtMeshObjects_Set(objects, 5, (gtVec2){-3, 2}, &err), GT_ERR_INVALID_POINT);
		for (int round = 0; round < 3; round++) {
			gtMeshAcceptFcn* accept = round < 2 ? skip_every_third : one_in_25;
			if (round == 1) // moves, small ones (often in the same polygon) and jumps, and removals
				for (int i = 0; i < OBJECTS; i++) {
					if (i % 7 == 0) {
						gtMeshObjects_Remove(objects, i);
						placed[i] = false;
						continue;
					}
					gtVec2 p = i % 2 ? (gtVec2){where[i].x + 0.25, where[i].y} : random_point(map, &rng);
					if (gtMeshObjects_Set(objects, i, p, &err) == GT_OK) where[i] = p;
				}
			assert_int_equal(gtMeshFence_Compute(fence, search, objects, accept, NULL, &err), GT_OK);
			assert_true(gtMeshFence_Labels(fence) > 0);
			TestTargets targets = {where, placed, OBJECTS, accept};
			for (int qi = 0; qi < 120; qi++) {
				gtVec2 q = random_point(map, &rng);
				int k = 1 + (qi / 3) % 6, found, heuristic = qi % 3;
				int32_t ids[8];
				double got[8], all[OBJECTS];
				gtStatus st = heuristic == 0
				                  ? gtPolyanya_Nearest(search, objects, q, k, accept, NULL, ids, got, 8, &found, &err)
				              : heuristic == 1
				                  ? gtPolyanya_NearestGuided(search, objects, q, k, accept, NULL, nearest_target_bound,
				                                             &targets, ids, got, 8, &found, &err)
				                  : gtPolyanya_NearestGuided(search, objects, q, k, accept, NULL, gtMeshFence_Guide,
				                                             fence, ids, got, 8, &found, &err);
				if (st == GT_ERR_INVALID_POINT) continue; // a pinch point whose nudge is a wall
				assert_int_equal(st, GT_OK);
				int n = 0;
				for (int i = 0; i < OBJECTS; i++) {
					if (!placed[i] || !accept(NULL, i)) continue;
					double d;
					assert_int_equal(gtOracle_Distance(oracle, q, where[i], &d, &err), GT_OK);
					if (!isinf(d)) all[n++] = d;
				}
				qsort(all, (size_t)n, sizeof *all, by_value);
				assert_int_equal(found, n < k ? n : k);
				for (int i = 0; i < found; i++) {
					assert_true(accept(NULL, ids[i]) && placed[ids[i]]);
					if (fabs(got[i] - all[i]) > 1e-6 * (1 + all[i]))
						fail_msg(
						    "map %d round %d heuristic %d query (%g, %g) k %d: result %d is %.9f, brute force %.9f",
						    k_map, round, heuristic, q.x, q.y, k, i, got[i], all[i]);
					double own;
					assert_int_equal(gtOracle_Distance(oracle, q, where[ids[i]], &own, &err), GT_OK);
					assert_true(fabs(own - got[i]) <= 1e-6 * (1 + own)); // the distance is that object's
				}
			}
		}
		gtOracle_Destroy(oracle);
		gtMeshFence_Destroy(fence);
		gtPolyanya_Destroy(search);
		gtMeshObjects_Destroy(objects);
		gtMesh_Destroy(mesh);
		gtMap_Destroy(map);
	}
}

TEST_MAIN("mesh", test_locates_points_of_every_kind, test_malformed_meshes_name_the_problem,
          test_shared_meshes_against_a_linear_scan, test_polyanya_equals_the_oracle, test_built_meshes_equal_the_oracle,
          test_polyanya_through_rows_of_collinear_corners, test_built_meshes_of_awkward_maps,
          test_nearest_equals_brute_force)
