#include "cmd.h"
#include "util.h"
static const struct cmd_option options[] = { OPT_END };
static int exec_db(struct args *a) { (void)a; return error("db: not yet"); }
const struct cmd_entry cmd_db_entry = { .name = "db", .summary = "tbd", .usage = "", .options = options, .max_pos = 9, .exec = exec_db };
