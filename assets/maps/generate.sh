#!/usr/bin/env bash
# Regenerates the bundled maps. Every map here is made by gridtree itself; tests check that these
# commands reproduce the committed files byte for byte.
set -euo pipefail
cd "$(dirname "$0")"
GT=${GT:-../../bin/gridtree}
"$GT" genmap --style rooms --width 48 --height 32 --seed 7 -o small.map
"$GT" genmap --style rooms --width 256 --height 256 --seed 1 -o keep.map
"$GT" genmap --style caves --width 128 --height 128 --seed 3 -o caves.map
"$GT" genmap --style arena --width 256 --height 256 --seed 5 -o arena.map
