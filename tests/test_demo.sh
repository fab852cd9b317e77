#!/usr/bin/env bash
# The demo's start view shows the point of walking distance: run headless with its defaults on
# the bundled map, the query it opens on has k answers and at least one reached by a path that
# bends round a wall (a path with an interior vertex); a map with no walls falls back and says so;
# without a display and without --headless it refuses at once instead of running unseen forever.
# Run by run_all.sh against the sanitizer build; prints "demo: N passed, N failed" last.
set -u
BIN=${1:-bin/debug}
DEMO=$BIN/gridtree-demo
source "$(dirname "$0")/checks.sh"
export ASAN_OPTIONS=detect_leaks=0 # SDL's drivers leak at exit

field() { # key, file: the rest of the line `key ...`
	sed -n "s/^$1 //p" "$2" | head -n 1
}

# The defaults (2,000 agents, k and keyword chosen at start), fewer frames than ./run demo's 120:
# the agents walk meanwhile, and the start query must hold (or be chosen again) every frame.
start_view() { # map, frames, output
	"$DEMO" "$1" --headless --frames "$2" --index "$tmp/$(basename "$1").ehl" --screenshot "$tmp/shot.png" >"$3" 2>"$3.err"
}
bends_on() { # map, frames
	start_view "$1" "$2" "$tmp/view" || return 1
	local answers bent k
	answers=$(field answers "$tmp/view" | awk '{ print $1 }')
	bent=$(field answers "$tmp/view" | awk '$2 == "bent_paths" { print $3 }')
	k=$(field query "$tmp/view" | awk '$2 == "k" { print $3 }')
	echo "answers $answers bent $bent k $k"
	[ -n "$answers" ] && [ -n "$bent" ] && [ -n "$k" ] && [ "$answers" -eq "$k" ] && [ "$bent" -ge 1 ] &&
		grep -q "(start query, chosen to bend round a wall)$" "$tmp/view" &&
		[ "$(field map "$tmp/view")" = "$1" ] && grep -q -E "^index $tmp/.*\.ehl \(EHL (built and saved|file, loaded)\)$" "$tmp/view"
}
check "bundled map: an answer round a wall (k answers, bent_paths >= 1)" bends_on assets/maps/keep.map 60
check "the same again from the cached index" bends_on assets/maps/keep.map 30
# Every label of the query (the query's own, one per answer, one per ghost) found a free place.
labels_apart() {
	local labels
	labels=$(field labels "$tmp/view" | awk '$2 == "overlapping" { print $1 }')
	[ -n "$labels" ] && [ "$labels" -ge 4 ] && grep -q "^labels [0-9]* overlapping 0$" "$tmp/view"
}
check "no label covers another" labels_apart
loaded_index() { grep -q -E "^index $tmp/keep.map.ehl \(EHL file, loaded\)$" "$tmp/view"; }
check "the summary names the index file it loaded" loaded_index
check "small map: an answer round a wall" bends_on assets/maps/small.map 30
# The start query is chosen with a ghost where one exists (on the bundled map it does): a
# straight-line nearest that walking distance passed over.
ghosts() { start_view assets/maps/keep.map 1 "$tmp/first" && [ "$(field straight_line_ghosts "$tmp/first")" -ge 1 ]; }
check "the start query has a straight-line ghost" ghosts

# The search is seeded, and so is the crowd it watches (2,000 agents): the same seed, the same
# agents and the same query after 60 frames, searched again as the agents moved.
same_start() {
	start_view assets/maps/keep.map 60 "$tmp/a" && start_view assets/maps/keep.map 60 "$tmp/b" &&
		[ -n "$(field query "$tmp/a")" ] && [ "$(field query "$tmp/a")" = "$(field query "$tmp/b")" ] &&
		[ "$(field answers "$tmp/a")" = "$(field answers "$tmp/b")" ] && [ "$(field checksum "$tmp/a")" = "$(field checksum "$tmp/b")" ]
}
check "the start query is the same for the same seed" same_start

# An open room: no path bends anywhere, so the demo starts at the centre and says so.
{
	printf 'type octile\nheight 24\nwidth 24\nmap\n'
	for _ in $(seq 24); do printf '%s\n' "........................"; done
} >"$tmp/open.map"
open_floor() {
	"$DEMO" "$tmp/open.map" --headless --frames 3 --agents 50 --index "$tmp/open.ehl" >"$tmp/open" 2>"$tmp/open.err" &&
		grep -q "no query point on open has an answer round a wall" "$tmp/open.err" &&
		grep -q "^answers [0-9]* bent_paths 0$" "$tmp/open" && grep -q "(start query, no bend found)$" "$tmp/open"
}
check "a map without walls falls back and says so" open_floor

# The mouse ends the start query: the query is the user's from then on.
mouse_takes_over() {
	"$DEMO" assets/maps/small.map --headless --frames 3 --agents 80 --index "$tmp/small.map.ehl" --keys M >"$tmp/mouse" 2>&1 &&
		grep -q "(the user's)$" "$tmp/mouse"
}
check "moving the mouse ends the start query" mouse_takes_over

# The bundled level of two floors (assets/maps/tiled/tower.tmx): its stairs, teleporter and hole
# are the map's links, the agents' paths take them (the follower crosses a teleporter at once and
# climbs stairs at their cost), and after 150 frames some agent stands on another floor than the
# one its last teleporter took it from, having taken it.
floors_level() {
	"$DEMO" assets/maps/tiled/tower.tmx --headless --frames 150 --agents 300 --index "$tmp/tower.ehl" \
		--screenshot "$tmp/tower.png" >"$tmp/tower" 2>"$tmp/tower.err" || return 1
	echo "crossings $(field link_crossings "$tmp/tower") teleports $(field teleports "$tmp/tower") elsewhere $(field teleported_elsewhere "$tmp/tower")"
	[ "$(field floors "$tmp/tower")" = 2 ] && [ "$(field links "$tmp/tower")" = 4 ] &&
		[ "$(field teleports "$tmp/tower")" -ge 1 ] && [ "$(field teleported_elsewhere "$tmp/tower")" -ge 1 ] &&
		[ "$(field link_crossings "$tmp/tower")" -gt "$(field teleports "$tmp/tower")" ] # stairs or the hole too
}
check "two floors: agents take the stairs and the teleporter to the other floor" floors_level
no_links_no_lines() { ! grep -q "^links " "$tmp/view"; }
check "a map without links prints no link counts" no_links_no_lines

# Separation (the a key): the script pushes agents apart with the straight-line neighbour index
# (neighbours_many each frame). The summary's mean nearest-neighbour distance is measured in C,
# apart from the script: with the layer on it must rise, on the same seed, over the same frames.
spacing_run() { # keys, output
	"$DEMO" assets/maps/keep.map --headless --frames 60 --index "$tmp/keep.map.ehl" --keys "$1" >"$2" 2>"$2.err"
}
separation_spreads() {
	spacing_run "." "$tmp/apart_off" && spacing_run "a" "$tmp/apart_on" || return 1
	local off on
	off=$(field mean_nearest_distance "$tmp/apart_off") on=$(field mean_nearest_distance "$tmp/apart_on")
	echo "mean nearest distance: off $off, on $on; pairs per frame $(field separation_pairs_per_frame "$tmp/apart_on")"
	[ "$(field separation "$tmp/apart_off")" = off ] && [ "$(field separation_frames "$tmp/apart_off")" = 0 ] &&
		[ "$(field separation "$tmp/apart_on")" = on ] && [ "$(field separation_frames "$tmp/apart_on")" -ge 59 ] &&
		awk -v p="$(field separation_pairs_per_frame "$tmp/apart_on")" 'BEGIN { exit !(p > 0) }' &&
		awk -v off="$off" -v on="$on" 'BEGIN { exit !(off > 0 && on > 1.1 * off) }'
}
check "separation (a key): agents keep apart, the mean nearest distance rises" separation_spreads
separation_replays() { spacing_run "a" "$tmp/apart_again" && [ "$(field checksum "$tmp/apart_on")" = "$(field checksum "$tmp/apart_again")" ]; }
check "separation: the same seed gives the same agents" separation_replays
# Off again: the layer stops (its frames counted while on only) and the run goes on.
separation_off_again() {
	spacing_run "a..........a" "$tmp/apart_back" && [ "$(field separation "$tmp/apart_back")" = off ] &&
		[ "$(field separation_frames "$tmp/apart_back")" -ge 10 ] && [ "$(field separation_frames "$tmp/apart_back")" -le 12 ]
}
check "separation: a second a turns it off" separation_off_again

# No display, no --headless: a message and a failure within seconds (SDL would otherwise pick its
# offscreen driver and the demo would run unseen until killed).
no_display() {
	local start=$SECONDS rc
	env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 60 "$DEMO" assets/maps/keep.map >"$tmp/nodisplay" 2>"$tmp/nodisplay.err"
	rc=$?
	[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -lt 128 ] && [ $((SECONDS - start)) -le 10 ] &&
		grep -q "gridtree-demo: no display (.*); pass --headless to render to a PNG" "$tmp/nodisplay.err"
}
check "without a display and without --headless: refused at once" no_display

summary demo
