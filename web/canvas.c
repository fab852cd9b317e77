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
	// Segments of one colour in a row go into one path, stroked once (a leaf grid or a path is
	// hundreds of segments): gtFlush strokes it before anything else is drawn.
	Module.gtStroke = null;
	Module.gtFlush = function()
	{
		if (Module.gtStroke != null) Module.gtContext.stroke();
		Module.gtStroke = null;
	};
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

EM_JS(void, canvas_state, (const char* text), {
	var e = document.getElementById('state');
	if (e) e.textContent = UTF8ToString(text);
})

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

// The picture was drawn at the fit's scale: a zoomed view scales it (ratio), the fit copies it.
EM_JS(void, js_begin, (double ox, double oy, double ratio, int map_width), {
	var g = Module.gtContext, c = Module.gtCanvas, m = Module.gtMap;
	Module.gtStroke = null;
	g.save();
	g.fillStyle = '#0A0A0D';
	g.fillRect(0, 0, c.width, c.height);
	g.beginPath();
	g.rect(0, 0, map_width, c.height);
	g.clip();
	g.imageSmoothingEnabled = false;
	if (ratio == 1) g.drawImage(m, Math.round(ox), Math.round(oy));
	else g.drawImage(m, Math.round(ox), Math.round(oy), m.width * ratio, m.height * ratio);
})

// One path a colour: a fill per kind, not per agent.
EM_JS(void, js_agents, (const float* xyk, int count, double ox, double oy, double scale), {
	Module.gtFlush();
	var g = Module.gtContext, colours = [ '#9aa0a6', '#c8c8ff', '#50c878', '#f0e68c', '#dc3c3c', '#b4783c', '#8c3cb4' ];
	var size = Math.max(3, scale * 0.9), half = size / 2, base = xyk >> 2, f = HEAPF32;
	for (var kind = 0; kind < 7; kind++) {
		var any = false;
		g.beginPath();
		for (var i = 0; i < count; i++) {
			var k = f[base + 3 * i + 2] | 0;
			if (k < 1 || k > 6) k = 0;
			if (k != kind) continue;
			g.rect(ox + f[base + 3 * i] * scale - half, oy + f[base + 3 * i + 1] * scale - half, size, size);
			any = true;
		}
		if (any) {
			g.fillStyle = colours[kind];
			g.fill();
		}
	}
})

// Crowd lines, x0, y0, x1, y1, kind each: one stroke per kind, faint.
EM_JS(void, js_lines, (const float* lines, int count, double ox, double oy, double scale), {
	Module.gtFlush();
	var g = Module.gtContext, colours = [ '#9aa0a6', '#c8c8ff', '#50c878', '#f0e68c', '#dc3c3c', '#b4783c', '#8c3cb4' ];
	var base = lines >> 2, f = HEAPF32;
	g.globalAlpha = 0.35;
	g.lineWidth = 1;
	for (var kind = 0; kind < 7; kind++) {
		g.beginPath();
		for (var i = 0; i < count; i++) {
			var k = f[base + 5 * i + 4] | 0;
			if (k < 1 || k > 6) k = 0;
			if (k != kind) continue;
			g.moveTo(ox + f[base + 5 * i] * scale, oy + f[base + 5 * i + 1] * scale);
			g.lineTo(ox + f[base + 5 * i + 2] * scale, oy + f[base + 5 * i + 3] * scale);
		}
		g.strokeStyle = colours[kind];
		g.stroke();
	}
	g.globalAlpha = 1;
})

// A box of text over the panel (the help): lines split at '\n', the first a heading.
EM_JS(void, js_overlay, (const char* text, int x), {
	Module.gtFlush();
	var g = Module.gtContext, lines = UTF8ToString(text).split('\n');
	var w = Module.gtCanvas.width - x - 12, h = 24 + 17 * lines.length, y = 12;
	g.fillStyle = 'rgb(10,10,14)';
	g.fillRect(x + 6, y, w, h);
	g.strokeStyle = '#50c8ff';
	g.lineWidth = 1;
	g.strokeRect(x + 6.5, y + 0.5, w - 1, h - 1);
	g.font = '12px monospace';
	for (var i = 0; i < lines.length; i++) {
		g.fillStyle = i == 0 ? '#50c8ff' : '#e6e6e6';
		g.fillText(lines[i], x + 16, y + 22 + 17 * i);
	}
})

EM_JS(void, js_panel, (const char* text, int x), {
	Module.gtFlush();
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
	if (Module.gtStroke != colour) {
		Module.gtFlush();
		g.beginPath();
		g.strokeStyle = Module.gtColour(colour);
		g.lineWidth = 2;
		Module.gtStroke = colour;
	}
	g.moveTo(x0, y0);
	g.lineTo(x1, y1);
})

// points: x, y pairs in canvas pixels.
EM_JS(void, js_polygon, (const double* points, int count, int filled, unsigned colour), {
	Module.gtFlush();
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
	Module.gtFlush();
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
	Module.gtFlush();
	var g = Module.gtContext;
	g.fillStyle = Module.gtColour(colour);
	g.fillRect(x - size / 2, y - size / 2, size, size);
})

EM_JS(void, js_text, (double x, double y, const char* text, unsigned colour), {
	Module.gtFlush();
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

static double picture_scale = 1; // the scale the map picture was drawn at

void canvas_map(const gtMap* map, const CanvasView* v)
{
	picture_scale = v->scale;
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
	js_begin(v->offset_x, v->offset_y, v->scale / picture_scale, v->map_width);
}

void canvas_agents(const float* xyk, int count, const CanvasView* v)
{
	js_agents(xyk, count, v->offset_x, v->offset_y, v->scale);
}

void canvas_lines(const float* lines, int count, const CanvasView* v)
{
	js_lines(lines, count, v->offset_x, v->offset_y, v->scale);
}

void canvas_overlay(const char* text)
{
	js_overlay(text, js_canvas_width() - CANVAS_PANEL_WIDTH);
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
