// Batches of queries on one world: one after another, spread over workers, or through a target
// field; AUTO picks from the costs it measured, as neighand's Auto does.
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/names.h"
#include "core/platform.h"
#include "core/status.h"
#include "core/task.h"
#include "crowd/crowd_walk.h"
#include "ehl/ehl_field.h"
#include "gridtree/gt_crowd.h"
#include "map/geometry.h"
#include "gridtree/gt_links.h"
#include "world/world_visit.h"

typedef struct Worker {
	gtWorldWorker* world; // its scratch, and the compiled filter of the walk and the field
	gtNavQuery* nav_query;
	gtCrowdWalk* walk;      // the batch method's answer being built
	gtEhlFieldAgent* agent; // the field method's agent side
	gtQuery filter_query;   // what the compiled filter points at
} Worker;

// Measured CPU seconds per unit of work, for AUTO (0: not measured yet).
typedef struct Costs {
	double per_query;  // BATCH, per query: the workers' busy time, summed
	double per_object; // FIELD, building (on one thread), per object in the field
	double per_agent;  // FIELD, answering, per agent: the workers' busy time, summed
	int calls;         // AUTO calls that could use a field (every n-th probes the field again)
} Costs;

struct gtCrowd {
	gtWorld* world;
	gtNav* nav;
	const gtTaskSystem* tasks;
	gtPool* pool; // the built-in pool's workers, parked between batches
	int threads;
	Worker* workers;
	gtEhlField* field;
	const gtEhl* field_ehl; // the index the field was made for
	Costs costs;
	gtReach reach;        // the map's parts, for the walk and the field
	int32_t* part_counts; // per part: matching objects of the batch's shared filter
	int32_t part_room;
	gtError* errors;    // per worker: its first failure's message
	int* failed_at;     // per worker: its first failed query, or -1
	double* busy;       // per worker: seconds spent answering in the last run
	gtStatus* statuses; // per query when the caller keeps none, grown as batches grow
	int status_room;
	int* picked; // a scheduled frame's agents, and their queries or points (`sub`)
	void* sub;
	int pick_room;
	uint32_t* order;      // a batch's queries in the order workers take them (near ones together), and
	uint32_t* keys;       // the radix sort's room: 2 * order_room entries
	uint16_t spread[256]; // v's 8 bits spread to the even bits (spread_bits), for the Z-order keys
	gtVec2* ordered;      // a batch of points in that order: read in turn, not in a scatter per agent
	int order_room;
};

static const char* const METHOD_NAMES[] = {"auto", "each", "batch", "field"};

const char* gtCrowdMethod_Name(gtCrowdMethod method)
{
	return gt_name_of(METHOD_NAMES, sizeof METHOD_NAMES / sizeof *METHOD_NAMES, (unsigned)method);
}

gtStatus gtCrowdMethod_Parse(const char* name, gtCrowdMethod* method, gtError* err)
{
	int i = gt_name_index(METHOD_NAMES, sizeof METHOD_NAMES / sizeof *METHOD_NAMES, name);
	if (i >= 0) {
		*method = (gtCrowdMethod)i;
		return GT_OK;
	}
	return gt_fail(err, GT_ERR_INVALID_ARG, "unknown method '%s' (available: auto, each, batch, field)",
	               name ? name : "(null)");
}

gtCrowdDef gtCrowd_DefaultDef(void)
{
	gtCrowdDef def = {0, NULL};
	return def;
}

// Spreads the low 8 bits of v to the even bits of the result.
static uint32_t spread_bits(uint32_t v)
{
	v &= 0xff;
	v = (v | (v << 4)) & 0x0f0f;
	v = (v | (v << 2)) & 0x3333;
	return (v | (v << 1)) & 0x5555;
}

gtStatus gtCrowd_Create(gtWorld* world, gtNav* nav, const gtCrowdDef* def, gtCrowd** out, gtError* err)
{
	*out = NULL;
	gtCrowdDef defaults = gtCrowd_DefaultDef();
	if (!def) def = &defaults;
	if (!world || !nav) return gt_fail(err, GT_ERR_INVALID_ARG, "a crowd needs a world and a nav");
	if (gtNav_Map(nav) != gt_world_map(world))
		return gt_fail(err, GT_ERR_INVALID_ARG, "the world and the nav are over different maps");
	if (def->threads < 0 || def->threads > GT_MAX_THREADS)
		return gt_fail(err, GT_ERR_INVALID_ARG, "threads must be 0 to %d", GT_MAX_THREADS);
	gtCrowd* c = gt_calloc(1, sizeof *c);
	if (!c) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a crowd");
	c->world = world;
	c->nav = nav;
	c->tasks = def->tasks;
	c->threads = gt_resolve_threads(def->threads);
	for (uint32_t v = 0; v < 256; v++) c->spread[v] = (uint16_t)spread_bits(v);
	c->pool = gt_pool_create(); // NULL (out of memory) only costs a thread start per batch
	c->workers = gt_calloc((size_t)c->threads, sizeof *c->workers);
	c->errors = gt_malloc((size_t)c->threads * sizeof *c->errors);
	c->failed_at = gt_malloc((size_t)c->threads * sizeof *c->failed_at);
	c->busy = gt_calloc((size_t)c->threads, sizeof *c->busy);
	bool ok = c->workers && c->errors && c->failed_at && c->busy;
	for (int i = 0; i < c->threads && ok; i++)
		ok = (c->workers[i].world = gt_world_worker_create(world)) && (c->workers[i].walk = gt_crowd_walk_create()) &&
		     !gtNavQuery_Create(nav, &c->workers[i].nav_query, err);
	if (!ok) {
		gtCrowd_Destroy(c);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for a crowd's workers");
	}
	*out = c;
	return GT_OK;
}

static void drop_field(gtCrowd* c)
{
	for (int i = 0; i < c->threads; i++) {
		gt_ehl_field_agent_destroy(c->workers[i].agent);
		c->workers[i].agent = NULL;
	}
	gt_ehl_field_destroy(c->field);
	c->field = NULL;
	c->field_ehl = NULL;
}

void gtCrowd_Destroy(gtCrowd* c)
{
	if (!c) return;
	if (c->workers) {
		drop_field(c);
		for (int i = 0; i < c->threads; i++) {
			gt_world_worker_destroy(c->workers[i].world);
			gt_crowd_walk_destroy(c->workers[i].walk);
			gtNavQuery_Destroy(c->workers[i].nav_query);
		}
	}
	gt_free(c->workers);
	gt_free(c->errors);
	gt_free(c->failed_at);
	gt_free(c->busy);
	gt_free(c->statuses);
	gt_free(c->picked);
	gt_free(c->sub);
	gt_free(c->order);
	gt_free(c->keys);
	gt_free(c->ordered);
	gt_reach_free(&c->reach);
	gt_free(c->part_counts);
	gt_pool_destroy(c->pool);
	gt_free(c);
}

int gtCrowd_Threads(const gtCrowd* c)
{
	return c->threads;
}

// ---- one batch -----------------------------------------------------------------------------------

// How each query of a batch is answered.
typedef enum JobKind {
	JOB_WORLD, // the world's own query (EACH, and BATCH for within, top and traced queries)
	JOB_WALK,  // the crowd's walk (BATCH for nearest queries on a backend with walls)
	JOB_FIELD  // through the target field
} JobKind;

typedef struct Job {
	gtCrowd* crowd;
	const gtCrowdQueries* batch;
	gtCrowdAnswers* out;
	gtQueryMode mode;
	JobKind kind;
	bool shared;           // one filter for the batch, compiled into every worker before the run
	bool check_points;     // a path backend: points must be in the free space
	const int* slots;      // the answer slot of each query (NULL: its own index)
	const uint32_t* order; // which query the i-th taken is (NULL: the i-th)
	const gtVec2* ordered; // with an order, a batch of points in that order (else NULL)
	gtStatus* status;      // per answer slot (the caller's, or the crowd's own)
	gtError* errors;       // the crowd's, per worker
	int* failed_at;        // the crowd's, per worker
	atomic_int next;       // the next chunk of queries to take
} Job;

enum { CHUNK = 16 };

static gtVec2 point_at(const gtCrowdQueries* batch, int i)
{
	return batch->points ? batch->points[i] : batch->queries[i].point;
}

typedef struct Seen {
	const gtWorld* world;
	gtEhlFieldAgent* agent;
	const gtReach* reach;
	int32_t part;
} Seen;

static double offer_seen(void* context, int32_t object, gtVec2 p, double line)
{
	(void)line;
	Seen* seen = context;
	if (gt_reach_part(seen->reach, p) != seen->part) return gt_ehl_field_agent_limit(seen->agent);
	return gt_ehl_field_agent_offer_seen(seen->agent, p, gt_world_object_id(seen->world, object));
}

// The nearest object of the agent's part in its own leaf by straight line.
typedef struct Seed {
	const gtCrowd* crowd;
	gtVec2 from;
	int32_t part, object;
	double line;
	gtVec2 at;
} Seed;

static void seed_candidate(void* context, int32_t object, gtVec2 p)
{
	Seed* seed = context;
	double dx = p.x - seed->from.x, dy = p.y - seed->from.y, line = sqrt(dx * dx + dy * dy);
	if (line < seed->line && gt_reach_part(&seed->crowd->reach, p) == seed->part) {
		seed->object = object;
		seed->line = line;
		seed->at = p;
	}
}

// One agent through the field: the hub candidates, then the objects it sees directly, nearest
// first while they can still enter its answer.
static gtStatus field_answer(Job* job, Worker* wk, const gtQuery* q, int32_t part, gtObjectId* ids, double* distances,
                             int* found, gtError* err)
{
	gtCrowd* c = job->crowd;
	*found = 0;
	if (q->k <= 0 || (job->shared && c->part_counts[part] == 0)) return GT_OK;
	// For k = 1, an object of the agent's own leaf it sees caps the hubs worth a look.
	Seed seed = {c, q->point, part, -1, INFINITY, {0, 0}};
	if (q->k == 1)
		gt_world_each_in_leaf(c->world, wk->world, gt_world_leaf_of(c->world, q->point), seed_candidate, &seed);
	double cap = seed.object >= 0 && gt_visible_unchecked(gt_world_map(c->world), q->point, seed.at)
	                 ? hypot(seed.at.x - q->point.x, seed.at.y - q->point.y)
	                 : INFINITY;
	gt_ehl_field_agent_begin(wk->agent, c->field, q->point, q->k, cap);
	Seen seen = {c->world, wk->agent, &c->reach, part};
	if (!gt_world_visit_nearest(c->world, wk->world, q->point, gt_ehl_field_agent_limit(wk->agent), -1, offer_seen,
	                            &seen))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	int count = gt_ehl_field_agent_count(wk->agent);
	for (int i = 0; i < count; i++) gt_ehl_field_agent_answer(wk->agent, i, &ids[i], &distances[i]);
	*found = count;
	return GT_OK;
}

// One agent by the crowd's walk (crowd_walk.h).
static gtStatus walk_answer(Job* job, Worker* wk, const gtQuery* q, int32_t part, gtDistance distance, gtObjectId* ids,
                            double* distances, int* found, gtError* err)
{
	gtCrowd* c = job->crowd;
	*found = 0;
	if (!job->shared) {
		wk->filter_query = *q;
		gtStatus st = gt_world_worker_filter(c->world, wk->world, &wk->filter_query, err);
		if (st) return st;
	}
	if (q->k <= 0 || (job->shared && c->part_counts[part] == 0)) return GT_OK;
	if (!gt_crowd_walk_reserve(wk->walk, q->k)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	if (!gt_crowd_walk_nearest(wk->walk, c->world, wk->world, &c->reach, part, distance, q->point, q->k, ids, distances,
	                           found))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	return GT_OK;
}

static gtStatus answer_one(Job* job, Worker* wk, const gtQuery* q, gtDistance distance, int slot, gtError* err)
{
	gtCrowd* c = job->crowd;
	gtCrowdAnswers* out = job->out;
	gtObjectId* ids = out->ids + (size_t)slot * (size_t)out->stride;
	double* distances = out->distances + (size_t)slot * (size_t)out->stride;
	out->found[slot] = 0;
	// A point inside a cell of the map's largest part is valid: its bit, not the map's cell.
	bool main = job->kind != JOB_WORLD && gt_reach_in_main(&c->reach, q->point);
	gtPointCheck check = job->check_points && !main ? gtMap_CheckPoint(gt_world_map(c->world), q->point)
	                                                : GT_POINT_VALID;
	if (check != GT_POINT_VALID)
		return gt_fail(err, GT_ERR_INVALID_POINT, "(%g, %g): %s", q->point.x, q->point.y, gtPointCheckName(check));
	if (job->kind == JOB_WORLD)
		return gt_world_worker_query(c->world, wk->world, q, distance, job->mode, ids, distances, out->stride,
		                             &out->found[slot], err);
	if (q->k > out->stride)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "k is %d but the answers hold %d per query", q->k, out->stride);
	int32_t part = main ? c->reach.main_part : gt_reach_part_of(&c->reach, q->point);
	if (job->kind == JOB_FIELD) return field_answer(job, wk, q, part, ids, distances, &out->found[slot], err);
	return walk_answer(job, wk, q, part, distance, ids, distances, &out->found[slot], err);
}

static void answer_share(Job* job, int worker_index);

// A worker's share of the batch, timed: AUTO compares the methods' work without the workers'
// start-up (a sample of a batch pays it as much as a whole one). By the thread's CPU time: the
// wall clock of a worker that other processes took the core from says nothing about the method
// (at load 8, lak303d's BATCH measured 4.1 us a query by the wall clock, 0.9 by CPU, and AUTO
// took the field, 1.6 us an agent by CPU, on 4 of 20 frames).
static void run_queries(Job* job, int worker_index)
{
	double start = gt_thread_cpu_seconds();
	answer_share(job, worker_index);
	job->crowd->busy[worker_index] = gt_thread_cpu_seconds() - start;
}

static void answer_share(Job* job, int worker_index)
{
	gtCrowd* c = job->crowd;
	Worker* wk = &c->workers[worker_index];
	const gtCrowdQueries* batch = job->batch;
	gtDistance distance = {.fcn = NULL};
	gtError err;
	if (job->kind != JOB_FIELD && gtNavQuery_WorldDistance(wk->nav_query, &distance, &err)) {
		for (int first; (first = atomic_fetch_add(&job->next, CHUNK)) < batch->count;) // fail this worker's share
			for (int i = first; i < first + CHUNK && i < batch->count; i++) {
				int slot = job->slots ? job->slots[i] : i;
				job->out->found[slot] = 0; // served, and failed: its status says why
				job->status[slot] = err.status;
				if (job->failed_at[worker_index] < 0 || slot < job->failed_at[worker_index]) {
					job->failed_at[worker_index] = slot;
					job->errors[worker_index] = err;
				}
			}
		return;
	}
	gtQuery q = batch->queries[0]; // a batch of points: their one query, each point put in below
	for (int first; (first = atomic_fetch_add(&job->next, CHUNK)) < batch->count;) {
		for (int taken = first; taken < first + CHUNK && taken < batch->count; taken++) {
			int i = job->order ? (int)job->order[taken] : taken;
			if (job->ordered) q.point = job->ordered[taken];
			else if (batch->points) q.point = batch->points[i];
			else q = batch->queries[i];
			int slot = job->slots ? job->slots[i] : i;
			gtStatus st = answer_one(job, wk, &q, distance, slot, &err);
			job->status[slot] = st;
			if (st && (job->failed_at[worker_index] < 0 || slot < job->failed_at[worker_index])) {
				job->failed_at[worker_index] = slot;
				job->errors[worker_index] = err;
			}
		}
	}
}

static void task(void* context, int index)
{
	run_queries(context, index);
}

// FIELD needs nearest queries that share one filter (k may differ), no region, no trace.
static bool shared_filter(const gtCrowdQueries* batch, gtQueryMode mode)
{
	if (mode != GT_QUERY_NEAREST) return false;
	const gtQuery* a = &batch->queries[0];
	int n = batch->points ? 1 : batch->count;
	for (int i = 0; i < n; i++) {
		const gtQuery* b = &batch->queries[i];
		if (b->use_region || b->trace || b->keyword_count != a->keyword_count || b->min_match != a->min_match ||
		    b->any_count != a->any_count || b->none_count != a->none_count || b->exclude_count != a->exclude_count)
			return false;
		if ((b->keyword_count && memcmp(b->keywords, a->keywords, (size_t)a->keyword_count * sizeof *a->keywords)) ||
		    (b->any_count && memcmp(b->any, a->any, (size_t)a->any_count * sizeof *a->any)) ||
		    (b->none_count && memcmp(b->none, a->none, (size_t)a->none_count * sizeof *a->none)) ||
		    (b->exclude_count && memcmp(b->exclude, a->exclude, (size_t)a->exclude_count * sizeof *a->exclude)))
			return false;
	}
	return true;
}

static int largest_k(const gtCrowdQueries* batch)
{
	int k = 0, n = batch->points ? 1 : batch->count;
	for (int i = 0; i < n; i++) k = batch->queries[i].k > k ? batch->queries[i].k : k;
	return k;
}

// A point's block on a grid of at most 256 x 256 (`shift`: log2 of the block side in cells), its
// Z-order key from the crowd's table of spread bits.
static uint32_t z_key(const uint16_t* spread, gtVec2 p, int shift)
{
	uint32_t x = p.x >= 0 && p.x < 65536 ? ((uint32_t)p.x >> shift) & 0xff : 0;
	uint32_t y = p.y >= 0 && p.y < 65536 ? ((uint32_t)p.y >> shift) & 0xff : 0;
	return spread[x] | (uint32_t)spread[y] << 1;
}

// The batch's queries in Z-order of their points over a grid of at most 256 x 256 blocks, so
// that a worker's queries in a row read the same tree nodes, labels and cells (on FloodedPlains,
// 10,000 agents: a sixth less CPU). A radix sort on 16-bit keys: both bytes counted in the pass
// that makes the keys, the low byte's pass from the identity, the high byte's straight into the
// order. It runs alone before the workers start: on FloodedPlains (10,000 agents, callgrind over
// 10 frames) 100 instructions an agent, beside the workers' 1,000 spread over two, before the
// table and the merged passes; 63 now. False when out of memory (then the batch keeps its order).
static bool spatial_order(gtCrowd* c, const gtCrowdQueries* batch)
{
	int n = batch->count;
	if (c->order_room < n) {
		if (!GT_RESIZE(c->order, n) || !GT_RESIZE(c->keys, 2 * (int64_t)n) || !GT_RESIZE(c->ordered, n)) return false;
		c->order_room = n;
	}
	const gtMap* map = gt_world_map(c->world);
	int shift = 0;
	while ((gtMap_Width(map) >> shift) > 256 || (gtMap_Height(map) >> shift) > 256) shift++;
	uint32_t *keys = c->keys, *low = c->keys + n;
	int count[2][257] = {{0}};
	for (int i = 0; i < n; i++) {
		uint32_t key = z_key(c->spread, point_at(batch, i), shift);
		keys[i] = key;
		count[0][(key & 0xff) + 1]++;
		count[1][(key >> 8) + 1]++;
	}
	for (int b = 0; b < 256; b++) {
		count[0][b + 1] += count[0][b];
		count[1][b + 1] += count[1][b];
	}
	for (int i = 0; i < n; i++) low[count[0][keys[i] & 0xff]++] = (uint32_t)i;
	for (int i = 0; i < n; i++) c->order[count[1][keys[low[i]] >> 8]++] = low[i];
	// Gathered here, where the loads are independent and overlap; a worker's load of the next
	// agent's point waits behind the whole answer of the one before (on FloodedPlains, two thirds
	// of answer_share's time went to that load).
	if (batch->points)
		for (int i = 0; i < n; i++) c->ordered[i] = batch->points[c->order[i]];
	return true;
}

static void learn(double* cost, double measured)
{
	*cost = *cost == 0 ? measured : 0.7 * *cost + 0.3 * measured;
}

static void count_part(void* context, int32_t object, gtVec2 p)
{
	(void)object;
	gtCrowd* c = context;
	int32_t part = gt_reach_part(&c->reach, p);
	if (part >= 0) c->part_counts[part]++;
}

// The batch's one filter compiled into every worker, and its matching objects counted per part
// of the map (an agent in a part without any is answered at once).
static gtStatus prepare_shared(gtCrowd* c, const gtCrowdQueries* batch, Job* job, gtError* err)
{
	for (int i = 0; i < c->threads; i++) {
		Worker* wk = &c->workers[i];
		wk->filter_query = batch->queries[0];
		wk->filter_query.point = (gtVec2){0, 0}; // each agent's point is its own (and checked)
		gtStatus st = gt_world_worker_filter(c->world, wk->world, &wk->filter_query, err);
		if (st) return st;
	}
	job->shared = true;
	if (c->part_room < c->reach.parts) {
		if (!GT_RESIZE(c->part_counts, c->reach.parts)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		c->part_room = c->reach.parts;
	}
	memset(c->part_counts, 0, (size_t)c->reach.parts * sizeof *c->part_counts);
	gt_world_each_match(c->world, c->workers[0].world, count_part, c);
	return GT_OK;
}

// Adds the matching objects to the field; stops adding (and says so) once the build is on course
// to cost more than `budget` seconds of the thread's CPU time, judged every 16 objects (a probe
// on FloodedPlains, 3,636 objects at ~15 us each against a batch of ~4.5 ms, stops after the
// first 16, not 64).
typedef struct FieldFill {
	gtCrowd* crowd;
	double start, budget;
	int total, added;
	bool stopped;
} FieldFill;

static void add_to_field(void* context, int32_t object, gtVec2 p)
{
	FieldFill* fill = context;
	if (fill->stopped) return;
	gt_ehl_field_add(fill->crowd->field, p, gt_world_object_id(fill->crowd->world, object));
	if (++fill->added % 16 == 0 && fill->budget < INFINITY &&
	    (gt_thread_cpu_seconds() - fill->start) / fill->added * fill->total > fill->budget)
		fill->stopped = true;
}

// The field for the batch's filter (compiled by prepare_shared): every matching object priced
// into the hub buckets, unless the build would cost more than `budget` seconds (then *stopped,
// and the field is unusable).
static gtStatus build_field(gtCrowd* c, int k, double budget, int* objects, bool* stopped, gtError* err)
{
	const gtEhl* ehl = gtNav_Index(c->nav);
	*stopped = false;
	if (c->field_ehl != ehl) {
		drop_field(c);
		gtStatus st = gt_ehl_field_create(ehl, &c->field, err);
		if (st) return st;
		c->field_ehl = ehl;
	}
	for (int i = 0; i < c->threads; i++) {
		Worker* wk = &c->workers[i];
		gtStatus st = wk->agent ? GT_OK : gt_ehl_field_agent_create(ehl, gt_world_map(c->world), &wk->agent, err);
		if (st) return st;
		if (!gt_ehl_field_agent_reserve(wk->agent, k)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	}
	if (!gt_ehl_field_reset(c->field, k)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a target field");
	int total = 0;
	for (int32_t part = 0; part < c->reach.parts; part++) total += c->part_counts[part];
	FieldFill fill = {c, gt_thread_cpu_seconds(), budget, total, 0, false};
	gt_world_each_match(c->world, c->workers[0].world, add_to_field, &fill);
	*objects = fill.added;
	*stopped = fill.stopped;
	if (fill.added > 0) learn(&c->costs.per_object, (gt_thread_cpu_seconds() - fill.start) / fill.added);
	return GT_OK;
}

// What AUTO would spend answering `count` agents by each method, by the costs measured so far
// (infinite where not measured yet).
static double batch_cost(const gtCrowd* c, int count)
{
	return c->costs.per_query > 0 ? c->costs.per_query * count / c->threads : INFINITY;
}

static double field_cost(const gtCrowd* c, int count, int objects)
{
	const Costs* k = &c->costs;
	return k->per_object > 0 && k->per_agent > 0 ? k->per_object * objects + k->per_agent * count / c->threads
	                                             : INFINITY;
}

static gtCrowdMethod choose(const gtCrowd* c, bool field_possible, int count, int objects)
{
	if (!field_possible) return GT_CROWD_BATCH;
	return field_cost(c, count, objects) < batch_cost(c, count) ? GT_CROWD_FIELD : GT_CROWD_BATCH;
}

// run_batch's flags: the field is already built for this batch; the shared filter is compiled and
// its objects counted (by prepare_shared) for this batch.
enum { RUN_FIELD_BUILT = 1, RUN_SHARED_READY = 2 };

static gtStatus run_batch(gtCrowd* c, const gtCrowdQueries* batch, gtCrowdMethod method, gtQueryMode mode,
                          gtCrowdAnswers* out, gtCrowdStats* stats, gtError* err, const int* slots, int slot_count,
                          int flags);

enum { SAMPLE = 256 };

// The first `head` queries of a batch by one method, the rest by another.
static gtStatus run_split(gtCrowd* c, const gtCrowdQueries* batch, int head_count, gtCrowdMethod head_method,
                          int head_flags, gtCrowdMethod tail_method, gtCrowdAnswers* out, gtCrowdStats* stats,
                          gtError* err)
{
	gtCrowdQueries head = *batch, tail = *batch;
	head.count = head_count;
	tail.count = batch->count - head_count;
	if (batch->points) tail.points = batch->points + head_count;
	else tail.queries = batch->queries + head_count;
	size_t skip = (size_t)head_count * (size_t)out->stride;
	gtCrowdAnswers rest = {out->stride, out->ids + skip, out->distances + skip, out->found + head_count,
	                       out->status ? out->status + head_count : NULL};
	gtCrowdStats first;
	gtStatus st = run_batch(c, &head, head_method, GT_QUERY_NEAREST, out, &first, err, NULL, head_count, head_flags);
	if (st) return st;
	if (tail_method == GT_CROWD_AUTO)
		tail_method = choose(c, true, tail.count, c->field ? gt_ehl_field_objects(c->field) : 0);
	int tail_flags = head_flags & RUN_SHARED_READY;
	if (tail_method == GT_CROWD_FIELD && head_method == GT_CROWD_FIELD) tail_flags |= RUN_FIELD_BUILT;
	st = run_batch(c, &tail, tail_method, GT_QUERY_NEAREST, &rest, stats, err, NULL, tail.count, tail_flags);
	stats->seconds += first.seconds;
	stats->field_seconds += first.field_seconds;
	if (first.field_objects) stats->field_objects = first.field_objects;
	stats->failed += first.failed;
	if (head_method == GT_CROWD_FIELD && tail_method != GT_CROWD_FIELD) stats->method = tail_method;
	return st;
}

// How often AUTO probes the field (every n-th call) while both methods' costs are known. A probe
// costs, beyond answering by the cheaper method, nothing while FIELD is cheaper (it builds the
// field anyway), else the build and the sample's agents at the field's price instead of BATCH's.
// Methods more than a factor 2 apart: every 64th call. Else as often as keeps that extra under 2%
// of the calls' cost, from every 4th (a wrong pick does not last) to every 64th call. (On lak303d,
// 148 enemies, the wall clock at load 8 made the two look close, probed every 4th call; by CPU
// time the field costs over twice BATCH's, every 64th.)
static int probe_every(const gtCrowd* c, double by_batch, double by_field, int objects, int sample)
{
	if (!(by_field < 2 * by_batch && by_batch < 2 * by_field)) return 64;
	if (by_field <= by_batch) return 4;
	const Costs* k = &c->costs;
	double extra = k->per_object * objects + fmax(0, k->per_agent - k->per_query) * sample / c->threads;
	double every = ceil(extra / (0.02 * by_batch));
	return every < 4 ? 4 : every > 64 ? 64 : (int)every;
}

// AUTO on a big batch that a field could answer. BATCH's cost is learnt first (it needs no
// build). The field's is learnt by a probe: its build stops as soon as it is on course to cost
// more than half the whole batch by BATCH (then BATCH answers everything, having lost a few dozen
// objects' pricing: a field that dear to build would have to answer agents at under half BATCH's
// cost to win, and none measured here does), else an eighth of the batch goes through it and the
// rest by the cheaper method.
// Probes come back as probe_every says;
// while FIELD wins, an eighth of the batch goes through BATCH every 16th call to keep its cost
// fresh.
static gtStatus auto_run(gtCrowd* c, const gtCrowdQueries* batch, gtCrowdAnswers* out, gtCrowdStats* stats,
                         gtError* err)
{
	Costs* k = &c->costs;
	int calls = ++k->calls;
	if (k->per_query == 0)
		return run_batch(c, batch, GT_CROWD_BATCH, GT_QUERY_NEAREST, out, stats, err, NULL, batch->count, 0);
	int objects = c->field ? gt_ehl_field_objects(c->field) : 0;
	double by_batch = batch_cost(c, batch->count), by_field = field_cost(c, batch->count, objects);
	int sample = batch->count / 8 > SAMPLE ? batch->count / 8 : SAMPLE; // the workers' start-up spread thin
	bool probe = k->per_agent == 0 ? (k->per_object == 0 || calls % 64 == 0)
	                               : calls % probe_every(c, by_batch, by_field, objects, sample) == 0;
	if (!probe) {
		gtCrowdMethod method = choose(c, true, batch->count, objects);
		if (method == GT_CROWD_FIELD && calls % 16 == 0)
			return run_split(c, batch, batch->count / 8, GT_CROWD_BATCH, 0, GT_CROWD_FIELD, out, stats, err);
		return run_batch(c, batch, method, GT_QUERY_NEAREST, out, stats, err, NULL, batch->count, 0);
	}
	// The probe: the shared filter and its counts, then the build against the batch's cost.
	Job job = {.crowd = c};
	gtStatus st = prepare_shared(c, batch, &job, err);
	bool stopped = false;
	int built = 0;
	double start = gtNowSeconds();
	if (!st) st = build_field(c, largest_k(batch), by_batch / 2, &built, &stopped, err);
	double build_seconds = gtNowSeconds() - start;
	if (st) return st;
	if (stopped) { // the filter compiled and its objects counted above serve the batch too
		st = run_batch(c, batch, GT_CROWD_BATCH, GT_QUERY_NEAREST, out, stats, err, NULL, batch->count,
		               RUN_SHARED_READY);
		stats->seconds += build_seconds;
		stats->field_seconds = build_seconds; // the probe's, though it answered nothing
		stats->field_objects = built;
		return st;
	}
	st = run_split(c, batch, sample, GT_CROWD_FIELD, RUN_FIELD_BUILT | RUN_SHARED_READY, GT_CROWD_AUTO, out, stats,
	               err);
	stats->seconds += build_seconds;
	stats->field_seconds += build_seconds;
	stats->field_objects = built;
	return st;
}

// Answers batch query i into slot `slots[i]` of `out` (slot i without slots; `slot_count` slots).
static gtStatus run_batch(gtCrowd* c, const gtCrowdQueries* batch, gtCrowdMethod method, gtQueryMode mode,
                          gtCrowdAnswers* out, gtCrowdStats* stats, gtError* err, const int* slots, int slot_count,
                          int flags)
{
	gtCrowdStats local;
	if (!stats) stats = &local;
	memset(stats, 0, sizeof *stats);
	double start = gtNowSeconds();
	if (!c || !batch || !out || batch->count < 0 ||
	    (batch->count > 0 && (!batch->queries || !out->ids || !out->distances || !out->found)) || out->stride < 0 ||
	    (unsigned)method > GT_CROWD_FIELD)
		return gt_fail(err, GT_ERR_INVALID_ARG, "bad batch arguments");
	if (batch->count == 0) return GT_OK;
	gtNavMethod backend = gtNav_Method(c->nav);
	bool walls = gtNavMethod_Caps(backend) & GT_NAV_CAP_WALLS;
	// A field reads the labels as they are, which know neither edits nor links.
	bool exact_index = gtNav_IndexState(c->nav) == GT_NAV_INDEX_EXACT && gtNav_EnabledLinkCount(c->nav) == 0 &&
	                   gtEhl_Links(gtNav_Index(c->nav), NULL) == 0;
	bool shared = shared_filter(batch, mode);
	bool field_possible = backend == GT_NAV_EHL && exact_index && shared && largest_k(batch) <= GT_EHL_FIELD_MAX_K;
	if (method == GT_CROWD_FIELD && !field_possible)
		return gt_fail(err, GT_ERR_INVALID_ARG,
		               mode != GT_QUERY_NEAREST ? "the field method answers nearest queries only"
		               : backend != GT_NAV_EHL  ? "the field method needs an EHL index"
		               : gtNav_EnabledLinkCount(c->nav)
		                   ? "the field method knows no links (disable them or use another method)"
		               : !exact_index ? "the field method needs an index of the map as it is (the map was edited since)"
		               : largest_k(batch) > GT_EHL_FIELD_MAX_K
		                   ? "the field method answers k up to 255"
		                   : "the field method needs one filter shared by every query (no region)");
	if (!gt_world_workers_ready(c->world)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the query sphere");
	// The walk and the field skip objects in other parts of the map and order by straight line: a
	// backend with walls and no links only (a link joins parts and may beat the straight line).
	bool walk = walls && mode == GT_QUERY_NEAREST && gtNav_EnabledLinkCount(c->nav) == 0;
	if (walk && !gt_reach_update(&c->reach, gt_world_map(c->world)))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for the map's parts");
	if (method == GT_CROWD_AUTO && field_possible && batch->count > 2 * SAMPLE && !slots)
		return auto_run(c, batch, out, stats, err);
	if (method == GT_CROWD_AUTO)
		method = choose(c, field_possible, batch->count,
		                c->field ? gt_ehl_field_objects(c->field) : gtWorld_Count(c->world));
	stats->method = method;
	Job job = {.crowd = c, .batch = batch, .out = out, .mode = mode, .check_points = walls};
	job.kind = method == GT_CROWD_FIELD ? JOB_FIELD : method == GT_CROWD_BATCH && walk ? JOB_WALK : JOB_WORLD;
	for (int i = 0; i < (batch->points ? 1 : batch->count) && job.kind == JOB_WALK; i++)
		if (batch->queries[i].trace) job.kind = JOB_WORLD; // a trace reports the world's own traversal
	atomic_init(&job.next, 0);
	gtStatus st = GT_OK;
	if (!out->status && c->status_room < slot_count) { // grows with the largest batch, then stays
		if (GT_RESIZE(c->statuses, slot_count)) c->status_room = slot_count;
		else st = gt_fail(err, GT_ERR_NOMEM, "out of memory");
	}
	job.slots = slots;
	job.status = out->status ? out->status : c->statuses;
	job.errors = c->errors;
	job.failed_at = c->failed_at;
	for (int i = 0; i < c->threads && !st; i++) job.failed_at[i] = -1;
	if (!st && job.kind != JOB_WORLD && shared) {
		if (flags & RUN_SHARED_READY) job.shared = true; // the probe compiled it for the whole batch
		else st = prepare_shared(c, batch, &job, err);
	}
	if (!st && job.kind != JOB_WORLD && batch->count > CHUNK && spatial_order(c, batch)) {
		job.order = c->order;
		job.ordered = batch->points ? c->ordered : NULL;
	}
	if (!st && job.kind == JOB_FIELD && !(flags & RUN_FIELD_BUILT)) {
		double field_start = gtNowSeconds();
		bool stopped;
		st = build_field(c, largest_k(batch), INFINITY, &stats->field_objects, &stopped, err);
		stats->field_seconds = gtNowSeconds() - field_start;
	}
	int workers = method == GT_CROWD_EACH ? 1 : c->threads;
	if (!st) {
		if (workers > (batch->count + CHUNK - 1) / CHUNK) workers = (batch->count + CHUNK - 1) / CHUNK;
		if (workers <= 1) run_queries(&job, 0);
		else gt_run_tasks_pooled(c->tasks, c->pool, task, &job, workers);
		for (int i = 0; i < batch->count; i++) stats->failed += job.status[slots ? slots[i] : i] != GT_OK;
		int first = -1, by = -1;
		for (int i = 0; i < c->threads; i++)
			if (job.failed_at[i] >= 0 && (first < 0 || job.failed_at[i] < first)) first = job.failed_at[i], by = i;
		if (!out->status && first >= 0)
			st = gt_fail(err, job.status[first], "query %d: %s", first + 1, job.errors[by].message);
	}
	double end = gtNowSeconds();
	// What AUTO learns: the workers' time answering, summed (their start-up left out).
	double busy = 0;
	for (int i = 0; i < workers && i < c->threads; i++) busy += c->busy[i];
	if (!st && method == GT_CROWD_FIELD) learn(&c->costs.per_agent, busy / batch->count);
	else if (!st && method == GT_CROWD_BATCH) learn(&c->costs.per_query, busy / batch->count);
	stats->seconds = end - start;
	return st;
}

gtStatus gtCrowd_Nearest(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                         gtCrowdStats* stats, gtError* err)
{
	return run_batch(crowd, batch, method, GT_QUERY_NEAREST, out, stats, err, NULL, batch ? batch->count : 0, 0);
}

gtStatus gtCrowd_Within(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                        gtCrowdStats* stats, gtError* err)
{
	return run_batch(crowd, batch, method, GT_QUERY_WITHIN, out, stats, err, NULL, batch ? batch->count : 0, 0);
}

gtStatus gtCrowd_Top(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                     gtCrowdStats* stats, gtError* err)
{
	return run_batch(crowd, batch, method, GT_QUERY_TOP, out, stats, err, NULL, batch ? batch->count : 0, 0);
}

gtStatus gtCrowd_NearestScheduled(gtCrowd* c, const gtCrowdQueries* batch, gtCrowdMethod method, gtSchedule* schedule,
                                  double budget_us, gtCrowdAnswers* out, int* served, gtCrowdStats* stats, gtError* err)
{
	*served = 0;
	if (!c || !batch || !schedule || batch->count < 0 || (batch->count > 0 && !batch->queries))
		return gt_fail(err, GT_ERR_INVALID_ARG, "bad batch arguments");
	if (c->pick_room < batch->count) { // grows with the largest crowd, then stays
		// c->sub holds the sub-batch's queries or, as many, its points (smaller)
		if (!GT_RESIZE(c->picked, batch->count) || !gt_resize(&c->sub, batch->count, sizeof(gtQuery)))
			return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		c->pick_room = batch->count;
	}
	int n;
	gtStatus st = gtSchedule_Pick(schedule, batch->count, budget_us, c->picked, batch->count, &n, err);
	if (st || n == 0) return st;
	gtCrowdQueries sub = {batch->queries, NULL, n};
	if (batch->points) {
		gtVec2* points = c->sub;
		for (int i = 0; i < n; i++) points[i] = batch->points[c->picked[i]];
		sub.points = points;
	} else {
		gtQuery* queries = c->sub;
		for (int i = 0; i < n; i++) queries[i] = batch->queries[c->picked[i]];
		sub.queries = queries;
	}
	gtCrowdStats local;
	if (!stats) stats = &local;
	st = run_batch(c, &sub, method, GT_QUERY_NEAREST, out, stats, err, c->picked, batch->count, 0);
	if (!st) gtSchedule_Report(schedule, n, stats->seconds);
	*served = n;
	return st;
}
