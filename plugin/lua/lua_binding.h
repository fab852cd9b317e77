/* The Lua binding's internals, shared by its files (one per object type, lgridtree.c opens the
** module). Internal to plugin/lua. */
#ifndef GRIDTREE_LUA_BINDING_H
#define GRIDTREE_LUA_BINDING_H

#include <stddef.h>
#include <stdint.h>

#include "gridtree/gridtree.h"

#include "lua_args.h"
#include "lua_compat.h"

#define MAP_TYPE "gridtree.Map"
#define WORLD_TYPE "gridtree.World"
#define RANDOM_TYPE "gridtree.Random"
#define CROWD_TYPE "gridtree.Crowd"
#define NEIGHBOURS_TYPE "gridtree.Neighbours"
/* The binding's own limits (the library's are the GT_* constants of gt_base.h). Every length
** read from Lua is checked against one of them before anything loops or allocates. */
#define MAX_WORDS 64   /* words in one keyword list */
#define MAX_EXCLUDE 64 /* ids in one exclude list */
#define MAX_K 1000000  /* k of nearest and top */
#define MAX_MOVE_MANY 100000000
#define MAX_PATH_POINTS (2 * GT_MAP_MAX_CELLS) /* a shortest path bends at most once per grid point */
#define ADVANCE_WINDOW 4 /* path points gridtree.advance reads first: a frame's step rarely passes two bends */

/*
** Reentrancy (lua/README.md, "Callbacks, finalizers and argument tables"). Lua code can run in
** the middle of a method: build_index's progress callback, a new_map cells function, and
** finalizers (__gc of any object), which the collector may run at any allocation the method makes
** (a table, a string, a userdata). Such code may call any method of the very map or world in use.
** The rules that keep every such call safe and its answers right:
**  1. The one library call that runs Lua code, gtEhl_Build, reads the map: while it runs the map
**     is `building`, and closing it ("map is in use by build_index") or editing it
**     ("map is being indexed") raises. Everything else (queries, other indexes) is allowed. The
**     callback runs under lua_pcall, so `building` always comes back down.
**  2. No other library call runs Lua code: a query's trace goes to a C buffer, not a Lua table.
**  3. Results are copied into Lua tables from a Buffer that the call owns alone: it takes the
**     object's idle buffer out of the object's slot (or makes one) before computing, keeps it on
**     its stack, and puts it back after the copy. A nested call finds the slot empty and makes its
**     own, so nothing it does can move or overwrite the results being copied. Buffers are plain
**     userdata (the collector frees them; no finalizer), so an error between take and give back
**     only leaves the buffer to the collector. Closing frees the library objects (gtMap, gtNav,
**     gtWorld), never a buffer. A buffer grows before the library call, never inside it.
**  4. Argument tables are read raw (lua_rawlen, lua_rawgeti, lua_next): their metamethods are
**     never called. A method rechecks that its object is open after anything that allocates (a
**     buffer, a number given as a string argument), before it touches library objects.
*/
typedef struct LMap {
	gtMap* map;
	gtNav* nav; /* the index when there is one, else the oracle (built on first use) */
	gtNavQuery* query;
	int worlds; /* open worlds using this map: it is freed only after the last one */
	int closed;
	int building; /* build_index calls running: the map must not be freed nor edited (rule 1) */
	/* Game units (map:set_units): a cell is unit_scale units, and cell corner (0, 0) is at
	** (unit_x, unit_y). Every position, distance, radius and score the script sees is in them. */
	double unit_scale, unit_x, unit_y;
} LMap;

typedef struct LWorld {
	gtWorld* world;
	LMap* map;
	/* nearest_many: the crowd's workers and frame-budget queue (the library's allocator, freed
	** with the world). Its answers go to the world's Buffer (rule 3). */
	gtCrowd* crowd;
	int crowd_threads;
	gtSchedule* schedule;
	int crowds; /* open crowd objects (lua_crowd.c) over this world: it is freed only after the last one */
	int closed;
} LWorld;

/* Userdata slots (lua_compat.h): a map's path buffer; a world's map (kept alive) and buffer. */
enum { MAP_SLOTS = 1, MAP_SLOT_BUFFER = 1, WORLD_SLOTS = 2, WORLD_SLOT_MAP = 1, WORLD_SLOT_BUFFER = 2 };

/* A call's scratch for results (rule 3): two blocks, each a plain userdata kept in the buffer's
** slots, so the collector owns all of it (no finalizer: nothing to free late, nor to leak when a
** finalizer uses an object while the state closes). */
enum { BUFFER_SLOTS = 2 };
typedef struct Buffer {
	void* block[2];
	size_t bytes[2];
} Buffer;

#define SCRATCH_ENTRY (sizeof(gtVec2) + sizeof(double) + sizeof(gtObjectId)) /* each 8-aligned */

/* Room for `capacity` results or moves in a buffer's block 0: points, dists and ids. */
typedef struct Scratch {
	gtVec2* points;
	double* dists;
	gtObjectId* ids;
	int capacity;
} Scratch;

/* Distinct words a query names but no object has ever had: the library sees them all as -1, so
** the binding tells them apart by their text (world:top counts each as one missing word). */
typedef struct Unknown {
	const char* text[MAX_WORDS];
	size_t length[MAX_WORDS];
	int count;
} Unknown;

/* ---- shared helpers (lua_util.c) ------------------------------------------------------------ */

Buffer* lgt_take_buffer(lua_State* L, int object, int slot);
void lgt_give_buffer(lua_State* L, int object, int slot, int at);
void* lgt_buffer_reserve(lua_State* L, int at, int which, size_t bytes);
Scratch lgt_scratch_of(Buffer* b);
Scratch lgt_reserve(lua_State* L, int at, int n);

double lgt_check_coord(lua_State* L, int i);
gtVec2 lgt_to_cells(const LMap* m, double x, double y);
gtVec2 lgt_check_point(lua_State* L, const LMap* m, int i);
/* What is wrong with a (first) or b as a query's ends on m's map (gtPointCheckName); NULL: both valid. */
const char* lgt_pair_invalid(const LMap* m, gtVec2 a, gtVec2 b);
void lgt_push_point(lua_State* L, double scale, double x0, double y0, gtVec2 p);
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int lgt_arg_errorf(lua_State* L, int arg, const char* format, ...);
int lgt_option_integer(lua_State* L, int v, int arg, const char* key, int lo, int hi);
double lgt_option_number(lua_State* L, int v, int arg, const char* key);
int lgt_unknown_option(lua_State* L, int arg, int key);
int lgt_first_option(lua_State* L, int arg, const char** key);
int lgt_next_option(lua_State* L, int arg, int v, const char** key);
int lgt_fail(lua_State* L, const char* message);

void lgt_note_unknown(Unknown* u, const char* text, size_t length);
void lgt_check_list(lua_State* L, int i, int arg, const char* what, size_t n, int options_arg);
int lgt_read_words(lua_State* L, LWorld* w, int i, int arg, const char* what, int32_t* out, int intern,
                   Unknown* unknown, int options_arg);

/* ---- objects: each file's functions and methods ------------------------------------------------ */

/* lua_map.c */
extern const luaL_Reg lgt_map_methods[];
LMap* lgt_check_map(lua_State* L, int i);
/* The map at i, refused while build_index runs (its progress callback must not edit the map). */
LMap* lgt_check_editable_map(lua_State* L, int i);
LMap* lgt_new_map_object(lua_State* L);
void lgt_open_map(lua_State* L, LMap* m, gtMap* map);
void lgt_map_release(LMap* m);
gtDistance lgt_map_distance_module(lua_State* L, LMap* m);
int lgt_new_map(lua_State* L);
int lgt_map_random_point(lua_State* L);
int lgt_map_close(lua_State* L);
int lgt_map_gc(lua_State* L);
int lgt_map_tostring(lua_State* L);

/* lua_tiled.c */
int lgt_load_map(lua_State* L);

/* lua_path.c */
int lgt_map_path(lua_State* L);
/* Links (lua_links.c). */
int lgt_map_add_link(lua_State* L);
int lgt_map_remove_link(lua_State* L);
int lgt_map_enable_link(lua_State* L);
int lgt_map_link_count(lua_State* L);
int lgt_map_set_floors(lua_State* L);
int lgt_map_floor_point(lua_State* L);
int lgt_map_point_floor(lua_State* L);
int lgt_map_reachable(lua_State* L);
int lgt_map_nearest_reachable(lua_State* L);
int lgt_advance(lua_State* L);

/* lua_random.c */
extern const luaL_Reg lgt_random_methods[];
int lgt_random(lua_State* L);
int lgt_random_tostring(lua_State* L);

/* lua_world.c */
extern const luaL_Reg lgt_world_methods[];
LWorld* lgt_check_world(lua_State* L, int i);
gtObjectId lgt_check_id(lua_State* L, LWorld* w, int i);
int lgt_new_world(lua_State* L);
int lgt_world_close(lua_State* L);
void lgt_world_release(LWorld* w);
int lgt_world_gc(lua_State* L);
int lgt_world_tostring(lua_State* L);

/* lua_query.c */
int lgt_read_exclude(lua_State* L, int v, int arg, gtObjectId* out);
int lgt_one_per_unknown_word(int32_t* words, int n, int unknown_words);
int lgt_world_nearest(lua_State* L);
int lgt_world_within(lua_State* L);
int lgt_world_top(lua_State* L);

/* lua_neighbours.c */
extern const luaL_Reg lgt_neighbours_methods[];
int lgt_new_neighbours(lua_State* L);
int lgt_neighbours_close(lua_State* L);
int lgt_neighbours_tostring(lua_State* L);

/* lua_crowd.c */
extern const luaL_Reg lgt_crowd_methods[];
int lgt_world_nearest_many(lua_State* L);
int lgt_new_crowd(lua_State* L);
int lgt_crowd_close(lua_State* L);
int lgt_crowd_tostring(lua_State* L);

#endif
