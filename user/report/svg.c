// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/render.h"
#include "report/svg.h"
#include "util/text.h"

#define MAX_TICKS 12

void svg_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0, i, k;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (c >= 0x80) {
			/* UTF-8 as it is; another byte as the character of its value (util/text.h). */
			k = text_utf8_char(p + i, n - i);
			if (k) {
				fwrite(p + i, 1, k, f);
				i += k - 1;
			} else {
				fprintf(f, "&#x%02x;", c);
			}
			continue;
		}
		switch (c) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* Control bytes (a comm may hold any) never reach the page. */
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
	}
}

void svg_open(FILE *f, int w, int h, const char *label)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", w, h, w, h);
	svg_escape(f, label);
	fputs("\">\n", f);
}

void svg_close(FILE *f)
{
	fputs("</svg>\n", f);
}

double svg_pos(const struct svg_axis *a, double v, double p0, double p1)
{
	double lo = a->min, hi = a->max, t;

	if (a->log) {
		v = v > 0 ? log10(v) : log10(lo);
		lo = log10(lo);
		hi = log10(hi);
	}
	t = hi > lo ? (v - lo) / (hi - lo) : 0;
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	return p0 + t * (p1 - p0);
}

/* A round step that cuts [0, span] into at most about 6 pieces. */
static double nice_step(double span)
{
	double step = pow(10, floor(log10(span / 6))), m;

	if (!(span > 0))
		return 1;
	for (m = 1;; m = m == 1 ? 2 : m == 2 ? 5 : 10) {
		if (span / (step * m) <= 6)
			return step * m;
		if (m == 10) {
			step *= 10;
			m = 1;
		}
	}
}

void svg_nice(struct svg_axis *a)
{
	double step;

	if (a->log) {
		if (!(a->min > 0))
			a->min = 1;
		a->min = pow(10, floor(log10(a->min)));
		a->max = pow(10, ceil(log10(a->max > a->min ? a->max : a->min * 10)));
		if (a->max <= a->min)
			a->max = a->min * 10;
		return;
	}
	if (a->max <= a->min)
		a->max = a->min + 1;
	step = nice_step(a->max - a->min);
	a->min = floor(a->min / step) * step;
	a->max = ceil(a->max / step) * step;
}

/* The tick values of @a; their count. */
static unsigned int ticks(const struct svg_axis *a, double *v)
{
	unsigned int n = 0;
	double t, step;

	if (a->log) {
		for (t = a->min; t <= a->max * 1.0001 && n < MAX_TICKS; t *= 10)
			v[n++] = t;
		return n;
	}
	step = nice_step(a->max - a->min);
	for (t = a->min; t <= a->max + step / 1000 && n < MAX_TICKS; t += step)
		v[n++] = t;
	return n;
}

void svg_text(FILE *f, double x, double y, const char *anchor, const char *cls,
	      const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s%s>", x, y, anchor,
		cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	svg_escape(f, text);
	fputs("</text>\n", f);
}

static void line(FILE *f, const char *cls, double x1, double y1, double x2, double y2)
{
	fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		cls, x1, y1, x2, y2);
}

void svg_x_axis(FILE *f, const struct svg_axis *a, double x0, double x1, double y,
		double top, const char *title)
{
	double v[MAX_TICKS];
	unsigned int n = ticks(a, v), i;
	char buf[32];

	line(f, "axis", x0, y, x1, y);
	for (i = 0; i < n; i++) {
		double x = svg_pos(a, v[i], x0, x1);

		line(f, "grid", x, top, x, y);
		svg_text(f, x, y + 14, "middle", "tick", a->fmt(v[i], buf, sizeof(buf)));
	}
	if (title)
		svg_text(f, (x0 + x1) / 2, y + 32, "middle", "title", title);
}

void svg_y_axis(FILE *f, const struct svg_axis *a, double y0, double y1, double x,
		double right, const char *title)
{
	double v[MAX_TICKS];
	unsigned int n = ticks(a, v), i;
	char buf[32];

	line(f, "axis", x, y0, x, y1);
	for (i = 0; i < n; i++) {
		double y = svg_pos(a, v[i], y0, y1);

		line(f, "grid", x, y, right, y);
		svg_text(f, x - 5, y + 4, "end", "tick", a->fmt(v[i], buf, sizeof(buf)));
	}
	if (title) {
		fprintf(f, "<text class=\"title\" text-anchor=\"middle\" "
			"transform=\"translate(%.1f %.1f) rotate(-90)\">", x - 48, (y0 + y1) / 2);
		svg_escape(f, title);
		fputs("</text>\n", f);
	}
}

void svg_legend(FILE *f, double x, double y, const char *const *labels,
		const char *const *colors, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
			x, y - 9, colors[i]);
		svg_text(f, x + 14, y, "start", "legend", labels[i]);
		x += 24 + 7 * strlen(labels[i]);
	}
}

const char *svg_color(unsigned int i)
{
	static const char *const palette[] = {
		"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
		"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
	};

	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

const char *svg_heat(double t, char *buf)
{
	/* From #f7fbff (nothing) to #08306b (all), linearly. */
	static const int from[3] = { 0xf7, 0xfb, 0xff }, to[3] = { 0x08, 0x30, 0x6b };
	int c[3], i;

	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	for (i = 0; i < 3; i++)
		c[i] = from[i] + (int)lround(t * (to[i] - from[i]));
	snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
	return buf;
}

const char *svg_fmt_ns(double v, char *buf, size_t len)
{
	return render_ns(v > 0 ? (uint64_t)llround(v) : 0, buf, len);
}

const char *svg_fmt_pct(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%g%%", v);
	return buf;
}

const char *svg_fmt_count(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%g", v);
	return buf;
}
