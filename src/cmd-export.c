#include "cmd.h"
#include "util.h"
static const struct cmd_option options[] = { OPT_END };
static int exec_export(struct args *a) { (void)a; return error("export: not yet"); }
const struct cmd_entry cmd_export_entry = { .name = "export", .summary = "tbd", .usage = "", .options = options, .max_pos = 9, .exec = exec_export };
