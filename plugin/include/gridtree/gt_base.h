/// @file gt_base.h
/// Version, status codes, the error record every fallible gridtree call fills, named limits, and
/// the platform seams: the allocator hook and the task interface.
///
/// Contents
///     Version         gtVersionString
///     Named limits    GT_MAP_MAX_SIDE, GT_MAX_THREADS, ...
///     Status          gtStatus, gtError, gtError_Set, gtVec2
///     Allocator hook  gtSetAllocator, gtGetByteCount
///     Task interface  gtTaskSystem
///     Clock           gtNowSeconds
#ifndef GRIDTREE_GT_BASE_H
#define GRIDTREE_GT_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Version

#define GT_VERSION_MAJOR 0
#define GT_VERSION_MINOR 1
#define GT_VERSION_PATCH 0

/// "gridtree MAJOR.MINOR.PATCH"
const char* gtVersionString(void);

//------------------------------------------------------------------------------------------------
// Named limits: every layer (C, CLI, Lua) checks against these.

/// Largest accepted map width or height, and largest accepted cell count.
#define GT_MAP_MAX_SIDE 65535
#define GT_MAP_MAX_CELLS (1u << 28)
/// Largest EHL cell side g, in map cells.
#define GT_EHL_MAX_CELL_SIZE 4096
/// Most worker threads a build uses (0 means gtSetTasks's count: one per online core unless set).
#define GT_MAX_THREADS 256
/// Largest Grid Tree leaf side m, in map cells.
#define GT_WORLD_MAX_LEAF_SIZE 65536
/// Longest keyword in bytes.
#define GT_KEYWORD_MAX_BYTES 64

//------------------------------------------------------------------------------------------------
// Status

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

/// Fills err (when non-NULL) with a printf-formatted message and the status, and returns the status:
/// `return gtError_Set(err, GT_ERR_FORMAT, "%s:%d: ...", path, line);`. For hosts and tools that
/// report in the library's style.
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
gtStatus
gtError_Set(gtError* err, gtStatus status, const char* fmt, ...);

/// A point of the plane. Cell (cx, cy) is the square [cx, cx+1] x [cy, cy+1]; y grows down the file.
typedef struct gtVec2 {
	double x, y;
} gtVec2;

//------------------------------------------------------------------------------------------------
// Allocator hook

/// One function for every allocation, with the signature of Lua's lua_Alloc: `ptr` NULL asks for
/// a new block of `new_size` bytes; `new_size` 0 frees `ptr` (return NULL); otherwise resize `ptr`
/// (allocated with `old_size` bytes) keeping its contents. Returning NULL for a non-zero size means
/// out of memory, which gridtree reports as GT_ERR_NOMEM. Builds call it from several worker
/// threads at once: like malloc, it must be thread-safe.
typedef void* gtAllocFcn(void* user, void* ptr, size_t old_size, size_t new_size);

/// Routes every allocation gridtree makes through `fcn` (NULL restores malloc/realloc/free).
/// Call it before creating any gridtree object, or while none is alive: a block is always freed by
/// the allocator that made it.
void gtSetAllocator(gtAllocFcn* fcn, void* user);

/// Bytes gridtree currently holds from the allocator (all threads); 0 once every object is destroyed.
int64_t gtGetByteCount(void);

//------------------------------------------------------------------------------------------------
// Task interface (how builds and batch work run in parallel)

/// A unit of parallel work: called once for every `index` in [0, count). Each call pulls items
/// from shared work queues, so any schedule (all at once, one after another) gives the same result.
typedef void gtTaskFcn(void* task_context, int index);

/// A host's job system: `enqueue` starts task(task_context, i) for every i in [0, count) and
/// returns a handle (may be NULL); `finish` returns once all of them have run. A system that runs
/// everything inside `enqueue` is valid. Leave it zeroed to use gridtree's built-in pool.
typedef struct gtTaskSystem {
	void* (*enqueue)(gtTaskFcn* task, void* task_context, int count, void* user);
	void (*finish)(void* handle, void* user);
	void* user;
} gtTaskSystem;

/// The one task setting every part honours (index builds, the oracle, the nav's rebuilds, crowds):
/// the host's job system (`system` NULL or zeroed: gridtree's built-in pool; the struct is copied)
/// and the workers a part uses where its def or call says 0 threads (`threads` 0: one per online
/// core). A def's own `tasks` or `threads`, when set, win for that part. Call it while no gridtree
/// work runs, like gtSetAllocator.
void gtSetTasks(const gtTaskSystem* system, int threads);

//------------------------------------------------------------------------------------------------
// Clock

/// Seconds on a monotonic clock (for timing; the origin is unspecified).
double gtNowSeconds(void);

#ifdef __cplusplus
}
#endif

#endif
