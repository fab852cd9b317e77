// Fuzz target: Polyanya mesh text (gtMesh_Parse). A mesh that parses is located into at points
// from the input's own bytes, on its vertices and between them.
#include <stdint.h>
#include <stdlib.h>

#include "gridtree/gridtree.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	gtMesh* mesh = NULL;
	gtError err;
	if (gtMesh_Parse((const char*)data, size, "fuzz.mesh", &mesh, &err) != GT_OK) return 0;
	volatile int64_t sink = gtMesh_Bytes(mesh);
	int n = gtMesh_VertexCount(mesh);
	for (int i = 0; i < n && i < 64; i++) {
		gtVec2 a = gtMesh_Vertex(mesh, i), b = gtMesh_Vertex(mesh, (i * 7 + 3) % n);
		gtVec2 mid = {(a.x + b.x) / 2, (a.y + b.y) / 2};
		sink += gtMesh_Locate(mesh, a).place + gtMesh_Locate(mesh, mid).place;
	}
	for (size_t i = 0; i + 1 < size && i < 32; i += 2) {
		gtVec2 p = {(double)data[i] / 8.0, (double)data[i + 1] / 8.0};
		sink += gtMesh_Locate(mesh, p).polygon;
	}
	for (int p = 0; p < gtMesh_PolygonCount(mesh) && p < 64; p++) {
		const int32_t *v, *q;
		sink += gtMesh_Polygon(mesh, p, &v, &q);
	}
	(void)sink;
	gtMesh_Destroy(mesh);
	return 0;
}
