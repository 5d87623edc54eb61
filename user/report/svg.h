/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inline SVG for the HTML report: escaping, axes with ticks (linear or
 * log, values formatted by the caller's unit), colors. Plots are drawn
 * into a FILE; nothing here knows about reports.
 */
#ifndef KTPROF_SVG_H
#define KTPROF_SVG_H

#include <stddef.h>
#include <stdio.h>

/* How an axis turns values into text: "12 ms", "40%", "3". */
typedef const char *(*svg_fmt)(double v, char *buf, size_t len);

struct svg_axis {
	double min, max;	/* the values at the ends */
	int log;		/* log10 scale (min > 0) */
	svg_fmt fmt;
};

/* Text and attribute values, escaped for HTML and SVG. */
void svg_escape(FILE *f, const char *s);

/* An <svg> of @w x @h with an accessible name; svg_close() ends it. */
void svg_open(FILE *f, int w, int h, const char *label);
void svg_close(FILE *f);

/* The pixel of value @v on an axis drawn from @p0 (at min) to @p1 (at max). */
double svg_pos(const struct svg_axis *a, double v, double p0, double p1);

/* Grow [min, max] to round numbers (linear) or powers of ten (log). */
void svg_nice(struct svg_axis *a);

/* A horizontal axis at @y from @x0 to @x1, ticks, grid up to @top, title. */
void svg_x_axis(FILE *f, const struct svg_axis *a, double x0, double x1, double y,
		double top, const char *title);
/* A vertical axis at @x from @y0 (bottom) to @y1 (top), grid to @right. */
void svg_y_axis(FILE *f, const struct svg_axis *a, double y0, double y1, double x,
		double right, const char *title);

/* A text at (x, y); @anchor "start", "middle" or "end". Escaped. */
void svg_text(FILE *f, double x, double y, const char *anchor, const char *cls,
	      const char *text);

/* A legend of @n swatches with labels, in a row from (x, y). */
void svg_legend(FILE *f, double x, double y, const char *const *labels,
		const char *const *colors, unsigned int n);

/* The @i-th color of the categorical palette. */
const char *svg_color(unsigned int i);

/* A color for @t in [0, 1] on a light-to-dark blue scale, into @buf (8 bytes). */
const char *svg_heat(double t, char *buf);

/* Formatters for axes. */
const char *svg_fmt_ns(double v, char *buf, size_t len);
const char *svg_fmt_pct(double v, char *buf, size_t len);
const char *svg_fmt_count(double v, char *buf, size_t len);

#endif
