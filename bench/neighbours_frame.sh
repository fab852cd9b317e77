#!/usr/bin/env bash
# The 10,000-agent neighbour frame (bench/neighbours_frame.c) in instructions, counted by callgrind
# over every thread: repeatable on a shared, noisy machine where times are not. Builds the driver
# against the release library (./run build first), then for 2D and 3D on 1 and 2 threads prints
# the instructions of one frame (moves and QueryAll: a run of 4 frames less a run of 1, over 3)
# and the answers' hash; then CPU ms per frame, median of 3 runs of 30 frames, 1 thread.
# Usage: bench/neighbours_frame.sh [LIBRARY.a]   (default bin/libgridtree_core.a)
source "$(dirname "$0")/common.sh"
lib=${1:-bin/libgridtree_core.a}
command -v valgrind >/dev/null || { echo "neighbours_frame: valgrind is not installed (./run installs it)" >&2; exit 1; }
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iplugin/include bench/neighbours_frame.c "$lib" -lm -lpthread -o "$tmp/frame"
count() { # dims frames threads
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$tmp/frame" "$@" >"$tmp/out" 2>"$tmp/err"
	sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/err" | tail -n 1
}
for dims in 2 3; do
	for threads in 1 2; do
		one=$(count "$dims" 1 "$threads") four=$(count "$dims" 4 "$threads")
		echo "dims $dims threads $threads instructions_per_frame $(((four - one) / 3)) $(sed 's/.*\(hash [0-9a-f]*\)/\1/' "$tmp/out")"
	done
	for run in 1 2 3; do "$tmp/frame" "$dims" 30 1 | awk '{ print $8 }'; done | sort -n | sed -n 2p |
		awk -v d="$dims" '{ print "dims " d " threads 1 cpu_ms_per_frame_median " $1 }'
done
