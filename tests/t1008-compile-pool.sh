#!/bin/sh
# The compile pool (tests/unit-compile-pool.c): a lazy one compiles only
# what is asked for, and stops at once, also when SIGTERM is caught; two
# pools of two processes on one cache compile each job once between them;
# a held pool compiles only its lead workers' jobs until it goes.
. "$(dirname "$0")/setup"
unit_program unit-compile-pool "the compile pool" "$T/cache"
done_testing
