/* Every screen of the interface in a real terminal (tmux), at the advertised minimum of 80x24 and
 * at 200x60: key lines kept, help whole, panes that stop at their end and come back in one key,
 * the cursor on screen, the Plan's verdict shown, the Hardware tab against `recommend
 * --compare-hardware`, `/` search, the mouse, the wizard's typed
 * numbers and devices, readline editing, the knowledge-base browser, Esc on a probe, and the
 * command line's own output on a terminal. Every wait is for something on the screen; where
 * nothing should change, the help box is opened and closed as a barrier (keys are handled in
 * order), so a loaded machine only makes a test slower. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/support.h"
#include "tests/tmux_driver.h"

TestSuite(tui_screens, .init = tty_setup, .fini = tty_teardown, .timeout = 240);

#define UP_ARROW "\u25b2"
#define DOWN_ARROW "\u25bc"

/* Every key sent so far has been handled: the help box opened after them shows, then closes. */
static char *barrier(void)
{
    tty_keys("?");
    free(tty_wait("Press any key to close."));
    tty_keys("Escape");
    for (int i = 0; i < 1500; i++) {
        char *s = tty_settled();
        if (!strstr(s, "Press any key to close.")) return s;
        free(s);
        usleep(10000);
    }
    cr_assert_fail("the help box never closed");
    return NULL;
}

/* The key line: the last row, whole ("q: quit" at its end, nothing cut). */
static void expect_key_line(const char *s, int rows, const char *where)
{
    const char *last = tty_line(s, rows - 1);
    cr_expect(strstr(last, "q: quit") != NULL, "%s: the key line is cut or gone: '%s'\n%s", where, last, s);
    cr_expect(strstr(last, "...") == NULL, "%s: '%s'", where, last);
}

/* The help box opens whole on this screen and closes again. */
static void expect_help_whole(int rows, const char *where)
{
    tty_keys("?");
    char *s = tty_wait("Press any key to close.");
    cr_expect(strstr(s, "Keys (every screen)") != NULL, "%s:\n%s", where, s);
    cr_expect_not(tty_cut(s, 0, rows - 1), "%s: the help box cuts its text:\n%s", where, s);
    /* each key's line whole on one row: none wraps mid-phrase */
    static const char *const whole[] = {"PgUp/PgDn, Home/End   page, first, last", "mouse                 the wheel scrolls, a click selects",
                                        "/                     search (n, N: next, previous match)",
                                        "q                     quit (asks on results and probes)"};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        cr_expect(strstr(s, whole[i]) != NULL, "%s: '%s' not on one row:\n%s", where, whole[i], s);
    free(s);
    tty_keys("x"); /* any key closes it */
    free(barrier());
}

static void results_of_preset(int w, int h, const char *preset)
{
    tty_start(w, h, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("Down");
    tty_keys("Enter");
    free(tty_wait("start from a preset"));
    tty_keys("/");
    tty_type(preset);
    tty_keys("Enter");
    free(tty_wait(preset));
    tty_keys("Enter");
    free(tty_wait("[1 Ranking]"));
}

/* --- every screen: key line and help ----------------------------------------------------- */

static void every_screen(int w, int h)
{
    /* A stored probe run to open. */
    struct ts_run r;
    const char *env[] = {"FWADVISOR_DB", NULL};
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){tty_dbarg(), "probe", "--workload", "train-tiny", NULL}), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    results_of_preset(w, h, "tpu-pod");
    static const char *const tabs[] = {"[1 Ranking]", "[2 Why]",     "[3 Compare]", "[4 Plan]",
                                       "[5 Deploy]",  "[6 Pitfalls]", "[7 Hardware]"};
    for (int t = 0; t < 7; t++) {
        char key[2] = {(char)('1' + t), 0};
        tty_keys(key);
        char *s = tty_wait(tabs[t]);
        expect_key_line(s, h, tabs[t]);
        free(s);
        expect_help_whole(h, tabs[t]);
    }
    tty_keys("Escape");
    char *s = tty_wait("Step 1 of");
    expect_key_line(s, h, "wizard");
    free(s);
    expect_help_whole(h, "wizard");
    tty_keys("Escape");
    free(tty_wait("fwadvisor  choose a training framework"));
    s = tty_settled();
    expect_key_line(s, h, "home");
    free(s);
    expect_help_whole(h, "home");
    tty_keys("Home");
    tty_keys_n("Down", 4);
    tty_keys("Enter");
    s = tty_wait("[frameworks]");
    expect_key_line(s, h, "kb list");
    free(s);
    tty_keys("Enter");
    s = tty_wait("Left/Esc: the list");
    expect_key_line(s, h, "kb detail");
    free(s);
    expect_help_whole(h, "kb");
    tty_keys("Escape");
    tty_keys("Escape");
    free(tty_wait("> Start the advisor")); /* home opens at its first item */
    tty_keys_n("Down", 3);
    tty_keys("Enter");
    s = tty_wait("stored probe run");
    expect_key_line(s, h, "probe");
    free(s);
    expect_help_whole(h, "probe");
}

Test(tui_screens, every_screen_keeps_its_key_line_and_whole_help_at_80x24) { every_screen(80, 24); }
Test(tui_screens, every_screen_keeps_its_key_line_and_whole_help_at_200x60) { every_screen(200, 60); }

/* --- scrolling ----------------------------------------------------------------------------- */

/* fits_with: NULL when the tab must overflow the screen; else the text of its last line, which
 * a tab that fits whole shows (with no scroll mark) instead. */
static void scroll_stops_and_returns(int w, int h, const char *tab, const char *first_line, const char *fits_with)
{
    results_of_preset(w, h, "gpt4-class-model");
    tty_keys(tab);
    char *s = tty_wait(first_line);
    int scrolls = strstr(s, DOWN_ARROW) != NULL;
    cr_expect_eq(strstr(s, UP_ARROW), NULL, "at the start: nothing above\n%s", s);
    if (!scrolls) {
        cr_expect(fits_with != NULL, "the tab should overflow %dx%d:\n%s", w, h, s);
        if (fits_with) cr_expect(strstr(s, fits_with) != NULL, "all of it fits, so its last line shows:\n%s", s);
        free(s);
        return;
    }
    free(s);
    tty_keys("End");
    char *end = barrier();
    cr_expect(strstr(end, UP_ARROW) && !strstr(end, DOWN_ARROW), "at the end:\n%s", end);
    const char *last = tty_line(end, h - 3);
    cr_expect(strspn(last, " ") < strlen(last) - 3, "the last page is full, not empty: '%s'\n%s", last, end);
    tty_keys_n("Down", 30);
    tty_keys_n("PageDown", 3);
    char *after = barrier();
    cr_expect_str_eq(after, end, "past the end nothing moves");
    tty_keys("Home");
    char *home = barrier();
    cr_expect(strstr(home, first_line) && !strstr(home, UP_ARROW), "one key back to the start:\n%s", home);
    tty_keys("PageDown");
    char *page = barrier();
    cr_expect(strstr(page, UP_ARROW) != NULL, "a page down:\n%s", page);
    tty_keys("PageUp");
    char *back = barrier();
    cr_expect_str_eq(back, home, "a page up returns");
    free(end), free(after), free(home), free(page), free(back);
}

Test(tui_screens, plan_scrolls_to_its_end_and_back_at_80x24) { scroll_stops_and_returns(80, 24, "4", "Alternatives:", NULL); }
Test(tui_screens, plan_scrolls_to_its_end_and_back_at_200x60)
{
    scroll_stops_and_returns(200, 60, "4", "Alternatives:", "Not offered: torch-xla");
}
Test(tui_screens, why_scrolls_to_its_end_and_back_at_80x24) { scroll_stops_and_returns(80, 24, "2", "points from", NULL); }
Test(tui_screens, why_scrolls_to_its_end_and_back_at_200x60)
{
    scroll_stops_and_returns(200, 60, "2", "points from", "precision and kernel choices are tuned. [seed-003]");
}

/* The Pitfalls checklist keeps the selected item on screen to the last; Space ticks it. */
static void cursor_stays_visible(int w, int h)
{
    results_of_preset(w, h, "gpt4-class-model");
    tty_keys("6");
    char *s = tty_wait("Checklist (Space ticks): 0 of");
    int n = atoi(strstr(s, " of ") + 4);
    free(s);
    cr_assert_gt(n, 3);
    tty_keys_n("Down", n - 1);
    tty_keys("Space");
    char want[64];
    snprintf(want, sizeof want, "1 of %d ticked", n);
    s = tty_wait(want);
    /* The ticked one is the last: its mark shows, so it is on screen. */
    cr_expect(strstr(s, "[x]") != NULL, "the cursor's item is not on screen:\n%s", s);
    cr_expect(strstr(s, DOWN_ARROW) == NULL, "the last item shown means nothing below:\n%s", s);
    free(s);
}

Test(tui_screens, cursor_stays_visible_at_80x24) { cursor_stays_visible(80, 24); }
Test(tui_screens, cursor_stays_visible_at_100x30) { cursor_stays_visible(100, 30); }

/* --- the Plan's verdict -------------------------------------------------------------------- */

/* 70B fully fine-tuned on 8 A100-80GB cannot fit (16 x 70e9 bytes of states): the verdict says
 * so at 80x24 without scrolling, whole. */
/* The Plan tab at 80x24 for the answers in json (written to a file and loaded). Caller frees. */
static char *plan_tab_of(const char *json)
{
    char *answers = ts_path(tty_dir(), "answers.json");
    ts_write_str(answers, json);
    tty_start(80, 24, "", 1);
    tty_load_answers(answers);
    free(tty_wait("[1 Ranking]"));
    tty_keys("4");
    free(answers);
    return tty_wait("[4 Plan]");
}

Test(tui_screens, plan_verdict_visible_at_80x24)
{
    char *s = plan_tab_of("{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 8, \"model_kind\": \"llm\", \"model_params\": "
                          "\"70B\", \"tokens\": \"1B\", \"host_memory_gb\": 512}");
    cr_expect(strstr(s, "usable per device, DOES NOT FIT.") != NULL, "%s", s);
    cr_expect(strstr(s, "Time:") != NULL, "%s", s);
    cr_expect_not(tty_cut(s, 3, 6), "the verdict is cut:\n%s", s);
    free(s);
}

/* Serving a 70B LLM on 8 H100 (deploy server, no tokens: job serve): the Plan says there is no
 * training plan and shows the serving plan first, 140 GB of bf16 weights over tensor parallel 4. */
Test(tui_screens, plan_of_serving_only_has_no_training_at_80x24)
{
    char *s = plan_tab_of("{\"accelerator\": \"h100-sxm\", \"devices\": 8, \"model_kind\": \"llm\", \"model_params\": \"70B\","
                          " \"deploy\": \"server\"}");
    cr_expect(strstr(s, "No training plan: serving only (job serve, derived)") != NULL, "%s", s);
    /* per device: 140 / 4 = 35.0 GB of weights + 2.6 GB of KV cache + 2.9 GB framework = 40.5 GB */
    cr_expect(strstr(s, "Serving only: 40.5 of 80 GB per device on 4 devices, fits.") != NULL, "%s", s);
    cr_expect(strstr(s, "Serving plan (job serve)") != NULL, "%s", s);
    cr_expect(strstr(s, "on 4 x NVIDIA H100") != NULL, "%s", s);
    cr_expect(strstr(s, "Time:") == NULL && strstr(s, "Strategy:") == NULL, "%s", s);
    free(s);
}

/* --- the Hardware tab ------------------------------------------------------------------------ */

/* A 70B LoRA fine-tune for a JAX team at 2.50 a device-hour (README's example); os linux as the
 * interface's wizard has it on the recorded machine, so both sides plan the same answers. */
#define HW_ANSWERS(priority)                                                                                             \
    "{\"model_kind\": \"llm\", \"model\": \"llama-3.1-70b\", \"job\": \"finetune\", \"finetune\": \"lora\", \"dataset_tokens\": " \
    "\"1B\", \"team\": [\"jax\"], \"os\": \"linux\", \"priority\": \"" priority "\", \"price_per_device_hour\": 2.5}"

/* What `recommend --compare-hardware` prints for the answers in a file: its heading, first row and
 * its refused accelerators, each entry joined from its wrapped lines ("acc: why"). */
struct cli_compare {
    char heading[256], first[256];
    char refused[48][1400];
    int nrefused;
};

/* s with the scroll bar's marks left out and each run of spaces one space, trimmed. */
static void collapse(const char *s, char *out, size_t n)
{
    static const char *const marks[] = {"\u2502", "\u2588", UP_ARROW, DOWN_ARROW};
    size_t used = 0;
    int space = 1;
    while (*s && used + 1 < n) {
        int mark = 0;
        for (size_t m = 0; m < 4 && !mark; m++)
            if (strncmp(s, marks[m], strlen(marks[m])) == 0) mark = (int)strlen(marks[m]);
        if (mark || *s == ' ') {
            s += mark ? mark : 1;
            if (!space) out[used++] = ' ';
            space = 1;
            continue;
        }
        out[used++] = *s++;
        space = 0;
    }
    while (used && out[used - 1] == ' ') used--;
    out[used] = '\0';
}

/* The command line on the recorded machine the interface's tests run on (tty_start(..., 1)),
 * with the same database: args after --db. */
static void run_as_recorded(struct ts_run *r, const char *const *args)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char sysroot[4200], xml[4300];
    snprintf(sysroot, sizeof sysroot, "FWADVISOR_SYSROOT=%s/sysroot/nvidia-h100", fixtures ? fixtures : "tests/fixtures");
    snprintf(xml, sizeof xml, "HWLOC_XMLFILE=%s/sysroot/nvidia-h100/topology.xml", fixtures ? fixtures : "tests/fixtures");
    const char *env[] = {sysroot, xml, "FWADVISOR_DB", "TPU_ACCELERATOR_TYPE", NULL};
    const char *argv[16] = {tty_dbarg()};
    for (int i = 0; args[i] && i < 14; i++) argv[i + 1] = args[i];
    cr_assert_eq(ts_run(r, env, NULL, argv), 0);
}

/* config: a config file for the command line to read, or NULL for none. */
static void cli_compare_with(const char *answers, const char *config, struct cli_compare *out)
{
    struct ts_run r;
    if (config)
        run_as_recorded(&r, (const char *const[]){"--config", config, "recommend", "-a", answers, "--compare-hardware", NULL});
    else
        run_as_recorded(&r, (const char *const[]){"recommend", "-a", answers, "--compare-hardware", NULL});
    cr_assert_eq(r.status, 0, "%s", r.err);
    memset(out, 0, sizeof *out);
    int lineno = 0, refusals = 0;
    for (char *save = NULL, *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save), lineno++) {
        if (lineno == 0) snprintf(out->heading, sizeof out->heading, "%s", line);
        if (lineno == 2) collapse(line, out->first, sizeof out->first);
        if (strcmp(line, "Cannot run this job:") == 0) refusals = 1;
        else if (refusals && strncmp(line, "    ", 4) == 0 && out->nrefused) { /* a wrapped entry's next line */
            char *e = out->refused[out->nrefused - 1], part[1400];
            collapse(line, part, sizeof part);
            snprintf(e + strlen(e), sizeof out->refused[0] - strlen(e), " %s", part);
        } else if (refusals && strncmp(line, "  ", 2) == 0 && out->nrefused < 48)
            collapse(line, out->refused[out->nrefused++], sizeof out->refused[0]);
    }
    ts_run_free(&r);
    cr_assert(out->first[0] && out->nrefused > 0, "the command line's table and refusals");
}

static void cli_compare_of(const char *answers, struct cli_compare *out)
{
    cli_compare_with(answers, NULL, out);
}

/* The row of the screen that holds the table's column header (the pane starts under it). */
static int header_row(const char *s, int h)
{
    for (int y = 3; y < h; y++)
        if (strncmp(tty_line(s, y), " ACCELERATOR  ", 14) == 0) return y;
    cr_assert_fail("no column header:\n%s", s);
    return -1;
}

/* The screen's rows from y to the pane's last (h - 3), collapsed and joined. */
static void joined_from(const char *s, int y, int h, char *out, size_t n)
{
    out[0] = '\0';
    for (; y <= h - 3; y++) {
        char part[1024];
        collapse(tty_line(s, y), part, sizeof part);
        if (part[0]) snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? " " : "", part);
    }
}

/* The Hardware tab of the answers loaded: the command line's heading, and its first row with the
 * same figures (the accelerator first; at 200 columns its name follows it). Returns the screen. */
static char *hardware_tab_shows(const struct cli_compare *cli, int h)
{
    tty_keys("7");
    char *s = tty_wait(" ACCELERATOR  ");
    cr_expect(strstr(s, cli->heading) != NULL, "'%s' not on:\n%s", cli->heading, s);
    char first[1024], acc[64];
    collapse(tty_line(s, header_row(s, h) + 1), first, sizeof first);
    snprintf(acc, sizeof acc, "%.*s", (int)strcspn(cli->first, " "), cli->first);
    cr_expect(strncmp(first, acc, strlen(acc)) == 0 && first[strlen(acc)] == ' ', "the first row is %s's: '%s'\n%s", acc, first, s);
    cr_expect(strstr(first, cli->first + strlen(acc)) != NULL, "'%s' holds '%s'\n%s", first, cli->first, s);
    return s;
}

/* The answers in json written to a file, what the command line prints for them, and the
 * interface started at w x h with them loaded, on the results. Caller frees. */
static struct cli_compare *results_with_cli(int w, int h, const char *json)
{
    char *answers = ts_path(tty_dir(), "answers.json");
    ts_write_str(answers, json);
    struct cli_compare *cli = calloc(1, sizeof *cli);
    cr_assert_not_null(cli);
    cli_compare_of(answers, cli);
    tty_start(w, h, "", 1);
    tty_load_answers(answers);
    free(tty_wait("[1 Ranking]"));
    free(answers);
    return cli;
}

static void hardware_tab(int w, int h)
{
    struct cli_compare *cli = results_with_cli(w, h, HW_ANSWERS("cost"));
    char *s = hardware_tab_shows(cli, h);
    int top = header_row(s, h) + 1;
    expect_key_line(s, h, "hardware");
    cr_expect_not(tty_cut(s, 3, h - 3), "nothing cut:\n%s", s);
    cr_expect(strstr(s, DOWN_ARROW) != NULL, "more below:\n%s", s);
    free(s);
    /* '/' finds the first refused accelerator, below the first page: n brings its line into view
     * (to the pane's top where the pane goes on far enough), its reason whole under it, as the
     * command line words it. */
    char query[64], lead[80], joined[8192];
    snprintf(query, sizeof query, "%.*s", (int)strcspn(cli->refused[0], " "), cli->refused[0]); /* "acc:" */
    snprintf(lead, sizeof lead, "   %s ", query);
    s = tty_settled();
    cr_expect(strstr(s, lead) == NULL, "'%s' is below the first page:\n%s", lead, s);
    free(s);
    tty_keys("/");
    tty_type(query);
    tty_keys("Enter");
    tty_keys("n");
    s = barrier();
    int y = -1;
    for (int i = top; i <= h - 3 && y < 0; i++)
        if (strncmp(tty_line(s, i), lead, strlen(lead)) == 0) y = i;
    cr_assert_geq(y, 0, "'%s' found:\n%s", lead, s);
    if (w == 80) cr_expect_eq(y, top, "at the pane's top:\n%s", s);
    joined_from(s, y, h, joined, sizeof joined);
    cr_expect(strncmp(joined, cli->refused[0], strlen(cli->refused[0])) == 0, "'%s', then '%s'\n%s", cli->refused[0], joined, s);
    free(s);
    tty_keys("Escape"); /* the search cleared, still on the tab */
    /* End: the last refused accelerator and its reason, the pane at its end. */
    tty_keys("End");
    s = barrier();
    cr_expect(strstr(s, UP_ARROW) && !strstr(s, DOWN_ARROW), "at the end:\n%s", s);
    const char *last = cli->refused[cli->nrefused - 1];
    char acc[64];
    snprintf(acc, sizeof acc, " %.*s", (int)strcspn(last, " "), last);
    y = -1;
    for (int i = top; i <= h - 3 && y < 0; i++)
        if (strstr(tty_line(s, i), acc)) y = i;
    cr_assert_geq(y, 0, "'%s' at the end:\n%s", acc, s);
    joined_from(s, y, h, joined, sizeof joined);
    cr_expect_str_eq(joined, last, "the last entry ends the pane\n%s", s);
    free(s);
    tty_keys("Home");
    s = barrier();
    cr_expect(strstr(s, UP_ARROW) == NULL, "one key back to the start:\n%s", s);
    free(s);
    tty_keys("Escape"); /* as every tab: back to the wizard */
    free(tty_wait("Step 1 of"));
    free(cli);
}

/* A stored run opened from the home screen: the command line's table with every PARAMS cell whole
 * (an exponent in MIN..MAX once cut them to "784..1..."), no figure in exponent form, and an MFU in
 * percent with no second PEAK% of it; at 80x24 after scrolling to the end, at 200x60 at once. */
static void probe_run_table(int w, int h)
{
    struct ts_run r;
    run_as_recorded(&r, (const char *const[]){"probe", "--workload", "gemm,stream,train-mlp,train-gpt", NULL});
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    tty_start(w, h, "", 1);
    free(tty_wait("> Start the advisor"));
    tty_keys_n("Down", 3); /* Open the latest probe run */
    tty_keys("Enter");
    free(tty_wait(" WORKLOAD "));
    tty_keys("End");
    char *s = barrier();
    cr_expect(strstr(s, " 784..10 b256 ") && strstr(s, " 4x256 T128 ") && strstr(s, " planned "), "PARAMS whole:\n%s", s);
    cr_expect_not(tty_cut(s, 1, h - 3), "nothing cut:\n%s", s);
    cr_expect(strstr(s, "e+0") == NULL, "no exponent:\n%s", s);
    int mfu = 0;
    for (int y = 1; y < h - 2; y++) {
        const char *line = tty_line(s, y);
        if (!strstr(line, " mfu ")) continue;
        mfu = 1;
        char cells[256];
        collapse(line, cells, sizeof cells);
        size_t n = strlen(cells);
        cr_expect(n > 2 && strcmp(cells + n - 2, " -") == 0, "no PEAK%% of an MFU: '%s'", cells);
        cr_expect(strchr(cells, '%') != NULL, "the MFU in percent: '%s'", cells);
    }
    cr_expect(mfu, "the MFU row shown:\n%s", s);
    free(s);
}

Test(tui_screens, probe_run_table_whole_at_80x24) { probe_run_table(80, 24); }
Test(tui_screens, probe_run_table_whole_at_200x60) { probe_run_table(200, 60); }

/* The config file's [prices] price the Hardware tab as they price recommend --compare-hardware:
 * answers without a price of their own, the cheapest row is the config's MI300X at 2.75 (583),
 * not a row without a cost. */
static void hardware_tab_priced_by_the_config_file(int w, int h)
{
    char *dir = ts_path(tty_dir(), "fwadvisor");
    mkdir(dir, 0755);
    char *conf = ts_path(dir, "config");
    ts_write_str(conf, "[prices]\nh100-sxm = 3.25\nmi300x = 2.75\n");
    char *answers = ts_path(tty_dir(), "answers.json");
    ts_write_str(answers, "{\"model_kind\": \"llm\", \"model\": \"llama-3.1-70b\", \"job\": \"finetune\", \"finetune\": "
                          "\"lora\", \"dataset_tokens\": \"1B\", \"team\": [\"jax\"], \"os\": \"linux\", \"priority\": \"cost\"}");
    struct cli_compare cli;
    cli_compare_with(answers, conf, &cli);
    cr_expect(strncmp(cli.first, "mi300x ", 7) == 0 && strstr(cli.first, " 583") != NULL,
              "the command line prices by the config: '%s'", cli.first);
    char envs[4400];
    snprintf(envs, sizeof envs, "XDG_CONFIG_HOME=%s", tty_dir());
    tty_start(w, h, envs, 1);
    tty_load_answers(answers);
    free(tty_wait("[1 Ranking]"));
    free(hardware_tab_shows(&cli, h));
    free(answers);
    free(conf);
    free(dir);
}

Test(tui_screens, hardware_tab_priced_by_the_config_file_at_80x24) { hardware_tab_priced_by_the_config_file(80, 24); }
Test(tui_screens, hardware_tab_priced_by_the_config_file_at_200x60) { hardware_tab_priced_by_the_config_file(200, 60); }

Test(tui_screens, hardware_tab_is_recommend_compare_hardware_at_80x24) { hardware_tab(80, 24); }
Test(tui_screens, hardware_tab_is_recommend_compare_hardware_at_200x60) { hardware_tab(200, 60); }

/* A trillion-parameter pre-training at 2.50 a device-hour: costs in the billions make the table
 * wider than 80 columns (86 on the command line), so at 80x24 the layout, the column of least
 * use, gives way and every other cell is whole; at 200 columns every column shows, the
 * accelerator's name too. */
static void hardware_columns(int w, int h)
{
    struct cli_compare *cli =
        results_with_cli(w, h,
                         "{\"stage\": \"research\", \"hardware\": \"nvidia\", \"os\": \"linux\", \"devices\": 4096, \"nodes\": 512,"
                         " \"model_kind\": \"llm\", \"model_params\": \"1T\", \"seq_len\": 8192, \"team\": [\"pytorch\", \"jax\"],"
                         " \"deploy\": \"server\", \"job\": \"pretrain\", \"priority\": \"cost\", \"price_per_device_hour\": 2.5}");
    tty_keys("7");
    char *s = tty_wait(" ACCELERATOR  ");
    int y = header_row(s, h);
    char header[1024];
    snprintf(header, sizeof header, "%s", tty_line(s, y)); /* tty_line's buffer is reused */
    cr_expect(strstr(header, "DEVICES") && strstr(header, "MEMORY") && strstr(header, "TIME") && strstr(header, "DEV-HOURS") &&
                  strstr(header, "COST"),
              "'%s'", header);
    cr_expect_not(tty_cut(s, 3, h - 3), "nothing cut:\n%s", s);
    char first[1024], want[256];
    collapse(tty_line(s, y + 1), first, sizeof first);
    if (w == 80) {
        cr_expect(strstr(header, "TPxPPxDP") == NULL, "the layout gives way: '%s'", header);
        /* the command line's row without its third cell, the layout ("1x1x544") */
        const char *third = strchr(strchr(cli->first, ' ') + 1, ' ');
        size_t lead = (size_t)(third - cli->first);
        snprintf(want, sizeof want, "%.*s%s", (int)lead, cli->first, strchr(third + 1, ' '));
        cr_expect_str_eq(first, want, "\n%s", s);
    } else {
        cr_expect(strstr(header, "TPxPPxDP") && strstr(header, "NAME") && strstr(header, "PRECISION"), "'%s'", header);
        const char *figures = strchr(cli->first, ' '); /* after the accelerator, its name, then the same */
        cr_expect(strncmp(first, cli->first, (size_t)(figures - cli->first)) == 0 && strstr(first, figures), "'%s' holds '%s'\n%s",
                  first, cli->first, s);
    }
    free(s);
    free(cli);
}

Test(tui_screens, hardware_columns_give_way_least_used_first_at_80x24) { hardware_columns(80, 24); }
Test(tui_screens, hardware_columns_all_shown_at_200x60) { hardware_columns(200, 60); }

/* The tab plans the answers shown: loading others (priority iteration: sorted by time) gives
 * their comparison, not the one planned before. */
Test(tui_screens, hardware_tab_is_planned_again_when_the_answers_change)
{
    char *cost = ts_path(tty_dir(), "cost.json"), *fast = ts_path(tty_dir(), "fast.json");
    ts_write_str(cost, HW_ANSWERS("cost"));
    ts_write_str(fast, HW_ANSWERS("iteration"));
    struct cli_compare *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    cr_assert(a && b);
    cli_compare_of(cost, a);
    cli_compare_of(fast, b);
    cr_assert_str_neq(a->first, b->first, "the two answers' first rows differ");
    cr_assert(strstr(b->heading, "sorted by time (priority iteration)"), "%s", b->heading);
    tty_start(80, 24, "", 1);
    tty_load_answers(cost);
    free(tty_wait("[1 Ranking]"));
    free(hardware_tab_shows(a, 24));
    tty_keys("H");
    tty_load_answers(fast);
    free(tty_wait("[1 Ranking]"));
    char *s = hardware_tab_shows(b, 24);
    cr_expect(strstr(s, "sorted by cost") == NULL, "%s", s);
    free(s);
    free(a), free(b), free(cost), free(fast);
}

/* --- search ------------------------------------------------------------------------------- */

Test(tui_screens, slash_filters_lists_and_finds_in_text)
{
    tty_start(100, 30, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys_n("Down", 4);
    tty_keys("Enter");
    free(tty_wait("[frameworks]"));
    tty_keys("/");
    tty_type("tensor");
    tty_keys("Enter");
    char *s = barrier();
    int listed_pytorch = 0, listed_tf = 0;
    for (int y = 3; y < 28; y++) {
        char col[40];
        snprintf(col, sizeof col, "%.30s", tty_line(s, y));
        listed_pytorch |= strstr(col, "pytorch") != NULL;
        listed_tf |= strstr(col, "tensorflow") != NULL;
    }
    cr_expect(listed_tf && !listed_pytorch, "the list filtered to 'tensor':\n%s", s);
    free(s);
    tty_keys("Escape"); /* clears the search, stays */
    s = barrier();
    cr_expect(strstr(s, "pytorch  PyTorch") != NULL && strstr(s, "[frameworks]"), "%s", s);
    free(s);
    /* In a text pane: n goes to the next line holding the text, at the top of the pane. */
    tty_keys("Enter");
    free(tty_wait("Left/Esc: the list"));
    tty_keys("/");
    tty_type("Deployment");
    tty_keys("Enter");
    tty_keys("n");
    s = barrier();
    char top[1024];
    snprintf(top, sizeof top, "%s", tty_line(s, 3));
    for (char *c = top; *c; c++) *c = (char)tolower((unsigned char)*c);
    cr_expect(strstr(top, "deployment") != NULL, "n brought the next match (any case) to the top: '%s'\n%s", top, s);
    free(s);
}

/* --- the mouse ---------------------------------------------------------------------------- */

Test(tui_screens, mouse_wheel_scrolls_and_a_click_selects)
{
    results_of_preset(80, 24, "gpt4-class-model");
    tty_keys("4");
    char *s = tty_wait("Alternatives:");
    cr_expect(strstr(s, UP_ARROW) == NULL);
    free(s);
    tty_mouse(65, 20, 12); /* the wheel down over the pane */
    s = barrier();
    cr_expect(strstr(s, UP_ARROW) != NULL, "the wheel scrolled:\n%s", s);
    cr_expect(strstr(s, "Alternatives:") == NULL, "three lines down:\n%s", s);
    free(s);
    tty_mouse(64, 20, 12);
    s = barrier();
    cr_expect(strstr(s, "Alternatives:") && !strstr(s, UP_ARROW), "and back up:\n%s", s);
    free(s);
    /* A click on a tab opens it; a click on a framework selects it. */
    s = tty_settled();
    const char *tabs = tty_line(s, 1);
    int x = (int)(strstr(tabs, "1 Ranking") - tabs);
    free(s);
    tty_mouse(0, x + 2, 1);
    s = tty_wait("[1 Ranking]");
    const char *third = tty_line(s, 5);
    char name[32] = "";
    sscanf(third, " %*d %31s", name);
    free(s);
    cr_assert(name[0]);
    tty_mouse(0, 10, 5);
    tty_keys("Enter");
    char want[64];
    snprintf(want, sizeof want, "%s: ", name);
    s = tty_wait("[2 Why]");
    cr_expect(strstr(s, want) != NULL, "the third framework's reasons (%s):\n%s", name, s);
    free(s);
}

/* --- the probe ------------------------------------------------------------------------------ */

/* Esc stops the measuring within a second: the screen says how long it took, measured by the
 * program from the key to the end of the measuring thread, under a second at the machine's pace,
 * and the program used under TS_STOP_CPU of CPU until it said so. This machine, not the recorded one. */
Test(tui_screens, esc_cancels_a_probe_in_under_a_second)
{
    tty_start(100, 30, "", 0);
    free(tty_wait("Start the advisor"));
    tty_keys_n("Down", 2);
    tty_keys("Enter");
    free(tty_wait_s("Running (Esc cancels)", 60));
    pid_t pid = tty_program();
    double cpu0 = ts_cpu_of(pid);
    tty_keys("Escape");
    char *s = tty_wait_s("cancelled in ", 60);
    double cpu = ts_cpu_of(pid) - cpu0; /* the measuring's and the screen's since the key */
    cr_expect_lt(cpu, TS_STOP_CPU, "%.3f s of CPU between Esc and the screen saying so", cpu);
    const char *at = strstr(s, "cancelled in ") + strlen("cancelled in ");
    double seconds = atof(at);
    char unit[16] = "";
    sscanf(at, "%*f %15s", unit);
    cr_expect(strncmp(unit, "second", 6) == 0, "a fraction of a second, in seconds: %s", at);
    double second = ts_seconds_at_pace(1.0);
    cr_expect_lt(seconds, second, "Esc took %.3g s (a second is %.2f s at this pace):\n%s", seconds, second, s);
    free(s);
}

/* --- the wizard ------------------------------------------------------------------------------ */

/* A number typed on a numeric question, shown as its given option once taken. */
static void typed(const char *text, const char *shown)
{
    tty_type(text);
    tty_keys("Enter");
    free(tty_wait(shown));
}

static void wizard_takes_typed_numbers_and_lists_devices_by_vendor(int w, int h)
{
    tty_start(w, h, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("Enter");
    free(tty_wait("Step 1 of 18"));
    tty_keys("Enter"); /* stage */
    free(tty_wait("Step 2 of 18"));
    tty_keys("Enter"); /* hardware: detected (auto): every vendor's devices */
    char *s = tty_wait("Device model (memory)");
    cr_expect(strstr(s, "NVIDIA GPUs") && strstr(s, "NVIDIA A100 SXM4 40GB, 40 GB"), "grouped by vendor:\n%s", s);
    free(s);
    tty_keys("End");
    s = barrier();
    cr_expect(strstr(s, "Huawei Ascend") || strstr(s, "Intel GPUs"), "the last vendors:\n%s", s);
    free(s);
    tty_keys("Home");
    tty_keys("Enter"); /* device: detected */
    free(tty_wait("Step 4 of 18"));
    tty_keys("Enter"); /* os */
    free(tty_wait("Accelerators in total"));
    tty_type("12x");
    tty_keys("Enter");
    s = tty_wait("is not a whole number");
    cr_expect(strstr(s, "Step 5 of 18") != NULL, "stays on the question:\n%s", s);
    free(s);
    typed("2000", "2,000 (given)");
    tty_keys("Enter");
    free(tty_wait("Machines (nodes)"));
    typed("4000", "4,000 (given)");
    tty_keys("Enter");
    s = tty_wait("keys 'nodes' and 'devices'");
    cr_expect(strstr(s, "Step 6 of 18") != NULL, "a contradiction keeps the question:\n%s", s);
    free(s);
    typed("250", "250 (given)");
    tty_keys("Enter");
    free(tty_wait("Step 7 of 18"));
    tty_keys("Enter"); /* model kind */
    free(tty_wait("What the job is"));
    tty_keys("Enter"); /* the job: derived, pre-training */
    free(tty_wait("Model size (parameters)"));
    typed("30b", "(*) 30 billion"); /* a choice: selected, not given again */
    tty_keys_n("Enter", 10); /* steps 9 to 18 */
    free(tty_wait("[1 Ranking]"));
    tty_keys("4");
    s = tty_wait("[4 Plan]");
    cr_expect(strstr(s, "Devices: 2,000 x") && strstr(s, "on 250 nodes"), "%s", s);
    free(s);
}

Test(tui_screens, wizard_takes_typed_numbers_and_lists_devices_by_vendor_at_80x24)
{
    wizard_takes_typed_numbers_and_lists_devices_by_vendor(80, 24);
}
Test(tui_screens, wizard_takes_typed_numbers_and_lists_devices_by_vendor_at_200x60)
{
    wizard_takes_typed_numbers_and_lists_devices_by_vendor(200, 60);
}

/* A preset goes straight to the results: the same ranking as recommend --preset. */
Test(tui_screens, preset_picker_gives_recommends_ranking)
{
    results_of_preset(100, 30, "nvidia-2000-gpus");
    char *s = tty_settled();
    struct ts_run r;
    run_as_recorded(&r, (const char *const[]){"recommend", "--preset", "nvidia-2000-gpus", "--json", NULL});
    cJSON *doc = cJSON_Parse(r.out);
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "ranking"), 0);
    char want[64];
    snprintf(want, sizeof want, " 1  %-12s %5.1f", cJSON_GetObjectItem(first, "name")->valuestring,
             cJSON_GetObjectItem(first, "score")->valuedouble);
    cr_expect(strstr(s, want) != NULL, "'%s' not on:\n%s", want, s);
    cJSON_Delete(doc);
    ts_run_free(&r);
    free(s);
    /* Esc: the wizard, holding the preset's answers. */
    tty_keys("Escape");
    s = tty_wait("Step 1 of");
    cr_expect(strstr(s, "(*) Production") != NULL, "%s", s);
    free(s);
}

/* --- text prompts ----------------------------------------------------------------------------- */

Test(tui_screens, prompts_edit_like_readline_with_home_and_completion)
{
    char *file = ts_path(tty_dir(), "answers-for-the-test.json"), env[4400];
    ts_write_str(file, "{\"stage\": \"learning\", \"model_kind\": \"vision\"}");
    snprintf(env, sizeof env, "HOME=%s", tty_dir());
    tty_start(100, 30, env, 1);
    free(tty_wait("Start the advisor"));
    tty_keys_n("Down", 5);
    tty_keys("Enter");
    free(tty_wait("Answers file"));
    tty_type("abc");
    tty_keys("C-a");
    tty_type("X");
    free(tty_wait("Xabc"));
    tty_keys("C-e");
    tty_type(" two");
    tty_keys("C-w");
    tty_keys_n("Left", 2);
    tty_keys("C-k");
    tty_type("Z"); /* a mark to wait for: the keys before it have been handled once it shows */
    char *s = tty_wait("XabZ");
    cr_expect(strstr(s, "Xabc") == NULL && strstr(s, "Xab") != NULL, "Ctrl-W took 'two', Ctrl-K ' c':\n%s", s);
    free(s);
    tty_keys("C-u");
    tty_type("~/answers-for");
    tty_keys("Tab");
    free(tty_wait("~/answers-for-the-test.json"));
    tty_keys("Enter");
    s = tty_wait("[1 Ranking]");
    cr_expect(strstr(s, "answers-for-the-test.json") != NULL, "loaded from the home folder:\n%s", s);
    free(s);
    free(file);
}

/* --- the knowledge-base browser ----------------------------------------------------------------- */

static void kb_browser(int w, int h)
{
    struct ts_run r;
    const char *env[] = {"FWADVISOR_DB", NULL};
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){tty_dbarg(), "kb", "list", "sources", "--json", NULL}), 0);
    cJSON *doc = cJSON_Parse(r.out), *src, *longest = NULL;
    cJSON_ArrayForEach(src, doc) if (!longest || strlen(cJSON_GetObjectItem(src, "url")->valuestring) >
                                                     strlen(cJSON_GetObjectItem(longest, "url")->valuestring)) longest = src;
    char id[128], url[512];
    snprintf(id, sizeof id, "%s", cJSON_GetObjectItem(longest, "id")->valuestring);
    snprintf(url, sizeof url, "%s", cJSON_GetObjectItem(longest, "url")->valuestring);
    cJSON_Delete(doc);
    ts_run_free(&r);

    tty_start(w, h, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys_n("Down", 4);
    tty_keys("Enter");
    char *s = tty_wait("[frameworks]");
    cr_expect(strstr(s, "rules") && strstr(s, "sources"), "every kind has a tab:\n%s", s);
    /* the eight tabs whole, and a row whose id and name do not fit the list shows its id whole */
    cr_expect(strstr(s, "[frameworks] criteria  support  strategies  runtimes  devices  rules  sources") != NULL,
              "every tab whole:\n%s", s);
    cr_expect(strstr(s, "...") == NULL || w > 100, "nothing cut in the list:\n%s", s);
    free(s);
    tty_keys("6");
    free(tty_wait("[devices]"));
    tty_keys("/");
    tty_type("h100-sxm");
    tty_keys("Enter");
    s = barrier();
    /* a device's columns in words with their units, each beside its value */
    cr_expect(strstr(s, "Memory (GB)          80") && strstr(s, "BF16 (TFLOP/s)       989.4"), "a device's figures:\n%s", s);
    free(s);
    tty_keys("Escape");
    tty_keys("1");
    free(tty_wait("[frameworks]"));
    tty_keys("/");
    tty_type("pytorch");
    tty_keys("Enter");
    s = barrier();
    cr_expect(strstr(s, "Scores (0-10") && strstr(s, "debugging 9"), "a framework's scores with notes:\n%s", s);
    free(s);
    tty_keys("3");
    s = tty_wait("by framework (g: by hardware)");
    free(s);
    tty_keys("g");
    s = tty_wait("by hardware (g: by framework)");
    cr_expect(strstr(s, "\n amd ") && strstr(s, "paddlepaddle exp"), "grouped by hardware, levels whole:\n%s", s);
    free(s);
    tty_keys("8");
    free(tty_wait("[sources]"));
    tty_keys("/");
    tty_type(id);
    tty_keys("Enter");
    s = barrier();
    /* The address whole: on one line when it fits, else on lines of its own, starting in the same
     * column, that join to it. */
    char joined[4096] = "";
    size_t col = 0;
    int found = 0;
    for (int y = 3; y < h - 2 && !strstr(joined, url); y++) {
        const char *line = tty_line(s, y);
        if (!found) {
            const char *http = strstr(line, "http");
            if (!http) continue;
            found = 1;
            col = (size_t)(http - line);
        }
        if (strlen(line) <= col) break;
        char part[512];
        snprintf(part, sizeof part, "%s", line + col);
        part[strcspn(part, " ")] = '\0'; /* an address holds no space: the scroll bar's column ends it */
        char *bar = strstr(part, "\u2502");
        if (!bar) bar = strstr(part, "\u2588");
        if (bar) *bar = '\0';
        if (!*part) break;
        strncat(joined, part, sizeof joined - strlen(joined) - 1);
    }
    cr_expect(strstr(joined, url) != NULL, "'%s' not whole, read '%s':\n%s", url, joined, s);
    free(s);
}

Test(tui_screens, kb_browser_kinds_scores_grouping_and_whole_urls_at_80x24) { kb_browser(80, 24); }
Test(tui_screens, kb_browser_kinds_scores_grouping_and_whole_urls_at_200x60) { kb_browser(200, 60); }

/* --- the command line on a terminal ------------------------------------------------------------ */

/* On a terminal a table fits its width (cells give way) and its header is bold; --wide and
 * output that is not a terminal keep everything; an MPI launcher's pseudo-terminal gets no bold. */
Test(tui_screens, command_line_tables_on_a_terminal)
{
    const char *bin = getenv("FWADVISOR_BIN");
    char cmd[9000];
    snprintf(cmd, sizeof cmd,
             "env -u NO_COLOR %s %s kb list distributed; echo FIRST-DONE; env -u NO_COLOR %s %s kb list distributed --wide;"
             " echo WIDE-DONE; sleep 60",
             bin, tty_dbarg(), bin, tty_dbarg());
    tty_start_shell(80, 60, cmd);
    free(tty_wait("WIDE-DONE"));
    struct ts_run r;
    tty_tmux((const char *const[]){"capture-pane", "-p", "-J", "-e", "-t", "t", "-S", "0", NULL}, &r);
    char *first_end = strstr(r.out, "FIRST-DONE");
    cr_assert_not_null(first_end);
    *first_end = '\0';
    cr_expect(strstr(r.out, "...") != NULL, "fitted to 80 columns, a cell gave way:\n%s", r.out);
    cr_expect(strstr(r.out, "\033[1m") != NULL, "bold header on a terminal");
    const char *wide = first_end + 1;
    cr_expect(strstr(wide, "...") == NULL, "--wide cuts nothing:\n%s", wide);
    ts_run_free(&r);
}

/* A probe's table on an 80-column terminal fits it (lines joined where the terminal wrapped them). */
Test(tui_screens, probe_table_fits_an_80_column_terminal)
{
    const char *bin = getenv("FWADVISOR_BIN");
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "%s %s probe --workload train-tiny,stream --no-save 2>/dev/null; echo PROBE-DONE; sleep 60", bin,
             tty_dbarg()); /* stdout's lines: a plug-in's warning on stderr is not the table */
    tty_start_shell(80, 60, cmd);
    free(tty_wait_s("PROBE-DONE", 120));
    struct ts_run r;
    tty_tmux((const char *const[]){"capture-pane", "-p", "-J", "-t", "t", "-S", "0", NULL}, &r);
    cr_expect(strstr(r.out, "triad_gbs") != NULL, "%s", r.out);
    cr_expect_leq(ts_max_width(r.out), 80, "wider than the terminal:\n%s", r.out);
    ts_run_free(&r);
}

Test(tui_screens, no_bold_under_an_mpi_launcher)
{
    const char *bin = getenv("FWADVISOR_BIN");
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "env -u NO_COLOR OMPI_COMM_WORLD_RANK=0 %s %s kb list; echo LIST-DONE; sleep 60", bin, tty_dbarg());
    tty_start_shell(100, 30, cmd);
    free(tty_wait("LIST-DONE"));
    char *s = tty_screen(1);
    cr_expect(strstr(s, "ID") != NULL);
    cr_expect(strstr(s, "\033[1m") == NULL, "no bold on a launcher's pseudo-terminal:\n%s", s);
    free(s);
}

/* The job asked in the wizard, at 80x24: a 13B LLM on 8 H100s (loaded), fine-tuned with LoRA on
 * 1B tokens typed in, gets the fine-tuning plan, not pre-training's 20 tokens per parameter:
 * ceil(1e9 / (16 x 2,048)) = 30,518 optimizer steps, about 4 hours (tests/test_wizard_job.c). */
Test(tui_screens, wizard_plans_the_fine_tune_it_is_told_at_80x24)
{
    char *answers = ts_path(tty_dir(), "answers.json");
    ts_write_str(answers, "{\"accelerator\": \"h100-sxm\", \"devices\": 8, \"model_kind\": \"llm\", \"model_params\": \"13B\"}");
    tty_start(80, 24, "", 1);
    tty_load_answers(answers);
    free(answers);
    free(tty_wait("[1 Ranking]"));
    tty_keys("Escape");
    free(tty_wait("Step 1 of 21"));
    tty_keys_n("Enter", 7); /* stage to model kind, as loaded */
    char *s = tty_wait("What the job is");
    cr_expect(strstr(s, "Step 8 of 21") && strstr(s, "(*) Derived from the answers"), "%s", s);
    free(s);
    tty_keys_n("Down", 2); /* Fine-tuning */
    tty_keys("Enter");
    s = tty_wait("Fine-tuning method");
    cr_expect(strstr(s, "Step 9 of 23") != NULL, "fine-tuning asks its method, data set and epochs:\n%s", s);
    expect_key_line(s, 24, "fine-tuning method");
    free(s);
    tty_keys("Down"); /* LoRA */
    tty_keys("Enter");
    free(tty_wait("Layers the adapters go on"));
    tty_keys("Enter"); /* every linear layer */
    free(tty_wait("The model (shipped, or a config.json)"));
    tty_keys("Enter"); /* by its size */
    free(tty_wait("(*) 13 billion"));
    tty_keys("Enter");
    free(tty_wait("Architecture of the model"));
    tty_keys("Enter"); /* derived */
    free(tty_wait("Hidden size (optional"));
    tty_keys("Enter"); /* derived from the size */
    free(tty_wait("Fine-tuning data set (tokens)"));
    typed("1B", "(*) 1 billion"); /* a typed number that is a choice selects it */
    tty_keys("Enter");
    free(tty_wait("Passes over the data set (epochs)"));
    tty_keys_n("Enter", 9); /* steps 16 to 24 */
    free(tty_wait("[1 Ranking]"));
    tty_keys("4");
    s = tty_wait("[4 Plan]");
    cr_expect(strstr(s, "LoRA") != NULL, "%s", s);
    free(s);
    static const char *const found[][2] = {{"Steps: 1B tokens", "30,518"}, {"= 4 hours", "= 4 hours, 32"}};
    for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
        tty_keys("/"); /* the line found comes to the top of the pane */
        tty_type(found[i][0]);
        tty_keys("Enter");
        tty_keys("n");
        s = barrier();
        cr_expect(strstr(s, found[i][1]) != NULL, "%s", s);
        free(s);
        tty_keys("Escape");
    }
}

/* Leaving never loses the results by habit: q on the results asks (n stays), H goes home
 * with the cursor on the first item, so Down-Down-Enter opens the probe rather than Quit, and the
 * Quit item asks too while results are held; y quits. */
static void quitting_the_results_asks_and_home_starts_at_the_top(int w, int h)
{
    results_of_preset(w, h, "nvidia-2000-gpus");
    tty_keys("q");
    char *s = tty_wait("Quit fwadvisor? (y/n)");
    free(s);
    tty_keys("n");
    free(tty_wait("[1 Ranking]"));
    tty_keys("H");
    s = tty_wait("> Start the advisor");
    free(s);
    tty_keys("End"); /* Quit */
    tty_keys("Enter");
    free(tty_wait("Quit fwadvisor? (y/n)"));
    tty_keys("n");
    free(tty_wait("> Quit"));
    tty_keys("r"); /* back to the results, then home again: the cursor is back on top */
    free(tty_wait("[1 Ranking]"));
    tty_keys("H");
    free(tty_wait("> Start the advisor"));
    tty_keys("q");
    free(tty_wait("Quit fwadvisor? (y/n)"));
    tty_keys("y");
    free(tty_wait("EXITED status=0"));
}

Test(tui_screens, quitting_the_results_asks_and_home_starts_at_the_top_at_80x24)
{
    quitting_the_results_asks_and_home_starts_at_the_top(80, 24);
}
Test(tui_screens, quitting_the_results_asks_and_home_starts_at_the_top_at_200x60)
{
    quitting_the_results_asks_and_home_starts_at_the_top(200, 60);
}

/* From the results: the Plan tab, L, the default folder: the launch files written there. */
static void launch_files_from_the_plan_tab(void)
{
    tty_keys("4");
    free(tty_wait("[4 Plan]"));
    tty_keys("L");
    free(tty_wait("Write the launch files"));
    tty_keys("Enter");
    free(tty_wait("launch files written to ./fwadvisor-launch:"));
}

/* The results' own actions at 80x24: c shows the answers as a command line in a box (its wrapped
 * lines end in a backslash, so it pastes as one command; any key closes it), s saves them as an
 * answers file that reads back, and L on the Plan tab writes the plan's launch files into a new
 * folder, as recommend --emit does. */
static void results_show_the_command_save_the_answers_and_write_launch_files(int w, int h)
{
    results_of_preset(w, h, "nvidia-2000-gpus");
    tty_keys("c");
    char *s = tty_wait("fwadvisor recommend --set");
    cr_expect(strstr(s, "devices=2000") != NULL, "%s", s);
    cr_expect(strstr(s, " \\") != NULL, "a wrapped command ends its lines in a backslash:\n%s", s);
    free(s);
    tty_keys("x"); /* any key closes the box */
    s = barrier();
    cr_expect(strstr(s, "fwadvisor recommend --set") == NULL, "%s", s);
    free(s);
    tty_keys("s");
    free(tty_wait("Save the answers"));
    tty_keys("Enter");
    free(tty_wait("answers written to ./fwadvisor-answers.json"));
    char *path = ts_path(tty_dir(), "fwadvisor-answers.json");
    char *text = ts_read(path, NULL);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    cr_assert_not_null(doc, "%s", text ? text : "(no file)");
    cr_expect_eq(cJSON_GetObjectItem(doc, "devices")->valuedouble, 2000);
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "schema")->valuestring, "fwadvisor.answers/1");
    cJSON_Delete(doc);
    free(text);
    free(path);
    launch_files_from_the_plan_tab();
    char *launch = ts_path(tty_dir(), "fwadvisor-launch/launch.sh");
    struct stat st;
    cr_expect_eq(stat(launch, &st), 0, "%s", launch);
    cr_expect(st.st_mode & S_IXUSR, "launch.sh is executable");
    free(launch);
}
Test(tui_screens, results_show_the_command_save_the_answers_and_write_launch_files_at_80x24) { results_show_the_command_save_the_answers_and_write_launch_files(80, 24); }
Test(tui_screens, results_show_the_command_save_the_answers_and_write_launch_files_at_200x60) { results_show_the_command_save_the_answers_and_write_launch_files(200, 60); }

/* The operating system follows the hardware until it is answered, at 80x24: macOS after Apple
 * Silicon, Linux again after NVIDIA; once the user goes on from the OS question, a new hardware
 * choice leaves the OS they chose. */
static void the_os_question_follows_the_hardware_until_answered(int w, int h)
{
    tty_start(w, h, "", 1);
    free(tty_wait("Start the advisor"));
    tty_keys("Enter");
    free(tty_wait("Step 1 of"));
    tty_keys("Enter");
    free(tty_wait("Hardware you train on"));
    tty_keys_n("Down", 4); /* Apple Silicon */
    tty_keys("Enter");
    free(tty_wait("Device model (memory)"));
    tty_keys("Enter");
    free(tty_wait("Memory of this Mac")); /* asked on Apple Silicon only */
    tty_keys("Enter");
    char *s = tty_wait("Operating system");
    cr_expect(strstr(s, "(*) macOS") != NULL, "Apple Silicon runs macOS:\n%s", s);
    free(s);
    tty_keys("Escape");
    free(tty_wait("Memory of this Mac"));
    tty_keys("Escape");
    free(tty_wait("Device model (memory)"));
    tty_keys("Escape");
    free(tty_wait("Hardware you train on"));
    tty_keys_n("Up", 3); /* NVIDIA GPUs */
    tty_keys("Enter");
    free(tty_wait("Device model (memory)"));
    tty_keys("Enter");
    s = tty_wait("Operating system");
    cr_expect(strstr(s, "(*) Linux") != NULL, "NVIDIA: Linux, the default:\n%s", s);
    free(s);
    tty_keys("Down"); /* Windows, answered */
    tty_keys("Enter");
    free(tty_wait("Accelerators in total"));
    tty_keys_n("Escape", 3);
    free(tty_wait("Hardware you train on"));
    tty_keys_n("Down", 2); /* the hardware gone over again, NVIDIA chosen again: the Windows answered stays */
    tty_keys_n("Up", 2);
    tty_keys("Enter");
    free(tty_wait("Device model (memory)"));
    tty_keys("Enter");
    s = tty_wait("Operating system");
    cr_expect(strstr(s, "(*) Windows") != NULL, "the answered OS kept:\n%s", s);
    free(s);
}
Test(tui_screens, the_os_question_follows_the_hardware_until_answered_at_80x24) { the_os_question_follows_the_hardware_until_answered(80, 24); }
Test(tui_screens, the_os_question_follows_the_hardware_until_answered_at_200x60) { the_os_question_follows_the_hardware_until_answered(200, 60); }

/* A wide terminal's Ranking uses the space: bars of at most 60 columns, and beside them the
 * picked framework's reasons (what the Why tab shows), following the cursor; at 80x24 the
 * Ranking is alone. */
Test(tui_screens, a_wide_ranking_shows_the_reasons_beside_it_at_200x60)
{
    results_of_preset(200, 60, "nvidia-2000-gpus");
    char *s = barrier();
    cr_expect(strstr(s, "PyTorch: 81.6 points from") != NULL, "the top framework's reasons beside the list:\n%s", s);
    /* the longest run of bar cells on a line */
    int longest = 0, run = 0;
    for (const char *c = s; *c; c++) {
        if (!strncmp(c, "\xe2\x96\x88", 3) || !strncmp(c, "\xc2\xb7", 2)) { /* a full block or a middle dot */
            run++;
            c += *c == '\xe2' ? 2 : 1;
        } else if (*c != ' ') {
            if (run > longest) longest = run;
            run = 0;
        }
    }
    cr_expect_leq(longest, 60, "bars capped at 60 columns:\n%s", s);
    free(s);
    tty_keys("Down"); /* fastai: its reasons follow */
    s = tty_wait("fastai: 43.3 points from");
    free(s);
}

/* The interface reads the config file as recommend does: its [answers] are the wizard's starting
 * choices (Apple Silicon, so macOS too), its [site] goes into the job.sbatch that L writes; a bad
 * file stops the interface before it starts, naming its line, status 3. */
static void the_interface_starts_from_the_config_file(int w, int h)
{
    char envs[4400];
    snprintf(envs, sizeof envs, "XDG_CONFIG_HOME=%s", tty_dir());
    char *dir = ts_path(tty_dir(), "fwadvisor");
    mkdir(dir, 0755);
    char *conf = ts_path(dir, "config");
    ts_write_str(conf, "[answers]\nstage = production\nhardware = nvidia\naccelerator = h100-sxm\ndevices = 16\nnodes = 2\n"
                       "model_kind = nlp\nmodel_params = 350M\n[site]\npartition = gpu\naccount = ml-team\n");
    tty_start(w, h, envs, 1);
    free(tty_wait("Start the advisor"));
    tty_keys("Enter");
    char *s = tty_wait("Project stage");
    cr_expect(strstr(s, "(*) Production") != NULL, "the config's stage chosen:\n%s", s);
    free(s);
    tty_keys("Enter");
    s = tty_wait("Hardware you train on");
    cr_expect(strstr(s, "(*) NVIDIA GPUs") != NULL, "the config's hardware chosen:\n%s", s);
    free(s);
    tty_keys_n("Enter", 40); /* through the rest, each at the config's choice or the default (the
                              * last ones go from the Ranking to the Why tab) */
    free(tty_wait("fwadvisor  results"));
    launch_files_from_the_plan_tab();
    char *sbatch_path = ts_path(tty_dir(), "fwadvisor-launch/job.sbatch");
    char *sbatch = ts_read(sbatch_path, NULL);
    cr_expect(sbatch && strstr(sbatch, "#SBATCH --partition=gpu\n") && strstr(sbatch, "#SBATCH --account=ml-team\n"),
              "the config's site in job.sbatch:\n%s", sbatch ? sbatch : "(none)");
    free(sbatch);
    free(sbatch_path);
    /* a bad file: one line naming it and its line, status 3, before any screen */
    ts_write_str(conf, "[answers]\ndevices = many\n");
    tty_tmux((const char *const[]){"kill-session", "-t", "t", NULL}, NULL);
    tty_start(w, h, envs, 1);
    s = tty_wait("EXITED status=3");
    cr_expect(strstr(s, "config: line 2: key 'devices'") != NULL, "%s", s);
    free(s);
    free(conf);
    free(dir);
}

Test(tui_screens, the_interface_starts_from_the_config_file_at_80x24) { the_interface_starts_from_the_config_file(80, 24); }
Test(tui_screens, the_interface_starts_from_the_config_file_at_200x60) { the_interface_starts_from_the_config_file(200, 60); }
