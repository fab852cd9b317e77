#!/usr/bin/env bash
# Deterministic answers (docs/crowds.md): on real maps, objects two to a position (every distance a
# tie) and agents on objects (ties at 0), `gridtree crowd` prints byte-identical lines with
# --method each, batch, field and auto on 1 and 2 workers, `gridtree knn` the same bytes with
# --method gt, ier-ehl and brute on 1 and 2 workers, Lua the same bytes (world:nearest_many by every
# method and thread count, world:nearest; tests/lua/crowd_file.lua: required for ./run's builds, and
# for another GT when lua5.4 and the module beside it are there), and the ids are those of a brute force over every object, in the same order
# (distances from `gridtree dist` on the same index; ties by id).
# Prints "crowd-ties: N passed, N failed" as its last line.
set -u
GT=${1:-bin/debug/gridtree}
source "$(dirname "$0")/checks.sh"
data=${GRIDTREE_DATA:-../shared/data}
if [ ! -d "$data/maps" ]; then
	echo "crowd-ties: no map data at $data (set GRIDTREE_DATA): skipped"
	summary crowd-ties
	exit
fi
printf 'heal potion elf\nsword shield\nbow arrow elf\n' >"$tmp/items.txt"

# Objects 1..N of a workload, each again as N+1..2N at the same point; the workload's queries
# (k 3, one keyword), each point also asked from every tenth object's position.
scene() { # map
	"$GT" ehl-build "$1" -o "$tmp/index.ehl" --cell 4 --threads 2 >/dev/null 2>&1 &&
		"$GT" workload "$1" --ehl "$tmp/index.ehl" --keywords "$tmp/items.txt" --seed 9 --density 0.004 --timestamps 1 \
			--queries 40 -k 3 --query-keywords 1 -o "$tmp/wl" >/dev/null &&
		cp "$tmp/wl/objects.txt" "$tmp/objects.txt" &&
		awk -v n="$(wc -l <"$tmp/wl/objects.txt")" '{ $1 = $1 + n; print }' "$tmp/wl/objects.txt" >>"$tmp/objects.txt" &&
		awk '{ $1 = ""; sub(/^ /, ""); print }' "$tmp/wl/queries.txt" >"$tmp/queries.txt" &&
		awk 'NR % 10 == 1 { print $2, $3, 5, $4 }' "$tmp/wl/objects.txt" >>"$tmp/queries.txt"
}

# The k nearest by brute force: every object with all the query's words, priced by `dist`, sorted
# by distance (as printed, 9 decimals: equal for objects at one point) and then id.
brute() {
	awk 'NR == FNR { id[NR] = $1; x[NR] = $2; y[NR] = $3; w[NR] = " " substr($0, index($0, $4)) " "; n = NR; next }
		{ for (i = 1; i <= n; i++) { ok = 1; for (j = 4; j <= NF; j++) if (index(w[i], " " $j " ") == 0) ok = 0
			if (ok) { print FNR, id[i], $3; print $1, $2, x[i], y[i] > "/dev/stderr" } } }' \
		"$tmp/objects.txt" "$tmp/queries.txt" >"$tmp/pairs" 2>"$tmp/dist_in" &&
		"$GT" dist "$1" --ehl "$tmp/index.ehl" <"$tmp/dist_in" >"$tmp/dist_out" &&
		paste -d ' ' "$tmp/pairs" "$tmp/dist_out" | awk '$4 != "inf"' | sort -k1,1n -k4,4g -k2,2n |
		awk -v queries="$(wc -l <"$tmp/queries.txt")" '
			{ if (taken[$1] < $3) { line[$1] = line[$1] (taken[$1] ? " " : "") $2; taken[$1]++ } }
			END { for (q = 1; q <= queries; q++) print line[q] }'
}

knn_methods_match() { # expected map
	local method threads
	for method in gt ier-ehl brute; do
		for threads in 1 2; do
			"$GT" knn "$2" --ehl "$tmp/index.ehl" --objects "$tmp/objects.txt" --queries "$tmp/queries.txt" \
				--method $method --threads $threads >"$tmp/knn.out" && cmp -s "$1" "$tmp/knn.out" || {
				echo "knn --method $method --threads $threads differs from crowd --method batch --threads 1:"
				diff "$1" "$tmp/knn.out" | head -5
				return 1
			}
		done
	done
}

# Whether GT is one of ./run's builds (bin/, bin/debug/ of this checkout, as ./run test passes): those
# always have the module beside them and ./run installs lua5.4, so there (as in test_cli.sh's Lua
# checks) a missing one fails.
runs_build() {
	local dir root
	dir=$(realpath "$(dirname "$GT")" 2>/dev/null) && root=$(realpath "$(dirname "$0")/.." 2>/dev/null) || return 1
	[ "$dir" = "$root/bin" ] || [ "$dir" = "$root/bin/debug" ]
}

# Lua's answers to the same input, byte for byte; without lua5.4 or the module, a failure for ./run's
# builds, else skipped (and said) for an ad hoc GT.
lua_matches() { # expected map
	local module_dir f preload=""
	module_dir=$(dirname "$GT")
	if ! command -v lua5.4 >/dev/null || [ ! -f "$module_dir/gridtree.so" ]; then
		if runs_build; then
			echo "no lua5.4 or $module_dir/gridtree.so beside ./run's build: Lua not compared"
			return 1
		fi
		echo "note: no lua5.4 or $module_dir/gridtree.so: Lua not compared"
		return 0
	fi
	# The sanitizer build's module needs its runtime loaded first (as tests/run_all.sh does).
	if ldd "$module_dir/gridtree.so" 2>/dev/null | grep -q libasan; then preload=$(gcc -print-file-name=libasan.so); fi
	rm -rf "$tmp/lua" && mkdir "$tmp/lua" &&
		LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 LUA_CPATH_5_4="$module_dir/?.so" \
			lua5.4 "$(dirname "$0")/lua/crowd_file.lua" "$2" "$tmp/index.ehl" "$tmp/objects.txt" "$tmp/queries.txt" \
			"$tmp/lua" || return 1
	[ "$(ls "$tmp/lua" | wc -l)" -eq 9 ] || { echo "Lua wrote $(ls "$tmp/lua" | wc -l) answer files, not 9"; return 1; }
	for f in "$tmp"/lua/*.out; do
		cmp -s "$1" "$f" || {
			echo "Lua's $(basename "$f" .out) differs from crowd --method batch --threads 1:"
			diff "$1" "$f" | head -5
			return 1
		}
	done
}

ids_only() { awk '{ out = ""; for (i = 1; i <= NF; i++) { split($i, p, ":"); out = out (i > 1 ? " " : "") p[1] } print out }' "$1"; }

ties_ok() { # suite/map
	local map=$data/maps/$1.map
	scene "$map" || return 1
	"$GT" crowd "$map" --ehl "$tmp/index.ehl" --objects "$tmp/objects.txt" --queries "$tmp/queries.txt" --method batch \
		--threads 1 >"$tmp/first.out" || return 1
	# Every agent has an answer, and some answer holds both objects of a point.
	[ "$(grep -c . "$tmp/first.out")" -eq "$(wc -l <"$tmp/queries.txt")" ] || { echo "$1: an agent without answer"; return 1; }
	awk '{ for (i = 2; i <= NF; i++) { split($(i - 1), a, ":"); split($i, b, ":"); ties += a[2] == b[2] } }
		END { exit !(ties > NR) }' "$tmp/first.out" || { echo "$1: too few ties to test"; return 1; }
	crowd_methods_match "$tmp/first.out" "--method batch --threads 1 on $1" "$map" --ehl "$tmp/index.ehl" \
		--objects "$tmp/objects.txt" --queries "$tmp/queries.txt" || return 1
	knn_methods_match "$tmp/first.out" "$map" || return 1
	lua_matches "$tmp/first.out" "$map" || return 1
	brute "$map" >"$tmp/brute.out" && ids_only "$tmp/first.out" >"$tmp/first.ids" &&
		cmp -s "$tmp/brute.out" "$tmp/first.ids" || {
		echo "$1: crowd's ids differ from the brute force's:"
		diff "$tmp/brute.out" "$tmp/first.ids" | head -5
		return 1
	}
}

for spec in bgmaps/AR0602SR dao/den312d; do
	if [ -f "$data/maps/$spec.map" ]; then
		check "crowd, knn and Lua: the same bytes by every method and thread count, and the brute force's ids, on $spec" ties_ok "$spec"
	else
		echo "crowd-ties: $data/maps/$spec.map is absent: skipped"
	fi
done
summary crowd-ties
