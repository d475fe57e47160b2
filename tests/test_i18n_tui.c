/* The interface in Chinese: the frame (help, prompts, the quit question, the too-small notice),
 * the results' tabs, headings, key lines and messages, the probe screen and the knowledge-base
 * browser, under LANG=zh_CN.UTF-8 in a real terminal (tmux) at 80x24 and 200x60: the Chinese
 * words shown, the English ones gone, every row within the terminal by display width, the key
 * line whole; the same screens in English as before; the Chinese of each fixed place measured
 * against the room it has; padding and cutting by display columns. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/i18n.h"
#include "common/text.h"
#include "tests/support.h"
#include "tests/tmux_driver.h"
#include "tui/layout.h"

TestSuite(i18n_tui, .init = tty_setup, .fini = tty_teardown, .timeout = 240);

/* The shell command that runs fwadvisor in Chinese (LANGUAGE, LC_ALL and LC_MESSAGES unset, as
 * a Chinese desktop has them) or in English (as tests/tmux_driver.c runs it), on the recorded
 * machine of tests/fixtures as the English screens are. */
static void command_in(int zh, char *cmd, size_t n)
{
    const char *bin = getenv("FWADVISOR_BIN"), *fixtures = getenv("FWADVISOR_FIXTURES");
    if (!fixtures) fixtures = "tests/fixtures";
    snprintf(cmd, n,
             "trap '' INT; env -u FWADVISOR_DB -u TPU_ACCELERATOR_TYPE -u LANGUAGE -u LC_ALL -u LC_MESSAGES %s "
             "FWADVISOR_SYSROOT=%s/sysroot/nvidia-h100 HWLOC_XMLFILE=%s/sysroot/nvidia-h100/topology.xml "
             "%s %s; echo EXITED status=$?; sleep 60",
             zh ? "LANG=zh_CN.UTF-8" : "LANG=C.UTF-8 LC_ALL=C.UTF-8", fixtures, fixtures, bin ? bin : "./fwadvisor",
             tty_dbarg());
}

/* fwadvisor in Chinese in a w x h pane. */
static void zh_start(int w, int h)
{
    char cmd[12000];
    command_in(1, cmd, sizeof cmd);
    tty_start_shell(w, h, cmd);
}

/* Every row of the screen within `cols` display columns and well-formed UTF-8. */
static void expect_rows_fit(const char *s, int cols, const char *where)
{
    cr_expect_eq(text_utf8_prefix(s), strlen(s), "%s: not UTF-8:\n%s", where, s);
    int y = 0;
    for (const char *line = s; *line; y++) {
        size_t len = strcspn(line, "\n");
        char copy[2048];
        snprintf(copy, sizeof copy, "%.*s", (int)(len < sizeof copy ? len : sizeof copy - 1), line);
        cr_expect_leq(text_width(copy), cols, "%s: row %d is %d columns: '%s'", where, y, text_width(copy), copy);
        line += len;
        if (*line) line++;
    }
}

/* The key line: the last row, in Chinese and whole. */
static void expect_zh_key_line(const char *s, int rows, const char *where)
{
    const char *last = tty_line(s, rows - 1);
    cr_expect(strstr(last, "q：退出") != NULL, "%s: the key line is cut or gone: '%s'\n%s", where, last, s);
    cr_expect(strstr(last, "...") == NULL && strstr(last, "q: quit") == NULL, "%s: '%s'", where, last);
}

/* Opens the help on this screen: Chinese, whole (no line cut), closed again by any key. */
static void expect_zh_help(int cols, int rows, const char *screen_help, const char *where)
{
    tty_keys("?");
    char *s = tty_wait("按任意键关闭。");
    cr_expect(strstr(s, "按键（所有界面）") != NULL, "%s:\n%s", where, s);
    cr_expect(strstr(s, screen_help) != NULL, "%s: '%s' not shown:\n%s", where, screen_help, s);
    cr_expect_not(tty_cut(s, 0, rows - 1), "%s: the help box cuts its text:\n%s", where, s);
    static const char *const whole[] = {"PgUp/PgDn, Home/End   翻页、第一项、最后一项", "鼠标                  滚轮滚动，单击选中",
                                        "/                     搜索（n、N：下一个、上一个匹配）",
                                        "q                     退出（在结果和探测界面会先询问）"};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        cr_expect(strstr(s, whole[i]) != NULL, "%s: '%s' not on one row:\n%s", where, whole[i], s);
    cr_expect(strstr(s, "Keys (every screen)") == NULL && strstr(s, "Press any key") == NULL, "%s:\n%s", where, s);
    expect_rows_fit(s, cols, where);
    free(s);
    tty_keys("x");
    for (int i = 0; i < 300; i++) { /* closed: the key line is back */
        s = tty_settled();
        int open = strstr(s, "按任意键关闭。") != NULL;
        free(s);
        if (!open) return;
    }
    cr_assert_fail("%s: the help box never closed", where);
}

/* From the home screen of a fwadvisor starting in the pane: the preset picker, the preset found
 * by `/`, its results (keys are handled in order, so only the results are waited for). */
static void to_preset_results(int zh, const char *preset)
{
    free(tty_wait(" fwadvisor  "));
    tty_keys("Down");
    tty_keys("Enter");
    tty_keys("/");
    tty_type(preset);
    tty_keys("Enter");
    tty_keys("Enter");
    free(tty_wait(zh ? "[1 排名]" : "[1 Ranking]"));
}

static void zh_results_of_preset(int w, int h, const char *preset)
{
    zh_start(w, h);
    to_preset_results(1, preset);
}

static void results_in_chinese(int w, int h)
{
    zh_results_of_preset(w, h, "tpu-pod");
    static const struct {
        const char *key, *tab, *shows;
    } tabs[] = {
        {"1", "[1 排名]", "Enter：查看框架为何排在这一位。"},
        {"2", "[2 原因]", "条理由（在“排名”页另选）"},
        {"3", "[3 对比]", "评判标准（0-10 分）"},
        {"4", "[4 方案]", "\u2588 模型状态  \u2592 激活值  \u2591 缓冲区  \u00b7 余量"},
        {"5", "[5 部署]", "运行时："},
        {"6", "[6 陷阱]", "检查清单（Space 勾选）：已勾选 0 项，共"},
        {"7", "[7 硬件]", "[7 硬件]"},
    };
    static const char *const english[] = {"1 Ranking", "Enter: why", "q: quit", "points from", "criterion (score",
                                          "Checklist", "Strategy:", "Runtime:", "Alternatives:"};
    for (size_t t = 0; t < sizeof tabs / sizeof tabs[0]; t++) {
        tty_keys(tabs[t].key);
        free(tty_wait(tabs[t].tab));
        char *s = tty_wait(tabs[t].shows);
        cr_expect(strstr(s, " fwadvisor  结果") != NULL, "%s: the title:\n%s", tabs[t].tab, s);
        expect_zh_key_line(s, h, tabs[t].tab);
        expect_rows_fit(s, w, tabs[t].tab);
        for (size_t e = 0; e < sizeof english / sizeof english[0]; e++)
            cr_expect(strstr(s, english[e]) == NULL, "%s: '%s' is still English:\n%s", tabs[t].tab, english[e], s);
        free(s);
    }
    tty_keys("4");
    char *s = tty_wait("策略：");
    cr_expect(strstr(s, "备选：") != NULL, "the plan's own labels:\n%s", s);
    cr_expect(strstr(tty_line(s, h - 1), "L：启动文件") != NULL, "%s", s);
    free(s);
    tty_keys("6");
    tty_keys("Space");
    free(tty_wait("已勾选 1 项"));
    expect_zh_help(w, h, "结果：1-7 选择标签页", "results");
    /* the quit question in its box */
    tty_keys("q");
    s = tty_wait("退出 fwadvisor 吗？(y/n)");
    expect_rows_fit(s, w, "quit");
    free(s);
    tty_keys("n");
    free(tty_wait("检查清单"));
}

Test(i18n_tui, results_in_chinese_at_80x24) { results_in_chinese(80, 24); }
Test(i18n_tui, results_in_chinese_at_200x60) { results_in_chinese(200, 60); }

/* Each prompt's title and keys, the message of what it wrote, the command line's note and the
 * search line, in Chinese; the report written is the same JSON as in English but for its time. */
static void prompts_and_messages(int w, int h)
{
    zh_results_of_preset(w, h, "tpu-pod");
    tty_keys("e");
    char *s = tty_wait("将报告（fwadvisor.report/1）导出到");
    cr_expect(strstr(s, "Enter：确认  Esc：取消  Tab：补全") != NULL, "the prompt's keys:\n%s", s);
    cr_expect_not(tty_cut(s, 0, h - 1), "a prompt cuts its text:\n%s", s);
    expect_rows_fit(s, w, "export prompt");
    free(s);
    tty_keys("Enter");
    s = tty_wait("报告已写入 ./fwadvisor-report.json");
    cr_expect(strstr(s, "written to") == NULL, "%s", s);
    free(s);
    char *path = ts_path(tty_dir(), "fwadvisor-report.json");
    char *json = ts_read(path, NULL);
    cr_expect(json && json[0] == '{' && strstr(json, "\"fwadvisor.report/1\""), "%s", json ? json : "(none)");
    free(json);
    free(path);
    tty_keys("c");
    s = tty_wait("作为命令行（按住 Shift 拖动可选中以复制）：");
    cr_expect(strstr(s, "fwadvisor recommend") != NULL, "the command itself stays as it is:\n%s", s);
    free(s);
    tty_keys("x");
    tty_keys("L");
    s = tty_wait("将启动文件写入新文件夹");
    free(s);
    tty_keys("Escape");
    tty_keys("/");
    s = tty_wait("Enter：保留   Esc：清除   n/N：跳转");
    cr_expect(strstr(tty_line(s, h - 1), "...") == NULL, "the search line is whole: '%s'", tty_line(s, h - 1));
    free(s);
    tty_keys("Escape");
}

Test(i18n_tui, prompts_and_messages_in_chinese_at_80x24) { prompts_and_messages(80, 24); }
Test(i18n_tui, prompts_and_messages_in_chinese_at_200x60) { prompts_and_messages(200, 60); }

/* A stored probe run and the knowledge base, opened from the home screen. */
static void probe_and_kb_in_chinese(int w, int h)
{
    struct ts_run r;
    const char *env[] = {"FWADVISOR_DB", NULL};
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){tty_dbarg(), "probe", "--workload", "train-tiny", NULL}), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    zh_start(w, h);
    free(tty_wait(" fwadvisor  "));
    tty_keys_n("Down", 3);
    tty_keys("Enter");
    char *s = tty_wait("已保存的探测记录");
    cr_expect(strstr(s, " fwadvisor  探测记录 ") != NULL, "the title:\n%s", s);
    cr_expect(strstr(s, "无基线（b：与已保存的记录对比）") != NULL, "%s", s);
    cr_expect(strstr(tty_line(s, h - 1), " Esc：主页  b：基线  h：HTML  a：顾问") != NULL, "%s", s);
    expect_zh_key_line(s, h, "probe");
    expect_rows_fit(s, w, "probe");
    cr_expect(strstr(s, "stored probe run") == NULL && strstr(s, "no baseline") == NULL, "%s", s);
    free(s);
    tty_keys("b");
    s = tty_wait("没有其他已保存的探测记录可供对比（请先再运行一次探测）");
    expect_rows_fit(s, w, "probe b");
    free(s);
    expect_zh_help(w, h, "探测：Esc 在一秒内取消", "probe");
    tty_keys("Escape");
    free(tty_wait("> "));
    tty_keys("Home");
    tty_keys_n("Down", 4);
    tty_keys("Enter");
    s = tty_wait(" Tab：类别  Enter：阅读  /：查找  g：分组  Esc：主页  ?：帮助  q：退出");
    cr_expect(strstr(s, " fwadvisor  知识库") != NULL, "the title:\n%s", s);
    expect_rows_fit(s, w, "kb list");
    free(s);
    tty_keys("Enter");
    s = tty_wait("（阅读中：Up/Down 滚动，Left 返回列表）");
    expect_zh_key_line(s, h, "kb detail");
    cr_expect(strstr(tty_line(s, h - 1), "Left/Esc：列表") != NULL, "%s", s);
    expect_rows_fit(s, w, "kb detail");
    free(s);
    expect_zh_help(w, h, "知识库：Tab 选择类别", "kb");
    tty_keys("Escape");
    tty_keys("3"); /* hardware support, grouped */
    s = tty_wait("按框架分组（g：按硬件）");
    expect_rows_fit(s, w, "kb support");
    free(s);
    tty_keys("g");
    free(tty_wait("按硬件分组（g：按框架）"));
    tty_keys("/");
    tty_type("no-such-thing-at-all");
    s = tty_wait("没有与搜索匹配的内容（Esc 清除搜索）。");
    free(s);
}

Test(i18n_tui, probe_and_kb_in_chinese_at_80x24) { probe_and_kb_in_chinese(80, 24); }
Test(i18n_tui, probe_and_kb_in_chinese_at_200x60) { probe_and_kb_in_chinese(200, 60); }

/* The report file at `name` in the test's folder, its generated_at blanked (the one member that
 * differs between two runs). */
static char *report_untimed(const char *name)
{
    char *path = ts_path(tty_dir(), name), *json = ts_read(path, NULL);
    free(path);
    cr_assert_not_null(json, "%s not written", name);
    cr_assert(ts_blank_generated_at(json), "%s", json);
    return json;
}

/* e on the results: the prompt (its title `prompt`), the file name typed over the default, what
 * the message line then says. */
static void export_report(const char *prompt, const char *name, const char *said)
{
    tty_keys("e");
    free(tty_wait(prompt));
    tty_keys("C-u");
    tty_type(name);
    tty_keys("Enter");
    free(tty_wait(said));
}

/* The JSON report the interface exports is the same, byte for byte, in Chinese and in English. */
Test(i18n_tui, the_exported_report_the_same_in_both_languages)
{
    zh_results_of_preset(80, 24, "tpu-pod");
    export_report("将报告（fwadvisor.report/1）导出到", "zh.json", "报告已写入 zh.json");
    char cmd[12000]; /* English in the same pane, the same tmux server */
    command_in(0, cmd, sizeof cmd);
    tty_tmux((const char *const[]){"respawn-pane", "-k", "-t", "t", "-c", tty_dir(), cmd, NULL}, NULL);
    to_preset_results(0, "tpu-pod");
    export_report("Export the report (fwadvisor.report/1) to", "en.json", "report written to en.json");
    char *zh = report_untimed("zh.json"), *en = report_untimed("en.json");
    cr_expect(strlen(en) > 1000, "%s", en);
    cr_expect_str_eq(zh, en, "the report differs between the languages");
    free(zh);
    free(en);
}

Test(i18n_tui, a_small_terminal_says_so_in_chinese)
{
    zh_start(60, 20);
    char *s = tty_wait("终端太小（需要 80x24，当前 60x20）");
    cr_expect(strstr(s, "请放大窗口，或按 q 退出") != NULL, "%s", s);
    expect_rows_fit(s, 60, "too small");
    free(s);
    tty_keys("q");
    free(tty_wait("EXITED status=0"));
}

/* The same screens in English, as they were: the rows the Chinese replaced, byte for byte. */
Test(i18n_tui, the_english_screens_unchanged)
{
    tty_start(80, 24, "", 1);
    to_preset_results(0, "tpu-pod");
    char *s = tty_settled();
    cr_expect_str_eq(tty_line(s, 0), " fwadvisor  results");
    cr_expect_str_eq(tty_line(s, 1), " [1 Ranking] 2 Why  3 Compare  4 Plan  5 Deploy  6 Pitfalls  7 Hardware");
    cr_expect_str_eq(tty_line(s, 23), " 1-7: tabs  Enter: why  e/h/s: save  c: command  Esc: back  ?: help  q: quit");
    cr_expect(strstr(s, "Enter: why a framework ranks where it does.") != NULL, "%s", s);
    free(s);
    tty_keys("3");
    s = tty_wait("[3 Compare]");
    cr_expect(strstr(s, "\n criterion (score 0-10)          #1    #2") != NULL, "the criterion column as it was:\n%s", s);
    free(s);
    tty_keys("6");
    s = tty_wait("Checklist (Space ticks): 0 of ");
    cr_expect_str_eq(tty_line(s, 23), " 1-7: tabs  Space: tick  e/h/s: save  c: command  Esc: back  ?: help  q: quit");
    free(s);
    tty_keys("?");
    s = tty_wait("Press any key to close.");
    cr_expect(strstr(s, "Keys (every screen)") != NULL && strstr(s, "q                     quit (asks on results and probes)"),
              "%s", s);
    cr_expect(strstr(s, "按") == NULL && strstr(s, "退出") == NULL, "no Chinese in English:\n%s", s);
    free(s);
    tty_keys("x");
    tty_keys("q");
    s = tty_wait("Quit fwadvisor? (y/n)");
    free(s);
    tty_keys("n");
    tty_keys("H");
    free(tty_wait("> Start the advisor"));
    tty_keys_n("Down", 4);
    tty_keys("Enter");
    s = tty_wait("[frameworks]");
    cr_expect_str_eq(tty_line(s, 0), " fwadvisor  knowledge base");
    cr_expect_str_eq(tty_line(s, 23), " Tab: kind  Enter: read  /: find  g: group  Esc: home  ?: help  q: quit");
    free(s);
}

/* The Chinese of each fixed place within the room the place has at 80x24: the key lines the
 * whole row, the help's lines its box (72 columns inside), the search keys their 38, the quit
 * question its box of 46, the tabs one row. */
Test(i18n_tui, each_place_holds_its_chinese)
{
    const char *dir = getenv("FWADVISOR_LOCALES");
    cr_assert_not_null(dir);
    cr_assert_eq(i18n_init("zh", dir), I18N_ZH);
    static const struct {
        const char *msgid;
        int room;
    } places[] = {
        {" 1-7: tabs  Enter: why  e/h/s: save  c: command  Esc: back  ?: help  q: quit", 80},
        {" 1-7: tabs  Space: tick  e/h/s: save  c: command  Esc: back  ?: help  q: quit", 80},
        {" 1-7: tabs  L: launch  e/h/s: save  c: command  Esc: back  ?: help  q: quit", 80},
        {" 1-7: tabs  PgDn: page  e/h/s: save  c: command  Esc: back  ?: help  q: quit", 80},
        {" PgUp/PgDn: scroll  /: find  Left/Esc: the list  Tab: kind  ?: help  q: quit", 80},
        {" Tab: kind  Enter: read  /: find  g: group  Esc: home  ?: help  q: quit", 80},
        {" Esc: home  b: baseline  h: HTML  a: advisor  /: find  ?: help  q: quit", 80},
        {" Esc: cancel (within a second, keeping what finished)   q: quit (asks first)", 80},
        {" Esc: home  ?: help  q: quit", 80},
        {"  Enter: keep   Esc: clear   n/N: matches", 38},
        {"Up/Down, k/j          move", 72},
        {"PgUp/PgDn, Home/End   page, first, last", 72},
        {"Enter, l              choose, forward", 72},
        {"Esc, Backspace, Left  back", 72},
        {"Tab, Shift-Tab        next, previous tab", 72},
        {"/                     search (n, N: next, previous match)", 72},
        {"Space                 tick a choice", 72},
        {"mouse                 the wheel scrolls, a click selects", 72},
        {"?                     this help", 72},
        {"q                     quit (asks on results and probes)", 72},
        {"Keys (every screen)", 72},
        {"Press any key to close.", 72},
        {"A probe is running. Quit anyway? (y/n)", 46},
        {"Quit fwadvisor? (y/n)", 46},
        {"(reading: Up/Down scroll, Left returns to the list)", 80 - 26 - 3},
        {"criterion (score 0-10)", 30},
        {"overall %3.0f%%", 24 - 3},
    };
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        const char *zh = _(places[i].msgid);
        cr_expect_str_neq(zh, places[i].msgid, "'%s' has no Chinese", places[i].msgid);
        cr_expect_eq(text_utf8_prefix(zh), strlen(zh));
        cr_expect_leq(text_width(zh), places[i].room, "'%s' is %d columns, its place %d", zh, text_width(zh), places[i].room);
    }
    /* the key lines keep their "q: quit" at the end, as the English ones do */
    cr_expect(strstr(_(" Esc: home  ?: help  q: quit"), "q：退出") != NULL);
    /* the help's key column: the keys where the English has them, the words from column 22 */
    static const char *const keys[] = {"Up/Down, k/j          move", "mouse                 the wheel scrolls, a click selects"};
    for (size_t i = 0; i < 2; i++) {
        const char *zh = _(keys[i]);
        char key[64];
        const char *gap = strstr(zh, "  ");
        cr_assert_not_null(gap, "'%s'", zh);
        snprintf(key, sizeof key, "%.*s", (int)(gap + strspn(gap, " ") - zh), zh);
        cr_expect_eq(text_width(key), 22, "'%s'", zh);
    }
    /* the tabs on one row of 80: seven labels, each with its two brackets or spaces */
    static const char *const tabs[] = {"1 Ranking", "2 Why", "3 Compare", "4 Plan", "5 Deploy", "6 Pitfalls", "7 Hardware"};
    int total = 1;
    for (size_t i = 0; i < 7; i++) total += text_width(_(tabs[i])) + 2;
    cr_expect_leq(total, 79);
    cr_expect_eq(i18n_init("en", dir), I18N_EN);
    cr_expect_str_eq(_(tabs[0]), "1 Ranking");
}

/* Padding and cutting by display columns: whole characters, never half of one. */
Test(i18n_tui, pad_and_cut_by_columns)
{
    char out[64];
    cr_expect_str_eq(text_pad(out, sizeof out, "done", 8, -1), "done    ");
    cr_expect_str_eq(text_pad(out, sizeof out, "完成", 8, -1), "完成    ", "two columns a character");
    cr_expect_str_eq(text_pad(out, sizeof out, "abcdefgh", 4, 5), "abcde", "cut at 5 as %.5s does");
    cr_expect_str_eq(text_pad(out, sizeof out, "排名结果", 0, 5), "排名", "no half character");
    cr_expect_str_eq(text_pad(out, sizeof out, "排名结果", 6, 5), "排名  ");
    cr_expect_str_eq(text_pad(out, sizeof out, "", 3, -1), "   ");
    cr_expect_str_eq(text_pad(out, sizeof out, NULL, 0, -1), "");
    char small[5];
    cr_expect_str_eq(text_pad(small, sizeof small, "排名", 10, -1), "排 ", "the buffer holds whole characters only");
    char english[64];
    snprintf(english, sizeof english, "%-18.31s|", "train-tiny");
    snprintf(out, sizeof out, "%s|", text_pad((char[64]){0}, 64, "train-tiny", 18, 31));
    cr_expect_str_eq(out, english, "the same as printf for ASCII");
}
