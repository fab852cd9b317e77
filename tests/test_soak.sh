#!/usr/bin/env bash
# Short runs of the model-based soak (the long one is `./run soak [OPS]`): 100,000 operations on
# the release build and 10,000 under the sanitizers, each with 0 mismatches. BIN is the sanitizer
# build. Prints "soak: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BIN=${1:-bin/debug}
source tests/checks.sh
soak_clean() { # binary, operations, seed
	"$1" --ops "$2" --seed "$3" >"$tmp/soak" && grep -qx "operations $2" "$tmp/soak" && grep -qx "mismatches 0" "$tmp/soak" &&
		cat "$tmp/soak" | tr '\n' ' ' | sed 's/^/note: /' >&2
}
check "soak 100000 operations (release)" soak_clean bin/gridtree-soak 100000 1
check "soak 10000 operations (sanitizers)" soak_clean "$BIN/gridtree-soak" 10000 2
# The soak can fail: an object moved in the model only is noticed.
desync_caught() {
	! bin/gridtree-soak --ops 20000 --seed 3 --desync 5000 >"$tmp/soak" && grep -q '^first_mismatch operation' "$tmp/soak" &&
		! grep -qx "mismatches 0" "$tmp/soak"
}
check "soak notices a model out of step" desync_caught
summary soak
