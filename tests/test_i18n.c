/* The language of the program's words: which one the flag and the environment choose, the
 * Chinese catalog behind _(), the command line's help and errors in Chinese laid out by display
 * width, JSON the same in both languages, and the catalog check the build runs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/i18n.h"
#include "common/text.h"
#include "common/units.h"
#include "knowledge/advisor.h"
#include "probes/fw_internal.h"
#include "tests/support.h"

TestSuite(i18n, .timeout = 60);

Test(i18n, language_names)
{
    static const struct {
        const char *name;
        int rc;
        enum i18n_lang lang;
    } cases[] = {
        {"zh", 0, I18N_ZH},          {"zh_CN", 0, I18N_ZH},      {"zh-CN", 0, I18N_ZH},
        {"zh_CN.UTF-8", 0, I18N_ZH}, {"zh_SG.utf8", 0, I18N_ZH}, {"ZH", 0, I18N_ZH},
        {"zh_CN@pinyin", 0, I18N_ZH}, {"en", 0, I18N_EN},        {"en_US.UTF-8", 0, I18N_EN},
        {"en-GB", 0, I18N_EN},       {"C", 0, I18N_EN},          {"C.UTF-8", 0, I18N_EN},
        {"POSIX", 0, I18N_EN},
        /* traditional characters are another catalog; other languages have none */
        {"zh_TW.UTF-8", -1, I18N_EN}, {"zh_HK", -1, I18N_EN},     {"zh-Hant", -1, I18N_EN},
        {"zh_MO.UTF-8", -1, I18N_EN}, {"fr_FR.UTF-8", -1, I18N_EN}, {"zhx", -1, I18N_EN},
        {"z", -1, I18N_EN},          {"", -1, I18N_EN},          {"eng", -1, I18N_EN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        enum i18n_lang got = I18N_EN;
        cr_expect_eq(i18n_parse(cases[i].name, &got), cases[i].rc, "'%s'", cases[i].name);
        if (cases[i].rc == 0) cr_expect_eq(got, cases[i].lang, "'%s'", cases[i].name);
    }
    enum i18n_lang got;
    cr_expect_eq(i18n_parse(NULL, &got), -1);
}

/* gettext's order: LANGUAGE's first language spoken, English when it names none (not under the
 * C locale, where LANGUAGE does not count), then LC_ALL, LC_MESSAGES, LANG, the first set and not
 * empty. */
Test(i18n, the_environment_in_gettext_order)
{
    static const struct {
        const char *language, *lc_all, *lc_messages, *lang;
        enum i18n_lang want;
    } cases[] = {
        {NULL, NULL, NULL, NULL, I18N_EN},
        {NULL, NULL, NULL, "zh_CN.UTF-8", I18N_ZH},
        {NULL, NULL, "zh_CN.UTF-8", "en_US.UTF-8", I18N_ZH},
        {NULL, "en_US.UTF-8", "zh_CN.UTF-8", "zh_CN.UTF-8", I18N_EN},
        {NULL, "zh_CN.UTF-8", NULL, "en_US.UTF-8", I18N_ZH},
        {NULL, "", NULL, "zh_CN.UTF-8", I18N_ZH}, /* empty is unset */
        {"zh_CN", NULL, NULL, "en_US.UTF-8", I18N_ZH},
        {"fr:de:zh_CN:en", NULL, NULL, "en_US.UTF-8", I18N_ZH},
        {"fr:en:zh_CN", NULL, NULL, "zh_CN.UTF-8", I18N_EN},
        {"en", NULL, NULL, "zh_CN.UTF-8", I18N_EN},
        {"fr:de", NULL, NULL, "zh_CN.UTF-8", I18N_EN}, /* none spoken: the messages as written */
        {"zh_CN", "C", NULL, NULL, I18N_EN},          /* LANGUAGE does not count under C */
        {"zh_CN", NULL, NULL, "POSIX", I18N_EN},
        {"zh_CN", NULL, NULL, NULL, I18N_EN},         /* no locale at all is C */
        {"zh_CN", NULL, NULL, "C.UTF-8", I18N_ZH},
        {NULL, NULL, NULL, "zh_TW.UTF-8", I18N_EN},
        {NULL, NULL, NULL, "de_DE.UTF-8", I18N_EN},
    };
    const char *names[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *v[] = {cases[i].language, cases[i].lc_all, cases[i].lc_messages, cases[i].lang};
        for (int j = 0; j < 4; j++) {
            if (v[j]) setenv(names[j], v[j], 1);
            else unsetenv(names[j]);
        }
        cr_expect_eq(i18n_from_env(), cases[i].want, "case %zu", i);
    }
}

Test(i18n, the_catalog_behind_each_message)
{
    const char *dir = getenv("FWADVISOR_LOCALES");
    cr_assert_not_null(dir);
    unsetenv("LANGUAGE");
    setenv("LC_ALL", "C", 1);
    cr_expect_eq(i18n_init("zh", dir), I18N_ZH, "--lang zh works without a zh_CN locale installed");
    cr_expect_str_eq(i18n_tag(), "zh-CN");
    cr_expect_str_eq(_("out of memory"), "内存不足");
    cr_expect_str_eq(_("--lang %s: expected en or zh"), "--lang %s：应为 en 或 zh");
    cr_expect_str_eq(_("a message no catalog has"), "a message no catalog has", "English where the catalog lacks it");
    cr_expect_str_eq(_(""), "");
    cr_expect(text_locale_utf8(), "the C.UTF-8 character set for Chinese");
    cr_expect_eq(i18n_init("en", dir), I18N_EN);
    cr_expect_str_eq(i18n_tag(), "en");
    cr_expect_str_eq(_("out of memory"), "out of memory");
    /* No catalog in the folder: English, no error. */
    char *empty = ts_tmpdir();
    cr_expect_eq(i18n_init("zh", empty), I18N_EN);
    cr_expect_str_eq(_("out of memory"), "out of memory");
    ts_rmtree(empty);
    free(empty);
}

/* Runs the binary with the language settings in `env` (besides NO_COLOR) and args. */
static void run_in(struct ts_run *r, const char *const *lang_env, const char *const *args)
{
    const char *env[12];
    int n = 0;
    env[n++] = "NO_COLOR=1";
    env[n++] = "FWADVISOR_DB";
    for (const char *const *e = lang_env; *e && n < 11; e++) env[n++] = *e;
    env[n] = NULL;
    cr_assert_eq(ts_run(r, env, NULL, args), 0);
}

static const char *const ZH_ENV[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG=zh_CN.UTF-8", NULL};
static const char *const EN_ENV[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG=C.UTF-8", NULL};
static const char *const FR_ENV[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG=fr_FR.UTF-8", NULL};

/* Every line of s at most `width` columns and well-formed UTF-8 (no character cut). */
static void expect_fits(const char *s, int width, const char *what)
{
    cr_expect_eq(text_utf8_prefix(s), strlen(s), "%s: not UTF-8", what);
    for (const char *line = s; *line;) {
        size_t len = strcspn(line, "\n");
        char copy[1024];
        snprintf(copy, sizeof copy, "%.*s", (int)(len < sizeof copy ? len : sizeof copy - 1), line);
        cr_expect(text_width(copy) <= width, "%s: %d columns: '%s'", what, text_width(copy), copy);
        line += len;
        if (*line) line++;
    }
}

/* Each help the command line has, in Chinese: translated, within 80 columns by display width,
 * and English again with --lang en in the same Chinese environment. */
Test(i18n, every_help_in_chinese_within_80_columns)
{
    static const char *const helps[][5] = {
        {"--help"},          {"recommend", "--help"}, {"probe", "--help"},      {"train", "--help"},
        {"train", "--model", "gpt", "--help"}, {"kb", "--help"}, {"completion", "--help"},
    };
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
        const char *args[6] = {0};
        for (int j = 0; j < 5 && helps[i][j]; j++) args[j] = helps[i][j];
        struct ts_run zh, en, en_flag;
        run_in(&zh, ZH_ENV, args);
        run_in(&en, EN_ENV, args);
        const char *flagged[8] = {"--lang", "en"};
        for (int j = 0; j < 5 && helps[i][j]; j++) flagged[j + 2] = helps[i][j];
        run_in(&en_flag, ZH_ENV, flagged);
        cr_expect_eq(zh.status, 0, "%s", args[0]);
        cr_expect(strstr(zh.out, "用法： fwadvisor") != NULL, "%s %s: %s", args[0], args[1] ? args[1] : "", zh.out);
        cr_expect(strstr(zh.out, "Usage:") == NULL, "%s: still English", args[0]);
        expect_fits(zh.out, 80, args[1] ? args[1] : args[0]);
        cr_expect_str_eq(en_flag.out, en.out, "--lang en is the English help: %s", args[0]);
        cr_expect(strstr(en.out, "Usage: fwadvisor") != NULL);
        ts_run_free(&zh);
        ts_run_free(&en);
        ts_run_free(&en_flag);
    }
}

/* A language without a catalog is English, and so is the flag over the environment; --lang zh
 * over an English one; a bad value is one error line and status 2. */
Test(i18n, the_flag_over_the_environment)
{
    struct ts_run en, fr, zh_flag, zh_eq, bad;
    run_in(&en, EN_ENV, (const char *const[]){"--help", NULL});
    run_in(&fr, FR_ENV, (const char *const[]){"--help", NULL});
    cr_expect_str_eq(fr.out, en.out, "no French catalog: English");
    cr_expect_str_empty(fr.err);
    run_in(&zh_flag, EN_ENV, (const char *const[]){"--help", "--lang", "zh", NULL});
    run_in(&zh_eq, EN_ENV, (const char *const[]){"--lang=zh", "--help", NULL});
    cr_expect(strstr(zh_flag.out, "全局选项") != NULL, "%s", zh_flag.out);
    cr_expect_str_eq(zh_eq.out, zh_flag.out);
    run_in(&bad, ZH_ENV, (const char *const[]){"--lang", "fr", "--help", NULL});
    cr_expect_eq(bad.status, 2);
    cr_expect_str_empty(bad.out);
    cr_expect_str_eq(bad.err, "fwadvisor: --lang fr：应为 en 或 zh\n试试 'fwadvisor --help'。\n");
    ts_run_free(&en);
    ts_run_free(&fr);
    ts_run_free(&zh_flag);
    ts_run_free(&zh_eq);
    ts_run_free(&bad);
    /* a terminal of another character set stays English, even with --lang zh; the C locale,
     * which names none, gets UTF-8 Chinese */
    static const char *const gb[] = {"LANGUAGE", "LC_MESSAGES", "LANG", "LC_ALL=zh_CN.GB18030", NULL};
    static const char *const c_locale[] = {"LANGUAGE", "LC_MESSAGES", "LANG", "LC_ALL=C", NULL};
    struct ts_run gb_run, c_run;
    run_in(&gb_run, gb, (const char *const[]){"--lang", "zh", "--help", NULL});
    run_in(&c_run, c_locale, (const char *const[]){"--lang", "zh", "--help", NULL});
    cr_expect(strncmp(gb_run.out, "Usage: fwadvisor", 16) == 0, "%s", gb_run.out);
    cr_expect(strncmp(c_run.out, "用法： fwadvisor", strlen("用法： fwadvisor")) == 0, "%s", c_run.out);
    ts_run_free(&gb_run);
    ts_run_free(&c_run);
    struct ts_run bad_en;
    run_in(&bad_en, EN_ENV, (const char *const[]){"kb", "list", "--lang", "", NULL});
    cr_expect_eq(bad_en.status, 2);
    cr_expect_str_eq(bad_en.err, "fwadvisor: --lang : expected en or zh\nTry 'fwadvisor --help'.\n");
    ts_run_free(&bad_en);
}

Test(i18n, usage_errors_in_chinese)
{
    static const struct {
        const char *args[4];
        const char *err;
    } cases[] = {
        {{"--bogus"}, "fwadvisor: 未知或不完整的选项 '--bogus'\n试试 'fwadvisor --help'。\n"},
        {{"-x"}, "fwadvisor: 未知选项 '-x'\n试试 'fwadvisor --help'。\n"},
        {{"--db"}, "fwadvisor: 选项 '--db' 需要一个值\n试试 'fwadvisor --help'。\n"},
        {{"recomend"}, "fwadvisor: 未知的命令 'recomend'（你是不是想用 'recommend'？）\n试试 'fwadvisor --help'。\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ts_run r;
        run_in(&r, ZH_ENV, cases[i].args);
        cr_expect_eq(r.status, 2, "%s", cases[i].args[0]);
        cr_expect_str_eq(r.err, cases[i].err);
        ts_run_free(&r);
    }
}

/* JSON is English and the same, byte for byte, in both languages (but for the time it was made). */
Test(i18n, json_the_same_in_every_language)
{
    static const char *const runs[][8] = {
        {"recommend", "--preset", "nvidia-2000-gpus", "--probe", "none", "--json", NULL},
        {"recommend", "--set", "stage=research", "--probe", "none", "--json", NULL},
        {"kb", "list", "frameworks", "--json", NULL},
        {"recommend", "--list-presets", "--json", NULL},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct ts_run en, zh;
        run_in(&en, EN_ENV, runs[i]);
        run_in(&zh, ZH_ENV, runs[i]);
        cr_expect_eq(en.status, 0, "%s %s: %s", runs[i][0], runs[i][1], en.err);
        cr_expect_eq(zh.status, en.status);
        cr_expect(strlen(en.out) > 100, "%s %s: %s", runs[i][0], runs[i][1], en.out);
        ts_blank_generated_at(en.out);
        ts_blank_generated_at(zh.out);
        cr_expect_str_eq(zh.out, en.out, "%s %s", runs[i][0], runs[i][1]);
        ts_run_free(&en);
        ts_run_free(&zh);
    }
}

/* The check the build runs on a catalog (scripts/po-check.py): the real one passes; one message
 * missing, fuzzy, untranslated or against the glossary fails with its line; a stale one is a
 * warning. */
static int po_check(const char *po_text, const char *glossary_text, char **err)
{
    const char *src = getenv("FWADVISOR_SOURCE"), *pot = getenv("FWADVISOR_POT");
    cr_assert(src && pot);
    char *dir = ts_tmpdir(), *po = ts_path(dir, "x.po"), *gl = ts_path(dir, "g.tsv");
    char script[4200], real_gl[4200];
    snprintf(script, sizeof script, "%s/scripts/po-check.py", src);
    snprintf(real_gl, sizeof real_gl, "%s/po/glossary.zh_CN.tsv", src);
    cr_assert_eq(ts_write_str(po, po_text), 0);
    if (glossary_text) cr_assert_eq(ts_write_str(gl, glossary_text), 0);
    struct ts_run r;
    cr_assert_eq(ts_exec(&r, "/usr/bin/python3", NULL, NULL,
                         (const char *const[]){script, "check", po, pot, glossary_text ? gl : real_gl, NULL}),
                 0);
    int status = r.status;
    *err = r.err;
    free(r.out);
    ts_rmtree(dir);
    free(dir);
    free(po);
    free(gl);
    return status;
}

/* The real catalog with one edit: `old` (which must occur) replaced by `new`. */
static char *edited_catalog(const char *old, const char *new)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/po/zh_CN.po", getenv("FWADVISOR_SOURCE"));
    size_t len;
    char *po = ts_read(path, &len);
    cr_assert_not_null(po);
    if (!old) return po;
    char *at = strstr(po, old);
    cr_assert_not_null(at, "'%s' not in the catalog", old);
    size_t n = strlen(po) - strlen(old) + strlen(new) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - po), po, new, at + strlen(old));
    free(po);
    return out;
}

Test(i18n, the_catalog_check_both_ways)
{
    static const struct {
        const char *old, *new, *glossary, *err; /* old NULL: the catalog as it is */
    } cases[] = {
        {NULL, NULL, NULL, NULL},
        {"msgid \"out of memory\"\nmsgstr \"内存不足\"\n", "", NULL, "message missing: 'out of memory'"},
        {"msgid \"out of memory\"\nmsgstr \"内存不足\"\n", "#, fuzzy\nmsgid \"out of memory\"\nmsgstr \"内存不足\"\n", NULL,
         "fuzzy: 'out of memory'"},
        {"msgid \"out of memory\"\nmsgstr \"内存不足\"\n", "msgid \"out of memory\"\nmsgstr \"\"\n", NULL,
         "untranslated: 'out of memory'"},

        /* the glossary: a term in the English needs its translation; a name as it is spelt only */
        {NULL, NULL, "memory\t存储器\n", "'memory' is '存储器' (glossary line 1): 'out of memory'"},
        {NULL, NULL, "# a comment\nout of memory\t内存不足\n", NULL},
        {NULL, NULL, "OUT OF MEMORY\tOUT OF MEMORY\n", NULL},
        {NULL, NULL, "Out Of\t超出\n", "'Out Of' is '超出'"},
        /* a term matches across a space, not across a line break ("fwadvisor probe\nRun ..." has
         * no probe run in it: the real glossary's term passes there, case 0) */
        {NULL, NULL, "probe run\t运行记录\n", "'probe run' is '运行记录' (glossary line 1): 'Open the latest probe run'"},
    };
    /* a message the code no longer has: a warning, not a failure */
    char *stale = edited_catalog("msgid \"out of memory\"\nmsgstr \"内存不足\"\n",
                                 "msgid \"out of memory\"\nmsgstr \"内存不足\"\n\nmsgid \"a message gone from the code\"\n"
                                 "msgstr \"已删\"\n"),
         *warned = NULL;
    cr_expect_eq(po_check(stale, NULL, &warned), 0);
    cr_expect(strstr(warned, "warning: the code no longer has this message: 'a message gone from the code'") != NULL, "%s",
              warned);
    free(stale);
    free(warned);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *po = edited_catalog(cases[i].old, cases[i].new), *err = NULL;
        int status = po_check(po, cases[i].glossary, &err);
        if (cases[i].err) {
            cr_expect_eq(status, 1, "case %zu", i);
            cr_expect(strstr(err, cases[i].err) != NULL, "case %zu: '%s' not in '%s'", i, cases[i].err, err);
        } else {
            cr_expect_eq(status, 0, "case %zu: %s", i, err);
            cr_expect_str_empty(err, "case %zu", i);
        }
        free(err);
        free(po);
    }
}

/* The recommendation's own words in Chinese: its headings and the plan's labels, within 80
 * columns; an excluded framework's reason starts at column 30 in both languages. */
Test(i18n, the_recommendation_frame_in_chinese)
{
    struct ts_run zh, en, en_flag;
    const char *const args[] = {"recommend", "--preset", "tpu-pod", "--probe", "none", NULL};
    run_in(&zh, ZH_ENV, args);
    run_in(&en, EN_ENV, args);
    run_in(&en_flag, ZH_ENV, (const char *const[]){"recommend", "--preset", "tpu-pod", "--probe", "none", "--lang", "en", NULL});
    cr_assert_eq(zh.status, 0, "%s", zh.err);
    cr_expect_str_eq(en_flag.out, en.out, "--lang en is the English report");
    static const char *const zh_words[] = {
        "fwadvisor 推荐（知识库 ", "排名（0-100）", "：其 ", " 条理由中影响最大的几条（全部：--json）", "分布式训练：",
        "部署：", "\n方案\n", "常见陷阱", "  每设备显存：", "  时间：", "个节点上",
        /* the reasons' labels and details, and the pitfalls, from the knowledge base's Chinese */
        "基线：平均框架（在此能运行的框架中）的加权各项标准", "  [ ] 往往瓶颈不在计算，而在数据加载：",
    };
    for (size_t i = 0; i < sizeof zh_words / sizeof zh_words[0]; i++)
        cr_expect(strstr(zh.out, zh_words[i]) != NULL, "'%s' not in:\n%s", zh_words[i], zh.out);
    static const char *const en_words[] = {"Ranking (0-100)", "Why ", "Distributed training:", "Memory per device:", "Pitfalls",
                                           "Baseline: the weighted criteria", "The bottleneck is often data loading"};
    for (size_t i = 0; i < sizeof en_words / sizeof en_words[0]; i++) {
        cr_expect(strstr(zh.out, en_words[i]) == NULL, "'%s' left in Chinese", en_words[i]);
        cr_expect(strstr(en.out, en_words[i]) != NULL, "'%s' not in English", en_words[i]);
    }
    expect_fits(zh.out, 80, "recommend");
    /* "   -  MLX           已排除    Excluded: ...": the reason at column 30 */
    const char *at = strstr(zh.out, "   -  MLX ");
    cr_assert_not_null(at, "%s", zh.out);
    const char *reason = strstr(at, "排除：");
    cr_assert_not_null(reason, "%s", at);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(reason - at), at);
    cr_expect_eq(text_width(prefix), 30, "'%s'", prefix);
    const char *en_at = strstr(en.out, "   -  MLX ");
    cr_assert_not_null(en_at);
    cr_expect_eq(strstr(en_at, "Excluded") - en_at, 30);
    ts_run_free(&zh);
    ts_run_free(&en);
    ts_run_free(&en_flag);
}

/* The presets' table: Chinese headings over the same rows. */
Test(i18n, the_presets_table_in_chinese)
{
    struct ts_run zh;
    run_in(&zh, ZH_ENV, (const char *const[]){"recommend", "--list-presets", NULL});
    cr_expect_eq(zh.status, 0);
    cr_expect(strncmp(zh.out, "预设", strlen("预设")) == 0, "%s", zh.out);
    cr_expect(strstr(zh.out, "场景") != NULL);
    cr_expect(strstr(zh.out, "tpu-pod ") != NULL);
    cr_expect(strstr(zh.out, "选用：fwadvisor recommend --preset NAME（文件在 data/presets/ 中）\n") != NULL, "%s", zh.out);
    ts_run_free(&zh);
}

/* The plan in Chinese, worked in the process: the verdict the interface shows and the plan's
 * lines, with the numbers as in English. 1e9 parameters on 2 A100s (DDP) take 22.0 GB of 24.4. */
Test(i18n, the_plan_and_its_verdict_in_chinese)
{
    struct ts_advisor fx;
    char err[1024];
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    static const char json[] = "{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 2, \"model_params\": 1e9, "
                               "\"device_memory_gb\": 24.444444444444443, \"tokens\": 2e10}";
    char en[512], zh[512];
    cr_assert_eq(ts_advisor_recommend(&fx, json, err, sizeof err), 0, "%s", err);
    adv_plan_verdict(fx.res, en, sizeof en);
    unsetenv("LANGUAGE");
    int zh_ok = i18n_init("zh", getenv("FWADVISOR_LOCALES")) == I18N_ZH;
    cr_expect(zh_ok, "the catalog in %s", getenv("FWADVISOR_LOCALES"));
    if (!zh_ok || ts_advisor_recommend(&fx, json, err, sizeof err) != 0) {
        cr_expect_fail("%s", err);
        ts_advisor_close(&fx);
        return;
    }
    adv_plan_verdict(fx.res, zh, sizeof zh);
    cr_expect(strncmp(en, "Memory: 22.0 of 24 GB usable per device, fits. Time: ", 53) == 0, "%s", en);
    cr_expect(strncmp(zh, "显存：每设备 22.0 GB，可用 24 GB，装得下。 时间：", strlen("显存：每设备 22.0 GB，可用 24 GB，装得下。 时间：")) == 0,
              "%s", zh);
    cr_expect(strstr(zh, "，2 台设备。") != NULL, "%s", zh);
    static char text[16384];
    text[0] = '\0';
    adv_plan_text(fx.akb, fx.res, ts_collect_line, &(struct ts_text){text, sizeof text});
    static const char *const words[] = {"训练全部参数", "tp 1 x pp 1 x dp 2", "模型状态 ", "缓冲区 ", "= 22.0 GB，共 24 GB：装得下，余量 2.4 GB",
                                        "（需留出可用显存的 10%）", "聚合的层 0.0 GB", "每词元 FLOP x 20B 个词元", "台设备 x ", "MFU "};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        cr_expect(strstr(text, words[i]) != NULL, "'%s' not in:\n%s", words[i], text);
    cr_expect(strstr(text, "model states") == NULL && strstr(text, "all parameters trained") == NULL, "%s", text);
    ts_advisor_close(&fx);
}

/* The serving plan in Chinese: the plural words are whole words, so no English "s" is left
 * after a Chinese one; positional arguments put the context and the prefill time where Chinese
 * puts them. */
Test(i18n, the_serving_plan_in_chinese)
{
    struct ts_run zh;
    run_in(&zh, ZH_ENV,
           (const char *const[]){"recommend", "--probe", "none", "--set", "model_kind=llm", "--set", "model_params=70e9",
                                 "--set", "hidden=8192", "--set", "layers=80", "--set", "heads=64", "--set", "kv_heads=8",
                                 "--set", "deploy=server", "--set", "accelerator=h100-sxm", "--set", "serve_context=8192",
                                 "--set", "serve_batch=2", "--set", "job=serve", NULL});
    cr_assert_eq(zh.status, 0, "%s", zh.err);
    static const char *const words[] = {"推理服务方案（job serve：不规划训练）", "  推理服务：2 个序列，每个 8192 个词元，",
                                        "，张量并行", "  推理显存：权重 ", "时上下文最长 ", "  解码：每个序列最多 ",
                                        "2 个序列合计", "  预填充：", "个提示，每个 8192 个词元：按 ", "至少需要 0.62"};
    char *joined = ts_unwrap(zh.out);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        cr_expect(strstr(zh.out, words[i]) || strstr(joined, words[i]), "'%s' not in:\n%s", words[i], zh.out);
    free(joined);
    cr_expect(strstr(zh.out, "个序列s") == NULL && strstr(zh.out, "个提示s") == NULL, "%s", zh.out);
    expect_fits(zh.out, 80, "serving");
    ts_run_free(&zh);
}

/* Durations for people in Chinese, the stored (English) form unchanged in either language:
 * 45 s, 12 min, 2 h, 3.5 days, 2.1 months (64 days), 1,234 years, and what cannot be a duration. */
Test(i18n, durations_in_chinese)
{
    unsetenv("LANGUAGE");
    cr_assert_eq(i18n_init("zh", getenv("FWADVISOR_LOCALES")), I18N_ZH);
    static const struct {
        double seconds;
        const char *zh, *en;
    } cases[] = {
        {45, "45 秒", "45 seconds"},
        {12 * 60, "12 分钟", "12 minutes"},
        {7200, "2 小时", "2 hours"},
        {3.5 * 86400, "3.5 天", "3.5 days"},
        {2.1 * 365.25 / 12 * 86400, "2.1 个月", "2.1 months"},
        {1234 * 365.25 * 86400, "1,234 年", "1,234 years"},
        {-1, "未知", "unknown"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char zh[64], en[64];
        cr_expect_str_eq(units_duration_text(cases[i].seconds, zh, sizeof zh), cases[i].zh, "case %zu", i);
        cr_expect_str_eq(units_duration(cases[i].seconds, en, sizeof en), cases[i].en, "case %zu", i);
    }
    char h[64];
    cr_expect_str_eq(units_hours_text(96, h, sizeof h), "4 天");
    cr_expect_eq(i18n_init("en", NULL), I18N_EN);
    cr_expect_str_eq(units_hours_text(96, h, sizeof h), "4 days");
}

/* The Chinese man page has the English one's structure: the same sections, entries and
 * emphasised lines in the same order (.SH, .TP, .B, .BI, .BR, .I, .br), and every option the
 * English names, since only the prose is translated. */
Test(i18n, the_chinese_man_page_follows_the_english_one)
{
    char en_path[4200], zh_path[4200];
    snprintf(en_path, sizeof en_path, "%s/docs/fwadvisor.1", getenv("FWADVISOR_SOURCE"));
    snprintf(zh_path, sizeof zh_path, "%s/docs/fwadvisor.zh_CN.1", getenv("FWADVISOR_SOURCE"));
    char *en = ts_read(en_path, NULL), *zh = ts_read(zh_path, NULL);
    cr_assert(en && zh);
    static const char *const macros[] = {".SH ", ".TP", ".B ", ".BI ", ".BR ", ".I ", ".br"};
    for (size_t m = 0; m < sizeof macros / sizeof macros[0]; m++) {
        int counts[2] = {0, 0};
        const char *docs[2] = {en, zh};
        for (int d = 0; d < 2; d++)
            for (const char *line = docs[d]; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
                counts[d] += strncmp(line, macros[m], strlen(macros[m])) == 0;
        cr_expect_eq(counts[1], counts[0], "%s: %d lines in Chinese, %d in English", macros[m], counts[1], counts[0]);
        cr_expect_gt(counts[0], 0, "%s", macros[m]);
    }
    /* every option of the English page, as it is spelt there (\-\-name) */
    int options = 0;
    for (const char *p = strstr(en, "\\-\\-"); p; p = strstr(p + 4, "\\-\\-")) {
        char opt[64];
        size_t n = 4 + strspn(p + 4, "abcdefghijklmnopqrstuvwxyz\\-");
        snprintf(opt, sizeof opt, "%.*s", (int)(n < sizeof opt ? n : sizeof opt - 1), p);
        cr_expect(strstr(zh, opt) != NULL, "%s not in the Chinese page", opt);
        options++;
    }
    cr_expect_gt(options, 40);
    cr_expect(strstr(zh, ".SH 名称") && strstr(zh, ".SH 选项") && strstr(zh, ".SH 环境变量"), "headings in Chinese");
    free(en);
    free(zh);
}

/* The programs the probes start (the frameworks' interpreters) get the user's LANGUAGE, not the
 * one the program set for its own catalog: unset when the user had none, the user's otherwise. */
Test(i18n, the_frameworks_get_the_users_language)
{
    static const char *const users[] = {NULL, "fr:de"};
    for (int i = 0; i < 2; i++) {
        if (users[i]) setenv("LANGUAGE", users[i], 1);
        else unsetenv("LANGUAGE");
        setenv("LANG", "zh_CN.UTF-8", 1);
        cr_assert_eq(i18n_init("zh", getenv("FWADVISOR_LOCALES")), I18N_ZH);
        cr_expect_str_eq(getenv("LANGUAGE"), "zh_CN", "the catalog by name");
        struct probe_options opt = {0};
        struct fw_state s = {.opt = &opt};
        cr_assert_eq(fw_env_make(&s), 0);
        int found = 0;
        for (char **e = s.env; *e; e++)
            if (strncmp(*e, "LANGUAGE=", 9) == 0) {
                found++;
                cr_expect(users[i] && strcmp(*e + 9, users[i]) == 0, "case %d: %s", i, *e);
            }
        cr_expect_eq(found, users[i] ? 1 : 0, "case %d", i);
        fw_env_free(s.env);
    }
}

/* The hardware comparison and the sweep in Chinese: the heading, the columns and the notes, the
 * durations in the cells as Chinese writes them, and the English as --lang en gives it. */
Test(i18n, the_comparison_in_chinese)
{
    const char *const cmp[] = {"recommend", "--probe", "none", "--model", "llama-3.1-70b", "--set", "job=finetune", "--set",
                               "finetune=lora", "--set", "dataset_tokens=1e8", "--compare-hardware", NULL};
    struct ts_run zh, en, en_flag;
    run_in(&zh, ZH_ENV, cmp);
    run_in(&en, EN_ENV, cmp);
    const char *flagged[16] = {"--lang", "en"};
    for (int i = 0; cmp[i]; i++) flagged[i + 2] = cmp[i];
    run_in(&en_flag, ZH_ENV, flagged);
    cr_assert_eq(zh.status, 0, "%s", zh.err);
    static const char *const words[] = {"适合此任务的硬件，按时间排序", "加速器", "设备数", "设备小时", "成本",
                                        "设备数：能装下的最少设备数，再加上它的两倍和四倍。", " 分钟 ", " 小时 "};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) cr_expect(strstr(zh.out, words[i]) != NULL, "'%s' not in:\n%s", words[i], zh.out);
    cr_expect(strstr(zh.out, "ACCELERATOR") == NULL && strstr(zh.out, "minutes") == NULL, "%s", zh.out);
    /* the refusals' reasons too: a device that cannot hold the fine-tune at any count */
    char *joined = ts_unwrap(zh.out);
    cr_expect(strstr(joined, "放不下：每设备 ") != NULL && strstr(joined, "台仍放不下") != NULL, "%s", zh.out);
    cr_expect(strstr(zh.out, "does not fit:") == NULL, "%s", zh.out);
    cr_expect(strstr(en.out, "does not fit:") != NULL, "%s", en.out);
    free(joined);
    cr_expect(strstr(en.out, "ACCELERATOR") != NULL && strstr(en.out, "Hardware for this job, sorted by time") != NULL, "%s", en.out);
    cr_expect_str_eq(en_flag.out, en.out);
    ts_run_free(&zh);
    ts_run_free(&en);
    ts_run_free(&en_flag);
}

static const char *shout(const void *ctx, const char *s)
{
    (void)ctx;
    return strcmp(s, "JAX") == 0 ? "JAX!" : s;
}

/* One English format, the catalog's translation: its %n$ order, each argument's own precision,
 * the string arguments through the map; English is plain printf, where the map does nothing. */
Test(i18n, a_format_in_the_readers_language)
{
    setenv("LC_ALL", "C", 1);
    cr_assert_eq(i18n_init("zh", getenv("FWADVISOR_LOCALES")), I18N_ZH);
    char out[256];
    cr_expect_gt(i18n_format(out, sizeof out, NULL, NULL, "Excluded: no %s support on %s under %s", "CUDA", "JAX", "windows"), 0);
    cr_expect_str_eq(out, "排除：JAX 在 windows 下没有 CUDA 支持", "the translation's order of the arguments");
    i18n_format(out, sizeof out, shout, NULL, "Excluded: no %s support on %s under %s", "CUDA", "JAX", "windows");
    cr_expect_str_eq(out, "排除：JAX! 在 windows 下没有 CUDA 支持", "the map on each string");
    i18n_format(out, sizeof out, NULL, NULL,
                "Cannot fit: with %s's strategies on %s the model states alone need %.1f GB per device (%s), more than %.0f GB",
                "JAX", "TPU", 123.456, "fsdp", 79.6);
    cr_expect_str_eq(out, "放不下：在 TPU 上用 JAX 的策略，仅模型状态每设备就需 123.5 GB（fsdp），超过 80 GB");
    /* a format the catalog lacks: every conversion kind, width and precision from arguments */
    i18n_format(out, sizeof out, NULL, NULL, "%*d|%-5s|%.*f|%zu|%lld|%c|%x|%05.1f|%%", 5, 42, "ab", 2, 3.14159, (size_t)7,
                -9LL, 'x', 255u, 2.25);
    cr_expect_str_eq(out, "   42|ab   |3.14|7|-9|x|ff|002.2|%");
    /* cut to whole characters: 7 bytes hold two of the three-byte ones */
    char small[8];
    i18n_format(small, sizeof small, NULL, NULL, "Excluded");
    cr_expect_str_eq(small, "排除");
    char tiny[3];
    i18n_format(tiny, sizeof tiny, NULL, NULL, "Excluded");
    cr_expect_str_eq(tiny, "");
    /* a conversion it does not know */
    const char *unknown = "%q %d"; /* not a literal: the compiler would refuse it */
    cr_expect_eq(i18n_format(out, sizeof out, NULL, NULL, unknown, 1), -1);
    cr_expect_str_eq(out, "");
    cr_expect_eq(i18n_init("en", getenv("FWADVISOR_LOCALES")), I18N_EN);
    i18n_format(out, sizeof out, shout, NULL, "Excluded: no %s support on %s under %s", "CUDA", "JAX", "windows");
    cr_expect_str_eq(out, "Excluded: no CUDA support on JAX under windows");
}

static void keep_line(void *ctx, const char *start, size_t bytes)
{
    char *out = ctx;
    size_t used = strlen(out);
    snprintf(out + used, 1024 - used, "%.*s|", (int)bytes, start);
}

/* Chinese wraps between characters (it has no spaces), never before a closing mark (，。）) or
 * after an opening one (（), and not inside an English sentence's parenthesised gloss. */
Test(i18n, chinese_wraps_between_characters)
{
    char out[1024] = "";
    cr_expect_eq(text_wrap_lines("数据并行，张量并行和流水线并行", 10, keep_line, out), 3);
    cr_expect_str_eq(out, "数据并行，|张量并行和|流水线并行|");
    out[0] = '\0';
    text_wrap_lines("数据并行，张量", 8, keep_line, out);
    cr_expect_str_eq(out, "数据并|行，张量|", "the comma stays with the character before it");
    out[0] = '\0';
    text_wrap_lines("看看看（张量", 8, keep_line, out);
    cr_expect_str_eq(out, "看看看|（张量|", "no line ends on an opening mark");
    out[0] = '\0';
    text_wrap_lines("rates it poor (较差的调试体验) now", 20, keep_line, out);
    cr_expect_str_eq(out, "rates it poor|(较差的调试体验) now|", "a gloss stays whole");
    out[0] = '\0';
    text_wrap_lines("用 PyTorch 训练模型", 12, keep_line, out);
    cr_expect_str_eq(out, "用 PyTorch|训练模型|");
}

/* The plan's sources, links, shape and assumptions come in the reader's language too (written
 * once as English formats, rendered twice), and the report JSON stays the English one. */
Test(i18n, the_plans_notes_in_chinese)
{
    struct ts_run zh, en, zh_json, en_json;
    const char *const args[] = {"recommend", "--preset", "nvidia-2000-gpus", "--probe", "none", NULL};
    run_in(&zh, ZH_ENV, args);
    run_in(&en, EN_ENV, args);
    cr_assert_eq(zh.status, 0, "%s", zh.err);
    char *joined = ts_unwrap(zh.out);
    static const char *const zh_words[] = {
        "hardware：nvidia，按回答", "峰值：目录：NVIDIA H100 SXM 80GB，稠密 bf16（hw-nvidia-h100）",
        "节点间每设备每方向 50 GB/s（h100-sxm）；张量并行（8）节点内，数据并行（250）节点间",
        "显存：目录：NVIDIA H100 SXM 80GB（假定；", "假定：模型结构：结构按 GPT-3 的比例由参数量推出：hidden 9216",
        "假定：注意力用 FlashAttention 类内核", "扩展效率：通信按互连计算",
    };
    for (size_t i = 0; i < sizeof zh_words / sizeof zh_words[0]; i++)
        cr_expect(strstr(joined, zh_words[i]) != NULL, "'%s' not in:\n%s", zh_words[i], zh.out);
    static const char *const en_words[] = {"catalog: NVIDIA H100", "as answered", "shape derived from the parameters",
                                           "tensor parallel (8) inside a node", "communication from the links"};
    char *en_joined = ts_unwrap(en.out);
    for (size_t i = 0; i < sizeof en_words / sizeof en_words[0]; i++) {
        cr_expect(strstr(joined, en_words[i]) == NULL, "'%s' left in Chinese", en_words[i]);
        cr_expect(strstr(en_joined, en_words[i]) != NULL, "'%s' not in English", en_words[i]);
    }
    free(joined);
    free(en_joined);
    run_in(&zh_json, ZH_ENV, (const char *const[]){"recommend", "--preset", "nvidia-2000-gpus", "--probe", "none", "--json", NULL});
    run_in(&en_json, EN_ENV, (const char *const[]){"recommend", "--preset", "nvidia-2000-gpus", "--probe", "none", "--json", NULL});
    cr_assert(ts_blank_generated_at(zh_json.out) && ts_blank_generated_at(en_json.out));
    cr_expect_str_eq(zh_json.out, en_json.out);
    cr_expect(strstr(en_json.out, "shape derived from the parameters like GPT-3") != NULL);
    ts_run_free(&zh);
    ts_run_free(&en);
    ts_run_free(&zh_json);
    ts_run_free(&en_json);
}

/* The serving plan's own notes in Chinese: the serving device it assumed. */
Test(i18n, the_serving_plans_notes_in_chinese)
{
    struct ts_run zh;
    run_in(&zh, ZH_ENV,
           (const char *const[]){"recommend", "--probe", "none", "--set", "model_kind=llm", "--set", "model_params=70e9",
                                 "--set", "deploy=server", "--set", "deploy_hardware=amd", "--set", "job=serve", "--set",
                                 "accelerator=h100-sxm", NULL});
    cr_assert_eq(zh.status, 0, "%s", zh.err);
    char *joined = ts_unwrap(zh.out);
    /* (where the line breaks beside Chinese, the joined text cannot tell whether a space stood there) */
    cr_expect(strstr(joined, "假定推理服务设备：AMD Instinct MI300X（mi300x），对应") != NULL, "%s", zh.out);
    cr_expect(strstr(joined, "deploy_hardware amd，而不是训练设备") != NULL, "%s", zh.out);
    cr_expect(strstr(joined, "Serving device assumed") == NULL, "%s", zh.out);
    free(joined);
    ts_run_free(&zh);
}
