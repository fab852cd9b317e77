#!/usr/bin/env bash
# Size conventions (issue 29): no C file in plugin/ or demo/ over 1,000 lines, no function there
# over 100 lines (from its name's line to its closing brace). A brace-depth scan that skips
# comments, strings and character constants: a block opened at file level whose text since the
# previous declaration has a `(` and no `=` is a function body. Usage: tests/check_sizes.sh [DIR...]
# (default plugin demo); prints each offender and `sizes: N passed, N failed` (one check per file).
# SIZES_PENDING="FILE:FUNCTION ..." names offenders being fixed elsewhere: printed as pending, not
# failed (run_all.sh lists them; empty the list once they are fixed).
set -u
cd "$(dirname "$0")/.."
MAX_FILE_LINES=${MAX_FILE_LINES:-1000}
MAX_FUNCTION_LINES=${MAX_FUNCTION_LINES:-100}
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(plugin demo)

scan() {
	awk -v max_file="$MAX_FILE_LINES" -v max_fn="$MAX_FUNCTION_LINES" -v pending="${SIZES_PENDING:-}" '
	BEGIN { n = split(pending, list, " "); for (i = 1; i <= n; i++) is_pending[list[i]] = 1 }
	function report(file, msg) { print file ": " msg; bad = 1 }
	function end_file() { # POSIX awk has no ENDFILE
		if (last_lines > max_file) report(last_file, last_lines " lines (at most " max_file ")")
		if (bad) failed++; else passed++
	}
	FNR == 1 {
		if (NR > 1) end_file()
		depth = 0; comment = 0; head = ""; head_line = 0; bad = 0
	}
	{
		last_file = FILENAME; last_lines = FNR
		line = $0; code = ""; n = length(line)
		for (i = 1; i <= n; i++) {
			c = substr(line, i, 1); two = substr(line, i, 2)
			if (comment) { if (two == "*/") { comment = 0; i++ } continue }
			if (two == "/*") { comment = 1; i++; continue }
			if (two == "//") break
			if (c == "\"" || c == "\047") { # skip a string or character constant
				for (i++; i <= n && substr(line, i, 1) != c; i++) if (substr(line, i, 1) == "\\") i++
				code = code "_"; continue
			}
			code = code c
		}
		if (depth == 0 && code ~ /^#/) next # preprocessor lines at file level
		for (i = 1; i <= length(code); i++) {
			c = substr(code, i, 1)
			if (depth == 0 && c != "{" && c != ";" && c != "}") {
				if (head_line == 0 && c !~ /[ \t]/) head_line = FNR
				head = head c
			}
			if (c == "{") {
				if (depth == 0) {
					is_function = head ~ /\(/ && head !~ /=/ && head !~ /^[ \t]*(struct|union|enum|typedef)[ \t]/
					start = head_line ? head_line : FNR
					name = head; sub(/\(.*/, "", name); sub(/.*[ \t*]/, "", name)
				}
				depth++
			} else if (c == "}") {
				depth--
				if (depth == 0) {
					if (is_function && FNR - start + 1 > max_fn) {
						if ((FILENAME ":" name) in is_pending) print "note: pending " FILENAME ": " name " is " (FNR - start + 1) " lines"
						else report(FILENAME, name " is " (FNR - start + 1) " lines (at most " max_fn ")")
					}
					is_function = 0; head = ""; head_line = 0
				}
			} else if (c == ";" && depth == 0) { head = ""; head_line = 0 }
		}
		if (depth == 0 && head != "") head = head " "
	}
	END {
		if (NR > 0) end_file()
		printf "sizes: %d passed, %d failed\n", passed, failed; exit failed > 0
	}
	' "$@"
}

mapfile -t files < <(find "${dirs[@]}" -name '*.c' | sort)
scan "${files[@]}"
