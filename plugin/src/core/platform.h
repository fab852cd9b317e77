// Operating-system services: cores, memory probes and read-only file mappings. Internal.
#ifndef GRIDTREE_CORE_PLATFORM_H
#define GRIDTREE_CORE_PLATFORM_H

#include <stddef.h>

// Worker count for a request: 0 means one per online core; capped at GT_MAX_THREADS.
int gt_resolve_threads(int requested);

// Process peak resident memory in MB (Linux /proc; 0 elsewhere).
double gt_peak_rss_mb(void);

// Memory the system can still give without swapping, in MB (+infinity when unknown).
double gt_available_memory_mb(void);

// Maps a whole file read-only (pages prefetched). NULL with errno set on failure.
void* gt_map_file(int fd, size_t bytes);
void gt_unmap_file(void* mapping, size_t bytes);

#endif
