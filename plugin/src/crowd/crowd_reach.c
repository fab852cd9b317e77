// The map's parts for crowds (crowd_reach.h), made again when the map's fingerprint says it was
// edited.
#include "core/alloc.h"
#include "crowd/crowd_reach.h"
#include "map/map_internal.h"

void gt_reach_free(gtReach* r)
{
	gt_free(r->part);
	gt_free(r->main);
	*r = (gtReach){0};
}

// Runs of free cells along the rows, joined where runs of neighbouring rows share a column (a
// shared edge), then every cell labelled by its run's part: one pass over the cells and a
// union-find over the runs, a few milliseconds on a 768 x 768 map.
typedef struct Runs {
	int32_t* x0;     // per run: its first column
	int32_t* x1;     // and one past its last
	int32_t* parent; // union-find over runs (then each root's part)
	int32_t* row;    // height + 1 entries: the runs of row y are [row[y], row[y + 1])
} Runs;

static int32_t root_of(int32_t* parent, int32_t r)
{
	while (parent[r] != r) r = parent[r] = parent[parent[r]];
	return r;
}

// The runs of every row; false when out of memory.
static bool find_runs(const gtMap* m, Runs* runs)
{
	int64_t count = 0;
	for (int y = 0; y < m->height; y++)
		for (int x = 0; x < m->width; x++) count += !gt_blocked(m, x, y) && gt_blocked(m, x - 1, y);
	runs->x0 = gt_malloc((size_t)(count + 1) * sizeof *runs->x0);
	runs->x1 = gt_malloc((size_t)(count + 1) * sizeof *runs->x1);
	runs->parent = gt_malloc((size_t)(count + 1) * sizeof *runs->parent);
	runs->row = gt_malloc((size_t)(m->height + 1) * sizeof *runs->row);
	if (!runs->x0 || !runs->x1 || !runs->parent || !runs->row) return false;
	int32_t n = 0;
	for (int y = 0; y < m->height; y++) {
		runs->row[y] = n;
		for (int x = 0; x < m->width; x++) {
			if (gt_blocked(m, x, y)) continue;
			runs->x0[n] = x;
			while (x < m->width && !gt_blocked(m, x, y)) x++;
			runs->x1[n] = x;
			runs->parent[n] = n;
			n++;
		}
	}
	runs->row[m->height] = n;
	return true;
}

static int32_t label_runs(gtReach* r, const gtMap* m, Runs* runs)
{
	for (int y = 1; y < m->height; y++) // runs of rows y - 1 and y sharing a column are one part
		for (int32_t a = runs->row[y - 1], b = runs->row[y]; a < runs->row[y] && b < runs->row[y + 1];) {
			if (runs->x0[a] < runs->x1[b] && runs->x0[b] < runs->x1[a]) {
				int32_t ra = root_of(runs->parent, a), rb = root_of(runs->parent, b);
				runs->parent[ra > rb ? ra : rb] = ra > rb ? rb : ra;
			}
			if (runs->x1[a] < runs->x1[b]) a++;
			else b++;
		}
	int32_t parts = 0, total = runs->row[m->height];
	for (int32_t i = 0; i < total; i++) runs->parent[i] = root_of(runs->parent, i);
	for (int32_t i = 0; i < total; i++) // a root is its part's first run: numbered before the others
		runs->parent[i] = runs->parent[i] == i ? parts++ : runs->parent[runs->parent[i]];
	for (int y = 0; y < m->height; y++)
		for (int32_t i = runs->row[y]; i < runs->row[y + 1]; i++)
			for (int x = runs->x0[i]; x < runs->x1[i]; x++) r->part[(int64_t)y * r->width + x] = runs->parent[i];
	return parts;
}

// The largest part's cells as bits (gtReach.main); false when out of memory.
static bool mark_main(gtReach* r)
{
	int64_t cells = (int64_t)r->width * r->height;
	int32_t* size = gt_calloc((size_t)r->parts + 1, sizeof *size);
	r->main = gt_calloc((size_t)(cells + 63) / 64, sizeof *r->main);
	if (!size || !r->main) {
		gt_free(size);
		return false;
	}
	for (int64_t i = 0; i < cells; i++)
		if (r->part[i] >= 0) size[r->part[i]]++;
	r->main_part = 0;
	for (int32_t p = 1; p < r->parts; p++)
		if (size[p] > size[r->main_part]) r->main_part = p;
	for (int64_t i = 0; i < cells; i++)
		if (r->part[i] == r->main_part) r->main[i >> 6] |= UINT64_C(1) << (i & 63);
	gt_free(size);
	return true;
}

bool gt_reach_update(gtReach* r, const gtMap* m)
{
	uint64_t fingerprint = gtMap_Fingerprint(m);
	if (r->part && r->map == m && r->fingerprint == fingerprint) return true;
	gt_reach_free(r);
	int64_t cells = (int64_t)m->width * m->height;
	Runs runs = {0};
	r->part = gt_malloc((size_t)cells * sizeof *r->part);
	bool ok = r->part && find_runs(m, &runs);
	if (ok) {
		r->map = m;
		r->fingerprint = fingerprint;
		r->width = m->width;
		r->height = m->height;
		for (int64_t i = 0; i < cells; i++) r->part[i] = -1;
		r->parts = label_runs(r, m, &runs);
		ok = mark_main(r);
	}
	gt_free(runs.x0);
	gt_free(runs.x1);
	gt_free(runs.parent);
	gt_free(runs.row);
	if (!ok) gt_reach_free(r);
	return ok;
}

int32_t gt_reach_part_of(const gtReach* r, gtVec2 p)
{
	if (!(p.x >= 0 && p.y >= 0 && p.x <= r->width && p.y <= r->height)) return -1;
	int cx = (int)p.x, cy = (int)p.y;
	bool on_x = p.x == cx, on_y = p.y == cy; // on a column line, on a row line
	if (cx == r->width) cx--;
	if (cy == r->height) cy--;
	// The cell below-right first, then the one above (a pinch point's +x side when the cell
	// below-right is blocked), then the ones to the left: every other free cell around a point
	// that is not a pinch shares an edge with these.
	int32_t part = r->part[(int64_t)cy * r->width + cx];
	if (part < 0 && on_y && cy > 0 && p.y < r->height) part = r->part[(int64_t)(cy - 1) * r->width + cx];
	if (part < 0 && on_x && cx > 0 && p.x < r->width) part = r->part[(int64_t)cy * r->width + cx - 1];
	if (part < 0 && on_x && on_y && cx > 0 && cy > 0 && p.x < r->width && p.y < r->height)
		part = r->part[(int64_t)(cy - 1) * r->width + cx - 1];
	return part;
}
