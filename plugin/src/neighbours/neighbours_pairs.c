// QueryAll's fast form of the cube for every point within a radius (k 0). The copy of the points
// is in cell-index order, so the cells of one row of a point's box (x varying) are one stretch of
// the copy: a point's candidates are a few stretches (3 in 2D, 9 in 3D when the cell is the
// radius), each scanned by a tight loop that appends every point into a small local list without
// a branch, the list sorted and written once into the caller's row. Each point writes only its own
// answer, so workers take chunks of cells in any order in one parallel call: no scratch, no phases.
//
// (The batch before this one tested each pair of points once and wrote it into both answers; the
// second write goes to another point's answer, which needed a 5 MB scratch, stripes of cells run
// in turns and a copy at the end. Testing each pair from both sides costs more distance tests,
// but they are cheap and cache-friendly: a frame of 10,000 points takes about the same
// instructions this way and half the CPU time; docs/neighbours.md has the figures.)
#include <stdatomic.h>
#include <string.h>

#include "core/task.h"
#include "neighbours/neighbours_internal.h"

enum {
	MAX_REACH_CELLS = 343, // (2 reach + 1)^dims at most: beyond, per-point queries do as well
	ROOM = 256,            // a point's list: candidates of a stretch are appended before the test
	MAX_SORTED = 64,       // more within r: the point's own cube query (a heap) answers it
	CHUNK_POINTS = 128,    // points a worker takes at once (in whole cells)
	BUCKETS = 32,          // the answer's first sort: by squared distance in steps of r^2 / 31
};

// The search is written once and compiled four times (2 or 3 axes, cyclic or not), each with its
// constants folded in: that needs the compiler to inline it into each form.
#if defined(__GNUC__)
#define FOLDED static inline __attribute__((always_inline))
#else
#define FOLDED static inline
#endif

// A candidate: its squared distance as the bits of the double (a distance is never negative, so
// the bits order as the numbers do and the sort compares integers) and its entry in the copy.
typedef struct Hit {
	uint64_t key;
	int32_t entry;
} Hit;

typedef struct PairJob {
	const gtNeighbours* nb;
	const gtNeighboursAll* all;
	double r2;
	double bucket_scale; // squared distance to bucket: (BUCKETS - 1) / r^2
	int32_t chunk_cells;
	atomic_int next;
	int64_t tested[GT_MAX_THREADS], stretches[GT_MAX_THREADS], truncated[GT_MAX_THREADS];
} PairJob;

// The squared gap between q and cell v of an axis (v unwrapped: on a cyclic axis every other image
// of that cell lies beyond the box, so farther than r), less the slack as nb_cell_gap2.
static inline double gap2(const gtNeighbours* nb, int k, double q, int v)
{
	double lo = v * nb->side[k], hi = lo + nb->side[k];
	double g = (q < lo ? lo - q : q > hi ? q - hi : 0) - nb->slack[k];
	return g > 0 ? g * g : 0;
}

// floor() for values well inside int's range (the box reaches a few hundred cells at most); libm's
// floor is a call on x86-64 without SSE4.1.
static inline int floor_int(double v)
{
	int t = (int)v;
	return t - (v < t);
}

// The cells of one axis that [q - r, q + r] overlaps, unwrapped; false when the box covers a
// cyclic axis, which is then taken whole, once, and its gaps are not used (an unwrapped cell's
// gap need not be its nearest image's then).
static inline bool box_axis(const gtNeighbours* nb, int k, double q, double r, int* lo, int* hi)
{
	int n = nb->n[k];
	int a = floor_int((q - r - nb->slack[k]) * nb->inv_side[k]),
	    b = floor_int((q + r + nb->slack[k]) * nb->inv_side[k]);
	if (nb->half[k] == INFINITY) {
		*lo = a > 0 ? a : 0;
		*hi = b < n - 1 ? b : n - 1;
		return true;
	}
	bool narrower = b - a + 1 < n;
	*lo = narrower ? a : 0;
	*hi = narrower ? b : n - 1;
	return narrower;
}

static inline int wrapped(int v, int n)
{
	return v < 0 ? v + n : v >= n ? v - n : v;
}

// One point's search: its list of candidates within r (itself among them, at distance 0).
typedef struct Scan {
	const double* q;
	double r2;
	Hit* hits;
	int n;
	bool full; // a stretch would not fit: the point's own query answers it
	int64_t tested, stretches;
} Scan;

// Appends the entries of cells [x0, x1] (x0 <= x1, inside the axis) of the row starting at cell
// `row` that lie within r, without a branch: each is written, and kept by counting it. Distances
// as nb_dist2 computes them (the same operations in the same order: the same bits; on an open axis
// the difference is squared without its fabs and minimum image, which change neither).
FOLDED void scan_cells(const gtNeighbours* nb, Scan* s, int32_t row, int x0, int x1, int dims, bool cyclic)
{
	int32_t from = nb->cell_start[row + x0], end = nb->cell_start[row + x1 + 1];
	if (from == end) return;
	if (s->n + (end - from) > ROOM) {
		s->full = true;
		return;
	}
	s->tested += end - from;
	s->stretches++;
	const NbPoint* pts = nb->packed_pos;
	double q0 = s->q[0], q1 = s->q[1], q2 = s->q[2], r2 = s->r2;
	double w0 = nb->wrap_size[0], w1 = nb->wrap_size[1], w2 = nb->wrap_size[2];
	Hit* hits = s->hits;
	int n = s->n;
	for (int32_t j = from; j < end; j++) {
		double x = pts[j].p[0] - q0, y = pts[j].p[1] - q1, z = dims == 3 ? pts[j].p[2] - q2 : 0;
		if (cyclic) {
			x = fabs(x), y = fabs(y), z = fabs(z);
			double rx = w0 - x, ry = w1 - y, rz = w2 - z;
			x = rx < x ? rx : x;
			y = ry < y ? ry : y;
			z = rz < z ? rz : z;
		}
		double d2 = x * x + y * y;
		if (dims == 3) d2 += z * z;
		uint64_t key;
		memcpy(&key, &d2, sizeof key);
		hits[n] = (Hit){key, j};
		n += d2 <= r2;
	}
	s->n = n;
}

// Every entry within r of q, by the rows of its box: a row whose gap alone exceeds r is skipped,
// and the cells at either end of a row farther than r are trimmed off (each axis's gaps computed
// once per point).
FOLDED void scan_box(const gtNeighbours* nb, Scan* s, double r, int dims, bool cyclic)
{
	const double* q = s->q;
	const int* n = nb->n;
	int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
	double gap[3][MAX_REACH_CELLS];
	gap[2][0] = 0;
	for (int k = 0; k < dims; k++) {
		bool prune = box_axis(nb, k, q[k], r, &lo[k], &hi[k]);
		for (int v = lo[k]; v <= hi[k]; v++) gap[k][v - lo[k]] = prune ? gap2(nb, k, q[k], v) : 0;
	}
	const double* gx = gap[0] - lo[0];
	for (int z = lo[2]; z <= hi[2]; z++) {
		double gz = gap[2][z - lo[2]];
		if (gz > s->r2) continue;
		int32_t plane = (int32_t)(cyclic ? wrapped(z, n[2]) : z) * n[1];
		for (int y = lo[1]; y <= hi[1]; y++) {
			double gyz = gz + gap[1][y - lo[1]];
			if (gyz > s->r2) continue;
			int32_t row = (plane + (cyclic ? wrapped(y, n[1]) : y)) * n[0];
			int x0 = lo[0], x1 = hi[0]; // gaps grow away from the point's own cell, which stays
			while (x0 < x1 && gyz + gx[x0] > s->r2) x0++;
			while (x1 > x0 && gyz + gx[x1] > s->r2) x1--;
			if (cyclic && x0 < 0) { // round a cyclic axis (the box is narrower than the axis)
				scan_cells(nb, s, row, x0 + n[0], n[0] - 1, dims, cyclic);
				x0 = 0;
			} else if (cyclic && x1 >= n[0]) {
				scan_cells(nb, s, row, 0, x1 - n[0], dims, cyclic);
				x1 = n[0] - 1;
			}
			scan_cells(nb, s, row, x0, x1, dims, cyclic);
		}
	}
}

// The four forms of the search, each with its axes and wrap known to the compiler.
static void scan_2_open(const gtNeighbours* nb, Scan* s, double r)
{
	scan_box(nb, s, r, 2, false);
}

static void scan_2_cyclic(const gtNeighbours* nb, Scan* s, double r)
{
	scan_box(nb, s, r, 2, true);
}

static void scan_3_open(const gtNeighbours* nb, Scan* s, double r)
{
	scan_box(nb, s, r, 3, false);
}

static void scan_3_cyclic(const gtNeighbours* nb, Scan* s, double r)
{
	scan_box(nb, s, r, 3, true);
}

typedef void ScanFcn(const gtNeighbours* nb, Scan* s, double r);

static inline bool before(const gtNeighbours* nb, const Hit* a, const Hit* b)
{
	return a->key < b->key || (a->key == b->key && nb->packed_id[a->entry] < nb->packed_id[b->entry]);
}

// The bucket counts' running sums in place, 8 bytes a step (a sum never passes 64, so no byte
// carries into the next): start[b] becomes the first place of bucket b.
static inline void prefix_sums(uint8_t* start)
{
	uint64_t carry = 0;
	for (int w = 0; w < BUCKETS / 8; w++) {
		uint64_t x;
		memcpy(&x, start + 8 * w, sizeof x);
		x += x << 8;
		x += x << 16;
		x += x << 32;
		x += carry * UINT64_C(0x0101010101010101);
		carry = x >> 56;
		memcpy(start + 8 * w, &x, sizeof x);
	}
}

// Entry i's answer into its row of the caller's buffer; whether it was cut at the stride.
static bool answer_entry(const PairJob* job, ScanFcn* scan, int32_t i, Scan* s, Hit* sorted)
{
	const gtNeighbours* nb = job->nb;
	const gtNeighboursAll* all = job->all;
	int32_t row = nb->packed_row[i];
	gtNeighbour* out = all->out + (size_t)row * (size_t)all->stride;
	s->q = nb->packed_pos[i].p;
	s->n = 0;
	s->full = false;
	scan(nb, s, all->radius);
	if (s->full || s->n > MAX_SORTED) { // crowded: the point's own cube query, which keeps the nearest
		NbAnswer a;
		nb_answer_begin(&a, nb, nb->packed_pos[i].p, all->radius, 0, nb->packed_id[i], out, all->stride);
		a.packed = true;
		int found;
		nb_run(nb, GT_NEIGHBOURS_CUBE, &a, true, &found, NULL);
		all->counts[row] = a.n;
		return a.total > a.n;
	}
	// Nearest first, ties by id: counted into buckets of squared distance (no branch; a bucket's
	// points are all nearer than the next bucket's), then an insertion sort that finds them nearly
	// in order (a plain insertion sort's data-dependent exits were most of the batch's
	// mispredicted branches).
	Hit* hits = sorted;
	uint8_t start[BUCKETS + 1] = {0}, bucket[MAX_SORTED];
	for (int t = 0; t < s->n; t++) {
		double d2;
		memcpy(&d2, &s->hits[t].key, sizeof d2);
		int b = (int)(d2 * job->bucket_scale);
		bucket[t] = (uint8_t)(b < BUCKETS - 1 ? b : BUCKETS - 1);
		start[bucket[t] + 1]++;
	}
	prefix_sums(start);
	for (int t = 0; t < s->n; t++) hits[start[bucket[t]]++] = s->hits[t];
	for (int t = 1; t < s->n; t++) {
		Hit v = hits[t];
		int u = t;
		for (; u > 0 && before(nb, &v, &hits[u - 1]); u--) hits[u] = hits[u - 1];
		hits[u] = v;
	}
	int others = s->n - 1, keep = others < all->stride ? others : all->stride;
	for (int t = 0, o = 0; o < keep; t++) {
		double d2;
		memcpy(&d2, &hits[t].key, sizeof d2);
		if (hits[t].entry != i) out[o++] = (gtNeighbour){nb->packed_id[hits[t].entry], sqrt(d2)};
	}
	all->counts[row] = keep;
	return others > keep;
}

static void run_cells(void* context, int worker)
{
	PairJob* job = context;
	const gtNeighbours* nb = job->nb;
	Hit hits[ROOM], sorted[MAX_SORTED];
	Scan s = {.r2 = job->r2, .hits = hits};
	bool cyclic = nb->wrap != 0;
	ScanFcn* scan = nb->dims == 2 ? (cyclic ? scan_2_cyclic : scan_2_open) : cyclic ? scan_3_cyclic : scan_3_open;
	int64_t truncated = 0;
	for (;;) {
		int32_t first = atomic_fetch_add(&job->next, job->chunk_cells);
		if (first >= nb->cell_count) break;
		int32_t last = first + job->chunk_cells < nb->cell_count ? first + job->chunk_cells : nb->cell_count;
		for (int32_t i = nb->cell_start[first]; i < nb->cell_start[last]; i++)
			truncated += answer_entry(job, scan, i, &s, sorted);
	}
	job->tested[worker] = s.tested;
	job->stretches[worker] = s.stretches;
	job->truncated[worker] = truncated;
}

bool nb_pairs_fit(const gtNeighbours* nb, double radius)
{
	if (!(radius < INFINITY) || !nb->packed_by_cell) return false;
	double cells = 1;
	for (int i = 0; i < nb->dims; i++) cells *= 2 * ceil((radius + nb->slack[i]) * nb->inv_side[i]) + 1;
	return cells <= MAX_REACH_CELLS;
}

void nb_pairs_all(const gtNeighbours* nb, const gtNeighboursAll* all, int workers, gtNeighbourStats* stats)
{
	PairJob job = {.nb = nb, .all = all, .r2 = all->radius * all->radius};
	job.bucket_scale = job.r2 > 0 ? (BUCKETS - 1) / job.r2 : 0;
	int64_t chunk = (int64_t)CHUNK_POINTS * nb->cell_count / (nb->count > 0 ? nb->count : 1);
	job.chunk_cells = chunk < 1 ? 1 : chunk > nb->cell_count ? nb->cell_count : (int32_t)chunk;
	atomic_init(&job.next, 0);
	int chunks = (nb->cell_count + job.chunk_cells - 1) / job.chunk_cells;
	if (workers > chunks) workers = chunks;
	if (workers <= 1) run_cells(&job, 0);
	else gt_run_tasks_pooled(gt_task_system(nb->tasks), nb->pool, run_cells, &job, workers);
	for (int w = 0; w < workers; w++) {
		stats->points_tested += job.tested[w];
		stats->cells_visited += job.stretches[w];
		stats->truncated += job.truncated[w];
	}
}
