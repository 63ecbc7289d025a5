/*
 * json-check.h - whether a text is one JSON document (RFC 8259: string
 * keys, UTF-8 strings without control characters, nesting at most 256
 * deep), before SQLite's JSON functions read it.  It extracts nothing:
 * SQLite does that.  It exists because SQLite 3.40's parser accepts an
 * object as a key (`{"a": 1, {"b": 2}: 3}`, which json_valid calls valid)
 * and json_extract then crashes walking it, and SQLite leaves text that
 * is not UTF-8 undefined.
 */
#ifndef GPUTUNE_JSON_CHECK_H
#define GPUTUNE_JSON_CHECK_H

#include <stddef.h>

/* 0 when text[0..len) is one JSON document, else -1 with what is wrong
 * and at which byte in why (size wn). */
int json_check_syntax(const char *text, size_t len, char *why, size_t wn);

#endif
