// The answer of one query, kept in the caller's buffer: appended while every point within the
// radius is wanted, a max-heap on (distance, id) once only the nearest fit; sorted at the end.
#include "neighbours/neighbours_internal.h"

static inline bool worse(const gtNeighbour* x, const gtNeighbour* y)
{
	return x->distance > y->distance || (x->distance == y->distance && x->id > y->id);
}

static void sift_down(gtNeighbour* h, int n, int i)
{
	gtNeighbour v = h[i];
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n) break;
		if (c + 1 < n && worse(&h[c + 1], &h[c])) c++;
		if (!worse(&h[c], &v)) break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
}

static void sift_up(gtNeighbour* h, int i)
{
	gtNeighbour v = h[i];
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!worse(&v, &h[p])) break;
		h[i] = h[p];
		i = p;
	}
	h[i] = v;
}

static void heapify(gtNeighbour* h, int n)
{
	for (int i = n / 2 - 1; i >= 0; i--) sift_down(h, n, i);
}

void nb_answer_begin(NbAnswer* a, const gtNeighbours* nb, const double* q, double radius, int k, gtNeighbourId exclude,
                     gtNeighbour* out, int capacity)
{
	*a = (NbAnswer){.exclude = exclude, .out = out, .want_all = k == 0};
	for (int i = 0; i < 3; i++) a->q[i] = q[i];
	nb_cell_of(nb, a->q, a->c);
	a->radius2 = radius == INFINITY ? INFINITY : radius * radius;
	a->limit2 = a->radius2;
	a->room = a->want_all || k > capacity ? capacity : k;
	a->heap = !a->want_all;
	a->k = k;
}

void nb_answer_push(NbAnswer* a, double d2, gtNeighbourId id)
{
	gtNeighbour e = {id, d2};
	if (a->want_all) {
		a->total++;
		if (a->n < a->room) {
			a->out[a->n++] = e;
			return;
		}
		if (a->room == 0) return;
		if (!a->heap) { // out is full: keep the nearest from now on
			heapify(a->out, a->n);
			a->heap = true;
		}
	} else {
		if (a->n < a->room) {
			a->out[a->n] = e;
			sift_up(a->out, a->n++);
			// k found: only nearer points (or as near with a smaller id) may enter now
			if (a->n == a->room && a->room == a->k) a->limit2 = a->out[0].distance;
			return;
		}
		if (a->room < a->k) a->overflow = true; // one more than the buffer holds qualifies
		if (a->room == 0) {
			a->limit2 = -1;
			return;
		}
	}
	if (worse(&e, &a->out[0])) return;
	a->out[0] = e;
	sift_down(a->out, a->n, 0);
	if (!a->want_all) a->limit2 = a->out[0].distance;
}

// Sorts the answer nearest first (when asked) and turns squared distances into distances.
void nb_answer_finish(NbAnswer* a, bool sort)
{
	if (!sort) {
		for (int i = 0; i < a->n; i++) a->out[i].distance = sqrt(a->out[i].distance);
		return;
	}
	if (!a->heap && a->n <= 32) { // a few neighbours: insertion sort beats the heap
		for (int i = 1; i < a->n; i++) {
			gtNeighbour v = a->out[i];
			int j = i;
			for (; j > 0 && worse(&a->out[j - 1], &v); j--) a->out[j] = a->out[j - 1];
			a->out[j] = v;
		}
		for (int i = 0; i < a->n; i++) a->out[i].distance = sqrt(a->out[i].distance);
		return;
	}
	if (!a->heap) heapify(a->out, a->n);
	for (int end = a->n - 1; end > 0; end--) {
		gtNeighbour top = a->out[0];
		a->out[0] = a->out[end];
		a->out[end] = top;
		sift_down(a->out, end, 0);
	}
	for (int i = 0; i < a->n; i++) a->out[i].distance = sqrt(a->out[i].distance);
}
