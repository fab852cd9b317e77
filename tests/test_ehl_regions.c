// Region indexes (ehl_regions.h: a budget met by merging fine cells into regions) against the
// oracle on real and generated maps, against the uniform index of their fine cells (every cell's
// vias kept, FULL only where every merged cell had it FULL), saved and loaded, forged.
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

// CRC-32C bit by bit (the file trailer's checksum), for the forged file.
static uint32_t crc32c(const unsigned char* p, size_t n)
{
	uint32_t crc = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++) crc = crc & 1 ? crc >> 1 ^ 0x82F63B78u : crc >> 1;
	}
	return ~crc;
}

static int64_t uniform_bytes(const gtMap* m, int g)
{
	gtEhl* e = test_build_ehl(m, g);
	int64_t bytes = gtEhl_GetStats(e).index_bytes;
	gtEhl_Destroy(e);
	return bytes;
}

// A region index within `budget_mb`, which must really have merged cells.
static gtEhl* build_regions(const gtMap* m, double budget_mb, const gtVec2* workload, int64_t workload_count)
{
	gtEhlDef def = gtEhl_DefaultDef();
	def.budget_mb = budget_mb;
	def.threads = 2;
	def.allow_high_peak = true; // budgets of small maps, under what their builds hold: test_peak checks that
	def.workload = workload;
	def.workload_count = workload_count;
	gtEhl* e;
	gtError err;
	if (gtEhl_Build(m, &def, &e, &err)) fail_msg("region build: %s", err.message);
	gtEhlStats s = gtEhl_GetStats(e);
	int columns, rows;
	gtEhl_GridSize(e, &columns, &rows);
	if (!(s.regions > 0 && s.regions < (int64_t)columns * rows))
		fail_msg("budget %g MB: %lld regions of %d x %d cells: no region index", budget_mb, (long long)s.regions,
		         columns, rows);
	if ((double)s.index_bytes > budget_mb * 1e6)
		fail_msg("budget %g MB: the index holds %lld bytes", budget_mb, (long long)s.index_bytes);
	return e;
}

// Distances (both ways) and paths against the oracle on random pairs.
static void expect_oracle(const gtMap* m, const gtEhl* e, gtOracle* o, TestRng* rng, int pairs, const char* what)
{
	gtEhlQuery* q;
	gtError err;
	assert_int_equal(gtEhlQuery_Create(e, &q, &err), GT_OK);
	int n;
	gtMap_Vertices(m, &n);
	gtVec2* pts = malloc(sizeof *pts * (size_t)(n + 2));
	assert_non_null(pts);
	for (int i = 0; i < pairs; i++) {
		gtVec2 s = test_random_point(m, rng), t = test_random_point(m, rng);
		double expect, got, back, d;
		assert_int_equal(gtOracle_Distance(o, s, t, &expect, &err), GT_OK);
		assert_int_equal(gtEhl_Distance(q, s, t, &got, &err), GT_OK);
		assert_int_equal(gtEhl_Distance(q, t, s, &back, &err), GT_OK);
		if (isinf(expect) != isinf(got) || (!isinf(expect) && fabs(got - expect) > 1e-9 * (1 + expect)) ||
		    isinf(back) != isinf(got) || (!isinf(got) && fabs(back - got) > 1e-9 * (1 + got)))
			fail_msg("%s: (%.17g, %.17g) -> (%.17g, %.17g): regions %.12f (back %.12f), oracle %.12f", what, s.x, s.y,
			         t.x, t.y, got, back, expect);
		if (isinf(expect)) continue;
		int count;
		assert_int_equal(gtEhl_Path(q, s, t, pts, n + 2, &count, &d, &err), GT_OK);
		double length = 0;
		for (int k = 0; k + 1 < count; k++) {
			if (!gtMap_Visible(m, pts[k], pts[k + 1])) fail_msg("%s: a path step is not visible", what);
			length += hypot(pts[k + 1].x - pts[k].x, pts[k + 1].y - pts[k].y);
		}
		assert_true(count >= 2 && pts[0].x == s.x && pts[count - 1].y == t.y);
		assert_float_equal(length, expect, 1e-9 * (1 + expect));
	}
	free(pts);
	gtEhlQuery_Destroy(q);
}

// The brute-force twin of a region: every grid cell's region holds all the vias the uniform index
// of the same cells gives that cell, and a via FULL in the region is FULL in the cell.
static void expect_unions(const gtMap* m, const gtEhl* regions)
{
	int g = gtEhl_GetStats(regions).cell_size, columns, rows;
	gtEhl* fine = test_build_ehl(m, g);
	gtEhl_GridSize(regions, &columns, &rows);
	int64_t capacity = 1 << 16, checked = 0, full = 0;
	gtEhlVia* a = malloc((size_t)capacity * sizeof *a);
	gtEhlVia* b = malloc((size_t)capacity * sizeof *b);
	assert_non_null(a);
	assert_non_null(b);
	for (int64_t cell = 0; cell < (int64_t)columns * rows; cell++) {
		int64_t own = gtEhl_CellVias(fine, cell, a, capacity), merged = gtEhl_CellVias(regions, cell, b, capacity);
		assert_true(own >= 0 && own <= capacity && merged >= own && merged <= capacity);
		for (int64_t i = 0; i < merged; i++) {
			int64_t k = 0;
			while (k < own && !(a[k].hub_rank == b[i].hub_rank && a[k].vertex == b[i].vertex)) k++;
			if (b[i].full && (k == own || !a[k].full))
				fail_msg("cell %lld: via %d of hub %d is FULL in its region but not in the cell", (long long)cell,
				         b[i].vertex, b[i].hub_rank);
			full += b[i].full;
		}
		for (int64_t k = 0; k < own; k++) {
			int64_t i = 0;
			while (i < merged && !(a[k].hub_rank == b[i].hub_rank && a[k].vertex == b[i].vertex)) i++;
			if (i == merged)
				fail_msg("cell %lld: via %d of hub %d is missing from its region", (long long)cell, a[k].vertex,
				         a[k].hub_rank);
			checked++;
		}
	}
	printf("note: %lld cell vias found in their regions, %lld region vias FULL\n", (long long)checked, (long long)full);
	assert_true(checked > 0 && full > 0);
	free(a);
	free(b);
	gtEhl_Destroy(fine);
}

static void check_map(gtMap* m, const char* what, double share, int pairs)
{
	gtOracle* o;
	gtError err;
	assert_int_equal(gtOracle_Create(m, 2, &o, &err), GT_OK);
	// Between today's uniform sizes: merging has to choose where the memory goes.
	double budget = (double)(uniform_bytes(m, 4) * share + uniform_bytes(m, 16) * (1 - share)) / 1e6;
	gtEhl* e = build_regions(m, budget, NULL, 0);
	TestRng rng = {strlen(what) * 7919u + 1};
	expect_oracle(m, e, o, &rng, pairs, what);
	expect_unions(m, e);
	printf("note: %s: %lld regions of cells of size %d in %.2f MB (budget %.2f MB) equal the oracle on %d pairs\n",
	       what, (long long)gtEhl_GetStats(e).regions, gtEhl_GetStats(e).cell_size,
	       (double)gtEhl_GetStats(e).index_bytes / 1e6, budget, pairs);
	gtEhl_Destroy(e);
	gtOracle_Destroy(o);
}

static void test_real_maps(void** state)
{
	(void)state;
	gtMap* m = test_load_shared_map("da2", "ca_cave");
	check_map(m, "da2/ca_cave", 0.3, 300);
	gtMap_Destroy(m);
	m = test_load_shared_map("dao", "arena");
	check_map(m, "dao/arena", 0.5, 300);
	gtMap_Destroy(m);
}

static void test_generated_maps(void** state)
{
	(void)state;
	const gtMapStyle styles[2] = {GT_STYLE_CAVES, GT_STYLE_ROOMS};
	for (int i = 0; i < 2; i++) {
		gtMap* m;
		gtError err;
		assert_int_equal(gtMap_Generate(styles[i], 160, 128, 35101 + i, &m, &err), GT_OK);
		check_map(m, i ? "rooms 160x128" : "caves 160x128", 0.4, 300);
		gtMap_Destroy(m);
	}
}

// A workload keeps the cells where its points fall finer than elsewhere: the points' regions hold
// fewer vias than with no workload, and the answers stay exact.
static void test_workload(void** state)
{
	(void)state;
	gtMap* m = test_load_shared_map("da2", "ca_cave");
	gtOracle* o;
	gtError err;
	assert_int_equal(gtOracle_Create(m, 2, &o, &err), GT_OK);
	double budget = (double)(uniform_bytes(m, 4) + 3 * uniform_bytes(m, 16)) / 4 / 1e6;
	TestRng rng = {35};
	enum { POINTS = 200 };
	gtVec2 points[POINTS];
	for (int i = 0; i < POINTS; i++) { // a corner of the map: its left sixth
		do points[i] = test_random_point(m, &rng);
		while (points[i].x > gtMap_Width(m) / 6.0);
	}
	gtEhl* plain = build_regions(m, budget, NULL, 0);
	gtEhl* steered = build_regions(m, budget, points, POINTS);
	expect_oracle(m, steered, o, &rng, 200, "ca_cave with a workload");
	int64_t capacity = 1 << 16, vias[2] = {0, 0};
	gtEhlVia* buffer = malloc((size_t)capacity * sizeof *buffer);
	int columns, rows, g = gtEhl_GetStats(plain).cell_size;
	gtEhl_GridSize(plain, &columns, &rows);
	for (int i = 0; i < POINTS; i++) {
		int64_t cell = (int64_t)(points[i].y / g < rows ? (int)(points[i].y / g) : rows - 1) * columns +
		               ((int)(points[i].x / g) < columns ? (int)(points[i].x / g) : columns - 1);
		vias[0] += gtEhl_CellVias(plain, cell, buffer, capacity);
		vias[1] += gtEhl_CellVias(steered, cell, buffer, capacity);
	}
	printf("note: vias of the workload's regions: %lld without it, %lld with it\n", (long long)vias[0],
	       (long long)vias[1]);
	assert_true(vias[1] < vias[0]);
	free(buffer);
	gtEhl_Destroy(plain);
	gtEhl_Destroy(steered);
	gtOracle_Destroy(o);
	gtMap_Destroy(m);
}

// Saved as format 4 and loaded, the same answers; a forged region id is refused; --uniform (and
// a budget regions cannot meet) builds one cell size.
static uint64_t get_u64(const unsigned char* at, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--) v = v << 8 | at[i];
	return v;
}

// Writes `bytes` with `count` bytes at `at` replaced and the checksum made right; the load must
// refuse it naming `why`. `bytes` is left as it was.
static void forge_load(const gtMap* m, const char* path, unsigned char* bytes, long size, uint64_t at,
                       const void* value, size_t count, const char* why)
{
	unsigned char saved[8];
	memcpy(saved, bytes + at, count);
	memcpy(bytes + at, value, count);
	uint32_t crc = crc32c(bytes, (size_t)(size - 8)), good_crc;
	memcpy(&good_crc, bytes + size - 8, 4);
	memcpy(bytes + size - 8, &crc, 4);
	FILE* f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, (size_t)size, f), size);
	fclose(f);
	gtEhl* loaded = NULL;
	gtError err;
	assert_int_equal(gtEhl_Load(m, path, &loaded, &err), GT_ERR_FORMAT);
	if (!strstr(err.message, why)) fail_msg("expected '%s', got '%s'", why, err.message);
	assert_null(loaded);
	memcpy(bytes + at, saved, count);
	memcpy(bytes + size - 8, &good_crc, 4);
}

static void test_save_load_and_forgery(void** state)
{
	(void)state;
	gtMap* m = test_load_shared_map("da2", "ca_cave");
	double budget = (double)(uniform_bytes(m, 4) + uniform_bytes(m, 16)) / 2 / 1e6;
	gtEhl* e = build_regions(m, budget, NULL, 0);
	char path[TEST_TEMP_PATH];
	test_temp_file(path, "ehl_regions");
	gtError err;
	assert_int_equal(gtEhl_Save(e, path, &err), GT_OK);
	gtEhl* loaded;
	assert_int_equal(gtEhl_Load(m, path, &loaded, &err), GT_OK);
	assert_int_equal(gtEhl_GetStats(loaded).regions, gtEhl_GetStats(e).regions);
	assert_int_equal(gtEhl_GetStats(loaded).index_bytes, gtEhl_GetStats(e).index_bytes);
	test_same_distances(m, e, loaded, 35, 500);
	gtEhl_Destroy(loaded);
	FILE* f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	unsigned char* bytes = malloc((size_t)size);
	fseek(f, 0, SEEK_SET);
	assert_int_equal(fread(bytes, 1, (size_t)size, f), size);
	fclose(f);
	uint32_t version;
	memcpy(&version, bytes + 8, 4);
	assert_int_equal(version, 5); // compact: 2-byte vias and inverse labels
	// Forged sections (the checksum made right each time) are refused by name: a region id naming
	// a region that does not exist, a via's place past its hub's inverse label, an inverse entry
	// that is another hub's label entry.
	int columns, rows;
	gtEhl_GridSize(e, &columns, &rows);
	uint64_t n = get_u64(bytes + 36, 4), labels = get_u64(bytes + 40, 8), cells = get_u64(bytes + 48, 8);
	uint64_t hubs = get_u64(bytes + 56, 8), vias = get_u64(bytes + 64, 8);
	uint64_t id_bytes = cells <= 65536 ? 2 : 4; // a few regions: 2-byte ids
	uint64_t sizes[] = {
	    (n + 1) * 4,     labels * 4, labels * 4, labels * 8, n * 4,
	    (cells + 1) * 4, hubs * 12,  vias * 2,   0,          (uint64_t)columns * (uint64_t)rows * id_bytes,
	    (n + 1) * 4,     labels * 4, labels * 4};
	uint64_t start[13], at = 80;
	for (int i = 0; i < 13; i++) start[i] = at, at += (sizes[i] + 7) & ~(uint64_t)7;
	assert_int_equal(at + 8, size);
	uint32_t forged = (uint32_t)gtEhl_GetStats(e).regions;
	forge_load(m, path, bytes, size, start[9] + ((uint64_t)columns * rows - 1) * id_bytes, &forged, id_bytes,
	           "region ids");
	uint16_t place = 0x7FFF;
	forge_load(m, path, bytes, size, start[7], &place, 2, "via labels");
	// The last via ends the last list stored (lists end at their LAST via and may be shared):
	// without its LAST bit that list would run past the vias.
	uint16_t last;
	memcpy(&last, bytes + start[7] + (vias - 1) * 2, 2);
	assert_true(last & 0x4000);
	last &= (uint16_t)~0x4000;
	forge_load(m, path, bytes, size, start[7] + (vias - 1) * 2, &last, 2, "via labels");
	uint32_t entry;
	memcpy(&entry, bytes + start[12] + (labels - 1) * 4, 4);
	forge_load(m, path, bytes, size, start[12], &entry, 4, "inverse labels");
	free(bytes);
	remove(path);
	gtEhlDef def = gtEhl_DefaultDef();
	def.budget_mb = budget;
	def.uniform = true;
	def.allow_high_peak = true;
	gtEhl* uniform;
	assert_int_equal(gtEhl_Build(m, &def, &uniform, &err), GT_OK);
	assert_int_equal(gtEhl_GetStats(uniform).regions, 0);
	gtEhl_Destroy(uniform);
	gtEhl_Destroy(e);
	gtMap_Destroy(m);
}

// An edit does not repair a region index: the rebuild makes a whole region index again, within
// the same budget, equal to the oracle on the edited map.
static void test_edit_rebuilds_regions(void** state)
{
	(void)state;
	gtMap* m = test_load_shared_map("da2", "ca_cave");
	double budget = (double)(uniform_bytes(m, 4) + uniform_bytes(m, 16)) / 2 / 1e6;
	gtNavDef nd = gtNav_DefaultDef();
	nd.threads = 1;
	nd.manual_rebuild = true;
	gtNav* nav;
	gtError err;
	assert_int_equal(gtNav_Create(m, &nd, &nav, &err), GT_OK);
	gtEhlDef def = gtEhl_DefaultDef();
	def.budget_mb = budget;
	def.threads = 2;
	def.allow_high_peak = true; // and for the rebuilds, which take this def
	assert_int_equal(gtNav_BuildIndex(nav, &def, &err), GT_OK);
	assert_true(gtEhl_GetStats(gtNav_Index(nav)).regions > 0);
	int walls = 0;
	for (int y = 20; y < gtMap_Height(m) - 20 && walls < 6; y += 17)
		for (int x = 20; x < gtMap_Width(m) - 20 && walls < 6; x += 23)
			if (!gtMap_IsBlocked(m, x, y) && !gtMap_IsBlocked(m, x + 1, y + 1)) {
				assert_int_equal(gtNav_SetBlocked(nav, x, y, x + 1, y + 1, true, &err), GT_OK);
				walls++;
			}
	assert_true(walls > 0);
	assert_int_equal(gtNav_RebuildIndex(nav, NULL, false, &err), GT_OK);
	assert_int_equal(gtNav_IndexState(nav), GT_NAV_INDEX_EXACT);
	const gtEhl* rebuilt = gtNav_Index(nav);
	assert_true(gtEhl_GetStats(rebuilt).regions > 0);
	assert_true((double)gtEhl_GetStats(rebuilt).index_bytes <= budget * 1e6);
	gtOracle* o;
	assert_int_equal(gtOracle_Create(gtNav_Map(nav), 2, &o, &err), GT_OK);
	TestRng rng = {3535};
	expect_oracle(gtNav_Map(nav), rebuilt, o, &rng, 200, "ca_cave edited, rebuilt");
	gtOracle_Destroy(o);
	gtNav_Destroy(nav);
	gtMap_Destroy(m);
}

static unsigned char* saved_bytes(const gtEhl* e, long* size)
{
	char path[TEST_TEMP_PATH];
	test_temp_file(path, "ehl_retry");
	gtError err;
	assert_int_equal(gtEhl_Save(e, path, &err), GT_OK);
	FILE* f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	unsigned char* bytes = malloc((size_t)*size);
	assert_non_null(bytes);
	fseek(f, 0, SEEK_SET);
	assert_int_equal(fread(bytes, 1, (size_t)*size, f), *size);
	fclose(f);
	remove(path);
	return bytes;
}

// Progress as a build reports it: each stage shown once (none again after the next one started),
// its fraction never going back.
typedef struct Progress {
	const char* stage[16];
	int stages;
	double last;
} Progress;
static void record_progress(void* user, const char* stage, double fraction)
{
	Progress* p = user;
	if (p->stages == 0 || strcmp(p->stage[p->stages - 1], stage) != 0) {
		for (int s = 0; s < p->stages; s++)
			if (strcmp(p->stage[s], stage) == 0)
				fail_msg("progress: stage %s shown again after %s", stage, p->stage[p->stages - 1]);
		assert_true(p->stages < 16);
		p->stage[p->stages++] = stage, p->last = -1;
	}
	if (fraction < p->last) fail_msg("progress: stage %s went back from %g to %g", stage, p->last, fraction);
	p->last = fraction;
}
static void expect_stages(const Progress* p, const char* what)
{
	bool cells = false, vias = false;
	for (int s = 0; s < p->stages; s++)
		cells = cells || strcmp(p->stage[s], "cells") == 0, vias = vias || strcmp(p->stage[s], "via labels") == 0;
	if (!cells || !vias) fail_msg("%s: %d stages shown, not the cells' and the vias'", what, p->stages);
}

// A budget that tries more than one cell size (generated caves 64 x 64, seed 3, at 0.1 MB: the
// cells' stage runs again from 0% after a try's vias' stage) shows one progress, as does the retry
// below.
static void test_one_progress(void** state)
{
	(void)state;
	gtMap* m;
	gtError err;
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 64, 64, 3, &m, &err), GT_OK);
	Progress p = {{0}, 0, -1};
	gtEhlDef def = gtEhl_DefaultDef();
	def.budget_mb = 0.1;
	def.allow_high_peak = true;
	def.progress = record_progress, def.progress_user = &p;
	gtEhl* e;
	assert_int_equal(gtEhl_Build(m, &def, &e, &err), GT_OK);
	expect_stages(&p, "caves 64, budget 0.1 MB");
	gtEhl_Destroy(e);
	gtMap_Destroy(m);
}

// A budget whose first cell size comes out too large is built again at the next size from the
// same labels: the map's label entries, freed once the first index kept its useful ones, are put
// back from it (ehl_build.c: restore_label_entries). The retried index must be the one a build at
// that size alone gives, byte for byte, and exact.
static void test_retry_restores_labels(void** state)
{
	(void)state;
	gtMap* m = test_load_map("assets/maps/small.map");
	gtError err;
	int64_t estimate;
	assert_int_equal(gtEhl_EstimateBytes(m, 1, 2, &estimate, &err), GT_OK);
	int64_t real = uniform_bytes(m, 1);
	assert_true(estimate < real); // the premise: cell size 1 is chosen, then comes out too large
	gtEhlDef def = gtEhl_DefaultDef();
	def.uniform = true;
	def.threads = 2;
	def.budget_mb = (double)(estimate + real) / 2 / 1e6;
	def.allow_high_peak = true;
	Progress p = {{0}, 0, -1};
	def.progress = record_progress, def.progress_user = &p;
	gtEhl* retried;
	assert_int_equal(gtEhl_Build(m, &def, &retried, &err), GT_OK);
	expect_stages(&p, "small.map retried");
	assert_int_equal(gtEhl_GetStats(retried).cell_size, 2);
	gtEhl* direct = test_build_ehl(m, 2);
	assert_int_equal(gtEhl_GetStats(retried).label_entries, gtEhl_GetStats(direct).label_entries);
	assert_int_equal(gtEhl_GetStats(retried).useful_entries, gtEhl_GetStats(direct).useful_entries);
	assert_int_equal(gtEhl_GetStats(retried).via_labels, gtEhl_GetStats(direct).via_labels);
	long size[2];
	unsigned char* bytes[2] = {saved_bytes(retried, &size[0]), saved_bytes(direct, &size[1])};
	assert_int_equal(size[0], size[1]);
	long first = 0;
	while (first < size[0] && bytes[0][first] == bytes[1][first]) first++;
	if (first < size[0]) fail_msg("the retried index differs from a direct build at byte %ld of %ld", first, size[0]);
	free(bytes[0]);
	free(bytes[1]);
	gtOracle* o;
	assert_int_equal(gtOracle_Create(m, 2, &o, &err), GT_OK);
	TestRng rng = {3536};
	expect_oracle(m, retried, o, &rng, 300, "small.map, retried at cell size 2");
	printf("note: budget %.3f MB: cell size 1 (%lld bytes) refused, cell size 2 built again: %ld bytes, the same\n",
	       def.budget_mb, (long long)real, size[0]);
	gtOracle_Destroy(o);
	gtEhl_Destroy(direct);
	gtEhl_Destroy(retried);
	gtMap_Destroy(m);
}

// The budget's second half: a build that holds more than twice the budget at once (its own
// allocations) stops with GT_ERR_LIMIT and no index, naming its peak and the least budget that
// holds; that budget holds (peak within twice it, exact answers); allow_high_peak builds the small
// one anyway. One thread, so the peak is the same every run.
static double least_named(const char* message)
{
	const char* at = strstr(message, "least budget that holds is about ");
	return at ? atof(at + strlen("least budget that holds is about ")) : 0;
}

static void test_peak(void** state)
{
	(void)state;
	gtMap* m = test_load_map("assets/maps/keep.map");
	gtEhlDef def = gtEhl_DefaultDef();
	def.threads = 1;
	def.budget_mb = 2;
	int64_t held = gtGetByteCount();
	gtEhl* e = (gtEhl*)&def;
	gtError err;
	assert_int_equal(gtEhl_Build(m, &def, &e, &err), GT_ERR_LIMIT);
	assert_null(e);
	assert_int_equal(gtGetByteCount(), held); // nothing kept
	assert_non_null(strstr(err.message, "budget 2 MB: the build held "));
	assert_non_null(strstr(err.message, "more than twice the budget"));
	double least = least_named(err.message);
	printf("note: keep.map: %s\n", err.message);
	assert_true(least > 2 && least < 8);
	// The least budget named holds:
	def.budget_mb = least;
	assert_int_equal(gtEhl_Build(m, &def, &e, &err), GT_OK);
	gtEhlStats s = gtEhl_GetStats(e);
	printf("note: keep.map, budget %.2f MB: the build held %.2f MB, the index %.2f MB\n", least,
	       (double)s.peak_bytes / 1e6, (double)s.index_bytes / 1e6);
	assert_true(s.peak_bytes > s.index_bytes && (double)s.peak_bytes <= 2 * least * 1e6);
	assert_true((double)s.index_bytes <= least * 1e6);
	gtOracle* o;
	assert_int_equal(gtOracle_Create(m, 2, &o, &err), GT_OK);
	TestRng rng = {3501};
	expect_oracle(m, e, o, &rng, 200, "keep.map at the least budget");
	gtEhl_Destroy(e);
	def.budget_mb = 2;
	def.allow_high_peak = true;
	assert_int_equal(gtEhl_Build(m, &def, &e, &err), GT_OK);
	s = gtEhl_GetStats(e);
	assert_true((double)s.peak_bytes > 4e6 && (double)s.index_bytes <= 2e6);
	expect_oracle(m, e, o, &rng, 200, "keep.map, a higher peak allowed");
	gtEhl_Destroy(e);
	gtOracle_Destroy(o);
	gtMap_Destroy(m);
}

TEST_MAIN("ehl_regions", test_real_maps, test_generated_maps, test_workload, test_save_load_and_forgery,
          test_edit_rebuilds_regions, test_retry_restores_labels, test_one_progress, test_peak)
