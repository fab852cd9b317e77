// gridtree mesh-build: a navigation mesh of the map's free space, written as a Polyanya .mesh.
#include <stdio.h>

#include "cli.h"

static int mesh_build(const CliArgs* args)
{
	const char* output = cli_option(args, "o", NULL);
	gtMap* map;
	int opened = cli_open_map(args, "mesh-build", args->positional[0], &map, NULL);
	if (opened) return opened;
	gtError err;
	gtMesh* mesh = NULL;
	double start = gtNowSeconds();
	gtStatus st = gtMesh_FromMap(map, &mesh, &err);
	double took = gtNowSeconds() - start;
	if (!st) st = gtMesh_Save(mesh, output, &err);
	if (st) fprintf(stderr, "gridtree mesh-build: %s\n", err.message);
	else
		printf("file %s\nvertices %d\npolygons %d\nmesh_bytes %lld\nbuild_seconds %.3f\n", output,
		       gtMesh_VertexCount(mesh), gtMesh_PolygonCount(mesh), (long long)gtMesh_Bytes(mesh), took);
	gtMesh_Destroy(mesh);
	gtMap_Destroy(map);
	return st ? CLI_FAILED : CLI_OK;
}

static const CliOption OPTIONS[] = {
    {"o", "FILE", NULL, true, "the Polyanya .mesh file to write"},
    {0},
};

const CliCommand cli_cmd_mesh_build = {
    "mesh-build", "MAP", "write a navigation mesh of the map (Polyanya .mesh)", NULL, OPTIONS, true, mesh_build,
};
