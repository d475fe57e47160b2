/* The built-in facts: complete, sourced, dated and consistent with DESIGN.md's ids. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/kb.h"
#include "knowledge/kb_tables.h"
#include "common/text.h"
#include "knowledge/kb_text.h"
#include "tests/support.h"

static struct ts_kb fx;
static kb *k;
static char *dir;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_kb_open(&fx, err, sizeof err), 0, "%s", err);
    k = fx.kb;
    dir = fx.dir;
}

static void teardown(void) { ts_kb_close(&fx); }

TestSuite(kb_seed, .init = setup, .fini = teardown);

static long long count(const char *sql, const char *arg)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(k), sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(kb_db(k)));
    if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    long long v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static void expect_ids(const char *table, const char *const *ids)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE id = ?", table);
    int n = 0;
    for (const char *const *id = ids; *id; id++, n++)
        cr_expect_eq(count(sql, *id), 1, "%s lacks '%s'", table, *id);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    cr_expect_eq(count(sql, NULL), n, "%s has ids beyond DESIGN.md's", table);
}

Test(kb_seed, every_design_id_exists)
{
    static const char *const frameworks[] = {"pytorch", "tensorflow", "jax", "keras", "fastai", "mlx",
                                             "paddlepaddle", "mindspore", NULL};
    static const char *const strategies[] = {"single", "ddp", "fsdp", "zero1", "zero2", "zero3", "zero3-offload",
                                             "megatron", "fsdp-tp", "torch-xla", "tf-mirrored", "tf-tpu", "tf-ps",
                                             "torchrec", "jax-sharding", "horovod", "moe-ep", NULL};
    static const char *const runtimes[] = {"none", "litert", "executorch", "onnxruntime", "coreml", "tf-serving",
                                           "triton", "tfjs", "vllm", "sglang", "tensorrt-llm", "tensorrt", "openvino",
                                           "jetstream", "mindie", "paddle-lite", "mindspore-lite", "vllm-neuron",
                                           "vllm-gaudi", "llama-cpp", "ollama", "mlx-lm", "litert-lm",
                                           "windows-ml", NULL};
    static const char *const hardware[] = {"nvidia", "amd", "tpu", "apple", "intel", "ascend", "trainium", "gaudi", "cpu", NULL};
    expect_ids("frameworks", frameworks);
    expect_ids("strategies", strategies);
    expect_ids("runtimes", runtimes);
    expect_ids("hardware", hardware);
}

Test(kb_seed, seed_article_dimensions_are_criteria)
{
    static const char *const criteria[] = {
        "single_device_speed", "multi_device_scaling", "memory_efficiency", "debugging", "deployment", /* 001 */
        "training_efficiency", "talent", "hardware_fit", "maintenance_cost", "stage_fit",             /* 003 */
        "learning_curve", "ecosystem", "maturity", NULL};
    expect_ids("criteria", criteria);
}

Test(kb_seed, every_framework_has_every_criterion_and_platform)
{
    long long fw = count("SELECT count(*) FROM frameworks", NULL);
    long long cr = count("SELECT count(*) FROM criteria", NULL);
    long long hw = count("SELECT count(*) FROM hardware", NULL);
    /* hardware_fit is scored per platform (hw_support.fit), every other criterion per framework. */
    cr_expect_eq(count("SELECT count(*) FROM frameworks f, criteria c WHERE c.id <> 'hardware_fit' AND NOT EXISTS "
                       "(SELECT 1 FROM scores s WHERE s.framework = f.id AND s.criterion = c.id)", NULL), 0);
    cr_expect_eq(count("SELECT count(*) FROM scores WHERE criterion = 'hardware_fit'", NULL), 0);
    cr_expect_eq(count("SELECT count(*) FROM scores", NULL), fw * (cr - 1));
    cr_expect_eq(count("SELECT count(*) FROM frameworks f, hardware h WHERE NOT EXISTS "
                       "(SELECT 1 FROM hw_support s WHERE s.framework = f.id AND s.hardware = h.id)", NULL), 0);
    cr_expect_eq(count("SELECT count(*) FROM hw_support", NULL), fw * hw);
}

/* The whole built-in data passes the import validator: every fact has an existing source, a
 * valid as-of date, allowed values, in-range numbers and rules that reference real ids. */
Test(kb_seed, builtin_facts_pass_import_validation)
{
    cJSON *doc;
    cr_assert_eq(kb_export(k, 0, &doc, err, sizeof err), KB_OK, "%s", err);
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    struct kb_import_stats stats;
    cr_assert_eq(kb_import(k, text, strlen(text), "built-in", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(stats.added + stats.changed, 0, "re-importing the built-in facts changed %d rows",
                 stats.added + stats.changed);
    cr_expect_gt(stats.unchanged, 300);
    free(text);
}

Test(kb_seed, every_source_is_cited_or_described)
{
    /* Sources must have a title, a URL or citation and a date form we accept. */
    cr_expect_eq(count("SELECT count(*) FROM sources WHERE title = '' OR url = '' OR published = ''", NULL), 0);
    static const char *const seeds[] = {"seed-000", "seed-001", "seed-002", "seed-003", NULL};
    for (const char *const *s = seeds; *s; s++) {
        long long cited = count("SELECT (SELECT count(*) FROM scores WHERE source = ?1) + "
                                "(SELECT count(*) FROM rules WHERE source = ?1) + "
                                "(SELECT count(*) FROM hw_support WHERE source = ?1) + "
                                "(SELECT count(*) FROM criteria WHERE source = ?1)", *s);
        cr_expect_gt(cited, 0, "seed article %s is never cited", *s);
    }
}

Test(kb_seed, accelerator_catalog_has_dense_peaks)
{
    cr_expect_geq(count("SELECT count(*) FROM accelerators", NULL), 15);
    static const char *const vendors[] = {"nvidia", "amd", "tpu", "apple", "ascend", "trainium", "gaudi", NULL};
    for (const char *const *v = vendors; *v; v++)
        cr_expect_gt(count("SELECT count(*) FROM accelerators WHERE vendor = ?", *v), 0, "no %s device", *v);
    /* Dense figures: BF16 never above FP16 tensor throughput, and H100/H200 dense BF16 below the
     * 1979 TFLOP/s that assumes 2:4 sparsity. */
    cr_expect_eq(count("SELECT count(*) FROM accelerators WHERE fp16_tflops > 0 AND bf16_tflops > fp16_tflops * 1.01", NULL), 0);
    cr_expect_eq(count("SELECT count(*) FROM accelerators WHERE (name LIKE '%H100%' OR name LIKE '%H200%') "
                       "AND bf16_tflops > 1000", NULL), 0);
    cr_expect_eq(count("SELECT count(*) FROM accelerators WHERE vendor = 'nvidia' AND compute_capability = ''", NULL), 0);
}

/* The devices teams plan on, with what the planner needs of each: memory, the dense rate per
 * precision (V100 and T4 without BF16, FP8 from Hopper, Ada and CDNA 3 on), links, a source. */
Test(kb_seed, accelerator_catalog_covers_current_devices)
{
    static const char *const ids[] = {"v100-sxm2-32gb", "t4", "a10g", "a100-sxm4-40gb", "a100-sxm4-80gb", "l4", "l40",
                                      "l40s", "rtx-4090", "rtx-5090", "h100-sxm", "h200-sxm", "b200", "b300", "gb200",
                                      "mi250x", "mi300x", "mi325x", "mi355x", "rx-7900-xtx", "tpu-v4", "tpu-v5e",
                                      "tpu-v5p", "tpu-v6e", "tpu7x", "apple-m2-ultra", "apple-m3-max", "apple-m3-ultra",
                                      "apple-m4-max", "ascend-910b", "intel-max-1550", "gaudi3", "trainium2",
                                      "trainium3", "ascend-910c", "ascend-950pr", "apple-m5", "apple-m5-pro",
                                      "apple-m5-max", "rtx-pro-6000", "rtx-pro-6000-ws", "dgx-spark", "jetson-thor", "h20",
                                      "h800-sxm", "gb300", "mi350x", NULL};
    for (const char *const *id = ids; *id; id++)
        cr_expect_eq(count("SELECT count(*) FROM accelerators WHERE id = ?", *id), 1, "no %s", *id);
    cr_expect_eq(count("SELECT bf16_tflops FROM accelerators WHERE id = ?", "v100-sxm2-32gb"), 0, "Volta has no BF16");
    cr_expect_eq(count("SELECT bf16_tflops FROM accelerators WHERE id = ?", "t4"), 0, "Turing has no BF16");
    static const char *const fp8[] = {"h100-sxm", "h200-sxm", "b200", "b300", "gb200", "l4", "l40s", "rtx-4090",
                                      "mi300x", "mi355x", "tpu7x", "gaudi3", NULL};
    for (const char *const *id = fp8; *id; id++)
        cr_expect_gt(count("SELECT fp8_tflops > 0 FROM accelerators WHERE id = ?", *id), 0, "%s has FP8", *id);
    cr_expect_eq(count("SELECT fp8_tflops FROM accelerators WHERE id = ?", "a100-sxm4-80gb"), 0, "Ampere has no FP8");
    cr_expect_eq(count("SELECT memory_gb FROM accelerators WHERE id = ?", "intel-max-1550"), 64, "one stack, FLAT mode");
    cr_expect_eq(count("SELECT memory_gb FROM accelerators WHERE id = ?", "tpu-v5e"), 16, "Colab's TPU v5e-1");
    /* Dense FP8 is about twice dense BF16, never four times (a sparse figure); the L40S datasheet
     * rounds its FP8 to 733, 2.02 x its BF16. */
    cr_expect_eq(count("SELECT count(*) FROM accelerators WHERE bf16_tflops > 0 AND fp8_tflops > 2.1 * bf16_tflops", NULL), 0);
    /* Every data-centre GPU of a reference system has its links. */
    static const char *const linked[] = {"a100-sxm4-80gb", "h100-sxm", "b200", "gb200", "mi300x", "tpu-v5p", "gaudi3", NULL};
    for (const char *const *id = linked; *id; id++)
        cr_expect_gt(count("SELECT link_gbs > 0 AND network_gbs > 0 FROM accelerators WHERE id = ?", *id), 0, "%s links", *id);
    cr_expect_eq(count("SELECT count(*) FROM accelerators a LEFT JOIN sources s ON s.id = a.source WHERE s.id IS NULL", NULL), 0);
    /* One assumed device per vendor. */
    cr_expect_eq(count("SELECT count(*) FROM (SELECT vendor FROM accelerators WHERE planner_default = 1 GROUP BY vendor "
                       "HAVING count(*) > 1)", NULL), 0);
}

Test(kb_seed, rules_cover_the_seed_articles)
{
    cr_expect_geq(count("SELECT count(*) FROM rules WHERE kind = 'decision' AND source = 'seed-002'", NULL), 5,
                  "seed 002's decision tree has five questions");
    cr_expect_geq(count("SELECT count(*) FROM rules WHERE kind = 'qa' AND source = 'seed-002'", NULL), 4,
                  "seed 002 has four Q&A");
    cr_expect_geq(count("SELECT count(*) FROM rules WHERE kind = 'pitfall' AND source = 'seed-003'", NULL), 3,
                  "seed 003's checklist has three pitfalls");
    cr_expect_gt(count("SELECT count(*) FROM rules WHERE kind = 'weight'", NULL), 0);
    cr_expect_gt(count("SELECT count(*) FROM rules WHERE kind = 'rule_of_thumb' AND effect LIKE '%facts%'", NULL), 0);
}

Test(kb_seed, strategies_follow_the_zero_paper)
{
    /* ZeRO paper, mixed-precision Adam: 16 bytes per parameter in all, split by stage. */
    struct { const char *id; double replicated, sharded; } want[] = {
        {"ddp", 16, 0}, {"zero1", 4, 12}, {"zero2", 2, 14}, {"zero3", 0, 16}, {"fsdp", 0, 16}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        sqlite3_stmt *st;
        sqlite3_prepare_v2(kb_db(k), "SELECT replicated_bytes_per_param, sharded_bytes_per_param FROM strategies "
                                     "WHERE id = ?", -1, &st, NULL);
        sqlite3_bind_text(st, 1, want[i].id, -1, SQLITE_STATIC);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s missing", want[i].id);
        cr_expect_float_eq(sqlite3_column_double(st, 0), want[i].replicated, 1e-9, "%s", want[i].id);
        cr_expect_float_eq(sqlite3_column_double(st, 1), want[i].sharded, 1e-9, "%s", want[i].id);
        sqlite3_finalize(st);
    }
    cr_expect_eq(count("SELECT count(*) FROM strategies WHERE id = 'horovod' AND status = 'legacy'", NULL), 1);
}

Test(kb_seed, dated_judgements_cite_newer_facts)
{
    /* Facts the research notes and newer sources say changed since the seed articles. */
    cr_expect_eq(count("SELECT count(*) FROM hw_support WHERE framework = 'jax' AND hardware = 'apple' "
                       "AND level = 'community' AND source = 'jax-mps' AND also LIKE '%jax-metal-dead%'", NULL), 1,
                 "jax-metal is dead, a community PJRT plug-in (jax-mps) drives the Apple GPU");
    cr_expect_eq(count("SELECT count(*) FROM hw_support WHERE framework = 'tensorflow' AND hardware = 'nvidia' "
                       "AND json_extract(os_support, '$.windows.level') = 'supported' "
                       "AND json_extract(os_support, '$.windows.since') = '2.11' "
                       "AND json_extract(os_support, '$.windows.source') = 'tf-2.11.1' AND also LIKE '%directml-sustained%'",
                       NULL), 1, "TF GPU on native Windows ended with 2.10: WSL2, DirectML in sustained engineering");
    cr_expect_eq(count("SELECT count(*) FROM hw_support WHERE framework = 'tensorflow' AND hardware = 'tpu' "
                       "AND note LIKE '%TPU7x%' AND source = 'tpu7x-docs'", NULL), 1, "TensorFlow is not supported on TPU7x");
    cr_expect_eq(count("SELECT count(*) FROM hw_support WHERE framework = 'mlx' AND hardware = 'nvidia' "
                       "AND note LIKE '%mlx[cuda12]%' AND note LIKE '%mlx[cuda13]%'", NULL), 1, "MLX's CUDA install");
    cr_expect_eq(count("SELECT count(*) FROM hw_support WHERE framework = 'pytorch' AND hardware = 'amd' "
                       "AND note LIKE '%ROCm 7%' AND source = 'pytorch-rocm7'", NULL), 1, "PyTorch ships ROCm 7.x wheels");
    cr_expect_eq(count("SELECT count(*) FROM rules WHERE id = 'tree-amd' AND text LIKE '%ROCm 7%' AND text NOT LIKE '%ROCm 6.3%'",
                       NULL), 1);
    cr_expect_eq(count("SELECT count(*) FROM rules WHERE id = 's-higher-order-grad' AND also LIKE '%torch-func%' "
                       "AND json_extract(effect, '$.score.pytorch') > 0 AND json_extract(effect, '$.score.jax') > "
                       "json_extract(effect, '$.score.pytorch')", NULL), 1, "torch.func qualifies PyTorch; JAX keeps an edge");
    cr_expect_eq(count("SELECT count(*) FROM runtimes WHERE summary LIKE '%TorchServe%archived%' OR summary LIKE '%archived by%'",
                       NULL), 0, "TorchServe is in limited maintenance, not archived");
    cr_expect_eq(count("SELECT count(*) FROM sources WHERE id = 'torchserve-limited' AND note LIKE '%Limited Maintenance%'", NULL), 1);
    cr_expect_eq(count("SELECT count(*) FROM runtimes WHERE id = 'litert' AND status = 'current'", NULL), 1);
}

/* Every fact a reader sees may carry several sources: the seed and the newer evidence. */
Test(kb_seed, refreshed_seed_ratings_keep_the_seed_and_the_evidence)
{
    cr_expect_eq(count("SELECT count(*) FROM scores WHERE framework = 'pytorch' AND criterion = 'deployment' "
                       "AND source = 'seed-001' AND also LIKE '%executorch-1.0%'", NULL), 1);
    /* Every score that says a seed rating was raised or lowered cites the evidence beside it. */
    cr_expect_eq(count("SELECT count(*) FROM scores WHERE (note LIKE '%raised%' OR note LIKE '%lowered%') "
                       "AND also = '' AND source LIKE 'seed-%'", NULL), 0);
}

/* No strategy that cannot run on TPUs is offered there (DeepSpeed ZeRO, Megatron, Horovod,
 * FSDP on CUDA), and the TPU has a route for PyTorch (torch-xla), JAX and TensorFlow. */
Test(kb_seed, strategies_name_the_hardware_they_run_on)
{
    cr_expect_eq(count("SELECT count(*) FROM strategy_frameworks WHERE hardware = ''", NULL), 0);
    cr_expect_eq(count("SELECT count(*) FROM strategy_frameworks WHERE ',' || hardware || ',' LIKE '%,tpu,%' "
                       "AND strategy IN ('zero1', 'zero2', 'zero3', 'zero3-offload', 'megatron', 'horovod', 'fsdp', 'fsdp-tp', 'ddp', 'torchrec') "
                       "AND framework IN ('pytorch', 'fastai', 'tensorflow', 'paddlepaddle', 'mindspore')", NULL), 0);
    static const char *const tpu_routes[] = {"pytorch", "jax", "tensorflow", NULL};
    for (const char *const *f = tpu_routes; *f; f++)
        cr_expect_gt(count("SELECT count(*) FROM strategy_frameworks WHERE framework = ? AND ',' || hardware || ',' LIKE '%,tpu,%'",
                           *f), 0, "%s has no TPU strategy", *f);
    /* Triton runs on NVIDIA GPUs and CPUs only. */
    cr_expect_eq(count("SELECT count(*) FROM runtimes WHERE id = 'triton' AND hardware = 'nvidia,cpu'", NULL), 1);
}

Test(kb_seed, table_descriptions_match_the_schema)
{
    for (int t = 0; t < kb_table_count; t++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = ?", kb_tables[t].name);
        for (int c = 0; c < kb_tables[t].ncols; c++)
            cr_expect_eq(count(sql, kb_tables[t].cols[c].name), 1, "%s.%s not in schema", kb_tables[t].name,
                         kb_tables[t].cols[c].name);
        cr_expect_eq(count(sql, "origin"), 1, "%s has no origin column", kb_tables[t].name);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s')", kb_tables[t].name);
        cr_expect_eq(count(sql, NULL), kb_tables[t].ncols + 1, "%s: schema and description differ", kb_tables[t].name);
    }
}

/* One seed rating, one number (10_frameworks.sql's table): the first glossed rating in a
 * score's note, moved only by the steps the note states ("raised one step", "lowered two
 * steps"), gives the score. Maintenance cost rates a cost, so "high" is bad there. */
Test(kb_seed, seed_ratings_map_to_one_number)
{
    static const struct { const char *word; int score, cost; } ratings[] = {
        {"优秀", 9, -1}, {"极佳", 9, -1}, {"丰富", 9, -1}, {"好", 8, -1}, {"快", 8, -1}, {"高", 8, 4},
        {"中等", 6, -1}, {"中", 6, 6}, {"一般", 5, -1}, {"较差", 4, -1}, {"稀缺", 3, -1}, {"低", -1, 8},
    };
    static const struct { const char *phrase; int steps; } moves[] = {
        {"raised one step", 1}, {"raised two steps", 2}, {"lowered one step", -1}, {"lowered two steps", -2},
    };
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(k), "SELECT framework, criterion, score, note FROM scores", -1, &st, NULL), SQLITE_OK);
    int checked = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *fw = (const char *)sqlite3_column_text(st, 0), *crit = (const char *)sqlite3_column_text(st, 1);
        const char *note = (const char *)sqlite3_column_text(st, 3);
        int score = sqlite3_column_int(st, 2), is_cost = strcmp(crit, "maintenance_cost") == 0;
        /* The first "(word)" that is a rating. */
        int want = -1;
        for (const char *p = strchr(note, '('); p && want < 0; p = strchr(p + 1, '(')) {
            const char *end = strchr(p, ')');
            if (!end) break;
            for (size_t r = 0; r < sizeof ratings / sizeof ratings[0]; r++)
                if ((size_t)(end - p - 1) == strlen(ratings[r].word) && strncmp(p + 1, ratings[r].word, strlen(ratings[r].word)) == 0)
                    want = is_cost ? ratings[r].cost : ratings[r].score;
        }
        if (want < 0) continue;
        for (size_t m = 0; m < sizeof moves / sizeof moves[0]; m++)
            if (strstr(note, moves[m].phrase)) want += moves[m].steps;
        cr_expect_eq(score, want, "%s %s: the note's seed rating and steps give %d, the score is %d: %s", fw, crit, want,
                     score, note);
        checked++;
    }
    sqlite3_finalize(st);
    cr_expect_geq(checked, 24, "the seed tables rate 3 frameworks on 8 criteria and more");
}

/* Counts '?' in s. */
static int questions(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '?';
    return n;
}

/* Everything the program can print from the knowledge base reads in English: Chinese appears
 * only in parentheses beside an English gloss, so an ASCII terminal shows the gloss and never
 * '??' (text_ascii drops the parenthesised original). */
static void check_strings(const cJSON *v, const char *where)
{
    if (cJSON_IsString(v)) {
        size_t n = strlen(v->valuestring) * 3 + 1;
        char *ascii = malloc(n);
        text_ascii(v->valuestring, ascii, n);
        cr_expect_eq(questions(ascii), questions(v->valuestring), "%s: unglossed non-ASCII text: %s", where, v->valuestring);
        int letters = 0;
        for (const char *p = ascii; *p; p++) letters += (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z');
        cr_expect(!*v->valuestring || letters > 0 || strspn(v->valuestring, "0123456789.-,:/ ") == strlen(v->valuestring),
                  "%s: no English left: %s", where, v->valuestring);
        free(ascii);
        return;
    }
    /* the Chinese twins (NOTE_zh, and note_zh inside os_support) are Chinese by design */
    for (const cJSON *e = v ? v->child : NULL; e; e = e->next)
        if (!e->string || !kb_text_is_twin(e->string)) check_strings(e, where);
}

Test(kb_seed, every_text_reads_in_english_on_an_ascii_terminal)
{
    cJSON *doc;
    cr_assert_eq(kb_export(k, 0, &doc, err, sizeof err), KB_OK, "%s", err);
    for (const cJSON *table = doc->child; table; table = table->next) check_strings(table, table->string);
    cJSON_Delete(doc);
    /* The filter itself, on a gloss, an unglossed word and punctuation it can spell in ASCII. */
    char out[128];
    text_ascii("Seed 001 rates it medium (中等) \xe2\x80\x94 not poor (较差).", out, sizeof out);
    cr_expect_str_eq(out, "Seed 001 rates it medium - not poor.");
    text_ascii("JAX 是亲儿子", out, sizeof out);
    cr_expect_str_eq(out, "JAX ????", "unglossed text is visible as such");
}

/* 1 when s holds a CJK ideograph. */
static int has_han(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (p[0] == 0xe4 || (p[0] >= 0xe5 && p[0] <= 0xe9)) return 1; /* U+4E00..U+9FFF lead bytes */
    return 0;
}

/* Every built-in row of prose has its Chinese twin (data/kb/90_zh_CN.sql), the notes of the
 * operating-system entries too, and a twin of a text (not a name) is Chinese, not a copy. */
Test(kb_seed, every_builtin_text_has_its_chinese)
{
    int columns = 0;
    for (int t = 0; t < kb_table_count; t++) {
        const struct kb_table *tab = &kb_tables[t];
        for (int c = 0; c < tab->ncols; c++) {
            const struct kb_column *zh = kb_column_zh(tab, &tab->cols[c]);
            if (!zh) continue;
            columns++;
            char sql[256];
            snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE origin = 'builtin' AND %s <> '' AND %s = ''", tab->name,
                     tab->cols[c].name, zh->name);
            cr_expect_eq(count(sql, NULL), 0, "%s.%s: rows without their Chinese", tab->name, tab->cols[c].name);
            /* names and titles may be product names, the same in both languages */
            if (strcmp(tab->cols[c].name, "name") == 0 || strcmp(tab->cols[c].name, "title") == 0) continue;
            snprintf(sql, sizeof sql, "SELECT %s, %s FROM %s WHERE origin = 'builtin' AND length(%s) > 40", tab->cols[c].name,
                     zh->name, tab->name, tab->cols[c].name);
            sqlite3_stmt *st;
            cr_assert_eq(sqlite3_prepare_v2(kb_db(k), sql, -1, &st, NULL), SQLITE_OK);
            while (sqlite3_step(st) == SQLITE_ROW)
                cr_expect(has_han((const char *)sqlite3_column_text(st, 1)), "%s.%s: not Chinese: %s", tab->name, zh->name,
                          (const char *)sqlite3_column_text(st, 1));
            sqlite3_finalize(st);
        }
    }
    cr_expect_eq(columns, 17, "the prose columns of the schema");
    cr_expect_eq(count("SELECT count(*) FROM hw_support, json_each(os_support) WHERE json_extract(value, '$.note') <> ''"
                       " AND coalesce(json_extract(value, '$.note_zh'), '') = ''",
                       NULL),
                 0, "operating-system notes without their Chinese");
    cr_expect_geq(count("SELECT count(*) FROM hw_support, json_each(os_support) WHERE json_extract(value, '$.note_zh') <> ''",
                        NULL),
                  15);
}

/* Where an English text glosses a seed article's words, "rated average (一般)", the Chinese twin
 * carries those words as the article wrote them (the part before any ": English" in the gloss). */
Test(kb_seed, the_chinese_keeps_the_seed_articles_words)
{
    static const char *const cols[][2] = {{"scores", "note"}, {"rules", "text"}, {"rules", "title"}, {"hw_support", "note"},
                                          {"strategies", "summary"}, {"strategy_frameworks", "note"},
                                          {"runtime_frameworks", "note"}, {"sources", "note"}, {"frameworks", "summary"}};
    int glosses = 0;
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT %s, %s_zh FROM %s", cols[i][1], cols[i][1], cols[i][0]);
        sqlite3_stmt *st;
        cr_assert_eq(sqlite3_prepare_v2(kb_db(k), sql, -1, &st, NULL), SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *en = (const char *)sqlite3_column_text(st, 0), *zh = (const char *)sqlite3_column_text(st, 1);
            for (const char *p = strchr(en, '('); p; p = strchr(p + 1, '(')) {
                size_t len = strcspn(p + 1, ":)");
                char words[256];
                snprintf(words, sizeof words, "%.*s", (int)(len < sizeof words ? len : sizeof words - 1), p + 1);
                if (!has_han(words) || strchr(words, '(')) continue;
                glosses++;
                cr_expect(strstr(zh, words) != NULL, "%s.%s: '%s' not in: %s", cols[i][0], cols[i][1], words, zh);
            }
        }
        sqlite3_finalize(st);
    }
    cr_expect_geq(glosses, 55, "the seed glosses looked at");
}
