// An index built knowing links (gtEhl_BuildWithLinks) answers with links as it is, with no table
// and no search, while the nav's enabled links are exactly the index's and the map is as the index
// saw it. Then its distances are the walks with the links; its paths name the links they take.
#include <math.h>

#include "core/alloc.h"
#include "core/status.h"
#include "ehl/ehl_layout.h"
#include "map/geometry.h"
#include "nav/nav_internal.h"
#include "nav/nav_links_internal.h"

static bool same_point(gtVec2 a, gtVec2 b)
{
	return a.x == b.x && a.y == b.y;
}

static bool same_link(const gtEhlLink* k, const gtLinkEdge* e)
{
	if (e->one_way || k->cost != e->cost) return false;
	return (same_point(k->a, e->a) && same_point(k->b, e->b)) || (same_point(k->a, e->b) && same_point(k->b, e->a));
}

bool nav_links_index_fits(const gtNav* nav, const gtLinkEdge* enabled, int count, gtLinkId* ids)
{
	const gtEhl* e = nav->ehl;
	if (!e || e->link_count != count || nav->added > 0 || nav->freed > 0) return false;
	bool* used = gt_calloc((size_t)count + 1, sizeof *used);
	if (!used) return false; // the slower exact answers stay
	bool fits = true;
	for (int k = 0; k < e->link_count && fits; k++) {
		int match = -1;
		for (int i = 0; i < count && match < 0; i++)
			if (!used[i] && same_link(&e->links[k], &enabled[i])) match = i;
		fits = match >= 0;
		if (fits) used[match] = true, ids[k] = enabled[match].id;
	}
	gt_free(used);
	return fits;
}

void nav_links_index_name_links(const gtNav* nav, const gtLinkId* ids, const gtVec2* points, gtLinkId* links, int count)
{
	const gtEhl* e = nav->ehl;
	if (count > 0) links[count - 1] = GT_LINK_NONE; // after the last point: no step
	for (int i = 0; i + 1 < count; i++) {
		links[i] = GT_LINK_NONE;
		gtVec2 a = points[i], b = points[i + 1];
		double walk = -1, best = INFINITY; // walk: the straight line when it is a walk, computed once
		for (int k = 0; k < e->link_count; k++) {
			const gtEhlLink* l = &e->links[k];
			if (!(same_point(l->a, a) && same_point(l->b, b)) && !(same_point(l->a, b) && same_point(l->b, a)))
				continue;
			if (walk < 0) walk = gt_visible_unchecked(nav->map, a, b) ? hypot(b.x - a.x, b.y - a.y) : INFINITY;
			if (l->cost < walk && l->cost < best) best = l->cost, links[i] = ids[k];
		}
	}
}

gtStatus nav_links_index_links(const gtNav* nav, gtEhlLink** out, int* count, gtError* err)
{
	int enabled = nav_links_enabled(nav, NULL);
	gtLinkEdge* edges = gt_malloc(((size_t)enabled + 1) * sizeof *edges);
	*out = gt_malloc(((size_t)enabled + 1) * sizeof **out);
	*count = 0;
	gtStatus st = edges && *out ? GT_OK : gt_fail(err, GT_ERR_NOMEM, "out of memory");
	if (!st) nav_links_enabled(nav, edges);
	for (int i = 0; !st && i < enabled; i++)
		if (!edges[i].one_way) (*out)[(*count)++] = (gtEhlLink){edges[i].a, edges[i].b, edges[i].cost};
	gt_free(edges);
	return st;
}

gtStatus gtNav_BuildIndexWithLinks(gtNav* nav, const gtEhlDef* def, gtError* err)
{
	gtEhlLink* links;
	int two_way;
	gtStatus st = nav_links_index_links(nav, &links, &two_way, err);
	gtEhl* ehl = NULL;
	bool outer_cancelled = nav->build_cancelled; // as gtNav_RebuildIndex: edits and cancels from the callback
	nav->build_cancelled = false;
	nav->building++;
	if (!st) st = gtEhl_BuildWithLinks(nav->map, def, links, two_way, &ehl, err);
	nav->building--;
	if (!st && nav->build_cancelled) {
		gtEhl_Destroy(ehl);
		st = gt_fail(err, GT_ERR_INVALID_ARG, "the build was cancelled: the nav keeps the index it had");
	}
	nav->build_cancelled = outer_cancelled;
	gt_free(links);
	return st ? st : gtNav_SetIndex(nav, ehl, err);
}
