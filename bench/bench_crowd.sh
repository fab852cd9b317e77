#!/usr/bin/env bash
# Crowd benchmark: every agent finds its k nearest enemies each frame (one keyword filter; enemies
# and as many allies, each 1% of the free cells), agents and objects moving every frame, EHL at
# g = CELL (default 1). Each method's milliseconds per frame, wall and CPU (EACH on one thread,
# BATCH, FIELD and AUTO on the workers), AUTO against the best other method, and the mismatches
# of every method against EACH (ids and distances), every frame. Prints a markdown table.
# Usage: [CELL=g] [AGENTS="1000 10000 50000"] bench/bench_crowd.sh [suite/map ...]   (default bgmaps/AR0602SR)
source "$(dirname "$0")/common.sh"
need_data bench-crowd
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(bgmaps/AR0602SR)
CELL=${CELL:-1}

table_start "| map (g) | agents | k | threads | each ms | batch ms (cpu) | field ms (building it) | auto ms (cpu) | auto vs best | mismatches |"
for spec in "${MAPS[@]}"; do
	map=$DATA/maps/$spec.map
	"$GT" ehl-build "$map" -o "$tmp/index.ehl" --cell "$CELL" --threads 2 >/dev/null 2>&1
	for agents in ${AGENTS:-1000 10000 50000}; do
		for k in 1 3; do
			for threads in 1 2; do
				frames=$((agents > 10000 ? 3 : 10))
				"$GT" bench-crowd "$map" --ehl "$tmp/index.ehl" --agents "$agents" --k "$k" --threads "$threads" \
					--frames "$frames" >"$tmp/out"
				printf '| %s (%s) | %s | %s | %s | %.2f | %.2f (%.2f) | %.2f (%.2f) | %.2f (%.2f) | %.2fx | %s |\n' "$spec" "$CELL" \
					"$agents" "$k" "$threads" "$(value each_ms_per_frame "$tmp/out")" "$(value batch_ms_per_frame "$tmp/out")" \
					"$(value batch_cpu_ms_per_frame "$tmp/out")" "$(value field_ms_per_frame "$tmp/out")" \
					"$(value field_build_ms_per_frame "$tmp/out")" "$(value auto_ms_per_frame "$tmp/out")" \
					"$(value auto_cpu_ms_per_frame "$tmp/out")" "$(value auto_vs_best "$tmp/out")" "$(value mismatches "$tmp/out")"
			done
		done
	done
done
