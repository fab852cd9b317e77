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
# With a Tiled map's own wall option, free_cells_before is that map's (the option is kept).
inflated_tiled() {
	"$GT" tiled-export assets/maps/small.map -o "$tmp/walls.tmx" --blocked property >/dev/null &&
		"$GT" inflate "$tmp/walls.tmx" --blocked-property collides --clearance 1 -o "$tmp/walls1.map" >"$tmp/inflate" &&
		grep -qx "free_cells_before $("$GT" info assets/maps/small.map | awk '$1 == "free_cells" { print $2 }')" "$tmp/inflate"
}
check "inflate keeps --blocked-property for the count before" inflated_tiled
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
# ---- Tiled maps ----------------------------------------------------------------------------------
# Every variant `tiled-export` writes loads back as the same map: same fingerprint, same distances
# and paths as the .map, through every command that takes a MAP.
variants() { # prints "format encoding compression tileset blocked chunk" lines
	local fmt enc comp ts bl ch
	for fmt in tmx tmj; do
		for enc in csv base64 xml; do
			[ "$enc" = xml ] && [ "$fmt" = tmj ] && continue
			for comp in none zlib gzip zstd; do
				[ "$enc" != base64 ] && [ "$comp" != none ] && continue
				for ts in embedded external; do
					for bl in layer property; do
						for ch in 0 16; do echo "$fmt $enc $comp $ts $bl $ch"; done
					done
				done
			done
		done
	done
}
same_as_map() { # map, variant line, pairs file
	local map=$1 fmt enc comp ts bl ch origin=()
	read -r fmt enc comp ts bl ch <<<"$2"
	[ "$ch" != 0 ] && origin=(--origin -37,5)
	"$GT" tiled-export "$map" -o "$tmp/v.$fmt" --encoding "$enc" --compression "$comp" --tileset "$ts" --blocked "$bl" \
		--chunk "$ch" "${origin[@]}" >/dev/null &&
		[ "$("$GT" info "$tmp/v.$fmt" | grep fingerprint)" = "$("$GT" info "$map" | grep fingerprint)" ] &&
		[ "$("$GT" dist "$tmp/v.$fmt" <"$3")" = "$("$GT" dist "$map" <"$3")" ] &&
		[ "$("$GT" path "$tmp/v.$fmt" <"$3" | head -n 20)" = "$("$GT" path "$map" <"$3" | head -n 20)" ]
}
random_pairs assets/maps/small.map 100 1 >"$tmp/small.pairs"
all_variants() {
	local line bad=0 count=0
	while read -r line; do
		count=$((count + 1))
		same_as_map assets/maps/small.map "$line" "$tmp/small.pairs" || { echo "variant $line differs"; bad=1; }
	done < <(variants)
	[ "$bad" -eq 0 ] && [ "$count" -eq 88 ]
}
check "88 Tiled variants of small.map equal the .map" all_variants
infinite_origin() {
	"$GT" tiled-export assets/maps/small.map -o "$tmp/inf.tmj" --chunk 16 --origin -37,5 --tile 16,8 >/dev/null &&
		"$GT" info "$tmp/inf.tmj" >"$tmp/info" &&
		[ "$(sed -n '/^tile_width/,$p' "$tmp/info" | paste -sd ' ')" = \
			"tile_width 16 tile_height 8 origin_x -37 origin_y 5 blocked_by layer Collision; property collides objects 0 walls_layer 911 walls_tile_property 911 walls_tile_shapes 0 walls_layer_property 0 walls_objects 0" ]
}
check "info reports a Tiled map's tile size, origin and walls" infinite_origin
choose_walls() {
	"$GT" tiled-export assets/maps/small.map -o "$tmp/c.tmx" >/dev/null &&
		"$GT" info "$tmp/c.tmx" --blocked-layer ground | grep -qx "free_cells 0" &&
		! "$GT" info "$tmp/c.tmx" --blocked-property walkable 2>"$tmp/err" && grep -q "no tile, layer or object has the bool property 'walkable'" "$tmp/err" &&
		"$GT" info "$tmp/c.tmx" --blocked-property collides | grep -qx "blocked_by property collides"
}
check "--blocked-layer and --blocked-property choose the walls" choose_walls
# The hand-made level (Tiled's own layout: an external tileset with an image, point objects, typed
# properties) reads as drawn.
courtyard() {
	"$GT" info assets/maps/tiled/courtyard.tmx >"$tmp/info" &&
		[ "$(grep -E '^(width|height|free_cells|blocked_by|objects) ' "$tmp/info" | paste -sd ' ')" = \
			"width 24 height 16 free_cells 257 blocked_by layer Collision; property collides objects 7" ] &&
		[ "$(echo '1.5 1.5 22.5 14.5' | "$GT" dist assets/maps/tiled/courtyard.tmx)" = \
			"$("$GT" tiled-export assets/maps/tiled/courtyard.tmx -o "$tmp/cy.tmj" --encoding base64 --compression zstd >/dev/null &&
				echo '1.5 1.5 22.5 14.5' | "$GT" dist "$tmp/cy.tmj")" ]
}
check "the hand-made Tiled level reads as drawn" courtyard
check "a missing blocked layer names the layers" failure "no layer named 'floor' (tile layers 'ground', 'Collision'" \
	"$GT" info "$tmp/c.tmx" --blocked-layer floor
check "--blocked-layer with --blocked-property" usage_error "not both" "$GT" info "$tmp/c.tmx" --blocked-layer a --blocked-property b
check "--blocked-layer on a .map" usage_error "are for Tiled maps" "$GT" info assets/maps/small.map --blocked-layer a
check "a malformed Tiled file names the file" failure "bad.tmj:1: not valid JSON" bash -c "echo '{' >'$tmp/bad.tmj' && '$GT' info '$tmp/bad.tmj'"
check "tiled-export: xml tiles are for .tmx" usage_error "XML tiles are for .tmx files" "$GT" tiled-export assets/maps/small.map -o "$tmp/x.tmj" --encoding xml
check "tiled-export: unknown compression" usage_error "unknown --compression 'lz4'" "$GT" tiled-export assets/maps/small.map -o "$tmp/x.tmj" --compression lz4
check "tiled-export: the output must be a Tiled file" usage_error "usage: gridtree tiled-export" "$GT" tiled-export assets/maps/small.map -o "$tmp/x.map"
# Walls by every convention, counted per rule; a level without walls is refused unless open is
# meant; limits and paths as options.
tiled_walls_cli() {
	mkdir -p "$tmp/lv/sub" &&
		printf '%s' '<map orientation="orthogonal" width="6" height="4" tilewidth="16" tileheight="16"><layer name="floor" width="6" height="4"><data encoding="csv">1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1</data></layer><objectgroup name="rocks"><properties><property name="collidable" type="bool" value="true"/></properties><object id="1" x="16" y="16" width="48" height="32"/></objectgroup></map>' >"$tmp/lv/rocks.tmx" &&
		"$GT" info "$tmp/lv/rocks.tmx" >"$tmp/info" && grep -qx "walls_objects 6" "$tmp/info" && grep -qx "free_cells 18" "$tmp/info" &&
		grep -qx "blocked_by objects with property collidable" "$tmp/info" &&
		printf '%s' '<map orientation="orthogonal" width="2" height="1" tilewidth="16" tileheight="16"><tileset firstgid="1" source="../t.tsx"/><layer name="floor" width="2" height="1"><data encoding="csv">1,1</data></layer></map>' >"$tmp/lv/sub/open.tmx" &&
		printf '%s' '<tileset name="t" tilewidth="16" tileheight="16"/>' >"$tmp/lv/t.tsx" &&
		! "$GT" info "$tmp/lv/sub/open.tmx" 2>"$tmp/err" && grep -q "tileset '../t.tsx' is outside the level's folder" "$tmp/err" &&
		! "$GT" info "$tmp/lv/sub/open.tmx" --allow-outside-paths 2>"$tmp/err" && grep -q "no walls: tile layers 'floor'; pass --blocked-layer" "$tmp/err" &&
		"$GT" info "$tmp/lv/sub/open.tmx" --allow-outside-paths --allow-empty | grep -qx "free_cells 2" &&
		! "$GT" info "$tmp/lv/rocks.tmx" --max-cells 10 2>"$tmp/err" && grep -q "above max_cells = 10 (raise max_cells" "$tmp/err"
}
check "Tiled walls by convention, --allow-empty, --allow-outside-paths, --max-cells" tiled_walls_cli
# An index built from the Tiled file serves the .map (the same map), and --clearance works on Tiled maps.
tiled_index_and_clearance() {
	"$GT" ehl-build "$tmp/c.tmx" --cell 4 -o "$tmp/c.ehl" >/dev/null 2>&1 &&
		[ "$("$GT" dist assets/maps/small.map --ehl "$tmp/c.ehl" <"$tmp/small.pairs")" = "$("$GT" dist assets/maps/small.map <"$tmp/small.pairs")" ] ||
		return 1
	"$GT" inflate "$tmp/c.tmx" --clearance 1 -o "$tmp/c1.map" >/dev/null && "$GT" inflate assets/maps/small.map --clearance 1 -o "$tmp/s1.map" >/dev/null &&
		cmp -s "$tmp/c1.map" "$tmp/s1.map"
}
check "a Tiled map's index and clearance are the .map's" tiled_index_and_clearance

# ---- map edits -------------------------------------------------------------------------------------
# `count` random edits of a map (blocks mostly, some frees, some at the border), seeded; with
# block share 1, walls are only added (the index stays a lower bound and the seeded search answers).
random_edits() { # map, count, seed [block share, default 0.7]
	awk -v n="$2" -v seed="$3" -v share="${4:-0.7}" '
		$1 == "height" { h = $2 } $1 == "width" { w = $2 }
		END {
			srand(seed)
			for (i = 0; i < n; i++) {
				x0 = int(rand() * w); y0 = int(rand() * h)
				if (i % 5 == 4) x0 = 0
				x1 = x0 + int(rand() * 4); y1 = y0 + int(rand() * 4)
				if (x1 >= w) x1 = w - 1; if (y1 >= h) y1 = h - 1
				printf "%s %d %d %d %d\n", (rand() < share ? "block" : "free"), x0, y0, x1, y1
			}
		}' "$1"
}
# The edited map written by a second, independent hand: awk over the .map text.
edited_map() { # map, edits
	awk 'NR == FNR { op[NR] = $1; ax[NR] = $2; ay[NR] = $3; bx[NR] = $4; by[NR] = $5; n = NR; next }
		started {
			row = $0
			for (i = 1; i <= n; i++)
				if (y >= ay[i] && y <= by[i])
					row = substr(row, 1, ax[i]) sprintf("%*s", bx[i] - ax[i] + 1, "") substr(row, bx[i] + 2)
			# the spaces mark edited cells: fill each with what the last edit covering it says
			out = ""
			for (x = 0; x < length(row); x++) {
				c = substr(row, x + 1, 1)
				if (c == " ") for (i = 1; i <= n; i++) if (x >= ax[i] && x <= bx[i] && y >= ay[i] && y <= by[i]) c = (op[i] == "block" ? "@" : ".")
				out = out c
			}
			print out; y++; next
		}
		{ print } $0 == "map" { started = 1; y = 0 }' "$2" "$1"
}
edits_match_oracle() { # map, index file ("" for none), edits count, seed [block share]
	local map=$1 index=$2
	random_edits "$map" "$3" "$4" "${5:-0.7}" >"$tmp/edits" &&
		edited_map "$map" "$tmp/edits" >"$tmp/edited.map" &&
		random_pairs "$tmp/edited.map" 150 "$4" >"$tmp/epairs" && [ -s "$tmp/epairs" ] &&
		"$GT" dist "$map" ${index:+--ehl "$index"} --edits "$tmp/edits" <"$tmp/epairs" >"$tmp/edited.out" &&
		"$GT" dist "$tmp/edited.map" --method oracle <"$tmp/epairs" >"$tmp/oracle.out" &&
		paste "$tmp/edited.out" "$tmp/oracle.out" | awk '
			$1 == "inf" || $2 == "inf" { if ($1 != $2) bad++; next }
			{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-6 * (1 + $2)) bad++ }
			END { exit bad > 0 || NR != 150 }'
}
"$GT" ehl-build assets/maps/small.map --cell 4 -o "$tmp/small4.ehl" >/dev/null 2>&1
for seed in 1 2 3; do
	check "dist --ehl --edits on small.map equals the oracle on the edited map (seed $seed)" edits_match_oracle assets/maps/small.map "$tmp/small4.ehl" 12 "$seed"
done
check "dist --edits without an index equals the oracle on the edited map" edits_match_oracle assets/maps/small.map "" 12 4
for seed in 5 6; do
	check "dist --ehl --edits on small.map, walls only added, equals the oracle on the edited map (seed $seed)" \
		edits_match_oracle assets/maps/small.map "$tmp/small4.ehl" 12 "$seed" 1
done
edits_everywhere() { # path, knn and crowd read --edits too
	printf 'block 10 14 20 15\n' >"$tmp/wall" &&
		printf '1 2.5 2.5 a\n2 40.5 20.5 a\n' >"$tmp/eo" && printf '30.5 12.5 2 a\n' >"$tmp/eq" &&
		[ "$("$GT" knn assets/maps/small.map --ehl "$tmp/small4.ehl" --edits "$tmp/wall" --objects "$tmp/eo" --queries "$tmp/eq")" = \
			"$("$GT" crowd assets/maps/small.map --ehl "$tmp/small4.ehl" --edits "$tmp/wall" --objects "$tmp/eo" --queries "$tmp/eq" --method batch)" ] &&
		edited_map assets/maps/small.map "$tmp/wall" >"$tmp/wall.map" &&
		[ "$("$GT" knn assets/maps/small.map --ehl "$tmp/small4.ehl" --edits "$tmp/wall" --objects "$tmp/eo" --queries "$tmp/eq")" = \
			"$("$GT" knn "$tmp/wall.map" --objects "$tmp/eo" --queries "$tmp/eq")" ] &&
		echo "2.5 2.5 40.5 20.5" | "$GT" path assets/maps/small.map --ehl "$tmp/small4.ehl" --edits "$tmp/wall" >/dev/null
}
check "knn, crowd and path take --edits" edits_everywhere
check "a malformed edits line names the file and line" failure "bad.edits:2: expected 'block x0 y0 x1 y1' or 'free x0 y0 x1 y1'" \
	bash -c "printf 'block 1 1 2 2\nblock 1 1\n' >'$tmp/bad.edits' && echo '0 0 1 1' | '$GT' dist assets/maps/small.map --edits '$tmp/bad.edits'"
check "an edit off the map names the line" failure "off.edits:1: cells (40, 5)-(60, 5) are not an inclusive rectangle inside the 48x32 map" \
	bash -c "printf 'block 40 5 60 5\n' >'$tmp/off.edits' && echo '0 0 1 1' | '$GT' dist assets/maps/small.map --edits '$tmp/off.edits'"

# Polyanya on a mesh equals the oracle on the map, and its paths are as long.
polyanya_matches_oracle() { # map, mesh
	random_pairs "$1" 150 9 >"$tmp/ppairs" && [ -s "$tmp/ppairs" ] &&
		"$GT" dist "$1" --method polyanya --mesh "$2" <"$tmp/ppairs" >"$tmp/poly.out" &&
		"$GT" dist "$1" --method oracle <"$tmp/ppairs" >"$tmp/poly_oracle.out" &&
		"$GT" path "$1" --method polyanya --mesh "$2" <"$tmp/ppairs" >"$tmp/poly.paths" &&
		paste "$tmp/poly.out" "$tmp/poly_oracle.out" | awk '
			$1 == "inf" || $2 == "inf" { if ($1 != $2) bad++; next }
			{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-6 * (1 + $2)) bad++ }
			END { exit bad > 0 || NR != 150 }' &&
		paste -d' ' "$tmp/poly.out" "$tmp/poly.paths" | awk '
			$1 == "inf" { next }
			{ len = 0; for (i = 2; i + 3 <= NF; i += 2) len += sqrt(($(i + 2) - $i) ^ 2 + ($(i + 3) - $(i + 1)) ^ 2)
			  d = len - $1; if (d < 0) d = -d; if (d > 1e-6 * (1 + $1)) bad++ }
			END { exit bad > 0 }'
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
		"$GT" ehl-build "$map" --cell 8 -o "$tmp/real8.ehl" >/dev/null 2>&1
		check "dist --ehl --edits on $(basename "$suite")/$(basename "$map" .map) equals the oracle on the edited map" \
			edits_match_oracle "$map" "$tmp/real8.ehl" 20 11
		check "dist --ehl --edits, walls only added, on $(basename "$suite")/$(basename "$map" .map) equals the oracle on the edited map" \
			edits_match_oracle "$map" "$tmp/real8.ehl" 20 12 1
		mesh="$data/meshes/$(basename "$suite")/$(basename "$map" .map)-merged.mesh"
		if [ -f "$mesh" ]; then
			check "dist and path --method polyanya on $(basename "$suite")/$(basename "$map" .map) equal the oracle" polyanya_matches_oracle "$map" "$mesh"
		fi
		check "mesh-build of $(basename "$suite")/$(basename "$map" .map): Polyanya on it equals the oracle" \
			bash -c "'$GT' mesh-build '$map' -o '$tmp/built.mesh' | grep -q '^polygons [1-9]'"
		check "... and on the mesh made from the map" polyanya_matches_oracle "$map" "$tmp/built.mesh"
		if [ -f "$mesh" ]; then # made as the shipped ones were: the same vertices (every obstacle corner)
			check "mesh-build of $(basename "$suite")/$(basename "$map" .map) has the shipped mesh's vertices" \
				bash -c "[ \"\$(sed -n 3p '$tmp/built.mesh' | cut -d' ' -f1)\" = \"\$(sed -n 3p '$mesh' | cut -d' ' -f1)\" ]"
		fi
		random_pairs "$map" 100 7 >"$tmp/real.pairs"
		for variant in "tmx base64 gzip external property 16" "tmj base64 zstd embedded layer 0" "tmx csv none embedded layer 0"; do
			check "Tiled $variant of $(basename "$suite")/$(basename "$map" .map) equals the .map" same_as_map "$map" "$variant" "$tmp/real.pairs"
		done
	done
	arena=$data/maps/dao/arena.map
	if [ -f "$arena" ]; then
		check "a mesh of another map names a cell it disagrees on" failure "AR0011SR-merged.mesh: the mesh does not match the map: cell (" \
			bash -c "echo '1.5 1.5 2.5 2.5' | '$GT' dist '$arena' --method polyanya --mesh '$data/meshes/bgmaps/AR0011SR-merged.mesh'"
		check "scen --method polyanya answers every line of arena within the octile bound" bash -c \
			"'$GT' scen '$arena' '$data/scenarios/dao/arena.map.scen' --method polyanya --mesh '$data/meshes/dao/arena-merged.mesh' | grep -qx 'over_octile 0'"
	fi
else
	echo "note: benchmark data absent ($data): clearance is not checked on real maps"
fi

summary cli-maps
