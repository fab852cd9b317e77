// The side panel, right of the map (never over it): which map, what each colour is, the mouse
// query and its timings on each backend, the frame's split and the crowd's budget, the controls.
#include <stdio.h>
#include <string.h>

#include "demo.h"

typedef struct Pen {
	SDL_Renderer* r;
	int x, y, width;
} Pen;

static void line(Pen* p, Uint8 grey, const char* text)
{
	SDL_SetRenderDrawBlendMode(p->r, SDL_BLENDMODE_NONE);
	SDL_SetRenderDrawColor(p->r, grey, grey, grey, 255);
	draw_text(p->r, p->x, p->y, 2, text);
	p->y += 15;
}

static void heading(Pen* p, const char* text)
{
	p->y += 8;
	SDL_SetRenderDrawColor(p->r, 0x50, 0xC8, 0xFF, 255);
	draw_text(p->r, p->x, p->y, 2, text);
	SDL_Rect rule = {p->x, p->y + 12, p->width, 1};
	SDL_SetRenderDrawColor(p->r, 60, 64, 76, 255);
	SDL_RenderFillRect(p->r, &rule);
	p->y += 18;
}

// A string field of the script's demo table (on the stack top), or "".
static const char* field_string(lua_State* L, const char* table, int i)
{
	const char* s = "";
	lua_getfield(L, -1, table);
	if (lua_istable(L, -1)) {
		lua_rawgeti(L, -1, i);
		if (lua_type(L, -1) == LUA_TSTRING) s = lua_tostring(L, -1); // kept alive by the table
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return s;
}

static lua_Integer field_integer(lua_State* L, const char* table, int i)
{
	lua_getfield(L, -1, table);
	lua_Integer v = 0;
	if (lua_istable(L, -1)) {
		lua_rawgeti(L, -1, i);
		v = lua_tointeger(L, -1);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return v;
}

// The legend: each kind's disc, name, what it does and how many there are.
static void legend(Pen* p, Demo* d)
{
	lua_State* L = d->L;
	lua_rawgeti(L, LUA_REGISTRYINDEX, d->demo_ref);
	for (int k = 0; k < KIND_COUNT; k++) {
		const char* name = field_string(L, "kind_names", k + 1);
		if (!*name) continue;
		SDL_Texture* disc = d->sprites[k][0];
		if (disc) {
			SDL_Rect at = {p->x, p->y - 2, 12, 12};
			SDL_RenderCopy(p->r, disc, NULL, &at);
		}
		char text[96];
		snprintf(text, sizeof text, "%-7s %-14s %lld", name, field_string(L, "kind_roles", k + 1),
		         (long long)field_integer(L, "kind_counts", k + 1));
		int x = p->x;
		p->x += 18;
		line(p, 225, text);
		p->x = x;
	}
	lua_pop(L, 1);
	SDL_Rect marker = {p->x + 1, p->y - 1, 10, 10};
	SDL_SetRenderDrawColor(p->r, 0x50, 0xC8, 0xFF, 255);
	SDL_RenderFillRect(p->r, &marker);
	p->x += 18;
	line(p, 225, "QUERY POINT (THE MOUSE)");
	p->x -= 18;
	SDL_Rect path = {p->x, p->y + 2, 12, 4};
	SDL_SetRenderDrawColor(p->r, 255, 226, 64, 255);
	SDL_RenderFillRect(p->r, &path);
	p->x += 18;
	line(p, 225, "ITS K ANSWERS: WALKING PATH");
	line(p, 225, "AND DISTANCE, AROUND WALLS");
	p->x -= 18;
	SDL_Rect dashes[3] = {{p->x, p->y + 3, 3, 2}, {p->x + 5, p->y + 3, 3, 2}, {p->x + 10, p->y + 3, 3, 2}};
	SDL_SetRenderDrawColor(p->r, 235, 235, 245, 255);
	SDL_RenderFillRects(p->r, dashes, 3);
	p->x += 18;
	line(p, 225, "DASHED: NEARER IN A STRAIGHT");
	line(p, 225, "LINE, BUT FARTHER ON FOOT");
	p->x -= 18;
}

// The frame against its budget (60 frames a second): one segment per part of the frame.
static void frame_bar(Pen* p, const Frame* f)
{
	const double budget_s = 1.0 / 60;
	double other = f->lua_s - f->script_query_s - f->plan_s - f->move_s;
	const double parts[] = {f->script_query_s, f->plan_s, f->move_s, other > 0 ? other : 0, f->query_s, f->draw_s};
	static const Uint32 colours[] = {0x6FD36F, 0x58B4FF, 0xE8C547, 0x8A8F9C, 0x50C8FF, 0xB26BE0};
	SDL_Rect back = {p->x, p->y, p->width, 10};
	SDL_SetRenderDrawColor(p->r, 48, 52, 62, 255);
	SDL_RenderFillRect(p->r, &back);
	int x = p->x;
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		int w = (int)(p->width * parts[i] / budget_s + 0.5);
		if (x + w > p->x + p->width) w = p->x + p->width - x;
		if (w <= 0) continue;
		SDL_Rect part = {x, p->y, w, 10};
		SDL_SetRenderDrawColor(p->r, (colours[i] >> 16) & 255, (colours[i] >> 8) & 255, colours[i] & 255, 255);
		SDL_RenderFillRect(p->r, &part);
		x += w;
	}
	p->y += 16;
}

static const char* index_state(const gtNav* nav)
{
	switch (gtNav_IndexState(nav)) {
	case GT_NAV_INDEX_EXACT: return "EXACT";
	case GT_NAV_INDEX_LOWER_BOUND: return "CHECKED (WALLS ADDED)";
	case GT_NAV_INDEX_STALE: return "REBUILDING";
	default: return "NONE";
	}
}

void draw_panel(Demo* d, const Frame* f, double fps, bool paused, int speed)
{
	SDL_Renderer* r = d->renderer;
	int x0 = d->window_w - PANEL_WIDTH;
	SDL_Rect back = {x0, 0, PANEL_WIDTH, d->window_h}, edge = {x0, 0, 2, d->window_h};
	SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
	SDL_SetRenderDrawColor(r, 22, 24, 30, 255);
	SDL_RenderFillRect(r, &back);
	SDL_SetRenderDrawColor(r, 70, 76, 90, 255);
	SDL_RenderFillRect(r, &edge);
	Pen p = {r, x0 + 16, 14, PANEL_WIDTH - 32};
	SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
	draw_text(r, p.x, p.y, 4, "GRIDTREE");
	p.y += 26;
	line(&p, 170, "K NEAREST BY WALKING DISTANCE");
	char text[128];
	snprintf(text, sizeof text, "MAP %s  %d X %d", d->map_name, gtMap_Width(d->map), gtMap_Height(d->map));
	line(&p, 235, text);
	snprintf(text, sizeof text, "AGENTS %d  LEAF %d  EHL CELL %d", d->o.agents, d->o.leaf, d->o.cell);
	line(&p, 235, text);
	heading(&p, "WHO IS WHO");
	legend(&p, d);
	heading(&p, "MOUSE QUERY");
	snprintf(text, sizeof text, "%s  K %d  KEYWORD %s", QUERY_KINDS[d->kind], d->o.k,
	         d->filter ? FILTERS[d->filter] : "ANY");
	line(&p, 235, text);
	if (d->auto_query && d->showcase_level > 0) line(&p, 200, "START POINT: ONE ROUND A WALL");
	if (gtNav_LinkCount(d->nav) > 0) { // floors and links: where the query stands, what agents took
		int floor = gtNav_PointFloor(d->nav, (gtVec2){d->qx, d->qy}, NULL);
		snprintf(text, sizeof text, "FLOOR %d OF %d  LINKS %d", floor, gtNav_FloorCount(d->nav),
		         gtNav_LinkCount(d->nav));
		line(&p, 235, text);
		snprintf(text, sizeof text, "AGENTS TOOK LINKS %d  TELEPORTS %d", d->link_crossings, d->teleports);
		line(&p, 200, text);
	}
	bool mesh = gtNav_Method(d->nav) == GT_NAV_POLYANYA;
	snprintf(text, sizeof text, "BACKEND %s",
	         mesh                  ? "NAVIGATION MESH (POLYANYA)"
	         : gtNav_Index(d->nav) ? "EHL"
	                               : "ORACLE");
	line(&p, 235, text);
	char ehl[24] = "-", poly[24] = "-";
	if (d->backend_query_us[0] > 0) snprintf(ehl, sizeof ehl, "%.0f US", d->backend_query_us[0]);
	if (d->backend_query_us[1] > 0) snprintf(poly, sizeof poly, "%.0f US", d->backend_query_us[1]);
	snprintf(text, sizeof text, "TIME: EHL %s  MESH %s", ehl, poly);
	line(&p, 235, text);
	snprintf(text, sizeof text, "TREE NODES %lld  DISTANCES %lld", f->nodes, f->distance_calls);
	line(&p, 200, text);
	heading(&p, paused ? "FRAME (PAUSED)" : speed > 1 ? "FRAME (4X SPEED)" : "FRAME: BAR = 16.7 MS (60 FPS)");
	frame_bar(&p, f);
	snprintf(text, sizeof text, "FPS %.0f  SCRIPT %.1f MS  DRAW %.1f MS", fps, f->lua_s * 1e3, f->draw_s * 1e3);
	line(&p, 235, text);
	snprintf(text, sizeof text, "TARGETING %.1f MS  PATHS %d IN %.1f MS", f->script_query_s * 1e3, f->plans,
	         f->plan_s * 1e3);
	line(&p, 235, text);
	snprintf(text, sizeof text, "MOVES %.2f MS  MOUSE QUERY %.2f MS", f->move_s * 1e3, f->query_s * 1e3);
	line(&p, 235, text);
	snprintf(text, sizeof text, "RETARGETED %d OF %d (AT MOST %d)", d->served, d->targeting, d->retargets);
	line(&p, 200, text);
	snprintf(text, sizeof text, "EACH AGENT EVERY %d FRAMES OR SOONER", d->stalest);
	line(&p, 200, text);
	if (d->separation) { // the script's layer: its pairs found by one batch neighbour call
		snprintf(text, sizeof text, "SEPARATION ON  %.2f MS  %s", d->sep.ms, d->sep.method);
		line(&p, 235, text);
		snprintf(text, sizeof text, "PAIRS TOO CLOSE %d  PUSHED %d", d->sep.pairs, d->sep.pushed);
		line(&p, 200, text);
	} else {
		line(&p, 200, "SEPARATION OFF (A: KEEP APART)");
	}
	heading(&p, "MAP EDITS");
	int closed = 0;
	for (int i = 0; i < d->door_count; i++) closed += !d->doors[i].open;
	snprintf(text, sizeof text, "EDITS %d  DOORS %d (%d SHUT)", d->edits, d->door_count, closed);
	line(&p, 235, text);
	snprintf(text, sizeof text, "INDEX %s", index_state(d->nav));
	line(&p, 235, text);
	heading(&p, "CONTROLS");
	for (int i = 0; i < CONTROL_LINES && !d->help; i++) line(&p, 190, CONTROL_HELP[i]);
	p.y += 4;
	for (int i = 0; i < LAYERS; i++) {
		int x = p.x + (i % 2) * 150;
		SDL_SetRenderDrawColor(r, d->layers[i] ? 240 : 95, d->layers[i] ? 240 : 95, d->layers[i] ? 240 : 95, 255);
		draw_text(r, x, p.y, 2, LAYER_NAMES[i]);
		if (i % 2) p.y += 15;
	}
}
