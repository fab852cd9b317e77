// Pictures of the demo: a PNG screenshot, and a recording as one animated PNG (APNG: the frames'
// PNG data chunks renumbered into one file, which browsers and GitHub play; no encoder needed
// beyond SDL_image's PNG writer).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL_image.h>

#include "demo.h"

bool save_screenshot(SDL_Renderer* r, int w, int h, const char* path, SDL_Surface** kept)
{
	SDL_Surface* shot = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!shot || SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, shot->pixels, shot->pitch) != 0 ||
	    IMG_SavePNG(shot, path) != 0) {
		fprintf(stderr, "gridtree-demo: cannot write %s: %s\n", path, SDL_GetError());
		SDL_FreeSurface(shot);
		return false;
	}
	if (kept) *kept = shot;
	else SDL_FreeSurface(shot);
	return true;
}

static void frame_path(const char* apng, int index, char* out, size_t size)
{
	snprintf(out, size, "%s.frame-%04d.png", apng, index);
}

bool record_frame(SDL_Renderer* r, int w, int h, const char* apng, int index)
{
	char path[1200];
	frame_path(apng, index, path, sizeof path);
	return save_screenshot(r, w, h, path, NULL);
}

static uint32_t crc_table[256];

static uint32_t crc32_of(const uint8_t* p, size_t n, uint32_t c)
{
	if (!crc_table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t v = i;
			for (int k = 0; k < 8; k++) v = v & 1 ? 0xEDB88320u ^ (v >> 1) : v >> 1;
			crc_table[i] = v;
		}
	for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 255] ^ (c >> 8);
	return c;
}

static void put32(uint8_t* p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t* p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

// One chunk: length, type, `prefix` (a sequence number, or nothing), data, CRC over all but the length.
static bool write_chunk(FILE* f, const char* type, const uint8_t* prefix, size_t prefix_len, const uint8_t* data,
                        size_t len)
{
	uint8_t head[8];
	put32(head, (uint32_t)(prefix_len + len));
	memcpy(head + 4, type, 4);
	uint32_t c = crc32_of(head + 4, 4, 0xFFFFFFFFu);
	if (prefix_len) c = crc32_of(prefix, prefix_len, c);
	if (len) c = crc32_of(data, len, c);
	uint8_t tail[4];
	put32(tail, c ^ 0xFFFFFFFFu);
	return fwrite(head, 1, 8, f) == 8 && (prefix_len == 0 || fwrite(prefix, 1, prefix_len, f) == prefix_len) &&
	       (len == 0 || fwrite(data, 1, len, f) == len) && fwrite(tail, 1, 4, f) == 4;
}

static uint8_t* read_all(const char* path, size_t* len)
{
	FILE* f = fopen(path, "rb");
	if (!f) return NULL;
	uint8_t* buf = NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);
		if (n > 8 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
		    fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = n > 0 ? (size_t)n : 0;
	}
	fclose(f);
	return buf;
}

static const uint8_t SIGNATURE[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};

// Appends frame `index` (a PNG file) to the animation: its frame control, then its image data
// (IDAT for the first frame, numbered fdAT chunks after).
static bool append_frame(FILE* out, const uint8_t* png, size_t len, int index, int frames, int delay_60ths,
                         uint32_t* seq)
{
	if (len < 33 || memcmp(png, SIGNATURE, 8) != 0 || memcmp(png + 12, "IHDR", 4) != 0) return false;
	const uint8_t* ihdr = png + 16;
	if (index == 0) {
		uint8_t actl[8];
		put32(actl, (uint32_t)frames), put32(actl + 4, 0); // loop for ever
		if (fwrite(SIGNATURE, 1, 8, out) != 8 || !write_chunk(out, "IHDR", NULL, 0, ihdr, 13) ||
		    !write_chunk(out, "acTL", NULL, 0, actl, 8))
			return false;
	}
	uint8_t fctl[26] = {0};
	put32(fctl, (*seq)++);
	memcpy(fctl + 4, ihdr, 8); // width, height
	fctl[20] = (uint8_t)(delay_60ths >> 8), fctl[21] = (uint8_t)delay_60ths,
	fctl[23] = 60; // a delay of delay_60ths / 60 s
	if (!write_chunk(out, "fcTL", NULL, 0, fctl, 26)) return false;
	for (size_t at = 8; at + 12 <= len;) {
		uint32_t n = get32(png + at);
		if (n > len - at - 12) return false;
		const uint8_t* type = png + at + 4;
		if (memcmp(type, "IDAT", 4) == 0) {
			uint8_t number[4];
			if (index > 0) put32(number, (*seq)++); // the first frame's data stays IDAT, unnumbered
			bool ok = index == 0 ? write_chunk(out, "IDAT", NULL, 0, png + at + 8, n)
			                     : write_chunk(out, "fdAT", number, 4, png + at + 8, n);
			if (!ok) return false;
		}
		at += 12 + (size_t)n;
	}
	return true;
}

bool finish_recording(const char* apng, int frames, int delay_60ths)
{
	char temp[1200], path[1200];
	if (frames == 0) {
		fprintf(stderr, "gridtree-demo: no frame recorded (fewer frames than --record-every): %s not written\n", apng);
		return true;
	}
	snprintf(temp, sizeof temp, "%s.tmp", apng);
	FILE* out = fopen(temp, "wb");
	if (!out) {
		fprintf(stderr, "gridtree-demo: cannot write %s: %s\n", temp, strerror(errno));
		return false;
	}
	uint32_t seq = 0;
	bool ok = true;
	for (int i = 0; i < frames; i++) { // every frame file is removed, also after a failure
		frame_path(apng, i, path, sizeof path);
		if (ok) {
			size_t len = 0;
			uint8_t* png = read_all(path, &len);
			ok = png && append_frame(out, png, len, i, frames, delay_60ths > 65535 ? 65535 : delay_60ths, &seq);
			free(png);
		}
		remove(path);
	}
	ok = ok && write_chunk(out, "IEND", NULL, 0, NULL, 0);
	ok = fclose(out) == 0 && ok;
	if (!ok || rename(temp, apng) != 0) {
		remove(temp);
		fprintf(stderr, "gridtree-demo: cannot assemble the recording %s\n", apng);
		return false;
	}
	return true;
}
