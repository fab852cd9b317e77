// One piece of background work: on the host's task system when there is one, else on a thread of
// its own; joined later by the thread that started it. Internal.
#ifndef GRIDTREE_CORE_JOB_H
#define GRIDTREE_CORE_JOB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "gridtree/gt_base.h"

typedef void gtJobFcn(void* context);

typedef struct gtJob {
	gtJobFcn* run;
	void* context;
	atomic_bool done; // run returned
	int where;        // nothing running, on the host, on a thread (job.c)
	int nice;         // on a thread of its own: steps below its starter's priority
	const gtTaskSystem* host;
	void* handle;
	pthread_t thread;
} gtJob;

// Starts run(context) on gt_task_system(own), else on a new thread. False when no thread could
// start (nothing runs: the caller may run it itself). The job must stay where it is until joined.
bool gt_job_start(gtJob* job, const gtTaskSystem* own, gtJobFcn* run, void* context);
// gt_job_start for work nothing waits for soon (index rebuilds, frees): on a thread of its own it
// runs at a lower priority (and the threads it starts), so that the host's frame thread and the
// jobs queries wait for come first on a busy machine. A host's task system schedules as it likes.
// `nice`: the steps down (0: as gt_job_start).
bool gt_job_start_background(gtJob* job, const gtTaskSystem* own, int nice, gtJobFcn* run, void* context);
// Whether a started job's run has returned (joining it then does not wait for its work).
bool gt_job_done(const gtJob* job);
// Waits for a started job; does nothing for one never started or already joined.
void gt_job_join(gtJob* job);

#endif
