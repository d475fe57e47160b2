/* The command line's own output in Chinese: the probe's tables, summaries and notes, probe
 * list/show/delete, the kb subcommands, train and train --model gpt, and the option parser's
 * errors. Each is checked for its Chinese words, for English gone where it was translated, for
 * lines within 80 columns by display width with no character cut, and for the English output
 * and JSON staying as they were. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/i18n.h"
#include "common/text.h"
#include "knowledge/kb.h"
#include "knowledge/measured.h"
#include "knowledge/probe_store.h"
#include "probes/run_table.h"
#include "probes/session.h"
#include "tests/support.h"

static char *dir;
static char dbarg[4200];

/* Each test's folder and its knowledge base: made before the test (in the test's own process),
 * removed after it. */
static void test_folder(void)
{
    if (!dir) {
        dir = ts_tmpdir();
        snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
        return;
    }
    ts_rmtree(dir);
    free(dir);
    dir = NULL;
}

TestSuite(i18n_cli, .init = test_folder, .fini = test_folder, .timeout = 120);

static const char *const ZH_ENV[] = {"NO_COLOR=1", "FWADVISOR_DB", "LANGUAGE", "LC_ALL", "LC_MESSAGES",
                                     "LANG=zh_CN.UTF-8", NULL};
static const char *const EN_ENV[] = {"NO_COLOR=1", "FWADVISOR_DB", "LANGUAGE", "LC_ALL", "LC_MESSAGES",
                                     "LANG=C.UTF-8", NULL};

#define RUN_ZH(r, ...) cr_assert_eq(ts_run(&(r), ZH_ENV, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)
#define RUN_EN(r, ...) cr_assert_eq(ts_run(&(r), EN_ENV, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

/* Every line of s at most `width` columns and well-formed UTF-8 (no character cut). */
static void expect_fits(const char *s, int width, const char *what)
{
    cr_expect_eq(text_utf8_prefix(s), strlen(s), "%s: not UTF-8", what);
    cr_expect(ts_max_width(s) <= width, "%s: %d columns:\n%s", what, ts_max_width(s), s);
}

/* A command (args after --db, NULL-terminated) that fails with `status` (-1: any but 0) in both
 * languages, its Chinese error exactly `err`: an error is one line, as long as it takes, and the
 * Chinese one no wider than the English. */
static void expect_error(const char *const *args, int status, const char *err)
{
    const char *argv[12] = {dbarg};
    for (int j = 0; j < 10 && args[j]; j++) argv[j + 1] = args[j];
    struct ts_run zh, en;
    cr_assert_eq(ts_run(&zh, ZH_ENV, NULL, argv), 0);
    cr_assert_eq(ts_run(&en, EN_ENV, NULL, argv), 0);
    if (status >= 0) cr_expect_eq(zh.status, status, "%s %s: %s", args[0], args[1], zh.err);
    else cr_expect_neq(zh.status, 0, "%s %s", args[0], args[1]);
    cr_expect_eq(zh.status, en.status, "%s %s", args[0], args[1]);
    cr_expect_str_eq(zh.err, err, "%s %s", args[0], args[1]);
    cr_expect_eq(text_utf8_prefix(zh.err), strlen(zh.err), "%s: not UTF-8", args[1]);
    cr_expect(ts_max_width(zh.err) <= ts_max_width(en.err), "%s: %d columns against %d:\n%s%s", args[1],
              ts_max_width(zh.err), ts_max_width(en.err), zh.err, en.err);
    ts_run_free(&zh);
    ts_run_free(&en);
}

/* Each of words in s, wherever its wrap fell. */
static void expect_in(const char *s, const char *const *words, const char *what)
{
    char *joined = ts_unwrap(s);
    for (; *words; words++)
        cr_expect(strstr(s, *words) != NULL || strstr(joined, *words) != NULL, "%s: '%s' not in:\n%s", what, *words, s);
    free(joined);
}

static void expect_not_in(const char *s, const char *const *words, const char *what)
{
    for (; *words; words++) cr_expect(strstr(s, *words) == NULL, "%s: '%s' still English in:\n%s", what, *words, s);
}

/* Two stored runs of this machine, fixed figures: a baseline and one to compare, with an
 * accelerator, GEMM rows (one better, one noisy), a skipped row and a train-gpt step with a plan. */
static const char *const RUNS[2] = {
    "{\"schema\": \"fwadvisor.probe/1\", \"id\": \"then\", \"started_at\": \"2026-01-01T00:00:00Z\", \"duration_s\": 2,"
    " \"cpu\": {\"model\": \"Test CPU\", \"microarchitecture\": \"Zen 4\", \"packages\": 1, \"cores\": 2, \"threads\": 2,"
    " \"numa_nodes\": 1, \"caches\": {\"l3_bytes\": 33554432}, \"memory_bytes\": 25000000000, \"simd\": [\"avx2\"],"
    " \"peak_gflops_fp32\": 232, \"peak_note\": \"2 cores x 3600 MHz x 32 FP32 FLOP/cycle\"}, \"accelerators\": [],"
    " \"results\": [{\"workload\": \"gemm\", \"device\": \"cpu\", \"metric\": \"gflops\", \"unit\": \"GFLOP/s\","
    " \"status\": \"ok\", \"median\": 80, \"min\": 78, \"max\": 82, \"cv\": 0.01, \"params\": {\"n\": 1024, \"threads\": 2,"
    " \"dtype\": \"fp32\"}, \"peak_fraction\": 0.34}]}",
    "{\"schema\": \"fwadvisor.probe/1\", \"id\": \"now\", \"started_at\": \"2026-01-02T00:00:00Z\", \"duration_s\": 3,"
    " \"cpu\": {\"model\": \"Test CPU\", \"microarchitecture\": \"Zen 4\", \"packages\": 1, \"cores\": 2, \"threads\": 2,"
    " \"numa_nodes\": 1, \"caches\": {\"l3_bytes\": 33554432}, \"memory_bytes\": 25000000000, \"simd\": [\"avx2\"],"
    " \"peak_gflops_fp32\": 232, \"peak_note\": \"2 cores x 3600 MHz x 32 FP32 FLOP/cycle\"},"
    " \"accelerators\": [{\"kind\": \"gpu\", \"count\": 1, \"name\": \"Test GPU\", \"memory_bytes\": 80000000000,"
    " \"compute_capability\": \"9.0\", \"note\": \"found by the test\"}],"
    " \"results\": [{\"workload\": \"gemm\", \"device\": \"cpu\", \"metric\": \"gflops\", \"unit\": \"GFLOP/s\","
    " \"status\": \"ok\", \"median\": 100, \"min\": 98, \"max\": 102, \"cv\": 0.01, \"params\": {\"n\": 1024, \"threads\": 2,"
    " \"dtype\": \"fp32\"}, \"peak_fraction\": 0.43},"
    " {\"workload\": \"gemm\", \"device\": \"cpu\", \"metric\": \"gflops\", \"unit\": \"GFLOP/s\", \"status\": \"ok\","
    " \"median\": 90, \"min\": 40, \"max\": 120, \"cv\": 0.3, \"noisy\": true, \"params\": {\"n\": 2048, \"threads\": 2,"
    " \"dtype\": \"fp32\"}, \"peak_fraction\": 0.39},"
    " {\"workload\": \"allreduce\", \"device\": \"cpu\", \"metric\": \"busbw_gbs\", \"unit\": \"GB/s\", \"status\": \"skipped\","
    " \"reason\": \"skipped: single process\"},"
    " {\"workload\": \"train-gpt\", \"device\": \"cpu\", \"metric\": \"step_ms\", \"unit\": \"ms\", \"status\": \"ok\","
    " \"median\": 300, \"min\": 290, \"max\": 310, \"cv\": 0.02, \"params\": {\"n_layer\": 4, \"n_head\": 4, \"n_embd\": 256,"
    " \"ctx\": 128, \"vocab\": 256, \"batch\": 8, \"precision\": \"fp32\", \"planned_ms\": 250, \"gemm_ms\": 200,"
    " \"memory_ms\": 50, \"gemm_gflops\": 100, \"bandwidth_gbs\": 20, \"bandwidth_source\": \"measured stream\"}}]}",
};

static void store_runs(void)
{
    char err[512], *path = ts_path(dir, "kb.sqlite3");
    kb *k;
    cr_assert_eq(kb_open(path, 0, &k, err, sizeof err), KB_OK, "%s", err);
    for (int i = 0; i < 2; i++) {
        cJSON *doc = cJSON_Parse(RUNS[i]);
        cr_assert_not_null(doc);
        cr_assert_eq(kb_probe_save(k, doc, err, sizeof err), KB_OK, "%s", err);
        cJSON_Delete(doc);
    }
    kb_close(k);
    free(path);
}

Test(i18n_cli, probe_show_in_chinese)
{
    store_runs();
    struct ts_run zh, en, en_flag;
    RUN_ZH(zh, dbarg, "probe", "show", "now", "--compare", "then");
    RUN_EN(en, dbarg, "probe", "show", "now", "--compare", "then");
    RUN_ZH(en_flag, "--lang", "en", dbarg, "probe", "show", "now", "--compare", "then");
    cr_assert_eq(zh.status, 0, "%s", zh.err);
    static const char *const zh_words[] = {
        "探测记录 now，2026-01-02T00:00:00Z，3.0 秒",
        "CPU：Test CPU（Zen 4），1 个封装，2 个核心，2 个线程，1 个 NUMA 节点",
        "gpu：1 x Test GPU，每块 80.0 GB，计算能力 9.0。found by the test",
        "负载", "指标", "参数", "中位数", "基线", "变化", "+25.0% 更好", "新增",
        "规划器在本 CPU 上的 GPT 步：250 ms", "规划/实测 0.83。",
        "! 变异系数高于 5%：机器当时繁忙", "超出噪声（两者中较大 CV 的两倍，至少 3%）的变化标为“更好”或“更差”。",
        "skipped: single process", /* the reason comes from the probe itself, in English */
        NULL};
    expect_in(zh.out, zh_words, "probe show");
    static const char *const en_words[] = {"probe run", "WORKLOAD", "BASELINE", "CHANGE", " better", "The planner's",
                                           "coefficient of variation", "Changes beyond", "package(s)", NULL};
    expect_not_in(zh.out, en_words, "probe show");
    expect_fits(zh.out, 80, "probe show");
    /* English as it was, and --lang en gives it in a Chinese environment */
    expect_in(en.out, en_words, "probe show in English");
    cr_expect(strstr(en.out, "+25.0% better") != NULL, "%s", en.out);
    cr_expect_str_eq(en_flag.out, en.out);
    ts_run_free(&zh);
    ts_run_free(&en);
    ts_run_free(&en_flag);
}

Test(i18n_cli, probe_list_delete_and_errors_in_chinese)
{
    store_runs();
    struct ts_run r;
    RUN_ZH(r, dbarg, "probe", "list");
    cr_expect_eq(r.status, 0, "%s", r.err);
    expect_in(r.out, (const char *const[]){"ID", "开始时间", "秒数", "概要",
                                           "\n2 次运行。* = 被中断。详情：fwadvisor probe show ID\n", NULL}, "probe list");
    expect_not_in(r.out, (const char *const[]){"STARTED", "SUMMARY", "runs.", NULL}, "probe list");
    expect_fits(r.out, 80, "probe list");
    ts_run_free(&r);
    RUN_EN(r, dbarg, "probe", "list");
    cr_expect(strstr(r.out, "STARTED") && strstr(r.out, "\n2 runs. * = interrupted. Details: fwadvisor probe show ID\n"),
              "%s", r.out);
    ts_run_free(&r);

    RUN_ZH(r, dbarg, "probe", "delete", "then");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "已删除探测记录 then\n");
    ts_run_free(&r);
    RUN_ZH(r, dbarg, "probe", "show", "latest", "--compare", "latest");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "fwadvisor: --compare latest：未保存本机的其他完整运行\n") != NULL, "%s", r.err);
    ts_run_free(&r);
    RUN_ZH(r, dbarg, "probe", "delete", "now");
    ts_run_free(&r);
    RUN_ZH(r, dbarg, "probe", "list");
    cr_expect_str_eq(r.out, "0 次运行\n");
    ts_run_free(&r);
    RUN_ZH(r, dbarg, "probe", "show", "latest");
    cr_expect_eq(r.status, 3);
    cr_expect_str_eq(r.err, "fwadvisor: 尚未保存任何探测记录（请运行 fwadvisor probe）\n");
    ts_run_free(&r);

    static const struct {
        const char *args[6];
        const char *err;
    } cases[] = {
        {{"probe", "list", "x"}, "fwadvisor: probe list 不接受参数\n试试 'fwadvisor probe --help'。\n"},
        {{"probe", "show"}, "fwadvisor: probe show 需要一个 ID\n试试 'fwadvisor probe --help'。\n"},
        {{"probe", "--quick", "--full"}, "fwadvisor: --quick 与 --full 互相矛盾：请选择其一\n试试 'fwadvisor probe --help'。\n"},
        {{"probe", "--threads", "2", "--device", "cuda"},
         "fwadvisor: --threads 只适用于 CPU 的测量（--device cuda 不做这些测量）：在这里不起作用\n"
         "试试 'fwadvisor probe --help'。\n"},
        {{"probe", "--python", "python3"},
         "fwadvisor: --python 只适用于 框架工作负载（--workload frameworks 或 all）：在这里不起作用\n"
         "试试 'fwadvisor probe --help'。\n"},
        {{"probe", "list", "--no-save"},
         "fwadvisor: --no-save 只适用于 一次测量：在这里不起作用\n试试 'fwadvisor probe --help'。\n"},
        {{"probe", "lst"}, "fwadvisor: 未知的probe 子命令 'lst'（你是不是想用 'list'？）\n试试 'fwadvisor probe --help'。\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_error(cases[i].args, 2, cases[i].err);
}

Test(i18n_cli, kb_commands_in_chinese)
{
    struct ts_run r;
    RUN_ZH(r, dbarg, "kb", "list");
    cr_expect_eq(r.status, 0, "%s", r.err);
    expect_in(r.out, (const char *const[]){"名称", "版本", "发布", "截至", "条 frameworks。详情：fwadvisor kb show ID\n",
                                           NULL}, "kb list");
    expect_not_in(r.out, (const char *const[]){"NAME", "VERSION", "Details:", NULL}, "kb list");
    expect_fits(r.out, 80, "kb list");
    ts_run_free(&r);

    /* the criteria's names in the seed tables' words */
    RUN_ZH(r, dbarg, "kb", "list", "criteria");
    expect_in(r.out, (const char *const[]){"调试体验", "单卡训练速度", "人才储备", NULL}, "kb list criteria");
    expect_not_in(r.out, (const char *const[]){"Debugging experience", "Talent pool", NULL}, "kb list criteria");
    expect_fits(r.out, 80, "kb list criteria");
    ts_run_free(&r);

    RUN_ZH(r, dbarg, "kb", "list", "hardware");
    expect_in(r.out, (const char *const[]){"框架", "nvidia", "first：一等支持  yes：支持  exp：实验性",
                                           "*：在某些操作系统上有限制。框架详情：fwadvisor kb show FRAMEWORK\n", NULL},
              "kb list hardware");
    expect_not_in(r.out, (const char *const[]){"first-class", "limits on some", NULL}, "kb list hardware");
    expect_fits(r.out, 80, "kb list hardware");
    ts_run_free(&r);

    RUN_ZH(r, dbarg, "kb", "show", "pytorch");
    expect_in(r.out, (const char *const[]){"PyTorch（pytorch）", "，发布于 ", "评分（0-10，越高越适合你）", "硬件支持",
                                           "分布式训练", "部署", "契合度 ",
                                           /* the facts in Chinese: the summary, a score's note in the seed's words */
                                           "以 eager 为先的 Python 框架", "种子文章 001 评为优秀：eager 执行", NULL},
              "kb show");
    expect_not_in(r.out, (const char *const[]){"released", "Scores (", "Hardware support", "Distributed training",
                                               "Eager-first Python framework", "Seed 001 rates it", NULL},
                  "kb show");
    expect_fits(r.out, 80, "kb show");
    ts_run_free(&r);

    /* reset, export and import say what they did */
    RUN_ZH(r, dbarg, "kb", "reset");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "kb reset 会替换知识库") != NULL, "%s", r.err);
    expect_fits(r.err, 80 * 2, "kb reset"); /* one line, wrapped by the terminal as the English is */
    ts_run_free(&r);
    char newdb[4300];
    snprintf(newdb, sizeof newdb, "--db=%s/new.sqlite3", dir);
    RUN_ZH(r, newdb, "kb", "reset", "--yes");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strncmp(r.out, "知识库已创建：", strlen("知识库已创建：")) == 0, "%s", r.out);
    ts_run_free(&r);
    RUN_ZH(r, dbarg, "kb", "reset", "--yes");
    cr_expect(strstr(r.out, "知识库已重置：") && strstr(r.out, "（原文件保留为 "), "%s", r.out);
    ts_run_free(&r);
    char *file = ts_path(dir, "facts.json");
    RUN_ZH(r, dbarg, "kb", "export", "-o", file);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strncmp(r.err, "已导出到 ", strlen("已导出到 ")) == 0, "%s", r.err);
    ts_run_free(&r);
    RUN_ZH(r, dbarg, "kb", "import", file);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "已导入 ") && strstr(r.out, " 条事实：新增 0 条，修改 0 条，未变 "), "%s", r.out);
    ts_run_free(&r);
    RUN_EN(r, dbarg, "kb", "import", file);
    cr_expect(strncmp(r.out, "imported ", 9) == 0 && strstr(r.out, " facts: 0 added, 0 changed, "), "%s", r.out);
    ts_run_free(&r);
    free(file);

    static const struct {
        const char *args[4];
        const char *err;
    } cases[] = {
        {{"kb", "show"}, "fwadvisor: kb show 需要一个 ID\n试试 'fwadvisor kb --help'。\n"},
        {{"kb", "path", "x"}, "fwadvisor: kb path 不接受参数\n试试 'fwadvisor kb --help'。\n"},
        {{"kb"}, "fwadvisor: 缺少子命令（list、show、export、import、path、reset）\n试试 'fwadvisor kb --help'。\n"},
        {{"kb", "list", "--user"}, "fwadvisor: --user 只适用于 kb export：在这里不起作用\n试试 'fwadvisor kb --help'。\n"},
        {{"kb", "list", "framework"},
         "fwadvisor: 未知的类别 'framework'（你是不是想用 'frameworks'？）\n试试 'fwadvisor kb --help'。\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_error(cases[i].args, 2, cases[i].err);

    /* The kinds and ids under kb --help, aligned by display width */
    RUN_ZH(r, "kb", "--help");
    expect_in(r.out, (const char *const[]){"\nKIND：frameworks（默认）、criteria", "ID：  任一框架", NULL}, "kb --help");
    expect_fits(r.out, 80, "kb --help");
    ts_run_free(&r);
}

Test(i18n_cli, train_and_train_gpt_in_chinese)
{
    struct ts_run r;
    RUN_ZH(r, "train", "--layers", "8,16,4", "--steps", "5", "--batch", "4", "--threads", "1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    expect_in(r.out, (const char *const[]){"训练 8,16,4（", " 个参数），批 4，adam 学习率 0.001，ce 损失，relu，1", "个线程，合成数据",
                                           "步      1/5  损失 ", "步      5/5  损失 ", "每步时间：中位数 ", "吞吐量：",
                                           " 样本/秒，", "内存：常驻峰值 ", NULL}, "train");
    expect_not_in(r.out, (const char *const[]){"training", "step ", "throughput", "memory:", NULL}, "train");
    expect_fits(r.out, 80, "train");
    ts_run_free(&r);
    RUN_EN(r, "train", "--layers", "8,16,4", "--steps", "5", "--batch", "4", "--threads", "1");
    expect_in(r.out, (const char *const[]){"training 8,16,4 (", "parameters), batch 4, adam lr 0.001, ce loss, relu, 1",
                                           "thread, synthetic data",
                                           "step      5/5  loss ", "throughput: ", "memory: peak resident ", NULL},
              "train in English");
    ts_run_free(&r);

    RUN_ZH(r, "train", "--model", "gpt", "--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--ctx", "8", "--vocab", "32",
           "--batch", "2", "--steps", "3", "--threads", "2");
    cr_expect_eq(r.status, 0, "%s", r.err);
    expect_in(r.out, (const char *const[]){"训练 GPT：1 层，2 个头，宽 16，ctx 8，词表 32（", "个线程，合成词元",
                                           "步      3/3  损失 ", "词元/秒，模型 FLOPs ", "规划器估算 ", NULL}, "train gpt");
    expect_not_in(r.out, (const char *const[]){"training a GPT", "synthetic tokens", "tokens/s", NULL}, "train gpt");
    expect_fits(r.out, 80, "train gpt");
    ts_run_free(&r);

    static const struct {
        const char *args[8];
        const char *err;
    } cases[] = {
        {{"train", "--layers", "4,4", "--steps", "0.5"}, "fwadvisor: --steps 0.5：应为 1 到 1e+07 之间的整数\n"},
        {{"train", "--layers", "4,4", "--lr", "x"}, "fwadvisor: --lr x：应为 0 到 1e+06 之间的数\n"},
        {{"train", "--layers", "4,4", "--momentum", "0.5"},
         "fwadvisor: --momentum 只适用于 --optimizer momentum：在这里不起作用\n试试 'fwadvisor train --help'。\n"},
        {{"train", "--model", "gpt", "--bogus"}, "fwadvisor: 未知选项 '--bogus'（--model gpt）\n试试 'fwadvisor train --help'。\n"},
        {{"train", "--layers"}, "fwadvisor: 选项 '--layers' 需要一个值\n试试 'fwadvisor train --help'。\n"},
        {{"train", "--steps", "5"},
         "fwadvisor: 必须给出 --layers（例如 --layers 784,1024,1024,10）\n试试 'fwadvisor train --help'。\n"},
        {{"train", "--layers", "4,4", "extra"}, "fwadvisor: 多余的参数 'extra'\n试试 'fwadvisor train --help'。\n"},
        {{"train", "--model", "cnn"}, "fwadvisor: --model cnn：应为 mlp 或 gpt\n试试 'fwadvisor train --help'。\n"},
        {{"train", "--layers", "4,4", "--precision", "bf16"},
         "fwadvisor: --precision bf16 需要 GPU（--device cuda）：CPU 后端以 fp32 计算\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_error(cases[i].args, -1, cases[i].err);
}

/* JSON and files are English and the same in both languages. */
Test(i18n_cli, json_and_exports_the_same_in_chinese)
{
    store_runs();
    static const char *const runs[][6] = {
        {"probe", "show", "now", "--json"}, {"probe", "list", "--json"}, {"kb", "show", "pytorch", "--json"},
        {"kb", "list", "hardware", "--json"}, {"kb", "export"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        const char *args[8] = {dbarg};
        for (int j = 0; j < 6 && runs[i][j]; j++) args[j + 1] = runs[i][j];
        struct ts_run en, zh;
        cr_assert_eq(ts_run(&en, EN_ENV, NULL, args), 0);
        cr_assert_eq(ts_run(&zh, ZH_ENV, NULL, args), 0);
        cr_expect_eq(en.status, 0, "%s %s: %s", runs[i][0], runs[i][1], en.err);
        cr_expect(strlen(en.out) > 50, "%s %s", runs[i][0], runs[i][1]);
        cr_expect_str_eq(zh.out, en.out, "%s %s", runs[i][0], runs[i][1]);
        ts_run_free(&en);
        ts_run_free(&zh);
    }
}

/* In the program: the command line's words follow the language, the page's (the HTML report)
 * stay English, and a summary line cut at its 512 bytes never ends in half a character. */
Test(i18n_cli, shown_in_chinese_the_page_stays_english)
{
    const char *locales = getenv("FWADVISOR_LOCALES");
    cr_assert_not_null(locales);
    unsetenv("LANGUAGE");
    cr_assert_eq(i18n_init("zh", locales), I18N_ZH);
    cJSON *now = cJSON_Parse(RUNS[1]), *then = cJSON_Parse(RUNS[0]);
    struct measured_run *run = measured_read_new(now), *base = measured_read_new(then);
    cr_assert(run && base);
    struct probe_table *t = malloc(sizeof *t);
    cr_assert_not_null(t);
    probe_table_from(run, base, t);
    cr_expect(strncmp(probe_table_plan_note(t), "The planner's GPT step on this CPU: 250 ms", 40) == 0, "%s",
              probe_table_plan_note(t));
    cr_expect(strncmp(probe_table_plan_note_shown(t), "规划器在本 CPU 上的 GPT 步：250 ms",
                      strlen("规划器在本 CPU 上的 GPT 步：250 ms")) == 0,
              "%s", probe_table_plan_note_shown(t));
    cr_expect_str_eq(t->rows[0].cell[PT_CHANGE], "+25.0% better", "the row's cell, for the page");
    cr_expect_str_eq(probe_table_headers[PT_BASE], "BASELINE");
    cr_expect(strncmp(probe_table_noise_note(t), "! coefficient", 13) == 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_expect_eq(probe_table_print(f, t, 0), 3);
    fclose(f);
    expect_in(text, (const char *const[]){"负载", "基线", "变化", "+25.0% 更好", "新增", NULL}, "the table");
    expect_not_in(text, (const char *const[]){"WORKLOAD", "better", NULL}, "the table");
    expect_fits(text, 80, "the table");
    free(text);

    char lines[24][512];
    int n = probe_summary_from(run, lines, 24);
    cr_expect_eq(n, 3);
    cr_expect_str_eq(lines[0], "probe run now, 2026-01-02T00:00:00Z, 3.0 s");
    cr_expect_str_eq(lines[2], "gpu: 1 x Test GPU, 80.0 GB each, compute capability 9.0. found by the test");
    n = probe_summary_shown_from(run, lines, 24);
    cr_expect_str_eq(lines[0], "探测记录 now，2026-01-02T00:00:00Z，3.0 秒");
    cr_expect_str_eq(lines[2], "gpu：1 x Test GPU，每块 80.0 GB，计算能力 9.0。found by the test");
    /* the CPU's line at its limit: whole characters only */
    memset(run->cpu_peak_note, 'x', sizeof run->cpu_peak_note - 1);
    run->cpu_peak_note[sizeof run->cpu_peak_note - 1] = '\0';
    int cut = 0;
    run->nsimd = MEASURED_MAX_SIMD;
    for (int i = 0; i < MEASURED_MAX_SIMD; i++) snprintf(run->cpu_simd[i], sizeof run->cpu_simd[i], "avx512_vp2intersect");
    memset(run->cpu_model, 'm', sizeof run->cpu_model - 1);
    run->cpu_model[sizeof run->cpu_model - 1] = '\0';
    for (int note = 0; note < (int)sizeof run->cpu_peak_note; note++) {
        memset(run->cpu_peak_note, 'x', (size_t)note);
        run->cpu_peak_note[note] = '\0';
        probe_summary_shown_from(run, lines, 24);
        size_t bytes = strlen(lines[1]), close = strlen("）");
        cr_expect_eq(text_utf8_prefix(lines[1]), bytes, "note of %d bytes", note);
        cut |= bytes < close || strcmp(lines[1] + bytes - close, "）") != 0; /* cut before its closing parenthesis */
    }
    cr_expect(cut, "some length cuts the line at its end");
    free(t);
    free(run);
    free(base);
    cJSON_Delete(now);
    cJSON_Delete(then);

    /* the interrupted run's line, one sentence a case */
    struct probe_session *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    s->run = calloc(1, sizeof *s->run);
    cr_assert_not_null(s->run);
    snprintf(s->run->id, sizeof s->run->id, "r1");
    s->run->nresults = 2;
    char line[256];
    s->signal = SIGTERM;
    probe_session_signal_line(s, 1, line, sizeof line);
    cr_expect_str_eq(line, "被 SIGTERM 中断：已完成的 2 项结果已保存为探测记录 r1，标记为被中断");
    probe_session_signal_line(s, 0, line, sizeof line);
    cr_expect_str_eq(line, "被 SIGTERM 中断：未保存任何结果");
    i18n_init("en", locales);
    probe_session_signal_line(s, 1, line, sizeof line);
    cr_expect_str_eq(line, "interrupted by SIGTERM: the 2 finished results are saved as probe run r1, marked interrupted");
    s->run->nresults = 1;
    s->signal = 0;
    probe_session_signal_line(s, 1, line, sizeof line);
    cr_expect_str_eq(line, "interrupted: the 1 finished result is saved as probe run r1, marked interrupted");
    probe_session_signal_line(s, 0, line, sizeof line);
    cr_expect_str_eq(line, "interrupted: nothing was saved");
    free(s->run);
    free(s);
}
