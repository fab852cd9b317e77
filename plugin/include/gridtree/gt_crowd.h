/// @file gt_crowd.h
/// Every agent, every frame: many queries on one world at once. A gtCrowd holds what workers
/// need to answer a batch of queries in parallel (scratch and a navigation query each) and the
/// target fields that answer a whole batch sharing one filter from one search over the objects.
/// During a call the world and the nav are only read: update them between calls.
///
/// Contents
///     Batches    gtCrowdMethod, gtCrowd_Create, gtCrowd_Nearest, gtCrowd_Within, gtCrowd_Top
///     Schedules  gtSchedule_Create, gtSchedule_Pick, gtCrowd_NearestScheduled
#ifndef GRIDTREE_GT_CROWD_H
#define GRIDTREE_GT_CROWD_H

#include "gt_nav.h"
#include "gt_world.h"

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------------------------
// Batches

/// How a batch is answered. Every method gives the same answers as gtWorld_Nearest (and
/// friends) one query after another, bit for bit: the k objects first by distance and then by
/// ascending id (the k-th place too), whatever the method and the number of workers.
typedef enum gtCrowdMethod {
	GT_CROWD_AUTO = 0, ///< the cheapest of the others for this batch, from measured costs
	GT_CROWD_EACH,     ///< one query after another on the calling thread (the reference)
	GT_CROWD_BATCH,    ///< the same queries spread over the workers (nearest ones skip objects
	                   ///< in parts of the map the agent cannot reach)
	GT_CROWD_FIELD     ///< nearest only, one shared filter (keywords, any, none, exclude: per-agent
	                   ///< exclude lists rule it out), an EHL backend: a target field, then
	                   ///< every agent from it, over the workers
} gtCrowdMethod;

/// "auto", "each", "batch", "field".
const char* gtCrowdMethod_Name(gtCrowdMethod method);
#define gtCrowdMethodName gtCrowdMethod_Name ///< the former name, kept for one release
/// The inverse of gtCrowdMethod_Name; GT_ERR_INVALID_ARG naming the choices for anything else.
gtStatus gtCrowdMethod_Parse(const char* name, gtCrowdMethod* method, gtError* err);

typedef struct gtCrowd gtCrowd;

typedef struct gtCrowdDef {
	int threads;               ///< workers, 1 to GT_MAX_THREADS; 0 = gtSetTasks's (one per online core)
	const gtTaskSystem* tasks; ///< NULL = gtSetTasks's (gridtree's built-in pool)
} gtCrowdDef;

/// All cores, the built-in pool.
gtCrowdDef gtCrowd_DefaultDef(void);

/// The world and the nav (the map's distances) must outlive the crowd; they must be over the same
/// map.
gtStatus gtCrowd_Create(gtWorld* world, gtNav* nav, const gtCrowdDef* def, gtCrowd** out, gtError* err);
void gtCrowd_Destroy(gtCrowd* crowd);
int gtCrowd_Threads(const gtCrowd* crowd);

/// A batch: one query each, or (with `points`) one query's k and filters for every point.
typedef struct gtCrowdQueries {
	const gtQuery* queries; ///< `count` queries, or one shared by every point
	const gtVec2* points;   ///< optional: the query points (each query's own point is ignored)
	int count;
} gtCrowdQueries;

/// Answers, `stride` slots per query: query i's are ids[i * stride ...] and distances[i * stride
/// ...] (scores for Top), sorted; found[i] says how many. A query that fails (a point in a wall,
/// more answers than its slots) gets its status in status[i] and the call still answers the rest.
typedef struct gtCrowdAnswers {
	int stride;        ///< slots per query: at least every query's k (Within: the most kept)
	gtObjectId* ids;   ///< count * stride
	double* distances; ///< count * stride
	int* found;        ///< count; Within may exceed stride (then status[i] is BUFFER_TOO_SMALL)
	gtStatus* status;  ///< count, optional: NULL makes any query's failure the call's error
} gtCrowdAnswers;

typedef struct gtCrowdStats {
	gtCrowdMethod method; ///< what ran (what AUTO chose)
	double seconds;       ///< wall time of the call
	double field_seconds; ///< of which building the target field
	int field_objects;    ///< objects in the field (matching the filter)
	int failed;           ///< queries whose status is not GT_OK
} gtCrowdStats;

/// k nearest for every query; `stats` may be NULL. GT_ERR_INVALID_ARG for a method that cannot
/// answer this batch (FIELD without one shared filter, or without an EHL index).
gtStatus gtCrowd_Nearest(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                         gtCrowdStats* stats, gtError* err);
/// Everything within each query's radius (EACH or BATCH; AUTO picks between them).
gtStatus gtCrowd_Within(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                        gtCrowdStats* stats, gtError* err);
/// The k best scores for every query (EACH or BATCH; AUTO picks between them).
gtStatus gtCrowd_Top(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method, gtCrowdAnswers* out,
                     gtCrowdStats* stats, gtError* err);

//------------------------------------------------------------------------------------------------
// Schedules: re-targeting spread over frames

/// Spreads agents' re-targeting over frames under a time budget, most stale first (the
/// time-slicing of Unreal's EQS): each frame the schedule picks the agents that fit the budget by
/// the cost per agent it measured, those served longest ago first and agents never served before
/// all others.
typedef struct gtSchedule gtSchedule;

gtStatus gtSchedule_Create(gtSchedule** out, gtError* err);
void gtSchedule_Destroy(gtSchedule* schedule);
/// This frame's agents, indexes in [0, count), at most `capacity` into `agents`; *picked says how
/// many (at least one when count > 0; every agent until a cost is measured). `budget_us` > 0.
gtStatus gtSchedule_Pick(gtSchedule* schedule, int count, double budget_us, int* agents, int capacity, int* picked,
                         gtError* err);
/// How long serving `served` agents took: refines the cost per agent.
void gtSchedule_Report(gtSchedule* schedule, int served, double seconds);

/// One budgeted frame of gtCrowd_Nearest: only the agents the schedule picks are answered, into
/// their own slots of `out`; every other slot keeps what an earlier frame wrote there. *served
/// says how many were answered.
gtStatus gtCrowd_NearestScheduled(gtCrowd* crowd, const gtCrowdQueries* batch, gtCrowdMethod method,
                                  gtSchedule* schedule, double budget_us, gtCrowdAnswers* out, int* served,
                                  gtCrowdStats* stats, gtError* err);

#ifdef __cplusplus
}
#endif

#endif
