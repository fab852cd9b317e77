#!/usr/bin/env bash
# Replays every saved fuzz input (tests/fuzz/regressions/TARGET/* and the hand-written seeds in
# tests/fuzz/seeds/TARGET/*) through the fuzz harnesses built without libFuzzer, with gcc and the
# library of the ordinary sanitizer build (BIN, default bin/debug: ASan + UBSan). One process per
# input; then the same inputs through the clang fuzz binaries when they are built. Prints
# "fuzz-replay: N passed, N failed"; any crash fails.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-bin/debug}
OUT=build/fuzz/replay
mkdir -p "$OUT"
FLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L -O1 -g -fno-omit-frame-pointer
	-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -Iplugin/include -Iplugin/src -Itools)
LIBS=("$BIN/libgridtree_tools.a" "$BIN/libgridtree_core.a" -lcjson -lexpat -lz -lzstd -lm -lpthread)
map_define=-DGT_FUZZ_EHL_MAP="\"$PWD/assets/maps/small.map\""

passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
build_one() { # TARGET SOURCE [DEFINES...]
	local t=$1 src=$2
	shift 2
	if ! gcc "${FLAGS[@]}" "$@" "$src" tests/fuzz/replay_main.c "${LIBS[@]}" -o "$OUT/replay_$t" >"$log" 2>&1; then
		echo "FAIL replay_$t does not build:"
		cat "$log"
		failed=$((failed + 1))
		return 1
	fi
}

for t in map scenario ehl_raw ehl_crc workload tiled_tmx tiled_tmj mesh lua_api; do
	case $t in
	map) build_one $t tests/fuzz/fuzz_map.c || continue ;;
	scenario) build_one $t tests/fuzz/fuzz_scenario.c || continue ;;
	ehl_raw) build_one $t tests/fuzz/fuzz_ehl.c "$map_define" -DFUZZ_FIX_CRC=0 || continue ;;
	ehl_crc) build_one $t tests/fuzz/fuzz_ehl.c "$map_define" -DFUZZ_FIX_CRC=1 || continue ;;
	workload) build_one $t tests/fuzz/fuzz_workload.c || continue ;;
	tiled_tmx) build_one $t tests/fuzz/fuzz_tiled.c -DFUZZ_TILED_NAME='"fuzz.tmx"' || continue ;;
	tiled_tmj) build_one $t tests/fuzz/fuzz_tiled.c -DFUZZ_TILED_NAME='"fuzz.tmj"' || continue ;;
	mesh) build_one $t tests/fuzz/fuzz_mesh.c || continue ;;
	lua_api) build_one $t tests/fuzz/fuzz_lua_api.c plugin/lua/*.c -I/usr/include/lua5.4 -llua5.4 \
		-DGT_FUZZ_LUA_DRIVER="\"$PWD/tests/fuzz/lua_api_driver.lua\"" || continue ;;
	esac
	n=0
	bad=0
	for input in tests/fuzz/regressions/"$t"/* tests/fuzz/seeds/"$t"/*; do
		[ -f "$input" ] || continue
		n=$((n + 1))
		# Also through the clang build of the target when `tests/fuzz/build.sh` made it: clang's
		# UBSan checks float-to-integer overflow in the library, which the gcc build does not.
		if "$OUT/replay_$t" "$input" >"$log" 2>&1 &&
			{ ! [ -x "build/fuzz/fuzz_$t" ] || "build/fuzz/fuzz_$t" "$input" >"$log" 2>&1; }; then continue; fi
		echo "FAIL replay_$t $input:"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)|^ +#[0-9] ' "$log" | head -n 12
		bad=$((bad + 1))
	done
	echo "replay_$t: $((n - bad)) inputs replayed cleanly, $bad crashed"
	# One test per target: it passes when none of its inputs crashes.
	if [ "$bad" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz-replay: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
