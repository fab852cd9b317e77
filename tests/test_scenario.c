// MovingAI scenario files: valid lines, rounding slack, and malformed files.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static const char* write_temp(const char* text)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/gridtree_scen_XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE* f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_reads_entries(void** state)
{
	(void)state;
	const char* path = write_temp("version 1\n"
	                              "0\tmaps/x.map\t10\t8\t1\t2\t3\t4\t2.82842712\n"
	                              "\n"
	                              "3 maps/x.map 10 8 5 6 7 0 6.5\n");
	gtScenario* sc;
	gtError err;
	assert_int_equal(gtScenario_Load(path, &sc, &err), GT_OK);
	int n;
	const gtScenarioEntry* e = gtScenario_Entries(sc, &n);
	assert_int_equal(n, 2);
	assert_int_equal(e[0].map_width, 10);
	assert_int_equal(e[0].map_height, 8);
	assert_true(e[0].start.x == 1 && e[0].start.y == 2 && e[0].goal.x == 3 && e[0].goal.y == 4);
	assert_float_equal(e[0].octile, 2.82842712, 1e-12);
	assert_true(e[0].octile_slack > 0.5e-8 && e[0].octile_slack < 1e-7);
	assert_int_equal(e[1].bucket, 3);
	assert_true(e[1].octile_slack > 0.05 && e[1].octile_slack < 0.051); // one decimal printed
	gtScenario_Destroy(sc);
	remove(path);
}

static void expect_error(const char* text, const char* fragment)
{
	const char* path = write_temp(text);
	gtScenario* sc = (gtScenario*)1;
	gtError err;
	assert_int_equal(gtScenario_Load(path, &sc, &err), GT_ERR_FORMAT);
	assert_null(sc);
	if (!strstr(err.message, fragment) || !strstr(err.message, path))
		fail_msg("message '%s' lacks '%s'", err.message, fragment);
	remove(path);
}

static void test_rejects_malformed_files(void** state)
{
	(void)state;
	expect_error("version 2\n", ":1: unsupported scenario version");
	expect_error("version 1\n0 maps/x.map 10 8 1 2 3\n", ":2: expected");
	expect_error("version 1\n0 maps/x.map 10 8 1 2 3 4 5\n0 m 10 8 a 2 3 4 5\n", ":3: expected");
	expect_error("version 1\n0 maps/x.map 10 8 -1 2 3 4 5\n", ":2: expected");
	expect_error("version 1\n0 maps/x.map 10 8 1 2 3 4 nan\n", ":2: expected");
	expect_error("version 1\n0 maps/x.map 10 8 1 2 3 4 5 6\n", ":2: expected");
	gtScenario* sc = (gtScenario*)1;
	gtError err;
	assert_int_equal(gtScenario_Load("/nonexistent.scen", &sc, &err), GT_ERR_IO);
	assert_null(sc);
}

TEST_MAIN("scenario", test_reads_entries, test_rejects_malformed_files)
