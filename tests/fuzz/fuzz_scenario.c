// Fuzz target: MovingAI scenario files (gtScenario_Parse, the in-memory twin of gtScenario_Load,
// reading through the same code). Entries that parse are checked against a small map the way
// `gridtree scen` uses them: point checks, visibility and oracle distances.
#include <stdint.h>

#include "fuzz_support.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	static gtOracle* oracle;
	const gtMap* map = fuzz_small_map();
	gtError err;
	if (!oracle && gtOracle_Create(map, 1, &oracle, &err) != GT_OK) abort();
	gtScenario* sc = NULL;
	if (gtScenario_Parse((const char*)data, size, "fuzz.scen", &sc, &err) != GT_OK) return 0;
	int count;
	const gtScenarioEntry* e = gtScenario_Entries(sc, &count);
	volatile double sink = 0;
	for (int i = 0; i < count && i < 16; i++) {
		sink += e[i].octile + e[i].octile_slack + e[i].bucket + e[i].map_width + e[i].map_height;
		if (gtMap_CheckPoint(map, e[i].start) != GT_POINT_VALID || gtMap_CheckPoint(map, e[i].goal) != GT_POINT_VALID)
			continue;
		sink += gtMap_Visible(map, e[i].start, e[i].goal);
		double d;
		if (gtOracle_Distance(oracle, e[i].start, e[i].goal, &d, &err) == GT_OK) sink += d;
	}
	(void)sink;
	gtScenario_Destroy(sc);
	return 0;
}
