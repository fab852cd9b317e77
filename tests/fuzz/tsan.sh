#!/usr/bin/env bash
# ThreadSanitizer run of the threaded code: the library, the tools support library and the test
# helpers built with clang -fsanitize=thread into build/tsan/, then tests/test_platform.c (the
# allocator hook and task systems around threaded EHL builds) and tests/fuzz/tsan_threads.c (the
# built-in pool and a parallel host job system driving the visibility graph and the EHL build,
# one index queried from several threads, a crowd's workers answering batches and fields, and a
# background index rebuild while the map is edited and queried).
# Any race report stops the program (halt_on_error=1) except the ones tests/fuzz/tsan.supp explains.
# Prints "tsan: N passed, N failed" (cmocka test counts).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=build/tsan
CC=${TSAN_CC:-clang}
FLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L -O1 -g -fno-omit-frame-pointer
	-fsanitize=thread -Iplugin/include -Iplugin/src -Itools -Itests/support)
mkdir -p "$OUT/obj"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

stamp=$( (cat "$0" tests/fuzz/tsan_threads.c tests/test_platform.c; find plugin/src plugin/include tools tests/support -name '*.[ch]' | sort | xargs cat) | cksum)
if [ "$(cat "$OUT/.stamp" 2>/dev/null)" != "$stamp" ] || ! [ -x "$OUT/tsan_threads" ]; then
	objs=()
	for src in plugin/src/*/*.c tools/*.c tests/support/*.c; do
		obj="$OUT/obj/$(echo "${src%.c}" | tr / _).o"
		if ! "$CC" "${FLAGS[@]}" -c "$src" -o "$obj" 2>"$log"; then
			cat "$log"
			echo "tsan: 0 passed, 1 failed"
			exit 1
		fi
		objs+=("$obj")
	done
	for t in tests/test_platform.c tests/fuzz/tsan_threads.c; do
		if ! "$CC" "${FLAGS[@]}" "$t" "${objs[@]}" -lcmocka -lcjson -lexpat -lz -lzstd -lm -lpthread -o "$OUT/$(basename "${t%.c}")" 2>"$log"; then
			cat "$log"
			echo "tsan: 0 passed, 1 failed"
			exit 1
		fi
	done
	echo "$stamp" >"$OUT/.stamp"
fi

# Clang 14's TSan cannot map its shadow memory under the high mmap randomization of recent
# kernels; running without address randomization avoids that ("unexpected memory mapping").
norandom=()
setarch "$(uname -m)" -R true 2>/dev/null && norandom=(setarch "$(uname -m)" -R)

passed=0
failed=0
for prog in "$OUT/test_platform" "$OUT/tsan_threads"; do
	name=$(basename "$prog")
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/fuzz/tsan.supp" "${norandom[@]}" "$prog" >"$log" 2>&1
	rc=$?
	run=$(sed -n 's/^\[==========\] \([0-9]*\) test(s) run\./\1/p' "$log" | tail -n 1)
	bad=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$log" | tail -n 1)
	if [ -z "$run" ] || [ "$rc" -ne 0 ] || [ "${bad:-0}" -gt 0 ]; then
		echo "FAIL tsan $name (exit $rc):"
		grep -E 'WARNING: ThreadSanitizer|^ +#[0-9] |SUMMARY|\[  (FAILED|ERROR) ' "$log" | head -n 30
		[ -z "$run" ] && run=1
		bad=${bad:-0}
		[ "$bad" -eq 0 ] && bad=1
	fi
	bad=${bad:-0}
	echo "tsan $name: $((run - bad)) passed, $bad failed"
	passed=$((passed + run - bad))
	failed=$((failed + bad))
done
echo "tsan: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
