#!/usr/bin/env bash
# EHL benchmark: builds each map's index at g = 1, 4, 16, 64 and runs its MovingAI scenario file.
# Prints a markdown table. "1st pass": one timed pass over the scenario file in a fresh process
# (best of three processes: the machine is shared); "warm": the best of 20 passes in one process.
# Usage: bench/bench_ehl.sh [MAP_SPEC ...] with MAP_SPEC = suite/name (default: the list below).
source "$(dirname "$0")/common.sh"
need_data bench-ehl
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(dao/arena da2/ht_chantry bgmaps/AR0602SR sc1/SpaceAtoll)
SIZES=${EHL_SIZES:-"1 4 16 64"}

best_of_three() { # prints the smallest mean_us of three scenario runs
	local best="" i us
	for i in 1 2 3; do
		"$GT" scen "$@" >"$tmp/scen"
		[ "$(value over_octile "$tmp/scen")" = 0 ] && [ "$(value invalid "$tmp/scen")" = 0 ] || {
			echo "bench-ehl: scenario check failed: $*" >&2
			cat "$tmp/scen" >&2
			exit 1
		}
		us=$(value mean_us "$tmp/scen")
		if [ -z "$best" ] || awk -v a="$us" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$us; fi
	done
	echo "$best"
}

table_start "| map | vertices | g | index MB | build s | peak RSS MB | query us (1st pass) | query us (warm) | query+path us (1st pass) |"
for spec in "${MAPS[@]}"; do
	map=$DATA/maps/$spec.map
	scen=$DATA/scenarios/$spec.map.scen
	for g in $SIZES; do
		if ! "$GT" ehl-build "$map" -o "$tmp/index.ehl" --cell "$g" --threads 2 >"$tmp/build" 2>"$tmp/build.err"; then
			echo "| $spec | | $g | build failed: $(tail -n 1 "$tmp/build.err") | | | | | |"
			continue
		fi
		dist=$(best_of_three "$map" "$scen" --ehl "$tmp/index.ehl")
		warm=$(best_of_three "$map" "$scen" --ehl "$tmp/index.ehl" --repeat 20)
		path=$(best_of_three "$map" "$scen" --ehl "$tmp/index.ehl" --path 1)
		printf '| %s | %s | %s | %.2f | %.2f | %.0f | %.2f | %.2f | %.2f |\n' "$spec" "$(value convex_vertices "$tmp/build")" "$g" \
			"$(awk -v b="$(value index_bytes "$tmp/build")" 'BEGIN { print b / 1e6 }')" "$(value build_seconds "$tmp/build")" \
			"$(value peak_rss_mb "$tmp/build")" "$dist" "$warm" "$path"
	done
done
