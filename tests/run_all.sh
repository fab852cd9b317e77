#!/usr/bin/env bash
# Runs every cmocka program in BIN (default bin/debug) and the Lua tests; the last line is
# "N passed, N failed". A program that prints no cmocka summary counts as crashed (failed).
# Two lanes run side by side (most tests use one thread; CI machines have two cores): the cmocka
# programs then ThreadSanitizer, and the scripts then the fuzz smoke.
set -u
BIN=${1:-bin/debug}
passed=0
failed=0
skipped=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_programs() {
	local log=$work/program.log prog name rc run bad skip ok start
	for prog in "$BIN"/test_*; do
	[ -x "$prog" ] || continue
	name=$(basename "$prog")
	start=$SECONDS
	"$prog" >"$log" 2>&1
	rc=$?
	run=$(sed -n 's/^\[==========\] \([0-9]*\) test(s) run\./\1/p' "$log" | tail -n 1)
	bad=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$log" | tail -n 1)
	skip=$(sed -n "s/^\[  SKIPPED \] \([0-9]*\) test(s), listed below:/\1/p" "$log" | tail -n 1)
	grep -E '^(note|skipped):' "$log" | sort -u
	if [ -z "$run" ]; then
		echo "CRASH $name (exit $rc, no cmocka summary):"
		tail -n 30 "$log"
		failed=$((failed + 1))
		continue
	fi
	bad=${bad:-0}
	skip=${skip:-0}
	if [ "$bad" -gt 0 ] || [ "$rc" -ne 0 ]; then
		grep -E '^\[  (ERROR|FAILED|  LINE) |^\[   LINE   \]|ERROR|Sanitizer|runtime error' "$log" | head -n 40
		[ "$bad" -eq 0 ] && bad=1 # non-zero exit without a reported failure: a sanitizer report
	fi
	ok=$((run - bad - skip))
	echo "$name: $ok passed, $bad failed, $skip skipped ($((SECONDS - start)) s)"
	passed=$((passed + ok))
	failed=$((failed + bad))
	skipped=$((skipped + skip))
	done
}

# Runs a script that ends with "LABEL: N passed, N failed" and adds its counts.
run_script() {
	local label=$1 line p f rc start=$SECONDS
	shift
	"$@" >"$log" 2>&1
	rc=$?
	grep -E '^FAIL' -A 6 "$log" | grep -v -E "^$label: [0-9]+ passed" | head -n 40
	grep -E '^note:' "$log" | head -n 10
	line=$(grep -E "^$label: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "CRASH $label tests (exit $rc):"
		tail -n 30 "$log"
		failed=$((failed + 1))
		return
	fi
	p=$(echo "$line" | sed "s/^$label: \([0-9]*\) passed.*/\1/")
	f=$(echo "$line" | sed "s/^$label: [0-9]* passed, \([0-9]*\) failed.*/\1/")
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1 # non-zero exit without a reported failure
	echo "$label: $p passed, $f failed ($((SECONDS - start)) s)"
	passed=$((passed + p))
	failed=$((failed + f))
}

run_programs_then_tsan() {
	run_programs
	# The threaded builds and shared-index queries under ThreadSanitizer.
	run_script tsan tests/fuzz/tsan.sh
	# A short run of every fuzz target (GRIDTREE_FUZZ_SMOKE seconds each, default 10: about 1.5 minutes
	# with the clang build; ./run fuzz for long runs); any crash fails. In this lane as its build is
	# its own and the scripts' lane (cli, web) is the longer one (lanes 658 s and 432 s without them).
	run_script fuzz sh -c 'tests/fuzz/build.sh "$1" && tests/fuzz/fuzz.sh --smoke all "$2"' fuzz "$BIN/gridtree" \
		"${GRIDTREE_FUZZ_SMOKE:-10}"
	# Every input the fuzzers ever crashed on, replayed through the ordinary sanitizer build (and the
	# fuzz build, when made: after it, in the same lane).
	run_script fuzz-replay tests/fuzz/replay.sh "$BIN"
}

run_scripts() {
	# Size conventions: no C file in plugin/ or demo/ over 1,000 lines, no function over 100 lines.
	run_script sizes tests/check_sizes.sh
	# The code style (.clang-format): every tracked C file as clang-format writes it.
	run_script format tests/check_format.sh

	# The command-line tool, against the same build.
	run_script cli tests/test_cli.sh "$BIN/gridtree"
	run_script cli-maps tests/test_cli_maps.sh "$BIN/gridtree"
	# Crowds on real maps with tied distances: every method and thread count alike, and a brute force's ids.
	run_script crowd-ties tests/test_crowd_ties.sh "$BIN/gridtree"
	run_script cli-links tests/test_cli_links.sh "$BIN/gridtree"
	# Straight-line neighbours: every method byte-identical to brute force, 2D and 3D, wrapping or not.
	run_script cli-neighbours tests/test_cli_neighbours.sh "$BIN/gridtree"
	# The demo's start view (a path round a wall) and its refusal without a display.
	run_script demo tests/test_demo.sh "$BIN"
	# The demo in a browser (emscripten, headless Chromium): built, served and its self-check read.
	run_script web tests/test_web.sh "$([ -x bin/gridtree ] && echo bin/gridtree || echo "$BIN/gridtree")"

	# Installing into a scratch prefix, and C, C++, pkg-config and Lua using what was installed.
	run_script install tests/test_install.sh "$BIN"

	# The model-based soak, short runs (./run soak for the long one).
	run_script soak tests/test_soak.sh "$BIN"

	# Lua tests: the module is built with ASan in debug, so the runtime must be preloaded.
	preload=""
	if [ "$BIN" = bin/debug ]; then preload=$(gcc -print-file-name=libasan.so); fi
	run_script lua env LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 LUA_CPATH_5_4="./$BIN/?.so" lua5.4 tests/lua/run.lua
	# The same suite under LuaJIT with the LuaJIT build of the module (the same C source).
	if [ -f "$BIN/luajit/gridtree.so" ]; then
		run_script luajit env LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 LUA_CPATH="./$BIN/luajit/?.so" luajit tests/lua/run.lua
	else
		echo "luajit: module not built (LuaJIT headers missing)"
		failed=$((failed + 1))
	fi
}

# The programs' lane runs in the background into a file (its counts into FILE.counts); the scripts'
# lane reports as it goes, then the programs' report follows.
(
	log=$work/programs.log
	run_programs_then_tsan >"$work/programs" 2>&1
	echo "$passed $failed $skipped" >"$work/programs.counts"
	echo "$SECONDS" >"$work/programs.seconds"
) &
log=$work/scripts.log
run_scripts
scripts_seconds=$SECONDS
wait
# Each lane's length, to keep them even as tests are added (the later one is the run's length).
echo "lanes: scripts $scripts_seconds s, programs then tsan $(cat "$work/programs.seconds" 2>/dev/null) s"
cat "$work/programs"
if read -r p f s <"$work/programs.counts"; then
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
else
	echo "CRASH: the programs' lane left no counts"
	failed=$((failed + 1))
fi

[ "$skipped" -gt 0 ] && echo "($skipped skipped: benchmark data absent)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
