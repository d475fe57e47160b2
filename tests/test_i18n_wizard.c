/* The wizard, the home screen and the line editor in Chinese: every question, choice and
 * explanation from the catalog, laid out by display width (a title on its row, an explanation in
 * the rows under the choices, the key line on the last row) at 80x24 and 200x60, and the same
 * screens in English as before. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/i18n.h"
#include "common/text.h"
#include "tests/support.h"
#include "tests/tmux_driver.h"
#include "tui/app.h"
#include "tui/layout.h"
#include "tui/line_edit.h"

TestSuite(i18n_wizard, .init = tty_setup, .fini = tty_teardown, .timeout = 240);

/* The environment of a Chinese terminal: the test runner's LANGUAGE=en and the driver's
 * LC_ALL=C.UTF-8 emptied (empty is unset), LANG as a Chinese user has it. */
#define ZH_ENV "LANGUAGE= LC_ALL= LC_MESSAGES= LANG=zh_CN.UTF-8"

static void chinese(void)
{
    const char *dir = getenv("FWADVISOR_LOCALES");
    cr_assert_not_null(dir);
    cr_assert_eq(i18n_init("zh", dir), I18N_ZH);
}

/* 1 when s holds a CJK character (U+3000 and above: ideographs and full-width punctuation). */
static int has_cjk(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p >= 0xe3) return 1;
    return 0;
}

static void count_line(void *ctx, const char *start, size_t bytes)
{
    (void)start, (void)bytes;
    ++*(int *)ctx;
}

/* Lines s takes wrapped to width columns. */
static int wrapped_lines(const char *s, int width)
{
    int n = 0;
    text_wrap_lines(s, width, count_line, &n);
    return n;
}

/* Labels that are names or numbers, the same in both languages. */
static int kept_as_is(const char *label)
{
    static const char *const names[] = {"Linux", "Windows", "macOS", "NLP", "LLM", "LoRA", "QLoRA", "BF16", "FP16", "FP8",
                                        "FP32", "INT8", "CPU", "AMD GPU", "Google TPU", "Intel Gaudi", "Jetson Orin Nano 8 GB",
                                        "Jetson AGX Orin 64 GB"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(label, names[i]) == 0) return 1;
    for (const char *c = label; *c; c++)
        if (!strchr("0123456789., GBTop-", *c)) return 0;
    return 1;
}

/* Every question's title, choice and explanation in Chinese, each where it fits at 80x24: the
 * title on its row of the left pane, the explanation within the three rows under the choices
 * (as many as the English takes when that is more). */
Test(i18n_wizard, every_question_choice_and_explanation_speaks_chinese_and_fits_80_columns)
{
    chinese();
    struct ts_wizard t;
    char err[512], buf[512], en_buf[512];
    cr_assert_eq(ts_wizard_open(&t, NULL, err, sizeof err), 0, "%s", err);
    struct tui_split sp = tui_wizard_split(80);
    int title_w = sp.left_w - 3, help_w = sp.left_w - 4;
    for (int q = 0; q < wiz_question_count; q++) {
        const char *title = _(wiz_questions[q].title);
        cr_expect(has_cjk(title), "question %d: '%s'", q, title);
        cr_expect_leq(text_width(title), title_w, "'%s' is cut on its row", title);
        for (int i = 0; i < wizard_own_count(q); i++) {
            const struct ans_choice *c = wizard_own_option(q, i);
            const char *label = wizard_option_label(t.app, q, i, buf, sizeof buf);
            /* a name or number as it is, or a name without the English plural (NVIDIA GPU) */
            cr_expect(has_cjk(label) || kept_as_is(c->label) || strcmp(label, c->label) != 0, "%s: label '%s'",
                      wiz_questions[q].title, label);
            const char *help = wizard_option_help(t.app, q, i, buf, sizeof buf);
            cr_expect(has_cjk(help), "%s: '%s'", c->label, help);
            int en_lines = wrapped_lines(c->help, help_w), zh_lines = wrapped_lines(help, help_w);
            cr_expect_leq(zh_lines, en_lines > 3 ? en_lines : 3, "'%s' takes %d rows of %d columns", help, zh_lines, help_w);
        }
        /* the typed-number and config.json options (the team's last is a framework of the
         * knowledge base, its own words) */
        int last = wizard_option_count(t.app, q) - 1;
        if (last >= wizard_own_count(q) && wiz_questions[q].key != ANS_TEAM) {
            const char *label = wizard_option_label(t.app, q, last, en_buf, sizeof en_buf);
            cr_expect(has_cjk(label) || strchr(label, ','), "%s: '%s'", wiz_questions[q].title, label);
            const char *help = wizard_option_help(t.app, q, last, buf, sizeof buf);
            cr_expect(has_cjk(help), "%s: '%s'", label, help);
        }
    }
    ts_wizard_close(&t);
}

Test(i18n_wizard, the_wizards_words_in_chinese)
{
    chinese();
    struct ts_wizard t;
    char err[512], buf[512];
    cr_assert_eq(ts_wizard_open(&t, NULL, err, sizeof err), 0, "%s", err);
    struct app *a = t.app;
    int q = 0;
    while (wiz_questions[q].key != ANS_TEAM) q++;
    cr_expect_str_eq(wizard_option_label(a, q, 0, buf, sizeof buf), "还没有");
    cr_expect_str_eq(_(wiz_questions[q].title), "团队熟悉什么（空格键可勾选多个）");
    q = 0;
    while (wiz_questions[q].key != ANS_DEVICES) q++;
    int other = wizard_option_count(a, q) - 1;
    cr_expect_str_eq(wizard_option_label(a, q, other, buf, sizeof buf), "其他数字……（直接输入，可用 K、M、B、T）");
    cr_expect_str_eq(wizard_option_help(a, q, 1, buf, sizeof buf), "两个设备间的数据并行。");
    q = 0;
    while (wiz_questions[q].key != ANS_MODEL) q++;
    cr_expect_str_eq(wizard_option_label(a, q, 0, buf, sizeof buf), "按规模描述（下一题询问）");
    const char *model = wizard_option_label(a, q, 1, buf, sizeof buf);
    cr_expect(strstr(model, "，") && strstr(model, " 参数") && model[0] >= 'a' && model[0] <= 'z', "the model's id stays: %s", model);
    cr_expect_str_eq(_("Step %d of %d"), "第 %d 步，共 %d 步");
    cr_expect_str_eq(_("Memory: %.1f GB per device, DOES NOT FIT"), "显存：每设备 %.1f GB，装不下");
    /* the key lines, and the prompt for a typed number, fit 80 columns */
    const char *keys[] = {" Space: tick  Enter: next  Esc: back  /: search  ?: help  q: quit",
                          " Up/Down: choose  0-9: type a number  Enter: next  Esc: back  ?: help  q: quit",
                          " Up/Down: choose  Enter: next  Esc: back  /: search  ?: help  q: quit",
                          " Up/Down: move  Enter: choose  r: results  ?: help  q: quit",
                          " Up/Down: pick  Enter: results  /: search  Esc: home  ?: help  q: quit"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        cr_expect(has_cjk(_(keys[i])) && strstr(_(keys[i]), "q：退出"), "'%s'", _(keys[i]));
        cr_expect_leq(text_width(_(keys[i])), 80, "'%s'", _(keys[i]));
    }
    for (q = 0; q < wiz_question_count; q++) {
        char title[192];
        snprintf(title, sizeof title, _("%s: a number (K, M, B, T allowed: 2000, 30B)"), _(wiz_questions[q].title));
        cr_expect_leq(wrapped_lines(title, 80 - 12), 2, "'%s' in the prompt box", title);
        cr_expect_eq(text_utf8_prefix(title), strlen(title), "'%s' whole", title);
    }
    ts_wizard_close(&t);
}

Test(i18n_wizard, english_stays_as_it_was)
{
    const char *dir = getenv("FWADVISOR_LOCALES");
    cr_assert_eq(i18n_init("en", dir), I18N_EN);
    struct ts_wizard t;
    char err[512], buf[512];
    cr_assert_eq(ts_wizard_open(&t, NULL, err, sizeof err), 0, "%s", err);
    for (int q = 0; q < wiz_question_count; q++) {
        cr_expect_str_eq(_(wiz_questions[q].title), wiz_questions[q].title);
        for (int i = 0; i < wizard_own_count(q); i++) {
            cr_expect_str_eq(wizard_option_label(t.app, q, i, buf, sizeof buf), wizard_own_option(q, i)->label);
            cr_expect_str_eq(wizard_option_help(t.app, q, i, buf, sizeof buf), wizard_own_option(q, i)->help);
        }
    }
    cr_expect_str_eq(_("Step %d of %d"), "Step %d of %d");
    ts_wizard_close(&t);
}

/* The line editor's notes after Tab, in Chinese; the names found stay as they are. */
Test(i18n_wizard, the_line_editors_notes_in_chinese)
{
    chinese();
    char *dir = ts_tmpdir(), *a = ts_path(dir, "answers-a.json"), *b = ts_path(dir, "answers-b.json");
    ts_write_str(a, "{}");
    ts_write_str(b, "{}");
    struct line_edit e;
    char typed[600];
    snprintf(typed, sizeof typed, "%s/ans", dir);
    le_set(&e, typed, 1);
    cr_expect_eq(le_complete(&e), 2);
    cr_expect(strstr(e.note, "2 个匹配：") == e.note && strstr(e.note, "answers-a.json"), "%s", e.note);
    snprintf(typed, sizeof typed, "%s/zzz", dir);
    le_set(&e, typed, 1);
    cr_expect_eq(le_complete(&e), 0);
    cr_expect(strstr(e.note, "中没有以 'zzz' 开头的项") != NULL, "%s", e.note);
    snprintf(typed, sizeof typed, "%s/none/x", dir);
    le_set(&e, typed, 1);
    cr_expect_eq(le_complete(&e), 0);
    cr_expect(strstr(e.note, "没有文件夹 ") == e.note, "%s", e.note);
    ts_rmtree(dir);
    free(a), free(b), free(dir);
}

/* --- the interface in a Chinese terminal ------------------------------------------------------ */

/* Every row of the screen within the terminal's width, in display columns, and nothing cut on
 * the key line, which holds `key`. */
static void expect_fits(const char *s, int w, int h, const char *key, const char *where)
{
    for (int y = 0; y < h; y++) cr_expect_leq(text_width(tty_line(s, y)), w, "%s: row %d is too wide:\n%s", where, y, s);
    const char *last = tty_line(s, h - 1);
    cr_expect(strstr(last, key) != NULL && strstr(last, "...") == NULL, "%s: key line '%s'\n%s", where, last, s);
}

/* From the home screen, its cursor at the top: the prompt of "Load answers from a file". */
static char *answers_prompt(void)
{
    tty_keys_n("Down", 5);
    tty_keys("Enter");
    return tty_wait("回答文件（fwadvisor.answers/1 JSON");
}

static void home_in_chinese(int w, int h)
{
    tty_start(w, h, ZH_ENV, 1);
    char *s = tty_wait("选择训练框架，并在这台机器上验证");
    static const char *const words[] = {"这台机器", "知识库 ", "> 开始选型向导", "从预设开始", "探测这台机器", "打开最近一次探测",
                                        "浏览知识库", "从文件载入回答", "退出"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) cr_expect(strstr(s, words[i]) != NULL, "'%s':\n%s", words[i], s);
    cr_expect(strstr(s, "Start the advisor") == NULL && strstr(s, "This machine") == NULL, "%s", s);
    expect_fits(s, w, h, "q：退出", "home");
    free(s);
    s = answers_prompt();
    expect_fits(s, w, h, "", "the answers file's prompt");
    free(s);
    tty_keys("Escape");
    free(tty_wait("> 从文件载入回答"));
    /* the preset picker */
    tty_keys_n("Up", 4);
    tty_keys("Enter");
    s = tty_wait("从预设开始：种子文章中的一个场景");
    expect_fits(s, w, h, "q：退出", "presets");
    cr_expect(strstr(s, "Esc：主页") != NULL, "%s", s);
    free(s);
}

Test(i18n_wizard, home_and_presets_in_chinese_at_80x24) { home_in_chinese(80, 24); }
Test(i18n_wizard, home_and_presets_in_chinese_at_200x60) { home_in_chinese(200, 60); }

/* Every question of the default path, one screen each, in Chinese: its step, title, choices and
 * key line within the terminal, a typed number's prompt on the way, and at the end the results. */
static void wizard_in_chinese(int w, int h)
{
    tty_start(w, h, ZH_ENV, 1);
    free(tty_wait("> 开始选型向导"));
    tty_keys("Enter");
    char *s = tty_wait("第 1 步，共 ");
    int n = 0;
    cr_assert_eq(sscanf(strstr(s, "第 1 步，共 ") + strlen("第 1 步，共 "), "%d", &n), 1, "%s", s);
    cr_expect(strstr(s, "项目阶段") && strstr(s, "(*) 研究（默认）") && strstr(s, "当前排名靠前的框架"), "%s", s);
    cr_expect(strstr(s, "Project stage") == NULL && strstr(s, "Step 1") == NULL, "%s", s);
    free(s);
    int typed = 0;
    for (int k = 1; k <= n; k++) {
        char step[64];
        snprintf(step, sizeof step, "第 %d 步，共 %d 步", k, n);
        s = tty_wait(step);
        expect_fits(s, w, h, "q：退出", step);
        cr_expect_not(tty_cut(s, 0, 3), "%s: the title is cut:\n%s", step, s);
        cr_expect(strstr(s, "显存：每设备 ") != NULL, "%s:\n%s", step, s);
        if (strstr(s, "加速器总数")) { /* a digit opens the number's prompt */
            tty_keys("3");
            typed++;
            char *p = tty_wait("加速器总数：输入数字（可用 K、M、B、T：2000、30B）");
            expect_fits(p, w, h, "", "the number's prompt");
            free(p);
            tty_keys("Escape");
            free(tty_wait(step));
        }
        free(s);
        if (k < n) tty_keys("Enter");
    }
    cr_expect_eq(typed, 1, "the number of devices is asked once on the way");
    /* the last answer given, the results: the wizard done end to end in Chinese */
    tty_keys("Enter");
    s = tty_wait("[1 排名]");
    expect_fits(s, w, h, "q：退出", "the results");
    cr_expect(strstr(s, "fwadvisor  结果") && strstr(s, "PyTorch"), "%s", s);
    free(s);
}

Test(i18n_wizard, every_default_question_in_chinese_at_80x24) { wizard_in_chinese(80, 24); }
Test(i18n_wizard, every_default_question_in_chinese_at_200x60) { wizard_in_chinese(200, 60); }

/* The same screens in English: the words as before, no Chinese. */
Test(i18n_wizard, the_same_screens_in_english_at_80x24)
{
    tty_start(80, 24, "", 1);
    char *s = tty_wait("fwadvisor  choose a training framework, check it on this machine");
    cr_expect(strstr(s, "> Start the advisor") && strstr(s, "Load answers from a file"), "%s", s);
    cr_expect_str_eq(tty_line(s, 23), " Up/Down: move  Enter: choose  r: results  ?: help  q: quit");
    cr_expect_not(has_cjk(s), "%s", s);
    free(s);
    tty_keys("Enter");
    s = tty_wait("Step 1 of 18");
    cr_expect(strstr(s, "Project stage") && strstr(s, "(*) Research  (default)") && strstr(s, "Top frameworks now"), "%s", s);
    cr_expect_str_eq(tty_line(s, 23), " Up/Down: choose  Enter: next  Esc: back  /: search  ?: help  q: quit");
    cr_expect_not(has_cjk(s), "%s", s);
    free(s);
}

/* Enter on step k of the screen s, and the next step's screen (the steps are counted again with
 * each answer). */
static char *next_step(char *s)
{
    int k = 0, n = 0;
    const char *at = strstr(s, "第 ");
    cr_assert(at && sscanf(at, "第 %d 步，共 %d 步", &k, &n) == 2, "%s", s);
    free(s);
    tty_keys("Enter");
    char step[64];
    snprintf(step, sizeof step, "第 %d 步", k + 1);
    return tty_wait(step);
}

/* Answers loaded from a file (the message under the results), then in the wizard: the device
 * models under their vendors' headings, the shipped models with their sizes and the config.json
 * option with its prompt, all in Chinese within the terminal. */
static void devices_and_models_in_chinese(int w, int h)
{
    char *answers = ts_path(tty_dir(), "llm.json");
    ts_write_str(answers, "{\"model_kind\": \"llm\"}");
    tty_start(w, h, ZH_ENV, 1);
    free(tty_wait("> 开始选型向导"));
    free(answers_prompt());
    tty_type(answers);
    tty_keys("Enter");
    char *s = tty_wait("Esc：在向导中修改");
    cr_expect(strstr(s, "回答来自 ") != NULL, "%s", s);
    free(s);
    tty_keys("Escape");
    s = tty_wait("第 1 步，共 ");
    while (!strstr(s, "设备型号（显存）")) s = next_step(s);
    cr_expect(strstr(s, "(*) 检测到的，或常见型号（假定）") && strstr(s, "NVIDIA GPU") && strstr(s, "H100"), "%s", s);
    expect_fits(s, w, h, "q：退出", "device models");
    while (!strstr(s, "模型（内置模型或 config.json）")) s = next_step(s);
    cr_expect(strstr(s, "(*) 按规模描述（下一题询问）") && strstr(s, " 参数"), "%s", s);
    expect_fits(s, w, h, "q：退出", "models");
    free(s);
    tty_keys("End");
    s = tty_wait("Hugging Face config.json……（输入路径）"); /* on one row */
    cr_expect(strstr(s, "按 Enter 打开输入框填写路径") != NULL, "%s", s);
    free(s);
    tty_keys("Enter");
    s = tty_wait("Hugging Face config.json（读法同 recommend --model-config）"); /* on one row */
    expect_fits(s, w, h, "", "the config.json prompt");
    free(s);
    free(answers);
}

Test(i18n_wizard, devices_and_models_in_chinese_at_80x24) { devices_and_models_in_chinese(80, 24); }
Test(i18n_wizard, devices_and_models_in_chinese_at_200x60) { devices_and_models_in_chinese(200, 60); }
