#!/bin/sh
# The choice rule (src/export/choice-rule.h, as copied into exported headers) on
# made-up evidence (tests/unit-choice-rule.c): the distance, the column
# alignment capped at 16 bytes, and which candidate wins for which shape.
. "$(dirname "$0")/setup"
unit_program unit-choice-rule "the choice rule"
done_testing
