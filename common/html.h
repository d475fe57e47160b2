/* html: one self-contained HTML page with inline CSS and SVG charts, the shared pieces of the
 * recommendation report (knowledge/report_html.c) and the probe report (probes/run_html.c).
 *
 * The page needs nothing outside itself: no script, no font, no image, no stylesheet; its
 * Content-Security-Policy forbids every request, so a browser opening it fetches nothing. It
 * prints on A4 (figures and tables are not split across pages) and reads without colour: every
 * mark carries its number or name as text, and every fill a pattern as well as a colour.
 *
 * Markup comes from the program (html_raw, html_rawf with numbers and literals only); every
 * string from outside (answers, the knowledge base, a probe run) goes through html_text,
 * html_textf or a chart's label, which escape it and replace what is not UTF-8 text (control
 * characters, broken sequences) with U+FFFD.
 *
 * Marks in charts that show a number of the source document carry it: data-json is the JSON
 * Pointer (RFC 6901) of the number in the document, data-value the number itself ("%.17g", so it
 * reads back as the same double), so a test can check every chart against its document.
 *
 * A failed allocation is remembered in `failed` and every later call does nothing; the caller
 * checks once at the end. */
#ifndef FWADVISOR_HTML_H
#define FWADVISOR_HTML_H

#include <stddef.h>
#include <cjson/cJSON.h>

struct html {
    char *data;  /* NUL-terminated; owned, freed by html_free */
    size_t len, cap;
    int failed;  /* an allocation failed: the page is incomplete */
    int charts;  /* charts drawn so far, for ids unique in the page */
};

void html_free(struct html *h);

/* Markup of the program's own, as is. */
void html_raw(struct html *h, const char *markup);
/* Formatted markup: arguments are numbers and literals of the program, never outside text. */
void html_rawf(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Outside text, escaped for element content and attribute values alike. */
void html_text(struct html *h, const char *s);
/* Formatted, then escaped as a whole (arguments may be outside text). */
void html_textf(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* <tag>text</tag> with text escaped (tag: a literal, may carry attributes: "td class=\"n\""). */
void html_elem(struct html *h, const char *tag, const char *text);
/* A link when url is http(s), else the text alone: <a href="url">text</a>. */
void html_link(struct html *h, const char *url, const char *text);

/* The page: doctype, head with title and the shared stylesheet, and the opening of <body>; lang
 * is the language of the page's text ("en", "zh-CN"). */
void html_begin(struct html *h, const char *title, const char *lang);
/* Closes the page: footer line (outside text) and </body></html>. */
void html_end(struct html *h, const char *footer);

/* Any JSON value as readable markup: an object as a list of its members (names with spaces for
 * underscores), an array of like objects as a table, numbers with units_number, null as a dash. The
 * reports use it for members they have no special drawing for, so new fields show. */
void html_json(struct html *h, const cJSON *v);

/* A member name as a heading reads, its unit said: "device_memory_gb" -> "Device memory (GB)",
 * "bf16_tflops" -> "BF16 (TFLOP/s)", "samples_per_s" -> "Samples per second". */
void html_key_text(const char *key, char *out, size_t n);

/* Fills: colour and pattern together, in an order that keeps neighbours apart. */
enum { HTML_STYLES = 8 };

/* --- charts: an <figure> with an inline <svg role="img">, a title and axis labels with units - */

/* A vertical reference line across a bar chart (a peak, 100%). */
struct html_ref {
    double value;
    const char *label; /* outside text */
    int dashed;
};

/* One bar of a horizontal bar chart. value NAN: no bar, only the note. */
struct html_bar {
    const char *label;   /* outside text, left of the bar */
    double value;
    double lo, hi;       /* the spread drawn as a whisker; NAN for none */
    double start;        /* where the bar starts (a waterfall's running total); NAN: at 0 */
    const char *note;    /* outside text after the value ("excluded", "noisy"), or NULL */
    const char *pointer; /* JSON Pointer of value in the source document, or NULL */
    double scale;        /* the document's number times scale is the bar's value (0: 1) */
    int style;
};

struct html_chart {
    const char *title;    /* outside text, also the SVG's accessible name */
    const char *axis;     /* the value axis' label with its unit */
    double min, max;      /* value axis; min > max or both 0: from the data (from 0 for bars) */
    int signed_bars;      /* bars grow left or right of 0 (changes) */
    int plus;             /* values written with their sign: "+3.8" */
    const char *id;       /* figure id (a literal) or NULL */
};

void html_bar_chart(struct html *h, const struct html_chart *c, const struct html_bar *bars, int n,
                    const struct html_ref *refs, int nrefs);

/* One segment of a stacked bar (value NAN: not known, said so in the legend). */
struct html_part {
    const char *label;   /* outside text */
    double value;
    const char *pointer; /* JSON Pointer of value, or NULL */
    int style;
};

/* One stacked bar of parts, drawn against a capacity when capacity > 0 (a marker and its label;
 * parts past it show as over). The legend under it names each part with its number and unit. */
void html_stacked_bar(struct html *h, const struct html_chart *c, const char *bar_label, const struct html_part *parts,
                      int n, double capacity, const char *capacity_label, const char *capacity_pointer,
                      const char *unit);

/* A point of an x-y chart. */
struct html_point {
    double x, y;
    const char *label;     /* outside text beside the point, or NULL */
    const char *pointer_y; /* JSON Pointer of y, or NULL */
    double scale_y;        /* as html_bar's scale */
};

struct html_series {
    const char *name;     /* outside text, in the legend */
    int style;            /* colour, marker shape and dash */
    int line;             /* 1: joined by a line; 0: points only */
    int markers;          /* 1: a marker at each point */
    const struct html_point *pts;
    int n;
};

struct html_xy {
    const char *title, *x_axis, *y_axis; /* outside text; the axes with units */
    int x_log, y_log;
    double x_min, x_max, y_min, y_max;   /* min >= max: from the data */
    const char *id;
};

void html_xy_chart(struct html *h, const struct html_xy *c, const struct html_series *s, int ns);

#endif
