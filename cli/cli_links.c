// --links FILE: the links a run's nav takes (docs/links.md), one per line `ax ay bx by cost`,
// optionally followed by the word `oneway`; blank lines and # comments skipped.
#include <stdio.h>
#include <string.h>

#include "cli.h"

static bool add_link(void* nav, const char* path, int number, const char* text)
{
	double ax, ay, bx, by, cost;
	char word[16] = "", extra[2];
	int got = sscanf(text, "%lf %lf %lf %lf %lf %15s %1s", &ax, &ay, &bx, &by, &cost, word, extra);
	gtError err;
	if ((got != 5 && got != 6) || (got == 6 && strcmp(word, "oneway") != 0)) {
		fprintf(stderr, "gridtree: %s:%d: expected 'ax ay bx by cost' with an optional 'oneway'\n", path, number);
		return false;
	}
	if (gtNav_AddLink(nav, (gtVec2){ax, ay}, (gtVec2){bx, by}, cost, got == 6 ? GT_LINK_ONE_WAY : 0, NULL, &err)) {
		fprintf(stderr, "gridtree: %s:%d: %s\n", path, number, err.message);
		return false;
	}
	return true;
}

bool cli_apply_links(gtNav* nav, const char* path)
{
	return cli_each_line(path, add_link, nav);
}
