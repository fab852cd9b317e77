// --links FILE: the links a run's nav takes (docs/links.md), one per line `ax ay bx by cost`,
// optionally followed by the word `oneway`; blank lines and # comments skipped.
#include <stdio.h>
#include <stdlib.h>
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

// The file's links as an index takes them: its two-way links (through a nav, so that the lines are
// checked as for every other command); one-way links are left out, with a note on stderr.
bool cli_index_links(gtMap* map, const char* path, gtEhlLink** out, int* count)
{
	*out = NULL;
	*count = 0;
	gtNav* nav;
	gtError err;
	if (gtNav_Create(map, NULL, &nav, &err)) {
		fprintf(stderr, "gridtree: %s\n", err.message);
		return false;
	}
	bool ok = cli_apply_links(nav, path);
	int total = ok ? gtNav_LinkCount(nav) : 0, one_way = 0;
	gtLinkId* ids = malloc(((size_t)total + 1) * sizeof *ids);
	*out = malloc(((size_t)total + 1) * sizeof **out);
	if (ok && (!ids || !*out)) {
		fprintf(stderr, "gridtree: out of memory for %d links\n", total);
		ok = false;
	}
	if (ok) gtNav_Links(nav, ids, total);
	for (int i = 0; ok && i < total; i++) {
		gtLinkInfo info;
		gtNav_GetLink(nav, ids[i], &info, &err);
		if (info.flags & GT_LINK_ONE_WAY) one_way++;
		else (*out)[(*count)++] = (gtEhlLink){info.a, info.b, info.cost};
	}
	if (one_way)
		fprintf(stderr, "gridtree: %s: %d one-way links left out of the index (give --links to the queries)\n", path,
		        one_way);
	free(ids);
	gtNav_Destroy(nav);
	if (!ok) {
		free(*out);
		*out = NULL;
	}
	return ok;
}
