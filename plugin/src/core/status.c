#include <stdarg.h>
#include <stdio.h>

#include "gridtree/gt_base.h"
#include "core/status.h"

const char* gtVersionString(void)
{
#define GT_STR2(x) #x
#define GT_STR(x) GT_STR2(x)
	return "gridtree " GT_STR(GT_VERSION_MAJOR) "." GT_STR(GT_VERSION_MINOR) "." GT_STR(GT_VERSION_PATCH);
}

const char* gtStatusName(gtStatus status)
{
	switch (status) {
	case GT_OK: return "ok";
	case GT_ERR_IO: return "io";
	case GT_ERR_FORMAT: return "format";
	case GT_ERR_NOMEM: return "out of memory";
	case GT_ERR_LIMIT: return "limit";
	case GT_ERR_INVALID_ARG: return "invalid argument";
	case GT_ERR_INVALID_POINT: return "invalid point";
	case GT_ERR_BUFFER_TOO_SMALL: return "buffer too small";
	}
	return "unknown status";
}

gtStatus gtError_Set(gtError* err, gtStatus status, const char* fmt, ...)
{
	if (err) {
		va_list args;
		va_start(args, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, args);
		va_end(args);
		err->status = status;
	}
	return status;
}
