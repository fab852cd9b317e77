// Labels that never cover each other: each box goes to the first of a ring of positions round
// its anchor (right, left, above, below, then the corners; nearest ring first) that overlaps no
// box placed before it and no area kept clear (answer discs, the query marker). A box that had to
// move off its anchor's side gets a leader line. Greedy, in the order labels are placed: the
// first placed keep the best spots.
#include <math.h>
#include <string.h>

#include "demo.h"

enum { CHAR_W = 8, LINE_H = 14, PAD = 3 };

void labels_begin(Labels* l, SDL_Rect bounds)
{
	l->count = l->placed = l->crowded = 0;
	l->bounds = bounds;
}

static void take(Labels* l, SDL_Rect r)
{
	if (l->count < MAX_PLACED) l->taken[l->count++] = r;
}

void labels_keep_clear(Labels* l, SDL_FPoint centre, float radius)
{
	int r = (int)ceilf(radius);
	take(l, (SDL_Rect){(int)centre.x - r, (int)centre.y - r, 2 * r, 2 * r});
}

void label_size(const char* text, int* w, int* h)
{
	int lines = 1, longest = 0, len = 0;
	for (const char* t = text; *t; t++) {
		if (*t == '\n') lines++, len = 0;
		else if (++len > longest) longest = len;
	}
	*w = longest * CHAR_W + 2 * PAD - 2; // the last glyph's gap is not drawn
	*h = 10 + 2 * PAD + (lines - 1) * LINE_H;
}

static bool fits(const Labels* l, SDL_Rect r)
{
	const SDL_Rect* b = &l->bounds;
	if (r.x < b->x || r.y < b->y || r.x + r.w > b->x + b->w || r.y + r.h > b->y + b->h) return false;
	for (int i = 0; i < l->count; i++)
		if (SDL_HasIntersection(&r, &l->taken[i])) return false;
	return true;
}

bool labels_place(Labels* l, SDL_FPoint anchor, float clearance, const char* text, SDL_Rect* box, bool* far)
{
	if (labels_try(l, anchor, clearance, text, box, far)) return true;
	int w, h;
	label_size(text, &w, &h);
	l->placed++;
	*box = (SDL_Rect){(int)(anchor.x + clearance + 2), (int)(anchor.y - h / 2.0f), w, h}; // no room: beside it anyway
	*far = false;
	take(l, *box);
	l->crowded++;
	return false;
}

bool labels_try(Labels* l, SDL_FPoint anchor, float clearance, const char* text, SDL_Rect* box, bool* far)
{
	int w, h;
	label_size(text, &w, &h);
	// Unit directions: right, left, up, down, then the four corners.
	static const float dirs[8][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {1, 1}, {-1, -1}, {-1, 1}};
	for (int ring = 0; ring < 6; ring++) {
		float gap = clearance + 2 + ring * 16.0f;
		for (int i = 0; i < 8; i++) {
			float dx = dirs[i][0], dy = dirs[i][1];
			// The box's near edge (or corner) at `gap` from the anchor in that direction.
			float x = dx > 0 ? anchor.x + gap : dx < 0 ? anchor.x - gap - w : anchor.x - w / 2.0f;
			float y = dy > 0 ? anchor.y + gap : dy < 0 ? anchor.y - gap - h : anchor.y - h / 2.0f;
			if (dx != 0 && dy != 0) x -= dx * gap * 0.3f, y -= dy * gap * 0.3f; // corners: not as far out
			SDL_Rect r = {(int)x, (int)y, w, h};
			if (!fits(l, r)) continue;
			take(l, r);
			l->placed++;
			*box = r;
			*far = ring > 0;
			return true;
		}
	}
	return false;
}

void draw_label(SDL_Renderer* r, SDL_Rect box, const char* text, SDL_Color c, SDL_FPoint anchor, bool far)
{
	SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND);
	if (far) { // from the anchor to the box's nearest point
		float nx = fminf(fmaxf(anchor.x, (float)box.x), (float)(box.x + box.w));
		float ny = fminf(fmaxf(anchor.y, (float)box.y), (float)(box.y + box.h));
		SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 200);
		SDL_RenderDrawLineF(r, anchor.x, anchor.y, nx, ny);
	}
	SDL_SetRenderDrawColor(r, 8, 9, 12, 215);
	SDL_RenderFillRect(r, &box);
	SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
	SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
	char line[128];
	int y = box.y + PAD;
	for (const char* t = text; *t;) {
		size_t n = strcspn(t, "\n");
		if (n >= sizeof line) n = sizeof line - 1;
		memcpy(line, t, n);
		line[n] = '\0';
		draw_text(r, box.x + PAD, y, 2, line);
		y += LINE_H;
		t += n;
		if (*t == '\n') t++;
	}
}
