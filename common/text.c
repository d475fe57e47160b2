/* Text layout for terminal output: display widths, cutting and wrapping, aligned tables. */
#include "common/text.h"

#include <ctype.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int ascii_output; /* text_wrap and text_table print ASCII (text_set_ascii) */
static int table_width = TEXT_WIDTH; /* 0: unlimited */

void text_set_table_width(int width) { table_width = width > 0 ? width : 0; }
int text_table_width(void) { return table_width; }

/* Decodes one UTF-8 sequence; returns its length (1 for an invalid byte, taken as is). */
static int utf8_next(const char *s, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80) { *cp = u[0]; return 1; }
    int len = (u[0] & 0xe0) == 0xc0 ? 2 : (u[0] & 0xf0) == 0xe0 ? 3 : (u[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!len) { *cp = u[0]; return 1; }
    uint32_t v = u[0] & (0x7f >> len);
    for (int i = 1; i < len; i++) {
        if ((u[i] & 0xc0) != 0x80) { *cp = u[0]; return 1; }
        v = (v << 6) | (u[i] & 0x3f);
    }
    *cp = v;
    return len;
}

/* East Asian wide and fullwidth ranges (the common CJK blocks). */
static int cp_width(uint32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
    if ((cp >= 0x0300 && cp <= 0x036f) || cp == 0x200b) return 0; /* combining marks, ZWSP */
    if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
        (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
        (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd))
        return 2;
    return 1;
}

/* --- the output filter --------------------------------------------------------------------- */

/* Characters that change what a terminal does or how text reads instead of showing: C0 and C1
 * controls, DEL, and the bidirectional overrides and isolates ("Trojan Source"). */
static int cp_hostile(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

/* Length of a well-formed UTF-8 sequence at s (shortest form, no surrogates, at most U+10FFFF),
 * or 0. */
static int utf8_valid_len(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    int len = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!len) return 0;
    uint32_t v = s[0] & (0x7f >> len);
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < least[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
    return len;
}

/* keep_newlines: the program's own multi-line text (the interface wraps it by lines). */
static int is_clean(const char *s, int keep_newlines)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        if ((*u >= 0x20 && *u < 0x7f) || (keep_newlines && *u == '\n')) {
            u++;
            continue;
        }
        int len = utf8_valid_len(u);
        if (!len) return 0;
        uint32_t cp;
        utf8_next((const char *)u, &cp);
        if (cp_hostile(cp)) return 0;
        u += len;
    }
    return 1;
}

int text_is_clean(const char *s) { return is_clean(s, 0); }

size_t text_utf8_prefix(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    for (int len; u[i] && (len = utf8_valid_len(u + i)) > 0;) i += (size_t)len;
    return i;
}

static size_t escape(const char *s, char *out, size_t outsz, int keep_newlines)
{
    if (outsz == 0) return 0;
    const unsigned char *u = (const unsigned char *)s;
    size_t used = 0;
    while (*u) {
        char piece[16];
        size_t n;
        int len = utf8_valid_len(u);
        uint32_t cp = 0;
        if (len) utf8_next((const char *)u, &cp);
        if (!len) { /* a byte that is not UTF-8 */
            n = (size_t)snprintf(piece, sizeof piece, "\\x%02x", *u);
            len = 1;
        } else if (cp_hostile(cp) && !(keep_newlines && cp == '\n')) {
            static const char short_forms[] = {['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't'};
            if (cp < sizeof short_forms && short_forms[cp]) n = (size_t)snprintf(piece, sizeof piece, "\\%c", short_forms[cp]);
            else if (cp < 0x100) n = (size_t)snprintf(piece, sizeof piece, "\\x%02x", (unsigned)cp);
            else n = (size_t)snprintf(piece, sizeof piece, "\\u%04x", (unsigned)cp);
        } else {
            memcpy(piece, u, (size_t)len);
            n = (size_t)len;
        }
        if (used + n + 1 > outsz) break; /* whole characters only */
        memcpy(out + used, piece, n);
        used += n;
        u += len;
    }
    out[used] = '\0';
    return used;
}

size_t text_escape(const char *s, char *out, size_t outsz) { return escape(s, out, outsz, 0); }

static char *escape_dup(const char *s, int keep_newlines)
{
    size_t cap = strlen(s) * 4 + 1; /* at most 4 bytes out per byte in: \x1b, \xff */
    char *out = malloc(cap);
    if (out) escape(s, out, cap, keep_newlines);
    return out;
}

char *text_escape_dup(const char *s) { return escape_dup(s, 0); }

void text_put(FILE *f, const char *s)
{
    char *e = text_is_clean(s) ? NULL : text_escape_dup(s);
    const char *clean = text_is_clean(s) ? s : e ? e : "?";
    if (ascii_output) {
        size_t n = strlen(clean) * 3 + 1;
        char *ascii = malloc(n);
        if (ascii) text_ascii(clean, ascii, n);
        fputs(ascii ? ascii : clean, f);
        free(ascii);
    } else {
        fputs(clean, f);
    }
    free(e);
}

void text_printf(FILE *f, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    text_put(f, line);
}

int text_width(const char *s)
{
    int w = 0;
    while (*s) {
        uint32_t cp;
        s += utf8_next(s, &cp);
        w += cp_width(cp);
    }
    return w;
}

char *text_pad(char *out, size_t outsz, const char *s, int width, int max)
{
    if (outsz == 0) return out;
    size_t used = 0;
    int w = 0;
    for (const char *c = s ? s : ""; *c;) {
        uint32_t cp;
        int len = utf8_next(c, &cp), cw = cp_width(cp);
        if (used + (size_t)len + 1 > outsz || (max >= 0 && w + cw > max)) break;
        memcpy(out + used, c, (size_t)len);
        used += (size_t)len, w += cw, c += len;
    }
    while (w < width && used + 1 < outsz) out[used++] = ' ', w++;
    out[used] = '\0';
    return out;
}

void text_fit(const char *s, int width, char *out, size_t outsz)
{
    if (outsz == 0) return;
    if (!text_is_clean(s)) {
        char *e = text_escape_dup(s);
        text_fit(e ? e : "?", width, out, outsz);
        free(e);
        return;
    }
    if (text_width(s) <= width) {
        snprintf(out, outsz, "%s", s);
        return;
    }
    int budget = width > 3 ? width - 3 : width, w = 0;
    size_t used = 0;
    while (*s) {
        uint32_t cp;
        int len = utf8_next(s, &cp);
        int cw = cp_width(cp);
        if (w + cw > budget || used + (size_t)len + 4 > outsz) break;
        memcpy(out + used, s, (size_t)len);
        used += (size_t)len;
        w += cw;
        s += len;
    }
    while (used > 0 && out[used - 1] == ' ') used--;
    snprintf(out + used, outsz - used, "%s", width > 3 ? "..." : "");
}

/* Punctuation a line may not start with (closing marks, commas and stops, CJK and Latin) or end
 * with (opening marks). */
static int closing_mark(uint32_t cp)
{
    static const char closers[] = ",.;:!?)]}%";
    if (cp < 0x80) return cp && strchr(closers, (int)cp) != NULL;
    static const uint32_t wide[] = {0x3001, 0x3002, 0xff0c, 0xff0e, 0xff1a, 0xff1b, 0xff01, 0xff1f, 0xff09, 0x300d,
                                    0x300f, 0x3011, 0x300b, 0x3009, 0x201d, 0x2019, 0x2026, 0xff05};
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (wide[i] == cp) return 1;
    return 0;
}

static int opening_mark(uint32_t cp)
{
    static const uint32_t marks[] = {'(', '[', '{', 0xff08, 0x300c, 0x300e, 0x3010, 0x300a, 0x3008, 0x201c, 0x2018};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (marks[i] == cp) return 1;
    return 0;
}

/* A line may break between prev and next without a space: where either is wide (Chinese has no
 * spaces between words), but not before a closing mark or after an opening one. */
static int wide_break(uint32_t prev, uint32_t next)
{
    if (prev == ' ' || next == ' ' || (cp_width(prev) < 2 && cp_width(next) < 2)) return 0;
    return !closing_mark(next) && !opening_mark(prev);
}

/* Where a line of at most `width` columns starting at s ends: after its last space or wide-text
 * break (wide_break; not inside ASCII parentheses, where Chinese is an English sentence's gloss
 * and stays whole), or at the end of s (or a newline, when `newline`); *fits is where the
 * characters that fit end (for a line that has no break). */
static const char *line_break(const char *s, int width, int newline, const char **fits)
{
    const char *p = s, *brk = NULL;
    uint32_t prev = 0;
    int w = 0, depth = 0;
    while (*p && !(newline && *p == '\n')) {
        uint32_t cp;
        int len = utf8_next(p, &cp);
        if (p > s && depth == 0 && wide_break(prev, cp)) brk = p;
        depth += cp == '(' ? 1 : cp == ')' && depth > 0 ? -1 : 0;
        int cw = cp_width(cp);
        if (w + cw > width) break;
        w += cw;
        p += len;
        prev = cp;
        if (cp == ' ') brk = p;
    }
    *fits = p;
    return *p == '\0' || (newline && *p == '\n') ? p : brk ? brk : p;
}

static void wrap(FILE *f, const char *s, int col, int indent);

void text_wrap(FILE *f, const char *s, int col, int indent)
{
    if (!text_is_clean(s)) {
        char *e = text_escape_dup(s);
        text_wrap(f, e ? e : "?", col, indent);
        free(e);
        return;
    }
    if (!ascii_output) {
        wrap(f, s, col, indent);
        return;
    }
    size_t n = strlen(s) + 1;
    char *ascii = malloc(n * 3); /* a transliteration is at most three characters */
    if (!ascii) {
        wrap(f, s, col, indent);
        return;
    }
    text_ascii(s, ascii, n * 3);
    wrap(f, ascii, col, indent);
    free(ascii);
}

static void wrap(FILE *f, const char *s, int col, int indent)
{
    int avail = TEXT_WIDTH - col;
    while (*s == ' ') s++;
    if (avail < 20) { /* no room left on this line: start a fresh one */
        fprintf(f, "\n%*s", indent, "");
        col = indent;
        avail = TEXT_WIDTH - indent;
    }
    while (*s) {
        /* Take as much as fits, breaking where a line may break (or anywhere for unbroken text). */
        const char *p;
        const char *end = line_break(s, avail, 0, &p);
        if (end == s) end = s + utf8_next(s, &(uint32_t){0}); /* a character wider than the line */
        size_t n = (size_t)(end - s);
        while (n > 0 && s[n - 1] == ' ') n--;
        fwrite(s, 1, n, f);
        fputc('\n', f);
        s = end;
        while (*s == ' ') s++;
        if (*s) {
            fprintf(f, "%*s", indent, "");
            col = indent;
            avail = TEXT_WIDTH - indent;
        }
    }
    if (col == 0 && avail == TEXT_WIDTH && !*s) return;
}

void text_table(FILE *f, const struct text_column *cols, int ncols, const char *const *cells, int nrows,
                int bold_header)
{
    int widths[16] = {0};
    if (ncols > 16) ncols = 16;
    for (int c = 0; c < ncols; c++) {
        widths[c] = text_width(cols[c].header);
        for (int r = 0; r < nrows; r++) {
            int w = text_width(cells[r * ncols + c]);
            if (w > widths[c]) widths[c] = w;
        }
    }
    /* Two spaces between columns; the flexible column gives up what does not fit. */
    int total = 0, flex = -1;
    for (int c = 0; c < ncols; c++) {
        total += widths[c] + (c ? 2 : 0);
        if (cols[c].flex) flex = c;
    }
    if (table_width > 0 && total > table_width && flex >= 0) {
        int shrink = total - table_width;
        widths[flex] = widths[flex] - shrink < 6 ? 6 : widths[flex] - shrink;
    }
    for (int r = -1; r < nrows; r++) {
        char line[4096];
        size_t used = 0;
        for (int c = 0; c < ncols; c++) {
            const char *v = r < 0 ? cols[c].header : cells[r * ncols + c];
            char cut[512], ascii[512];
            if (ascii_output) {
                text_ascii(v, ascii, sizeof ascii);
                v = ascii;
            }
            text_fit(v, widths[c], cut, sizeof cut);
            int pad = widths[c] - text_width(cut);
            int last = c == ncols - 1;
            if (c) used += (size_t)snprintf(line + used, sizeof line - used, "  ");
            if (cols[c].align_right)
                used += (size_t)snprintf(line + used, sizeof line - used, "%*s%s", pad, "", cut);
            else
                used += (size_t)snprintf(line + used, sizeof line - used, "%s%*s", cut, last ? 0 : pad, "");
            if (used >= sizeof line) used = sizeof line - 1;
        }
        while (used > 0 && line[used - 1] == ' ') line[--used] = '\0';
        if (r < 0 && bold_header) fprintf(f, "\033[1m%s\033[0m\n", line);
        else fprintf(f, "%s\n", line);
    }
}

int text_wrap_lines(const char *s, int width, void (*line)(void *ctx, const char *start, size_t bytes), void *ctx)
{
    /* Newlines break lines; any other control character is escaped. */
    if (!is_clean(s, 1)) {
        char *e = escape_dup(s, 1);
        int n = text_wrap_lines(e ? e : "?", width, line, ctx);
        free(e);
        return n;
    }
    int lines = 0;
    if (width < 1) width = 1;
    while (*s == ' ') s++;
    while (*s) {
        const char *p;
        const char *end = line_break(s, width, 1, &p);
        if (end == s) end = s + utf8_next(s, &(uint32_t){0});
        size_t n = (size_t)(end - s);
        while (n > 0 && s[n - 1] == ' ') n--;
        line(ctx, s, n);
        lines++;
        s = end;
        if (*s == '\n') s++;
        while (*s == ' ') s++;
    }
    return lines;
}

/* Characters an ASCII terminal can show another way. */
static const char *ascii_for(uint32_t cp)
{
    static const struct { uint32_t cp; const char *ascii; } table[] = {
        {0x00a0, " "}, {0x00b7, "."}, {0x00d7, "x"}, {0x2010, "-"}, {0x2011, "-"}, {0x2012, "-"}, {0x2013, "-"},
        {0x2014, "-"}, {0x2018, "'"}, {0x2019, "'"}, {0x201c, "\""}, {0x201d, "\""}, {0x2026, "..."},
        {0x2192, "->"}, {0x2248, "~"}, {0x2264, "<="}, {0x2265, ">="}, {0x00e9, "e"}, {0x00e8, "e"},
        {0x00fc, "u"}, {0x00f6, "o"}, {0x00e4, "a"}, {0xff0c, ","}, {0xff1a, ":"}, {0x3001, ","}, {0x3002, "."},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].cp == cp) return table[i].ascii;
    return NULL;
}

/* The end of a parenthesised group starting at s ('(' or a fullwidth one) when it holds wide
 * (CJK) text, else NULL: such a group is the original of an English gloss. */
static const char *cjk_group_end(const char *s)
{
    int wide = 0;
    uint32_t cp;
    const char *p = s + utf8_next(s, &cp);
    while (*p) {
        int len = utf8_next(p, &cp);
        if (cp == ')' || cp == 0xff09) return wide ? p + len : NULL;
        if (cp == '(' || cp == 0xff08) return NULL;
        if (cp_width(cp) == 2) wide = 1;
        p += len;
    }
    return NULL;
}

void text_ascii(const char *s, char *out, size_t outsz)
{
    size_t used = 0;
    if (outsz == 0) return;
    while (*s && used + 1 < outsz) {
        uint32_t cp;
        int len = utf8_next(s, &cp);
        const char *end;
        if ((cp == '(' || cp == 0xff08) && (end = cjk_group_end(s))) {
            if (used > 0 && out[used - 1] == ' ' && (*end == ' ' || *end == '\0' || ispunct((unsigned char)*end))) used--;
            s = end;
            continue;
        }
        const char *alt = cp < 0x80 ? NULL : ascii_for(cp);
        if (cp < 0x80) out[used++] = (char)cp;
        else if (alt)
            for (; *alt && used + 1 < outsz; alt++) out[used++] = *alt;
        else out[used++] = '?';
        s += len;
    }
    out[used] = '\0';
}

void text_set_ascii(int on) { ascii_output = on; }

int text_locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

void text_key_words(const char *key, char *out, size_t n)
{
    /* a unit at the end of a key reads as the unit: "bandwidth_gbs" -> "Bandwidth (GB/s)" */
    static const struct { const char *suffix, *unit; } units[] = {
        {"_gb_per_device", " (GB per device)"}, {"_gbs", " (GB/s)"}, {"_gb", " (GB)"}, {"_tflops", " (TFLOP/s)"},
        {"_gflops", " (GFLOP/s)"}, {"_ms", " (ms)"}, {"_per_s", " per second"},
    };
    const char *k = key ? key : "";
    size_t len = strlen(k), stem = len;
    const char *unit = "";
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t sl = strlen(units[i].suffix);
        if (len > sl && strcmp(k + len - sl, units[i].suffix) == 0) {
            stem = len - sl, unit = units[i].unit;
            break;
        }
    }
    snprintf(out, n, "%.*s%s", (int)stem, k, unit);
    for (char *c = out; *c && c < out + stem; c++)
        if (*c == '_') *c = ' ';
    /* a leading number format or acronym in capitals: "fp32_tflops" -> "FP32 (TFLOP/s)" */
    static const char *const caps[] = {"fp32", "fp16", "bf16", "fp8", "tf32", "kv", "mfu", "gpu", "cpu", "gemm"};
    size_t word = strcspn(out, " ");
    int upper = 0;
    for (size_t i = 0; i < sizeof caps / sizeof caps[0] && !upper; i++)
        upper = word == strlen(caps[i]) && strncmp(out, caps[i], word) == 0;
    for (size_t i = 0; i < (upper ? word : 1); i++)
        if (out[i] >= 'a' && out[i] <= 'z') out[i] = (char)(out[i] - 'a' + 'A');
}
