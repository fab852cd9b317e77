// The world options shared by `gridtree neighbours` and `gridtree bench-neighbours`.
#ifndef GRIDTREE_CLI_NEIGHBOURS_H
#define GRIDTREE_CLI_NEIGHBOURS_H

#include "cli.h"

#define CLI_NEIGHBOURS_WORLD_OPTIONS                                                                                   \
	{"space", "W,H[,D]", NULL, true, "the world's size: two sizes for 2D, three for 3D"},                              \
	    {"wrap", "AXES", NULL, false, "the cyclic axes, letters of xyz (default none)"},                               \
	{                                                                                                                  \
		"cell", "C", NULL, false, "cell side (default 0: a sixteenth of the smallest side)"                            \
	}

// Reads --space, --wrap and --cell into def (zeroed first); prints the problem and is false.
bool cli_neighbours_def(const CliArgs* args, const char* command, gtNeighboursDef* def);

#endif
