#!/bin/sh
# Messages quote what they were given, but never a control byte raw: an
# argument or a name read from a file that holds ESC or BEL (a terminal's
# escape sequences) is echoed with those bytes written as \xNN.
. "$(dirname "$0")/setup"

esc=$(printf '\033')
bel=$(printf '\007')
cr=$(printf '\r')

# has_raw FILE BYTE: whether FILE holds BYTE.
has_raw() {
	LC_ALL=C grep -q "$2" "$1"
}

run_gt 2 transpose --sizes "12${esc}[2J${bel}"
grep_in "$T/err" 'bad size '\''12\x1b[2J\x07'\'''
check "no ESC reaches stderr" sh -c "! LC_ALL=C grep -q '$esc' '$T/err'"
check "no BEL reaches stderr" sh -c "! LC_ALL=C grep -q '$bel' '$T/err'"

run_gt 2 "frob${esc}]0;owned${bel}"
grep_in "$T/err" 'unknown command '\''frob\x1b]0;owned\x07'\'''
check "an unknown command's ESC is escaped" sh -c "! LC_ALL=C grep -q '$esc' '$T/err'"

run_gt 1 db info --db "$T/no${cr}such.db"
grep_in "$T/err" 'no\x0dsuch.db'
check "a carriage return is escaped" sh -c "! LC_ALL=C grep -q '$cr' '$T/err'"
done_testing
