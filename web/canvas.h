// The web page's drawing and input seam (canvas.c): the HTML5 canvas through a few JavaScript
// calls, the library's debug-draw callbacks drawn on it, and what the page's address asks for.
#ifndef GRIDTREE_WEB_CANVAS_H
#define GRIDTREE_WEB_CANVAS_H

#include "gridtree/gridtree.h"

typedef struct CanvasView {
	double scale; // canvas pixels per map unit
	double offset_x, offset_y;
	int map_width; // the map's part of the canvas; the panel is right of it
} CanvasView;

enum { CANVAS_PANEL_WIDTH = 300 };

// The view that fits a w x h map into the canvas left of the panel.
CanvasView canvas_fit(int w, int h);
// Paints the map into an offscreen picture at the view's scale, which canvas_begin copies every
// frame (scaled when the view has zoomed since); again after a map edit.
void canvas_map(const gtMap* map, const CanvasView* v);
// Starts a frame: the map picture, clipped to the map's part of the canvas.
void canvas_begin(const CanvasView* v);
// The agents: x, y, kind per agent in `xyk`, drawn as discs coloured by kind, in one call.
void canvas_agents(const float* xyk, int count, const CanvasView* v);
// Crowd lines: x0, y0, x1, y1 (map units), kind per line, coloured by kind, in one call.
void canvas_lines(const float* lines, int count, const CanvasView* v);
// A box of text over the side panel, the help (lines split at '\n', the first a heading); after
// canvas_panel.
void canvas_overlay(const char* text);
// The side panel's text (lines split at '\n'); ends the frame's clipping.
void canvas_panel(const char* text);
// The text of the element #status.
void canvas_status(const char* text);
// The text of the element #state (what the keys changed, for tests).
void canvas_state(const char* text);
// N from the page's ?frames=N, else 0.
int canvas_frames_wanted(void);
// gt_debug_draw.h's callbacks drawing on the canvas through `v` (which must outlive it).
gtDebugDraw canvas_debug_draw(const CanvasView* v);

#endif
