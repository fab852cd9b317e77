#include <math.h>
#include <string.h>

#include "draw.h"

SDL_Texture* draw_map_texture(SDL_Renderer* r, const gtMap* map)
{
	int w = gtMap_Width(map), h = gtMap_Height(map);
	SDL_Surface* s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!s) return NULL;
	for (int y = 0; y < h; y++) {
		Uint32* row = (Uint32*)((Uint8*)s->pixels + y * s->pitch);
		for (int x = 0; x < w; x++) row[x] = gtMap_IsBlocked(map, x, y) ? 0xFF1B1D24u : 0xFF3C4150u;
	}
	SDL_Texture* t = SDL_CreateTextureFromSurface(r, s);
	SDL_FreeSurface(s);
	return t;
}

// A 3x5 bitmap font: each glyph is 5 rows of 3 bits (top row first), enough for the HUD.
static const char GLYPH_CHARS[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.:-/%()=+,";
static const unsigned short GLYPHS[] = {
    0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7249, 0x7BEF, 0x7BCF, // 0-9
    0x2BED, 0x6BAE, 0x7927, 0x6B6E, 0x79A7, 0x79A4, 0x796F, 0x5BED, 0x7497, 0x126F, // A-J
    0x5BAD, 0x4927, 0x5FED, 0x6B6D, 0x7B6F, 0x6BA4, 0x7B79, 0x6BAD, 0x79CF, 0x7492, // K-T
    0x5B6F, 0x5B6A, 0x5BFD, 0x5AAD, 0x5A92, 0x72A7,                                 // U-Z
    0x0002, 0x0410, 0x01C0, 0x1524, 0x4AA5, 0x2922, 0x2252, 0x0E38, 0x05D0, 0x0014, // . : - / % ( ) = + ,
};

void draw_text(SDL_Renderer* r, int x, int y, int pixel, const char* text)
{
	SDL_Rect dots[15 * 96];
	int n = 0;
	for (const char* c = text; *c && n < 15 * 80; c++, x += 4 * pixel) {
		char up = (*c >= 'a' && *c <= 'z') ? (char)(*c - 32) : *c;
		const char* at = strchr(GLYPH_CHARS, up);
		if (!at || up == '\0') continue; // spaces and unknown characters leave a gap
		unsigned short g = GLYPHS[at - GLYPH_CHARS];
		for (int bit = 0; bit < 15; bit++)
			if (g & (1u << (14 - bit))) dots[n++] = (SDL_Rect){x + (bit % 3) * pixel, y + (bit / 3) * pixel, pixel, pixel};
	}
	SDL_RenderFillRects(r, dots, n);
}

void draw_circle(SDL_Renderer* r, double cx, double cy, double radius)
{
	SDL_FPoint pts[65];
	for (int i = 0; i <= 64; i++) {
		double a = i * 2 * 3.14159265358979323846 / 64;
		pts[i] = (SDL_FPoint){(float)(cx + cos(a) * radius), (float)(cy + sin(a) * radius)};
	}
	SDL_RenderDrawLinesF(r, pts, 65);
}
