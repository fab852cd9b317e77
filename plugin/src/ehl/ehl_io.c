// EHL index files: header, aligned sections, CRC-32C trailer (see gt_ehl.h for the guarantees).
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/crc32c.h"
#include "core/platform.h"
#include "core/save_file.h"
#include "ehl/ehl_layout.h"
#include "ehl/ehl_links.h"
#include "core/status.h"

#define EHL_MAGIC "GTEHL\0\r\n"
#define EHL_VERSION 2u // 2: an index that knows links (header `links`, one more section); 1 otherwise

typedef struct FileHeader {
	char magic[8];
	uint32_t version, header_size;
	uint64_t map_fingerprint;
	uint32_t map_width, map_height, cell_size, vertices;
	uint64_t label_count, cell_count, hub_count, via_count;
	uint32_t flags, links; // links: version 2 only (0 in version 1 files)
} FileHeader;

_Static_assert(sizeof(FileHeader) == 80, "the header layout is part of the file format");
_Static_assert(sizeof(gtEhlHub) == 8, "hub entries are stored as they are in memory");
_Static_assert(sizeof(gtEhlViaLabel) == 6, "via labels are stored as they are in memory");

typedef struct Section {
	void** pointer;
	uint64_t bytes;
} Section;

static uint64_t align8(uint64_t v)
{
	return (v + 7) & ~(uint64_t)7;
}

// The sections in file order; sizes from the header counts (which the caller has bounded).
#define SECTIONS 9

static int sections(gtEhl* e, Section out[SECTIONS])
{
	uint64_t n = (uint64_t)e->n, labels = (uint64_t)e->label_count;
	Section list[SECTIONS] = {
	    {(void**)&e->label_offset, (n + 1) * 4},
	    {(void**)&e->label_hub, labels * 2},
	    {(void**)&e->label_parent, labels * 2},
	    {(void**)&e->label_dist, labels * 8},
	    {(void**)&e->vertex_of, n * 2},
	    {(void**)&e->cell_begin, ((uint64_t)e->cell_count + 1) * 4},
	    {(void**)&e->hubs, (uint64_t)e->hub_count * sizeof(gtEhlHub)},
	    {(void**)&e->vias, (uint64_t)e->via_count * sizeof(gtEhlViaLabel)},
	    {(void**)&e->links, (uint64_t)e->link_count * sizeof(gtEhlLink)},
	};
	memcpy(out, list, sizeof list);
	return e->link_count > 0 ? SECTIONS : SECTIONS - 1; // an index without links writes version 1
}

static bool host_is_little_endian(void)
{
	uint16_t probe = 1;
	unsigned char first;
	memcpy(&first, &probe, 1);
	return first == 1;
}

static bool write_block(FILE* f, const void* data, uint64_t bytes, uint32_t* crc)
{
	static const unsigned char zeros[8];
	*crc = gt_crc32c(*crc, data, (size_t)bytes);
	if (bytes && fwrite(data, 1, (size_t)bytes, f) != bytes) return false;
	uint64_t pad = align8(bytes) - bytes;
	*crc = gt_crc32c(*crc, zeros, (size_t)pad);
	return pad == 0 || fwrite(zeros, 1, (size_t)pad, f) == pad;
}

static bool write_ehl(FILE* f, void* context)
{
	const gtEhl* ehl = context;
	FileHeader h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, EHL_MAGIC, 8);
	h.version = ehl->link_count > 0 ? EHL_VERSION : 1; // older readers still read a plain index
	h.links = (uint32_t)ehl->link_count;
	h.header_size = sizeof h;
	h.map_fingerprint = gtMap_Fingerprint(ehl->map);
	h.map_width = (uint32_t)gtMap_Width(ehl->map);
	h.map_height = (uint32_t)gtMap_Height(ehl->map);
	h.cell_size = (uint32_t)ehl->g;
	h.vertices = (uint32_t)ehl->n;
	h.label_count = (uint64_t)ehl->label_count;
	h.cell_count = (uint64_t)ehl->cell_count;
	h.hub_count = (uint64_t)ehl->hub_count;
	h.via_count = (uint64_t)ehl->via_count;
	uint32_t crc = 0;
	bool ok = write_block(f, &h, sizeof h, &crc);
	Section list[SECTIONS];
	int count = sections((gtEhl*)ehl, list);
	for (int i = 0; i < count && ok; i++) ok = write_block(f, *list[i].pointer, list[i].bytes, &crc);
	uint32_t trailer[2] = {crc, 0};
	return ok && fwrite(trailer, 1, sizeof trailer, f) == sizeof trailer;
}

gtStatus gtEhl_Save(const gtEhl* ehl, const char* path, gtError* err)
{
	if (!host_is_little_endian()) return gt_fail(err, GT_ERR_IO, "index files are little-endian; this host is not");
	return gt_save_file(path, write_ehl, (void*)ehl, err);
}

// Every index and count the query, path and inspection code rely on, so that even a forged file
// whose checksum matches cannot make them read out of bounds or loop. The checks run in dependency
// order: an offset array is proven monotone and within its target's count in a pass of its own
// before any element is read through it. What passes may still give wrong distances (a smaller
// label distance is structurally fine); gtEhl_Verify is the check for that.
static const char* validate(const gtEhl* e)
{
	uint32_t n = (uint32_t)e->n;
	// 1. Label offsets alone: 0, monotone, label_count, so every vertex's entry range is in bounds.
	if (e->label_offset[0] != 0 || e->label_offset[n] != (uint64_t)e->label_count) return "label offsets";
	for (uint32_t v = 0; v < n; v++)
		if (e->label_offset[v] > e->label_offset[v + 1]) return "label offsets";
	// 2. Label entries: ids below n; hub ranks strictly increasing per vertex (lookups binary-search).
	for (uint32_t v = 0; v < n; v++) {
		uint32_t lo = e->label_offset[v], hi = e->label_offset[v + 1];
		for (uint32_t k = lo; k < hi; k++) {
			if (e->label_hub[k] >= n || e->label_parent[k] >= n) return "label entries";
			if (k > lo && e->label_hub[k] <= e->label_hub[k - 1]) return "label order";
			if (!(e->label_dist[k] >= 0) || isinf(e->label_dist[k])) return "label distances";
		}
	}
	// 3. Hub rank -> vertex is a permutation (8 KB of bits on the stack: n is at most 65,535).
	uint64_t seen[(GT_EHL_MAX_VERTICES + 64) / 64] = {0};
	for (uint32_t r = 0; r < n; r++) {
		uint32_t v = e->vertex_of[r];
		if (v >= n || (seen[v / 64] >> (v % 64) & 1)) return "vertex order";
		seen[v / 64] |= (uint64_t)1 << (v % 64);
	}
	// 4. Cell offsets alone: from 0 to the final entry, every list holding at least its sentinel.
	if (e->cell_begin[0] != 0 || (uint64_t)e->cell_begin[e->cell_count] + 1 != (uint64_t)e->hub_count)
		return "cell offsets";
	for (int64_t c = 0; c < e->cell_count; c++)
		if (e->cell_begin[c] >= e->cell_begin[c + 1]) return "cell offsets";
	// 5. Hub entries, as one flat pass (hubs and vias are most of the file, and per-list loops of a
	// few entries cost a mispredicted branch each). A rank below n is followed by a larger one in
	// its list; a sentinel owns no vias; via offsets run from 0 to via_count.
	const gtEhlHub* hubs = e->hubs;
	int64_t last = e->hub_count - 1, sentinels = 0;
	if (hubs[0].via_begin != 0 || hubs[last].via_begin != (uint64_t)e->via_count || hubs[last].hub != n)
		return "via offsets";
	bool bad_rank = false, bad_via = false, bad_bound = false;
	for (int64_t i = 0; i < last; i++) {
		uint32_t rank = hubs[i].hub, first = hubs[i].via_begin, next = hubs[i + 1].via_begin;
		bool sentinel = rank == n;
		sentinels += sentinel;
		bad_rank |= (rank > n) | (!sentinel & (hubs[i + 1].hub <= rank));
		bad_via |= (first > next) | (sentinel & (first != next));
		bad_bound |= (hubs[i].lower_bound & 0x7FFF) > 0x7C00; // NaN: above infinity, either sign
	}
	// Sentinels exactly at the cell ends: each list is ranks below n, increasing, then n, so a
	// query's walk over a list stops at its sentinel, and every rank indexes arrays of n + 1.
	if (bad_rank || sentinels != e->cell_count) return "cell hub lists";
	for (int64_t c = 1; c <= e->cell_count; c++)
		if (hubs[e->cell_begin[c] - 1].hub != n) return "cell hub lists";
	if (bad_via) return "via offsets";
	if (bad_bound) return "hub lower bounds";
	// 6. Vias: vertex ids below n; finite distances (bits from 0x7F800000 on are infinity or NaN).
	bool bad = false;
	for (int64_t k = 0; k < e->via_count; k++) {
		uint32_t bits;
		memcpy(&bits, e->vias[k].low, sizeof bits);
		bad |= (e->vias[k].vertex >= n) | ((bits & 0x7FFFFFFFu) >= 0x7F800000u); // sign: the FULL flag
	}
	if (bad) return "via labels";
	return NULL;
}

// Points the sections into the mapped file from `at` on and validates them; the links (their ends
// become vertices after the corners) are copied out: e->links is always the index's own memory.
static gtStatus place_sections(gtEhl* e, char* at, const Section* list, int count, const char* path, gtError* err)
{
	for (int i = 0; i < count; i++) {
		*list[i].pointer = at;
		at += align8(list[i].bytes);
	}
	const gtEhlLink* stored_links = e->links;
	e->links = NULL;
	const char* broken = validate(e);
	if (broken) return gt_fail(err, GT_ERR_FORMAT, "%s: corrupted (%s are inconsistent)", path, broken);
	gtError why;
	gtStatus st = gt_ehl_take_links(e, stored_links, e->link_count, &why);
	return st ? gt_fail(err, st, "%s: %s", path, why.message) : GT_OK;
}

// The file is mapped read-only rather than read into fresh memory: loading then costs the
// checksum and validation passes over pages the kernel already holds, with no copy.
gtStatus gtEhl_Load(const gtMap* map, const char* path, gtEhl** out, gtError* err)
{
	*out = NULL;
	if (!host_is_little_endian()) return gt_fail(err, GT_ERR_IO, "index files are little-endian; this host is not");
	int fd = open(path, O_RDONLY);
	if (fd < 0) return gt_fail(err, GT_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	struct stat info;
	if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
		close(fd);
		return gt_fail(err, GT_ERR_IO, "%s: not a regular file", path);
	}
	uint64_t size = (uint64_t)info.st_size;
	if (size < sizeof(FileHeader) + 8 || size > SIZE_MAX / 2) {
		close(fd);
		return gt_fail(err, GT_ERR_FORMAT, "%s: %" PRIu64 " bytes is not the size of an EHL index", path, size);
	}
	void* mapping = gt_map_file(fd, (size_t)size);
	int map_errno = errno;
	close(fd);
	if (!mapping) return gt_fail(err, GT_ERR_IO, "%s: cannot map: %s", path, strerror(map_errno));
	gtEhl* e = gt_calloc(1, sizeof *e);
	if (!e) {
		gt_unmap_file(mapping, (size_t)size);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	}
	e->mapping = mapping;
	e->mapping_bytes = (size_t)size;
	gtStatus st = GT_OK;
	FileHeader h;
	memcpy(&h, mapping, sizeof h);
	int vertices;
	gtMap_Vertices(map, &vertices);
	if (memcmp(h.magic, EHL_MAGIC, 8) != 0) {
		st = gt_fail(err, GT_ERR_FORMAT, "%s: not a gridtree EHL index (bad magic number)", path);
	} else if (h.version > EHL_VERSION) {
		st = gt_fail(err, GT_ERR_FORMAT,
		             "%s: index format version %u is newer than this gridtree (reads up to %u); rebuild it", path,
		             h.version, EHL_VERSION);
	} else if (h.version < 1 || h.header_size != sizeof h || (h.version == 1 && h.links != 0)) {
		st = gt_fail(err, GT_ERR_FORMAT, "%s: unsupported index format version %u", path, h.version);
	} else if (h.vertices > GT_EHL_MAX_VERTICES || h.links > GT_EHL_MAX_LINKS) {
		st = gt_fail(err, GT_ERR_FORMAT, "%s: corrupted (vertex count %u)", path, h.vertices);
	} else if (h.map_fingerprint != gtMap_Fingerprint(map) || h.map_width != (uint32_t)gtMap_Width(map) ||
	           h.map_height != (uint32_t)gtMap_Height(map) || h.vertices != (uint32_t)vertices + 2 * h.links) {
		st = gt_fail(err, GT_ERR_FORMAT,
		             "%s: index was built for another map (%ux%u, fingerprint %016" PRIx64
		             ", this map %dx%d, %016" PRIx64 ")",
		             path, h.map_width, h.map_height, h.map_fingerprint, gtMap_Width(map), gtMap_Height(map),
		             gtMap_Fingerprint(map));
	}
	e->map = map;
	e->vertices = gtMap_Vertices(map, &e->corners);
	e->link_count = st ? 0 : (int)h.links;
	e->n = e->corners + 2 * e->link_count;
	e->g = (int)h.cell_size;
	e->label_count = (int64_t)h.label_count;
	e->cell_count = (int64_t)h.cell_count;
	e->hub_count = (int64_t)h.hub_count;
	e->via_count = (int64_t)h.via_count;
	Section list[SECTIONS];
	int count = sections(e, list);
	if (!st) {
		// Bound every count by the file size before multiplying, then demand the exact size.
		uint64_t expected = sizeof h + 8;
		bool plausible = h.cell_size >= 1 && h.cell_size <= 4096 && h.label_count < size && h.cell_count < size &&
		                 h.hub_count < size && h.via_count < size && h.hub_count >= 1;
		if (plausible) {
			for (int i = 0; i < count; i++) expected += align8(list[i].bytes);
			e->columns = (int)((h.map_width + h.cell_size - 1) / h.cell_size);
			e->rows = (int)((h.map_height + h.cell_size - 1) / h.cell_size);
			plausible = (int64_t)e->columns * e->rows == e->cell_count;
		}
		if (!plausible || expected != size)
			st = gt_fail(err, GT_ERR_FORMAT, "%s: truncated or corrupted (size %" PRIu64 " does not match its header)",
			             path, size);
	}
	if (!st) {
		uint32_t trailer[2];
		memcpy(trailer, (const char*)mapping + size - 8, sizeof trailer);
		if (gt_crc32c(0, mapping, (size_t)(size - 8)) != trailer[0] || trailer[1] != 0)
			st = gt_fail(err, GT_ERR_FORMAT, "%s: corrupted (checksum mismatch)", path);
	}
	if (!st) st = place_sections(e, (char*)mapping + sizeof h, list, count, path, err);
	if (st) {
		gtEhl_Destroy(e);
		return st;
	}
	memset(&e->stats, 0, sizeof e->stats);
	gt_ehl_count_stats(e);
	e->stats.label_entries = e->label_count; // a saved index holds only the useful entries
	*out = e;
	return GT_OK;
}
