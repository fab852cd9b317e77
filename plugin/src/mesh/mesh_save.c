// The `.mesh` writer (version 2, docs/algorithms.md 1.3).
#include <stdio.h>

#include "core/save_file.h"
#include "mesh/mesh_internal.h"

static bool write_mesh(FILE* f, void* context)
{
	const gtMesh* m = context;
	fprintf(f, "mesh\n2\n%d %d\n", m->vertex_count, m->polygon_count);
	for (int v = 0; v < m->vertex_count; v++) {
		fprintf(f, "%.17g %.17g %d", m->x[v], m->y[v], m->around_first[v + 1] - m->around_first[v]);
		for (int32_t i = m->around_first[v]; i < m->around_first[v + 1]; i++) fprintf(f, " %d", m->around[i]);
		fputc('\n', f);
	}
	for (int p = 0; p < m->polygon_count; p++) {
		fprintf(f, "%d", m->first[p + 1] - m->first[p]);
		for (int32_t i = m->first[p]; i < m->first[p + 1]; i++) fprintf(f, " %d", m->corner[i]);
		for (int32_t i = m->first[p]; i < m->first[p + 1]; i++) fprintf(f, " %d", m->across[i]);
		fputc('\n', f);
	}
	return true; // gt_save_file checks ferror
}

gtStatus gtMesh_Save(const gtMesh* m, const char* path, gtError* err)
{
	return gt_save_file(path, write_mesh, (void*)m, err);
}
