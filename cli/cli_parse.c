// The command-line parser and the usage texts, both driven by each command's option table
// (CliCommand in cli.h), so what `--help` lists is exactly what the parser accepts.
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

enum { HELP_COLUMN = 28, HELP_WIDTH = 100 }; // where an option's help starts and lines end in `gridtree CMD --help`

// A map option the command declares itself is its own (inflate makes --clearance required).
static bool shadowed(const CliCommand* c, const CliOption* map_option)
{
	for (const CliOption* o = c->options; o->name; o++)
		if (strcmp(o->name, map_option->name) == 0) return true;
	return false;
}

// The command's i-th option: its own, then the map options it takes and does not redeclare.
static const CliOption* option_at(const CliCommand* c, int i)
{
	for (const CliOption* o = c->options; o->name; o++)
		if (i-- == 0) return o;
	if (c->map_options)
		for (const CliOption* o = cli_map_options; o->name; o++)
			if (!shadowed(c, o) && i-- == 0) return o;
	return NULL;
}

static const CliOption* find_option(const CliCommand* c, const char* name, size_t len)
{
	const CliOption* o;
	for (int i = 0; (o = option_at(c, i)); i++)
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) return o;
	return NULL;
}

static bool value_allowed(const char* values, const char* value)
{
	size_t len = strlen(value);
	for (const char* p = values; *p;) {
		size_t n = strcspn(p, "|");
		if (n == len && strncmp(p, value, n) == 0) return true;
		p += n;
		if (*p == '|') p++;
	}
	return false;
}

static int word_count(const char* text)
{
	int n = 0;
	for (const char* p = text; *p; p++) n += *p != ' ' && (p == text || p[-1] == ' ');
	return n;
}

// "-o" for a one-letter name, else "--name".
static int write_name(const CliOption* o, FILE* out)
{
	return fprintf(out, strlen(o->name) == 1 ? "-%s" : "--%s", o->name);
}

int cli_write_synopsis(const CliCommand* c, FILE* out)
{
	int n = fprintf(out, "%s%s%s", c->name, *c->args ? " " : "", c->args);
	bool optional = false;
	const CliOption* o;
	for (int i = 0; (o = option_at(c, i)); i++) {
		if (!o->required) {
			optional = true;
			continue;
		}
		n += fprintf(out, " ");
		n += write_name(o, out);
		if (o->arg) n += fprintf(out, " %s", o->values ? o->values : o->arg);
	}
	if (optional) n += fprintf(out, " [options]");
	return n;
}

static void usage_line(const CliCommand* c, FILE* out)
{
	fprintf(out, "usage: gridtree ");
	cli_write_synopsis(c, out);
	fprintf(out, "\n('gridtree %s --help' lists the options)\n", c->name);
}

// Text from column `at` (the cursor's) to HELP_WIDTH, broken at spaces; further lines start at `indent`.
static void wrap(const char* text, int at, int indent, FILE* out)
{
	while (*text) {
		size_t room = at < HELP_WIDTH - 20 ? (size_t)(HELP_WIDTH - at) : 20, n = strlen(text);
		if (n > room) { // the last space that fits, else the first one after
			n = room;
			while (n > 0 && text[n] != ' ') n--;
			if (n == 0) n = strcspn(text, " ");
		}
		fprintf(out, "%.*s\n", (int)n, text);
		text += n;
		while (*text == ' ') text++;
		if (*text) fprintf(out, "%*s", indent, "");
		at = indent;
	}
}

static void print_option(const CliOption* o, FILE* out)
{
	int n = fprintf(out, "  ");
	n += write_name(o, out);
	if (o->arg) n += fprintf(out, " %s", o->arg);
	if (n >= HELP_COLUMN - 1) n = fprintf(out, "\n") - 1;
	fprintf(out, "%*s", HELP_COLUMN - n, "");
	char text[512];
	snprintf(text, sizeof text, "%s%s", o->help, o->required ? " (required)" : "");
	wrap(text, HELP_COLUMN, HELP_COLUMN, out);
	if (o->values) fprintf(out, "%*s%s: %s\n", HELP_COLUMN, "", o->arg, o->values);
}

void cli_print_help(const CliCommand* c, FILE* out)
{
	fprintf(out, "usage: gridtree ");
	cli_write_synopsis(c, out);
	fprintf(out, "\n\n%s\n", c->summary);
	if (c->about) fprintf(out, "%s\n", c->about);
	bool any = false;
	for (const CliOption* o = c->options; o->name; o++) {
		if (!any) fprintf(out, "\noptions:\n");
		any = true;
		print_option(o, out);
	}
	if (c->map_options) {
		fprintf(out, "\nmap options (MAP is a MovingAI .map or a Tiled .tmx, .tmj or .json):\n");
		for (const CliOption* o = cli_map_options; o->name; o++)
			if (!shadowed(c, o)) print_option(o, out);
	}
	fprintf(out, "\n  -h, --help%*sthis text\n", HELP_COLUMN - 12, "");
}

bool cli_parse(int argc, char** argv, const CliCommand* c, CliArgs* out)
{
	memset(out, 0, sizeof *out);
	out->command = c;
	for (int i = 0; i < argc; i++) {
		const char* a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			out->help = true;
			return true;
		}
		const char* name;
		size_t len;
		const char* eq = NULL;
		if (a[0] == '-' && a[1] == '-' && a[2]) {
			name = a + 2;
			eq = strchr(name, '=');
			len = eq ? (size_t)(eq - name) : strlen(name);
		} else if (a[0] == '-' && isalpha((unsigned char)a[1]) && !a[2]) { // -o
			name = a + 1;
			len = 1;
		} else {
			if (out->positional_count == 8) {
				fprintf(stderr, "gridtree %s: too many arguments\n", c->name);
				return false;
			}
			out->positional[out->positional_count++] = a;
			continue;
		}
		const CliOption* o = find_option(c, name, len);
		if (!o) {
			fprintf(stderr, "gridtree %s: unknown option '%.*s' (try 'gridtree %s --help')\n", c->name,
			        (int)(name - a + len), a, c->name);
			return false;
		}
		const char* value = "1"; // a flag's
		if (o->arg) value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		else if (eq) {
			fprintf(stderr, "gridtree %s: option '--%s' takes no value\n", c->name, o->name);
			return false;
		}
		if (!value || out->option_count == 16) {
			fprintf(stderr, "gridtree %s: option '%.*s' needs a value\n", c->name, (int)(name - a + len), a);
			return false;
		}
		if (o->values && !value_allowed(o->values, value)) {
			fprintf(stderr, "gridtree %s: unknown --%s '%s' (available: %s)\n", c->name, o->name, value, o->values);
			return false;
		}
		// Options are stored by their name in the table, which outlives the parse.
		out->names[out->option_count] = o->name;
		out->values[out->option_count++] = value;
	}
	int expected = word_count(c->args);
	if (out->positional_count != expected) {
		fprintf(stderr, "gridtree %s: expected %d argument%s%s%s%s, got %d\n", c->name, expected,
		        expected == 1 ? "" : "s", expected ? " (" : "", c->args, expected ? ")" : "", out->positional_count);
		usage_line(c, stderr);
		return false;
	}
	const CliOption* o;
	for (int i = 0; (o = option_at(c, i)); i++)
		if (o->required && !cli_option(out, o->name, NULL)) {
			fprintf(stderr, "gridtree %s: needs ", c->name);
			write_name(o, stderr);
			if (o->arg) fprintf(stderr, " %s", o->values ? o->values : o->arg);
			fprintf(stderr, "\n");
			usage_line(c, stderr);
			return false;
		}
	return true;
}

int cli_choice(const CliArgs* args, const char* name, int fallback)
{
	const char* value = cli_option(args, name, NULL);
	const CliOption* o = find_option(args->command, name, strlen(name));
	if (!value || !o || !o->values) return fallback;
	int index = 0;
	size_t len = strlen(value);
	for (const char* p = o->values; *p; index++) {
		size_t n = strcspn(p, "|");
		if (n == len && strncmp(p, value, n) == 0) return index;
		p += n;
		if (*p == '|') p++;
	}
	return fallback; // not reached: the parser has checked the value
}

bool cli_usage_unless(bool ok, const CliArgs* args)
{
	if (!ok) usage_line(args->command, stderr);
	return ok;
}
