#!/usr/bin/env bash
# Map edit benchmark: on each map, an EHL index at g = 4, then `gridtree bench-edits` (4x4 walls
# built and 3-cell doors closed one at a time and taken away again, the same 5,000 queries timed
# before and after each; 2x2 walls demolished; the index rebuilt). Prints a markdown table.
# Usage: bench/bench_edits.sh [suite/map ...]   (default bgmaps/AR0602SR dao/orz103d)
source "$(dirname "$0")/common.sh"
need_data bench-edits
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(bgmaps/AR0602SR dao/orz103d)

table_start "| map | static query us | edit us (door) | after a wall: not crossing us (among crossing ones) | crossing us (queries) | kNN us static / after | after a removal us | rebuild ms |"
for spec in "${MAPS[@]}"; do
	map=$DATA/maps/$spec.map
	"$GT" ehl-build "$map" -o "$tmp/index.ehl" --cell 4 --threads 2 >/dev/null 2>&1
	"$GT" bench-edits "$map" --ehl "$tmp/index.ehl" --edits 20 --queries 5000 >"$tmp/out"
	printf '| %s | %.2f | %.0f (%.0f) | %.2f (%.2f) | %.0f (%s) | %.2f / %.2f | %.0f | %.0f |\n' "$spec" \
		"$(value query_us_static "$tmp/out")" "$(value edit_us "$tmp/out")" "$(value door_edit_us "$tmp/out")" \
		"$(value query_us_not_crossing "$tmp/out")" "$(value query_us_not_crossing_mixed "$tmp/out")" "$(value query_us_crossing "$tmp/out")" "$(value crossing_queries "$tmp/out")" \
		"$(value knn_us_static "$tmp/out")" "$(value knn_us_after_block "$tmp/out")" "$(value query_us_after_free "$tmp/out")" \
		"$(value rebuild_ms "$tmp/out")"
done
