// POSIX and Linux specifics in one place; every probe degrades to a neutral answer elsewhere.
#define _DEFAULT_SOURCE // madvise's Linux advice (MADV_HUGEPAGE) beside POSIX
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/task.h"
#include "core/platform.h"
#include "core/status.h"
#include "gridtree/gt_base.h"

double gtNowSeconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double gt_thread_cpu_seconds(void)
{
#if defined(CLOCK_THREAD_CPUTIME_ID)
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
	return gtNowSeconds();
}

void gt_thread_lower_priority(int steps)
{
#if defined(__linux__)
	errno = 0;
	// PRIO_PROCESS 0: on Linux the calling thread alone (POSIX would say the process).
	int now = getpriority(PRIO_PROCESS, 0);
	if (errno == 0) (void)setpriority(PRIO_PROCESS, 0, now + steps); // refused (a limit): as it was
#else
	(void)steps;
#endif
}

int gt_resolve_threads(int requested)
{
	if (requested <= 0) requested = gt_task_threads(); // gtSetTasks's, when set
	if (requested > 0) return requested > GT_MAX_THREADS ? GT_MAX_THREADS : requested;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	return cores < 1 ? 1 : cores > GT_MAX_THREADS ? GT_MAX_THREADS : (int)cores;
}

// The value of a "Key: N kB" line of a /proc file, in MB; `fallback` when absent.
static double proc_kb_field(const char* path, const char* key, double fallback)
{
	FILE* f = fopen(path, "r");
	if (!f) return fallback;
	char line[256];
	size_t key_length = strlen(key);
	double mb = fallback;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, key_length) == 0) mb = atof(line + key_length) / 1024.0;
	fclose(f);
	return mb;
}

double gt_peak_rss_mb(void)
{
	return proc_kb_field("/proc/self/status", "VmHWM:", 0);
}

double gt_rss_bytes(void)
{
	// statm through a stack buffer: a FILE's buffer from the heap would itself move the peak it is
	// asked about (a build's later blocks land around the hole it leaves).
	int fd = open("/proc/self/statm", O_RDONLY);
	if (fd < 0) return 0;
	char text[128];
	ssize_t got = read(fd, text, sizeof text - 1);
	close(fd);
	if (got <= 0) return 0;
	text[got] = 0;
	unsigned long long size = 0, resident = 0;
	if (sscanf(text, "%llu %llu", &size, &resident) != 2) return 0;
	return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

double gt_available_memory_mb(void)
{
	return proc_kb_field("/proc/meminfo", "MemAvailable:", INFINITY);
}

// The first line of `dir`/index`i`/`name`, trimmed; false when it cannot be read.
static bool cache_field(const char* dir, int i, const char* name, char* out, size_t room)
{
	char path[512];
	snprintf(path, sizeof path, "%s/index%d/%s", dir, i, name);
	FILE* f = fopen(path, "r");
	if (!f) return false;
	bool got = fgets(out, (int)room, f) != NULL;
	fclose(f);
	if (got) out[strcspn(out, "\r\n")] = 0;
	return got;
}

int64_t gt_cache_bytes(const char* dir, int level)
{
	// index0..: one a cache of cpu0 (level, type, size as "512K"); the instruction cache is left out.
	for (int i = 0; i < 16; i++) {
		char text[64];
		if (!cache_field(dir, i, "level", text, sizeof text)) continue;
		if (atoi(text) != level || !cache_field(dir, i, "type", text, sizeof text) ||
		    strcmp(text, "Instruction") == 0 || !cache_field(dir, i, "size", text, sizeof text))
			continue;
		char* unit;
		long long size = strtoll(text, &unit, 10);
		int shift = *unit == 'K' ? 10 : *unit == 'M' ? 20 : *unit == 'G' ? 30 : 0;
		if (size > 0 && size < (INT64_C(1) << 32)) return (int64_t)size << shift;
	}
	return 0;
}

int64_t gt_l2_cache_bytes(void)
{
	int64_t bytes = gt_cache_bytes("/sys/devices/system/cpu/cpu0/cache", 2);
#ifdef _SC_LEVEL2_CACHE_SIZE
	if (bytes <= 0) bytes = sysconf(_SC_LEVEL2_CACHE_SIZE); // glibc's own probe (cpuid on x86)
#endif
	return bytes > 0 ? bytes : 0;
}

void* gt_map_file(int fd, size_t bytes)
{
	int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
	flags |= MAP_POPULATE;
#endif
	void* mapping = mmap(NULL, bytes, PROT_READ, flags, fd, 0);
	return mapping == MAP_FAILED ? NULL : mapping;
}

void gt_advise_huge_pages(void* block, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	enum { HUGE = 2 << 20 };
	uintptr_t from = ((uintptr_t)block + HUGE - 1) & ~(uintptr_t)(HUGE - 1),
	          to = ((uintptr_t)block + bytes) & ~(uintptr_t)(HUGE - 1);
	if (to > from) (void)madvise((void*)from, to - from, MADV_HUGEPAGE); // advice only: a refusal changes nothing
#else
	(void)block, (void)bytes;
#endif
}

void gt_unmap_file(void* mapping, size_t bytes)
{
	if (mapping) munmap(mapping, bytes);
}

gtStatus gt_read_file(const char* path, size_t max_bytes, const char* kind, char** text, size_t* size, gtError* err)
{
	*text = NULL;
	*size = 0;
	FILE* f = fopen(path, "rb");
	if (!f) return gt_fail(err, GT_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	struct stat info;
	if (fstat(fileno(f), &info) != 0 || !S_ISREG(info.st_mode)) {
		fclose(f);
		return gt_fail(err, GT_ERR_IO, "%s: not a regular file", path);
	}
	long long bytes = (long long)info.st_size;
	if ((unsigned long long)bytes > max_bytes) {
		fclose(f);
		return gt_fail(err, GT_ERR_LIMIT, "%s: %lld bytes is larger than any accepted %s", path, bytes, kind);
	}
	char* buffer = gt_malloc((size_t)bytes + 1);
	if (!buffer) {
		fclose(f);
		return gt_fail(err, GT_ERR_NOMEM, "%s: out of memory reading %lld bytes", path, bytes);
	}
	size_t got = fread(buffer, 1, (size_t)bytes, f);
	int failed = ferror(f);
	fclose(f);
	if (failed || got != (size_t)bytes) {
		gt_free(buffer);
		return gt_fail(err, GT_ERR_IO, "%s: read error", path);
	}
	buffer[got] = 0;
	*text = buffer;
	*size = got;
	return GT_OK;
}

gtStatus gt_load_file(const char* path, size_t max_bytes, const char* kind, gtParseTextFcn* parse, void* out,
                      gtError* err)
{
	char* text;
	size_t size;
	gtStatus st = gt_read_file(path, max_bytes, kind, &text, &size, err);
	if (st) return st;
	st = parse(text, size, path, out, err);
	gt_free(text);
	return st;
}
