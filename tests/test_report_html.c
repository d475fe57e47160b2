/* The HTML reports: the page helper's escaping, numbers and geometry; both pages checked against
 * their JSON documents (HTML5, SVG as XML, every charted number), their size, their structure
 * against a golden outline, rendering in headless Chromium, and --html's failures. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/html.h"
#include "common/units.h"
#include "knowledge/advisor.h"
#include "knowledge/probe_store.h"
#include "knowledge/report_html.h"
#include "probes/run_html.h"
#include "tests/support.h"

static char *dir;
static char dbarg[4200];
static const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", "TPU_ACCELERATOR_TYPE", NULL};

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

/* --- the page helper ------------------------------------------------------------------------- */

Test(html, outside_text_is_escaped_and_made_text)
{
    struct html h = {0};
    /* markup characters, a C0 control, a lone byte, a broken sequence, a C1 control, a noncharacter */
    html_text(&h, "<a href='x'>&\"\x01\xff\xc3(\xc2\x85\xef\xb7\x90 caf\xc3\xa9");
    cr_assert_not(h.failed);
    cr_expect_str_eq(h.data, "&lt;a href=&#39;x&#39;&gt;&amp;&quot;"
                             "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd(\xef\xbf\xbd\xef\xbf\xbd"
                             "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd caf\xc3\xa9");
    html_free(&h);
    html_link(&h, "javascript:alert(1)", "x");
    cr_expect_str_eq(h.data, "x", "only http(s) addresses become links");
    html_free(&h);
    html_link(&h, "https://a.example/?q=\"<", "t");
    cr_expect_str_eq(h.data, "<a href=\"https://a.example/?q=&quot;&lt;\">t</a>");
    html_free(&h);
}

Test(html, numbers_read_as_people_read_them)
{
    static const struct {
        double v;
        const char *want;
    } cases[] = {{54.6, "54.6"}, {80, "80"}, {0.0133111, "0.0133"}, {1.47e19, "1.47e19"}, {4909.05, "4,909"},
                 {999.4, "999"}, {999.5, "1,000"}, {999.96, "1,000"}, {1000, "1,000"}, {999999, "999,999"}, {1e6, "1,000,000"}, {1.3e10, "13,000,000,000"},
                 {999999999999, "999,999,999,999"}, {1e12, "1e12"}, {1e-4, "0.0001"}, {2.5e-7, "2.5e-7"},
                 {0.001, "0.001"}, {0.00099, "0.00099"}, {-0.4, "-0.4"}, {-4909.05, "-4,909"}, {0, "0"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[32];
        units_number(cases[i].v, out, sizeof out);
        cr_expect_str_eq(out, cases[i].want, "%g", cases[i].v);
    }
    char out[32];
    units_number(NAN, out, sizeof out);
    cr_expect_str_eq(out, "-");
}

/* Bars on a fixed 0..100 axis: the plot runs from x 200 to 590 (720 wide, 200 for labels, 130
 * for values), 3.9 px a unit: 25 -> 97.5 px, 50 -> 195 px, the second bar 24 px lower. */
Test(html, bar_lengths_are_proportional)
{
    struct html h = {0};
    struct html_bar bars[2] = {{"a", 25, NAN, NAN, NAN, NULL, "/x/0", 0, 0}, {"b", 50, 40, 60, NAN, "noisy", "/x/1", 0, 1}};
    struct html_chart c = {"T", "unit", 0, 100, 0, 0, NULL};
    html_bar_chart(&h, &c, bars, 2, NULL, 0);
    cr_assert_not(h.failed);
    cr_expect(strstr(h.data, "<rect x=\"200.00\" y=\"12.0\" width=\"97.50\" height=\"16.0\""), "%s", h.data);
    cr_expect(strstr(h.data, "<rect x=\"200.00\" y=\"36.0\" width=\"195.00\""), "%s", h.data);
    cr_expect(strstr(h.data, "data-json=\"/x/1\" data-value=\"50\""), "%s", h.data);
    /* the whisker from 40 (356) to 60 (434), the value and its note after it */
    cr_expect(strstr(h.data, "M356.0 44.0H434.0"), "%s", h.data);
    cr_expect(strstr(h.data, ">50  noisy</text>"), "%s", h.data);
    cr_expect(strstr(h.data, "role=\"img\" aria-labelledby=\"c1-t\"><title id=\"c1-t\">T</title>"), "%s", h.data);
    html_free(&h);
}

/* A stacked bar of 20 + 10 + 5 GB and 45 GB headroom against 80 GB: the axis ends at 80 (steps of
 * 20), 680 px wide from x 20, 8.5 px a GB: 170, 85, 42.5 and 382.5 px; the marker at x 700. */
Test(html, stacked_bar_against_capacity)
{
    struct html h = {0};
    struct html_part parts[4] = {{"states", 20, "/m/s", 0}, {"act", 10, NULL, 1}, {"buf", 5, NULL, 3}, {"free", 45, NULL, 6}};
    struct html_chart c = {"M", "GB", 0, 0, 0, 0, NULL};
    html_stacked_bar(&h, &c, "each device", parts, 4, 80, "device memory", "/m/d", "GB");
    cr_assert_not(h.failed);
    cr_expect(strstr(h.data, "x=\"20.00\" y=\"34\" width=\"170.00\""), "%s", h.data);
    cr_expect(strstr(h.data, "x=\"190.00\" y=\"34\" width=\"85.00\""), "%s", h.data);
    cr_expect(strstr(h.data, "x=\"275.00\" y=\"34\" width=\"42.50\""), "%s", h.data);
    cr_expect(strstr(h.data, "x=\"317.50\" y=\"34\" width=\"382.50\""), "%s", h.data);
    cr_expect(strstr(h.data, "<line x1=\"700.0\" y1=\"28\" x2=\"700.0\" y2=\"70\""), "%s", h.data);
    cr_expect(strstr(h.data, ">device memory 80 GB</text>"), "%s", h.data);
    cr_expect(strstr(h.data, ">states: 20 GB</text>"), "%s", h.data);
    html_free(&h);
}

/* --- the memory bar's label ------------------------------------------------------------------ */

/* The memory bar is labelled with the devices of the layout: tp x pp x dp, the data-parallel
 * ranks included (expert parallelism runs inside dp and adds none). A real 1,024-device plan
 * first, then its layout rewritten in the document (the page is drawn from it alone):
 *   8 x 4 x 32 = 1024; 8 x 16 x 64 = 8192; 1 x 1 x 1 = 1 ("the one device"); 1 x 1 x 2 = 2 (the
 *   smallest plural); 8 x 1 x 1 = 8 and 1 x 4 x 1 = 4 (no data parallelism); 2 x 1 x 500000 =
 *   1e6 devices, as the page writes a million. */
Test(html, the_memory_label_counts_every_device_of_the_layout)
{
    struct ts_advisor adv;
    char err[1024];
    cr_assert_eq(ts_advisor_open(&adv, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ts_advisor_recommend(&adv,
                                      "{\"accelerator\": \"h100-sxm\", \"devices\": 1024, \"nodes\": 128, \"model_kind\": \"llm\","
                                      " \"model_params\": 1.75e11, \"team\": [\"pytorch\"]}",
                                      err, sizeof err),
                 KB_OK, "%s", err);
    cJSON *report = adv_report_json(adv.akb, adv.res, "2026-12-02T00:00:00Z");
    cr_assert_not_null(report);
    cJSON *mem = cJSON_GetObjectItem(cJSON_GetObjectItem(report, "plan"), "memory");
    cJSON *lay = cJSON_GetObjectItem(mem, "layout");
    const char *strategy = cJSON_GetObjectItem(mem, "strategy")->valuestring;
    double tp = cJSON_GetObjectItem(lay, "tp")->valuedouble, pp = cJSON_GetObjectItem(lay, "pp")->valuedouble,
           dp = cJSON_GetObjectItem(lay, "dp")->valuedouble;
    cr_expect_eq(tp * pp * dp, 1024, "the plan's layout %g x %g x %g uses every device", tp, pp, dp);
    static const struct {
        double tp, pp, dp;
        const char *label; /* %s: the strategy */
    } cases[] = {
        {0, 0, 0, ">each of the 1,024 devices (%s)</text>"}, /* as planned */
        {8, 4, 32, ">each of the 1,024 devices (%s)</text>"},
        {8, 16, 64, ">each of the 8,192 devices (%s)</text>"},
        {1, 1, 1, ">the one device (%s)</text>"},
        {1, 1, 2, ">each of the 2 devices (%s)</text>"},
        {8, 1, 1, ">each of the 8 devices (%s)</text>"},
        {1, 4, 1, ">each of the 4 devices (%s)</text>"},
        {2, 1, 500000, ">each of the 1,000,000 devices (%s)</text>"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].tp > 0) {
            cJSON_ReplaceItemInObject(lay, "tp", cJSON_CreateNumber(cases[i].tp));
            cJSON_ReplaceItemInObject(lay, "pp", cJSON_CreateNumber(cases[i].pp));
            cJSON_ReplaceItemInObject(lay, "dp", cJSON_CreateNumber(cases[i].dp));
        }
        struct html h = {0};
        cr_assert_eq(adv_report_html(report, &h), 0);
        char want[160];
        snprintf(want, sizeof want, cases[i].label, strategy);
        cr_expect(strstr(h.data, want) != NULL, "case %zu: no '%s' on the page", i, want);
        html_free(&h);
    }
    cJSON_Delete(report);
    ts_advisor_close(&adv);
}

/* --- arithmetic intensity -------------------------------------------------------------------- */

static double intensity(const char *json)
{
    cJSON *r = cJSON_Parse(json);
    cr_assert_not_null(r);
    struct measured_result m;
    measured_result_read(r, &m);
    double v = probe_intensity(&m);
    cJSON_Delete(r);
    return v;
}

Test(html, arithmetic_intensity_from_params)
{
    /* gemm: 2 n^3 FLOP over 3 n^2 elements: n = 2048 fp32 -> 4096 / 12; n = 8192 bf16 -> 16384 / 6 */
    cr_expect_float_eq(intensity("{\"workload\": \"gemm\", \"params\": {\"n\": 2048, \"dtype\": \"fp32\"}}"), 341.3333, 1e-3);
    cr_expect_float_eq(intensity("{\"workload\": \"gemm\", \"params\": {\"n\": 8192, \"dtype\": \"bf16\"}}"), 2730.667, 1e-2);
    /* MLP 784-1024-1024-10, batch 256, fp32: 6 x 256 x 1861632 = 2859466752 FLOP; products
     * 4 x 3 x (B in + B out + in out) per layer = 37360128 B, Adam 28 x 1863690 = 52183320 B:
     * 2859466752 / 89543448... = 31.933 FLOP/B */
    cr_expect_float_eq(intensity("{\"workload\": \"train-mlp\", \"params\": {\"layers\": \"784,1024,1024,10\", \"batch\": 256}}"),
                       31.9333, 1e-3);
    /* the same in bf16 moves half the product bytes: higher intensity */
    cr_expect_gt(intensity("{\"workload\": \"train-mlp\", \"params\": {\"layers\": \"784,1024,1024,10\", \"batch\": 256, "
                           "\"precision\": \"bf16\"}}"),
                 31.94);
    /* GPT 4 x 256, T 128, batch 8, vocab 256: N = 3225088, (6 N + 12 L C T) x 1024 tokens =
     * 21425553408 FLOP over 438036480 B (products 239075328, attention 100663296, head 7077888,
     * AdamW 28 x (N + 128 x 256)) = 48.913 */
    cr_expect_float_eq(intensity("{\"workload\": \"train-gpt\", \"params\": {\"n_layer\": 4, \"n_head\": 4, \"n_embd\": 256, "
                                 "\"ctx\": 128, \"vocab\": 256, \"batch\": 8, \"precision\": \"fp32\"}}"),
                       48.9127, 1e-3);
    cr_expect(isnan(intensity("{\"workload\": \"stream\", \"params\": {\"array_bytes\": 1}}")));
    cr_expect(isnan(intensity("{\"workload\": \"train-mlp\", \"params\": {\"layers\": \"784,10\"}}")), "no batch: no figure");
}

/* --- the pages ------------------------------------------------------------------------------- */

TestSuite(report_html, .init = setup, .fini = teardown, .timeout = 240);

static const char *fixtures(void)
{
    const char *f = getenv("FWADVISOR_FIXTURES");
    return f ? f : "tests/fixtures";
}

/* Runs a script of tests/html with python3; 77 from it (html5lib or Chromium missing) skips. */
static int script(const char *name, const char *const *args, struct ts_run *r)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/../html/%s", fixtures(), name);
    const char *argv[8] = {path};
    int n = 1;
    for (int i = 0; args[i] && n < 7; i++) argv[n++] = args[i];
    argv[n] = NULL;
    if (access("/usr/bin/python3", X_OK) != 0) cr_skip_test("no /usr/bin/python3");
    cr_assert_eq(ts_exec(r, "/usr/bin/python3", NULL, NULL, argv), 0);
    if (r->status == 77) {
        char why[512];
        snprintf(why, sizeof why, "%s", r->out);
        ts_run_free(r);
        cr_skip_test("%s", why);
    }
    return r->status;
}

/* The page checked against its document: prints what it checked. */
static cJSON *check_page(const char *page, const char *doc)
{
    struct ts_run r;
    int status = script("check_html.py", (const char *const[]){page, doc, NULL}, &r);
    cr_assert_eq(status, 0, "%s: %s%s", page, r.out, r.err);
    cJSON *res = cJSON_Parse(r.out);
    cr_assert_not_null(res, "%s", r.out);
    ts_run_free(&r);
    return res;
}

/* The page's outline against the golden one (FWADVISOR_UPDATE_GOLDEN=1 writes it). */
static void golden(const char *page, const char *doc, const char *name)
{
    struct ts_run r;
    int status = script("check_html.py", (const char *const[]){page, doc, "--outline", NULL}, &r);
    cr_assert_eq(status, 0, "%s%s", r.out, r.err);
    char path[4200];
    snprintf(path, sizeof path, "%s/reports/%s", fixtures(), name);
    const char *update = getenv("FWADVISOR_UPDATE_GOLDEN");
    if (update && *update == '1') ts_write_str(path, r.out);
    char *want = ts_read(path, NULL);
    cr_assert_not_null(want, "no golden outline %s (FWADVISOR_UPDATE_GOLDEN=1 writes it)", path);
    cr_expect_str_eq(r.out, want, "the page's structure changed; if that was meant, FWADVISOR_UPDATE_GOLDEN=1 "
                                  "rewrites %s", path);
    free(want);
    ts_run_free(&r);
}

/* The page in headless Chromium. FWADVISOR_SHOTS=DIR keeps the screenshots there, to look at. */
static void rendered(const char *page, const char *name)
{
    const char *keep = getenv("FWADVISOR_SHOTS");
    char *shots = keep && *keep ? ts_path(keep, name) : ts_path(dir, "shots");
    mkdir(shots, 0755);
    struct ts_run r;
    int status = script("render_check.py", (const char *const[]){page, shots, NULL}, &r);
    cJSON *res = cJSON_Parse(r.out);
    cr_assert_not_null(res, "%s %s", r.out, r.err);
    cr_expect_eq(status, 0, "%s", r.out);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(res, "console_errors")), 0, "%s", r.out);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(res, "requests")), 0, "no request leaves the file: %s", r.out);
    cr_expect_gt(cJSON_GetObjectItem(res, "ink")->valuedouble, 0.01, "not blank: %s", r.out);
    cr_expect_gt(cJSON_GetObjectItem(res, "height")->valuedouble, 1000, "%s", r.out);
    /* on a 390 px phone and a 1280 px desktop nothing sticks out of the viewport (tables and charts
     * scroll inside their boxes) and no chart text is drawn under about 7 px */
    static const char *const widths[] = {"phone", "desktop"};
    for (int i = 0; i < 2; i++) {
        const cJSON *f = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "fit"), widths[i]);
        cr_assert_not_null(f, "%s", r.out);
        cr_expect_eq(cJSON_GetObjectItem(f, "overflow_count")->valueint, 0, "%s %s: %s", name, widths[i], r.out);
        cr_expect_eq(cJSON_GetObjectItem(f, "small_text_count")->valueint, 0, "%s %s: %s", name, widths[i], r.out);
        cr_expect_leq(cJSON_GetObjectItem(f, "scroll_width")->valueint, cJSON_GetObjectItem(f, "width")->valueint, "%s %s: %s",
                      name, widths[i], r.out);
    }
    cJSON_Delete(res);
    ts_run_free(&r);
    free(shots);
}

/* recommend --html and -o for one set of answers (a preset, a price, and `also` when not NULL):
 * the page and the document it was drawn from. */
static void recommend_page(const char *preset, const char *also, const char *page, const char *doc)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--preset", preset, "--set", "price_per_device_hour=2.5", "--probe", "none", "--html", page,
        "-o", doc, "--set", also ? also : "price_per_device_hour=2.5");
    cr_assert_eq(r.status, 0, "%s: %s", preset, r.err);
    cr_expect(strstr(r.err, "HTML report written to"), "%s", r.err);
    ts_run_free(&r);
}

Test(report_html, every_preset_gives_a_page_that_matches_its_report)
{
    static const char *const presets[] = {"academic-research", "first-image-classifier", "functional-team",
                                          "gpt4-class-model", "mobile-app", "nvidia-2000-gpus", "quick-validation",
                                          "raspberry-pi", "tpu-pod"};
    char *page = ts_path(dir, "r.html"), *doc = ts_path(dir, "r.json");
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        recommend_page(presets[i], NULL, page, doc);
        cJSON *res = check_page(page, doc);
        char *text = ts_read(doc, NULL);
        cJSON *report = cJSON_Parse(text);
        /* every framework's score and every reason's points at least are charted */
        int want = 0;
        const cJSON *f;
        cJSON_ArrayForEach(f, cJSON_GetObjectItem(report, "ranking"))
            if (!cJSON_IsTrue(cJSON_GetObjectItem(f, "excluded"))) want += 1 + cJSON_GetArraySize(cJSON_GetObjectItem(f, "reasons"));
        cr_expect_geq(cJSON_GetObjectItem(res, "marks")->valueint, want, "%s", presets[i]);
        cr_expect_lt(cJSON_GetObjectItem(res, "bytes")->valueint, 300 * 1024, "%s: a full report under 300 KB", presets[i]);
        cJSON_Delete(report);
        cJSON_Delete(res);
        free(text);
    }
    free(page);
    free(doc);
}

/* The report's sources: each one cited listed once, with its address, and nothing uncited. */
Test(report_html, the_report_lists_every_cited_source_once)
{
    char *page = ts_path(dir, "r.html"), *doc = ts_path(dir, "r.json");
    recommend_page("mobile-app", NULL, page, doc);
    char *text = ts_read(doc, NULL);
    cJSON *report = cJSON_Parse(text);
    const cJSON *sources = cJSON_GetObjectItem(report, "sources"), *s;
    cr_assert_gt(cJSON_GetArraySize(sources), 3);
    cJSON_ArrayForEach(s, sources) {
        const char *id = cJSON_GetObjectItem(s, "id")->valuestring;
        char needle[256];
        snprintf(needle, sizeof needle, "\"%s\"", id);
        int cited = 0;
        for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) cited++;
        cr_expect_geq(cited, 2, "%s: listed and cited", id);
        cr_expect_gt(strlen(cJSON_GetObjectItem(s, "url")->valuestring), 0);
        int dup = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, sources) dup += strcmp(cJSON_GetObjectItem(t, "id")->valuestring, id) == 0;
        cr_expect_eq(dup, 1, "%s listed once", id);
    }
    /* the comparison: a score (or null) for every framework on every criterion */
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(report, "weights"))
        cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(w, "scores")), cJSON_GetArraySize(cJSON_GetObjectItem(report, "ranking")));
    char *html = ts_read(page, NULL);
    cr_expect(strstr(html, "<li id=\"src-seed-003\">"), "the sources are anchors the reasons link to");
    cr_expect(strstr(html, "href=\"#src-seed-003\""));
    free(html);
    cJSON_Delete(report);
    free(text);
    free(page);
    free(doc);
}

/* The same plan in Chinese: lang="zh-CN", the page's own words and the charts' titles and labels
 * in Chinese, every charted number still the document's, and the page renders within the phone's
 * and the desktop's width. The document itself is the English one, byte for byte. */
Test(report_html, a_chinese_page_matches_its_report_and_renders)
{
    char *page = ts_path(dir, "zh.html"), *doc = ts_path(dir, "zh.json"), *en_doc = ts_path(dir, "en.json");
    struct ts_run r;
    RUN(r, dbarg, "--lang", "zh", "recommend", "--preset", "nvidia-2000-gpus", "--set", "deploy=server", "--set",
        "price_per_device_hour=2.5", "--probe", "none", "--html", page, "-o", doc);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "HTML 报告已写入 ") != NULL, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--preset", "nvidia-2000-gpus", "--set", "deploy=server", "--set", "price_per_device_hour=2.5",
        "--probe", "none", "-o", en_doc);
    ts_run_free(&r);
    char *zh_json = ts_read(doc, NULL), *en_json = ts_read(en_doc, NULL);
    cr_assert(zh_json && en_json);
    /* but for the time each was made */
    cr_assert(ts_blank_generated_at(zh_json) && ts_blank_generated_at(en_json));
    cr_expect_str_eq(zh_json, en_json);
    char *html = ts_read(page, NULL);
    static const char *const words[] = {
        "<html lang=\"zh-CN\">", "<title>fwadvisor 推荐：PyTorch</title>", "<h2>回答</h2>", "<h2>排名</h2>",
        "按这些回答给出的框架排名", "得分（满分 100）", "<h2>分布式训练</h2>", "<h2>每设备显存</h2>", "模型状态（权重、梯度、优化器）",
        "<h2>时间和成本</h2>", "运行的墙钟时间：", "<h2>推理方案</h2>", "单个推理设备的显存：", "<h2>常见陷阱</h2>", "<h2>来源</h2>",
        "由 fwadvisor ",
        /* the reasons and pitfalls in the knowledge base's Chinese, a reason's chart label cut at its Chinese colon */
        "基线：平均框架（在此能运行的框架中）的加权各项标准", "往往瓶颈不在计算，而在数据加载", ">基线</",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) cr_expect(strstr(html, words[i]) != NULL, "'%s' not on the page", words[i]);
    static const char *const english[] = {"<h2>Answers</h2>", "Frameworks ranked for these answers", "<h2>Time and cost</h2>",
                                          "Made by fwadvisor", "Baseline:", "The bottleneck is often data loading"};
    for (size_t i = 0; i < sizeof english / sizeof english[0]; i++) cr_expect(strstr(html, english[i]) == NULL, "'%s' left", english[i]);
    free(html);
    cJSON *res = check_page(page, doc);
    cr_expect_gt(cJSON_GetObjectItem(res, "marks")->valueint, 20);
    cJSON_Delete(res);
    rendered(page, "recommend-zh");
    free(zh_json);
    free(en_json);
    free(page);
    free(doc);
    free(en_doc);
}

/* A plan with every part: LLM training on 2000 GPUs, served as well (the inference plan). */
Test(report_html, recommendation_golden_and_rendered)
{
    char *page = ts_path(dir, "r.html"), *doc = ts_path(dir, "r.json");
    recommend_page("nvidia-2000-gpus", "deploy=server", page, doc);
    char *html = ts_read(page, NULL);
    cr_expect(strstr(html, "<section id=\"inference\">") && strstr(html, "id=\"inference-chart\""), "the inference plan");
    free(html);
    golden(page, doc, "recommend.outline");
    rendered(page, "recommend");
    free(page);
    free(doc);
}

/* The fixture run, and a baseline made from it: gemm 20% slower then (so +25% now, better) and
 * train-tiny twice as fast then (so +100% us per step now, WORSE). */
static cJSON *fixture_run(cJSON **base)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/reports/probe-full.json", fixtures());
    char *text = ts_read(path, NULL);
    cr_assert_not_null(text, "%s", path);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    cr_assert_not_null(doc);
    if (base) {
        *base = cJSON_Duplicate(doc, 1);
        cJSON_ReplaceItemInObject(*base, "id", cJSON_CreateString("fixture-base"));
        cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(*base, "results")) {
            const char *w = cJSON_GetObjectItem(r, "workload")->valuestring;
            cJSON *med = cJSON_GetObjectItem(r, "median");
            if (!cJSON_IsNumber(med)) continue;
            if (!strcmp(w, "gemm")) cJSON_SetNumberValue(med, med->valuedouble * 0.8);
            if (!strcmp(w, "train-tiny")) cJSON_SetNumberValue(med, med->valuedouble * 0.5);
        }
    }
    return doc;
}

static void write_page(const cJSON *doc, const cJSON *base, const char *page, const char *json)
{
    struct html h = {0};
    cr_assert_eq(probe_run_html(doc, base, NULL, 0, &h), 0);
    cr_assert_eq(ts_write(page, h.data, h.len), 0);
    html_free(&h);
    char *text = cJSON_Print(doc);
    ts_write_str(json, text);
    free(text);
}

Test(report_html, probe_page_matches_its_run)
{
    cJSON *base, *doc = fixture_run(&base);
    char *page = ts_path(dir, "p.html"), *json = ts_path(dir, "p.json");
    write_page(doc, base, page, json);
    cJSON *res = check_page(page, json);
    /* every finished result of the run is charted at least once */
    int finished = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results")) {
        const char *m = cJSON_GetObjectItem(r, "unit")->valuestring;
        finished += !strcmp(cJSON_GetObjectItem(r, "status")->valuestring, "ok") &&
                    (!strcmp(m, "GFLOP/s") || !strcmp(m, "TFLOP/s") || !strcmp(m, "GB/s"));
    }
    cr_expect_geq(cJSON_GetObjectItem(res, "marks")->valueint, finished);
    cr_expect_lt(cJSON_GetObjectItem(res, "bytes")->valueint, 300 * 1024);
    cJSON_Delete(res);
    char *html = ts_read(page, NULL);
    static const char *const parts[] = {
        "roofline, the training workloads placed by arithmetic intensity", "All-reduce bus bandwidth by message size",
        "Data-parallel efficiency by rank count", "id=\"frameworks\"", "step_ms by framework", "pytorch compile mlp",
        "catalog BF16 dense 989,400", "theoretical FP32 492", "catalog memory bandwidth 3,350", "Baseline: probe run fixture-base",
        ">+25  better</text>", ">+100  WORSE</text>", "transfer h2d_gbs: skipped: not asked for (--device cpu)",
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) cr_expect(strstr(html, parts[i]), "missing: %s", parts[i]);
    free(html);
    golden(page, json, "probe.outline");
    rendered(page, "probe");
    cJSON_Delete(doc);
    cJSON_Delete(base);
    free(page);
    free(json);
}

/* The machine's note, the catalog's peaks and each rank's figures as the run stored them: a
 * figure not given (a null compute time, a catalog without its FP16 peak) a dash or left out. */
Test(report_html, the_run_wide_figures_shown_as_stored)
{
    cJSON *doc = fixture_run(NULL);
    cJSON *per = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "ranks"), "per_rank");
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(per, 0), "compute_ms", cJSON_CreateNull());
    cJSON *cat = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "accelerators"), 0), "catalog");
    cJSON_DeleteItemFromObject(cat, "fp16_tflops");
    struct html h = {0};
    cr_assert_eq(probe_run_html(doc, NULL, NULL, 0, &h), 0);
    char *page = strndup(h.data, h.len);
    html_free(&h);
    static const char *const parts[] = {
        "<p class=\"note\">linux, kernel 6.18.44-fc-v857, x86_64; fwadvisor 0.1.0.</p>",
        "<p>NVIDIA H100 80GB HBM3</p><dl class=\"kv\"><dt>Id</dt><dd>h100-sxm</dd><dt>FP32 (TFLOP/s)</dt><dd>66.9</dd>"
        "<dt>BF16 (TFLOP/s)</dt><dd>989</dd><dt>Bandwidth (GB/s)</dt><dd>3,350</dd></dl>",
        "All-reduce bus bandwidth by message size (2 ranks)",
        "<tr><th>Rank</th><th>Host</th><th>Compute (ms)</th><th>Comm (ms)</th><th>Samples per second</th></tr>",
        "<tr><td class=\"n\">0</td><td>vm</td><td>&#8212;</td><td class=\"n\">29.2</td><td class=\"n\">2,260</td></tr>",
        "<tr><td class=\"n\">1</td><td>vm</td><td class=\"n\">72.7</td><td class=\"n\">37.5</td><td class=\"n\">2,068</td></tr>",
        "CPU (AMD EPYC)", "theoretical FP32 492",
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) cr_expect(strstr(page, parts[i]), "missing: %s", parts[i]);
    free(page);
    cJSON_Delete(doc);
}

/* Text from the run reaches the page escaped, wherever it is shown. */
Test(report_html, outside_text_cannot_become_markup)
{
    cJSON *doc = fixture_run(NULL);
    cJSON *cpu = cJSON_GetObjectItem(doc, "cpu");
    cJSON_ReplaceItemInObject(cpu, "model", cJSON_CreateString("<script>alert(1)</script>"));
    cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")) - 1);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(r, "params"), "framework", cJSON_CreateString("\"><svg onload=x>"));
    char *page = ts_path(dir, "p.html"), *json = ts_path(dir, "p.json");
    write_page(doc, NULL, page, json);
    char *html = ts_read(page, NULL);
    cr_expect_null(strstr(html, "<script"));
    cr_expect_null(strstr(html, "<svg onload"));
    cr_expect(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    cJSON_Delete(check_page(page, json));
    free(html);
    free(page);
    free(json);
    cJSON_Delete(doc);
}

/* probe show ID --html, with --compare, through the command line. */
Test(report_html, probe_show_writes_the_page)
{
    cJSON *base, *doc = fixture_run(&base);
    char path[4300], err[512];
    snprintf(path, sizeof path, "%s/kb.sqlite3", dir);
    kb *k;
    cr_assert_eq(kb_open(path, 0, &k, err, sizeof err), KB_OK, "%s", err);
    cr_assert_eq(kb_probe_save(k, base, err, sizeof err), KB_OK, "%s", err);
    cr_assert_eq(kb_probe_save(k, doc, err, sizeof err), KB_OK, "%s", err);
    kb_close(k);
    char *page = ts_path(dir, "show.html");
    struct ts_run r;
    RUN(r, dbarg, "probe", "show", "fixture-full", "--html", page, "--compare", "fixture-base");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "better") && strstr(r.out, "WORSE"), "the table compared too:\n%s", r.out);
    ts_run_free(&r);
    char *html = ts_read(page, NULL);
    cr_assert_not_null(html);
    cr_expect(strstr(html, "Baseline: probe run fixture-base"));
    free(html);
    RUN(r, dbarg, "probe", "show", "fixture-full", "--html", page, "--compare", "no-such-run");
    cr_expect_eq(r.status, 3, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "probe", "delete", "fixture-full", "--html", page);
    cr_expect_eq(r.status, 2, "%s", r.err);
    ts_run_free(&r);
    cJSON_Delete(doc);
    cJSON_Delete(base);
    free(page);
}

/* A new run writes its page too, and the page matches the document the run printed. */
Test(report_html, a_new_run_writes_the_page_too)
{
    char *page = ts_path(dir, "run.html"), *json = ts_path(dir, "run.json");
    struct ts_run r;
    RUN(r, dbarg, "probe", "--workload", "train-tiny,allreduce", "--no-save", "--html", page, "-o", json);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "HTML report written to"), "%s", r.err);
    ts_run_free(&r);
    cJSON_Delete(check_page(page, json));
    char *html = ts_read(page, NULL);
    cr_expect(strstr(html, "<td>us_per_step</td>") && strstr(html, "allreduce busbw_gbs: skipped"), "the table and the skips");
    free(html);
    free(page);
    free(json);
}

/* --html into a directory, a folder that does not exist, and a full disk: exit 1, one line,
 * nothing written. */
Test(report_html, bad_targets_fail_with_one_line_and_write_nothing)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--preset", "tpu-pod", "--html", dir);
    cr_expect_eq(r.status, 1, "a directory: %s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    ts_run_free(&r);
    char *missing = ts_path(dir, "no/such/folder/r.html");
    RUN(r, dbarg, "recommend", "--preset", "tpu-pod", "--html", missing);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect_eq(ts_lines(r.err), 1, "%s", r.err);
    ts_run_free(&r);
    free(missing);
    RUN(r, dbarg, "recommend", "--preset", "tpu-pod", "--html", "-", "--json");
    cr_expect_eq(r.status, 2, "both on standard output: %s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--preset", "tpu-pod", "--html", "-");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strncmp(r.out, "<!DOCTYPE html>", 15) == 0, "the page alone on standard output");
    ts_run_free(&r);

    if (system("unshare -rm true >/dev/null 2>&1") != 0) cr_skip_test("no user and mount namespaces here (unshare -rm)");
    char script_text[16384];
    snprintf(script_text, sizeof script_text,
             "set -e; m=%s/full; mkdir -p $m; mount -t tmpfs -o size=256k tmpfs $m;"
             " dd if=/dev/zero of=$m/fill bs=4k 2>/dev/null || true;"
             " set +e; %s %s recommend --preset tpu-pod --html $m/r.html >/dev/null 2>%s/err; echo rc=$? > %s/rc;"
             " ls -A $m > %s/left",
             dir, getenv("FWADVISOR_BIN"), dbarg, dir, dir, dir);
    cr_assert_eq(ts_exec(&r, "/usr/bin/unshare", env, NULL, (const char *const[]){"-rm", "sh", "-c", script_text, NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    char *rc_path = ts_path(dir, "rc"), *err_path = ts_path(dir, "err"), *left_path = ts_path(dir, "left");
    char *rc = ts_read(rc_path, NULL), *err = ts_read(err_path, NULL), *left = ts_read(left_path, NULL);
    cr_expect(rc && strstr(rc, "rc=1"), "a full disk: %s %s", rc ? rc : "(none)", err ? err : "");
    cr_expect(err && ts_lines(err) == 1, "%s", err ? err : "(none)");
    cr_expect(left && strcmp(left, "fill\n") == 0, "nothing half written: %s", left ? left : "(none)");
    free(rc), free(err), free(left);
    free(rc_path), free(err_path), free(left_path);
}

/* Headings from member names say their units and capitalise a leading number format; a unit only
 * at the end of the name ("gbs_total" keeps its words), and no empty stem ("_gb" alone). */
Test(html, headings_say_their_units)
{
    static const struct {
        const char *key, *want;
    } cases[] = {{"device_memory_gb", "Device memory (GB)"}, {"bandwidth_gbs", "Bandwidth (GB/s)"},
                 {"bf16_tflops", "BF16 (TFLOP/s)"}, {"samples_per_s", "Samples per second"},
                 {"total_gb_per_device", "Total (GB per device)"}, {"gbs_total", "Gbs total"}, {"_gb", " gb"},
                 {"fp8x_rate", "Fp8x rate"}, {"step_ms", "Step (ms)"}, {"kv_cache_gb", "KV cache (GB)"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64];
        html_key_text(cases[i].key, out, sizeof out);
        cr_expect_str_eq(out, cases[i].want, "%s", cases[i].key);
    }
}

/* The plan's launch files are on the page, each whole in its own box, as --emit writes them (the
 * torchrun line escaped, not cut); a serving-only answer has none. */
Test(report_html, the_page_holds_the_launch_files)
{
    char *page = ts_path(dir, "launch.html");
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--preset", "academic-research", "--probe", "none", "--html", page);
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    char *html = ts_read(page, NULL);
    cr_assert_not_null(html);
    cr_expect(strstr(html, "<section id=\"launch-files\"><h2>Launch files</h2>") != NULL);
    cr_expect(strstr(html, "<summary>launch.sh (") != NULL && strstr(html, "<summary>README.txt (") != NULL, "%s", html);
    cr_expect(strstr(html, "exec torchrun --standalone --nnodes=1 --nproc_per_node=4 \\") != NULL, "launch.sh whole");
    cr_expect(strstr(html, "&quot;$TRAIN_SCRIPT&quot;") != NULL, "its quotes escaped");
    free(html);
    RUN(r, dbarg, "recommend", "--preset", "academic-research", "--set", "job=serve", "--probe", "none", "--html", page);
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    html = ts_read(page, NULL);
    cr_expect(strstr(html, "id=\"launch-files\"") == NULL, "serving only: no launch files");
    free(html);
    free(page);
}
