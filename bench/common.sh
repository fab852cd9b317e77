# Shared by the benchmark scripts (sourced): repository root, tools, scratch space, `value KEY FILE`
# for the CLI's 'key value' output, and the benchmark data when the script needs it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[1]}")/.."
GT=bin/gridtree
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# Exits with a clear message when ../shared/data (or $GRIDTREE_DATA) is missing.
need_data() {
	DATA=${GRIDTREE_DATA:-../shared/data}
	if [ ! -d "$DATA/maps" ]; then
		echo "$1: benchmark data not found at $DATA (set GRIDTREE_DATA)" >&2
		exit 1
	fi
}

# The machine line every benchmark starts with.
machine_line() {
	echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(date -u +%Y-%m-%d)"
}

# The machine line, then a markdown table's header row (the argument) and its separator row.
table_start() {
	machine_line
	echo
	echo "$1"
	echo "$1" | sed 's/[^|]*|/---|/g; s/^---|/|/'
}
