// The IR-tree (see irtree.h).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "irtree.h"

enum { MAX_ENTRIES = 29, MIN_ENTRIES = 11, MAX_ID = 100000000 };

typedef struct Box {
	double lo_x, lo_y, hi_x, hi_y;
} Box;

typedef struct Entry {
	Box box;
	int32_t child; // a node, or at a leaf an object id
} Entry;

typedef struct WordCount {
	int32_t word, count;
} WordCount;

typedef struct Node {
	int32_t parent; // -1: the root
	int16_t level;  // 0: a leaf
	int16_t count;
	Entry entries[MAX_ENTRIES + 1]; // one more while it splits
	WordCount* words;               // sorted by word: objects below with it
	int word_count, word_capacity;
} Node;

typedef struct Object {
	gtVec2 p;
	int32_t leaf; // -1: not in the tree
	int32_t* words;
	int word_count;
} Object;

typedef struct HeapItem {
	double key;
	int32_t ref;
	bool object;
} HeapItem;

struct IrTree {
	Node* nodes;
	int node_count, node_capacity;
	int32_t root;
	Object* objects;
	int object_capacity, count;
	HeapItem* heap; // the running search's
	int heap_size, heap_capacity;
	gtVec2 q;
	const int32_t* words;
	int word_count;
};

static const Box EMPTY = {INFINITY, INFINITY, -INFINITY, -INFINITY};

static Box unite(Box a, Box b)
{
	return (Box){fmin(a.lo_x, b.lo_x), fmin(a.lo_y, b.lo_y), fmax(a.hi_x, b.hi_x), fmax(a.hi_y, b.hi_y)};
}

static double area(Box b)
{
	return b.lo_x > b.hi_x ? 0 : (b.hi_x - b.lo_x) * (b.hi_y - b.lo_y);
}

static double margin(Box b)
{
	return b.lo_x > b.hi_x ? 0 : (b.hi_x - b.lo_x) + (b.hi_y - b.lo_y);
}

static double overlap(Box a, Box b)
{
	double w = fmin(a.hi_x, b.hi_x) - fmax(a.lo_x, b.lo_x), h = fmin(a.hi_y, b.hi_y) - fmax(a.lo_y, b.lo_y);
	return w > 0 && h > 0 ? w * h : 0;
}

static double mindist(gtVec2 q, Box b)
{
	double dx = fmax(fmax(b.lo_x - q.x, 0), q.x - b.hi_x), dy = fmax(fmax(b.lo_y - q.y, 0), q.y - b.hi_y);
	return sqrt(dx * dx + dy * dy);
}

static Box node_box(const Node* n)
{
	Box b = EMPTY;
	for (int i = 0; i < n->count; i++) b = unite(b, n->entries[i].box);
	return b;
}

IrTree* irtree_create(void)
{
	IrTree* t = calloc(1, sizeof *t);
	if (t) t->root = -1;
	return t;
}

void irtree_destroy(IrTree* t)
{
	if (!t) return;
	for (int i = 0; i < t->node_count; i++) free(t->nodes[i].words);
	for (int i = 0; i < t->object_capacity; i++) free(t->objects[i].words);
	free(t->nodes), free(t->objects), free(t->heap);
	free(t);
}

int irtree_count(const IrTree* t)
{
	return t->count;
}

gtVec2 irtree_point(const IrTree* t, int32_t id)
{
	return t->objects[id].p;
}

int64_t irtree_bytes(const IrTree* t)
{
	int64_t bytes = (int64_t)sizeof *t + (int64_t)t->node_capacity * (int64_t)sizeof *t->nodes +
	                (int64_t)t->object_capacity * (int64_t)sizeof *t->objects;
	for (int i = 0; i < t->node_count; i++) bytes += (int64_t)t->nodes[i].word_capacity * (int64_t)sizeof(WordCount);
	for (int i = 0; i < t->object_capacity; i++) bytes += (int64_t)t->objects[i].word_count * (int64_t)sizeof(int32_t);
	return bytes;
}

static int32_t new_node(IrTree* t, int level)
{
	if (t->node_count == t->node_capacity) {
		int grown = t->node_capacity ? 2 * t->node_capacity : 64;
		Node* more = realloc(t->nodes, (size_t)grown * sizeof *more);
		if (!more) return -1;
		t->nodes = more;
		t->node_capacity = grown;
	}
	Node* n = &t->nodes[t->node_count];
	memset(n, 0, sizeof *n);
	n->parent = -1;
	n->level = (int16_t)level;
	return t->node_count++;
}

// Adds delta objects with `word` below node n (its sorted counts; a count reaching 0 goes).
static bool count_word(Node* n, int32_t word, int delta)
{
	int lo = 0, hi = n->word_count;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (n->words[mid].word < word) lo = mid + 1;
		else hi = mid;
	}
	if (lo < n->word_count && n->words[lo].word == word) {
		n->words[lo].count += delta;
		if (n->words[lo].count == 0) {
			memmove(n->words + lo, n->words + lo + 1, (size_t)(n->word_count - lo - 1) * sizeof *n->words);
			n->word_count--;
		}
		return true;
	}
	if (n->word_count == n->word_capacity) {
		int grown = n->word_capacity ? 2 * n->word_capacity : 8;
		WordCount* more = realloc(n->words, (size_t)grown * sizeof *more);
		if (!more) return false;
		n->words = more;
		n->word_capacity = grown;
	}
	memmove(n->words + lo + 1, n->words + lo, (size_t)(n->word_count - lo) * sizeof *n->words);
	n->words[lo] = (WordCount){word, delta};
	n->word_count++;
	return true;
}

static bool node_has_words(const Node* n, const int32_t* words, int word_count)
{
	for (int w = 0; w < word_count; w++) {
		int lo = 0, hi = n->word_count;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (n->words[mid].word < words[w]) lo = mid + 1;
			else hi = mid;
		}
		if (lo == n->word_count || n->words[lo].word != words[w]) return false;
	}
	return true;
}

static bool object_has_words(const Object* o, const int32_t* words, int word_count)
{
	for (int w = 0; w < word_count; w++) {
		bool found = false;
		for (int i = 0; i < o->word_count && !found; i++) found = o->words[i] == words[w];
		if (!found) return false;
	}
	return true;
}

// Node n's counts made again from its entries (after a split).
static bool recount(IrTree* t, int32_t index)
{
	Node* n = &t->nodes[index];
	n->word_count = 0;
	for (int i = 0; i < n->count; i++) {
		int32_t c = n->entries[i].child;
		if (n->level == 0) {
			const Object* o = &t->objects[c];
			for (int w = 0; w < o->word_count; w++)
				if (!count_word(n, o->words[w], 1)) return false;
		} else
			for (int w = 0; w < t->nodes[c].word_count; w++)
				if (!count_word(n, t->nodes[c].words[w].word, t->nodes[c].words[w].count)) return false;
	}
	return true;
}

static int entry_of(const Node* parent, int32_t child)
{
	for (int i = 0; i < parent->count; i++)
		if (parent->entries[i].child == child) return i;
	return -1;
}

static void adopt(IrTree* t, int32_t index)
{
	Node* n = &t->nodes[index];
	for (int i = 0; i < n->count; i++) {
		if (n->level == 0) t->objects[n->entries[i].child].leaf = index;
		else t->nodes[n->entries[i].child].parent = index;
	}
}

static int order(double x, double y)
{
	return (x > y) - (x < y);
}
// The split's four sort orders, by each side of the entries' boxes.
static int by_lo_x(const void* a, const void* b)
{
	return order(((const Entry*)a)->box.lo_x, ((const Entry*)b)->box.lo_x);
}
static int by_hi_x(const void* a, const void* b)
{
	return order(((const Entry*)a)->box.hi_x, ((const Entry*)b)->box.hi_x);
}
static int by_lo_y(const void* a, const void* b)
{
	return order(((const Entry*)a)->box.lo_y, ((const Entry*)b)->box.lo_y);
}
static int by_hi_y(const void* a, const void* b)
{
	return order(((const Entry*)a)->box.hi_y, ((const Entry*)b)->box.hi_y);
}

// The boxes of entries [0, k) and [k, n).
static void group_boxes(const Entry* e, int n, int k, Box* first, Box* second)
{
	*first = *second = EMPTY;
	for (int i = 0; i < n; i++) {
		if (i < k) *first = unite(*first, e[i].box);
		else *second = unite(*second, e[i].box);
	}
}

// Splits an overfull node the R*-tree way, and its parent in turn when that overflows.
static bool split(IrTree* t, int32_t index)
{
	int n = MAX_ENTRIES + 1;
	int (*const orders[2][2])(const void*, const void*) = {{by_lo_x, by_hi_x}, {by_lo_y, by_hi_y}};
	Entry sorted[MAX_ENTRIES + 1];
	int axis = 0;
	double least_margin = INFINITY;
	for (int a = 0; a < 2; a++) {
		double sum = 0;
		for (int o = 0; o < 2; o++) {
			memcpy(sorted, t->nodes[index].entries, sizeof sorted);
			qsort(sorted, (size_t)n, sizeof *sorted, orders[a][o]);
			for (int k = MIN_ENTRIES; k <= n - MIN_ENTRIES; k++) {
				Box b1, b2;
				group_boxes(sorted, n, k, &b1, &b2);
				sum += margin(b1) + margin(b2);
			}
		}
		if (sum < least_margin) least_margin = sum, axis = a;
	}
	int best_order = 0, best_k = MIN_ENTRIES;
	double best_overlap = INFINITY, best_area = INFINITY;
	for (int o = 0; o < 2; o++) {
		memcpy(sorted, t->nodes[index].entries, sizeof sorted);
		qsort(sorted, (size_t)n, sizeof *sorted, orders[axis][o]);
		for (int k = MIN_ENTRIES; k <= n - MIN_ENTRIES; k++) {
			Box b1, b2;
			group_boxes(sorted, n, k, &b1, &b2);
			double ov = overlap(b1, b2), ar = area(b1) + area(b2);
			if (ov < best_overlap || (ov == best_overlap && ar < best_area))
				best_overlap = ov, best_area = ar, best_order = o, best_k = k;
		}
	}
	memcpy(sorted, t->nodes[index].entries, sizeof sorted);
	qsort(sorted, (size_t)n, sizeof *sorted, orders[axis][best_order]);
	int32_t sibling = new_node(t, t->nodes[index].level); // may move the node array
	if (sibling < 0) return false;
	Node* a = &t->nodes[index];
	Node* b = &t->nodes[sibling];
	memcpy(a->entries, sorted, (size_t)best_k * sizeof *sorted);
	a->count = (int16_t)best_k;
	memcpy(b->entries, sorted + best_k, (size_t)(n - best_k) * sizeof *sorted);
	b->count = (int16_t)(n - best_k);
	adopt(t, index);
	adopt(t, sibling);
	if (!recount(t, index) || !recount(t, sibling)) return false;
	int32_t parent = t->nodes[index].parent;
	if (parent < 0) { // a new root above the two
		int32_t root = new_node(t, t->nodes[index].level + 1);
		if (root < 0) return false;
		Node* r = &t->nodes[root];
		r->entries[0] = (Entry){node_box(&t->nodes[index]), index};
		r->entries[1] = (Entry){node_box(&t->nodes[sibling]), sibling};
		r->count = 2;
		adopt(t, root);
		t->root = root;
		return recount(t, root);
	}
	Node* p = &t->nodes[parent];
	p->entries[entry_of(p, index)].box = node_box(&t->nodes[index]);
	p->entries[p->count++] = (Entry){node_box(&t->nodes[sibling]), sibling};
	t->nodes[sibling].parent = parent;
	return p->count <= MAX_ENTRIES || split(t, parent); // the parent's counts cover both halves already
}

static bool place(IrTree* t, int32_t id)
{
	const Object* o = &t->objects[id];
	Box box = {o->p.x, o->p.y, o->p.x, o->p.y};
	if (t->root < 0 && (t->root = new_node(t, 0)) < 0) return false;
	int32_t at = t->root;
	while (t->nodes[at].level > 0) { // least area enlargement, then least area
		const Node* n = &t->nodes[at];
		int best = 0;
		double best_growth = INFINITY, best_area = INFINITY;
		for (int i = 0; i < n->count; i++) {
			double a = area(n->entries[i].box), growth = area(unite(n->entries[i].box, box)) - a;
			if (growth < best_growth || (growth == best_growth && a < best_area))
				best = i, best_growth = growth, best_area = a;
		}
		at = n->entries[best].child;
	}
	Node* leaf = &t->nodes[at];
	leaf->entries[leaf->count++] = (Entry){box, id};
	t->objects[id].leaf = at;
	for (int32_t n = at; n >= 0; n = t->nodes[n].parent) {
		for (int w = 0; w < o->word_count; w++)
			if (!count_word(&t->nodes[n], o->words[w], 1)) return false;
		int32_t parent = t->nodes[n].parent;
		if (parent >= 0) {
			Entry* e = &t->nodes[parent].entries[entry_of(&t->nodes[parent], n)];
			e->box = unite(e->box, box);
		}
	}
	t->count++;
	return t->nodes[at].count <= MAX_ENTRIES || split(t, at);
}

// Takes object id out of its leaf: boxes tightened and counts lowered up to the root; an
// under-full node stays as it is.
static void unplace(IrTree* t, int32_t id)
{
	Object* o = &t->objects[id];
	int32_t at = o->leaf;
	Node* leaf = &t->nodes[at];
	int slot = entry_of(leaf, id);
	leaf->entries[slot] = leaf->entries[--leaf->count];
	o->leaf = -1;
	for (int32_t n = at; n >= 0; n = t->nodes[n].parent) {
		for (int w = 0; w < o->word_count; w++) count_word(&t->nodes[n], o->words[w], -1); // lowering never allocates
		int32_t parent = t->nodes[n].parent;
		if (parent >= 0) t->nodes[parent].entries[entry_of(&t->nodes[parent], n)].box = node_box(&t->nodes[n]);
	}
	t->count--;
}

bool irtree_insert(IrTree* t, int32_t id, gtVec2 p, const int32_t* words, int word_count)
{
	if (id < 0 || id > MAX_ID || !isfinite(p.x) || !isfinite(p.y)) return false;
	if (id >= t->object_capacity) {
		int grown = t->object_capacity ? t->object_capacity : 256;
		while (grown <= id) grown *= 2;
		Object* more = realloc(t->objects, (size_t)grown * sizeof *more);
		if (!more) return false;
		for (int i = t->object_capacity; i < grown; i++) more[i] = (Object){{0, 0}, -1, NULL, 0};
		t->objects = more;
		t->object_capacity = grown;
	}
	Object* o = &t->objects[id];
	if (o->leaf >= 0) return false;
	free(o->words);
	o->words = word_count ? malloc((size_t)word_count * sizeof *o->words) : NULL;
	if (word_count && !o->words) return false;
	if (word_count) memcpy(o->words, words, (size_t)word_count * sizeof *words);
	o->word_count = word_count;
	o->p = p;
	return place(t, id);
}

bool irtree_remove(IrTree* t, int32_t id)
{
	if (id < 0 || id >= t->object_capacity || t->objects[id].leaf < 0) return false;
	unplace(t, id);
	return true;
}

bool irtree_move(IrTree* t, int32_t id, gtVec2 p)
{
	if (id < 0 || id >= t->object_capacity || t->objects[id].leaf < 0 || !isfinite(p.x) || !isfinite(p.y)) return false;
	unplace(t, id);
	t->objects[id].p = p;
	return place(t, id);
}

static bool before(const HeapItem* a, const HeapItem* b)
{
	return a->key < b->key;
}

static bool heap_push(IrTree* t, HeapItem item)
{
	if (t->heap_size == t->heap_capacity) {
		int grown = t->heap_capacity ? 2 * t->heap_capacity : 256;
		HeapItem* more = realloc(t->heap, (size_t)grown * sizeof *more);
		if (!more) return false;
		t->heap = more;
		t->heap_capacity = grown;
	}
	int i = t->heap_size++;
	while (i > 0 && before(&item, &t->heap[(i - 1) / 2])) {
		t->heap[i] = t->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	t->heap[i] = item;
	return true;
}

static HeapItem heap_pop(IrTree* t)
{
	HeapItem top = t->heap[0], last = t->heap[--t->heap_size];
	int i = 0, n = t->heap_size;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n) break;
		if (c + 1 < n && before(&t->heap[c + 1], &t->heap[c])) c++;
		if (!before(&t->heap[c], &last)) break;
		t->heap[i] = t->heap[c];
		i = c;
	}
	if (n > 0) t->heap[i] = last;
	return top;
}

void irtree_begin(IrTree* t, gtVec2 q, const int32_t* words, int word_count)
{
	t->heap_size = 0;
	t->q = q, t->words = words, t->word_count = word_count;
	if (t->root >= 0 && t->nodes[t->root].count > 0 && node_has_words(&t->nodes[t->root], words, word_count))
		heap_push(t, (HeapItem){0, t->root, false});
}

bool irtree_next(IrTree* t, int32_t* id, double* distance)
{
	while (t->heap_size > 0) {
		HeapItem top = heap_pop(t);
		if (top.object) {
			*id = top.ref;
			*distance = top.key;
			return true;
		}
		const Node* n = &t->nodes[top.ref];
		for (int i = 0; i < n->count; i++) {
			int32_t c = n->entries[i].child;
			HeapItem item = {0, c, n->level == 0};
			if (n->level == 0) {
				if (!object_has_words(&t->objects[c], t->words, t->word_count)) continue;
				gtVec2 p = t->objects[c].p;
				item.key = sqrt((p.x - t->q.x) * (p.x - t->q.x) + (p.y - t->q.y) * (p.y - t->q.y));
			} else {
				if (t->nodes[c].count == 0 || !node_has_words(&t->nodes[c], t->words, t->word_count)) continue;
				item.key = mindist(t->q, n->entries[i].box);
			}
			if (!heap_push(t, item)) return false;
		}
	}
	return false;
}

double irtree_least(IrTree* t, const int32_t* words, int word_count, IrBoxBound* box_bound, IrValue* value,
                    void* context)
{
	double best = INFINITY;
	t->heap_size = 0;
	if (t->root < 0 || t->nodes[t->root].count == 0 || !node_has_words(&t->nodes[t->root], words, word_count))
		return best;
	heap_push(t, (HeapItem){0, t->root, false});
	while (t->heap_size > 0) {
		HeapItem top = heap_pop(t);
		if (top.key >= best) break;
		const Node* n = &t->nodes[top.ref];
		for (int i = 0; i < n->count; i++) {
			int32_t c = n->entries[i].child;
			const Box* b = &n->entries[i].box;
			if (n->level == 0) {
				if (!object_has_words(&t->objects[c], words, word_count)) continue;
				double v = value(context, c, t->objects[c].p);
				if (v < best) best = v;
			} else if (t->nodes[c].count > 0 && node_has_words(&t->nodes[c], words, word_count)) {
				double key = box_bound(context, (gtVec2){b->lo_x, b->lo_y}, (gtVec2){b->hi_x, b->hi_y});
				if (key < best && !heap_push(t, (HeapItem){key, c, false})) return 0; // out of memory: a bound still
			}
		}
	}
	return best;
}
