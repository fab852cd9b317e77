// Fence labels (OkNN paper, Zhao, Taniar and Harabor, section 5): a flood out of every target at
// once leaves on each mesh edge the roots through which walks from the targets cross it. A node
// that reaches an edge no closer (g + distance to its interval) than some label already there can
// reach any point of the edge (g + its minmaxdist) is dominated and dropped, which keeps most
// edges to 2-3 labels. A k-nearest search then bounds the walk left from a node by the walk
// through its interval to a label's root plus that root's distance to its target.
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "mesh/mesh_internal.h"
#include "mesh/mesh_objects.h"
#include "mesh/polyanya_internal.h"

typedef struct FenceLabel {
	gtVec2 root;
	double g; // the root's walking distance to its nearest target
} FenceLabel;

typedef struct PendingLabel {
	FenceLabel label;
	int32_t next; // the edge's previous label, -1 = none
} PendingLabel;

struct gtMeshFence {
	const gtMesh* mesh;
	int ring_size;
	int32_t* edge_from; // per ring entry: the vertex its edge starts at (it ends at corner[entry])
	double* upper;      // per edge key: the least bound on the walk from it to a target, while computing
	int32_t* pending_head;
	PendingLabel* pending;
	int pending_count;
	int64_t pending_capacity;
	int32_t* label_first; // per edge key: its labels are [label_first[e], label_first[e + 1]) of `labels`
	FenceLabel* labels;
	int label_count;
};

static double dist(gtVec2 a, gtVec2 b)
{
	return sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
}

gtStatus gtMeshFence_Create(const gtMesh* mesh, gtMeshFence** out, gtError* err)
{
	*out = NULL;
	gtMeshFence* f = gt_calloc(1, sizeof *f);
	if (!f) return gt_fail(err, GT_ERR_NOMEM, "out of memory for fence labels");
	f->mesh = mesh;
	f->ring_size = mesh->first[mesh->polygon_count];
	size_t n = (size_t)f->ring_size + 1;
	f->edge_from = gt_malloc(n * sizeof *f->edge_from);
	f->upper = gt_malloc(n * sizeof *f->upper);
	f->pending_head = gt_malloc(n * sizeof *f->pending_head);
	f->label_first = gt_calloc(n + 1, sizeof *f->label_first);
	if (!f->edge_from || !f->upper || !f->pending_head || !f->label_first) {
		gtMeshFence_Destroy(f);
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for fence labels");
	}
	for (int p = 0; p < mesh->polygon_count; p++)
		for (int e = mesh->first[p]; e < mesh->first[p + 1]; e++)
			f->edge_from[e] = mesh->corner[e == mesh->first[p] ? mesh->first[p + 1] - 1 : e - 1];
	*out = f;
	return GT_OK;
}

void gtMeshFence_Destroy(gtMeshFence* f)
{
	if (!f) return;
	gt_free(f->edge_from), gt_free(f->upper), gt_free(f->pending_head), gt_free(f->pending);
	gt_free(f->label_first), gt_free(f->labels);
	gt_free(f);
}

// The flood's pruning and labelling (the paper's Algorithm 1, lines 9-15).
static int visit(void* context, gtVec2 root, gtVec2 right, gtVec2 left, double g, int32_t edge)
{
	gtMeshFence* f = context;
	if (g + gt_mesh_segment_distance(root, right, left) >= f->upper[edge]) return 0; // dominated by a label here
	const gtMesh* m = f->mesh;
	gtVec2 A = {m->x[f->edge_from[edge]], m->y[f->edge_from[edge]]}, B = {m->x[m->corner[edge]], m->y[m->corner[edge]]};
	gtVec2 a = right, b = left; // a: the interval's end nearer A
	if (dist(right, A) > dist(left, A)) a = left, b = right;
	// No point of the edge is further from the root than along the interval and then the edge.
	double through_a = dist(root, a) + dist(a, A), through_b = dist(root, b) + dist(b, B);
	double bound = g + (through_a > through_b ? through_a : through_b);
	if (bound < f->upper[edge]) f->upper[edge] = bound;
	int32_t last = f->pending_head[edge];
	if (last >= 0 && f->pending[last].label.g == g && f->pending[last].label.root.x == root.x &&
	    f->pending[last].label.root.y == root.y)
		return 1; // another interval of the same root: one label serves both
	if (!GT_GROW(f->pending, f->pending_capacity, f->pending_count + 1, 1024)) return -1;
	f->pending[f->pending_count] = (PendingLabel){{root, g}, last};
	f->pending_head[edge] = f->pending_count++;
	return 1;
}

gtStatus gtMeshFence_Compute(gtMeshFence* f, gtPolyanya* search, const gtMeshObjects* objects, gtMeshAcceptFcn* accept,
                             void* context, gtError* err)
{
	if (!objects || objects->mesh != f->mesh)
		return gt_fail(err, GT_ERR_INVALID_ARG, "the objects are placed on another mesh");
	for (int e = 0; e < f->ring_size; e++) f->upper[e] = INFINITY, f->pending_head[e] = -1;
	f->pending_count = 0;
	f->label_count = 0;
	memset(f->label_first, 0, ((size_t)f->ring_size + 2) * sizeof *f->label_first);
	gtStatus st = gt_polyanya_flood(search, objects, accept, context, visit, f, err);
	if (st) return st;
	// Each edge's labels side by side for the searches that read them.
	if (!GT_RESIZE(f->labels, (int64_t)f->pending_count + 1))
		return gt_fail(err, GT_ERR_NOMEM, "out of memory for fence labels");
	FenceLabel* labels = f->labels;
	int at = 0;
	for (int e = 0; e < f->ring_size; e++) {
		f->label_first[e] = at;
		for (int32_t i = f->pending_head[e]; i >= 0; i = f->pending[i].next) labels[at++] = f->pending[i].label;
	}
	f->label_first[f->ring_size] = at;
	f->label_count = at;
	return GT_OK;
}

int64_t gtMeshFence_Labels(const gtMeshFence* f)
{
	return f->label_count;
}

int64_t gtMeshFence_Bytes(const gtMeshFence* f)
{
	return (int64_t)sizeof *f +
	       ((int64_t)f->ring_size + 1) *
	           (int64_t)(sizeof *f->edge_from + sizeof *f->upper + sizeof *f->pending_head + sizeof *f->label_first) +
	       (int64_t)f->pending_capacity * (int64_t)sizeof *f->pending +
	       (int64_t)f->label_count * (int64_t)sizeof *f->labels;
}

double gtMeshFence_Guide(void* context, const gtPolyanya* search, gtVec2 root, gtVec2 right, gtVec2 left, int32_t edge)
{
	(void)search;
	const gtMeshFence* f = context;
	double best = INFINITY;
	for (int i = f->label_first[edge]; i < f->label_first[edge + 1]; i++) {
		double d = gtMesh_IntervalBound(root, right, left, f->labels[i].root) + f->labels[i].g;
		if (d < best) best = d;
	}
	return best;
}
