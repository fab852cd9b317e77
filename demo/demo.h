// The demo's state, shared by its parts: main.c (start-up and the frame loop), input.c (SDL's
// keys and mouse), controls.c (what the keys do, edits and the backend switch, without SDL: the
// web page shares it), scene.c (what is drawn over the map), panel.c (the side
// panel) and record.c (screenshots and recordings).
#ifndef GRIDTREE_DEMO_DEMO_H
#define GRIDTREE_DEMO_DEMO_H

#include <lua.h>
#include <stdbool.h>

#include <SDL.h>

#include "controls.h"
#include "draw.h"
#include "gridtree/gridtree.h"
#include "gridtree/gt_random.h"

typedef struct Options {
	const char *map, *index, *script, *screenshot, *layers, *keys, *record, *mesh;
	int agents, leaf, cell, frames, k, width, height, record_every;
	long seed;
	bool headless, crowd;
} Options;

#define QUERY_MARKER 0xFF50C8FFu // 0xRRGGBBAA; the tests count its pixels
#define MAX_AGENTS 1000000       // --agents bound; also bounds the script's position tables
#define PANEL_WIDTH 340          // the side panel, right of the map
enum { KIND_COUNT = 6 };
extern const Uint32 KIND_COLOURS[KIND_COUNT + 1]; // 0xAARRGGBB per kind, then the colour of an unknown kind

enum { LAYER_AGENTS, LAYER_QUERY, LAYER_TREE, LAYER_LEAVES, LAYER_VERTICES, LAYER_CELLS, LAYERS };
enum { FILTER_COUNT = 6, MAX_K = 50 /* the + key's limit */, MAX_GHOSTS = 2 };
extern const char* const LAYER_NAMES[LAYERS];
extern const char* const QUERY_KINDS[3];
extern const char* const FILTERS[FILTER_COUNT];

typedef struct Frame {
	double lua_s, move_s, script_query_s, plan_s, query_s, draw_s;
	int queries, plans;
	long long distance_calls, nodes;
	double kth; // the k-th distance (or the radius) of the mouse query
} Frame;

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
	char index_source[1400]; // where the EHL index came from, for the run's summary
	int edits;               // walls and doors toggled
	bool map_dirty;          // the map picture is out of date
	Door doors[MAX_DOORS];
	int door_count;
	int link_crossings, teleports, teleported_elsewhere; // the script's counts (demo.link_crossings, ...)
	// Backends: the mesh is made (or loaded) the first time it is chosen, and again after edits.
	Backend backend;            // the mesh's file (--mesh), whether the nav's mesh is current, where it came from
	double backend_query_us[2]; // the last mouse query with EHL, with the mesh
	// The mouse query's answer and its paths, in buffers that grow only when too small.
	gtObjectId* found;
	double* found_d;
	int found_count, found_capacity;
	gtVec2* path_points;
	int path_used, path_capacity;
	int *path_start, *path_count;
	// The straight-line nearest that walking distance did not choose (nearest queries): drawn
	// faded, with their straight and walking distances. The Euclidean answer's buffers are sized
	// for MAX_K, so the query allocates nothing.
	gtObjectId euclid_ids[MAX_K];
	double euclid_d[MAX_K];
	gtVec2 ghost_at[MAX_GHOSTS];
	double ghost_straight[MAX_GHOSTS], ghost_walk[MAX_GHOSTS];
	int ghost_count;
	// The start query (showcase.c): a point, keyword and k chosen so that an answer's path bends
	// round a wall; kept (and chosen again when the agents' moves lose the bend) until the user
	// moves the mouse over the map, clicks or presses a key.
	bool auto_query;
	bool entering;              // the pointer just entered the window: its first motion is not the user's
	int showcase_level;         // what the last search found: 2 a bend and a ghost, 1 a bend, 0 neither
	int next_search;            // the frame from which a search may run again
	bool search_failed;         // the last search found nothing better
	int labels, crowded_labels; // the last frame's query labels, and those that had to overlap
	int searches;               // searches run (the first at start)
	double search_ms;           // the time they took
	gtRandom showcase_rng;
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
	// Separation (the `a` key, spacing.c): on or off, and the script's figures of its last frame.
	bool separation;
	struct {
		int pairs, pushed, frames;
		double ms, total_ms, total_pairs;
		char method[16];
	} sep;
} Demo;

// main.c
bool call_demo(lua_State* L, int demo_ref, const char* name, int args, int results);
bool fetch_objects(Demo* d);
lua_Integer agent_count(lua_State* L, int a, int b);

// input.c
void handle_event(Demo* d, const SDL_Event* e, bool* running, bool* paused, bool* step, int* speed, bool* dragging);
void push_scripted_input(const Demo* d, char c);
bool set_backend(Demo* d, bool mesh);

// showcase.c
// Searches seeded candidate points, keywords and k for the start query; false (and the query
// left where it is) when no answer anywhere is reached round a wall. `prefer_near` favours points
// near the current one (a search again during the run keeps the view).
bool showcase_search(Demo* d, bool prefer_near);
// Called every frame before drawing: while the start query holds, searches again when the agents'
// moves have lost its bend. True when the query point moved (the view should follow).
bool showcase_keep(Demo* d, int frame);
// How the query at the current point, keyword and k looks: 2, 1 or 0 as showcase_level.
int showcase_level_here(Demo* d);

// labels.c: greedy placement of text boxes that never overlap (see the file).
enum { MAX_PLACED = 96 };
typedef struct Labels {
	SDL_Rect taken[MAX_PLACED]; // boxes placed and areas kept clear (discs, the query marker)
	int count;
	SDL_Rect bounds;     // labels stay inside
	int placed, crowded; // labels placed, and of those put over another for want of room
} Labels;
void labels_begin(Labels* l, SDL_Rect bounds);
void labels_keep_clear(Labels* l, SDL_FPoint centre, float radius);
// The box of `text` (lines split at '\n') placed near `anchor`, at least `clearance` pixels from
// it: true with a box that overlaps nothing placed, else false with the box beside the anchor.
// *far says the box is not beside its anchor (draw a leader line).
bool labels_place(Labels* l, SDL_FPoint anchor, float clearance, const char* text, SDL_Rect* box, bool* far);
// The same, but false with nothing placed when no free place is found.
bool labels_try(Labels* l, SDL_FPoint anchor, float clearance, const char* text, SDL_Rect* box, bool* far);
void label_size(const char* text, int* w, int* h);
// Draws `text` on a dark box at `box` (from label_size), with a leader line to `anchor` when far.
void draw_label(SDL_Renderer* r, SDL_Rect box, const char* text, SDL_Color c, SDL_FPoint anchor, bool far);

// scene.c
int map_view_width(const Demo* d);
void fit_view(Demo* d, double x0, double y0, double x1, double y1);
void fit_whole_map(Demo* d);
void frame_query(Demo* d); // the start view: the query and its answers
void draw_doors(Demo* d);
void draw_links(Demo* d); // links and floor numbers
void draw_agents(Demo* d);
void draw_targets(Demo* d);
void draw_query(Demo* d, const Frame* f);
void free_sprites(Demo* d);

// spacing.c: separation (the `a` key) and the spacing of the agents
void toggle_separation(Demo* d);
void read_separation(Demo* d); // after each demo.update
double mean_nearest_distance(Demo* d);
void print_spacing(Demo* d); // the run summary's lines

// panel.c
void draw_panel(Demo* d, const Frame* f, double fps, bool paused, int speed);

// record.c
bool save_screenshot(SDL_Renderer* r, int w, int h, const char* path, SDL_Surface** kept);
bool record_frame(SDL_Renderer* r, int w, int h, const char* apng, int index);
// Joins the `frames` recorded frames into the animated PNG (each shown delay_60ths / 60 s) and
// removes them; no frame recorded is only a message.
bool finish_recording(const char* apng, int frames, int delay_60ths);

#endif
