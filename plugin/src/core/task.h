// Running parallel work through the host's gtTaskSystem or the built-in pool. Internal.
#ifndef GRIDTREE_CORE_TASK_H
#define GRIDTREE_CORE_TASK_H

#include "gridtree/gt_base.h"

// Runs task(context, i) for every i in [0, count) and returns when all have run. `system` NULL or
// zeroed uses the built-in pool: count - 1 threads plus the calling thread; where a thread cannot
// start, its index runs on the calling thread, so the work always completes.
void gt_run_tasks(const gtTaskSystem* system, gtTaskFcn* task, void* context, int count);

#endif
