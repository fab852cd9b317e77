// QueryAll's fast form of the cube for every point within a radius (k 0): the cells taken in
// pairs instead of one query per point. Each pair of cells within reach is visited once (the
// half of the offsets that is "ahead"), each pair of points in them tested once, and a pair
// within the radius goes into both points' answers. Half the distance tests of one cube query per
// point, no per-query set-up, and a cell's points are read while they are in the cache.
//
// Workers: a pair writes into two answers, so two workers must never take cells whose pairs reach
// the same answers. The cells are cut into stripes of the slowest axis at least as thick as the
// reach (in cells): a stripe's pairs write into itself and the next stripe only, so the even stripes run at
// once, then the odd ones (and, on a cyclic slowest axis with an odd number of stripes, the last
// one alone, as it reaches round to the first).
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/task.h"
#include "neighbours/neighbours_internal.h"

enum { MAX_REACH_CELLS = 343 }; // (2 reach + 1)^dims at most: beyond, per-point queries do as well

typedef struct PairJob {
	const gtNeighbours* nb;
	const gtNeighboursAll* all;
	double r2;
	int stride;
	int slow;    // the slowest axis (z in 3D, y in 2D)
	int thick;   // layers of the slowest axis per stripe
	int stripes; // stripes in this phase's list
	int first;   // the phase's first stripe, then every `step`
	int step;
	atomic_int next;
	int64_t tested[GT_MAX_THREADS], pairs_of_cells[GT_MAX_THREADS], truncated[GT_MAX_THREADS];
} PairJob;

// Entry i's answer (in the batch's scratch, by entry: the entries near in the copy are near in
// memory) gets point j: counted always, written while there is room (a fuller answer is made again
// by a query of its own, which keeps the nearest).
static inline void add(const PairJob* job, int32_t i, int32_t j, double d2)
{
	const gtNeighbours* nb = job->nb;
	int32_t c = nb->batch_n[i]++;
	if (c < job->stride)
		nb->batch_out[(size_t)i * (size_t)job->stride + (size_t)c] = (gtNeighbour){nb->packed_id[j], d2};
}

// nb_dist2 for a known number of axes (the same operations in the same order: the same bits).
static inline double dist2_2(const gtNeighbours* nb, const double* a, const double* b)
{
	double x = fabs(a[0] - b[0]), y = fabs(a[1] - b[1]), rx = nb->wrap_size[0] - x, ry = nb->wrap_size[1] - y;
	x = rx < x ? rx : x;
	y = ry < y ? ry : y;
	return x * x + y * y;
}

static inline double dist2_3(const gtNeighbours* nb, const double* a, const double* b)
{
	double z = fabs(a[2] - b[2]), rz = nb->wrap_size[2] - z;
	z = rz < z ? rz : z;
	return dist2_2(nb, a, b) + z * z;
}

// Entry i (in cell a) against the entries [from, end) of another cell, or of its own after it.
static int64_t point_entries(const PairJob* job, int32_t i, int32_t from, int32_t end)
{
	const gtNeighbours* nb = job->nb;
	const double* p = nb->packed_pos[i].p;
	if (nb->dims == 2) {
		for (int32_t j = from; j < end; j++) {
			double d2 = dist2_2(nb, nb->packed_pos[j].p, p);
			if (d2 <= job->r2) add(job, i, j, d2), add(job, j, i, d2);
		}
	} else {
		for (int32_t j = from; j < end; j++) {
			double d2 = dist2_3(nb, nb->packed_pos[j].p, p);
			if (d2 <= job->r2) add(job, i, j, d2), add(job, j, i, d2);
		}
	}
	return end - from;
}

// Along axis k, for each offset o of [lo, hi] from the point's cell c: the squared gap between q
// and that cell (0 for its own; less the slack, as nb_cell_gap2), in gap[o - lo].
static void axis_gaps(const gtNeighbours* nb, int k, double q, int c, int lo, int hi, double* gap)
{
	for (int o = lo; o <= hi; o++) {
		double g = o > 0 ? (c + o) * nb->side[k] - q : o < 0 ? q - (c + o + 1) * nb->side[k] : 0;
		g -= nb->slack[k];
		gap[o - lo] = g > 0 ? g * g : 0;
	}
}

// The pairs of every point of the cells in layers [layer0, layer1) of the slowest axis. A point
// looks at the cells of its own cube (the cells its box [q - r, q + r] overlaps, as the cube
// query does) that lie ahead of its cell: the offset's first nonzero coordinate, slowest axis
// first, positive; cells farther than r from the point are skipped. A pair within r is found
// once: the other point's cell overlaps this point's box, and of the two offsets between the
// cells exactly one is ahead.
static void stripe_pairs(PairJob* job, int layer0, int layer1, int worker)
{
	const gtNeighbours* nb = job->nb;
	const int* n = nb->n;
	double r = job->all->radius, gap[3][MAX_REACH_CELLS];
	int64_t tested = 0, visited = 0;
	int32_t layer = nb->cell_count / n[job->slow]; // cells in a layer of the slowest axis
	for (int32_t a = layer0 * layer; a < layer1 * layer; a++) {
		if (nb->load[a] == 0) continue;
		int c[3] = {a % n[0], (a / n[0]) % n[1], a / (n[0] * n[1])};
		int32_t first = nb->cell_start[a], last = first + nb->load[a];
		for (int32_t i = first; i < last; i++) {
			const double* q = nb->packed_pos[i].p;
			int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
			gap[2][0] = 0;
			for (int k = 0; k < nb->dims; k++) { // the box's cells as offsets from c (clipped on open axes)
				lo[k] = (int)floor((q[k] - r - nb->slack[k]) * nb->inv_side[k]) - c[k];
				hi[k] = (int)floor((q[k] + r + nb->slack[k]) * nb->inv_side[k]) - c[k];
				if (nb->half[k] == INFINITY) {
					if (lo[k] < -c[k]) lo[k] = -c[k];
					if (hi[k] > n[k] - 1 - c[k]) hi[k] = n[k] - 1 - c[k];
				}
				axis_gaps(nb, k, q[k], c[k], lo[k], hi[k], gap[k]);
			}
			tested += point_entries(job, i, i + 1, last);
			for (int z = lo[2] > 0 ? lo[2] : 0; z <= hi[2]; z++) {
				int bz = c[2] + z;
				bz += bz < 0 ? n[2] : bz >= n[2] ? -n[2] : 0;
				double gz = gap[2][z - lo[2]];
				int y0 = z > 0 ? lo[1] : lo[1] > 0 ? lo[1] : 0;
				for (int y = y0; y <= hi[1]; y++) {
					double gyz = gz + gap[1][y - lo[1]];
					if (gyz > job->r2) continue;
					int by = c[1] + y;
					by += by < 0 ? n[1] : by >= n[1] ? -n[1] : 0;
					int32_t row = ((int32_t)bz * n[1] + by) * n[0];
					int x0 = (z > 0 || y > 0) ? lo[0] : lo[0] > 1 ? lo[0] : 1;
					for (int x = x0; x <= hi[0]; x++) {
						if (gyz + gap[0][x - lo[0]] > job->r2) continue;
						int bx = c[0] + x;
						bx += bx < 0 ? n[0] : bx >= n[0] ? -n[0] : 0;
						int32_t b = row + bx;
						if (nb->load[b] == 0) continue;
						tested += point_entries(job, i, nb->cell_start[b], nb->cell_start[b] + nb->load[b]);
						visited++;
					}
				}
			}
		}
	}
	job->tested[worker] += tested;
	job->pairs_of_cells[worker] += visited;
}

static void run_stripes(void* context, int worker)
{
	PairJob* job = context;
	int layers = job->nb->n[job->slow];
	for (;;) {
		int t = atomic_fetch_add(&job->next, 1);
		if (t >= job->stripes) break;
		int s = job->first + t * job->step;
		int last = layers / job->thick - 1; // the last stripe takes the layers left over too
		stripe_pairs(job, s * job->thick, s == last ? layers : (s + 1) * job->thick, worker);
	}
}

// Each answer sorted, nearest first, ties by id; an answer with more points than the stride made
// again by its own query (the cube's), which keeps the nearest.
static void run_finish(void* context, int worker)
{
	PairJob* job = context;
	const gtNeighbours* nb = job->nb;
	const gtNeighboursAll* all = job->all;
	enum { CHUNK = 256 };
	int64_t truncated = 0;
	for (;;) {
		int32_t first = atomic_fetch_add(&job->next, CHUNK);
		if (first >= nb->count) break;
		int32_t last = first + CHUNK < nb->count ? first + CHUNK : nb->count;
		for (int32_t i = first; i < last; i++) {
			int32_t row = nb->packed_row[i], n = nb->batch_n[i];
			gtNeighbour* out = all->out + (size_t)row * (size_t)all->stride;
			NbAnswer a = {.out = out, .n = n}; // appended in no order, squared: what nb_answer_finish sorts
			if (n > all->stride) {
				nb_answer_begin(&a, nb, nb->packed_pos[i].p, all->radius, 0, nb->packed_id[i], out, all->stride);
				a.packed = true;
				int found;
				nb_run(nb, GT_NEIGHBOURS_CUBE, &a, true, &found, NULL);
				truncated++;
			} else {
				memcpy(out, nb->batch_out + (size_t)i * (size_t)all->stride, (size_t)n * sizeof *out);
				nb_answer_finish(&a, true);
			}
			all->counts[row] = a.n;
		}
	}
	job->truncated[worker] += truncated;
}

bool nb_pairs_reserve(gtNeighbours* nb, int stride)
{
	int64_t room = (int64_t)nb->capacity * stride;
	if (nb->batch_room < room) {
		if (!GT_RESIZE(nb->batch_out, room)) return false;
		nb->batch_room = room;
	}
	if (nb->batch_n_room < nb->capacity) {
		if (!GT_RESIZE(nb->batch_n, nb->capacity)) return false;
		nb->batch_n_room = nb->capacity;
	}
	return true;
}

bool nb_pairs_fit(const gtNeighbours* nb, double radius)
{
	if (!(radius < INFINITY)) return false;
	double cells = 1;
	for (int i = 0; i < nb->dims; i++) {
		double m = ceil((radius + nb->slack[i]) * nb->inv_side[i]);
		if (nb->half[i] != INFINITY && 2 * m + 1 > nb->n[i]) return false; // offsets would alias round the axis
		cells *= 2 * m + 1;
	}
	return cells <= MAX_REACH_CELLS;
}

void nb_pairs_all(const gtNeighbours* nb, const gtNeighboursAll* all, int workers, gtNeighbourStats* stats)
{
	PairJob job = {.nb = nb, .all = all, .r2 = all->radius * all->radius, .stride = all->stride, .slow = nb->dims - 1};
	int m[3] = {0, 0, 0};
	for (int i = 0; i < nb->dims; i++) m[i] = (int)ceil((all->radius + nb->slack[i]) * nb->inv_side[i]);
	memset(nb->batch_n, 0, (size_t)nb->count * sizeof *nb->batch_n);
	int layers = nb->n[job.slow];
	job.thick = m[job.slow] > 0 ? m[job.slow] : 1;
	int stripes = layers / job.thick; // every stripe at least the reach thick (the last one thicker)
	const gtTaskSystem* tasks = gt_task_system(nb->tasks);
	if (workers <= 1 || stripes < 2) {
		stripe_pairs(&job, 0, layers, 0);
	} else {
		bool alone = nb->half[job.slow] != INFINITY && stripes % 2 == 1; // the last reaches the first
		for (int phase = 0; phase < (alone ? 3 : 2); phase++) {
			job.first = phase < 2 ? phase : stripes - 1;
			job.step = 2;
			job.stripes = phase == 2 ? 1 : (stripes - (alone ? 1 : 0) - phase + 1) / 2;
			atomic_store(&job.next, 0);
			gt_run_tasks(tasks, run_stripes, &job, workers < job.stripes ? workers : job.stripes);
		}
	}
	atomic_store(&job.next, 0);
	if (workers <= 1) run_finish(&job, 0);
	else gt_run_tasks(tasks, run_finish, &job, workers);
	for (int w = 0; w < GT_MAX_THREADS; w++) {
		stats->points_tested += job.tested[w];
		stats->cells_visited += job.pairs_of_cells[w];
		stats->truncated += job.truncated[w];
	}
}
