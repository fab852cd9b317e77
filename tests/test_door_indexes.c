// Declared doors with indexes of their own (nav_doors.c): once the doors' indexes are built, every
// answer with doors closed (one, several, with walls built or removed besides) equals the oracle
// built from scratch on the edited map: distances, paths and distances below a limit, on a real
// map, a generated one and (when ../shared/data is there) AR0602SR.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

typedef struct Door {
	int x0, y0, x1, y1, id;
} Door;

typedef struct Pairs {
	gtVec2 s[160], t[160];
	double open[160]; // every door open
	int count;
} Pairs;

static bool free_at(const gtMap* map, int x, int y)
{
	return x >= 0 && y >= 0 && x < gtMap_Width(map) && y < gtMap_Height(map) && !gtMap_IsBlocked(map, x, y);
}

static bool near_doors(const Door* doors, int count, int x0, int y0, int x1, int y1)
{
	for (int i = 0; i < count; i++)
		if (x0 <= doors[i].x1 + 3 && x1 >= doors[i].x0 - 3 && y0 <= doors[i].y1 + 3 && y1 >= doors[i].y0 - 3)
			return true;
	return false;
}

// A passage 1 to 3 cells wide between two walls, free on both sides: a door there changes routes.
static bool find_door(const gtMap* map, TestRng* rng, const Door* taken, int count, Door* out)
{
	for (int tries = 0; tries < 200000; tries++) {
		int x = test_rng_int(rng, gtMap_Width(map)), y = test_rng_int(rng, gtMap_Height(map));
		bool across = test_rng_int(rng, 2); // a row of cells (the passage runs up-down), else a column
		int dx = across ? 1 : 0, dy = across ? 0 : 1;
		if (!free_at(map, x, y) || free_at(map, x - dx, y - dy)) continue;
		int n = 0;
		while (n < 3 && free_at(map, x + n * dx, y + n * dy)) n++;
		if (free_at(map, x + n * dx, y + n * dy)) continue; // wider than 3
		int mx = x + (n / 2) * dx, my = y + (n / 2) * dy;
		if (!free_at(map, mx - dy, my - dx) || !free_at(map, mx + dy, my + dx)) continue;
		Door d = {x, y, x + (n - 1) * dx, y + (n - 1) * dy, -1};
		if (near_doors(taken, count, d.x0, d.y0, d.x1, d.y1)) continue;
		*out = d;
		return true;
	}
	return false;
}

// Every pair against the oracle of the map as it is; returns how many answers differ from the
// doors-open ones (answers the doors' indexes had to change).
static int check(gtNav* nav, gtNavQuery* q, const Pairs* p, const char* what)
{
	gtMap* copy = test_cells_copy(gtNav_Map(nav));
	gtOracle* oracle;
	gtError err;
	if (gtOracle_Create(copy, 1, &oracle, &err)) fail_msg("%s", err.message);
	int capacity = gtNav_PathCapacity(nav), changed = 0;
	gtVec2* points = test_malloc(sizeof *points * (size_t)capacity);
	gtDistance world;
	if (gtNavQuery_WorldDistance(q, &world, &err)) fail_msg("%s", err.message);
	for (int i = 0; i < p->count; i++) {
		gtVec2 s = p->s[i], t = p->t[i];
		if (gtMap_CheckPoint(copy, s) || gtMap_CheckPoint(copy, t)) continue; // in a closed door
		double expect, got, length;
		assert_int_equal(gtOracle_Distance(oracle, s, t, &expect, &err), GT_OK);
		if (gtNavQuery_Distance(q, s, t, &got, &err)) fail_msg("%s: %s", what, err.message);
		if (!(isinf(expect) ? isinf(got) : fabs(got - expect) <= 1e-9 * (1 + expect)))
			fail_msg("%s: (%g, %g)-(%g, %g) is %.12g, the oracle says %.12g", what, s.x, s.y, t.x, t.y, got, expect);
		changed += !(got == p->open[i] || (isinf(got) && isinf(p->open[i])));
		double limit = isinf(expect) ? 10.0 : expect * (i % 2 ? 0.75 : 1.25),
		       below = world.below(world.context, s, t, limit);
		if (expect < limit ? fabs(below - expect) > 1e-9 * (1 + expect) : below < limit)
			fail_msg("%s: below %g, (%g, %g)-(%g, %g) is %.12g, the oracle says %.12g", what, limit, s.x, s.y, t.x, t.y,
			         below, expect);
		int count;
		if (gtNavQuery_Path(q, s, t, points, capacity, &count, &length, &err)) fail_msg("%s: %s", what, err.message);
		if (isinf(expect)) {
			assert_int_equal(count, 0);
			continue;
		}
		double walked = 0;
		for (int k = 0; k + 1 < count; k++) {
			if (!gtMap_Visible(copy, points[k], points[k + 1]))
				fail_msg("%s: path step (%g, %g)-(%g, %g) crosses a wall", what, points[k].x, points[k].y,
				         points[k + 1].x, points[k + 1].y);
			walked += hypot(points[k + 1].x - points[k].x, points[k + 1].y - points[k].y);
		}
		if (fabs(walked - expect) > 1e-9 * (1 + expect) || fabs(length - expect) > 1e-9 * (1 + expect))
			fail_msg("%s: path of (%g, %g)-(%g, %g) walks %.12g, the oracle says %.12g", what, s.x, s.y, t.x, t.y,
			         walked, expect);
	}
	test_free(points);
	gtOracle_Destroy(oracle);
	gtMap_Destroy(copy);
	return changed;
}

static void set_door(gtNav* nav, const Door* d, bool open)
{
	gtError err;
	if (gtNav_SetDoor(nav, d->id, open, &err)) fail_msg("%s", err.message);
	assert_false(gtNav_Rebuilding(nav)); // declared doors never need a rebuild
}

static void edit(gtNav* nav, int x0, int y0, int x1, int y1, bool blocked)
{
	gtError err;
	if (gtNav_SetBlocked(nav, x0, y0, x1, y1, blocked, &err)) fail_msg("%s", err.message);
}

static void expect_ready(gtNav* nav, int doors)
{
	int ready = -1;
	assert_true(gtNav_DoorIndexBytes(nav, &ready) > 0);
	assert_int_equal(ready, doors);
}

// Pairs from everywhere, and pairs with one end beside a door (their answers cross it most often).
static void pick_pairs(gtNavQuery* q, const gtMap* map, const Door* doors, int door_count, TestRng* rng, Pairs* p)
{
	p->count = 0;
	for (int i = 0; i < 160; i++) {
		gtVec2 s = test_random_point(map, rng);
		if (i % 2 && door_count > 0) { // beside door i / 2 % door_count
			const Door* d = &doors[(i / 2) % door_count];
			for (int tries = 0; tries < 100; tries++) {
				int x = d->x0 - 4 + test_rng_int(rng, 9 + d->x1 - d->x0),
				    y = d->y0 - 4 + test_rng_int(rng, 9 + d->y1 - d->y0);
				if (!free_at(map, x, y)) continue;
				s = (gtVec2){x + 0.5, y + 0.5};
				break;
			}
		}
		p->s[p->count] = s;
		p->t[p->count] = test_random_point(map, rng);
		gtError err;
		if (gtNavQuery_Distance(q, p->s[p->count], p->t[p->count], &p->open[p->count], &err))
			fail_msg("%s", err.message);
		p->count++;
	}
}

// Doors declared, index built, doors' indexes waited for; then each door closed alone, several at
// once (then with an index of their own), with a wall built besides, after a rebuild (indexes
// repaired from the new index), and a door declared later.
static void door_scenarios(gtMap* map, int cell, int door_count, uint64_t seed, const char* what)
{
	TestRng rng = {seed};
	gtNavDef def = gtNav_DefaultDef();
	def.threads = 2;
	gtNav* nav;
	gtNavQuery* q;
	gtError err;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_OK);
	Door doors[6];
	assert_true(door_count <= 5);
	for (int i = 0; i < door_count; i++) {
		if (!find_door(map, &rng, doors, i, &doors[i])) fail_msg("%s: no passage for door %d", what, i);
		Door* d = &doors[i];
		if (gtNav_AddDoor(nav, d->x0, d->y0, d->x1, d->y1, &d->id, &err)) fail_msg("%s", err.message);
	}
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = cell;
	ehl.threads = 2;
	assert_int_equal(gtNav_BuildIndex(nav, &ehl, &err), GT_OK);
	gtNav_WaitForRebuild(nav);
	expect_ready(nav, door_count);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	Pairs* p = test_malloc(sizeof *p);
	pick_pairs(q, map, doors, door_count, &rng, p);
	int changed = 0;
	char label[160];
	for (int i = 0; i < door_count; i++) {
		set_door(nav, &doors[i], false);
		snprintf(label, sizeof label, "%s, door %d closed", what, i);
		changed += check(nav, q, p, label);
		set_door(nav, &doors[i], true);
	}
	assert_true(changed > 0); // the doors stood on routes: their indexes answered differently
	for (int i = 0; i < door_count; i++) set_door(nav, &doors[i], false);
	snprintf(label, sizeof label, "%s, every door closed", what);
	check(nav, q, p, label);
	int64_t singles = gtNav_DoorIndexBytes(nav, NULL);
	gtNav_WaitForRebuild(nav); // an index for these doors closed together
	assert_true(gtNav_DoorIndexBytes(nav, NULL) > singles);
	snprintf(label, sizeof label, "%s, every door closed, their own index", what);
	check(nav, q, p, label);
	set_door(nav, &doors[0], true);
	snprintf(label, sizeof label, "%s, every door but the first closed", what);
	check(nav, q, p, label);
	for (int i = 1; i < door_count; i++) set_door(nav, &doors[i], true);
	// A wall besides a closed door: answered as walls built until it goes again.
	set_door(nav, &doors[1], false);
	Door wall;
	assert_true(find_door(map, &rng, doors, door_count, &wall));
	edit(nav, wall.x0, wall.y0, wall.x1, wall.y1, true);
	snprintf(label, sizeof label, "%s, door 1 closed and a wall built", what);
	check(nav, q, p, label);
	gtNav_WaitForRebuild(nav); // the wall started a rebuild (doors open): then the doors' indexes again
	expect_ready(nav, door_count);
	snprintf(label, sizeof label, "%s, door 1 closed, a wall built, rebuilt", what);
	check(nav, q, p, label);
	edit(nav, wall.x0, wall.y0, wall.x1, wall.y1, false); // demolished: stale, then rebuilt
	snprintf(label, sizeof label, "%s, door 1 closed, the wall demolished", what);
	check(nav, q, p, label);
	gtNav_WaitForRebuild(nav);
	expect_ready(nav, door_count);
	snprintf(label, sizeof label, "%s, door 1 closed, the wall demolished and rebuilt", what);
	changed = check(nav, q, p, label);
	set_door(nav, &doors[1], true);
	// A door declared after the index: its own index comes with the next wait.
	Door late;
	assert_true(find_door(map, &rng, doors, door_count, &late));
	if (gtNav_AddDoor(nav, late.x0, late.y0, late.x1, late.y1, &late.id, &err)) fail_msg("%s", err.message);
	gtNav_WaitForRebuild(nav);
	expect_ready(nav, door_count + 1);
	set_door(nav, &late, false);
	snprintf(label, sizeof label, "%s, a door declared later, closed", what);
	check(nav, q, p, label);
	set_door(nav, &late, true);
	test_free(p);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
}

static void test_doors_answer_from_their_indexes(void** state)
{
	(void)state;
	gtMap* caves = test_load_map("assets/maps/caves.map");
	door_scenarios(caves, 4, 4, 5, "caves");
	gtMap_Destroy(caves);
	gtMap* rooms; // a map no test data holds
	gtError err;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 160, 120, 11, &rooms, &err), GT_OK);
	door_scenarios(rooms, 4, 3, 7, "generated rooms");
	gtMap_Destroy(rooms);
}

static void test_doors_on_ar0602sr(void** state)
{
	(void)state;
	gtMap* map = test_load_shared_map("bgmaps", "AR0602SR");
	if (!map) return; // skipped: no ../shared/data
	door_scenarios(map, 4, 2, 3, "AR0602SR");
	gtMap_Destroy(map);
}

// gtNavDef.door_indexes 1: the second door has no index of its own; closed, it is answered as a
// wall built (searched), alone and with the first.
static void test_doors_past_the_limit(void** state)
{
	(void)state;
	TestRng rng = {21};
	gtMap* map = test_load_map("assets/maps/caves.map");
	gtNavDef def = gtNav_DefaultDef();
	def.threads = 2;
	def.door_indexes = 1;
	gtNav* nav;
	gtNavQuery* q;
	gtError err;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_OK);
	Door doors[2];
	for (int i = 0; i < 2; i++) {
		assert_true(find_door(map, &rng, doors, i, &doors[i]));
		Door* d = &doors[i];
		if (gtNav_AddDoor(nav, d->x0, d->y0, d->x1, d->y1, &d->id, &err)) fail_msg("%s", err.message);
	}
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 4;
	assert_int_equal(gtNav_BuildIndex(nav, &ehl, &err), GT_OK);
	gtNav_WaitForRebuild(nav);
	expect_ready(nav, 1);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	Pairs* p = test_malloc(sizeof *p);
	pick_pairs(q, map, doors, 2, &rng, p);
	set_door(nav, &doors[1], false);
	int changed = check(nav, q, p, "caves, the door with no index closed");
	set_door(nav, &doors[0], false);
	changed += check(nav, q, p, "caves, both closed");
	assert_true(changed > 0);
	test_free(p);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// A host task system that runs each job inside enqueue and counts them.
static void* counting_enqueue(gtTaskFcn* task, void* context, int count, void* user)
{
	*(int*)user += 1;
	for (int i = 0; i < count; i++) task(context, i);
	return NULL;
}

static void counting_finish(void* handle, void* user)
{
	(void)handle, (void)user;
}

// Default gtNavDef.door_indexes: the doors' indexes hold at most 8 times the index's bytes, so of
// 10 doors some go without; closing a door whose index answers starts no background job (no view
// of the edited map is made), closing one without an index does.
static void test_default_cap_and_no_view_for_doors(void** state)
{
	(void)state;
	TestRng rng = {33};
	gtMap* map = test_load_map("assets/maps/caves.map");
	int jobs = 0;
	gtTaskSystem tasks = {counting_enqueue, counting_finish, &jobs};
	gtNavDef def = gtNav_DefaultDef();
	def.tasks = &tasks;
	gtNav* nav;
	gtNavQuery* q;
	gtError err;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_OK);
	enum { DOORS = 10 };
	Door doors[DOORS];
	for (int i = 0; i < DOORS; i++) {
		if (!find_door(map, &rng, doors, i, &doors[i])) fail_msg("no passage for door %d", i);
		Door* d = &doors[i];
		if (gtNav_AddDoor(nav, d->x0, d->y0, d->x1, d->y1, &d->id, &err)) fail_msg("%s", err.message);
	}
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 4;
	assert_int_equal(gtNav_BuildIndex(nav, &ehl, &err), GT_OK);
	// Rebuilt in the background: the nav keeps its graph, from which views of edits are made.
	assert_int_equal(gtNav_RebuildIndex(nav, NULL, true, &err), GT_OK);
	gtNav_WaitForRebuild(nav);
	int ready = 0;
	int64_t bytes = gtNav_DoorIndexBytes(nav, &ready), index = gtEhl_GetStats(gtNav_Index(nav)).index_bytes;
	assert_true(ready >= 4 && ready < DOORS);
	assert_true(bytes <= 8 * index);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	Pairs* p = test_malloc(sizeof *p);
	pick_pairs(q, map, doors, DOORS, &rng, p);
	int before = jobs;
	set_door(nav, &doors[0], false); // the first doors have their indexes
	gtNav_Update(nav);
	int changed = check(nav, q, p, "caves, an indexed door closed");
	gtNav_Update(nav);
	assert_int_equal(jobs, before);
	set_door(nav, &doors[0], true);
	set_door(nav, &doors[DOORS - 1], false); // past the cap: a wall built, searched in a view
	gtNav_Update(nav);
	changed += check(nav, q, p, "caves, a door past the cap closed");
	assert_true(jobs > before);
	assert_true(changed > 0);
	test_free(p);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// Every free cell to `to` on the nav's map as it is equals an index built from scratch on that map;
// returns how many of a sample changed from `open_nav`'s answers (the map before the edit).
static int every_cell_matches(gtNav* nav, gtNavQuery* q, gtNavQuery* before, gtVec2 to, const char* what)
{
	gtMap* map = test_cells_copy(gtNav_Map(nav));
	gtNavDef def = gtNav_DefaultDef();
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 4;
	gtNav* ref;
	gtNavQuery* ref_q;
	gtError err;
	assert_int_equal(gtNav_Create(map, &def, &ref, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(ref, &ehl, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(ref, &ref_q, &err), GT_OK);
	int changed = 0, checked = 0;
	for (int y = 0; y < gtMap_Height(map); y++)
		for (int x = 0; x < gtMap_Width(map); x++) {
			if (gtMap_IsBlocked(map, x, y)) continue;
			gtVec2 from = {x + 0.5, y + 0.5};
			double got, expect, old;
			if (gtNavQuery_Distance(q, from, to, &got, &err))
				fail_msg("%s, from (%d, %d): %s", what, x, y, err.message);
			assert_int_equal(gtNavQuery_Distance(ref_q, from, to, &expect, &err), GT_OK);
			if (!(isinf(expect) ? isinf(got) : fabs(got - expect) <= 1e-9 * (1 + expect)))
				fail_msg("%s: (%d, %d) to (%g, %g) is %.12g, an index built on that map says %.12g", what, x, y, to.x,
				         to.y, got, expect);
			assert_int_equal(gtNavQuery_Distance(before, from, to, &old, &err), GT_OK);
			changed += !(old == got || (isinf(old) && isinf(got)));
			checked++;
		}
	assert_true(checked > 1000);
	gtNavQuery_Destroy(ref_q);
	gtNav_Destroy(ref);
	gtMap_Destroy(map);
	return changed;
}

// Query objects are sized by the most entries a cell of their index has, which the jobs that make
// the doors' indexes and the rebuilds find in the background (no scan of every cell on the first
// query after a door closes or a repair lands): from every free cell, with a door closed and
// after a wall's repair, the answers equal an index built on that map (a count too small fails
// the query from the cell with the most entries).
static void test_door_queries_from_every_cell(void** state)
{
	(void)state;
	TestRng rng = {47};
	gtMap* map = test_load_map("assets/maps/caves.map");
	gtNavDef def = gtNav_DefaultDef();
	gtNav *nav, *open_nav;
	gtNavQuery *q, *open_q;
	gtError err;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_OK);
	assert_int_equal(gtNav_Create(map, &def, &open_nav, &err), GT_OK);
	Door door, wall;
	if (!find_door(map, &rng, NULL, 0, &door) || !find_door(map, &rng, &door, 1, &wall))
		fail_msg("no passage for a door");
	if (gtNav_AddDoor(nav, door.x0, door.y0, door.x1, door.y1, &door.id, &err)) fail_msg("%s", err.message);
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 4;
	assert_int_equal(gtNav_BuildIndex(nav, &ehl, &err), GT_OK);
	assert_int_equal(gtNav_BuildIndex(open_nav, &ehl, &err), GT_OK);
	gtNav_WaitForRebuild(nav);
	expect_ready(nav, 1);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(open_nav, &open_q, &err), GT_OK);
	gtVec2 to = {-1, -1}; // beside the door: answers from its other side cross it or go round
	for (int y = door.y0 - 1; y <= door.y1 + 1 && to.x < 0; y++)
		for (int x = door.x0 - 1; x <= door.x1 + 1 && to.x < 0; x++)
			if (free_at(map, x, y) && !(x >= door.x0 && x <= door.x1 && y >= door.y0 && y <= door.y1))
				to = (gtVec2){x + 0.5, y + 0.5};
	assert_true(to.x >= 0);
	set_door(nav, &door, false);
	assert_true(every_cell_matches(nav, q, open_q, to, "caves, door closed") > 0);
	// Points are checked on the door's index's map (the map as it is): inside the closed door, none.
	gtVec2 in_door = {door.x0 + 0.5, door.y0 + 0.5};
	double d;
	assert_int_equal(gtNavQuery_Distance(q, to, in_door, &d, &err), GT_ERR_INVALID_POINT);
	assert_int_equal(gtNavQuery_Distance(q, in_door, to, &d, &err), GT_ERR_INVALID_POINT);
	set_door(nav, &door, true);
	// A wall in another passage, repaired in the background: the repaired index answers.
	edit(nav, wall.x0, wall.y0, wall.x1, wall.y1, true);
	assert_int_equal(gtNav_RebuildIndex(nav, NULL, true, &err), GT_OK);
	gtNav_WaitForRebuild(nav);
	assert_int_equal(gtNav_IndexState(nav), GT_NAV_INDEX_EXACT);
	every_cell_matches(nav, q, open_q, to, "caves, a wall repaired");
	gtNavQuery_Destroy(open_q);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(open_nav);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// A 2x2 pocket deep inside a wall (walls 6 cells all around), not within 12 cells of `other`'s.
static bool find_pocket(const gtMap* map, const Door* other, Door* out)
{
	int w = gtMap_Width(map), h = gtMap_Height(map), m = 6;
	for (int y = m; y + 2 + m <= h; y++)
		for (int x = m; x + 2 + m <= w; x++) {
			if (other && abs(x - other->x0) < 12 && abs(y - other->y0) < 12) continue;
			bool all = true;
			for (int b = -m; b < 2 + m && all; b++)
				for (int a = -m; a < 2 + m && all; a++) all = gtMap_IsBlocked(map, x + a, y + b);
			if (all) return *out = (Door){x, y, x + 1, y + 1, -1}, true;
		}
	return false;
}

// Doors over pockets deep inside walls: closing one changes no corner, sight line nor cell, so its
// index (repaired from the nav's) shares the nav's cell arrays (docs/edits.md). gtEhlStats says so
// (gtEhl_SharedBytes), and gtNav_DoorIndexBytes counts the doors' indexes without the arrays the nav's
// index holds: each adds its labels only. Once the doors' indexes are gone (the nav destroyed last:
// the arrays outlive whichever goes first), the nav's index shares nothing.
static void test_shared_cells_counted_once(void** state)
{
	(void)state;
	gtMap* map;
	gtError err;
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 160, 128, 5, &map, &err), GT_OK);
	Door doors[2];
	assert_true(find_pocket(map, NULL, &doors[0]) && find_pocket(map, &doors[0], &doors[1]));
	gtNavDef def = gtNav_DefaultDef();
	def.threads = 2;
	gtNav* nav;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_OK);
	for (int i = 0; i < 2; i++) {
		Door* d = &doors[i];
		if (gtNav_AddDoor(nav, d->x0, d->y0, d->x1, d->y1, &d->id, &err)) fail_msg("%s", err.message);
	}
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 4;
	assert_int_equal(gtNav_BuildIndex(nav, &ehl, &err), GT_OK);
	assert_int_equal(gtNav_RebuildIndex(nav, NULL, true, &err), GT_OK); // keeps what a repair reads
	gtNav_WaitForRebuild(nav);
	expect_ready(nav, 2);
	gtEhlStats s = gtEhl_GetStats(gtNav_Index(nav));
	int64_t shared = gtEhl_SharedBytes(gtNav_Index(nav)), bytes = gtNav_DoorIndexBytes(nav, NULL);
	printf("note: index %lld bytes, %lld shared; the doors' indexes %lld bytes\n", (long long)s.index_bytes,
	       (long long)shared, (long long)bytes);
	assert_true(shared > 0 && shared < s.index_bytes);
	assert_int_equal(bytes, 2 * (s.index_bytes - shared));
	set_door(nav, &doors[0], false); // answered from its index, the same arrays
	gtNavQuery* q;
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	TestRng rng = {7};
	Pairs* p = test_malloc(sizeof *p);
	pick_pairs(q, map, doors, 2, &rng, p);
	assert_int_equal(check(nav, q, p, "caves, a pocket door closed"), 0);
	test_free(p);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

TEST_MAIN("door_indexes", test_doors_answer_from_their_indexes, test_doors_on_ar0602sr, test_doors_past_the_limit,
          test_default_cap_and_no_view_for_doors, test_door_queries_from_every_cell, test_shared_cells_counted_once)
