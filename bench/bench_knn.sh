#!/usr/bin/env bash
# Grid Tree benchmark: one map per suite, EHL at g = 1 (as in the paper), the paper's default
# workload (density 1%, mobility 70%, k = 3, 2 query keywords, 50 timestamps x 100 queries), leaf
# sizes 4, 16, 64. Every answer of the first 500 queries is checked against a linear scan; the
# instructions per query are callgrind's count (bench/instructions.sh), the times the best of three.
# Prints a markdown table. Usage: bench/bench_knn.sh [suite/map ...]
source "$(dirname "$0")/common.sh"
need_data bench-knn
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(dao/arena da2/ht_chantry bgmaps/AR0602SR sc1/Sandstorm)

table_start "| map | objects | leaf | query us | instructions / query | update us / timestamp | distance calls / query | nodes / query | straight-line kNN us: sphere / tree / scan | mismatches / checked |"
for spec in "${MAPS[@]}"; do
	suite=${spec%%/*}
	map=$DATA/maps/$spec.map
	"$GT" ehl-build "$map" -o "$tmp/index.ehl" --cell 1 --threads 2 >/dev/null 2>&1
	"$GT" workload "$map" --keywords "$DATA/keywords/$suite.txt" --seed 1 --ehl "$tmp/index.ehl" -o "$tmp/workload" >/dev/null
	for leaf in 4 16 64; do
		: >"$tmp/runs"
		for run in 1 2 3; do # the machine is shared: each timing is the best of three runs
			"$GT" bench-knn "$map" --ehl "$tmp/index.ehl" --workload "$tmp/workload" --leaf "$leaf" --check 500 >>"$tmp/runs"
		done
		awk '{ if (!($1 in best) || $2 + 0 < best[$1] + 0) best[$1] = $2 } END { for (k in best) print k, best[k] }' "$tmp/runs" >"$tmp/best"
		instructions=$(bench/instructions.sh "$map" "$tmp/index.ehl" "$tmp/workload" "$leaf" | awk '{ print $2 }')
		# Every run's checked answers, path and straight-line, summed over the three runs.
		checked=$(awk '$1 == "checked" { n += $2 } END { print n + 0 }' "$tmp/runs")
		mismatches=$(awk '$1 == "mismatches" || $1 == "euclid_mismatches" { n += $2 } END { print n + 0 }' "$tmp/runs")
		printf '| %s | %s | %s | %.2f | %s | %.1f | %.2f | %.1f | %.2f / %.2f / %.2f | %s / %s |\n' "$spec" "$(value objects "$tmp/best")" "$leaf" \
			"$(value query_us "$tmp/best")" "$instructions" "$(value update_us_per_timestamp "$tmp/best")" \
			"$(value distance_calls_per_query "$tmp/best")" "$(value nodes_per_query "$tmp/best")" \
			"$(value euclid_sphere_us "$tmp/best")" "$(value euclid_tree_us "$tmp/best")" "$(value euclid_scan_us "$tmp/best")" \
			"$mismatches" "$checked"
	done
done
