// Big frees off the frame thread (nav_later.h).
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/alloc.h"
#include "core/job.h"
#include "ehl/ehl_layout.h"
#include "nav/nav_later.h"

typedef struct Batch {
	gtEhl** ehls;
	gtMap** maps;
	gtVisGraph* graphs;
	gtLandmarks* landmarks;
	int64_t ehl_count, ehl_capacity, map_count, map_capacity, graph_count, graph_capacity, lm_count, lm_capacity;
} Batch;

struct NavLater {
	Batch queued;  // the frame thread's
	Batch freeing; // the job's, while it runs
	gtJob job;
	bool running;
};

static void batch_free(Batch* b)
{
	for (int64_t i = 0; i < b->ehl_count; i++) gtEhl_Destroy(b->ehls[i]);
	for (int64_t i = 0; i < b->map_count; i++) gtMap_Destroy(b->maps[i]);
	for (int64_t i = 0; i < b->graph_count; i++) gt_vis_graph_free(&b->graphs[i]);
	for (int64_t i = 0; i < b->lm_count; i++) gt_landmarks_free(&b->landmarks[i]);
	gt_free(b->ehls);
	gt_free(b->maps);
	gt_free(b->graphs);
	gt_free(b->landmarks);
	memset(b, 0, sizeof *b);
}

static bool batch_empty(const Batch* b)
{
	return b->ehl_count == 0 && b->map_count == 0 && b->graph_count == 0 && b->lm_count == 0;
}

static NavLater* later_of(gtNav* nav)
{
	if (!nav->later) nav->later = gt_calloc(1, sizeof *nav->later);
	return nav->later;
}

void nav_free_later(gtNav* nav, gtEhl* ehl, gtMap* map)
{
	NavLater* l = later_of(nav);
	Batch* b = l ? &l->queued : NULL;
	if (ehl && b && GT_GROW(b->ehls, b->ehl_capacity, b->ehl_count + 1, 8)) b->ehls[b->ehl_count++] = ehl, ehl = NULL;
	if (map && b && GT_GROW(b->maps, b->map_capacity, b->map_count + 1, 8)) b->maps[b->map_count++] = map, map = NULL;
	gtEhl_Destroy(ehl); // no room: now
	gtMap_Destroy(map);
}

void nav_free_graph_later(gtNav* nav, gtVisGraph* graph, gtLandmarks* landmarks)
{
	NavLater* l = later_of(nav);
	Batch* b = l ? &l->queued : NULL;
	if (graph && graph->offset && b && GT_GROW(b->graphs, b->graph_capacity, b->graph_count + 1, 4))
		b->graphs[b->graph_count++] = *graph;
	else if (graph) gt_vis_graph_free(graph);
	if (landmarks && b && GT_GROW(b->landmarks, b->lm_capacity, b->lm_count + 1, 4))
		b->landmarks[b->lm_count++] = *landmarks;
	else if (landmarks) gt_landmarks_free(landmarks);
	if (graph) memset(graph, 0, sizeof *graph);
	if (landmarks) memset(landmarks, 0, sizeof *landmarks);
}

// With an index retired, the pages of what was freed go back to the system here, off the frame
// and after the rebuild landed: a repair no longer trims the heap itself (ehl_build.c), which cost
// it 1-5 ms of CPU. (nav_free_now, for a caller that waits, frees without a trim: there the freed
// pages stay resident for the next repair; bench-edits' peak RSS, rooms 384: 92 -> 101-108 MB.)
static void free_batch_job(void* context)
{
	Batch* b = context;
#if defined(__GLIBC__)
	bool retired = b->ehl_count > 0;
	batch_free(b);
	if (retired) malloc_trim(0);
#else
	batch_free(b); // no trim to call (emscripten, other C libraries)
#endif
}

void nav_free_queued(gtNav* nav)
{
	NavLater* l = nav->later;
	if (!l || batch_empty(&l->queued)) return;
	if (l->running && !gt_job_done(&l->job)) return; // the next update
	if (l->running) gt_job_join(&l->job);
	l->running = false;
	l->freeing = l->queued;
	memset(&l->queued, 0, sizeof l->queued);
	// Background jobs run on the nav's tasks (or a thread): no host, no thread, freed here.
	if (gt_job_start_background(&l->job, nav->def.tasks, nav->def.background_nice, free_batch_job, &l->freeing))
		l->running = true;
	else batch_free(&l->freeing);
}

void nav_free_now(gtNav* nav)
{
	NavLater* l = nav->later;
	if (!l) return;
	if (l->running) gt_job_join(&l->job);
	l->running = false;
	batch_free(&l->queued);
}
