/* report_html: the recommendation report as one self-contained HTML page (docs/report.md, "The
 * HTML report"), drawn from the fwadvisor.report/1 document alone: what the page shows is what
 * the JSON says, and members it has no drawing for are listed as they are. */
#ifndef FWADVISOR_REPORT_HTML_H
#define FWADVISOR_REPORT_HTML_H

#include <cjson/cJSON.h>

#include "common/html.h"

/* Appends the page for `report` to h (an empty, zeroed html). Returns 0, or -1 when out of
 * memory; the caller frees h either way. */
int adv_report_html(const cJSON *report, struct html *h);
/* The same page with the plan's launch files in it, each whole in a section of its own (files:
 * launch_files_make's, or NULL for none). */
struct launch_files;
int adv_report_html_files(const cJSON *report, const struct launch_files *files, struct html *h);

/* The page of a fwadvisor.compare/1 document (recommend --compare-hardware or --sweep with
 * --html): a chart of each figure over the variants that run (time and cost; MFU for a sweep;
 * decode throughput and cost an hour for serving), their table and the refusals. 0, or -1 when
 * out of memory. */
int adv_compare_html(const cJSON *doc, struct html *h);

#endif
