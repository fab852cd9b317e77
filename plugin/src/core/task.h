// Running parallel work through the host's gtTaskSystem or the built-in pool. Internal.
#ifndef GRIDTREE_CORE_TASK_H
#define GRIDTREE_CORE_TASK_H

#include "gridtree/gt_base.h"

// Runs task(context, i) for every i in [0, count) and returns when all have run. `system` NULL or
// zeroed uses the built-in pool: count - 1 threads plus the calling thread; where a thread cannot
// start, its index runs on the calling thread, so the work always completes.
void gt_run_tasks(const gtTaskSystem* system, gtTaskFcn* task, void* context, int count);
// The task system that runs a part's work: its own when set, else gtSetTasks's; NULL for the
// built-in pool.
const gtTaskSystem* gt_task_system(const gtTaskSystem* own);
// gtSetTasks's thread count (0: one per online core).
int gt_task_threads(void);

#endif
