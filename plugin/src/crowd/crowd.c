// Batches of queries on one world: one after another, spread over workers, or through a target
// field; AUTO picks from the costs it measured, as neighand's Auto does.
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/names.h"
#include "core/platform.h"
#include "core/status.h"
#include "core/task.h"
#include "ehl/ehl_field.h"
#include "gridtree/gt_crowd.h"
#include "gridtree/gt_links.h"
#include "world/world_visit.h"

typedef struct Worker {
	gtWorldWorker* world; // its scratch, and the field method's shared filter
	gtNavQuery* nav_query;
	gtEhlFieldAgent* agent; // the field method's agent side
} Worker;

// Measured seconds per unit of work, for AUTO (0: not measured yet).
typedef struct Costs {
	double per_query;  // BATCH, per query, whole call
	double per_object; // FIELD, building, per object in the field
	double per_agent;  // FIELD, answering, per agent
	int calls;         // AUTO calls that could use a field (every 16th measures one again)
} Costs;

struct gtCrowd {
	gtWorld* world;
	gtNav* nav;
	const gtTaskSystem* tasks;
	int threads;
	Worker* workers;
	gtEhlField* field;
	const gtEhl* field_ehl; // the index the field was made for
	Costs costs;
	gtError* errors;    // per worker: its first failure's message
	int* failed_at;     // per worker: its first failed query, or -1
	gtStatus* statuses; // per query when the caller keeps none, grown as batches grow
	int status_room;
	int* picked; // a scheduled frame's agents, and their queries or points (`sub`)
	void* sub;
	int pick_room;
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
	c->workers = gt_calloc((size_t)c->threads, sizeof *c->workers);
	c->errors = gt_malloc((size_t)c->threads * sizeof *c->errors);
	c->failed_at = gt_malloc((size_t)c->threads * sizeof *c->failed_at);
	bool ok = c->workers && c->errors && c->failed_at;
	for (int i = 0; i < c->threads && ok; i++)
		ok = (c->workers[i].world = gt_world_worker_create(world)) &&
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
			gtNavQuery_Destroy(c->workers[i].nav_query);
		}
	}
	gt_free(c->workers);
	gt_free(c->errors);
	gt_free(c->failed_at);
	gt_free(c->statuses);
	gt_free(c->picked);
	gt_free(c->sub);
	gt_free(c);
}

int gtCrowd_Threads(const gtCrowd* c)
{
	return c->threads;
}

// ---- one batch -----------------------------------------------------------------------------------

typedef struct Job {
	gtCrowd* crowd;
	const gtCrowdQueries* batch;
	gtCrowdAnswers* out;
	gtQueryMode mode;
	bool field;
	bool check_points; // a path backend: points must be in the free space
	const int* slots;  // the answer slot of each query (NULL: its own index)
	gtStatus* status;  // per answer slot (the caller's, or the crowd's own)
	gtError* errors;   // the crowd's, per worker
	int* failed_at;    // the crowd's, per worker
	atomic_int next;   // the next chunk of queries to take
} Job;

enum { CHUNK = 16 };

static gtQuery query_at(const gtCrowdQueries* batch, int i)
{
	gtQuery q = batch->points ? batch->queries[0] : batch->queries[i];
	if (batch->points) q.point = batch->points[i];
	return q;
}

static double offer_seen(void* agent, int32_t object, gtVec2 p, double line)
{
	return gt_ehl_field_agent_offer_seen(agent, p, line, object);
}

// One agent through the field: the hub candidates, then the objects it sees directly, nearest
// first while they can still enter its answer.
static gtStatus field_answer(Job* job, Worker* wk, const gtQuery* q, gtObjectId* ids, double* distances, int* found,
                             gtError* err)
{
	gtCrowd* c = job->crowd;
	*found = 0;
	if (q->k <= 0) return GT_OK;
	if (q->k > job->out->stride)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "k is %d but the answers hold %d per query", q->k,
		               job->out->stride);
	gt_ehl_field_agent_begin(wk->agent, c->field, q->point, q->k);
	if (!gt_world_visit_nearest(c->world, wk->world, q->point, gt_ehl_field_agent_limit(wk->agent), offer_seen,
	                            wk->agent))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	int count = gt_ehl_field_agent_count(wk->agent);
	for (int i = 0; i < count; i++) {
		int32_t object;
		gt_ehl_field_agent_answer(wk->agent, i, &object, &distances[i]);
		ids[i] = gt_world_object_id(c->world, object);
	}
	*found = count;
	return GT_OK;
}

static void run_queries(Job* job, int worker_index)
{
	gtCrowd* c = job->crowd;
	Worker* wk = &c->workers[worker_index];
	const gtCrowdQueries* batch = job->batch;
	gtCrowdAnswers* out = job->out;
	gtDistance distance = {.fcn = NULL};
	gtError err;
	if (!job->field && gtNavQuery_WorldDistance(wk->nav_query, &distance, &err)) {
		for (int first; (first = atomic_fetch_add(&job->next, CHUNK)) < batch->count;) // fail this worker's share
			for (int i = first; i < first + CHUNK && i < batch->count; i++) {
				int slot = job->slots ? job->slots[i] : i;
				job->status[slot] = err.status;
				if (job->failed_at[worker_index] < 0 || slot < job->failed_at[worker_index]) {
					job->failed_at[worker_index] = slot;
					job->errors[worker_index] = err;
				}
			}
		return;
	}
	for (int first; (first = atomic_fetch_add(&job->next, CHUNK)) < batch->count;) {
		for (int i = first; i < first + CHUNK && i < batch->count; i++) {
			gtQuery q = query_at(batch, i);
			int slot = job->slots ? job->slots[i] : i;
			gtObjectId* ids = out->ids + (size_t)slot * (size_t)out->stride;
			double* distances = out->distances + (size_t)slot * (size_t)out->stride;
			gtStatus st = GT_OK;
			gtPointCheck check = job->check_points ? gtMap_CheckPoint(gt_world_map(c->world), q.point) : GT_POINT_VALID;
			if (check != GT_POINT_VALID) {
				out->found[slot] = 0;
				st = gt_fail(&err, GT_ERR_INVALID_POINT, "(%g, %g): %s", q.point.x, q.point.y, gtPointCheckName(check));
			} else if (job->field) {
				st = field_answer(job, wk, &q, ids, distances, &out->found[slot], &err);
			} else {
				st = gt_world_worker_query(c->world, wk->world, &q, distance, job->mode, ids, distances, out->stride,
				                           &out->found[slot], &err);
			}
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

static void add_to_field(void* field, int32_t object, gtVec2 p)
{
	gt_ehl_field_add(field, p, object);
}

// The field for the batch's filter: every matching object priced into the hub buckets.
static gtStatus build_field(gtCrowd* c, const gtCrowdQueries* batch, int k, int* objects, gtError* err)
{
	const gtEhl* ehl = gtNav_Index(c->nav);
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
		st = gt_world_worker_filter(c->world, wk->world, &batch->queries[0], err);
		if (st) return st;
	}
	if (!gt_ehl_field_reset(c->field, k)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a target field");
	gt_world_each_match(c->world, c->workers[0].world, add_to_field, c->field);
	*objects = gt_ehl_field_objects(c->field);
	return GT_OK;
}

// AUTO: the cheaper of BATCH and FIELD by the costs measured so far (BATCH until both are).
static gtCrowdMethod choose(const gtCrowd* c, bool field_possible, int count, int objects)
{
	const Costs* k = &c->costs;
	if (!field_possible || k->per_agent == 0 || k->per_query == 0) return GT_CROWD_BATCH;
	return k->per_object * objects + k->per_agent * count < k->per_query * count ? GT_CROWD_FIELD : GT_CROWD_BATCH;
}

static void learn(double* cost, double measured)
{
	*cost = *cost == 0 ? measured : 0.7 * *cost + 0.3 * measured;
}

static gtStatus run_batch(gtCrowd* c, const gtCrowdQueries* batch, gtCrowdMethod method, gtQueryMode mode,
                          gtCrowdAnswers* out, gtCrowdStats* stats, gtError* err, const int* slots, int slot_count);

enum { SAMPLE = 256 };

// AUTO's measurement, without spending a whole frame on a method that may lose: the first SAMPLE
// queries through a field (its cost per object and per agent), the rest by the method the costs
// then favour. Every answer is exact either way. Runs when the field's cost is unknown, and every
// 16th call after, so a change of workload shows.
static gtStatus auto_trial(gtCrowd* c, const gtCrowdQueries* batch, gtCrowdAnswers* out, gtCrowdStats* stats,
                           gtError* err)
{
	gtCrowdQueries head = *batch, tail = *batch;
	head.count = SAMPLE;
	tail.count = batch->count - SAMPLE;
	if (batch->points) tail.points = batch->points + SAMPLE;
	else tail.queries = batch->queries + SAMPLE;
	size_t skip = (size_t)SAMPLE * (size_t)out->stride;
	gtCrowdAnswers rest = {out->stride, out->ids + skip, out->distances + skip, out->found + SAMPLE,
	                       out->status ? out->status + SAMPLE : NULL};
	gtCrowdStats first;
	gtStatus st = run_batch(c, &head, GT_CROWD_FIELD, GT_QUERY_NEAREST, out, &first, err, NULL, SAMPLE);
	if (st) return st;
	gtCrowdMethod method = c->costs.per_query == 0 ? GT_CROWD_BATCH
	                                               : choose(c, true, tail.count, gt_ehl_field_objects(c->field));
	st = run_batch(c, &tail, method, GT_QUERY_NEAREST, &rest, stats, err, NULL, tail.count);
	stats->seconds += first.seconds;
	stats->field_seconds += first.field_seconds;
	stats->field_objects = first.field_objects;
	stats->failed += first.failed;
	return st;
}

// Answers batch query i into slot `slots[i]` of `out` (slot i without slots; `slot_count` slots).
static gtStatus run_batch(gtCrowd* c, const gtCrowdQueries* batch, gtCrowdMethod method, gtQueryMode mode,
                          gtCrowdAnswers* out, gtCrowdStats* stats, gtError* err, const int* slots, int slot_count)
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
	// A field reads the labels as they are, which know neither edits nor links.
	bool exact_index = gtNav_IndexState(c->nav) == GT_NAV_INDEX_EXACT && gtNav_EnabledLinkCount(c->nav) == 0;
	bool field_possible = backend == GT_NAV_EHL && exact_index && shared_filter(batch, mode) &&
	                      largest_k(batch) <= GT_EHL_FIELD_MAX_K;
	if (method == GT_CROWD_FIELD && !field_possible)
		return gt_fail(err, GT_ERR_INVALID_ARG,
		               mode != GT_QUERY_NEAREST ? "the field method answers nearest queries only"
		               : backend != GT_NAV_EHL  ? "the field method needs an EHL index"
		               : !exact_index ? "the field method needs an index of the map as it is (the map was edited since)"
		               : largest_k(batch) > GT_EHL_FIELD_MAX_K
		                   ? "the field method answers k up to 255"
		                   : "the field method needs one filter shared by every query (no region)");
	// The field's size is not known before it is built: the last one's (or every object) stands in.
	if (method == GT_CROWD_AUTO && field_possible && batch->count > 2 * SAMPLE && !slots &&
	    (c->costs.per_agent == 0 || ++c->costs.calls % 16 == 0))
		return auto_trial(c, batch, out, stats, err);
	if (method == GT_CROWD_AUTO)
		method = choose(c, field_possible, batch->count,
		                c->field ? gt_ehl_field_objects(c->field) : gtWorld_Count(c->world));
	stats->method = method;
	if (!gt_world_workers_ready(c->world)) return gt_fail(err, GT_ERR_NOMEM, "out of memory for the query sphere");
	Job job = {.crowd = c,
	           .batch = batch,
	           .out = out,
	           .mode = mode,
	           .field = method == GT_CROWD_FIELD,
	           .check_points = gtNavMethod_Caps(backend) & GT_NAV_CAP_WALLS};
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
	if (!st && job.field) {
		double field_start = gtNowSeconds();
		st = build_field(c, batch, largest_k(batch), &stats->field_objects, err);
		stats->field_seconds = gtNowSeconds() - field_start;
	}
	double answer_start = gtNowSeconds();
	if (!st) {
		int workers = method == GT_CROWD_EACH ? 1 : c->threads;
		if (workers > (batch->count + CHUNK - 1) / CHUNK) workers = (batch->count + CHUNK - 1) / CHUNK;
		if (workers <= 1) run_queries(&job, 0);
		else gt_run_tasks(c->tasks, task, &job, workers);
		for (int i = 0; i < batch->count; i++) stats->failed += job.status[slots ? slots[i] : i] != GT_OK;
		int first = -1, by = -1;
		for (int i = 0; i < c->threads; i++)
			if (job.failed_at[i] >= 0 && (first < 0 || job.failed_at[i] < first)) first = job.failed_at[i], by = i;
		if (!out->status && first >= 0)
			st = gt_fail(err, job.status[first], "query %d: %s", first + 1, job.errors[by].message);
	}
	double end = gtNowSeconds();
	if (!st && method == GT_CROWD_FIELD) {
		if (stats->field_objects > 0) learn(&c->costs.per_object, stats->field_seconds / stats->field_objects);
		learn(&c->costs.per_agent, (end - answer_start) / batch->count);
	} else if (!st && method == GT_CROWD_BATCH) {
		learn(&c->costs.per_query, (end - answer_start) / batch->count);
	}
	stats->seconds = end - start;
	return st;
}

gtStatus gtCrowd_Nearest(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                         gtCrowdStats* stats, gtError* err)
{
	return run_batch(crowd, batch, method, GT_QUERY_NEAREST, out, stats, err, NULL, batch ? batch->count : 0);
}

gtStatus gtCrowd_Within(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                        gtCrowdStats* stats, gtError* err)
{
	return run_batch(crowd, batch, method, GT_QUERY_WITHIN, out, stats, err, NULL, batch ? batch->count : 0);
}

gtStatus gtCrowd_Top(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                     gtCrowdStats* stats, gtError* err)
{
	return run_batch(crowd, batch, method, GT_QUERY_TOP, out, stats, err, NULL, batch ? batch->count : 0);
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
	st = run_batch(c, &sub, method, GT_QUERY_NEAREST, out, stats, err, c->picked, batch->count);
	if (!st) gtSchedule_Report(schedule, n, stats->seconds);
	*served = n;
	return st;
}
