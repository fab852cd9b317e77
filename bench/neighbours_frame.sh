#!/usr/bin/env bash
# The 10,000-agent neighbour frame (bench/neighbours_frame.c): builds the driver against the
# release library (./run build first), then for 2D and 3D prints
#  - instructions (callgrind, every thread; repeatable on a shared, noisy machine where times are
#    not): one frame of the driver (moves, QueryAll, the driver's own hash of the answers: a run
#    of 4 frames less a run of 1, over 3) on 1 and 2 threads, and on 1 thread the frame's parts:
#    QueryAll alone, and of it the parallel part (run_cells: each worker's share), the rest serial;
#  - CPU ms per frame (the process's CPU time over the moves and the call, all threads): median of
#    5 runs of 100 frames, on 1 and 2 threads;
#  - wall ms per frame on 2 threads: median and best of 500 frames (moves and call), and of the
#    call alone, with the load average beside it;
#  - an estimate for 2 idle workers: the 1-thread CPU median split by the instruction shares,
#    the serial part (moves, the copy by cell) whole and the parallel part halved.
# Usage: bench/neighbours_frame.sh [LIBRARY.a]   (default bin/libgridtree_core.a)
source "$(dirname "$0")/common.sh"
lib=${1:-bin/libgridtree_core.a}
command -v valgrind >/dev/null || { echo "neighbours_frame: valgrind is not installed (./run installs it)" >&2; exit 1; }
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iplugin/include bench/neighbours_frame.c "$lib" -lm -lpthread -o "$tmp/frame"
count() { # dims frames threads [function to count alone]
	valgrind --tool=callgrind ${4:+--toggle-collect=$4} --callgrind-out-file="$tmp/cg" "$tmp/frame" "$1" "$2" "$3" \
		>"$tmp/out" 2>"$tmp/err"
	sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/err" | tail -n 1
}
median_cpu() { # dims threads
	for run in 1 2 3 4 5; do "$tmp/frame" "$1" 100 "$2" | awk '{ print $8 }'; done | sort -n | sed -n 3p
}
for dims in 2 3; do
	for threads in 1 2; do
		one=$(count "$dims" 1 "$threads") four=$(count "$dims" 4 "$threads")
		echo "dims $dims threads $threads instructions_per_frame $(((four - one) / 3)) $(sed 's/.*\(hash [0-9a-f]*\).*/\1/' "$tmp/out")"
	done
	q1=$(count "$dims" 1 1 gtNeighbours_QueryAll) q4=$(count "$dims" 4 1 gtNeighbours_QueryAll)
	p1=$(count "$dims" 1 1 run_cells) p4=$(count "$dims" 4 1 run_cells)
	m1=$(count "$dims" 1 1 gtNeighbours_Move) m4=$(count "$dims" 4 1 gtNeighbours_Move)
	query=$(((q4 - q1) / 3)) parallel=$(((p4 - p1) / 3)) moves=$(((m4 - m1) / 3))
	echo "dims $dims threads 1 query_all_instructions $query parallel $parallel serial $((query - parallel)) moves $moves"
	cpu1=$(median_cpu "$dims" 1) cpu2=$(median_cpu "$dims" 2)
	echo "dims $dims cpu_ms_per_frame_median threads 1 $cpu1 threads 2 $cpu2"
	"$tmp/frame" "$dims" 500 2 | awk -v load="$(cut -d' ' -f1 /proc/loadavg)" \
		'{ print "dims " $2 " threads 2 frames 500 wall_ms_median " $14 " wall_ms_best " $16 " call_ms_median " $18 " call_ms_best " $20 " load " load }'
	awk -v cpu="$cpu1" -v q="$query" -v p="$parallel" -v m="$moves" -v d="$dims" 'BEGIN {
		serial = (q - p + m) / (q + m)
		printf "dims %d estimate_ms_2_idle_workers %.2f (1-thread CPU %.3f ms: serial share %.0f%% whole, parallel share halved)\n",
			d, cpu * serial + cpu * (1 - serial) / 2, cpu, 100 * serial }'
done
