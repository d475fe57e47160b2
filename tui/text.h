/* text: terminal text layout shared by the command line's output and the interface: display
 * widths of UTF-8 (East Asian wide characters take two columns), cutting, wrapping, tables. */
#ifndef FWADVISOR_TUI_TEXT_H
#define FWADVISOR_TUI_TEXT_H

#include <stddef.h>
#include <stdio.h>

#define TEXT_WIDTH 80

/* Columns a UTF-8 string takes on a terminal (East Asian wide characters take two). */
int text_width(const char *s);
/* Copies s into out, cut to at most `width` columns with "..." marking a cut. */
void text_fit(const char *s, int width, char *out, size_t outsz);
/* Prints s wrapped to TEXT_WIDTH: the first line starts at column `col` (already printed),
 * continuation lines are indented by `indent`. Ends with a newline. */
void text_wrap(FILE *f, const char *s, int col, int indent);

struct text_column {
    const char *header;
    int flex;        /* takes what is left of the width; long values are cut */
    int align_right; /* numbers */
};
/* Prints a table of nrows x ncols cells (row-major) aligned in columns within TEXT_WIDTH. */
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

/* Makes text_wrap and text_table print ASCII (text_ascii) from now on: the command line turns it
 * on when the locale is not UTF-8. */
void text_set_ascii(int on);

#endif
