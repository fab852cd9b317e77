// gridtree mesh-build: a navigation mesh of the map's free space, written as a Polyanya .mesh.
#include <stdio.h>

#include "cli.h"

int cmd_mesh_build(int argc, char** argv)
{
	CliArgs args;
	if (!cli_parse(argc, argv, "mesh-build", "o" CLI_MAP_OPTIONS, &args)) return CLI_USAGE;
	const char* output = cli_option(&args, "o", NULL);
	if (!cli_usage_unless(args.positional_count == 1 && output, "mesh-build MAP -o FILE")) return CLI_USAGE;
	gtMap* map;
	int opened = cli_open_map(&args, "mesh-build", args.positional[0], &map, NULL);
	if (opened) return opened;
	gtError err;
	gtMesh* mesh = NULL;
	double start = gtNowSeconds();
	gtStatus st = gtMesh_FromMap(map, &mesh, &err);
	double took = gtNowSeconds() - start;
	if (!st) st = gtMesh_Save(mesh, output, &err);
	if (st) fprintf(stderr, "gridtree mesh-build: %s\n", err.message);
	else
		printf("file %s\nvertices %d\npolygons %d\nmesh_bytes %lld\nbuild_seconds %.3f\n", output, gtMesh_VertexCount(mesh),
		       gtMesh_PolygonCount(mesh), (long long)gtMesh_Bytes(mesh), took);
	gtMesh_Destroy(mesh);
	gtMap_Destroy(map);
	return st ? CLI_FAILED : CLI_OK;
}
