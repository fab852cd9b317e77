#!/usr/bin/env bash
# The papers' figures, reproduced: gridtree bench-peers (every method on the same workload, in
# turn) swept over k, object density, query words, the Grid Tree's leaf size, EHL's cell size g and
# mobility, on one map per suite; gnuplot draws one panel per map and one line per method into
# docs/figures/*.png, and the numbers behind them go to docs/figures/data/.
# Defaults between sweeps: k 5, density 0.005 (objects per free cell), 1 query word, leaf 16,
# g 1 (sc1 maps: 4, their g = 1 index takes GBs), 70% of objects moving per timestamp;
# FIGURE_TIMESTAMPS (5) timestamps of FIGURE_QUERIES (50) queries per point.
# Usage: bench/figures.sh [suite/map ...]   (default bgmaps/AR0602SR dao/orz103d da2/ht_mansion2 sc1/IceFloes)
#        bench/figures.sh neighbours          only the query sphere figures (bench/figures_neighbours.sh)
#        bench/figures.sh ehl-curve [MAP...]  only EHL's memory/time curve (bench/figures_ehl_curve.sh)
# Without maps, the query sphere figures and EHL's memory/time curve are drawn too, after these.
if [ "${1:-}" = neighbours ]; then exec "$(dirname "$0")/figures_neighbours.sh"; fi
if [ "${1:-}" = ehl-curve ]; then
	shift
	exec "$(dirname "$0")/figures_ehl_curve.sh" "$@"
fi
neighbours_too=$#
source "$(dirname "$0")/common.sh"
need_data figures
command -v gnuplot >/dev/null || { echo "figures: gnuplot not found (./run figures installs gnuplot-nox)" >&2; exit 1; }
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(bgmaps/AR0602SR dao/orz103d da2/ht_mansion2 sc1/IceFloes)
METHODS=(gt ier-ehl ier-polyanya interval target fence brute)
QUERIES=${FIGURE_QUERIES:-50}
TIMESTAMPS=${FIGURE_TIMESTAMPS:-5}
OUT=docs/figures
mkdir -p "$OUT/data"
bad_total=0

# One point of a sweep: a workload with the given settings, bench-peers on it, one line appended to
# $OUT/data/<sweep>-<n>.dat: the swept value, each method's query us, then the update us per
# timestamp of the world, the IR-tree and the mesh lists and one fence labelling.
point() {
	local sweep=$1 x=$2 n=$3 map=$4 mesh=$5 ehl=$6 suite=$7 k=$8 density=$9 words=${10} leaf=${11} mobility=${12}
	local file=$OUT/data/$sweep-$n.dat m bad=0
	"$GT" workload "$map" --keywords "$DATA/keywords/$suite.txt" --seed 3 --density "$density" --k "$k" \
		--timestamps "$TIMESTAMPS" --queries "$QUERIES" --query-keywords "$words" --mobility "$mobility" -o "$tmp/wl" >/dev/null
	"$GT" bench-peers "$map" --ehl "$ehl" --mesh "$mesh" --workload "$tmp/wl" --leaf "$leaf" >"$tmp/out"
	for m in "${METHODS[@]:1}"; do bad=$((bad + $(value "${m}_mismatches" "$tmp/out"))); done
	[ "$bad" -eq 0 ] || { echo "figures: $sweep = $x on $map: $bad answers differ from the Grid Tree's" >&2; bad_total=$((bad_total + bad)); }
	{
		printf '%s' "$x"
		for m in "${METHODS[@]}"; do printf ' %s' "$(value "${m}_query_us" "$tmp/out")"; done
		printf ' %s %s %s %s\n' "$(value world_update_us_per_timestamp "$tmp/out")" "$(value irtree_update_us_per_timestamp "$tmp/out")" \
			"$(value mesh_update_us_per_timestamp "$tmp/out")" "$(value fence_label_us "$tmp/out")"
	} >>"$file"
}

start_sweep() { echo "$1 ${METHODS[*]} world-update irtree-update mesh-update fence-labelling" >"$OUT/data/$2-$3.dat"; }

n=0
for spec in "${MAPS[@]}"; do
	n=$((n + 1))
	map=$DATA/maps/$spec.map
	mesh=$DATA/meshes/$spec-merged.mesh
	suite=${spec%%/*}
	[ -f "$mesh" ] || { mesh=$tmp/built-$n.mesh; "$GT" mesh-build "$map" -o "$mesh" >/dev/null; }
	gs=(1 2 4 8)
	[ "$suite" = sc1 ] && gs=(4 8 16)
	for g in "${gs[@]}"; do "$GT" ehl-build "$map" -o "$tmp/g$g.ehl" --cell "$g" --threads 2 >/dev/null 2>&1; done
	base=$tmp/g${gs[0]}.ehl
	echo "$spec" >"$OUT/data/map-$n.txt"
	echo "figures: $spec (g ${gs[*]})" >&2
	start_sweep k k $n
	for k in 1 5 10 25; do point k $k $n "$map" "$mesh" "$base" "$suite" $k 0.005 1 16 0.7; done
	start_sweep density density $n
	for d in 0.001 0.002 0.005 0.01 0.02; do point density $d $n "$map" "$mesh" "$base" "$suite" 5 $d 1 16 0.7; done
	start_sweep words words $n
	for w in 0 1 2 3; do point words $w $n "$map" "$mesh" "$base" "$suite" 5 0.005 $w 16 0.7; done
	start_sweep leaf leaf $n
	for leaf in 4 8 16 32 64; do point leaf $leaf $n "$map" "$mesh" "$base" "$suite" 5 0.005 1 $leaf 0.7; done
	start_sweep g g $n
	for g in "${gs[@]}"; do point g $g $n "$map" "$mesh" "$tmp/g$g.ehl" "$suite" 5 0.005 1 16 0.7; done
	start_sweep mobility mobility $n
	for mob in 0.1 0.4 0.7 1.0; do point mobility $mob $n "$map" "$mesh" "$base" "$suite" 5 0.005 1 16 $mob; done
	rm -f "$tmp"/g*.ehl
done

# One PNG per sweep, a panel per map; query time on a log scale, one line per method.
plot() {
	local sweep=$1 label=$2 what=$3 first=$4 last=$5 ylabel=$6 i
	{
		echo "set terminal pngcairo noenhanced size 1200,900 font ',10'"
		echo "set output '$OUT/$what-vs-$sweep.png'"
		echo "set multiplot layout 2,2 title '$ylabel against $label (gridtree bench-peers, $(date -u +%Y-%m-%d))'"
		echo "set logscale y; set grid; set key outside right top; set key autotitle columnhead"
		echo "set xlabel '$label'; set ylabel '$ylabel'"
		[ "$sweep" = density ] && echo "set logscale x"
		for i in $(seq 1 $n); do
			echo "set title '$(cat "$OUT/data/map-$i.txt")'"
			echo "plot for [c=$first:$last] '$OUT/data/$sweep-$i.dat' using 1:c with linespoints lw 2"
		done
		echo "unset multiplot"
	} >"$tmp/plot.gp"
	gnuplot "$tmp/plot.gp"
	echo "$OUT/$what-vs-$sweep.png"
}
last_method=$((1 + ${#METHODS[@]}))
plot k "k" query 2 $last_method "query us"
plot density "objects per free cell" query 2 $last_method "query us"
plot words "query keywords" query 2 $last_method "query us"
plot leaf "Grid Tree leaf size" query 2 $last_method "query us"
plot g "EHL cell size g" query 2 $last_method "query us"
plot mobility "share of objects moving per timestamp" query 2 $last_method "query us"
plot mobility "share of objects moving per timestamp" update $((last_method + 1)) $((last_method + 4)) "update us per timestamp"
[ "$bad_total" -eq 0 ] || { echo "figures: $bad_total answers differed from the Grid Tree's" >&2; exit 1; }
# The neighbour index's figures need no map data: drawn when no maps were named.
[ "$neighbours_too" -ne 0 ] || bench/figures_neighbours.sh
[ "$neighbours_too" -ne 0 ] || bench/figures_ehl_curve.sh
