// Polyanya: exact any-angle point-to-point search on a navigation mesh (Cui, Harabor, Grastien
// 2017; docs/algorithms.md 7.2). A search node is an interval [R, L] of a polygon edge whose every
// point the root sees, and the polygon beyond it; its successors are the pieces of that polygon's
// boundary seen through the interval (same root) and, when an interval end is a corner of the mesh,
// the pieces hidden behind it (that corner becomes the root).
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "mesh/mesh_internal.h"
#include "mesh/mesh_objects.h"
#include "mesh/polyanya_internal.h"

#define EPS 1e-9

typedef struct Node {
	gtVec2 root, right, left; // right and left as seen from the root looking through the interval
	double g, f;
	int32_t root_vertex; // -1: the start
	int32_t root_chain;  // index into the roots list (the path back to the start)
	int32_t polygon;     // the polygon beyond the interval
	int32_t entry;       // the interval's edge within `polygon` (edge i ends at its vertex i)
	int32_t object;      // a k-nearest search's final node: f is that object's distance; else -1
} Node;

typedef struct RootLink {
	gtVec2 at;
	int32_t parent; // -1: the start
} RootLink;

// A node pushed from a root made more than once at the same cost (see push_run), remembered so
// that an identical one is not pushed again.
typedef struct SeenNode {
	gtVec2 right, left;
	double g;
	int32_t edge, root_vertex;
	uint32_t stamp; // = the search's generation when in use
} SeenNode;

typedef struct HeapItem {
	double f, g;
	int32_t node;
} HeapItem;

struct gtPolyanya {
	const gtMesh* mesh;
	Node* nodes;
	int nodes_size;
	int64_t nodes_capacity;
	HeapItem* heap;
	int heap_size;
	int64_t heap_capacity;
	RootLink* roots;
	int roots_size;
	int64_t roots_capacity;
	double* root_g; // best g seen per root vertex, valid where root_stamp = generation
	uint32_t* root_stamp;
	int32_t* root_owner; // the root chain entry (one add_root) that reached each root at root_g
	SeenNode* seen;      // open addressing, a power of two slots
	int seen_capacity, seen_count;
	uint32_t generation;
	int32_t goal_polygons[GT_MESH_MAX_AROUND_VERTEX];
	int goal_count;
	uint32_t* goal_stamp; // per polygon: = goal_generation when it holds the goal
	uint32_t goal_generation;
	int64_t expanded;   // nodes expanded by the last search
	uint32_t* reported; // k-nearest: per object id, = generation once returned
	int reported_capacity;
};

static double cross3(gtVec2 o, gtVec2 a, gtVec2 b)
{
	return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static double dist(gtVec2 a, gtVec2 b)
{
	double dx = b.x - a.x, dy = b.y - a.y;
	return sqrt(dx * dx + dy * dy); // coordinates are small: no overflow for hypot to guard against
}

// step mod count for 0 <= step < 2 count, without a division (this runs per polygon vertex).
static inline int wrap(int step, int count)
{
	return step >= count ? step - count : step;
}

static bool same(gtVec2 a, gtVec2 b)
{
	return a.x == b.x && a.y == b.y;
}

gtStatus gtPolyanya_Create(const gtMesh* mesh, gtPolyanya** out, gtError* err)
{
	*out = NULL;
	gtPolyanya* p = gt_calloc(1, sizeof *p);
	if (!p) return gt_fail(err, GT_ERR_NOMEM, "out of memory for a Polyanya search");
	p->mesh = mesh;
	p->root_g = gt_malloc(((size_t)mesh->vertex_count + 1) * sizeof *p->root_g);
	p->root_stamp = gt_calloc((size_t)mesh->vertex_count + 1, sizeof *p->root_stamp);
	p->root_owner = gt_malloc(((size_t)mesh->vertex_count + 1) * sizeof *p->root_owner);
	p->goal_stamp = gt_calloc((size_t)mesh->polygon_count + 1, sizeof *p->goal_stamp);
	if (!p->root_g || !p->root_stamp || !p->root_owner || !p->goal_stamp) {
		gtPolyanya_Destroy(p);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for a Polyanya search");
	}
	*out = p;
	return GT_OK;
}

void gtPolyanya_Destroy(gtPolyanya* p)
{
	if (!p) return;
	// Every array the search owns: the per-vertex and per-polygon ones Create makes, then the grown ones.
	void* arrays[] = {p->root_g, p->root_stamp, p->root_owner, p->goal_stamp, p->nodes,
	                  p->heap,   p->roots,      p->seen,       p->reported};
	for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) gt_free(arrays[i]);
	gt_free(p);
}

int64_t gtPolyanya_Expanded(const gtPolyanya* p)
{
	return p->expanded;
}

// Room for one more item in a scratch array that stays with the search.
#define ROOM_FOR_ONE(array, size, capacity) ((size) < (capacity) || GT_GROW((array), (capacity), (size) + 1, 256))

static bool before(const HeapItem* a, const HeapItem* b) // smaller f first, then larger g
{
	return a->f < b->f || (a->f == b->f && a->g > b->g);
}

static bool heap_push(gtPolyanya* p, int32_t node)
{
	if (!ROOM_FOR_ONE(p->heap, p->heap_size, p->heap_capacity)) return false;
	HeapItem item = {p->nodes[node].f, p->nodes[node].g, node};
	int i = p->heap_size++;
	while (i > 0 && before(&item, &p->heap[(i - 1) / 2])) {
		p->heap[i] = p->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	p->heap[i] = item;
	return true;
}

static int32_t heap_pop(gtPolyanya* p)
{
	int32_t top = p->heap[0].node;
	HeapItem last = p->heap[--p->heap_size];
	int i = 0, n = p->heap_size;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n) break;
		if (c + 1 < n && before(&p->heap[c + 1], &p->heap[c])) c++;
		if (!before(&p->heap[c], &last)) break;
		p->heap[i] = p->heap[c];
		i = c;
	}
	if (n > 0) p->heap[i] = last;
	return top;
}

// Whether p, known to lie on the line through a and b, lies strictly between them.
static bool between(gtVec2 p, gtVec2 a, gtVec2 b)
{
	return (p.x - a.x) * (p.x - b.x) <= 0 && (p.y - a.y) * (p.y - b.y) <= 0 && !same(p, a) && !same(p, b);
}

// The reflection of t across the line through a and b.
static gtVec2 reflect(gtVec2 t, gtVec2 a, gtVec2 b)
{
	double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
	if (len2 == 0) return t;
	double u = ((t.x - a.x) * dx + (t.y - a.y) * dy) / len2;
	gtVec2 foot = {a.x + u * dx, a.y + u * dy};
	gtVec2 r = {2 * foot.x - t.x, 2 * foot.y - t.y};
	return r;
}

// Length of the shortest path from root r through the interval [right, left] to t (docs 7.2): t
// reflected to the far side when it is on r's side, then straight if the segment crosses the
// interval, else bent at the nearer end.
static double heuristic(gtVec2 r, gtVec2 right, gtVec2 left, gtVec2 t)
{
	if (same(right, left)) return dist(r, right) + dist(right, t);
	double side_r = cross3(right, left, r), side_t = cross3(right, left, t);
	double scale = fabs(left.x - right.x) + fabs(left.y - right.y) + fabs(r.x - right.x) + fabs(r.y - right.y);
	if (fabs(side_r) <= EPS * scale * scale) { // r on the interval's line sees only along it: in by the nearer end
		if (between(r, right, left)) return dist(r, t); // ...unless it is on the interval itself
		gtVec2 near = dist(r, right) <= dist(r, left) ? right : left;
		return dist(r, near) + dist(near, t);
	}
	if ((side_r > 0 && side_t > 0) || (side_r < 0 && side_t < 0)) t = reflect(t, right, left);
	double cr = cross3(r, t, right), cl = cross3(r, t, left);
	if (cr <= 0 && cl >= 0) return dist(r, t);          // the segment r-t passes between the ends
	if (cr > 0) return dist(r, right) + dist(right, t); // right of r-t... misses on the right end's side
	return dist(r, left) + dist(left, t);
}

// Where the ray from r through x leaves the polygon across edge (a, b) (a point of the segment).
static inline gtVec2 exit_point(gtVec2 r, gtVec2 x, gtVec2 a, gtVec2 b)
{
	double ca = cross3(r, x, a), cb = cross3(r, x, b);
	double u = ca == cb ? 0 : ca / (ca - cb);
	// A ray through a vertex must end its interval exactly there, or the turn at that corner (an
	// exact comparison with the vertex) is missed: a point a rounding error away is the vertex.
	if (u <= 1e-9) return a;
	if (u >= 1 - 1e-9) return b;
	gtVec2 q = {a.x + u * (b.x - a.x), a.y + u * (b.y - a.y)};
	return q;
}

// What orders a search: one goal point (f = g + the interval's distance to it), objects met on the
// way (the interval heuristic: f = g + distance to the interval), objects met on the way guided by
// a caller's lower bound (the target and fence heuristics), or a flood out of many sources (the
// fence labels' preprocessing, ordered like the interval heuristic).
typedef enum Mode { TO_GOAL, INTERVAL, GUIDED, FLOOD } Mode;

typedef struct Search {
	gtPolyanya* p;
	Mode mode;
	gtVec2 goal;
	bool failed;                  // out of memory
	const gtMeshObjects* objects; // INTERVAL and GUIDED: the objects to meet
	gtMeshAcceptFcn* accept;
	void* context;
	gtMeshGuideFcn* guide;
	void* guide_context;
	double parent_f; // GUIDED: the f of the node being expanded, which no successor's f drops below
} Search;

// Distance from r to the closed segment a-b: the interval heuristic's estimate, which ignores
// where the targets are.
double gt_mesh_segment_distance(gtVec2 r, gtVec2 a, gtVec2 b)
{
	double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
	double u = len2 > 0 ? ((r.x - a.x) * dx + (r.y - a.y) * dy) / len2 : 0;
	if (u < 0) u = 0;
	if (u > 1) u = 1;
	gtVec2 foot = {a.x + u * dx, a.y + u * dy};
	return dist(r, foot);
}

static inline Node* new_node(Search* s)
{
	gtPolyanya* p = s->p;
	if (!ROOM_FOR_ONE(p->nodes, p->nodes_size, p->nodes_capacity)) {
		s->failed = true;
		return NULL;
	}
	return &p->nodes[p->nodes_size];
}

// Final nodes for the wanted objects of `polygon` not yet returned, seen from `root` through the
// interval (or, with no interval, from inside the polygon: straight).
static void push_objects(Search* s, int polygon, const gtVec2* right, const gtVec2* left, gtVec2 root,
                         int32_t root_chain, double g)
{
	gtPolyanya* p = s->p;
	const gtMeshObjects* o = s->objects;
	for (int32_t member = o->head[polygon]; member >= 0; member = o->members[member].next) {
		int32_t id = o->members[member].object;
		if (id < p->reported_capacity && p->reported[id] == p->generation) continue;
		if (s->accept && !s->accept(s->context, id)) continue;
		Node* n = new_node(s);
		if (!n) return;
		*n = (Node){.root = root,
		            .g = g,
		            .root_vertex = -1,
		            .root_chain = root_chain,
		            .polygon = polygon,
		            .entry = -1,
		            .object = id};
		n->right = right ? *right : o->point[id], n->left = left ? *left : o->point[id];
		n->f = g + (right ? heuristic(root, *right, *left, o->point[id]) : dist(root, o->point[id]));
		p->nodes_size++;
	}
}

static bool is_goal_polygon(const gtPolyanya* p, int polygon)
{
	return p->goal_stamp[polygon] == p->goal_generation;
}

int32_t gt_mesh_edge_key(const gtMesh* m, int32_t ring_entry)
{
	int32_t next = m->across[ring_entry];
	if (next < 0) return ring_entry;
	int32_t other = m->first[next] + m->twin[ring_entry];
	return other < ring_entry ? other : ring_entry;
}

// A polygon whose only way on is the edge it is entered by leads nowhere but back (but a flood
// labels its edge: a query may start inside).
static inline bool dead_end(const Search* s, int32_t polygon)
{
	return s->p->mesh->exits[polygon] == 1 && s->mode != FLOOD &&
	       !(s->mode == TO_GOAL ? is_goal_polygon(s->p, polygon) : s->objects->head[polygon] >= 0);
}

// Root-level pruning: whether a node rooted at `root_vertex` at cost g is dominated by a cheaper way
// to that root seen before.
static inline bool root_dominated(const gtPolyanya* p, int32_t root_vertex, double g)
{
	return root_vertex >= 0 && p->root_stamp[root_vertex] == p->generation && g > p->root_g[root_vertex] + EPS;
}

static inline void record_root(gtPolyanya* p, int32_t root_vertex, int32_t chain, double g)
{
	if (root_vertex >= 0 && (p->root_stamp[root_vertex] != p->generation || g < p->root_g[root_vertex])) {
		p->root_stamp[root_vertex] = p->generation;
		p->root_g[root_vertex] = g;
		p->root_owner[root_vertex] = chain;
	}
}

static uint64_t bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static uint32_t seen_hash(int32_t edge, int32_t root_vertex, gtVec2 right, gtVec2 left)
{
	uint64_t h = (uint64_t)(uint32_t)edge * 0x9e3779b97f4a7c15u ^ (uint64_t)(uint32_t)root_vertex * 0xc2b2ae3d27d4eb4fu;
	h ^= bits(right.x) + 3 * bits(right.y) + 5 * bits(left.x) + 7 * bits(left.y);
	h *= 0xff51afd7ed558ccdu;
	return (uint32_t)(h >> 32);
}

static bool grow_seen(gtPolyanya* p)
{
	int capacity = p->seen_capacity ? 2 * p->seen_capacity : 256;
	SeenNode* grown = gt_calloc((size_t)capacity, sizeof *grown);
	if (!grown) return false;
	for (int i = 0; i < p->seen_capacity; i++) {
		const SeenNode* e = &p->seen[i];
		if (e->stamp != p->generation) continue;
		uint32_t at = seen_hash(e->edge, e->root_vertex, e->right, e->left) & (uint32_t)(capacity - 1);
		while (grown[at].stamp == p->generation) at = (at + 1) & (uint32_t)(capacity - 1);
		grown[at] = *e;
	}
	gt_free(p->seen);
	p->seen = grown, p->seen_capacity = capacity;
	return true;
}

// Whether a node through ring entry `edge` with this root, interval and no greater g was pushed
// before; remembers this one otherwise. (Out of memory: no, and the search stays exact.)
static bool seen_before(gtPolyanya* p, int32_t edge, int32_t root_vertex, gtVec2 right, gtVec2 left, double g)
{
	if (2 * (p->seen_count + 1) > p->seen_capacity && !grow_seen(p)) return false;
	uint32_t mask = (uint32_t)p->seen_capacity - 1, at = seen_hash(edge, root_vertex, right, left) & mask;
	for (; p->seen[at].stamp == p->generation; at = (at + 1) & mask) {
		SeenNode* e = &p->seen[at];
		if (e->edge == edge && e->root_vertex == root_vertex && same(e->right, right) && same(e->left, left)) {
			if (e->g <= g + EPS) return true;
			e->g = g;
			return false;
		}
	}
	p->seen[at] = (SeenNode){right, left, g, edge, root_vertex, p->generation};
	p->seen_count++;
	return false;
}

// A node through ring entry `edge` into polygon `next` (not a wall, not a dead end, its root not
// dominated), and the final nodes of the objects in `next`.
static inline void push_node(Search* s, int32_t edge, int32_t next, gtVec2 right, gtVec2 left, gtVec2 root,
                             int32_t root_vertex, int32_t root_chain, double g)
{
	gtPolyanya* p = s->p;
	double f;
	if (s->mode == TO_GOAL) f = g + heuristic(root, right, left, s->goal);
	else if (s->mode != GUIDED) f = g + gt_mesh_segment_distance(root, right, left);
	else {
		f = g + s->guide(s->guide_context, p, root, right, left, gt_mesh_edge_key(p->mesh, edge));
		if (f < s->parent_f) f = s->parent_f; // a bound that is not consistent made consistent (OkNN paper, h_f)
	}
	if (f < INFINITY) { // GUIDED: infinite when no wanted object lies beyond
		Node* n = new_node(s);
		if (!n) return;
		*n = (Node){.root = root,
		            .right = right,
		            .left = left,
		            .g = g,
		            .f = f,
		            .root_vertex = root_vertex,
		            .root_chain = root_chain,
		            .polygon = next,
		            .entry = p->mesh->twin[edge],
		            .object = -1};
		p->nodes_size++; // the caller queues it (or expands it at once)
	}
	if ((s->mode == INTERVAL || s->mode == GUIDED) && s->objects->head[next] >= 0)
		push_objects(s, next, &right, &left, root, root_chain, g);
}

// A node through the edge of `from` that ends at its vertex `k` (index within from), or nothing
// across a wall or into a dead end; root pruning drops it when the root was reached more cheaply.
static void push(Search* s, int from, int k, gtVec2 right, gtVec2 left, gtVec2 root, int32_t root_vertex,
                 int32_t root_chain, double g)
{
	int32_t edge = s->p->mesh->first[from] + k, next = s->p->mesh->across[edge];
	if (next < 0 || dead_end(s, next) || root_dominated(s->p, root_vertex, g)) return;
	record_root(s->p, root_vertex, root_chain, g);
	push_node(s, edge, next, right, left, root, root_vertex, root_chain, g);
}

// A new root: the corner `v` reached at cost g from the node's root.
static int32_t add_root(Search* s, gtVec2 at, int32_t parent_chain)
{
	gtPolyanya* p = s->p;
	if (!ROOM_FOR_ONE(p->roots, p->roots_size, p->roots_capacity)) {
		s->failed = true;
		return -1;
	}
	p->roots[p->roots_size].at = at;
	p->roots[p->roots_size].parent = parent_chain;
	return p->roots_size++;
}

// Pushes the pieces of polygon P's edges from edge `first` to edge `last` (walking forward from
// the entry edge), cut at `from` on the first and `to` on the last, all seen from `root`.
static void push_run(Search* s, int P, int count, int first, int last, gtVec2 from, gtVec2 to, gtVec2 root,
                     int32_t root_vertex, int32_t chain, double g)
{
	gtPolyanya* p = s->p;
	// Every node of a run has the same root and g: one pruning decision for all.
	if (root_dominated(p, root_vertex, g)) return;
	bool recorded = false, duplicate_root = false;
	const gtMesh* m = p->mesh;
	int32_t base = m->first[P];
	const gtVec2* xy = m->ring_xy + base;
	const int32_t* across = m->across + base;
	for (int step = first; step <= last; step++) {
		int k = wrap(step, count);
		int32_t next = across[k];
		if (next < 0 || dead_end(s, next)) continue; // a wall, or nothing beyond but the way back
		if (!recorded) {
			record_root(p, root_vertex, chain, g), recorded = true;
			// The root was also made by another add_root at the same cost (paths through a row of
			// collinear corners reach each corner twice, and every copy doubles at the next): an
			// identical node already pushed from such a root is not pushed again, so a node is
			// pushed at most twice (the first root's own nodes stay out of the table: the common
			// case costs nothing).
			duplicate_root = root_vertex >= 0 && p->root_owner[root_vertex] != chain;
		}
		gtVec2 right = step == first ? from : xy[k == 0 ? count - 1 : k - 1], left = step == last ? to : xy[k];
		if (duplicate_root && seen_before(p, base + k, root_vertex, right, left, g)) continue;
		push_node(s, base + k, next, right, left, root, root_vertex, chain, g);
	}
}

static void expand(Search* s, const Node* node)
{
	gtPolyanya* p = s->p;
	const gtMesh* m = p->mesh;
	// The node array may move while successors are pushed: the node's fields are copied first.
	const struct {
		gtVec2 root, right, left;
		double g;
		int32_t root_vertex, root_chain;
	} n = {node->root, node->right, node->left, node->g, node->root_vertex, node->root_chain};
	int P = node->polygon, count = m->first[P + 1] - m->first[P], i = node->entry;
	const int32_t* v = m->corner + m->first[P];
	int a = v[i == 0 ? count - 1 : i - 1], b = v[i]; // entry edge a -> b: a is on the left, b on the right
	const gtVec2* xy = m->ring_xy + m->first[P];
	gtVec2 va = xy[i == 0 ? count - 1 : i - 1], vb = xy[i], r = n.root;
	double scale = fabs(vb.x - va.x) + fabs(vb.y - va.y) + fabs(r.x - va.x) + fabs(r.y - va.y);
	if (fabs(cross3(r, vb, va)) <= EPS * scale * scale) {
		// The root is on the entry edge's line: it sees nothing of P but along the edge. Go on from
		// the nearer end, which sees all of P: no path through the interval into P is shorter than
		// one bending there. On meshes whose vertices are all obstacle corners that end is a corner;
		// on meshes with vertices in open space (rectangles split where neighbours change) it may
		// not be, and the path may be going straight on through it.
		if (between(r, va, vb)) {
			// The root is on the entry edge itself (a start a rounding error inside its polygon):
			// it sees all of P.
			push_run(s, P, count, i + 1, i + count - 1, vb, va, r, n.root_vertex, n.root_chain, n.g);
			return;
		}
		bool right_nearer = dist(r, n.right) <= dist(r, n.left);
		gtVec2 end = right_nearer ? n.right : n.left;
		int corner = same(end, vb) ? b : same(end, va) ? a : -1;
		if (same(end, r)) {
			// The root is that end: it goes round itself polygon by polygon only at an obstacle
			// corner (whose wall sector ends the walk); a root in open space already started every
			// polygon around it.
			if (corner >= 0 && m->corner_vertex[corner])
				push_run(s, P, count, i + 1, i + count - 1, vb, va, r, n.root_vertex, n.root_chain, n.g);
			return;
		}
		int32_t chain = add_root(s, end, n.root_chain);
		if (chain < 0) return;
		push_run(s, P, count, i + 1, i + count - 1, vb, va, end, corner, chain, n.g + dist(r, end));
		return;
	}
	// Edges after the entry, in order: step i + 1 .. i + count - 1 is edge (step mod count), from
	// vertex step - 1 to vertex step. The ray r->right meets P's far side on the first edge whose
	// end is left of it or on it, the ray r->left leaves it on the first whose end is strictly left:
	// boundary running along either ray is seen (a corner on it is where the path may turn, and on
	// meshes with vertices in open space such a ray may run along edges for a while).
	int k_right = -1, k_left = -1;
	for (int step = i + 1; step <= i + count - 1 && (k_right < 0 || k_left < 0); step++) {
		gtVec2 end = xy[wrap(step, count)];
		if (k_right < 0 && (step == i + count - 1 || cross3(r, n.right, end) >= 0)) k_right = step;
		if (k_left < 0 && (step == i + count - 1 || cross3(r, n.left, end) > 0)) k_left = step;
	}
	if (k_left < k_right) k_left = k_right; // a point interval whose ray passes through a vertex
	gtVec2 right_exit = exit_point(r, n.right, xy[wrap(k_right - 1, count)], xy[wrap(k_right, count)]);
	gtVec2 left_exit = exit_point(r, n.left, xy[wrap(k_left - 1, count)], xy[wrap(k_left, count)]);
	push_run(s, P, count, k_right, k_left, right_exit, left_exit, r, n.root_vertex, n.root_chain, n.g);
	// Hidden behind the interval's right end when it is the entry edge's corner b.
	if (same(n.right, vb) && m->corner_vertex[b]) {
		bool any = k_right > i + 1 || !same(right_exit, vb);
		if (any) {
			int32_t chain = add_root(s, vb, n.root_chain);
			if (chain >= 0) push_run(s, P, count, i + 1, k_right, vb, right_exit, vb, b, chain, n.g + dist(r, vb));
		}
	}
	if (same(n.left, va) && m->corner_vertex[a]) {
		bool any = k_left < i + count - 1 || !same(left_exit, va);
		if (any) {
			int32_t chain = add_root(s, va, n.root_chain);
			if (chain >= 0)
				push_run(s, P, count, k_left, i + count - 1, left_exit, va, va, a, chain, n.g + dist(r, va));
		}
	}
}

static gtStatus check_point(const gtMesh* m, gtVec2 q, const char* which, int32_t* polygons, int* count, gtError* err)
{
	*count = gt_mesh_point_polygons(m, q, polygons, GT_MESH_MAX_AROUND_VERTEX);
	if (*count > 0) return GT_OK;
	if (gtMesh_Locate(m, q).place == GT_MESH_ON_VERTEX)
		return gt_fail(err, GT_ERR_INVALID_POINT, "%s (%g, %g): a pinch vertex whose cell at (+1e-5, +1e-5) is a wall",
		               which, q.x, q.y);
	return gt_fail(err, GT_ERR_INVALID_POINT, "%s (%g, %g): not on the mesh", which, q.x, q.y);
}

// Queues the nodes made since node `from`.
static void queue_from(Search* sr, int from)
{
	gtPolyanya* p = sr->p;
	for (int i = from; i < p->nodes_size && !sr->failed; i++) sr->failed = !heap_push(p, i);
}

// Expands node `id` and queues its successors. A node with one successor (a plain node, not into
// the goal's polygon) is expanded at once, without the open list: its f is no smaller, so the
// order in which goals and objects come off the list is unchanged.
static void expand_queue(Search* sr, int32_t id)
{
	gtPolyanya* p = sr->p;
	for (;;) {
		int before = p->nodes_size;
		p->expanded++;
		sr->parent_f = p->nodes[id].f;
		expand(sr, &p->nodes[id]);
		if (sr->failed) return;
		if (p->nodes_size - before == 1 && p->nodes[before].object < 0 &&
		    (sr->mode != TO_GOAL || !is_goal_polygon(p, p->nodes[before].polygon))) {
			id = before; // push just kept it, so its root's g is the best seen
			continue;
		}
		queue_from(sr, before);
		return;
	}
}

static bool on_segment(gtVec2 s, gtVec2 a, gtVec2 b)
{
	return cross3(a, b, s) == 0 && (s.x - a.x) * (s.x - b.x) <= 0 && (s.y - a.y) * (s.y - b.y) <= 0;
}

// A new search: a new generation of root and object stamps, empty lists.
static void reset(Search* sr)
{
	gtPolyanya* p = sr->p;
	if (++p->generation == 0) {
		memset(p->root_stamp, 0, ((size_t)p->mesh->vertex_count + 1) * sizeof *p->root_stamp);
		if (p->seen) memset(p->seen, 0, (size_t)p->seen_capacity * sizeof *p->seen);
		if (p->reported) memset(p->reported, 0, (size_t)p->reported_capacity * sizeof *p->reported);
		p->generation = 1;
	}
	p->nodes_size = p->heap_size = p->roots_size = p->seen_count = 0;
}

// The first nodes from point s: every edge of its polygons that s is not on, seen whole (not yet
// queued).
static void add_start_nodes(Search* sr, const int32_t* start, int start_count, gtVec2 s)
{
	const gtMesh* m = sr->p->mesh;
	for (int i = 0; i < start_count; i++) {
		int P = start[i], count = m->first[P + 1] - m->first[P];
		const gtVec2* xy = m->ring_xy + m->first[P];
		if (sr->objects && sr->objects->head[P] >= 0) push_objects(sr, P, NULL, NULL, s, -1, 0);
		for (int k = 0; k < count; k++) {
			gtVec2 a = xy[k == 0 ? count - 1 : k - 1], b = xy[k];
			if (on_segment(s, a, b)) continue; // an edge the start lies on sees nothing new from it
			push(sr, P, k, a, b, s, -1, -1, 0);
		}
	}
}

static void start_nodes(Search* sr, const int32_t* start, int start_count, gtVec2 s)
{
	reset(sr);
	sr->parent_f = 0;
	add_start_nodes(sr, start, start_count, s);
	queue_from(sr, 0);
}

// Runs the search; the answer node's index in *best (-1: straight line, -2: unreachable).
static gtStatus search(gtPolyanya* p, gtVec2 s, gtVec2 t, double* distance, int32_t* best, gtError* err)
{
	const gtMesh* m = p->mesh;
	int32_t start[GT_MESH_MAX_AROUND_VERTEX];
	int start_count;
	*distance = INFINITY;
	*best = -2;
	p->expanded = 0;
	gtStatus st = check_point(m, s, "start", start, &start_count, err);
	if (!st) st = check_point(m, t, "target", p->goal_polygons, &p->goal_count, err);
	if (st) return st;
	if (++p->goal_generation == 0) {
		memset(p->goal_stamp, 0, ((size_t)m->polygon_count + 1) * sizeof *p->goal_stamp);
		p->goal_generation = 1;
	}
	for (int i = 0; i < p->goal_count; i++) p->goal_stamp[p->goal_polygons[i]] = p->goal_generation;
	for (int i = 0; i < start_count; i++)
		if (is_goal_polygon(p, start[i])) {
			*distance = dist(s, t);
			*best = -1;
			return GT_OK;
		}
	Search sr = {.p = p, .mode = TO_GOAL, .goal = t};
	start_nodes(&sr, start, start_count, s);
	while (p->heap_size > 0 && !sr.failed) {
		int32_t id = heap_pop(p);
		const Node* n = &p->nodes[id];
		if (n->root_vertex >= 0 && n->g > p->root_g[n->root_vertex] + EPS)
			continue; // a cheaper way to its root came later
		if (is_goal_polygon(p, n->polygon)) {
			*distance = n->f;
			*best = id;
			return GT_OK;
		}
		expand_queue(&sr, id);
	}
	if (sr.failed) return gt_fail(err, GT_ERR_NOMEM, "out of memory in a Polyanya search");
	return GT_OK;
}

gtStatus gtPolyanya_Distance(gtPolyanya* p, gtVec2 s, gtVec2 t, double* distance, gtError* err)
{
	int32_t best;
	return search(p, s, t, distance, &best, err);
}

gtStatus gtPolyanya_Path(gtPolyanya* p, gtVec2 s, gtVec2 t, gtVec2* points, int capacity, int* count, double* distance,
                         gtError* err)
{
	int32_t best;
	double d;
	*count = 0;
	gtStatus st = search(p, s, t, &d, &best, err);
	if (distance) *distance = d;
	if (st || best == -2) return st;
	// s, the chain of roots, the interval end the path bends at (if it does), t.
	gtVec2 bend = t;
	bool bends = false;
	int chain = -1;
	if (best >= 0) {
		const Node* n = &p->nodes[best];
		chain = n->root_chain;
		double straight = dist(n->root, t);
		if (fabs(n->f - n->g - straight) > 1e-9 * (1 + n->f)) { // the heuristic bent at an end
			bends = true;
			bend = fabs(dist(n->root, n->right) + dist(n->right, t) - (n->f - n->g)) <= 1e-9 * (1 + n->f) ? n->right
			                                                                                              : n->left;
		}
	}
	int roots = 0;
	for (int c = chain; c >= 0; c = p->roots[c].parent) roots++;
	*count = 2 + roots + (bends ? 1 : 0);
	if (*count > capacity)
		return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "path has %d points but the buffer holds %d", *count, capacity);
	points[0] = s;
	int i = roots;
	for (int c = chain; c >= 0; c = p->roots[c].parent) points[i--] = p->roots[c].at;
	if (bends) points[roots + 1] = bend;
	points[*count - 1] = t;
	return GT_OK;
}

static gtStatus nearest(gtPolyanya* p, const gtMeshObjects* objects, gtVec2 q, int k, gtMeshAcceptFcn* accept,
                        void* context, gtMeshGuideFcn* guide, void* guide_context, int32_t* ids, double* distances,
                        int capacity, int* count, gtError* err)
{
	*count = 0;
	if (!objects || objects->mesh != p->mesh)
		return gt_fail(err, GT_ERR_INVALID_ARG, "the objects are placed on another mesh");
	if (k < 0) return gt_fail(err, GT_ERR_INVALID_ARG, "k must be >= 0, got %d", k);
	if (capacity < k) return gt_fail(err, GT_ERR_BUFFER_TOO_SMALL, "k is %d, the buffers hold %d", k, capacity);
	int32_t start[GT_MESH_MAX_AROUND_VERTEX];
	int start_count;
	p->expanded = 0;
	gtStatus st = check_point(p->mesh, q, "query point", start, &start_count, err);
	if (st || k == 0) return st;
	if (p->reported_capacity < objects->capacity) {
		if (!GT_RESIZE(p->reported, objects->capacity))
			return gt_fail(err, GT_ERR_NOMEM, "out of memory in a Polyanya search");
		memset(p->reported + p->reported_capacity, 0,
		       (size_t)(objects->capacity - p->reported_capacity) * sizeof *p->reported);
		p->reported_capacity = objects->capacity;
	}
	Search sr = {.p = p,
	             .mode = guide ? GUIDED : INTERVAL,
	             .objects = objects,
	             .accept = accept,
	             .context = context,
	             .guide = guide,
	             .guide_context = guide_context};
	start_nodes(&sr, start, start_count, q);
	while (p->heap_size > 0 && !sr.failed) {
		int32_t id = heap_pop(p);
		const Node* n = &p->nodes[id];
		// Once k are found, only a node at exactly the k-th distance may still hold a tie.
		if (*count == k && n->f > distances[k - 1]) break;
		if (n->object >= 0) { // the first final node of an object popped carries its distance
			if (p->reported[n->object] == p->generation) continue;
			p->reported[n->object] = p->generation;
			// Ties by ascending id, the k-th place too (the library's rule): nodes pop by distance.
			if (*count == k && n->object > ids[k - 1]) continue;
			int at = *count < k ? (*count)++ : k - 1;
			for (; at > 0 && distances[at - 1] == n->f && ids[at - 1] > n->object; at--)
				ids[at] = ids[at - 1], distances[at] = distances[at - 1];
			ids[at] = n->object;
			distances[at] = n->f;
			continue;
		}
		if (n->root_vertex >= 0 && n->g > p->root_g[n->root_vertex] + EPS) continue;
		expand_queue(&sr, id);
	}
	if (sr.failed) return gt_fail(err, GT_ERR_NOMEM, "out of memory in a Polyanya search");
	return GT_OK;
}

gtStatus gtPolyanya_Nearest(gtPolyanya* p, const gtMeshObjects* objects, gtVec2 q, int k, gtMeshAcceptFcn* accept,
                            void* context, int32_t* ids, double* distances, int capacity, int* count, gtError* err)
{
	return nearest(p, objects, q, k, accept, context, NULL, NULL, ids, distances, capacity, count, err);
}

gtStatus gtPolyanya_NearestGuided(gtPolyanya* p, const gtMeshObjects* objects, gtVec2 q, int k, gtMeshAcceptFcn* accept,
                                  void* context, gtMeshGuideFcn* guide, void* guide_context, int32_t* ids,
                                  double* distances, int capacity, int* count, gtError* err)
{
	if (!guide) return gt_fail(err, GT_ERR_INVALID_ARG, "a guided search needs a guide");
	return nearest(p, objects, q, k, accept, context, guide, guide_context, ids, distances, capacity, count, err);
}

bool gtPolyanya_Returned(const gtPolyanya* p, int32_t id)
{
	return id >= 0 && id < p->reported_capacity && p->reported[id] == p->generation;
}

double gtMesh_IntervalBound(gtVec2 root, gtVec2 right, gtVec2 left, gtVec2 target)
{
	return heuristic(root, right, left, target);
}

gtStatus gt_polyanya_flood(gtPolyanya* p, const gtMeshObjects* objects, gtMeshAcceptFcn* accept, void* context,
                           MeshFloodVisit* visit, void* visit_context, gtError* err)
{
	const gtMesh* m = p->mesh;
	if (objects->mesh != m) return gt_fail(err, GT_ERR_INVALID_ARG, "the objects are placed on another mesh");
	Search sr = {.p = p, .mode = FLOOD};
	p->expanded = 0;
	reset(&sr);
	int32_t polygons[GT_MESH_MAX_AROUND_VERTEX];
	for (int32_t id = 0; id < objects->capacity && !sr.failed; id++) {
		if (objects->first[id] < 0 || (accept && !accept(context, id))) continue;
		gtVec2 at = objects->point[id];
		int count = gt_mesh_point_polygons(m, at, polygons, GT_MESH_MAX_AROUND_VERTEX);
		add_start_nodes(&sr, polygons, count, at);
		// The edges a source lies on get no node from it but are crossed from it all the same.
		for (int i = 0; i < count && !sr.failed; i++)
			for (int e = m->first[polygons[i]]; e < m->first[polygons[i] + 1]; e++) {
				gtVec2 a = m->ring_xy[e == m->first[polygons[i]] ? m->first[polygons[i] + 1] - 1 : e - 1],
				       b = m->ring_xy[e];
				if (m->across[e] >= 0 && on_segment(at, a, b) &&
				    visit(visit_context, at, at, at, 0, gt_mesh_edge_key(m, e)) < 0)
					sr.failed = true;
			}
	}
	queue_from(&sr, 0);
	while (p->heap_size > 0 && !sr.failed) {
		int32_t id = heap_pop(p);
		const Node* n = &p->nodes[id];
		if (n->root_vertex >= 0 && n->g > p->root_g[n->root_vertex] + EPS) continue;
		int32_t ring = m->first[n->polygon] + n->entry;
		int go_on = visit(visit_context, n->root, n->right, n->left, n->g, gt_mesh_edge_key(m, ring));
		if (go_on < 0) sr.failed = true;
		if (go_on <= 0) continue;
		int before = p->nodes_size;
		p->expanded++;
		sr.parent_f = n->f;
		expand(&sr, n);
		queue_from(&sr, before);
	}
	if (sr.failed) return gt_fail(err, GT_ERR_NOMEM, "out of memory in a Polyanya flood");
	return GT_OK;
}
