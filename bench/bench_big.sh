#!/usr/bin/env bash
# Big generated maps (issue 35, docs/big-maps.md): for each STYLE:SIDE:SEED, the map from
# `gridtree genmap`, its visibility graph (`info`, 1 and 2 threads), `ehl-build --budget MB` (build
# time, CPU time, peak memory by /usr/bin/time, index size), the query time over 2,000 random pairs
# (`scen`, best of 3) and every distance compared with Polyanya on the map's own mesh.
# Usage: bench/bench_big.sh [--budget MB] [STYLE:SIDE:SEED ...]
#        (default --budget 1024, caves:1024:35001 rooms:2048:35002; seeds no test uses)
source "$(dirname "$0")/common.sh"
BUDGET=1024
if [ "${1:-}" = --budget ]; then
	BUDGET=$2
	shift 2
fi
SPECS=("$@")
[ ${#SPECS[@]} -eq 0 ] && SPECS=(caves:1024:35001 rooms:2048:35002)
PAIRS=2000

# PAIRS random grid points of free cells (a free cell's top-left corner is a valid point) as a
# MovingAI scenario with no reference length, and the same pairs as `dist` input.
random_pairs() { # MAP SEED SCEN DIST
	awk -v seed="$2" -v pairs=$PAIRS -v scen="$3" -v dist="$4" '
		/^height/ { h = $2 } /^width/ { w = $2 }
		body { for (x = 0; x < w; x++) if (substr($0, x + 1, 1) == ".") { fx[n] = x; fy[n] = y; n++ } y++ }
		/^map/ { body = 1 }
		END {
			srand(seed); print "version 1" > scen
			for (i = 0; i < pairs; i++) {
				a = int(rand() * n); b = int(rand() * n)
				printf "0\tm.map\t%d\t%d\t%d\t%d\t%d\t%d\t1e9\n", w, h, fx[a], fy[a], fx[b], fy[b] > scen
				printf "%d %d %d %d\n", fx[a], fy[a], fx[b], fy[b] > dist
			}
		}' "$1"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
table_start "| map | corners | VG s (CPU, 1 / 2 threads) | VG edges | build s wall (CPU) | cell size (regions) | index MB | peak RSS MB | query us wall (CPU) | distances = Polyanya |"
for spec in "${SPECS[@]}"; do
	IFS=: read -r style side seed <<<"$spec"
	name=${style}_${side}_$seed
	map=$tmp/$name.map
	"$GT" genmap --style "$style" --width "$side" --height "$side" --seed "$seed" -o "$map" >"$tmp/gen"
	vg1=$(/usr/bin/time -f '%U %S' "$GT" info "$map" --threads 1 2>&1 >"$tmp/info1" | awk '{ print $1 + $2 }')
	vg2=$(/usr/bin/time -f '%U %S' "$GT" info "$map" --threads 2 2>&1 >"$tmp/info2" | awk '{ print $1 + $2 }')
	/usr/bin/time -v "$GT" ehl-build "$map" -o "$tmp/$name.ehl" --budget "$BUDGET" --threads 2 >"$tmp/build" 2>"$tmp/time"
	cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$tmp/time")
	rss=$(awk -F': ' '/Maximum resident/ { printf "%.0f", $2 / 1024 }' "$tmp/time")
	random_pairs "$map" "$seed" "$tmp/$name.scen" "$tmp/$name.pairs"
	"$GT" scen "$map" "$tmp/$name.scen" --ehl "$tmp/$name.ehl" --repeat 3 >"$tmp/scen"
	# CPU per query, whatever else the machine runs: 10 more passes, their extra user time.
	c1=$(/usr/bin/time -f '%U' "$GT" scen "$map" "$tmp/$name.scen" --ehl "$tmp/$name.ehl" 2>&1 >/dev/null)
	c11=$(/usr/bin/time -f '%U' "$GT" scen "$map" "$tmp/$name.scen" --ehl "$tmp/$name.ehl" --repeat 11 2>&1 >/dev/null)
	query_cpu=$(awk -v a="$c1" -v b="$c11" -v p=$PAIRS 'BEGIN { printf "%.1f", (b - a) * 1e6 / (10 * p) }')
	"$GT" dist "$map" --ehl "$tmp/$name.ehl" <"$tmp/$name.pairs" >"$tmp/ehl.out"
	"$GT" dist "$map" --method polyanya <"$tmp/$name.pairs" >"$tmp/poly.out"
	same=$(paste "$tmp/ehl.out" "$tmp/poly.out" | awk '
		{ n++; if ($1 == $2 || ($1 != "inf" && $2 != "inf" && ($1 - $2) ^ 2 <= 1e-12 * (1 + $2 * $2))) ok++ }
		END { printf "%d / %d", ok, n }')
	printf '| %s %sx%s seed %s | %s | %s / %s | %s | %.1f (%.1f) | %s | %.0f | %s | %.2f (%s) | %s |\n' "$style" "$side" "$side" \
		"$seed" "$(value convex_vertices "$tmp/info1")" "$vg1" "$vg2" "$(value vg_edges "$tmp/info1")" \
		"$(value build_seconds "$tmp/build")" "$cpu" "$(value cell_size "$tmp/build")$(grep -q '^regions ' "$tmp/build" && echo " ($(value regions "$tmp/build") regions)")" \
		"$(awk -v b="$(value index_bytes "$tmp/build")" 'BEGIN { print b / 1e6 }')" "$rss" "$(value mean_us "$tmp/scen")" "$query_cpu" "$same"
done
