#!/usr/bin/env bash
# The web page's self-check queries on MAP (a MovingAI .map): "dist sx sy tx ty" lines, then
# "path sx sy tx ty" lines, points at seeded random places in free cells (and a few anywhere,
# so walls and off-map points are checked too). The same seed gives the same list.
#   web/queries.sh MAP [DIST] [PATH]   (default 200 and 40)
set -euo pipefail
awk -v dist="${2:-200}" -v paths="${3:-40}" '
	NR == 2 { h = $2 } NR == 3 { w = $2 }
	NR > 4 { for (x = 0; x < length($0); x++) if (substr($0, x + 1, 1) ~ /[.GS]/) free[n++] = x " " (NR - 5) }
	function lcg() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
	function pt(   c, xy) {
		if (lcg() < 0.05) return sprintf("%.3f %.3f", lcg() * (w + 2) - 1, lcg() * (h + 2) - 1)
		c = int(lcg() * n); split(free[c], xy, " ")
		return sprintf("%.3f %.3f", xy[1] + lcg(), xy[2] + lcg())
	}
	END {
		seed = 34
		for (i = 0; i < dist; i++) print "dist", pt(), pt()
		for (i = 0; i < paths; i++) print "path", pt(), pt()
	}' "$1"
