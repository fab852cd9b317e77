// Fuzz target: Tiled maps held in memory (gtMap_ParseTiled), XML when built with
// -DFUZZ_TILED_NAME='"fuzz.tmx"', JSON with '"fuzz.tmj"'. External tilesets are looked for next
// to the name, where there are none: their errors are exercised, not the disk. A map that loads
// is checked a little: its objects and properties are all readable.
#include <stdint.h>
#include <string.h>

#include "gridtree/gridtree.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	gtMap* map = NULL;
	gtTiled* tiled = NULL;
	gtError err;
	// Half the inputs choose the walls by a layer name taken from their first bytes.
	char layer[8] = {0};
	gtTiledDef def = gtTiled_DefaultDef();
	if (size > 0 && data[0] % 2) {
		for (size_t i = 0; i + 1 < sizeof layer && i + 1 < size && data[i + 1] >= 'a' && data[i + 1] <= 'z'; i++)
			layer[i] = (char)data[i + 1];
		def.blocked_layer = layer;
	}
	// Most inputs may be open levels, so the ones without walls still reach the end.
	def.allow_empty = size > 0 && data[0] % 8 != 0;
	if (gtMap_ParseTiled((const char*)data, size, "/nonexistent-fuzz-dir/" FUZZ_TILED_NAME, &def, &map, &tiled, &err) !=
	    GT_OK)
		return 0;
	volatile int64_t sink = gtMap_FreeCells(map) + gtTiled_TileWidth(tiled) + (int64_t)strlen(gtTiled_BlockedBy(tiled));
	for (int rule = 0; rule < GT_TILED_RULE_COUNT; rule++) {
		int64_t walls = gtTiled_WallCells(tiled, (gtTiledRule)rule);
		if (walls < 0 || walls > (int64_t)gtMap_Width(map) * gtMap_Height(map))
			__builtin_trap(); // a count beyond the map
		sink += walls;
	}
	for (int i = 0; i < gtTiled_ObjectCount(tiled); i++) {
		const gtTiledObject* o = gtTiled_Object(tiled, i);
		sink += (int64_t)strlen(o->name) + (int64_t)strlen(o->type) + (int64_t)strlen(o->layer) + (o->x < o->y);
		for (int j = 0; j < o->property_count; j++) {
			const gtTiledProperty* p = gtTiled_Property(tiled, o->first_property + j);
			sink += (int64_t)(strlen(p->name) + strlen(p->type) + strlen(p->value));
		}
	}
	// Floors lay out the map; every link end is in its free space, on its floor, at a cost >= 0.
	int floors = gtTiled_FloorCount(tiled), width = gtTiled_FloorWidth(tiled);
	if (floors < 1 || (int64_t)floors * (width + 1) - 1 != gtMap_Width(map)) __builtin_trap();
	for (int i = 0; i < gtTiled_LinkCount(tiled); i++) {
		const gtTiledLink* l = gtTiled_Link(tiled, i);
		if (gtMap_CheckPoint(map, l->a) != GT_POINT_VALID || gtMap_CheckPoint(map, l->b) != GT_POINT_VALID ||
		    !(l->cost >= 0) || l->floor_a < 0 || l->floor_a >= floors || l->floor_b < 0 || l->floor_b >= floors ||
		    (floors > 1 && (int)(l->a.x / (width + 1)) != l->floor_a))
			__builtin_trap();
	}
	(void)sink;
	gtTiled_Destroy(tiled);
	gtMap_Destroy(map);
	return 0;
}
