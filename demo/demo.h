// The demo's state, shared by its parts: main.c (start-up and the frame loop), input.c (keys,
// mouse, map edits, the backend switch), scene.c (what is drawn over the map), panel.c (the side
// panel) and record.c (screenshots and recordings).
#ifndef GRIDTREE_DEMO_DEMO_H
#define GRIDTREE_DEMO_DEMO_H

#include <lua.h>
#include <stdbool.h>

#include <SDL.h>

#include "draw.h"
#include "gridtree/gridtree.h"

typedef struct Options {
	const char *map, *index, *script, *screenshot, *layers, *keys, *record, *mesh;
	int agents, leaf, cell, frames, k, width, height, record_every;
	long seed;
	bool headless, crowd;
} Options;

#define QUERY_MARKER 0xFF50C8FFu // 0xRRGGBBAA; the tests count its pixels
#define MAX_AGENTS 1000000      // --agents bound; also bounds the script's position tables
#define PANEL_WIDTH 340         // the side panel, right of the map
enum { KIND_COUNT = 6 };
extern const Uint32 KIND_COLOURS[KIND_COUNT + 1]; // 0xAARRGGBB per kind, then the colour of an unknown kind

enum { LAYER_AGENTS, LAYER_QUERY, LAYER_TREE, LAYER_LEAVES, LAYER_VERTICES, LAYER_CELLS, LAYERS };
enum { FILTER_COUNT = 6, MAX_K = 50 /* the + key's limit */, MAX_DOORS = 8 };
extern const char* const LAYER_NAMES[LAYERS];
extern const char* const QUERY_KINDS[3];
extern const char* const FILTERS[FILTER_COUNT];

typedef struct Frame {
	double lua_s, move_s, script_query_s, plan_s, query_s, draw_s;
	int queries, plans;
	long long distance_calls, nodes;
	double kth; // the k-th distance (or the radius) of the mouse query
} Frame;

typedef struct Door {
	int x0, y0, x1, y1, id;
	bool open;
} Door;

typedef struct Demo {
	Options o;
	lua_State* L;
	int demo_ref, map_ref; // the script's demo table and its map, in the registry
	// The script's own objects (gt_lua.h): the mouse query runs on its world with its map's nav,
	// and the layers draw them. Fetched again after every script call (demo.set_leaf replaces the
	// world); owned by Lua, never destroyed here.
	const gtMap* map;
	gtNav* nav;
	gtNavQuery* nav_query; // the map's own query object: used between script calls only
	gtWorld* world;
	gtDistance distance;
	char map_name[64];
	int edits;      // walls and doors toggled
	bool map_dirty; // the map picture is out of date
	Door doors[MAX_DOORS];
	int door_count;
	// Backends: the mesh is made (or loaded) the first time it is chosen, and again after edits.
	bool mesh_current;
	double backend_query_us[2]; // the last mouse query with EHL, with the mesh
	// The mouse query's answer and its paths, in buffers that grow only when too small.
	gtObjectId* found;
	double* found_d;
	int found_count, found_capacity;
	gtVec2* path_points;
	int path_used, path_capacity;
	int *path_start, *path_count;
	// Caller-owned debug-draw buffers: nothing allocates per frame.
	gtDebugTraceEntry* trace_storage;
	gtDebugTrace trace;
	gtEhlVia* vias;
	SdlDebugDraw sdl;
	gtDebugDraw draw;
	View view;
	SDL_Renderer* renderer;
	int window_w, window_h;
	SDL_Texture* sprites[KIND_COUNT + 1][2]; // a disc per kind, small and big unit, at sprite_radius
	float sprite_radius;
	double qx, qy;
	bool pinned, layers[LAYERS], crowd, help, framed;
	bool failed; // stop with an error (the script closed what the demo draws)
	int kind, filter;
	// The script's crowd figures of the last frame (demo.crowd): re-targets allowed a frame, done,
	// agents in all, frames until every agent is served again.
	int retargets, served, targeting, stalest;
} Demo;

// main.c
bool call_demo(lua_State* L, int demo_ref, const char* name, int args, int results);
bool fetch_objects(Demo* d);
lua_Integer agent_count(lua_State* L, int a, int b);

// input.c
void handle_event(Demo* d, const SDL_Event* e, bool* running, bool* paused, bool* step, int* speed, bool* dragging);
void push_scripted_input(const Demo* d, char c);
void find_doors(Demo* d);
bool set_backend(Demo* d, bool mesh);

// scene.c
int map_view_width(const Demo* d);
void fit_view(Demo* d, double x0, double y0, double x1, double y1);
void fit_whole_map(Demo* d);
void frame_query(Demo* d); // the start view: the query and its answers
void draw_doors(Demo* d);
void draw_agents(Demo* d);
void draw_targets(Demo* d);
void draw_query(Demo* d, const Frame* f);
void free_sprites(Demo* d);
void label(SDL_Renderer* r, int x, int y, const char* text, SDL_Color c); // text on a dark box

// panel.c
void draw_panel(Demo* d, const Frame* f, double fps, bool paused, int speed);

// record.c
bool save_screenshot(SDL_Renderer* r, int w, int h, const char* path, SDL_Surface** kept);
bool record_frame(SDL_Renderer* r, int w, int h, const char* apng, int index);
// Joins the `frames` recorded frames into the animated PNG (each shown delay_60ths / 60 s) and
// removes them; no frame recorded is only a message.
bool finish_recording(const char* apng, int frames, int delay_60ths);

#endif
