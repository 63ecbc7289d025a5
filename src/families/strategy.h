/*
 * strategy.h - how a tuning run walks a space too large to time in full:
 * exhaustive (every point, in order), random (a seeded permutation),
 * simulated annealing (chains that move to a neighbouring point, taking a
 * worse one with a probability that falls as the search goes on) or a
 * genetic search (children of the better points, by uniform crossover and
 * mutation).  Two points are neighbours when they differ in one parameter.
 *
 * The search sees only valid points (the space's constraints are applied
 * before), never proposes a point twice, and learns from every point
 * measured, also those it did not propose (the classics, or an earlier,
 * interrupted run: a resumed run goes on from what it measured).  The
 * tuner owns the budget: it stops asking when it is spent.
 */
#ifndef GPUTUNE_STRATEGY_H
#define GPUTUNE_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

enum strategy_kind { STRATEGY_EXHAUSTIVE, STRATEGY_RANDOM, STRATEGY_ANNEAL, STRATEGY_GENETIC };

/* "exhaustive", ...; and back (-1 when unknown). */
const char *strategy_name(int kind);
int strategy_parse(const char *name);

struct strategy;

/*
 * A search over n points, point i's nparams values at v[i * stride ...].
 * expected: how many points the budget will measure (it paces the
 * annealing's cooling); seed: the same seed, the same proposals for the
 * same observations.
 */
struct strategy *strategy_new(int kind, const int *v, size_t stride, int nparams, size_t n, size_t expected,
			      uint64_t seed);
void strategy_free(struct strategy *s);

/* The parameters a search of the n points v (stride apart, nparams each)
 * should see: all but those from late_from on (parameters added last to a
 * table, after searches existed) that every point holds at one value.  A
 * search's draws count the parameters, so leaving such a parameter out
 * draws as the search did before it was added. */
int strategy_search_params(const int *v, size_t stride, int nparams, size_t n, int late_from);

/* Up to max points to measure next, into out; 0 when none is left. */
size_t strategy_propose(struct strategy *s, size_t *out, size_t max);

/* How many of its next picks no observation can change (drawn at
 * random, or in a fixed order): for predicting them ahead. */
size_t strategy_predictable(const struct strategy *s);

/* Point i was measured: score is its figure (higher is better), 0 when it
 * failed or was wrong. */
void strategy_observe(struct strategy *s, size_t i, double score);

#endif
