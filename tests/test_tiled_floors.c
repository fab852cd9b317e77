// Tiled levels of several floors (docs/links.md, Floors in Tiled): group layers with the property
// `floor` laid side by side, link objects (lines, points with `to` or `to_floor`) as links, in TMX
// and TMJ alike; distances across floors equal the oracle's on the same floors and links built by
// hand (gtMap_FromFloors, gtNav_AddFloorLink) and hand-computed walks; malformed floors and links
// are refused with a message naming what is wrong.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

// A level drawn in code, written as TMX or TMJ: floor groups of a `collision` tile layer ('#' is
// a tile) and an object layer; objects are points or lines (pixels, tiles of 16).
typedef struct LevelObject {
	int id;
	const char* name;
	double x, y;
	int points;        // 0: a point object; else a polyline of these points (x, y pairs in xy)
	double xy[6];      // relative to (x, y)
	const char* props; // "name:type:value;..." (type int, float, bool, object, string)
} LevelObject;

typedef struct LevelFloor {
	const char* floor; // the group's property `floor` as written; NULL for none
	const char* rows;
	int layer_width; // 0: the map's
	const LevelObject* objects;
	int object_count;
} LevelFloor;

enum { W = 10, H = 6, TILE = 16 };

typedef struct Text {
	char* s;
	size_t n, room;
} Text;

static void put(Text* t, const char* format, ...)
{
	va_list args;
	for (;;) {
		va_start(args, format);
		int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->room - t->n : 0, format, args);
		va_end(args);
		if (t->s && t->n + (size_t)k < t->room) {
			t->n += (size_t)k;
			return;
		}
		t->room = 2 * (t->room + (size_t)k + 64);
		t->s = realloc(t->s, t->room);
		assert_non_null(t->s);
	}
}

static void put_props(Text* t, bool tmx, const char* props)
{
	if (!props || !*props) return;
	char copy[256];
	snprintf(copy, sizeof copy, "%s", props);
	put(t, tmx ? "<properties>" : ", \"properties\": [");
	bool first = true;
	for (char* item = strtok(copy, ";"); item; item = strtok(NULL, ";"), first = false) {
		char* type = strchr(item, ':');
		char* value = type ? strchr(type + 1, ':') : NULL;
		assert_non_null(value);
		*type++ = '\0', *value++ = '\0';
		if (tmx) put(t, "<property name=\"%s\" type=\"%s\" value=\"%s\"/>", item, type, value);
		else if (strcmp(type, "string") == 0)
			put(t, "%s{\"name\": \"%s\", \"type\": \"string\", \"value\": \"%s\"}", first ? "" : ", ", item, value);
		else put(t, "%s{\"name\": \"%s\", \"type\": \"%s\", \"value\": %s}", first ? "" : ", ", item, type, value);
	}
	put(t, tmx ? "</properties>" : "]");
}

static void put_object(Text* t, bool tmx, const LevelObject* o, bool first)
{
	if (tmx) {
		put(t, "<object id=\"%d\" name=\"%s\" x=\"%g\" y=\"%g\">", o->id, o->name, o->x, o->y);
		put_props(t, true, o->props);
		if (o->points == 0) put(t, "<point/>");
		else {
			put(t, "<polyline points=\"");
			for (int i = 0; i < o->points; i++) put(t, "%s%g,%g", i ? " " : "", o->xy[2 * i], o->xy[2 * i + 1]);
			put(t, "\"/>");
		}
		put(t, "</object>\n");
		return;
	}
	put(t, "%s{\"id\": %d, \"name\": \"%s\", \"x\": %g, \"y\": %g", first ? "" : ", ", o->id, o->name, o->x, o->y);
	put_props(t, false, o->props);
	if (o->points == 0) put(t, ", \"point\": true");
	else {
		put(t, ", \"polyline\": [");
		for (int i = 0; i < o->points; i++)
			put(t, "%s{\"x\": %g, \"y\": %g}", i ? ", " : "", o->xy[2 * i], o->xy[2 * i + 1]);
		put(t, "]");
	}
	put(t, "}");
}

static void put_cells(Text* t, const LevelFloor* f)
{
	int w = f->layer_width ? f->layer_width : W;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < w; x++)
			put(t, "%s%d", x + y == 0 ? "" : ",", x < W && f->rows[y * (W + 1) + x] == '#' ? 1 : 0);
}

static void put_floor(Text* t, bool tmx, const LevelFloor* f, int index, bool first)
{
	int w = f->layer_width ? f->layer_width : W;
	if (tmx) {
		put(t, "<group name=\"floor%d\">", index);
		if (f->floor) put(t, "<properties><property name=\"floor\" type=\"int\" value=\"%s\"/></properties>", f->floor);
		put(t, "<layer name=\"collision\" width=\"%d\" height=\"%d\"><data encoding=\"csv\">", w, H);
		put_cells(t, f);
		put(t, "</data></layer>\n<objectgroup name=\"things%d\">\n", index);
		for (int i = 0; i < f->object_count; i++) put_object(t, true, &f->objects[i], i == 0);
		put(t, "</objectgroup></group>\n");
		return;
	}
	put(t, "%s{\"type\": \"group\", \"name\": \"floor%d\"", first ? "" : ", ", index);
	if (f->floor) put(t, ", \"properties\": [{\"name\": \"floor\", \"type\": \"int\", \"value\": %s}]", f->floor);
	put(t,
	    ", \"layers\": [{\"type\": \"tilelayer\", \"name\": \"collision\", \"width\": %d, \"height\": %d, \"data\": [",
	    w, H);
	put_cells(t, f);
	put(t, "]}, {\"type\": \"objectgroup\", \"name\": \"things%d\", \"objects\": [", index);
	for (int i = 0; i < f->object_count; i++) put_object(t, false, &f->objects[i], i == 0);
	put(t, "]}]}");
}

// The level's text; `top` objects lie in an object layer outside every group.
static char* level_text(bool tmx, const LevelFloor* floors, int n, const LevelObject* top, int top_count)
{
	Text t = {0};
	if (tmx)
		put(&t,
		    "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"%d\" height=\"%d\" tilewidth=\"%d\" "
		    "tileheight=\"%d\" infinite=\"0\">\n<tileset firstgid=\"1\" name=\"t\" tilewidth=\"%d\" "
		    "tileheight=\"%d\"/>\n",
		    W, H, TILE, TILE, TILE, TILE);
	else
		put(&t,
		    "{\"type\": \"map\", \"orientation\": \"orthogonal\", \"width\": %d, \"height\": %d, \"tilewidth\": %d, "
		    "\"tileheight\": %d, \"infinite\": false, \"tilesets\": [{\"firstgid\": 1}], \"layers\": [",
		    W, H, TILE, TILE);
	for (int i = 0; i < n; i++) put_floor(&t, tmx, &floors[i], i, i == 0);
	if (tmx) {
		put(&t, "<objectgroup name=\"top\">\n");
		for (int i = 0; i < top_count; i++) put_object(&t, true, &top[i], i == 0);
		put(&t, "</objectgroup>\n</map>\n");
	} else {
		put(&t, ", {\"type\": \"objectgroup\", \"name\": \"top\", \"objects\": [");
		for (int i = 0; i < top_count; i++) put_object(&t, false, &top[i], i == 0);
		put(&t, "]}]}");
	}
	return t.s;
}

static gtStatus parse_level(bool tmx, const LevelFloor* floors, int n, const LevelObject* top, int top_count,
                            gtMap** map, gtTiled** tiled, gtError* err)
{
	char* text = level_text(tmx, floors, n, top, top_count);
	gtStatus st = gtMap_ParseTiled(text, strlen(text), tmx ? "tower.tmx" : "tower.tmj", NULL, map, tiled, err);
	free(text);
	return st;
}

// Floor 0: a wall block; floor 1: a wall column splitting it into a left part (x < 4) and a right one.
static const char* const ROWS0 = "..........\n..........\n..###.....\n..........\n..........\n..........\n";
static const char* const ROWS1 = "....#.....\n....#.....\n....#.....\n....#.....\n....#.....\n....#.....\n";

// Stairs: a line on floor 0 from (8.5, 1.5) to (8.5, 4.5) on floor 1, cost 5. A teleporter: a point
// on floor 0 at (1.5, 5.5) to the object 'pad' on floor 1 at (1.5, 1.5), cost 0, one way. A drop: a
// point on floor 1 at (2.5, 4.5) to the same place on floor 0, cost 1, one way. A spawn outside the
// groups with its own floor 1. So the left part of floor 1 is entered only by the teleporter and
// left only by the drop.
static const LevelObject FLOOR0_OBJECTS[] = {
    {1, "stairs", 8.5 * TILE, 1.5 * TILE, 2, {0, 0, 0, 3 * TILE}, "link:bool:true;to_floor:int:1;cost:float:5"},
    {2, "teleporter", 1.5 * TILE, 5.5 * TILE, 0, {0}, "link:bool:true;to:object:3;cost:float:0;oneway:bool:true"},
};
static const LevelObject FLOOR1_OBJECTS[] = {
    {3, "pad", 1.5 * TILE, 1.5 * TILE, 0, {0}, ""},
    {4, "drop", 2.5 * TILE, 4.5 * TILE, 0, {0}, "link:bool:true;to_floor:int:0;cost:int:1;oneway:bool:true"},
};
static const LevelObject TOP_OBJECTS[] = {{5, "spawn", 6.5 * TILE, 2.5 * TILE, 0, {0}, "floor:int:1"}};

static const LevelFloor TOWER[2] = {{"0", NULL, 0, FLOOR0_OBJECTS, 2}, {"1", NULL, 0, FLOOR1_OBJECTS, 2}};

static void tower(LevelFloor floors[2])
{
	floors[0] = TOWER[0], floors[1] = TOWER[1];
	floors[0].rows = ROWS0, floors[1].rows = ROWS1;
}

static gtVec2 at(int floor, double x, double y)
{
	return (gtVec2){x + floor * (W + 1), y};
}

static void assert_vec(gtVec2 want, gtVec2 got)
{
	if (fabs(want.x - got.x) > 1e-12 || fabs(want.y - got.y) > 1e-12)
		fail_msg("(%g, %g), expected (%g, %g)", got.x, got.y, want.x, want.y);
}

// The same floors and links built by hand: the twin the loaded level must equal.
static gtNav* hand_built(gtMap** map)
{
	unsigned char cells[2 * W * H];
	for (int f = 0; f < 2; f++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) cells[(f * H + y) * W + x] = (f ? ROWS1 : ROWS0)[y * (W + 1) + x] == '#';
	gtError err;
	assert_int_equal(gtMap_FromFloors(2, W, H, cells, map, &err), GT_OK);
	gtNavDef def = gtNav_DefaultDef();
	def.method = GT_NAV_ORACLE;
	gtNav* nav;
	assert_int_equal(gtNav_Create(*map, &def, &nav, &err), GT_OK);
	assert_int_equal(gtNav_SetFloors(nav, 2, W, &err), GT_OK);
	gtLinkId id;
	assert_int_equal(gtNav_AddFloorLink(nav, 0, (gtVec2){8.5, 1.5}, 1, (gtVec2){8.5, 4.5}, 5, 0, &id, &err), GT_OK);
	assert_int_equal(
	    gtNav_AddFloorLink(nav, 0, (gtVec2){1.5, 5.5}, 1, (gtVec2){1.5, 1.5}, 0, GT_LINK_ONE_WAY, &id, &err), GT_OK);
	assert_int_equal(
	    gtNav_AddFloorLink(nav, 1, (gtVec2){2.5, 4.5}, 0, (gtVec2){2.5, 4.5}, 1, GT_LINK_ONE_WAY, &id, &err), GT_OK);
	return nav;
}

static double distance(gtNavQuery* q, gtVec2 s, gtVec2 t)
{
	double d;
	gtError err;
	if (gtNavQuery_Distance(q, s, t, &d, &err)) fail_msg("%s", err.message);
	return d;
}

static void check_tower(bool tmx)
{
	LevelFloor floors[2];
	tower(floors);
	gtMap* map;
	gtTiled* tiled;
	gtError err;
	if (parse_level(tmx, floors, 2, TOP_OBJECTS, 1, &map, &tiled, &err)) fail_msg("%s", err.message);
	assert_int_equal(gtMap_Width(map), 2 * W + 1);
	assert_int_equal(gtTiled_FloorCount(tiled), 2);
	assert_int_equal(gtTiled_FloorWidth(tiled), W);
	assert_string_equal(gtTiled_FloorName(tiled, 1), "floor1");
	assert_string_equal(gtTiled_FloorName(tiled, 2), "");
	// Objects: in their floor's part of the map; the spawn by its own property.
	const gtTiledObject* pad = gtTiled_Object(tiled, 2);
	assert_string_equal(pad->name, "pad");
	assert_int_equal(pad->floor, 1);
	assert_vec(at(1, 1.5, 1.5), (gtVec2){pad->x, pad->y});
	const gtTiledObject* spawn = gtTiled_Object(tiled, 4);
	assert_int_equal(spawn->floor, 1);
	assert_vec(at(1, 6.5, 2.5), (gtVec2){spawn->x, spawn->y});
	assert_int_equal(gtTiled_Object(tiled, 0)->floor, 0);
	// The links as drawn.
	assert_int_equal(gtTiled_LinkCount(tiled), 3);
	const gtTiledLink* stairs = gtTiled_Link(tiled, 0);
	assert_int_equal(stairs->object, 1);
	assert_vec(at(0, 8.5, 1.5), stairs->a);
	assert_vec(at(1, 8.5, 4.5), stairs->b);
	assert_true(stairs->floor_a == 0 && stairs->floor_b == 1 && stairs->cost == 5 && !stairs->one_way);
	const gtTiledLink* teleporter = gtTiled_Link(tiled, 1);
	assert_vec(at(0, 1.5, 5.5), teleporter->a);
	assert_vec(at(1, 1.5, 1.5), teleporter->b);
	assert_true(teleporter->cost == 0 && teleporter->one_way);
	const gtTiledLink* drop = gtTiled_Link(tiled, 2);
	assert_vec(at(1, 2.5, 4.5), drop->a);
	assert_vec(at(0, 2.5, 4.5), drop->b);
	assert_true(drop->floor_a == 1 && drop->floor_b == 0 && drop->cost == 1 && drop->one_way);
	assert_null(gtTiled_Link(tiled, 3));

	gtMap* twin_map;
	gtNav* twin = hand_built(&twin_map);
	assert_true(gtMap_Fingerprint(map) == gtMap_Fingerprint(twin_map)); // floors side by side, walls per floor
	gtNav* nav;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	gtLinkId ids[3];
	assert_int_equal(gtNav_AddTiledLinks(nav, tiled, ids, &err), GT_OK);
	assert_int_equal(gtNav_FloorCount(nav), 2);
	assert_int_equal(gtNav_LinkCount(nav), 3);
	gtNavQuery *q, *tq;
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(twin, &tq, &err), GT_OK);
	// Walks worked out by hand: the right part of floor 1 to the left part goes down the stairs,
	// across floor 0 and through the teleporter; back, by the drop and up the stairs.
	double right_to_left = sqrt(13) + 5 + sqrt(65) + 0;
	double left_to_right = sqrt(10) + 1 + sqrt(45) + 5 + sqrt(13);
	assert_true(fabs(distance(q, at(1, 6.5, 1.5), at(1, 1.5, 1.5)) - right_to_left) < 1e-9);
	assert_true(fabs(distance(q, at(1, 1.5, 1.5), at(1, 6.5, 1.5)) - left_to_right) < 1e-9);
	// Every pair of cell centres of both floors, with the oracle and with an index, against the
	// oracle on the hand-built twin.
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 2, ehl.threads = 1;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) assert_int_equal(gtNav_BuildIndex(nav, &ehl, &err), GT_OK);
		assert_int_equal(gtNav_SetMethod(nav, pass ? GT_NAV_EHL : GT_NAV_ORACLE, &err), GT_OK);
		for (int s = 0; s < 2 * W * H; s += 3)
			for (int t = 0; t < 2 * W * H; t += 2) {
				gtVec2 a = at(s / (W * H), s % W + 0.5, s / W % H + 0.5);
				gtVec2 b = at(t / (W * H), t % W + 0.5, t / W % H + 0.5);
				if (gtMap_CheckPoint(map, a) || gtMap_CheckPoint(map, b)) continue;
				double want = distance(tq, a, b), got = distance(q, a, b);
				if (!(isinf(want) && isinf(got)) && fabs(want - got) > 1e-9)
					fail_msg("%s pass %d: (%g, %g) -> (%g, %g): twin %.12g, got %.12g", tmx ? "tmx" : "tmj", pass, a.x,
					         a.y, b.x, b.y, want, got);
			}
	}
	// Without the teleporter the left part of floor 1 is out of reach from floor 0.
	bool yes;
	assert_int_equal(gtNavQuery_Reachable(q, at(0, 0.5, 0.5), at(1, 1.5, 1.5), &yes, &err), GT_OK);
	assert_true(yes);
	assert_int_equal(gtNav_EnableLink(nav, ids[1], false, &err), GT_OK);
	assert_int_equal(gtNavQuery_Reachable(q, at(0, 0.5, 0.5), at(1, 1.5, 1.5), &yes, &err), GT_OK);
	assert_false(yes);
	assert_true(isinf(distance(q, at(1, 6.5, 1.5), at(1, 1.5, 1.5))));
	// The path through the teleporter names it.
	assert_int_equal(gtNav_EnableLink(nav, ids[1], true, &err), GT_OK);
	gtVec2 points[16];
	gtLinkId links[16];
	int count;
	double d;
	assert_int_equal(gtNavQuery_PathLinks(q, at(0, 0.5, 5.5), at(1, 1.5, 0.5), points, links, 16, &count, &d, &err),
	                 GT_OK);
	bool took = false;
	for (int i = 0; i + 1 < count; i++) took |= links[i] == ids[1];
	assert_true(took && fabs(d - 1 - 0 - 1) < 1e-9);
	gtNavQuery_Destroy(q);
	gtNavQuery_Destroy(tq);
	gtNav_Destroy(nav);
	gtNav_Destroy(twin);
	gtMap_Destroy(twin_map);
	gtMap_Destroy(map);
	gtTiled_Destroy(tiled);
}

static void test_two_floors_tmx(void** state)
{
	(void)state;
	check_tower(true);
}

static void test_two_floors_tmj(void** state)
{
	(void)state;
	check_tower(false);
}

// One floor, no groups: a teleporter is a link of the level, and the map is as before.
static void test_one_floor_links(void** state)
{
	(void)state;
	const LevelObject objects[] = {
	    {1, "a", 0.5 * TILE, 0.5 * TILE, 0, {0}, "link:bool:true;to:object:2;cost:float:0"},
	    {2, "b", 9.5 * TILE, 5.5 * TILE, 0, {0}, ""},
	};
	LevelFloor level = {NULL, ROWS0, 0, objects, 2}; // a group without `floor`: not a floor
	for (int tmx = 0; tmx < 2; tmx++) {
		gtMap* map;
		gtTiled* tiled;
		gtError err;
		if (parse_level(tmx, &level, 1, NULL, 0, &map, &tiled, &err)) fail_msg("%s", err.message);
		gtMap* rows = test_map_from_rows(ROWS0);
		assert_true(gtMap_Fingerprint(map) == gtMap_Fingerprint(rows));
		assert_int_equal(gtTiled_FloorCount(tiled), 1);
		assert_int_equal(gtTiled_FloorWidth(tiled), W);
		assert_int_equal(gtTiled_LinkCount(tiled), 1);
		gtNav* nav;
		gtNavQuery* q;
		assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
		assert_int_equal(gtNav_AddTiledLinks(nav, tiled, NULL, &err), GT_OK);
		assert_int_equal(gtNav_FloorCount(nav), 1);
		assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
		assert_true(fabs(distance(q, (gtVec2){0.5, 0.5}, (gtVec2){9.5, 4.5}) - 1) < 1e-9);
		gtNavQuery_Destroy(q);
		gtNav_Destroy(nav);
		gtMap_Destroy(rows);
		gtMap_Destroy(map);
		gtTiled_Destroy(tiled);
	}
}

// The level with one thing changed fails in both formats, the message holding `what`.
static void refused(const LevelFloor* floors, int n, const LevelObject* top, int top_count, const char* what)
{
	for (int tmx = 0; tmx < 2; tmx++) {
		gtMap* map = (gtMap*)1;
		gtTiled* tiled = (gtTiled*)1;
		gtError err = {0};
		gtStatus st = parse_level(tmx, floors, n, top, top_count, &map, &tiled, &err);
		assert_null(map);
		assert_null(tiled);
		if (st != GT_ERR_FORMAT || !strstr(err.message, what) || !strstr(err.message, tmx ? "tower.tmx" : "tower.tmj"))
			fail_msg("%s: status %s, message '%s', expected '%s'", tmx ? "tmx" : "tmj", gtStatusName(st), err.message,
			         what);
	}
}

static void test_malformed_floors(void** state)
{
	(void)state;
	LevelFloor floors[2];
	tower(floors);
	floors[1].floor = "0";
	refused(floors, 2, NULL, 0, "groups 'floor0' and 'floor1' are both floor 0");
	floors[1].floor = "2";
	refused(floors, 2, NULL, 0, "group 'floor1' is floor 2, but the level has 2 floor groups");
	floors[1].floor = "1.5";
	refused(floors, 2, NULL, 0, "group 'floor1' has floor = '1.5'");
	tower(floors);
	floors[1].layer_width = W - 2;
	refused(floors, 2, NULL, 0,
	        "floor 1 ('floor1'): layer 'collision' is 8x6 cells, the map 10x6: floors of different sizes");
	const LevelObject spawn[] = {{9, "spawn", 8, 8, 0, {0}, "floor:int:2"}};
	tower(floors);
	refused(floors, 2, spawn, 1, "object 9: floor = '2', but the level's floors are 0 to 1");
	// Drawn past its floor's right edge, an object would land on the next floor.
	const LevelObject beyond[] = {{9, "spawn", 12 * TILE, 8, 0, {0}, "floor:int:0"}};
	tower(floors);
	refused(floors, 2, beyond, 1, "object 9 ('spawn'): x = 12 cells on floor 0, outside the floor's width 10");
}

// The tower with floor 0's first object replaced.
static void refused_link(LevelObject first, const char* what)
{
	LevelFloor floors[2];
	tower(floors);
	LevelObject objects[2] = {first, FLOOR0_OBJECTS[1]};
	floors[0].objects = objects;
	refused(floors, 2, NULL, 0, what);
}

static void test_malformed_links(void** state)
{
	(void)state;
	LevelObject stairs = FLOOR0_OBJECTS[0];
	stairs.props = "link:bool:true;to_floor:int:2";
	refused_link(stairs, "link object 1 'stairs': to_floor = '2', but the level's floors are 0 to 1");
	stairs.props = "link:bool:true;to_floor:int:1";
	stairs.xy[3] = 2 * TILE; // ends at (8.5, 3.5) on floor 1: free; one cell left of it is the wall column
	stairs.x = 4.5 * TILE;   // now from (4.5, 1.5) on floor 0 to (4.5, 3.5) on floor 1: in the wall
	refused_link(stairs, "link object 1 'stairs': its end b, (4.5, 3.5) on floor 1: point is inside a blocked cell");
	stairs = FLOOR0_OBJECTS[0];
	stairs.x = 3.5 * TILE, stairs.y = 2.5 * TILE; // starts inside floor 0's block
	refused_link(stairs, "its end a, (3.5, 2.5) on floor 0: point is inside a blocked cell");
	stairs = FLOOR0_OBJECTS[0];
	stairs.x = 12.5 * TILE; // past floor 0's right edge, where the map has floor 1
	refused_link(stairs, "its end a, (12.5, 1.5) on floor 0: point is off the map");
	stairs = FLOOR0_OBJECTS[0];
	stairs.points = 3, stairs.xy[4] = 16, stairs.xy[5] = 16;
	refused_link(stairs, "link object 1 'stairs': a line link has two points, this one 3");
	stairs = FLOOR0_OBJECTS[0];
	stairs.props = "link:bool:true;to_floor:int:1;cost:float:-1";
	refused_link(stairs, "cost = '-1': a cost is a number >= 0");
	LevelObject point = FLOOR0_OBJECTS[1];
	point.props = "link:bool:true";
	refused_link(point, "link object 2 'teleporter': a point link needs 'to'");
	point.props = "link:bool:true;to:object:77";
	refused_link(point, "'to' names object '77', which the level does not have");
	point.props = "link:bool:true;to:object:3;to_floor:int:1";
	refused_link(point, "give 'to' or 'to_floor', not both");
	point.props = "link:bool:true;to:object:3;oneway:string:maybe";
	refused_link(point, "oneway = 'maybe': true or false");
}

// A floor group inside another, and a link drawn as a rectangle (hand-written TMX).
static void test_nested_floor_and_shape(void** state)
{
	(void)state;
	const char* nested = "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">"
	                     "<group name=\"house\"><properties><property name=\"floor\" type=\"int\" value=\"0\"/>"
	                     "</properties><group name=\"attic\"><properties><property name=\"floor\" type=\"int\" "
	                     "value=\"1\"/></properties></group></group></map>";
	gtMap* map;
	gtTiled* tiled;
	gtError err;
	assert_int_equal(gtMap_ParseTiled(nested, strlen(nested), "n.tmx", NULL, &map, &tiled, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "group 'attic' (floor 1) is inside group 'house' (floor 0)"));
	const char* rect =
	    "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">"
	    "<layer name=\"collision\" width=\"2\" height=\"1\"><data encoding=\"csv\">0,1</data></layer>"
	    "<objectgroup><object id=\"3\" x=\"0\" y=\"0\" width=\"8\" height=\"8\"><properties>"
	    "<property name=\"link\" type=\"bool\" value=\"true\"/></properties></object></objectgroup></map>";
	assert_int_equal(gtMap_ParseTiled(rect, strlen(rect), "r.tmx", NULL, &map, &tiled, &err), GT_ERR_FORMAT);
	assert_non_null(strstr(err.message, "r.tmx: link object 3: draw a link as a point or a line"));
}

// Each floor walls by every convention on its own layers (tile property, a collidable object layer,
// an object's own property), layers outside the floor groups wall every floor, a link line in a
// collidable layer walls nothing, and blocked_layer takes each floor's layer of that name.
static void test_conventions_per_floor(void** state)
{
	(void)state;
	const char* level =
	    "<map orientation=\"orthogonal\" width=\"5\" height=\"3\" tilewidth=\"8\" tileheight=\"8\">\n"
	    "<tileset firstgid=\"1\" name=\"t\" tilewidth=\"8\" tileheight=\"8\"><tile id=\"1\"><properties>"
	    "<property name=\"collides\" type=\"bool\" value=\"true\"/></properties></tile></tileset>\n"
	    "<group name=\"low\"><properties><property name=\"floor\" type=\"int\" value=\"0\"/></properties>\n"
	    " <layer name=\"ground\" width=\"5\" height=\"3\"><data encoding=\"csv\">2,0,0,0,0,0,0,0,0,0,0,0,0,0,0</data>"
	    "</layer>\n <objectgroup name=\"solid\"><properties><property name=\"collidable\" type=\"bool\" "
	    "value=\"true\"/></properties>\n"
	    "  <object id=\"1\" x=\"8\" y=\"8\" width=\"8\" height=\"8\"/>\n"
	    "  <object id=\"2\" name=\"ramp\" x=\"28\" y=\"4\"><properties><property name=\"link\" type=\"bool\" "
	    "value=\"true\"/></properties><polyline points=\"0,0 0,16\"/></object>\n"
	    " </objectgroup></group>\n"
	    "<group name=\"high\"><properties><property name=\"floor\" type=\"int\" value=\"1\"/></properties>\n"
	    " <layer name=\"ground\" width=\"5\" height=\"3\"><data encoding=\"csv\">0,0,2,0,0,0,0,0,0,0,0,0,0,0,0</data>"
	    "</layer>\n <objectgroup name=\"things\">\n"
	    "  <object id=\"3\" x=\"24\" y=\"8\" width=\"8\" height=\"8\"><properties><property name=\"collidable\" "
	    "type=\"bool\" value=\"true\"/></properties><ellipse/></object>\n"
	    " </objectgroup></group>\n"
	    "<layer name=\"walls\" width=\"5\" height=\"3\"><data encoding=\"csv\">0,0,0,0,0,0,0,0,0,0,0,0,0,0,2</data>"
	    "</layer>\n</map>\n";
	static const char* const all[2] = {"#....\n.#...\n....#\n", "..#..\n...#.\n....#\n"};
	static const char* const named[2] = {"#....\n.....\n.....\n", "..#..\n.....\n.....\n"};
	for (int pass = 0; pass < 2; pass++) {
		gtTiledDef def = gtTiled_DefaultDef();
		if (pass) def.blocked_layer = "GROUND";
		gtMap* map;
		gtTiled* tiled;
		gtError err;
		if (gtMap_ParseTiled(level, strlen(level), "rules.tmx", &def, &map, &tiled, &err)) fail_msg("%s", err.message);
		const char* const* rows = pass ? named : all;
		unsigned char cells[2 * 15];
		for (int f = 0; f < 2; f++)
			for (int i = 0; i < 15; i++) cells[f * 15 + i] = rows[f][i / 5 * 6 + i % 5] == '#';
		gtMap* want;
		assert_int_equal(gtMap_FromFloors(2, 5, 3, cells, &want, &err), GT_OK);
		if (gtMap_Fingerprint(map) != gtMap_Fingerprint(want)) fail_msg("pass %d: the floors' walls differ", pass);
		if (!pass) {
			assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_TILE_PROPERTY), 4); // the shared wall on each floor
			assert_int_equal(gtTiled_WallCells(tiled, GT_TILED_RULE_OBJECTS), 2);
			assert_int_equal(gtTiled_LinkCount(tiled), 1); // the ramp: (3.5, 0.5) to (3.5, 2.5) on floor 0
			assert_vec((gtVec2){3.5, 2.5}, gtTiled_Link(tiled, 0)->b);
		}
		gtMap_Destroy(want);
		gtMap_Destroy(map);
		gtTiled_Destroy(tiled);
	}
}

TEST_MAIN("tiled_floors", test_conventions_per_floor, test_two_floors_tmx, test_two_floors_tmj, test_one_floor_links,
          test_malformed_floors, test_malformed_links, test_nested_floor_and_shape)
