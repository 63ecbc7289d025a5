/*
 * svg.h - standalone SVG drawing for `gputune plot`: a document with its
 * own light and dark colours, text escaped wherever it lands, axes with
 * ticks on linear or base-2 logarithmic scales, markers that differ in
 * shape as well as colour, a legend and a perceptually even colour ramp.
 * No scripts, no external fonts, no links: the file is text that any
 * browser or viewer draws as it is.
 */
#ifndef GPUTUNE_SVG_H
#define GPUTUNE_SVG_H

#include <stdio.h>

/* The page: 880 x 520 units, the plot area inset for title, axes and a
 * legend on the right. */
#define SVG_W 880
#define SVG_H 520
#define SVG_LEFT 80
#define SVG_RIGHT 650
#define SVG_TOP 70
#define SVG_BOTTOM 450

struct svg_axis {
	double lo, hi; /* data range shown */
	int log2;      /* base-2 logarithmic scale */
	const char *label;
	/* Tick text for a value (NULL: "%g"). */
	void (*tick_text)(double v, char *buf, size_t n);
};

/* Series styles: colour (Okabe-Ito palette, safe for colour-blind
 * readers) and marker shape cycle together. */
#define SVG_NSTYLES 6

/* Opens the document: the style sheet, the background, the title and a
 * subtitle (both escaped). */
void svg_begin(FILE *f, const char *title, const char *subtitle);
void svg_end(FILE *f);

/* Text at (x, y) with a CSS class ("label", "small", "tick") and anchor
 * ("start", "middle", "end"); s is escaped. */
void svg_text(FILE *f, double x, double y, const char *cls, const char *anchor, const char *s);
/* s with &, <, >, " and ' as entities and control bytes as '?'. */
void svg_escape(FILE *f, const char *s);

/* Page coordinates of a data value on an axis (x runs left to right over
 * [SVG_LEFT, SVG_RIGHT], y bottom to top over [SVG_BOTTOM, SVG_TOP]). */
double svg_x(const struct svg_axis *a, double v);
double svg_y(const struct svg_axis *a, double v);

/* Draws both axes with ticks, grid lines and labels. */
void svg_axes(FILE *f, const struct svg_axis *x, const struct svg_axis *y);

/* A marker of style i at page (x, y), with a tooltip (escaped; NULL for
 * none). */
void svg_marker(FILE *f, int style, double x, double y, const char *tip);
/* A polyline of style i through n page points (dashed when dashed). */
void svg_line(FILE *f, int style, const double *px, const double *py, int n, int dashed);
/* Legend entry k (from the top) for style i: marker, optional line, text. */
void svg_legend(FILE *f, int k, int style, int line, int dashed, const char *text);

/* A colour on the ramp for t in [0, 1] as "#rrggbb" into buf[8]. */
void svg_ramp(double t, char buf[8]);

/* Ticks for axis a: up to max values into v; returns how many. */
int svg_ticks(const struct svg_axis *a, double *v, int max);

#endif
