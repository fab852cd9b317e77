// The files a level names. A level may come from anyone (a mod, a download): what it names must
// stay inside its own folder unless the caller allows more, only regular files are read (a FIFO
// named like a tileset would block the load forever), and a tileset named many times is read once.
#define _XOPEN_SOURCE 700 // realpath, and POSIX 2008
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/status.h"
#include "tiled/tiled_doc.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

static char* from_callback(TiledDoc* d, const char* path, size_t* length)
{
	const char* bytes = NULL;
	size_t n = 0;
	if (!d->def->read_file(d->def->read_file_user, path, &bytes, &n) || (!bytes && n > 0)) {
		tiled_fail(d, GT_ERR_IO, "%s: cannot open: no such file", path);
		return NULL;
	}
	if (!tiled_limit_file(d, path, n)) return NULL;
	char* text = gt_malloc(n + 1);
	if (!text) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory reading %zu bytes", path, n);
		return NULL;
	}
	if (n) memcpy(text, bytes, n);
	text[n] = '\0';
	*length = n;
	return text;
}

// Whether a file the level names, opened, is inside the level's folder once symbolic links are
// followed (an archive unpacked into the folder may hold a link to anywhere).
static bool really_inside(const TiledDoc* d, const char* path)
{
	char* folder = realpath(d->dir[0] ? d->dir : ".", NULL);
	char* file = realpath(path, NULL);
	size_t n = folder ? strlen(folder) : 0;
	bool inside = folder && file && strncmp(file, folder, n) == 0 && (file[n] == '/' || (n == 1 && folder[0] == '/'));
	free(folder);
	free(file);
	return inside;
}

char* tiled_read_file(TiledDoc* d, const char* path, size_t* length)
{
	*length = 0;
	if (d->def->read_file) return from_callback(d, path, length);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); // a FIFO opens at once, and is refused below
	struct stat link;
	if (fd < 0 && path != d->path && !d->def->allow_outside_paths && lstat(path, &link) == 0 && S_ISLNK(link.st_mode)) {
		// A dangling link gets the outside message too: "cannot open" would tell whether its target exists.
		tiled_fail(d, GT_ERR_FORMAT, "%s: '%s' leads outside the level's folder (allow_outside_paths to allow it)",
		           d->path, path);
		return NULL;
	}
	if (fd < 0) {
		tiled_fail(d, GT_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	struct stat info;
	char* text = NULL;
	if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) tiled_fail(d, GT_ERR_IO, "%s: not a regular file", path);
	else if (path != d->path && !d->def->allow_outside_paths && !really_inside(d, path))
		tiled_fail(d, GT_ERR_FORMAT, "%s: '%s' leads outside the level's folder (allow_outside_paths to allow it)",
		           d->path, path);
	else if (tiled_limit_file(d, path, (uint64_t)info.st_size) && !(text = gt_malloc((size_t)info.st_size + 1)))
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory reading %lld bytes", path, (long long)info.st_size);
	size_t got = 0, want = text ? (size_t)info.st_size : 0;
	while (text && got < want) {
		ssize_t n = read(fd, text + got, want - got);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) break; // a file cut short while being read
		got += (size_t)n;
	}
	close(fd);
	if (text && got != want) {
		gt_free(text);
		tiled_fail(d, GT_ERR_IO, "%s: read error", path);
		return NULL;
	}
	if (text) text[got] = '\0', *length = got;
	return text;
}

static bool is_separator(char c)
{
	return c == '/' || c == '\\';
}

// `source` (relative to the level's folder unless absolute) joined and normalised; `given` is
// what the level wrote, for messages.
static char* resolve_in_folder(TiledDoc* d, const char* source, const char* given, const char* what, bool allow)
{
	size_t n = strlen(d->dir), m = strlen(source);
	bool absolute = is_separator(source[0]) || (m >= 2 && source[1] == ':'); // also C:\ on Windows
	// The same words whether or not such a file exists: a refusal must not probe the disk.
	const char* outside = "%s: %s '%s' is outside the level's folder (allow_outside_paths to allow it)";
	if (absolute && !allow) {
		tiled_fail(d, GT_ERR_FORMAT, outside, d->path, what, given);
		return NULL;
	}
	char* full = gt_malloc(n + m + 2);
	if (!full) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	if (absolute) {
		memcpy(full, source, m + 1);
		return full;
	}
	size_t at = 0;
	if (n > 0) {
		memcpy(full, d->dir, n);
		at = n;
		if (!is_separator(full[at - 1])) full[at++] = '/';
	}
	size_t base = at; // what the level names starts here; ".." below it leaves the folder
	for (const char* p = source; *p;) {
		size_t len = 0;
		while (p[len] && !is_separator(p[len])) len++;
		if (len == 0 || (len == 1 && p[0] == '.')) {
			// nothing to add
		} else if (len == 2 && p[0] == '.' && p[1] == '.' && at > base) {
			at--; // drop the last component (and its '/')
			while (at > base && full[at - 1] != '/') at--;
		} else if (len == 2 && p[0] == '.' && p[1] == '.' && !allow) {
			gt_free(full);
			tiled_fail(d, GT_ERR_FORMAT, outside, d->path, what, given);
			return NULL;
		} else {
			memcpy(full + at, p, len);
			at += len;
			full[at++] = '/';
			if (len == 2 && p[0] == '.' && p[1] == '.') base = at; // allowed to climb: keep it
		}
		p += len;
		if (*p) p++;
	}
	if (at > 0 && full[at - 1] == '/' && at > n) at--;
	full[at] = '\0';
	return full;
}

// The folder of `from` (a file named by the level, resolved) relative to the level's folder:
// its first *length bytes (with the trailing '/'); none for the map. NULL when it lies outside
// the level's folder (only allowed levels get there).
static const char* relative_folder(const TiledDoc* d, const char* from, size_t* length)
{
	size_t n = strlen(d->dir);
	*length = 0;
	if (!from) return "";
	const char* rel = from;
	if (n > 0) {
		if (strncmp(from, d->dir, n) != 0 || !is_separator(from[n])) return NULL;
		rel = from + n + 1;
	} else if (is_separator(from[0])) {
		return NULL;
	}
	const char* slash = strrchr(rel, '/');
	*length = slash ? (size_t)(slash - rel) + 1 : 0;
	return rel;
}

char* tiled_resolve(TiledDoc* d, const char* from, const char* given, const char* what)
{
	bool allow = d->def->allow_outside_paths;
	if (!given[0]) {
		tiled_fail(d, GT_ERR_FORMAT, "%s: a %s with an empty path", d->path, what);
		return NULL;
	}
	// Relative to the naming file's folder: prefix that folder (relative to the level's).
	size_t prefix = 0;
	const char* folder = relative_folder(d, from, &prefix);
	const char* base = folder ? folder : from;
	if (!folder) { // a file outside the level's folder (allowed): its own folder, as it is
		const char* slash = strrchr(from, '/');
		prefix = slash ? (size_t)(slash - from) + 1 : 0;
	}
	bool given_absolute = is_separator(given[0]) || (strlen(given) >= 2 && given[1] == ':');
	if (given_absolute) prefix = 0;
	size_t g = strlen(given);
	char* source = gt_malloc(prefix + g + 1);
	if (!source) {
		tiled_fail(d, GT_ERR_NOMEM, "%s: out of memory", d->path);
		return NULL;
	}
	memcpy(source, base, prefix);
	memcpy(source + prefix, given, g + 1);
	char* full = NULL;
	if (!folder && !given_absolute) { // already outside, and allowed: join as it is
		full = source;
		return full;
	}
	full = resolve_in_folder(d, source, given, what, allow);
	gt_free(source);
	return full;
}

bool tiled_read_tileset(TiledDoc* d, const char* source, uint32_t firstgid)
{
	char* path = tiled_resolve(d, NULL, source, "tileset");
	if (!path) return false;
	for (int64_t i = 0; i < d->source_count; i++) // read once per load, however often it is named
		if (d->sources[i].path && strcmp(d->sources[i].path, path) == 0) {
			gt_free(path);
			return tiled_add_tileset(d, firstgid, i);
		}
	bool xml = tiled_ends_with(path, ".tsx");
	if (!xml && !tiled_ends_with(path, ".tsj") && !tiled_ends_with(path, ".json")) {
		gt_free(path);
		return tiled_fail(d, GT_ERR_FORMAT, "%s: tileset '%s' is neither .tsx nor .tsj", d->path, source);
	}
	size_t length;
	char* text = tiled_read_file(d, path, &length);
	int64_t source_index = d->source_count;
	bool ok = text && (xml ? tiled_read_tsx(d, path, text, length) : tiled_read_tsj(d, path, text, length));
	gt_free(text);
	gt_free(path);
	if (ok && d->source_count == source_index)
		return tiled_fail(d, GT_ERR_FORMAT, "%s: tileset '%s' is empty", d->path, source);
	return ok && tiled_add_tileset(d, firstgid, source_index);
}
