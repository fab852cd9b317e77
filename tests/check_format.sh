#!/usr/bin/env bash
# Every C file the repository tracks is formatted as .clang-format says (clang-format --dry-run
# reports nothing). Prints "format: N passed, N failed" (one count per file).
set -u
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
	echo "FAIL clang-format is not installed (./run installs it)"
	echo "format: 0 passed, 1 failed"
	exit 1
fi
passed=0
failed=0
# One clang-format for every file (a process per file cost about 7x the CPU); it names each file
# it would change ("FILE:LINE:COL: warning: code should be clang-formatted").
files=$(git ls-files '*.c' '*.h' '*.cpp' | grep -v '^tests/fuzz/\(regressions\|seeds\)/')
report=$(printf '%s\n' "$files" | xargs -d '\n' clang-format --dry-run 2>&1)
named=$(printf '%s\n' "$report" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: \(warning\|error\): .*/\1/p' | sort -u)
while IFS= read -r file; do
	if printf '%s\n' "$named" | grep -qxF -- "$file"; then
		echo "FAIL $file is not formatted: clang-format -i $file"
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
done <<<"$files"
# Anything else clang-format said (a file it could not read) fails the check too.
if [ "$failed" -eq 0 ] && [ -n "$report" ]; then
	echo "FAIL clang-format: $(printf '%s\n' "$report" | head -n 3)"
	failed=1
fi
echo "format: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
