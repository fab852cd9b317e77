// Fuzz target: EHL index files (gtEhl_Load) for a fixed bundled map (assets/maps/small.map).
// Built twice: fuzz_ehl_raw loads the bytes as they are, so almost every mutation is stopped by
// the checksum; fuzz_ehl_crc (FUZZ_FIX_CRC=1) first recomputes the CRC-32C trailer of the mutated
// bytes, so what is tested is the structural validation behind the checksum, the part a forged
// file reaches. An index that loads answers a few distance and path queries, which read every
// section through the offsets the loader accepted.
//
// White-box: this harness includes the library's internal core/crc32c.h (plugin/src) to fix the
// trailer with the library's own CRC; the trailer layout (last 8 bytes: CRC-32C of everything
// before, then a zero word) is ehl_io.c's.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE // memfd_create
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/crc32c.h"
#include "gridtree/gridtree.h"

#ifndef FUZZ_FIX_CRC
#define FUZZ_FIX_CRC 0
#endif
#ifndef GT_FUZZ_EHL_MAP
#define GT_FUZZ_EHL_MAP "assets/maps/small.map"
#endif

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static const gtMap* map;
static int memfd = -1;
static char memfd_path[64];

// The map named by GRIDTREE_FUZZ_EHL_MAP, else the bundled map this binary was built for; the
// index in memory behind a memfd, so gtEhl_Load maps it like a file without touching the disk.
static void setup(void)
{
	const char* path = getenv("GRIDTREE_FUZZ_EHL_MAP");
	if (!path) path = GT_FUZZ_EHL_MAP;
	gtMap* m = NULL;
	gtError err;
	if (gtMap_Load(path, &m, &err) != GT_OK) {
		fprintf(stderr, "fuzz_ehl: %s\n", err.message);
		abort();
	}
	map = m;
	memfd = memfd_create("fuzz.ehl", 0);
	if (memfd < 0) {
		perror("fuzz_ehl: memfd_create");
		abort();
	}
	snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
}

static bool put_bytes(const uint8_t* data, size_t size)
{
	if (ftruncate(memfd, 0) != 0) return false;
	size_t done = 0;
	while (done < size) {
		ssize_t k = pwrite(memfd, data + done, size - done, (off_t)done);
		if (k <= 0) return false;
		done += (size_t)k;
	}
	return true;
}

// Distances and paths between the map's convex vertices and a few cell centres.
static void exercise(const gtEhl* ehl)
{
	gtEhlQuery* q = NULL;
	gtError err;
	if (gtEhlQuery_Create(ehl, &q, &err) != GT_OK) return;
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	gtVec2 pts[12];
	int count = 0;
	for (int i = 0; i < n && count < 8; i += 3) pts[count++] = (gtVec2){v[i].x, v[i].y};
	for (int i = 0; count < 12; i++) {
		gtVec2 p = {0.5 + (i * 7) % gtMap_Width(map), 0.5 + (i * 5) % gtMap_Height(map)};
		if (gtMap_CheckPoint(map, p) == GT_POINT_VALID) pts[count++] = p;
		if (i > 1000) break;
	}
	volatile double sink = (double)gtEhl_GetStats(ehl).hub_entries;
	gtVec2 path[64];
	for (int i = 0; i < count; i++)
		for (int j = i + 1; j < count; j += 2) {
			double d;
			int k;
			if (gtEhl_Distance(q, pts[i], pts[j], &d, &err) == GT_OK) sink += d;
			if (gtEhl_Path(q, pts[i], pts[j], path, 64, &k, &d, &err) == GT_OK) sink += k;
		}
	if (gtEhlQuery_SetSource(q, pts[0], &err) == GT_OK)
		for (int i = 1; i < count; i++) sink += gtEhlQuery_DistanceTo(q, pts[i]);
	(void)sink;
	gtEhlQuery_Destroy(q);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	if (!map) setup();
	const uint8_t* bytes = data;
	uint8_t* copy = NULL;
	if (FUZZ_FIX_CRC && size >= 8) {
		copy = malloc(size);
		if (!copy) return 0;
		memcpy(copy, data, size);
		uint32_t trailer[2] = {gt_crc32c(0, copy, size - 8), 0};
		memcpy(copy + size - 8, trailer, sizeof trailer);
		bytes = copy;
	}
	if (put_bytes(bytes, size)) {
		gtEhl* ehl = NULL;
		gtError err;
		if (gtEhl_Load(map, memfd_path, &ehl, &err) == GT_OK) {
			exercise(ehl);
			gtEhl_Destroy(ehl);
		}
	}
	free(copy);
	return 0;
}
