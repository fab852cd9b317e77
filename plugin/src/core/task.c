// The built-in pool. Without an owner's pool the threads start per call: builds run a handful of
// long stages, so thread start-up (tens of microseconds) is noise there. Batches that run every
// frame (neighbours, crowds) keep a gtPool: its threads park on a condition variable between
// calls, so a call costs a wake-up, not a thread start.
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "core/alloc.h"
#include "core/task.h"
#include "gridtree/gt_base.h"

typedef struct PoolTask {
	gtTaskFcn* fcn;
	void* context;
	int index;
} PoolTask;

static void* pool_thread(void* arg)
{
	PoolTask* t = arg;
	t->fcn(t->context, t->index);
	return NULL;
}

static void run_builtin(gtTaskFcn* task, void* context, int count)
{
	pthread_t ids[GT_MAX_THREADS];
	PoolTask tasks[GT_MAX_THREADS];
	bool started[GT_MAX_THREADS] = {false};
	if (count > GT_MAX_THREADS) count = GT_MAX_THREADS; // callers never ask for more workers
	for (int i = 1; i < count; i++) {
		tasks[i] = (PoolTask){task, context, i};
		started[i] = pthread_create(&ids[i], NULL, pool_thread, &tasks[i]) == 0;
	}
	task(context, 0);
	for (int i = 1; i < count; i++) {
		if (started[i]) pthread_join(ids[i], NULL);
		else task(context, i);
	}
}

// workers[i] runs index i of a call (workers[0] is unused: the caller runs index 0).
typedef struct PoolWorker {
	gtPool* pool;
	pthread_t thread;
	int index;
	bool go; // the current call's index i waits for a runner: cleared by whoever takes it
} PoolWorker;

struct gtPool {
	pthread_mutex_t lock; // guards everything below but busy
	pthread_cond_t wake;  // a call set some worker's go (or quit)
	pthread_cond_t done;  // running fell to 0
	atomic_bool busy;     // a call runs on the pool
	bool quit;
	int started; // workers 1..started have a thread
	int running; // workers inside the current call's task
	gtTaskFcn* task;
	void* context;
	PoolWorker workers[GT_MAX_THREADS];
};

static void* pool_worker(void* arg)
{
	PoolWorker* w = arg;
	gtPool* p = w->pool;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!w->go && !p->quit) pthread_cond_wait(&p->wake, &p->lock);
		if (p->quit) break; // destroy comes only while no call runs
		w->go = false;
		p->running++;
		gtTaskFcn* task = p->task;
		void* context = p->context;
		pthread_mutex_unlock(&p->lock);
		task(context, w->index);
		pthread_mutex_lock(&p->lock);
		if (--p->running == 0) pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

gtPool* gt_pool_create(void)
{
	gtPool* p = gt_calloc(1, sizeof *p);
	if (!p) return NULL;
	bool lock = pthread_mutex_init(&p->lock, NULL) == 0, wake = pthread_cond_init(&p->wake, NULL) == 0,
	     done = pthread_cond_init(&p->done, NULL) == 0;
	if (!lock || !wake || !done) { // rare enough that every call then runs as without a pool
		if (lock) pthread_mutex_destroy(&p->lock);
		if (wake) pthread_cond_destroy(&p->wake);
		if (done) pthread_cond_destroy(&p->done);
		gt_free(p);
		return NULL;
	}
	atomic_init(&p->busy, false);
	for (int i = 0; i < GT_MAX_THREADS; i++) {
		p->workers[i].pool = p;
		p->workers[i].index = i;
	}
	return p;
}

void gt_pool_destroy(gtPool* p)
{
	if (!p) return;
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
	for (int i = 1; i <= p->started; i++) pthread_join(p->workers[i].thread, NULL);
	pthread_cond_destroy(&p->wake);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	gt_free(p);
}

static void pool_run(gtPool* p, gtTaskFcn* task, void* context, int count)
{
	bool mine[GT_MAX_THREADS] = {false};
	pthread_mutex_lock(&p->lock);
	while (p->started < count - 1) { // more workers than any call before
		PoolWorker* w = &p->workers[p->started + 1];
		if (pthread_create(&w->thread, NULL, pool_worker, w) != 0) break; // its index runs here
		p->started++;
	}
	p->task = task;
	p->context = context;
	for (int i = 1; i < count && i <= p->started; i++) p->workers[i].go = true;
	pthread_cond_broadcast(&p->wake); // workers beyond count wake and park again
	pthread_mutex_unlock(&p->lock);
	task(context, 0);
	// The indices no worker has taken yet are the caller's: on a busy machine a woken worker may
	// wait a time slice for a core, and the work queues are empty by now anyway.
	pthread_mutex_lock(&p->lock);
	for (int i = 1; i < count; i++)
		if (i > p->started || p->workers[i].go) p->workers[i].go = false, mine[i] = true;
	pthread_mutex_unlock(&p->lock);
	for (int i = 1; i < count; i++)
		if (mine[i]) task(context, i);
	pthread_mutex_lock(&p->lock);
	while (p->running > 0) pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

static gtTaskSystem host_tasks; // gtSetTasks: zeroed for the built-in pool
static int host_threads;

void gtSetTasks(const gtTaskSystem* system, int threads)
{
	host_tasks = system ? *system : (gtTaskSystem){0};
	host_threads = threads < 0 ? 0 : threads > GT_MAX_THREADS ? GT_MAX_THREADS : threads;
}

const gtTaskSystem* gt_task_system(const gtTaskSystem* own)
{
	if (own && own->enqueue) return own;
	return host_tasks.enqueue ? &host_tasks : NULL;
}

int gt_task_threads(void)
{
	return host_threads;
}

void gt_run_tasks_pooled(const gtTaskSystem* system, gtPool* pool, gtTaskFcn* task, void* context, int count)
{
	system = gt_task_system(system);
	if (count <= 0) return;
	if (count == 1) {
		task(context, 0);
		return;
	}
	if (!system || !system->enqueue) {
		if (count > GT_MAX_THREADS) count = GT_MAX_THREADS; // callers never ask for more workers
		if (pool && !atomic_exchange(&pool->busy, true)) {
			pool_run(pool, task, context, count);
			atomic_store(&pool->busy, false);
		} else {
			run_builtin(task, context, count);
		}
		return;
	}
	void* handle = system->enqueue(task, context, count, system->user);
	if (system->finish) system->finish(handle, system->user);
}

void gt_run_tasks(const gtTaskSystem* system, gtTaskFcn* task, void* context, int count)
{
	gt_run_tasks_pooled(system, NULL, task, context, count);
}
