/*
 * restart.h - starting gputune again in the same process slot (execv of
 * the running binary with the original arguments), for the one failure
 * the CUDA driver cannot recover from inside a process: a kernel that
 * faults poisons the context for good.  The tuner records the fault,
 * passes the run to continue in the environment, and restarts; the new
 * process skips everything the run already measured.
 */
#ifndef GPUTUNE_RESTART_H
#define GPUTUNE_RESTART_H

#include <stdint.h>

/* Keeps argv for restart_self (call first thing in main). */
void restart_init(int argc, char **argv);

/*
 * Restarts with run_id to resume.  Returns only on failure (reported),
 * including when the run has restarted too often (a GPU that faults on
 * every variant).
 */
void restart_self(int64_t run_id);

/* Starts the running binary again with the original arguments, as a
 * worker of several GPUs does (run-devices.c).  Returns only on failure
 * (reported). */
void restart_exec_self(void);

/* The run a restarted process continues, or 0 (reads and clears the
 * environment, so a child of this process does not inherit it). */
int64_t restart_resumed_run(void);

#endif
