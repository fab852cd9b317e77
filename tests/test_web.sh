#!/usr/bin/env bash
# The demo in a browser (docs/web.md): web/build.sh builds build/web/ (at most 8 MB), the page is
# served from localhost and opened in headless Chromium with ?frames=300; its #status must read
# "frames 300 fps F mismatches 0" (its answers to the bundled queries equal the native CLI's), and
# a copy whose bundled answers were altered by one digit must report a mismatch (the check is
# live). The screenshot goes to build/web-check.png; fps is printed, not asserted (a shared
# machine's speed is no test). Keys pressed over DevTools act as in the native demo: walls and
# doors edited (the page's distances then checked against the oracle's on the edited map), the
# mesh backend and back, crowd lines, a layer, the leaf size, the help (its screenshot goes to
# build/web-keys.png). Without emcc or chromium it says so and checks nothing.
# Prints "web: N passed, N failed" last.
set -u
CLI=${1:-bin/gridtree}
source "$(dirname "$0")/checks.sh"
cd "$(dirname "$0")/.."
if ! command -v emcc >/dev/null || ! command -v chromium >/dev/null; then
	echo "note: emscripten or chromium is not installed: the web page is not checked"
	summary web
	exit 0
fi

check "web/build.sh builds build/web" nice web/build.sh "$CLI"
size=$(du -cb build/web/* | tail -n 1 | cut -f1)
echo "note: build/web is $size bytes"
check "build/web holds the page, its script, wasm and data" \
	test -s build/web/index.html -a -s build/web/gridtree-web.js -a -s build/web/gridtree-web.wasm -a -s build/web/gridtree-web.data
check "build/web is at most 8 MB" test "$size" -le 8000000

# A copy of the page whose bundled answers differ from the native CLI's in one digit.
cp -r build/web "$tmp/altered"
python3 - "$tmp/altered/gridtree-web.data" <<'PY'
import re, sys
data = bytearray(open(sys.argv[1], "rb").read())
m = re.search(rb"\n(\d+)\.(\d{9})\n", data)  # a distance line of answers.txt
i = m.end() - 2
data[i] = ord("1") if data[i] != ord("1") else ord("2")
open(sys.argv[1], "wb").write(data)
PY

port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$tmp" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
ln -s "$PWD/build/web" "$tmp/web"
base=http://127.0.0.1:$port
python3 - "$base/web/index.html" <<'PY' # wait until the server answers
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(sys.argv[1]); break
    except OSError:
        time.sleep(0.1)
PY

page_status() { # url, screenshot
	timeout 120 nice python3 web/check_page.py "$1" "$2" 100 2>"$tmp/page.err"
}
status=$(page_status "$base/web/index.html?frames=300" build/web-check.png)
echo "note: $(cat "$tmp/page.err")"
check "the page's self-check: 300 frames, no mismatch" grep -q -E '^frames 300 fps [0-9.]+ mismatches 0$' <<<"$status"
check "the screenshot is a PNG" sh -c 'head -c 8 build/web-check.png | grep -q PNG && test "$(wc -c <build/web-check.png)" -gt 20000'
# Keys: t a wall at the query point, o the nearest door shut, b the mesh and back, q within, c crowd
# lines, a separation, 4 the leaf grid, L a larger leaf, the wheel ('^': zoom in 1.25 times), h the help; '!' counts the page's distances that differ
# from the oracle's on the map as edited (web/check_page.py), '~' waits for the index's rebuild.
keys=$(timeout 120 nice python3 web/check_page.py "$base/web/index.html?frames=30" "$tmp/keys0.png" 100 \
	--keys 't~!o~!b!bqca4L^h' --keys-shot build/web-keys.png 2>"$tmp/keys.err")
echo "note: keys: $(grep '^state' <<<"$keys")"
check "after the keys the page still runs, its self-check unchanged" grep -q -E '^frames 30 fps [0-9.]+ mismatches 0$' <<<"$keys"
check "after wall and door edits, and on the mesh, the page's distances are the oracle's" \
	test "$(grep -c '^verify 0$' <<<"$keys")" -eq 3 -a "$(grep -c '^verify' <<<"$keys")" -eq 3
state_has() { grep -q -E "^state .*$1" <<<"$keys"; }
check "t and o: a wall built and a door shut" state_has 'edits 2 doors [0-9]+ shut 1 '
check "b twice: back on the EHL index" state_has 'backend ehl index (exact|checked) '
check "q, c, a, 4, L, h: within, crowd lines, separation, the leaf grid, leaf 32, the help" \
	state_has 'kind within .* leaf 32 layers 1234-- crowd 1 apart 1 help 1 '
check "the wheel zooms in by 1.25" state_has ' scale 3\.125$'
check "the keys' screenshot is a PNG" sh -c 'head -c 8 build/web-keys.png | grep -q PNG'
altered=$(page_status "$base/altered/index.html?frames=10" "$tmp/altered.png")
echo "note: altered answers: $altered"
check "altered answers are counted as a mismatch" grep -q -E '^frames 10 fps [0-9.]+ mismatches 1$' <<<"$altered"
summary web
