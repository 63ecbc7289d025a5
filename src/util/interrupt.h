/*
 * interrupt.h - Ctrl-C as a flag.  The first SIGINT or SIGTERM asks the
 * running command to stop after the unit of work in hand (which is then
 * committed); a second one, a second or more later, ends the process at
 * once (one sooner is taken for the same request delivered twice).
 */
#ifndef GPUTUNE_INTERRUPT_H
#define GPUTUNE_INTERRUPT_H

void interrupt_install(void);
/* Non-zero once an interrupt was asked for. */
int interrupted(void);

#endif
