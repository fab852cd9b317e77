// The frame budget: agents in a queue, most stale at the front. Served agents go to the back;
// agents seen for the first time go to the front.
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "gridtree/gt_crowd.h"

struct gtSchedule {
	int* ring; // agent indexes, the next to serve at `head`
	int room, head, size;
	int known;   // agents [0, known) are in the ring
	double cost; // seconds per agent, measured (0: not yet)
};

gtStatus gtSchedule_Create(gtSchedule** out, gtError* err)
{
	*out = gt_calloc(1, sizeof **out);
	return *out ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory for a schedule");
}

void gtSchedule_Destroy(gtSchedule* s)
{
	if (!s) return;
	gt_free(s->ring);
	gt_free(s);
}

static bool grow(gtSchedule* s, int needed)
{
	if (needed <= s->room) return true;
	int room = s->room ? s->room : 64;
	while (room < needed) room = room > (1 << 29) ? needed : 2 * room;
	int* ring = gt_malloc((size_t)room * sizeof *ring);
	if (!ring) return false;
	for (int i = 0; i < s->size; i++) ring[i] = s->ring[(s->head + i) % s->room]; // in order from the head
	gt_free(s->ring);
	s->ring = ring;
	s->room = room;
	s->head = 0;
	return true;
}

gtStatus gtSchedule_Pick(gtSchedule* s, int count, double budget_us, int* agents, int capacity, int* picked,
                         gtError* err)
{
	*picked = 0;
	if (count < 0 || capacity < 0 || (capacity > 0 && !agents) || !(budget_us > 0))
		return gt_fail(err, GT_ERR_INVALID_ARG, "bad schedule arguments (budget_us must be > 0)");
	if (count < s->known) { // agents past the new count leave (they come back as newcomers)
		int kept = 0;
		for (int i = 0; i < s->size; i++) {
			int a = s->ring[(s->head + i) % s->room];
			if (a < count) s->ring[(s->head + kept++) % s->room] = a;
		}
		s->size = kept;
		s->known = count;
	}
	if (count > s->known) { // newcomers are the most stale of all
		if (!grow(s, s->size + (count - s->known))) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a schedule");
		for (int a = count - 1; a >= s->known; a--) {
			s->head = (s->head + s->room - 1) % s->room;
			s->ring[s->head] = a;
			s->size++;
		}
		s->known = count;
	}
	double fits = s->cost > 0 ? budget_us * 1e-6 / s->cost : (double)count;
	int want = count == 0 ? 0 : fits < 1 ? 1 : fits > count ? count : (int)fits;
	if (want > capacity) want = capacity;
	// Take from the front, sending each to the back (when the ring is full, that is the same slot).
	for (; *picked < want; (*picked)++) {
		int a = s->ring[s->head];
		agents[*picked] = a;
		s->ring[(s->head + s->size) % s->room] = a;
		s->head = (s->head + 1) % s->room;
	}
	return GT_OK;
}

void gtSchedule_Report(gtSchedule* s, int served, double seconds)
{
	if (served <= 0 || !(seconds >= 0)) return;
	double per_agent = seconds / served;
	s->cost = s->cost == 0 ? per_agent : 0.7 * s->cost + 0.3 * per_agent;
}
