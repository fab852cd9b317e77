#!/usr/bin/env bash
# Crowd benchmark: every agent finds its k nearest enemies each frame (one keyword filter; enemies
# and as many allies, each 1% of the free cells), agents and objects moving every frame, EHL at
# g = 1. Each method's milliseconds per frame (EACH on one thread, BATCH, FIELD and AUTO on the
# workers) and AUTO's mismatches against EACH, every frame. Prints a markdown table.
# Usage: bench/bench_crowd.sh [suite/map ...]   (default bgmaps/AR0602SR)
source "$(dirname "$0")/common.sh"
need_data bench-crowd
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(bgmaps/AR0602SR)

table_start "| map | agents | k | threads | each ms | batch ms | field ms (building it) | auto ms | auto vs each | mismatches |"
for spec in "${MAPS[@]}"; do
	map=$DATA/maps/$spec.map
	"$GT" ehl-build "$map" -o "$tmp/index.ehl" --cell 1 --threads 2 >/dev/null 2>&1
	for agents in 1000 10000 50000; do
		for k in 1 3; do
			for threads in 1 2; do
				frames=$((agents > 10000 ? 3 : 10))
				"$GT" bench-crowd "$map" --ehl "$tmp/index.ehl" --agents "$agents" --k "$k" --threads "$threads" \
					--frames "$frames" >"$tmp/out"
				printf '| %s | %s | %s | %s | %.2f | %.2f | %.2f (%.2f) | %.2f | %.2fx | %s |\n' "$spec" "$agents" "$k" "$threads" \
					"$(value each_ms_per_frame "$tmp/out")" "$(value batch_ms_per_frame "$tmp/out")" \
					"$(value field_ms_per_frame "$tmp/out")" "$(value field_build_ms_per_frame "$tmp/out")" \
					"$(value auto_ms_per_frame "$tmp/out")" "$(value speedup_auto_vs_each "$tmp/out")" "$(value mismatches "$tmp/out")"
			done
		done
	done
done
