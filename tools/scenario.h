/// @file scenario.h (tools support library: tests, CLI, benchmarks; not part of libgridtree)
/// MovingAI scenario files (`.scen`, "version 1"): point-to-point queries with the octile
/// distance as an upper bound (docs/algorithms.md 1.2).
#ifndef GRIDTREE_TOOLS_SCENARIO_H
#define GRIDTREE_TOOLS_SCENARIO_H

#include "gridtree/gt_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gtScenarioEntry {
	int bucket;
	int map_width, map_height;
	gtVec2 start, goal;  ///< cell indices used directly as plane points (cell corners)
	double octile;       ///< the file's `optimal` column: 8-connected grid distance
	double octile_slack; ///< half a unit of the column's last printed decimal (rounding)
} gtScenarioEntry;

typedef struct gtScenario gtScenario;

/// Loads a scenario file; errors name the file and line.
gtStatus gtScenario_Load(const char* path, gtScenario** out, gtError* err);

/// Parses a scenario held in memory (the same rules as a file); `name` is used in error messages.
gtStatus gtScenario_Parse(const char* text, size_t length, const char* name, gtScenario** out, gtError* err);

void gtScenario_Destroy(gtScenario* scenario);

const gtScenarioEntry* gtScenario_Entries(const gtScenario* scenario, int* count);

#ifdef __cplusplus
}
#endif

#endif
