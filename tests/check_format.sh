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
while IFS= read -r file; do
	if [ -n "$(clang-format --dry-run "$file" 2>&1 | head -n 1)" ]; then
		echo "FAIL $file is not formatted: clang-format -i $file"
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
done < <(git ls-files '*.c' '*.h' '*.cpp' | grep -v '^tests/fuzz/\(regressions\|seeds\)/')
echo "format: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
