/* The built-in facts: complete, sourced, dated and consistent with DESIGN.md's ids. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/kb.h"
#include "knowledge/kb_tables.h"
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
                                             "megatron", "tf-mirrored", "tf-tpu", "jax-sharding", "horovod", NULL};
    static const char *const runtimes[] = {"none", "litert", "executorch", "onnxruntime", "coreml", "tf-serving",
                                           "triton", "tfjs", NULL};
    static const char *const hardware[] = {"nvidia", "amd", "tpu", "apple", "intel", "ascend", "cpu", NULL};
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
    cr_expect_eq(count("SELECT count(*) FROM frameworks f, criteria c WHERE NOT EXISTS "
                       "(SELECT 1 FROM scores s WHERE s.framework = f.id AND s.criterion = c.id)", NULL), 0);
    cr_expect_eq(count("SELECT count(*) FROM scores", NULL), fw * cr);
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
    static const char *const vendors[] = {"nvidia", "amd", "tpu", "apple", "ascend", NULL};
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
                                      "apple-m4-max", "ascend-910b", "intel-max-1550", "gaudi3", NULL};
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
    /* Facts the research notes say changed since the seed articles. */
    cr_expect_eq(count("SELECT count(*) FROM hw_support WHERE framework = 'jax' AND hardware = 'apple' "
                       "AND level IN ('none', 'experimental', 'community')", NULL), 1, "jax-metal is dead");
    cr_expect_eq(count("SELECT count(*) FROM hw_support WHERE framework = 'tensorflow' AND hardware = 'nvidia' "
                       "AND os_limits LIKE '%2.10%'", NULL), 1, "TF GPU on native Windows ended with 2.10");
    cr_expect_eq(count("SELECT count(*) FROM runtimes WHERE id = 'litert' AND status = 'current'", NULL), 1);
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
