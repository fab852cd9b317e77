/// @file gt_neighbours.h
/// A Euclidean neighbour index for moving points in 2D and 3D (Brodu 2007, query sphere indexing;
/// docs/neighbours.md): straight-line distances, no walls, each axis open or cyclic (wrapping:
/// distances go the shorter way round). A uniform grid of cells; moving a point inside its cell
/// costs O(1). Queries: every point within a radius, or the k nearest (optionally within a
/// radius), sorted by distance, ties by id; results go into the caller's buffers.
///
/// Contents
///     The index    gtNeighboursDef, gtNeighbours_Create, gtNeighbours_Destroy
///     Points       gtNeighbours_Add, gtNeighbours_Move, gtNeighbours_Remove, gtNeighbours_Position
///     Methods      gtNeighbourMethod, gtNeighbourCosts, gtNeighbours_SetCosts
///     Queries      gtNeighbourQuery, gtNeighbours_Query
///     All at once  gtNeighboursAll, gtNeighbours_QueryAll
#ifndef GRIDTREE_GT_NEIGHBOURS_H
#define GRIDTREE_GT_NEIGHBOURS_H

#include <stdbool.h>

#include "gt_base.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// The index

/// Point handle, tied to the index that issued it; 0 is never valid. Layout as gtObjectId's: slot
/// + 1 in bits 0..23, a generation (odd while the point lives) in bits 24..33, the index's tag in
/// bits 34..52. A removed point's id stays stale; ids of another index are rejected as stale.
typedef uint64_t gtNeighbourId;

/// The storage slot of an id (0-based, -1 for 0). A fresh index gives slots 0, 1, 2, ... in the
/// order points are added, so a slot indexes the caller's own per-point arrays.
static inline int32_t gtNeighbourId_Slot(gtNeighbourId id)
{
	return (int32_t)(id & ((UINT64_C(1) << 24) - 1)) - 1;
}

/// Axis bits of gtNeighboursDef.wrap.
enum { GT_NEIGHBOURS_WRAP_X = 1, GT_NEIGHBOURS_WRAP_Y = 2, GT_NEIGHBOURS_WRAP_Z = 4 };

/// Most cells along one axis, and in all.
#define GT_NEIGHBOURS_MAX_AXIS_CELLS 4096
#define GT_NEIGHBOURS_MAX_CELLS (1 << 24)

typedef struct gtNeighboursDef {
	int dimensions;            ///< 2 or 3
	double size[3];            ///< the world is [0, size[0]) x [0, size[1]) (x [0, size[2])); each > 0 and finite
	unsigned wrap;             ///< GT_NEIGHBOURS_WRAP_* bits: cyclic axes
	double cell;               ///< cell side (0: about 1/16 of the smallest side); cells are shrunk to tile each axis
	int capacity;              ///< points to reserve room for (grows as needed)
	const gtTaskSystem* tasks; ///< for gtNeighbours_QueryAll (NULL: gtSetTasks's)
} gtNeighboursDef;

typedef struct gtNeighbours gtNeighbours;

gtStatus gtNeighbours_Create(const gtNeighboursDef* def, gtNeighbours** out, gtError* err);
void gtNeighbours_Destroy(gtNeighbours* nb);

/// Cells along each axis (1 on the third axis in 2D) and the cell sides they give.
void gtNeighbours_Cells(const gtNeighbours* nb, int cells[3], double sides[3]);
int32_t gtNeighbours_Count(const gtNeighbours* nb);
/// Cells holding at least one point.
int32_t gtNeighbours_NonEmptyCells(const gtNeighbours* nb);

//------------------------------------------------------------------------------------------------
// Points. `p` holds dimensions coordinates. A coordinate on a cyclic axis is wrapped into
// [0, size); on an open axis it must lie in [0, size] (size itself counts as the last cell).
// GT_ERR_INVALID_POINT for NaN, infinities and points outside an open axis; GT_ERR_INVALID_ARG
// for a stale id.

gtStatus gtNeighbours_Add(gtNeighbours* nb, const double* p, gtNeighbourId* id, gtError* err);
gtStatus gtNeighbours_Move(gtNeighbours* nb, gtNeighbourId id, const double* p, gtError* err);
gtStatus gtNeighbours_Remove(gtNeighbours* nb, gtNeighbourId id, gtError* err);
bool gtNeighbours_IsValid(const gtNeighbours* nb, gtNeighbourId id);
/// The point's coordinates as stored (wrapped), 3 doubles (z 0 in 2D).
gtStatus gtNeighbours_Position(const gtNeighbours* nb, gtNeighbourId id, double p[3], gtError* err);
/// Live ids in slot order (the order gtNeighbours_QueryAll answers in); returns how many were
/// written (at most capacity).
int32_t gtNeighbours_List(const gtNeighbours* nb, gtNeighbourId* ids, int32_t capacity);

//------------------------------------------------------------------------------------------------
// Methods

typedef enum gtNeighbourMethod {
	GT_NEIGHBOURS_AUTO,     ///< the cheapest by the cost model below
	GT_NEIGHBOURS_SPHERE,   ///< cell offsets sorted by their smallest distance, early stop
	GT_NEIGHBOURS_CUBE,     ///< every cell overlapping the query's bounding box (bin lattice)
	GT_NEIGHBOURS_NONEMPTY, ///< every non-empty cell, rejected by its distance
	GT_NEIGHBOURS_BRUTE,    ///< every point
	GT_NEIGHBOURS_METHOD_COUNT
} gtNeighbourMethod;

/// "auto", "sphere", "cube", "nonempty", "brute".
const char* gtNeighbourMethod_Name(gtNeighbourMethod method);
/// The method of that name; false when there is none.
bool gtNeighbourMethod_Parse(const char* name, gtNeighbourMethod* method);

/// Auto's weights, in nanoseconds on the machine they were calibrated on (bench-neighbours): the
/// cost of a method is its cells visited times `cell[m]` plus points tested times `point[m]` plus
/// the expected answers times `answer[m]` plus `setup[m]`. Scale them to tune Auto to another
/// machine or workload.
typedef struct gtNeighbourCosts {
	double setup[GT_NEIGHBOURS_METHOD_COUNT];
	double cell[GT_NEIGHBOURS_METHOD_COUNT];
	double point[GT_NEIGHBOURS_METHOD_COUNT];
	double answer[GT_NEIGHBOURS_METHOD_COUNT]; ///< a point that is in the answer (a taken branch, a write)
} gtNeighbourCosts;

/// The calibrated defaults.
gtNeighbourCosts gtNeighbours_DefaultCosts(void);
/// Replaces the index's weights (NULL restores the defaults). Negative or NaN weights:
/// GT_ERR_INVALID_ARG.
gtStatus gtNeighbours_SetCosts(gtNeighbours* nb, const gtNeighbourCosts* costs, gtError* err);

//------------------------------------------------------------------------------------------------
// Queries

typedef struct gtNeighbour {
	gtNeighbourId id;
	double distance;
} gtNeighbour;

typedef struct gtNeighbourQuery {
	double point[3];       ///< dimensions coordinates, under the same rules as gtNeighbours_Add
	double radius;         ///< >= 0; INFINITY: no radius
	int k;                 ///< >= 0; 0: every point within radius
	gtNeighbourId exclude; ///< a point left out of the answer (0: none), e.g. the asking one
	bool unordered;        ///< the same answer in no particular order (saves the sort)
} gtNeighbourQuery;

/// What a query did. Sums over the calls of gtNeighbours_QueryAll.
typedef struct gtNeighbourStats {
	gtNeighbourMethod method; ///< the method that ran (Auto's choice)
	/// Auto's estimates (ns per query); 0 when Auto did not estimate: another method was asked
	/// for, or Auto reused its choice for the same radius, k, point count and non-empty cells.
	double estimate[GT_NEIGHBOURS_METHOD_COUNT];
	int64_t cells_visited; ///< cells whose points were looked at
	int64_t points_tested; ///< distances computed
	int64_t truncated;     ///< QueryAll: answers cut at the stride with more points in range
} gtNeighbourStats;

/// The answer, nearest first (ties by id), in out[0 .. *found). When more points qualify than
/// `capacity` holds: GT_ERR_BUFFER_TOO_SMALL with out holding the `capacity` nearest and *found
/// the number that qualify (k = 0) or capacity (k > capacity). Stats may be NULL. A query keeps its
/// working set in `out` and allocates nothing: queries may run on many threads at once while
/// nothing moves.
gtStatus gtNeighbours_Query(const gtNeighbours* nb, const gtNeighbourQuery* query, gtNeighbourMethod method,
                            gtNeighbour* out, int capacity, int* found, gtNeighbourStats* stats, gtError* err);

//------------------------------------------------------------------------------------------------
// All at once: every listed point's neighbours (itself left out) in one call, on worker threads.

typedef struct gtNeighboursAll {
	const gtNeighbourId* objects; ///< who asks (NULL: every live point, in gtNeighbours_List order)
	int32_t count;                ///< entries of objects (ignored when objects is NULL)
	double radius;                ///< as gtNeighbourQuery
	int k;                        ///< as gtNeighbourQuery; 0 or more than stride: the stride nearest
	gtNeighbour* out;             ///< object i's answer in out[i * stride ...], nearest first
	int stride;                   ///< >= 1
	int32_t* counts;              ///< counts[i]: entries of object i's answer
	gtNeighbourId* asked;         ///< when objects is NULL and this is not: the asking ids (room for Count)
	int threads;                  ///< workers (0: gtSetTasks's count)
} gtNeighboursAll;

/// The buffers hold count (or gtNeighbours_Count) objects. A stale id in objects fails the call
/// (GT_ERR_INVALID_ARG) before anything is answered. The call first copies the points in cell
/// order into memory the index keeps (grown with the point count, then reused), so its queries
/// read each cell's points side by side; not to be called while another call uses the index.
gtStatus gtNeighbours_QueryAll(gtNeighbours* nb, const gtNeighboursAll* all, gtNeighbourMethod method,
                               gtNeighbourStats* stats, gtError* err);

#ifdef __cplusplus
}
#endif

#endif
