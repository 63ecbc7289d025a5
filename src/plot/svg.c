/*
 * svg.c - see svg.h.
 */
#include "plot/svg.h"

#include <math.h>
#include <string.h>

/* Light colours first; the dark-scheme block overrides the ones too dim
 * on a dark background.  Okabe and Ito's palette, with grey for the
 * ceiling. */
static const char style_sheet[] =
	"<style>\n"
	"  .bg { fill: #ffffff; }\n"
	"  text { font-family: sans-serif; fill: #1a1a1a; }\n"
	"  .title { font-size: 17px; font-weight: bold; }\n"
	"  .label { font-size: 13px; }\n"
	"  .small, .tick { font-size: 11px; }\n"
	"  .axis { stroke: #1a1a1a; stroke-width: 1; fill: none; }\n"
	"  .grid { stroke: #d4d4d4; stroke-width: 0.6; }\n"
	"  .empty { fill: #e4e4e4; }\n"
	"  .s0 { stroke: #0072b2; fill: #0072b2; }\n"
	"  .s1 { stroke: #e69f00; fill: #e69f00; }\n"
	"  .s2 { stroke: #009e73; fill: #009e73; }\n"
	"  .s3 { stroke: #cc79a7; fill: #cc79a7; }\n"
	"  .s4 { stroke: #d55e00; fill: #d55e00; }\n"
	"  .s5 { stroke: #666666; fill: #666666; }\n"
	"  .line { fill: none; stroke-width: 1.8; }\n"
	"  .dash { stroke-dasharray: 6 4; }\n"
	"  @media (prefers-color-scheme: dark) {\n"
	"    .bg { fill: #15181c; }\n"
	"    text { fill: #e6e6e6; }\n"
	"    .axis { stroke: #e6e6e6; }\n"
	"    .grid { stroke: #3c4148; }\n"
	"    .empty { fill: #2c3036; }\n"
	"    .s0 { stroke: #56b4e9; fill: #56b4e9; }\n"
	"    .s5 { stroke: #b0b0b0; fill: #b0b0b0; }\n"
	"  }\n"
	"</style>\n";

void svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 allows no control characters but tab and newline;
			 * bytes >= 0x80 pass (UTF-8 from the database). */
			fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
		}
	}
}

void svg_begin(FILE *f, const char *title, const char *subtitle)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		SVG_W, SVG_H, SVG_W, SVG_H);
	fputs("<title>", f);
	svg_escape(f, title);
	fputs("</title>\n", f);
	fputs(style_sheet, f);
	fprintf(f, "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\"/>\n", SVG_W, SVG_H);
	svg_text(f, SVG_LEFT, 28, "title", "start", title);
	svg_text(f, SVG_LEFT, 48, "small", "start", subtitle);
}

void svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

void svg_text(FILE *f, double x, double y, const char *cls, const char *anchor, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" text-anchor=\"%s\">", x, y, cls, anchor);
	svg_escape(f, s);
	fputs("</text>\n", f);
}

static double scaled(const struct svg_axis *a, double v)
{
	if (a->log2) {
		double lo = log2(a->lo), hi = log2(a->hi);
		return hi > lo ? (log2(v) - lo) / (hi - lo) : 0.5;
	}
	return a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
}

double svg_x(const struct svg_axis *a, double v)
{
	return SVG_LEFT + scaled(a, v) * (SVG_RIGHT - SVG_LEFT);
}

double svg_y(const struct svg_axis *a, double v)
{
	return SVG_BOTTOM - scaled(a, v) * (SVG_BOTTOM - SVG_TOP);
}

int svg_ticks(const struct svg_axis *a, double *v, int max)
{
	int n = 0;
	if (a->log2) {
		int e0 = (int)ceil(log2(a->lo) - 1e-9), e1 = (int)floor(log2(a->hi) + 1e-9);
		int step = 1;
		while ((e1 - e0) / step + 1 > 9)
			step++;
		for (int e = e0; e <= e1 && n < max; e += step)
			v[n++] = ldexp(1.0, e);
		return n;
	}
	double span = a->hi - a->lo;
	if (span <= 0)
		return 0;
	/* A step of 1, 2 or 5 times a power of ten giving 4 to 10 ticks. */
	double p = pow(10, floor(log10(span / 5))), step = p;
	static const double mult[] = { 1, 2, 5, 10 };
	for (int i = 0; i < 4; i++) {
		step = p * mult[i];
		if (span / step <= 8)
			break;
	}
	for (double t = ceil(a->lo / step - 1e-9) * step; t <= a->hi + step * 1e-9 && n < max; t += step)
		v[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	return n;
}

static void tick_label(const struct svg_axis *a, double v, char *buf, size_t n)
{
	if (a->tick_text)
		a->tick_text(v, buf, n);
	else
		snprintf(buf, n, "%g", v);
}

void svg_axes(FILE *f, const struct svg_axis *x, const struct svg_axis *y)
{
	double t[32];
	char buf[64];
	int n = svg_ticks(y, t, 32);
	for (int i = 0; i < n; i++) {
		double py = svg_y(y, t[i]);
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", SVG_LEFT, py, SVG_RIGHT,
			py);
		tick_label(y, t[i], buf, sizeof(buf));
		svg_text(f, SVG_LEFT - 8, py + 4, "tick", "end", buf);
	}
	n = svg_ticks(x, t, 32);
	for (int i = 0; i < n; i++) {
		double px = svg_x(x, t[i]);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", px, SVG_TOP, px,
			SVG_BOTTOM);
		tick_label(x, t[i], buf, sizeof(buf));
		svg_text(f, px, SVG_BOTTOM + 18, "tick", "middle", buf);
	}
	fprintf(f, "<rect class=\"axis\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", SVG_LEFT, SVG_TOP,
		SVG_RIGHT - SVG_LEFT, SVG_BOTTOM - SVG_TOP);
	svg_text(f, (SVG_LEFT + SVG_RIGHT) / 2.0, SVG_BOTTOM + 42, "label", "middle", x->label);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">",
		22, (SVG_TOP + SVG_BOTTOM) / 2, 22, (SVG_TOP + SVG_BOTTOM) / 2);
	svg_escape(f, y->label);
	fputs("</text>\n", f);
}

void svg_marker(FILE *f, int style, double x, double y, const char *tip)
{
	int s = ((style % SVG_NSTYLES) + SVG_NSTYLES) % SVG_NSTYLES;
	/* Data points carry "pt", so they can be counted; legend markers not. */
	fprintf(f, "<g class=\"s%d%s\">", s, tip ? " pt" : "");
	switch (s) {
	case 0: fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\">", x, y); break;
	case 1: fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\">", x - 3.5, y - 3.5); break;
	case 2:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\">", x, y - 4.5, x - 4.5, y + 3.5, x + 4.5,
			y + 3.5);
		break;
	case 3:
		fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\">", x, y - 5, x + 5, y, x, y + 5,
			x - 5, y);
		break;
	case 4:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" style=\"stroke-width:2\">", x - 4,
			y - 4, x + 4, y + 4, x - 4, y + 4, x + 4, y - 4);
		break;
	default: fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"2\">", x - 4.5, y - 1); break;
	}
	if (tip) {
		fputs("<title>", f);
		svg_escape(f, tip);
		fputs("</title>", f);
	}
	static const char *const close[] = { "</circle>", "</rect>", "</polygon>", "</polygon>", "</path>",
					     "</rect>" };
	fprintf(f, "%s</g>\n", close[s]);
}

void svg_line(FILE *f, int style, const double *px, const double *py, int n, int dashed)
{
	if (n < 2)
		return;
	fprintf(f, "<polyline class=\"s%d line%s\" points=\"", ((style % SVG_NSTYLES) + SVG_NSTYLES) % SVG_NSTYLES,
		dashed ? " dash" : "");
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", px[i], py[i]);
	fputs("\"/>\n", f);
}

void svg_legend(FILE *f, int k, int style, int line, int dashed, const char *text)
{
	double x = SVG_RIGHT + 20, y = SVG_TOP + 10 + 22 * k;
	if (line) {
		double px[2] = { x - 8, x + 8 }, py[2] = { y, y };
		svg_line(f, style, px, py, 2, dashed);
	}
	svg_marker(f, style, x, y, NULL);
	svg_text(f, x + 16, y + 4, "small", "start", text);
}

void svg_ramp(double t, char buf[8])
{
	/* Five stops of a viridis-like ramp: dark blue-violet to yellow,
	 * lightness rising evenly, readable without colour vision. */
	static const unsigned char stop[5][3] = {
		{ 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x91, 0x8c }, { 0x5e, 0xc9, 0x62 }, { 0xfd, 0xe7, 0x25 },
	};
	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	double at = t * 4;
	int i = at >= 4 ? 3 : (int)at;
	double u = at - i;
	int c[3];
	for (int k = 0; k < 3; k++)
		c[k] = (int)lround(stop[i][k] + u * (stop[i + 1][k] - stop[i][k]));
	snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}
