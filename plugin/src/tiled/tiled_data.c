// Tile layer data: CSV, or base64 of little-endian 32-bit ids, raw or compressed with zlib, gzip
// (both through zlib) or zstd.
#include <limits.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "core/alloc.h"
#include "core/status.h"
#include "tiled/tiled_doc.h"

static bool read_csv(TiledDoc* d, TiledChunk* c, const char* text, size_t length)
{
	size_t want = (size_t)c->width * (size_t)c->height, count = 0;
	for (size_t at = 0; at < length;) {
		char ch = text[at];
		if (ch == ',' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
			at++;
			continue;
		}
		if (ch < '0' || ch > '9')
			return tiled_fail(d, GT_ERR_FORMAT, "%s: CSV tile data has '%c' where a tile id should be", d->path,
			                  ch >= ' ' && ch <= '~' ? ch : '?');
		uint64_t v = 0;
		while (at < length && text[at] >= '0' && text[at] <= '9') {
			v = v * 10 + (uint64_t)(text[at++] - '0');
			if (v > UINT32_MAX) return tiled_fail(d, GT_ERR_FORMAT, "%s: CSV tile id above 2^32 - 1", d->path);
		}
		if (count == want)
			return tiled_fail(d, GT_ERR_FORMAT, "%s: CSV tile data has more than the %dx%d = %zu ids of its layer",
			                  d->path, c->width, c->height, want);
		c->gids[count++] = (uint32_t)v;
	}
	if (count != want)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: CSV tile data has %zu ids, expected %dx%d = %zu", d->path, count,
		                  c->width, c->height, want);
	return true;
}

static int base64_value(unsigned char ch)
{
	if (ch >= 'A' && ch <= 'Z') return ch - 'A';
	if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9') return ch - '0' + 52;
	if (ch == '+') return 62;
	if (ch == '/') return 63;
	return -1;
}

// Decodes base64 (whitespace skipped, padding optional) into a new buffer.
static unsigned char* read_base64(TiledDoc* d, const char* text, size_t length, size_t* out_length)
{
	unsigned char* out = gt_malloc(length / 4 * 3 + 3);
	if (!out) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory decoding base64", d->path);
		return NULL;
	}
	size_t n = 0;
	uint32_t bits = 0;
	int held = 0, padding = 0;
	for (size_t i = 0; i < length; i++) {
		unsigned char ch = (unsigned char)text[i];
		if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
		if (ch == '=') {
			padding++;
			continue;
		}
		int v = base64_value(ch);
		if (v < 0 || padding) {
			gt_free(out);
			tiled_fail(d, GT_ERR_FORMAT, "%s: base64 tile data has a stray '%c'", d->path,
			           ch >= ' ' && ch <= '~' ? ch : '?');
			return NULL;
		}
		bits = bits << 6 | (uint32_t)v;
		if (++held == 4) {
			out[n++] = (unsigned char)(bits >> 16), out[n++] = (unsigned char)(bits >> 8),
			out[n++] = (unsigned char)bits;
			held = 0, bits = 0;
		}
	}
	if (held == 1) {
		gt_free(out);
		tiled_fail(d, GT_ERR_FORMAT, "%s: base64 tile data ends mid-byte", d->path);
		return NULL;
	}
	if (held == 2) out[n++] = (unsigned char)(bits >> 4);
	if (held == 3) out[n++] = (unsigned char)(bits >> 10), out[n++] = (unsigned char)(bits >> 2);
	*out_length = n;
	return out;
}

// zlib or gzip (window bits say which) into exactly `want` bytes.
static bool inflate_into(TiledDoc* d, const unsigned char* in, size_t length, unsigned char* out, size_t want,
                         const char* name, int window_bits)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, window_bits) != Z_OK)
		return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory for %s", d->path, name);
	bool ok = true;
	size_t in_at = 0, out_at = 0;
	int rc = Z_OK;
	while (rc == Z_OK) {
		// zlib counts in uInt: feed and drain in pieces a uInt can hold.
		if (z.avail_in == 0 && in_at < length) {
			size_t piece = length - in_at > UINT_MAX ? UINT_MAX : length - in_at;
			z.next_in = (unsigned char*)in + in_at, z.avail_in = (uInt)piece, in_at += piece;
		}
		size_t piece = want - out_at > UINT_MAX ? UINT_MAX : want - out_at;
		unsigned char spill[16];
		if (piece == 0) z.next_out = spill, z.avail_out = sizeof spill; // room to notice surplus bytes
		else z.next_out = out + out_at, z.avail_out = (uInt)piece;
		uInt before = z.avail_out;
		rc = inflate(&z, Z_NO_FLUSH);
		size_t made = before - z.avail_out;
		if (piece == 0 && made > 0) {
			ok = tiled_fail(d, GT_ERR_FORMAT, "%s: %s tile data holds more than the %zu bytes of its layer", d->path,
			                name, want);
			break;
		}
		out_at += made;
		if (rc == Z_BUF_ERROR && z.avail_in == 0 && in_at == length) break; // input ran out before the end
		if (rc == Z_BUF_ERROR) rc = Z_OK;
	}
	if (ok && rc != Z_STREAM_END)
		ok = tiled_fail(d, GT_ERR_FORMAT, "%s: %s tile data is corrupted or cut short", d->path, name);
	else if (ok && out_at != want)
		ok = tiled_fail(d, GT_ERR_FORMAT, "%s: %s tile data holds %zu bytes, expected %zu", d->path, name, out_at,
		                want);
	inflateEnd(&z);
	return ok;
}

static bool unzstd_into(TiledDoc* d, const unsigned char* in, size_t length, unsigned char* out, size_t want)
{
	// The frame's header says its size: a frame claiming more than the layer holds is refused unread.
	unsigned long long size = ZSTD_getFrameContentSize(in, length);
	if (size == ZSTD_CONTENTSIZE_ERROR)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: zstd tile data is not a zstd frame", d->path);
	if (size != ZSTD_CONTENTSIZE_UNKNOWN && size != want)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: zstd tile data holds %llu bytes, expected %zu", d->path, size, want);
	size_t got = ZSTD_decompress(out, want, in, length);
	if (ZSTD_isError(got) && ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: zstd tile data holds more than the %zu bytes of its layer", d->path,
		                  want);
	if (ZSTD_isError(got))
		return tiled_fail(d, GT_ERR_FORMAT, "%s: zstd tile data: %s", d->path, ZSTD_getErrorName(got));
	if (got != want)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: zstd tile data holds %zu bytes, expected %zu", d->path, got, want);
	return true;
}

bool tiled_decode(TiledDoc* d, TiledChunk* c, const char* encoding, const char* compression, const char* text,
                  size_t length)
{
	bool compressed = compression && *compression;
	if (!encoding || !*encoding) {
		if (compressed)
			return tiled_fail(d, GT_ERR_FORMAT, "%s: compression '%s' without base64 encoding", d->path, compression);
		return true; // XML tiles: the reader fills them
	}
	if (strcmp(encoding, "csv") == 0) {
		if (compressed)
			return tiled_fail(d, GT_ERR_FORMAT, "%s: CSV tile data cannot be compressed ('%s')", d->path, compression);
		return read_csv(d, c, text, length);
	}
	if (strcmp(encoding, "base64") != 0)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: unknown tile data encoding '%s' (csv or base64)", d->path, encoding);
	size_t raw_length = 0, want = (size_t)c->width * (size_t)c->height * 4;
	unsigned char* raw = read_base64(d, text, length, &raw_length);
	if (!raw) return false;
	bool ok;
	unsigned char* bytes = raw;
	if (!compressed) {
		ok = raw_length == want || tiled_fail(d, GT_ERR_FORMAT, "%s: base64 tile data holds %zu bytes, expected %zu",
		                                      d->path, raw_length, want);
	} else {
		bytes = gt_malloc(want);
		if (!bytes) ok = tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		else if (strcmp(compression, "zlib") == 0) ok = inflate_into(d, raw, raw_length, bytes, want, "zlib", 15);
		else if (strcmp(compression, "gzip") == 0) ok = inflate_into(d, raw, raw_length, bytes, want, "gzip", 16 + 15);
		else if (strcmp(compression, "zstd") == 0) ok = unzstd_into(d, raw, raw_length, bytes, want);
		else
			ok = tiled_fail(d, GT_ERR_FORMAT, "%s: unknown compression '%s' (zlib, gzip or zstd)", d->path,
			                compression);
	}
	if (ok)
		for (size_t i = 0; i < want / 4; i++)
			c->gids[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 | (uint32_t)bytes[4 * i + 2] << 16 |
			             (uint32_t)bytes[4 * i + 3] << 24;
	if (bytes != raw) gt_free(bytes);
	gt_free(raw);
	return ok;
}
