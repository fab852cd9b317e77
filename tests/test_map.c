// MovingAI map parsing: valid files, every kind of malformed file, save/load, random corruption.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static gtMap* parse_ok(const char* text)
{
	gtMap* m = NULL;
	gtError err = {0};
	if (gtMap_Parse(text, strlen(text), "ok.map", &m, &err) != GT_OK) fail_msg("%s", err.message);
	return m;
}

// Parsing fails with `status` and a message containing every fragment (file:line and problem).
static void expect_error(const char* text, size_t length, gtStatus status, const char* where, const char* what)
{
	gtMap* m = (gtMap*)1;
	gtError err = {0};
	gtStatus st = gtMap_Parse(text, length, "bad.map", &m, &err);
	assert_null(m);
	if (st != status) fail_msg("status %s, expected %s: %s", gtStatusName(st), gtStatusName(status), err.message);
	if (!strstr(err.message, where) || !strstr(err.message, what))
		fail_msg("message '%s' lacks '%s' or '%s'", err.message, where, what);
}

static void expect_text_error(const char* text, gtStatus status, const char* where, const char* what)
{
	expect_error(text, strlen(text), status, where, what);
}

static void test_parses_valid_map(void** state)
{
	(void)state;
	gtMap* m = parse_ok("type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n.GS@\r\nT...\r\n..@.\r\n\r\n\n");
	assert_int_equal(gtMap_Width(m), 4);
	assert_int_equal(gtMap_Height(m), 3);
	assert_int_equal(gtMap_FreeCells(m), 9);
	assert_false(gtMap_IsBlocked(m, 0, 0));
	assert_false(gtMap_IsBlocked(m, 1, 0)); // G
	assert_false(gtMap_IsBlocked(m, 2, 0)); // S
	assert_true(gtMap_IsBlocked(m, 3, 0));  // @
	assert_true(gtMap_IsBlocked(m, 0, 1));  // T (trees) are blocked
	assert_true(gtMap_IsBlocked(m, -1, 0)); // outside
	assert_true(gtMap_IsBlocked(m, 4, 0));
	assert_true(gtMap_IsBlocked(m, 0, 3));
	gtMap_Destroy(m);
	// Header fields in another order, no final newline.
	m = parse_ok("width 2\nheight 1\ntype octile\nmap\n..");
	assert_int_equal(gtMap_Width(m), 2);
	assert_int_equal(gtMap_Height(m), 1);
	gtMap_Destroy(m);
}

static void test_rejects_malformed_headers(void** state)
{
	(void)state;
	expect_error("", 0, GT_ERR_FORMAT, "bad.map:1", "empty");
	expect_text_error("type octile\nwidth 4\nmap\n....\n", GT_ERR_FORMAT, "bad.map:3", "'height'");
	expect_text_error("type octile\nheight 1\nmap\n....\n", GT_ERR_FORMAT, "bad.map:3", "'width'");
	expect_text_error("type octile\nheight 1\nwidth 4\n", GT_ERR_FORMAT, "bad.map:3", "'map'");
	expect_text_error("type octile\nheight x\nwidth 4\nmap\n....\n", GT_ERR_FORMAT, "bad.map:2", "positive integer");
	expect_text_error("type octile\nheight 0\nwidth 4\nmap\n", GT_ERR_FORMAT, "bad.map:2", "positive integer");
	expect_text_error("type octile\nheight -3\nwidth 4\nmap\n", GT_ERR_FORMAT, "bad.map:2", "positive integer");
	expect_text_error("type octile\nheight 2\nheight 2\nwidth 4\nmap\n", GT_ERR_FORMAT, "bad.map:3", "twice");
	expect_text_error("type octile\nheight 1\nwidth 4\ncolour red\nmap\n....\n", GT_ERR_FORMAT, "bad.map:4",
	                  "unexpected header line");
	expect_text_error("type octile\nheight 99999\nwidth 4\nmap\n", GT_ERR_LIMIT, "bad.map:2", "limit");
	expect_text_error("type octile\nheight 60000\nwidth 60000\nmap\n", GT_ERR_LIMIT, "bad.map:3", "cells");
	expect_text_error("type octile\nheight 1000\nwidth 1000\nmap\n....\n", GT_ERR_FORMAT, "bad.map:5", "only 5 bytes");
}

static void test_rejects_malformed_rows(void** state)
{
	(void)state;
	expect_text_error("type octile\nheight 3\nwidth 4\nmap\n....\n..\n......\n", GT_ERR_FORMAT, "bad.map:6",
	                  "row 1 has 2 characters, expected 4");
	expect_text_error("type octile\nheight 2\nwidth 4\nmap\n....\n.....\n", GT_ERR_FORMAT, "bad.map:6",
	                  "row 1 has 5 characters");
	expect_text_error("type octile\nheight 2\nwidth 2\nmap\n..\n..\n..\n", GT_ERR_FORMAT, "bad.map:7",
	                  "more rows than the header's height 2");
	expect_text_error("type octile\nheight 3\nwidth 4\nmap\n.......\n....\n", GT_ERR_FORMAT, "bad.map:5",
	                  "row 0 has 7");
	expect_text_error("type octile\nheight 4\nwidth 2\nmap\n..\n..\n..", GT_ERR_FORMAT, "bad.map:8",
	                  "file ends after 3 of 4 rows");
	static const char binary[] = "type octile\nheight 1\nwidth 4\nmap\n.\0..\n";
	expect_error(binary, sizeof binary - 1, GT_ERR_FORMAT, "bad.map:5", "binary data (byte 0x00");
	static const char garbage[] = {'\x7f', 'E', 'L', 'F', 2, 1, 1, 0, 0, 0};
	expect_error(garbage, sizeof garbage, GT_ERR_FORMAT, "bad.map:1", "binary data");
}

static void test_load_reports_io_errors(void** state)
{
	(void)state;
	gtMap* m = (gtMap*)1;
	gtError err;
	assert_int_equal(gtMap_Load("/nonexistent/dir/x.map", &m, &err), GT_ERR_IO);
	assert_null(m);
	assert_non_null(strstr(err.message, "/nonexistent/dir/x.map"));
	assert_int_equal(gtMap_Load("/", &m, &err), GT_ERR_IO); // a directory
	assert_non_null(strstr(err.message, "not a regular file"));
}

static void test_save_load_round_trip(void** state)
{
	(void)state;
	gtMap* m = test_map_from_rows("..@..\n.@@..\n.....");
	char path[TEST_TEMP_PATH];
	test_temp_file(path, "map");
	gtError err;
	assert_int_equal(gtMap_Save(m, path, &err), GT_OK);
	gtMap* back;
	assert_int_equal(gtMap_Load(path, &back, &err), GT_OK);
	assert_true(gtMap_Fingerprint(m) == gtMap_Fingerprint(back));
	assert_int_equal(gtMap_FreeCells(back), 12);
	gtMap* other = test_map_from_rows("..@..\n.@@..\n....@");
	assert_true(gtMap_Fingerprint(m) != gtMap_Fingerprint(other));
	remove(path);
	gtMap_Destroy(m);
	gtMap_Destroy(back);
	gtMap_Destroy(other);
}

// Random byte changes and truncations never crash or leak; every failure carries a message.
static void test_survives_random_corruption(void** state)
{
	(void)state;
	const char* good = "type octile\nheight 4\nwidth 6\nmap\n......\n..@@..\n..@@..\n......\n";
	size_t n = strlen(good);
	char buffer[128];
	TestRng rng = {99};
	int accepted = 0, rejected = 0;
	const char bytes[] = {'.', '@', '\n', '\r', ' ', '0', '9', 'x', '\0', '\x80', '\xff', '-'};
	for (int i = 0; i < 20000; i++) {
		memcpy(buffer, good, n);
		size_t len = n;
		int edits = 1 + test_rng_int(&rng, 3);
		for (int e = 0; e < edits; e++) buffer[test_rng_int(&rng, (int)len)] = bytes[test_rng_int(&rng, sizeof bytes)];
		if (test_rng_int(&rng, 4) == 0) len = (size_t)test_rng_int(&rng, (int)len + 1);
		gtMap* m = NULL;
		gtError err = {0};
		if (gtMap_Parse(buffer, len, "fuzz.map", &m, &err) == GT_OK) {
			assert_non_null(m);
			assert_true(gtMap_Width(m) >= 1 && gtMap_Height(m) >= 1);
			gtMap_Destroy(m);
			accepted++;
		} else {
			assert_null(m);
			assert_non_null(strstr(err.message, "fuzz.map:"));
			rejected++;
		}
	}
	assert_true(accepted > 100 && rejected > 100);
}

static void test_from_cells_limits(void** state)
{
	(void)state;
	unsigned char cells[4] = {0};
	gtMap* m = (gtMap*)1;
	gtError err;
	assert_int_equal(gtMap_FromCells(0, 4, cells, &m, &err), GT_ERR_LIMIT);
	assert_null(m);
	assert_int_equal(gtMap_FromCells(70000, 1, cells, &m, &err), GT_ERR_LIMIT);
	assert_int_equal(gtMap_FromCells(2, 2, NULL, &m, &err), GT_ERR_INVALID_ARG);
}

// Every free cell gets its share of points (a chi-square bound over the cells), every point lies
// in a free cell, and the same seed draws the same points; a map with one free cell among a
// million (the counting fallback) and one with none.
static void test_random_point_uniform(void** state)
{
	(void)state;
	gtError err;
	TestRng maker = {7};
	gtMap* m = test_random_map(&maker, 8, 8, 40);
	int counts[64] = {0}, free_cells = (int)gtMap_FreeCells(m), n = 64000;
	gtRandom rng = {11}, again = {11};
	for (int i = 0; i < n; i++) {
		gtVec2 p, q;
		assert_int_equal(gtMap_RandomPoint(m, &rng, &p, &err), GT_OK);
		assert_int_equal(gtMap_RandomPoint(m, &again, &q, &err), GT_OK);
		assert_true(p.x == q.x && p.y == q.y);
		int cx = (int)p.x, cy = (int)p.y;
		assert_false(gtMap_IsBlocked(m, cx, cy));
		counts[cy * 8 + cx]++;
	}
	double expected = (double)n / free_cells, chi2 = 0;
	for (int c = 0; c < 64; c++)
		if (!gtMap_IsBlocked(m, c % 8, c / 8)) chi2 += (counts[c] - expected) * (counts[c] - expected) / expected;
	assert_true(chi2 < 3.0 * free_cells); // mean free_cells - 1; a skewed draw is far beyond
	gtMap_Destroy(m);

	enum { SIDE = 1000 };
	unsigned char* cells = malloc(SIDE * SIDE);
	assert_non_null(cells);
	memset(cells, 1, SIDE * SIDE);
	cells[617 * SIDE + 383] = 0;
	assert_int_equal(gtMap_FromCells(SIDE, SIDE, cells, &m, &err), GT_OK);
	for (int i = 0; i < 5; i++) {
		gtVec2 p;
		assert_int_equal(gtMap_RandomPoint(m, &rng, &p, &err), GT_OK);
		assert_true(p.x >= 383 && p.x <= 384 && p.y >= 617 && p.y <= 618);
	}
	gtMap_Destroy(m);
	memset(cells, 1, SIDE * SIDE);
	assert_int_equal(gtMap_FromCells(4, 4, cells, &m, &err), GT_OK);
	gtVec2 p;
	assert_int_equal(gtMap_RandomPoint(m, &rng, &p, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "no free cells"));
	gtMap_Destroy(m);
	free(cells);
}

TEST_MAIN("map", test_parses_valid_map, test_rejects_malformed_headers, test_rejects_malformed_rows,
          test_load_reports_io_errors, test_save_load_round_trip, test_survives_random_corruption,
          test_from_cells_limits, test_random_point_uniform)
