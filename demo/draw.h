// Rendering helpers for the demo: the map texture, text, and gt_debug_draw.h's callbacks drawn
// with SDL (every library layer goes through them).
#ifndef GRIDTREE_DEMO_DRAW_H
#define GRIDTREE_DEMO_DRAW_H

#include <SDL.h>

#include "gridtree/gridtree.h"

typedef struct View {
	double scale; // pixels per map unit
	int offset_x, offset_y;
} View;

// The context of the debug-draw callbacks: where to draw, and how map units reach the screen.
typedef struct SdlDebugDraw {
	SDL_Renderer* renderer;
	const View* view;
} SdlDebugDraw;

// The map as seen through view v, width x height pixels.
SDL_Texture* draw_map_view(SDL_Renderer* r, const gtMap* map, const View* v, int width, int height);
void draw_text(SDL_Renderer* r, int x, int y, int pixel, const char* text);
// A gtDebugDraw whose callbacks draw with SDL through `sdl` (which must outlive it).
gtDebugDraw sdl_debug_draw(SdlDebugDraw* sdl);
// Sets the draw colour from 0xRRGGBBAA, blending only when it is not opaque.
void set_draw_colour(SDL_Renderer* r, gtColor c);

// Screen position of a map point.
static inline SDL_FPoint to_screen(const View* v, double x, double y)
{
	SDL_FPoint p = {(float)(v->offset_x + x * v->scale), (float)(v->offset_y + y * v->scale)};
	return p;
}

#endif
