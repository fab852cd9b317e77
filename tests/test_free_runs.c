// The free runs and the visibility walk that checks a row (column) of cells at once with them: the
// runs against a brute-force count (also after edits), and gtMap_Visible against the cell-by-cell
// walk (gtMap_VisibleCellByCell) on segments of every kind, on real maps of each suite and
// generated ones. Also the map's bits (map_internal.h) against its bytes, after edits and copies,
// and the world's clearance grid (world_clearance.h: 4 bits a cell) against a brute-force count.
#include <math.h>
#include <stdlib.h>

#include "map/map_internal.h"
#include "test_support.h"
#include "world/world_clearance.h"

// Free cells from (cx, cy) on towards +x or +y, at most GT_MAP_FREE_RUN_CAP, by looking.
static int brute_run(const gtMap* m, int cx, int cy, bool along_y)
{
	int n = 0;
	while (n < GT_MAP_FREE_RUN_CAP && !gtMap_IsBlocked(m, cx + (along_y ? 0 : n), cy + (along_y ? n : 0))) n++;
	return n;
}

// Every cell (or every `step`-th in both axes) has the brute-force runs.
static void expect_runs(const gtMap* m, int step, const char* what)
{
	for (int y = 0; y < gtMap_Height(m); y += step)
		for (int x = 0; x < gtMap_Width(m); x += step)
			for (int axis = 0; axis < 2; axis++) {
				int got = gtMap_FreeRun(m, x, y, axis), want = brute_run(m, x, y, axis);
				if (got != want)
					fail_msg("%s: cell (%d, %d) run along %c %d, brute force %d", what, x, y, "xy"[axis], got, want);
			}
}

// Whether padded cells [p0, p1] of padded row (column, `along_y`) `line` are all free, by the bytes.
static bool brute_free(const gtMap* m, bool along_y, int line, int p0, int p1)
{
	for (int p = p0; p <= p1; p++)
		if (m->blocked[along_y ? (size_t)p * (size_t)m->stride + (size_t)line
		                       : (size_t)line * (size_t)m->stride + (size_t)p])
			return false;
	return true;
}

// The bits say what the bytes do: every padded cell (the border too) in both layouts, and
// gt_bits_free on spans of every padded row and column (within a word, across words, empty).
static void expect_bits(const gtMap* m, TestRng* rng, const char* what)
{
	for (int py = 0; py < m->height + 2; py++)
		for (int px = 0; px < m->stride; px++) {
			int byte = m->blocked[(size_t)py * (size_t)m->stride + (size_t)px] != 0;
			int row = (int)(m->bits_x[(size_t)py * (size_t)m->words_x + (size_t)(px >> 6)] >> (px & 63) & 1);
			int column = (int)(m->bits_y[(size_t)px * (size_t)m->words_y + (size_t)(py >> 6)] >> (py & 63) & 1);
			if (row != byte || column != byte || gt_blocked_bit(m, px - 1, py - 1) != byte)
				fail_msg("%s: padded cell (%d, %d) byte %d, row bit %d, column bit %d", what, px, py, byte, row,
				         column);
		}
	for (int along_y = 0; along_y < 2; along_y++) {
		int lines = along_y ? m->stride : m->height + 2, cells = along_y ? m->height + 2 : m->stride;
		for (int line = 0; line < lines; line++)
			for (int t = 0; t < 8; t++) {
				int p0 = test_rng_int(rng, cells),
				    p1 = t == 0 ? p0 - 1 : p0 + test_rng_int(rng, t < 4 ? 4 : cells - p0);
				p1 = p1 < cells ? p1 : cells - 1;
				bool got = along_y ? gt_bits_free(m->bits_y, m->words_y, line, p0, p1)
				                   : gt_bits_free(m->bits_x, m->words_x, line, p0, p1);
				if (got != brute_free(m, along_y, line, p0, p1))
					fail_msg("%s: padded %s %d cells %d-%d free %d by the bits", what, along_y ? "column" : "row", line,
					         p0, p1, got);
			}
	}
}

// Segments of one kind between valid points, for the twin comparison.
typedef enum Kind {
	GRID_POINTS,
	VERTICES,
	DOUBLES,
	AXIS,
	THROUGH_POINTS,
	GRAZING,
	NEAR_TIES,
	ULP_GRAZING,
	TURNED_THROUGH,
	KINDS
} Kind;

static gtVec2 random_grid_point(const gtMap* m, TestRng* rng)
{
	for (;;) {
		gtVec2 p = {test_rng_int(rng, gtMap_Width(m) + 1), test_rng_int(rng, gtMap_Height(m) + 1)};
		if (gtMap_CheckPoint(m, p) == GT_POINT_VALID) return p;
	}
}

static bool make_segment(const gtMap* m, TestRng* rng, Kind kind, gtVec2* a, gtVec2* b)
{
	int n;
	const gtVertex* v = gtMap_Vertices(m, &n);
	int reach = 4 + test_rng_int(rng, 60);
	switch (kind) {
	case GRID_POINTS:
		*a = random_grid_point(m, rng);
		*b = (gtVec2){a->x + test_rng_int(rng, 2 * reach + 1) - reach, a->y + test_rng_int(rng, 2 * reach + 1) - reach};
		return gtMap_CheckPoint(m, *b) == GT_POINT_VALID;
	case VERTICES: {
		if (n < 2) return false;
		gtVertex p = v[test_rng_int(rng, n)], q = v[test_rng_int(rng, n)];
		if (abs(p.x - q.x) > 80 || abs(p.y - q.y) > 80) q = v[test_rng_int(rng, n)]; // some far, most near
		*a = (gtVec2){p.x, p.y}, *b = (gtVec2){q.x, q.y};
		return true;
	}
	case DOUBLES: {
		gtRandom r = *rng;
		if (gtMap_RandomPoint(m, &r, a, NULL) != GT_OK) return false;
		*rng = r;
		double angle = gtRandom_Unit(rng) * 6.283185307179586, length = gtRandom_Unit(rng) * reach;
		*b = (gtVec2){a->x + length * cos(angle), a->y + length * sin(angle)};
		return gtMap_CheckPoint(m, *b) == GT_POINT_VALID;
	}
	case AXIS:
		*a = test_random_point(m, rng);
		*b = *a;
		if (test_rng_int(rng, 2)) b->x += test_rng_int(rng, 2 * reach + 1) - reach + test_rng_int(rng, 4) / 4.0;
		else b->y += test_rng_int(rng, 2 * reach + 1) - reach + test_rng_int(rng, 4) / 4.0;
		return gtMap_CheckPoint(m, *b) == GT_POINT_VALID;
	case THROUGH_POINTS: { // along a lattice direction through grid point g: through many grid points
		gtVec2 g = random_grid_point(m, rng);
		int p = test_rng_int(rng, 5) - 2, q = 1 + test_rng_int(rng, 4);
		if (test_rng_int(rng, 2)) {
			int t = p;
			p = q, q = t;
		}
		double half = test_rng_int(rng, 2) ? 0.5 : 0, before = test_rng_int(rng, 12) + half,
		       after = 1 + test_rng_int(rng, 12);
		*a = (gtVec2){g.x - before * p, g.y - before * q}, *b = (gtVec2){g.x + after * p, g.y + after * q};
		return gtMap_CheckPoint(m, *a) == GT_POINT_VALID && gtMap_CheckPoint(m, *b) == GT_POINT_VALID;
	}
	case GRAZING: { // through a convex corner, in a direction that may just graze it
		if (n < 1) return false;
		gtVertex c = v[test_rng_int(rng, n)];
		double dx = (1 + test_rng_int(rng, 16)) / 4.0 * (test_rng_int(rng, 2) ? 1 : -1),
		       dy = (1 + test_rng_int(rng, 16)) / 4.0 * (test_rng_int(rng, 2) ? 1 : -1);
		double s = 1 + test_rng_int(rng, reach), t = 1 + test_rng_int(rng, reach);
		*a = (gtVec2){c.x - s * dx, c.y - s * dy}, *b = (gtVec2){c.x + t * dx, c.y + t * dy};
		return gtMap_CheckPoint(m, *a) == GT_POINT_VALID && gtMap_CheckPoint(m, *b) == GT_POINT_VALID;
	}
	case NEAR_TIES: { // within 2^-40 of passing through grid points
		const double nudges[4] = {ldexp(1, -40), -ldexp(1, -40), ldexp(3, -40), -ldexp(3, -40)};
		if (!make_segment(m, rng, THROUGH_POINTS, a, b)) return false;
		double nudge = nudges[test_rng_int(rng, 4)];
		if (test_rng_int(rng, 2)) a->x += nudge, b->x += nudge;
		else a->y += nudge;
		return gtMap_CheckPoint(m, *a) == GT_POINT_VALID && gtMap_CheckPoint(m, *b) == GT_POINT_VALID;
	}
	case ULP_GRAZING: { // a few units in the last place beside a convex corner: only exact arithmetic can tell
		if (!make_segment(m, rng, GRAZING, a, b)) return false;
		double towards = test_rng_int(rng, 2) ? INFINITY : -INFINITY;
		int ulps = 1 + test_rng_int(rng, 3);
		bool along_x = test_rng_int(rng, 2);
		for (int k = 0; k < ulps; k++) {
			double* pa = along_x ? &a->x : &a->y;
			*pa = nextafter(*pa, towards);
			if (test_rng_int(rng, 2)) {
				double* pb = along_x ? &b->x : &b->y;
				*pb = nextafter(*pb, towards);
			}
		}
		return gtMap_CheckPoint(m, *a) == GT_POINT_VALID && gtMap_CheckPoint(m, *b) == GT_POINT_VALID;
	}
	case TURNED_THROUGH: { // through grid point g, turned a little about it: it passes the lattice points
		// before g within 1e-9 on one side and those after g on the other (one side for all of them
		// holds only on a line exactly through them, as at exactly 45 degrees)
		gtVec2 g = random_grid_point(m, rng);
		int p = test_rng_int(rng, 2) ? 1 : -1, q = 1 + test_rng_int(rng, 3);
		if (test_rng_int(rng, 2)) {
			int t = p;
			p = q, q = t;
		}
		double turn = ldexp(test_rng_int(rng, 2) ? 1 : -1, -36), before = 1 + test_rng_int(rng, 12) + 0.5,
		       after = 1 + test_rng_int(rng, 12);
		gtVec2 d = {p + turn * q, q - turn * p}; // (p, q) turned towards (q, -p)
		*a = (gtVec2){g.x - before * d.x, g.y - before * d.y}, *b = (gtVec2){g.x + after * d.x, g.y + after * d.y};
		return gtMap_CheckPoint(m, *a) == GT_POINT_VALID && gtMap_CheckPoint(m, *b) == GT_POINT_VALID;
	}
	default: return false;
	}
}

// `count` segments of every kind: gtMap_Visible says what the cell-by-cell walk says, both ways.
// Returns how many were visible.
static int64_t expect_twins(const gtMap* m, TestRng* rng, int count, const char* what)
{
	int64_t visible = 0, checked = 0;
	for (int i = 0; i < count; i++) {
		gtVec2 a, b;
		Kind kind = (Kind)(i % KINDS);
		if (!make_segment(m, rng, kind, &a, &b)) continue;
		bool want = gtMap_VisibleCellByCell(m, a, b);
		if (gtMap_Visible(m, a, b) != want || gtMap_Visible(m, b, a) != gtMap_VisibleCellByCell(m, b, a))
			fail_msg("%s, kind %d: (%.17g, %.17g)-(%.17g, %.17g): the cell walk says %d", what, (int)kind, a.x, a.y,
			         b.x, b.y, want);
		visible += want;
		checked++;
	}
	// Both answers often, or the comparison proves little.
	if (visible < checked / 20 || visible > checked * 19 / 20)
		fail_msg("%s: %lld of %lld segments visible", what, (long long)visible, (long long)checked);
	if (getenv("GRIDTREE_TWIN_SEGMENTS"))
		print_message("%s: %lld segments, %lld visible\n", what, (long long)checked, (long long)visible);
	return visible;
}

// Segments per map; GRIDTREE_TWIN_SEGMENTS asks for a longer run (millions).
static int segments_per_map(int smoke)
{
	const char* env = getenv("GRIDTREE_TWIN_SEGMENTS");
	return env && atoi(env) > 0 ? atoi(env) : smoke;
}

static void test_runs_generated(void** state)
{
	(void)state;
	TestRng rng = {3501};
	for (int round = 0; round < 8; round++) {
		// Up to 300 wide and tall: runs past the cap.
		gtMap* m = test_random_map(&rng, 30 + 40 * round, 300 - 35 * round, (round % 4) * 2);
		expect_runs(m, 1, "random map");
		expect_bits(m, &rng, "random map");
		gtMap_Destroy(m);
	}
	const gtMapStyle styles[3] = {GT_STYLE_ROOMS, GT_STYLE_CAVES, GT_STYLE_ARENA};
	for (int style = 0; style < 3; style++) {
		gtMap* m = NULL;
		gtError err;
		assert_int_equal(gtMap_Generate(styles[style], 160, 120, 3502, &m, &err), GT_OK);
		expect_runs(m, 1, "generated map");
		expect_bits(m, &rng, "generated map");
		gtMap_Destroy(m);
	}
}

static const char* const REAL_MAPS[][2] = {
    {"bgmaps", "AR0602SR"}, {"dao", "brc203d"}, {"da2", "ca_cave"}, {"sc1", "Aftershock"}};

static void test_twins_real_maps(void** state)
{
	(void)state;
	if (!test_data_dir()) {
		print_message("GRIDTREE_DATA and ../shared/data are absent: generated maps only (test_twins_generated)\n");
		return;
	}
	TestRng rng = {3503};
	for (size_t i = 0; i < sizeof REAL_MAPS / sizeof *REAL_MAPS; i++) {
		gtMap* m = test_load_shared_map(REAL_MAPS[i][0], REAL_MAPS[i][1]);
		expect_runs(m, 7, REAL_MAPS[i][1]);
		expect_twins(m, &rng, segments_per_map(100000), REAL_MAPS[i][1]);
		gtMap_Destroy(m);
	}
}

static void test_twins_generated(void** state)
{
	(void)state;
	TestRng rng = {3504};
	for (int round = 0; round < 6; round++) {
		// Open maps with scattered blocks: big free squares, and pinches among the blocks.
		gtMap* m = test_random_map(&rng, 60 + 20 * round, 50 + 10 * round, 1 + round % 3);
		expect_twins(m, &rng, segments_per_map(100000) / 4, "random map");
		gtMap_Destroy(m);
	}
	// Long, nearly free rows and columns: strips longer than the runs' cap.
	for (int round = 0; round < 2; round++) {
		gtMap* m = round ? test_random_map(&rng, 24, 700, 0) : test_random_map(&rng, 700, 24, 0);
		gtMap* walls = NULL;
		int w = gtMap_Width(m), h = gtMap_Height(m);
		unsigned char* cells = calloc((size_t)(w * h), 1);
		assert_non_null(cells);
		// One blocked cell per row (column), 250 + its index along: strips from the border meet it
		// around the cap, one cell either side of it, or exactly at it.
		for (int k = 0; k < 24; k++) cells[round ? (250 + k) * w + k : k * w + 250 + k] = 1;
		gtError err;
		assert_int_equal(gtMap_FromCells(w, h, cells, &walls, &err), GT_OK);
		free(cells);
		int visible = 0, count = segments_per_map(100000) / 10;
		for (int i = 0; i < count; i++) {
			gtVec2 a = random_grid_point(walls, &rng), b = random_grid_point(walls, &rng);
			if (i < 4 * 23) { // a whole row (column) in one strip, both ways, both diagonals
				int k = i / 4, sign = i % 2 ? 1 : -1;
				double lo = i % 4 < 2 ? 0 : 600; // not to the far border: a strip that overshoots must not end at it
				a = round ? (gtVec2){k + (sign < 0), lo} : (gtVec2){lo, k + (sign < 0)};
				b = round ? (gtVec2){k + (sign > 0), 600 - lo} : (gtVec2){600 - lo, k + (sign > 0)};
			} else if (i % 2) {
				a.x += 0.5, b.y += 0.25; // the general walk too
			}
			if (gtMap_CheckPoint(walls, a) || gtMap_CheckPoint(walls, b)) continue;
			bool want = gtMap_VisibleCellByCell(walls, a, b);
			if (gtMap_Visible(walls, a, b) != want)
				fail_msg("long map: (%.17g, %.17g)-(%.17g, %.17g): the cell walk says %d", a.x, a.y, b.x, b.y, want);
			visible += want;
		}
		assert_true(visible > count / 10 && visible < count * 9 / 10);
		gtMap_Destroy(walls);
		gtMap_Destroy(m);
	}
}

// Random edits both ways through a nav: the grid stays what a fresh map of the same cells has
// (runs, and bits, also in a copy), and the walks stay twins.
static void test_edits_keep_the_grid(void** state)
{
	(void)state;
	TestRng rng = {3505};
	gtMap* base = test_random_map(&rng, 120, 90, 1);
	gtNavDef def = gtNav_DefaultDef();
	def.manual_rebuild = true;
	gtNav* nav = NULL;
	gtError err;
	assert_int_equal(gtNav_Create(base, &def, &nav, &err), GT_OK);
	const gtMap* m = gtNav_Map(nav);
	for (int edit = 0; edit < 60; edit++) {
		int w = 1 + test_rng_int(&rng, edit % 3 == 0 ? 12 : 3), h = 1 + test_rng_int(&rng, 3);
		int x0 = test_rng_int(&rng, 120 - w + 1), y0 = test_rng_int(&rng, 90 - h + 1);
		bool blocked = test_rng_int(&rng, 3) != 0;
		assert_int_equal(gtNav_SetBlocked(nav, x0, y0, x0 + w - 1, y0 + h - 1, blocked, &err), GT_OK);
		gtMap* fresh = test_cells_copy(m);
		for (int y = 0; y < 90; y++)
			for (int x = 0; x < 120; x++)
				for (int axis = 0; axis < 2; axis++)
					if (gtMap_FreeRun(m, x, y, axis) != gtMap_FreeRun(fresh, x, y, axis))
						fail_msg("edit %d: cell (%d, %d) run along %c %d, a fresh map's %d", edit, x, y, "xy"[axis],
						         gtMap_FreeRun(m, x, y, axis), gtMap_FreeRun(fresh, x, y, axis));
		expect_bits(m, &rng, "edited map");
		if (edit % 10 == 9) { // (fresh still held: the copy's blocks cannot be its, with the same cells)
			gtMap* copy = NULL;
			assert_int_equal(gt_map_copy(m, &copy, &err), GT_OK);
			expect_bits(copy, &rng, "copy of an edited map");
			gtMap_Destroy(copy);
		}
		gtMap_Destroy(fresh);
		if (edit % 10 == 9) {
			expect_runs(m, 1, "edited map");
			expect_twins(m, &rng, 2000, "edited map");
		}
	}
	gtNav_Destroy(nav);
	gtMap_Destroy(base);
}

// Every cell's clearance is min(D - 1, GT_CLEARANCE_CAP), D the chessboard distance from the cell
// to the nearest blocked cell or outside one (0 on a blocked cell), on maps of odd and even widths
// (cells of both halves of a byte, a last half byte); 0 off the map and on its far edges.
static void test_clearance_grid(void** state)
{
	(void)state;
	TestRng rng = {3507};
	int caps = 0;
	for (int round = 0; round < 6; round++) {
		int w = 41 + 30 * round, h = 37 + 20 * (round % 3);
		gtMap* m = NULL;
		gtError err;
		if (round % 2) assert_int_equal(gtMap_Generate(GT_STYLE_ARENA, w, h, 3508 + (uint64_t)round, &m, &err), GT_OK);
		else m = test_random_map(&rng, w, h, round);
		gtClearance c;
		assert_true(gt_clearance_build(&c, m));
		assert_true(gt_clearance_fits(&c, m));
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				int d = 0; // D: the least ring around (x, y) with a blocked cell (off the map counts)
				for (bool found = false; !found && d <= GT_CLEARANCE_CAP + 1; d += !found)
					for (int dy = -d; dy <= d && !found; dy++)
						for (int dx = -d; dx <= d && !found; dx++)
							found = (abs(dx) == d || abs(dy) == d) && gtMap_IsBlocked(m, x + dx, y + dy);
				int want = d > GT_CLEARANCE_CAP ? GT_CLEARANCE_CAP : d > 0 ? d - 1 : 0;
				caps += want == GT_CLEARANCE_CAP;
				double got = gt_clearance_at(&c, x + 0.5, y + 0.25);
				if (got != want || gt_clearance_at(&c, x, y) != want)
					fail_msg("map %d (%dx%d): cell (%d, %d) clearance %g, brute force %d", round, w, h, x, y, got,
					         want);
			}
		assert_true(gt_clearance_at(&c, w, 0) == 0 && gt_clearance_at(&c, 0, h) == 0 &&
		            gt_clearance_at(&c, -0.5, 1) == 0);
		gt_clearance_free(&c);
		gtMap_Destroy(m);
	}
	assert_true(caps > 40); // the cap is reached (the open first map)
}

TEST_MAIN("free_runs", test_runs_generated, test_twins_real_maps, test_twins_generated, test_edits_keep_the_grid,
          test_clearance_grid)
