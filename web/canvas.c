// The canvas seam of the web page (canvas.h): each function is a few lines of JavaScript run
// through EM_JS, so the page needs no script beside the one Emscripten writes.
#include <emscripten.h>
#include <math.h>
#include <stdlib.h>

#include "canvas.h"

// The 2D context and the map's offscreen picture live on Module; colours come as 0xRRGGBBAA.
EM_JS(void, js_setup, (void), {
	Module.gtCanvas = document.getElementById('canvas');
	Module.gtContext = Module.gtCanvas.getContext('2d');
	Module.gtColour = function(c)
	{
		c = c >>> 0;
		return 'rgba(' + (c >>> 24) + ',' + ((c >>> 16) & 255) + ',' + ((c >>> 8) & 255) + ',' + ((c & 255) / 255) +
		       ')';
	};
})

EM_JS(int, js_canvas_width, (void), { return document.getElementById('canvas').width; })
EM_JS(int, js_canvas_height, (void), { return document.getElementById('canvas').height; })

EM_JS(int, canvas_frames_wanted, (void), {
	var n = parseInt(new URLSearchParams(window.location.search).get('frames') || '0', 10);
	return n > 0 ? n : 0;
})

EM_JS(void, canvas_status, (const char* text), { document.getElementById('status').textContent = UTF8ToString(text); })

// cells: one byte per cell, row by row, 1 where blocked. The picture is kept at the canvas's
// scale, so a frame copies it pixel for pixel (a scaled copy costs more in software rendering).
EM_JS(void, js_map, (const unsigned char* cells, int w, int h, double scale), {
	var small = document.createElement('canvas');
	small.width = w, small.height = h;
	var g = small.getContext('2d'), image = g.createImageData(w, h), px = image.data;
	for (var i = 0; i < w * h; i++) {
		var blocked = HEAPU8[cells + i];
		px[4 * i] = blocked ? 0x11 : 0x56, px[4 * i + 1] = blocked ? 0x12 : 0x5D;
		px[4 * i + 2] = blocked ? 0x17 : 0x6C, px[4 * i + 3] = 255;
	}
	g.putImageData(image, 0, 0);
	var picture = document.createElement('canvas');
	picture.width = Math.ceil(w * scale), picture.height = Math.ceil(h * scale);
	var big = picture.getContext('2d');
	big.imageSmoothingEnabled = false;
	big.drawImage(small, 0, 0, picture.width, picture.height);
	Module.gtMap = picture;
})

EM_JS(void, js_begin, (double ox, double oy, double scale, int map_width), {
	var g = Module.gtContext, c = Module.gtCanvas;
	g.save();
	g.fillStyle = '#0A0A0D';
	g.fillRect(0, 0, c.width, c.height);
	g.beginPath();
	g.rect(0, 0, map_width, c.height);
	g.clip();
	g.imageSmoothingEnabled = false;
	g.drawImage(Module.gtMap, Math.round(ox), Math.round(oy));
})

EM_JS(void, js_agents, (const float* xyk, int count, double ox, double oy, double scale), {
	var g = Module.gtContext, colours = [ '#9aa0a6', '#c8c8ff', '#50c878', '#f0e68c', '#dc3c3c', '#b4783c', '#8c3cb4' ];
	var size = Math.max(3, scale * 0.9), half = size / 2, base = xyk >> 2, last = -1;
	for (var i = 0; i < count; i++) {
		var kind = HEAPF32[base + 3 * i + 2] | 0;
		if (kind < 1 || kind > 6) kind = 0;
		if (kind != last) g.fillStyle = colours[kind], last = kind;
		g.fillRect(ox + HEAPF32[base + 3 * i] * scale - half, oy + HEAPF32[base + 3 * i + 1] * scale - half, size,
		           size);
	}
})

EM_JS(void, js_panel, (const char* text, int x), {
	var g = Module.gtContext, lines = UTF8ToString(text).split('\n');
	g.restore();
	g.fillStyle = '#16181d';
	g.fillRect(x, 0, Module.gtCanvas.width - x, Module.gtCanvas.height);
	g.fillStyle = '#e6e6e6';
	g.font = '15px monospace';
	for (var i = 0; i < lines.length; i++) g.fillText(lines[i], x + 14, 28 + 22 * i);
})

EM_JS(void, js_segment, (double x0, double y0, double x1, double y1, unsigned colour), {
	var g = Module.gtContext;
	g.strokeStyle = Module.gtColour(colour);
	g.lineWidth = 2;
	g.beginPath();
	g.moveTo(x0, y0);
	g.lineTo(x1, y1);
	g.stroke();
})

// points: x, y pairs in canvas pixels.
EM_JS(void, js_polygon, (const double* points, int count, int filled, unsigned colour), {
	var g = Module.gtContext, base = points >> 3;
	g.beginPath();
	for (var i = 0; i < count; i++) g.lineTo(HEAPF64[base + 2 * i], HEAPF64[base + 2 * i + 1]);
	g.closePath();
	if (filled) {
		g.fillStyle = Module.gtColour(colour);
		g.fill();
	} else {
		g.strokeStyle = Module.gtColour(colour);
		g.lineWidth = 1;
		g.stroke();
	}
})

EM_JS(void, js_circle, (double x, double y, double r, int filled, unsigned colour), {
	var g = Module.gtContext;
	g.beginPath();
	g.arc(x, y, r, 0, 2 * Math.PI);
	if (filled) {
		g.fillStyle = Module.gtColour(colour);
		g.fill();
	} else {
		g.strokeStyle = Module.gtColour(colour);
		g.lineWidth = 2;
		g.stroke();
	}
})

EM_JS(void, js_rect, (double x, double y, double size, unsigned colour), {
	var g = Module.gtContext;
	g.fillStyle = Module.gtColour(colour);
	g.fillRect(x - size / 2, y - size / 2, size, size);
})

EM_JS(void, js_text, (double x, double y, const char* text, unsigned colour), {
	var g = Module.gtContext;
	g.font = 'bold 14px monospace';
	g.fillStyle = Module.gtColour(colour);
	g.fillText(UTF8ToString(text), x, y + 12);
})

CanvasView canvas_fit(int w, int h)
{
	js_setup();
	int width = js_canvas_width() - CANVAS_PANEL_WIDTH, height = js_canvas_height();
	double sx = (double)width / w, sy = (double)height / h, scale = sx < sy ? sx : sy;
	return (CanvasView){scale, floor((width - w * scale) / 2), floor((height - h * scale) / 2), width};
}

void canvas_map(const gtMap* map, const CanvasView* v)
{
	int w = gtMap_Width(map), h = gtMap_Height(map);
	unsigned char* cells = malloc((size_t)w * (size_t)h);
	if (!cells) return;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) cells[(size_t)y * w + x] = gtMap_IsBlocked(map, x, y);
	js_map(cells, w, h, v->scale);
	free(cells);
}

void canvas_begin(const CanvasView* v)
{
	js_begin(v->offset_x, v->offset_y, v->scale, v->map_width);
}

void canvas_agents(const float* xyk, int count, const CanvasView* v)
{
	js_agents(xyk, count, v->offset_x, v->offset_y, v->scale);
}

void canvas_panel(const char* text)
{
	js_panel(text, js_canvas_width() - CANVAS_PANEL_WIDTH);
}

// ---- gt_debug_draw.h callbacks ------------------------------------------------------------------

static double sx(const CanvasView* v, double x)
{
	return v->offset_x + x * v->scale;
}

static double sy(const CanvasView* v, double y)
{
	return v->offset_y + y * v->scale;
}

static void segment(void* context, gtVec2 a, gtVec2 b, gtColor color)
{
	const CanvasView* v = context;
	js_segment(sx(v, a.x), sy(v, a.y), sx(v, b.x), sy(v, b.y), color);
}

static void polygon(void* context, const gtVec2* points, int count, bool filled, gtColor color)
{
	const CanvasView* v = context;
	enum { MAX_POINTS = 32 };
	double xy[2 * MAX_POINTS];
	if (count > MAX_POINTS) count = MAX_POINTS;
	for (int i = 0; i < count; i++) xy[2 * i] = sx(v, points[i].x), xy[2 * i + 1] = sy(v, points[i].y);
	if (count >= 2) js_polygon(xy, count, filled, color);
}

static void circle(void* context, gtVec2 centre, double radius, bool filled, gtColor color)
{
	const CanvasView* v = context;
	js_circle(sx(v, centre.x), sy(v, centre.y), radius * v->scale, filled, color);
}

static void point(void* context, gtVec2 p, double size, gtColor color)
{
	const CanvasView* v = context;
	js_rect(sx(v, p.x), sy(v, p.y), size, color);
}

static void text(void* context, gtVec2 p, const char* label, gtColor color)
{
	const CanvasView* v = context;
	js_text(sx(v, p.x), sy(v, p.y), label, color);
}

gtDebugDraw canvas_debug_draw(const CanvasView* v)
{
	return (gtDebugDraw){segment, polygon, circle, point, text, (void*)v};
}
