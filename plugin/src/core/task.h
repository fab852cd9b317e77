// Running parallel work through the host's gtTaskSystem or the built-in pool. Internal.
#ifndef GRIDTREE_CORE_TASK_H
#define GRIDTREE_CORE_TASK_H

#include "gridtree/gt_base.h"

// Worker threads an owner (an index, a crowd, a build) keeps between its parallel calls: started
// on the first call that needs them, parked in between, joined by gt_pool_destroy.
typedef struct gtPool gtPool;

// A pool without threads yet (they start with the first call that needs them); NULL when out of
// memory, which gt_run_tasks_pooled takes as no pool.
gtPool* gt_pool_create(void);

// Runs task(context, i) for every i in [0, count) and returns when all have run. `system` NULL or
// zeroed uses the built-in pool: count - 1 threads plus the calling thread; where a thread cannot
// start, its index runs on the calling thread, so the work always completes. Without a pool the
// threads start and end with the call (builds: a few long stages).
void gt_run_tasks(const gtTaskSystem* system, gtTaskFcn* task, void* context, int count);
// The same with the owner's pool (NULL: as gt_run_tasks) for the built-in case: the calling
// thread runs index 0, parked workers the others; an index no worker has taken by the time the
// caller is done runs on the caller, so a late-scheduled worker never holds the call up. A call
// while the pool is busy (nested in one of its tasks, or from another thread) runs on threads of
// its own as gt_run_tasks does. A host's task system, when set, is used as gt_run_tasks uses it.
void gt_run_tasks_pooled(const gtTaskSystem* system, gtPool* pool, gtTaskFcn* task, void* context, int count);
// Wakes and joins the pool's threads and frees it; NULL does nothing. Call it while no work runs
// on the pool (the owner's destroy).
void gt_pool_destroy(gtPool* pool);
// The task system that runs a part's work: its own when set, else gtSetTasks's; NULL for the
// built-in pool.
const gtTaskSystem* gt_task_system(const gtTaskSystem* own);
// gtSetTasks's thread count (0: one per online core).
int gt_task_threads(void);

#endif
