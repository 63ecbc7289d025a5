#!/bin/sh
# The lazy compile pool (tests/unit-compile-pool.c): only what is asked for
# is compiled, and it stops at once, also when SIGTERM is caught.
. "$(dirname "$0")/setup"
unit_program unit-compile-pool "the lazy compile pool" "$T/cache"
done_testing
