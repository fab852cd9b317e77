// The platform seams: the allocator hook (every allocation goes through it, bytes return to zero,
// a failing allocator gives GT_ERR_NOMEM and never a crash) and the task interface (a host's job
// system gets the work, and the result does not depend on how the work is scheduled).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

typedef struct Counting {
	int64_t calls, live_bytes;
	int64_t fail_after; // < 0: never fail
} Counting;

static void* counting_alloc(void* user, void* ptr, size_t old_size, size_t new_size)
{
	Counting* c = user;
	c->calls++;
	if (new_size == 0) {
		c->live_bytes -= (int64_t)old_size;
		free(ptr);
		return NULL;
	}
	if (c->fail_after == 0) return NULL;
	if (c->fail_after > 0) c->fail_after--;
	void* p = realloc(ptr, new_size);
	if (p) c->live_bytes += (int64_t)new_size - (int64_t)old_size;
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

TEST_MAIN("platform", test_allocator_sees_everything, test_out_of_memory_everywhere, test_task_system_gets_the_work,
          test_error_set)
