// A .tmj's long arrays of tile ids, taken out before cJSON parses the file: cJSON spends about 64
// bytes on every value, so a 30 MB array of ids would cost 1 GB. Each `"data": [ids]` longer than
// LONG_ARRAY bytes is replaced, in a copy of the text, by the number -(its index + 1) padded with
// spaces; the reader decodes the ids from the original text as CSV. The values left for cJSON are
// counted first, against the object limit.
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status.h"
#include "tiled/tiled_doc.h"

enum { LONG_ARRAY = 64 };

static size_t skip_space(const char* t, size_t at, size_t n)
{
	while (at < n && (t[at] == ' ' || t[at] == '\t' || t[at] == '\n' || t[at] == '\r')) at++;
	return at;
}

// The end (one past ']') of an array of non-negative integers starting at '[' at `at`; 0 when it
// holds anything else (cJSON then reads it, and its errors apply).
static size_t id_array_end(const char* t, size_t at, size_t n)
{
	for (size_t i = at + 1; i < n; i++) {
		char c = t[i];
		if (c == ']') return i + 1;
		if (!((c >= '0' && c <= '9') || c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) return 0;
	}
	return 0;
}

bool tiled_scan_json(TiledDoc* d, const char* text, size_t length, TiledIdArrays* out)
{
	memset(out, 0, sizeof *out);
	int64_t values = 0;
	bool in_string = false;
	size_t string_start = 0;
	for (size_t at = 0; at < length; at++) {
		char c = text[at];
		if (in_string) {
			if (c == '\\') at++;
			else if (c == '"') {
				in_string = false;
				if (at - string_start != 4 || memcmp(text + string_start, "data", 4) != 0) continue;
				size_t colon = skip_space(text, at + 1, length);
				if (colon >= length || text[colon] != ':') continue;
				size_t open = skip_space(text, colon + 1, length);
				if (open >= length || text[open] != '[') continue;
				size_t end = id_array_end(text, open, length);
				if (end == 0 || end - open < LONG_ARRAY) continue;
				if (!out->text) { // the first long array: copy the text to edit it
					if (!(out->text = gt_malloc(length + 1)))
						return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
					memcpy(out->text, text, length);
					out->text[length] = '\0';
				}
				if (!GT_GROW(out->spans, out->capacity, 2 * (out->count + 1), 16))
					return tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
				out->spans[2 * out->count] = open + 1, out->spans[2 * out->count + 1] = end - 1 - (open + 1);
				char number[32];
				int digits = snprintf(number, sizeof number, "%lld", -(long long)(out->count + 1));
				memset(out->text + open, ' ', end - open);
				memcpy(out->text + open, number, (size_t)digits);
				out->count++;
				at = end - 1;
			}
			continue;
		}
		if (c == '"') in_string = true, string_start = at + 1, values++;
		else if (c == ',' || c == '[' || c == '{') values++;
	}
	out->values = values;
	// About 8 values make an object (id, name, type, x, y, width, height, a property or two).
	int64_t allowed = 8 * d->limits.objects + 65536;
	if (values > allowed)
		return tiled_fail(
		    d, GT_ERR_LIMIT,
		    "%s: about %lld JSON values besides tile data, above 8 x max_objects + 65536 = %lld (raise max_objects to "
		    "load this level)",
		    d->path, (long long)values, (long long)allowed);
	return true;
}

void tiled_free_id_arrays(TiledIdArrays* a)
{
	gt_free(a->text);
	gt_free(a->spans);
}
