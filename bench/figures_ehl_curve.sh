#!/usr/bin/env bash
# EHL's memory/time curve (issue 35): uniform cell sizes g against region indexes built with
# --budget set to each uniform index's size, on a map per suite. Per index: its MB, build seconds
# (wall) and peak RSS (both as ehl-build reports them, one thread), instructions per query
# (callgrind, inside gtEhl_Distance only, over the map's whole .scen; repeatable on a busy machine)
# and us per query (scen --repeat 3: noisy, for scale). Prints a markdown table per map, writes
# docs/figures/data/ehl-curve-N.dat and plots docs/figures/ehl-curve.png.
# Usage: bench/figures_ehl_curve.sh [suite/map ...]   (default bgmaps/AR0602SR sc1/IceFloes)
# sc1 maps start at g = 2 (their g = 1 index takes GBs and minutes).
source "$(dirname "$0")/common.sh"
need_data figures
command -v gnuplot >/dev/null || { echo "figures: gnuplot not found (./run figures installs gnuplot-nox)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "figures: valgrind not found (./run installs it)" >&2; exit 1; }
MAPS=("$@")
[ ${#MAPS[@]} -eq 0 ] && MAPS=(bgmaps/AR0602SR sc1/IceFloes)
OUT=docs/figures
mkdir -p "$OUT/data"

# Instructions per query of index $2 on map $1's scenario $3.
instructions() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --toggle-collect=gtEhl_Distance \
		"$GT" scen "$1" "$3" --ehl "$2" --threads 1 >"$tmp/scen" 2>"$tmp/err"
	local collected queries
	collected=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/err" | tail -n 1)
	queries=$(value queries "$tmp/scen")
	echo $((collected / queries))
}

# One index: build it with the given options, print "MB build_s peak_MB regions fine_g instr us".
measure() {
	local map=$1 scen=$2
	shift 2
	"$GT" ehl-build "$map" -o "$tmp/x.ehl" --threads 1 "$@" >"$tmp/build" 2>/dev/null
	local mb us
	mb=$(awk '$1 == "index_bytes" { printf "%.2f", $2 / 1e6 }' "$tmp/build")
	us=$("$GT" scen "$map" "$scen" --ehl "$tmp/x.ehl" --threads 1 --repeat 3 | awk '$1 == "mean_us" { print $2 }')
	local regions
	regions=$(value regions "$tmp/build")
	echo "$mb $(value build_seconds "$tmp/build") $(value peak_rss_mb "$tmp/build") ${regions:-0} \
$(value cell_size "$tmp/build") $(instructions "$map" "$tmp/x.ehl" "$scen") $us"
}

machine_line
n=0
for spec in "${MAPS[@]}"; do
	n=$((n + 1))
	map=$DATA/maps/$spec.map
	scen=$DATA/scenarios/$spec.map.scen
	gs=(1 2 4 8 16 32)
	[ "${spec%%/*}" = sc1 ] && gs=(2 4 8 16 32)
	echo "$spec" >"$OUT/data/map-curve-$n.txt"
	file=$OUT/data/ehl-curve-$n.dat
	echo "kind g index_mb build_s peak_mb regions fine_g instructions us" >"$file"
	echo
	echo "$spec ($(($(wc -l <"$scen") - 1)) scenario queries)"
	echo
	echo "| index | MB | build s | peak MB | regions (fine g) | instructions / query | us / query |"
	echo "|---|---|---|---|---|---|---|"
	for g in "${gs[@]}"; do
		read -r mb s peak _ _ instr us <<<"$(measure "$map" "$scen" --cell "$g")"
		echo "uniform $g $mb $s $peak 0 $g $instr $us" >>"$file"
		echo "| uniform g = $g | $mb | $s | $peak | | $instr | $us |"
		read -r rmb rs rpeak regions fine rinstr rus <<<"$(measure "$map" "$scen" --budget "$mb")"
		echo "regions $g $rmb $rs $rpeak $regions $fine $rinstr $rus" >>"$file"
		echo "| regions in g = $g's MB | $rmb | $rs | $rpeak | $regions ($fine) | $rinstr ($(awk -v a="$rinstr" -v b="$instr" 'BEGIN { printf "%+.0f%%", 100 * (a / b - 1) }')) | $rus |"
	done
done

# Instructions per query against index MB (log-log), uniform and regions, a panel per map.
{
	echo "set terminal pngcairo noenhanced size 1200,500 font ',10'"
	echo "set output '$OUT/ehl-curve.png'"
	echo "set multiplot layout 1,$n title 'EHL memory against query work: uniform cells and regions at the same memory ($(date -u +%Y-%m-%d))'"
	echo "set logscale xy; set grid; set key top right"
	echo "set xlabel 'index MB'; set ylabel 'instructions per query (callgrind)'"
	for i in $(seq 1 $n); do
		awk '$1 == "uniform"' "$OUT/data/ehl-curve-$i.dat" >"$tmp/uniform-$i"
		awk '$1 == "regions"' "$OUT/data/ehl-curve-$i.dat" >"$tmp/regions-$i"
		echo "set title '$(cat "$OUT/data/map-curve-$i.txt")'"
		echo "plot '$tmp/uniform-$i' using 3:8 with linespoints lw 2 title 'uniform g', \\"
		echo "     '' using 3:8:(sprintf('g%d', \$2)) with labels offset 1,1 notitle, \\"
		echo "     '$tmp/regions-$i' using 3:8 with linespoints lw 2 title 'regions (--budget at that MB)'"
	done
	echo "unset multiplot"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo
echo "$OUT/ehl-curve.png"
