// The nav's links: a slot list whose handles carry a generation, so a removed link's handle never
// names the link that reuses its slot. Every change bumps the list's generation, and each query
// remakes what it derived from the links when it next runs (nav_links_query.c).
#include <math.h>

#include "core/alloc.h"
#include "core/status.h"
#include "nav/nav_backend.h"
#include "nav/nav_links.h"
#include "nav/nav_links_internal.h"
#include "nav/path_follow.h"

enum { SLOT_BITS = 20, GENERATION_MASK = (1u << (32 - SLOT_BITS)) - 1 };

static gtLinkId make_id(int slot, uint32_t generation)
{
	return (generation & GENERATION_MASK) << SLOT_BITS | (uint32_t)(slot + 1);
}

int nav_link_slot(const gtNav* nav, gtLinkId id)
{
	const NavLinks* l = nav->links;
	int slot = (int)(id & ((1u << SLOT_BITS) - 1)) - 1;
	if (!l || slot < 0 || slot >= l->count || !l->items[slot].live) return -1;
	return make_id(slot, l->items[slot].generation) == id ? slot : -1;
}

static gtStatus unknown(gtLinkId id, gtError* err)
{
	return gt_fail(err, GT_ERR_INVALID_ARG, "link %u is not a live link of this nav (removed, or never added)", id);
}

static gtStatus check_end(const gtMap* map, gtVec2 p, const char* which, gtError* err)
{
	gtPointCheck c = gtMap_CheckPoint(map, p);
	if (c == GT_POINT_VALID) return GT_OK;
	return gt_fail(err, GT_ERR_INVALID_POINT, "link end %s (%g, %g): %s", which, p.x, p.y, gtPointCheckName(c));
}

NavLinks* nav_links_of(gtNav* nav)
{
	if (!nav->links) nav->links = gt_calloc(1, sizeof *nav->links);
	return nav->links;
}

gtStatus gtNav_AddLink(gtNav* nav, gtVec2 a, gtVec2 b, double cost, unsigned flags, gtLinkId* id, gtError* err)
{
	if (id) *id = GT_LINK_NONE;
	if (!(cost >= 0) || isinf(cost))
		return gt_fail(err, GT_ERR_INVALID_ARG, "a link's cost must be finite and >= 0, got %g", cost);
	if (flags & ~(unsigned)GT_LINK_ONE_WAY) return gt_fail(err, GT_ERR_INVALID_ARG, "unknown link flags 0x%x", flags);
	if (nav->def.method == GT_NAV_POLYANYA)
		return gt_fail(err, GT_ERR_INVALID_ARG,
		               "the polyanya backend cannot take links: choose the oracle or ehl first (gtNav_SetMethod)");
	gtStatus st = check_end(nav->map, a, "a", err);
	if (!st) st = check_end(nav->map, b, "b", err);
	if (st) return st;
	NavLinks* l = nav_links_of(nav);
	if (!l) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
	if (l->live >= GT_NAV_MAX_LINKS)
		return gt_fail(err, GT_ERR_LIMIT, "a nav holds at most %d links", GT_NAV_MAX_LINKS);
	int slot = 0;
	while (slot < l->count && l->items[slot].live) slot++;
	if (slot == l->count) {
		int64_t capacity = l->capacity;
		if (!GT_GROW(l->items, capacity, l->count + 1, 16)) return gt_fail(err, GT_ERR_NOMEM, "out of memory");
		l->capacity = (int)capacity;
		l->items[l->count++] = (NavLink){.generation = 0};
	}
	NavLink* link = &l->items[slot];
	link->a = a, link->b = b, link->cost = cost, link->flags = flags;
	link->live = link->enabled = true;
	l->live++, l->enabled++, l->generation++;
	if (id) *id = make_id(slot, link->generation);
	return GT_OK;
}

gtStatus gtNav_RemoveLink(gtNav* nav, gtLinkId id, gtError* err)
{
	int slot = nav_link_slot(nav, id);
	if (slot < 0) return unknown(id, err);
	NavLinks* l = nav->links;
	NavLink* link = &l->items[slot];
	l->enabled -= link->enabled;
	l->live--, l->generation++;
	link->live = link->enabled = false;
	link->generation++; // the old handle names nothing from now on
	return GT_OK;
}

gtStatus gtNav_EnableLink(gtNav* nav, gtLinkId id, bool enabled, gtError* err)
{
	int slot = nav_link_slot(nav, id);
	if (slot < 0) return unknown(id, err);
	NavLinks* l = nav->links;
	NavLink* link = &l->items[slot];
	if (link->enabled == enabled) return GT_OK;
	link->enabled = enabled;
	l->enabled += enabled ? 1 : -1;
	l->generation++;
	return GT_OK;
}

gtStatus gtNav_GetLink(const gtNav* nav, gtLinkId id, gtLinkInfo* info, gtError* err)
{
	int slot = nav_link_slot(nav, id);
	if (slot < 0) return unknown(id, err);
	const NavLink* link = &nav->links->items[slot];
	*info = (gtLinkInfo){link->a, link->b, link->cost, link->flags, link->enabled};
	return GT_OK;
}

int gtNav_LinkCount(const gtNav* nav)
{
	return nav->links ? nav->links->live : 0;
}

int gtNav_EnabledLinkCount(const gtNav* nav)
{
	return nav->links ? nav->links->enabled : 0;
}

int gtNav_Links(const gtNav* nav, gtLinkId* ids, int capacity)
{
	const NavLinks* l = nav->links;
	int found = 0;
	for (int slot = 0; l && slot < l->count; slot++)
		if (l->items[slot].live) {
			if (ids && found < capacity) ids[found] = make_id(slot, l->items[slot].generation);
			found++;
		}
	return found;
}

int nav_links_enabled(const gtNav* nav, gtLinkEdge* out)
{
	const NavLinks* l = nav->links;
	int found = 0;
	for (int slot = 0; l && slot < l->count; slot++) {
		const NavLink* link = &l->items[slot];
		if (!link->live || !link->enabled) continue;
		if (out)
			out[found] = (gtLinkEdge){link->a, link->b, link->cost, (link->flags & GT_LINK_ONE_WAY) != 0,
			                          make_id(slot, link->generation)};
		found++;
	}
	return found;
}

bool nav_links_take(const gtNav* nav)
{
	// nav->backend is the chosen method's (never AUTO): its caps, without gtNavMethod_Caps's call per query
	return nav->links && nav->links->enabled > 0 && nav->backend && (nav->backend->caps & GT_NAV_CAP_WALLS);
}

int nav_links_path_room(const gtNav* nav)
{
	return nav->links ? 2 * nav->links->enabled : 0;
}

void nav_links_free(gtNav* nav)
{
	if (!nav->links) return;
	gt_free(nav->links->items);
	gt_free(nav->links);
	nav->links = NULL;
}

typedef struct PathLinks {
	const gtNav* nav;
	const gtLinkId* links;
} PathLinks;

static double path_link_cost(const void* context, int segment)
{
	const PathLinks* path = context;
	int slot = path->links && path->links[segment] ? nav_link_slot(path->nav, path->links[segment]) : -1;
	return slot >= 0 ? path->nav->links->items[slot].cost : NAN;
}

gtVec2 gtPath_AdvanceLinks(const gtNav* nav, const gtVec2* points, const gtLinkId* links, int count, int* segment,
                           gtVec2 at, double step)
{
	PathLinks path = {nav, links};
	return gt_path_advance_priced(points, count, segment, at, step, path_link_cost, &path);
}
