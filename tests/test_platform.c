// The platform seams: the allocator hook (every allocation goes through it, bytes return to zero,
// a failing allocator gives GT_ERR_NOMEM and never a crash) and the task interface (a host's job
// system gets the work, and the result does not depend on how the work is scheduled).
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

// Atomic counters: the EHL build calls the hook from its worker threads at once.
typedef struct Counting {
	atomic_llong calls, live_bytes;
	atomic_llong fail_after; // < 0: never fail
} Counting;

static void* counting_alloc(void* user, void* ptr, size_t old_size, size_t new_size)
{
	Counting* c = user;
	c->calls++;
	if (new_size == 0) {
		c->live_bytes -= (long long)old_size;
		free(ptr);
		return NULL;
	}
	long long left = atomic_load(&c->fail_after);
	for (;;) { // take one allocation from the budget, or fail once it is spent
		if (left == 0) return NULL;
		if (left < 0 || atomic_compare_exchange_weak(&c->fail_after, &left, left - 1)) break;
	}
	void* p = realloc(ptr, new_size);
	if (p) c->live_bytes += (long long)new_size - (long long)old_size;
	return p;
}

// A map, an index, a world with objects and one query of each kind, all torn down again.
static gtStatus exercise(gtError* err)
{
	gtMap* map = NULL;
	gtNav* nav = NULL;
	gtNavQuery* query = NULL;
	gtWorld* world = NULL;
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 4;
	def.threads = 2;
	gtStatus st = gtMap_Load("assets/maps/small.map", &map, err);
	if (!st) st = gtNav_Create(map, NULL, &nav, err);
	if (!st) st = gtNav_BuildIndex(nav, &def, err);
	if (!st) st = gtNavQuery_Create(nav, &query, err);
	if (!st) st = gtWorld_Create(map, NULL, &world, err);
	int32_t healer = world ? gtWorld_Keyword(world, "healer") : -1;
	if (!st && healer < 0) st = GT_ERR_NOMEM;
	gtRandom rng = {7};
	for (int i = 0; i < 50 && !st; i++) {
		gtVec2 p = test_random_point(map, &rng);
		gtObjectId id;
		st = gtWorld_Add(world, p, &healer, 1, &id, err);
	}
	gtDistance distance;
	if (!st) st = gtNavQuery_WorldDistance(query, &distance, err);
	gtObjectId ids[4];
	double d[4];
	int count;
	gtQuery q = gtQuery_Default((gtVec2){10.5, 10.5});
	q.k = 4;
	q.keywords = &healer;
	q.keyword_count = 1;
	if (!st) st = gtWorld_Nearest(world, &q, distance, ids, d, 4, &count, NULL, err);
	if (!st) st = gtWorld_NearestEuclid(world, &q, ids, d, 4, &count, NULL, err);
	gtWorld_Destroy(world);
	gtNavQuery_Destroy(query);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	return st;
}

static void test_allocator_sees_everything(void** state)
{
	(void)state;
	Counting c = {0, 0, -1};
	int64_t before = gtGetByteCount();
	gtSetAllocator(counting_alloc, &c);
	gtError err;
	gtStatus st = exercise(&err);
	gtSetAllocator(NULL, NULL);
	if (st) fail_msg("%s", err.message);
	assert_true(c.calls > 100);
	assert_int_equal(c.live_bytes, 0); // everything handed out came back
	assert_int_equal(gtGetByteCount(), before);
	assert_int_equal(before, 0); // docs/c-api.md: 0 once every object is destroyed
}

// Out of memory at every point of the first few hundred allocations: a clean GT_ERR_NOMEM (or
// success once the budget suffices), never a crash or a leak (ASan checks the latter).
static void test_out_of_memory_everywhere(void** state)
{
	(void)state;
	int nomem = 0, ok = 0;
	for (int64_t budget = 0; budget < 400; budget += budget < 60 ? 1 : 7) {
		Counting c = {0, 0, budget};
		gtSetAllocator(counting_alloc, &c);
		gtError err;
		gtStatus st = exercise(&err);
		gtSetAllocator(NULL, NULL);
		assert_true(st == GT_OK || st == GT_ERR_NOMEM);
		nomem += st == GT_ERR_NOMEM;
		ok += st == GT_OK;
		assert_int_equal(c.live_bytes, 0);
	}
	assert_true(nomem > 30);
	printf("note: %d budgets ran out of memory cleanly, %d completed\n", nomem, ok);
}

// Loading a saved index and updating a world, out of memory at every allocation: each call either
// succeeds or returns GT_ERR_NOMEM with nothing half-changed (validate passes, the object is where
// it was with the keywords it had).
static void test_out_of_memory_load_and_updates(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/small.map");
	gtEhl* ehl = test_build_ehl(map, 4);
	gtError err;
	char path[TEST_TEMP_PATH];
	test_temp_file(path, "oom");
	assert_int_equal(gtEhl_Save(ehl, path, &err), GT_OK);
	gtEhl_Destroy(ehl);
	int failures = 0;
	for (int64_t budget = 0; budget < 120; budget++) {
		Counting c = {0, 0, budget};
		gtSetAllocator(counting_alloc, &c);
		gtEhl* loaded = NULL;
		gtStatus st = gtEhl_Load(map, path, &loaded, &err);
		assert_true(st == GT_OK || st == GT_ERR_NOMEM);
		gtEhl_Destroy(loaded);
		gtWorld* world = NULL;
		gtRandom rng = {budget + 1};
		if (!gtWorld_Create(map, NULL, &world, &err)) {
			gtObjectId ids[40];
			int live = 0;
			for (int step = 0; step < 300; step++) {
				char word[8];
				snprintf(word, sizeof word, "k%d", gtRandom_Below(&rng, 30));
				int32_t kw[2] = {gtWorld_Keyword(world, word), gtWorld_Keyword(world, "all")};
				if (kw[0] < 0 || kw[1] < 0) continue; // the vocabulary could not grow: a clean refusal
				gtVec2 p = test_random_point(map, &rng), before;
				const int32_t* had;
				if (live < 40 && gtRandom_Below(&rng, 3) == 0) {
					st = gtWorld_Add(world, p, kw, 2, &ids[live], &err);
					if (!st) live++;
				} else if (live > 0) {
					gtObjectId id = ids[gtRandom_Below(&rng, live)];
					assert_int_equal(gtWorld_GetPosition(world, id, &before, &err), GT_OK);
					int had_count = gtWorld_GetKeywords(world, id, &had);
					int32_t kept[8];
					memcpy(kept, had, (size_t)had_count * sizeof *kept);
					st = gtRandom_Below(&rng, 2) ? gtWorld_Move(world, id, p, &err)
					                             : gtWorld_MoveAndSetKeywords(world, id, p, kw, 2, &err);
					if (st) { // nothing changed
						gtVec2 after;
						assert_int_equal(gtWorld_GetPosition(world, id, &after, &err), GT_OK);
						assert_true(after.x == before.x && after.y == before.y);
						assert_int_equal(gtWorld_GetKeywords(world, id, &had), had_count);
						assert_memory_equal(had, kept, (size_t)had_count * sizeof *kept);
					}
				} else {
					continue;
				}
				assert_true(st == GT_OK || st == GT_ERR_NOMEM);
				failures += st == GT_ERR_NOMEM;
				int64_t left = c.fail_after;
				c.fail_after = -1; // validate's own scratch is not under test
				if (gtWorld_Validate(world, &err))
					fail_msg("budget %lld step %d: %s", (long long)budget, step, err.message);
				c.fail_after = left;
			}
			gtWorld_Destroy(world);
		}
		gtSetAllocator(NULL, NULL);
		assert_int_equal(c.live_bytes, 0);
	}
	remove(path);
	gtMap_Destroy(map);
	assert_true(failures > 10);
	printf("note: %d world updates ran out of memory and changed nothing\n", failures);
}

// Saving into a full disk (writes refused past a small size, as RLIMIT_FSIZE does) fails with
// GT_ERR_IO and leaves the file that was there intact. Run in a child: the limit is per process.
static void test_saves_into_a_full_disk(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/caves.map");
	gtEhl* ehl = test_build_ehl(map, 4);
	char index_path[64], map_path[64];
	snprintf(index_path, sizeof index_path, "/tmp/gridtree-full-%d.ehl", (int)getpid());
	snprintf(map_path, sizeof map_path, "/tmp/gridtree-full-%d.map", (int)getpid());
	FILE* f = fopen(index_path, "wb");
	assert_non_null(f);
	fputs("the old index", f);
	fclose(f);
	f = fopen(map_path, "wb");
	assert_non_null(f);
	fputs("the old map", f);
	fclose(f);
	fflush(NULL);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		signal(SIGXFSZ, SIG_IGN); // writes past the limit then fail with EFBIG instead of killing us
		struct rlimit limit = {4096, 4096};
		setrlimit(RLIMIT_FSIZE, &limit);
		gtError e1, e2;
		gtStatus a = gtEhl_Save(ehl, index_path, &e1), b = gtMap_Save(map, map_path, &e2);
		_exit(a == GT_ERR_IO && b == GT_ERR_IO && strstr(e1.message, index_path) && strstr(e2.message, map_path) ? 0
		                                                                                                         : 1);
	}
	int status;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	char text[32] = {0};
	f = fopen(index_path, "rb");
	assert_non_null(f);
	assert_true(fread(text, 1, sizeof text - 1, f) > 0);
	fclose(f);
	assert_string_equal(text, "the old index");
	memset(text, 0, sizeof text);
	f = fopen(map_path, "rb");
	assert_non_null(f);
	assert_true(fread(text, 1, sizeof text - 1, f) > 0);
	fclose(f);
	assert_string_equal(text, "the old map");
	remove(index_path);
	remove(map_path);
	gtEhl_Destroy(ehl);
	gtMap_Destroy(map);
}

typedef struct Serial {
	int enqueued, finished, largest;
} Serial;

// A host job system that runs every index on the calling thread, in reverse order.
static void* serial_enqueue(gtTaskFcn* task, void* context, int count, void* user)
{
	Serial* s = user;
	s->enqueued++;
	if (count > s->largest) s->largest = count;
	for (int i = count - 1; i >= 0; i--) task(context, i);
	return s;
}

static void serial_finish(void* handle, void* user)
{
	assert_ptr_equal(handle, user);
	((Serial*)user)->finished++;
}

static void test_task_system_gets_the_work(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/caves.map");
	gtError err;
	Serial serial = {0, 0, 0};
	gtTaskSystem tasks = {serial_enqueue, serial_finish, &serial};
	gtEhlDef def = gtEhl_DefaultDef();
	def.cell_size = 4;
	def.threads = 3;
	def.tasks = &tasks;
	gtEhl *hosted, *pooled;
	assert_int_equal(gtEhl_Build(map, &def, &hosted, &err), GT_OK);
	assert_true(serial.enqueued >= 3); // visibility graph, cells, via labels (two passes)
	assert_int_equal(serial.enqueued, serial.finished);
	assert_int_equal(serial.largest, 3);
	def.tasks = NULL;
	def.threads = 2;
	assert_int_equal(gtEhl_Build(map, &def, &pooled, &err), GT_OK);
	gtEhlStats a = gtEhl_GetStats(hosted), b = gtEhl_GetStats(pooled);
	assert_int_equal(a.via_labels, b.via_labels); // the same index whatever the schedule
	assert_int_equal(a.hub_entries, b.hub_entries);
	assert_int_equal(a.full_vias, b.full_vias);
	assert_int_equal(a.vg_edges, b.vg_edges);
	test_same_distances(map, hosted, pooled, 3, 300);
	gtEhl_Destroy(hosted);
	gtEhl_Destroy(pooled);
	gtMap_Destroy(map);
}

// docs/ehl.md: EHL queries never allocate, navigation queries never allocate once warm, and a world
// allocates nothing per update or per query once its capacities have grown. The second round of
// the same updates and queries must make no allocator call at all.
static void world_round(gtWorld* w, gtNavQuery* nq, gtDistance walk, const gtObjectId* ids, gtVec2* const* spots,
                        int count, const int32_t* words)
{
	gtError err;
	gtObjectId found[8];
	double d[8];
	gtVec2 path[64];
	int n;
	for (int phase = 0; phase < 2; phase++) {
		for (int i = 0; i < count; i++) { // single moves across leaves, then keyword changes
			if (gtWorld_Move(w, ids[i], spots[phase][i], &err)) fail_msg("%s", err.message);
			if (gtWorld_SetKeywords(w, ids[i], &words[(i + phase) % 3], 1, &err)) fail_msg("%s", err.message);
		}
		if (gtWorld_MoveMany(w, ids, spots[1 - phase], count, &err)) fail_msg("%s", err.message);
		gtQuery q = gtQuery_Default(spots[phase][0]);
		q.k = 5;
		q.radius = 12;
		q.keywords = words;
		q.keyword_count = 2;
		q.min_match = 1;
		if (gtWorld_Nearest(w, &q, walk, found, d, 8, &n, NULL, &err) ||
		    gtWorld_Within(w, &q, walk, found, d, 8, &n, NULL, &err) ||
		    gtWorld_Top(w, &q, walk, found, d, 8, &n, NULL, &err) ||
		    gtWorld_NearestEuclid(w, &q, found, d, 8, &n, NULL, &err) ||
		    gtWorld_WithinEuclid(w, &q, found, d, 8, &n, NULL, &err))
			if (err.status != GT_ERR_BUFFER_TOO_SMALL) fail_msg("%s", err.message);
		double length;
		if (gtNavQuery_Path(nq, spots[phase][1], spots[phase][2], path, 64, &n, &length, &err) ||
		    gtNavQuery_Distance(nq, spots[phase][3], spots[phase][4], &length, &err))
			fail_msg("%s", err.message);
	}
}

static void test_queries_and_updates_do_not_allocate(void** state)
{
	(void)state;
	enum { OBJECTS = 60 };
	Counting c = {0, 0, -1};
	gtSetAllocator(counting_alloc, &c);
	gtMap* map = test_load_map("assets/maps/small.map");
	gtEhl* ehl = test_build_ehl(map, 2);
	gtEhlQuery* eq;
	gtError err;
	assert_int_equal(gtEhlQuery_Create(ehl, &eq, &err), GT_OK);
	gtRandom rng = {3};
	long long calls = c.calls;
	for (int i = 0; i < 300; i++) { // gtEhl: not even the first query allocates
		gtVec2 s = test_random_point(map, &rng), t = test_random_point(map, &rng), path[64];
		double d;
		int count;
		assert_int_equal(gtEhl_Distance(eq, s, t, &d, &err), GT_OK);
		assert_int_equal(gtEhl_Path(eq, s, t, path, 64, &count, &d, &err), GT_OK);
		assert_int_equal(gtEhlQuery_SetSource(eq, s, &err), GT_OK);
		assert_true(gtEhlQuery_DistanceTo(eq, t) == d);
	}
	assert_int_equal(c.calls, calls);
	gtEhlQuery_Destroy(eq);
	gtNav* nav;
	gtNavQuery* nq;
	gtDistance walk;
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtNav_SetIndex(nav, ehl, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &nq, &err), GT_OK);
	assert_int_equal(gtNavQuery_WorldDistance(nq, &walk, &err), GT_OK);
	gtWorld* w = test_make_world(map, 4);
	int32_t words[3] = {gtWorld_Keyword(w, "healer"), gtWorld_Keyword(w, "elf"), gtWorld_Keyword(w, "orc")};
	gtObjectId ids[OBJECTS];
	gtVec2 here[OBJECTS], there[OBJECTS];
	for (int i = 0; i < OBJECTS; i++) {
		here[i] = test_random_point(map, &rng), there[i] = test_random_point(map, &rng);
		assert_int_equal(gtWorld_Add(w, here[i], &words[i % 3], 1, &ids[i], &err), GT_OK);
	}
	gtVec2* spots[2] = {there, here};
	world_round(w, nq, walk, ids, spots, OBJECTS, words); // warm: capacities grow here
	calls = c.calls;
	for (int round = 0; round < 3; round++) world_round(w, nq, walk, ids, spots, OBJECTS, words);
	assert_int_equal(c.calls, calls);
	gtWorld_Destroy(w);
	gtNavQuery_Destroy(nq);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	gtSetAllocator(NULL, NULL);
	assert_int_equal(c.live_bytes, 0);
}

// Threads (gt_base.h, docs/cli.md): 0, the default of gtEhlDef and gtNavDef, means one worker per online
// core, and a request above GT_MAX_THREADS gets GT_MAX_THREADS. A host job system sees the count.
static void test_thread_counts(void** state)
{
	(void)state;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int cores = online < 1 ? 1 : online > GT_MAX_THREADS ? GT_MAX_THREADS : (int)online;
	gtMap* map = test_load_map("assets/maps/small.map");
	gtError err;
	const int requests[3] = {0, 3, GT_MAX_THREADS + 100}, expect[3] = {cores, 3, GT_MAX_THREADS};
	for (int i = 0; i < 3; i++) {
		Serial serial = {0, 0, 0};
		gtTaskSystem tasks = {serial_enqueue, serial_finish, &serial};
		gtEhlDef def = gtEhl_DefaultDef();
		def.threads = requests[i];
		def.tasks = &tasks;
		gtEhl* e;
		assert_int_equal(gtEhl_Build(map, &def, &e, &err), GT_OK);
		assert_int_equal(serial.largest, expect[i]);
		gtEhl_Destroy(e);
	}
	Serial serial = {0, 0, 0};
	gtTaskSystem tasks = {serial_enqueue, serial_finish, &serial};
	gtNavDef def = gtNav_DefaultDef();
	assert_int_equal(def.threads, 0);
	def.tasks = &tasks;
	gtNav* nav;
	gtNavQuery* q;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_OK);
	assert_int_equal(gtNavQuery_Create(nav, &q, &err), GT_OK);
	double d;
	assert_int_equal(gtNavQuery_Distance(q, (gtVec2){1.5, 17.5}, (gtVec2){40.5, 20.5}, &d, &err),
	                 GT_OK); // builds the oracle
	assert_int_equal(serial.largest, cores);
	gtNavQuery_Destroy(q);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
}

// gtSetTasks is the one setting: the oracle (which has no def), index builds and crowds left at
// their defaults all run on the host's system with its thread count; a def's own count wins.
static void test_one_task_setting(void** state)
{
	(void)state;
	gtMap* map = test_load_map("assets/maps/small.map");
	gtError err;
	Serial serial = {0, 0, 0};
	gtTaskSystem tasks = {serial_enqueue, serial_finish, &serial};
	gtSetTasks(&tasks, 5);
	gtOracle* oracle;
	assert_int_equal(gtOracle_Create(map, 0, &oracle, &err), GT_OK);
	assert_true(serial.enqueued >= 1);
	assert_int_equal(serial.largest, 5);
	gtOracle_Destroy(oracle);
	serial = (Serial){0, 0, 0};
	gtEhlDef def = gtEhl_DefaultDef();
	def.threads = 2; // its own count wins, on the host's system
	gtEhl* e;
	assert_int_equal(gtEhl_Build(map, &def, &e, &err), GT_OK);
	assert_true(serial.enqueued >= 3);
	assert_int_equal(serial.largest, 2);
	assert_int_equal(serial.enqueued, serial.finished);
	gtWorld* world;
	gtNav* nav;
	gtCrowd* crowd;
	assert_int_equal(gtWorld_Create(map, NULL, &world, &err), GT_OK);
	assert_int_equal(gtNav_Create(map, NULL, &nav, &err), GT_OK);
	assert_int_equal(gtCrowd_Create(world, nav, NULL, &crowd, &err), GT_OK);
	assert_int_equal(gtCrowd_Threads(crowd), 5);
	gtCrowd_Destroy(crowd);
	gtSetTasks(NULL, 0); // back to the built-in pool, one worker per core
	serial = (Serial){0, 0, 0};
	assert_int_equal(gtOracle_Create(map, 0, &oracle, &err), GT_OK);
	assert_int_equal(serial.enqueued, 0);
	gtOracle_Destroy(oracle);
	gtNav_Destroy(nav);
	gtWorld_Destroy(world);
	gtEhl_Destroy(e);
	gtMap_Destroy(map);
}

// The nice value of the threads that allocate through the hook, other than the caller's.
typedef struct NiceSeen {
	atomic_int most; // the highest seen on another thread (INT32_MIN: none)
	pthread_t caller;
} NiceSeen;

static void* nice_alloc(void* user, void* ptr, size_t old_size, size_t new_size)
{
	(void)old_size;
	NiceSeen* n = user;
	if (!pthread_equal(pthread_self(), n->caller)) {
		int now = getpriority(PRIO_PROCESS, 0); // this thread's, on Linux
		for (int was = atomic_load(&n->most); now > was && !atomic_compare_exchange_weak(&n->most, &was, now);) {}
	}
	if (new_size == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, new_size);
}

// A background rebuild on gridtree's own thread runs below the caller's priority (Linux, where the
// nice value is per thread), so that a game's frame thread and the views its queries wait for
// come first on a busy machine.
static int most_nice_of_rebuild(int background_nice)
{
	NiceSeen n = {INT32_MIN, pthread_self()};
	int caller = getpriority(PRIO_PROCESS, 0);
	gtSetAllocator(nice_alloc, &n);
	gtMap* map = test_load_map("assets/maps/small.map");
	gtNavDef def = gtNav_DefaultDef();
	def.threads = 1;
	def.background_nice = background_nice;
	gtNav* nav;
	gtError err;
	assert_int_equal(gtNav_Create(map, &def, &nav, &err), GT_OK);
	gtEhlDef ehl = gtEhl_DefaultDef();
	ehl.threads = 1;
	assert_int_equal(gtNav_BuildIndex(nav, &ehl, &err), GT_OK);
	assert_true(atomic_load(&n.most) == INT32_MIN || atomic_load(&n.most) <= caller); // the foreground build's
	int x = -1, y = -1;
	for (int j = 1; j + 1 < gtMap_Height(map) && x < 0; j++)
		for (int i = 1; i + 1 < gtMap_Width(map) && x < 0; i++)
			if (!gtMap_IsBlocked(map, i, j)) x = i, y = j;
	assert_int_equal(gtNav_SetBlocked(nav, x, y, x, y, true, &err), GT_OK); // a rebuild starts
	gtNav_WaitForRebuild(nav);
	gtNav_Destroy(nav);
	gtMap_Destroy(map);
	gtSetAllocator(NULL, NULL);
	return atomic_load(&n.most);
}

static void test_background_rebuild_runs_below_the_caller(void** state)
{
	(void)state;
#if defined(__linux__)
	int caller = getpriority(PRIO_PROCESS, 0);
	if (caller < 19) assert_true(most_nice_of_rebuild(gtNav_DefaultDef().background_nice) > caller);
	assert_true(most_nice_of_rebuild(0) <= caller); // asked for the same priority
#else
	skip();
#endif
}

static void test_error_set(void** state)
{
	(void)state;
	gtError err;
	assert_int_equal(gtError_Set(&err, GT_ERR_FORMAT, "%s:%d: %s", "a.map", 3, "bad"), GT_ERR_FORMAT);
	assert_string_equal(err.message, "a.map:3: bad");
	assert_int_equal(err.status, GT_ERR_FORMAT);
	assert_int_equal(gtError_Set(NULL, GT_ERR_IO, "ignored"), GT_ERR_IO);
	assert_true(gtNowSeconds() > 0);
}

TEST_MAIN("platform", test_background_rebuild_runs_below_the_caller, test_out_of_memory_load_and_updates,
          test_saves_into_a_full_disk, test_allocator_sees_everything, test_out_of_memory_everywhere,
          test_task_system_gets_the_work, test_queries_and_updates_do_not_allocate, test_thread_counts,
          test_one_task_setting, test_error_set)
