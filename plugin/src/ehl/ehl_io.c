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
// 3: 32-bit hub and vertex ids, float hub bounds, 24-bit via vertices (ehl_layout.h), links when the
// header counts some. 1 (plain) and 2 (with links): 16-bit ids and half-precision hub bounds,
// widened on load. 4: a region index (ehl_regions.h), version 3's sections then the region id of
// every grid cell; only region indexes are written as 4, so older readers still read the rest.
// 5: a compact region index (ehl_layout.h: cvias): version 4's sections with 2-byte vias, then
// the inverse labels (offsets, vertices, entries).
#define EHL_VERSION 5u
#define EHL_FLAG_REGIONS 1u
#define EHL_FLAG_COMPACT 2u

typedef struct FileHeader {
	char magic[8];
	uint32_t version, header_size;
	uint64_t map_fingerprint;
	uint32_t map_width, map_height, cell_size, vertices;
	uint64_t label_count, cell_count, hub_count, via_count;
	uint32_t flags, links; // links: version 2 only (0 in version 1 files)
} FileHeader;

_Static_assert(sizeof(FileHeader) == 80, "the header layout is part of the file format");
_Static_assert(sizeof(gtEhlHub) == 12, "hub entries are stored as they are in memory");
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
#define SECTIONS 13
#define SECTION_LINKS 8    // present when there are links or regions
#define SECTION_REGIONS 9  // present in a region index
#define SECTION_COMPACT 10 // the inverse labels: present in a compact index

static int sections(gtEhl* e, Section out[SECTIONS])
{
	uint64_t n = (uint64_t)e->n, labels = (uint64_t)e->label_count;
	bool compact = e->cvias != NULL;
	Section list[SECTIONS] = {
	    {(void**)&e->label_offset, (n + 1) * 4},
	    {(void**)&e->label_hub, labels * 4},
	    {(void**)&e->label_parent, labels * 4},
	    {(void**)&e->label_dist, labels * 8},
	    {(void**)&e->vertex_of, n * 4},
	    {(void**)&e->cell_begin, ((uint64_t)e->cell_count + 1) * 4},
	    {(void**)&e->hubs, (uint64_t)e->hub_count * sizeof(gtEhlHub)},
	    {compact ? (void**)&e->cvias : (void**)&e->vias,
	     (uint64_t)e->via_count * (compact ? sizeof(uint16_t) : sizeof(gtEhlViaLabel))},
	    {(void**)&e->links, (uint64_t)e->link_count * sizeof(gtEhlLink)},
	    {(void**)&e->region_of,
	     e->region_of ? (uint64_t)e->columns * (uint64_t)e->rows * gt_ehl_region_id_bytes(e) : 0},
	    {(void**)&e->inv_offset, (n + 1) * 4},
	    {(void**)&e->inv_vertex, labels * 4},
	    {(void**)&e->inv_entry, labels * 4},
	};
	memcpy(out, list, sizeof list);
	if (compact) return SECTIONS;
	if (e->region_of) return SECTION_REGIONS + 1;                 // the links' section may then be empty
	return e->link_count > 0 ? SECTION_LINKS + 1 : SECTION_LINKS; // no links: no section
}

// The sizes of the same sections in a version 1 or 2 file (16-bit ids, 8-byte hub entries).
static void narrow_sizes(Section list[SECTIONS])
{
	list[1].bytes /= 2, list[2].bytes /= 2, list[4].bytes /= 2;
	list[6].bytes = list[6].bytes / sizeof(gtEhlHub) * 8;
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
	h.version = ehl->cvias ? 5u : ehl->region_of ? 4u : 3u;
	h.flags = (ehl->region_of ? EHL_FLAG_REGIONS : 0) | (ehl->cvias ? EHL_FLAG_COMPACT : 0);
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

// The largest vertex id and float magnitude (its top 16 bits) of the vias, and how many are FULL
// (sign bit), in one pass read as 16-bit words (vertex low, float low, float high; little-endian),
// compared once at the end: vias are most of the file, and this is the one pass over them besides
// the checksum (it was two: validation, then the statistics). A via count fits 32 bits (via
// offsets are 32-bit).
typedef struct ViaScan {
	uint32_t top_vertex, top_magnitude, full;
} ViaScan;

static ViaScan scan_vias(const gtEhlViaLabel* vias, int64_t count)
{
	const uint16_t* word = (const uint16_t*)(const void*)vias;
	uint32_t top_vertex = 0, top_magnitude = 0, full = 0;
	for (int64_t k = 0; k < count; k++) {
		uint32_t low = word[3 * k], middle = word[3 * k + 1], high = word[3 * k + 2];
		uint32_t vertex = low | (middle & GT_VIA_VERTEX_BITS) << 16, magnitude = high & 0x7FFFu;
		top_vertex = vertex > top_vertex ? vertex : top_vertex;
		top_magnitude = magnitude > top_magnitude ? magnitude : top_magnitude;
		full += high >> 15;
	}
	return (ViaScan){top_vertex, top_magnitude, full};
}

// A compact index's inverse labels and vias (after the hub entries are checked): each hub's
// inverse label is entries of its own label, by distance; each via's place is inside its hub's.
static const char* validate_compact(const gtEhl* e, int64_t* full_vias)
{
	uint32_t n = (uint32_t)e->n;
	if (e->inv_offset[0] != 0 || e->inv_offset[n] != (uint64_t)e->label_count) return "inverse offsets";
	for (uint32_t h = 0; h < n; h++)
		if (e->inv_offset[h] > e->inv_offset[h + 1] || e->inv_offset[h + 1] - e->inv_offset[h] > GT_EHL_COMPACT_PLACES)
			return "inverse offsets";
	for (uint32_t h = 0; h < n; h++)
		for (uint32_t k = e->inv_offset[h]; k < e->inv_offset[h + 1]; k++) {
			uint32_t v = e->inv_vertex[k], entry = e->inv_entry[k];
			if (v >= n || entry < e->label_offset[v] || entry >= e->label_offset[v + 1] || e->label_hub[entry] != h)
				return "inverse labels";
			if (k > e->inv_offset[h] && e->label_dist[entry] < e->label_dist[e->inv_entry[k - 1]])
				return "inverse labels";
		}
	// Every list ends (LAST) inside the vias, each of its places inside its hub's inverse label.
	for (int64_t i = 0; i + 1 < e->hub_count; i++) {
		const gtEhlHub* h = &e->hubs[i];
		if (h->hub == n) continue;
		uint32_t places = e->inv_offset[h->hub + 1] - e->inv_offset[h->hub];
		for (uint64_t k = h->via_begin;; k++) {
			if (k >= (uint64_t)e->via_count || (uint32_t)(e->cvias[k] & (GT_EHL_COMPACT_PLACES - 1)) >= places)
				return "via labels";
			if (e->cvias[k] & GT_EHL_COMPACT_LAST) break;
		}
	}
	int64_t full = 0;
	for (int64_t k = 0; k < e->via_count; k++) full += (e->cvias[k] & GT_EHL_COMPACT_FULL) != 0;
	*full_vias = full;
	for (int64_t c = 0; c < (int64_t)e->columns * e->rows; c++)
		if ((e->narrow_regions ? e->region16[c] : e->region_of[c]) >= (uint64_t)e->cell_count) return "region ids";
	return NULL;
}

// Every index and count the query, path and inspection code rely on, so that even a forged file
// whose checksum matches cannot make them read out of bounds or loop. The checks run in dependency
// order: an offset array is proven monotone and within its target's count in a pass of its own
// before any element is read through it. What passes may still give wrong distances (a smaller
// label distance is structurally fine); gtEhl_Verify is the check for that.
static const char* validate(const gtEhl* e, uint64_t* seen, int64_t* full_vias)
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
	// 3. Hub rank -> vertex is a permutation (`seen`: n bits, zeroed).
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
		// A compact index's lists end at their LAST via and may be shared (validate_compact).
		bad_via |= e->cvias ? first > e->via_count : (first > next) | (sentinel & (first != next));
		bad_bound |= !(hubs[i].lower_bound >= 0); // NaN or negative
	}
	// Sentinels exactly at the cell ends: each list is ranks below n, increasing, then n, so a
	// query's walk over a list stops at its sentinel, and every rank indexes arrays of n + 1.
	if (bad_rank || sentinels != e->cell_count) return "cell hub lists";
	for (int64_t c = 1; c <= e->cell_count; c++)
		if (hubs[e->cell_begin[c] - 1].hub != n) return "cell hub lists";
	if (bad_via) return "via offsets";
	if (bad_bound) return "hub lower bounds";
	if (e->cvias) return validate_compact(e, full_vias);
	// 6. Vias: vertex ids below n; finite distances (bits from 0x7F800000 on are infinity or NaN).
	ViaScan scan = scan_vias(e->vias, e->via_count);
	if (e->via_count > 0 && (scan.top_vertex >= n || scan.top_magnitude >= 0x7F80u)) return "via labels";
	uint32_t full = scan.full;
	*full_vias = full;
	// 7. Region ids: every grid cell's names a region.
	if (e->region_of)
		for (int64_t c = 0; c < (int64_t)e->columns * e->rows; c++)
			if (e->region_of[c] >= (uint64_t)e->cell_count) return "region ids";
	return NULL;
}

// Validates the placed sections and copies the links out (their ends become vertices after the
// corners): e->links is always the index's own memory.
static gtStatus check_sections(gtEhl* e, const gtEhlLink* stored_links, const char* path, gtError* err)
{
	e->links = NULL;
	uint64_t* seen = gt_calloc((size_t)e->n / 64 + 1, sizeof *seen);
	if (!seen) return gt_fail(err, GT_ERR_NOMEM, "%s: out of memory checking the index", path);
	int64_t full_vias = 0;
	const char* broken = validate(e, seen, &full_vias);
	gt_free(seen);
	if (broken) return gt_fail(err, GT_ERR_FORMAT, "%s: corrupted (%s are inconsistent)", path, broken);
	gtError why;
	gtStatus st = gt_ehl_take_links(e, stored_links, e->link_count, &why);
	if (st) return gt_fail(err, st, "%s: %s", path, why.message);
	memset(&e->stats, 0, sizeof e->stats);
	gt_ehl_set_stats(e, full_vias);
	e->stats.label_entries = e->label_count; // a saved index holds only the useful entries
	return GT_OK;
}

// Points the sections into the mapped file from `at` on and validates them.
static gtStatus place_sections(gtEhl* e, char* at, const Section* list, int count, const char* path, gtError* err)
{
	for (int i = 0; i < count; i++) {
		*list[i].pointer = at;
		at += align8(list[i].bytes);
	}
	return check_sections(e, e->links, path, err);
}

// A version 1 or 2 file (sizes `list`, from narrow_sizes) read into fresh arrays of today's layout:
// 16-bit ids widened, half-precision hub bounds made floats, and the via floats' lowest mantissa
// bits cleared (rounding the bounds down) to hold the vertices' high bits, all zero here. The file
// is unmapped afterwards.
static gtStatus widen_sections(gtEhl* e, const char* at, const Section* list, int count, const char* path, gtError* err)
{
	const char* from[SECTIONS];
	for (int i = 0; i < count; i++, at += align8(list[i - 1].bytes)) from[i] = at;
	uint64_t n = (uint64_t)e->n, labels = (uint64_t)e->label_count;
	e->label_offset = gt_malloc((n + 1) * 4);
	e->label_hub = gt_malloc(labels * 4 + 4);
	e->label_parent = gt_malloc(labels * 4 + 4);
	e->label_dist = gt_malloc(labels * 8 + 8);
	e->vertex_of = gt_malloc(n * 4 + 4);
	e->cell_begin = gt_malloc(list[5].bytes);
	e->hubs = gt_malloc((uint64_t)e->hub_count * sizeof *e->hubs);
	e->vias = gt_malloc((uint64_t)e->via_count * sizeof *e->vias + 1);
	gtEhlLink* links = count > SECTION_LINKS ? gt_malloc(list[SECTION_LINKS].bytes + 1) : NULL;
	bool ok = e->label_offset && e->label_hub && e->label_parent && e->label_dist && e->vertex_of && e->cell_begin &&
	          e->hubs && e->vias && (links || count <= SECTION_LINKS);
	if (ok) {
		memcpy(e->label_offset, from[0], list[0].bytes);
		for (uint64_t k = 0; k < labels; k++) {
			uint16_t hub, parent;
			memcpy(&hub, from[1] + 2 * k, 2);
			memcpy(&parent, from[2] + 2 * k, 2);
			e->label_hub[k] = hub, e->label_parent[k] = parent;
		}
		memcpy(e->label_dist, from[3], list[3].bytes);
		for (uint64_t r = 0; r < n; r++) {
			uint16_t v;
			memcpy(&v, from[4] + 2 * r, 2);
			e->vertex_of[r] = v;
		}
		memcpy(e->cell_begin, from[5], list[5].bytes);
		for (int64_t i = 0; i < e->hub_count; i++) { // {uint32 via_begin, uint16 hub, uint16 half bound}
			uint16_t hub, bound;
			memcpy(&e->hubs[i].via_begin, from[6] + 8 * i, 4);
			memcpy(&hub, from[6] + 8 * i + 4, 2);
			memcpy(&bound, from[6] + 8 * i + 6, 2);
			e->hubs[i].hub = hub;
			e->hubs[i].lower_bound = (bound & 0x7FFF) > 0x7C00 ? NAN : gt_half_to_float(bound & 0x7FFF);
		}
		memcpy(e->vias, from[7], list[7].bytes);
		for (int64_t k = 0; k < e->via_count; k++) {
			uint32_t bits = gt_via_bits(&e->vias[k]);
			if ((bits & 0x7FFFFFFFu) < 0x7F800000u) bits &= ~GT_VIA_VERTEX_BITS; // not inf or NaN (refused)
			memcpy(e->vias[k].low, &bits, sizeof bits);
		}
		if (links) memcpy(links, from[SECTION_LINKS], list[SECTION_LINKS].bytes);
	}
	gt_unmap_file(e->mapping, e->mapping_bytes);
	e->mapping = NULL;
	gtStatus st = ok ? check_sections(e, links, path, err)
	                 : gt_fail(err, GT_ERR_NOMEM, "%s: out of memory reading an index of format version 2", path);
	gt_free(links);
	return st;
}

// A version 4 file (and only it) holds regions: their section is sized by the grid, and
// e->region_of is a placeholder until the sections are placed.
static gtStatus region_header(gtEhl* e, const FileHeader* h, const char* path, gtError* err)
{
	if ((h->version >= 4) != ((h->flags & EHL_FLAG_REGIONS) != 0) ||
	    (h->version >= 5) != ((h->flags & EHL_FLAG_COMPACT) != 0) || (h->flags & ~3u))
		return gt_fail(err, GT_ERR_FORMAT, "%s: corrupted (flags %u in a version %u file)", path, h->flags, h->version);
	if (h->version < 4) return GT_OK;
	uint32_t g = h->cell_size ? h->cell_size : 1;
	e->columns = (int)((h->map_width + g - 1) / g);
	e->rows = (int)((h->map_height + g - 1) / g);
	e->region_of = e->mapping;
	if (h->version >= 5) e->cvias = e->mapping;
	e->narrow_regions = h->version >= 5 && h->cell_count <= GT_EHL_NARROW_REGIONS;
	return GT_OK;
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
	e->serial = gt_ehl_next_serial();
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
	bool regions = !st && h.version >= 4;
	if (!st) st = region_header(e, &h, path, err);
	Section list[SECTIONS];
	int count = sections(e, list);
	if (h.version < 3) narrow_sizes(list);
	if (!st) {
		// Bound every count by the file size before multiplying, then demand the exact size.
		uint64_t expected = sizeof h + 8;
		bool plausible = h.cell_size >= 1 && h.cell_size <= 4096 && h.label_count < size && h.cell_count < size &&
		                 h.hub_count < size && h.via_count < size && h.hub_count >= 1;
		if (plausible) {
			for (int i = 0; i < count; i++) expected += align8(list[i].bytes);
			e->columns = (int)((h.map_width + h.cell_size - 1) / h.cell_size);
			e->rows = (int)((h.map_height + h.cell_size - 1) / h.cell_size);
			plausible = regions ? e->cell_count >= 1 && (int64_t)e->columns * e->rows >= e->cell_count
			                    : (int64_t)e->columns * e->rows == e->cell_count;
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
	if (!st && h.version < 3) st = widen_sections(e, (char*)mapping + sizeof h, list, count, path, err);
	else if (!st) st = place_sections(e, (char*)mapping + sizeof h, list, count, path, err);
	if (st) {
		gtEhl_Destroy(e);
		return st;
	}
	*out = e;
	return GT_OK;
}
