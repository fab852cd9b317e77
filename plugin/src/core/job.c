// Background jobs on the host's task system or a thread of their own (job.h).
#include "core/job.h"
#include "core/platform.h"
#include "core/task.h"

enum { JOB_IDLE, JOB_ON_HOST, JOB_ON_THREAD };

static void job_body(gtJob* job)
{
	job->run(job->context);
	atomic_store(&job->done, true);
}

static void job_task(void* context, int index)
{
	(void)index;
	job_body(context);
}

static void* job_thread(void* context)
{
	gtJob* job = context;
	if (job->nice > 0) gt_thread_lower_priority(job->nice);
	job_body(job);
	return NULL;
}

static bool job_start(gtJob* job, const gtTaskSystem* own, gtJobFcn* run, void* context, int nice)
{
	const gtTaskSystem* tasks = gt_task_system(own);
	job->run = run, job->context = context, job->where = JOB_IDLE, job->nice = nice;
	atomic_init(&job->done, false);
	if (tasks) {
		job->where = JOB_ON_HOST, job->host = tasks;
		job->handle = tasks->enqueue(job_task, job, 1, tasks->user);
		return true;
	}
	if (pthread_create(&job->thread, NULL, job_thread, job) != 0) return false;
	job->where = JOB_ON_THREAD;
	return true;
}

bool gt_job_start(gtJob* job, const gtTaskSystem* own, gtJobFcn* run, void* context)
{
	return job_start(job, own, run, context, 0);
}

bool gt_job_start_background(gtJob* job, const gtTaskSystem* own, int nice, gtJobFcn* run, void* context)
{
	return job_start(job, own, run, context, nice);
}

bool gt_job_done(const gtJob* job)
{
	return job->where == JOB_IDLE || atomic_load(&job->done);
}

void gt_job_join(gtJob* job)
{
	if (job->where == JOB_ON_HOST && job->host->finish) job->host->finish(job->handle, job->host->user);
	else if (job->where == JOB_ON_THREAD) pthread_join(job->thread, NULL);
	while (job->where != JOB_IDLE && !atomic_load(&job->done)) { // a host without `finish` runs it somewhere
	}
	job->where = JOB_IDLE;
}
