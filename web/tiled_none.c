// The browser build has no cJSON, expat, zlib or zstd: these readers of Tiled files (otherwise in
// plugin/src/tiled/tiled_{tmj,tmx,data}.c) refuse with a message, so gridtree.load_map of a .tmx
// or .tmj says why instead of the page failing to link. MovingAI maps load as everywhere.
#include "tiled/tiled_doc.h"

static bool refuse(TiledDoc* d, const char* path)
{
	return tiled_fail(d, GT_ERR_FORMAT, "%s: Tiled files are not supported in the browser build", path);
}

bool tiled_read_tmx(TiledDoc* d, const char* text, size_t length)
{
	(void)text, (void)length;
	return refuse(d, d->path);
}

bool tiled_read_tmj(TiledDoc* d, const char* text, size_t length)
{
	(void)text, (void)length;
	return refuse(d, d->path);
}

bool tiled_read_tsx(TiledDoc* d, const char* path, const char* text, size_t length)
{
	(void)text, (void)length;
	return refuse(d, path);
}

bool tiled_read_tsj(TiledDoc* d, const char* path, const char* text, size_t length)
{
	(void)text, (void)length;
	return refuse(d, path);
}

int64_t tiled_read_template(TiledDoc* d, const char* from, const char* source)
{
	(void)source;
	refuse(d, from);
	return -1;
}

bool tiled_decode(TiledDoc* d, TiledChunk* c, const char* encoding, const char* compression, const char* text,
                  size_t length)
{
	(void)c, (void)encoding, (void)compression, (void)text, (void)length;
	return refuse(d, d->path);
}
