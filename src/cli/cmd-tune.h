/*
 * cmd-tune.h - the command line of a tuning run, shared by the family
 * commands (one per entry of the family table, made here) and by the
 * commands built on the tuner (validate, and export's options that name
 * the same things).  It is parsed once, into struct tune_opts (tune.h),
 * which is all the tuner reads.
 */
#ifndef GPUTUNE_CMD_TUNE_H
#define GPUTUNE_CMD_TUNE_H

#include "cli/cmd.h"
#include "families/family.h"
#include "tune/tune.h"

/* Options the family commands share with commands built on the tuner. */
#define TUNE_OPT_DTYPE { "dtype", "TYPE", "element type: f32 (default), or another of the family's (`gputune help FAMILY` lists them)", 0, 0 }
#define TUNE_OPT_REPS { "reps", "N", "timed launches per measurement, at least 30 (default 30); one stops early once it has 10 launches and 200 ms of kernel (kernels of over 7 ms)", 0, 0 }
#define TUNE_OPT_JOBS { "jobs", "N", "compile worker processes (default: one per CPU)", 0, 0 }
#define TUNE_OPT_CACHE_DIR \
	{ "cache-dir", "DIR", "compile cache (default $GPUTUNE_CACHE_DIR, else $XDG_CACHE_HOME/gputune)", 0, 0 }
#define TUNE_OPT_TEMPLATES { "templates", "DIR", "read templates from DIR instead of the built-in copies", 0, 0 }
#define TUNE_OPT_QUIET { "quiet", NULL, "no progress lines on stderr", 0, 0 }

/*
 * Parses a's options (those of tune_options that a's command has; the
 * others take their defaults) for a run of f into *o.  Returns 0, or
 * EXIT_USAGE after a message naming the offending value and the usage.
 * tune_opts_free releases *o.
 */
int tune_opts_parse(const struct family *f, const struct args *a, struct tune_opts *o);

/* The options and description every tuning command shares (the family
 * commands, and `gputune tune KERNEL.cu`). */
extern const struct cmd_option cmd_tune_options[];
extern const char cmd_tune_description[];

/* The command `gputune <f->name>` of each family of the family table, in
 * its order (NULL-terminated). */
const struct cmd_entry *const *cmd_family_entries(void);

#endif
