/* recommend --compare-hardware and --sweep: the tables of variants of one plan. */
#include "cli/cmd_compare.h"
#include "cli/cli.h"
#include "common/i18n.h"
#include "common/text.h"
#include "knowledge/compare_text.h"
#include "knowledge/report_html.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_compare_prices(kb *k, const struct adv_kb *akb, const char *file, const struct config_file *config,
                       struct compare_prices *out)
{
    char err[PATH_MAX + 1024];
    memset(out, 0, sizeof *out);
    int status = compare_prices_from_kb(k, out, err, sizeof err);
    if (status != KB_OK) {
        cli_error("%s", err);
        return cli_exit_from_kb(status);
    }
    if (config_prices(config, akb, out, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_INPUT;
    }
    if (!file) return EXIT_OK;
    char *data;
    size_t len;
    if (cli_read_file(file, &data, &len, err, sizeof err)) {
        cli_error("--prices %s", err);
        return EXIT_INPUT;
    }
    int bad = compare_prices_parse(akb, data, len, strcmp(file, "-") == 0 ? "standard input" : file, out, err, sizeof err);
    free(data);
    if (bad) {
        cli_error("--prices %s", err);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

static void note_line(void *ctx, const char *text)
{
    (void)ctx;
    text_wrap(stdout, text, 0, 2);
}

static void print_refused(const struct compare_table *t, int sweep)
{
    int any = 0;
    for (int i = 0; i < t->count; i++) {
        const struct compare_row *row = &t->rows[i];
        if (row->refusal == COMPARE_RUNS) continue;
        if (!any++) printf("\n%s\n", compare_refused_title(sweep));
        char line[1400];
        snprintf(line, sizeof line, "%s: %s", compare_row_subject(row, sweep), adv_note_local(row->why, row->why_local));
        printf("  ");
        text_wrap(stdout, line, 2, 4);
    }
}

static void print_table(const struct compare_table *t, int sweep, int bold)
{
    struct text_column cols[COMPARE_CELLS];
    compare_columns(t, sweep, cols);
    struct compare_cells *cells = calloc((size_t)t->count + 1, sizeof *cells);
    const char **ptrs = calloc((size_t)(t->count + 1) * COMPARE_CELLS, sizeof *ptrs);
    int n = 0;
    for (int i = 0; cells && ptrs && i < t->count; i++) {
        if (t->rows[i].refusal != COMPARE_RUNS) continue;
        compare_row_cells(&t->rows[i], sweep, &cells[n]);
        for (int c = 0; c < COMPARE_CELLS; c++) ptrs[n * COMPARE_CELLS + c] = cells[n].c[c];
        n++;
    }
    if (n) text_table(stdout, cols, COMPARE_CELLS, ptrs, n, bold);
    else printf("  %s\n", _("(no variant runs the job)"));
    free(cells);
    free((void *)ptrs);
}

static void print_text(const struct compare_table *t, const struct answers *a, int sweep, int bold)
{
    char line[512];
    compare_heading(t, a, sweep, line, sizeof line);
    fputs(bold ? "\033[1m" : "", stdout);
    text_wrap(stdout, line, 0, 2);
    fputs(bold ? "\033[0m" : "", stdout);
    print_table(t, sweep, bold);
    putchar('\n');
    compare_notes(t, sweep, note_line, NULL);
    print_refused(t, sweep);
    if (t->truncated) {
        compare_truncated(line, sizeof line);
        printf("\n%s\n", line);
    }
}

/* The fwadvisor.compare/1 document on standard output (json) and as a page (html). */
static int write_documents(const struct compare_table *t, int sweep, int json, const char *html)
{
    if (!json && !html) return EXIT_OK;
    char now[32];
    time_t tt = time(NULL);
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON *doc = compare_json(t, sweep ? "sweep" : "compare", now);
    if (!doc) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    int rc = EXIT_OK;
    if (html) {
        struct html page = {0};
        /* the page in the reader's words, its figures the document's */
        cJSON *local = i18n_lang() == I18N_EN ? NULL : compare_json_local(t, sweep ? "sweep" : "compare", now);
        rc = adv_compare_html(local ? local : doc, &page) ? (cli_error("out of memory"), EXIT_RUNTIME)
                                                          : cli_write_html(html, &page);
        cJSON_Delete(local);
        html_free(&page);
    }
    if (rc == EXIT_OK && json) rc = cli_write_json(doc, NULL);
    cJSON_Delete(doc);
    return rc;
}

int cli_compare_print(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                      const struct compare_prices *prices, const char *const *sweeps, int nsweeps, int json, const char *html,
                      int bold)
{
    char err[1024];
    struct compare_table *t = calloc(1, sizeof *t);
    if (!t) {
        cli_error("out of memory");
        return EXIT_RUNTIME;
    }
    int status;
    if (nsweeps) {
        struct compare_sweep sweep;
        int bad = compare_sweep_parse(sweeps, nsweeps, answers, &sweep, err, sizeof err);
        if (bad) {
            free(t);
            return bad == 2 ? cli_usage_error("recommend", "%s", err) : (cli_error("%s", err), EXIT_INPUT);
        }
        status = compare_sweep_run(akb, answers, hw, prices, &sweep, t, err, sizeof err);
    } else {
        status = compare_hardware(akb, answers, prices, t, err, sizeof err);
    }
    int rc = EXIT_OK;
    if (status != KB_OK) {
        cli_error("%s", err);
        rc = cli_exit_from_kb(status);
    } else {
        rc = write_documents(t, nsweeps > 0, json, html);
        if (rc == EXIT_OK && !json && !(html && strcmp(html, "-") == 0)) print_text(t, answers, nsweeps > 0, bold);
    }
    free(t);
    return rc;
}
