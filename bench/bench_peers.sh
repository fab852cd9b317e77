#!/usr/bin/env bash
# The Grid Tree beside its competitors in one run (gridtree bench-peers): on each map, an EHL index
# at g = 1 and the shared Polyanya mesh (else one made from the map). Two sets of workloads:
#  - the Grid Tree paper's: objects on 0.1% and 1% of the free cells, k = 5, 10 timestamps of 100
#    queries (70% of objects move each timestamp), no keyword filter and the paper's 2 query words;
#  - the OkNN paper's: targets on 0.1% and 1% of the mesh's vertices, k = 1 and 5, 1,000 queries,
#    nothing moves, no keywords.
# Every query is answered by every method in turn. Prints markdown tables (query us, ratio to gt).
# Usage: bench/bench_peers.sh [suite/map ...]   (default bgmaps/AR0602SR)
source "$(dirname "$0")/common.sh"
need_data bench-peers
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(bgmaps/AR0602SR)
METHODS=(gt ier-ehl ier-polyanya interval target fence brute)

# The query time of every method (and its ratio to gt) as table cells, from bench-peers output $1.
method_cells() {
	local m
	for m in "${METHODS[@]}"; do
		if [ "$m" = gt ]; then printf ' %.1f |' "$(value gt_query_us "$1")"
		else printf ' %.1f (%.2f) |' "$(value "${m}_query_us" "$1")" "$(value "${m}_ratio" "$1")"; fi
	done
}
mismatches() {
	local m bad=0
	for m in "${METHODS[@]:1}"; do bad=$((bad + $(value "${m}_mismatches" "$1"))); done
	echo $bad
}
header() {
	printf '| map | %s |' "$1"
	for m in "${METHODS[@]}"; do printf ' %s us |' "$m"; done
	printf ' %s | mismatches |\n|---|---|' "$2"
	for m in "${METHODS[@]}"; do printf -- '---|'; done
	printf -- '---|---|\n'
}

machine_line
for spec in "${MAPS[@]}"; do
	map=$DATA/maps/$spec.map
	mesh=$DATA/meshes/$spec-merged.mesh
	if [ ! -f "$mesh" ]; then
		mesh=$tmp/built.mesh
		"$GT" mesh-build "$map" -o "$mesh" >/dev/null
	fi
	"$GT" ehl-build "$map" -o "$tmp/index.ehl" --cell 1 --threads 2 >"$tmp/build" 2>/dev/null
	suite=${spec%%/*}
	echo
	echo "Grid Tree paper workloads, $spec (ratio to gt in brackets; updates per timestamp: world, IR-tree, mesh lists; fence labels made again per query word set and timestamp):"
	echo
	header "objects | query words" "updates us: world, IR-tree, mesh; fence labels us"
	for density in 0.001 0.01; do
		for words in 0 2; do
			"$GT" workload "$map" --keywords "$DATA/keywords/$suite.txt" --seed 1 --density $density --k 5 --timestamps 10 \
				--queries 100 --query-keywords $words --ehl "$tmp/index.ehl" -o "$tmp/wl" >/dev/null
			"$GT" bench-peers "$map" --ehl "$tmp/index.ehl" --mesh "$mesh" --workload "$tmp/wl" >"$tmp/out"
			printf '| %s | %s | %s |' "$spec" "$(value objects "$tmp/out")" "$words"
			method_cells "$tmp/out"
			printf ' %.0f, %.0f, %.0f; %.0f | %s |\n' "$(value world_update_us_per_timestamp "$tmp/out")" \
				"$(value irtree_update_us_per_timestamp "$tmp/out")" "$(value mesh_update_us_per_timestamp "$tmp/out")" \
				"$(value fence_label_us "$tmp/out")" "$(mismatches "$tmp/out")"
		done
	done
	vertices=$(value mesh_vertices "$tmp/out")
	free=$("$GT" info "$map" | awk '$1 == "free_cells" { print $2 }')
	echo
	echo "OkNN paper workloads, $spec (targets as a share of the mesh's $vertices vertices; fence labels made once, before the queries):"
	echo
	header "targets | k" "fence labels us"
	for share in 0.001 0.01; do
		density=$(awk -v s=$share -v v="$vertices" -v f="$free" 'BEGIN { printf "%.9f", s * v / f }')
		for k in 1 5; do
			"$GT" workload "$map" --keywords "$DATA/keywords/$suite.txt" --seed 2 --density "$density" --k $k --timestamps 1 \
				--mobility 0 --queries 1000 --query-keywords 0 -o "$tmp/wl" >/dev/null
			"$GT" bench-peers "$map" --ehl "$tmp/index.ehl" --mesh "$mesh" --workload "$tmp/wl" >"$tmp/out"
			printf '| %s | %s (%s%%) | %s |' "$spec" "$(value objects "$tmp/out")" "$(awk -v s=$share 'BEGIN { print s * 100 }')" $k
			method_cells "$tmp/out"
			printf ' %.0f | %s |\n' "$(value fence_label_us "$tmp/out")" "$(mismatches "$tmp/out")"
		done
	done
	echo
	echo "$spec memory and preprocessing: EHL g = 1 $(value index_bytes "$tmp/build") bytes, built in $(value build_seconds "$tmp/build") s;" \
		"mesh $(value mesh_bytes "$tmp/out") bytes ($vertices vertices, $(value mesh_polygons "$tmp/out") polygons), loaded in $(value mesh_seconds "$tmp/out") s;" \
		"IR-tree $(value irtree_bytes "$tmp/out") bytes, mesh object lists $(value mesh_objects_bytes "$tmp/out") bytes," \
		"fence labels $(value fence_bytes "$tmp/out") bytes ($(value fence_labels "$tmp/out") labels) for the last workload"
done
