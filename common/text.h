/* text: terminal text layout shared by the command line's output and the interface: display
 * widths of UTF-8 (East Asian wide characters take two columns), cutting, wrapping, tables. */
#ifndef FWADVISOR_COMMON_TEXT_H
#define FWADVISOR_COMMON_TEXT_H

#include <stddef.h>
#include <stdio.h>

#define TEXT_WIDTH 80

/* The output filter. Text that did not come from the program itself (the knowledge base, file
 * names, keys and values from input files, names from drivers) is shown through it: control
 * characters, escape sequences, bidirectional overrides and bytes that are not UTF-8 appear
 * escaped (\x1b, \n, \u202e, \xff) instead of acting on the terminal. JSON output stays exact
 * and does not use it. text_fit, text_wrap, text_table and text_wrap_lines filter what they
 * print; other output of outside text goes through text_put or text_escape. */
int text_is_clean(const char *s);
/* The bytes of s before the first that is not well-formed UTF-8 (shortest form, no surrogates,
 * at most U+10FFFF): strlen(s) when all of it is. */
size_t text_utf8_prefix(const char *s);
/* Writes the escaped form of s into out (whole characters only; always terminated); returns
 * its length. */
size_t text_escape(const char *s, char *out, size_t outsz);
/* The escaped form of s in a new string (NULL when out of memory). Caller frees. */
char *text_escape_dup(const char *s);
/* Writes s to f through the filter. */
void text_put(FILE *f, const char *s);
/* printf through the filter, for a line of the program's own words with outside values in it
 * (at most 4 KiB; the format itself must not hold control characters, so no newline). */
void text_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Columns a UTF-8 string takes on a terminal (East Asian wide characters take two). */
int text_width(const char *s);
/* Copies s into out, cut to at most `width` columns with "..." marking a cut. */
void text_fit(const char *s, int width, char *out, size_t outsz);
/* s into out cut to at most `max` columns (whole characters, no mark; max < 0: not cut), then
 * padded with spaces to `width` columns: printf's %-*.*s measured in display columns, so that
 * Chinese (two columns a character) lines up as English does. Returns out. */
char *text_pad(char *out, size_t outsz, const char *s, int width, int max);
/* Prints s wrapped to TEXT_WIDTH: the first line starts at column `col` (already printed),
 * continuation lines are indented by `indent`. Ends with a newline. */
void text_wrap(FILE *f, const char *s, int col, int indent);

/* The width text_table fits its tables to: TEXT_WIDTH at first; 0 never cuts a cell (output
 * that is not a terminal, --wide). */
void text_set_table_width(int width);
int text_table_width(void);

struct text_column {
    const char *header;
    int flex;        /* takes what is left of the width; long values are cut */
    int align_right; /* numbers */
};
/* Prints a table of nrows x ncols cells (row-major) aligned in columns within the table width. */
void text_table(FILE *f, const struct text_column *cols, int ncols, const char *const *cells, int nrows,
                int bold_header);

/* Wraps s to `width` columns and calls line(ctx, start, bytes) for each line (no newline);
 * returns the number of lines. */
int text_wrap_lines(const char *s, int width, void (*line)(void *ctx, const char *start, size_t bytes), void *ctx);

/* Copies s into out as ASCII, for terminals whose locale is not UTF-8: a parenthesised group of
 * CJK text (the original beside an English gloss, "medium (中等)") is left out, common
 * punctuation is transliterated (dashes, quotes, x for the multiplication sign) and anything
 * else becomes '?'. out needs up to three bytes per input character. */
void text_ascii(const char *s, char *out, size_t outsz);

/* 1 when the locale's character set is UTF-8 (after setlocale). */
int text_locale_utf8(void);

/* Makes text_wrap, text_table and text_put print ASCII (text_ascii) from now on: the command line turns it
 * on when the locale is not UTF-8. */
void text_set_ascii(int on);

/* A member or column name as words, its unit said: "device_memory_gb" -> "Device memory (GB)",
 * "bf16_tflops" -> "BF16 (TFLOP/s)", "samples_per_s" -> "Samples per second" (the HTML headings
 * and the interface's fact labels). */
void text_key_words(const char *key, char *out, size_t n);

#endif
