#!/usr/bin/env bash
# The game's own maps on the command line: --clearance on every command that takes a MAP and
# `gridtree inflate`, against the exact oracle on the inflated map, on real maps when the data is
# there. Prints "cli-maps: N passed, N failed" as its last line.
set -u
GT=${1:-bin/debug/gridtree}
source "$(dirname "$0")/checks.sh"
data=${GRIDTREE_DATA:-../shared/data}

cat >"$tmp/room.map" <<'MAP'
type octile
height 8
width 10
map
..........
..........
..........
....@@....
....@@....
..........
..........
..........
MAP

# Clearance 1: the border ring and the ring round the pillar become walls.
inflated_room() {
	"$GT" inflate "$tmp/room.map" --clearance 1 -o "$tmp/room1.map" >"$tmp/inflate" &&
		grep -qx "free_cells_before 76" "$tmp/inflate" && grep -qx "free_cells 32" "$tmp/inflate" &&
		[ "$(sed -n 5,12p "$tmp/room1.map" | paste -sd '|')" = \
			"@@@@@@@@@@|@........@|@..@@@@..@|@..@@@@..@|@..@@@@..@|@..@@@@..@|@........@|@@@@@@@@@@" ]
}
check "inflate writes the map for agents of half-width 1" inflated_room
# Going round the pillar at clearance 1 costs more than without it.
dist_grows() {
	local plain wide
	plain=$(echo "1.5 3.5 8.5 3.5" | "$GT" dist "$tmp/room.map") &&
		wide=$(echo "1.5 3.5 8.5 3.5" | "$GT" dist "$tmp/room.map" --clearance 1) &&
		[ "$wide" = "$(echo "1.5 3.5 8.5 3.5" | "$GT" dist "$tmp/room1.map")" ] &&
		awk -v a="$plain" -v b="$wide" 'BEGIN { exit !(b > a + 0.5) }'
}
check "dist --clearance equals dist on the inflated map, and is longer" dist_grows
check "a point too near a wall for the agent is invalid" bash -c "[ \"\$(echo '1.5 1.5 8.5 6.5' | '$GT' dist '$tmp/room.map' --clearance 2)\" = invalid ]"
check "path --clearance" bash -c "echo '1.5 3.5 8.5 3.5' | '$GT' path '$tmp/room.map' --clearance 1 | grep -q '^1.500000000 3.500000000 3.000000000 2.000000000'"
check "info --clearance" bash -c "'$GT' info '$tmp/room.map' --clearance 1 | grep -qx 'free_cells 32'"
check "inflate needs --clearance" usage_error "usage: gridtree inflate MAP --clearance R -o FILE" "$GT" inflate "$tmp/room.map" -o "$tmp/x.map"
check "inflate needs -o" usage_error "usage: gridtree inflate" "$GT" inflate "$tmp/room.map" --clearance 1
check "negative clearance" usage_error "--clearance must be an integer from 0 to 32767, got '-1'" "$GT" dist "$tmp/room.map" --clearance -1
check "fractional clearance" usage_error "--clearance must be an integer" "$GT" knn "$tmp/room.map" --clearance 1.5 --objects x --queries y
check "inflate of a missing map" failure "none.map: cannot open" "$GT" inflate "$tmp/none.map" --clearance 1 -o "$tmp/x.map"
check "an index built at one clearance is refused at another" failure "built for another map" bash -c \
	"'$GT' ehl-build '$tmp/room.map' --clearance 1 -o '$tmp/room1.ehl' >/dev/null 2>&1 &&
	 echo '2.5 2.5 7.5 2.5' | '$GT' dist '$tmp/room.map' --ehl '$tmp/room1.ehl'"

# `count` random pairs of free-cell points (centres and corners) of a MovingAI map, seeded.
random_pairs() { # map, count, seed
	awk -v n="$2" -v seed="$3" '
		started { for (x = 0; x < length($0); x++) if (substr($0, x + 1, 1) == ".") { fx[m] = x; fy[m] = y; m++ } y++ }
		$0 == "map" { started = 1 }
		END {
			if (m == 0) exit
			srand(seed)
			for (i = 0; i < n; i++) {
				a = int(rand() * m); b = int(rand() * m)
				printf "%g %g %g %g\n", fx[a] + (rand() < 0.5 ? 0.5 : 0), fy[a] + 0.5, fx[b] + 0.5, fy[b] + (rand() < 0.5 ? 0.5 : 0)
			}
		}' "$1"
}

# Distances with an index built at clearance R equal the exact oracle on the map `inflate` wrote.
clearance_matches_oracle() { # map, clearance
	local map=$1 r=$2
	"$GT" inflate "$map" --clearance "$r" -o "$tmp/real.map" >/dev/null &&
		"$GT" ehl-build "$map" --clearance "$r" --cell 8 -o "$tmp/real.ehl" >/dev/null 2>&1 &&
		random_pairs "$tmp/real.map" 200 "$r" >"$tmp/pairs" && [ -s "$tmp/pairs" ] &&
		"$GT" dist "$map" --clearance "$r" --ehl "$tmp/real.ehl" <"$tmp/pairs" >"$tmp/ehl.out" &&
		"$GT" dist "$tmp/real.map" --method oracle <"$tmp/pairs" >"$tmp/oracle.out" &&
		paste "$tmp/ehl.out" "$tmp/oracle.out" | awk '
			$1 == "inf" || $2 == "inf" { if ($1 != $2) bad++; next }
			{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-6 * (1 + $2)) bad++ }
			END { exit bad > 0 || NR != 200 }'
}
# The smallest map of each suite (whatever maps the data holds), at clearances 1 and 2.
if [ -d "$data/maps" ]; then
	for suite in "$data"/maps/*/; do
		map=$(ls -S "$suite"*.map 2>/dev/null | tail -n 1)
		[ -n "$map" ] || continue
		for r in 1 2; do
			check "clearance $r on $(basename "$suite")/$(basename "$map" .map) equals the oracle on the inflated map" \
				clearance_matches_oracle "$map" "$r"
		done
	done
else
	echo "note: benchmark data absent ($data): clearance is not checked on real maps"
fi

summary cli-maps
