// The map and navigation backend behind dist, path, scen, knn and bench-knn: --method and --ehl
// become one gtNav, so the choice "index if loaded, else the oracle" is the library's, not ours.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

char cli_nav_methods[128];

void cli_nav_methods_init(void)
{
	gtNavMethod_Names(cli_nav_methods, (int)sizeof cli_nav_methods, "|");
}

// Applies an edits file: `block x0 y0 x1 y1` / `free x0 y0 x1 y1` lines (inclusive cell
// rectangles; blank lines and # comments skipped), in order. Prints "FILE:LINE: problem".
static bool apply_edit(void* nav, const char* path, int number, const char* text)
{
	char op[16], extra[2];
	int x0, y0, x1, y1;
	gtError err;
	if (sscanf(text, "%15s %d %d %d %d %1s", op, &x0, &y0, &x1, &y1, extra) != 5 ||
	    (strcmp(op, "block") != 0 && strcmp(op, "free") != 0)) {
		fprintf(stderr, "gridtree: %s:%d: expected 'block x0 y0 x1 y1' or 'free x0 y0 x1 y1'\n", path, number);
		return false;
	}
	if (gtNav_SetBlocked(nav, x0, y0, x1, y1, strcmp(op, "block") == 0, &err)) {
		fprintf(stderr, "gridtree: %s:%d: %s\n", path, number, err.message);
		return false;
	}
	return true;
}

static bool apply_edits(gtNav* nav, const char* path)
{
	return cli_each_line(path, apply_edit, nav);
}

int cli_nav_open(CliNav* s, const CliArgs* args, const char* command, const char* map_path, bool need_index)
{
	memset(s, 0, sizeof *s);
	long threads;
	if (!cli_int_option(args, command, "threads", 0, 0, GT_MAX_THREADS, &threads)) return CLI_USAGE;
	const char* ehl_path = cli_option(args, "ehl", NULL);
	gtNavMethod method = GT_NAV_AUTO;
	gtError err;
	const char* method_name = cli_option(args, "method", "auto");
	if (gtNavMethod_Parse(method_name, &method, &err)) {
		fprintf(stderr, "gridtree %s: unknown --method '%s' (available: %s)\n", command, method_name, cli_nav_methods);
		return CLI_USAGE;
	}
	unsigned caps = gtNavMethod_Caps(method);
	if (((caps & GT_NAV_CAP_NEEDS_INDEX) || need_index) && !ehl_path) {
		fprintf(stderr, "gridtree %s: %s%s needs --ehl FILE (build one with 'gridtree ehl-build')\n", command,
		        need_index ? "" : "--method ", need_index ? command : method_name);
		return CLI_USAGE;
	}
	const char* mesh_path = cli_option(args, "mesh", NULL);
	gtTiled* tiled = NULL; // a Tiled level's floors and link objects join the nav
	int opened = cli_open_map(args, command, map_path, &s->map, &tiled);
	if (opened) return opened;
	gtNavDef def = gtNav_DefaultDef();
	def.threads = (int)threads;
	def.manual_rebuild = true; // one run answers and exits: after walls are removed the oracle answers
	gtStatus st = gtNav_Create(s->map, &def, &s->nav, &err);
	if (!st && ehl_path && (caps & GT_NAV_CAP_USES_INDEX)) st = gtNav_LoadIndex(s->nav, ehl_path, &err);
	if (!st && (caps & GT_NAV_CAP_NEEDS_MESH)) { // without --mesh, one is made from the map
		gtMesh* mesh = NULL;
		st = mesh_path ? gtNav_LoadMesh(s->nav, mesh_path, &err) : gtMesh_FromMap(s->map, &mesh, &err);
		if (!st && mesh) st = gtNav_SetMesh(s->nav, mesh, &err);
	}
	if (!st) st = gtNav_SetMethod(s->nav, method, &err);
	if (!st && tiled) st = gtNav_AddTiledLinks(s->nav, tiled, NULL, &err);
	gtTiled_Destroy(tiled);
	const char* edits = cli_option(args, "edits", NULL);
	if (!st && edits && !apply_edits(s->nav, edits)) {
		cli_nav_close(s);
		return CLI_FAILED;
	}
	const char* links = cli_option(args, "links", NULL);
	if (!st && links && !cli_apply_links(s->nav, links)) {
		cli_nav_close(s);
		return CLI_FAILED;
	}
	if (!st) st = gtNavQuery_Create(s->nav, &s->query, &err);
	if (st) {
		fprintf(stderr, "gridtree: %s\n", err.message);
		cli_nav_close(s);
		return CLI_FAILED;
	}
	s->capacity = gtNav_PathCapacity(s->nav);
	return CLI_OK;
}

void cli_nav_close(CliNav* s)
{
	gtNavQuery_Destroy(s->query);
	gtNav_Destroy(s->nav);
	gtMap_Destroy(s->map);
	memset(s, 0, sizeof *s);
}
