// What one load may cost, checked before the memory is taken: a small file must not make the
// library allocate gigabytes (a zstd layer claiming 16384x16384 cells is 44 KB).
#include "core/status.h"
#include "tiled/tiled_doc.h"

// 16M tile ids are 64 MiB; a level of 4096x4096 cells fits.
#define DEFAULT_CELLS ((int64_t)1 << 24)
#define DEFAULT_DECOMPRESSED ((int64_t)64 << 20)
#define DEFAULT_FILE_BYTES ((int64_t)32 << 20)
#define DEFAULT_OBJECTS ((int64_t)100000)
#define DEFAULT_TILESETS ((int64_t)4096)

TiledLimits tiled_limits(const gtTiledDef* def)
{
	TiledLimits l = {def->max_cells > 0 ? def->max_cells : DEFAULT_CELLS,
	                 def->max_decompressed_bytes > 0 ? def->max_decompressed_bytes : DEFAULT_DECOMPRESSED,
	                 def->max_file_bytes > 0 ? def->max_file_bytes : DEFAULT_FILE_BYTES,
	                 def->max_objects > 0 ? def->max_objects : DEFAULT_OBJECTS,
	                 def->max_tilesets > 0 ? def->max_tilesets : DEFAULT_TILESETS};
	return l;
}

bool tiled_limit_cells(TiledDoc* d, const char* layer, int64_t cells)
{
	if (cells <= d->limits.cells - d->cells_read) return true;
	return tiled_fail(
	    d, GT_ERR_LIMIT,
	    "%s: layer '%s' brings the tiles read to %lld, above max_cells = %lld (raise max_cells to load this level)",
	    d->path, layer, (long long)(d->cells_read + cells), (long long)d->limits.cells);
}

bool tiled_limit_decompressed(TiledDoc* d, uint64_t bytes)
{
	if (bytes <= (uint64_t)(d->limits.decompressed_bytes - d->decompressed)) {
		d->decompressed += (int64_t)bytes;
		return true;
	}
	return tiled_fail(d, GT_ERR_LIMIT,
	                  "%s: compressed tile data of %llu more bytes is above max_decompressed_bytes = %lld (raise "
	                  "max_decompressed_bytes to load this level)",
	                  d->path, (unsigned long long)bytes, (long long)d->limits.decompressed_bytes);
}

bool tiled_limit_file(TiledDoc* d, const char* path, uint64_t bytes)
{
	if (bytes <= (uint64_t)d->limits.file_bytes) return true;
	return tiled_fail(d, GT_ERR_LIMIT,
	                  "%s: %llu bytes is above max_file_bytes = %lld (raise max_file_bytes to load it)", path,
	                  (unsigned long long)bytes, (long long)d->limits.file_bytes);
}

bool tiled_limit_objects(TiledDoc* d, int64_t objects)
{
	if (objects <= d->limits.objects - d->weight) {
		d->weight += objects;
		return true;
	}
	return tiled_fail(
	    d, GT_ERR_LIMIT,
	    "%s: more than max_objects = %lld objects, tiles with properties, collision shapes and polygon points / 16 "
	    "(raise max_objects to load this level)",
	    d->path, (long long)d->limits.objects);
}
