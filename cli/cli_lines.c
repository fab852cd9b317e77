// The line files the CLI reads (--edits, --links): one entry per line, blank lines and # comments
// skipped, problems reported as "FILE:LINE: problem" by the caller's line function.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

bool cli_each_line(const char* path, CliLineFcn* fcn, void* user)
{
	FILE* f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "gridtree: %s: cannot open: %s\n", path, strerror(errno));
		return false;
	}
	char line[512];
	bool ok = true;
	for (int number = 1; ok && fgets(line, sizeof line, f); number++) {
		const char* start = line;
		while (*start == ' ' || *start == '\t') start++;
		if (*start == '\n' || *start == '\r' || *start == '#' || *start == '\0') continue;
		ok = fcn(user, path, number, start);
	}
	fclose(f);
	return ok;
}
