#!/bin/sh
# What a tuning run plans to measure (tests/unit-plan-run.c): every point
# at every size less what the database holds for the device and timing
# mode; --force everything, a restarted --force run what its run left.
. "$(dirname "$0")/setup"
unit_program unit-plan-run "the run's plan"
done_testing
