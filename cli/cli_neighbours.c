// --space, --wrap and --cell of the neighbour commands.
#include <stdlib.h>
#include <string.h>

#include "cli_neighbours.h"

bool cli_neighbours_def(const CliArgs* args, const char* command, gtNeighboursDef* def)
{
	memset(def, 0, sizeof *def);
	const char* text = cli_option(args, "space", "");
	char* end;
	int n = 0;
	for (; n < 3; n++) {
		def->size[n] = strtod(text, &end);
		if (end == text || !(def->size[n] > 0)) break;
		text = end;
		if (*text != ',') {
			n++;
			break;
		}
		text++;
	}
	if ((n != 2 && n != 3) || *text) {
		fprintf(stderr, "gridtree %s: --space must be W,H or W,H,D with positive sizes, got '%s'\n", command,
		        cli_option(args, "space", ""));
		return false;
	}
	def->dimensions = n;
	const char* wrap = cli_option(args, "wrap", "");
	if (strcmp(wrap, "none") != 0)
		for (const char* c = wrap; *c; c++) {
			const char* axis = strchr("xyz", *c);
			if (!axis || axis - "xyz" >= n) {
				fprintf(stderr, "gridtree %s: --wrap takes letters of %.*s, got '%s'\n", command, n, "xyz", wrap);
				return false;
			}
			def->wrap |= 1u << (axis - "xyz");
		}
	const char* cell = cli_option(args, "cell", "0");
	def->cell = strtod(cell, &end);
	if (end == cell || *end || !(def->cell >= 0)) {
		fprintf(stderr, "gridtree %s: --cell must be a number >= 0, got '%s'\n", command, cell);
		return false;
	}
	return true;
}
