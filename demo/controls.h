// The demo's controls without SDL (controls.c), shared by the native demo (input.c, main.c) and
// the web page (web/web_main.c): which key does what, the help lines, the map edits (walls and
// doors) on the nav, the switch between the EHL index and the navigation mesh, and the layers
// drawn through the library's debug-draw callbacks.
#ifndef GRIDTREE_DEMO_CONTROLS_H
#define GRIDTREE_DEMO_CONTROLS_H

#include <stdbool.h>
#include <stddef.h>

#include "gridtree/gridtree.h"

enum { MAX_DOORS = 8 };

typedef struct Door {
	int x0, y0, x1, y1, id;
	bool open;
} Door;

typedef enum DemoKey {
	KEY_NONE,
	KEY_QUIT,
	KEY_PAUSE,
	KEY_STEP,
	KEY_SPEED,
	KEY_HELP,
	KEY_WHOLE_MAP,
	KEY_PIN,
	KEY_CROWD,
	KEY_APART,
	KEY_BACKEND,
	KEY_DOOR,
	KEY_KIND,
	KEY_FILTER,
	KEY_MORE,
	KEY_FEWER,
	KEY_WALL,
	KEY_LEAF_SMALLER,
	KEY_LEAF_LARGER,
	KEY_LAYER_1 // KEY_LAYER_1 + i toggles layer i (0 to 5)
} DemoKey;

// What key `c` does: a character ('a'..'z' or 'A'..'Z', '1'..'6', ' ', '+', '=', '-', 27 for
// escape); an upper-case letter is the key with shift.
DemoKey demo_key(int c, bool shift);

enum { CONTROL_LINES = 8 };
// The controls, one line each, as both panels list them.
extern const char* const CONTROL_HELP[CONTROL_LINES];

// Doors where the map narrows (see controls.c), declared on the nav: up to MAX_DOORS, returns
// how many.
int find_doors(gtNav* nav, Door doors[MAX_DOORS]);
// The door nearest (x, y), or -1 without doors.
int nearest_door(const Door* doors, int count, double x, double y);
// Opens or shuts doors[i]; false (with a message on stderr) when the nav refused.
bool toggle_door(gtNav* nav, Door* door);
// A click at (x, y): the door there opens or shuts, else a 3x3 wall is built on a free cell or
// demolished on a wall (never over a door). True when the map changed, with the cell edited.
bool toggle_at(gtNav* nav, Door* doors, int door_count, double x, double y, int* cell_x, int* cell_y);
// After an edit at cell (cx, cy): a query point now in a wall moves to a free cell near it.
void free_query_point(const gtMap* map, int cx, int cy, double* qx, double* qy);

typedef struct Backend {
	const char* mesh_file; // the shipped mesh, loaded while the map is as shipped; NULL: none
	bool mesh_current;     // the nav's mesh matches the map
	char mesh_source[1300];
} Backend;

// The EHL index (mesh false), or the navigation mesh: the shipped one while there has been no
// edit, else one made from the map now. False, with a message in err, when it cannot be had.
bool choose_backend(gtNav* nav, Backend* b, bool mesh, int edits, gtError* err);

// Layer 5: convex vertices, and the visibility edges of the one nearest (qx, qy) (within 3 units).
void draw_vertices_layer(const gtDebugDraw* draw, const gtMap* map, double qx, double qy);
// Layer 6: the EHL cell grid, and the vias of the cell under (qx, qy).
void draw_cells_layer(const gtDebugDraw* draw, const gtNav* nav, double qx, double qy, gtEhlVia* vias,
                      int via_capacity);

#endif
