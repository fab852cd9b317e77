// Rendering helpers for the demo: the map texture, batched agents, lines, text.
#ifndef GRIDTREE_DEMO_DRAW_H
#define GRIDTREE_DEMO_DRAW_H

#include <SDL.h>

#include "gridtree/gridtree.h"

typedef struct View {
	double scale; // pixels per map unit
	int offset_x, offset_y;
} View;

SDL_Texture* draw_map_texture(SDL_Renderer* r, const gtMap* map);
void draw_text(SDL_Renderer* r, int x, int y, int pixel, const char* text);
void draw_circle(SDL_Renderer* r, double cx, double cy, double radius);
// Screen position of a map point.
static inline SDL_FPoint to_screen(const View* v, double x, double y)
{
	SDL_FPoint p = {(float)(v->offset_x + x * v->scale), (float)(v->offset_y + y * v->scale)};
	return p;
}

#endif
