// SPDX-License-Identifier: GPL-2.0
/*
 * model-window: open or close a model-clock window from a shell script.
 *
 *   model-window start|end hackbench-process|hackbench-thread
 *
 * The bench guest brackets each measured hackbench run with it
 * (tests/vm/guest/bench/20-hackbench.sh), so that hackbench is priced in
 * model cycles like the workloads (workload.c, ids 0xf00-0xf02): windows
 * are global, every vCPU counts while one is open, so a marker executed
 * by this short-lived process opens a window for everything until the
 * matching end. Ids are compile-time constants (model-clock-marker.h):
 * one per name, 0xf03 and 0xf04. The window holds this helper's own exit
 * and the next one's exec as well as hackbench's start-up and exit, the
 * same few instructions in every configuration. A NOP without the plugin.
 */
#include <stdio.h>
#include <string.h>

#include "../../../model-clock/model-clock-marker.h"

int main(int argc, char **argv)
{
	int start, thread;

	if (argc != 3 || (strcmp(argv[1], "start") && strcmp(argv[1], "end")) ||
	    (strcmp(argv[2], "hackbench-process") && strcmp(argv[2], "hackbench-thread"))) {
		fprintf(stderr, "usage: model-window start|end hackbench-process|hackbench-thread\n");
		return 2;
	}
	start = !strcmp(argv[1], "start");
	thread = !strcmp(argv[2], "hackbench-thread");
	if (start && !thread)
		MODEL_CLOCK_START(0xf03);
	else if (start)
		MODEL_CLOCK_START(0xf04);
	else if (!thread)
		MODEL_CLOCK_END(0xf03);
	else
		MODEL_CLOCK_END(0xf04);
	return 0;
}
