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

#include "core/task.h"
#include "neighbours/neighbours_internal.h"

enum { MAX_REACH_CELLS = 343 }; // (2 reach + 1)^dims at most: beyond, per-point queries do as well

typedef struct PairJob {
	const gtNeighbours* nb;
	const gtNeighboursAll* all;
	double r2;
	int slow;    // the slowest axis (z in 3D, y in 2D)
	int thick;   // layers of the slowest axis per stripe
	int stripes; // stripes in this phase's list
	int first;   // the phase's first stripe, then every `step`
	int step;
	atomic_int next;
	int64_t tested[GT_MAX_THREADS], pairs_of_cells[GT_MAX_THREADS], truncated[GT_MAX_THREADS];
} PairJob;

// Point i's answer gets point j (counted always, written while there is room: a fuller answer is
// made again by a query of its own, which keeps the nearest).
static inline void add(const gtNeighboursAll* all, int32_t row, gtNeighbourId id, double d2)
{
	int32_t c = all->counts[row]++;
	if (c < all->stride) all->out[(size_t)row * (size_t)all->stride + (size_t)c] = (gtNeighbour){id, d2};
}

// Point i (entry i of the copy, in cell c) against the points of cell b after it (in cell c itself:
// the entries after i).
static inline int64_t point_cell(const PairJob* job, int32_t i, int32_t b, int32_t from)
{
	const gtNeighbours* nb = job->nb;
	const gtNeighboursAll* all = job->all;
	const double* p = nb->packed_pos[i].p;
	int32_t end = nb->cell_start[b] + nb->load[b];
	for (int32_t j = from; j < end; j++) {
		double d2 = nb_dist2(nb, nb->packed_pos[j].p, p);
		if (d2 > job->r2) continue;
		add(all, nb->packed_row[i], nb->packed_id[j], d2);
		add(all, nb->packed_row[j], nb->packed_id[i], d2);
	}
	return end - from;
}

// The pairs of every point of the cells in layers [layer0, layer1) of the slowest axis. A point
// looks at the cells of its own cube (the cells its box [q - r, q + r] overlaps, as the cube
// query does) that lie ahead of its cell: the offset's first nonzero coordinate, slowest axis
// first, positive. A pair within r is found once: the other point's cell overlaps this point's
// box, and of the two offsets between the cells exactly one is ahead.
static void stripe_pairs(PairJob* job, int layer0, int layer1, int worker)
{
	const gtNeighbours* nb = job->nb;
	const int* n = nb->n;
	double r = job->all->radius;
	int64_t tested = 0, visited = 0;
	int32_t layer = nb->cell_count / n[job->slow]; // cells in a layer of the slowest axis
	for (int32_t a = layer0 * layer; a < layer1 * layer; a++) {
		if (nb->load[a] == 0) continue;
		int c[3] = {a % n[0], (a / n[0]) % n[1], a / (n[0] * n[1])};
		int32_t first = nb->cell_start[a], last = first + nb->load[a];
		for (int32_t i = first; i < last; i++) {
			const double* q = nb->packed_pos[i].p;
			int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
			for (int k = 0; k < nb->dims; k++) { // the box's cells as offsets from c (clipped on open axes)
				lo[k] = (int)floor((q[k] - r - nb->slack[k]) * nb->inv_side[k]) - c[k];
				hi[k] = (int)floor((q[k] + r + nb->slack[k]) * nb->inv_side[k]) - c[k];
				if (nb->half[k] == INFINITY) {
					if (lo[k] < -c[k]) lo[k] = -c[k];
					if (hi[k] > n[k] - 1 - c[k]) hi[k] = n[k] - 1 - c[k];
				}
			}
			tested += point_cell(job, i, a, i + 1);
			for (int z = lo[2] > 0 ? lo[2] : 0; z <= hi[2]; z++) {
				int bz = c[2] + z;
				bz += bz < 0 ? n[2] : bz >= n[2] ? -n[2] : 0;
				int y0 = z > 0 ? lo[1] : lo[1] > 0 ? lo[1] : 0;
				for (int y = y0; y <= hi[1]; y++) {
					int by = c[1] + y;
					by += by < 0 ? n[1] : by >= n[1] ? -n[1] : 0;
					int32_t row = ((int32_t)bz * n[1] + by) * n[0];
					int x0 = (z > 0 || y > 0) ? lo[0] : lo[0] > 1 ? lo[0] : 1;
					for (int x = x0; x <= hi[0]; x++) {
						int bx = c[0] + x;
						bx += bx < 0 ? n[0] : bx >= n[0] ? -n[0] : 0;
						int32_t b = row + bx;
						if (nb->load[b] == 0) continue;
						tested += point_cell(job, i, b, nb->cell_start[b]);
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
			int32_t row = nb->packed_row[i];
			gtNeighbour* out = all->out + (size_t)row * (size_t)all->stride;
			NbAnswer a;
			nb_answer_begin(&a, nb, nb->packed_pos[i].p, all->radius, 0, nb->packed_id[i], out, all->stride);
			if (all->counts[row] > all->stride) {
				a.packed = true;
				int found;
				nb_run(nb, GT_NEIGHBOURS_CUBE, &a, true, &found, NULL);
				truncated++;
			} else {
				a.n = all->counts[row];
				nb_answer_finish(&a, true);
			}
			all->counts[row] = a.n;
		}
	}
	job->truncated[worker] += truncated;
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
	PairJob job = {.nb = nb, .all = all, .r2 = all->radius * all->radius, .slow = nb->dims - 1};
	int m[3] = {0, 0, 0};
	for (int i = 0; i < nb->dims; i++) m[i] = (int)ceil((all->radius + nb->slack[i]) * nb->inv_side[i]);
	for (int32_t i = 0; i < nb->count; i++) all->counts[nb->packed_row[i]] = 0;
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
