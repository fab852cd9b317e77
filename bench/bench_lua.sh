#!/usr/bin/env bash
# Lua against C on the same workload: nearest queries (goal: Lua at most 1.3x the C call) and
# move_many of about 10,000 objects (goal: at most 2x the C bulk move). Bundled map, no data needed.
source "$(dirname "$0")/common.sh"
MAP=assets/maps/keep.map
printf 'healer elf potion\norc warrior axe\ngoblin archer bow\nmage staff fire\nguard shield spear\n' >"$tmp/items.txt"
"$GT" ehl-build "$MAP" -o "$tmp/index.ehl" --cell 1 >/dev/null 2>&1
"$GT" workload "$MAP" --keywords "$tmp/items.txt" --density 0.4 --mobility 0.7 --timestamps 30 --queries 200 \
	--k 3 --query-keywords 1 --seed 1 --ehl "$tmp/index.ehl" -o "$tmp/workload" >/dev/null
echo "| leaf | objects | moves per frame | C move_many us | Lua move_many us | ratio | C nearest us | Lua nearest us | ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for leaf in 16 64; do
	c_upd="" c_q="" l_upd="" l_q=""
	for run in 1 2 3; do # best of three: the machine is shared
		"$GT" bench-knn "$MAP" --ehl "$tmp/index.ehl" --workload "$tmp/workload" --leaf "$leaf" >"$tmp/c"
		LUA_CPATH_5_4="./bin/?.so" lua5.4 bench/bench_lua.lua "$MAP" "$tmp/index.ehl" "$tmp/workload" "$leaf" >"$tmp/l"
		c_upd=$(printf '%s\n%s\n' "${c_upd:-1e18}" "$(value update_us_per_timestamp "$tmp/c")" | sort -g | head -n 1)
		c_q=$(printf '%s\n%s\n' "${c_q:-1e18}" "$(value query_us "$tmp/c")" | sort -g | head -n 1)
		l_upd=$(printf '%s\n%s\n' "${l_upd:-1e18}" "$(value update_us_per_timestamp "$tmp/l")" | sort -g | head -n 1)
		l_q=$(printf '%s\n%s\n' "${l_q:-1e18}" "$(value query_us "$tmp/l")" | sort -g | head -n 1)
	done
	awk -v leaf="$leaf" -v n="$(value objects "$tmp/l")" -v m="$(value moves_per_timestamp "$tmp/l")" \
		-v cu="$c_upd" -v lu="$l_upd" -v cq="$c_q" -v lq="$l_q" \
		'BEGIN { printf "| %s | %s | %.0f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f |\n", leaf, n, m, cu, lu, lu / cu, cq, lq, lq / cq }'
done
