/*
 * cmd.h - the command registry: one file per command, one table entry each.
 *
 * Adding a command
 * ----------------
 *  1. Write src/cli/cmd-<name>.c defining
 *        const struct cmd_entry cmd_<name>_entry = { .name = "<name>", ... };
 *     with a summary, the positional usage, a description, and its options
 *     (every option has help text; -h/--help is added for every command).
 *  2. Declare it below and add it to cmd_table[] in src/cli/cmd.c, in the order
 *     `gputune help` should list it.  (A kernel family's tuning command is
 *     not written by hand: src/cli/cmd-tune.c makes one for every entry of the
 *     family table.)
 *  3. Add the file to gputune_SOURCES in Makefile.am.
 *  4. Add tests: tests/t0001-help.sh checks `help <name>` and `<name> -h`
 *     for every table entry by itself; add the command's own tests under
 *     tests/ (t0xxx CLI, t1xxx templates, t2xxx database, t3xxx export,
 *     t5xxx GPU).
 *  5. Document it in README.md (its table), docs/usage.md and gputune.1.
 */
#ifndef GPUTUNE_CMD_H
#define GPUTUNE_CMD_H

#include "util/table.h"

#include <stddef.h>
#include <stdio.h>

/* Command flags, shown by `gputune help`. */
enum {
	CMD_NEEDS_GPU = 1 << 0, /* needs the CUDA driver and a GPU (maybe not always: see description) */
	CMD_USES_DB = 1 << 1,   /* reads or writes the tuning database */
	CMD_HIDDEN = 1 << 2     /* internal: left out of `gputune help` */
};

struct cmd_option {
	const char *name;  /* long name, without the dashes */
	const char *arg;   /* metavariable for an option with a value; NULL for a flag */
	const char *help;
	int repeatable;    /* may be given several times (all values are kept) */
	char short_name;   /* a one-letter alias ("-o"), or 0 */
};

/* Options several commands share: one spelling and one help text. */
#define OPT_DB { "db", "PATH", "tuning database (default $GPUTUNE_DB, else $XDG_DATA_HOME/gputune/gputune.db)", 0, 0 }
#define OPT_FORMAT { "format", "FMT", "output format: table (default), csv or json", 0, 0 }
#define OPT_OUTPUT { "output", "FILE", "write to FILE (atomically) instead of standard output", 0, 'o' }
#define OPT_DEVICE_INDEX { "device", "N", "GPU to use, by index among the visible GPUs (default 0)", 0, 0 }
#define OPT_END { 0, 0, 0, 0, 0 }

struct arg_value {
	const struct cmd_option *opt;
	const char *value; /* NULL for a flag */
};

/* A parsed command line.  Strings point into argv. */
struct args {
	const struct cmd_entry *cmd;
	struct arg_value *v;
	size_t n;
	char **pos;
	size_t npos;
};

struct family;

struct cmd_entry {
	const char *name;
	const char *summary;     /* one line for the command list */
	const char *usage;       /* positional arguments, e.g. "FAMILY" or "" */
	const char *description; /* paragraphs for `gputune help <name>` */
	const struct cmd_option *options; /* terminated by OPT_END */
	int min_pos, max_pos;    /* positional argument counts */
	int flags;
	int (*exec)(struct args *a);
	/* More help after the options, or NULL. */
	void (*extra_help)(const struct cmd_entry *cmd, FILE *f);
	const struct family *family; /* the family a tuning command tunes, else NULL */
};

/* Every command, in the order `gputune help` lists them: the fixed ones
 * of cmd.c's table, with a tuning command for each kernel family
 * (cmd-tune.c) in the table's place for them.  NULL-terminated. */
const struct cmd_entry *const *cmd_list(void);

extern const struct cmd_entry cmd_help_entry;
extern const struct cmd_entry cmd_version_entry;
extern const struct cmd_entry cmd_devices_entry;
extern const struct cmd_entry cmd_tune_entry;
extern const struct cmd_entry cmd_source_entry;
extern const struct cmd_entry cmd_query_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_db_entry;
extern const struct cmd_entry cmd_validate_entry;
extern const struct cmd_entry cmd_plot_entry;

/* The entry named name, or NULL. */
const struct cmd_entry *cmd_find(const char *name);

/* Parses argv (argv[0] is the command name) against cmd's options.
 * Returns 0, 1 when -h/--help was given (help already printed), or -1
 * after printing the problem and the usage to stderr. */
int cmd_parse(const struct cmd_entry *cmd, int argc, char **argv, struct args *out);
void args_free(struct args *a);

/* The last value given for option name, or NULL. */
const char *args_get(const struct args *a, const char *name);
int args_has(const struct args *a, const char *name);
/* The values of a repeatable option, in order: count and i-th. */
size_t args_count(const struct args *a, const char *name);
const char *args_nth(const struct args *a, const char *name, size_t i);
/* Every value of a repeatable option, in order, as a new array of *n
 * pointers into argv (the caller frees the array). */
const char **args_all(const struct args *a, const char *name, size_t *n);

/* Help text, generated from the table. */
void cmd_print_usage(const struct cmd_entry *cmd, FILE *f);
void cmd_print_help(const struct cmd_entry *cmd, FILE *f);
void cmd_print_overview(FILE *f);
/* "gputune VERSION", with " (commit C)" where the build knew its commit,
 * and a newline. */
void cmd_print_version(FILE *f);

/* Exit code for a usage error of cmd: prints msg and the usage to stderr. */
int cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* The kernel family named name, or a user's (name the path of its
 * template, KERNEL.cu, or spec, SPEC.json: user-family.h); NULL after a
 * usage error of cmd that lists the families ("CMD: unknown NOUN 'X'
 * (NAME, ...)"; noun: "kernel" for --kernel, "kernel family" for an
 * argument) or gives the spec's error.  Results are stored under
 * family_store_name. */
const struct family *cmd_family_arg(const struct cmd_entry *cmd, const char *noun, const char *name);

/* Output format from --format: table, csv or json; -1 after reporting a
 * bad value. */
int args_format(const struct args *a);

#endif
