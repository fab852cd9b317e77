// The trace recorder (a gtTraceFcn writing into caller-owned storage) and its drawing.
#include <string.h>

#include "debug/debug_draw_internal.h"

gtDebugTrace gtDebugTrace_Make(gtDebugTraceEntry* storage, int capacity)
{
	gtDebugTrace t = {storage, storage && capacity > 0 ? capacity : 0, 0, 0};
	return t;
}

void gtDebugTrace_Clear(gtDebugTrace* trace)
{
	if (!trace) return;
	trace->count = 0;
	trace->dropped = 0;
}

void gtDebugTrace_Attach(gtDebugTrace* trace, gtQuery* query)
{
	if (!query) return;
	gtDebugTrace_Clear(trace);
	query->trace = trace ? gtDebugTrace_Record : NULL;
	query->trace_context = trace;
}

void gtDebugTrace_Record(void* context, gtTraceEvent event, int level, const double rect[4])
{
	gtDebugTrace* t = context;
	if (!t || !rect) return;
	if (t->count >= t->capacity || !t->entries) { // full: counted, so the caller can size up
		t->dropped++;
		return;
	}
	gtDebugTraceEntry* e = &t->entries[t->count++];
	memcpy(e->rect, rect, sizeof e->rect);
	e->level = level;
	e->event = event;
}

int64_t gtDebugDraw_Trace(const gtDebugDraw* draw, const gtDebugTrace* trace, int height)
{
	if (!draw || !trace || (trace->count > 0 && !trace->entries)) return -1;
	if (height <= 0)
		for (int i = 0; i < trace->count; i++)
			if (trace->entries[i].level > height) height = trace->entries[i].level;
	int64_t drawn = 0;
	for (int i = 0; i < trace->count; i++) {
		const gtDebugTraceEntry* e = &trace->entries[i];
		if (e->event == GT_TRACE_POPPED) {
			if (e->level == 0) continue; // the root covers the whole map
			// Leaves filled, the nodes above them outlined: nested fills would stack into one wash
			// that hides the map under them.
			bool leaf = e->level >= height;
			gt_debug_rect(draw, e->rect, leaf, gt_debug_alpha(GT_DEBUG_COLOR_TRACE_POPPED, leaf ? 60 : 150));
		} else if (e->event == GT_TRACE_PRUNED_KEYWORDS) {
			gt_debug_rect(draw, e->rect, false, GT_DEBUG_COLOR_TRACE_KEYWORDS);
		} else if (e->event == GT_TRACE_PRUNED_DISTANCE) {
			gt_debug_rect(draw, e->rect, false, GT_DEBUG_COLOR_TRACE_DISTANCE);
		} else {
			continue; // an event this version does not know
		}
		drawn++;
	}
	return drawn;
}
