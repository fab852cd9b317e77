// Helpers shared by the fuzz harnesses (header-only: each harness is one program).
#ifndef GRIDTREE_FUZZ_SUPPORT_H
#define GRIDTREE_FUZZ_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "gridtree/gridtree.h"

// A fixed 16x12 map with rooms, a pinch point and a closed-off cell, for the targets whose input
// refers to a map (scenarios, workloads): parsed once, never freed (the process ends).
static const char fuzz_small_map_text[] = "type octile\nheight 12\nwidth 16\nmap\n"
                                          "................\n"
                                          "..@@@@....@@@...\n"
                                          "..@..@....@.@...\n"
                                          "..@..@....@@@...\n"
                                          "..@@.@..........\n"
                                          "......@.........\n"
                                          ".......@...TT...\n"
                                          "...........TT...\n"
                                          "..@@@@@@........\n"
                                          "..............@.\n"
                                          ".....@@@@.....@.\n"
                                          "................\n";

static inline const gtMap* fuzz_small_map(void)
{
	static gtMap* map;
	if (!map) {
		gtError err;
		if (gtMap_Parse(fuzz_small_map_text, sizeof fuzz_small_map_text - 1, "fuzz-small.map", &map, &err) != GT_OK) {
			fprintf(stderr, "fuzz: the built-in map does not parse: %s\n", err.message);
			abort();
		}
	}
	return map;
}

#endif
