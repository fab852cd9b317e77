#!/usr/bin/env bash
# Builds the demo for the browser into build/web/ (docs/web.md): index.html (web/index.html), gridtree-web.js,
# gridtree-web.wasm and gridtree-web.data (keep.map, its EHL index, the demo's script and the
# self-check's queries with the native CLI's answers). Needs the release build (bin/gridtree) and
# Debian's emscripten. Lua 5.4's C sources come from Debian's source package, fetched once into
# build/web-src/ with apt through a private sources list (the machine's apt setup is not touched).
#   web/build.sh [NATIVE_CLI]   (default bin/gridtree)
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${1:-bin/gridtree}
out=build/web src=build/web-src obj=build/web-obj
mkdir -p "$out" "$src" "$obj"
# Debian's emscripten finds its JavaScript modules (acorn, ...) in Debian's Node.js folder.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

# Lua 5.4's sources: Debian's lua5.4 source package (its orig tarball, unpacked).
lua=$src/lua-5.4.4/src
if [ ! -f "$lua/lapi.c" ]; then
	apt_dir=$PWD/$src/apt
	mkdir -p "$apt_dir/lists/partial"
	echo "deb-src http://deb.debian.org/debian bookworm main" >"$apt_dir/sources.list"
	opts=(-q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$apt_dir/lists")
	apt-get "${opts[@]}" update >/dev/null
	(cd "$src" && apt-get "${opts[@]}" source --download-only lua5.4 >/dev/null 2>&1)
	tar -xzf "$src"/lua5.4_5.4.4.orig.tar.gz -C "$src"
fi

# Compiles each source once (again only when it changed): one object per source in build/web-obj.
flags=(-O2 -std=c11 -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L -DNDEBUG)
compile() { # source object [extra flags...]
	local s=$1 o=$2
	shift 2
	if [ ! -f "$o" ] || [ "$s" -nt "$o" ]; then emcc "$@" -c "$s" -o "$o"; fi
}
objects=()
for f in "$lua"/*.c; do
	case $(basename "$f") in lua.c | luac.c) continue ;; esac
	o=$obj/lua_$(basename "$f" .c).o
	compile "$f" "$o" -O2 -DLUA_USE_POSIX
	objects+=("$o")
done
# The library, its Lua binding, web/ and the native demo's SDL-free controls (demo/controls.c),
# except the Tiled readers that need cJSON, expat, zlib and zstd (not in the browser build:
# web/tiled_none.c refuses Tiled files with a message).
headers=$(find plugin/include plugin/src plugin/lua web demo/controls.h -name '*.h' -newer "$out/gridtree-web.js" 2>/dev/null | head -1 || true)
for f in $(find plugin/src plugin/lua web demo/controls.c -name '*.c' | grep -v -E 'tiled_(tmx|tmj|data)\.c$' | sort); do
	o=$obj/$(echo "${f%.c}" | tr / _).o
	[ -n "$headers" ] && rm -f "$o" # a header changed: compile everything again
	compile "$f" "$o" "${flags[@]}" -Iplugin/include -Iplugin/src -Iplugin/lua -Idemo -I"$lua"
	objects+=("$o")
done

# The data: the bundled map, its index (built once by the native CLI), the script, and the
# self-check's queries with the native CLI's answers, in the same order.
data=build/web-data
mkdir -p "$data"
cp assets/maps/keep.map demo/scripts/agents.lua "$data/"
[ -f "$src/keep.ehl" ] && cmp -s assets/maps/keep.map "$src/keep.map" ||
	{ "$cli" ehl-build "$data/keep.map" -o "$src/keep.ehl" --cell 4 >/dev/null && cp assets/maps/keep.map "$src/"; }
cp "$src/keep.ehl" "$data/"
web/queries.sh "$data/keep.map" >"$data/queries.txt"
for kind in dist path; do
	grep "^$kind " "$data/queries.txt" | cut -d' ' -f2- | "$cli" "$kind" "$data/keep.map" --ehl "$data/keep.ehl" 2>/dev/null
done >"$data/answers.txt"

rm -f "$out"/index.{js,wasm,data}
cp web/index.html "$out/index.html"
emcc -O2 "${objects[@]}" -o "$out/gridtree-web.js" \
	--preload-file "$data@/data" -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB \
	-sEXPORTED_FUNCTIONS=_main,_web_pointer,_web_click,_web_key,_web_wheel,_web_drag,_web_verify
du -cb "$out"/* | tail -1 | awk '{printf "build/web: %d bytes\n", $1}'
