// Shapes into cells. Cell (i, j) of a grid covers [i, i + 1) x [j, j + 1) in cell units; a filled
// shape walls every cell whose centre (i + 0.5, j + 0.5) lies inside or on it, a polyline every
// cell whose open interior one of its segments passes through. Work is per row of the shape's
// box clipped to the grid, never per cell of the box. Internal.
#ifndef GRIDTREE_TILED_SHAPES_H
#define GRIDTREE_TILED_SHAPES_H

#include <stdbool.h>
#include <stdint.h>

#include "tiled/tiled_doc.h"

typedef struct TiledGrid {
	unsigned char* cells; // width x height, row-major; filling ORs `bit` in
	int64_t width, height;
	unsigned char bit;
	double tile_width, tile_height; // pixels per cell
	double origin_x, origin_y;      // pixel position of cell (0, 0)'s corner
	int64_t work, work_limit;       // rows, edges and cells visited; past the limit filling stops
} TiledGrid;

// p' = (xx p.x + xy p.y + x0, yx p.x + yy p.y + y0)
typedef struct TiledAffine {
	double xx, xy, x0, yx, yy, y0;
} TiledAffine;

TiledAffine tiled_affine_identity(void);
TiledAffine tiled_affine_then(TiledAffine first, TiledAffine second); // second after first
// Tiled's rotation: clockwise on screen (y down) by `degrees` about (x, y); exact at multiples of 90.
TiledAffine tiled_affine_rotation(double degrees, double x, double y);

// Points in cell units. False only when out of memory.
bool tiled_fill_polygon(TiledGrid* g, const double* xy, int64_t n);
void tiled_fill_ellipse(TiledGrid* g, double cx, double cy, const double m[4]); // c + m (u, v), |(u, v)| <= 1
void tiled_fill_polyline(TiledGrid* g, const double* xy, int64_t n);

// A shape (pixels, its points in `points`) placed by `place` (its pixels into the map's pixels,
// applied after the shape's own rotation). False only when out of memory.
bool tiled_fill_shape(TiledGrid* g, const TiledShape* s, const double* points, TiledAffine place);

#endif
