#!/usr/bin/env bash
# The Grid Tree beside its competitors in one run (gridtree bench-peers): on each map, an EHL index
# at g = 1 and the shared Polyanya mesh (else one made from the map); workloads with objects on
# 0.1% and 1% of the free cells, k = 5, 10 timestamps of 100 queries, no keyword filter and the
# paper's 2 query words. Every query is answered by every method in turn. Prints a markdown table.
# Usage: bench/bench_peers.sh [suite/map ...]   (default bgmaps/AR0602SR)
source "$(dirname "$0")/common.sh"
need_data bench-peers
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(bgmaps/AR0602SR)

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(date -u +%Y-%m-%d)"
echo
echo "| map | objects | query words | gt us | ier-ehl us (ratio) | ier-polyanya us (ratio) | interval us (ratio) | brute us (ratio) | updates us/timestamp: world, mesh | mismatches |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for spec in "${MAPS[@]}"; do
	map=$DATA/maps/$spec.map
	mesh=$DATA/meshes/$spec-merged.mesh
	[ -f "$mesh" ] || mesh=""
	"$GT" ehl-build "$map" -o "$tmp/index.ehl" --cell 1 --threads 2 >"$tmp/build" 2>/dev/null
	suite=${spec%%/*}
	for density in 0.001 0.01; do
		for words in 0 2; do
			"$GT" workload "$map" --keywords "$DATA/keywords/$suite.txt" --seed 1 --density $density --k 5 --timestamps 10 \
				--queries 100 --query-keywords $words --ehl "$tmp/index.ehl" -o "$tmp/wl" >/dev/null
			"$GT" bench-peers "$map" --ehl "$tmp/index.ehl" ${mesh:+--mesh "$mesh"} --workload "$tmp/wl" >"$tmp/out"
			bad=$(($(value ier-ehl_mismatches "$tmp/out") + $(value ier-polyanya_mismatches "$tmp/out") + $(value interval_mismatches "$tmp/out") + $(value brute_mismatches "$tmp/out")))
			printf '| %s | %s | %s | %.1f | %.1f (%.2f) | %.1f (%.2f) | %.1f (%.2f) | %.1f (%.2f) | %.0f, %.0f | %s |\n' "$spec" \
				"$(value objects "$tmp/out")" "$words" "$(value gt_query_us "$tmp/out")" \
				"$(value ier-ehl_query_us "$tmp/out")" "$(value ier-ehl_ratio "$tmp/out")" \
				"$(value ier-polyanya_query_us "$tmp/out")" "$(value ier-polyanya_ratio "$tmp/out")" \
				"$(value interval_query_us "$tmp/out")" "$(value interval_ratio "$tmp/out")" \
				"$(value brute_query_us "$tmp/out")" "$(value brute_ratio "$tmp/out")" \
				"$(value world_update_us_per_timestamp "$tmp/out")" "$(value mesh_update_us_per_timestamp "$tmp/out")" "$bad"
		done
	done
	echo
	echo "$spec: EHL g = 1 $(value index_bytes "$tmp/build") bytes, built in $(value build_seconds "$tmp/build") s; mesh $(value mesh_bytes "$tmp/out") bytes, loaded or made in $(value mesh_seconds "$tmp/out") s"
done
