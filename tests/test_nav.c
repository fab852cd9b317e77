// The navigation façade: method choice, lazy rebinding of per-thread queries when the index
// changes, every backend against the oracle, and the path follower against arc-length brute force.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static void test_method_names(void** state)
{
	(void)state;
	for (int m = GT_NAV_AUTO; m <= GT_NAV_POLYANYA; m++) {
		gtNavMethod back;
		assert_int_equal(gtNavMethod_Parse(gtNavMethod_Name((gtNavMethod)m), &back, NULL), GT_OK);
		assert_int_equal(back, m);
	}
	gtNavMethod m;
	gtError err;
	assert_int_equal(gtNavMethod_Parse("astar", &m, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "auto, ehl, oracle, euclid, polyanya"));
	assert_int_equal(gtNavMethod_Parse(NULL, &m, &err), GT_ERR_INVALID_ARG);
}

static double oracle_distance(gtOracle* oracle, gtVec2 s, gtVec2 t)
{
	double d;
	gtError err;
	if (gtOracle_Distance(oracle, s, t, &d, &err)) fail_msg("%s", err.message);
	return d;
}

// The same gtNavQuery answers through the oracle, then the index once built, then the oracle again
// when the index is dropped: every answer equal to the oracle's.
static void test_backends_agree(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/small.map");
	gtError err;
	gtOracle* oracle;
	assert_int_equal(gtOracle_Create(map, 1, &oracle, &err), GT_OK);
	gtNav* nav;
	gtNavQuery* q;
	gtNavDef def = gtNav_DefaultDef();
	def.method = GT_NAV_EHL;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_ERR_INVALID_ARG); // no index yet
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_SetMethod(nav, GT_NAV_EHL, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "index"));
	assert_int_equal(gtNav_SaveIndex(nav, "never.ehl", &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	int capacity = gtNav_PathCapacity(nav);
	gtVec2* points = malloc((size_t)capacity * sizeof *points);
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 3;
	gtRandom rng = {11};
	for (int phase = 0; phase < 3; phase++) {
		if (phase == 1) assert_int_equal(gtNav_BuildIndex(nav, &ehl, &err), GT_OK);
		if (phase == 2) gtNav_ClearIndex(nav);
		assert_int_equal(gtNav_Method(nav), phase == 1 ? GT_NAV_EHL : GT_NAV_ORACLE);
		gtDistance world;
		assert_int_equal(gtNavQuery_WorldDistance(q, &world, &err), GT_OK);
		for (int i = 0; i < 200; i++) {
			gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng);
			double want = oracle_distance(oracle, s, t), d, length;
			int count;
			assert_int_equal(gtNavQuery_Distance(q, s, t, &d, &err), GT_OK);
			assert_int_equal(gtNavQuery_Path(q, s, t, points, capacity, &count, &length, &err), GT_OK);
			if (isinf(want)) {
				assert_true(isinf(d) && count == 0);
				continue;
			}
			assert_float_equal(d, want, 1e-9 * (1 + want));
			assert_float_equal(length, want, 1e-9 * (1 + want));
			assert_float_equal(world.fcn(world.context, s, t), want, 1e-9 * (1 + want));
			assert_true(count >= 2 && points[0].x == s.x && points[0].y == s.y);
			assert_true(points[count - 1].x == t.x && points[count - 1].y == t.y);
		}
	}
	double d;
	assert_int_equal(gtNavQuery_Distance(q, (gtVec2){NAN, 1}, (gtVec2){1, 1}, &d, &err), GT_ERR_INVALID_POINT);
	free(points);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtOracle_Destroy(oracle);
	gtMap_Destroy(map);
}

static void test_index_files_and_ownership(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/small.map");
	gtMap* other;
	gtError err;
	other = test_map_from_rows("....\n.@..\n....");
	gtNav* nav;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 4;
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	char path[64];
	snprintf(path, sizeof path, "/tmp/gridtree-nav-%d.ehl", (int)getpid());
	assert_int_equal(gtNav_SaveIndex(nav, path, &err), GT_OK);
	gtNav* loaded;
	assert_int_equal(gtNav_Create(map, NULL, &loaded, &err), GT_OK);
	assert_int_equal(gtNav_LoadIndex(loaded, path, &err), GT_OK);
	assert_int_equal(gtEhl_GetStats(gtNav_Index(loaded)).via_labels, gtEhl_GetStats(gtNav_Index(nav)).via_labels);
	assert_int_equal(gtNav_LoadIndex(loaded, "/nonexistent.ehl", &err), GT_ERR_IO);
	assert_non_null(gtNav_Index(loaded)); // a failed load keeps the index it had
	remove(path);
	// An index of another map is refused (and freed: ASan would report the leak).
	gtEhl* foreign;
	assert_int_equal(gtEhl_Build(other, &def, &foreign, &err), GT_OK);
	assert_int_equal(gtNav_SetIndex(loaded, foreign, &err), GT_ERR_INVALID_ARG);
	gtEhl* own;
	assert_int_equal(gtEhl_Build(map, &def, &own, &err), GT_OK);
	assert_int_equal(gtNav_SetIndex(loaded, own, &err), GT_OK);
	assert_ptr_equal(gtNav_Index(loaded), own);
	gtNav_Destroy(loaded);
	gtNav_Destroy(nav);
	gtMap_Destroy(other);
	gtMap_Destroy(map);
}

static void test_straight_lines(void** state)
{
	(void)state;
	gtMap* map = test_map_from_rows("......\n..@@..\n......");
	gtError err;
	gtNavDef def = gtNav_DefaultDef();
	def.method = GT_NAV_EUCLID;
	gtNav* nav;
	gtNavQuery* q;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	gtVec2 s = {0, 1.5}, t = {6, 1.5}, points[2];
	double d;
	int count;
	assert_int_equal(gtNavQuery_Distance(q, s, t, &d, &err), GT_OK);
	assert_true(d == 6); // through the wall: straight lines ignore it
	assert_int_equal(gtNavQuery_Path(q, s, t, points, 1, &count, &d, &err), GT_ERR_BUFFER_TOO_SMALL);
	assert_int_equal(count, 2);
	assert_int_equal(gtNavQuery_Path(q, s, t, points, 2, &count, &d, &err), GT_OK);
	assert_true(count == 2 && points[1].x == 6);
	assert_int_equal(gtNavQuery_Distance(q, s, (gtVec2){2.5, 1.5}, &d, &err), GT_ERR_INVALID_POINT);
	gtDistance world;
	assert_int_equal(gtNavQuery_WorldDistance(q, &world, &err), GT_OK);
	assert_true(world.fcn(world.context, s, t) == 6);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// The point at arc length `along` of a polyline, by summing whole segments (the brute force).
static gtVec2 at_length(const gtVec2* p, int n, double along)
{
	for (int i = 0; i + 1 < n; i++) {
		double len = hypot(p[i + 1].x - p[i].x, p[i + 1].y - p[i].y);
		if (along < len)
			return (gtVec2){p[i].x + (p[i + 1].x - p[i].x) * along / len, p[i].y + (p[i + 1].y - p[i].y) * along / len};
		along -= len;
	}
	return p[n - 1];
}

static void test_path_advance(void** state)
{
	(void)state;
	gtRandom rng = {5};
	for (int trial = 0; trial < 500; trial++) {
		gtVec2 p[8];
		int n = 1 + gtRandom_Below(&rng, 8);
		double total = 0;
		for (int i = 0; i < n; i++) {
			p[i] = (gtVec2){gtRandom_Below(&rng, 50) / 2.0, gtRandom_Below(&rng, 50) / 2.0};
			if (i > 0) total += hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
		}
		int segment = 0;
		gtVec2 at = p[0];
		double walked = 0;
		for (int step = 0; step < 40; step++) {
			double by = gtRandom_Below(&rng, 100) / 17.0;
			at = gtPath_Advance(p, n, &segment, at, by);
			walked = fmin(walked + by, total);
			gtVec2 want = at_length(p, n, walked);
			assert_float_equal(at.x, want.x, 1e-9);
			assert_float_equal(at.y, want.y, 1e-9);
			assert_true(segment >= 0 && segment < n);
			if (walked >= total) assert_int_equal(segment, n - 1); // arrived
		}
	}
	int segment = 0;
	gtVec2 p[2] = {{0, 0}, {3, 4}};
	gtVec2 still = gtPath_Advance(p, 2, &segment, p[0], NAN);
	assert_true(still.x == 0 && still.y == 0 && segment == 0);
	still = gtPath_Advance(p, 2, &segment, p[0], -1);
	assert_true(still.x == 0 && segment == 0);
	still = gtPath_Advance(NULL, 0, &segment, p[1], 1);
	assert_true(still.x == 3);
}

// gt_nav.h and docs/cli.md: the default def is "auto" on all cores with the built-in pool; auto answers
// with the oracle until an index is built, then with the index.
static void test_default_def(void** state)
{
	(void)state;
	gtNavDef def = gtNav_DefaultDef();
	assert_int_equal(def.method, GT_NAV_AUTO);
	assert_int_equal(def.threads, 0);
	assert_null(def.tasks);
	gtMap* map = test_map_from_rows("......\n..@@..\n......");
	gtNav* nav;
	gtError err;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_Method(nav), GT_NAV_ORACLE);
	assert_int_equal(gtNav_BuildIndex(nav, NULL, &err), GT_OK);
	assert_int_equal(gtNav_Method(nav), GT_NAV_EHL);
	assert_int_equal(gtEhl_GetStats(gtNav_Index(nav)).cell_size, 4); // a NULL def is gtEhl_DefaultDef
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// Polyanya as the nav's backend on a shared map and mesh: distances and paths equal the oracle's,
// a world query through it too; a mesh of another map is refused naming a cell; after an edit the
// edited map's oracle answers; no mesh, no method.
static void test_polyanya_backend(void** state)
{
	(void)state;
	if (!test_data_dir()) skip();
	gtMap* map = test_load_shared_map("dao", "arena");
	gtError err;
	gtNav* nav;
	gtNavQuery* q;
	gtOracle* oracle;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_SetMethod(nav, GT_NAV_POLYANYA, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "needs a mesh"));
	assert_int_equal(gtNav_LoadMesh(nav, test_data_path("meshes/bgmaps/AR0011SR-merged.mesh"), &err),
	                 GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "AR0011SR-merged.mesh: the mesh does not match the map: cell ("));
	assert_null(gtNav_Mesh(nav));
	assert_int_equal(gtNav_LoadMesh(nav, test_data_path("meshes/dao/arena-merged.mesh"), &err), GT_OK);
	assert_int_equal(gtNav_SetMethod(nav, GT_NAV_POLYANYA, &err), GT_OK);
	assert_int_equal(gtNav_Method(nav), GT_NAV_POLYANYA);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	assert_int_equal(gtOracle_Create(map, 2, &oracle, &err), GT_OK);
	TestRng rng = {5};
	int capacity = gtNav_PathCapacity(nav);
	gtVec2* path = malloc((size_t)capacity * sizeof *path);
	for (int i = 0; i < 200; i++) {
		gtVec2 s, t;
		do
			s = (gtVec2){test_rng_int(&rng, 4 * gtMap_Width(map)) / 4.0,
			             test_rng_int(&rng, 4 * gtMap_Height(map)) / 4.0};
		while (gtMap_CheckPoint(map, s));
		do
			t = (gtVec2){test_rng_int(&rng, 4 * gtMap_Width(map)) / 4.0,
			             test_rng_int(&rng, 4 * gtMap_Height(map)) / 4.0};
		while (gtMap_CheckPoint(map, t));
		double d, dp, expected = oracle_distance(oracle, s, t);
		int n;
		assert_int_equal(gtNavQuery_Distance(q, s, t, &d, &err), GT_OK);
		assert_int_equal(gtNavQuery_Path(q, s, t, path, capacity, &n, &dp, &err), GT_OK);
		if (fabs(d - expected) > 1e-6 * (1 + expected) || fabs(dp - expected) > 1e-6 * (1 + expected))
			fail_msg("(%g, %g)-(%g, %g): polyanya %.9f / %.9f, oracle %.9f", s.x, s.y, t.x, t.y, d, dp, expected);
	}
	gtDistance world_distance;
	assert_int_equal(gtNavQuery_WorldDistance(q, &world_distance, &err), GT_OK);
	gtVec2 a = {20.5, 20.5}, b = {40.5, 30.5};
	if (!gtMap_CheckPoint(map, a) && !gtMap_CheckPoint(map, b))
		assert_true(fabs(world_distance.fcn(world_distance.context, a, b) - oracle_distance(oracle, a, b)) < 1e-6);
	double d;
	assert_int_equal(gtNavQuery_Distance(q, (gtVec2){-1, 3}, (gtVec2){20.5, 20.5}, &d, &err), GT_ERR_INVALID_POINT);
	// An edit: the mesh is out of date, the edited map's oracle answers.
	int wall_x = -1, wall_y = -1; // a free cell with free cells left and right: a wall there cuts a straight line
	for (int y = 1; y + 1 < gtMap_Height(map) && wall_x < 0; y++)
		for (int x = 1; x + 1 < gtMap_Width(map) && wall_x < 0; x++)
			if (!gtMap_IsBlocked(map, x - 1, y) && !gtMap_IsBlocked(map, x, y) && !gtMap_IsBlocked(map, x + 1, y))
				wall_x = x, wall_y = y;
	assert_true(wall_x > 0);
	gtVec2 s = {wall_x - 0.5, wall_y + 0.5}, t = {wall_x + 1.5, wall_y + 0.5};
	assert_int_equal(gtNav_SetBlocked(nav, wall_x, wall_y, wall_x, wall_y, true, &err), GT_OK);
	gtOracle* edited;
	assert_int_equal(gtOracle_Create(map, 2, &edited, &err), GT_OK);
	assert_int_equal(gtNavQuery_Distance(q, s, t, &d, &err), GT_OK);
	assert_true(fabs(d - oracle_distance(edited, s, t)) < 1e-9);
	assert_true(d > 2 + 1e-9); // the straight line is blocked now
	gtOracle_Destroy(edited);
	free(path);
	gtOracle_Destroy(oracle);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

TEST_MAIN("nav", test_default_def, test_method_names, test_backends_agree, test_index_files_and_ownership,
          test_straight_lines, test_polyanya_backend, test_path_advance)
