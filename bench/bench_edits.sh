#!/usr/bin/env bash
# Map edit benchmark: on each map, an EHL index at g = 4, then `gridtree bench-edits` (4x4 walls
# built and 3-cell doors closed one at a time and taken away again, the same 5,000 queries timed
# before and after each; 2x2 walls demolished; the index rebuilt; each kind of edit timed until
# the index is exact again; declared doors closed) and `gridtree bench-living` (5,000 agents, 5
# edits a second, 20 s of game time). Prints two markdown tables.
# Usage: bench/bench_edits.sh [suite/map ...]   (default bgmaps/AR0602SR dao/orz103d)
source "$(dirname "$0")/common.sh"
need_data bench-edits
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(bgmaps/AR0602SR dao/orz103d)

table_start "| map | static query us | edit us (door) | after a wall: not crossing us (among crossing ones) | crossing us (queries) | kNN us static / after | after a removal us | rebuild ms |"
for spec in "${MAPS[@]}"; do
	name=${spec//\//_}
	map=$DATA/maps/$spec.map
	"$GT" ehl-build "$map" -o "$tmp/$name.ehl" --cell 4 --threads 2 >/dev/null 2>&1
	"$GT" bench-edits "$map" --ehl "$tmp/$name.ehl" --edits 20 --queries 5000 >"$tmp/$name.edits"
	out=$tmp/$name.edits
	printf '| %s | %.2f | %.0f (%.0f) | %.2f (%.2f) | %.0f (%s) | %.2f / %.2f | %.0f | %.0f |\n' "$spec" \
		"$(value query_us_static "$out")" "$(value edit_us "$out")" "$(value door_edit_us "$out")" \
		"$(value query_us_not_crossing "$out")" "$(value query_us_not_crossing_mixed "$out")" "$(value query_us_crossing "$out")" "$(value crossing_queries "$out")" \
		"$(value knn_us_static "$out")" "$(value knn_us_after_block "$out")" "$(value query_us_after_free "$out")" \
		"$(value rebuild_ms "$out")"
done
echo
echo "| map | rebuild ms | repair ms (wall / door / demolished) | query us static / after repair | door crossing us (queries) | living: frame ms p50 / p99 | edits | repairs | checks (mismatches) |"
echo "|---|---|---|---|---|---|---|---|---|"
for spec in "${MAPS[@]}"; do
	name=${spec//\//_}
	out=$tmp/$name.edits
	"$GT" bench-living "$DATA/maps/$spec.map" --ehl "$tmp/$name.ehl" --agents 5000 --edits-per-second 5 --seconds 20 \
		>"$tmp/$name.living" || true # mismatches fail the command: the table shows them
	living=$tmp/$name.living
	printf '| %s | %.0f | %.0f (%.0f / %.0f / %.0f) | %.2f / %.2f | %.0f (%s) | %.1f / %.1f | %s | %s | %s (%s) |\n' "$spec" \
		"$(value rebuild_ms "$out")" "$(value repair_ms "$out")" "$(value repair_ms_block "$out")" \
		"$(value repair_ms_door "$out")" "$(value repair_ms_free "$out")" "$(value query_us_static "$out")" \
		"$(value query_us_after_repair "$out")" "$(value door_crossing_us "$out")" "$(value door_crossing_queries "$out")" \
		"$(value frame_ms_p50 "$living")" "$(value frame_ms_p99 "$living")" "$(value edits "$living")" \
		"$(value repairs "$living")" "$(value exact_checks "$living")" "$(value mismatches "$living")"
done
