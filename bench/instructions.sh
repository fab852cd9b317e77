#!/usr/bin/env bash
# Instructions per timed kNN query of a workload, counted by callgrind: repeatable on a shared,
# noisy machine where times are not. Only the workload's path queries are counted (bench-knn sends
# them, and nothing else, through wl_path_query). Usage:
#   bench/instructions.sh MAP INDEX WORKLOAD_DIR [LEAF]   prints "instructions_per_query N"
source "$(dirname "$0")/common.sh"
if [ $# -lt 3 ]; then
	echo "usage: bench/instructions.sh MAP INDEX WORKLOAD_DIR [LEAF]" >&2
	exit 2
fi
if ! command -v valgrind >/dev/null; then
	echo "instructions: valgrind is not installed (./run installs it)" >&2
	exit 1
fi
valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind" --toggle-collect=wl_path_query \
	"$GT" bench-knn "$1" --ehl "$2" --workload "$3" --leaf "${4:-16}" --check 0 >"$tmp/out" 2>"$tmp/err"
collected=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/err" | tail -n 1)
queries=$(value queries "$tmp/out")
if [ -z "$collected" ] || [ -z "$queries" ] || [ "$queries" -eq 0 ]; then
	echo "instructions: callgrind gave no count" >&2
	cat "$tmp/err" >&2
	exit 1
fi
echo "instructions_per_query $((collected / queries))"
