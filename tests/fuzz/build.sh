#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) into build/fuzz/, without premake (whose
# compiler here is gcc), and their seed corpora into build/fuzz/corpus/<target>/ with the project's
# own tools. Usage: tests/fuzz/build.sh [GRIDTREE]  (the gridtree tool used for the seeds; default
# bin/gridtree). Rebuilds only when a source, header or this script changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
GT=${1:-bin/gridtree}
OUT=build/fuzz
TARGETS=(map scenario ehl_raw ehl_crc workload tiled_tmx tiled_tmj mesh lua_api)

CC=${FUZZ_CC:-clang}
FLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L -O1 -g -fno-omit-frame-pointer
	-fsanitize=address,undefined -fno-sanitize-recover=all -Iplugin/include -Iplugin/src -Itools)

mkdir -p "$OUT/obj"
stamp=$( (cat "$0" tests/fuzz/*.c tests/fuzz/*.h; find plugin/src plugin/include plugin/lua tools -name '*.[ch]' | sort | xargs cat) | cksum)
if [ "$(cat "$OUT/.stamp" 2>/dev/null)" != "$stamp" ] || ! [ -x "$OUT/fuzz_workload" ]; then
	# The library and the tools support library once, instrumented for coverage but without
	# libFuzzer's main; one compiler at a time (the machine is shared).
	objs=()
	for src in plugin/src/*/*.c tools/*.c; do
		obj="$OUT/obj/$(echo "${src%.c}" | tr / _).o"
		"$CC" "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
		objs+=("$obj")
	done
	link() { # NAME SOURCE [DEFINES...]
		local name=$1 src=$2
		shift 2
		"$CC" "${FLAGS[@]}" -fsanitize=fuzzer "$@" "$src" "${objs[@]}" -lcjson -lexpat -lz -lzstd -lm -lpthread -o "$OUT/$name"
	}
	link fuzz_map tests/fuzz/fuzz_map.c
	link fuzz_scenario tests/fuzz/fuzz_scenario.c
	link fuzz_ehl_raw tests/fuzz/fuzz_ehl.c -DGT_FUZZ_EHL_MAP="\"$PWD/assets/maps/small.map\"" -DFUZZ_FIX_CRC=0
	link fuzz_ehl_crc tests/fuzz/fuzz_ehl.c -DGT_FUZZ_EHL_MAP="\"$PWD/assets/maps/small.map\"" -DFUZZ_FIX_CRC=1
	link fuzz_workload tests/fuzz/fuzz_workload.c
	link fuzz_tiled_tmx tests/fuzz/fuzz_tiled.c -DFUZZ_TILED_NAME='"fuzz.tmx"'
	link fuzz_tiled_tmj tests/fuzz/fuzz_tiled.c -DFUZZ_TILED_NAME='"fuzz.tmj"'
	link fuzz_mesh tests/fuzz/fuzz_mesh.c
	# The Lua binding compiled in, over the system's Lua 5.4; the driver script is read at run time.
	lua_objs=()
	for src in plugin/lua/*.c; do
		obj="$OUT/obj/$(echo "${src%.c}" | tr / _).o"
		"$CC" "${FLAGS[@]}" -I/usr/include/lua5.4 -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
		lua_objs+=("$obj")
	done
	"$CC" "${FLAGS[@]}" -I/usr/include/lua5.4 -fsanitize=fuzzer -DGT_FUZZ_LUA_DRIVER="\"$PWD/tests/fuzz/lua_api_driver.lua\"" \
		tests/fuzz/fuzz_lua_api.c "${lua_objs[@]}" "${objs[@]}" -llua5.4 -lcjson -lexpat -lz -lzstd -lm -lpthread -o "$OUT/fuzz_lua_api"
	echo "$stamp" >"$OUT/.stamp"
fi

# Seeds: made once (a corpus grows as the fuzzers run; delete build/fuzz/corpus to start over).
seed_dir() { # TARGET: empty or missing corpus -> create it and return 0
	local d="$OUT/corpus/$1"
	[ -d "$d" ] && [ -n "$(ls -A "$d")" ] && return 1
	mkdir -p "$d"
	[ -d "tests/fuzz/seeds/$1" ] && cp tests/fuzz/seeds/"$1"/* "$d"/ 2>/dev/null
	return 0
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if seed_dir map; then
	cp assets/maps/small.map "$OUT/corpus/map/small.map"
	"$GT" genmap --style rooms --width 16 --height 16 --seed 1 -o "$OUT/corpus/map/rooms16.map" >/dev/null
	"$GT" genmap --style caves --width 24 --height 20 --seed 2 -o "$OUT/corpus/map/caves24.map" >/dev/null
	"$GT" genmap --style arena --width 32 --height 12 --seed 3 -o "$OUT/corpus/map/arena32.map" >/dev/null
fi
if seed_dir scenario; then
	# Scenario lines for small.map (48x32) with octile distances, in the MovingAI layout.
	awk 'BEGIN {
		for (f = 0; f < 3; f++) {
			file = sprintf("'"$OUT"'/corpus/scenario/seed%d.scen", f)
			print "version 1" > file
			for (i = 0; i < 4 + 3 * f; i++) {
				sx = (i * 7 + f) % 48; sy = (i * 5 + 2 * f) % 32; gx = (i * 11 + 3) % 48; gy = (i * 3 + f) % 32
				dx = sx > gx ? sx - gx : gx - sx; dy = sy > gy ? sy - gy : gy - sy
				lo = dx < dy ? dx : dy; hi = dx < dy ? dy : dx
				printf "%d\tsmall.map\t48\t32\t%d\t%d\t%d\t%d\t%.8f\n", i % 4, sx, sy, gx, gy, hi - lo + lo * sqrt(2) >> file
			}
			close(file)
		}
	}'
fi
for t in ehl_raw ehl_crc; do
	if seed_dir $t; then
		for g in 2 4 8 16; do
			"$GT" ehl-build assets/maps/small.map -o "$OUT/corpus/$t/small-g$g.ehl" --cell $g --threads 1 >/dev/null 2>&1
		done
	fi
done
# Tiled: small generated maps in every encoding and compression, with objects; both chunk kinds.
for fmt in tmx tmj; do
	if seed_dir tiled_$fmt; then
		"$GT" genmap --style rooms --width 16 --height 12 --seed 4 -o "$tmp/t.map" >/dev/null
		printf '1 2.5 3.5 healer\n2 9.5 4.5 enemy fire\n' >"$tmp/t.obj"
		n=0
		for enc in csv base64 xml; do
			[ "$enc" = xml ] && [ "$fmt" = tmj ] && continue
			for comp in none zlib gzip zstd; do
				[ "$enc" != base64 ] && [ "$comp" != none ] && continue
				for chunk in 0 8; do
					n=$((n + 1))
					"$GT" tiled-export "$tmp/t.map" -o "$OUT/corpus/tiled_$fmt/seed$n.$fmt" --encoding $enc --compression $comp \
						--chunk $chunk --blocked $([ $((n % 2)) = 0 ] && echo property || echo layer) --objects "$tmp/t.obj" >/dev/null
				done
			done
		done
	fi
done
if seed_dir workload; then
	printf 'fire\nloot\nhealer\nwater\n' >"$tmp/words.txt"
	"$GT" workload assets/maps/small.map --keywords "$tmp/words.txt" --seed 1 -o "$tmp/wl" --timestamps 3 --queries 6 \
		--density 0.02 >/dev/null
	for f in objects updates queries; do cp "$tmp/wl/$f.txt" "$OUT/corpus/workload/$f.txt"; done
fi
seed_dir mesh || true # the hand-made seeds only
seed_dir lua_api || true # the seeds in tests/fuzz/seeds/lua_api
