// Tiled walls: the centre rule against a brute-force point-in-shape oracle on random rotated
// shapes, exact cases on the grid, tile collision shapes (flips, large tiles, tile objects), the
// conventions and their counts, and real levels (STI's and the Rust tiled crate's test suites).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

enum { MAP_W = 30, MAP_H = 20, TILE_W = 16, TILE_H = 12 };

static gtMap* parse_ok(const char* text, const char* name, const gtTiledDef* def, gtTiled** tiled)
{
	gtMap* map = NULL;
	gtError err;
	if (gtMap_ParseTiled(text, strlen(text), name, def, &map, tiled, &err)) fail_msg("%s\n%s", err.message, text);
	return map;
}

// ---- the oracle ---------------------------------------------------------------------------------

typedef struct Shape {
	const char* kind; // "rect", "ellipse", "capsule", "polygon", "polyline"
	double x, y, w, h, rotation;
	double points[16];
	int point_count;
} Shape;

// A pixel point in the shape's own frame (Tiled rotates clockwise on screen about (x, y)).
static void to_local(const Shape* s, double px, double py, double* u, double* v)
{
	double r = s->rotation * 3.14159265358979323846 / 180, c = cos(r), sn = sin(r), dx = px - s->x, dy = py - s->y;
	*u = c * dx + sn * dy;
	*v = -sn * dx + c * dy;
}

static void to_world(const Shape* s, double u, double v, double* px, double* py)
{
	double r = s->rotation * 3.14159265358979323846 / 180, c = cos(r), sn = sin(r);
	*px = s->x + c * u - sn * v;
	*py = s->y + sn * u + c * v;
}

static double segment_distance(double px, double py, double ax, double ay, double bx, double by)
{
	double dx = bx - ax, dy = by - ay, len = dx * dx + dy * dy;
	double t = len > 0 ? ((px - ax) * dx + (py - ay) * dy) / len : 0;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return hypot(px - ax - t * dx, py - ay - t * dy);
}

// 1 inside, 0 outside, -1 too close to the boundary to say (floating point decides there).
static int centre_inside(const Shape* s, double u, double v)
{
	const double eps = 1e-6;
	if (strcmp(s->kind, "rect") == 0) {
		if (s->w <= 0 || s->h <= 0) return 0;
		double margin = fmin(fmin(u, s->w - u), fmin(v, s->h - v));
		return fabs(margin) < eps ? -1 : margin > 0;
	}
	if (strcmp(s->kind, "ellipse") == 0) {
		if (s->w <= 0 || s->h <= 0) return 0;
		double a = s->w / 2, b = s->h / 2, f = (u - a) * (u - a) / (a * a) + (v - b) * (v - b) / (b * b) - 1;
		return fabs(f) < eps ? -1 : f < 0;
	}
	if (strcmp(s->kind, "capsule") == 0) {
		if (s->w <= 0 || s->h <= 0) return 0;
		double r = fmin(s->w, s->h) / 2;
		double d = s->w >= s->h ? segment_distance(u, v, r, r, s->w - r, r) : segment_distance(u, v, r, r, r, s->h - r);
		return fabs(d - r) < eps ? -1 : d < r;
	}
	// A polygon: even-odd crossings, "on" within eps of an edge.
	bool inside = false;
	double nearest = INFINITY;
	for (int k = 0; k < s->point_count; k++) {
		const double* a = &s->points[2 * k];
		const double* b = &s->points[2 * ((k + 1) % s->point_count)];
		nearest = fmin(nearest, segment_distance(u, v, a[0], a[1], b[0], b[1]));
		if ((a[1] > v) != (b[1] > v) && u < a[0] + (v - a[1]) * (b[0] - a[0]) / (b[1] - a[1])) inside = !inside;
	}
	return nearest < eps ? -1 : inside;
}

// Whether segment a-b (cell units) passes through the open square of cell (i, j): the part of it
// inside the closed square (Liang-Barsky) has its midpoint strictly inside, or -1 when too close.
static int crosses_cell(double ax, double ay, double bx, double by, int i, int j)
{
	double t0 = 0, t1 = 1, d[2] = {bx - ax, by - ay}, p[2] = {ax, ay}, lo[2] = {i, j};
	for (int axis = 0; axis < 2; axis++) {
		if (d[axis] == 0) {
			if (p[axis] < lo[axis] || p[axis] > lo[axis] + 1) return 0;
			continue;
		}
		double ta = (lo[axis] - p[axis]) / d[axis], tb = (lo[axis] + 1 - p[axis]) / d[axis];
		if (ta > tb) {
			double t = ta;
			ta = tb, tb = t;
		}
		t0 = fmax(t0, ta), t1 = fmin(t1, tb);
	}
	if (t0 > t1) return 0;
	double t = (t0 + t1) / 2, mx = ax + t * d[0], my = ay + t * d[1];
	double margin = fmin(fmin(mx - i, i + 1 - mx), fmin(my - j, j + 1 - my));
	return fabs(margin) < 1e-9 ? -1 : margin > 0;
}

static int oracle(const Shape* s, int i, int j)
{
	if (strcmp(s->kind, "polyline") != 0) {
		double u, v;
		to_local(s, (i + 0.5) * TILE_W, (j + 0.5) * TILE_H, &u, &v);
		return centre_inside(s, u, v);
	}
	int result = 0;
	for (int k = 0; k + 1 < s->point_count; k++) {
		double ax, ay, bx, by;
		to_world(s, s->points[2 * k], s->points[2 * k + 1], &ax, &ay);
		to_world(s, s->points[2 * k + 2], s->points[2 * k + 3], &bx, &by);
		int c = crosses_cell(ax / TILE_W, ay / TILE_H, bx / TILE_W, by / TILE_H, i, j);
		if (c == 1) return 1;
		if (c < 0) result = -1;
	}
	return result;
}

// A .tmj of one collidable object layer holding the shape.
static void shape_level_sized(const Shape* s, int width, int height, char* out, size_t room)
{
	char extra[512] = "";
	if (strcmp(s->kind, "polygon") == 0 || strcmp(s->kind, "polyline") == 0) {
		size_t used = (size_t)snprintf(extra, sizeof extra, ", \"%s\": [", s->kind);
		for (int k = 0; k < s->point_count; k++)
			used += (size_t)snprintf(extra + used, sizeof extra - used, "%s{\"x\": %.17g, \"y\": %.17g}", k ? ", " : "",
			                         s->points[2 * k], s->points[2 * k + 1]);
		snprintf(extra + used, sizeof extra - used, "]");
	} else if (strcmp(s->kind, "rect") != 0) {
		snprintf(extra, sizeof extra, ", \"%s\": true", s->kind);
	}
	snprintf(out, room,
	         "{\"width\": %d, \"height\": %d, \"tilewidth\": %d, \"tileheight\": %d, \"layers\": [{\"type\": "
	         "\"objectgroup\", "
	         "\"name\": \"walls\", \"properties\": [{\"name\": \"collidable\", \"type\": \"bool\", \"value\": true}], "
	         "\"objects\": "
	         "[{\"id\": 1, \"x\": %.17g, \"y\": %.17g, \"width\": %.17g, \"height\": %.17g, \"rotation\": %.17g%s}]}]}",
	         width, height, TILE_W, TILE_H, s->x, s->y, s->w, s->h, s->rotation, extra);
}

static void shape_level(const Shape* s, char* out, size_t room)
{
	shape_level_sized(s, MAP_W, MAP_H, out, room);
}

static double uniform(TestRng* rng, double lo, double hi)
{
	return lo + (hi - lo) * gtRandom_Unit(rng);
}

static void test_shapes_match_the_oracle(void** state)
{
	(void)state;
	static const char* const kinds[] = {"rect", "ellipse", "capsule", "polygon", "polyline"};
	TestRng rng = {20261126};
	gtTiledDef def = gtTiled_DefaultDef();
	def.allow_empty = true; // a shape may miss every centre
	int64_t checked = 0, unsure = 0, walled = 0;
	char text[4096];
	for (int n = 0; n < 1500; n++) {
		Shape s = {kinds[n % 5],
		           uniform(&rng, -60, MAP_W * TILE_W + 60),
		           uniform(&rng, -60, MAP_H * TILE_H + 60),
		           uniform(&rng, 0, 160),
		           uniform(&rng, 0, 160),
		           0,
		           {0},
		           0};
		int r = test_rng_int(&rng, 4); // unrotated, quarter turns, any angle
		s.rotation = r == 0 ? 0 : r == 1 ? 90.0 * test_rng_int(&rng, 4) : uniform(&rng, -360, 360);
		if (n % 5 >= 3) {
			s.point_count = 2 + test_rng_int(&rng, 7);
			for (int k = 0; k < 2 * s.point_count; k++) s.points[k] = uniform(&rng, -150, 150);
		}
		if (n % 37 == 0) s.w = 0; // no area: nothing
		shape_level(&s, text, sizeof text);
		gtTiled* tiled;
		gtMap* map = parse_ok(text, "shape.tmj", &def, &tiled);
		for (int j = 0; j < MAP_H; j++)
			for (int i = 0; i < MAP_W; i++) {
				int want = oracle(&s, i, j);
				bool got = gtMap_IsBlocked(map, i, j);
				if (want < 0) {
					unsure++;
					continue;
				}
				checked++;
				walled += got;
				if (got != (want == 1))
					fail_msg("shape %d (%s x=%g y=%g w=%g h=%g rotation=%g): cell (%d, %d) walled %d, oracle %d", n,
					         s.kind, s.x, s.y, s.w, s.h, s.rotation, i, j, got, want);
			}
		assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_OBJECTS), MAP_W * MAP_H - gtMap_FreeCells(map));
		gtTiled_Destroy(tiled);
		gtMap_Destroy(map);
	}
	print_message("%lld cells checked, %lld walled, %lld too close to call\n", (long long)checked, (long long)walled,
	              (long long)unsure);
	assert_true(walled > checked / 50);   // the shapes hit plenty of cells
	assert_true(unsure < checked / 1000); // and the oracle rarely abstains
}

// Exact cases: centres on a rectangle's edge are inside; a polyline along a grid line walls
// nothing; a diagonal through cell corners walls only the cells it crosses; quarter turns.
static void test_exact_cases_on_the_grid(void** state)
{
	(void)state;
	static const struct {
		Shape shape;
		const char* rows;
	} cases[] = {
	    {{"rect", 8, 6, 32, 24, 0, {0}, 0}, "@@@.\n@@@.\n@@@.\n....\n"},   // centres 8..40 x 6..30: on the edges
	    {{"rect", 8, 6, 31, 23, 0, {0}, 0}, "@@..\n@@..\n....\n....\n"},   // one pixel short of the next centres
	    {{"rect", 40, 6, 32, 24, 90, {0}, 0}, ".@@.\n.@@.\n.@@.\n....\n"}, // turned about (40, 6): x 16..40, y 6..38
	    {{"polyline", 0, 0, 0, 0, 0, {0, 24, 64, 24}, 2}, "....\n....\n....\n....\n"}, // along a grid line
	    {{"polyline", 0, 0, 0, 0, 0, {0, 0, 48, 36}, 2}, "@...\n.@..\n..@.\n....\n"},  // through the corners
	    {{"polyline", 0, 0, 0, 0, 0, {8, 6, 8, 6}, 2}, "@...\n....\n....\n....\n"},    // a point inside a cell
	    {{"polygon", 0, 0, 0, 0, 0, {8, 6, 56, 6, 8, 42}, 3},
	     "@@@@\n@@@.\n@@..\n@...\n"}, // the hypotenuse through centres
	};
	gtTiledDef def = gtTiled_DefaultDef();
	def.allow_empty = true;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		char text[2048], rows[64];
		shape_level_sized(&cases[c].shape, 4, 4, text, sizeof text);
		gtMap* map = parse_ok(text, "exact.tmj", &def, NULL);
		size_t n = 0;
		for (int y = 0; y < 4; y++, rows[n++] = '\n')
			for (int x = 0; x < 4; x++) rows[n++] = gtMap_IsBlocked(map, x, y) ? '@' : '.';
		rows[n] = '\0';
		if (strcmp(rows, cases[c].rows) != 0) fail_msg("case %zu:\n%s expected\n%s", c, rows, cases[c].rows);
		gtMap_Destroy(map);
	}
}

// A tileset of 32x32 tiles on a 16x16 grid (drawn bottom-aligned), tile 0 with a collision
// strip along its top (10 pixels high), tile 1 with `collidable`, tile 2 plain.
static const char* const TILESET =
    "<tileset firstgid=\"1\" name=\"t\" tilewidth=\"32\" tileheight=\"32\" tilecount=\"3\" columns=\"3\">"
    "<tile id=\"0\"><objectgroup><object id=\"1\" x=\"0\" y=\"0\" width=\"32\" height=\"10\"/></objectgroup></tile>"
    "<tile id=\"1\"><properties><property name=\"collidable\" type=\"bool\" value=\"true\"/></properties></tile>"
    "</tileset>";

static gtMap* tile_level(const char* csv, const char* extra, const gtTiledDef* def, gtTiled** tiled)
{
	static char text[4096];
	snprintf(text, sizeof text,
	         "<map orientation=\"orthogonal\" width=\"6\" height=\"4\" tilewidth=\"16\" tileheight=\"16\">%s"
	         "<layer name=\"ground\" width=\"6\" height=\"4\"><data encoding=\"csv\">%s</data></layer>%s</map>",
	         TILESET, csv, extra);
	return parse_ok(text, "tiles.tmx", def, tiled);
}

static void assert_rows(const gtMap* map, const char* rows)
{
	char got[128];
	size_t n = 0;
	for (int y = 0; y < gtMap_Height(map); y++, got[n++] = '\n')
		for (int x = 0; x < gtMap_Width(map); x++) got[n++] = gtMap_IsBlocked(map, x, y) ? '@' : '.';
	got[n] = '\0';
	if (strcmp(got, rows) != 0) fail_msg("walls\n%sexpected\n%s", got, rows);
}

static void test_tile_shapes_flips_and_tile_objects(void** state)
{
	(void)state;
	// Tile 0 at (1, 2): its image spans x 16..48, y 16..48 (rows 1-2 of the grid's 16); the strip
	// is y 16..26 there, over the centres of (1, 1) and (2, 1). Flipped vertically the strip is at
	// the bottom: (1, 2), (2, 2). Diagonally it stands: x 16..26, y 16..48: (1, 1), (1, 2).
	const char* base = "0,0,0,0,0,0, 0,0,0,0,0,0, 0,%u,0,0,0,0, 0,0,0,0,0,0";
	static const struct {
		uint32_t gid;
		const char* rows;
	} flips[] = {
	    {1u, "......\n.@@...\n......\n......\n"},
	    {1u | 0x80000000u, "......\n.@@...\n......\n......\n"}, // mirrored across: the same strip
	    {1u | 0x40000000u, "......\n......\n.@@...\n......\n"},
	    {1u | 0x20000000u, "......\n.@....\n.@....\n......\n"},
	    {1u | 0x20000000u | 0x80000000u, "......\n..@...\n..@...\n......\n"},
	};
	for (size_t i = 0; i < sizeof flips / sizeof *flips; i++) {
		char csv[128];
		snprintf(csv, sizeof csv, base, (unsigned)flips[i].gid);
		gtTiled* tiled;
		gtMap* map = tile_level(csv, "", NULL, &tiled);
		assert_rows(map, flips[i].rows);
		assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_TILE_SHAPES), 2);
		assert_string_equal(gtTiled_BlockedBy(tiled), "tile collision shapes");
		gtTiled_Destroy(tiled);
		gtMap_Destroy(map);
	}
	// A `collidable` tile walls its cell; a `collidable` tile layer walls all its tiles (STI).
	gtTiled* tiled;
	gtMap* map = tile_level("2,3,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,3", "", NULL, &tiled);
	assert_rows(map, "@.....\n......\n......\n......\n");
	assert_string_equal(gtTiled_BlockedBy(tiled), "property collidable");
	gtTiled_Destroy(tiled);
	gtMap_Destroy(map);
	static char text[4096];
	snprintf(
	    text, sizeof text,
	    "<map orientation=\"orthogonal\" width=\"6\" height=\"4\" tilewidth=\"16\" tileheight=\"16\">%s"
	    "<layer name=\"walls\" width=\"6\" height=\"4\"><properties><property name=\"collidable\" type=\"bool\" "
	    "value=\"true\"/>"
	    "</properties><data encoding=\"csv\">3,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,3,3</data></layer></map>",
	    TILESET);
	map = parse_ok(text, "layer.tmx", NULL, &tiled);
	assert_rows(map, "@.....\n......\n......\n....@@\n");
	assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_LAYER_PROPERTY), 3);
	assert_string_equal(gtTiled_BlockedBy(tiled), "layers with property collidable");
	gtTiled_Destroy(tiled);
	gtMap_Destroy(map);
	// Tile objects on an empty level, each with the walls it makes. A tile object of tile 0, 64x64
	// (twice the tile) with its bottom-left at (32, 64): the strip is x 32..96, y 0..20: the centres
	// of row 0, columns 2-5. Flipped vertically the strip is at the object's bottom: y 44..64, row 3.
	// A tile object whose tile has no shapes walls its whole rectangle: tile 2 (gid 3), 32x16 at
	// bottom-left (16, 48): x 16..48, y 32..48, row 2, columns 1-2.
	static const struct {
		const char* group;
		const char* rows;
		int object_walls;       // gtTiled_WallCells of the objects rule; -1: not checked
		const char* blocked_by; // NULL: not checked
	} objects[] = {
	    {"<objectgroup name=\"o\"><properties><property name=\"collidable\" type=\"bool\" value=\"true\"/>"
	     "</properties><object id=\"5\" gid=\"1\" x=\"32\" y=\"64\" width=\"64\" height=\"64\"/></objectgroup>",
	     "..@@@@\n......\n......\n......\n", 4, NULL},
	    {"<objectgroup name=\"o\"><properties><property name=\"collidable\" type=\"bool\" value=\"true\"/>"
	     "</properties><object id=\"5\" gid=\"1073741825\" x=\"32\" y=\"64\" width=\"64\" "
	     "height=\"64\"/></objectgroup>",
	     "......\n......\n......\n..@@@@\n", -1, NULL},
	    {"<objectgroup name=\"o\"><object id=\"6\" gid=\"3\" x=\"16\" y=\"48\" width=\"32\" height=\"16\">"
	     "<properties><property name=\"collides\" type=\"bool\" value=\"true\"/></properties></object></objectgroup>",
	     "......\n......\n.@@...\n......\n", -1, "objects with property collides"},
	};
	for (size_t i = 0; i < sizeof objects / sizeof *objects; i++) {
		map = tile_level("0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0", objects[i].group, NULL, &tiled);
		assert_rows(map, objects[i].rows);
		if (objects[i].object_walls >= 0)
			assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_OBJECTS), objects[i].object_walls);
		if (objects[i].blocked_by) assert_string_equal(gtTiled_BlockedBy(tiled), objects[i].blocked_by);
		gtTiled_Destroy(tiled);
		gtMap_Destroy(map);
	}
}

// The union by default; blocked_layer and blocked_property choose one; nothing found is refused.
static void test_conventions_and_choices(void** state)
{
	(void)state;
	const char* level =
	    "{\"width\": 4, \"height\": 2, \"tilewidth\": 8, \"tileheight\": 8, \"tilesets\": [{\"firstgid\": 1, "
	    "\"tiles\": [{\"id\": 0, "
	    "\"properties\": [{\"name\": \"solid\", \"type\": \"bool\", \"value\": true}]}]}], \"layers\": ["
	    "{\"type\": \"tilelayer\", \"name\": \"floor\", \"data\": [1, 0, 0, 0, 0, 0, 0, 0]},"
	    "{\"type\": \"tilelayer\", \"name\": \"Walls\", \"data\": [0, 0, 2, 0, 0, 0, 0, 0]},"
	    "{\"type\": \"objectgroup\", \"name\": \"crates\", \"objects\": [{\"id\": 3, \"x\": 24, \"y\": 8, \"width\": "
	    "8, \"height\": 8}]}]}";
	gtMap* map = NULL;
	gtError err;
	assert_int_equal(gtMap_ParseTiled(level, strlen(level), "level.tmj", NULL, &map, NULL, &err), GT_ERR_FORMAT);
	assert_string_equal(
	    err.message,
	    "level.tmj: no walls: tile layers 'floor', 'Walls'; object layers 'crates'; bool properties 'solid'; "
	    "pass --blocked-layer NAME or --blocked-property NAME, or allow_empty (Lua allow_empty = true, CLI "
	    "--allow-empty) for an open level");
	gtTiledDef def = gtTiled_DefaultDef();
	def.allow_empty = true;
	gtTiled* tiled;
	map = parse_ok(level, "level.tmj", &def, &tiled);
	assert_int_equal(gtMap_FreeCells(map), 8);
	assert_string_equal(gtTiled_BlockedBy(tiled), "nothing");
	gtTiled_Destroy(tiled);
	gtMap_Destroy(map);
	def = gtTiled_DefaultDef();
	def.blocked_property = "solid";
	map = parse_ok(level, "level.tmj", &def, &tiled);
	assert_rows(map, "@...\n....\n");
	assert_string_equal(gtTiled_BlockedBy(tiled), "property solid");
	gtTiled_Destroy(tiled);
	gtMap_Destroy(map);
	def.blocked_property = NULL;
	def.blocked_layer = "walls";
	map = parse_ok(level, "level.tmj", &def, NULL);
	assert_rows(map, "..@.\n....\n");
	gtMap_Destroy(map);
	def.blocked_layer = "CRATES"; // an object layer: its shapes
	map = parse_ok(level, "level.tmj", &def, &tiled);
	assert_rows(map, "....\n...@\n");
	assert_string_equal(gtTiled_BlockedBy(tiled), "objects of layer crates");
	assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_OBJECTS), 1);
	assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_COUNT), -1);
	assert_string_equal(gtTiled_RuleName(GT_TILED_RULE_TILE_SHAPES), "tile_shapes");
	gtTiled_Destroy(tiled);
	gtMap_Destroy(map);
	def.blocked_layer = "crate";
	assert_int_equal(gtMap_ParseTiled(level, strlen(level), "level.tmj", &def, &map, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(
	    strstr(err.message, "no layer named 'crate' (tile layers 'floor', 'Walls'; object layers 'crates'"));
	def.blocked_layer = NULL;
	def.blocked_property = "collidable"; // nothing has it: a typo, not an open level
	def.allow_empty = true;
	assert_int_equal(gtMap_ParseTiled(level, strlen(level), "level.tmj", &def, &map, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "no tile, layer or object has the bool property 'collidable' set true"));
}

// ---- real levels --------------------------------------------------------------------------------

static const char* tiled_data(const char* relative)
{
	const char* dir = test_data_dir();
	if (!dir) skip();
	static char path[512];
	snprintf(path, sizeof path, "%s/tiled/%s", dir, relative);
	FILE* f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "note: %s is absent; skipped\n", path);
		skip();
	}
	fclose(f);
	return path;
}

// STI's objects.tmx: a `collidable` object layer of rectangles, rotated rectangles, ellipses (one
// rotated), polygons, polylines, points, tile objects (flipped, scaled, rotated) and a text
// object. The walls as an independent brute-force script found them (every cell centre tested
// against each shape in its own frame; polylines sampled every 1/20000 of a segment), the same
// as working it by hand: object 1 (32, 32, 96x96) is cells 1-3 x 1-3, the circle of object 3
// covers its 3x3 centres (the corners are 45.3 px from its centre, radius 48), and so on.
static const char* const STI_OBJECTS = "................................\n"
                                       ".@@@..@@..@@@.@@...@.......@....\n"
                                       ".@@@.@@@@.@@@.@@..@@............\n"
                                       ".@@@..@@..@@@.@@..@.....@@.@@...\n"
                                       "........................@@.@@...\n"
                                       ".......@..@....@................\n"
                                       "........@.@@..@@......@@@@.@@@@.\n"
                                       "....@@..@@@@@..@......@@@@.@@@@.\n"
                                       ".....@@@@.............@@@@.@@@@.\n"
                                       "......@@..............@@@@.@@@@.\n"
                                       "................................\n"
                                       "................................\n"
                                       "................................\n"
                                       "................................\n"
                                       "................................\n"
                                       "................................\n";

// ortho.tmx's circle (radius 160 px about (576, 192), cells of 32) by the same script: 80 cells.
static const char* const STI_ORTHO_CIRCLE = "........................\n"
                                            "................@@@@....\n"
                                            "..............@@@@@@@@..\n"
                                            "..............@@@@@@@@..\n"
                                            ".............@@@@@@@@@@.\n"
                                            ".............@@@@@@@@@@.\n"
                                            ".............@@@@@@@@@@.\n"
                                            ".............@@@@@@@@@@.\n"
                                            "..............@@@@@@@@..\n"
                                            "..............@@@@@@@@..\n"
                                            "................@@@@....\n"
                                            "........................\n";

static void test_sti_levels(void** state)
{
	(void)state;
	const char* path = tiled_data("sti/tests/tmx/objects.tmx");
	gtTiledDef def = gtTiled_DefaultDef();
	gtMap* map = NULL;
	gtError err;
	// Its tilesets are in ../tsx: outside the level's folder, refused unless allowed.
	assert_int_equal(gtMap_LoadTiled(path, &def, &map, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(
	    err.message, "tileset '../tsx/grid.tsx' is outside the level's folder (allow_outside_paths to allow it)"));
	def.allow_outside_paths = true;
	gtTiled* tiled;
	if (gtMap_LoadTiled(path, &def, &map, &tiled, &err)) fail_msg("%s", err.message);
	gtMap* expected = test_map_from_rows(STI_OBJECTS);
	assert_true(gtMap_Fingerprint(map) == gtMap_Fingerprint(expected));
	gtMap_Destroy(expected);
	assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_OBJECTS), 99);
	assert_int_equal(gtMap_Width(map) * gtMap_Height(map) - gtMap_FreeCells(map), 99);
	assert_string_equal(gtTiled_BlockedBy(tiled), "objects with property collidable");
	gtTiled_Destroy(tiled);
	gtMap_Destroy(map);
	// ortho.tmx: its ellipse is in a layer without `collidable`: no walls, refused unless open.
	path = tiled_data("sti/tests/tmx/ortho.tmx");
	assert_int_equal(gtMap_LoadTiled(path, &def, &map, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(
	    err.message, "no walls: tile layers 'Tile Layer 1'; object layers 'Object Layer 1'; pass --blocked-layer"));
	def.allow_empty = true;
	if (gtMap_LoadTiled(path, &def, &map, NULL, &err)) fail_msg("%s", err.message);
	assert_int_equal(gtMap_FreeCells(map), 24 * 12);
	gtMap_Destroy(map);
	// Naming the layer takes its ellipse (inside a group layer).
	def.blocked_layer = "object layer 1";
	if (gtMap_LoadTiled(path, &def, &map, NULL, &err)) fail_msg("%s", err.message);
	expected = test_map_from_rows(STI_ORTHO_CIRCLE);
	assert_true(gtMap_Fingerprint(map) == gtMap_Fingerprint(expected));
	assert_int_equal(gtMap_FreeCells(map), 24 * 12 - 80);
	gtMap_Destroy(expected);
	gtMap_Destroy(map);
	path = tiled_data("sti/tests/tmx/iso.tmx");
	assert_int_equal(gtMap_LoadTiled(path, &def, &map, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "only orthogonal maps can be read; this one is isometric"));
}

// The Rust crate's templates/example.tmx: a 100x100 level whose tileset draws its walls with
// Tiled's collision editor only (corner and edge shapes from object templates, one rotated 270
// degrees). Every one of those shapes reaches the tile's centre (a quarter touches it with its
// corner, an edge with its side), so the walls are exactly the 7,229 cells holding a shaped tile
// (counted from the CSV and the tileset by a script).
static void test_rs_tiled_levels(void** state)
{
	(void)state;
	const char* path = tiled_data("rs-tiled/assets/templates/example.tmx");
	gtTiled* tiled;
	gtMap* map = NULL;
	gtError err;
	if (gtMap_LoadTiled(path, NULL, &map, &tiled, &err)) fail_msg("%s", err.message);
	assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_TILE_SHAPES), 7229);
	assert_int_equal(100 * 100 - gtMap_FreeCells(map), 7229);
	assert_string_equal(gtTiled_BlockedBy(tiled), "tile collision shapes");
	gtTiled_Destroy(tiled);
	gtMap_Destroy(map);
	// folder/tiled_relative_paths.tmx names ../tilesheet.tsx: refused, then allowed.
	path = tiled_data("rs-tiled/assets/folder/tiled_relative_paths.tmx");
	gtTiledDef def = gtTiled_DefaultDef();
	def.allow_empty = true;
	assert_int_equal(gtMap_LoadTiled(path, &def, &map, NULL, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "tileset '../tilesheet.tsx' is outside the level's folder"));
	def.allow_outside_paths = true;
	if (gtMap_LoadTiled(path, &def, &map, NULL, &err)) fail_msg("%s", err.message);
	gtMap_Destroy(map);
	// Every encoding of the crate's base map reads the same (and has no walls).
	static const char* const same[] = {"tiled_base64.tmx",      "tiled_base64_zlib.tmx",
	                                   "tiled_base64_gzip.tmx", "tiled_base64_zstandard.tmx",
	                                   "tiled_csv.tmx",         "tiled_base64_external.tmx"};
	for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
		char name[64];
		snprintf(name, sizeof name, "rs-tiled/assets/%s", same[i]);
		path = tiled_data(name);
		assert_int_equal(gtMap_LoadTiled(path, NULL, &map, NULL, &err), GT_ERR_FORMAT);
		assert_non_null(strstr(err.message, "no walls: tile layers 'Tile Layer 1'; object layers 'Object group'"));
		def = gtTiled_DefaultDef();
		def.blocked_layer = "tile layer 1";
		if (gtMap_LoadTiled(path, &def, &map, NULL, &err)) fail_msg("%s", err.message);
		assert_int_equal(gtMap_Width(map), 100);
		gtMap_Destroy(map);
	}
}

TEST_MAIN("tiled_walls", test_shapes_match_the_oracle, test_exact_cases_on_the_grid,
          test_tile_shapes_flips_and_tile_objects, test_conventions_and_choices, test_sti_levels, test_rs_tiled_levels)
