/*
 * plot.h - `gputune plot`: pictures of tuning results from one database,
 * for one device, kernel family, element type and timing mode.  Each
 * kind of plot is one file (plot-sizes.c, plot-space.c and plot-map.c) that
 * reads what it draws and writes it as SVG (see svg.h) or as CSV (the
 * table.h writer), the same numbers, for other tools to redraw.
 */
#ifndef GPUTUNE_PLOT_H
#define GPUTUNE_PLOT_H

#include "families/family.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

enum plot_format { PLOT_SVG, PLOT_CSV };

/* What a plot shows: resolved by cmd-plot.c before any plot runs. */
struct plot_sel {
	sqlite3 *db;
	const struct family *f;
	const struct dtype *dt;
	const char *mode;        /* "flushed" or "hot" */
	int64_t device_id;
	char device[256], uuid[64];
	char date[16];           /* the day of the latest run shown */
	char version[64];        /* the gputune version(s) that measured */
	long rows, cols;         /* one size (space, map): 0 when not given */
	int px, py;              /* the map's parameters (indices into f->params) */
	int format;              /* enum plot_format */
	int shipped;             /* the results shipped with gputune, not the user's database */
};

/* Each returns 0, or -1 after one line of error (an empty selection is
 * an error naming what was asked). */
int plot_sizes(FILE *out, const struct plot_sel *s);
int plot_space(FILE *out, const struct plot_sel *s);
int plot_map(FILE *out, const struct plot_sel *s);

/* The title every plot carries: "<family> <dtype> on <device>: <what>",
 * and the subtitle with the UUID, the date, the version and the mode. */
void plot_begin(FILE *out, const struct plot_sel *s, const char *what);

/* The largest measured size of the selection with a winner, into
 * rows and cols when s gives none.  0, or -1 after reporting. */
int plot_default_size(const struct plot_sel *s, long *rows, long *cols);

/* The error for a size where nothing was measured: -1. */
int plot_nothing_at(const struct plot_sel *s, long rows, long cols);

/* The name of classic i ("naive") into buf, and its canonical params
 * (caller frees); NULL when the family has no classic i. */
char *plot_classic(const struct family *f, int i, char *buf, size_t n);

/* Tick text for element counts: "1Mi", "256Ki", "4096". */
void plot_count_tick(double v, char *buf, size_t n);

#endif
