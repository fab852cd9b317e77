// Target fields over EHL's hub labels: the EHL half of the crowd's FIELD method, which answers
// many agents' k nearest among one set of objects from one pass over the objects (ehl_field.c
// says why that is exact). Only opaque types and functions: the label layout stays in ehl/.
// Internal to the library.
#ifndef GRIDTREE_EHL_FIELD_H
#define GRIDTREE_EHL_FIELD_H

#include "gridtree/gt_ehl.h"

enum { GT_EHL_FIELD_MAX_K = 255 };

// The objects, each priced once into per-hub buckets of the k best.
typedef struct gtEhlField gtEhlField;

gtStatus gt_ehl_field_create(const gtEhl* ehl, gtEhlField** out, gtError* err);
void gt_ehl_field_destroy(gtEhlField* field);
// Empties the field and sets its k (1 .. GT_EHL_FIELD_MAX_K); false when out of memory.
bool gt_ehl_field_reset(gtEhlField* field, int k);
// Adds an object at a valid point p; `object` is the caller's name for it, given back in answers;
// among objects at the same distance, the smaller name comes first (the crowd names them by id).
void gt_ehl_field_add(gtEhlField* field, gtVec2 p, uint64_t object);
// Objects added since the last reset.
int gt_ehl_field_objects(const gtEhlField* field);

// One worker's side of a field: an EHL query of its own and an agent's k best so far.
typedef struct gtEhlFieldAgent gtEhlFieldAgent;

// `map` is where the agents' sight is judged (the world's map).
gtStatus gt_ehl_field_agent_create(const gtEhl* ehl, const gtMap* map, gtEhlFieldAgent** out, gtError* err);
void gt_ehl_field_agent_destroy(gtEhlFieldAgent* agent);
// Room for answers of up to k objects, so that answering allocates nothing; false when out of memory.
bool gt_ehl_field_agent_reserve(gtEhlFieldAgent* agent, int k);
// Starts the k nearest (k reserved, at most the field's) of an agent at valid point p with the
// candidates through its cell's hubs, those up to `cap` (INFINITY: all; with k = 1, the distance of
// an object the agent sees skips every hub that cannot beat it). The objects it sees directly
// come next, by offer_seen.
void gt_ehl_field_agent_begin(gtEhlFieldAgent* agent, const gtEhlField* field, gtVec2 p, int k, double cap);
// The straight-line distance beyond which an object can no longer enter the agent's answer.
double gt_ehl_field_agent_limit(const gtEhlFieldAgent* agent);
// An object at p: at its straight-line distance when the agent sees it, as EHL prices a pair that
// sees. Returns the new limit.
double gt_ehl_field_agent_offer_seen(gtEhlFieldAgent* agent, gtVec2 p, uint64_t object);
// The answer, nearest first (ties by ascending name): how many, and the i-th.
int gt_ehl_field_agent_count(const gtEhlFieldAgent* agent);
void gt_ehl_field_agent_answer(const gtEhlFieldAgent* agent, int i, uint64_t* object, double* distance);

#endif
