// The demo's controls without SDL (controls.h): the native demo and the web page both act on a
// key through demo_key and edit the map, switch backends and draw the library's layers here.
#include <math.h>
#include <stdio.h>

#include "controls.h"

DemoKey demo_key(int c, bool shift)
{
	if (c >= 'A' && c <= 'Z') c += 'a' - 'A', shift = true;
	switch (c) {
	case 27: return KEY_QUIT;
	case ' ': return KEY_PAUSE;
	case 'n': return KEY_STEP;
	case 's': return KEY_SPEED;
	case 'h': return KEY_HELP;
	case 'r': return KEY_WHOLE_MAP;
	case 'p': return KEY_PIN;
	case 'c': return KEY_CROWD;
	case 'a': return KEY_APART;
	case 'b': return KEY_BACKEND;
	case 'o': return KEY_DOOR;
	case 'q': return KEY_KIND;
	case 'f': return KEY_FILTER;
	case '+':
	case '=': return KEY_MORE;
	case '-': return KEY_FEWER;
	case 't': return KEY_WALL;
	case 'l': return shift ? KEY_LEAF_LARGER : KEY_LEAF_SMALLER;
	default: return c >= '1' && c <= '6' ? (DemoKey)(KEY_LAYER_1 + (c - '1')) : KEY_NONE;
	}
}

const char* const CONTROL_HELP[CONTROL_LINES] = {
    "MOUSE QUERY   P PIN   R WHOLE MAP", "CLICK WALL OR DOOR ON/OFF   T WALL", "WHEEL ZOOM    RIGHT DRAG PAN",
    "+/- K   Q KIND   F KEYWORD",        "C CROWD  A APART  B EHL/MESH",       "L/SHIFT+L LEAF   O NEAREST DOOR",
    "SPACE PAUSE  N STEP  S SPEED",      "1-6 LAYERS  H HIDE HELP  ESC QUIT",
};

static bool free_run(const gtMap* m, int x, int y, int dx, int dy, int length)
{
	for (int i = 0; i < length; i++)
		if (gtMap_IsBlocked(m, x + i * dx, y + i * dy)) return false;
	return true;
}

static bool is_door_gap(const gtMap* m, int x, int y, int dx, int dy, int* length)
{
	int w = gtMap_Width(m), h = gtMap_Height(m);
	int n = 0;
	while (n < 5 && x + n * dx < w && y + n * dy < h && !gtMap_IsBlocked(m, x + n * dx, y + n * dy)) n++;
	int ex = x + n * dx, ey = y + n * dy;
	if (n < 2 || n > 4 || ex >= w || ey >= h || !gtMap_IsBlocked(m, ex, ey) || !gtMap_IsBlocked(m, x - dx, y - dy))
		return false;
	*length = n;
	return free_run(m, x - dy, y - dx, dx, dy, n) && free_run(m, x + dy, y + dx, dx, dy, n);
}

// Doors where the map narrows: a run of 2 to 4 free cells with walls at both ends and free cells
// on both sides along its whole length (a gap a corridor passes through). Of all such gaps, up to
// MAX_DOORS spread over the map: each the farthest from those already chosen, none nearer than
// 24 cells to another.
int find_doors(gtNav* nav, Door doors[MAX_DOORS])
{
	enum { MAX_CANDIDATES = 4096 };
	static Door candidates[MAX_CANDIDATES];
	static double nearest[MAX_CANDIDATES];
	int count = 0, found = 0;
	const gtMap* m = gtNav_Map(nav);
	int w = gtMap_Width(m), h = gtMap_Height(m);
	for (int y = 1; y + 1 < h && count < MAX_CANDIDATES; y += 2) // every other row and column: plenty
		for (int x = 1; x + 1 < w && count < MAX_CANDIDATES; x += 2)
			for (int across = 0; across < 2 && count < MAX_CANDIDATES; across++) {
				int dx = across ? 0 : 1, dy = across ? 1 : 0, n;
				if (is_door_gap(m, x, y, dx, dy, &n))
					candidates[count++] = (Door){x, y, x + (n - 1) * dx, y + (n - 1) * dy, 0, true};
			}
	for (int i = 0; i < count; i++) nearest[i] = INFINITY;
	for (int pick = count > 0 ? 0 : -1; pick >= 0 && found < MAX_DOORS;) {
		Door door = candidates[pick];
		gtError err;
		if (gtNav_AddDoor(nav, door.x0, door.y0, door.x1, door.y1, &door.id, &err) == GT_OK) doors[found++] = door;
		pick = -1;
		double best = 24 * 24;
		for (int i = 0; i < count; i++) {
			double dx = candidates[i].x0 - door.x0, dy = candidates[i].y0 - door.y0;
			if (dx * dx + dy * dy < nearest[i]) nearest[i] = dx * dx + dy * dy;
			if (nearest[i] >= best) best = nearest[i], pick = i;
		}
	}
	return found;
}

int nearest_door(const Door* doors, int count, double x, double y)
{
	int best = -1;
	double best_d = INFINITY;
	for (int i = 0; i < count; i++) {
		double dx = doors[i].x0 - x, dy = doors[i].y0 - y;
		if (dx * dx + dy * dy < best_d) best_d = dx * dx + dy * dy, best = i;
	}
	return best;
}

bool toggle_door(gtNav* nav, Door* door)
{
	gtError err;
	if (gtNav_SetDoor(nav, door->id, !door->open, &err)) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return false;
	}
	door->open = !door->open;
	return true;
}

static int door_at(const Door* doors, int count, int x, int y)
{
	for (int i = 0; i < count; i++)
		if (x >= doors[i].x0 && x <= doors[i].x1 && y >= doors[i].y0 && y <= doors[i].y1) return i;
	return -1;
}

bool toggle_at(gtNav* nav, Door* doors, int door_count, double x, double y, int* cell_x, int* cell_y)
{
	const gtMap* map = gtNav_Map(nav);
	int w = gtMap_Width(map), h = gtMap_Height(map);
	if (!(x >= 0 && y >= 0 && x < w && y < h)) return false;
	int cx = (int)x, cy = (int)y;
	int door = door_at(doors, door_count, cx, cy);
	if (door >= 0) {
		*cell_x = doors[door].x0, *cell_y = doors[door].y0;
		return toggle_door(nav, &doors[door]);
	}
	int x0 = cx > 0 ? cx - 1 : 0, y0 = cy > 0 ? cy - 1 : 0, x1 = cx + 1 < w ? cx + 1 : w - 1,
	    y1 = cy + 1 < h ? cy + 1 : h - 1;
	for (int i = 0; i < door_count; i++) // a wall never covers a door: the door is the thing to click
		if (doors[i].x0 <= x1 && doors[i].x1 >= x0 && doors[i].y0 <= y1 && doors[i].y1 >= y0) return false;
	bool build = !gtMap_IsBlocked(map, cx, cy);
	gtError err;
	if (gtNav_SetBlocked(nav, x0, y0, x1, y1, build, &err)) {
		fprintf(stderr, "gridtree-demo: %s\n", err.message);
		return false;
	}
	*cell_x = cx, *cell_y = cy;
	return true;
}

void free_query_point(const gtMap* map, int cx, int cy, double* qx, double* qy)
{
	int w = gtMap_Width(map), h = gtMap_Height(map);
	for (int radius = 0; radius < 4 && gtMap_CheckPoint(map, (gtVec2){*qx, *qy}) != GT_POINT_VALID; radius++)
		for (int j = -radius; j <= radius; j++)
			for (int i = -radius; i <= radius; i++)
				if (cx + i >= 0 && cy + j >= 0 && cx + i < w && cy + j < h && !gtMap_IsBlocked(map, cx + i, cy + j) &&
				    gtMap_CheckPoint(map, (gtVec2){*qx, *qy}) != GT_POINT_VALID)
					*qx = cx + i + 0.5, *qy = cy + j + 0.5;
}

bool choose_backend(gtNav* nav, Backend* b, bool mesh, int edits, gtError* err)
{
	if (!mesh) return gtNav_SetMethod(nav, gtNav_Index(nav) ? GT_NAV_EHL : GT_NAV_AUTO, err) == GT_OK;
	if (!b->mesh_current) { // the shipped mesh while the map is as shipped, else one made from the map now
		gtStatus st = GT_ERR_INVALID_ARG;
		if (b->mesh_file && edits == 0) st = gtNav_LoadMesh(nav, b->mesh_file, err);
		if (!st) snprintf(b->mesh_source, sizeof b->mesh_source, "%s (mesh file, loaded)", b->mesh_file);
		if (st) {
			gtMesh* built;
			st = gtMesh_FromMap(gtNav_Map(nav), &built, err);
			if (!st) st = gtNav_SetMesh(nav, built, err);
			if (!st)
				snprintf(b->mesh_source, sizeof b->mesh_source, "built from the map in memory%s",
				         edits ? " (after edits)" : "");
		}
		if (st) return false;
		b->mesh_current = true;
	}
	return gtNav_SetMethod(nav, GT_NAV_POLYANYA, err) == GT_OK;
}

void draw_vertices_layer(const gtDebugDraw* draw, const gtMap* map, double qx, double qy)
{
	int n;
	const gtVertex* v = gtMap_Vertices(map, &n);
	gtDebugDraw_MapVertices(draw, map);
	int hovered = -1;
	double best = 9;
	for (int i = 0; i < n; i++) {
		double dx = v[i].x - qx, dy = v[i].y - qy;
		if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, hovered = i;
	}
	if (hovered >= 0) gtDebugDraw_VisibilityEdges(draw, map, hovered);
}

void draw_cells_layer(const gtDebugDraw* draw, const gtNav* nav, double qx, double qy, gtEhlVia* vias, int via_capacity)
{
	const gtEhl* ehl = gtNav_Index(nav);
	if (!ehl) return;
	gtDebugDraw_EhlCells(draw, ehl);
	int columns, rows;
	gtEhl_GridSize(ehl, &columns, &rows);
	int g = gtEhl_GetStats(ehl).cell_size;
	int64_t cell = (int64_t)(qy / g) * columns + (int64_t)(qx / g);
	gtDebugDraw_EhlCellVias(draw, ehl, cell, vias, via_capacity);
}
