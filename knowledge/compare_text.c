/* The words and cells of a comparison, shared by the command line and the interface. */
#include "knowledge/compare_text.h"
#include "common/i18n.h"
#include "common/units.h"
#include "knowledge/answer_keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void compare_columns(const struct compare_table *t, int sweep, struct text_column out[COMPARE_CELLS])
{
    static const struct text_column train_cols[COMPARE_CELLS] = {
        {N_("ACCELERATOR"), 0, 0}, {N_("DEVICES"), 0, 1},   {"TPxPPxDP", 0, 0}, {N_("MEMORY"), 0, 1},
        {N_("TIME"), 0, 1},        {N_("DEV-HOURS"), 0, 1}, {N_("COST"), 0, 1}};
    static const struct text_column serve_cols[COMPARE_CELLS] = {
        {N_("ACCELERATOR"), 0, 0}, {N_("DEVICES"), 0, 1},   {N_("LAYOUT"), 0, 0}, {N_("MEMORY"), 0, 1},
        {N_("TOKENS/S"), 0, 1},    {N_("COST/HOUR"), 0, 1}, {N_("COST/1M TOK"), 0, 1}};
    memcpy(out, t->serve ? serve_cols : train_cols, sizeof train_cols);
    for (int i = 0; i < COMPARE_CELLS; i++) out[i].header = _(out[i].header); /* the headings shown */
    if (sweep) out[CC_WHAT].header = t->keys;
    if (sweep && !t->serve) out[CC_DEVHOURS].header = "MFU";
}

static void money(double v, char *out, size_t n)
{
    if (isnan(v)) snprintf(out, n, "-");
    else units_thousands(v, v < 100 ? 2 : 0, out, n);
}

void compare_row_cells(const struct compare_row *row, int sweep, struct compare_cells *out)
{
    char *c[COMPARE_CELLS];
    const size_t w = sizeof out->c[0];
    for (int i = 0; i < COMPARE_CELLS; i++) c[i] = out->c[i];
    if (sweep) { /* the values alone: "devices=8 precision=fp8" as "8 fp8" */
        size_t used = 0;
        char copy[sizeof row->label];
        snprintf(copy, sizeof copy, "%s", row->label);
        c[CC_WHAT][0] = '\0';
        for (char *save = NULL, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            const char *eq = strchr(tok, '=');
            used += (size_t)snprintf(c[CC_WHAT] + used, used < w ? w - used : 0, "%s%s", used ? " " : "", eq ? eq + 1 : tok);
        }
    } else {
        snprintf(c[CC_WHAT], w, "%s", row->accelerator);
    }
    units_thousands(row->devices, 0, c[CC_DEVICES], w);
    if (row->serve) snprintf(c[CC_LAYOUT], w, "tp%d pp%d", row->tp, row->pp);
    else if (row->layout.ep > 1)
        snprintf(c[CC_LAYOUT], w, "%dx%dx%d ep%d", row->layout.tp, row->layout.pp, row->layout.dp, row->layout.ep);
    else snprintf(c[CC_LAYOUT], w, "%dx%dx%d", row->layout.tp, row->layout.pp, row->layout.dp);
    if (isnan(row->memory_gb)) snprintf(c[CC_MEMORY], w, "-");
    else snprintf(c[CC_MEMORY], w, "%.0f/%.0f GB%s", row->memory_gb, row->usable_gb, row->fits ? "" : " NO");
    if (row->serve) {
        if (isnan(row->tokens_per_s)) snprintf(c[CC_TIME], w, "-");
        else units_thousands(row->tokens_per_s, 0, c[CC_TIME], w);
        money(row->cost_per_hour, c[CC_DEVHOURS], w);
        money(row->cost_per_hour / (row->tokens_per_s * 3600) * 1e6, c[CC_COST], w);
        return;
    }
    if (isnan(row->hours)) snprintf(c[CC_TIME], w, "-");
    else units_hours_text(row->hours, c[CC_TIME], w);
    if (sweep && isnan(row->mfu)) snprintf(c[CC_DEVHOURS], w, "-");
    else if (sweep) snprintf(c[CC_DEVHOURS], w, "%.0f%%", 100 * row->mfu);
    else if (isnan(row->device_hours)) snprintf(c[CC_DEVHOURS], w, "-");
    else units_thousands(row->device_hours, 0, c[CC_DEVHOURS], w);
    money(row->cost, c[CC_COST], w);
}

void compare_heading(const struct compare_table *t, const struct answers *a, int sweep, char *out, size_t n)
{
    const char *priority = answers_str(a, ANS_PRIORITY);
    if (sweep)
        snprintf(out, n, _("What-if sweep: the plan's figures for each value, in the order given%s"),
                 t->serve ? _(" (serving: decode tokens a second)") : "");
    else
        snprintf(out, n, _("Hardware for this job, sorted by %s (priority %s)%s"),
                 t->serve ? (t->sort == COMPARE_BY_COST ? _("cost per token") : _("decode throughput"))
                          : t->sort == COMPARE_BY_COST ? _("cost") : _("time"),
                 priority ? priority : "iteration", t->serve ? _("; serving, the fewest devices that hold the model") : "");
}

void compare_notes(const struct compare_table *t, int sweep, void (*line)(void *ctx, const char *text), void *ctx)
{
    char text[2048], missing[1024] = "";
    size_t used = 0;
    int answer = 0;
    if (!sweep && !t->serve) line(ctx, _("Counts: the fewest devices that fit, then twice and four times as many."));
    /* The prices the rows used, each once, and the accelerators without one. */
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
        snprintf(text, sizeof text, _("Price of %s: %g a device-hour (%s)."), row->accelerator, row->price.usd, who);
        line(ctx, text);
    }
    if (answer) line(ctx, _("Price: your price_per_device_hour for every device."));
    if (missing[0]) {
        snprintf(text, sizeof text,
                 _("No price for %s: cost left out (set price_per_device_hour, pass --prices FILE, add [prices] to the "
                   "config file, or kb import prices)."),
                 missing);
        line(ctx, text);
    }
}

const char *compare_refused_title(int sweep) { return sweep ? _("Values that cannot run the job:") : _("Cannot run this job:"); }

const char *compare_row_subject(const struct compare_row *row, int sweep)
{
    return sweep ? row->label : row->accelerator[0] ? row->accelerator : "-";
}

void compare_truncated(char *out, size_t n) { snprintf(out, n, _("(more rows than %d: the rest are left out)"), COMPARE_MAX_ROWS); }
