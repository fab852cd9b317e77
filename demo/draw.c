#include <math.h>
#include <string.h>

#include "draw.h"

// The map as the view shows it, one texture pixel per screen pixel: copied unscaled and unblended
// each frame (a scaled copy in the software renderer costs tens of milliseconds), made again only
// when the view or the map changes.
SDL_Texture* draw_map_view(SDL_Renderer* r, const gtMap* map, const View* v, int width, int height)
{
	int w = gtMap_Width(map), h = gtMap_Height(map);
	SDL_Surface* s = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!s) return NULL;
	for (int py = 0; py < height; py++) {
		Uint32* row = (Uint32*)((Uint8*)s->pixels + py * s->pitch);
		int y = (int)floor((py + 0.5 - v->offset_y) / v->scale);
		for (int px = 0; px < width; px++) {
			int x = (int)floor((px + 0.5 - v->offset_x) / v->scale);
			row[px] = x < 0 || y < 0 || x >= w || y >= h ? 0xFF0A0A0Du
			          : gtMap_IsBlocked(map, x, y)       ? 0xFF111217u
			                                             : 0xFF565D6Cu;
		}
	}
	SDL_Texture* t = SDL_CreateTextureFromSurface(r, s);
	SDL_FreeSurface(s);
	if (t) SDL_SetTextureBlendMode(t, SDL_BLENDMODE_NONE);
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
			if (g & (1u << (14 - bit)))
				dots[n++] = (SDL_Rect){x + (bit % 3) * pixel, y + (bit / 3) * pixel, pixel, pixel};
	}
	SDL_RenderFillRects(r, dots, n);
}

void set_draw_colour(SDL_Renderer* r, gtColor c)
{
	Uint8 alpha = (Uint8)(c & 255);
	SDL_SetRenderDrawBlendMode(r, alpha == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
	SDL_SetRenderDrawColor(r, (Uint8)(c >> 24), (Uint8)(c >> 16), (Uint8)(c >> 8), alpha);
}

// ---- gt_debug_draw.h callbacks ------------------------------------------------------------------

static void sdl_segment(void* context, gtVec2 a, gtVec2 b, gtColor color)
{
	SdlDebugDraw* d = context;
	SDL_FPoint p = to_screen(d->view, a.x, a.y), q = to_screen(d->view, b.x, b.y);
	set_draw_colour(d->renderer, color);
	SDL_RenderDrawLineF(d->renderer, p.x, p.y, q.x, q.y);
}

// Outlines close the loop; fills are a triangle fan (the library's polygons are convex).
static void sdl_polygon(void* context, const gtVec2* points, int count, bool filled, gtColor color)
{
	SdlDebugDraw* d = context;
	enum { MAX_POINTS = 32 };
	if (count < 2) return;
	if (count > MAX_POINTS) count = MAX_POINTS;
	if (!filled) {
		SDL_FPoint pts[MAX_POINTS + 1];
		for (int i = 0; i < count; i++) pts[i] = to_screen(d->view, points[i].x, points[i].y);
		pts[count] = pts[0];
		set_draw_colour(d->renderer, color);
		SDL_RenderDrawLinesF(d->renderer, pts, count + 1);
		return;
	}
	SDL_Vertex v[MAX_POINTS];
	int idx[3 * MAX_POINTS];
	SDL_Color c = {(Uint8)(color >> 24), (Uint8)(color >> 16), (Uint8)(color >> 8), (Uint8)color};
	for (int i = 0; i < count; i++) v[i] = (SDL_Vertex){to_screen(d->view, points[i].x, points[i].y), c, {0, 0}};
	int n = 0;
	for (int i = 1; i + 1 < count; i++) idx[n++] = 0, idx[n++] = i, idx[n++] = i + 1;
	SDL_SetRenderDrawBlendMode(d->renderer, SDL_BLENDMODE_BLEND); // geometry blends by its vertex colours
	SDL_RenderGeometry(d->renderer, NULL, v, count, idx, n);
}

static void sdl_circle(void* context, gtVec2 centre, double radius, bool filled, gtColor color)
{
	SdlDebugDraw* d = context;
	enum { SIDES = 64 };
	SDL_FPoint c = to_screen(d->view, centre.x, centre.y), pts[SIDES + 1];
	double r = radius * d->view->scale;
	for (int i = 0; i <= SIDES; i++) {
		double a = i * 2 * 3.14159265358979323846 / SIDES;
		pts[i] = (SDL_FPoint){(float)(c.x + cos(a) * r), (float)(c.y + sin(a) * r)};
	}
	if (!filled) {
		set_draw_colour(d->renderer, color);
		SDL_RenderDrawLinesF(d->renderer, pts, SIDES + 1);
		return;
	}
	gtVec2 poly[32];
	for (int i = 0; i < 32; i++) {
		double a = i * 2 * 3.14159265358979323846 / 32;
		poly[i] = (gtVec2){centre.x + cos(a) * radius, centre.y + sin(a) * radius};
	}
	sdl_polygon(context, poly, 32, true, color);
}

// A square of `size` pixels centred on the point (crisp at any zoom).
static void sdl_point(void* context, gtVec2 p, double size, gtColor color)
{
	SdlDebugDraw* d = context;
	SDL_FPoint s = to_screen(d->view, p.x, p.y);
	float half = (float)(size / 2);
	SDL_FRect dot = {s.x - half, s.y - half, (float)size, (float)size};
	set_draw_colour(d->renderer, color);
	SDL_RenderFillRectF(d->renderer, &dot);
}

static void sdl_text(void* context, gtVec2 p, const char* text, gtColor color)
{
	SdlDebugDraw* d = context;
	SDL_FPoint s = to_screen(d->view, p.x, p.y);
	set_draw_colour(d->renderer, color);
	draw_text(d->renderer, (int)s.x, (int)s.y, 2, text);
}

gtDebugDraw sdl_debug_draw(SdlDebugDraw* sdl)
{
	return (gtDebugDraw){sdl_segment, sdl_polygon, sdl_circle, sdl_point, sdl_text, sdl};
}
