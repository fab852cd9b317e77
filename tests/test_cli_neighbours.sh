#!/usr/bin/env bash
# `gridtree neighbours` (docs/neighbours.md): on generated scenes in 2D and 3D, open, partly and
# fully wrapping, with points sharing positions and ids out of order, every method prints the
# same bytes as brute force, on 1 and 2 threads; an awk brute force by minimum image agrees on a
# small scene; bad input fails clearly. Prints "cli-neighbours: N passed, N failed" last.
set -u
GT=${1:-bin/debug/gridtree}
source "$(dirname "$0")/checks.sh"

scene() { # dims W H D seed count queries: objects.txt (ids shuffled, every third on a lattice, some twice) and queries.txt
	awk -v dims="$1" -v W="$2" -v H="$3" -v D="$4" -v seed="$5" -v n="$6" -v q="$7" -v dir="$tmp" 'BEGIN {
		srand(seed); size[1] = W; size[2] = H; size[3] = D
		for (i = 1; i <= n; i++) {
			line = (i * 7919) % 100003
			for (a = 1; a <= dims; a++) {
				v = rand() * size[a]
				if (i % 3 == 0) v = int(rand() * 8) * size[a] / 8
				p[i, a] = v; line = line " " v
			}
			if (i % 7 == 0) { line = (i * 7919) % 100003; for (a = 1; a <= dims; a++) line = line " " p[i - 1, a] }
			print line > (dir "/objects.txt")
		}
		for (j = 1; j <= q; j++) {
			line = ""
			for (a = 1; a <= dims; a++) line = line (a > 1 ? " " : "") (j % 5 == 0 ? p[j, a] : rand() * size[a])
			r = (j % 4 == 0) ? 0 : rand() * W / 3; k = (j % 3 == 0) ? 0 : int(rand() * 12)
			if (r == 0 && k == 0) k = 3
			print line, r, k > (dir "/queries.txt")
		}
	}'
}

same_as_brute() { # space wrap cell
	"$GT" neighbours --space "$1" --wrap "$2" --cell "$3" --objects "$tmp/objects.txt" --queries "$tmp/queries.txt" \
		--method brute >"$tmp/brute.txt" || return 1
	[ "$(wc -l <"$tmp/brute.txt")" -eq "$(wc -l <"$tmp/queries.txt")" ] || return 1
	grep -q ':' "$tmp/brute.txt" || return 1
	for m in sphere cube nonempty auto; do
		for t in 1 2; do
			"$GT" neighbours --space "$1" --wrap "$2" --cell "$3" --objects "$tmp/objects.txt" \
				--queries "$tmp/queries.txt" --method "$m" --threads "$t" >"$tmp/got.txt" || return 1
			cmp -s "$tmp/brute.txt" "$tmp/got.txt" || { echo "$m on $t threads differs from brute"; return 1; }
		done
	done
}

scene 2 40 30 0 1 600 200
check "2D open: every method as brute" same_as_brute 40,30 none 2.5
check "2D wrapping x: every method as brute" same_as_brute 40,30 x 3
check "2D wrapping xy: every method as brute" same_as_brute 40,30 xy 1.7
scene 3 20 16 12 2 800 200
check "3D open: every method as brute" same_as_brute 20,16,12 "" 1.5
check "3D wrapping xz: every method as brute" same_as_brute 20,16,12 xz 2
check "3D wrapping xyz: every method as brute" same_as_brute 20,16,12 xyz 1

# An independent brute force in awk (minimum image on x), compared on ids and 9-decimal distances.
awk_brute() {
	printf '1 1 1\n2 9 1\n3 5 5\n4 1 1\n5 0 9\n' >"$tmp/o.txt"
	printf '0.5 1 3 0\n9.5 9.5 0 2\n5 5 1 0\n' >"$tmp/q.txt"
	"$GT" neighbours --space 10,10 --wrap x --objects "$tmp/o.txt" --queries "$tmp/q.txt" --method sphere >"$tmp/got.txt" &&
		awk 'NR == FNR { id[NR] = $1; x[NR] = $2; y[NR] = $3; n = NR; next }
			{ line = ""; m = 0
			  for (i = 1; i <= n; i++) { dx = x[i] - $1; if (dx < 0) dx = -dx; if (dx > 5) dx = 10 - dx; dy = y[i] - $2
			    d = sqrt(dx * dx + dy * dy); if ($3 == 0 || d <= $3) { m++; dd[m] = d; ii[m] = id[i] } }
			  for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (dd[b] < dd[a] || (dd[b] == dd[a] && ii[b] < ii[a])) {
			    t = dd[a]; dd[a] = dd[b]; dd[b] = t; t = ii[a]; ii[a] = ii[b]; ii[b] = t }
			  if ($4 > 0 && m > $4) m = $4
			  for (a = 1; a <= m; a++) line = line (a > 1 ? " " : "") sprintf("%d:%.9f", ii[a], dd[a])
			  print (m ? line : "-") }' "$tmp/o.txt" "$tmp/q.txt" >"$tmp/want.txt" &&
		cmp -s "$tmp/want.txt" "$tmp/got.txt"
}
check "2D wrapping x: equals an awk brute force" awk_brute
none_found() {
	printf '1 1 1\n' >"$tmp/o.txt" && printf '8 8 1 0\n' >"$tmp/q.txt" &&
		[ "$("$GT" neighbours --space 10,10 --objects "$tmp/o.txt" --queries "$tmp/q.txt")" = "-" ]
}
check "nothing in range prints -" none_found

printf '1 1 1\n2 11 1\n' >"$tmp/bad_obj.txt"
printf '1 1\n' >"$tmp/q1.txt"
printf '1 1 1 1\n' >"$tmp/ok_q.txt"
printf '1 1 1\n1 2 2\n' >"$tmp/dup.txt"
check "an object outside an open world fails" failure "outside the world" \
	"$GT" neighbours --space 10,10 --objects "$tmp/bad_obj.txt" --queries "$tmp/ok_q.txt"
check "it wraps on a cyclic axis" "$GT" neighbours --space 10,10 --wrap x --objects "$tmp/bad_obj.txt" --queries "$tmp/ok_q.txt"
check "a short query line fails" failure "expected 'x y r k'" \
	"$GT" neighbours --space 10,10 --objects "$tmp/dup.txt" --queries "$tmp/q1.txt"
check "a repeated id fails" failure "appears twice" \
	"$GT" neighbours --space 10,10 --objects "$tmp/dup.txt" --queries "$tmp/ok_q.txt"
check "a bad --space is a usage error" usage_error "--space must be" \
	"$GT" neighbours --space 10 --objects "$tmp/dup.txt" --queries "$tmp/ok_q.txt"
check "--wrap z in 2D is a usage error" usage_error "--wrap takes letters of xy" \
	"$GT" neighbours --space 10,10 --wrap z --objects "$tmp/dup.txt" --queries "$tmp/ok_q.txt"
check "an unknown method is a usage error" usage_error "method" \
	"$GT" neighbours --space 10,10 --method kd --objects "$tmp/dup.txt" --queries "$tmp/ok_q.txt"
# The benchmark's smoke: every figure printed, every method agreeing on every point, and Auto's
# weights fitted to the points' times.
bench_smoke() {
	"$GT" bench-neighbours --quick --calibrate >"$tmp/bench.txt" &&
		grep -q '^Figure 6' "$tmp/bench.txt" && grep -q '^Figure 7' "$tmp/bench.txt" && grep -q '^Figure 8' "$tmp/bench.txt" &&
		grep -q -x 'mismatches 0' "$tmp/bench.txt" && grep -q '^frame_ms_3d [0-9]' "$tmp/bench.txt" &&
		grep -q '^fitted weights' "$tmp/bench.txt" && [ "$(grep -c -E '^\.(setup|cell|point|answer) = \{0(, [0-9][0-9.e+-]*){4}\},$' "$tmp/bench.txt")" -eq 4 ]
}
check "bench-neighbours --quick --calibrate prints the figures and the fitted weights" bench_smoke
bench_frame() { # --frame: only the frame's table
	"$GT" bench-neighbours --quick --frame >"$tmp/frame.txt" && ! grep -q '^Figure' "$tmp/frame.txt" &&
		grep -q '^frame_ms_2d [0-9]' "$tmp/frame.txt" && grep -q '^frame_ms_3d [0-9]' "$tmp/frame.txt" &&
		grep -q -x 'mismatches 0' "$tmp/frame.txt"
}
check "bench-neighbours --frame prints only the frame" bench_frame
check "help lists neighbours" bash -c "'$GT' help | grep -q '^  neighbours'"

summary cli-neighbours
