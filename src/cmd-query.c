#include "cmd.h"
#include "util.h"
static const struct cmd_option options[] = { OPT_END };
static int exec_query(struct args *a) { (void)a; return error("query: not yet"); }
const struct cmd_entry cmd_query_entry = { .name = "query", .summary = "tbd", .usage = "", .options = options, .max_pos = 9, .exec = exec_query };
