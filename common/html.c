/* The page and its charts (html.h). */
#include "common/html.h"
#include "common/text.h"
#include "common/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the buffer ------------------------------------------------------------------------------ */

static int grow(struct html *h, size_t more)
{
    if (h->failed) return -1;
    if (h->len + more + 1 <= h->cap) return 0;
    size_t cap = h->cap ? h->cap : 16384;
    while (cap < h->len + more + 1) cap *= 2;
    char *p = realloc(h->data, cap);
    if (!p) {
        h->failed = 1;
        return -1;
    }
    h->data = p;
    h->cap = cap;
    return 0;
}

static void put(struct html *h, const char *s, size_t n)
{
    if (grow(h, n)) return;
    memcpy(h->data + h->len, s, n);
    h->len += n;
    h->data[h->len] = '\0';
}

void html_free(struct html *h)
{
    free(h->data);
    memset(h, 0, sizeof *h);
}

void html_raw(struct html *h, const char *markup) { put(h, markup, strlen(markup)); }

static void vrawf(struct html *h, const char *fmt, va_list ap)
{
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(again);
        return;
    }
    if ((size_t)n < sizeof small) {
        put(h, small, (size_t)n);
    } else if (!grow(h, (size_t)n)) {
        vsnprintf(h->data + h->len, (size_t)n + 1, fmt, again);
        h->len += (size_t)n;
    }
    va_end(again);
}

void html_rawf(struct html *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrawf(h, fmt, ap);
    va_end(ap);
}

/* The length of the UTF-8 sequence at s that encodes a character fit for a page (not a control
 * character other than tab and newline, not a surrogate or noncharacter, not overlong), or 0. */
static size_t good_char(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80) return (c >= 0x20 && c != 0x7f) || c == '\t' || c == '\n' ? 1 : 0;
    size_t n = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!n) return 0;
    unsigned cp = c & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    if (cp <= 0x9f || (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe) return 0; /* C1, nonchars */
    return n;
}

void html_text(struct html *h, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        const unsigned char *run = p;
        size_t n;
        while (*p && (n = good_char(p)) && !strchr("&<>\"'", *p)) p += n;
        put(h, (const char *)run, (size_t)(p - run));
        if (!*p) break;
        switch (*p) {
        case '&': html_raw(h, "&amp;"); p++; break;
        case '<': html_raw(h, "&lt;"); p++; break;
        case '>': html_raw(h, "&gt;"); p++; break;
        case '"': html_raw(h, "&quot;"); p++; break;
        case '\'': html_raw(h, "&#39;"); p++; break;
        default: /* not text: one replacement character for the byte */
            html_raw(h, "\xef\xbf\xbd");
            p++;
        }
    }
}

void html_textf(struct html *h, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    html_text(h, buf);
}

void html_elem(struct html *h, const char *tag, const char *text)
{
    html_rawf(h, "<%s>", tag);
    html_text(h, text);
    size_t name = strcspn(tag, " ");
    html_rawf(h, "</%.*s>", (int)name, tag);
}

void html_link(struct html *h, const char *url, const char *text)
{
    if (url && (strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0)) {
        html_raw(h, "<a href=\"");
        html_text(h, url);
        html_raw(h, "\">");
        html_text(h, text);
        html_raw(h, "</a>");
    } else {
        html_text(h, text);
    }
}

/* --- the page -------------------------------------------------------------------------------- */

/* Text #1b1b1b and #4a4a4a on white pass WCAG AA (16:1, 8.9:1); links #0b5394 (7.6:1). */
static const char stylesheet[] =
    ":root{color:#1b1b1b;background:#fff;font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,"
    "\"Helvetica Neue\",Arial,sans-serif}\n"
    "body{margin:0 auto;max-width:72rem;padding:24px 20px;overflow-wrap:break-word}\n"
    "h1{font-size:1.6em;margin:0 0 .2em}h2{font-size:1.25em;margin:1.6em 0 .5em;padding-bottom:.2em;"
    "border-bottom:2px solid #1b1b1b}h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
    ".meta,.note,figcaption small{color:#4a4a4a}.note{font-size:.9em}\n"
    "a{color:#0b5394}table{border-collapse:collapse;width:100%;margin:.4em 0 1em;font-size:.92em}\n"
    "th,td{border-bottom:1px solid #c8c8c8;padding:3px 6px;text-align:left;vertical-align:top}\n"
    "th{background:#efefef}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:10px;margin:1em 0}.card{border:1px solid #8a8a8a;border-radius:6px;"
    "padding:8px 12px;min-width:150px;flex:1}.card b{display:block;font-size:1.05em}.card span{color:#4a4a4a;"
    "font-size:.85em}\n"
    ".good{font-weight:bold}.bad{font-weight:bold;text-decoration:underline}\n"
    "figure{margin:1em 0;break-inside:avoid}figcaption{font-weight:bold;margin-bottom:4px}\n"
    "svg{max-width:100%;height:auto;font:12px system-ui,-apple-system,\"Segoe UI\",Roboto,Arial,sans-serif}\n"
    "details{margin:.3em 0;border:1px solid #c8c8c8;border-radius:4px;padding:2px 8px}"
    "pre{font:12px/1.35 ui-monospace,\"DejaVu Sans Mono\",Menlo,Consolas,monospace;overflow-x:auto;margin:.4em 0}"
    "summary{cursor:pointer;font-weight:bold}\n"
    "ul.check{list-style:none;padding-left:0}ul.check li{margin:.35em 0}ul.check input{margin-right:.5em}\n"
    ".formula{font-family:ui-monospace,\"DejaVu Sans Mono\",Menlo,Consolas,monospace;font-size:.9em;"
    "background:#f4f4f4;padding:6px 8px;border-left:3px solid #1b1b1b;white-space:pre-wrap}\n"
    "dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:.4em 0 1em}"
    "dl.kv dt{font-weight:bold}dl.kv dd{margin:0}dl.kv.two{grid-template-columns:max-content 1fr max-content 1fr}\n"
    "footer{margin-top:2em;color:#4a4a4a;font-size:.85em;border-top:1px solid #c8c8c8;padding-top:.5em}\n"
    "@page{size:A4;margin:14mm}\n"
    /* a phone: grids in two columns, tables and charts scroll sideways inside their box (a chart
     * keeps its own size, so its text stays at 12 px rather than shrinking with the screen) */
    "@media screen and (max-width:640px){body{padding:14px 12px}dl.kv,dl.kv.two{grid-template-columns:minmax(0,40%) "
    "minmax(0,1fr)}dl.kv dt,dl.kv dd{min-width:0;overflow-wrap:anywhere}table{display:block;overflow-x:auto}"
    "figure{overflow-x:auto}figure svg{max-width:none}.card{min-width:0;flex-basis:100%}}\n"
    "@media print{:root{font-size:11pt}body{max-width:none;padding:0}a{color:#1b1b1b}"
    
    "h2{break-after:avoid}table,figure,.card{break-inside:avoid}}\n";

void html_begin(struct html *h, const char *title, const char *lang)
{
    html_raw(h, "<!DOCTYPE html>\n<html lang=\"");
    html_text(h, lang);
    html_raw(h, "\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                "style-src 'unsafe-inline'\">\n<title>");
    html_text(h, title);
    html_raw(h, "</title>\n<style>\n");
    html_raw(h, stylesheet);
    html_raw(h, "</style>\n</head>\n<body>\n");
}

void html_end(struct html *h, const char *footer)
{
    html_raw(h, "<footer>");
    html_text(h, footer);
    html_raw(h, "</footer>\n</body>\n</html>\n");
}

/* --- any JSON value ------------------------------------------------------------------------- */

void html_key_text(const char *key, char *out, size_t n) { text_key_words(key, out, n); }

static void scalar(struct html *h, const cJSON *v)
{
    char num[32];
    if (cJSON_IsString(v)) html_text(h, v->valuestring);
    else if (cJSON_IsNumber(v)) units_number(v->valuedouble, num, sizeof num), html_raw(h, num);
    else if (cJSON_IsBool(v)) html_raw(h, cJSON_IsTrue(v) ? "yes" : "no");
    else html_raw(h, "&#8212;");
}

static int is_scalar(const cJSON *v) { return !cJSON_IsObject(v) && !cJSON_IsArray(v); }

/* An array of objects whose members are all scalars: a table with their union of names. */
static int tabular(const cJSON *arr)
{
    const cJSON *row, *m;
    int rows = 0;
    cJSON_ArrayForEach(row, arr) {
        if (!cJSON_IsObject(row)) return 0;
        cJSON_ArrayForEach(m, row) if (!is_scalar(m)) return 0;
        rows++;
    }
    return rows > 0;
}

static void json_value(struct html *h, const cJSON *v, int depth)
{
    const cJSON *m;
    char key[128];
    if (is_scalar(v)) {
        scalar(h, v);
    } else if (depth > 6) {
        html_raw(h, "&#8230;");
    } else if (cJSON_IsArray(v) && tabular(v)) {
        const char *names[32];
        int nn = 0;
        const cJSON *row;
        cJSON_ArrayForEach(row, v) cJSON_ArrayForEach(m, row) {
            int seen = 0;
            for (int i = 0; i < nn; i++) seen |= strcmp(names[i], m->string) == 0;
            if (!seen && nn < 32) names[nn++] = m->string;
        }
        html_raw(h, "<table><thead><tr>");
        for (int i = 0; i < nn; i++) html_key_text(names[i], key, sizeof key), html_elem(h, "th", key);
        html_raw(h, "</tr></thead><tbody>");
        cJSON_ArrayForEach(row, v) {
            html_raw(h, "<tr>");
            for (int i = 0; i < nn; i++) {
                const cJSON *cell = cJSON_GetObjectItemCaseSensitive(row, names[i]);
                html_raw(h, cJSON_IsNumber(cell) ? "<td class=\"n\">" : "<td>");
                scalar(h, cell);
                html_raw(h, "</td>");
            }
            html_raw(h, "</tr>");
        }
        html_raw(h, "</tbody></table>");
    } else if (cJSON_IsArray(v)) {
        int all_scalar = 1;
        cJSON_ArrayForEach(m, v) all_scalar &= is_scalar(m);
        if (!cJSON_GetArraySize(v)) {
            html_raw(h, "none");
        } else if (all_scalar) {
            int first = 1;
            cJSON_ArrayForEach(m, v) {
                if (!first) html_raw(h, ", ");
                scalar(h, m);
                first = 0;
            }
        } else {
            html_raw(h, "<ol>");
            cJSON_ArrayForEach(m, v) {
                html_raw(h, "<li>");
                json_value(h, m, depth + 1);
                html_raw(h, "</li>");
            }
            html_raw(h, "</ol>");
        }
    } else {
        html_raw(h, "<dl class=\"kv\">");
        cJSON_ArrayForEach(m, v) {
            html_key_text(m->string, key, sizeof key);
            html_elem(h, "dt", key);
            html_raw(h, "<dd>");
            json_value(h, m, depth + 1);
            html_raw(h, "</dd>");
        }
        html_raw(h, "</dl>");
    }
}

void html_json(struct html *h, const cJSON *v) { json_value(h, v, 0); }

/* --- drawing --------------------------------------------------------------------------------- */

/* Okabe and Ito's colours (distinct under the common colour-vision deficiencies), each with its
 * own pattern, marker and dash, so that no meaning rests on colour alone. Style 6 is the empty
 * part of a bar (headroom): white with a grey outline. */
static const struct {
    const char *colour, *pattern, *marker, *dash;
} styles[HTML_STYLES] = {
    {"#0072B2", "", "circle", ""},
    {"#E69F00", "<path d=\"M0 6L6 0\" stroke=\"#fff\" stroke-width=\"1.6\"/>", "square", "6 3"},
    {"#009E73", "<circle cx=\"3\" cy=\"3\" r=\"1.2\" fill=\"#fff\"/>", "triangle", "2 3"},
    {"#CC79A7", "<path d=\"M0 6L6 0M0 0L6 6\" stroke=\"#fff\" stroke-width=\"1\"/>", "diamond", "8 3 2 3"},
    {"#56B4E9", "<path d=\"M0 3H6\" stroke=\"#fff\" stroke-width=\"1.4\"/>", "circle-open", "4 2"},
    {"#D55E00", "<path d=\"M3 0V6\" stroke=\"#fff\" stroke-width=\"1.4\"/>", "square-open", "1 2"},
    {"#ffffff", "", "triangle-open", "3 3"},
    {"#555555", "<path d=\"M0 0L6 6\" stroke=\"#fff\" stroke-width=\"1.2\"/>", "cross", "10 4"},
};

static int style_of(int s) { return s < 0 ? 0 : s % HTML_STYLES; }

/* Pattern definitions for the styles in `used` (a bit per style). */
static void defs(struct html *h, unsigned used)
{
    html_raw(h, "<defs>");
    for (int s = 0; s < HTML_STYLES; s++) {
        if (!(used & 1u << s)) continue;
        html_rawf(h, "<pattern id=\"c%d-p%d\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
                     "<rect width=\"6\" height=\"6\" fill=\"%s\"/>%s</pattern>",
                  h->charts, s, styles[s].colour, styles[s].pattern);
    }
    html_raw(h, "</defs>");
}

static void fill_attr(struct html *h, int s)
{
    s = style_of(s);
    if (s == 6) html_raw(h, " fill=\"#fff\" stroke=\"#6b6b6b\" stroke-dasharray=\"3 2\"");
    else html_rawf(h, " fill=\"url(#c%d-p%d)\" stroke=\"#1b1b1b\" stroke-width=\"0.6\"", h->charts, s);
}

static void data_attrs(struct html *h, const char *pointer, double value, double scale)
{
    if (!pointer) return;
    html_raw(h, " data-json=\"");
    html_text(h, pointer);
    html_rawf(h, "\" data-value=\"%.17g\"", value);
    if (scale != 0 && scale != 1) html_rawf(h, " data-scale=\"%.17g\"", scale);
}

static void marker(struct html *h, int s, double x, double y)
{
    const char *m = styles[style_of(s)].marker, *c = styles[style_of(s)].colour;
    if (style_of(s) == 6) c = "#1b1b1b";
    int open = strstr(m, "-open") != NULL;
    char paint[64];
    if (open) snprintf(paint, sizeof paint, "fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"", c);
    else snprintf(paint, sizeof paint, "fill=\"%s\" stroke=\"#1b1b1b\" stroke-width=\"0.8\"", c);
    if (strncmp(m, "circle", 6) == 0) html_rawf(h, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" %s/>", x, y, paint);
    else if (strncmp(m, "square", 6) == 0) html_rawf(h, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" %s/>", x - 4, y - 4, paint);
    else if (strncmp(m, "triangle", 8) == 0)
        html_rawf(h, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" %s/>", x, y - 5, x + 5, y + 4, x - 5, y + 4, paint);
    else if (strcmp(m, "diamond") == 0)
        html_rawf(h, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" %s/>", x, y - 5.5, x + 5.5, y, x, y + 5.5, x - 5.5, y, paint);
    else
        html_rawf(h, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>", x - 4, y - 4,
                  x + 4, y + 4, x - 4, y + 4, x + 4, y - 4, c);
}

/* Opens a chart: figure, caption and svg with its accessible name. */
static void chart_open(struct html *h, const char *kind, const char *id, const char *title, int width, int height,
                       unsigned used)
{
    h->charts++;
    html_rawf(h, "<figure class=\"chart %s\"", kind);
    if (id) html_rawf(h, " id=\"%s\"", id);
    html_raw(h, "><figcaption>");
    html_text(h, title);
    html_rawf(h, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                 "role=\"img\" aria-labelledby=\"c%d-t\"><title id=\"c%d-t\">",
              width, height, width, height, h->charts, h->charts);
    html_text(h, title);
    html_raw(h, "</title>");
    defs(h, used);
}

static void chart_close(struct html *h) { html_raw(h, "</svg>\n</figure>\n"); }

static void text_at(struct html *h, double x, double y, const char *anchor, const char *text)
{
    html_rawf(h, "<text x=\"%.1f\" y=\"%.1f\"%s%s%s fill=\"#1b1b1b\">", x, y, anchor ? " text-anchor=\"" : "",
              anchor ? anchor : "", anchor ? "\"" : "");
    html_text(h, text);
    html_raw(h, "</text>");
}

/* s shortened to at most max characters (not bytes), the last an ellipsis when cut. */
static void clip_label(const char *s, int max, char *out, size_t n)
{
    const char *p = s ? s : "";
    size_t i = 0, cut = 0;
    int chars = 0;
    while (p[i]) {
        if (chars == max - 1) cut = i;
        chars++;
        i++;
        while ((p[i] & 0xc0) == 0x80) i++;
    }
    if (chars <= max) snprintf(out, n, "%s", p);
    else snprintf(out, n, "%.*s\xe2\x80\xa6", (int)cut, p);
}

/* Nice tick step for a linear axis: 1, 2 or 5 times a power of ten, about `ticks` ticks. */
static double nice_step(double range, int ticks)
{
    if (!(range > 0)) return 1;
    double raw = range / ticks, p = pow(10, floor(log10(raw))), f = raw / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* --- bar charts ------------------------------------------------------------------------------ */

enum { CW = 720, BAR_LEFT = 200, BAR_RIGHT = 130, ROW = 24 };

void html_bar_chart(struct html *h, const struct html_chart *c, const struct html_bar *bars, int n,
                    const struct html_ref *refs, int nrefs)
{
    double lo = c->min, hi = c->max;
    if (!(hi > lo)) {
        lo = 0, hi = 0;
        for (int i = 0; i < n; i++) {
            double from = isfinite(bars[i].start) ? bars[i].start : 0;
            double v[3] = {from + bars[i].value, bars[i].lo, bars[i].hi};
            for (int k = 0; k < 3; k++)
                if (isfinite(v[k])) hi = fmax(hi, c->signed_bars ? fabs(v[k]) : v[k]), lo = fmin(lo, v[k]);
        }
        for (int i = 0; i < nrefs; i++)
            if (isfinite(refs[i].value)) hi = fmax(hi, refs[i].value);
        if (c->signed_bars) lo = -hi;
        if (!(hi > lo)) hi = lo + 1;
        double step = nice_step(hi - lo, 5);
        hi = ceil(hi / step) * step;
        if (c->signed_bars) lo = -hi;
        else lo = lo < 0 ? floor(lo / step) * step : 0;
    }
    int top = 8 + 14 * nrefs, plot_h = n * ROW, height = top + plot_h + 46;
    double x0 = BAR_LEFT, x1 = CW - BAR_RIGHT;
#define BX(v) (x0 + ((v) - lo) / (hi - lo) * (x1 - x0))
    unsigned used = 0;
    for (int i = 0; i < n; i++) used |= 1u << style_of(bars[i].style);
    chart_open(h, "bar", c->id, c->title, CW, height, used);
    /* grid and axis */
    double step = nice_step(hi - lo, 5);
    for (double t = ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
        char num[32];
        units_number(fabs(t) < step * 1e-9 ? 0 : t, num, sizeof num);
        html_rawf(h, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d0d0d0\"/>", BX(t), top, BX(t), top + plot_h);
        text_at(h, BX(t), top + plot_h + 14, "middle", num);
    }
    html_rawf(h, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1b1b1b\"/>", x0, top + plot_h, x1, top + plot_h);
    if (lo < 0) html_rawf(h, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1b1b1b\"/>", BX(0), top, BX(0), top + plot_h);
    text_at(h, (x0 + x1) / 2, top + plot_h + 34, "middle", c->axis);
    for (int i = 0; i < n; i++) {
        const struct html_bar *b = &bars[i];
        double y = top + i * ROW + 4, bh = ROW - 8;
        char label[160], num[32], text[320];
        clip_label(b->label, 27, label, sizeof label);
        html_raw(h, "<g>");
        if (strcmp(label, b->label ? b->label : "") != 0) {
            html_raw(h, "<title>");
            html_text(h, b->label);
            html_raw(h, "</title>");
        }
        text_at(h, x0 - 6, y + bh - 3, "end", label);
        double end = BX(c->signed_bars ? 0 : lo);
        if (isfinite(b->value)) {
            double base = isfinite(b->start) ? b->start : c->signed_bars || lo < 0 ? 0 : lo;
            double a = BX(base + b->value), from = BX(base);
            double bx = fmin(a, from), bw = fabs(a - from);
            html_rawf(h, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\"", bx, y, bw, bh);
            fill_attr(h, b->style);
            data_attrs(h, b->pointer, b->value, b->scale);
            html_raw(h, "/>");
            end = fmax(a, from);
            if (isfinite(b->lo) && isfinite(b->hi)) {
                double wl = BX(b->lo), wh = BX(b->hi), ym = y + bh / 2;
                html_rawf(h, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" stroke=\"#1b1b1b\" stroke-width=\"1.3\"/>",
                          wl, ym, wh, wl, ym - 5, ym + 5, wh, ym - 5, ym + 5);
                end = fmax(end, wh);
            }
            units_number(b->value, num, sizeof num);
            snprintf(text, sizeof text, "%s%s%s%s", (c->signed_bars || c->plus) && b->value > 0 ? "+" : "", num, b->note ? "  " : "",
                     b->note ? b->note : "");
        } else {
            snprintf(text, sizeof text, "%s", b->note ? b->note : "no value");
        }
        double tx = c->signed_bars && isfinite(b->value) && b->value < 0 ? BX(b->value) - 4 : end + 5;
        text_at(h, tx, y + bh - 3, c->signed_bars && isfinite(b->value) && b->value < 0 ? "end" : NULL, text);
        html_raw(h, "</g>");
    }
    for (int i = 0; i < nrefs; i++) {
        if (!isfinite(refs[i].value)) continue;
        double x = BX(refs[i].value);
        char num[32], text[256];
        units_number(refs[i].value, num, sizeof num);
        snprintf(text, sizeof text, "%s %s", refs[i].label, num);
        html_rawf(h, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1b1b1b\" stroke-width=\"1.5\"%s/>", x,
                  12 + 14 * i, x, top + plot_h, refs[i].dashed ? " stroke-dasharray=\"5 3\"" : "");
        text_at(h, x > CW / 2 ? x - 4 : x + 4, 10 + 14 * i, x > CW / 2 ? "end" : NULL, text);
    }
#undef BX
    chart_close(h);
}

/* --- a stacked bar --------------------------------------------------------------------------- */

void html_stacked_bar(struct html *h, const struct html_chart *c, const char *bar_label, const struct html_part *parts,
                      int n, double capacity, const char *capacity_label, const char *capacity_pointer,
                      const char *unit)
{
    double total = 0;
    unsigned used = 0;
    for (int i = 0; i < n; i++) {
        if (isfinite(parts[i].value) && parts[i].value > 0) total += parts[i].value;
        used |= 1u << style_of(parts[i].style);
    }
    double hi = c->max > 0 ? c->max : fmax(total, capacity > 0 ? capacity : 0);
    if (!(hi > 0)) hi = 1;
    double step = nice_step(hi, 5);
    hi = ceil(hi / step) * step;
    double x0 = 20, x1 = CW - 20;
    int bar_y = 34, bar_h = 30, legend_y = bar_y + bar_h + 54, height = legend_y + 20 * n + 8;
#define SX(v) (x0 + (v) / hi * (x1 - x0))
    chart_open(h, "stacked", c->id, c->title, CW, height, used);
    text_at(h, x0, bar_y - 8, NULL, bar_label);
    for (double t = 0; t <= hi + step * 1e-9; t += step) {
        char num[32];
        units_number(t, num, sizeof num);
        html_rawf(h, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1b1b1b\"/>", SX(t), bar_y + bar_h,
                  SX(t), bar_y + bar_h + 5);
        text_at(h, SX(t), bar_y + bar_h + 18, "middle", num);
    }
    html_rawf(h, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1b1b1b\"/>", x0, bar_y + bar_h, x1, bar_y + bar_h);
    text_at(h, (x0 + x1) / 2, bar_y + bar_h + 36, "middle", c->axis);
    double at = 0;
    for (int i = 0; i < n; i++) {
        const struct html_part *p = &parts[i];
        double v = isfinite(p->value) && p->value > 0 ? p->value : 0;
        html_rawf(h, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\"", SX(at), bar_y, SX(at + v) - SX(at), bar_h);
        fill_attr(h, p->style);
        data_attrs(h, p->pointer, p->value, 1);
        html_raw(h, "><title>");
        html_text(h, p->label);
        html_raw(h, "</title></rect>");
        at += v;
        /* legend: swatch, name, number */
        int ly = legend_y + 20 * i;
        html_rawf(h, "<rect x=\"%.1f\" y=\"%d\" width=\"22\" height=\"13\"", x0, ly - 11);
        fill_attr(h, p->style);
        html_raw(h, "/>");
        char num[32], text[320];
        units_number(p->value, num, sizeof num);
        if (isfinite(p->value)) snprintf(text, sizeof text, "%s: %s %s", p->label, num, unit);
        else snprintf(text, sizeof text, "%s: not known", p->label);
        text_at(h, x0 + 30, ly, NULL, text);
    }
    if (capacity > 0) {
        double x = SX(capacity);
        char num[32], text[256];
        units_number(capacity, num, sizeof num);
        snprintf(text, sizeof text, "%s %s %s", capacity_label, num, unit);
        html_rawf(h, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1b1b1b\" stroke-width=\"2.5\"", x, bar_y - 6, x,
                  bar_y + bar_h + 6);
        data_attrs(h, capacity_pointer, capacity, 1);
        html_raw(h, "/>");
        text_at(h, x > CW / 2 ? x - 4 : x + 4, 12, x > CW / 2 ? "end" : NULL, text);
    }
#undef SX
    chart_close(h);
}

/* --- x-y charts ------------------------------------------------------------------------------ */

static void range_of(const struct html_series *s, int ns, int y, int log_scale, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int i = 0; i < ns; i++)
        for (int k = 0; k < s[i].n; k++) {
            double v = y ? s[i].pts[k].y : s[i].pts[k].x;
            if (!isfinite(v) || (log_scale && v <= 0)) continue;
            *lo = fmin(*lo, v), *hi = fmax(*hi, v);
        }
    if (!isfinite(*lo)) *lo = log_scale ? 1 : 0, *hi = log_scale ? 10 : 1;
    if (log_scale) {
        *lo = pow(10, floor(log10(*lo)));
        *hi = pow(10, ceil(log10(*hi)));
        if (*hi <= *lo) *hi = *lo * 10;
    } else {
        if (*lo > 0) *lo = 0;
        if (*hi <= *lo) *hi = *lo + 1;
        double step = nice_step(*hi - *lo, 5);
        *hi = ceil(*hi / step) * step;
        *lo = floor(*lo / step) * step;
    }
}

struct axis {
    int log_scale;
    double lo, hi, a, b; /* value range onto pixel range a..b */
};

static double ax(const struct axis *x, double v)
{
    if (x->log_scale) return x->a + (log10(v) - log10(x->lo)) / (log10(x->hi) - log10(x->lo)) * (x->b - x->a);
    return x->a + (v - x->lo) / (x->hi - x->lo) * (x->b - x->a);
}

/* The tick values of an axis (at most max): decades, or nice linear steps. */
static int ticks(const struct axis *x, double *out, int max)
{
    int n = 0;
    if (x->log_scale) {
        int decades = (int)lround(log10(x->hi / x->lo));
        int every = decades > 8 ? 2 : 1;
        for (int d = 0; d <= decades && n < max; d += every) out[n++] = x->lo * pow(10, d);
    } else {
        double step = nice_step(x->hi - x->lo, 5);
        for (double t = x->lo; t <= x->hi + step * 1e-9 && n < max; t += step) out[n++] = fabs(t) < step * 1e-9 ? 0 : t;
    }
    return n;
}

void html_xy_chart(struct html *h, const struct html_xy *c, const struct html_series *s, int ns)
{
    struct axis X = {c->x_log, c->x_min, c->x_max, 80, CW - 24}, Y = {c->y_log, c->y_min, c->y_max, 0, 0};
    if (!(X.hi > X.lo)) range_of(s, ns, 0, X.log_scale, &X.lo, &X.hi);
    if (!(Y.hi > Y.lo)) range_of(s, ns, 1, Y.log_scale, &Y.lo, &Y.hi);
    /* the legend: rows of items, about 7 px a character */
    int lx = 80, lrows = 1;
    for (int i = 0; i < ns; i++) {
        int w = 40 + 7 * (int)strlen(s[i].name ? s[i].name : "");
        if (lx + w > CW - 10 && lx > 80) lrows++, lx = 80;
        lx += w;
    }
    int plot_top = 12, plot_h = 280, legend_y = plot_top + plot_h + 52, height = legend_y + 20 * lrows;
    Y.a = plot_top + plot_h, Y.b = plot_top;
    chart_open(h, "xy", c->id, c->title, CW, height, 0);
    double tv[32];
    int nt = ticks(&X, tv, 32);
    for (int i = 0; i < nt; i++) {
        char num[32];
        units_number(tv[i], num, sizeof num);
        html_rawf(h, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d0d0d0\"/>", ax(&X, tv[i]), plot_top,
                  ax(&X, tv[i]), plot_top + plot_h);
        text_at(h, ax(&X, tv[i]), plot_top + plot_h + 15, "middle", num);
    }
    nt = ticks(&Y, tv, 32);
    for (int i = 0; i < nt; i++) {
        char num[32];
        units_number(tv[i], num, sizeof num);
        html_rawf(h, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d0d0d0\"/>", X.a, ax(&Y, tv[i]), X.b,
                  ax(&Y, tv[i]));
        text_at(h, X.a - 6, ax(&Y, tv[i]) + 4, "end", num);
    }
    html_rawf(h, "<path d=\"M%.1f %dV%dH%.1f\" fill=\"none\" stroke=\"#1b1b1b\"/>", X.a, plot_top, plot_top + plot_h, X.b);
    text_at(h, (X.a + X.b) / 2, plot_top + plot_h + 36, "middle", c->x_axis);
    html_rawf(h, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\" fill=\"#1b1b1b\">",
              plot_top + plot_h / 2.0, plot_top + plot_h / 2.0);
    html_text(h, c->y_axis);
    html_raw(h, "</text>");
    for (int i = 0; i < ns; i++) {
        const struct html_series *se = &s[i];
        const char *colour = style_of(se->style) == 6 ? "#1b1b1b" : styles[style_of(se->style)].colour;
        html_raw(h, "<g>");
        if (se->line && se->n > 1) {
            html_raw(h, "<path d=\"");
            int first = 1;
            for (int k = 0; k < se->n; k++) {
                const struct html_point *p = &se->pts[k];
                if (!isfinite(p->x) || !isfinite(p->y) || (X.log_scale && p->x <= 0) || (Y.log_scale && p->y <= 0)) continue;
                html_rawf(h, "%s%.1f %.1f", first ? "M" : "L", ax(&X, p->x), ax(&Y, p->y));
                first = 0;
            }
            html_rawf(h, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.2\"%s%s%s/>", colour,
                      *styles[style_of(se->style)].dash ? " stroke-dasharray=\"" : "", styles[style_of(se->style)].dash,
                      *styles[style_of(se->style)].dash ? "\"" : "");
        }
        for (int k = 0; k < se->n; k++) {
            const struct html_point *p = &se->pts[k];
            if (!isfinite(p->x) || !isfinite(p->y) || (X.log_scale && p->x <= 0) || (Y.log_scale && p->y <= 0)) continue;
            double px = ax(&X, p->x), py = ax(&Y, p->y);
            if (se->markers) {
                html_raw(h, "<g");
                data_attrs(h, p->pointer_y, p->y, p->scale_y);
                html_raw(h, ">");
                char num[32];
                units_number(p->y, num, sizeof num);
                html_raw(h, "<title>");
                html_textf(h, "%s: %s", p->label ? p->label : se->name, num);
                html_raw(h, "</title>");
                marker(h, se->style, px, py);
                html_raw(h, "</g>");
            }
            /* labels above and below in turn, so neighbours do not overwrite each other */
            if (p->label) text_at(h, px > CW - 200 ? px - 7 : px + 7, k % 2 ? py + 16 : py - 8, px > CW - 200 ? "end" : NULL, p->label);
        }
        html_raw(h, "</g>");
    }
    /* legend */
    lx = 80;
    int ly = legend_y;
    for (int i = 0; i < ns; i++) {
        const struct html_series *se = &s[i];
        int w = 40 + 7 * (int)strlen(se->name ? se->name : "");
        if (lx + w > CW - 10 && lx > 80) ly += 20, lx = 80;
        const char *colour = style_of(se->style) == 6 ? "#1b1b1b" : styles[style_of(se->style)].colour;
        if (se->line)
            html_rawf(h, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.2\"%s%s%s/>", lx, ly - 4,
                      lx + 26, ly - 4, colour, *styles[style_of(se->style)].dash ? " stroke-dasharray=\"" : "",
                      styles[style_of(se->style)].dash, *styles[style_of(se->style)].dash ? "\"" : "");
        if (se->markers) marker(h, se->style, lx + 13, ly - 4);
        text_at(h, lx + 32, ly, NULL, se->name);
        lx += w;
    }
    chart_close(h);
}
