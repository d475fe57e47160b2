#include "tui/layout.h"
#include "common/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int tui_fits(int rows, int cols) { return rows >= TUI_MIN_ROWS && cols >= TUI_MIN_COLS; }

static size_t put(char *out, size_t outsz, size_t at, const char *s)
{
    size_t n = strlen(s);
    if (at + n + 1 > outsz) return at;
    memcpy(out + at, s, n);
    return at + n;
}

size_t tui_bar(char *out, size_t outsz, double fraction, int width, int utf8)
{
    return tui_bar3(out, outsz, fraction, 0, width, utf8);
}

size_t tui_bar3(char *out, size_t outsz, double first, double second, int width, int utf8)
{
    return tui_bar_parts(out, outsz, (const double[]){first, second}, 2, width, utf8);
}

size_t tui_bar_parts(char *out, size_t outsz, const double *parts, int n, int width, int utf8)
{
    static const char *const ascii[] = {"#", "+", "="}, *const wide[] = {"\u2588", "\u2592", "\u2591"};
    int end[3] = {0, 0, 0};
    double sum = 0;
    for (int p = 0; p < n && p < 3; p++) {
        double f = parts[p] >= 0 ? parts[p] : 0; /* NaN too */
        if (sum + f > 1) f = 1 - sum;
        sum += f;
        end[p] = (int)lround(sum * width);
        if (end[p] > width) end[p] = width;
    }
    for (int p = n < 3 ? n : 3; p < 3; p++) end[p] = p > 0 ? end[p - 1] : 0;
    size_t at = 0;
    if (outsz == 0) return 0;
    for (int i = 0; i < width; i++) {
        int p = 0;
        while (p < 3 && i >= end[p]) p++;
        at = put(out, outsz, at, p < 3 ? (utf8 ? wide[p] : ascii[p]) : (utf8 ? "\u00b7" : "."));
    }
    out[at] = '\0';
    return at;
}


int tui_move(int selected, int delta, int n)
{
    int s = selected + delta;
    if (s < 0) s = 0;
    if (s > n - 1) s = n - 1;
    return s;
}

struct tui_split tui_wizard_split(int cols)
{
    struct tui_split s;
    s.right_w = cols >= 110 ? 34 : 28;
    s.left_w = cols - s.right_w - 1;
    /* a wide terminal: the question keeps 100 columns and the panel sits beside it, up to 64 wide,
     * rather than at the far edge */
    if (cols >= 140) {
        s.left_w = 100;
        s.right_w = cols - s.left_w - 1 < 64 ? cols - s.left_w - 1 : 64;
    }
    s.right_x = s.left_w + 1;
    return s;
}
