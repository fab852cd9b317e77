# Sourced by the shell test scripts: a scratch folder, counters and the check helpers.
# The caller sets nothing; it ends with `summary NAME`, which prints "NAME: N passed, N failed".
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
export ASAN_OPTIONS=detect_leaks=1

# GT_CHECK_TIMES=1: each check's seconds on stderr ("time: NAME N s"), to find where a script's
# run goes.
check() { # name, then a command that must succeed (and print no sanitizer report)
	local name=$1 start=$SECONDS
	shift
	if "$@" >"$tmp/out" 2>"$tmp/err" && ! grep -q -E 'Sanitizer|runtime error' "$tmp/err"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $name"
		head -n 10 "$tmp/out" "$tmp/err"
	fi
	[ -z "${GT_CHECK_TIMES:-}" ] || echo "time: $name $((SECONDS - start)) s" >&2
}

# The command must exit with a non-zero code (not a crash) and stderr must contain the text.
fails_with() {
	local text=$1
	shift
	"$@" >"$tmp/fout" 2>"$tmp/ferr"
	local rc=$?
	[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && grep -q -F -- "$text" "$tmp/ferr" && ! grep -q -E 'Sanitizer|runtime error' "$tmp/ferr"
}

# A failure as the CLI reports it (docs/cli.md: 1 for a failure, 2 for a usage error): exit code 1 and
# the message on stderr.
failure() {
	local text=$1
	shift
	"$@" >"$tmp/fout" 2>"$tmp/ferr"
	[ $? -eq 1 ] && grep -q -F -- "$text" "$tmp/ferr" && ! grep -q -E 'Sanitizer|runtime error' "$tmp/ferr"
}

# A usage error: exit code 2 and the message.
usage_error() {
	local text=$1
	shift
	"$@" >"$tmp/fout" 2>"$tmp/ferr"
	[ $? -eq 2 ] && grep -q -F -- "$text" "$tmp/ferr"
}

# `gridtree crowd` ARGS with every method on 1 and 2 workers prints the same bytes as the file
# EXPECTED (what LABEL names); otherwise says which run differs, and how.
crowd_methods_match() { # expected label args...
	local expected=$1 label=$2 method threads
	shift 2
	for method in each batch field auto; do
		for threads in 1 2; do
			"$GT" crowd "$@" --method $method --threads $threads >"$tmp/crowd.out" && cmp -s "$expected" "$tmp/crowd.out" || {
				echo "crowd --method $method --threads $threads differs from $label:"
				diff "$expected" "$tmp/crowd.out" | head -5
				return 1
			}
		done
	done
}

summary() {
	echo "$1: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
