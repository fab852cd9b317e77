#!/usr/bin/env bash
# The demo pictures of README.md and docs/demo.md, made by the demo itself (./run demo-media): for the bundled
# assets/maps/keep.map and, when the benchmark data is there, bgmaps/AR0602SR with 5,000 agents in
# crowd mode, a screenshot (docs/demo/NAME.png) and a recording of a few seconds as an animated PNG
# (docs/demo/NAME-recording.png) in which a wall is built across the query's answers and the paths
# go round it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/demo
mkdir -p "$out"
DEMO=bin/gridtree-demo
DATA=${GRIDTREE_DATA:-../shared/data}
# The query is the demo's start query (a point, keyword and k whose answers include a path round a
# wall, chosen with the seed); 90 frames in, `t` builds a wall on the query point's cell, then 89
# more frames: 3 s.
keys=$(printf '.%.0s' $(seq 90))t

shoot() { # name, map, extra options...
	local name=$1 map=$2
	shift 2
	"$DEMO" "$map" --headless --size 1280x800 --frames 150 --screenshot "$out/$name.png" "$@" | grep -E '^(fps|screenshot|map|index|query|answers)'
	"$DEMO" "$map" --headless --size 960x600 --frames 180 --keys "$keys" --record "$out/$name-recording.png" \
		--record-every 5 "$@" | grep -E '^(recording|recorded_frames|map_edits)'
}
shoot keep assets/maps/keep.map --agents 2000
if [ -f "$DATA/maps/bgmaps/AR0602SR.map" ]; then
	shoot AR0602SR "$DATA/maps/bgmaps/AR0602SR.map" --agents 5000 --crowd
else
	echo "benchmark data not found at $DATA (set GRIDTREE_DATA): only the bundled map's pictures" >&2
fi
ls -l "$out"
