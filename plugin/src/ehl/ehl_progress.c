// The opt-in build progress display (gtProgressPrinter, gt_ehl.h), shared by the CLI, the demo and
// any tool: a bar on a terminal, plain "progress STAGE N%" lines in logs.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gridtree/gt_ehl.h"

gtProgressPrinter gtProgressPrinter_Make(FILE* out)
{
	gtProgressPrinter p;
	memset(&p, 0, sizeof p);
	p.out = out;
	p.terminal = out && isatty(fileno(out)) != 0;
	p.shown = -1;
	return p;
}

static void show(gtProgressPrinter* p, int percent)
{
	if (p->terminal) {
		int filled = percent * 30 / 100;
		fprintf(p->out, "\r%-17s [%.*s%*s] %3d%%", p->stage, filled, "##############################", 30 - filled, "",
		        percent);
	} else {
		fprintf(p->out, "progress %s %d%%\n", p->stage, percent);
	}
	p->shown = percent;
	fflush(p->out);
}

void gtProgressPrinter_Report(void* printer, const char* stage, double fraction)
{
	gtProgressPrinter* p = printer;
	if (!p || !p->out || !stage) return;
	// Clamped, so a callback fed nonsense still prints a sane bar.
	int percent = fraction >= 0 ? (fraction <= 1 ? (int)(fraction * 100.0 + 0.5) : 100) : 0;
	if (strncmp(p->stage, stage, sizeof p->stage - 1) != 0) {
		// A new stage starts only when the previous one is done: show that before moving on.
		if (p->stage[0] && p->shown < 100) show(p, 100);
		if (p->terminal && p->stage[0]) fputc('\n', p->out);
		snprintf(p->stage, sizeof p->stage, "%s", stage);
		p->shown = -1;
	}
	if (p->terminal ? percent == p->shown : p->shown >= 0 && percent / 10 == p->shown / 10) return; // a line every 10%
	show(p, percent);
}

void gtProgressPrinter_Finish(gtProgressPrinter* p)
{
	if (!p || !p->out) return;
	if (p->terminal && p->stage[0]) {
		fputc('\n', p->out);
		fflush(p->out);
	}
	p->stage[0] = '\0';
	p->shown = -1;
}
