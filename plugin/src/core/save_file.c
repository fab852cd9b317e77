#include "core/save_file.h"

#include <errno.h>
#include <string.h>

#include "core/status.h"

gtStatus gt_save_file(const char* path, gtWriteContents* write, void* context, gtError* err)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
		return gt_fail(err, GT_ERR_INVALID_ARG, "path too long: %s", path);
	FILE* f = fopen(tmp, "wb");
	if (!f) return gt_fail(err, GT_ERR_IO, "%s: cannot create: %s", tmp, strerror(errno));
	bool ok = write(f, context);
	ok = !ferror(f) && ok;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		int cause = errno; // remove may set it too
		remove(tmp);
		return gt_fail(err, GT_ERR_IO, "%s: cannot write: %s", path, strerror(cause));
	}
	return GT_OK;
}
