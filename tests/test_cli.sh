#!/usr/bin/env bash
# Command-line behaviour of bin/gridtree (run against the sanitizer build by run_all.sh).
# Prints "cli: N passed, N failed" as its last line.
set -u
GT=${1:-bin/debug/gridtree}
source "$(dirname "$0")/checks.sh"

cat >"$tmp/block.map" <<'MAP'
type octile
height 4
width 6
map
......
..@@..
..@@..
......
MAP

info_has() { "$GT" info "$tmp/block.map" | grep -q -x -F "$1"; }
check "info width" info_has "width 6"
check "info height" info_has "height 4"
check "info free cells" info_has "free_cells 20"
check "info convex vertices" info_has "convex_vertices 4"
check "info pinch points" info_has "pinch_points 0"
check "info vg edges" info_has "vg_edges 4"
# docs/cli.md: info prints exactly these keys in this order; the fingerprint is 64 bits in hex.
info_keys() {
	"$GT" info "$tmp/block.map" >"$tmp/info" &&
		[ "$(awk '{ print $1 }' "$tmp/info" | paste -sd ' ')" = "width height free_cells convex_vertices pinch_points vg_edges vg_build_seconds fingerprint" ] &&
		grep -q -x -E 'vg_build_seconds [0-9]+\.[0-9]+' "$tmp/info" && grep -q -x -E 'fingerprint [0-9a-f]{16}' "$tmp/info"
}
check "info keys in order" info_keys
info_threads() { [ "$("$GT" info "$tmp/block.map" --threads 1 | grep -v seconds)" = "$("$GT" info "$tmp/block.map" | grep -v seconds)" ]; }
check "info --threads 1 agrees with all cores" info_threads
check "--threads above GT_MAX_THREADS is a usage error" usage_error "--threads must be an integer from 0 to 256" "$GT" info "$tmp/block.map" --threads 257
check "no command is a usage error" usage_error "usage: gridtree COMMAND" "$GT"

dist_is() { # input line, expected output line
	[ "$(printf '%s\n' "$1" | "$GT" dist "$tmp/block.map")" = "$2" ]
}
check "dist around the block" dist_is "0 2 6 2" "6.472135955"
check "dist straight" dist_is "0 0 6 0" "6.000000000"
check "dist doubles" dist_is "0.5 0.5 0.5 3.5" "3.000000000"
check "dist point in a wall" dist_is "2.5 1.5 0 0" "invalid"
check "dist off the map" dist_is "-1 0 0 0" "invalid"
check "dist nan" dist_is "nan 0 0 0" "invalid"
check "dist method oracle" bash -c "echo '0 0 6 0' | '$GT' dist '$tmp/block.map' --method oracle | grep -qx 6.000000000"
three_lines() { [ "$(printf '0 0 1 1\n\n2 1 4 1\n0 0 0 4\n' | "$GT" dist "$tmp/block.map" | wc -l)" -eq 3 ]; }
check "dist skips blank lines" three_lines
path_is() { [ "$(printf '%s\n' "$1" | "$GT" path "$tmp/block.map")" = "$2" ]; }
check "path around the block" path_is "0 2 6 2" "0.000000000 2.000000000 2.000000000 1.000000000 4.000000000 1.000000000 6.000000000 2.000000000"
check "path invalid" path_is "3 1.5 0 0" "invalid"

cat >"$tmp/split.map" <<'MAP'
type octile
height 2
width 3
map
.@.
.@.
MAP
unreachable() { [ "$(echo '0 0 3 2' | "$GT" dist "$tmp/split.map")" = inf ] && [ "$(echo '0 0 3 2' | "$GT" path "$tmp/split.map")" = unreachable ]; }
check "unreachable" unreachable

check "malformed query line" failure "stdin:2: expected four numbers" bash -c "printf '0 0 1 1\n0 0 1\n' | '$GT' dist '$tmp/block.map'"
check "trailing garbage" failure "stdin:1:" bash -c "echo '0 0 1 1 x' | '$GT' path '$tmp/block.map'"
check "unknown method" usage_error "unknown --method 'astar'" "$GT" dist "$tmp/block.map" --method astar
check "unknown method is a usage error" usage_error "unknown --method 'bogus'" "$GT" dist "$tmp/block.map" --method bogus
check "knn leaf 0 is a usage error" usage_error "--leaf" "$GT" knn "$tmp/block.map" --leaf 0 --objects "$tmp/none" --queries "$tmp/none"
check "ehl method needs a file" usage_error "--method ehl needs --ehl FILE" "$GT" dist "$tmp/block.map" --method ehl
check "unknown option" usage_error "unknown option '--bogus'" "$GT" info "$tmp/block.map" --bogus 1
check "unknown command" usage_error "unknown command 'frobnicate'" "$GT" frobnicate
check "missing map file" failure "$tmp/none.map: cannot open" "$GT" info "$tmp/none.map"

printf 'type octile\nheight 3\nwidth 4\nmap\n....\n..\n....\n' >"$tmp/short.map"
check "short row" failure "short.map:6: row 1 has 2 characters, expected 4" "$GT" info "$tmp/short.map"
printf 'type octile\nwidth 4\nmap\n....\n' >"$tmp/nohead.map"
check "missing height" failure "nohead.map:3: header has no 'height' line" "$GT" info "$tmp/nohead.map"
printf 'type octile\nheight 4\nwidth 1\nmap\n.\n.\n' >"$tmp/fewrows.map"
check "missing rows" failure "fewrows.map:7: file ends after 2 of 4 rows" "$GT" info "$tmp/fewrows.map"
printf 'type octile\nheight 3\nwidth 4\nmap\n....\n....\n' >"$tmp/fewbytes.map"
check "too few bytes" failure "fewbytes.map:5: header says 4x3 but only 10 bytes of rows follow" "$GT" info "$tmp/fewbytes.map"
printf 'type octile\nheight 40000\nwidth 40000\nmap\n' >"$tmp/huge.map"
check "absurd size" failure "huge.map:3: 40000x40000 map has more than" "$GT" info "$tmp/huge.map"
: >"$tmp/empty.map"
check "empty file" failure "empty.map:1: empty file" "$GT" info "$tmp/empty.map"
head -c 3000 /dev/urandom >"$tmp/garbage.map"
printf '\x00' >>"$tmp/garbage.map"
check "binary garbage" failure "garbage.map:" "$GT" info "$tmp/garbage.map"

printf 'version 1\n0\tblock.map\t6\t4\t0\t2\t6\t2\t7.66\n0\tblock.map\t6\t4\t0\t0\t6\t0\t6\n' >"$tmp/block.scen"
scen_ok() { "$GT" scen "$tmp/block.map" "$tmp/block.scen" >"$tmp/scen" && grep -qx "queries 2" "$tmp/scen" && grep -qx "over_octile 0" "$tmp/scen" && grep -q "^mean_us " "$tmp/scen"; }
check "scen counts" scen_ok
# The five documented keys in order, with --path 1 and --repeat N; one pair in another component
# and one point inside a 2x2 block of walls.
printf 'type octile\nheight 3\nwidth 4\nmap\n@@.@\n@@.@\n..@.\n' >"$tmp/pocket.map"
printf 'version 1\n0\tpocket.map\t4\t3\t0\t2\t3\t2\t3\n0\tpocket.map\t4\t3\t1\t1\t0\t2\t1\n0\tpocket.map\t4\t3\t0\t2\t1\t2\t1\n' >"$tmp/pocket.scen"
scen_keys() {
	"$GT" scen "$tmp/pocket.map" "$tmp/pocket.scen" --path 1 --repeat 3 >"$tmp/scen" &&
		[ "$(awk '{ print $1 }' "$tmp/scen" | paste -sd ' ')" = "queries over_octile unreachable invalid mean_us" ] &&
		grep -qx "queries 3" "$tmp/scen" && grep -qx "unreachable 1" "$tmp/scen" && grep -qx "invalid 1" "$tmp/scen"
}
check "scen keys, --path 1 and --repeat" scen_keys
check "scen --repeat 0 is a usage error" usage_error "--repeat must be an integer from 1 to 1000" "$GT" scen "$tmp/block.map" "$tmp/block.scen" --repeat 0
printf 'version 1\n0\tother.map\t9\t9\t0\t0\t1\t1\t1.5\n' >"$tmp/other.scen"
check "scen for another map" failure "is for a 9x9 map" "$GT" scen "$tmp/block.map" "$tmp/other.scen"
printf 'version 1\n0\tblock.map\t6\t4\t0\t0\n' >"$tmp/bad.scen"
check "scen malformed" failure "bad.scen:2: expected" "$GT" scen "$tmp/block.map" "$tmp/bad.scen"

genmap_ok() {
	"$GT" genmap --style "$1" --width 40 --height 30 --seed 3 -o "$tmp/g.map" >/dev/null &&
		"$GT" info "$tmp/g.map" | grep -qx "width 40" &&
		"$GT" genmap --style "$1" --width 40 --height 30 --seed 3 -o "$tmp/g2.map" >/dev/null && cmp -s "$tmp/g.map" "$tmp/g2.map"
}
check "genmap rooms" genmap_ok rooms
check "genmap caves" genmap_ok caves
check "genmap arena" genmap_ok arena
# docs/maps.md: assets/maps/generate.sh recreates the bundled maps byte for byte, with the sizes and
# convex vertex counts of the table.
bundled_maps() {
	local line
	mkdir -p "$tmp/regen" && cp assets/maps/generate.sh "$tmp/regen/" &&
		GT="$(cd "$(dirname "$GT")" && pwd)/$(basename "$GT")" bash "$tmp/regen/generate.sh" >"$tmp/regen/out" || return 1
	for line in "small.map 48 32 24" "caves.map 128 128 1301" "keep.map 256 256 1824" "arena.map 256 256 3050"; do
		set -- $line
		cmp -s "$tmp/regen/$1" "assets/maps/$1" || { echo "$1 differs"; return 1; }
		grep -A4 -x "file $1" "$tmp/regen/out" | tr '\n' ' ' | grep -q "width $2 height $3 free_cells [0-9]* convex_vertices $4 " || return 1
	done
}
check "bundled maps regenerate byte for byte" bundled_maps
check "genmap bad style" usage_error "unknown --style 'forest' (available: rooms|caves|arena)" "$GT" genmap --style forest --width 40 --height 30 --seed 1 -o "$tmp/x.map"
check "genmap bad width" usage_error "--width must be an integer" "$GT" genmap --style caves --width 2 --height 30 --seed 1 -o "$tmp/x.map"

# EHL from the command line: the same answers as the oracle, stats keys, errors.
ehl_build_ok() {
	"$GT" ehl-build "$tmp/block.map" -o "$tmp/block.ehl" --cell 1 >"$tmp/stats" 2>/dev/null &&
		[ "$(awk '{ print $1 }' "$tmp/stats" | paste -sd ' ')" = "cell_size convex_vertices vg_edges label_entries \
useful_label_entries cells cell_vertex_pairs candidate_vias hub_entries via_labels full_vias partial_vias index_bytes \
build_seconds peak_rss_mb" ] && grep -qx "cell_size 1" "$tmp/stats"
}
check "ehl-build stats: the documented keys in order" ehl_build_ok
# An estimate up front (gtEhl_EstimateQuick), on stderr: the exact corner count, an index size.
ehl_build_estimate() {
	"$GT" ehl-build "$tmp/block.map" -o "$tmp/block.ehl" --cell 2 2>&1 >/dev/null |
		grep -q -E '^estimate: 4 corners, about [0-9.e+]+ label entries, labels about [0-9]+ s on one thread; index about [0-9]+ MB at cell 2$'
}
check "ehl-build prints an estimate first" ehl_build_estimate
# info --estimate: keys in order, corners exact, the estimated labels of this small map (its own window,
# so no scaling) equal to what ehl-build reports, sizes shrinking with the cell size.
info_estimate() {
	"$GT" info "$tmp/block.map" --estimate >"$tmp/est" &&
		[ "$(awk '{ print $1 }' "$tmp/est" | paste -sd ' ')" = "width height convex_vertices label_entries_estimate \
useful_label_entries_estimate label_seconds_estimate index_mb_estimate_cell_1 index_mb_estimate_cell_2 \
index_mb_estimate_cell_4 index_mb_estimate_cell_8 index_mb_estimate_cell_16 index_mb_estimate_cell_32 \
index_mb_estimate_cell_64 least_budget_mb_estimate estimate_seconds" ] &&
		grep -qx "convex_vertices 4" "$tmp/est" &&
		grep -qx "label_entries_estimate $(awk '$1 == "label_entries" { print $2 }' "$tmp/stats")" "$tmp/est" &&
		awk '/^index_mb_estimate_cell_/ { if (seen && $2 > last) bad = 1; last = $2; seen = 1 } END { exit bad }' "$tmp/est"
}
check "info --estimate: corners, labels and sizes without a build" info_estimate
# Each path line as "length first_x first_y last_x last_y" (or as it is when not a path): on this
# symmetric map several paths are shortest, and either backend may name another one.
path_summary() {
	awk 'NF < 4 || NF % 2 { print; next }
		{ l = 0; for (i = 3; i < NF; i += 2) l += sqrt(($i - $(i - 2)) ^ 2 + ($(i + 1) - $(i - 1)) ^ 2)
		  printf "%.6f %s %s %s %s\n", l, $1, $2, $(NF - 1), $NF }'
}
same_as_oracle() {
	printf '0 2 6 2\n0.5 1.5 5.5 1.5\n2.5 1.5 0 0\n6 4 0 0\n' >"$tmp/q"
	[ "$("$GT" dist "$tmp/block.map" --ehl "$tmp/block.ehl" <"$tmp/q")" = "$("$GT" dist "$tmp/block.map" <"$tmp/q")" ] &&
		[ "$("$GT" path "$tmp/block.map" --ehl "$tmp/block.ehl" <"$tmp/q" | path_summary)" = \
			"$("$GT" path "$tmp/block.map" <"$tmp/q" | path_summary)" ] &&
		[ "$("$GT" path "$tmp/block.map" --ehl "$tmp/block.ehl" <"$tmp/q" | path_summary | sed -n 1p)" = "6.472136 0.000000000 2.000000000 6.000000000 2.000000000" ]
}
check "ehl equals oracle" same_as_oracle
progress_lines() { "$GT" ehl-build "$tmp/block.map" -o "$tmp/b2.ehl" 2>&1 >/dev/null | grep -q "^progress via labels 100%"; }
check "ehl-build progress lines" progress_lines
progress_stages() { # docs/c-api.md: the four stages in this order, each shown finished
	"$GT" ehl-build "$tmp/block.map" -o "$tmp/b2.ehl" 2>"$tmp/progress" >/dev/null &&
		[ "$(sed -n 's/^progress \(.*\) [0-9]*%$/\1/p' "$tmp/progress" | uniq | paste -sd ,)" = "visibility graph,hub labels,cells,via labels" ] &&
		[ "$(grep -c ' 100%$' "$tmp/progress")" -eq 4 ]
}
check "ehl-build progress stages in order" progress_stages
progress_bar_once() {
	script -q -e -c "'$GT' ehl-build '$tmp/block.map' -o '$tmp/b3.ehl'" /dev/null >"$tmp/tty" </dev/null &&
		grep -q '\[#' "$tmp/tty" && ! grep -q '^progress ' "$tmp/tty" && grep -q '^cell_size 4' "$tmp/tty"
}
# On a terminal (script's pseudo-terminal): a bar, no plain lines. script can return before the
# last of the terminal's output is copied (stdin at EOF), so up to 3 tries.
progress_bar() { progress_bar_once || progress_bar_once || progress_bar_once; }
if command -v script >/dev/null; then check "ehl-build progress bar on a terminal" progress_bar; fi
ehl_default_cell() { "$GT" ehl-build "$tmp/block.map" -o "$tmp/b4.ehl" 2>/dev/null | grep -qx "cell_size 4"; }
check "ehl-build default cell size 4" ehl_default_cell
check "ehl-build --cell above GT_EHL_MAX_CELL_SIZE is a usage error" usage_error "--cell must be an integer from 1 to 4096" \
	"$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --cell 4097
# A build that needs more memory than is available is refused with the cell size and a hint.
# MemAvailable is faked by a private bind mount over /proc/meminfo (user and mount namespaces).
printf 'MemTotal: 1000 kB\nMemAvailable: 0 kB\n' >"$tmp/meminfo"
low_memory() {
	failure "the index at cell size 1 needs" unshare -rm sh -c 'mount --bind "$1" /proc/meminfo && exec "$2" ehl-build "$3" -o "$4" --cell 1' \
		sh "$tmp/meminfo" "$GT" "$tmp/block.map" "$tmp/nomem.ehl" && grep -q "MB of memory are available; use a larger cell size" "$tmp/ferr" &&
		[ ! -e "$tmp/nomem.ehl" ]
}
if unshare -rm true 2>/dev/null; then
	check "ehl-build refuses an index larger than the available memory" low_memory
else
	echo "note: no user namespaces here: the available-memory refusal is not checked"
fi
check "ehl for another map" failure "built for another map" bash -c "echo '0 0 1 1' | '$GT' dist '$tmp/split.map' --ehl '$tmp/block.ehl'"
head -c 100 "$tmp/block.ehl" >"$tmp/cut.ehl"
check "truncated ehl" failure "cut.ehl: truncated or corrupted" bash -c "echo '0 0 1 1' | '$GT' dist '$tmp/block.map' --ehl '$tmp/cut.ehl'"
check "missing ehl" failure "none.ehl: cannot open" bash -c "echo '0 0 1 1' | '$GT' dist '$tmp/block.map' --ehl '$tmp/none.ehl'"
check "cell and budget" usage_error "either --cell or --budget" "$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --cell 2 --budget 5
check "bad budget" usage_error "--budget must be a positive number" "$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --budget -3
check "tiny budget" failure "no cell size fits" "$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --budget 0.0001
budget_choice() { "$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --budget 1 --uniform 2>&1 >/dev/null | grep -q "chose cell size 1"; }
check "budget choice" budget_choice
budget_regions() { "$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --budget 1 | grep -q "^regions [1-9]" && "$GT" ehl-verify "$tmp/block.map" "$tmp/x.ehl" --samples 200 | grep -q "verdict ok"; }
check "budget regions" budget_regions
# A budget under what the program, map and labels take: ehl-build says the peak is theirs.
budget_floor() { "$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --budget 1 2>&1 >/dev/null | grep -q "^note: the process's peak memory .* above twice the budget"; }
check "budget below the floor" budget_floor
# The same said before the build, and a budget just above the least one info --estimate names holds:
# no note.
budget_warning() { "$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --budget 1 2>&1 >/dev/null | grep -q "^warning: the index will hold 1 MB, but the process's peak memory (the program and the map included) stays within twice a budget only from about [0-9.]* MB up"; }
check "budget below the floor, before the build" budget_warning
least_budget_holds() {
	least=$("$GT" info "$tmp/block.map" --estimate | awk '$1 == "least_budget_mb_estimate" { print $2 }') &&
		awk -v b="$least" 'BEGIN { exit !(b > 1) }' &&
		! "$GT" ehl-build "$tmp/block.map" -o "$tmp/x.ehl" --budget "$(awk -v b="$least" 'BEGIN { print b * 1.1 }')" 2>&1 >/dev/null | grep -q -E "^(note: the process|warning:)"
}
check "the least budget info names holds" least_budget_holds
# A budget the build cannot hold within twice (its own allocations, gtEhlStats.peak_bytes): an error
# naming the peak and the least budget that holds, and no index file, not even a partial one; that
# least budget then holds; --allow-high-peak builds the small one anyway.
peak_over_budget() {
	rm -f "$tmp/low.ehl" "$tmp/low.ehl.tmp"
	failure "budget 2 MB: the build held" "$GT" ehl-build assets/maps/keep.map -o "$tmp/low.ehl" --budget 2 &&
		grep -q -E "more than twice the budget; on this map the least budget that holds is about [0-9.]+ MB" "$tmp/ferr" &&
		[ ! -e "$tmp/low.ehl" ] && [ ! -e "$tmp/low.ehl.tmp" ] &&
		least=$(grep -o -E "holds is about [0-9.]+" "$tmp/ferr" | grep -o -E "[0-9.]+$") &&
		awk -v b="$least" 'BEGIN { exit !(b > 2 && b < 8) }' &&
		"$GT" ehl-build assets/maps/keep.map -o "$tmp/low.ehl" --budget "$least" 2>"$tmp/lerr" >/dev/null &&
		held=$(grep -o -E "the build held [0-9.]+ MB at its peak" "$tmp/lerr" | grep -o -E "[0-9.]+") &&
		awk -v h="$held" -v b="$least" 'BEGIN { exit !(h > 0 && h <= 2 * b) }' && [ -s "$tmp/low.ehl" ] &&
		"$GT" ehl-build assets/maps/keep.map -o "$tmp/high.ehl" --budget 2 --allow-high-peak 2>"$tmp/herr" >/dev/null &&
		held=$(grep -o -E "the build held [0-9.]+ MB at its peak" "$tmp/herr" | grep -o -E "[0-9.]+") &&
		awk -v h="$held" 'BEGIN { exit !(h > 4) }' && "$GT" ehl-verify assets/maps/keep.map "$tmp/high.ehl" --samples 200 | grep -q "verdict ok"
}
check "a budget the build's peak passes: refused, no file; its least budget holds" peak_over_budget
check "ehl-build needs -o" usage_error "usage: gridtree ehl-build" "$GT" ehl-build "$tmp/block.map"

# README, Try it (and docs/cli.md): the four commands on keep.map as written; the EHL path is as long as the
# oracle's distance.
quick_start() {
	local d
	"$GT" info assets/maps/keep.map | grep -qx "width 256" &&
		d=$(echo "10.5 20 200 180.25" | "$GT" dist assets/maps/keep.map) &&
		"$GT" ehl-build assets/maps/keep.map -o "$tmp/keep.ehl" --cell 4 >/dev/null 2>&1 &&
		echo "10.5 20 200 180.25" | "$GT" path assets/maps/keep.map --ehl "$tmp/keep.ehl" |
		awk -v d="$d" '{ for (i = 3; i < NF; i += 2) len += sqrt(($i - $(i - 2)) ^ 2 + ($(i + 1) - $(i - 1)) ^ 2) }
			END { exit !(NR == 1 && d > 0 && (len - d) ^ 2 < 1e-10) }'
}
check "README quick start" quick_start

# Forged indexes (checksum recomputed, so the structural checks behind it are what is tested) and
# ehl-verify. The forger knows the file layout: an 80-byte header, then 8-aligned sections.
cat >"$tmp/forge.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t get(const unsigned char* p, int w) { uint64_t v = 0; while (w--) v = v << 8 | p[w]; return v; }
static void put(unsigned char* p, int w, uint64_t v) { for (int i = 0; i < w; i++, v >>= 8) p[i] = (unsigned char)v; }
static long up8(uint64_t v) { return (long)((v + 7) & ~(uint64_t)7); }
int main(int argc, char** argv) { /* forge IN OUT cell1|halve */
	if (argc != 4) return 2;
	FILE* f = fopen(argv[1], "rb");
	if (!f) return 1;
	static unsigned char b[1 << 20];
	long size = (long)fread(b, 1, sizeof b, f);
	fclose(f);
	uint64_t n = get(b + 36, 4), labels = get(b + 40, 8);
	long dist = 80 + up8((n + 1) * 4) + 2 * up8(labels * 4); /* format version 3: 32-bit ids */
	long cell_begin = dist + up8(labels * 8) + up8(n * 4);
	if (strcmp(argv[3], "cell1") == 0) put(b + cell_begin + 4, 4, 0x7FFFFFF0); /* the issue's forgery */
	else for (uint64_t k = 0; k < labels; k++) { double d; memcpy(&d, b + dist + 8 * k, 8); d /= 2; memcpy(b + dist + 8 * k, &d, 8); }
	uint32_t crc = 0xFFFFFFFFu; /* CRC-32C, bit by bit */
	for (long i = 0; i < size - 8; i++) { crc ^= b[i]; for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1))); }
	put(b + size - 8, 4, ~crc);
	f = fopen(argv[2], "wb");
	return !f || fwrite(b, 1, (size_t)size, f) != (size_t)size || fclose(f) != 0;
}
C
forged_ok() {
	cc -std=c11 -o "$tmp/forge" "$tmp/forge.c" && "$tmp/forge" "$tmp/block.ehl" "$tmp/forged.ehl" cell1 &&
		"$tmp/forge" "$tmp/block.ehl" "$tmp/halved.ehl" halve
}
check "forge indexes" forged_ok
check "forged cell offsets refused" failure "forged.ehl: corrupted (cell offsets are inconsistent)" bash -c "echo '0 0 6 3' | '$GT' dist '$tmp/block.map' --ehl '$tmp/forged.ehl'"
verify_good() {
	"$GT" ehl-verify "$tmp/block.map" "$tmp/block.ehl" --samples 300 --seed 5 >"$tmp/verify" &&
		grep -qx "samples 300" "$tmp/verify" && grep -qx "mismatches 0" "$tmp/verify" &&
		grep -q "^max_relative_error " "$tmp/verify" && grep -qx "verdict ok" "$tmp/verify"
}
check "ehl-verify on a good index" verify_good
verify_wrong() { # loads (its structure is fine), answers too short: exit 1 with the verdict
	"$GT" ehl-verify "$tmp/block.map" "$tmp/halved.ehl" --samples 300 >"$tmp/verify" 2>"$tmp/verify_err"
	[ $? -eq 1 ] && grep -qx "samples 300" "$tmp/verify" && grep -q "^mismatches [1-9]" "$tmp/verify" &&
		grep -q "^first_failure " "$tmp/verify" && grep -qx "verdict wrong" "$tmp/verify" && grep -q "the index is wrong" "$tmp/verify_err"
}
check "ehl-verify on a wrong index" verify_wrong
first_failure_format() { # sx sy tx ty WHAT, WHAT being distance or path
	"$GT" ehl-verify "$tmp/block.map" "$tmp/halved.ehl" --samples 300 >"$tmp/verify" 2>/dev/null
	grep -q -x -E 'first_failure( -?[0-9.e+-]+){4} (distance|path)' "$tmp/verify"
}
check "ehl-verify first_failure format" first_failure_format
verify_default() { # 1,000 samples by default; the keys of a good index in order
	"$GT" ehl-verify "$tmp/block.map" "$tmp/block.ehl" >"$tmp/verify" &&
		[ "$(awk '{ print $1 }' "$tmp/verify" | paste -sd ' ')" = "samples mismatches max_relative_error verdict" ] &&
		grep -qx "samples 1000" "$tmp/verify"
}
check "ehl-verify default samples" verify_default
check "ehl-verify on a missing index exits 1" failure "none.ehl: cannot open" "$GT" ehl-verify "$tmp/block.map" "$tmp/none.ehl"
# --method: auto (the default) answers from the --ehl index, oracle ignores it, euclid goes through
# walls. The halved index loads but answers shorter than the oracle, so it shows who answered.
method_choice() {
	local q='0 2 6 2' auto explicit ehl oracle plain
	auto=$(echo "$q" | "$GT" dist "$tmp/block.map" --ehl "$tmp/halved.ehl") &&
		explicit=$(echo "$q" | "$GT" dist "$tmp/block.map" --ehl "$tmp/halved.ehl" --method auto) &&
		ehl=$(echo "$q" | "$GT" dist "$tmp/block.map" --ehl "$tmp/halved.ehl" --method ehl) &&
		oracle=$(echo "$q" | "$GT" dist "$tmp/block.map" --ehl "$tmp/halved.ehl" --method oracle) &&
		plain=$(echo "$q" | "$GT" dist "$tmp/block.map") &&
		[ "$auto" = "$ehl" ] && [ "$explicit" = "$ehl" ] && [ "$auto" != "$plain" ] && [ "$oracle" = "$plain" ] &&
		[ "$plain" = 6.472135955 ] && [ "$(echo "$q" | "$GT" dist "$tmp/block.map" --method euclid)" = 6.000000000 ] &&
		[ "$(echo "$q" | "$GT" path "$tmp/block.map" --method euclid)" = "0.000000000 2.000000000 6.000000000 2.000000000" ]
}
check "dist and path --method auto, ehl, oracle, euclid" method_choice
check "ehl-verify on a forged index" failure "corrupted (cell offsets are inconsistent)" "$GT" ehl-verify "$tmp/block.map" "$tmp/forged.ehl"
check "ehl-verify usage" usage_error "usage: gridtree ehl-verify" "$GT" ehl-verify "$tmp/block.map"
check "ehl-verify bad samples" usage_error "samples" "$GT" ehl-verify "$tmp/block.map" "$tmp/block.ehl" --samples 0

# Workloads and kNN from the command line.
printf 'heal potion elf\nsword shield\nbow arrow elf\n' >"$tmp/items.txt"
workload_ok() {
	"$GT" workload "$tmp/block.map" --keywords "$tmp/items.txt" --density 0.5 --timestamps 5 --queries 10 --seed 4 -o "$tmp/wl1" >/dev/null &&
		"$GT" workload "$tmp/block.map" --keywords "$tmp/items.txt" --density 0.5 --timestamps 5 --queries 10 --seed 4 -o "$tmp/wl2" >/dev/null &&
		cmp -s "$tmp/wl1/updates.txt" "$tmp/wl2/updates.txt" && cmp -s "$tmp/wl1/queries.txt" "$tmp/wl2/queries.txt" &&
		[ "$(wc -l <"$tmp/wl1/objects.txt")" -eq 10 ] && [ "$(wc -l <"$tmp/wl1/queries.txt")" -eq 50 ]
}
check "workload is deterministic" workload_ok
# The paper's defaults (docs/cli.md), as meta.txt records them and the files show: density
# 0.01 of the free cells (rounded up), 50 timestamps of 100 queries with k 3 and 2 keywords.
workload_defaults() {
	local free
	"$GT" workload assets/maps/small.map --keywords "$tmp/items.txt" --seed 2 -o "$tmp/wld" >/dev/null || return 1
	for f in objects.txt updates.txt queries.txt meta.txt; do [ -s "$tmp/wld/$f" ] || return 1; done
	for kv in "density 0.01" "mobility 0.7" "timestamps 50" "queries_per_timestamp 100" "k 3" "query_keywords 2" \
		"clusters 0" "churn 0"; do
		grep -qx "$kv" "$tmp/wld/meta.txt" || return 1
	done
	free=$("$GT" info assets/maps/small.map | awk '$1 == "free_cells" { print $2 }')
	[ "$(wc -l <"$tmp/wld/objects.txt")" -eq $(((free + 99) / 100)) ] && [ "$(wc -l <"$tmp/wld/queries.txt")" -eq 5000 ] &&
		awk '$4 != 3 || NF != 6 { bad++ } END { exit bad > 0 }' "$tmp/wld/queries.txt"
}
check "workload defaults" workload_defaults
# Objects walk 1 unit per timestamp (less only when a walk ends), and about 70% of them move each
# timestamp.
walk_and_mobility() {
	awk 'FNR == NR { x[$1] = $2; y[$1] = $3; objects++; next }
		$2 == "move" { d = sqrt(($4 - x[$3]) ^ 2 + ($5 - y[$3]) ^ 2); moves++; if (d > 1 + 1e-9) bad++; if (d > 1 - 1e-9) unit++
			x[$3] = $4; y[$3] = $5 }
		END { share = moves / (objects * 49); exit !(bad == 0 && unit > moves * 0.8 && share > 0.6 && share < 0.8) }' \
		"$tmp/wld/objects.txt" "$tmp/wld/updates.txt"
}
check "workload walks 1 unit per timestamp at mobility 0.7" walk_and_mobility
workload_churn() { # --churn p inserts and deletes p/2 of the objects per timestamp
	local objects
	"$GT" workload assets/maps/small.map --keywords "$tmp/items.txt" --seed 2 --churn 0.4 --timestamps 5 -o "$tmp/wlc" >/dev/null &&
		objects=$(wc -l <"$tmp/wlc/objects.txt") &&
		[ "$(grep -c ' insert ' "$tmp/wlc/updates.txt")" -eq $((4 * ((objects * 2 + 5) / 10))) ] && # lround(0.2 objects)
		[ "$(grep -c ' delete ' "$tmp/wlc/updates.txt")" -eq $((4 * ((objects * 2 + 5) / 10))) ]
}
check "workload --churn" workload_churn
workload_cluster() { # --clusters 1: every object starts in one rectangle of 1% of the area (5x4 cells here)
	"$GT" workload assets/maps/small.map --keywords "$tmp/items.txt" --seed 2 --clusters 1 --timestamps 2 -o "$tmp/wlk" >/dev/null &&
		awk 'NR == 1 { x0 = x1 = $2; y0 = y1 = $3 } { if ($2 < x0) x0 = $2; if ($2 > x1) x1 = $2; if ($3 < y0) y0 = $3; if ($3 > y1) y1 = $3 }
			END { exit !(NR > 3 && x1 - x0 <= 5 && y1 - y0 <= 4) }' "$tmp/wlk/objects.txt"
}
check "workload --clusters" workload_cluster
bench_ok() {
	"$GT" bench-knn "$tmp/block.map" --ehl "$tmp/block.ehl" --workload "$tmp/wl1" --leaf 1 --check 50 >"$tmp/bench" &&
		grep -qx "mismatches 0" "$tmp/bench" && grep -qx "checked 50" "$tmp/bench" && grep -qx "euclid_mismatches 0" "$tmp/bench" &&
		for key in update_us_per_timestamp query_us distance_calls_per_query nodes_per_query objects_tested_per_query \
			euclid_sphere_us euclid_tree_us euclid_scan_us; do
			grep -q -E "^$key [0-9]+\.[0-9]+$" "$tmp/bench" || return 1
		done
}
check "bench-knn agrees with a linear scan" bench_ok
# Instructions per query (callgrind, release build: valgrind and the sanitizers do not mix).
instructions_ok() {
	local n
	n=$(bench/instructions.sh "$tmp/block.map" "$tmp/block.ehl" "$tmp/wl1" 1 | awk '$1 == "instructions_per_query" { print $2 }')
	[ -n "$n" ] && [ "$n" -gt 100 ] && [ "$n" -lt 1000000 ]
}
if command -v valgrind >/dev/null && [ -x bin/gridtree ]; then
	check "bench instructions per query" instructions_ok
	check "bench instructions usage" usage_error "usage: bench/instructions.sh" bench/instructions.sh
fi
bench_default_leaf() { "$GT" bench-knn "$tmp/block.map" --ehl "$tmp/block.ehl" --workload "$tmp/wl1" | grep -qx "leaf_size 16"; }
check "bench-knn default leaf 16" bench_default_leaf
bench_methods() { # --method oracle and euclid: each checked against a linear scan with the same distance
	"$GT" bench-knn "$tmp/block.map" --ehl "$tmp/block.ehl" --workload "$tmp/wl1" --check 20 --method oracle | grep -qx "mismatches 0" &&
		"$GT" bench-knn "$tmp/block.map" --ehl "$tmp/block.ehl" --workload "$tmp/wl1" --check 20 --method euclid --threads 1 | grep -qx "mismatches 0"
}
check "bench-knn --method" bench_methods
check "knn refuses a directory as objects" failure "not a regular file" "$GT" knn "$tmp/block.map" --objects "$tmp" --queries "$tmp"

# A program that only loads an index links none of the builder (module layering, no cycle).
load_only() {
	cc -std=c11 -Iplugin/include tests/link/ehl_load_only.c bin/libgridtree_core.a -lm -lpthread -o "$tmp/load_only" &&
		[ "$("$tmp/load_only" "$tmp/block.map" "$tmp/block.ehl")" = 6.000000 ] &&
		nm "$tmp/load_only" | grep -q ' T gtEhl_Load$' && ! nm "$tmp/load_only" | grep -q -E 'gtEhl_Build|gt_hub_labels_build|gt_sweep_vertex'
}
check "loading an index does not link the builder" load_only
check "bench-knn needs an index" usage_error "needs --ehl FILE" "$GT" bench-knn "$tmp/block.map" --workload "$tmp/wl1"
check "workload needs a seed" usage_error "usage: gridtree workload" "$GT" workload "$tmp/block.map" --keywords "$tmp/items.txt" -o "$tmp/wl3"
printf '7 0.5 0.5 heal elf\n8 5.5 0.5 heal\n9 5.5 3.5 sword\n' >"$tmp/objs.txt"
printf '0.5 3.5 2 heal\n5 3 1\n0 0 3 nothing\n' >"$tmp/qs.txt"
knn_ok() {
	"$GT" knn "$tmp/block.map" --ehl "$tmp/block.ehl" --objects "$tmp/objs.txt" --queries "$tmp/qs.txt" >"$tmp/knn" &&
		[ "$(sed -n 1p "$tmp/knn")" = "7:3.000000 8:6.451010" ] && [ "$(sed -n 2p "$tmp/knn")" = "9:0.707107" ] &&
		[ -z "$(sed -n 3p "$tmp/knn")" ] &&
		cmp -s "$tmp/knn" <("$GT" knn "$tmp/block.map" --objects "$tmp/objs.txt" --queries "$tmp/qs.txt")
}
check "knn answers" knn_ok
knn_methods() { # euclid: straight lines through the block; oracle ignores the (halved) index
	[ "$("$GT" knn "$tmp/block.map" --method euclid --objects "$tmp/objs.txt" --queries "$tmp/qs.txt" | sed -n 1p)" = "7:3.000000 8:5.830952" ] &&
		[ "$("$GT" knn "$tmp/block.map" --ehl "$tmp/halved.ehl" --method oracle --threads 1 --objects "$tmp/objs.txt" --queries "$tmp/qs.txt" | sed -n 1p)" = "7:3.000000 8:6.451010" ] &&
		[ "$("$GT" knn "$tmp/block.map" --ehl "$tmp/halved.ehl" --objects "$tmp/objs.txt" --queries "$tmp/qs_around.txt")" != \
			"$("$GT" knn "$tmp/block.map" --ehl "$tmp/halved.ehl" --method oracle --threads 1 --objects "$tmp/objs.txt" --queries "$tmp/qs_around.txt")" ]
}
# The halved index shows itself on a path that bends around the block (a forged index's answers
# are otherwise arbitrary: its stored bounds, not halved, decide what is skipped).
printf '5.5 3.5 2 heal\n' >"$tmp/qs_around.txt"
check "knn --method" knn_methods
check "knn unknown method is a usage error" usage_error "unknown --method 'astar'" "$GT" knn "$tmp/block.map" --method astar --objects "$tmp/objs.txt" --queries "$tmp/qs.txt"
# File ids are looked up in a hash table: the largest id allowed costs no memory (it used to
# allocate 1.6 GB). The sanitizer build refuses any allocation above 64 MB here.
printf '100000000 0.5 0.5 heal\n99999999 5.5 0.5 heal\n' >"$tmp/bigids.txt"
big_ids_ok() {
	[ "$(ASAN_OPTIONS=max_allocation_size_mb=64:allocator_may_return_null=1 "$GT" knn "$tmp/block.map" \
		--objects "$tmp/bigids.txt" --queries "$tmp/qs.txt" | sed -n 1p)" = "100000000:3.000000 99999999:6.451010" ]
}
check "knn takes the largest file id without allocating for it" big_ids_ok
printf '100000001 0.5 0.5 heal\n' >"$tmp/toobig.txt"
check "knn refuses a file id above 100000000" failure "out of range" "$GT" knn "$tmp/block.map" --objects "$tmp/toobig.txt" --queries "$tmp/qs.txt"
printf '1 2.5 1.5 elf\n' >"$tmp/wall.txt"
check "knn object in a wall" failure "inside a blocked cell" "$GT" knn "$tmp/block.map" --objects "$tmp/wall.txt" --queries "$tmp/qs.txt"
printf '0.5 0.5 -1 heal\n' >"$tmp/badq.txt"
check "knn malformed query" failure "badq.txt:1: expected" "$GT" knn "$tmp/block.map" --objects "$tmp/objs.txt" --queries "$tmp/badq.txt"

# crowd answers knn's queries as batches: every method, 1 and 2 workers, the same lines as knn.
crowd_ok() {
	"$GT" workload assets/maps/caves.map --keywords "$tmp/items.txt" --seed 5 --density 0.03 --timestamps 2 --queries 60 \
		--k 4 --query-keywords 1 -o "$tmp/wlcrowd" >/dev/null &&
		awk '{ $1 = ""; sub(/^ /, ""); print }' "$tmp/wlcrowd/queries.txt" >"$tmp/crowdq.txt" &&
		printf '3.5 3.5 2 nosuchword\n0.5 0.5 1 heal\n' >>"$tmp/crowdq.txt" &&
		"$GT" ehl-build assets/maps/caves.map -o "$tmp/caves.ehl" --cell 2 --threads 2 >/dev/null 2>&1 &&
		"$GT" knn assets/maps/caves.map --ehl "$tmp/caves.ehl" --objects "$tmp/wlcrowd/objects.txt" --queries "$tmp/crowdq.txt" >"$tmp/knn.out" &&
		[ "$(wc -l <"$tmp/knn.out")" -eq 122 ] && grep -q "^invalid$" "$tmp/knn.out" || return 1
	crowd_methods_match "$tmp/knn.out" knn assets/maps/caves.map --ehl "$tmp/caves.ehl" --objects "$tmp/wlcrowd/objects.txt" \
		--queries "$tmp/crowdq.txt"
}
check "crowd agrees with knn, every method and thread count" crowd_ok
# knn --method interval (the OkNN interval heuristic on a mesh made from the map) gives the same
# distances as the Grid Tree over EHL on crowd_ok's objects and queries (ids may differ on ties).
knn_distances() { awk '{ out = ""; for (i = 1; i <= NF; i++) { n = split($i, p, ":"); out = out (i > 1 ? " " : "") (n == 2 ? p[2] : $i) } print out }' "$1"; }
mesh_methods_ok() {
	for method in interval target fence; do
		"$GT" knn assets/maps/caves.map --method $method --objects "$tmp/wlcrowd/objects.txt" --queries "$tmp/crowdq.txt" >"$tmp/interval.out" &&
			[ "$(knn_distances "$tmp/knn.out")" = "$(knn_distances "$tmp/interval.out")" ] || { echo "knn --method $method differs"; return 1; }
	done
}
check "knn --method interval, target and fence give the Grid Tree's distances" mesh_methods_ok
# Every competitor of the OkNN papers gives the same distances too.
competitors_ok() {
	for method in gt ier-ehl brute; do
		"$GT" knn assets/maps/caves.map --method $method --ehl "$tmp/caves.ehl" --objects "$tmp/wlcrowd/objects.txt" \
			--queries "$tmp/crowdq.txt" >"$tmp/competitor.out" &&
			[ "$(knn_distances "$tmp/knn.out")" = "$(knn_distances "$tmp/competitor.out")" ] || { echo "knn --method $method differs"; return 1; }
	done
	"$GT" knn assets/maps/caves.map --method ier-polyanya --objects "$tmp/wlcrowd/objects.txt" --queries "$tmp/crowdq.txt" >"$tmp/competitor.out" &&
		[ "$(knn_distances "$tmp/knn.out")" = "$(knn_distances "$tmp/competitor.out")" ] || { echo "knn --method ier-polyanya differs"; return 1; }
	"$GT" knn assets/maps/caves.map --method brute --objects "$tmp/wlcrowd/objects.txt" --queries "$tmp/crowdq.txt" >"$tmp/competitor.out" &&
		[ "$(knn_distances "$tmp/knn.out")" = "$(knn_distances "$tmp/competitor.out")" ] || { echo "knn --method brute (oracle) differs"; return 1; }
}
check "knn --method gt, ier-ehl, ier-polyanya and brute give the Grid Tree's distances" competitors_ok
peers_ok() {
	"$GT" bench-peers assets/maps/caves.map --ehl "$tmp/caves.ehl" --workload "$tmp/wlcrowd" >"$tmp/peers" &&
		for m in ier-ehl ier-polyanya interval target fence brute; do grep -qx "${m}_mismatches 0" "$tmp/peers" || return 1; done &&
		grep -q "^gt_query_us " "$tmp/peers" && grep -q "^mesh_update_us_per_timestamp " "$tmp/peers" &&
		grep -q "^irtree_update_us_per_timestamp " "$tmp/peers" && ! grep -qx "fence_label_runs 0" "$tmp/peers"
}
check "bench-peers answers every query by every method alike" peers_ok
check "knn --method gt needs an index" usage_error "needs --ehl FILE" \
	"$GT" knn assets/maps/caves.map --method gt --objects "$tmp/objs.txt" --queries "$tmp/qs.txt"
check "knn --method fence refuses --edits" usage_error "does not follow --edits" \
	"$GT" knn assets/maps/caves.map --method fence --edits "$tmp/qs.txt" --objects "$tmp/objs.txt" --queries "$tmp/qs.txt"
bench_crowd_ok() {
	local out
	out=$("$GT" bench-crowd assets/maps/caves.map --ehl "$tmp/caves.ehl" --agents 300 --k 2 --frames 2 --threads 2) || return 1
	for key in each_ms_per_frame batch_ms_per_frame field_ms_per_frame auto_ms_per_frame field_build_ms_per_frame \
		speedup_auto_vs_each; do
		echo "$out" | grep -q "^$key [0-9.]*$" || return 1
	done
	echo "$out" | grep -qx "mismatches 0" && echo "$out" | grep -qx "agents 300"
}
check "bench-crowd prints every method's time and no mismatch" bench_crowd_ok
living_ok() {
	local out key
	"$GT" ehl-build assets/maps/small.map -o "$tmp/small-edits.ehl" --cell 2 --threads 2 >/dev/null 2>&1 || return 1
	out=$("$GT" bench-edits assets/maps/small.map --ehl "$tmp/small-edits.ehl" --edits 1 --queries 50 --threads 2) || return 1
	for key in repair_ms repair_ms_block repair_ms_door repair_ms_free query_us_after_repair query_us_after_repair_cold door_crossing_us; do
		echo "$out" | grep -q "^$key [0-9.]*$" || { echo "bench-edits: no $key"; return 1; }
	done
	local began=$(date +%s%N)
	out=$("$GT" bench-living assets/maps/small.map --ehl "$tmp/small-edits.ehl" --agents 40 --seconds 2 --edits-per-second 20 --threads 2) || return 1
	# Paced like a game: 120 frames at 60 a second take at least 119/60 s of wall time.
	echo "$out" | grep -qx "paced 1" && [ $(($(date +%s%N) - began)) -ge 1980000000 ] || { echo "bench-living: not paced"; return 1; }
	for key in frames frame_ms_p50 frame_ms_p99 frame_cpu_ms_p99 update_cpu_ms_max update_ms_p99 edits repairs exact_checks index_current_frames_pct catch_up_ms; do
		echo "$out" | grep -q "^$key [0-9.]*$" || { echo "bench-living: no $key"; return 1; }
	done
	# Once the edits stop the index comes back by itself (declared doors left shut: a lower bound).
	echo "$out" | grep -Eqx "index_state_after_catch_up (exact|lower_bound)" || { echo "bench-living: not caught up"; return 1; }
	echo "$out" | grep -qx "mismatches 0" && echo "$out" | grep -qx "frames 120" && ! echo "$out" | grep -qx "edits 0"
}
check "bench-edits prints the repair figures; bench-living plays a living map with every checked answer exact" living_ok
check "crowd unknown method is a usage error" usage_error "unknown --method 'astar' (available: each|batch|field|auto)" "$GT" crowd assets/maps/caves.map --method astar --objects "$tmp/objs.txt" --queries "$tmp/qs.txt"
check "crowd field without an index" failure "the field method needs an EHL index" "$GT" crowd "$tmp/block.map" --method field --objects "$tmp/objs.txt" --queries "$tmp/qs.txt"

# The Lua example runs headless and reaches its last tick with decisions made.
example_ok() {
	local preload=""
	case "$GT" in *debug*) preload=$(gcc -print-file-name=libasan.so) ;; esac
	LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 LUA_CPATH_5_4="$(dirname "$GT")/?.so" \
		lua5.4 lua/examples/target_selection.lua >"$tmp/example" 2>&1 &&
		grep -q "^-- tick 5" "$tmp/example" && grep -q "attacks the goblin healer" "$tmp/example" &&
		grep -q "attacks the nearest" "$tmp/example" && grep -q "^60 enemies; the troll fits where [0-9]* of them stand" "$tmp/example" &&
		grep -q "^troll (half-width 1) at .* attacks the nearest" "$tmp/example"
}
check "lua example" example_ok
crowd_example_ok() {
	local preload=""
	case "$GT" in *debug*) preload=$(gcc -print-file-name=libasan.so) ;; esac
	LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 LUA_CPATH_5_4="$(dirname "$GT")/?.so" \
		lua5.4 lua/examples/crowd.lua assets/maps/small.map 500 60 3000 >"$tmp/crowd_example" 2>&1 &&
		grep -q "^frame 60: [0-9]* agents re-targeted" "$tmp/crowd_example" &&
		grep -q "^500 agents, 60 frames: [0-9.]* frames per second" "$tmp/crowd_example"
}
check "lua crowd example" crowd_example_ok
doors_example_ok() { # agents wait while both doors are shut, and arrive through them otherwise
	local preload=""
	case "$GT" in *debug*) preload=$(gcc -print-file-name=libasan.so) ;; esac
	LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 LUA_CPATH_5_4="$(dirname "$GT")/?.so" \
		lua5.4 lua/examples/doors.lua >"$tmp/doors" 2>&1 &&
		grep -q "^frame 200: west door shut, east door shut, 40 agents waiting" "$tmp/doors" &&
		grep -q "^frame 300: west door open, east door shut, 0 agents waiting" "$tmp/doors" &&
		grep -q "^600 frames: [1-9][0-9]* arrivals, at most 40 agents waiting at once, .* index lower_bound" "$tmp/doors"
}
check "lua doors example" doors_example_ok

# The SDL2 demo, headless: a picture with map, agents and the query layer; deterministic per seed.
demo_run() { # seed, output file
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 20 \
		--agents 120 --leaf 4 --cell 2 --seed "$1" --index "$tmp/demo.ehl" --screenshot "$tmp/shot$1.png" >"$2" 2>/dev/null
}
demo_ok() {
	demo_run 3 "$tmp/d1" && demo_run 3 "$tmp/d2" && demo_run 4 "$tmp/d3" &&
		[ -s "$tmp/shot3.png" ] && [ "$(awk '$1 == "colours" { print $2 }' "$tmp/d1")" -ge 6 ] &&
		[ "$(awk '$1 == "agent_pixels" { print $2 }' "$tmp/d1")" -gt 50 ] &&
		[ "$(awk '$1 == "query_marker_pixels" { print $2 }' "$tmp/d1")" -gt 10 ] &&
		[ "$(grep checksum "$tmp/d1")" = "$(grep checksum "$tmp/d2")" ] &&
		[ "$(grep checksum "$tmp/d1")" != "$(grep checksum "$tmp/d3")" ]
}
check "demo headless picture and determinism" demo_ok
all_layers() { # every layer on, every query kind reachable through the script
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 5 --agents 80 \
		--leaf 4 --cell 2 --layers 123456 --index "$tmp/demo.ehl" --screenshot "$tmp/all.png" >"$tmp/all" 2>&1 &&
		grep -q "^frames 5" "$tmp/all"
}
check "demo with every layer" all_layers
every_control() { # each control once, under the sanitizers: k, kinds, filters, leaf sizes, pause, step, speed, zoom,
	# pan, pin, crowd lines, separation, the backend switch (twice: back to EHL), the nearest door, a window resize, clicks
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 48 --agents 80 \
		--leaf 4 --cell 2 --index "$tmp/demo.ehl" --keys "M+-qqqffffffaLlh123456 n s rWwDCChpPcbbo.oZ" \
		--screenshot "$tmp/keys.png" >"$tmp/keys" 2>&1 && grep -q "^frames 48" "$tmp/keys" && grep -q "^backend ehl" "$tmp/keys" &&
		grep -q "^size 960x600" "$tmp/keys"
}
check "demo controls" every_control
mesh_backend() { # `b` switches the agents' and the mouse query's distances to the navigation mesh
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 12 --agents 80 \
		--leaf 4 --cell 2 --index "$tmp/demo.ehl" --keys "b" >"$tmp/mesh" 2>&1 && grep -q "^backend polyanya" "$tmp/mesh" &&
		grep -q "^frames 12" "$tmp/mesh"
}
check "demo switches to the navigation mesh" mesh_backend
doors_and_clicks() { # doors found where keep.map narrows; `o` shuts and opens the nearest, a click builds and demolishes a wall
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/keep.map --headless --frames 12 --agents 80 \
		--cell 8 --index "$tmp/keep8.ehl" --keys "Mo.o.C.C" >"$tmp/doors_demo" 2>&1 && grep -q "^frames 12" "$tmp/doors_demo" &&
		[ "$(awk '$1 == "doors" { print $2 }' "$tmp/doors_demo")" -ge 4 ] && grep -q "^map_edits 4" "$tmp/doors_demo"
}
check "demo doors and clicked walls" doors_and_clicks
crowd_recording() { # crowd mode, and a recording: one animated PNG with a frame control per recorded frame
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 10 --agents 80 \
		--leaf 4 --cell 2 --index "$tmp/demo.ehl" --crowd --size 640x400 --record "$tmp/rec.png" --record-every 2 \
		>"$tmp/rec" 2>&1 && grep -q "^recorded_frames 5" "$tmp/rec" && [ "$(head -c 4 "$tmp/rec.png" | tail -c 3)" = PNG ] &&
		[ "$(grep -ao acTL "$tmp/rec.png" | wc -l)" -eq 1 ] && [ "$(grep -ao fcTL "$tmp/rec.png" | wc -l)" -eq 5 ] &&
		! ls "$tmp"/rec.png.frame-* >/dev/null 2>&1
}
check "demo crowd mode and recording" crowd_recording
check "demo bad size" usage_error "--size is WIDTHxHEIGHT" "$(dirname "$GT")/gridtree-demo" --size 10x10
toggle_walls() { # `t` builds and demolishes walls under the query point; the agents keep walking
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 30 --agents 80 \
		--leaf 4 --cell 2 --index "$tmp/demo.ehl" --keys "Mt  t  ntt" >"$tmp/walls" 2>&1 &&
		grep -q "^frames 30" "$tmp/walls" && grep -q "^map_edits 4" "$tmp/walls"
}
check "demo toggles walls" toggle_walls
# The demo draws and queries the script's own world and map (gt_lua.h), with the one index the demo
# loaded into the script's map: it runs when the index cannot be cached, and stops with a message
# (no crash) when the script closes what the demo draws.
demo_uncached() {
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 5 --agents 50 \
		--cell 2 --layers 123456 --index "$tmp/no-such-dir/x.ehl" >"$tmp/uncached" 2>&1 &&
		grep -q "^frames 5" "$tmp/uncached" && grep -q "(the index is not cached)" "$tmp/uncached"
}
check "demo without an index cache" demo_uncached
closing_script() { # what demo.update closes at frame 2
	cat <<LUA
local demo = {xs = {}, ys = {}, kinds = {}}
function demo.init(map, world) demo.map, demo.world = map, world end
function demo.update(frame) if frame == 2 then demo.$1:close() end return 0 end
return demo
LUA
}
closing_script world >"$tmp/close_world.lua"
closing_script map >"$tmp/close_map.lua"
for what in world map; do
	message="demo.world is not an open gridtree.World"
	[ "$what" = map ] && message="the script closed its map"
	check "demo stops when the script closes its $what" fails_with "$message" env ASAN_OPTIONS=detect_leaks=0 \
		"$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 5 --cell 2 --index "$tmp/demo.ehl" \
		--script "$tmp/close_$what.lua"
done
# Position tables that lie about their length, or are not tables: read raw and bounded, drawn
# without running the script's __len outside a protected call (that used to abort the demo).
cat >"$tmp/lying.lua" <<'LUA'
local boom = {__len = function() error("boom") end}
local demo = {xs = setmetatable({1.5, 2.5}, boom), ys = setmetatable({1.5, 1.5}, boom), kinds = {1, 2}}
function demo.init(map, world) demo.map, demo.world = map, world end
function demo.update(frame) if frame == 2 then demo.ys = 7 end return 0 end
return demo
LUA
lying_tables() {
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 4 --cell 2 \
		--index "$tmp/demo.ehl" --script "$tmp/lying.lua" >"$tmp/lying" 2>&1 && grep -q "^frames 4" "$tmp/lying"
}
check "demo reads the script's position tables raw" lying_tables
check "demo bad map" fails_with "none.map: cannot open" "$(dirname "$GT")/gridtree-demo" "$tmp/none.map" --headless
demo_help() { # usage on stdout, exit 0
	"$(dirname "$GT")/gridtree-demo" --help >"$tmp/help" 2>"$tmp/help_err" && grep -q "^usage: gridtree-demo" "$tmp/help" &&
		[ ! -s "$tmp/help_err" ]
}
check "demo --help" demo_help
check "demo bad option" usage_error "unknown option --nope" "$(dirname "$GT")/gridtree-demo" --nope 1
# Started from another directory, with the bundled default map (no shared data): the script and
# the map are found next to the executable. Its index is built with stderr in a file, not a
# terminal: plain "progress STAGE N%" lines, no bar.
demo_elsewhere() { # binary
	local bin dir
	bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	dir=$(mktemp -d -p "$tmp")
	(cd "$dir" && GRIDTREE_DATA="$tmp/no-data" ASAN_OPTIONS=detect_leaks=0 "$bin" --headless --frames 3 --agents 40 \
		--cell 8 --index "$dir/keep.ehl" --screenshot "$dir/keep.png" >"$dir/out" 2>"$dir/err") &&
		grep -q "^frames 3" "$dir/out" && grep -q "^agent_pixels [1-9]" "$dir/out" && [ -s "$dir/keep.png" ] &&
		grep -q "^progress cells 100%" "$dir/err" && ! grep -q $'\r' "$dir/err" && ! grep -q '\[#' "$dir/err" &&
		[ "$(grep -c '^progress ' "$dir/err")" -le 80 ] &&
		echo "10.5 20 200 180.25" | "$GT" dist assets/maps/keep.map --ehl "$dir/keep.ehl" >/dev/null # the bundled default map
}
check "demo from another directory (bin/debug)" demo_elsewhere "$(dirname "$GT")/gridtree-demo"
if [ -x bin/gridtree-demo ]; then check "demo from another directory (bin)" demo_elsewhere bin/gridtree-demo; fi
# Without --index the index is cached as build/<map>-g<cell>.ehl of the repository, built at the
# default cell size 4 when missing (the same bytes as ehl-build --cell 4) and loaded the next time.
demo_cache() {
	local cache=build/small.map-g4.ehl
	rm -f "$cache"
	ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 2 --agents 20 \
		>/dev/null 2>"$tmp/cache1" && grep -q "^progress via labels 100%" "$tmp/cache1" &&
		"$GT" ehl-build assets/maps/small.map -o "$tmp/small4.ehl" --cell 4 >/dev/null 2>&1 && cmp -s "$cache" "$tmp/small4.ehl" &&
		ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" assets/maps/small.map --headless --frames 2 --agents 20 \
			>/dev/null 2>"$tmp/cache2" && ! grep -q "^progress" "$tmp/cache2"
}
check "demo caches its index at the default cell size" demo_cache
# With the benchmark data, the default map is bgmaps/AR0602SR.
data=${GRIDTREE_DATA:-../shared/data}
demo_data_map() {
	local dir
	dir=$(mktemp -d -p "$tmp")
	GRIDTREE_DATA="$data" ASAN_OPTIONS=detect_leaks=0 "$(dirname "$GT")/gridtree-demo" --headless --frames 2 --agents 20 \
		--cell 64 --index "$dir/default.ehl" >/dev/null 2>&1 &&
		echo "10.5 20 20.5 30" | "$GT" dist "$data/maps/bgmaps/AR0602SR.map" --ehl "$dir/default.ehl" >/dev/null
}
if [ -f "$data/maps/bgmaps/AR0602SR.map" ]; then
	check "demo default map from GRIDTREE_DATA" demo_data_map
else
	echo "note: benchmark data absent: the demo's default benchmark map is not checked"
fi

# Ties: objects piled on shared cells of a real map (file ids counting down), so distances tie
# and the k-th place cuts through piles: every --method prints the same bytes (ties by ascending
# world id, docs/grid-tree.md), and the answers do tie.
knn_ties_same_bytes() {
	local map=$data/maps/dao/arena.map m
	awk '/^map$/ { grid = 1; next } grid { for (x = 1; x <= length($0); x++) if (substr($0, x, 1) == ".") free[n++] = (x - 0.5) " " (row + 0.5); row++ }
		END { srand(7); id = 900; for (i = 0; i < 25; i++) { s = free[int(rand() * n)]; for (j = 0; j < 4; j++) print id--, s, (j % 2 ? "a" : "b") } }' \
		"$map" >"$tmp/piles.txt" &&
		awk 'BEGIN { srand(8); for (i = 0; i < 40; i++) print rand() * 49, rand() * 49, 1 + int(rand() * 9), (i % 3 ? "" : "a") }' >"$tmp/pile_qs.txt" &&
		"$GT" ehl-build "$map" -o "$tmp/arena.ehl" --cell 4 >/dev/null 2>&1 &&
		"$GT" knn "$map" --ehl "$tmp/arena.ehl" --objects "$tmp/piles.txt" --queries "$tmp/pile_qs.txt" >"$tmp/ties.gt" &&
		[ "$(awk '{ for (i = 2; i <= NF; i++) { split($(i - 1), a, ":"); split($i, b, ":"); t += a[2] == b[2] } } END { print t + 0 }' "$tmp/ties.gt")" -gt 20 ] ||
		return 1
	for m in ier-ehl brute ier-polyanya interval target fence; do
		"$GT" knn "$map" --ehl "$tmp/arena.ehl" --method "$m" --objects "$tmp/piles.txt" --queries "$tmp/pile_qs.txt" |
			cmp -s - "$tmp/ties.gt" || return 1
	done
}
if [ -f "$data/maps/dao/arena.map" ]; then
	check "knn ties: every method prints the same bytes" knn_ties_same_bytes
else
	echo "note: benchmark data absent: knn ties across methods are not checked"
fi

# --- Usage: every command's --help is printed from the table its parser reads (cli/cli.h).
commands=$("$GT" help | sed -n '/^commands:/,/^$/p' | awk 'NF && $1 != "commands:" && $1 != "help" { print $1 }')
command_count() { [ "$(echo "$commands" | wc -l)" -eq 21 ]; } # 20 commands and version
check "help lists every command" command_count
# --help, -h and `help CMD` print the same usage on stdout and exit 0.
help_works() {
	local cmd=$1
	"$GT" "$cmd" --help >"$tmp/h1" 2>"$tmp/h1err" && "$GT" "$cmd" -h >"$tmp/h2" && "$GT" help "$cmd" >"$tmp/h3" &&
		[ ! -s "$tmp/h1err" ] && head -n 1 "$tmp/h1" | grep -q "^usage: gridtree $cmd\b" && cmp -s "$tmp/h1" "$tmp/h2" &&
		cmp -s "$tmp/h1" "$tmp/h3" && grep -q -- '-h, --help' "$tmp/h1"
}
# The options and their values as a command's --help lists them: "NAME ARG" per line ("NAME" for a
# flag), then "NAME=VALUE" for each listed value. Read once per command (the checks below ask for
# them about 200 times).
help_options() {
	[ -f "$tmp/help_options.$1" ] || "$GT" "$1" --help | awk '
		/^  (-[a-z]|--[a-z-]+)( [^ ]+)? / && $1 != "-h," { name = $1; arg = ($2 != "" && substr($0, 3 + length($1), 2) == " " substr($2, 1, 1)) ? $2 : ""; print name " " arg; next }
		name != "" && /^ +[^ ]+: [^ ]+$/ { n = split($2, v, "|"); for (i = 1; i <= n; i++) print name "=" v[i]; name = "" }' \
		>"$tmp/help_options.$1"
	cat "$tmp/help_options.$1"
}
# Every listed option reaches the command (a usage error for the missing MAP or other options, never
# "unknown option"); every listed value passes the parser; an unlisted option is still refused (exit 2).
# A command that takes no arguments (bench-neighbours) gets a stray one, so that it stops at the
# argument count after reading its options instead of running (minutes under the sanitizers).
options_accepted() {
	local cmd=$1 line name arg stray=()
	help_options "$cmd" >"$tmp/opts" && [ -s "$tmp/opts" ] || [ "$cmd" = version ] || return 1
	"$GT" help "$cmd" | head -n 1 | grep -q -x -E "usage: gridtree $cmd( \[options\])?" && stray=(stray-argument)
	while read -r line; do
		case $line in
		*=*) name=${line%%=*} "$GT" "$cmd" "$name" "${line#*=}" "${stray[@]}" >/dev/null 2>"$tmp/oe" </dev/null
			! grep -q "unknown" "$tmp/oe" || { echo "$cmd: $line refused"; return 1; } ;;
		*) name=${line%% *} arg=${line#* }
			if [ "$arg" = "$name" ] || [ -z "$arg" ]; then set -- "$name"; else set -- "$name" 1; fi
			"$GT" "$cmd" "$@" "${stray[@]}" >/dev/null 2>"$tmp/oe" </dev/null
			! grep -q "unknown option" "$tmp/oe" || { echo "$cmd: $name refused"; return 1; } ;;
		esac
	done <"$tmp/opts"
	"$GT" "$cmd" --bogus 1 >/dev/null 2>"$tmp/oe"
	[ $? -eq 2 ] && grep -q "unknown option '--bogus'" "$tmp/oe"
}
for cmd in $commands; do
	check "$cmd --help" help_works "$cmd"
	check "$cmd: every listed option is accepted, others refused" options_accepted "$cmd"
done
help_map_options() { # every command that takes a MAP lists the map options
	local cmd
	for cmd in $commands; do
		"$GT" help "$cmd" | head -n 1 | grep -q ' MAP' || continue
		help_options "$cmd" | grep -q -- '^--clearance R' && help_options "$cmd" | grep -q -- '^--blocked-layer NAME' ||
			{ echo "$cmd"; return 1; }
	done
}
check "every command with a MAP lists the map options" help_map_options
help_lists_flags_plainly() { # flags (options without a value) are listed without one, not as "(null)"
	"$GT" help >"$tmp/hg" && grep -q -- '--allow-empty, --allow-outside-paths' "$tmp/hg" && ! grep -q '(null)' "$tmp/hg"
}
check "help lists the map option flags without a value" help_lists_flags_plainly
help_about_help() { # help is in the list of commands, so its own --help works too
	"$GT" help help >"$tmp/hh1" && "$GT" help --help >"$tmp/hh2" && "$GT" --help -h >"$tmp/hh3" &&
		cmp -s "$tmp/hh1" "$tmp/hh2" && cmp -s "$tmp/hh1" "$tmp/hh3" && grep -q '^usage: gridtree COMMAND' "$tmp/hh1"
}
check "help help and help --help print the usage" help_about_help
# Every option a command's source reads is one its --help lists (an undeclared one would be refused).
options_read_are_listed() {
	local f names cmds name found cmd
	for f in cli/cmd_*.c; do
		cmds=$(grep -A1 '^const CliCommand cli_cmd_' "$f" | grep -o '^    "[a-z-]*"' | tr -d ' "')
		names=$(grep -o -E 'cli_(option|choice)\(args, "[a-z-]+"|cli_int_option\(args, "[a-z-]+", "[a-z-]+"' "$f" |
			sed -E 's/.*"([a-z-]+)"$/\1/' | sort -u)
		[ -n "$cmds" ] || { echo "$f: no command"; return 1; }
		for name in $names; do
			found=0
			for cmd in $cmds; do help_options "$cmd" | grep -q -E -- "^-{1,2}$name( |=|$)" && found=1; done
			[ $found = 1 ] || { echo "$f reads --$name, which no --help of $cmds lists"; return 1; }
		done
	done
}
check "every option read is listed" options_read_are_listed
# The values listed for --method and the other choices are the ones the commands take: each one run.
values_run() { # command and its arguments; then each listed value of OPTION is given and must not be refused
	local option=$1 value
	shift
	for value in $(help_options "$2" | sed -n "s/^$option=//p"); do
		"$@" "$option" "$value" </dev/null >/dev/null 2>"$tmp/ve"
		[ $? -ne 2 ] && ! grep -q -i "unknown" "$tmp/ve" || { echo "$option $value:"; cat "$tmp/ve"; return 1; }
	done
}
check "dist runs every listed --method" values_run --method "$GT" dist "$tmp/block.map" --ehl "$tmp/block.ehl"
check "path runs every listed --method" values_run --method "$GT" path "$tmp/block.map" --ehl "$tmp/block.ehl"
check "scen runs every listed --method" values_run --method "$GT" scen "$tmp/block.map" "$tmp/block.scen" --ehl "$tmp/block.ehl"
check "knn runs every listed --method" values_run --method "$GT" knn "$tmp/block.map" --ehl "$tmp/block.ehl" \
	--objects "$tmp/objs.txt" --queries "$tmp/qs.txt"
check "bench-knn runs every listed --method" values_run --method "$GT" bench-knn "$tmp/block.map" --ehl "$tmp/block.ehl" \
	--workload "$tmp/wl1"
check "crowd runs every listed --method" values_run --method "$GT" crowd "$tmp/block.map" --ehl "$tmp/block.ehl" \
	--objects "$tmp/objs.txt" --queries "$tmp/qs.txt"
check "genmap runs every listed --style" values_run --style "$GT" genmap --width 16 --height 16 -o "$tmp/g.map"
for option in --encoding --compression --tileset --blocked; do
	extra=()
	[ $option = --compression ] && extra=(--encoding base64)
	check "tiled-export runs every listed $option" values_run $option "$GT" tiled-export "$tmp/block.map" -o "$tmp/v.tmx" "${extra[@]}"
done
help_errors() {
	"$GT" help >"$tmp/h" && grep -q "^usage: gridtree COMMAND" "$tmp/h" &&
		usage_error "unknown command 'nosuch'" "$GT" help nosuch && usage_error "usage: gridtree help" "$GT" help knn dist
}
check "help: the list, and an unknown topic is an error" help_errors
check "a missing positional prints the usage" usage_error "usage: gridtree scen MAP SCENFILE" "$GT" scen "$tmp/block.map"
check "a flag takes no value" usage_error "takes no value" "$GT" dist "$tmp/block.map" --why=1

# dist and path say on stderr why a line is `invalid`: once per run, or every line with --why.
why_once() {
	printf '9 0 0 0\n0 0 1 1\n2.5 1.5 0 0\n' | "$GT" dist "$tmp/block.map" >"$tmp/wo" 2>"$tmp/we" &&
		[ "$(paste -sd ' ' "$tmp/wo")" = "invalid 1.414213562 invalid" ] && [ "$(wc -l <"$tmp/we")" -eq 1 ] &&
		grep -q -x "gridtree dist: stdin:1: invalid: source (9, 0) is off the map (6x4) (the first invalid line; --why explains every one)" "$tmp/we"
}
check "dist explains the first invalid line" why_once
why_every() {
	printf '9 0 0 0\n0 0 1 1\n0 0 2.5 1.5\nnan 0 7 7\n' | "$GT" path "$tmp/block.map" --why >"$tmp/wo" 2>"$tmp/we" &&
		[ "$(wc -l <"$tmp/we")" -eq 3 ] &&
		grep -q -x "gridtree path: stdin:1: invalid: source (9, 0) is off the map (6x4)" "$tmp/we" &&
		grep -q -x "gridtree path: stdin:3: invalid: target (2.5, 1.5) is in a wall" "$tmp/we" &&
		grep -q -x "gridtree path: stdin:4: invalid: source (nan, 0) is not a finite number; target (7, 7) is off the map (6x4)" "$tmp/we"
}
check "path --why explains every invalid line" why_every

# The LOVE examples (LuaJIT build of the module) run headless on game time: GRIDTREE_FRAMES=900
# plays 900 frames of 1/60 s (15 s of the game, as fast as they draw) and exits 0; a Lua error
# anywhere exits 1 (love_tiled used to raise after 2.5 s, when a healer first arrived).
LOVE_FRAMES=900
love_ok() {
	GRIDTREE_CPATH="./bin/luajit/?.so" GRIDTREE_FRAMES=$LOVE_FRAMES timeout 300 xvfb-run -a love lua/love >"$tmp/love" 2>&1 &&
		grep -q "^gridtree-love: $LOVE_FRAMES frames, 150 agents, 150 with a target, [1-9][0-9]* walking paths drawn" "$tmp/love"
}
check "love example, 15 s of game time" love_ok
love_error_exits() {
	GRIDTREE_CPATH="./bin/luajit/?.so" GRIDTREE_MAP=/nonexistent.map GRIDTREE_FRAMES=5 timeout 120 \
		xvfb-run -a love lua/love >"$tmp/love" 2>&1
	[ $? -eq 1 ] && grep -q "^error: .*cannot open" "$tmp/love"
}
check "love example reports errors" love_error_exits
# The LOVE Tiled example: the hand-made level's objects spawned, enemies chasing healers.
love_tiled_ok() {
	GRIDTREE_CPATH="./bin/luajit/?.so" GRIDTREE_FRAMES=$LOVE_FRAMES timeout 300 xvfb-run -a love lua/love_tiled >"$tmp/love" 2>&1 &&
		grep -q "^gridtree-love-tiled: $LOVE_FRAMES frames, 7 objects from the Tiled level, [1-9] enemies chasing a healer, walls: layer Collision" "$tmp/love"
}
check "love Tiled example, 15 s of game time" love_tiled_ok
# An error raised in the middle of a game (not while loading) ends the run with exit 1 and the
# message, instead of LOVE's error screen waiting forever: the Tiled example run by a wrapper game
# whose love.update raises on frame 100.
love_update_error_exits() {
	mkdir -p "$tmp/love_fails" &&
		cat >"$tmp/love_fails/main.lua" <<LUA
dofile("$PWD/lua/love_tiled/main.lua")
local update, frame = love.update, 0
function love.update(dt)
	update(dt)
	frame = frame + 1
	if frame == 100 then error("injected at frame " .. frame) end
end
LUA
	GRIDTREE_CPATH="./bin/luajit/?.so" GRIDTREE_FRAMES=$LOVE_FRAMES timeout 120 xvfb-run -a love "$tmp/love_fails" >"$tmp/love" 2>&1
	[ $? -eq 1 ] && grep -q "^error: .*injected at frame 100" "$tmp/love" && ! grep -q "^gridtree-love-tiled:" "$tmp/love"
}
check "love example: an error in love.update exits 1" love_update_error_exits

summary cli
