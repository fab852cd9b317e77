// Generated maps: connected, bordered, deterministic; the bundled maps are reproducible.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

// Counts 4-connected free regions with a flood fill of its own (independent of the generator).
static int free_regions(const gtMap* m)
{
	int w = gtMap_Width(m), h = gtMap_Height(m), regions = 0;
	unsigned char* seen = calloc((size_t)(w * h), 1);
	int* stack = malloc(sizeof *stack * (size_t)(w * h));
	assert_true(seen && stack);
	for (int start = 0; start < w * h; start++) {
		if (seen[start] || gtMap_IsBlocked(m, start % w, start / w)) continue;
		regions++;
		int top = 0;
		stack[top++] = start;
		seen[start] = 1;
		while (top > 0) {
			int c = stack[--top], x = c % w, y = c / w;
			const int nx[4] = {x - 1, x + 1, x, x}, ny[4] = {y, y, y - 1, y + 1};
			for (int k = 0; k < 4; k++) {
				if (gtMap_IsBlocked(m, nx[k], ny[k]) || seen[ny[k] * w + nx[k]]) continue;
				seen[ny[k] * w + nx[k]] = 1;
				stack[top++] = ny[k] * w + nx[k];
			}
		}
	}
	free(seen);
	free(stack);
	return regions;
}

static gtMap* generate(gtMapStyle style, int w, int h, uint64_t seed)
{
	gtMap* m = NULL;
	gtError err;
	if (gtMap_Generate(style, w, h, seed, &m, &err) != GT_OK) fail_msg("%s", err.message);
	return m;
}

static void test_generated_maps_are_valid(void** state)
{
	(void)state;
	const int sizes[][2] = {{8, 8}, {48, 32}, {100, 40}, {31, 77}};
	for (int style = GT_STYLE_ROOMS; style <= GT_STYLE_ARENA; style++)
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
			for (uint64_t seed = 1; seed <= 12; seed++) {
				int w = sizes[s][0], h = sizes[s][1];
				gtMap* m = generate((gtMapStyle)style, w, h, seed);
				assert_int_equal(gtMap_Width(m), w);
				assert_int_equal(gtMap_Height(m), h);
				for (int x = 0; x < w; x++) assert_true(gtMap_IsBlocked(m, x, 0) && gtMap_IsBlocked(m, x, h - 1));
				for (int y = 0; y < h; y++) assert_true(gtMap_IsBlocked(m, 0, y) && gtMap_IsBlocked(m, w - 1, y));
				assert_int_equal(free_regions(m), 1);
				assert_true(gtMap_FreeCells(m) * 4 >= (int64_t)w * h);
				gtMap* again = generate((gtMapStyle)style, w, h, seed);
				assert_true(gtMap_Fingerprint(m) == gtMap_Fingerprint(again));
				gtMap_Destroy(again);
				gtMap_Destroy(m);
			}
}

static void test_seeds_and_styles_differ(void** state)
{
	(void)state;
	uint64_t seen[3][10];
	for (int style = 0; style < 3; style++)
		for (int seed = 0; seed < 10; seed++) {
			gtMap* m = generate((gtMapStyle)style, 64, 48, (uint64_t)seed);
			seen[style][seed] = gtMap_Fingerprint(m);
			gtMap_Destroy(m);
			for (int s = 0; s <= style; s++)
				for (int t = 0; t < (s == style ? seed : 10); t++) assert_true(seen[s][t] != seen[style][seed]);
		}
}

static void test_rejects_bad_arguments(void** state)
{
	(void)state;
	gtMapStyle style;
	gtError err;
	assert_int_equal(gtMapStyle_Parse("caves", &style, &err), GT_OK);
	assert_int_equal(style, GT_STYLE_CAVES);
	assert_int_equal(gtMapStyle_Parse("forest", &style, &err), GT_ERR_INVALID_ARG);
	assert_non_null(strstr(err.message, "forest"));
	assert_int_equal(gtMapStyle_Parse(NULL, &style, &err), GT_ERR_INVALID_ARG);
	gtMap* m = (gtMap*)1;
	assert_int_equal(gtMap_Generate(GT_STYLE_ROOMS, 7, 20, 1, &m, &err), GT_ERR_INVALID_ARG);
	assert_null(m);
	assert_int_equal(gtMap_Generate(GT_STYLE_ARENA, 20, GT_GENMAP_MAX_SIDE + 1, 1, &m, &err), GT_ERR_INVALID_ARG);
	assert_int_equal(gtMap_Generate((gtMapStyle)7, 20, 20, 1, &m, &err), GT_ERR_INVALID_ARG);
}

// Every line of assets/maps/generate.sh regenerates its committed map exactly.
static void test_bundled_maps_reproduce(void** state)
{
	(void)state;
	FILE* f = fopen("assets/maps/generate.sh", "r");
	assert_non_null(f);
	char line[512];
	int maps = 0;
	while (fgets(line, sizeof line, f)) {
		char style_name[32], file[128];
		int w, h;
		unsigned long long seed;
		const char* args = strstr(line, "genmap ");
		if (!args || sscanf(args, "genmap --style %31s --width %d --height %d --seed %llu -o %127s", style_name, &w, &h,
		                    &seed, file) != 5)
			continue;
		gtMapStyle style;
		gtError err;
		assert_int_equal(gtMapStyle_Parse(style_name, &style, &err), GT_OK);
		gtMap* made = generate(style, w, h, seed);
		char path[256];
		snprintf(path, sizeof path, "assets/maps/%s", file);
		gtMap* bundled;
		if (gtMap_Load(path, &bundled, &err) != GT_OK) fail_msg("%s", err.message);
		if (gtMap_Fingerprint(made) != gtMap_Fingerprint(bundled)) fail_msg("%s differs from its generator", path);
		gtMap_Destroy(made);
		gtMap_Destroy(bundled);
		maps++;
	}
	fclose(f);
	assert_true(maps >= 3);
}

TEST_MAIN("genmap", test_generated_maps_are_valid, test_seeds_and_styles_differ, test_rejects_bad_arguments,
          test_bundled_maps_reproduce)
