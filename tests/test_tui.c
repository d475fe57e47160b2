/* The interactive advisor, driven through tmux (send-keys, capture-pane), polling the screen
 * for content rather than sleeping. Also the layout arithmetic, without a terminal. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/support.h"
#include "tests/tmux_driver.h"
#include "tui/layout.h"

/* --- layout, no terminal ----------------------------------------------------------------- */

Test(layout, bars_and_scrolling)
{
    char bar[256];
    tui_bar(bar, sizeof bar, 0.5, 10, 0);
    cr_expect_str_eq(bar, "#####.....");
    tui_bar(bar, sizeof bar, 1.7, 4, 0);
    cr_expect_str_eq(bar, "####", "clamped to the width");
    tui_bar(bar, sizeof bar, -1, 3, 0);
    cr_expect_str_eq(bar, "...");
    tui_bar3(bar, sizeof bar, 0.2, 0.3, 10, 0);
    cr_expect_str_eq(bar, "##+++.....");
    tui_bar3(bar, sizeof bar, 0.8, 0.9, 10, 0);
    cr_expect_str_eq(bar, "########++", "the second segment gives way");
    size_t n = tui_bar(bar, sizeof bar, 0.5, 4, 1);
    cr_expect_eq(n, 2 * 3 + 2 * 2, "two full blocks (3 bytes) and two dots (2 bytes)");
    cr_expect(tui_fits(24, 80) && !tui_fits(23, 80) && !tui_fits(24, 79));
    cr_expect_eq(tui_move(0, -1, 5), 0);
    cr_expect_eq(tui_move(4, 1, 5), 4);
    cr_expect_eq(tui_move(2, 1, 5), 3);
    struct tui_split s = tui_wizard_split(80);
    cr_expect_eq(s.left_w + 1 + s.right_w, 80);
    cr_expect_geq(s.left_w, 40);
    /* wide: the panel beside a 100-column question, at most 64 wide; up to 139 columns, the edge */
    s = tui_wizard_split(200);
    cr_expect(s.left_w == 100 && s.right_x == 101 && s.right_w == 64, "%d %d %d", s.left_w, s.right_x, s.right_w);
    s = tui_wizard_split(150);
    cr_expect(s.left_w == 100 && s.right_w == 49, "%d %d", s.left_w, s.right_w);
    s = tui_wizard_split(139);
    cr_expect(s.left_w == 104 && s.right_w == 34, "%d %d", s.left_w, s.right_w);
}

/* The wizard's split on both sides of each width it changes at: the panel 28 wide below 110
 * columns and 34 from 110 (left = cols - right - 1: 109 - 29 = 80, 110 - 35 = 75); from 140 the
 * question keeps 100 and the panel the rest up to 64 (140 - 101 = 39, 165 - 101 = 64, capped at
 * 166). */
Test(layout, wizard_split_on_both_sides_of_each_width)
{
    static const struct { int cols, left_w, right_x, right_w; } cases[] = {
        {109, 80, 81, 28},   {110, 75, 76, 34},   {139, 104, 105, 34},
        {140, 100, 101, 39}, {165, 100, 101, 64}, {166, 100, 101, 64},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tui_split s = tui_wizard_split(cases[i].cols);
        cr_expect(s.left_w == cases[i].left_w && s.right_x == cases[i].right_x && s.right_w == cases[i].right_w,
                  "%d columns: %d %d %d", cases[i].cols, s.left_w, s.right_x, s.right_w);
    }
}

/* A bar's segment ends round half up: 0.125 of 4 is 0.5 (one cell), 0.375 of 4 is 1.5 (two),
 * 0.25 of 10 is 2.5 (three). */
Test(layout, bar_segments_end_at_the_nearest_cell)
{
    char bar[64];
    tui_bar(bar, sizeof bar, 0.125, 4, 0);
    cr_expect_str_eq(bar, "#...");
    tui_bar3(bar, sizeof bar, 0.125, 0.25, 4, 0);
    cr_expect_str_eq(bar, "#+..");
    tui_bar(bar, sizeof bar, 0.25, 10, 0);
    cr_expect_str_eq(bar, "###.......");
}

/* --- tmux (tests/tmux_driver.h) ------------------------------------------------------------ */

TestSuite(tui, .init = tty_setup, .fini = tty_teardown, .timeout = 180);

/* The ranking as recommend gives it for the same answers and the same (recorded) machine. */
static cJSON *recommend_json(const char *answers)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char sysroot[4200], xml[4300];
    snprintf(sysroot, sizeof sysroot, "FWADVISOR_SYSROOT=%s/sysroot/nvidia-h100", fixtures ? fixtures : "tests/fixtures");
    snprintf(xml, sizeof xml, "HWLOC_XMLFILE=%s/sysroot/nvidia-h100/topology.xml", fixtures ? fixtures : "tests/fixtures");
    const char *env[] = {sysroot, xml, "FWADVISOR_DB", "TPU_ACCELERATOR_TYPE", NULL};
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){tty_dbarg(), "recommend", "-a", answers, "--json", NULL}), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    ts_run_free(&r);
    return doc;
}

/* fwadvisor with the interface's recorded machine, in the same database. */
static cJSON *run_json(const char *const *args)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char sysroot[4200], xml[4300];
    snprintf(sysroot, sizeof sysroot, "FWADVISOR_SYSROOT=%s/sysroot/nvidia-h100", fixtures ? fixtures : "tests/fixtures");
    snprintf(xml, sizeof xml, "HWLOC_XMLFILE=%s/sysroot/nvidia-h100/topology.xml", fixtures ? fixtures : "tests/fixtures");
    const char *env[] = {sysroot, xml, "FWADVISOR_DB", "TPU_ACCELERATOR_TYPE", "NO_COLOR=1", NULL};
    const char *argv[16] = {tty_dbarg()};
    int n = 1;
    for (; args[n - 1] && n < 15; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    struct ts_run r;
    cr_assert_eq(ts_run(&r, env, NULL, argv), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    ts_run_free(&r);
    cr_assert_not_null(doc);
    return doc;
}

/* A run document without what differs between two runs of the same workloads: times, the
 * measured figures and the clock (measured on machines without cpufreq). */
static void strip_measurements(cJSON *doc)
{
    static const char *const top[] = {"id", "started_at", "duration_s"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) cJSON_DeleteItemFromObject(doc, top[i]);
    static const char *const cpu[] = {"max_mhz", "max_mhz_source", "peak_gflops_fp32", "peak_gflops_bf16", "peak_note"};
    for (size_t i = 0; i < sizeof cpu / sizeof cpu[0]; i++) cJSON_DeleteItemFromObject(cJSON_GetObjectItem(doc, "cpu"), cpu[i]);
    static const char *const fig[] = {"median", "min", "max", "mean", "cv", "noisy", "repeats", "peak_fraction"};
    cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results")) {
        for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++) cJSON_DeleteItemFromObject(r, fig[i]);
        /* measured in the run: the peak a training step is compared with, the best GEMM size, the
         * planned GPT step and the figures it was planned from */
        static const char *const planned[] = {"peak_tflops", "planned_ms", "gemm_ms", "memory_ms", "gemm_gflops",
                                              "bandwidth_gbs"};
        for (size_t i = 0; i < sizeof planned / sizeof planned[0]; i++)
            cJSON_DeleteItemFromObject(cJSON_GetObjectItem(r, "params"), planned[i]);
        if (!strcmp(cJSON_GetObjectItem(r, "metric")->valuestring, "gflops_best"))
            cJSON_DeleteItemFromObject(cJSON_GetObjectItem(r, "params"), "n");
    }
}

/* The interface and the command line run the same probe session: the same workloads give the
 * same document, catalog peaks of the recorded H100s included, whatever the measurements. */
Test(tui, the_interface_and_the_command_line_save_the_same_run_document, .timeout = 240)
{
    tty_start(100, 30, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys_n("Down", 2); /* Run a probe of this machine */
    tty_keys("Enter");
    free(tty_wait_s("saved as probe run", 180));
    tty_keys("q");
    cJSON *tui_doc = run_json((const char *const[]){"probe", "show", "latest", "--json", NULL});
    cJSON *cli_doc = run_json((const char *const[]){"probe", "--json", NULL});
    cr_expect(cJSON_GetArraySize(cJSON_GetObjectItem(tui_doc, "accelerators")) > 0);
    cr_expect_not_null(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(tui_doc, "accelerators"), 0), "catalog"),
                       "catalog peaks in the interface's run");
    strip_measurements(tui_doc);
    strip_measurements(cli_doc);
    char *a = cJSON_Print(tui_doc), *b = cJSON_Print(cli_doc);
    cr_expect_str_eq(a, b);
    free(a);
    free(b);
    cJSON_Delete(tui_doc);
    cJSON_Delete(cli_doc);
}

static void walk_preset(const char *preset)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char path[4200];
    snprintf(path, sizeof path, "%s/../../data/presets/%s.json", fixtures ? fixtures : "tests/fixtures", preset);
    tty_start(100, 32, "", 1);
    tty_load_answers(path);
    char *s = tty_wait("[1 Ranking]"); /* straight to the results */
    cJSON *doc = recommend_json(path);
    /* Every framework on screen in recommend's order, with recommend's score. */
    const char *at = s;
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(doc, "ranking")) {
        const char *name = cJSON_GetObjectItem(item, "name")->valuestring;
        char want[64];
        if (cJSON_IsTrue(cJSON_GetObjectItem(item, "excluded"))) snprintf(want, sizeof want, "%s", name);
        else snprintf(want, sizeof want, "%s %.1f", name, cJSON_GetObjectItem(item, "score")->valuedouble);
        /* the screen pads the name: compare name, then the score after it */
        const char *hit = strstr(at, name);
        cr_assert_not_null(hit, "%s: %s missing after the previous framework:\n%s", preset, name, s);
        if (!cJSON_IsTrue(cJSON_GetObjectItem(item, "excluded"))) {
            char score[16];
            snprintf(score, sizeof score, "%.1f", cJSON_GetObjectItem(item, "score")->valuedouble);
            const char *eol = strchr(hit, '\n');
            const char *sc = strstr(hit, score);
            cr_expect(sc && (!eol || sc < eol), "%s: %s should score %s:\n%s", preset, name, score, s);
        }
        at = hit + strlen(name);
        (void)want;
    }
    cJSON_Delete(doc);
    free(s);
}

Test(tui, wizard_gives_recommends_ranking_for_the_mobile_preset) { walk_preset("mobile-app"); }
Test(tui, wizard_gives_recommends_ranking_for_the_tpu_preset) { walk_preset("tpu-pod"); }

Test(tui, back_navigation_keeps_choices)
{
    tty_start(100, 30, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("Enter");
    free(tty_wait("Step 1 of 18"));
    tty_keys_n("Down", 2); /* Research -> Production */
    tty_keys("Enter");
    free(tty_wait("Step 2 of 18"));
    tty_keys("BSpace");
    char *s = tty_wait("Step 1 of 18");
    cr_expect(strstr(s, "(*) Production") != NULL, "the choice survives going back:\n%s", s);
    free(s);
    tty_keys("Escape");
    free(tty_wait("Start the advisor"));
}

/* The device question lists the catalog's devices of the hardware chosen, with their memory, and
 * the Plan tab shows the layout and the memory breakdown for the device picked. */
static void device_question_follows_the_hardware_and_the_plan_shows_it(int w, int h)
{
    tty_start(w, h, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("Enter");
    free(tty_wait("Step 1 of 18"));
    tty_keys("Enter");
    free(tty_wait("Step 2 of 18"));
    tty_keys("Down"); /* Detected -> NVIDIA GPUs */
    tty_keys("Enter");
    char *s = tty_wait("Device model (memory)");
    cr_expect(strstr(s, "Detected, or the usual one (assumed)") != NULL, "%s", s);
    cr_expect(strstr(s, "NVIDIA A100 SXM4 40GB, 40 GB") != NULL, "NVIDIA devices listed:\n%s", s);
    cr_expect(strstr(s, "MI300X") == NULL, "no AMD devices for NVIDIA hardware:\n%s", s);
    free(s);
    tty_keys("Down"); /* the first NVIDIA device in catalog order: a100-sxm4-40gb */
    tty_keys_n("Enter", 16); /* steps 3 to 18 (pre-training, no deployment: no fine-tuning or serving questions) */
    free(tty_wait("[1 Ranking]"));
    tty_keys("4");
    s = tty_wait("Memory per device");
    cr_expect(strstr(s, "A100 SXM4 40GB") != NULL, "the device picked:\n%s", s);
    cr_expect(strstr(s, "Layout:") != NULL && strstr(s, "Buffers:") != NULL, "%s", s);
    free(s);
}

Test(tui, device_question_follows_the_hardware_and_the_plan_shows_it_at_80x24)
{
    device_question_follows_the_hardware_and_the_plan_shows_it(80, 24);
}
Test(tui, device_question_follows_the_hardware_and_the_plan_shows_it_at_200x60)
{
    device_question_follows_the_hardware_and_the_plan_shows_it(200, 60);
}

Test(tui, export_writes_a_valid_report)
{
    tty_start(100, 30, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("Enter");
    free(tty_wait("Step 1 of 18"));
    tty_keys_n("Enter", 18);
    free(tty_wait("[1 Ranking]"));
    tty_keys("e");
    free(tty_wait("Export the report"));
    tty_keys("Enter");
    free(tty_wait("report written to ./fwadvisor-report.json"));
    char *path = ts_path(tty_dir(), "fwadvisor-report.json"), err[1024], schema[4200];
    const char *sd = getenv("FWADVISOR_SCHEMA_DIR");
    snprintf(schema, sizeof schema, "%s/report.schema.json", sd ? sd : "docs");
    int rc = ts_validate_json(path, schema, err, sizeof err);
    cr_expect_neq(rc, 1, "%s", err);
    char *text = ts_read(path, NULL);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    cr_expect_not_null(doc);
    cJSON_Delete(doc);
    free(text);
    free(path);
}

/* h on the results: the same editable path prompt as e, then the page recommend --html writes. */
Test(tui, html_key_writes_the_page)
{
    tty_start(100, 30, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("Enter");
    free(tty_wait("Step 1 of 18"));
    tty_keys_n("Enter", 18);
    free(tty_wait("[1 Ranking]"));
    tty_keys("h");
    free(tty_wait("Write the report as an HTML page to"));
    tty_keys("Enter");
    free(tty_wait("HTML report written to ./fwadvisor-report.html"));
    char *path = ts_path(tty_dir(), "fwadvisor-report.html");
    char *text = ts_read(path, NULL);
    cr_assert_not_null(text);
    cr_expect(strncmp(text, "<!DOCTYPE html>", 15) == 0);
    cr_expect(strstr(text, "<section id=\"ranking\">") && strstr(text, "</html>"), "a whole page");
    free(text);
    free(path);
    /* Left still goes back, now that h does not */
    tty_keys("Left");
    free(tty_wait(" of 18"));
}

Test(tui, small_terminal_says_so_and_recovers)
{
    tty_start(100, 30, "", 1);
    free(tty_wait("Start the advisor"));
    tty_tmux((const char *const[]){"resize-window", "-t", "t", "-x", "60", "-y", "20", NULL}, NULL);
    free(tty_wait("terminal too small (need 80x24"));
    tty_tmux((const char *const[]){"resize-window", "-t", "t", "-x", "100", "-y", "30", NULL}, NULL);
    char *s = tty_wait("Start the advisor");
    cr_expect(strstr(s, "too small") == NULL);
    free(s);
}

/* Any SGR sequence that sets a colour (30-37, 40-47, 90-97, 100-107, 38;..., 48;...); tmux's
 * own resets to the defaults (39, 49) are not colours. */
static int has_colour(const char *s)
{
    for (const char *p = strstr(s, "\033["); p; p = strstr(p + 1, "\033[")) {
        const char *q = p + 2;
        while (*q && *q != 'm' && (*q == ';' || (*q >= '0' && *q <= '9'))) {
            int v = atoi(q);
            if ((v >= 30 && v <= 38) || (v >= 40 && v <= 48) || (v >= 90 && v <= 107)) return 1;
            while (*q >= '0' && *q <= '9') q++;
            if (*q == ';') q++;
        }
    }
    return 0;
}

Test(tui, ascii_and_no_color)
{
    tty_start(100, 30, "LANG=C LC_ALL=C NO_COLOR=1", 1);
    char *home = tty_screen(1);
    free(home);
    free(tty_wait("Start the advisor"));
    tty_keys("Enter");
    char *s = tty_wait("Step 1 of 18");
    cr_expect(strstr(s, "+------") != NULL, "ASCII box under LANG=C:\n%s", s);
    cr_expect(strstr(s, "####") != NULL, "ASCII bars under LANG=C");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) cr_assert_lt(*p, 0x80, "a non-ASCII byte on screen");
    free(s);
    char *e = tty_screen(1);
    cr_expect_not(has_colour(e), "no colour under NO_COLOR");
    free(e);
    /* The reasons quote seed ratings glossed in English with the Chinese original in
     * parentheses: under LANG=C the original is left out, never shown as '??'. */
    tty_keys_n("Enter", 18);
    free(tty_wait("[1 Ranking]"));
    tty_keys("2");
    char *why = tty_wait("rates it");
    cr_expect(strstr(why, "??") == NULL, "'?\?' on the Why screen under LANG=C:\n%s", why);
    for (const unsigned char *p = (const unsigned char *)why; *p; p++) cr_assert_lt(*p, 0x80, "a non-ASCII byte on screen");
    free(why);
}

Test(tui, quit_restores_the_terminal)
{
    tty_start(100, 30, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("?");
    free(tty_wait("Keys (every screen)"));
    tty_keys("x"); /* any key closes help */
    tty_keys("q");
    char *s = tty_wait("EXITED status=0");
    free(s);
    struct ts_run r;
    tty_tmux((const char *const[]){"display-message", "-p", "-t", "t", "#{alternate_on}", NULL}, &r);
    cr_expect_str_eq(r.out, "0\n", "left the alternate screen");
    ts_run_free(&r);
}

Test(tui, ctrl_c_restores_the_terminal)
{
    struct ts_run r;
    tty_start(100, 30, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("C-c");
    free(tty_wait("EXITED status=130"));
    tty_tmux((const char *const[]){"display-message", "-p", "-t", "t", "#{alternate_on}", NULL}, &r);
    cr_expect_str_eq(r.out, "0\n");
    ts_run_free(&r);
}

static void browse_the_knowledge_base_and_probe(int w, int h)
{
    tty_start(w, h, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys_n("Down", 4);
    tty_keys("Enter");
    char *s = tty_wait("[frameworks]");
    cr_expect(strstr(s, "pytorch") && strstr(s, "Scores (0-10"), "%s", s);
    free(s);
    tty_keys("Tab");
    free(tty_wait("[criteria]"));
    tty_keys("Tab");
    free(tty_wait("[support]"));
    tty_keys("Escape");
    free(tty_wait("> Start the advisor")); /* home opens at its first item */
    tty_keys_n("Down", 2);
    tty_keys("Enter");
    free(tty_wait("Esc cancels"));
    tty_keys("Escape");
    /* Cancelled: either a run with what finished, or nothing when nothing had finished yet. */
    s = tty_wait_s("Esc: home  b: baseline", 90);
    int saved = strstr(s, "saved as probe run") != NULL;
    cr_expect(saved || strstr(s, "nothing saved"), "%s", s);
    /* The command line's table of what finished; when the Esc came before anything had (the
     * machine's pace decides), the workloads listed as interrupted instead. */
    if (saved) cr_expect(strstr(s, "WORKLOAD") && strstr(s, "MEDIAN"), "the command line's table:\n%s", s);
    else cr_expect(strstr(s, "interrupted") || strstr(s, "INTERRUPTED"), "the run said to be cut short:\n%s", s);
    /* the title says the run is over; b with no other stored run says so */
    cr_expect(strstr(s, "measuring this machine") == NULL, "the title after the run:\n%s", s);
    free(s);
    if (saved) {
        tty_keys("b");
        free(tty_wait("no other stored probe run to compare with"));
    }
    tty_keys("h");
    free(tty_wait("Write the probe run as an HTML page to"));
    tty_keys("Enter");
    free(tty_wait("HTML report written to ./fwadvisor-probe.html"));
    /* The run stored opens again from the home screen. */
    tty_keys("Escape");
    free(tty_wait("> Start the advisor"));
    tty_keys_n("Down", 3); /* Open the latest probe run */
    tty_keys("Enter");
    s = tty_wait(saved ? "stored probe run" : "no probe run stored yet");
    free(s);
}

Test(tui, browse_the_knowledge_base_and_probe_at_80x24) { browse_the_knowledge_base_and_probe(80, 24); }
Test(tui, browse_the_knowledge_base_and_probe_at_200x60) { browse_the_knowledge_base_and_probe(200, 60); }
