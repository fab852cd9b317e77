#!/usr/bin/env bash
# The query sphere paper's figures (Brodu 2007, section 5), reproduced: gridtree bench-neighbours
# (figures 6 and 7: each method's time over the cube's across d and objects per cell, open and
# wrapping 16x16x16 worlds; figure 8: the nearest neighbour within d; the same ratios in 2D), drawn
# by gnuplot into docs/figures/neighbours-*.png beside what the paper publishes. The paper's plots
# carry no numbers; what it states is drawn as reference lines:
#   - section 2: the sphere visits the cells the query sphere touches where the cube visits its
#     bounding box, a share that falls towards 52% (the sphere's volume over the cube's) as d grows.
#     Drawn as the expected share for a query point anywhere in its cell (the cells within d of
#     the point: the unit cube grown by d, 1 + 6d + 3 pi d^2 + 4/3 pi d^3, over (1 + 2d)^3; in 2D
#     1 + 4d + pi d^2 over (1 + 2d)^2, tending to pi/4);
#   - section 6: "nearly 60% improvement" over the cube in one benchmark, drawn at 0.4;
#   - the cube itself (1);
#   - figure 8: the sphere's time stays flat in d once the neighbour is found, the cube's grows.
# Also Auto over the fastest method at every point, with the 1.2x line of issue 33.
# The numbers behind them go to docs/figures/data/neighbours-*.dat, the benchmark's own output to
# docs/figures/data/neighbours-bench.txt. NEIGHBOURS_BENCH=FILE draws a saved output again.
# Usage: bench/figures_neighbours.sh
source "$(dirname "$0")/common.sh"
command -v gnuplot >/dev/null || { echo "figures: gnuplot not found (./run figures installs gnuplot-nox)" >&2; exit 1; }
OUT=docs/figures
mkdir -p "$OUT/data"
if [ -n "${NEIGHBOURS_BENCH:-}" ]; then
	cp "$NEIGHBOURS_BENCH" "$tmp/bench.txt"
else
	echo "figures: gridtree bench-neighbours (a few minutes)" >&2
	"$GT" bench-neighbours >"$tmp/bench.txt"
fi
grep -q "^| 0.5 | 0.8 |" "$tmp/bench.txt" || { echo "figures: no figure tables in the benchmark's output" >&2; exit 1; }
if grep -q MISMATCH "$tmp/bench.txt"; then echo "figures: methods disagreed (MISMATCH in the output)" >&2; exit 1; fi
cp "$tmp/bench.txt" "$OUT/data/neighbours-bench.txt"

# Each table's rows, by the title line above it: ratio tables as "load d sphere nonempty brute
# auto picks auto/fastest cube_us", figure 8 as "d sphere cube nonempty brute auto picks auto/fastest".
awk -v out="$OUT/data" '
	/^Figure 6/ { f = "neighbours-open" } /^Figure 7/ { f = "neighbours-wrapping" } /^Figure 8/ { f = "neighbours-nearest" }
	/^2D: open/ { f = "neighbours-2d-open" } /^2D: wrapping/ { f = "neighbours-2d-wrapping" } /^A frame/ { f = "" }
	f != "" && /^\| [0-9]/ {
		gsub(/ *\| */, " "); sub(/^ /, ""); print > (out "/" f ".dat")
	}' "$tmp/bench.txt"
date=$(date -u +%Y-%m-%d)
ref="1 + 6*x + 3*pi*x**2 + 4.0/3*pi*x**3"
ref2d="1 + 4*x + pi*x**2"

# Figures 6 and 7 (and 2D): one panel per objects-per-cell, ratio over the cube against d, log y.
ratio_plot() { # data name, title, loads, layout, reference share (numerator), dims
	local name=$1 title=$2 loads=$3 layout=$4 share=$5 dims=$6 load
	{
		echo "set terminal pngcairo noenhanced size 1400,900 font ',10'"
		echo "set output '$OUT/$name.png'"
		echo "set multiplot layout $layout title '$title: time over the cube (gridtree bench-neighbours, $date; lines without points: the paper)'"
		echo "set logscale y; set grid; set key top right font ',9'; set xlabel 'query distance d (cells)'; set ylabel 'time / cube time'"
		echo "set yrange [0.3:300]"
		for load in $loads; do
			echo "set title '$load objects per cell'"
			echo "plot '$OUT/data/$name.dat' using (\$1 == $load ? \$2 : 1/0):3 with linespoints lw 2 pt 7 title 'sphere', \\"
			echo "  '' using (\$1 == $load ? \$2 : 1/0):4 with linespoints lw 2 pt 5 title 'nonempty', \\"
			echo "  '' using (\$1 == $load ? \$2 : 1/0):5 with linespoints lw 2 pt 9 title 'brute', \\"
			echo "  '' using (\$1 == $load ? \$2 : 1/0):6 with linespoints lw 2 pt 11 dt 2 title 'auto', \\"
			echo "  1 with lines lc rgb 'black' title 'cube', \\"
			echo "  [0.8:8] ($share) / (1 + 2*x)**$dims with lines lc rgb '#2060c0' dt 3 lw 2 title 'paper s2: cells of the sphere / of the cube', \\"
			echo "  0.4 with lines lc rgb '#c02020' dt 4 lw 2 title 'paper s6: best case, nearly 60% better'"
		done
		echo "unset multiplot"
	} >"$tmp/plot.gp"
	gnuplot "$tmp/plot.gp"
	echo "$OUT/$name.png"
}
ratio_plot neighbours-open "Figure 6, open 16x16x16 world" "0.5 1 2 4 8" "2,3" "$ref" 3
ratio_plot neighbours-wrapping "Figure 7, wrapping 16x16x16 world" "0.5 1 2 4 8" "2,3" "$ref" 3
ratio_plot neighbours-2d-open "2D, open 64x64 world" "1 4" "1,2" "$ref2d" 2
ratio_plot neighbours-2d-wrapping "2D, wrapping 64x64 world" "1 4" "1,2" "$ref2d" 2

# Figure 8: us per query against d (log y); the paper: the sphere flat, the cube growing.
{
	echo "set terminal pngcairo noenhanced size 1000,650 font ',10'"
	echo "set output '$OUT/neighbours-nearest.png'"
	echo "set title 'Figure 8: nearest neighbour within d, 1 object per cell, open 16x16x16 world (gridtree bench-neighbours, $date)'"
	echo "set logscale y; set grid; set key outside right top; set xlabel 'query distance d (cells)'; set ylabel 'us per query'"
	echo "set label 1 'paper: the sphere stays flat once the neighbour is found; the cube grows with d' at graph 0.02, graph 0.95 font ',9'"
	echo "plot '$OUT/data/neighbours-nearest.dat' using 1:2 with linespoints lw 2 pt 7 title 'sphere', \\"
	echo "  '' using 1:3 with linespoints lw 2 pt 5 title 'cube', '' using 1:4 with linespoints lw 2 pt 9 title 'nonempty', \\"
	echo "  '' using 1:5 with linespoints lw 2 pt 11 title 'brute', '' using 1:6 with linespoints lw 2 dt 2 pt 13 title 'auto'"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "$OUT/neighbours-nearest.png"

# Auto over the fastest method at every point of the figures above.
{
	echo "set terminal pngcairo noenhanced size 1200,500 font ',10'"
	echo "set output '$OUT/neighbours-auto.png'"
	echo "set title 'Auto over the fastest method at every point (gridtree bench-neighbours, $date); target: at most 1.2'"
	echo "set grid; set key outside right top; set ylabel 'auto time / fastest time'; set xlabel 'point (each figure in turn, d growing within each load)'"
	echo "set yrange [0.5:1.5]"
	echo "plot '$OUT/data/neighbours-open.dat' using 0:8 with points pt 7 title 'figure 6 (open)', \\"
	echo "  '$OUT/data/neighbours-wrapping.dat' using (\$0 + 30):8 with points pt 5 title 'figure 7 (wrapping)', \\"
	echo "  '$OUT/data/neighbours-nearest.dat' using (\$0 + 60):8 with points pt 9 title 'figure 8 (nearest)', \\"
	echo "  '$OUT/data/neighbours-2d-open.dat' using (\$0 + 68):8 with points pt 11 title '2D open', \\"
	echo "  '$OUT/data/neighbours-2d-wrapping.dat' using (\$0 + 74):8 with points pt 13 title '2D wrapping', \\"
	echo "  1.2 with lines lc rgb '#c02020' dt 2 lw 2 title '1.2'"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "$OUT/neighbours-auto.png"
awk '$8 > 1.2 { over++ } { n++ } END { printf "figures: auto within 1.2x of the fastest on %d of %d points\n", n - over, n }' \
	"$OUT"/data/neighbours-{open,wrapping,nearest,2d-open,2d-wrapping}.dat >&2
