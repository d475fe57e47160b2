/* The recommendation report as a page (report_html.h). Sections follow the document: the
 * answers, the ranking with each framework's reasons, the comparison, the distributed strategy,
 * memory, time and cost, the inference plan and the measured figures when present, deployment,
 * pitfalls, assumptions and the sources. */
#include "knowledge/report_html.h"
#include "common/i18n.h"
#include "common/json_doc.h"
#include "common/units.h"
#include "knowledge/launch_files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cJSON *get(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

/* A number as text, "-" when absent. */
static const char *fmt(double v, char *out, size_t n)
{
    return units_number(v, out, n);
}

/* The source ids of an item as links to the list of sources at the end of the page. */
static void source_links(struct html *h, const cJSON *item)
{
    const cJSON *s;
    int first = 1;
    cJSON_ArrayForEach(s, get(item, "sources")) {
        if (!cJSON_IsString(s)) continue;
        html_raw(h, first ? "" : ", ");
        html_raw(h, "<a href=\"#src-");
        html_text(h, s->valuestring);
        html_raw(h, "\">");
        html_text(h, s->valuestring);
        html_raw(h, "</a>");
        first = 0;
    }
}

/* A section and its heading, a second-level heading, a note: the words in the chosen language
 * (common/i18n.h), the markup around them the page's own; a table heading is given translated
 * (a word that reads two ways has its context, C_). */
static void section(struct html *h, const char *id, const char *title)
{
    html_rawf(h, "<section id=\"%s\"><h2>", id);
    html_text(h, _(title));
    html_raw(h, "</h2>\n");
}

static void h3(struct html *h, const char *title)
{
    html_raw(h, "<h3>");
    html_text(h, _(title));
    html_raw(h, "</h3>\n");
}

static void note(struct html *h, const char *text)
{
    html_raw(h, "<p class=\"note\">");
    html_text(h, _(text));
    html_raw(h, "</p>\n");
}

static void th(struct html *h, const char *cls, const char *text)
{
    if (cls) html_rawf(h, "<th class=\"%s\">", cls);
    else html_raw(h, "<th>");
    html_text(h, text);
    html_raw(h, "</th>");
}

/* Reasons as a table: signed points (when with_delta), the text, the sources. */
static void reasons_table(struct html *h, const cJSON *reasons, int with_delta)
{
    if (!cJSON_GetArraySize(reasons)) return;
    html_raw(h, "<table class=\"reasons\"><thead><tr>");
    if (with_delta) th(h, "n", _("points"));
    th(h, NULL, C_("column", "reason"));
    th(h, NULL, _("sources"));
    html_raw(h, "</tr></thead><tbody>");
    const cJSON *r;
    cJSON_ArrayForEach(r, reasons) {
        html_raw(h, "<tr>");
        if (with_delta) {
            double d = json_num(r, "delta");
            char n[32];
            html_rawf(h, "<td class=\"n\">%s", d > 0 ? "+" : "");
            html_raw(h, fmt(d, n, sizeof n));
            html_raw(h, "</td>");
        }
        html_elem(h, "td", json_str(r, "text"));
        html_raw(h, "<td>");
        source_links(h, r);
        html_raw(h, "</td></tr>");
    }
    html_raw(h, "</tbody></table>\n");
}

static void card(struct html *h, const char *label, const char *value, const char *detail)
{
    html_raw(h, "<div class=\"card\"><span>");
    html_text(h, _(label));
    html_raw(h, "</span><b>");
    html_text(h, value);
    html_raw(h, "</b><span>");
    html_text(h, detail);
    html_raw(h, "</span></div>");
}

/* 1 when the report plans serving only (plan.training.planned false): no training plan to draw. */
static int serving_only(const cJSON *doc) { return cJSON_IsFalse(get(get(get(doc, "plan"), "training"), "planned")); }

static void summary(struct html *h, const cJSON *doc)
{
    const cJSON *top = cJSON_GetArrayItem(get(doc, "ranking"), 0), *plan = get(doc, "plan");
    const cJSON *mem = get(plan, "memory"), *time = get(plan, "time");
    char a[32], b[64], line[256];
    html_raw(h, "<div class=\"cards\">");
    snprintf(line, sizeof line, _("score %s of 100"), fmt(json_num(top, "score"), a, sizeof a));
    card(h, N_("Framework"), json_str(top, "name"), line);
    if (serving_only(doc)) {
        card(h, N_("Deployment"), json_str(get(doc, "deployment"), "name"), json_str(get(doc, "deployment"), "runtime"));
        card(h, N_("Training"), _("none planned"), json_str(get(plan, "training"), "reason"));
        html_raw(h, "</div>\n");
        return;
    }
    card(h, N_("Distributed training"), json_str(get(doc, "distributed"), "name"), json_str(get(doc, "distributed"), "strategy"));
    card(h, N_("Deployment"), json_str(get(doc, "deployment"), "name"), json_str(get(doc, "deployment"), "runtime"));
    double usable = json_num(mem, "usable_gb");
    if (isnan(usable)) usable = json_num(mem, "device_memory_gb");
    snprintf(line, sizeof line, _("%s GB of %s GB per device"), fmt(json_num(mem, "total_gb_per_device"), a, sizeof a),
             fmt(usable, b, sizeof b));
    card(h, N_("Memory"), cJSON_IsTrue(get(mem, "fits")) ? _("fits") : _("does not fit"), line);
    double hours = json_num(time, "hours");
    snprintf(line, sizeof line, _("%s device-hours"), fmt(json_num(time, "device_hours"), a, sizeof a));
    snprintf(b, sizeof b, "%s h", fmt(hours, a, sizeof a));
    card(h, N_("Training time"), isnan(hours) ? _("not planned") : b, isnan(hours) ? _("tokens or a peak missing") : line);
    double cost = json_num(time, "cost");
    snprintf(line, sizeof line, _("at %s per device-hour"), fmt(json_num(get(doc, "answers"), "price_per_device_hour"), a, sizeof a));
    card(h, N_("Cost"), isnan(cost) ? _("not planned") : fmt(cost, b, sizeof b), isnan(cost) ? _("no price_per_device_hour") : line);
    html_raw(h, "</div>\n");
}

static void answers(struct html *h, const cJSON *doc)
{
    section(h, "answers", N_("Answers"));
    note(h, N_("Every answer (the keys of --set and answer files) with the value used, defaults filled; a dash where none "
               "applies."));
    html_raw(h, "<dl class=\"kv two\">");
    const cJSON *a;
    cJSON_ArrayForEach(a, get(doc, "answers")) {
        html_elem(h, "dt", a->string);
        html_raw(h, "<dd>");
        html_json(h, a);
        html_raw(h, "</dd>");
    }
    html_raw(h, "</dl>\n");
    const cJSON *hw = get(doc, "hardware");
    h3(h, N_("Hardware"));
    html_raw(h, "<p>");
    html_textf(h, _("%s (source: %s). Device memory: %s."), json_str(hw, "note"), json_str(hw, "source"),
               json_str(hw, "device_memory_source"));
    html_raw(h, "</p></section>\n");
}

/* The first words of a reason, up to its colon (or a Chinese one, U+FF1A), as a chart label;
 * whole UTF-8 characters. */
static void short_reason(const char *text, char *out, size_t n)
{
    size_t len = strcspn(text, ":");
    const char *wide = strstr(text, "\xef\xbc\x9a");
    if (wide && (size_t)(wide - text) < len) len = (size_t)(wide - text);
    if (len >= n) len = n - 1;
    while (len > 0 && len < strlen(text) && ((unsigned char)text[len] & 0xC0) == 0x80) len--;
    snprintf(out, n, "%.*s", (int)len, text);
}

static void ranking(struct html *h, const cJSON *doc)
{
    const cJSON *rk = get(doc, "ranking"), *f;
    int n = cJSON_GetArraySize(rk), i = 0;
    struct html_bar *bars = calloc((size_t)(n > 0 ? n : 1), sizeof *bars);
    char (*ptr)[48] = calloc((size_t)(n > 0 ? n : 1), sizeof *ptr);
    if (!bars || !ptr) {
        free(bars), free(ptr);
        h->failed = 1;
        return;
    }
    cJSON_ArrayForEach(f, rk) {
        int excluded = cJSON_IsTrue(get(f, "excluded"));
        snprintf(ptr[i], sizeof ptr[i], "/ranking/%d/score", i);
        bars[i] = (struct html_bar){json_str(f, "name"), excluded ? NAN : json_num(f, "score"), NAN, NAN, NAN,
                                    excluded ? _("excluded") : NULL, excluded ? NULL : ptr[i], 0, i == 0 ? 0 : 4};
        i++;
    }
    section(h, "ranking", N_("Ranking"));
    struct html_chart c = {_("Frameworks ranked for these answers"), _("score (points of 100)"), 0, 100, 0, 0, "ranking-chart"};
    html_bar_chart(h, &c, bars, n, NULL, 0);
    free(bars);
    free(ptr);
    note(h, N_("Each score is the sum of its signed reasons; open a framework for them and their sources."));
    i = 0;
    cJSON_ArrayForEach(f, rk) {
        const cJSON *reasons = get(f, "reasons"), *r;
        int nr = cJSON_GetArraySize(reasons), j = 0;
        double total = 0; /* the running sum: each reason's bar starts where the last one ended */
        char score[32];
        html_rawf(h, "<details id=\"why-%d\"%s><summary>", i, i == 0 ? " open" : "");
        if (cJSON_IsTrue(get(f, "excluded"))) html_textf(h, _("%s: excluded"), json_str(f, "name"));
        else html_textf(h, _("#%d %s: %s points from %d reasons"), i + 1, json_str(f, "name"),
                        fmt(json_num(f, "score"), score, sizeof score), nr);
        html_raw(h, "</summary>\n");
        struct html_bar *rb = calloc((size_t)(nr > 0 ? nr : 1), sizeof *rb);
        char (*labels)[64] = calloc((size_t)(nr > 0 ? nr : 1), sizeof *labels);
        char (*rp)[64] = calloc((size_t)(nr > 0 ? nr : 1), sizeof *rp);
        if (!rb || !labels || !rp) {
            free(rb), free(labels), free(rp);
            h->failed = 1;
            return;
        }
        cJSON_ArrayForEach(r, reasons) {
            short_reason(json_str(r, "text"), labels[j], sizeof labels[j]);
            snprintf(rp[j], sizeof rp[j], "/ranking/%d/reasons/%d/delta", i, j);
            double d = json_num(r, "delta");
            rb[j] = (struct html_bar){labels[j], d, NAN, NAN, total, NULL, rp[j], 0, d < 0 ? 5 : 2};
            total += isfinite(d) ? d : 0;
            j++;
        }
        if (!cJSON_IsTrue(get(f, "excluded")) && nr > 0) {
            char title[160];
            snprintf(title, sizeof title, _("%s: the score built from its reasons (+ for, - against)"), json_str(f, "name"));
            struct html_chart rc = {title, _("score (points of 100), each bar starting where the last ended"), 0, 100, 0, 1, NULL};
            html_bar_chart(h, &rc, rb, nr, NULL, 0);
        }
        free(rb), free(labels), free(rp);
        reasons_table(h, reasons, 1);
        html_raw(h, "</details>\n");
        i++;
    }
    html_raw(h, "</section>\n");
}

/* The comparison: criteria down, frameworks (in ranking order) across, the best score bold. */
static void comparison(struct html *h, const cJSON *doc)
{
    const cJSON *weights = get(doc, "weights"), *w, *f;
    if (!cJSON_GetArraySize(weights)) return;
    html_raw(h, "<section id=\"comparison\"><h2>Comparison</h2>\n<p class=\"note\">The knowledge base's score of each "
                "framework on each criterion (0-10) and the weight these answers gave the criterion; the best "
                "score of a row is bold, a dash where the table has none (hardware fit is scored from the support "
                "of the answered hardware: see each framework's reasons).</p>\n<table><thead><tr><th>criterion</th><th class=\"n\">weight</th>");
    cJSON_ArrayForEach(f, get(doc, "ranking")) {
        html_raw(h, "<th class=\"n\">");
        html_text(h, json_str(f, "name"));
        html_raw(h, "</th>");
    }
    html_raw(h, "</tr></thead><tbody>\n");
    cJSON_ArrayForEach(w, weights) {
        const cJSON *scores = get(w, "scores");
        double best = -1;
        cJSON_ArrayForEach(f, get(doc, "ranking")) best = fmax(best, json_num(scores, json_str(f, "framework")));
        char n[32];
        html_raw(h, "<tr>");
        html_elem(h, "td", json_str(w, "name"));
        html_raw(h, "<td class=\"n\">");
        html_raw(h, fmt(json_num(w, "weight"), n, sizeof n));
        html_raw(h, "</td>");
        cJSON_ArrayForEach(f, get(doc, "ranking")) {
            double s = json_num(scores, json_str(f, "framework"));
            html_raw(h, !isnan(s) && s == best ? "<td class=\"n good\">" : "<td class=\"n\">");
            html_raw(h, fmt(s, n, sizeof n));
            html_raw(h, "</td>");
        }
        html_raw(h, "</tr>\n");
    }
    html_raw(h, "</tbody></table></section>\n");
}

static void strategy(struct html *h, const cJSON *doc)
{
    const cJSON *d = get(doc, "distributed"), *mem = get(get(doc, "plan"), "memory"), *lay = get(mem, "layout");
    char tp[16], pp[16], dp[16], ep[16], n[32];
    section(h, "strategy", N_("Distributed training"));
    html_raw(h, "<p><b>");
    html_text(h, json_str(d, "name"));
    html_raw(h, "</b> (");
    html_text(h, json_str(d, "strategy"));
    html_raw(h, ")</p>\n");
    html_raw(h, "<p>");
    html_text(h, _("Layout: "));
    html_raw(h, "<b>");
    /* TRANSLATORS: the numbers of tensor, pipeline and data-parallel ranks */
    html_textf(h, _("%s tensor \u00d7 %s pipeline \u00d7 %s data parallel"), fmt(json_num(lay, "tp"), tp, sizeof tp),
               fmt(json_num(lay, "pp"), pp, sizeof pp), fmt(json_num(lay, "dp"), dp, sizeof dp));
    html_raw(h, "</b>");
    if (json_num(lay, "ep") > 1) html_textf(h, _(", %s expert-parallel ranks"), fmt(json_num(lay, "ep"), ep, sizeof ep));
    if (json_num(lay, "virtual_stages") > 1) html_textf(h, _(", %s virtual stages"), fmt(json_num(lay, "virtual_stages"), n, sizeof n));
    if (cJSON_IsTrue(get(lay, "uneven_stages"))) html_text(h, _(", uneven stages"));
    html_textf(h, _("; %s micro-batches per step and data-parallel rank"), fmt(json_num(lay, "micro_batches"), n, sizeof n));
    if (!isnan(json_num(lay, "batch_tokens"))) html_textf(h, _(", %s tokens a step"), fmt(json_num(lay, "batch_tokens"), n, sizeof n));
    html_text(h, _("."));
    html_raw(h, "</p>\n");
    reasons_table(h, get(d, "reasons"), 0);
    const cJSON *alt;
    html_raw(h, "<p>");
    html_text(h, _("Alternatives: "));
    int first = 1;
    cJSON_ArrayForEach(alt, get(d, "alternatives")) {
        html_raw(h, first ? "" : ", ");
        html_text(h, cJSON_IsString(alt) ? alt->valuestring : "");
        first = 0;
    }
    html_text(h, first ? _("none.") : _("."));
    html_raw(h, "</p>\n");
    html_raw(h, "</section>\n");
}

static void memory(struct html *h, const cJSON *doc)
{
    const cJSON *mem = get(get(doc, "plan"), "memory"), *lay = get(mem, "layout");
    double dev = json_num(mem, "device_memory_gb"), usable = json_num(mem, "usable_gb"), head = json_num(mem, "headroom_gb");
    int fits = cJSON_IsTrue(get(mem, "fits"));
    struct html_part parts[4] = {
        {_("model states (weights, gradients, optimizer)"), json_num(mem, "model_states_gb_per_device"), "/plan/memory/model_states_gb_per_device", 0},
        {_("activations"), json_num(mem, "activations_gb_per_device"), "/plan/memory/activations_gb_per_device", 1},
        {_("buffers"), json_num(mem, "buffers_gb_per_device"), "/plan/memory/buffers_gb_per_device", 3},
        {_("headroom"), head, "/plan/memory/headroom_gb", 6},
    };
    int nparts = !isnan(head) && head > 0 ? 4 : 3;
    char a[32], b[32], label[256], title[256];
    section(h, "memory", N_("Memory per device"));
    double devices = json_num(lay, "tp") * json_num(lay, "pp") * json_num(lay, "dp");
    if (devices == 1) snprintf(label, sizeof label, _("the one device (%s)"), json_str(mem, "strategy"));
    else snprintf(label, sizeof label, _("each of the %s devices (%s)"), fmt(devices, a, sizeof a), json_str(mem, "strategy"));
    snprintf(title, sizeof title, _("Memory of one device: %s GB planned%s"), fmt(json_num(mem, "total_gb_per_device"), a, sizeof a),
             isnan(dev) ? "" : fits ? _(", fits") : _(", does not fit"));
    struct html_chart c = {title, _("GB (10^9 bytes) per device"), 0, 0, 0, 0, "memory-chart"};
    int capped = !isnan(usable) && !isnan(dev) && usable < dev;
    html_stacked_bar(h, &c, label, parts, nparts, isnan(usable) ? 0 : usable, capped ? _("usable") : _("device memory"),
                     capped ? "/plan/memory/usable_gb" : "/plan/memory/device_memory_gb", "GB");
    if (isnan(dev)) {
        html_raw(h, "<p><b>");
        html_text(h, _("Device memory unknown:"));
        html_raw(h, "</b> ");
        html_text(h, _("the plan cannot say whether it fits."));
        html_raw(h, "</p>\n");
    } else {
        html_raw(h, fits ? "<p class=\"good\">" : "<p class=\"bad\">");
        if (fits) html_textf(h, _("Fits: %s GB left of %s GB usable."), fmt(head, a, sizeof a), fmt(usable, b, sizeof b));
        else html_textf(h, _("Does not fit: %s GB needed, %s GB usable (at least 10%% must stay free)."),
                        fmt(json_num(mem, "total_gb_per_device"), a, sizeof a), fmt(usable, b, sizeof b));
        html_raw(h, "</p>\n");
    }
    h3(h, N_("Buffers"));
    html_json(h, get(mem, "buffers"));
    html_raw(h, "<p class=\"note\">");
    html_textf(h, _("Activations: %s (%s). Recomputation: %s."), json_str(mem, "activations_note"), json_str(mem, "activations_mode"),
               json_str(mem, "recompute"));
    html_raw(h, "</p>\n");
    if (json_num(mem, "cpu_gb_per_node") > 0) {
        html_raw(h, "<p>");
        html_textf(h, _("Offload needs %s GB of host memory per node"), fmt(json_num(mem, "cpu_gb_per_node"), a, sizeof a));
        if (!isnan(json_num(mem, "host_memory_gb_per_node"))) {
            html_textf(h, _(" of %s GB: "), fmt(json_num(mem, "host_memory_gb_per_node"), b, sizeof b));
            if (cJSON_IsTrue(get(mem, "host_fits"))) html_text(h, _("fits"));
            else {
                html_raw(h, "<b>");
                html_text(h, _("does not fit"));
                html_raw(h, "</b>");
            }
        }
        html_text(h, _("."));
        html_raw(h, "</p>\n");
    }
    if (json_num(mem, "optimizer_paged_gb") > 0) {
        html_raw(h, "<p>");
        html_textf(h, _("A paged optimizer moves %s GB of the adapters' optimizer states to host memory at the peaks; "
                        "those steps run slower."),
                   fmt(json_num(mem, "optimizer_paged_gb"), a, sizeof a));
        html_raw(h, "</p>\n");
    }
    if (!isnan(json_num(mem, "fit_devices"))) {
        html_raw(h, "<p>");
        html_text(h, _("The fewest devices that would fit: "));
        html_raw(h, "<b>");
        html_text(h, fmt(json_num(mem, "fit_devices"), a, sizeof a));
        html_raw(h, "</b>");
        html_text(h, _("."));
        html_raw(h, "</p>\n");
    }
    if (cJSON_GetArraySize(get(mem, "remedies"))) {
        h3(h, N_("What else would help"));
        html_raw(h, "<ul>");
        const cJSON *r;
        cJSON_ArrayForEach(r, get(mem, "remedies")) html_elem(h, "li", cJSON_IsString(r) ? r->valuestring : "");
        html_raw(h, "</ul>\n");
    }
    html_raw(h, "</section>\n");
}

static void time_cost(struct html *h, const cJSON *doc)
{
    const cJSON *t = get(get(doc, "plan"), "time"), *ans = get(doc, "answers");
    section(h, "time", N_("Time and cost"));
    double hours = json_num(t, "hours");
    if (isnan(hours)) {
        html_raw(h, "<p>");
        html_text(h, _("Not planned: "));
        html_text(h, isnan(json_num(ans, "tokens")) ? _("give tokens (samples x steps) to plan training time")
                                                    : _("no peak throughput is known for this hardware"));
        html_text(h, _("."));
        html_raw(h, "</p></section>\n");
        return;
    }
    char a[32], b[32], c[32], d[32], e[32];
    double comm = json_num(t, "communication_hours");
    struct html_part parts[4] = {
        {_("compute"), json_num(t, "compute_hours"), "/plan/time/compute_hours", 0},
        {isnan(comm) ? _("communication (not estimated)") : _("communication exposed"), comm, isnan(comm) ? NULL : "/plan/time/communication_hours", 1},
        {_("pipeline bubble"), json_num(t, "bubble_hours"), "/plan/time/bubble_hours", 2},
        {_("interruptions"), json_num(t, "lost_hours"), "/plan/time/lost_hours", 5},
    };
    char title[160];
    snprintf(title, sizeof title, _("Wall-clock time of the run: %s hours"), fmt(hours, a, sizeof a));
    struct html_chart ch = {title, _("hours"), 0, 0, 0, 0, "time-chart"};
    html_stacked_bar(h, &ch, _("the whole run, split"), parts, 4, 0, NULL, NULL, "h");
    double devices = json_num(ans, "devices"), flops = json_num(t, "total_flops"), recompute = json_num(t, "recompute_flops");
    double peak = json_num(t, "peak_tflops_per_device"), eff = json_num(t, "efficiency");
    double work = flops + (isnan(recompute) ? 0 : recompute), check = work / (devices * peak * 1e12 * eff * 3600);
    html_raw(h, "<div class=\"formula\">");
    html_raw(h, "compute = (model FLOPs + recomputed FLOPs) / (devices &#215; dense peak &#215; efficiency)\n");
    html_rawf(h, "        = (%s + %s) / (%s &#215; %s TFLOP/s &#215; %s) = ", fmt(flops, a, sizeof a),
              fmt(isnan(recompute) ? 0 : recompute, b, sizeof b), fmt(devices, c, sizeof c), fmt(peak, d, sizeof d),
              fmt(eff, e, sizeof e));
    html_rawf(h, "%s h", fmt(json_num(t, "compute_hours"), a, sizeof a));
    if (isfinite(check) && fabs(check - json_num(t, "compute_hours")) > 0.01 * check + 0.001)
        html_raw(h, " (at the precision's realised rate, not the dense peak)");
    html_raw(h, "\nhours   = compute + communication + bubble + interruptions");
    html_rawf(h, "\n        = %s + %s + %s + %s = %s h", fmt(json_num(t, "compute_hours"), a, sizeof a), fmt(comm, b, sizeof b),
              fmt(json_num(t, "bubble_hours"), c, sizeof c), fmt(json_num(t, "lost_hours"), d, sizeof d), fmt(hours, e, sizeof e));
    if (json_num(t, "scaling_efficiency") < 1)
        html_rawf(h, " (communication from the measured scaling efficiency %s)", fmt(json_num(t, "scaling_efficiency"), a, sizeof a));
    html_rawf(h, "\ndevice-hours = hours &#215; devices = %s &#215; %s = %s", fmt(hours, a, sizeof a), fmt(devices, b, sizeof b),
              fmt(json_num(t, "device_hours"), c, sizeof c));
    if (!isnan(json_num(t, "cost")))
        html_rawf(h, "\ncost    = device-hours &#215; price per device-hour = %s &#215; %s = %s", fmt(json_num(t, "device_hours"), a, sizeof a),
                  fmt(json_num(ans, "price_per_device_hour"), b, sizeof b), fmt(json_num(t, "cost"), c, sizeof c));
    html_rawf(h, "\nMFU     = model FLOPs / (devices &#215; peak &#215; wall time) = %s", fmt(json_num(t, "mfu"), a, sizeof a));
    html_raw(h, "</div>\n<ul class=\"note\">");
    html_raw(h, "<li>");
    html_text(h, _("Peak: "));
    html_text(h, json_str(t, "peak_source"));
    html_raw(h, "</li><li>");
    html_text(h, _("Efficiency: "));
    html_textf(h, _("%s of the peak while computing (%s)"), fmt(eff, a, sizeof a), json_str(t, "efficiency_source"));
    html_raw(h, "</li><li>");
    html_text(h, _("Communication: "));
    html_text(h, json_str(get(t, "communication"), "source"));
    html_raw(h, "</li><li>");
    html_text(h, _("Scaling: "));
    html_text(h, json_str(t, "scaling_source"));
    if (*json_str(t, "scaling_seed")) {
        html_raw(h, "</li><li>");
        html_text(h, json_str(t, "scaling_seed"));
    }
    html_raw(h, "</li></ul>\n</section>\n");
}

/* A member of the plan the page has no special drawing for (the inference plan, the measured
 * figures, and whatever is added later): its name and its content as it is. */
static void plan_member(struct html *h, const char *id, const char *title, const cJSON *v)
{
    if (!v || cJSON_IsNull(v)) return;
    html_rawf(h, "<section id=\"%s\"><h2>", id);
    html_text(h, title);
    html_raw(h, "</h2>\n");
    html_json(h, v);
    html_raw(h, "</section>\n");
}

/* The inference plan: the serving layout, a stacked memory bar per device, decode and prefill. */
static void inference(struct html *h, const cJSON *doc)
{
    const cJSON *inf = get(get(doc, "plan"), "inference"), *lay = get(inf, "layout"), *dev = get(inf, "device");
    const cJSON *per = get(inf, "per_device"), *dec = get(inf, "decode"), *pre = get(inf, "prefill"), *n;
    if (!cJSON_IsObject(inf)) return;
    char a[32], b[32], c[32], d[32], label[256], title[256];
    section(h, "inference", N_("Inference plan"));
    html_raw(h, "<p>");
    html_textf(h, _("Serving on %s x %s (tensor %s x pipeline %s), weights in %s, KV cache in %s: context %s tokens, %s "
                    "sequences at once."), fmt(json_num(lay, "devices"), a, sizeof a),
               *json_str(dev, "accelerator") ? json_str(dev, "accelerator") : json_str(dev, "hardware"),
               fmt(json_num(lay, "tensor_parallel"), b, sizeof b), fmt(json_num(lay, "pipeline_parallel"), c, sizeof c),
               json_str(inf, "precision"), json_str(inf, "kv_precision"), fmt(json_num(inf, "context"), d, sizeof d),
               fmt(json_num(inf, "batch"), label, sizeof label));
    html_raw(h, "</p>\n");
    double usable = json_num(dev, "usable_gb"), total = json_num(per, "total_gb");
    struct html_part parts[4] = {
        {_("weights"), json_num(per, "weights_gb"), "/plan/inference/per_device/weights_gb", 0},
        {_("KV cache"), json_num(per, "kv_cache_gb"), "/plan/inference/per_device/kv_cache_gb", 2},
        {_("overhead"), json_num(per, "overhead_gb"), "/plan/inference/per_device/overhead_gb", 3},
        {_("free"), usable - total, NULL, 6},
    };
    if (json_num(lay, "devices") == 1) snprintf(label, sizeof label, "%s", _("the one serving device"));
    else snprintf(label, sizeof label, _("each of the %s serving devices"), fmt(json_num(lay, "devices"), a, sizeof a));
    snprintf(title, sizeof title, _("Serving memory of one device: %s GB"), fmt(total, a, sizeof a));
    struct html_chart ch = {title, _("GB (10^9 bytes) per device"), 0, 0, 0, 0, "inference-chart"};
    html_stacked_bar(h, &ch, label, parts, usable > total ? 4 : 3, isnan(usable) ? 0 : usable, _("usable"),
                     "/plan/inference/device/usable_gb", "GB");
    const cJSON *fits = get(inf, "fits");
    html_raw(h, "<ul>");
    html_raw(h, cJSON_IsTrue(fits) ? "<li><b>" : cJSON_IsFalse(fits) ? "<li><b class=\"bad\">" : "<li>");
    html_text(h, cJSON_IsTrue(fits) ? _("Fits.") : cJSON_IsFalse(fits) ? _("Does not fit.") : _("Fit unknown."));
    if (cJSON_IsBool(fits)) html_raw(h, "</b>");
    html_textf(h, _(" The largest batch at this context: %s; the longest context at this batch: %s%s."),
               fmt(json_num(inf, "max_batch"), a, sizeof a), fmt(json_num(inf, "max_context"), b, sizeof b),
               cJSON_IsTrue(get(inf, "max_context_capped")) ? _(" (the model's position limit)") : "");
    html_raw(h, "</li><li>");
    html_textf(h, _("Decode: %s tokens/s in all, %s per sequence, a step of %s ms, bound by %s GB/s of memory bandwidth (%s)."),
               fmt(json_num(dec, "tokens_per_s"), a, sizeof a), fmt(json_num(dec, "tokens_per_s_per_sequence"), b, sizeof b),
               fmt(json_num(dec, "step_ms"), c, sizeof c), fmt(json_num(dec, "bandwidth_gbs"), d, sizeof d),
               *json_str(dec, "bandwidth_note") ? json_str(dec, "bandwidth_note") : json_str(dec, "bandwidth_source"));
    html_raw(h, "</li><li>");
    html_textf(h, _("Prefill: %s s for the batch, %s s a sequence, at %s TFLOP/s a device."), fmt(json_num(pre, "seconds"), a, sizeof a),
               fmt(json_num(pre, "seconds_per_sequence"), b, sizeof b), fmt(json_num(pre, "peak_tflops_per_device"), c, sizeof c));
    html_raw(h, "</li>");
    cJSON_ArrayForEach(n, get(inf, "notes")) html_elem(h, "li", cJSON_IsString(n) ? n->valuestring : "");
    html_raw(h, "</ul>\n<details><summary>");
    html_text(h, _("Every figure of the inference plan"));
    html_raw(h, "</summary>\n");
    html_json(h, inf);
    html_raw(h, "</details></section>\n");
}

/* Which probe run's figures the plan used, each figure, and the runs passed over with why. */
static void measured(struct html *h, const cJSON *doc)
{
    const cJSON *m = get(get(doc, "plan"), "measured");
    if (!cJSON_IsObject(m)) return;
    section(h, "measured", N_("Measured on this machine"));
    html_raw(h, "<p>");
    if (*json_str(m, "run")) html_textf(h, _("Figures from probe run %s (fwadvisor probe show %s)."), json_str(m, "run"), json_str(m, "run"));
    else html_text(h, _("No stored probe run supplied figures to this plan: the catalog's stand."));
    html_raw(h, "</p>\n");
    if (cJSON_GetArraySize(get(m, "figures"))) html_json(h, get(m, "figures"));
    if (cJSON_GetArraySize(get(m, "skipped"))) {
        h3(h, N_("Runs passed over"));
        html_json(h, get(m, "skipped"));
    }
    html_raw(h, "</section>\n");
}

static void plan_rest(struct html *h, const cJSON *doc)
{
    static const char *const drawn[] = {"assumed_accelerator", "accelerator", "precision", "finetune", "assumptions",
                                        "warnings", "memory", "time", "inference", "measured", NULL};
    const cJSON *plan = get(doc, "plan"), *m;
    if (!serving_only(doc)) inference(h, doc); /* serving only: drawn first, after the summary */
    measured(h, doc);
    cJSON_ArrayForEach(m, plan) {
        int known = 0;
        for (int i = 0; drawn[i]; i++) known |= strcmp(m->string, drawn[i]) == 0;
        if (known) continue;
        char title[128], id[64] = "plan-";
        html_key_text(m->string, title, sizeof title);
        /* the id from the name's letters and digits only: nothing from the document lands in markup raw */
        size_t k = 5;
        for (const char *c = m->string; *c && k + 1 < sizeof id; c++)
            if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')) id[k++] = *c;
            else if (*c == '_') id[k++] = '-';
        id[k] = '\0';
        plan_member(h, id, title, m);
    }
}

static void deployment(struct html *h, const cJSON *doc)
{
    const cJSON *d = get(doc, "deployment");
    section(h, "deployment", N_("Deployment"));
    html_raw(h, "<p><b>");
    html_text(h, json_str(d, "name"));
    html_raw(h, "</b> (");
    html_text(h, json_str(d, "runtime"));
    html_raw(h, ")</p>\n<p class=\"note\">");
    html_text(h, json_str(d, "hardware_note"));
    html_raw(h, "</p>\n");
    reasons_table(h, get(d, "reasons"), 0);
    html_raw(h, "</section>\n");
}

static void pitfalls(struct html *h, const cJSON *doc)
{
    const cJSON *p;
    section(h, "pitfalls", N_("Pitfalls"));
    note(h, N_("A checklist for the team: tick what is taken care of (the boxes work in the browser and print empty)."));
    html_raw(h, "<ul class=\"check\">\n");
    cJSON_ArrayForEach(p, get(doc, "pitfalls")) {
        html_raw(h, "<li><label><input type=\"checkbox\"> ");
        html_text(h, json_str(p, "text"));
        html_raw(h, "</label> <span class=\"note\">[");
        source_links(h, p);
        html_raw(h, "]</span></li>\n");
    }
    html_raw(h, "</ul></section>\n");
}

static void notes(struct html *h, const cJSON *doc)
{
    const cJSON *plan = get(doc, "plan"), *n;
    int nw = cJSON_GetArraySize(get(plan, "warnings")), na = cJSON_GetArraySize(get(plan, "assumptions"));
    if (!nw && !na) return;
    section(h, "assumptions", N_("Assumptions and warnings"));
    html_raw(h, "<ul>");
    cJSON_ArrayForEach(n, get(plan, "warnings")) {
        html_raw(h, "<li><b>");
        html_text(h, _("Warning:"));
        html_raw(h, "</b> ");
        html_text(h, cJSON_IsString(n) ? n->valuestring : "");
        html_raw(h, "</li>");
    }
    cJSON_ArrayForEach(n, get(plan, "assumptions")) {
        html_raw(h, "<li>");
        html_text(h, _("Assumed: "));
        html_text(h, cJSON_IsString(n) ? n->valuestring : "");
        html_raw(h, "</li>");
    }
    html_raw(h, "</ul></section>\n");
}

static void sources(struct html *h, const cJSON *doc)
{
    const cJSON *s;
    section(h, "sources", N_("Sources"));
    html_raw(h, "<ol>\n");
    cJSON_ArrayForEach(s, get(doc, "sources")) {
        html_raw(h, "<li id=\"src-");
        html_text(h, json_str(s, "id"));
        html_raw(h, "\"><b>");
        html_text(h, json_str(s, "id"));
        html_raw(h, "</b>: ");
        html_link(h, json_str(s, "url"), json_str(s, "title"));
        const char *url = json_str(s, "url");
        if (strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0) {
            html_raw(h, " (");
            html_text(h, url);
            html_raw(h, ")");
        }
        html_raw(h, ", ");
        html_text(h, json_str(s, "published"));
        html_raw(h, "</li>\n");
    }
    html_raw(h, "</ol></section>\n");
}

/* The files `recommend --emit` writes for this plan, each whole and closed until opened. */
static void launch_files_section(struct html *h, const struct launch_files *f)
{
    if (!f || !f->count) return;
    section(h, "launch-files", N_("Launch files"));
    note(h, N_("The files fwadvisor recommend --emit DIR writes for this plan (and the interface's L), as written: edit the "
               "marked lines, then run launch.sh (job.sbatch under Slurm)."));
    for (int i = 0; i < f->count; i++) {
        int lines = 0;
        for (size_t k = 0; k < f->files[i].len; k++) lines += f->files[i].text[k] == '\n';
        html_raw(h, "<details><summary>");
        html_textf(h, _("%s (%d lines)"), f->files[i].name, lines);
        html_raw(h, "</summary><pre>");
        html_text(h, f->files[i].text);
        html_raw(h, "</pre></details>\n");
    }
    html_raw(h, "</section>\n");
}

int adv_report_html(const cJSON *report, struct html *h) { return adv_report_html_files(report, NULL, h); }

int adv_report_html_files(const cJSON *report, const struct launch_files *files, struct html *h)
{
    const cJSON *top = cJSON_GetArrayItem(get(report, "ranking"), 0), *kb_doc = get(report, "kb");
    char title[256];
    snprintf(title, sizeof title, _("fwadvisor recommendation: %s"), json_str(top, "name"));
    html_begin(h, title, i18n_tag());
    html_raw(h, "<header><h1>");
    html_text(h, title);
    html_raw(h, "</h1><p class=\"meta\">");
    html_textf(h, _("Generated %s from the fwadvisor.report/1 document; knowledge base %s (%s)."), json_str(report, "generated_at"),
               json_str(kb_doc, "version"), json_str(kb_doc, "date"));
    html_raw(h, "</p></header>\n<main>\n");
    summary(h, report);
    if (serving_only(report)) {
        inference(h, report);
        section(h, "training", N_("Training"));
        html_raw(h, "<p>");
        html_text(h, _("No training plan: "));
        html_text(h, json_str(get(get(report, "plan"), "training"), "reason"));
        html_text(h, _(". The answer plans serving the model only: no training memory, time, offload or cost."));
        html_raw(h, "</p></section>\n");
    }
    answers(h, report);
    ranking(h, report);
    comparison(h, report);
    if (!serving_only(report)) {
        strategy(h, report);
        memory(h, report);
        time_cost(h, report);
    }
    plan_rest(h, report);
    launch_files_section(h, files);
    deployment(h, report);
    pitfalls(h, report);
    notes(h, report);
    sources(h, report);
    html_raw(h, "</main>\n");
    char footer[256];
    snprintf(footer, sizeof footer, _("Made by fwadvisor %s. Every figure on this page is the report's own (fwadvisor "
                                      "recommend --json gives the same document)."),
             FWADVISOR_VERSION);
    html_end(h, footer);
    return h->failed ? -1 : 0;
}

/* --- the hardware comparison and the sweep (fwadvisor.compare/1) -------------------------------- */

/* A row's name in a chart: "h100-sxm x 8", or a sweep's values. */
static void variant_label(const cJSON *row, char *out, size_t n)
{
    const char *values = json_str(row, "values");
    if (*values) snprintf(out, n, "%s", values);
    else snprintf(out, n, "%s x %g", json_str(row, "accelerator"), json_num(row, "devices"));
}

/* One bar a row that runs and has the figure: `member` of each row, drawn times scale. */
static void variant_chart(struct html *h, const cJSON *rows, const char *member, double scale, const char *title,
                          const char *axis, const char *id)
{
    int n = cJSON_GetArraySize(rows), k = 0;
    struct html_bar *bars = calloc((size_t)(n > 0 ? n : 1), sizeof *bars);
    char (*labels)[200] = calloc((size_t)(n > 0 ? n : 1), sizeof *labels), (*ptr)[64] = calloc((size_t)(n > 0 ? n : 1), sizeof *ptr);
    if (!bars || !labels || !ptr) {
        free(bars), free(labels), free(ptr);
        h->failed = 1;
        return;
    }
    for (int i = 0; i < n; i++) {
        const cJSON *row = cJSON_GetArrayItem(rows, i);
        double v = json_num(row, member);
        if (!cJSON_IsTrue(get(row, "runs")) || isnan(v)) continue;
        variant_label(row, labels[k], sizeof labels[k]);
        snprintf(ptr[k], sizeof ptr[k], "/rows/%d/%s", i, member);
        bars[k] = (struct html_bar){labels[k], v * scale, NAN, NAN, NAN, NULL, ptr[k], scale, k == 0 ? 0 : 4};
        k++;
    }
    if (k) {
        struct html_chart c = {title, axis, 0, 0, 0, 0, id};
        html_bar_chart(h, &c, bars, k, NULL, 0);
    } else {
        html_raw(h, "<p>");
        html_textf(h, _("%s: no row has the figure."), title);
        html_raw(h, "</p>\n");
    }
    free(bars), free(labels), free(ptr);
}

static void variant_table(struct html *h, const cJSON *rows, int serve)
{
    html_raw(h, "<table><thead><tr>");
    th(h, NULL, _("variant"));
    th(h, "n", C_("column", "devices"));
    th(h, NULL, _("layout"));
    th(h, "n", _("GB a device"));
    if (serve) {
        th(h, "n", _("decode tokens/s"));
        th(h, "n", _("cost an hour"));
    } else {
        th(h, "n", _("hours"));
        th(h, "n", _("device-hours"));
        th(h, "n", _("cost"));
        th(h, "n", "MFU");
    }
    th(h, NULL, _("price"));
    html_raw(h, "</tr></thead><tbody>");
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        if (!cJSON_IsTrue(get(row, "runs"))) continue;
        char label[200], a[32], b[32], c[32], d[32], layout[96];
        const cJSON *l = get(row, "layout"), *price = get(row, "price");
        variant_label(row, label, sizeof label);
        snprintf(layout, sizeof layout, "tp %g, pp %g, dp %g, ep %g", json_num(l, "tp"), json_num(l, "pp"), json_num(l, "dp"),
                 json_num(l, "ep"));
        html_raw(h, "<tr>");
        html_elem(h, "td", label);
        html_rawf(h, "<td class=\"n\">%s</td>", fmt(json_num(row, "devices"), a, sizeof a));
        html_elem(h, "td", layout);
        html_rawf(h, "<td class=\"n\">%s / %s</td>", fmt(json_num(row, "memory_gb_per_device"), a, sizeof a),
                  fmt(json_num(row, "usable_gb_per_device"), b, sizeof b));
        if (serve)
            html_rawf(h, "<td class=\"n\">%s</td><td class=\"n\">%s</td>", fmt(json_num(row, "decode_tokens_per_s"), a, sizeof a),
                      fmt(json_num(row, "cost_per_hour"), b, sizeof b));
        else
            html_rawf(h, "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
                      fmt(json_num(row, "hours"), a, sizeof a), fmt(json_num(row, "device_hours"), b, sizeof b),
                      fmt(json_num(row, "cost"), c, sizeof c), fmt(json_num(row, "mfu"), d, sizeof d));
        if (cJSON_IsObject(price)) {
            html_raw(h, "<td>");
            html_textf(h, _("%s a device-hour (%s)"), fmt(json_num(price, "usd_per_device_hour"), a, sizeof a), json_str(price, "from"));
            html_raw(h, "</td>");
        } else {
            html_elem(h, "td", _("no price: cost left out"));
        }
        html_raw(h, "</tr>\n");
    }
    html_raw(h, "</tbody></table>\n");
}

static void variant_refusals(struct html *h, const cJSON *rows)
{
    int any = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        if (cJSON_IsTrue(get(row, "runs"))) continue;
        char label[200];
        variant_label(row, label, sizeof label);
        if (!any++) {
            h3(h, N_("Cannot run the job"));
            html_raw(h, "<ul>\n");
        }
        html_raw(h, "<li>");
        html_textf(h, "%s: %s", *json_str(row, "values") ? label : json_str(row, "accelerator"), json_str(row, "why"));
        html_raw(h, "</li>\n");
    }
    if (any) html_raw(h, "</ul>\n");
}

int adv_compare_html(const cJSON *doc, struct html *h)
{
    int sweep = strcmp(json_str(doc, "kind"), "sweep") == 0, serve = strcmp(json_str(doc, "job"), "serve") == 0;
    const cJSON *rows = get(doc, "rows");
    const char *title = sweep ? _("fwadvisor what-if sweep") : _("fwadvisor hardware comparison");
    html_begin(h, title, i18n_tag());
    html_raw(h, "<header><h1>");
    html_text(h, title);
    html_raw(h, "</h1><p class=\"meta\">");
    html_textf(h, _("Generated %s from the fwadvisor.compare/1 document; %s."), json_str(doc, "generated_at"),
               sweep ? _("rows in the values' order") : strcmp(json_str(doc, "sorted_by"), "cost") == 0 ? _("sorted by cost") : _("sorted by time"));
    html_raw(h, "</p></header>\n<main>\n");
    if (sweep) section(h, "sweep", N_("What-if sweep"));
    else section(h, "hardware-comparison", N_("Hardware comparison"));
    if (serve) {
        variant_chart(h, rows, "decode_tokens_per_s", 1, _("Decode throughput of each variant"), _("tokens a second"), "variant-tokens");
        variant_chart(h, rows, "cost_per_hour", 1, _("Cost an hour of each variant"), _("cost an hour"), "variant-cost");
    } else {
        variant_chart(h, rows, "hours", 1, _("Wall time of each variant"), _("hours"), "variant-hours");
        variant_chart(h, rows, "cost", 1, _("Cost of each variant (device-hours x price)"), _("cost"), "variant-cost");
        if (sweep) variant_chart(h, rows, "mfu", 100, _("Model FLOPs utilisation of each variant"), "MFU (%)", "variant-mfu");
    }
    variant_table(h, rows, serve);
    variant_refusals(h, rows);
    html_raw(h, "</section>\n</main>\n");
    char footer[256];
    snprintf(footer, sizeof footer, _("Made by fwadvisor %s. Every figure on this page is the document's own (the same "
                                      "command with --json gives it)."),
             FWADVISOR_VERSION);
    html_end(h, footer);
    return h->failed ? -1 : 0;
}
