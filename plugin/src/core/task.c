// The built-in pool starts its threads per run: builds run a handful of long stages, so thread
// start-up (tens of microseconds) is noise, and nothing idles between builds.
#include <pthread.h>
#include <stdbool.h>

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

void gt_run_tasks(const gtTaskSystem* system, gtTaskFcn* task, void* context, int count)
{
	system = gt_task_system(system);
	if (count <= 0) return;
	if (count == 1) {
		task(context, 0);
		return;
	}
	if (!system || !system->enqueue) {
		run_builtin(task, context, count);
		return;
	}
	void* handle = system->enqueue(task, context, count, system->user);
	if (system->finish) system->finish(handle, system->user);
}
