// The crowd's walk (crowd_walk.h). Its answers are the single queries' to the bit: the same
// distance function prices every candidate, and the order is the library's (distance, then
// ascending id). What it saves: an object in another part of the map is never priced (one hub
// merge each, and an agent walled off from every object would price them all).
#include <float.h>
#include <math.h>

#include "core/alloc.h"
#include "crowd/crowd_walk.h"

typedef struct WalkEntry {
	double distance;
	gtObjectId id;
} WalkEntry;

typedef struct OwnObject {
	double line;
	int32_t object;
	gtVec2 at;
} OwnObject;

struct gtCrowdWalk {
	WalkEntry* best; // the k best so far, in answer order
	int room, count, k;
	// The agent being answered.
	const gtWorld* world;
	const gtReach* reach;
	int32_t part;
	gtDistance distance;
	gtVec2 from;
	const gtMap* sight_map; // the world's clearance certifies sight on it (NULL: the backend's own walk)
	double sight_from;      // the agent's clearance
	int32_t leaf;           // the agent's own leaf, priced before the rest
	OwnObject* own;         // its matching objects of the agent's part, nearest first
	int own_count, own_room;
	bool failed; // out of memory
};

gtCrowdWalk* gt_crowd_walk_create(void)
{
	return gt_calloc(1, sizeof(gtCrowdWalk));
}

void gt_crowd_walk_destroy(gtCrowdWalk* walk)
{
	if (!walk) return;
	gt_free(walk->best);
	gt_free(walk->own);
	gt_free(walk);
}

bool gt_crowd_walk_reserve(gtCrowdWalk* walk, int k)
{
	if (walk->room >= k) return true;
	if (!GT_RESIZE(walk->best, k)) return false;
	walk->room = k;
	return true;
}

// How far the walk goes: to the k-th distance, a few units in the last place beyond (a walking
// distance never falls below the straight line but for rounding).
static double walk_limit(const gtCrowdWalk* w)
{
	if (w->count < w->k) return INFINITY;
	double kth = w->best[w->k - 1].distance;
	return kth + 4 * DBL_EPSILON * kth;
}

// Prices an object of the agent's part and keeps it when it enters the k best.
static void price(gtCrowdWalk* w, int32_t object, gtVec2 p)
{
	bool full = w->count == w->k;
	double bound = full ? w->best[w->k - 1].distance : INFINITY;
	// A distance equal to the k-th still enters with a smaller id: the limit lets it through exactly.
	// The clearance grid's sight first, as single queries price: the straight line when the two see
	// each other (the backend's value then, without its own sight walk or its source labels), the
	// backend without its sight walk when they do not.
	int seen = w->sight_map ? gt_world_sight(w->world, w->sight_map, w->from, w->sight_from, p) : 0;
	double limit = full ? nextafter(bound, INFINITY) : INFINITY;
	const gtDistance* f = &w->distance;
	double d = seen > 0                      ? hypot(p.x - w->from.x, p.y - w->from.y)
	           : seen < 0 && f->hidden_below ? f->hidden_below(f->context, w->from, p, limit)
	           : full && f->below            ? f->below(f->context, w->from, p, limit)
	                                         : f->fcn(f->context, w->from, p);
	if (!(d < INFINITY) || d > bound) return;
	gtObjectId id = gt_world_object_id(w->world, object);
	if (full && d == bound && id > w->best[w->k - 1].id) return;
	int i = full ? w->k - 1 : w->count++;
	for (; i > 0 && (w->best[i - 1].distance > d || (w->best[i - 1].distance == d && w->best[i - 1].id > id)); i--)
		w->best[i] = w->best[i - 1];
	w->best[i] = (WalkEntry){d, id};
}

// An object outside the agent's own leaf (the walks skip it), priced when in the agent's part.
static double visit(void* context, int32_t object, gtVec2 p, double line)
{
	(void)line;
	gtCrowdWalk* w = context;
	if (gt_reach_part(w->reach, p) == w->part) price(w, object, p);
	return walk_limit(w);
}

// The agent's own leaf: its matching objects of the agent's part, by straight line.
static void own_candidate(void* context, int32_t object, gtVec2 p)
{
	gtCrowdWalk* w = context;
	if (gt_reach_part(w->reach, p) != w->part) return;
	if (w->own_count == w->own_room) {
		int room = w->own_room ? 2 * w->own_room : 16;
		if (!GT_RESIZE(w->own, room)) {
			w->failed = true;
			return;
		}
		w->own_room = room;
	}
	double dx = p.x - w->from.x, dy = p.y - w->from.y, line = sqrt(dx * dx + dy * dy);
	int i = w->own_count++;
	for (; i > 0 && w->own[i - 1].line > line; i--) w->own[i] = w->own[i - 1];
	w->own[i] = (OwnObject){line, object, p};
}

bool gt_crowd_walk_nearest(gtCrowdWalk* w, const gtWorld* world, gtWorldWorker* worker, const gtReach* reach,
                           int32_t part, gtDistance distance, gtVec2 point, int k, gtObjectId* ids, double* distances,
                           int* found)
{
	*found = 0;
	if (k <= 0 || part < 0) return true;
	w->count = 0;
	w->k = k;
	w->world = world;
	w->reach = reach;
	w->part = part;
	w->distance = distance;
	w->from = point;
	w->failed = false;
	w->sight_map = gt_world_sight_fits(world, distance.straight_map) ? distance.straight_map : NULL;
	if (w->sight_map) w->sight_from = gt_world_sight_from(world, point);
	// The agent's own leaf first, nearest first: it usually holds the answer, whose distance then
	// bounds the search. With k answers from it within two leaves, only the leaves that near can
	// hold a nearer one (no tree walk); else the walk, which leaves this leaf alone.
	w->leaf = gt_world_leaf_of(world, point);
	w->own_count = 0;
	gt_world_each_in_leaf(world, worker, w->leaf, own_candidate, w);
	if (w->failed) return false;
	for (int i = 0; i < w->own_count && w->own[i].line <= walk_limit(w); i++) price(w, w->own[i].object, w->own[i].at);
	if (w->count == w->k && walk_limit(w) <= 2 * gt_world_leaf_side(world)) {
		gt_world_visit_near(world, worker, point, walk_limit(w), w->leaf, visit, w);
	} else if (!gt_world_visit_nearest(world, worker, point, walk_limit(w), w->leaf, visit, w)) {
		return false;
	}
	for (int i = 0; i < w->count; i++) {
		ids[i] = w->best[i].id;
		distances[i] = w->best[i].distance;
	}
	*found = w->count;
	return true;
}
