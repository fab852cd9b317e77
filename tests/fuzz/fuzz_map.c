// Fuzz target: MovingAI map text (gtMap_Parse). A map that parses is exercised a little (point
// checks, corner classes, visibility, and the oracle on small maps) so bugs behind the parser, in
// what the parsed map feeds, are reached too.
#include <stdint.h>
#include <stdlib.h>

#include "gridtree/gridtree.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// Deterministic points from the input's own bytes, so a crash replays the same way.
static double coordinate(const uint8_t* data, size_t size, size_t i, int limit)
{
	uint8_t b = size ? data[i % size] : 0;
	return (double)(b % (unsigned)(limit * 4 + 1)) / 4.0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	gtMap* map = NULL;
	gtError err;
	if (gtMap_Parse((const char*)data, size, "fuzz.map", &map, &err) != GT_OK) return 0;
	int w = gtMap_Width(map), h = gtMap_Height(map), n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	volatile int64_t sink = gtMap_FreeCells(map) + gtMap_PinchCount(map) + (int64_t)gtMap_Fingerprint(map);
	for (int i = 0; i < n && i < 64; i++) sink += gtMap_ClassifyCorner(map, v[i].x, v[i].y);
	gtVec2 p[8];
	for (int i = 0; i < 8; i++) {
		p[i].x = coordinate(data, size, (size_t)i * 2, w);
		p[i].y = coordinate(data, size, (size_t)i * 2 + 1, h);
		sink += gtMap_CheckPoint(map, p[i]);
	}
	for (int i = 0; i + 1 < 8; i++)
		if (gtMap_CheckPoint(map, p[i]) == GT_POINT_VALID && gtMap_CheckPoint(map, p[i + 1]) == GT_POINT_VALID)
			sink += gtMap_Visible(map, p[i], p[i + 1]);
	// The oracle builds the visibility graph, quadratic in the vertices: only on small maps, so
	// the fuzzer keeps its speed.
	if (n <= 48) {
		gtOracle* oracle = NULL;
		if (gtOracle_Create(map, 1, &oracle, &err) == GT_OK) {
			double d;
			for (int i = 0; i + 1 < 8; i++)
				if (gtOracle_Distance(oracle, p[i], p[i + 1], &d, &err) == GT_OK) sink += d < 1e300;
			gtOracle_Destroy(oracle);
		}
	}
	(void)sink;
	gtMap_Destroy(map);
	return 0;
}
