#!/usr/bin/env bash
# Runs the fuzz targets: tests/fuzz/fuzz.sh [--smoke] [TARGET|all] [SECONDS] (default all, 60 s
# each, one after the other on one core). Prints each target's execs and coverage from libFuzzer's
# final stats, then "fuzz: N passed, N failed"; exits non-zero on a crash.
#   default   a crash's input is saved as tests/fuzz/regressions/TARGET/crash-SHA1, which
#             `./run test` replays from then on (commit it with the fix)
#   --smoke   (./run test) crashes are saved under build/fuzz/crashes/TARGET/ only; any crash fails
# Extra libFuzzer options can be given in FUZZ_ARGS (e.g. FUZZ_ARGS="-fork=1 -ignore_crashes=1").
set -uo pipefail
cd "$(dirname "$0")/../.."
ALL=(map scenario ehl_raw ehl_crc workload tiled_tmx tiled_tmj mesh lua_api)
smoke=0
if [ "${1:-}" = --smoke ]; then smoke=1 && shift; fi
target=${1:-all}
seconds=${2:-60}
case "$target" in all) targets=("${ALL[@]}") ;; *) targets=("$target") ;; esac
for t in "${targets[@]}"; do
	if ! [[ " ${ALL[*]} " == *" $t "* ]]; then
		echo "fuzz: unknown target '$t' (targets: ${ALL[*]})" >&2
		exit 2
	fi
done
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
	echo "fuzz: SECONDS must be a positive integer, got '$seconds'" >&2
	exit 2
fi

max_len() { # inputs a little above the largest seed; longer ones only slow the search down
	case $1 in map | scenario | mesh) echo 4096 ;; lua_api) echo 1024 ;; workload) echo 8192 ;; tiled_*) echo 12000 ;; *) echo 40000 ;; esac
}

passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
	art=build/fuzz/crashes/$t
	mkdir -p "$art" "build/fuzz/corpus/$t"
	before=$(ls "$art" | wc -l)
	start=$(date +%s)
	# -close_fd_mask=2: the parsers' error messages are not shown; sanitizer reports still are.
	# shellcheck disable=SC2086
	"build/fuzz/fuzz_$t" "build/fuzz/corpus/$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=2 -artifact_prefix="$art/" ${FUZZ_ARGS:-} >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 | awk '{print "cov " $2 " ft " $4}')
	corpus=$(ls "build/fuzz/corpus/$t" | wc -l)
	summary="fuzz_$t: ${execs:-0} execs, ${cov:-cov ? ft ?}, corpus $corpus, $(($(date +%s) - start)) s"
	if [ "$rc" -eq 0 ]; then
		echo "$summary: ok"
		passed=$((passed + 1))
		continue
	fi
	input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
	[ -z "$input" ] && [ "$(ls "$art" | wc -l)" -gt "$before" ] && input=$art/$(ls -t "$art" | head -n 1)
	if [ "$smoke" -eq 0 ] && [ -n "$input" ]; then
		mkdir -p "tests/fuzz/regressions/$t"
		cp "$input" "tests/fuzz/regressions/$t/crash-$(sha1sum "$input" | cut -c1-40)"
		input="$input (copied to tests/fuzz/regressions/$t/)"
	fi
	echo "FAIL $summary: crash (exit $rc), input ${input:-not saved}"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)|^ +#[0-9] ' "$log" | head -n 12
	failed=$((failed + 1))
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
