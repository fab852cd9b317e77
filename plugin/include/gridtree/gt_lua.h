/// @file gt_lua.h
/// For hosts that compile the Lua binding (plugin/lua/*.c) into their own program, as the
/// demo does: open the module, then reach the C objects behind a script's gridtree values, so the
/// host draws and queries the script's own world and map instead of keeping copies in step.
///
/// The loadable module (bin/gridtree.so, `require "gridtree"`) exports luaopen_gridtree only; the
/// gtLua_ functions exist only where the binding is compiled in. Not part of gridtree.h, which
/// needs no Lua.
///
/// Lifetime: a pointer returned here is the Lua object's, valid while that object is alive and
/// open, i.e. until the script closes it (map:close(), world:close()) or the collector takes it.
/// Fetch it again after running script code that may replace or close it, and keep the value
/// referenced (a registry reference, a table field) while you use it. Never destroy it from C.
///
/// Reentrancy: script code runs inside the binding's calls (build_index's progress callback, a
/// new_map cells function, finalizers at any allocation), and may call back into the same map or
/// world. The binding makes every such call work (results are copied from scratch the running
/// call owns alone) or refuses it with a Lua error: a map being indexed cannot be edited ("map is
/// being indexed") nor closed. A host calling the C objects from such script code (a C function
/// the script calls, a finalizer) is under the same rule: never edit or destroy a map whose
/// build_index is running; everything else is safe between library calls.
///
/// One index for script and host: the nav of a script's map (gtLua_ToNav) is the one its distances,
/// paths and world queries use. Load, build or hand over an index there (gtNav_LoadIndex,
/// gtNav_BuildIndex, gtNav_SetIndex) and the script uses it at once; the Lua map then owns it.
///
/// Contents
///     Opening the module              luaopen_gridtree
///     C objects behind script values  gtLua_ToMap, gtLua_ToNav, gtLua_ToNavQuery, gtLua_ToWorld
#ifndef GRIDTREE_GT_LUA_H
#define GRIDTREE_GT_LUA_H

#include "gt_nav.h"
#include "gt_world.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Opening the module

typedef struct lua_State lua_State; // as lua.h declares it, so this header stands alone

/// The module's opener: call it through require (put it in package.preload["gridtree"]) or with
/// luaL_requiref(L, "gridtree", luaopen_gridtree, 0).
int luaopen_gridtree(lua_State* L);

//------------------------------------------------------------------------------------------------
// C objects behind script values

/// The functions below take any acceptable stack index and never raise a Lua error: they return
/// NULL when the value there is not an object of that type, or is closed. They leave the stack as
/// it was.

/// The map of a gridtree.Map.
const gtMap* gtLua_ToMap(lua_State* L, int index);

/// The navigation façade of a gridtree.Map: its index (or oracle) answers the script's distances,
/// paths and world queries. Changing its index or method changes theirs.
gtNav* gtLua_ToNav(lua_State* L, int index);

/// The query object the gridtree.Map itself queries through, for use on the thread that runs the
/// Lua state, between script calls (it is not reentrant with them). Another thread needs its own
/// gtNavQuery_Create on the nav, destroyed before the map is closed or collected.
gtNavQuery* gtLua_ToNavQuery(lua_State* L, int index);

/// The world of a gridtree.World. The host may query it and read it; objects it adds, moves or
/// removes are seen by the script as well (the binding keeps no copy of them).
gtWorld* gtLua_ToWorld(lua_State* L, int index);

#ifdef __cplusplus
}
#endif

#endif
