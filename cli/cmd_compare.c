/* recommend --compare-hardware and --sweep: the tables of variants of one plan. */
#include "cli/cmd_compare.h"
#include "cli/cli.h"
#include "common/text.h"
#include "common/units.h"
#include "knowledge/report_html.h"

#include <limits.h>
#include <math.h>
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

/* A row's cells: what it runs on, the devices, the layout, memory, time, device-hours, cost. */
#define NCELLS 7
struct cells {
    char c[NCELLS][48];
};

static void money(double v, char *out, size_t n)
{
    if (isnan(v)) snprintf(out, n, "-");
    else units_thousands(v, v < 100 ? 2 : 0, out, n);
}

static void row_cells(const struct compare_row *row, int sweep, struct cells *out)
{
    char *c[NCELLS];
    for (int i = 0; i < NCELLS; i++) c[i] = out->c[i];
    if (sweep) { /* the values alone: "devices=8 precision=fp8" as "8 fp8" */
        size_t used = 0;
        char copy[sizeof row->label];
        snprintf(copy, sizeof copy, "%s", row->label);
        c[0][0] = '\0';
        for (char *save = NULL, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            const char *eq = strchr(tok, '=');
            used += (size_t)snprintf(c[0] + used, used < 48 ? 48 - used : 0, "%s%s", used ? " " : "", eq ? eq + 1 : tok);
        }
    } else {
        snprintf(c[0], 48, "%s", row->accelerator);
    }
    units_thousands(row->devices, 0, c[1], 48);
    if (row->serve) snprintf(c[2], 48, "tp%d pp%d", row->tp, row->pp);
    else if (row->layout.ep > 1) snprintf(c[2], 48, "%dx%dx%d ep%d", row->layout.tp, row->layout.pp, row->layout.dp, row->layout.ep);
    else snprintf(c[2], 48, "%dx%dx%d", row->layout.tp, row->layout.pp, row->layout.dp);
    if (isnan(row->memory_gb)) snprintf(c[3], 48, "-");
    else snprintf(c[3], 48, "%.0f/%.0f GB%s", row->memory_gb, row->usable_gb, row->fits ? "" : " NO");
    if (row->serve) {
        if (isnan(row->tokens_per_s)) snprintf(c[4], 48, "-");
        else units_thousands(row->tokens_per_s, 0, c[4], 48);
        money(row->cost_per_hour, c[5], 48);
        double per_m = row->cost_per_hour / (row->tokens_per_s * 3600) * 1e6;
        money(per_m, c[6], 48);
        return;
    }
    if (isnan(row->hours)) snprintf(c[4], 48, "-");
    else units_hours(row->hours, c[4], 48);
    if (sweep && isnan(row->mfu)) snprintf(c[5], 48, "-");
    else if (sweep) snprintf(c[5], 48, "%.0f%%", 100 * row->mfu);
    else if (isnan(row->device_hours)) snprintf(c[5], 48, "-");
    else units_thousands(row->device_hours, 0, c[5], 48);
    money(row->cost, c[6], 48);
}

/* The prices the rows used, each once, and the accelerators without one. */
static void print_prices(const struct compare_table *t)
{
    char line[2048], missing[1024] = "";
    size_t used = 0;
    int answer = 0;
    for (int i = 0; i < t->count; i++) {
        const struct compare_row *row = &t->rows[i];
        if (row->refusal != COMPARE_RUNS) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = t->rows[j].refusal == COMPARE_RUNS && strcmp(t->rows[j].accelerator, row->accelerator) == 0;
        if (seen) continue;
        if (row->price.from == PRICE_ANSWER) {
            answer = 1;
            continue;
        }
        if (row->price.from == PRICE_NONE) {
            if (used < sizeof missing)
                used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", row->accelerator);
            continue;
        }
        char who[256];
        compare_price_text(&row->price, who, sizeof who);
        snprintf(line, sizeof line, "Price of %s: %g a device-hour (%s).", row->accelerator, row->price.usd, who);
        text_wrap(stdout, line, 0, 2);
    }
    if (answer) text_wrap(stdout, "Price: your price_per_device_hour for every device.", 0, 2);
    if (missing[0]) {
        snprintf(line, sizeof line,
                 "No price for %s: cost left out (set price_per_device_hour, pass --prices FILE, add [prices] to the config "
                 "file, or kb import prices).",
                 missing);
        text_wrap(stdout, line, 0, 2);
    }
}

static void print_refused(const struct compare_table *t, int sweep)
{
    int any = 0;
    for (int i = 0; i < t->count; i++) {
        const struct compare_row *row = &t->rows[i];
        if (row->refusal == COMPARE_RUNS) continue;
        if (!any++) fputs(sweep ? "\nValues that cannot run the job:\n" : "\nCannot run this job:\n", stdout);
        char line[1400];
        snprintf(line, sizeof line, "%s: %s", sweep ? row->label : row->accelerator[0] ? row->accelerator : "-", row->why);
        printf("  ");
        text_wrap(stdout, line, 2, 4);
    }
}

static void print_table(const struct compare_table *t, int sweep, int bold)
{
    static const struct text_column train_cols[NCELLS] = {
        {"ACCELERATOR", 0, 0}, {"DEVICES", 0, 1}, {"TPxPPxDP", 0, 0}, {"MEMORY", 0, 1},
        {"TIME", 0, 1},        {"DEV-HOURS", 0, 1}, {"COST", 0, 1}};
    static const struct text_column serve_cols[NCELLS] = {
        {"ACCELERATOR", 0, 0}, {"DEVICES", 0, 1}, {"LAYOUT", 0, 0}, {"MEMORY", 0, 1},
        {"TOKENS/S", 0, 1},    {"COST/HOUR", 0, 1}, {"COST/1M TOK", 0, 1}};
    struct text_column cols[NCELLS];
    memcpy(cols, t->serve ? serve_cols : train_cols, sizeof cols);
    if (sweep) cols[0].header = t->keys;
    if (sweep && !t->serve) cols[5].header = "MFU";
    struct cells *cells = calloc((size_t)t->count + 1, sizeof *cells);
    const char **ptrs = calloc((size_t)(t->count + 1) * NCELLS, sizeof *ptrs);
    int n = 0;
    for (int i = 0; cells && ptrs && i < t->count; i++) {
        if (t->rows[i].refusal != COMPARE_RUNS) continue;
        row_cells(&t->rows[i], sweep, &cells[n]);
        for (int c = 0; c < NCELLS; c++) ptrs[n * NCELLS + c] = cells[n].c[c];
        n++;
    }
    if (n) text_table(stdout, cols, NCELLS, ptrs, n, bold);
    else fputs("  (no variant runs the job)\n", stdout);
    free(cells);
    free((void *)ptrs);
}

static void print_text(const struct compare_table *t, const struct answers *a, int sweep, int bold)
{
    char line[512];
    const char *priority = answers_str(a, ANS_PRIORITY);
    if (sweep)
        snprintf(line, sizeof line, "What-if sweep: the plan's figures for each value, in the order given%s",
                 t->serve ? " (serving: decode tokens a second)" : "");
    else
        snprintf(line, sizeof line, "Hardware for this job, sorted by %s (priority %s)%s",
                 t->serve ? (t->sort == COMPARE_BY_COST ? "cost per token" : "decode throughput")
                          : t->sort == COMPARE_BY_COST ? "cost" : "time",
                 priority ? priority : "iteration", t->serve ? "; serving, the fewest devices that hold the model" : "");
    fputs(bold ? "\033[1m" : "", stdout);
    text_wrap(stdout, line, 0, 2);
    fputs(bold ? "\033[0m" : "", stdout);
    print_table(t, sweep, bold);
    putchar('\n');
    if (!sweep && !t->serve)
        text_wrap(stdout, "Counts: the fewest devices that fit, then twice and four times as many.", 0, 2);
    print_prices(t);
    print_refused(t, sweep);
    if (t->truncated) printf("\n(more rows than %d: the rest are left out)\n", COMPARE_MAX_ROWS);
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
        rc = adv_compare_html(doc, &page) ? (cli_error("out of memory"), EXIT_RUNTIME) : cli_write_html(html, &page);
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
