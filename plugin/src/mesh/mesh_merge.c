// Greedy merging of convex polygons (Hertel and Mehlhorn's idea: remove a shared edge whenever the
// union stays convex), ordered by the union's area so that big open spaces become few polygons.
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/heap.h"
#include "core/status.h"
#include "mesh/cdt.h"
#include "mesh/mesh_merge.h"

typedef struct Candidate {
	int32_t p, q, p_version, q_version;
} Candidate;

// Bigger polygons are not made: real maps need at most about 130 sides, and a merge copies the
// union's ring, so a polygon swallowing a long fan of triangles one by one would cost its length
// squared.
enum { MAX_MERGED_SIDES = 256 };

typedef struct Merger {
	gtPolygonSet* s;
	int64_t live; // ring entries of polygons not merged away; the rest of the rings is garbage
	int32_t* version;
	int64_t* area2; // twice each polygon's area
	Candidate* candidates;
	int64_t candidate_count, candidate_capacity, heap_capacity;
	gtHeap heap;
} Merger;

int32_t gt_polygons_add(gtPolygonSet* s, const int32_t* corner, const int32_t* across, int size)
{
	if (!GT_GROW(s->start, s->start_capacity, (int64_t)s->count + 1, 1024) ||
	    !GT_GROW(s->size, s->size_capacity, (int64_t)s->count + 1, 1024))
		return -1;
	if (s->ring_count + size > INT32_MAX || !GT_GROW(s->corner, s->corner_capacity, s->ring_count + size, 4096) ||
	    !GT_GROW(s->across, s->across_capacity, s->ring_count + size, 4096))
		return -1;
	memcpy(s->corner + s->ring_count, corner, (size_t)size * sizeof *corner);
	memcpy(s->across + s->ring_count, across, (size_t)size * sizeof *across);
	s->start[s->count] = (int32_t)s->ring_count;
	s->size[s->count] = size;
	s->ring_count += size;
	return s->count++;
}

void gt_polygons_free(gtPolygonSet* s)
{
	gt_free(s->start), gt_free(s->size), gt_free(s->corner), gt_free(s->across);
	memset(s, 0, sizeof *s);
}

static int64_t orient(const gtPolygonSet* s, int32_t a, int32_t b, int32_t c)
{
	return gt_lattice_orient(s->x, s->y, a, b, c);
}

static int64_t twice_area(const gtPolygonSet* s, int32_t p)
{
	const int32_t* v = s->corner + s->start[p];
	int64_t sum = 0;
	for (int i = 0, n = s->size[p]; i < n; i++) {
		int32_t a = v[i], b = v[(i + 1) % n];
		sum += (int64_t)s->x[a] * s->y[b] - (int64_t)s->x[b] * s->y[a];
	}
	return sum;
}

// The entry of p's ring whose edge has q across, or -1 when there is none or more than one.
static int shared_entry(const gtPolygonSet* s, int32_t p, int32_t q)
{
	int found = -1;
	for (int i = 0; i < s->size[p]; i++)
		if (s->across[s->start[p] + i] == q) {
			if (found >= 0) return -1;
			found = i;
		}
	return found;
}

// Whether p and q share exactly one edge and their union is convex (straight angles allowed: a
// vertex shared with a wall or a third polygon stays) and not too big; *i and *j are the shared
// edge's entries in p and q.
static bool mergeable(const gtPolygonSet* s, int32_t p, int32_t q, int* i, int* j)
{
	*i = shared_entry(s, p, q), *j = shared_entry(s, q, p);
	int n = s->size[p], k = s->size[q];
	if (*i < 0 || *j < 0 || n + k - 2 > MAX_MERGED_SIDES) return false;
	const int32_t *cp = s->corner + s->start[p], *cq = s->corner + s->start[q];
	// p's edge u -> v is q's edge v -> u.
	int32_t u = cp[(*i + n - 1) % n], v = cp[*i];
	if (cq[(*j + k - 1) % k] != v || cq[*j] != u) return false;
	return orient(s, cp[(*i + n - 2) % n], u, cq[(*j + 1) % k]) >= 0 &&
	       orient(s, cq[(*j + k - 2) % k], v, cp[(*i + 1) % n]) >= 0;
}

// Queues p and q when they can merge now. A pair that cannot only becomes mergeable when one of
// them grows, and then it is queued again: the order of merges is the same as queueing every pair.
static bool push_candidate(Merger* m, int32_t p, int32_t q)
{
	int i, j;
	if (!mergeable(m->s, p, q, &i, &j)) return true;
	if (!GT_GROW(m->candidates, m->candidate_capacity, m->candidate_count + 1, 1024) ||
	    !GT_GROW(m->heap.items, m->heap_capacity, m->heap.size + 1, 1024))
		return false;
	m->heap.capacity = (int)m->heap_capacity;
	m->candidates[m->candidate_count] = (Candidate){p, q, m->version[p], m->version[q]};
	gt_heap_push(&m->heap, -(double)(m->area2[p] + m->area2[q]), (int32_t)m->candidate_count++);
	return true;
}

static bool push_neighbours(Merger* m, int32_t p)
{
	const gtPolygonSet* s = m->s;
	for (int i = 0; i < s->size[p]; i++) {
		int32_t q = s->across[s->start[p] + i];
		if (q >= 0 && !push_candidate(m, p, q)) return false;
	}
	return true;
}

// Copies the rings of the polygons not merged away into new arrays, leaving the garbage behind.
static bool compact_rings(Merger* m)
{
	gtPolygonSet* s = m->s;
	int64_t capacity = 2 * m->live + 4096;
	int32_t* corner = gt_malloc((size_t)capacity * sizeof *corner);
	int32_t* across = gt_malloc((size_t)capacity * sizeof *across);
	if (!corner || !across) {
		gt_free(corner), gt_free(across);
		return false;
	}
	int64_t at = 0;
	for (int32_t p = 0; p < s->count; p++) {
		memcpy(corner + at, s->corner + s->start[p], (size_t)s->size[p] * sizeof *corner);
		memcpy(across + at, s->across + s->start[p], (size_t)s->size[p] * sizeof *across);
		s->start[p] = (int32_t)at;
		at += s->size[p];
	}
	gt_free(s->corner), gt_free(s->across);
	s->corner = corner, s->across = across;
	s->corner_capacity = s->across_capacity = capacity;
	s->ring_count = at;
	return true;
}

// Merges q into p when they are still mergeable: 1, 0 when not, -1 when out of memory.
static int merge_pair(Merger* m, int32_t p, int32_t q)
{
	gtPolygonSet* s = m->s;
	int i, j;
	if (!mergeable(s, p, q, &i, &j)) return 0;
	int n = s->size[p], k = s->size[q];
	if (s->ring_count - m->live > m->live + 65536 && !compact_rings(m)) return -1;
	// The union: p's ring from v round to u, then q's from after u to before v.
	int64_t need = s->ring_count + n + k - 2;
	if (need > INT32_MAX || !GT_GROW(s->corner, s->corner_capacity, need, 4096) ||
	    !GT_GROW(s->across, s->across_capacity, need, 4096))
		return -1;
	const int32_t *cp = s->corner + s->start[p], *cq = s->corner + s->start[q];
	const int32_t *ap = s->across + s->start[p], *aq = s->across + s->start[q];
	int64_t at = s->ring_count;
	for (int step = 0; step < n; step++) {
		int e = (i + step) % n;
		s->corner[at] = cp[e];
		s->across[at++] = step == 0 ? aq[(j + k - 1) % k] : ap[e];
	}
	for (int step = 1; step <= k - 2; step++) {
		int e = (j + step) % k;
		s->corner[at] = cq[e];
		s->across[at++] = aq[e];
	}
	s->start[p] = (int32_t)s->ring_count;
	s->size[p] = n + k - 2;
	s->size[q] = 0;
	s->ring_count = at;
	m->version[p]++, m->version[q]++;
	m->area2[p] += m->area2[q];
	m->live -= 2;
	// q's old neighbours now border p.
	for (int e = 0; e < s->size[p]; e++) {
		int32_t x = s->across[s->start[p] + e];
		if (x < 0) continue;
		for (int f = 0; f < s->size[x]; f++)
			if (s->across[s->start[x] + f] == q) s->across[s->start[x] + f] = p;
	}
	return 1;
}

gtStatus gt_polygons_merge(gtPolygonSet* s, gtError* err)
{
	Merger m = {.s = s};
	gtStatus st = GT_OK;
	m.version = gt_calloc((size_t)s->count + 1, sizeof *m.version);
	m.area2 = gt_malloc(((size_t)s->count + 1) * sizeof *m.area2);
	if (!m.version || !m.area2) goto nomem;
	for (int32_t p = 0; p < s->count; p++) m.area2[p] = twice_area(s, p);
	m.live = s->ring_count;
	for (int32_t p = 0; p < s->count; p++)
		for (int i = 0; i < s->size[p]; i++) {
			int32_t q = s->across[s->start[p] + i];
			if (q > p && !push_candidate(&m, p, q)) goto nomem;
		}
	while (m.heap.size > 0) {
		Candidate c = m.candidates[gt_heap_pop(&m.heap).id];
		if (s->size[c.p] == 0 || s->size[c.q] == 0 || m.version[c.p] != c.p_version || m.version[c.q] != c.q_version)
			continue;
		int merged = merge_pair(&m, c.p, c.q);
		if (merged < 0 || (merged > 0 && !push_neighbours(&m, c.p))) goto nomem;
	}
	goto done;
nomem:
	st = gt_fail(err, GT_ERR_NOMEM, "out of memory merging the mesh's polygons");
done:
	gt_free(m.version), gt_free(m.area2), gt_free(m.candidates), gt_free(m.heap.items);
	return st;
}
