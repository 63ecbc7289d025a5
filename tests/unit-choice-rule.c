/*
 * unit-choice-rule.c - the choice rule's distance and its use of the
 * column alignment, on made-up evidence: which candidate it picks for
 * which shape.  Prints TAP-like lines; exits 1 on any failure.
 */
#include "choice-rule.h"
#include "unit-check.h"

#include <stdio.h>

static int near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

int main(void)
{
	const long f32 = 4;
	/* Distance: zero for the same shape; the area and half the aspect;
	 * 3 more when the column alignment differs, capped at 16 bytes. */
	check(near(gputune_choice_distance(1000, 3000, 1, 1000, 3000, 1, f32), 0), "a shape is at distance 0 of itself",
	      NULL);
	check(near(gputune_choice_distance(2000, 2000, 1, 1000, 1000, 1, f32), 2 * 0.69314718055994530942),
	      "four times the area is ln 4 away", NULL);
	check(near(gputune_choice_distance(1024, 1028, 1, 1024, 1024, 1, f32),
		   gputune_choice_distance(1024, 1024, 1, 1024, 1028, 1, f32)),
	      "the distance is symmetric", NULL);
	double d16 = gputune_choice_distance(1000, 1028, 1, 1000, 1024, 1, f32); /* 16- and 32-byte columns */
	double d8 = gputune_choice_distance(1000, 1026, 1, 1000, 1024, 1, f32);  /* 8- and 32-byte columns */
	check(d16 < 0.01, "16- and 32-byte aligned columns count as one class (no load is wider)", NULL);
	check(d8 > 3 && d8 < 3.01, "8- and 32-byte aligned columns differ by 3", NULL);
	check(gputune_choice_align(1000, f32) == 32 && gputune_choice_align(1001, f32) == 4 &&
		      gputune_choice_align(1001, 2) == 2,
	      "alignment classes: the largest power of two dividing the bytes, capped at 32", NULL);

	/* Evidence: three sizes of odd rows; variant 10 wins where the
	 * columns are odd too, variant 20 where they are 32-byte aligned. */
	long rows[] = { 3001, 5001, 4001 }, cols[] = { 3001, 3000, 6000 };
	int winner[] = { 10, 20, 20 }, cand[] = { 10, 20 };
	float share[] = { 1.0f, 0.80f, /* 3001x3001 */ 0.85f, 1.0f, /* 5001x3000 */ 0.86f, 1.0f /* 4001x6000 */ };
	int how;
	int v = gputune_choice_rule(3, rows, cols, NULL, winner, 2, cand, share, f32, 7001, 5001, 1, &how);
	check(v == 10 && how == GPUTUNE_CHOICE_CLASS,
	      "odd columns follow the size of odd columns, though the others are nearer in shape", NULL);
	v = gputune_choice_rule(3, rows, cols, NULL, winner, 2, cand, share, f32, 7001, 5004, 1, &how);
	check(v == 20, "16-byte aligned columns follow the 32-byte aligned sizes", NULL);
	v = gputune_choice_rule(3, rows, cols, NULL, winner, 2, cand, share, f32, 5001, 3000, 1, &how);
	check(v == 20 && how == GPUTUNE_CHOICE_EXACT, "a measured size answers with its winner", NULL);
	v = gputune_choice_rule(3, rows, cols, NULL, winner, 2, cand, share, f32, 4000, 4000, 1, &how);
	check(v == 10 && how == GPUTUNE_CHOICE_WORST, "rows of an unmeasured alignment: the best worst case (0.85 over 0.80)",
	      NULL);
	return unit_done();
}
