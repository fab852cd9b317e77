#!/usr/bin/env bash
# Runs every cmocka program in BIN (default bin/debug), the scripts and the Lua tests; the last line is
# "N passed, N failed". A program that prints no cmocka summary counts as crashed (failed).
# Two lanes (most tests use one thread; CI machines have two cores; GRIDTREE_TEST_LANES=N for more)
# take jobs from one queue, the long ones first, so that the lanes end about together whatever is
# added; each job's report is printed whole when it ends, with its seconds.
set -u
BIN=${1:-bin/debug}
LANES=${GRIDTREE_TEST_LANES:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One cmocka program; its counts are added to passed, failed and skipped.
run_program() {
	local prog=$BIN/$1 name=$1 rc run bad skip ok start=$SECONDS
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
		return
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

# --- The jobs. A job that holds several scripts runs them one after the other.

job_fuzz() {
	# A short run of every fuzz target (GRIDTREE_FUZZ_SMOKE seconds each, default 10; ./run fuzz for
	# long runs) on its clang build; any crash fails.
	run_script fuzz sh -c 'tests/fuzz/build.sh "$1" && tests/fuzz/fuzz.sh --smoke all "$2"' fuzz "$BIN/gridtree" \
		"${GRIDTREE_FUZZ_SMOKE:-10}"
	# Every input the fuzzers ever crashed on, replayed through the ordinary sanitizer build and the
	# fuzz build (so after it).
	run_script fuzz-replay tests/fuzz/replay.sh "$BIN"
}
job_tsan() { # the threaded builds and shared-index queries under ThreadSanitizer
	run_script tsan tests/fuzz/tsan.sh
}
job_cli() {
	# The command-line tool, against the same build.
	run_script cli tests/test_cli.sh "$BIN/gridtree"
	# Installing into a scratch prefix, and C, C++, pkg-config and Lua using what was installed. After
	# the CLI's checks, not beside them: its `./run demo` writes the demo's index cache
	# (build/small.map-g4.ehl), which test_cli.sh removes and expects to be rebuilt.
	run_script install tests/test_install.sh "$BIN"
}
job_cli_maps() { run_script cli-maps tests/test_cli_maps.sh "$BIN/gridtree"; }
job_crowd_ties() { # crowds on real maps with tied distances: every method and thread count alike, and a brute force's ids
	run_script crowd-ties tests/test_crowd_ties.sh "$BIN/gridtree"
}
job_cli_links() { run_script cli-links tests/test_cli_links.sh "$BIN/gridtree"; }
job_cli_neighbours() { # straight-line neighbours: every method byte-identical to brute force, 2D and 3D, wrapping or not
	run_script cli-neighbours tests/test_cli_neighbours.sh "$BIN/gridtree"
}
job_demo() { # the demo's start view (a path round a wall) and its refusal without a display
	run_script demo tests/test_demo.sh "$BIN"
}
job_web() { # the demo in a browser (emscripten, headless Chromium): built, served and its self-check read
	run_script web tests/test_web.sh "$([ -x bin/gridtree ] && echo bin/gridtree || echo "$BIN/gridtree")"
}
job_soak() { # the model-based soak, short runs (./run soak for the long one)
	run_script soak tests/test_soak.sh "$BIN"
}
# The Lua suite: the module is built with ASan in debug, so the runtime must be preloaded.
lua_preload() { [ "$BIN" = bin/debug ] && gcc -print-file-name=libasan.so; }
job_lua() {
	run_script lua env LD_PRELOAD="$(lua_preload)" ASAN_OPTIONS=detect_leaks=0 LUA_CPATH_5_4="./$BIN/?.so" lua5.4 tests/lua/run.lua
}
job_luajit() { # the same suite under LuaJIT with the LuaJIT build of the module (the same C source)
	if [ -f "$BIN/luajit/gridtree.so" ]; then
		run_script luajit env LD_PRELOAD="$(lua_preload)" ASAN_OPTIONS=detect_leaks=0 LUA_CPATH="./$BIN/luajit/?.so" luajit tests/lua/run.lua
	else
		echo "luajit: module not built (LuaJIT headers missing)"
		failed=$((failed + 1))
	fi
}
job_format() { run_script format tests/check_format.sh; } # every tracked C file as clang-format writes it
job_sizes() { # no C file in plugin/ or demo/ over 1,000 lines, no function over 100 lines
	run_script sizes tests/check_sizes.sh
}

# The queue, the long jobs first (seconds of the last CI run in comments); then every other cmocka
# program, then the short scripts. A new long test belongs up here: the "lanes:" line shows when
# the lanes drift apart. A long program listed here and gone from BIN is reported as crashed.
LONG_PROGRAMS="test_edits test_ehl test_links test_mesh test_ehl_repair test_world test_ehl_regions test_door_indexes"
queue=(job_fuzz job_web job_cli) # 230 s with the fuzz build and the replay; 125 s; the CLI about 100 s
for name in test_edits test_ehl test_links; do queue+=("run_program $name"); done # 60-70 s each
queue+=(job_cli_maps job_tsan)                                                    # 58 s, 55 s
for name in test_mesh test_ehl_repair test_world test_ehl_regions; do queue+=("run_program $name"); done # 20-50 s
queue+=(job_demo "run_program test_door_indexes" job_soak)
for prog in "$BIN"/test_*; do
	[ -x "$prog" ] || continue
	name=$(basename "$prog")
	[[ " $LONG_PROGRAMS " == *" $name "* ]] || queue+=("run_program $name")
done
queue+=(job_crowd_ties job_lua job_luajit job_cli_links job_cli_neighbours job_format job_sizes)

# The next job's number, or a failure when the queue is empty.
next_job() {
	local n
	n=$(flock "$work/queue.lock" sh -c 'n=$(cat "$1"); echo $((n + 1)) >"$1"; echo "$n"' sh "$work/next")
	[ "$n" -lt "${#queue[@]}" ] && echo "$n"
}

# A lane takes jobs until none is left; each job's report goes to the output whole, its counts to a
# file of its own. A job runs in a shell of its own: one that leaves no counts has crashed it.
lane() {
	local n job log=$work/lane$1.log
	while n=$(next_job); do
		read -r -a job <<<"${queue[n]}"
		(
			passed=0 failed=0 skipped=0
			"${job[@]}"
			rc=$?
			# A job that counted nothing (a misspelt name, a function that ran no check) fails.
			if [ $((passed + failed + skipped)) -eq 0 ]; then
				echo "FAIL ${queue[n]}: no checks counted (exit $rc)"
				failed=1
			fi
			echo "$passed $failed $skipped" >"$work/job$n.counts"
		) >"$work/job$n.out" 2>&1
		flock "$work/print.lock" cat "$work/job$n.out"
	done
	echo "$SECONDS" >"$work/lane$1.seconds"
}

echo 0 >"$work/next"
# Stopped (a CI timeout, ^C): the lanes and their tests (this process group) stop before the work
# directory goes.
trap 'trap "" INT TERM; kill 0; wait; rm -rf "$work"; exit 130' INT TERM
for ((l = 1; l <= LANES; l++)); do lane "$l" & done
wait

passed=0
failed=0
skipped=0
for n in "${!queue[@]}"; do
	if read -r p f s 2>/dev/null <"$work/job$n.counts"; then
		passed=$((passed + p))
		failed=$((failed + f))
		skipped=$((skipped + s))
	else
		echo "CRASH: ${queue[n]} left no counts"
		failed=$((failed + 1))
	fi
done
# Each lane's length, to keep them even as tests are added (the last one is the run's length).
echo "lanes: $(for ((l = 1; l <= LANES; l++)); do echo "$(cat "$work/lane$l.seconds" 2>/dev/null) s"; done | paste -sd ' ') (${#queue[@]} jobs)"

[ "$skipped" -gt 0 ] && echo "($skipped skipped: benchmark data absent)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
