#!/bin/sh
# The search strategies (tests/unit-strategy.c): valid points only, none
# twice, the whole space when asked, repeatable by seed, resumable, and the
# guided ones near the peak of a smooth space with a tenth of it.
. "$(dirname "$0")/setup"
unit_program unit-strategy "the search strategies"
done_testing
