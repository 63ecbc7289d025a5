/*
 * cmd.c - the one registry of commands, the option parser every command
 * uses, and the help text generated from the table (so help cannot drift
 * from the code).
 */
#include "cli/cmd.h"
#include "families/user-family.h"
#include "cli/cmd-tune.h"
#include "families/family.h"
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fixed commands; FAMILIES marks where the families' tuning commands
 * go. */
static const struct cmd_entry families_marker;
#define FAMILIES (&families_marker)
static const struct cmd_entry *const cmd_table[] = {
	&cmd_help_entry,
	&cmd_version_entry,
	&cmd_devices_entry,
	FAMILIES,
	&cmd_tune_entry,
	&cmd_source_entry,
	&cmd_query_entry,
	&cmd_export_entry,
	&cmd_validate_entry,
	&cmd_plot_entry,
	&cmd_db_entry,
	NULL
};

const struct cmd_entry *const *cmd_list(void)
{
	static const struct cmd_entry **list;
	if (list)
		return list;
	const struct cmd_entry *const *fams = cmd_family_entries();
	size_t n = ARRAY_SIZE(cmd_table);
	for (size_t i = 0; fams[i]; i++)
		n++;
	list = xcalloc(n, sizeof(*list));
	size_t k = 0;
	for (size_t i = 0; cmd_table[i]; i++) {
		if (cmd_table[i] != FAMILIES) {
			list[k++] = cmd_table[i];
			continue;
		}
		for (size_t j = 0; fams[j]; j++)
			list[k++] = fams[j];
	}
	return list;
}

const struct cmd_entry *cmd_find(const char *name)
{
	const struct cmd_entry *const *list = cmd_list();
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i]->name, name))
			return list[i];
	return NULL;
}

void cmd_print_usage(const struct cmd_entry *cmd, FILE *f)
{
	fprintf(f, "usage: gputune %s [options]%s%s\n", cmd->name,
		cmd->usage && *cmd->usage ? " " : "", cmd->usage ? cmd->usage : "");
}

void cmd_print_help(const struct cmd_entry *cmd, FILE *f)
{
	cmd_print_usage(cmd, f);
	fprintf(f, "\n%s\n", cmd->summary);
	if (cmd->description && *cmd->description)
		fprintf(f, "\n%s\n", cmd->description);
	if (cmd->flags & CMD_NEEDS_GPU)
		fputs("\nNeeds a GPU and the CUDA driver (exit status 3 without one).\n", f);
	fputs("\nOptions:\n", f);
	for (const struct cmd_option *o = cmd->options; o && o->name; o++) {
		char left[64];
		char alias[8] = "";
		if (o->short_name)
			snprintf(alias, sizeof(alias), "-%c, ", o->short_name);
		snprintf(left, sizeof(left), "%s--%s%s%s", alias, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-22s %s%s\n", left, o->help, o->repeatable ? " (repeatable)" : "");
	}
	fprintf(f, "  %-22s %s\n", "-h, --help", "show this help");
	if (cmd->extra_help)
		cmd->extra_help(cmd, f);
}

void cmd_print_overview(FILE *f)
{
	fputs("usage: gputune <command> [options]\n"
	      "       gputune help <command> | --help | --version\n\n"
	      "gputune generates CUDA kernel variants from templates, compiles them with\n"
	      "NVRTC, times and verifies each on this machine's GPU, and keeps the winners\n"
	      "per device, kernel, element type and size in SQLite.\n\n"
	      "Commands:\n", f);
	const struct cmd_entry *const *list = cmd_list();
	for (size_t i = 0; list[i]; i++) {
		const struct cmd_entry *c = list[i];
		if (c->flags & CMD_HIDDEN)
			continue;
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	}
	fputs("\nExit status: 0 success, 1 failure, 2 bad usage, 3 no GPU or CUDA driver,\n"
	      "130 interrupted.  `gputune help <command>` describes each command.\n", f);
}

int cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(NULL, fmt, ap);
	va_end(ap);
	if (cmd)
		cmd_print_usage(cmd, stderr);
	else
		fputs("usage: gputune <command> [options] (gputune --help lists the commands)\n", stderr);
	return EXIT_USAGE;
}

static const struct cmd_option *find_option(const struct cmd_entry *cmd, const char *name, size_t len)
{
	for (const struct cmd_option *o = cmd->options; o && o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static void args_push(struct args *a, const struct cmd_option *o, const char *value)
{
	a->v = xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
	a->v[a->n].opt = o;
	a->v[a->n].value = value;
	a->n++;
}

int cmd_parse(const struct cmd_entry *cmd, int argc, char **argv, struct args *out)
{
	memset(out, 0, sizeof(*out));
	out->cmd = cmd;
	out->pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int only_pos = 0;
	for (int i = 1; i < argc; i++) {
		char *s = argv[i];
		if (only_pos || s[0] != '-' || !s[1]) {
			out->pos[out->npos++] = s;
			continue;
		}
		if (!strcmp(s, "--")) {
			only_pos = 1;
			continue;
		}
		if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			cmd_print_help(cmd, stdout);
			return 1;
		}
		const char *name = s + 2;
		const char *eq = NULL;
		size_t len = 0;
		const struct cmd_option *o = NULL;
		if (s[1] != '-') {
			for (o = cmd->options; o && o->name && !(o->short_name == s[1] && !s[2]); o++)
				;
			if (!o || !o->name) {
				cmd_usage_error(cmd, "%s: unknown option '%s'", cmd->name, s);
				return -1;
			}
			name = o->name;
			len = strlen(name);
		} else {
			eq = strchr(name, '=');
			len = eq ? (size_t)(eq - name) : strlen(name);
			o = find_option(cmd, name, len);
		}
		if (!o) {
			cmd_usage_error(cmd, "%s: unknown option '--%.*s'", cmd->name, (int)len, name);
			return -1;
		}
		const char *value = NULL;
		if (o->arg) {
			if (eq)
				value = eq + 1;
			else if (i + 1 < argc)
				value = argv[++i];
			else {
				cmd_usage_error(cmd, "%s: option '--%s' needs a value (%s)", cmd->name, o->name, o->arg);
				return -1;
			}
		} else if (eq) {
			cmd_usage_error(cmd, "%s: option '--%s' takes no value", cmd->name, o->name);
			return -1;
		}
		if (!o->repeatable && args_has(out, o->name)) {
			cmd_usage_error(cmd, "%s: option '--%s' given twice", cmd->name, o->name);
			return -1;
		}
		args_push(out, o, value);
	}
	if ((int)out->npos < cmd->min_pos) {
		cmd_usage_error(cmd, "%s: missing argument", cmd->name);
		return -1;
	}
	if ((int)out->npos > cmd->max_pos) {
		cmd_usage_error(cmd, "%s: unexpected argument '%s'", cmd->name, out->pos[cmd->max_pos]);
		return -1;
	}
	return 0;
}

void args_free(struct args *a)
{
	free(a->v);
	free(a->pos);
	memset(a, 0, sizeof(*a));
}

const char *args_get(const struct args *a, const char *name)
{
	const char *v = NULL;
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].opt->name, name))
			v = a->v[i].value;
	return v;
}

int args_has(const struct args *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].opt->name, name))
			return 1;
	return 0;
}

size_t args_count(const struct args *a, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < a->n; i++)
		n += !strcmp(a->v[i].opt->name, name);
	return n;
}

const char *args_nth(const struct args *a, const char *name, size_t k)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].opt->name, name) && k-- == 0)
			return a->v[i].value;
	return NULL;
}

const char **args_all(const struct args *a, const char *name, size_t *n)
{
	*n = args_count(a, name);
	const char **v = xcalloc(*n + 1, sizeof(*v));
	for (size_t i = 0; i < *n; i++)
		v[i] = args_nth(a, name, i);
	return v;
}

const struct family *cmd_family_arg(const struct cmd_entry *cmd, const char *noun, const char *name)
{
	const struct family *f = family_find(name);
	if (f)
		return f;
	/* A family a user brings: its template or spec, by path. */
	size_t len = strlen(name);
	if ((len > 3 && !strcmp(name + len - 3, ".cu")) || (len > 5 && !strcmp(name + len - 5, ".json"))) {
		char err[700];
		if (!(f = user_family_load(name, err, sizeof(err))))
			cmd_usage_error(cmd, "%s: %s", cmd->name, err);
		return f;
	}
	struct strbuf sb = {0};
	for (size_t i = 0; family_table[i]; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", family_table[i]->name);
	cmd_usage_error(cmd, "%s: unknown %s '%s' (%s; or a kernel of your own, KERNEL.cu or SPEC.json)", cmd->name,
			noun, name, sb.buf);
	sb_free(&sb);
	return NULL;
}

int args_format(const struct args *a)
{
	const char *f = args_get(a, "format");
	if (!f || !strcmp(f, "table"))
		return FMT_TABLE;
	if (!strcmp(f, "csv"))
		return FMT_CSV;
	if (!strcmp(f, "json"))
		return FMT_JSON;
	cmd_usage_error(a->cmd, "%s: unknown format '%s' (table, csv or json)", a->cmd->name, f);
	return -1;
}
