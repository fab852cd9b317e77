#!/usr/bin/env bash
# --links FILE on the commands that answer distances (docs/links.md): distances across a wall that
# only a teleporter crosses, one-way drops, knn through the Grid Tree equal to brute force with
# links on a generated map, and the file's errors. Prints "cli-links: N passed, N failed".
set -u
GT=${1:-bin/debug/gridtree}
source "$(dirname "$0")/checks.sh"

cat >"$tmp/split.map" <<'MAP'
type octile
height 6
width 12
map
......@.....
......@.....
......@.....
......@.....
......@.....
......@.....
MAP
printf '# a teleporter, and a drop one cannot climb back\n1 1 10 1 0\n2 4 9 4 1 oneway\n' >"$tmp/split.links"

dist_with_links() { # input line, expected output line
	[ "$(printf '%s\n' "$1" | "$GT" dist "$tmp/split.map" --links "$tmp/split.links" --method oracle)" = "$2" ]
}
check "no way across without links" bash -c "[ \"\$(echo '0 1 11 1' | '$GT' dist '$tmp/split.map')\" = inf ]"
check "through the teleporter" dist_with_links "0 1 11 1" "2.000000000"
check "teleporter end to end" dist_with_links "1 1 10 1" "0.000000000"
check "down the drop" dist_with_links "2 4 9 4" "1.000000000"
check "not back up the drop" dist_with_links "9 4 2 4" "6.324555320"
path_through() {
	[ "$(echo '0 1 11 1' | "$GT" path "$tmp/split.map" --links "$tmp/split.links")" = "0.000000000 1.000000000 1.000000000 1.000000000 10.000000000 1.000000000 11.000000000 1.000000000" ]
}
check "path names the teleporter's ends" path_through
check "a links line that is not five numbers" failure "split.bad:1: expected 'ax ay bx by cost'" bash -c \
	"printf '1 1 10 1\n' >'$tmp/split.bad' && echo '0 0 1 1' | '$GT' dist '$tmp/split.map' --links '$tmp/split.bad'"
check "a link end in a wall" failure "link end a (6.5, 1)" bash -c \
	"printf '6.5 1 10 1 0\n' >'$tmp/split.wall' && echo '0 0 1 1' | '$GT' dist '$tmp/split.map' --links '$tmp/split.wall'"
check "polyanya refuses links" failure "polyanya" bash -c \
	"echo '0 0 1 1' | '$GT' dist '$tmp/split.map' --links '$tmp/split.links' --method polyanya"

# A generated map, links of every kind between random free points, and knn through the Grid Tree
# against brute force over the same distances.
"$GT" genmap --style caves --width 64 --height 48 --seed 32 -o "$tmp/caves.map" >/dev/null
awk 'BEGIN { s = 32; for (i = 0; i < 2000; i++) { s = (s * 1103515245 + 12345) % 2147483648; x = (s % 6400) / 100;
	s = (s * 1103515245 + 12345) % 2147483648; y = (s % 4800) / 100; print x, y, x, y } }' >"$tmp/candidates"
"$GT" dist "$tmp/caves.map" <"$tmp/candidates" 2>/dev/null | paste -d ' ' "$tmp/candidates" - | awk '$5 != "invalid" { print $1, $2 }' >"$tmp/free"
awk 'NR <= 40 { p[NR] = $0 } END { for (i = 1; i + 1 <= 40; i += 2) { split(p[i], a, " "); split(p[i + 1], b, " ");
	d = sqrt((a[1] - b[1]) ^ 2 + (a[2] - b[2]) ^ 2); k = (i - 1) / 2 % 4;
	c = k == 0 ? 0 : k == 1 ? 1 : k == 2 ? d / 3 : 2 * d + 1; print p[i], p[i + 1], c, (i % 3 == 0 ? "oneway" : "") } }' \
	"$tmp/free" >"$tmp/caves.links"
awk 'NR > 40 && NR <= 160 { print NR, $1, $2, "x" }' "$tmp/free" >"$tmp/objects"
awk 'NR > 160 && NR <= 200 { print $1, $2, 5, "x" }' "$tmp/free" >"$tmp/queries"
knn_equals_brute() {
	"$GT" knn "$tmp/caves.map" --links "$tmp/caves.links" --objects "$tmp/objects" --queries "$tmp/queries" --leaf 4 \
		| tr ' ' '\n' | cut -d: -f2 >"$tmp/gt" &&
		"$GT" knn "$tmp/caves.map" --links "$tmp/caves.links" --objects "$tmp/objects" --queries "$tmp/queries" \
			--method brute | tr ' ' '\n' | cut -d: -f2 >"$tmp/brute" &&
		[ "$(wc -l <"$tmp/gt")" -ge 150 ] && cmp -s "$tmp/gt" "$tmp/brute"
}
check "knn with links equals brute force" knn_equals_brute
links_matter() {
	! cmp -s <("$GT" knn "$tmp/caves.map" --links "$tmp/caves.links" --objects "$tmp/objects" --queries "$tmp/queries") \
		<("$GT" knn "$tmp/caves.map" --objects "$tmp/objects" --queries "$tmp/queries")
}
check "the links change the answers" links_matter

# A Tiled level of two floors (assets/maps/tiled/tower.tmx): its floors side by side (floor 1's x
# moved across by 41) and its link objects taken by every command that answers distances. Through
# the teleporter (cost 0): 2 + 0 + 2; the west stairs (length 4): 2 + 4 + 2; the hole (cost 1,
# one way) down, 1 + 1 + 1, and not back up.
tower=assets/maps/tiled/tower.tmx
printf '20.5 22.5 75.5 22.5\n3.5 22.5 44.5 18.5\n49.5 5.5 8.5 5.5\n' >"$tmp/tower.pairs"
tower_floors() {
	"$GT" info "$tower" >"$tmp/tower.info" && grep -q '^floors 2$' "$tmp/tower.info" &&
		grep -q '^links 4$' "$tmp/tower.info" && grep -q '^width 81$' "$tmp/tower.info" &&
		[ "$("$GT" dist "$tower" --method oracle <"$tmp/tower.pairs" | tr '\n' ' ')" = "4.000000000 8.000000000 3.000000000 " ] &&
		"$GT" ehl-build "$tower" -o "$tmp/tower.ehl" --cell 2 --threads 1 >/dev/null &&
		[ "$("$GT" dist "$tower" --ehl "$tmp/tower.ehl" <"$tmp/tower.pairs" | tr '\n' ' ')" = "4.000000000 8.000000000 3.000000000 " ] &&
		[ "$(echo '8.5 5.5 49.5 5.5' | "$GT" dist "$tower" --ehl "$tmp/tower.ehl")" != "3.000000000" ] &&
		"$GT" path "$tower" <<<'20.5 22.5 75.5 22.5' | grep -q '^20.500000000 22.500000000 20.500000000 24.500000000 75.500000000 24.500000000 75.500000000 22.500000000$'
}
check "a Tiled level's floors and links: dist (oracle and index) and path across floors" tower_floors
tower_polyanya() {
	! echo '1.5 1.5 2.5 2.5' | "$GT" dist "$tower" --method polyanya >/dev/null 2>"$tmp/tower.err" &&
		grep -q polyanya "$tmp/tower.err"
}
check "polyanya refuses a Tiled level with links" tower_polyanya

# An index built knowing the links (ehl-build --links): with the same links it answers as the
# oracle with links does, and so does knn; with links it does not know, the oracle answers.
grep -v oneway "$tmp/caves.links" >"$tmp/caves2.links"
says() { # text, then a command that succeeds and prints the text (on stdout or stderr)
	local text=$1
	shift
	"$@" >"$tmp/sout" 2>&1 && grep -q -F -- "$text" "$tmp/sout"
}
awk 'NR > 200 && NR <= 600 { if (NR % 2) a = $0; else print a, $0 }' "$tmp/free" >"$tmp/pairs"
check "ehl-build --links names the links" says "links $(wc -l <"$tmp/caves2.links")" \
	"$GT" ehl-build "$tmp/caves.map" --links "$tmp/caves2.links" --cell 2 -o "$tmp/caves_links.ehl"
index_equals_oracle() { # links file
	"$GT" dist "$tmp/caves.map" --ehl "$tmp/caves_links.ehl" --links "$1" <"$tmp/pairs" >"$tmp/by_index" &&
		"$GT" dist "$tmp/caves.map" --method oracle --links "$1" <"$tmp/pairs" >"$tmp/by_oracle" &&
		[ "$(wc -l <"$tmp/by_index")" -ge 150 ] &&
		paste "$tmp/by_index" "$tmp/by_oracle" | awk '{ if ($1 != $2 && ($1 - $2 > 1e-6 || $2 - $1 > 1e-6)) bad++ }
			END { exit bad > 0 }'
}
check "dist --ehl (index with links) equals the oracle with links" index_equals_oracle "$tmp/caves2.links"
check "and with one-way links it does not know" index_equals_oracle "$tmp/caves.links"
links_index_knn() {
	"$GT" knn "$tmp/caves.map" --ehl "$tmp/caves_links.ehl" --links "$tmp/caves2.links" --objects "$tmp/objects" \
		--queries "$tmp/queries" | tr ' ' '\n' | cut -d: -f2 >"$tmp/gt" &&
		"$GT" knn "$tmp/caves.map" --links "$tmp/caves2.links" --objects "$tmp/objects" --queries "$tmp/queries" \
			--method brute | tr ' ' '\n' | cut -d: -f2 >"$tmp/brute" &&
		[ "$(wc -l <"$tmp/gt")" -ge 150 ] && cmp -s "$tmp/gt" "$tmp/brute"
}
check "knn --ehl (index with links) equals brute force" links_index_knn
check "ehl-build --links leaves one-way links out" says "1 one-way links left out" \
	"$GT" ehl-build "$tmp/split.map" --links "$tmp/split.links" --cell 1 -o "$tmp/split.ehl"
split_index() {
	[ "$(echo '0 1 11 1' | "$GT" dist "$tmp/split.map" --ehl "$tmp/split.ehl" --links "$tmp/split.links")" = "2.000000000" ] &&
		[ "$(echo '2 4 9 4' | "$GT" dist "$tmp/split.map" --ehl "$tmp/split.ehl" --links "$tmp/split.links")" = "1.000000000" ]
}
check "an index with the teleporter across the wall, and the drop on top" split_index

# A real map when the data is there: AR0602SR with 24 links between scenario points (teleporters of
# cost 0 and 1, cheaper and dearer than the line), an index built knowing them, against the oracle.
data=${GRIDTREE_DATA:-../shared/data}
ar=$data/maps/bgmaps/AR0602SR.map
if [ -f "$ar" ] && [ -f "$data/scenarios/bgmaps/AR0602SR.map.scen" ]; then
	awk 'NR > 1 && NR <= 25 { d = sqrt(($5 - $7) ^ 2 + ($6 - $8) ^ 2); k = NR % 4;
		print $5 + 0.5, $6 + 0.5, $7 + 0.5, $8 + 0.5, k == 0 ? 0 : k == 1 ? 1 : k == 2 ? d / 3 : 2 * d + 1 }' \
		"$data/scenarios/bgmaps/AR0602SR.map.scen" >"$tmp/ar.links"
	awk 'NR > 900 && NR <= 1200 { print $5 + 0.25, $6 + 0.75, $7 + 0.5, $8 + 0.5 }' \
		"$data/scenarios/bgmaps/AR0602SR.map.scen" >"$tmp/ar.pairs"
	ar_index_equals_oracle() {
		"$GT" ehl-build "$ar" --links "$tmp/ar.links" --cell 4 -o "$tmp/ar_links.ehl" >/dev/null &&
			"$GT" dist "$ar" --ehl "$tmp/ar_links.ehl" --links "$tmp/ar.links" <"$tmp/ar.pairs" >"$tmp/ar_index" &&
			"$GT" dist "$ar" --method oracle --links "$tmp/ar.links" <"$tmp/ar.pairs" >"$tmp/ar_oracle" &&
			"$GT" dist "$ar" <"$tmp/ar.pairs" >"$tmp/ar_plain" &&
			[ "$(wc -l <"$tmp/ar_index")" -eq 300 ] && ! cmp -s "$tmp/ar_index" "$tmp/ar_plain" &&
			paste "$tmp/ar_index" "$tmp/ar_oracle" | awk '{ if ($1 != $2 && ($1 - $2 > 1e-6 || $2 - $1 > 1e-6)) bad++ }
				END { exit bad > 0 }'
	}
	check "AR0602SR: an index with 24 links equals the oracle with them" ar_index_equals_oracle
else
	echo "note: benchmark data absent ($data): the index with links is not checked on a real map"
fi

summary cli-links
