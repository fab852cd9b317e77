#!/usr/bin/env bash
# `./run install` into a scratch prefix, then the installed files used the way a C program, a C++
# program, pkg-config and Lua use them. It reuses the release build that `./run test` has just
# made (install only copies). BIN (default bin/debug) is the sanitizer build, whose copy of the C
# example runs here too. Prints "install: N passed, N failed" as its last line.
set -u
cd "$(dirname "$0")/.."
BIN=${1:-bin/debug}
source tests/checks.sh
prefix=$tmp/prefix

# Defined dynamic symbols of a shared object, one per line.
exports() { nm -D --defined-only "$1" | awk '{print $NF}' | sort -u; }

# Exports are only public API names (gtXxx), and the central ones are there.
only_gt_api() {
	local names
	names=$(exports "$1") || return 1
	[ -n "$names" ] || return 1
	if echo "$names" | grep -v -E '^gt[A-Z]'; then return 1; fi
	for f in gtMap_Load gtNav_Create gtNavQuery_Distance gtWorld_Nearest gtPath_Advance gtSetAllocator gtEhl_Build; do
		echo "$names" | grep -q -x "$f" || { echo "missing $f"; return 1; }
	done
}
only_luaopen() { [ "$(exports "$1")" = luaopen_gridtree ]; }

# --- the install itself
check "run install" ./run install "$prefix"
installed() {
	local f
	for f in include/gridtree/gridtree.h include/gridtree/gt_nav.h lib/libgridtree.so lib/libgridtree.a \
		lib/pkgconfig/gridtree.pc bin/gridtree lib/lua/5.4/gridtree.so lib/lua/5.1/gridtree.so; do
		[ -s "$prefix/$f" ] || { echo "missing $f"; return 1; }
	done
	cmp bin/libgridtree.so "$prefix/lib/libgridtree.so" && # the build just made, not a stale one
		cmp bin/luajit/gridtree.so "$prefix/lib/lua/5.1/gridtree.so"
}
check "installed files" installed

# DESTDIR is prepended, and the default PREFIX is /usr/local (the .pc file names the real prefix;
# ldconfig is not run for a staged install).
staged() {
	local f
	DESTDIR="$tmp/stage" ./run install >"$tmp/staged.out" 2>&1 || return 1
	for f in include/gridtree/gridtree.h lib/libgridtree.so lib/libgridtree.a lib/pkgconfig/gridtree.pc bin/gridtree \
		lib/lua/5.4/gridtree.so lib/lua/5.1/gridtree.so; do
		[ -s "$tmp/stage/usr/local/$f" ] || { echo "missing $f"; return 1; }
	done
	grep -qx "prefix=/usr/local" "$tmp/stage/usr/local/lib/pkgconfig/gridtree.pc"
}
check "DESTDIR and the default prefix" staged

# --- pkg-config
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pc_flags() {
	[ "$(pkg-config --modversion gridtree)" = "$(sed -n 's/^Version: //p' "$prefix/lib/pkgconfig/gridtree.pc")" ] &&
		pkg-config --cflags gridtree | grep -q -F -- "-I$prefix/include" &&
		pkg-config --libs gridtree | grep -q -F -- "-L$prefix/lib -lgridtree" &&
		pkg-config --static --libs gridtree >"$tmp/static_libs" &&
		for l in -lcjson -lexpat -lz -lzstd -lm -lpthread; do grep -q -w -- "$l" "$tmp/static_libs" || return 1; done
}
check "pkg-config flags" pc_flags

# --- the C example against the installed shared library
CFLAGS_STRICT=(-std=c11 -Wall -Wextra -Wpedantic -Werror)
c_example_builds() {
	# shellcheck disable=SC2046 # pkg-config output is a list of flags
	cc "${CFLAGS_STRICT[@]}" $(pkg-config --cflags gridtree) examples/nearest_healer.c $(pkg-config --libs gridtree) \
		-lm -Wl,-rpath,"$prefix/lib" -o "$tmp/nearest_healer" &&
		readelf -d "$tmp/nearest_healer" | grep -q 'NEEDED.*\[libgridtree.so\]' # dynamic, not the .a
}
check "C example compiles against the shared library" c_example_builds

# Real content: the index was used, three queries each list healers, and every walking distance is
# at least the straight line.
example_output_ok() {
	local out=$1 queries
	grep -q '^map .*navigation by ehl$' "$out" || return 1
	queries=$(grep -c '^tick [0-9]*: knight at .*, [1-9] nearest healers' "$out")
	[ "$queries" -eq 3 ] || return 1
	awk '/ walk / { n++; w = $(NF - 3) + 0; s = $NF + 0; if (w < s - 1e-9 || $0 !~ /healer/) bad++ }
		END { exit !(n >= 3 && bad == 0) }' "$out"
}
c_example_runs() {
	[ -x "$tmp/nearest_healer" ] && env -u LD_LIBRARY_PATH "$tmp/nearest_healer" >"$tmp/example.out" &&
		ldd "$tmp/nearest_healer" | grep -q -F "$prefix/lib/libgridtree.so" && example_output_ok "$tmp/example.out"
}
check "C example runs (installed shared library, keep.map)" c_example_runs
c_example_reports_errors() {
	! "$tmp/nearest_healer" "$tmp/none.map" >/dev/null 2>"$tmp/example.err" &&
		grep -q "^gtMap_Load failed (io): .*none.map" "$tmp/example.err"
}
check "C example reports a bad map" c_example_reports_errors

# The same example against the installed static library, linked as docs/c-api.md says.
c_example_static() {
	# shellcheck disable=SC2046
	cc "${CFLAGS_STRICT[@]}" $(pkg-config --cflags gridtree) examples/nearest_healer.c "$prefix/lib/libgridtree.a" -lm -lpthread \
		-o "$tmp/nearest_healer_static" && ! readelf -d "$tmp/nearest_healer_static" | grep -q libgridtree &&
		"$tmp/nearest_healer_static" assets/maps/caves.map >"$tmp/static.out" && example_output_ok "$tmp/static.out"
}
check "C example with the static library" c_example_static

# docs/c-api.md: the example built from the repository root exactly as written there, against the
# shared library in bin/ and statically; without an argument it opens the bundled keep.map.
readme_commands() {
	cc -std=c11 -Iplugin/include examples/nearest_healer.c -Lbin -lgridtree -lm -Wl,-rpath,"$PWD/bin" -o "$tmp/nh_shared" &&
		cc -std=c11 -Iplugin/include examples/nearest_healer.c bin/libgridtree_core.a -lm -lpthread -o "$tmp/nh_static" &&
		env -u LD_LIBRARY_PATH "$tmp/nh_shared" >"$tmp/nh_shared.out" && example_output_ok "$tmp/nh_shared.out" &&
		grep -q '^map .*keep.map' "$tmp/nh_shared.out" && "$tmp/nh_static" >"$tmp/nh_static.out" && example_output_ok "$tmp/nh_static.out"
}
check "README's compile commands for the example" readme_commands
# docs/c-api.md: "The API in short" compiles as the body of main() and runs: the first run builds
# and saves keep.ehl, the second loads it.
readme_api() {
	local dir=$tmp/api
	mkdir -p "$dir" && ln -sfn "$PWD/assets" "$dir/assets" &&
		{ printf '#include <stdio.h>\n#include <gridtree/gridtree.h>\nint main(void)\n{\n'
		  awk '/^## The API in short/ { want = 1 } want && /^```c$/ { code = 1; next } code && /^```$/ { exit } code' docs/c-api.md
		  printf 'return 0;\n}\n'; } >"$dir/api.c" &&
		grep -q gtWorld_Nearest "$dir/api.c" &&
		# shellcheck disable=SC2046
		cc "${CFLAGS_STRICT[@]}" $(pkg-config --cflags gridtree) "$dir/api.c" $(pkg-config --libs gridtree) -lm \
			-Wl,-rpath,"$prefix/lib" -o "$dir/api" &&
		(cd "$dir" && ./api 2>build.err && [ -s keep.ehl ] && ./api 2>load.err) && [ ! -s "$dir/build.err" ] &&
		[ ! -s "$dir/load.err" ]
}
check "README's API in short compiles and runs" readme_api
# README, In C: the program saved as healer.c and built and run by the command below it, as
# written, in a folder that looks like the repository; it prints what the command's comment says
# (the healer in view, not the one behind the wall).
readme_c_example() {
	local dir=$tmp/readme_c line
	mkdir -p "$dir" && ln -sfn "$PWD/plugin" "$dir/plugin" && ln -sfn "$PWD/bin" "$dir/bin" && ln -sfn "$PWD/assets" "$dir/assets" &&
		awk '/^## In C/ { want = 1 } want && /^```c$/ { code = 1; next } code && /^```$/ { exit } code' README.md >"$dir/healer.c" &&
		line=$(awk '/^## In C/ { want = 1 } want && /^```sh$/ { code = 1; next } code && /^```$/ { exit } code' README.md) &&
		[[ $line == *"# in_view, 10.77" ]] && grep -q gtWorld_Nearest "$dir/healer.c" &&
		[ "$(cd "$dir" && env -u LD_LIBRARY_PATH bash -c "set -e; $line")" = "in_view, 10.77" ]
}
check "README's C example compiles and runs" readme_c_example

# The sanitizer build of the example (built by premake against bin/debug/libgridtree.so).
debug_example() {
	"$BIN/examples/nearest_healer" assets/maps/caves.map >"$tmp/debug.out" && example_output_ok "$tmp/debug.out"
}
check "C example, sanitizer build" debug_example

# --- C++
cpp_links() {
	# shellcheck disable=SC2046
	g++ -std=c++11 -Wall -Wextra -Wpedantic -Werror $(pkg-config --cflags gridtree) tests/cpp/link_test.cpp \
		$(pkg-config --libs gridtree) -Wl,-rpath,"$prefix/lib" -o "$tmp/link_test" &&
		"$tmp/link_test" assets/maps/small.map >"$tmp/cpp.out" &&
		[ "$(grep -c '^ok ' "$tmp/cpp.out")" -eq 4 ] && grep -q '^ok error invalid point: ' "$tmp/cpp.out"
}
check "C++ program compiles, links and runs" cpp_links

# --- exported symbols
check "installed libgridtree.so exports only gt names" only_gt_api "$prefix/lib/libgridtree.so"
check "sanitizer libgridtree.so exports only gt names" only_gt_api "$BIN/libgridtree.so"
check "installed Lua module exports only luaopen_gridtree" only_luaopen "$prefix/lib/lua/5.4/gridtree.so"
check "installed LuaJIT module exports only luaopen_gridtree" only_luaopen "$prefix/lib/lua/5.1/gridtree.so"
for m in bin/luajit/gridtree.so "$BIN/gridtree.so"; do
	[ -f "$m" ] && check "$m exports only luaopen_gridtree" only_luaopen "$m"
done

# The tools support library (workload, replay, linear scans, scenario reader) is not part of libgridtree.
no_tools() {
	! nm -D --defined-only "$prefix/lib/libgridtree.so" | grep -E ' (wl_|ls_|gtScenario)' &&
		! nm --defined-only "$prefix/lib/libgridtree.a" | grep -E ' T (wl_|ls_|gtScenario)' &&
		nm --defined-only bin/libgridtree_tools.a | grep -q ' T gtScenario_Load'
}
check "libgridtree has none of the tools" no_tools
# Warnings are errors: every C project of the build compiles with the documented flags.
strict_flags() {
	local f
	for f in build/*.make; do
		grep -q '^  CFLAGS ' "$f" || continue
		grep '^  CFLAGS ' "$f" | grep -v -q -F -- '-std=c11 -Wall -Wextra -Wpedantic -Werror' && { echo "$f"; return 1; }
	done
	return 0
}
check "warnings are errors in every build" strict_flags

# --- Lua and the CLI from the prefix
lua_loads() {
	LUA_CPATH_5_4="$prefix/lib/lua/5.4/?.so" lua5.4 -e 'print(require"gridtree"._VERSION)' >"$tmp/lua.out" &&
		grep -q -E '^gridtree [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/lua.out"
}
check "installed Lua module loads" lua_loads
luajit_loads() {
	LUA_CPATH="$prefix/lib/lua/5.1/?.so" luajit -e 'print(require"gridtree"._VERSION)' >"$tmp/luajit.out" &&
		grep -q -E '^gridtree [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/luajit.out"
}
check "installed LuaJIT module loads" luajit_loads
# A LOVE game shipped as lua/README.md says: a .love archive with the module beside it (copied from
# the prefix), found through getSourceBaseDirectory, the level read out of the archive; 600
# frames of 1/60 s, headless, exit 0. Its last line names the module it loaded.
love_game_ships() {
	local ship=$tmp/ship
	mkdir -p "$ship" && cp "$prefix/lib/lua/5.1/gridtree.so" "$ship/" && cp assets/maps/small.map "$tmp/level.map" &&
		(cd tests/love_installed && zip -q -j "$ship/game.love" main.lua conf.lua "$tmp/level.map") &&
		XDG_DATA_HOME=$tmp/xdg timeout 120 xvfb-run -a love "$ship/game.love" >"$tmp/love.out" 2>&1 &&
		grep -q -x "installed-game: 600 frames, 3 nearest reds, gridtree [0-9.]* from $ship/gridtree.so" "$tmp/love.out"
}
check "a LOVE game loads the installed module (shipped beside a .love)" love_game_ships

# --- Static linking as docs/install.md shows it, for a program that loads Tiled maps (expat for
# .tmx, cJSON for .tmj, zlib and zstd for compressed layers): the command is taken from the doc.
cat >"$tmp/walls.tmx" <<'TMX'
<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="3" tilewidth="16" tileheight="16" infinite="0" nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="1" columns="1"/>
 <layer id="1" name="collision" width="4" height="3">
  <data encoding="csv">
1,1,1,1,
0,0,1,0,
0,0,0,0
</data>
 </layer>
</map>
TMX
cat >"$tmp/tiled_app.c" <<'C'
#include <stdio.h>

#include <gridtree/gridtree.h>

// Loads each Tiled map named on the command line and prints "width height free_cells".
int main(int argc, char** argv)
{
	for (int i = 1; i < argc; i++) {
		gtTiledDef def = gtTiled_DefaultDef();
		gtMap* map;
		gtError err;
		if (gtMap_LoadTiled(argv[i], &def, &map, NULL, &err)) {
			fprintf(stderr, "%s\n", err.message);
			return 1;
		}
		printf("%d %d %lld\n", gtMap_Width(map), gtMap_Height(map), (long long)gtMap_FreeCells(map));
		gtMap_Destroy(map);
	}
	return 0;
}
C
static_tiled() {
	local dir=$tmp/static_dir cmd
	mkdir -p "$dir" && cp "$tmp/tiled_app.c" "$dir/app.c" || return 1
	cmd=$(awk '/^## Static linking/ { want = 1 } want && /^```sh$/ { code = 1; next } code && /^```$/ { exit } code' docs/install.md)
	echo "$cmd" | grep -q 'pkg-config --static --libs gridtree' || { echo "no static command in docs/install.md"; return 1; }
	(cd "$dir" && eval "$cmd") || return 1
	! readelf -d "$dir/app" | grep -q libgridtree || { echo "app needs libgridtree.so"; return 1; }
	"$prefix/bin/gridtree" tiled-export "$tmp/walls.tmx" -o "$tmp/walls_zstd.tmj" --encoding base64 --compression zstd >/dev/null &&
		"$prefix/bin/gridtree" tiled-export "$tmp/walls.tmx" -o "$tmp/walls_zlib.tmx" --encoding base64 --compression zlib >/dev/null &&
		env -u LD_LIBRARY_PATH "$dir/app" "$tmp/walls.tmx" "$tmp/walls_zstd.tmj" "$tmp/walls_zlib.tmx" >"$tmp/static_app.out" &&
		[ "$(paste -sd ' ' "$tmp/static_app.out")" = "4 3 7 4 3 7 4 3 7" ]
}
check "static link of a Tiled program as docs/install.md shows" static_tiled
cli_runs() { "$prefix/bin/gridtree" info assets/maps/small.map | grep -q -x "width 48"; }
check "installed CLI runs" cli_runs

# --- the run script's other entry points (README, Try it and More commands), on the release build
run_demo_headless() { # without a display: headless, to build/demo.png, and it says so
	rm -f build/demo.png
	env -u DISPLAY -u WAYLAND_DISPLAY ./run demo assets/maps/small.map --agents 50 >"$tmp/demo.out" 2>&1 &&
		grep -q "^no display: rendering headless" "$tmp/demo.out" && grep -q "^picture: build/demo.png" "$tmp/demo.out" &&
		[ -s build/demo.png ]
}
check "./run demo without a display" run_demo_headless
run_demo_flag() { # --headless asked for (a display or not): the same picture
	rm -f build/demo.png
	./run demo assets/maps/small.map --agents 50 --headless >"$tmp/demo.out" 2>&1 &&
		grep -q "^picture: build/demo.png" "$tmp/demo.out" && grep -q "^frames 120" "$tmp/demo.out" && [ -s build/demo.png ]
}
check "./run demo --headless" run_demo_flag
run_soak() { ./run soak 2000 5 >"$tmp/soak.out" 2>&1 && grep -qx "operations 2000" "$tmp/soak.out" && grep -qx "mismatches 0" "$tmp/soak.out"; }
check "./run soak OPS SEED" run_soak

# --- LuaRocks: the rockspec builds the module from the same sources (builtin type: no globs)
rockspec_sources() {
	diff <(grep -o '"plugin/[^"]*\.c"' gridtree-*.rockspec | tr -d '"' | sort) \
		<(find plugin/src plugin/lua -name '*.c' | sort)
}
check "rockspec lists every source" rockspec_sources

summary install
