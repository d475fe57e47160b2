/* compare_text: the words and cells of a hardware comparison or a sweep (knowledge/compare.h),
 * the same for the command line's table and the interface's Hardware tab: the heading, each
 * row's cells, the lines under the table (the counts tried, the prices used and those missing)
 * and what a refused row is called. Each front end lays them out its own way. */
#ifndef FWADVISOR_COMPARE_TEXT_H
#define FWADVISOR_COMPARE_TEXT_H

#include <stddef.h>

#include "common/text.h"
#include "knowledge/compare.h"

/* The cells of a row, in this order. */
enum compare_cell {
    CC_WHAT,     /* the accelerator (a sweep: its values) */
    CC_DEVICES,
    CC_LAYOUT,   /* TPxPPxDP (ep when experts are split); serving: tp and pp */
    CC_MEMORY,   /* used/usable GB a device */
    CC_TIME,     /* serving: decode tokens a second */
    CC_DEVHOURS, /* a sweep: MFU; serving: cost an hour */
    CC_COST,     /* serving: cost per million tokens */
    COMPARE_CELLS
};

struct compare_cells {
    char c[COMPARE_CELLS][48];
};

/* The table's column headings and alignment (training, serving or a sweep's). */
void compare_columns(const struct compare_table *t, int sweep, struct text_column out[COMPARE_CELLS]);
/* A row's cells: "-" for a figure the plan does not have (a cost without a price). */
void compare_row_cells(const struct compare_row *row, int sweep, struct compare_cells *out);
/* The line above the table: what is compared and how it is sorted. */
void compare_heading(const struct compare_table *t, const struct answers *a, int sweep, char *out, size_t n);
/* The lines under the table, one call each: the counts tried (a training comparison), the
 * prices the rows used and the accelerators whose cost is left out, and why. */
void compare_notes(const struct compare_table *t, int sweep, void (*line)(void *ctx, const char *text), void *ctx);
/* The title of the refused rows' list, and what a refused row is called (its accelerator, a
 * sweep's values). */
const char *compare_refused_title(int sweep);
const char *compare_row_subject(const struct compare_row *row, int sweep);
/* The line saying rows were left out (t->truncated), into out. */
void compare_truncated(char *out, size_t n);

#endif
