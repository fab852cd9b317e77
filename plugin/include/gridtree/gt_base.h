/// @file gt_base.h
/// Version, status codes and the error record every fallible gridtree call fills.
#ifndef GRIDTREE_GT_BASE_H
#define GRIDTREE_GT_BASE_H

#include <stddef.h>
#include <stdint.h>

#define GT_VERSION_MAJOR 0
#define GT_VERSION_MINOR 1
#define GT_VERSION_PATCH 0

/// "gridtree MAJOR.MINOR.PATCH"
const char* gtVersionString(void);

/// Outcome of a fallible call. GT_OK is zero so `if (status)` reads as "failed".
typedef enum gtStatus {
	GT_OK = 0,
	GT_ERR_IO,              ///< a file could not be opened, read or written
	GT_ERR_FORMAT,          ///< a file's contents are malformed
	GT_ERR_NOMEM,           ///< an allocation failed
	GT_ERR_LIMIT,           ///< a size is beyond what gridtree accepts
	GT_ERR_INVALID_ARG,     ///< an argument is out of its documented range
	GT_ERR_INVALID_POINT,   ///< a point is not finite, off the map or inside a blocked cell
	GT_ERR_BUFFER_TOO_SMALL ///< the caller's output buffer cannot hold the result
} gtStatus;

/// Short lower-case name of a status ("ok", "io", "format", ...).
const char* gtStatusName(gtStatus status);

/// Filled by fallible calls when non-NULL; `message` names the file, line and problem.
typedef struct gtError {
	gtStatus status;
	char message[512];
} gtError;

/// A point of the plane. Cell (cx, cy) is the square [cx, cx+1] x [cy, cy+1]; y grows down the file.
typedef struct gtVec2 {
	double x, y;
} gtVec2;

#endif
