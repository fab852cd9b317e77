// Operating-system services: cores, memory probes and read-only file mappings. Internal.
#ifndef GRIDTREE_CORE_PLATFORM_H
#define GRIDTREE_CORE_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gridtree/gt_base.h"

// Worker count for a request: 0 means one per online core; capped at GT_MAX_THREADS.
int gt_resolve_threads(int requested);

// The calling thread's CPU time in seconds (the monotonic clock where there is no thread clock):
// what a piece of work cost, which a loaded machine's wall clock hides behind other processes.
double gt_thread_cpu_seconds(void);

// Lowers the calling thread's scheduling priority (nice) by `steps` (Linux, where the nice value
// is per thread; threads it starts inherit it; nothing elsewhere, where it would be the process').
void gt_thread_lower_priority(int steps);

// Process peak resident memory in MB (Linux /proc; 0 elsewhere).
double gt_peak_rss_mb(void);

// Process resident memory now, in bytes (Linux /proc; 0 elsewhere).
double gt_rss_bytes(void);

// Memory the system can still give without swapping, in MB (+infinity when unknown).
double gt_available_memory_mb(void);

// Reads a whole regular file into a new buffer (NUL-terminated; free with gt_free). Errors name
// the path: cannot open, not a regular file, larger than `max_bytes` (an accepted `kind`), out of
// memory, read error.
gtStatus gt_read_file(const char* path, size_t max_bytes, const char* kind, char** text, size_t* size, gtError* err);

// What a format's _Parse does with a file's text (`out` is the caller's, e.g. a gtMap**).
typedef gtStatus gtParseTextFcn(const char* text, size_t size, const char* name, void* out, gtError* err);

// A format's _Load: reads the file whole (gt_read_file) and parses it, named by its path.
gtStatus gt_load_file(const char* path, size_t max_bytes, const char* kind, gtParseTextFcn* parse, void* out,
                      gtError* err);

// The size in bytes of cpu0's data (or unified) cache of `level` as Linux lists it under `dir`
// (/sys/devices/system/cpu/cpu0/cache: index*/level, type, size); 0 when not listed.
int64_t gt_cache_bytes(const char* dir, int level);
// The L2 cache of cpu0 (sysfs, else sysconf where it has it); 0 when unknown.
int64_t gt_l2_cache_bytes(void);
// Asks the system to back the 2 MB pages inside [block, block + bytes) with huge pages (Linux
// transparent huge pages, in "always" or "madvise" mode; nothing elsewhere). A fresh 4 KB page costs
// a fault when first written (~5 us each on the shared virtual machine): a repair of generated caves
// 384 writes ~110 MB of new index arrays, 27 K faults, 2 K once advised.
void gt_advise_huge_pages(void* block, size_t bytes);

// Maps a whole file read-only (pages prefetched). NULL with errno set on failure.
void* gt_map_file(int fd, size_t bytes);
void gt_unmap_file(void* mapping, size_t bytes);

#endif
