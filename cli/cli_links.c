// --links FILE: the links a run's nav takes (docs/links.md), one per line `ax ay bx by cost`,
// optionally followed by the word `oneway`; blank lines and # comments skipped.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

bool cli_apply_links(gtNav* nav, const char* path)
{
	FILE* f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "gridtree: %s: cannot open: %s\n", path, strerror(errno));
		return false;
	}
	char line[512];
	bool ok = true;
	for (int number = 1; ok && fgets(line, sizeof line, f); number++) {
		char* start = line;
		while (*start == ' ' || *start == '\t') start++;
		if (*start == '\n' || *start == '\r' || *start == '#' || *start == '\0') continue;
		double ax, ay, bx, by, cost;
		char word[16] = "", extra[2];
		int got = sscanf(start, "%lf %lf %lf %lf %lf %15s %1s", &ax, &ay, &bx, &by, &cost, word, extra);
		gtError err;
		if ((got != 5 && got != 6) || (got == 6 && strcmp(word, "oneway") != 0)) {
			fprintf(stderr, "gridtree: %s:%d: expected 'ax ay bx by cost' with an optional 'oneway'\n", path, number);
			ok = false;
		} else if (gtNav_AddLink(nav, (gtVec2){ax, ay}, (gtVec2){bx, by}, cost, got == 6 ? GT_LINK_ONE_WAY : 0, NULL,
		                         &err)) {
			fprintf(stderr, "gridtree: %s:%d: %s\n", path, number, err.message);
			ok = false;
		}
	}
	fclose(f);
	return ok;
}
