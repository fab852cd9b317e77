// Threads under ThreadSanitizer (tests/fuzz/tsan.sh builds this with -fsanitize=thread): the
// built-in pool (core/task.c) and a host job system that really runs tasks in parallel, driving
// the visibility graph (map/vis_graph.c) and the EHL build (ehl/ehl_build.c); then one shared
// index and map queried from several threads at once. Each threaded result must equal the
// single-threaded one, and TSan (halt_on_error=1) must report no race.
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/task.h"
#include "ehl/ehl_layout.h"
#include "nav/nav_internal.h"
#include "test_support.h"

#define WORKERS 4

// A host job system: enqueue starts one thread per task index, finish joins them.
typedef struct HostJob {
	gtTaskFcn* fcn;
	void* context;
	int index;
} HostJob;

typedef struct HostJobs {
	pthread_t ids[WORKERS];
	HostJob jobs[WORKERS];
	int count, enqueued;
} HostJobs;

static void* host_thread(void* arg)
{
	HostJob* j = arg;
	j->fcn(j->context, j->index);
	return NULL;
}

static void* host_enqueue(gtTaskFcn* fcn, void* context, int count, void* user)
{
	HostJobs* h = user;
	assert_true(count >= 1 && count <= WORKERS);
	h->count = count;
	h->enqueued++;
	for (int i = 0; i < count; i++) {
		h->jobs[i].fcn = fcn;
		h->jobs[i].context = context;
		h->jobs[i].index = i;
		assert_int_equal(pthread_create(&h->ids[i], NULL, host_thread, &h->jobs[i]), 0);
	}
	return h;
}

static void host_finish(void* handle, void* user)
{
	HostJobs* h = user;
	assert_ptr_equal(handle, user);
	for (int i = 0; i < h->count; i++) assert_int_equal(pthread_join(h->ids[i], NULL), 0);
}

typedef struct Progress {
	int calls;
	double last;
} Progress;

static void count_progress(void* user, const char* stage, double fraction)
{
	Progress* p = user;
	(void)stage;
	p->calls++;
	p->last = fraction;
}

static gtEhl* build(const gtMap* map, int threads, const gtTaskSystem* tasks, Progress* progress)
{
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 4;
	def.threads = threads;
	def.tasks = tasks;
	def.progress = progress ? count_progress : NULL;
	def.progress_user = progress;
	gtEhl* e = NULL;
	gtError err;
	if (gtEhl_Build(map, &def, &e, &err) != GT_OK) fail_msg("%s", err.message);
	return e;
}

// The map's index built by WORKERS threads (the built-in pool when tasks is NULL) equals the
// serial one: the same sizes, bit-identical distances.
static void check_threaded_build(const char* map_path, const gtTaskSystem* tasks, uint64_t seed)
{
	gtMap* map = test_load_map(map_path);
	Progress progress = {0, 0};
	gtEhl* serial = build(map, 1, NULL, NULL);
	gtEhl* threaded = build(map, WORKERS, tasks, &progress);
	assert_true(progress.calls > 0);
	gtEhlStats x = gtEhl_GetStats(serial), y = gtEhl_GetStats(threaded);
	assert_int_equal(x.vg_edges, y.vg_edges);
	assert_int_equal(x.hub_entries, y.hub_entries);
	assert_int_equal(x.via_labels, y.via_labels);
	assert_int_equal(x.full_vias, y.full_vias);
	assert_int_equal(x.index_bytes, y.index_bytes);
	test_same_distances(map, serial, threaded, seed, 200);
	gtEhl_Destroy(serial);
	gtEhl_Destroy(threaded);
	gtMap_Destroy(map);
}

static void test_pool_build_equals_serial(void** state)
{
	(void)state;
	check_threaded_build("assets/maps/caves.map", NULL, 11);
}

static void test_host_jobs_build_equals_serial(void** state)
{
	(void)state;
	HostJobs jobs = {0};
	gtTaskSystem tasks = {host_enqueue, host_finish, &jobs};
	check_threaded_build("assets/maps/small.map", &tasks, 12);
	assert_true(jobs.enqueued >= 3); // visibility graph, cells, via labels
}

// The oracle's visibility graph built by the pool has the same neighbours as a serial one.
static void test_vis_graph_threads(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/caves.map");
	gtOracle *one, *many;
	gtError err;
	assert_int_equal(gtOracle_Create(map, 1, &one, &err), GT_OK);
	assert_int_equal(gtOracle_Create(map, WORKERS, &many, &err), GT_OK);
	assert_int_equal(gtOracle_EdgeCount(one), gtOracle_EdgeCount(many));
	int n;
	gtMap_Vertices(map, &n);
	for (int v = 0; v < n; v++) {
		const int32_t *a, *b;
		const double *la, *lb;
		int ka = gtOracle_Neighbors(one, v, &a, &la), kb = gtOracle_Neighbors(many, v, &b, &lb);
		assert_int_equal(ka, kb);
		for (int i = 0; i < ka; i++) {
			assert_int_equal(a[i], b[i]);
			assert_true(la[i] == lb[i]);
		}
	}
	gtOracle_Destroy(one);
	gtOracle_Destroy(many);
	gtMap_Destroy(map);
}

// One index and one map shared by WORKERS threads, each with its own query object.
typedef struct Shared {
	const gtMap* map;
	const gtEhl* ehl;
	gtVec2 s[64], t[64];
	double expect[64];
	int mismatches[WORKERS];
} Shared;

typedef struct QueryThread {
	Shared* sh;
	int index;
} QueryThread;

static void* query_thread(void* arg)
{
	QueryThread* me = arg;
	Shared* sh = me->sh;
	const int* index = &me->index;
	gtEhlQuery* q;
	gtError err;
	if (gtEhlQuery_Create(sh->ehl, &q, &err) != GT_OK) return NULL;
	gtVec2 path[256];
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 64; i++) {
			int k = (i + *index * 16) % 64;
			double d, pd;
			int count;
			if (gtEhl_Distance(q, sh->s[k], sh->t[k], &d, &err) != GT_OK || d != sh->expect[k])
				sh->mismatches[*index]++;
			if (gtEhl_Path(q, sh->s[k], sh->t[k], path, 256, &count, &pd, &err) != GT_OK || pd != d)
				sh->mismatches[*index]++;
			if (gtMap_Visible(sh->map, sh->s[k], sh->t[k]) != gtMap_Visible(sh->map, sh->t[k], sh->s[k]))
				sh->mismatches[*index]++;
		}
	gtEhlQuery_Destroy(q);
	return NULL;
}

static void test_shared_index_queries(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/small.map");
	gtEhl* ehl = build(map, 2, NULL, NULL);
	Shared* sh = calloc(1, sizeof *sh);
	assert_non_null(sh);
	sh->map = map;
	sh->ehl = ehl;
	TestRng rng = {7};
	gtEhlQuery* q;
	gtError err;
	assert_int_equal(gtEhlQuery_Create(ehl, &q, &err), GT_OK);
	for (int i = 0; i < 64; i++) {
		sh->s[i] = test_random_point(map, &rng);
		sh->t[i] = test_random_point(map, &rng);
		assert_int_equal(gtEhl_Distance(q, sh->s[i], sh->t[i], &sh->expect[i], &err), GT_OK);
	}
	gtEhlQuery_Destroy(q);
	pthread_t ids[WORKERS];
	QueryThread threads[WORKERS];
	for (int i = 0; i < WORKERS; i++) {
		threads[i] = (QueryThread){sh, i};
		assert_int_equal(pthread_create(&ids[i], NULL, query_thread, &threads[i]), 0);
	}
	for (int i = 0; i < WORKERS; i++) assert_int_equal(pthread_join(ids[i], NULL), 0);
	for (int i = 0; i < WORKERS; i++) assert_int_equal(sh->mismatches[i], 0);
	free(sh);
	gtEhl_Destroy(ehl);
	gtMap_Destroy(map);
}

// A world of `count` objects with the word "enemy" (in *word) at random free points.
static gtWorld* enemies_world(const gtMap* map, int count, TestRng* rng, int32_t* word)
{
	gtWorld* world = test_make_world(map, 4);
	*word = gtWorld_Keyword(world, "enemy");
	gtError err;
	for (int i = 0; i < count; i++) {
		gtObjectId id;
		assert_int_equal(gtWorld_Add(world, test_random_point(map, rng), word, 1, &id, &err), GT_OK);
	}
	return world;
}

enum { MOST_AGENTS = 300, MOST_K = 3 };

// A crowd's answers twice: 0 EACH's on the calling thread, 1 those of the method under test.
typedef struct AnswerPair {
	gtObjectId ids[2][MOST_AGENTS * MOST_K];
	double dists[2][MOST_AGENTS * MOST_K];
	int found[2][MOST_AGENTS];
	gtStatus status[2][MOST_AGENTS];
} AnswerPair;

static gtCrowdAnswers answers(AnswerPair* a, int which, int k)
{
	return (gtCrowdAnswers){k, a->ids[which], a->dists[which], a->found[which], a->status[which]};
}

// Both sets of `agents` agents with k slots each hold the same counts and bit-equal distances.
static void assert_same_answers(const AnswerPair* a, int agents, int k)
{
	for (int i = 0; i < agents; i++) {
		assert_int_equal(a->found[1][i], a->found[0][i]);
		for (int r = 0; r < a->found[0][i]; r++) assert_true(a->dists[1][i * k + r] == a->dists[0][i * k + r]);
	}
}

// A map, a nav of two threads with an EHL index of `cell` built on two threads too, and a world
// when a test adds one.
typedef struct Threaded {
	gtMap* map;
	gtNav* nav;
	gtWorld* world;
} Threaded;

static Threaded threaded_open(const char* path, int cell)
{
	Threaded t = {test_load_map(path), NULL, NULL};
	gtNavDef def = gtNav_DefaultDef();
	def.threads = 2;
	gtError err;
	assert_int_equal(gtNav_Create(t.map, &def, &t.nav, &err), GT_OK);
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = cell;
	ehl.threads = 2;
	assert_int_equal(gtNav_BuildIndex(t.nav, &ehl, &err), GT_OK);
	return t;
}

static void threaded_close(Threaded* t)
{
	if (t->world) gtWorld_Destroy(t->world);
	gtNav_Destroy(t->nav);
	gtMap_Destroy(t->map);
}

// A crowd's workers share one world and one nav, read-only, each with its own scratch: batches
// and target fields on the built-in pool and on a host job system give EACH's distances.
static void test_crowd_workers(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/small.map");
	gtNav* nav;
	gtError err;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_SetIndex(nav, build(map, 2, NULL, NULL), &err), GT_OK);
	TestRng rng = {11};
	int32_t word;
	gtWorld* world = enemies_world(map, 80, &rng, &word);
	enum { AGENTS = MOST_AGENTS, K = MOST_K };
	static gtVec2 points[AGENTS];
	for (int i = 0; i < AGENTS; i++) points[i] = test_random_point(map, &rng);
	gtQuery q = test_keyword_query((gtVec2){0, 0}, K, &word);
	gtCrowdQueries batch = {&q, points, AGENTS};
	static AnswerPair got;
	static HostJobs jobs;
	gtTaskSystem host = {host_enqueue, host_finish, &jobs};
	for (int system = 0; system < 2; system++) {
		gtCrowdDef def = gtCrowd_DefaultDef();
		def.threads = WORKERS;
		def.tasks = system ? &host : NULL;
		gtCrowd* crowd;
		assert_int_equal(gtCrowd_Create(world, nav, &def, &crowd, &err), GT_OK);
		gtCrowdAnswers each = answers(&got, 0, K);
		assert_int_equal(gtCrowd_Nearest(crowd, &batch, GT_CROWD_EACH, &each, NULL, &err), GT_OK);
		const gtCrowdMethod methods[] = {GT_CROWD_BATCH, GT_CROWD_FIELD};
		for (int m = 0; m < 2; m++) {
			gtCrowdAnswers out = answers(&got, 1, K);
			assert_int_equal(gtCrowd_Nearest(crowd, &batch, methods[m], &out, NULL, &err), GT_OK);
			assert_same_answers(&got, AGENTS, K);
		}
		gtCrowd_Destroy(crowd);
	}
	assert_true(jobs.enqueued >= 2); // the host's job system ran the batch and the field
	gtWorld_Destroy(world);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// A background index rebuild (map edits) runs while the calling thread edits the map and queries:
// the rebuild reads only its own copy of the map, and is taken between "frames".
static void test_background_rebuild(void** state)
{
	(void)state;
	Threaded t = threaded_open("assets/maps/small.map", 2);
	gtMap* map = t.map;
	gtNav* nav = t.nav;
	gtNavQuery* q;
	gtError err;
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	TestRng rng = {21};
	int freed = 0;
	for (int y = 1; y < gtMap_Height(map) - 1 && freed < 3; y++)
		for (int x = 1; x < gtMap_Width(map) - 1 && freed < 3; x++)
			if (gtMap_IsBlocked(map, x, y)) {
				assert_int_equal(gtNav_SetBlocked(nav, x, y, x, y, false, &err), GT_OK); // starts a rebuild
				freed++;
				for (int i = 0; i < 20; i++) { // frames of queries while it runs
					double d;
					gtNavQuery_Distance(q, test_random_point(map, &rng), test_random_point(map, &rng), &d, NULL);
				}
				gtNav_Update(nav);
			}
	gtNav_WaitForRebuild(nav);
	assert_int_equal(gtNav_IndexState(nav), GT_NAV_INDEX_EXACT);
	gtNavQuery_Destroy(q);
	threaded_close(&t);
}

// A 2x2 block of walls demolished deep inside a wall (walls 6 squares all around it): no corner,
// no sight line, no cell changes. False when the map has none left.
static bool demolish_deep(gtNav* nav, const gtMap* map)
{
	int w = gtMap_Width(map), h = gtMap_Height(map), m = 6;
	for (int y = m; y + 2 + m <= h; y++)
		for (int x = m; x + 2 + m <= w; x++) {
			bool all = true;
			for (int b = -m; b < 2 + m && all; b++)
				for (int a = -m; a < 2 + m && all; a++) all = gtMap_IsBlocked(map, x + a, y + b);
			gtError err;
			if (all) return gtNav_SetBlocked(nav, x, y, x + 1, y + 1, false, &err) == GT_OK;
		}
	return false;
}

// Repairs that find every cell as the last index has it share its cell arrays (ehl_repair.c,
// gtEhl.shared_cells) while queries run on the index they came from; that index is retired (freed
// by a background job) while the next one answers from the same arrays.
static void test_rebuilds_sharing_cells(void** state)
{
	(void)state;
	Threaded t = {NULL, NULL, NULL};
	gtError err;
	assert_int_equal(gtMap_Generate(GT_STYLE_CAVES, 160, 128, 5, &t.map, &err), GT_OK); // 3 such places
	gtNavDef def = gtNav_DefaultDef();
	def.threads = 2;
	assert_int_equal(gtNav_Create(t.map, &def, &t.nav, &err), GT_OK);
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.cell_size = 4, ehl.threads = 2;
	assert_int_equal(gtNav_BuildIndex(t.nav, &ehl, &err), GT_OK);
	gtNavQuery* q;
	assert_int_equal(gtNavQuery_Create(t.nav, &q, &err), GT_OK);
	TestRng rng = {33};
	const void* hubs = NULL;
	for (int k = 0; k < 3; k++) { // the first rebuild builds whole, the next two repair from it
		assert_true(demolish_deep(t.nav, t.map));
		for (int i = 0; i < 40; i++) {
			double d;
			gtNavQuery_Distance(q, test_random_point(t.map, &rng), test_random_point(t.map, &rng), &d, NULL);
		}
		gtNav_WaitForRebuild(t.nav);
		gtNav_Update(t.nav);
		assert_int_equal(gtNav_IndexState(t.nav), GT_NAV_INDEX_EXACT);
		if (k > 0) assert_ptr_equal(t.nav->ehl->hubs, hubs);
		hubs = t.nav->ehl->hubs;
		for (int i = 0; i < 40; i++) {
			double d;
			gtNavQuery_Distance(q, test_random_point(t.map, &rng), test_random_point(t.map, &rng), &d, NULL);
		}
	}
	gtNavQuery_Destroy(q);
	threaded_close(&t);
}

// A crowd of 200 agents (k = 2) on caves.map among 60 enemies, its workers on the built-in pool,
// for the tests below that edit the map between its frames.
enum { SCENE_AGENTS = 200, SCENE_K = 2 }; // within MOST_AGENTS and MOST_K
typedef struct CrowdScene {
	Threaded t;
	TestRng rng;
	int32_t word; // "enemy"
	gtQuery query;
	gtCrowdQueries batch;
	gtCrowd* crowd;
} CrowdScene;
static gtVec2 scene_points[SCENE_AGENTS];
static AnswerPair scene_got;

static void scene_open(CrowdScene* s, uint64_t seed)
{
	s->t = threaded_open("assets/maps/caves.map", 4);
	s->rng = (TestRng){seed};
	s->t.world = enemies_world(s->t.map, 60, &s->rng, &s->word);
	s->query = test_keyword_query((gtVec2){0, 0}, SCENE_K, &s->word);
	s->batch = (gtCrowdQueries){&s->query, scene_points, SCENE_AGENTS};
	gtCrowdDef def = gtCrowd_DefaultDef();
	def.threads = WORKERS;
	gtError err;
	assert_int_equal(gtCrowd_Create(s->t.world, s->t.nav, &def, &s->crowd, &err), GT_OK);
}

// One frame at new random points: BATCH on the workers, then EACH on the calling thread, the same
// answers (bit for bit, or within rounding where both are exact by different searches).
static void scene_frame(CrowdScene* s, bool within_rounding)
{
	gtError err;
	for (int i = 0; i < SCENE_AGENTS; i++) scene_points[i] = test_random_point(s->t.map, &s->rng);
	gtCrowdAnswers out = answers(&scene_got, 1, SCENE_K);
	assert_int_equal(gtCrowd_Nearest(s->crowd, &s->batch, GT_CROWD_BATCH, &out, NULL, &err), GT_OK);
	gtCrowdAnswers each = answers(&scene_got, 0, SCENE_K);
	assert_int_equal(gtCrowd_Nearest(s->crowd, &s->batch, GT_CROWD_EACH, &each, NULL, &err), GT_OK);
	if (!within_rounding) {
		assert_same_answers(&scene_got, SCENE_AGENTS, SCENE_K);
		return;
	}
	for (int i = 0; i < SCENE_AGENTS; i++) {
		assert_int_equal(scene_got.found[1][i], scene_got.found[0][i]);
		for (int r = 0; r < scene_got.found[0][i]; r++) {
			double a = scene_got.dists[1][i * SCENE_K + r], b = scene_got.dists[0][i * SCENE_K + r];
			assert_true(fabs(a - b) <= 1e-9 * (1 + b));
		}
	}
}

static void scene_close(CrowdScene* s)
{
	gtCrowd_Destroy(s->crowd);
	threaded_close(&s->t);
}

// What docs/edits.md promises while the map changes: a background rebuild (started here by walls
// built, the case that used to start none) runs while a crowd's workers answer batches on the
// built-in pool; edits and gtNav_Update come between the frames, on the calling thread. Every
// frame's BATCH answers equal EACH's on the calling thread.
static void test_crowd_while_rebuilding(void** state)
{
	(void)state;
	CrowdScene s;
	scene_open(&s, 31);
	gtMap* map = s.t.map;
	gtNav* nav = s.t.nav;
	gtError err;
	int rebuilding_frames = 0;
	for (int frame = 0; frame < 6; frame++) {
		int x = 2 + test_rng_int(&s.rng, gtMap_Width(map) - 6), y = 2 + test_rng_int(&s.rng, gtMap_Height(map) - 6);
		assert_int_equal(gtNav_SetBlocked(nav, x, y, x + 1, y + 1, frame % 3 != 2, &err), GT_OK);
		rebuilding_frames += gtNav_Rebuilding(nav);
		scene_frame(&s, false);
		gtNav_Update(nav);
	}
	assert_true(rebuilding_frames > 0);
	gtNav_WaitForRebuild(nav);
	assert_int_equal(gtNav_RebuildStatus(nav, &err), GT_OK);
	scene_close(&s);
}

// Views of the edited map (nav_view.c) while a crowd's workers answer: each edit starts the job
// that makes its view, and the frame's batch runs at once, its workers' query objects taking the
// view (or waiting for it, or answering from the one before) at the same time, on the built-in
// pool. Walls are built across free space and some demolished again (derived and repaired views).
// Every frame's BATCH answers equal EACH's on the calling thread (both exact: within rounding).
static void test_crowd_while_views_change(void** state)
{
	(void)state;
	CrowdScene s;
	scene_open(&s, 37);
	gtMap* map = s.t.map;
	gtNav* nav = s.t.nav;
	gtError err;
	int walls[8][2], built = 0;
	for (int frame = 0; frame < 8; frame++) {
		if (frame % 4 == 3 && built > 0) {
			built--;
			assert_int_equal(gtNav_SetBlocked(nav, walls[built][0], walls[built][1], walls[built][0] + 3,
			                                  walls[built][1], false, &err),
			                 GT_OK);
		} else {
			int x = 2, y = 2;
			for (int tries = 0; tries < 1000; tries++) {
				x = 2 + test_rng_int(&s.rng, gtMap_Width(map) - 6), y = 2 + test_rng_int(&s.rng, gtMap_Height(map) - 6);
				bool open = true;
				for (int k = 0; k < 4; k++) open &= !gtMap_IsBlocked(map, x + k, y);
				if (open) break;
			}
			assert_int_equal(gtNav_SetBlocked(nav, x, y, x + 3, y, true, &err), GT_OK);
			walls[built][0] = x, walls[built][1] = y, built++;
		}
		scene_frame(&s, true);
		gtNav_Update(nav);
	}
	scene_close(&s);
}

// ---- the built-in pool's parked workers (core/task.c gtPool) -----------------------------------

// Threads of this process (/proc/self/task), or -1 where /proc is not there.
static int thread_count(void)
{
	DIR* d = opendir("/proc/self/task");
	if (!d) return -1;
	int n = 0;
	for (struct dirent* e; (e = readdir(d));) n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

typedef struct PoolCall {
	int count;
	int ran[WORKERS];     // plain ints: each index writes its own, the caller reads after the call
	int64_t sum[WORKERS]; // work an index did (a race on these is TSan's to see)
	atomic_int items;     // a shared queue of items, taken by whichever index is running
	int most_threads;     // threads seen from inside a task (index 0 only)
	gtPool* nested;       // when set, index 1 runs a call of its own on this pool
	int nested_ok;
} PoolCall;

static void pool_item_task(void* context, int index)
{
	PoolCall* c = context;
	c->ran[index]++;
	for (int item; (item = atomic_fetch_add(&c->items, 1)) < 64;) c->sum[index] += item;
}

static void pool_task(void* context, int index)
{
	PoolCall* c = context;
	pool_item_task(c, index);
	if (index == 0) c->most_threads = thread_count();
	if (index == 1 && c->nested) { // the pool is busy with this call: the nested one runs on threads of its own
		PoolCall inner = {.count = 3};
		atomic_init(&inner.items, 0);
		gt_run_tasks_pooled(NULL, c->nested, pool_item_task, &inner, 3);
		int64_t total = 0;
		for (int i = 0; i < 3; i++) total += inner.sum[i];
		c->nested_ok = inner.ran[0] == 1 && inner.ran[1] == 1 && inner.ran[2] == 1 && total == 64 * 63 / 2;
	}
}

static void pool_call_check(gtPool* pool, int count, gtPool* nested, int* most_threads)
{
	PoolCall c = {.count = count, .nested = nested};
	atomic_init(&c.items, 0);
	gt_run_tasks_pooled(NULL, pool, pool_task, &c, count);
	int64_t total = 0;
	for (int i = 0; i < WORKERS; i++) {
		assert_int_equal(c.ran[i], i < count ? 1 : 0); // every index once, no other
		total += c.sum[i];
	}
	assert_true(total == 64 * 63 / 2); // every item taken exactly once, whoever took it
	if (nested && count > 1) assert_true(c.nested_ok);
	if (most_threads && c.most_threads > *most_threads) *most_threads = c.most_threads;
}

typedef struct PoolUser {
	gtPool* pool;
	int calls;
} PoolUser;

static void* pool_user_thread(void* arg)
{
	PoolUser* u = arg;
	for (int i = 0; i < u->calls; i++) pool_call_check(u->pool, 2 + i % (WORKERS - 1), NULL, NULL);
	return NULL;
}

// Many short calls on one pool start its threads once (the process's thread count stays put);
// nested calls (a task calling on its own pool, which is busy) and calls from two threads at once
// run on threads of their own and still run every index once; a pool is destroyed idle, after use
// or never used. TSan checks that the caller sees each call's work and the workers see its context.
static void test_task_pool(void** state)
{
	(void)state;
	int64_t bytes = gtGetByteCount();
	gtPool* pool = gt_pool_create();
	assert_non_null(pool);
	int before = thread_count();
	pool_call_check(pool, WORKERS, NULL, NULL); // starts WORKERS - 1 threads, parked after
	int parked = thread_count();
	if (before > 0) assert_int_equal(parked, before + WORKERS - 1);
	int most = 0;
	for (int i = 0; i < 2000; i++) pool_call_check(pool, 1 + i % WORKERS, NULL, &most);
	if (before > 0) {
		assert_int_equal(thread_count(), parked);
		assert_int_equal(most, parked); // no thread started for any call
	}
	for (int i = 0; i < 50; i++) pool_call_check(pool, WORKERS, pool, NULL); // nested on the same pool
	gtPool* other = gt_pool_create();
	assert_non_null(other);
	for (int i = 0; i < 50; i++) pool_call_check(pool, WORKERS, other, NULL); // nested on another pool
	PoolUser users[2] = {{pool, 300}, {pool, 300}};
	pthread_t ids[2];
	for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&ids[i], NULL, pool_user_thread, &users[i]), 0);
	for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(ids[i], NULL), 0);
	gt_pool_destroy(other);
	gt_pool_destroy(pool);
	if (before > 0) assert_int_equal(thread_count(), before); // every worker joined
	gt_pool_destroy(gt_pool_create());                        // never used: no threads to join
	gt_pool_destroy(NULL);
	for (int i = 0; i < 20; i++) { // destroyed straight after a call, workers perhaps still waking
		gtPool* p = gt_pool_create();
		pool_call_check(p, 1 + i % WORKERS, NULL, NULL);
		gt_pool_destroy(p);
	}
	assert_int_equal(gtGetByteCount(), bytes);
}

// Every point's neighbours at once (gtNeighbours_QueryAll by stretches of the copy sorted by cell:
// workers take chunks of cells, each point writing only its own answer): on the index's parked
// pool and on the host's parallel jobs, the same answers as one thread, in 2D and 3D, open and
// wrapping, with odd and even cell counts (18 and 17 cells a side).
static void test_neighbour_pairs_threads(void** state)
{
	(void)state;
	enum { POINTS = 12000, STRIDE = 16 };
	static gtNeighbour one[POINTS * STRIDE], many[POINTS * STRIDE];
	static int32_t one_n[POINTS], many_n[POINTS];
	HostJobs jobs = {0};
	gtTaskSystem host = {host_enqueue, host_finish, &jobs};
	TestRng rng = {5};
	for (int dims = 2; dims <= 3; dims++)
		for (int wraps = 0; wraps <= 1; wraps++)
			for (int side = 17; side <= 18; side++) {
				unsigned wrap = wraps ? (dims == 2 ? 3 : 7) : 0;
				gtNeighboursDef def = {.dimensions = dims, .size = {side, side, side}, .wrap = wrap, .cell = 1};
				def.tasks = side == 18 ? &host : NULL;
				gtNeighbours* nb;
				assert_int_equal(gtNeighbours_Create(&def, &nb, NULL), GT_OK);
				for (int i = 0; i < POINTS; i++) {
					double p[3];
					for (int a = 0; a < 3; a++) p[a] = (double)test_rng_int(&rng, side * 1000) / 1000;
					gtNeighbourId id;
					assert_int_equal(gtNeighbours_Add(nb, p, &id, NULL), GT_OK);
				}
				gtNeighboursAll all = {
				    .radius = dims == 2 ? 1.5 : 1, .out = one, .stride = STRIDE, .counts = one_n, .threads = 1};
				gtNeighbourStats stats;
				assert_int_equal(gtNeighbours_QueryAll(nb, &all, GT_NEIGHBOURS_CUBE, NULL, NULL), GT_OK);
				all.out = many, all.counts = many_n, all.threads = WORKERS;
				assert_int_equal(gtNeighbours_QueryAll(nb, &all, GT_NEIGHBOURS_CUBE, &stats, NULL), GT_OK);
				assert_true(stats.points_tested > 0);
				for (int i = 0; i < POINTS; i++) {
					assert_int_equal(one_n[i], many_n[i]);
					for (int j = 0; j < one_n[i]; j++) {
						assert_true(one[i * STRIDE + j].id == many[i * STRIDE + j].id);
						assert_true(one[i * STRIDE + j].distance == many[i * STRIDE + j].distance);
					}
				}
				gtNeighbours_Destroy(nb);
			}
	assert_true(jobs.enqueued >= 4); // each batch on the host's jobs (one call a batch)
}

TEST_MAIN("tsan_threads", test_pool_build_equals_serial, test_host_jobs_build_equals_serial, test_vis_graph_threads,
          test_shared_index_queries, test_crowd_workers, test_background_rebuild, test_rebuilds_sharing_cells,
          test_crowd_while_rebuilding, test_crowd_while_views_change, test_neighbour_pairs_threads, test_task_pool)
